"""The drawing rules of dungeon doodles (RULES.md section 1), checked move by move and on a whole sheet.

``can_draw`` and ``can_trap`` answer "may I draw this now?" for a player at the
table (and the random player). ``problems`` looks at a finished sheet and
returns *every* rule it breaks, each tied to the room a person should look at.
"""
from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

from games.board import Board
from games.maps import OPPOSITE, DungeonMap, Room

ROUNDS = 7
MOST_CARDS_A_ROUND = 6      # four cards, and two more for each of the deck's two Draw 2 cards
TRAP_CARDS = 2


@dataclass(frozen=True)
class Problem:
    """One broken rule: where on the sheet (a room name, or a box), which rule, and why in words."""

    where: str
    rule: str
    why: str

    def to_json(self) -> dict:
        return {"where": self.where, "why": self.why, "rule": self.rule}


# -- one move at a time ------------------------------------------------------
def wall_sides(dungeon: DungeonMap, room: Room, exits: str) -> str:
    """The sides a segment would end against a wall on."""
    return "".join(side for side in exits if dungeon.side_kind(room, side) == "wall")


def joins_path(dungeon: DungeonMap, board: Board, room: Room, exits: str) -> bool:
    """Would a segment here link to an entryway, or to a segment already drawn?"""
    for side in exits:
        kind = dungeon.side_kind(room, side)
        if kind == "entry":
            return True
        if kind == "passage" and OPPOSITE[side] in board.at(room.neighbour(side)).exits:
            return True
    return False


def can_draw(dungeon: DungeonMap, board: Board, room: Room, exits: str) -> bool:
    """May this segment be drawn in this room now? (Empty room, no end on a wall, joins the path.)"""
    return (dungeon.contains(room) and board.at(room).empty and not wall_sides(dungeon, room, exits)
            and joins_path(dungeon, board, room, exits))


def can_trap(dungeon: DungeonMap, board: Board, room: Room) -> bool:
    """A Trap goes only in an empty room: no item, no segment, no other Trap (an entryway is fine)."""
    return dungeon.contains(room) and dungeon.item_at(room) is None and board.at(room).empty


# -- a whole sheet -----------------------------------------------------------
def problems(dungeon: DungeonMap, board: Board, *, trap_cards: int = TRAP_CARDS) -> list[Problem]:
    """Every drawing rule this sheet breaks, room by room, in reading order."""
    found: list[Problem] = []
    for room, drawing in board:
        where = room.name
        if not dungeon.contains(room):
            found.append(Problem(where, "off_map", f"{where} is not on the {dungeon.cols}x{dungeon.rows} map"))
            continue
        if drawing.empty:
            found.append(Problem(where, "nothing_drawn", "listed, but neither a segment nor a trap is drawn"))
        if len(drawing.segments) > 1:
            found.append(Problem(where, "second_segment",
                                 f"{len(drawing.segments)} segments in one room; a room holds one"))
        if drawing.trap and drawing.entered:
            found.append(Problem(where, "trap_with_segment", "a trap and a segment in one room; a trap needs an empty room"))
        item = dungeon.item_at(room)
        if drawing.trap and item is not None:
            found.append(Problem(where, "trap_on_item", f"a trap in the room with the {_item_words(item)}"))
        for side in wall_sides(dungeon, room, drawing.exits):
            found.append(Problem(where, "wall_end", f"the segment ends against the wall on the {_SIDE_WORDS[side]} side"))
        if drawing.round is not None and not 1 <= drawing.round <= ROUNDS:
            found.append(Problem(where, "round_range", f"round {drawing.round} is not a round of the game (1-{ROUNDS})"))
    found += _unlinked(dungeon, board)
    found += _counts(board, trap_cards)
    return found


def _unlinked(dungeon: DungeonMap, board: Board) -> list[Problem]:
    """Every segment must join the path: to an entryway, or to a segment drawn in the same or an earlier round.

    Rounds may be missing (unread); such a segment counts as drawn in every round, so a
    missing number never causes a complaint by itself.
    """
    found = []
    late = {}
    drawn_rounds = sorted({d.round for _, d in board if d.entered and d.round is not None and 1 <= d.round <= ROUNDS})
    for round_number in drawn_rounds:
        reached = _reached(dungeon, board, lambda d: d.round is None or d.round <= round_number)
        for room, drawing in board:
            if drawing.entered and drawing.round == round_number and room not in reached:
                late[room] = round_number
    reached = _reached(dungeon, board, lambda d: True)
    for room, drawing in board:
        if not drawing.entered or not dungeon.contains(room):
            continue
        if room not in reached:
            found.append(Problem(room.name, "unlinked",
                                 "the segment links to no entryway and to no other part of the path"))
        elif room in late:
            found.append(Problem(room.name, "unlinked",
                                 f"drawn in round {late[room]}, but it joins the path only through segments "
                                 "of later rounds"))
    return found


def _reached(dungeon: DungeonMap, board: Board, counts) -> set[Room]:
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
        found.append(Problem(traps[-1].name, "too_many_traps",
                             f"{len(traps)} traps ({', '.join(r.name for r in traps)}); the deck has {trap_cards} Trap cards"))
    per_round = Counter(d.round for _, d in board if d.round is not None)
    for round_number, count in sorted(per_round.items()):
        if count > MOST_CARDS_A_ROUND:
            found.append(Problem(f"round {round_number}", "too_many_in_round",
                                 f"{count} rooms say round {round_number}; a round reveals at most {MOST_CARDS_A_ROUND} cards"))
    if board.unusable < 0:
        found.append(Problem("unusable", "tally_range", f"a tally of {board.unusable} cannot be negative"))
    return found


_SIDE_WORDS = {"N": "north (top)", "E": "east (right)", "S": "south (bottom)", "W": "west (left)"}


def _item_words(item) -> str:
    return {"loot": "loot", "dragon": "dragon"}.get(item.kind, f"{item.kind} {item.letter}")
