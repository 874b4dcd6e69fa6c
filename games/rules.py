"""The drawing rules of dungeon doodles (RULES.md sections 1 and 2), checked move by move and on a whole sheet.

``can_draw`` and ``can_trap`` answer "may I draw this now?" for a player at the
table (and the random player). ``problems`` looks at a finished sheet and
returns *every* rule it breaks, each tied to the room a person should look at.

The expansion maps' Decisions (RULES.md section 2 leaves these open):

- **Rolls** are the die's numbers, one a round, round 1 first; a roll may be
  unknown (``None``), and a check that needs it is then skipped. Rounds past the
  end of the list are unknown too, so "crossed out but never rolled" and the
  Curse Track are checked only when all seven rolls are known.
- **Magic Doors.** A door's side belongs to two rooms; the path links through the
  door when both rooms hold a segment with an exit on that side. That link is made
  in the round of the later of the two segments, and it is legal only if that
  round's roll shows the door's icon. Once made it stays (the door is open for
  good). A segment may end at a closed door: it reaches one side, but that links
  it to nothing. A link on the wrong icon is flagged at the later room (of two
  drawn in one round, the later in reading order).
- **Rune Gates.** A gate is crossed when both its rooms hold a segment with an exit
  on its side; crossing it closes (fills in) the other gate with the same glyph. A
  segment may end at a closed gate but may not complete a crossing of it, and one
  segment may not cross both gates of a glyph (the first closes the second). A
  sheet that crosses both gates of a glyph is flagged at the one crossed later;
  crossed in one round, or with a round unread, both are flagged.
- **Marks** (``board.marks``) are what a person sees on the sheet: Diamonds and
  Emeralds crossed out, Curse Track halves and gates filled in. Scoring reads the
  marks; the rolls, when known, only cross-check them.
"""
from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from heapq import heapify, heappop, heappush
from math import inf
from typing import Sequence

from games.board import Board, Marks, side_name
from games.cards import shape_of
from games.die import curse_track, load_die
from games.maps import OPPOSITE, DungeonMap, Room, interior_side
from games.review import Rule

ROUNDS = 7
MOST_CARDS_A_ROUND = 6      # four cards, and two more for each of the deck's two Draw 2 cards
TRAP_CARDS = 2


@dataclass(frozen=True)
class Problem:
    """One broken rule: where on the sheet (a room name, or a box), which rule (a ``games.review.Rule``; a
    roster file's problems name its field instead), and why in words."""

    where: str
    rule: Rule | str
    why: str

    def to_json(self) -> dict:
        return {"where": self.where, "why": self.why, "rule": self.rule}


# -- one move at a time ------------------------------------------------------
def wall_sides(dungeon: DungeonMap, room: Room, exits: str) -> str:
    """The sides a segment would end against a wall on."""
    return "".join(side for side in exits if dungeon.side_kind(room, side) == "wall")


def links_through(board: Board, room: Room, side: str) -> bool:
    """Does the neighbour on ``side`` hold a segment with an exit back on that side? Then a segment here with
    an exit on ``side`` links to it (or, for a door or a gate, would complete the link or the crossing)."""
    return OPPOSITE[side] in board.at(room.neighbour(side)).exits


def side_linked(board: Board, side: frozenset[Room]) -> bool:
    """Do both rooms of an interior side hold a segment with an exit on it (a link, or a gate crossed)?"""
    a, b = sorted(side)
    toward = "E" if b.col > a.col else "S"
    return toward in board.at(a).exits and OPPOSITE[toward] in board.at(b).exits


def crossed_gates(dungeon: DungeonMap, board: Board) -> set[frozenset[Room]]:
    """The Rune Gates the path crosses: both rooms of the gate's side hold a segment with an exit on it."""
    return {side for side, _ in dungeon.gates if side_linked(board, side)}


def closed_gates(dungeon: DungeonMap, board: Board) -> frozenset[frozenset[Room]]:
    """The gates closed now: filled in on the sheet, or the partner of a crossed gate (which the player should
    have filled in; counting it closed keeps the rule even on a sheet whose marks lag behind)."""
    if not dungeon.gates:
        return frozenset()
    return frozenset(board.marks.gates) | {dungeon.gate_partner(side) for side in crossed_gates(dungeon, board)}


def joins_path(dungeon: DungeonMap, board: Board, room: Room, exits: str, *, icon: str | None = None) -> bool:
    """Would a segment here link to an entryway, or to a segment already drawn?

    A link through a Magic Door counts only if the door is open now (``icon`` is this round's roll; ``None``:
    no die rolled, every door closed), and a link through a closed Rune Gate never counts.
    """
    closed = None
    for side in exits:
        kind = dungeon.side_kind(room, side)
        if kind == "entry":
            return True
        if kind == "passage" and links_through(board, room, side):
            door = dungeon.door_at(room, side) if dungeon.doors else None
            if door is not None and door != icon:
                continue
            if dungeon.gates and dungeon.gate_at(room, side) is not None:
                closed = closed_gates(dungeon, board) if closed is None else closed
                if interior_side(room, room.neighbour(side)) in closed:
                    continue
            return True
    return False


def can_draw(dungeon: DungeonMap, board: Board, room: Room, exits: str, *, icon: str | None = None) -> bool:
    """May this segment be drawn in this room now? (Empty room, no end on a wall, joins the path.)

    On the expansion maps ``icon`` is the icon the die shows this round (``None``: no die rolled, so every
    Magic Door is closed). A segment may end at a closed door or gate, but it may not complete a link through
    a closed door or a crossing of a closed gate, nor cross both gates of one glyph at once.
    """
    if not (dungeon.contains(room) and board.at(room).empty and not wall_sides(dungeon, room, exits)):
        return False
    if dungeon.doors or dungeon.gates:
        closed = closed_gates(dungeon, board)
        crossing = []
        for side in exits:
            if dungeon.side_kind(room, side) != "passage" or not links_through(board, room, side):
                continue
            door = dungeon.door_at(room, side)
            if door is not None and door != icon:
                return False
            if dungeon.gate_at(room, side) is not None:
                gate = interior_side(room, room.neighbour(side))
                if gate in closed:
                    return False
                crossing.append(gate)
        if any(dungeon.gate_partner(gate) in crossing for gate in crossing):
            return False
    return joins_path(dungeon, board, room, exits, icon=icon)


def can_trap(dungeon: DungeonMap, board: Board, room: Room) -> bool:
    """A Trap goes only in an empty room: no item, no segment, no other Trap (an entryway is fine)."""
    return dungeon.contains(room) and dungeon.item_at(room) is None and board.at(room).empty


# -- a whole sheet -----------------------------------------------------------
def problems(dungeon: DungeonMap, board: Board, *, trap_cards: int = TRAP_CARDS,
             rolls: Sequence[int | None] | None = None) -> list[Problem]:
    """Every drawing rule this sheet breaks, room by room, in reading order; then the expansion marks
    (Curse Track, Emeralds, Rune Gates) and, given the game's ``rolls``, the marks and doors against them."""
    found: list[Problem] = []
    for room, drawing in board:
        where = room.name
        if not dungeon.contains(room):
            found.append(Problem(where, Rule.OFF_MAP, f"{where} is not on the {dungeon.cols}x{dungeon.rows} map"))
            continue
        if drawing.empty:
            found.append(Problem(where, Rule.NOTHING_DRAWN, "listed, but neither a segment nor a trap is drawn"))
        if len(drawing.segments) > 1:
            found.append(Problem(where, Rule.SECOND_SEGMENT,
                                 f"{len(drawing.segments)} segments in one room; a room holds one"))
        if drawing.trap and drawing.entered:
            found.append(Problem(where, Rule.TRAP_WITH_SEGMENT, "a trap and a segment in one room; a trap needs an empty room"))
        item = dungeon.item_at(room)
        if drawing.trap and item is not None:
            found.append(Problem(where, Rule.TRAP_ON_ITEM, f"a trap in the room with the {_item_words(item)}"))
        for side in wall_sides(dungeon, room, drawing.exits):
            found.append(Problem(where, Rule.WALL_END, f"the segment ends against the wall on the {SIDE_WORDS[side]} side"))
        if drawing.round is not None and not 1 <= drawing.round <= ROUNDS:
            found.append(Problem(where, Rule.ROUND_RANGE, f"round {drawing.round} is not a round of the game (1-{ROUNDS})"))
    found += _unlinked(dungeon, board)
    found += _counts(board, trap_cards)
    found += _mark_problems(dungeon, board)
    if rolls is not None:
        found += _roll_problems(dungeon, board, rolls)
    return found


def _unlinked(dungeon: DungeonMap, board: Board) -> list[Problem]:
    """Every segment must join the path: to an entryway, or to a segment drawn in the same or an earlier round.

    Rounds may be missing (unread); such a segment counts as drawn in every round, so a
    missing number never causes a complaint by itself.
    """
    found = []
    late = late_segments(dungeon, board)
    linked = reached(dungeon, board, lambda d: True)
    for room, drawing in board:
        if not drawing.entered or not dungeon.contains(room):
            continue
        if room not in linked:
            found.append(Problem(room.name, Rule.UNLINKED,
                                 "the segment links to no entryway and to no other part of the path"))
        elif room in late:
            found.append(Problem(room.name, Rule.UNLINKED,
                                 f"drawn in round {late[room]}, but it joins the path only through segments "
                                 "of later rounds"))
    return found


def late_segments(dungeon: DungeonMap, board: Board) -> dict[Room, int]:
    """The segments not yet joined to the path by the end of the round written in them (room -> that round,
    by round and then room), counting a segment with no round number as drawn in every round; a segment
    that never joins it too.

    A segment is joined by the end of round R when a chain of linked segments, each drawn by then, leads
    from it to an entryway: so the round it is joined in is the least, over such chains, of the latest
    round along the chain. One search (a Dijkstra whose path length is the latest round on it) finds that
    round for every segment at once, instead of a search of the path round by round: a scanned game's
    doubts ask this of each sheet dozens of times."""
    def drawn_in(drawing) -> float:
        return -inf if drawing.round is None else drawing.round      # no number: drawn in every round

    joined: dict[Room, float] = {}
    frontier = [(drawn_in(board.at(room)), room) for room, _ in board.linked_entries(dungeon)
                if board.at(room).entered and dungeon.contains(room)]
    heapify(frontier)
    while frontier:
        when, room = heappop(frontier)
        if room in joined:
            continue
        joined[room] = when
        for other in board.links(dungeon, room):
            there = board.at(other)
            if other not in joined and there.entered and dungeon.contains(other):
                heappush(frontier, (max(when, drawn_in(there)), other))
    late = [(drawing.round, room) for room, drawing in board.drawings.items()
            if drawing.entered and drawing.round is not None and 1 <= drawing.round <= ROUNDS
            and joined.get(room, inf) > drawing.round]
    return {room: round_number for round_number, room in sorted(late)}


def reached(dungeon: DungeonMap, board: Board, counts) -> set[Room]:
    """Rooms whose segment links, through segments that ``counts``, to an entryway."""
    def include(room):
        drawing = board.at(room)
        return drawing.entered and dungeon.contains(room) and counts(drawing)

    starts = [room for room, side in sorted(board.linked_entries(dungeon)) if include(room)]
    seen, queue = set(starts), deque(starts)
    while queue:
        for other in board.links(dungeon, queue.popleft()):
            if other not in seen and include(other):
                seen.add(other)
                queue.append(other)
    return seen


def _counts(board: Board, trap_cards: int) -> list[Problem]:
    """The deck limits what a sheet can hold: its Trap cards, and six usable cards a round."""
    found = []
    traps = board.trap_rooms()
    if len(traps) > trap_cards:
        found.append(Problem(traps[-1].name, Rule.TOO_MANY_TRAPS,
                             f"{len(traps)} traps ({', '.join(r.name for r in traps)}); the deck has {trap_cards} Trap cards"))
    per_round = Counter(d.round for _, d in board if d.round is not None)
    for round_number, count in sorted(per_round.items()):
        if count > MOST_CARDS_A_ROUND:
            found.append(Problem(f"round {round_number}", Rule.TOO_MANY_IN_ROUND,
                                 f"{count} rooms say round {round_number}; a round reveals at most {MOST_CARDS_A_ROUND} cards"))
    if board.unusable < 0:
        found.append(Problem("unusable", Rule.TALLY_RANGE, f"a tally of {board.unusable} cannot be negative"))
    elif board.unusable > ROUNDS * MOST_CARDS_A_ROUND:
        found.append(Problem("unusable", Rule.TALLY_RANGE, f"a tally of {board.unusable}: a game reveals at most "
                                                           f"{ROUNDS * MOST_CARDS_A_ROUND} cards"))
    return found


def cards_drawn(board: Board) -> Counter:
    """The segment cards a sheet shows, counted by shape (``games.cards.shape_of``; None for exits no card
    draws)."""
    return Counter(shape_of(drawing.exits) for _, drawing in board if drawing.entered)


def same_cards(a: Board, b: Board) -> bool:
    """Whether two sheets of one game can show the same revealed cards. Every player draws every segment
    revealed, or adds a tally mark beside item 6 for one that fits nowhere, so each sheet's segments by
    shape are the revealed ones less its tallied ones: two sheets hold as many segments and tally marks
    together, and each has no more of any shape than the other shows and tallied."""
    drawn_a, drawn_b = cards_drawn(a), cards_drawn(b)
    if sum(drawn_a.values()) + a.unusable != sum(drawn_b.values()) + b.unusable:
        return False
    return sum((drawn_a - drawn_b).values()) <= b.unusable and sum((drawn_b - drawn_a).values()) <= a.unusable


# -- the expansion maps' marks, and the rolls -----------------------------------
def _mark_problems(dungeon: DungeonMap, board: Board) -> list[Problem]:
    """The marks must name what the map has, the Curse Track must fill from its ends, an Emerald is crossed out
    exactly when its space is full, and the Rune Gates must be filled in as the path crosses them."""
    marks = board.marks
    if marks.empty and not dungeon.gates:
        return []
    found = []
    diamonds = {item.number for _, item in dungeon.rooms_with("diamond")}
    emeralds = {item.number for _, item in dungeon.rooms_with("emerald")}
    for number in sorted(set(marks.diamonds) - diamonds):
        found.append(Problem("marks", Rule.UNKNOWN_MARK, f"Diamond {number} is crossed out, but the map has no Diamond {number}"))
    for number in sorted(set(marks.emeralds) - emeralds):
        found.append(Problem("marks", Rule.UNKNOWN_MARK, f"Emerald {number} is crossed out, but the map has no Emerald {number}"))
    on_map = {side for side, _ in dungeon.gates}
    for side in sorted(set(marks.gates) - on_map, key=side_name):
        found.append(Problem(side_name(side), Rule.UNKNOWN_MARK, "filled in as a Rune Gate, but the map has no gate there"))
    found += _curse_problems(dungeon, marks)
    found += _gate_problems(dungeon, board)
    return found


def curse_halves(marks: Marks, spaces: int) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """The Curse Track's top and bottom halves as marked, exactly ``spaces`` long (missing halves are empty)."""
    def fit(halves):
        return tuple(bool(halves[i]) if i < len(halves) else False for i in range(spaces))

    return fit(marks.curse_top), fit(marks.curse_bottom)


def _curse_problems(dungeon: DungeonMap, marks: Marks) -> list[Problem]:
    """Dragons fill the top halves from the left, suns the bottom halves from the right, so each row is one
    run from its end; an Emerald is crossed out (cursed) exactly when both halves of its space are filled."""
    spaces = dungeon.curse_spaces
    top, bottom = curse_halves(marks, spaces)
    found = []
    if any(marks.curse_top[spaces:]) or any(marks.curse_bottom[spaces:]):
        found.append(Problem("curse track", Rule.UNKNOWN_MARK,
                             "halves of a Curse Track are filled, but the map has none" if not spaces else
                             f"halves past space {spaces} are filled; this Curse Track has {spaces} spaces"))
    if not _run_from_start(top):
        found.append(Problem("curse track", Rule.CURSE_ORDER,
                             f"the filled top halves (spaces {_numbers(top)}) are not one run from the left: "
                             "dragons fill the top halves from space 1 on"))
    if not _run_from_start(bottom[::-1]):
        found.append(Problem("curse track", Rule.CURSE_ORDER,
                             f"the filled bottom halves (spaces {_numbers(bottom)}) are not one run from the right: "
                             f"suns fill the bottom halves from space {spaces} on"))
    for room, item in dungeon.rooms_with("emerald"):
        number = item.number
        full = number <= spaces and top[number - 1] and bottom[number - 1]
        crossed = number in marks.emeralds
        if full and not crossed:
            found.append(Problem(room.name, Rule.EMERALD_MARK, f"space {number} of the Curse Track is full, so "
                                                            f"Emerald {number} is cursed, but it is not crossed out"))
        elif crossed and not full:
            found.append(Problem(room.name, Rule.EMERALD_MARK, f"Emerald {number} is crossed out, but space {number} "
                                                            "of the Curse Track is not full"))
    return found


def _gate_problems(dungeon: DungeonMap, board: Board) -> list[Problem]:
    """Crossing a Rune Gate fills in the other gate of its glyph; a filled-in gate is never crossed; and a gate
    is filled in only once the other gate of its glyph was crossed."""
    crossed, filled = crossed_gates(dungeon, board), board.marks.gates
    found = []
    for side, glyph in sorted(dungeon.gates, key=lambda pair: side_name(pair[0])):
        partner = dungeon.gate_partner(side)
        here, there = side_name(side), side_name(partner)
        if side in crossed and partner not in filled:
            found.append(Problem(there, Rule.GATE_NOT_CLOSED, f"the path crosses the {glyph} gate {here}, so the other "
                                                           f"{glyph} gate {there} should be filled in (closed)"))
        if side in crossed and partner in crossed:
            mine, theirs = _crossing_round(board, side), _crossing_round(board, partner)
            if not (mine is not None and theirs is not None and mine < theirs):
                when = (f"in round {mine}, after crossing {there} closed it in round {theirs}"
                        if mine is not None and theirs is not None and theirs < mine else
                        f"and also the other {glyph} gate {there}; crossing one closes the other")
                found.append(Problem(here, Rule.GATE_CROSSED_CLOSED, f"the path crosses this {glyph} gate {when}"))
        elif side in crossed and side in filled:
            found.append(Problem(here, Rule.GATE_CROSSED_CLOSED, f"the {glyph} gate is filled in (closed), "
                                                              "but the path crosses it"))
        if side in filled and partner not in crossed:
            found.append(Problem(here, Rule.GATE_FILLED_EARLY, f"the {glyph} gate is filled in, but the path never "
                                                            f"crosses the other {glyph} gate {there}"))
    return found


def _crossing_round(board: Board, side: frozenset[Room]) -> int | None:
    """The round a link across ``side`` was made: the later of its two segments' rounds (None if unread)."""
    rounds = [board.at(room).round for room in side]
    return None if None in rounds else max(rounds)


def _roll_problems(dungeon: DungeonMap, board: Board, rolls: Sequence[int | None]) -> list[Problem]:
    """The marks and the doors against the rolls: every Diamond rolled is crossed out and no other, the Curse
    Track is what the rolls fill, and every link through a Magic Door was made in a round that opened it.
    Unknown rolls (``None``, or rounds past the list) skip what they would decide."""
    die = load_die()
    for roll in rolls:
        if roll is not None and (not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= 6):
            raise ValueError(f"a roll is the die's number 1-6 (or None when unknown), not {roll!r}")
    found = []
    if len(rolls) > ROUNDS:
        found.append(Problem("rolls", Rule.TOO_MANY_ROLLS,
                             f"{len(rolls)} rolls given, but a game has {ROUNDS} rounds: one roll a round"))
    rolls = list(rolls[:ROUNDS])
    complete = len(rolls) == ROUNDS and None not in rolls
    for room, item in dungeon.rooms_with("diamond"):
        number = item.number
        first = next((i + 1 for i, roll in enumerate(rolls) if roll == number), None)
        crossed = number in board.marks.diamonds
        if first is not None and not crossed:
            found.append(Problem(room.name, Rule.DIAMOND_ROLL,
                                 f"Diamond {number} was rolled in round {first} but is not crossed out"))
        elif crossed and first is None and complete:
            found.append(Problem(room.name, Rule.DIAMOND_ROLL,
                                 f"Diamond {number} is crossed out but {number} was never rolled"))
    if complete and dungeon.curse_spaces:
        found += _curse_roll(dungeon, board.marks, rolls, die)
    for side, icon in sorted(dungeon.doors, key=lambda pair: side_name(pair[0])):
        if not side_linked(board, side):
            continue
        first, later = sorted(side, key=lambda room: (board.at(room).round or 0, room.row, room.col))
        rounds = (board.at(first).round, board.at(later).round)
        if None in rounds or not all(1 <= r <= ROUNDS for r in rounds):
            continue
        round_number = rounds[1]
        if round_number > len(rolls) or rolls[round_number - 1] is None:
            continue
        roll = rolls[round_number - 1]
        if die.icon(roll) != icon:
            found.append(Problem(later.name, Rule.DOOR_CLOSED,
                                 f"the path links {first.name} and {later.name} through the {icon} Magic Door in "
                                 f"round {round_number}, but round {round_number} rolled {roll} "
                                 f"({die.icon(roll)}): the door was closed"))
    return found


def _curse_roll(dungeon: DungeonMap, marks: Marks, rolls: list[int], die) -> list[Problem]:
    """The Curse Track as marked against the track these rolls fill (``games.die.curse_track``)."""
    spaces = dungeon.curse_spaces
    want = curse_track(rolls, spaces, die)
    have = curse_halves(marks, spaces)
    wrong = []
    for row, wanted, marked in (("top", want.top, have[0]), ("bottom", want.bottom, have[1])):
        for number, (should, is_) in enumerate(zip(wanted, marked), start=1):
            if should != is_:
                wrong.append(f"the {row} half of space {number} is {'filled' if is_ else 'empty'}, "
                             f"the rolls {'leave it empty' if is_ else 'fill it'}")
    if not wrong:
        return []
    dragons = sum(1 for roll in rolls if die.icon(roll) == "dragon")
    suns = sum(1 for roll in rolls if die.icon(roll) == "sun")
    return [Problem("curse track", Rule.CURSE_ROLL,
                    f"{dragons} dragon{'s' if dragons != 1 else ''} and {suns} sun{'s' if suns != 1 else ''} "
                    f"were rolled; " + "; ".join(wrong))]


def _run_from_start(halves) -> bool:
    """Filled halves that make one run from the first space: no empty half before a filled one."""
    halves = list(halves)
    first_empty = halves.index(False) if False in halves else len(halves)
    return not any(halves[first_empty:])


def _numbers(halves) -> str:
    return ", ".join(str(i + 1) for i, filled in enumerate(halves) if filled) or "none"


SIDE_WORDS = {"N": "north (top)", "E": "east (right)", "S": "south (bottom)", "W": "west (left)"}


def _item_words(item) -> str:
    words = {"loot": "loot", "dragon": "dragon", "skull": "Skull", "skull_coin": "Skull Coin",
             "diamond": f"Diamond {item.letter}", "emerald": f"Emerald {item.letter}"}
    return words.get(item.kind, f"{item.kind} {item.letter}")


# -- between the sheets of one game ----------------------------------------------
def shared_mark_problems(dungeon: DungeonMap, boards: Sequence[Board]) -> list[list[Problem]]:
    """The die is rolled once for everyone, so every sheet of one game on a die map crosses out the same
    Diamonds, fills the same Curse Track halves and curses the same Emeralds. Where the sheets differ, the
    sheets against the majority are told so (all of them where there is no majority, as with two sheets):
    one of them was marked or read wrong, and this catches a misread mark even without the rolls."""
    found: list[list[Problem]] = [[] for _ in boards]
    if len(boards) < 2 or not dungeon.needs_die:
        return found
    spaces = dungeon.curse_spaces
    diamond_rooms = {item.number: room.name for room, item in dungeon.rooms_with("diamond")}
    emerald_rooms = {item.number: room.name for room, item in dungeon.rooms_with("emerald")}
    checks = [(f"Diamond {n}", diamond_rooms[n], "crossed out", lambda b, n=n: n in b.marks.diamonds)
              for n in sorted(diamond_rooms)]
    checks += [(f"Emerald {n}", emerald_rooms[n], "crossed out", lambda b, n=n: n in b.marks.emeralds)
               for n in sorted(emerald_rooms)]
    for half in ("top", "bottom"):
        checks += [(f"the {half} half of Curse Track space {k + 1}", "curse track", "filled in",
                    lambda b, k=k, half=half: k < spaces and curse_halves(b.marks, spaces)[half == "bottom"][k])
                   for k in range(spaces)]
    for what, where, done, marked in checks:
        values = [marked(board) for board in boards]
        marked_on = sum(values)
        if marked_on in (0, len(values)):
            continue
        majority = None if 2 * marked_on == len(values) else 2 * marked_on > len(values)
        for index, value in enumerate(values):
            if value != majority:
                others = len(values) - 1
                unlike = others - (marked_on - 1 if value else len(values) - marked_on - 1)
                found[index].append(Problem(where, Rule.MARKS_DIFFER,
                                            f"{what} {'is' if value else 'is not'} {done} here, but on {unlike} "
                                            f"of the other {others} sheets it {'is not' if value else 'is'}: "
                                            f"the die is the same for everyone"))
    return found
