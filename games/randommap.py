"""Endless random maps from a seed, by a versioned algorithm.

A sheet records the algorithm version it was made with, so a sheet printed
today still scans after the algorithm changes: old versions stay here, frozen,
and a new version gets a new number.

Every map keeps these promises (checked by the tests over many seeds):
- every room is reachable from an entryway through passages;
- six entryways on the outer edge, never two in one room, at least one on each
  edge of the map and never two in neighbouring rooms;
- 15-30% of interior sides are walls;
- items spread over the map: no quadrant with more than two loot, a weapon
  never next to (or diagonal to) its own monster, the dragon off the border.

Expansion maps (``features``, any of ``games.maps.FEATURES``) are the plain map
of the same seed and version with the expansion elements added by a second,
separately seeded step, so the promises above still hold, and also:
- cave entrances (2) on interior walls, never in a room with an entryway or
  next to one;
- the six Diamonds, the Skull and its four coins, and one Emerald for each of
  the four Curse Track spaces in rooms of their own, no two Diamonds touching,
  no coin touching the Skull;
- Magic Doors (4, every die icon at least once) and Rune Gates (two pairs) on
  passages, never two on the sides of one room.
"""
from __future__ import annotations

import math
import random

from dataclasses import replace

from games.maps import (DIAMOND_COUNT, ENTRY_COUNT, FEATURES, GLYPHS, ICONS, LETTERS, LOOT_COUNT, STEP,
                        DungeonMap, Item, Room, interior_side)

LATEST_VERSION = 1
SIZE = 8
WALL_SHARE = (0.15, 0.30)


def random_map(seed: int, version: int = LATEST_VERSION, features=()) -> DungeonMap:
    """The random map for ``seed`` made by algorithm ``version``, with the expansion ``features`` asked for.
    Same seed and features, same map."""
    if version not in _ALGORITHMS:
        raise ValueError(f"unknown random-map version {version} (known: {', '.join(map(str, _ALGORITHMS))})")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"a map seed is a whole number from 0, not {seed!r}")
    unknown = sorted(set(features) - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown map feature {unknown[0]!r} (features: {', '.join(FEATURES)})")
    plain = _ALGORITHMS[version](seed)
    if not features:
        return plain
    return _FEATURE_ALGORITHMS[version](plain, frozenset(features))


def parse_features(text: str) -> frozenset[str]:
    """``"diamonds,caves"`` as a feature set. Raises ``ValueError`` naming the known features."""
    names = frozenset(part.strip().lower() for part in str(text).split(",") if part.strip())
    unknown = sorted(names - set(FEATURES))
    if unknown:
        raise ValueError(f"unknown map feature {unknown[0]!r}: choose from {','.join(FEATURES)}")
    return names


def quadrant(dungeon: DungeonMap, room: Room) -> tuple[bool, bool]:
    """Which quarter of the map a room is in: (right half?, bottom half?)."""
    return (room.col > dungeon.cols / 2, room.row > dungeon.rows / 2)


def touching(a: Room, b: Room) -> bool:
    """Rooms side by side or corner to corner."""
    return a != b and abs(a.col - b.col) <= 1 and abs(a.row - b.row) <= 1


# -- version 1 ----------------------------------------------------------------
# Frozen: changing anything below changes maps of printed sheets. Make a v2.

def _v1(seed: int) -> DungeonMap:
    rng = random.Random(f"dungeon-scrawl/random-map/v1/{seed}")
    blank = DungeonMap(id="random", name=f"Random dungeon #{seed}", rows=SIZE, cols=SIZE)
    walls = _v1_walls(blank, rng)
    entries = _v1_entries(blank, rng)
    items = _v1_items(blank, rng)
    return DungeonMap(id="random", name=blank.name, rows=SIZE, cols=SIZE, walls=walls,
                      entries=entries, items=items, seed=seed, version=1)


def _v1_walls(blank: DungeonMap, rng: random.Random) -> frozenset:
    sides = blank.interior_sides()
    low = math.ceil(WALL_SHARE[0] * len(sides))
    high = math.floor(WALL_SHARE[1] * len(sides))
    target = rng.randint(low + 2, high - 3)
    order = list(sides)
    rng.shuffle(order)
    walls: set = set()
    for side in order:
        if len(walls) == target:
            break
        walls.add(side)
        if not _connected(blank, walls):
            walls.discard(side)
    if len(walls) < low:  # Cannot happen on an 8x8 grid; kept as the rule it protects.
        raise RuntimeError(f"random map v1 placed only {len(walls)} walls")
    return frozenset(walls)


def _connected(blank: DungeonMap, walls: set) -> bool:
    start = Room(1, 1)
    seen, stack = {start}, [start]
    while stack:
        room = stack.pop()
        for dc, dr in STEP.values():
            other = Room(room.col + dc, room.row + dr)
            if blank.contains(other) and other not in seen and frozenset((room, other)) not in walls:
                seen.add(other)
                stack.append(other)
    return len(seen) == blank.rows * blank.cols


def _v1_entries(blank: DungeonMap, rng: random.Random) -> frozenset:
    border = blank.border_sides()
    while True:
        chosen = rng.sample(border, ENTRY_COUNT)
        rooms = [room for room, _ in chosen]
        spread = all(a.steps_to(b) > 1
                     for i, a in enumerate(rooms) for b in rooms[i + 1:])
        if spread and {side for _, side in chosen} == set("NESW"):
            return frozenset(chosen)


def _v1_items(blank: DungeonMap, rng: random.Random) -> tuple:
    while True:
        placed = _v1_try_items(blank, rng)
        if placed is not None:
            return tuple(placed.items())


def _v1_try_items(blank: DungeonMap, rng: random.Random) -> dict | None:
    rooms = list(blank.rooms())
    placed: dict[Room, Item] = {}

    def pick(allowed) -> Room | None:
        free = [room for room in rooms if room not in placed and allowed(room)]
        # Spread items out: prefer rooms with no item on any side.
        apart = [room for room in free if not any(
            room.steps_to(other) == 1 for other in placed)]
        pool = apart or free
        return rng.choice(pool) if pool else None

    def on_border(room: Room) -> bool:
        return room.col in (1, blank.cols) or room.row in (1, blank.rows)

    dragon = pick(lambda room: not on_border(room))
    placed[dragon] = Item("dragon")
    for _ in range(LOOT_COUNT):
        room = pick(lambda r: sum(quadrant(blank, o) == quadrant(blank, r)
                                  for o, it in placed.items() if it.kind == "loot") < 2)
        if room is None:
            return None
        placed[room] = Item("loot")
    for letter in LETTERS:
        weapon = pick(lambda r: True)
        if weapon is None:
            return None
        placed[weapon] = Item("weapon", letter)
        monster = pick(lambda r: not touching(r, weapon))
        if monster is None:
            return None
        placed[monster] = Item("monster", letter)
    return placed


_ALGORITHMS = {1: _v1}


# -- expansion features, version 1 ----------------------------------------------
# Frozen like _v1: changing anything below changes the maps of printed sheets.

CAVES = 2
SKULL_COIN_COUNT = 4
CURSE_SPACE_COUNT = 4
DOOR_COUNT = 4
GATE_PAIRS = 2


def _v1_features(plain: DungeonMap, features: frozenset[str]) -> DungeonMap:
    names = ",".join(name for name in FEATURES if name in features)
    rng = random.Random(f"dungeon-scrawl/random-map/v1/features/{names}/{plain.seed}")
    while True:
        made = _v1_try_features(plain, features, rng)
        if made is not None:
            return made


def _v1_try_features(plain: DungeonMap, features: frozenset[str], rng: random.Random) -> DungeonMap | None:
    entries = _v1_caves(plain, rng) if "caves" in features else set(plain.entries)
    curse_spaces = CURSE_SPACE_COUNT if "emeralds" in features else 0
    placed = _v1_place_items(plain, _v1_wanted(features, curse_spaces), rng)
    if placed is None:
        return None
    marked = _v1_doors_and_gates(plain, features, rng)
    if marked is None:
        return None
    doors, gates = marked
    made = replace(plain, entries=frozenset(entries), items=tuple(placed.items()), doors=frozenset(doors),
                   gates=frozenset(gates), curse_spaces=curse_spaces, features=features)
    return made if not made.problems() else None


def _v1_caves(plain: DungeonMap, rng: random.Random) -> set:
    """The map's entryways with the cave entrances added on interior walls, clear of every entryway's room."""
    entries = set(plain.entries)
    entry_rooms = {room for room, _ in entries}
    walls = [(room, side) for room in plain.rooms() for side in "NESW"
             if plain.contains(room.neighbour(side)) and interior_side(room, room.neighbour(side)) in plain.walls]
    rng.shuffle(walls)
    for room, side in walls:
        if sum(1 for r, _ in entries if plain.contains(r.neighbour(_))) == CAVES:
            break
        if any(room.steps_to(other) <= 1 for other in entry_rooms):
            continue
        entries.add((room, side))
        entry_rooms.add(room)
    return entries


def _v1_wanted(features: frozenset[str], curse_spaces: int) -> list[tuple[Item, object]]:
    """The expansion items to place, in order, each with the rule for its room: Diamonds, the Skull and its
    coins, and an Emerald for each Curse Track space."""
    wanted: list[tuple[Item, object]] = []
    if "diamonds" in features:
        wanted += [(Item("diamond", str(n)), "diamond") for n in range(1, DIAMOND_COUNT + 1)]
    if "skull" in features:
        wanted += [(Item("skull"), None)] + [(Item("skull_coin"), "coin")] * SKULL_COIN_COUNT
    wanted += [(Item("emerald", str(n)), None) for n in range(1, curse_spaces + 1)]
    return wanted


def _v1_place_items(plain: DungeonMap, wanted: list[tuple[Item, object]], rng: random.Random) -> dict | None:
    """The map's items with the ``wanted`` ones added in free rooms by their rules, or None when one finds no room."""
    placed = dict(plain.items)
    free = [room for room in plain.rooms() if room not in placed]

    def pick(allowed) -> Room | None:
        pool = [room for room in free if room not in placed and allowed(room)]
        if not pool:
            return None
        room = rng.choice(pool)
        return room

    for item, rule in wanted:
        if rule == "diamond":
            room = pick(lambda r: not any(touching(r, o) for o, it in placed.items() if it.kind == "diamond"))
        elif rule == "coin":
            skull = next(o for o, it in placed.items() if it.kind == "skull")
            room = pick(lambda r: not touching(r, skull))
        else:
            room = pick(lambda r: True)
        if room is None:
            return None
        placed[room] = item
    return placed


def _v1_doors_and_gates(plain: DungeonMap, features: frozenset[str], rng: random.Random) -> tuple[set, set] | None:
    """The Magic Doors and the Rune Gates, each on a passage of a room with no other, or None when they do not fit."""
    passages = [side for side in plain.interior_sides() if side not in plain.walls]
    rng.shuffle(passages)
    used_rooms: set[Room] = set()
    doors, gates = set(), set()
    marks = []
    if "doors" in features:
        icons = list(ICONS) + [rng.choice(ICONS) for _ in range(DOOR_COUNT - len(ICONS))]
        rng.shuffle(icons)
        marks += [("door", icon) for icon in icons]
    if "runes" in features:
        glyphs = rng.sample(GLYPHS, GATE_PAIRS)
        marks += [("gate", glyph) for glyph in glyphs for _ in range(2)]
    for kind, mark in marks:
        side = next((s for s in passages if not (s & used_rooms)), None)
        if side is None:
            return None
        passages.remove(side)
        used_rooms |= side
        (doors if kind == "door" else gates).add((side, mark))
    return doors, gates


_FEATURE_ALGORITHMS = {1: _v1_features}
