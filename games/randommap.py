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
"""
from __future__ import annotations

import math
import random

from games.maps import ENTRY_COUNT, LETTERS, LOOT_COUNT, STEP, DungeonMap, Item, Room

LATEST_VERSION = 1
SIZE = 8
WALL_SHARE = (0.15, 0.30)


def random_map(seed: int, version: int = LATEST_VERSION) -> DungeonMap:
    """The random map for ``seed`` made by algorithm ``version``. Same seed, same map."""
    if version not in _ALGORITHMS:
        raise ValueError(f"unknown random-map version {version} (known: {', '.join(map(str, _ALGORITHMS))})")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a map seed is a whole number from 0, not {seed!r}")
    return _ALGORITHMS[version](seed)


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
