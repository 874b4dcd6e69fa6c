"""Scoring a dungeon-doodles sheet (RULES.md section 1, "Scoring"), and traps between players.

``SCORE_ITEMS`` is each item as printed on the sheet (our own wording).
``score`` gives the breakdown for one sheet; ``resolve_traps`` decides who is
hit by whose Trap across all the sheets of one game.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from games.board import Board
from games.maps import DungeonMap, Room

SCORE_ITEMS: tuple[tuple[int, str, str], ...] = (
    (1, "Loot", "+2 for each loot room you entered; doubled if you entered the dragon's room"),
    (2, "Weapons", "+1 for each weapon room you entered"),
    (3, "Monsters slain", "+4 for each monster you entered whose weapon you scored in 2"),
    (4, "Monsters unmatched", "-2 for each monster you entered without its weapon"),
    (5, "Untouched entries", "+1 for each entry arrow your path never links to"),
    (6, "Lost segments", "-2 per tally: a segment you could not draw"),
    (7, "Traps sprung", "-3 per tally: a trap that caught you"),
    # Expansion maps (RULES.md section 2): printed, and scored, only on maps that have the element.
    (8, "Diamonds", "+1 for each crossed-out Diamond you entered; each one you entered that is not crossed "
                    "out scores the number of Diamonds not crossed out"),
    (9, "Skull Coins", "+5 for each Skull Coin you entered, if you entered the Skull's room"),
    (10, "Emeralds", "+2 for each Emerald you entered that is not cursed, -2 for each cursed one"),
)
LABELS = {number: label for number, label, _ in SCORE_ITEMS}
EXPANSION_ITEMS = {8: "diamonds", 9: "skull", 10: "emeralds"}   # item -> the map feature it needs


def score_items(dungeon: DungeonMap) -> tuple[tuple[int, str, str], ...]:
    """The scoring items of this map's sheet, in printed order: 1-7, then 8-10 where the map has them."""
    features = dungeon.expansion_features()
    return tuple(entry for entry in SCORE_ITEMS
                 if entry[0] not in EXPANSION_ITEMS or EXPANSION_ITEMS[entry[0]] in features)


@dataclass(frozen=True)
class ScoreLine:
    """One scoring item: how many things counted, where, and the points they make."""

    item: int
    count: int
    points: int
    rooms: tuple[str, ...] = ()
    note: str = ""

    @property
    def label(self) -> str:
        return LABELS[self.item]

    def to_json(self) -> dict:
        out = {"item": self.item, "label": self.label, "count": self.count, "points": self.points,
               "rooms": list(self.rooms)}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Score:
    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def line(self, item: int) -> ScoreLine:
        return self.lines[item - 1]

    def to_json(self) -> dict:
        return {"total": self.total, "lines": [line.to_json() for line in self.lines]}


@dataclass(frozen=True)
class TrapHit:
    """Sheet ``victim`` is hit by the Trap that sheet ``owner`` drew in ``room`` (sheets by index)."""

    room: Room
    owner: int
    victim: int

    @property
    def shared(self) -> bool:
        """A Trap two or more players drew in one room hits its own owner."""
        return self.owner == self.victim


def score(dungeon: DungeonMap, board: Board, trap_hits: int = 0) -> Score:
    """The seven scoring items for one sheet. ``trap_hits`` comes from ``resolve_traps``."""
    entered = [room for room in board.entered_rooms() if dungeon.contains(room)]

    def rooms_with(kind: str) -> list[Room]:
        return [room for room in entered if (item := dungeon.item_at(room)) is not None and item.kind == kind]

    loot, weapons, monsters = rooms_with("loot"), rooms_with("weapon"), rooms_with("monster")
    dragon = rooms_with("dragon")
    # A monster is slain when the path entered the room of the weapon with its letter.
    armed = {dungeon.item_at(room).letter for room in weapons}
    slain = [room for room in monsters if dungeon.item_at(room).letter in armed]
    unmatched = [room for room in monsters if dungeon.item_at(room).letter not in armed]
    linked = board.linked_entries(dungeon)
    untouched = sorted((room, side) for room, side in dungeon.entries if (room, side) not in linked)

    loot_points = 2 * len(loot) * (2 if dragon else 1)
    return Score((
        ScoreLine(1, len(loot), loot_points, _names(loot),
                  note=f"doubled: the path entered the dragon's room {dragon[0].name}" if dragon else ""),
        ScoreLine(2, len(weapons), len(weapons), _names(weapons)),
        ScoreLine(3, len(slain), 4 * len(slain), _names(slain)),
        ScoreLine(4, len(unmatched), -2 * len(unmatched), _names(unmatched)),
        ScoreLine(5, len(untouched), len(untouched), tuple(f"{room.name}:{side}" for room, side in untouched)),
        ScoreLine(6, board.unusable, -2 * board.unusable),
        ScoreLine(7, trap_hits, -3 * trap_hits),
    ))


def resolve_traps(boards: Sequence[Board]) -> list[list[TrapHit]]:
    """Who each sheet's Traps hit, as a list of hits per sheet (same order as ``boards``).

    Two or more players with a Trap in the same room are each hit once by their own
    Trap, and those Traps leave every map. Otherwise a player whose path entered a
    room holding another player's Trap is hit by it.
    """
    owners: dict[Room, list[int]] = defaultdict(list)
    for index, board in enumerate(boards):
        for room in board.trap_rooms():
            owners[room].append(index)
    hits: list[list[TrapHit]] = [[] for _ in boards]
    for room, who in sorted(owners.items()):
        if len(who) > 1:
            for owner in who:
                hits[owner].append(TrapHit(room, owner, owner))
            continue
        owner = who[0]
        for victim, board in enumerate(boards):
            if victim != owner and board.at(room).entered:
                hits[victim].append(TrapHit(room, owner, victim))
    return hits


def _names(rooms: list[Room]) -> tuple[str, ...]:
    return tuple(room.name for room in rooms)
