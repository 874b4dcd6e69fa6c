"""The dungeon map: rooms on a grid, the sides between them, and the items in them.

Columns are letters from A, left to right; rows are numbers from 1, top to
bottom; a room is named column + row (``C4``). ``N`` is the top of the page.
Every side between two neighbouring rooms is a passage unless the map lists it
as a wall; every side on the map's outer edge is a wall unless it is an entry.
"""
from __future__ import annotations

import string
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Iterator

SIDES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
# (column step, row step) per side, rows growing downwards.
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

LETTERS = "ABCDEF"
MAX_SIZE = 12
ENTRY_COUNT = 6
LOOT_COUNT = 4


@dataclass(frozen=True, order=True)
class Room:
    """One room of the grid, by 1-based column and row."""

    col: int
    row: int

    @classmethod
    def parse(cls, name: str) -> "Room":
        """``Room.parse("C4")`` is column 3, row 4. Raises ``ValueError`` quoting the bad name."""
        text = str(name).strip().upper()
        if len(text) < 2 or text[0] not in string.ascii_uppercase or not text[1:].isdigit():
            raise ValueError(f"not a room name: {name!r} (write column letter + row number, like 'C4')")
        row = int(text[1:])
        if row < 1:
            raise ValueError(f"not a room name: {name!r} (rows count from 1)")
        return cls(string.ascii_uppercase.index(text[0]) + 1, row)

    @property
    def name(self) -> str:
        return f"{string.ascii_uppercase[self.col - 1]}{self.row}"

    def steps_to(self, other: "Room") -> int:
        """Rooms walked side to side, ignoring walls: 1 for neighbours."""
        return abs(self.col - other.col) + abs(self.row - other.row)

    def neighbour(self, side: str) -> "Room":
        dc, dr = STEP[side]
        return Room(self.col + dc, self.row + dr)

    def __repr__(self) -> str:
        return f"Room.parse({self.name!r})"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, order=True)
class Item:
    """An item printed in a room: ``loot``, ``dragon``, ``weapon:A`` .. ``monster:F``."""

    kind: str
    letter: str = ""

    KINDS = ("loot", "dragon", "weapon", "monster")

    @classmethod
    def parse(cls, text: str) -> "Item":
        raw = str(text).strip()
        kind, _, letter = raw.partition(":")
        if kind in ("loot", "dragon") and not letter:
            return cls(kind)
        if kind in ("weapon", "monster") and letter in LETTERS and letter:
            return cls(kind, letter)
        raise ValueError(f"unknown item {text!r} (one of: loot, dragon, weapon:A..F, monster:A..F)")

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.letter}" if self.letter else self.kind

    def __repr__(self) -> str:
        return f"Item.parse({self.name!r})"

    def __str__(self) -> str:
        return self.name


def standard_items() -> Counter:
    """The items every dungeon-doodles map holds: 4 loot, the dragon, weapons and monsters A-F."""
    wanted = Counter({Item("loot"): LOOT_COUNT, Item("dragon"): 1})
    for letter in LETTERS:
        wanted[Item("weapon", letter)] = 1
        wanted[Item("monster", letter)] = 1
    return wanted


def interior_side(a: Room, b: Room) -> frozenset[Room]:
    """The side shared by two neighbouring rooms, the same whichever room names it first."""
    return frozenset((a, b))


@dataclass(frozen=True)
class DungeonMap:
    """A map: its grid, walls, entryways and items. Build it, then ask ``problems()``."""

    id: str
    name: str
    rows: int
    cols: int
    walls: frozenset[frozenset[Room]] = frozenset()
    entries: frozenset[tuple[Room, str]] = frozenset()
    items: tuple[tuple[Room, Item], ...] = ()
    seed: int | None = None
    version: int | None = None  # random-map algorithm version, None for a designed map
    _item_at: dict = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(sorted(self.items)))
        object.__setattr__(self, "_item_at", dict(self.items))

    # -- the grid ---------------------------------------------------------
    def rooms(self) -> Iterator[Room]:
        """Every room, row by row from the top-left."""
        for row in range(1, self.rows + 1):
            for col in range(1, self.cols + 1):
                yield Room(col, row)

    def contains(self, room: Room) -> bool:
        return 1 <= room.col <= self.cols and 1 <= room.row <= self.rows

    def interior_sides(self) -> list[frozenset[Room]]:
        """Every side between two neighbouring rooms, in a fixed order."""
        sides = []
        for room in self.rooms():
            for side in "ES":
                other = room.neighbour(side)
                if self.contains(other):
                    sides.append(interior_side(room, other))
        return sides

    def border_sides(self) -> list[tuple[Room, str]]:
        """Every side on the map's outer edge, in a fixed order."""
        return [(room, side) for room in self.rooms() for side in SIDES
                if not self.contains(room.neighbour(side))]

    def side_kind(self, room: Room, side: str) -> str:
        """``passage``, ``wall`` or ``entry`` for one side of one room."""
        if (room, side) in self.entries:
            return "entry"
        other = room.neighbour(side)
        if not self.contains(other):
            return "wall"
        return "wall" if interior_side(room, other) in self.walls else "passage"

    def item_at(self, room: Room) -> Item | None:
        return self._item_at.get(room)

    def passage_neighbours(self, room: Room) -> list[Room]:
        return [room.neighbour(side) for side in SIDES if self.side_kind(room, side) == "passage"]

    def reachable_rooms(self) -> set[Room]:
        """Rooms a path can reach from some entryway through passages."""
        seen = {room for room, _ in self.entries if self.contains(room)}
        queue = deque(seen)
        while queue:
            for other in self.passage_neighbours(queue.popleft()):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        return seen

    # -- the rules a map must keep ------------------------------------------
    def problems(self) -> list[tuple[str, str]]:
        """Every way this map breaks the rules of a dungeon map, as ``(path, message)``."""
        found: list[tuple[str, str]] = []
        if not (2 <= self.rows <= MAX_SIZE and 2 <= self.cols <= MAX_SIZE):
            return [("rows", f"a map is 2 to {MAX_SIZE} rooms each way, not {self.cols}x{self.rows}")]
        for wall in sorted(self.walls, key=sorted):
            rooms = sorted(wall)
            if not (len(rooms) == 2 and all(map(self.contains, rooms)) and rooms[0].steps_to(rooms[1]) == 1):
                name = "-".join(room.name for room in rooms)
                found.append(("walls", f"{name} is not a side between two neighbouring rooms of the map"))
        # There are exactly six entryways, on the outer edge, never two in one room.
        if len(self.entries) != ENTRY_COUNT:
            found.append(("entries", f"{len(self.entries)} entryways; a map has exactly {ENTRY_COUNT}"))
        per_room = Counter(room for room, _ in self.entries)
        for room, side in sorted(self.entries):
            if not self.contains(room):
                found.append(("entries", f"{room.name}:{side} is outside the {self.cols}x{self.rows} map"))
            elif self.contains(room.neighbour(side)):
                found.append(("entries", f"{room.name}:{side} is not on the map's outer edge"))
        for room, count in sorted(per_room.items()):
            if count > 1:
                found.append(("entries", f"{room.name} has {count} entryways; a room has at most one"))
        # At most one item per room, and exactly the standard set of items.
        per_item_room = Counter(room for room, _ in self.items)
        for room, count in sorted(per_item_room.items()):
            if not self.contains(room):
                found.append((f"rooms.{room.name}", f"outside the {self.cols}x{self.rows} map"))
            if count > 1:
                found.append((f"rooms.{room.name}.items", f"{count} items; a room holds at most one"))
        have = Counter(item for _, item in self.items)
        for item, count in sorted(standard_items().items()):
            if have[item] != count:
                found.append(("rooms", f"the map has {have[item]} {item.name}, it needs {count}"))
        for item in sorted(set(have) - set(standard_items())):
            found.append(("rooms", f"the map has {have[item]} {item.name}, it needs none"))
        # Every room can be reached from an entryway through passages.
        if not found:
            reachable = self.reachable_rooms()
            unreachable = [room.name for room in self.rooms() if room not in reachable]
            if unreachable:
                found.append(("walls", "no passage leads from any entryway to " + ", ".join(unreachable)))
        return found

    def ascii(self) -> str:
        """A text picture of the map: ``#`` walls, ``v>^<`` entryways, item initials."""
        glyph = {"loot": "$", "dragon": "D"}
        lines = []
        for row in range(1, self.rows + 1):
            top, mid = "+", "|"
            for col in range(1, self.cols + 1):
                room = Room(col, row)
                n = self.side_kind(room, "N")
                top += {"entry": " v ", "wall": "---", "passage": "   "}[n] + "+"
                item = self.item_at(room)
                text = " . " if item is None else f" {glyph.get(item.kind, item.kind[0].upper())}{item.letter or ' '}"
                mid = mid[:-1] + {"entry": ">", "wall": "|", "passage": " "}[self.side_kind(room, "W")] if col == 1 else mid
                mid += text + {"entry": "<", "wall": "|", "passage": " "}[self.side_kind(room, "E")]
            lines += [top, mid]
        bottom = "+" + "".join({"entry": " ^ ", "wall": "---"}[self.side_kind(Room(c, self.rows), "S")] + "+"
                               for c in range(1, self.cols + 1))
        return "\n".join(lines + [bottom])
