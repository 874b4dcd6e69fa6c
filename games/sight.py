"""Line of sight between two rooms of a dungeon map (RULES.md section 4).

The line runs straight from the centre of one room to the centre of the other.
Only walls and doors block it: not figures, monsters, items, nor the rooms it
passes through.

Coordinates: room ``(col, row)`` spans x from ``col - 1`` to ``col`` and y
from ``row - 1`` to ``row`` (room units, y downwards), so its centre is
``(col - 1/2, row - 1/2)`` and the grid lines lie on whole numbers. Every
crossing is worked out with ``fractions.Fraction``, never floats, so a line
that meets a grid corner exactly is known to do so.

Decisions, where the rules leave a choice:

- A Magic Door blocks the line whatever its icon: it is a door.
- A Rune Gate does not block: a gate is bars you can see through.
- A cave entrance is an entryway drawn on a wall; the wall still blocks.
- A line passing exactly through a grid corner touches the four sides that
  meet there. Going from room P past the corner to the diagonal room Q, with
  R1 and R2 the two other rooms at that corner, it sees past the corner if it
  could be nudged off the corner to one side without crossing a wall or door:
  it is blocked only if the way through R1 (side P|R1 or R1|Q a wall or door)
  and the way through R2 are both blocked. So a corner where two walls meet
  on one side is seen past; walls on both sides of it (a straight wall
  through the corner, say) are not.
- A room sees itself; ``visible_from`` lists the other rooms only.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from games.board import side_name
from games.errors import ScrawlError
from games.maps import STEP, DungeonMap, Room, interior_side


@dataclass(frozen=True)
class Sight:
    """Whether room ``a`` sees room ``b``, and why.

    ``crossed`` names what the line crosses, in order from ``a``: sides like ``"C4-D4"`` and, where the line
    passes exactly through a grid corner, ``"corner of C4, D4, C5, D5"``. ``blocked_by`` is the first of
    them that blocks the line, with what blocks it (``"wall"``, ``"magic door (moon)"``, or for a corner
    ``"walls"``, ``"a wall and a magic door (moon)"``...), or None. ``rooms`` are the rooms the line passes
    through, ``a`` and ``b`` included.
    """

    a: Room
    b: Room
    clear: bool
    blocked_by: tuple[str, str] | None
    crossed: tuple[str, ...]
    rooms: tuple[Room, ...]


def check_room(dungeon: DungeonMap, room: Room) -> Room:
    """The room itself if it is on the map; a ``ScrawlError`` naming the map's size if not."""
    if not dungeon.contains(room):
        last = Room(dungeon.cols, dungeon.rows)
        raise ScrawlError(f"room {room.name} is not on the {dungeon.cols}x{dungeon.rows} map "
                          f"(its rooms run from A1 to {last.name})")
    return room


def parse_room(dungeon: DungeonMap, name: str) -> Room:
    """``Room.parse`` for a room that must be on this map; every failure is a ``ScrawlError``."""
    try:
        room = Room.parse(name)
    except ValueError as exc:
        raise ScrawlError(str(exc)) from None
    return check_room(dungeon, room)


def sight(dungeon: DungeonMap, a: Room, b: Room) -> Sight:
    """Follow the line from the centre of ``a`` to the centre of ``b`` and say what blocks it first."""
    check_room(dungeon, a)
    check_room(dungeon, b)
    crossed: list[str] = []
    rooms = [a]
    blocked_by = None
    step_x, step_y = _sign(b.col - a.col), _sign(b.row - a.row)
    here = a
    for on_x_line, on_y_line in _crossings(a, b):
        if on_x_line and on_y_line:
            # Exactly through a corner: on to the diagonal room, past it one way round or the other.
            way_1, way_2 = Room(here.col + step_x, here.row), Room(here.col, here.row + step_y)
            there = Room(here.col + step_x, here.row + step_y)
            name = "corner of " + ", ".join(room.name for room in sorted((here, way_1, way_2, there),
                                                                          key=_reading_order))
            blockers_1 = [what for what in (_blocker(dungeon, here, way_1), _blocker(dungeon, way_1, there)) if what]
            blockers_2 = [what for what in (_blocker(dungeon, here, way_2), _blocker(dungeon, way_2, there)) if what]
            blocker = _several(blockers_1 + blockers_2) if blockers_1 and blockers_2 else None
        else:
            there = Room(here.col + step_x, here.row) if on_x_line else Room(here.col, here.row + step_y)
            name = side_name(interior_side(here, there))
            blocker = _blocker(dungeon, here, there)
        crossed.append(name)
        rooms.append(there)
        if blocker and blocked_by is None:
            blocked_by = (name, blocker)
        here = there
    return Sight(a, b, blocked_by is None, blocked_by, tuple(crossed), tuple(rooms))


def sees(dungeon: DungeonMap, a: Room, b: Room) -> bool:
    """Whether ``a`` sees ``b`` (always the same as whether ``b`` sees ``a``)."""
    return sight(dungeon, a, b).clear


def visible_from(dungeon: DungeonMap, room: Room) -> list[Room]:
    """Every other room ``room`` sees, in reading order (row by row from the top-left)."""
    check_room(dungeon, room)
    return [other for other in dungeon.rooms() if other != room and sees(dungeon, room, other)]


def describe(dungeon: DungeonMap, seen: Sight) -> str:
    """One sentence: ``C4 does not see F7: a wall between D5 and E5 blocks the line``."""
    a, b = seen.a.name, seen.b.name
    if seen.a == seen.b:
        return f"{a} sees {b}: a room always sees itself"
    if seen.blocked_by is None:
        gates = [name for name in seen.crossed if name in _gate_names(dungeon)]
        note = ""
        if gates:
            note = (f"; the Rune Gate on {gates[0]} does not block it" if len(gates) == 1 else
                    f"; the Rune Gates on {', '.join(gates[:-1])} and {gates[-1]} do not block it")
        return f"{a} sees {b}: no wall or door blocks the line (it crosses {_path(seen)}){note}"
    where, what = seen.blocked_by
    if where.startswith("corner of "):
        return (f"{a} does not see {b}: the line passes exactly through the {where}, "
                f"and {what} block it both ways round")
    first, second = where.split("-")
    return f"{a} does not see {b}: a {what} between {first} and {second} blocks the line"


def picture(dungeon: DungeonMap, marks: dict[Room, str]) -> str:
    """The map as text with one mark in each room (``.`` where ``marks`` has none): walls ``|`` and ``---``
    (a cave entrance's wall too), Magic Doors ``D``, Rune Gates ``g``, entryways ``v > ^ <``."""
    def horizontal(room: Room) -> str:           # the side above ``room``
        if room.row == 1:
            return " v " if (room, "N") in dungeon.entries else "---"
        if room.row > dungeon.rows:
            return " ^ " if (Room(room.col, dungeon.rows), "S") in dungeon.entries else "---"
        return {"wall": "---", "door": "-D-", "gate": " g ", "passage": "   "}[_kind(dungeon, room, "N")]

    def vertical(room: Room) -> str:             # the side left of ``room``
        if room.col == 1:
            return ">" if (room, "W") in dungeon.entries else "|"
        if room.col > dungeon.cols:
            return "<" if (Room(dungeon.cols, room.row), "E") in dungeon.entries else "|"
        return {"wall": "|", "door": "D", "gate": "g", "passage": " "}[_kind(dungeon, room, "W")]

    columns = range(1, dungeon.cols + 1)
    lines = ["   " + "".join(f"  {Room(col, 1).name[0]} " for col in columns).rstrip()]
    for row in range(1, dungeon.rows + 2):
        lines.append("   +" + "".join(horizontal(Room(col, row)) + "+" for col in columns))
        if row <= dungeon.rows:
            lines.append(f"{row:>2} " + "".join(vertical(Room(col, row)) + f" {marks.get(Room(col, row), '.')} "
                                                for col in columns) + vertical(Room(dungeon.cols + 1, row)))
    return "\n".join(lines)


def legend(dungeon: DungeonMap, marks: list[tuple[str, str]]) -> str:
    """The key under a ``picture``: the given marks, then walls and whatever else this map has."""
    parts = [f"{mark} {meaning}" for mark, meaning in marks] + ["| --- wall"]
    if dungeon.doors:
        parts.append("D Magic Door")
    if dungeon.gates:
        parts.append("g Rune Gate (see-through)")
    return "   ".join(parts)


def _crossings(a: Room, b: Room):
    """For each grid line the line from ``a``'s centre to ``b``'s crosses, in order from ``a``:
    ``(on a vertical grid line, on a horizontal grid line)``; both at a grid corner."""
    x0, y0 = Fraction(2 * a.col - 1, 2), Fraction(2 * a.row - 1, 2)
    dx, dy = b.col - a.col, b.row - a.row
    found: dict[Fraction, tuple[bool, bool]] = {}
    for k in _whole_numbers_between(x0, x0 + dx):
        t = (k - x0) / dx
        found[t] = (True, (y0 + t * dy).denominator == 1)
    for k in _whole_numbers_between(y0, y0 + dy):
        t = (k - y0) / dy
        found.setdefault(t, (False, True))       # at a corner the vertical grid line has it already
    return [found[t] for t in sorted(found)]


def _whole_numbers_between(start: Fraction, end: Fraction) -> range:
    low, high = sorted((start, end))
    return range(int(low) + 1, int(high) + 1) if low != high else range(0)


def _blocker(dungeon: DungeonMap, here: Room, there: Room) -> str | None:
    """What blocks the line on the side between two neighbouring rooms: a wall (a cave entrance's too, seen
    from either room) or a Magic Door; None for a passage, with or without a Rune Gate."""
    if interior_side(here, there) in dungeon.walls:
        caves = {(here, _direction(here, there)), (there, _direction(there, here))} & dungeon.entries
        return "wall with a cave entrance" if caves else "wall"
    icon = dungeon.door_at(here, _direction(here, there))
    return f"magic door ({icon})" if icon else None


def _kind(dungeon: DungeonMap, room: Room, side: str) -> str:
    """``wall``, ``door``, ``gate`` or ``passage`` for an interior side, as the line of sight sees it."""
    other = room.neighbour(side)
    if interior_side(room, other) in dungeon.walls:
        return "wall"
    if dungeon.door_at(room, side):
        return "door"
    return "gate" if dungeon.gate_at(room, side) else "passage"


def _several(blockers: list[str]) -> str:
    """``["wall", "wall"]`` is ``walls``; ``["wall", "magic door (moon)"]`` is ``a wall and a magic door (moon)``."""
    walls = sum(what.startswith("wall") for what in blockers)
    doors = [what for what in blockers if not what.startswith("wall")]
    words = ["walls" if walls > 1 else "a wall"] if walls else []
    if len(doors) > 1:
        words.append("magic doors")
    elif doors:
        words.append("a " + doors[0])
    return " and ".join(words)


def _direction(here: Room, there: Room) -> str:
    return next(side for side, step in STEP.items() if step == (there.col - here.col, there.row - here.row))


def _path(seen: Sight) -> str:
    return ", then ".join(f"the {name}" if name.startswith("corner of ") else name for name in seen.crossed)


def _gate_names(dungeon: DungeonMap) -> set[str]:
    return {side_name(side) for side, _ in dungeon.gates}


def _reading_order(room: Room) -> tuple[int, int]:
    return room.row, room.col


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)
