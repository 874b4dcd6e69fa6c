"""Dungeon Maker's built dungeon, checked against the building rules, scored, and visited by heroes.

A built dungeon is a JSON document (``scrawl.dungeon/1``, see the README)::

    {"format": "scrawl.dungeon/1", "entrance": "A1:N", "stairs": "D4", "coins": 6, "spells": 1,
     "tiles": {"A1": {"path": "NS"}, "A2": {"path": "NE", "on": "spikes"},
               "B1": {"room": "slime"}, "C2": {"acid": true, "bridge": "EW"}, "F6": {"loot": "gem"}}}

Tiles are named like map rooms: column A..F is the X die, row 1..6 the Y die.
A tile holds a ``path`` (the sides it links, ``NESW``), or a ``bridge`` path on an
Acid Pond (``acid``), or a monster ``room``, or uncollected ``loot``; ``on`` is
what was built on a path (a trap, a gate, a boss monster).

The hero phase takes its dice from an iterator of d6 results, so a seeded run
and a hand-worked case go through the same code.
"""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from games.review import Rule
from games.cards import exits_text
from games.errors import TemplateError
from games.maker import SIZE, Maker, MarketItem
from games.maps import OPPOSITE, SIDES, Room
from games.rules import Problem

FORMAT = "scrawl.dungeon/1"
CORNERS = {Room(1, 1): "NW", Room(SIZE, 1): "NE", Room(1, SIZE): "SW", Room(SIZE, SIZE): "SE"}


@dataclass(frozen=True)
class Tile:
    path: str = ""          # sides a path or bridge links to
    bridge: bool = False
    acid: bool = False
    room: str = ""          # a monster room's market id
    on: str = ""            # what was built on the path: trap, gate or boss
    loot: str = ""          # uncollected loot

    @property
    def walkable(self) -> bool:
        return bool(self.path)


@dataclass(frozen=True)
class Dungeon:
    tiles: dict = field(compare=False, hash=False)      # Room -> Tile
    entrance: tuple[Room, str] | None
    stairs: Room | None
    coins: int = 0
    spells: int = 0

    def at(self, room: Room) -> Tile:
        return self.tiles.get(room, Tile())


def _inside(room: Room) -> bool:
    return 1 <= room.col <= SIZE and 1 <= room.row <= SIZE


# -- reading ---------------------------------------------------------------------------
def read_dungeon(document, maker: Maker, source: str = "DUNGEON.json", *, partial: bool = False) -> Dungeon:
    """Parse a built dungeon. Raises ``TemplateError`` listing every field that cannot be read. ``partial``
    (a scanned sheet): a dungeon without entrance or stairs is read, with None for them."""
    problems: list[tuple[str, str]] = []
    if not isinstance(document, dict):
        raise TemplateError(source, [("", 'should be a JSON object like {"format": "scrawl.dungeon/1", "tiles": {...}}')])
    if document.get("format", FORMAT) != FORMAT:
        problems.append(("format", f"{document.get('format')!r} is not a format this release reads ({FORMAT!r})"))
    tiles = _read_tiles(document, maker, problems)
    entrance = None if partial and "entrance" not in document else _read_entrance(document, problems)
    stairs = None
    if partial and not document.get("stairs"):
        pass
    elif not document.get("stairs"):
        problems.append(("stairs", "missing: name the tile with the exit stairs, like \"D4\""))
    else:
        stairs = _tile_name(document["stairs"], "stairs", problems)
    counts = {}
    loot = maker.loot
    most = {"coins": maker.start_coin + loot.get("gems", 0) * loot.get("gem_coin", 0)     # all loot, nothing spent
            + loot.get("potions", 0) * loot.get("potion_coin", 0),
            "spells": 1 + loot.get("potions", 0) * loot.get("potion_spells", 0)}     # one to start
    for key in ("coins", "spells"):
        value = document.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most[key]:
            problems.append((key, f"should be a whole number from 0 to {most[key]} (what a game can hold), "
                                  f"not {value!r}"))
            value = 0
        counts[key] = value
    if problems:
        raise TemplateError(source, problems)
    return Dungeon(tiles, entrance, stairs, **counts)


def _read_tiles(document: dict, maker: Maker, problems: list) -> dict:
    """The document's ``tiles``, each bad field added to ``problems`` (a tile that cannot be read is left out)."""
    known = {item.id for item in maker.market}
    tiles = {}
    raw_tiles = document.get("tiles", {})
    if not isinstance(raw_tiles, dict):
        problems.append(("tiles", 'should be an object like {"A1": {"path": "NS"}}'))
        raw_tiles = {}
    for key, spec in raw_tiles.items():
        path = f"tiles.{key}"
        room = _tile_name(key, path, problems)
        if room is None:
            continue
        if not isinstance(spec, dict):
            problems.append((path, f'should be like {{"path": "NS"}}, not {spec!r}'))
            continue
        for name in sorted(set(spec) - {"path", "bridge", "acid", "room", "on", "loot"}):
            problems.append((f"{path}.{name}", "unknown field (a tile has: path, bridge, acid, room, on, loot)"))
        exits = spec.get("path") or spec.get("bridge") or ""
        if "path" in spec and "bridge" in spec:
            problems.append((path, "a tile holds a path or a bridge, not both"))
        if not isinstance(exits, str) or set(exits.upper()) - set(SIDES):
            problems.append((path, f"sides should be letters from NESW, like \"NS\", not {exits!r}"))
            continue
        for name, wanted in (("room", "beside-path"), ("on", "path")):
            value = spec.get(name, "")
            if value and (value not in known or maker.item(value).on != wanted):
                choices = ", ".join(i.id for i in maker.market if i.on == wanted)
                problems.append((f"{path}.{name}", f"{value!r} is not one of {choices}"))
        if spec.get("loot", "") not in ("", "gem", "potion"):
            problems.append((f"{path}.loot", f"{spec['loot']!r} should be gem or potion"))
        tiles[room] = Tile(path=exits_text(exits.upper()), bridge="bridge" in spec, acid=bool(spec.get("acid")),
                           room=spec.get("room", ""), on=spec.get("on", ""), loot=spec.get("loot", ""))
    return tiles


def _read_entrance(document: dict, problems: list) -> tuple[Room, str] | None:
    """The document's ``entrance``, a tile and the side the hero comes in by, or None with the problem noted."""
    text = document.get("entrance")
    if not isinstance(text, str) or text.count(":") != 1:
        problems.append(("entrance", f"write the entrance as TILE:SIDE, like \"A1:N\", not {text!r}"))
        return None
    room = _tile_name(text.split(":")[0], "entrance", problems)
    side = text.split(":")[1].strip().upper()
    if side not in SIDES or len(side) != 1:
        problems.append(("entrance", f"side {side!r} is not one of N, E, S, W"))
    elif room is not None:
        return (room, side)
    return None


def _tile_name(text, path, problems) -> Room | None:
    try:
        room = Room.parse(text)
    except ValueError as exc:
        problems.append((path, str(exc)))
        return None
    if not _inside(room):
        problems.append((path, f"{room.name} is not on the {SIZE}x{SIZE} grid (A1 to F6)"))
        return None
    return room


# -- the building rules ------------------------------------------------------------------
def problems(dungeon: Dungeon, maker: Maker) -> list[Problem]:
    """Every building rule the dungeon breaks, tile by tile."""
    found = []
    for room, tile in sorted(dungeon.tiles.items()):
        where = room.name
        if tile.loot and (tile.path or tile.acid or tile.room or tile.on):
            found.append(Problem(where, Rule.BUILT_ON_LOOT,
                                 f"the {tile.loot} is still here: collect it before building"))
        if tile.on and not tile.path:
            found.append(Problem(where, Rule.NOT_ON_PATH, f"a {maker.item(tile.on).name} goes on a path"))
        if tile.bridge and not tile.acid:
            found.append(Problem(where, Rule.BRIDGE_OFF_ACID, "a bridge path goes only on an Acid Pond"))
        if tile.acid and tile.path and not tile.bridge:
            found.append(Problem(where, Rule.PATH_ON_ACID, "a path over an Acid Pond must be a bridge path"))
        if tile.room and (tile.path or tile.acid):
            found.append(Problem(where, Rule.ROOM_FILLS_TILE,
                                 f"a {maker.item(tile.room).name} room fills its whole tile: no path or pond with it"))
        for side in tile.path:
            if not _inside(room.neighbour(side)) and dungeon.entrance != (room, side):
                found.append(Problem(where, Rule.PATH_OFF_GRID, f"the path runs off the grid on the {side} side"))
    found += _entrance_and_stairs(dungeon)
    return found


def _entrance_and_stairs(dungeon: Dungeon) -> list[Problem]:
    found = []
    if dungeon.entrance is not None:
        room, side = dungeon.entrance
        if room not in CORNERS or side not in CORNERS[room]:
            found.append(Problem(room.name, Rule.ENTRANCE_CORNER,
                                 f"the entrance {room.name}:{side} must come in from outside at a corner "
                                 "(A1:N, A1:W, F1:N, F1:E, A6:S, A6:W, F6:S or F6:E)"))
        elif side not in dungeon.at(room).path:
            found.append(Problem(room.name, Rule.ENTRANCE_UNLINKED,
                                 f"no path on {room.name} leads in from the entrance"))
    if dungeon.stairs is not None and not dungeon.at(dungeon.stairs).walkable:
        found.append(Problem(dungeon.stairs.name, Rule.STAIRS_OFF_PATH, "the exit stairs must be on a path tile"))
    if not found and dungeon.entrance is not None and dungeon.stairs is not None and route(dungeon) is None:
        found.append(Problem(dungeon.stairs.name, Rule.NO_ROUTE, "no path leads from the entrance to the stairs"))
    return found


def route(dungeon: Dungeon) -> list[Room] | None:
    """The tiles a hero walks: the shortest linked path from the entrance to the stairs (ties: N, E, S, W first)."""
    start, goal = dungeon.entrance[0], dungeon.stairs
    if not dungeon.at(start).walkable:
        return None
    came = {start: None}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        if room == goal:
            walk = []
            while room is not None:
                walk.append(room)
                room = came[room]
            return walk[::-1]
        for side in dungeon.at(room).path:
            other = room.neighbour(side)
            if _inside(other) and other not in came and OPPOSITE[side] in dungeon.at(other).path:
                came[other] = room
                queue.append(other)
    return None


# -- threats and the hero phase ----------------------------------------------------------
def threats(dungeon: Dungeon, maker: Maker, room: Room) -> list[tuple[str, MarketItem]]:
    """What can hurt a hero on this path tile: what is built on it, the pond under a bridge, and
    every monster room beside it (two rooms beside the path both count)."""
    tile = dungeon.at(room)
    found = []
    if tile.on and maker.item(tile.on).threat:
        found.append((room.name, maker.item(tile.on)))
    if tile.acid:
        found.append((room.name, maker.item("acid")))
    for side in SIDES:
        other = room.neighbour(side)
        if dungeon.at(other).room:
            found.append((other.name, maker.item(dungeon.at(other).room)))
    return found


def dungeon_modifiers(dungeon: Dungeon, maker: Maker) -> dict[str, int]:
    """Stat pips crossed off by what was built (each Skeleton +1 STR, ...), at most the sheet's pips."""
    total = {stat.id: 0 for stat in maker.stats}
    for tile in dungeon.tiles.values():
        for built in (tile.room, tile.on):
            if built and not maker.item(built).on_fail:
                for stat, amount in maker.item(built).modifier.items():
                    total[stat] += amount
    return {stat: min(value, maker.modifier_pips) for stat, value in total.items()}


@dataclass
class Step:
    room: str
    threats: list[str]
    stat: str = ""
    need: int = 0
    roll: tuple[int, int] = (0, 0)
    total: int = 0
    passed: bool = True
    damage: int = 0
    hp: int = 0


@dataclass
class HeroRun:
    number: int
    kind: str
    hp: int                 # from the Hero HP table
    left: int               # at the end of the walk
    stats: dict
    steps: list[Step]
    fate: str               # "died" or "escaped"
    where: str
    rolled: tuple[int, int] = (0, 0)    # X and Y on the Hero HP table


@dataclass
class HeroPhase:
    heroes: list[HeroRun]
    souls: int
    hp_lost: int
    fallen: bool


def seeded_dice(seed: int) -> Iterator[int]:
    """The d6 results of hero phase ``seed``: the same seed, the same rolls."""
    rng = random.Random(f"dungeon-scrawl/heroes/v1/{seed}")
    return iter(lambda: rng.randint(1, 6), None)


def run_heroes(dungeon: Dungeon, maker: Maker, dice: Iterable[int], *, heroes: int | None = None) -> HeroPhase:
    """Send up to ``heroes`` (the game's five) heroes through a valid dungeon, taking d6 results from ``dice``.

    Each hero: roll X and Y on the Hero HP table; basic stats plus the dungeon's modifiers.
    On each tile with threats: 2d6 + stat against the highest check there (ties: the hero's
    weakest of those stats); a failure takes the damage of every threat on the tile. 0 HP:
    the hero dies (+1 Soul). The stairs: the hero escapes (one dungeon HP crossed off); at 0
    dungeon HP the dungeon falls and no more heroes come.
    """
    roll: Iterator[int] = iter(dice)
    walk = route(dungeon)
    bonus = dungeon_modifiers(dungeon, maker)
    runs, souls, lost = [], 0, 0
    for number in range(1, (maker.heroes if heroes is None else heroes) + 1):
        if lost >= maker.dungeon_hp:
            break
        rolled = (next(roll), next(roll))
        kind, start_hp = maker.hero_at(*rolled)
        hp = start_hp
        stats = {stat: value + bonus[stat] for stat, value in kind.stats.items()}
        steps, fate = [], "escaped"
        for room in walk:
            found = threats(dungeon, maker, room)
            if not found:
                continue
            step = _check(found, stats, (next(roll), next(roll)))
            hp -= step.damage
            step.room, step.hp = room.name, hp
            steps.append(step)
            if not step.passed:
                for _, item in found:
                    if item.on_fail:
                        for stat, amount in item.modifier.items():
                            stats[stat] += amount
            if hp <= 0:
                fate = "died"
                break
        if fate == "died":
            souls += 1
        else:
            lost += 1
        runs.append(HeroRun(number, kind.name, start_hp, hp, dict(stats), steps, fate,
                            steps[-1].room if fate == "died" else walk[-1].name, rolled))
    return HeroPhase(runs, souls, lost, lost >= maker.dungeon_hp)


def _check(found: list[tuple[str, MarketItem]], stats: dict, dice: tuple[int, int]) -> Step:
    need = max(item.value for _, item in found)
    # Ties between threats of the highest check: the hero rolls with its weakest of their stats.
    stat = min({item.check for _, item in found if item.value == need}, key=lambda s: (stats[s], s))
    total = sum(dice) + stats[stat]
    passed = total >= need
    damage = 0 if passed else sum(item.damage for _, item in found)
    names = [f"{item.name} ({where})" for where, item in found]
    return Step(room="", threats=names, stat=stat, need=need, roll=dice, total=total, passed=passed, damage=damage)


# -- scoring -----------------------------------------------------------------------------
def build_score(dungeon: Dungeon, maker: Maker) -> list[tuple[str, int, int]]:
    """The Scoring chart's lines: (what, how many, points)."""
    chart = maker.scoring
    beside = [room for room, tile in dungeon.tiles.items()
              if tile.room and any(dungeon.at(room.neighbour(s)).walkable for s in SIDES)]
    lines = [("Monster rooms beside a path", len(beside),
              sum(chart["monster_beside_path"].get(dungeon.at(r).room, 0) for r in beside))]
    bosses = [t.on for t in dungeon.tiles.values() if t.path and t.on in chart["boss_on_path"]]
    lines.append(("Boss monsters on a path", len(bosses), sum(chart["boss_on_path"][b] for b in bosses)))
    traps = [t for t in dungeon.tiles.values() if t.path and t.on and maker.item(t.on).letter == "T"]
    lines.append(("Traps on a path", len(traps), chart["trap_on_path"] * len(traps)))
    lairs = _groups(dungeon, lambda t: bool(t.room))
    lines.append(("Lairs (monster rooms side by side)", len([g for g in lairs if len(g) > 1]),
                  sum(_by_size(chart["lair"], len(g)) for g in lairs)))
    ponds = _groups(dungeon, lambda t: t.acid)
    lines.append(("Acid Ponds (by connected group)", len(ponds), sum(_by_size(chart["acid"], len(g)) for g in ponds)))
    lines.append(("Coin left", dungeon.coins, dungeon.coins // chart["coin_per_point"]))
    lines.append(("Spells not used", dungeon.spells, dungeon.spells * chart["unused_spell"]))
    return lines


def final_score(dungeon: Dungeon, maker: Maker, phase: HeroPhase) -> dict:
    building = sum(points for _, _, points in build_score(dungeon, maker))
    souls = phase.souls * maker.soul_points
    lost = phase.hp_lost * maker.lost_hp_points
    return {"building": building, "souls": phase.souls, "souls_points": souls, "hp_lost": phase.hp_lost,
            "hp_points": lost, "total": building + souls + lost}


def _groups(dungeon: Dungeon, member) -> list[set[Room]]:
    seen, groups = set(), []
    for room in sorted(dungeon.tiles):
        if room in seen or not member(dungeon.at(room)):
            continue
        group, queue = {room}, deque([room])
        while queue:
            here = queue.popleft()
            for side in SIDES:
                other = here.neighbour(side)
                if other not in group and member(dungeon.at(other)):
                    group.add(other)
                    queue.append(other)
        seen |= group
        groups.append(group)
    return groups


def _by_size(table: list[int], size: int) -> int:
    return table[min(size, len(table) - 1)]


# -- what the sheet records besides the dungeon ------------------------------------------
@dataclass(frozen=True)
class SheetRecord:
    """What a Dungeon Maker sheet records besides its dungeon: loot collected, spells got and cast, rounds
    crossed off, and the hero phase's Souls and crossed dungeon hearts."""

    gems: int = 0
    potions: int = 0
    spells_got: tuple[str, ...] = ()
    spells_cast: tuple[str, ...] = ()
    rounds: int = 0
    souls: int = 0
    hearts: int = 0

    def to_json(self) -> dict:
        return {"gems": self.gems, "potions": self.potions, "spells_got": list(self.spells_got),
                "spells_cast": list(self.spells_cast), "rounds": self.rounds, "souls": self.souls,
                "hearts": self.hearts}

    @property
    def heroes_played(self) -> bool:
        return bool(self.souls or self.hearts)


def built_items(dungeon: Dungeon) -> list[tuple[Room, str]]:
    """Every Market item built, tile by tile: a path or bridge, a pond, a room, what is on the path, the stairs."""
    built = []
    for room, tile in sorted(dungeon.tiles.items()):
        if tile.path:
            built.append((room, "bridge" if tile.bridge else "path"))
        built += [(room, item) for item in ("acid",) if tile.acid]
        built += [(room, item) for item in (tile.room, tile.on) if item]
        if room == dungeon.stairs:
            built.append((room, "stairs"))
    return built


def _spell(maker: Maker, key: str, ids) -> int:
    """The sum of a spell field (``coin``, ``mends``) over the spells in ``ids``."""
    by_id = {spell["id"]: spell for spell in maker.spells}
    return sum(int(by_id.get(spell, {}).get(key, 0)) for spell in ids)


def coins_left(dungeon: Dungeon, record: SheetRecord, maker: Maker) -> int:
    """The Coin a sheet ends with: the start, plus its loot's, less what was built, plus what spells saved."""
    loot = maker.loot
    gained = record.gems * loot.get("gem_coin", 0) + record.potions * loot.get("potion_coin", 0)
    paid = sum(maker.item(item).cost for _, item in built_items(dungeon))
    return maker.start_coin + gained - paid + _spell(maker, "coin", record.spells_cast)


def hearts_lost(record: SheetRecord, maker: Maker) -> int:
    """Dungeon HP lost: hearts crossed, less those a spell cleared."""
    return max(0, record.hearts - _spell(maker, "mends", record.spells_cast))


def record_problems(dungeon: Dungeon, record: SheetRecord, maker: Maker) -> list[Problem]:
    """What the sheet's record breaks: Coin spent it did not have, more actions than rounds, a Potion
    without the upgraded tool, spells that do not add up, more heroes than come."""
    found = []
    if dungeon.entrance is None:
        found.append(Problem("entrance", Rule.NO_ENTRANCE, "no path runs out through a corner tile's outer "
                             "side: draw the entrance"))
    if dungeon.stairs is None:
        found.append(Problem("stairs", Rule.NO_STAIRS, "no tile has its Exit stairs box ticked"))
    coins = coins_left(dungeon, record, maker)
    if coins < 0:
        found.append(Problem("Coin", Rule.OVERSPENT, f"what is built costs {-coins} Coin more than the start "
                             "and the loot collected give"))
    actions = len(built_items(dungeon)) + record.gems + record.potions
    if actions > maker.rounds:
        found.append(Problem("Rounds", Rule.TOO_MANY_ACTIONS, f"{actions} builds and loot collected: one action "
                             f"a round is {maker.rounds} at most"))
    upgrade = maker.loot.get("upgrade_after_gems", 0)
    if record.potions and record.gems < upgrade:
        found.append(Problem("Loot", Rule.POTION_TOOL, f"a Potion needs the upgraded tool, after {upgrade} Gems "
                             f"(only {record.gems} collected)"))
    got = 1 + record.potions * maker.loot.get("potion_spells", 0)
    if len(record.spells_got) != got or not set(record.spells_cast) <= set(record.spells_got):
        found.append(Problem("Spells", Rule.SPELL_COUNT, f"{len(record.spells_got)} spells got and "
                             f"{len(record.spells_cast)} cast: one to start and one per Potion ({got}), and only "
                             "spells got can be cast"))
    if record.souls + record.hearts > maker.heroes or record.hearts > maker.dungeon_hp:
        found.append(Problem("Scoring", Rule.HERO_COUNT, f"{record.souls} Souls and {record.hearts} crossed "
                             f"hearts: {maker.heroes} heroes come at most, and the dungeon has "
                             f"{maker.dungeon_hp} HP"))
    return found


def sheet_score(dungeon: Dungeon, record: SheetRecord, maker: Maker) -> dict:
    """The sheet's score from what it records: the building phase from the dungeon (Coin left worked out from
    what was built), and the hero phase from its Souls and crossed hearts."""
    counted = Dungeon(dungeon.tiles, dungeon.entrance, dungeon.stairs, max(0, coins_left(dungeon, record, maker)),
                      len(set(record.spells_got) - set(record.spells_cast)))
    lines = build_score(counted, maker)
    building = sum(points for _, _, points in lines)
    lost = hearts_lost(record, maker)
    souls = record.souls * maker.soul_points
    return {"building": building, "lines": [{"what": what, "count": count, "points": points}
                                            for what, count, points in lines],
            "coins": counted.coins, "spells": counted.spells, "souls": record.souls, "souls_points": souls,
            "hp_lost": lost, "hp_points": lost * maker.lost_hp_points, "heroes_played": record.heroes_played,
            "total": building + souls + lost * maker.lost_hp_points}


def mark_loot_left(tiles: dict, loot, gems: int, potions: int) -> None:
    """Mark loot still lying on built tiles (``tiles``: a ``scrawl.dungeon/1`` document's) of a sheet with
    ``loot`` (``games.maker.LootLayout``) printed on it: more Gem (Potion) tiles built on than Gems (Potions)
    collected means the last of them, in reading order, were built on before their loot was collected."""
    for kind, rooms, collected in (("gem", loot.gems, gems), ("potion", loot.potions, potions)):
        built_on = [room.name for room in sorted(rooms, key=lambda r: (r.row, r.col)) if room.name in tiles]
        for name in built_on[max(0, collected):]:
            tiles[name]["loot"] = kind


def score_entry(entry: dict, maker: Maker) -> dict:
    """A ``dungeons`` entry of a scan document (``scanner.maker``) scored: its dungeon given the Coin left and
    spells unused the sheet works out to, its ``score`` (``sheet_score``), and every building rule and record
    rule it breaks added to its ``needs_review``."""
    dungeon = read_dungeon(entry["dungeon"], maker, entry.get("source", "sheet"), partial=True)
    raw = entry.get("record", {})
    record = SheetRecord(**{key: tuple(value) if isinstance(value, list) else value for key, value in raw.items()
                            if key in SheetRecord.__dataclass_fields__})
    broken = problems(dungeon, maker) + record_problems(dungeon, record, maker)
    score = sheet_score(dungeon, record, maker)
    return {**entry, "dungeon": {**entry["dungeon"], "coins": score["coins"], "spells": score["spells"]},
            "score": score, "needs_review": list(entry.get("needs_review", [])) + [p.to_json() for p in broken]}


def entry_dungeon(entry: dict, maker: Maker) -> Dungeon:
    """The dungeon of a scored ``dungeons`` entry, for the hero phase."""
    return read_dungeon(entry["dungeon"], maker, entry.get("source", "sheet"))
