"""Dungeon Maker as data (``templates/dungeon_maker.toml``), and the random loot layouts.

The grid is 6x6 tiles addressed by two dice: column A..F is the X die (1..6),
row 1..6 the Y die. Setup places 4 Gems, then 2 Potions, each where a roll of
the two dice points; an occupied tile is rolled again. A layout is made from a
seed and a page number, so ``scrawl loot --seed N --count K`` prints K
different pages that can all be printed again.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

import templates
from games.datafile import parse_toml, take
from games.errors import TemplateError
from games.maps import Room

SIZE = 6
PLACES = ("empty", "path", "acid", "beside-path")
LOOT_VERSION = 1


@dataclass(frozen=True)
class Stat:
    id: str
    name: str
    short: str


@dataclass(frozen=True)
class HeroType:
    id: str
    name: str
    letter: str
    stats: dict = field(compare=False, hash=False)     # stat id -> basic value


@dataclass(frozen=True)
class MarketItem:
    id: str
    name: str
    buy: tuple[int, ...]
    cost: int
    on: str
    letter: str = ""
    damage: int = 0
    check: str = ""
    value: int = 0
    modifier: dict = field(default_factory=dict, compare=False, hash=False)
    on_fail: bool = False
    text: str = ""

    @property
    def threat(self) -> bool:
        """Does this item make heroes roll a check?"""
        return bool(self.check)


@dataclass(frozen=True)
class Maker:
    """Every number of the game: market, hero tables, spells, scoring."""

    rounds: int
    start_coin: int
    dungeon_hp: int
    heroes: int
    soul_points: int
    lost_hp_points: int
    modifier_pips: int
    loot: dict
    stats: tuple[Stat, ...]
    hero_types: tuple[HeroType, ...]
    hp_table: tuple[tuple[str, ...], ...]
    market: tuple[MarketItem, ...]
    spells: tuple[dict, ...]
    scoring: dict

    def item(self, item_id: str) -> MarketItem:
        for item in self.market:
            if item.id == item_id:
                return item
        raise KeyError(item_id)

    def hero_type(self, letter: str) -> HeroType:
        return next(t for t in self.hero_types if t.letter == letter)

    def hero_at(self, x: int, y: int) -> tuple[HeroType, int]:
        """The Hero HP table: the type and HP a roll of X and Y gives."""
        cell = self.hp_table[y - 1][x - 1]
        return self.hero_type(cell[0]), int(cell[1:])


@lru_cache(maxsize=1)
def load_maker() -> Maker:
    """The Dungeon Maker data. Raises ``TemplateError`` listing every problem in the file."""
    source = "dungeon_maker.toml"
    raw = templates.text(source)
    return parse_maker(parse_toml(raw, source), source)


def parse_maker(data: dict, source: str) -> Maker:
    problems: list[tuple[str, str]] = []

    def number(key):
        return take(problems, data, key, int, key)

    scalars = {key: number(key) for key in ("rounds", "start_coin", "dungeon_hp", "heroes", "soul_points",
                                            "lost_hp_points", "modifier_pips")}
    stats = tuple(Stat(s.get("id", "?"), s.get("name", "?"), s.get("short", "?"))
                  for s in take(problems, data, "stats", list, "stats", []))
    stat_ids = [s.id for s in stats]
    types = []
    for i, t in enumerate(take(problems, data, "hero_types", list, "hero_types", [])):
        values = {s: take(problems, t, s, int, f"hero_types[{i}].{s}", 0) for s in stat_ids}
        types.append(HeroType(t.get("id", "?"), t.get("name", "?"), t.get("letter", "?"), values))
    letters = {t.letter for t in types}
    table = take(problems, data, "hp_table", list, "hp_table", [])
    if len(table) != SIZE or any(not isinstance(row, list) or len(row) != SIZE for row in table):
        problems.append(("hp_table", f"should be {SIZE} rows of {SIZE} cells"))
        table = []
    for y, row in enumerate(table):
        for x, cell in enumerate(row):
            if not (isinstance(cell, str) and cell[:1] in letters and cell[1:].isdigit()):
                problems.append((f"hp_table[{y}][{x}]", f"{cell!r} should be a hero letter and HP, like 'K8'"))
    market = []
    for i, m in enumerate(take(problems, data, "market", list, "market", [])):
        path = f"market[{i}]"
        item = MarketItem(
            id=take(problems, m, "id", str, f"{path}.id", ""), name=take(problems, m, "name", str, f"{path}.name", ""),
            buy=tuple(take(problems, m, "buy", list, f"{path}.buy", [])), cost=take(problems, m, "cost", int, f"{path}.cost", 0),
            on=take(problems, m, "on", str, f"{path}.on", ""), letter=m.get("letter", ""),
            damage=m.get("damage", 0), check=m.get("check", ""), value=m.get("value", 0),
            modifier=dict(m.get("modifier", {})), on_fail=bool(m.get("on_fail", False)), text=m.get("text", ""))
        if item.on not in PLACES:
            problems.append((f"{path}.on", f"{item.on!r} should be one of {', '.join(PLACES)}"))
        if item.check and item.check not in stat_ids:
            problems.append((f"{path}.check", f"{item.check!r} is not a stat ({', '.join(stat_ids)})"))
        if any(not isinstance(b, int) or not 1 <= b <= 12 for b in item.buy):
            problems.append((f"{path}.buy", "die faces or sums from 1 to 12"))
        for stat in item.modifier:
            if stat not in stat_ids:
                problems.append((f"{path}.modifier", f"{stat!r} is not a stat"))
        market.append(item)
    if problems:
        raise TemplateError(source, problems)
    return Maker(**scalars, loot=dict(data.get("loot", {})), stats=stats, hero_types=tuple(types),
                 hp_table=tuple(tuple(row) for row in table), market=tuple(market),
                 spells=tuple(data.get("spells", [])), scoring=dict(data.get("scoring", {})))


# -- loot layouts ------------------------------------------------------------------------
@dataclass(frozen=True)
class LootLayout:
    """Where the Gems and Potions start on one sheet, and the rolls that put them there."""

    seed: int
    page: int
    gems: tuple[Room, ...]
    potions: tuple[Room, ...]
    rolls: tuple[tuple[int, int], ...]     # every (X, Y) rolled, re-rolls included

    def items(self) -> list[tuple[Room, str]]:
        return [(room, "gem") for room in self.gems] + [(room, "potion") for room in self.potions]

    def check(self) -> str:
        """Four characters naming this layout, for the sheet's QR code."""
        from games.mapcode import ALPHABET

        value = 0
        for room, kind in sorted(self.items()):
            value = (value * 37 + (room.row - 1) * SIZE + room.col + (17 if kind == "potion" else 0)) % (32 ** 4)
        return "".join(ALPHABET[(value >> shift) & 31] for shift in (15, 10, 5, 0))


def roll_loot(seed: int, page: int = 1, *, gems: int = 4, potions: int = 2) -> LootLayout:
    """The loot layout of page ``page`` of seed ``seed``: two dice per item, occupied tiles re-rolled."""
    rng = random.Random(f"dungeon-scrawl/loot/v{LOOT_VERSION}/{seed}/{page}")
    taken: list[Room] = []
    rolls = []
    while len(taken) < gems + potions:
        x, y = rng.randint(1, 6), rng.randint(1, 6)
        rolls.append((x, y))
        room = Room(x, y)
        if room not in taken:
            taken.append(room)
    return LootLayout(seed, page, tuple(taken[:gems]), tuple(taken[gems:]), tuple(rolls))
