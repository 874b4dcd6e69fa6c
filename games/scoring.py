"""Scoring a dungeon-doodles sheet (RULES.md sections 1 and 2), and traps between players.

``SCORE_ITEMS`` is each item as printed on the sheet (our own wording).
``score`` gives the breakdown for one sheet; ``resolve_traps`` decides who is
hit by whose Trap across all the sheets of one game.

A map's sheet prints items 1-7, and 8 (Diamonds), 9 (Skull Coins) and 10
(Emeralds) only where the map has them; ``score`` gives a line for exactly the
items printed. **Decision:** items 8 and 10 read the sheet's marks (the Diamonds
and Emeralds crossed out), which is what a person sees; the die's rolls only
cross-check the marks (``games.rules.problems``). Cave entrances are entries,
so an untouched one scores item 5 like an arrow on the edge.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

from games.board import Board
from games.maps import DungeonMap, Room

SCORE_ITEMS: tuple[tuple[int, str, str], ...] = (
    # Short enough to print on one line at 7 pt or more on every sheet (tests/generator/test_text_sizes.py).
    (1, "Loot", "+2 per loot room entered; doubled if you entered the dragon's room"),
    (2, "Weapons", "+1 per weapon room entered"),
    (3, "Monsters slain", "+4 per monster entered whose weapon you scored in 2"),
    (4, "Monsters unmatched", "-2 per monster entered without its weapon"),
    (5, "Untouched entries", "+1 per entry arrow left unlinked"),
    (6, "Lost segments", "-2 per segment you could not draw"),
    (7, "Traps sprung", "-3 per trap that caught you"),
    # Expansion maps (RULES.md section 2): printed, and scored, only on maps that have the element.
    (8, "Diamonds", "each one entered: +1 if crossed out, else +1 per Diamond not crossed out"),
    (9, "Skull Coins", "+5 per Skull Coin entered, if you entered the Skull's room"),
    (10, "Emeralds", "+2 per Emerald entered that is not cursed, -2 per cursed one"),
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
        """The line of scoring item ``item`` (its number, 1-10). Raises ``KeyError`` if the sheet has no such item."""
        for line in self.lines:
            if line.item == item:
                return line
        raise KeyError(f"this sheet has no scoring item {item} (it has {', '.join(str(l.item) for l in self.lines)})")

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
    """Every scoring item of this map's sheet (``score_items``) for one sheet. ``trap_hits`` comes from
    ``resolve_traps``."""
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
    lines = (
        ScoreLine(1, len(loot), loot_points, _names(loot),
                  note=f"doubled: the path entered the dragon's room {dragon[0].name}" if dragon else ""),
        ScoreLine(2, len(weapons), len(weapons), _names(weapons)),
        ScoreLine(3, len(slain), 4 * len(slain), _names(slain)),
        ScoreLine(4, len(unmatched), -2 * len(unmatched), _names(unmatched)),
        ScoreLine(5, len(untouched), len(untouched), tuple(f"{room.name}:{side}" for room, side in untouched)),
        ScoreLine(6, board.unusable, -2 * board.unusable),
        ScoreLine(7, trap_hits, -3 * trap_hits),
    )
    expansion = {8: _diamonds, 9: _skull_coins, 10: _emeralds}
    return Score(lines + tuple(expansion[number](dungeon, board, entered)
                               for number, _, _ in score_items(dungeon) if number in expansion))


def _diamonds(dungeon: DungeonMap, board: Board, entered: list[Room]) -> ScoreLine:
    """Item 8: +1 per crossed-out Diamond entered; each entered Diamond not crossed out scores the number of
    the map's Diamonds not crossed out at the end."""
    diamonds = dungeon.rooms_with("diamond")
    crossed = {item.number for _, item in diamonds if item.number in board.marks.diamonds}
    left = len(diamonds) - len(crossed)
    mine = [(room, item) for room, item in diamonds if room in entered]
    points = sum(1 if item.number in crossed else left for _, item in mine)
    uncrossed = sum(1 for _, item in mine if item.number not in crossed)
    note = ""
    if uncrossed:
        note = (f"{left} Diamond{'s' if left != 1 else ''} not crossed out: "
                f"each uncrossed Diamond entered scores {left}")
    return ScoreLine(8, len(mine), points, _names(sorted(room for room, _ in mine)), note=note)


def _skull_coins(dungeon: DungeonMap, board: Board, entered: list[Room]) -> ScoreLine:
    """Item 9: +5 per entered Skull Coin room, only if the path entered the Skull's room."""
    skull = [room for room, _ in dungeon.rooms_with("skull")]
    coins = sorted(room for room, _ in dungeon.rooms_with("skull_coin") if room in entered)
    if skull and skull[0] in entered:
        note = f"the path entered the Skull's room {skull[0].name}" if coins else ""
        return ScoreLine(9, len(coins), 5 * len(coins), _names(coins), note=note)
    note = f"the path never entered the Skull's room {skull[0].name}: coins score nothing" if coins and skull else ""
    return ScoreLine(9, 0, 0, note=note)


def _emeralds(dungeon: DungeonMap, board: Board, entered: list[Room]) -> ScoreLine:
    """Item 10: +2 per entered Emerald not cursed (crossed out), -2 per entered cursed one."""
    mine = [(room, item) for room, item in dungeon.rooms_with("emerald") if room in entered]
    cursed = [room for room, item in mine if item.number in board.marks.emeralds]
    points = sum(-2 if room in cursed else 2 for room, _ in mine)
    note = f"cursed: {', '.join(room.name for room in sorted(cursed))}" if cursed else ""
    return ScoreLine(10, len(mine), points, _names(sorted(room for room, _ in mine)), note=note)


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
