"""Dungeon Maker sheets played and filled in by hand: a random legal builder, the hero phase, and the ink a
player puts on the sheet (ticks in the tiles' boxes, path lines through the tiles' sides, loot, spells,
rounds, Souls and hearts, and the scribbles the scanner must ignore).

``play_maker(loot, rng)`` plays the 20 rounds of the building phase by the rules (RULES.md section 3) and
the numbers of ``games.maker.load_maker()``: each round one action, collecting loot (a Gem any time, a
Potion after the upgrade) or buying a Market item the two dice allow (a spell may reroll them, lower the
price or buy anything), placed where the item may go, paths growing from the entrance corner, the exit
stairs last, on a path tile next to the last thing built. The hero phase is ``games.heroes.run_heroes``.
The truth it returns::

    {"dungeon": {scrawl.dungeon/1 as games.heroes.read_dungeon reads it: entrance, stairs, tiles (loot
                 not collected included), coins (Coin left), spells (got and not cast)},
     "souls": 2, "hearts": 1, "spells_got": ["wild", "reroll"], "spells_cast": ["wild"], "gems": 4,
     "potions": 1, "rounds": 20, "score": 23, "collected": ["C3", ...], "heroes": [...], "log": [...],
     "hero_seed": 123, "coin_trail": [20, 19, ...]}

``fill_maker_sheet(layout, truth, rng)`` draws it on the printed page. Everything is in paper millimetres
and every random choice comes from the ``rng`` passed in.
"""
from __future__ import annotations

import io

import numpy as np

from games.heroes import (CORNERS, FORMAT, SheetRecord, built_items, dungeon_modifiers, read_dungeon, run_heroes,
                          seeded_dice, sheet_score)
from games.maker import SIZE, LootLayout, Maker, MarketItem, load_maker
from games.maps import OPPOSITE, SIDES, Room
from sheets.maker import MakerLayout
from sheets.page import Rect
from photographer.hand import HandStyle, Pen, hand_for, scribble_name, write_in_box
from photographer.pen import InkMask, apply_ink, grain_tile

TICKS = ("tick", "cross", "scribble")
ROOMS = ("slime", "skeleton", "ghost")
BOSSES = ("giant-bat", "boss-slime", "golem")


# -- the building phase ------------------------------------------------------------------------------------

class _Game:
    """One player's building phase as it goes: what each tile holds, Coin, loot and spells."""

    def __init__(self, loot: LootLayout, maker: Maker, rng: np.random.Generator):
        self.loot, self.maker, self.rng = loot, maker, rng
        self.lying = {room: "gem" for room in loot.gems} | {room: "potion" for room in loot.potions}
        self.tiles: dict[Room, dict] = {}
        self.links: dict[Room, set[str]] = {}          # path and bridge tiles: the sides they link
        self.coins = maker.start_coin
        self.trail = [self.coins]
        self.collected: list[tuple[Room, str]] = []
        self.got = [str(rng.choice([s["id"] for s in maker.spells]))]
        self.cast: list[str] = []
        self.log: list[dict] = []
        self.stairs: Room | None = None
        self.last: list[Room] = []                    # tiles built, in order
        self.taste = _taste(rng)
        self.entrance = _entrance(self.lying, rng)

    # what the player owns
    def count(self, kind: str) -> int:
        return sum(1 for _, k in self.collected if k == kind)

    def has(self, spell: str) -> bool:
        return spell in self.got and spell not in self.cast

    def pay(self, amount: int) -> None:
        self.coins += amount
        self.trail.append(self.coins)

    # what the tiles hold
    def free(self, room: Room) -> bool:
        """An empty tile that may be built on: nothing built, no loot lying."""
        return room not in self.tiles and room not in self.lying

    def beside_path(self, room: Room) -> bool:
        return any(room.neighbour(side) in self.links for side in SIDES)


def _taste(rng: np.random.Generator) -> dict:
    """One player's habits: how much each kind of build appeals, how long a route they want, how often they
    collect loot or sit a round out."""
    return {"route": int(rng.integers(7, 14)), "loot": float(rng.uniform(0.1, 0.4)),
            "idle": float(rng.choice([0.0, 0.04, 0.1])), "path": 1.0,
            "trap": float(rng.uniform(0.3, 1.5)), "gate": float(rng.uniform(0.1, 1.0)),
            "room": float(rng.uniform(0.5, 2.0)), "acid": float(rng.uniform(0.1, 1.5)),
            "boss": float(rng.uniform(0.5, 2.0)), "loop": float(rng.uniform(0.0, 0.25))}


def _entrance(lying: dict, rng: np.random.Generator) -> tuple[Room, str]:
    """A corner and one of its outer sides: a corner without loot if there is one, else one with a Gem."""
    corners = [room for room in CORNERS if room not in lying] or \
        [room for room in CORNERS if lying.get(room) == "gem"] or list(CORNERS)
    room = corners[int(rng.integers(len(corners)))]
    return room, str(rng.choice(list(CORNERS[room])))


def _inside(room: Room) -> bool:
    return 1 <= room.col <= SIZE and 1 <= room.row <= SIZE


def _all_rooms() -> list[Room]:
    return [Room(col, row) for row in range(1, SIZE + 1) for col in range(1, SIZE + 1)]


def _places(game: _Game, item: MarketItem) -> list[tuple[Room, float]]:
    """Where ``item`` may be built now, each with how much the player likes the spot."""
    start = game.entrance[0]
    if item.id == "path":
        if not game.links:
            return [(start, 1.0)] if game.free(start) else []
        depth = _depths(game)
        return [(room, 1.0 + max(depth.get(room.neighbour(s), 0) for s in SIDES) ** 2) for room in _all_rooms()
                if game.free(room) and game.beside_path(room)]
    if item.id == "bridge":
        return [(room, 2.0) for room, spec in game.tiles.items()
                if spec.get("acid") and room not in game.links and game.beside_path(room)]
    if item.id == "stairs":
        return []
    if item.on == "path":
        return [(room, 1.0 + 0.2 * _away(room, start)) for room in game.links
                if "on" not in game.tiles[room]]
    spots = []
    for room in _all_rooms():
        if not game.free(room) or room == start:
            continue
        near = game.beside_path(room)
        if item.on == "empty":        # an Acid Pond: beside the path (a bridge later) or beside another pond
            ponds = sum(game.tiles.get(room.neighbour(s), {}).get("acid", False) for s in SIDES)
            spots.append((room, 0.3 + 2.0 * near + 1.5 * ponds))
        else:                          # a monster room: beside the path, better still beside another room
            rooms = sum(bool(game.tiles.get(room.neighbour(s), {}).get("room")) for s in SIDES)
            spots.append((room, 0.15 + 3.0 * near + 1.0 * rooms * near))
    return spots


def _depths(game: _Game) -> dict[Room, int]:
    """How many tiles a hero walks from the entrance to each path tile."""
    start = game.entrance[0]
    depth, queue = {start: 0}, [start]
    while queue:
        room = queue.pop(0)
        for side in game.links.get(room, ()):
            other = room.neighbour(side)
            if other in game.links and other not in depth:
                depth[other] = depth[room] + 1
                queue.append(other)
    return depth


def _away(room: Room, start: Room) -> float:
    """How far a tile is from the entrance tile, in tiles."""
    return abs(room.col - start.col) + abs(room.row - start.row)


def _appeal(game: _Game, item: MarketItem) -> float:
    """How much the player wants ``item`` now."""
    taste, route = game.taste, len(game.links)
    if item.id == "path":
        return 20.0 if route < 3 else (8.0 if route < taste["route"] else 0.4)
    if item.id == "bridge":
        return 2.0
    if item.id in ROOMS:
        return taste["room"] * (0.2 if route < 2 else (2.0 if game.coins >= 8 else 1.0))
    if item.id in BOSSES:
        return taste["boss"] * (2.0 if game.coins >= item.cost + 4 else 0.6)
    if item.id == "spikes":
        return taste["trap"]
    if item.id == "gate":
        return taste["gate"]
    if item.id == "acid":
        return taste["acid"]
    return 0.0


def _options(game: _Game, dice: tuple[int, int] | None) -> list[tuple[MarketItem, float]]:
    """The Market items the dice buy (``None``: any, a Wild build) that the player can pay for and place."""
    spare = 2 if game.has("bargain") else 0
    found = []
    for item in game.maker.market:
        if item.id == "stairs" or not item.buy:
            continue
        if dice is not None and not set(item.buy) & {dice[0], dice[1], dice[0] + dice[1]}:
            continue
        if item.cost > game.coins + (spare if item.cost >= 2 else 0) or not _places(game, item):
            continue
        found.append((item, _appeal(game, item)))
    return [(item, weight) for item, weight in found if weight > 0]


def _pick(rng: np.random.Generator, weighted: list) -> object:
    weights = np.array([w for _, w in weighted], np.float64)
    return weighted[int(rng.choice(len(weighted), p=weights / weights.sum()))][0]


def _collectable(game: _Game) -> list[tuple[Room, str]]:
    """Loot the player may collect now: a Gem any time, a Potion once the tool is upgraded."""
    upgrade = game.maker.loot.get("upgrade_after_gems", 0)
    return [(room, kind) for room, kind in game.lying.items()
            if kind == "gem" or game.count("gem") >= upgrade]


def _collect(game: _Game, number: int) -> bool:
    """Collect one loot (the entrance tile's first, when it blocks the way in)."""
    options = _collectable(game)
    if not options:
        return False
    blocking = [(room, kind) for room, kind in options if room == game.entrance[0]]
    room, kind = blocking[0] if blocking else options[int(game.rng.integers(len(options)))]
    del game.lying[room]
    game.collected.append((room, kind))
    loot = game.maker.loot
    game.pay(loot.get(f"{kind}_coin", 0))
    entry = {"round": number, "collect": kind, "tile": room.name}
    if kind == "potion":
        new = [s["id"] for s in game.maker.spells if s["id"] not in game.got]
        for _ in range(loot.get("potion_spells", 0)):
            if new:
                game.got.append(new.pop(int(game.rng.integers(len(new)))))
        entry["spell"] = game.got[-1]
    game.log.append(entry)
    return True


def _wants_loot(game: _Game) -> bool:
    if not _collectable(game):
        return False
    if game.entrance[0] in game.lying and not game.links:
        return True
    return game.rng.random() < (0.85 if game.coins < 3 else game.taste["loot"] * (0.6 if game.coins > 8 else 1.0))


def _build(game: _Game, number: int) -> bool:
    """Roll the dice and buy what the player likes of what they allow (casting a spell when it helps)."""
    rng, cast = game.rng, []
    dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
    options = _options(game, dice)
    spare = len(game.got) - len(game.cast) > game.maker.loot.get("potions", 0)
    if not options and game.has("reroll") and (spare or rng.random() < 0.6):
        cast.append("reroll")
        game.cast.append("reroll")
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        options = _options(game, dice)
    if not options and game.has("wild") and (spare or rng.random() < 0.5):
        options = _options(game, None)
        if options:
            cast.append("wild")
            game.cast.append("wild")
    if not options:
        game.log.append({"round": number, "dice": list(dice), "idle": True, **({"cast": cast} if cast else {})})
        return False
    item = _pick(rng, options)
    room = _pick(rng, _places(game, item))
    price = item.cost
    if game.has("bargain") and price >= 2 and (price > game.coins or spare or rng.random() < 0.4):
        cast.append("bargain")
        game.cast.append("bargain")
        price -= int(next(s for s in game.maker.spells if s["id"] == "bargain").get("coin", 0))
    game.pay(-price)
    _put(game, item, room)
    game.log.append({"round": number, "dice": list(dice), "build": item.id, "tile": room.name,
                     **({"cast": cast} if cast else {})})
    return True


def _put(game: _Game, item: MarketItem, room: Room) -> None:
    """Build ``item`` on ``room``; a path or bridge links to one (sometimes two) neighbouring paths."""
    spec = game.tiles.setdefault(room, {})
    game.last.append(room)
    if item.id in ("path", "bridge"):
        sides = [s for s in SIDES if room.neighbour(s) in game.links]
        chosen = set(game.rng.permutation(sides)[:1 + (game.rng.random() < game.taste["loop"])])
        if room == game.entrance[0]:
            chosen.add(game.entrance[1])
        game.links[room] = set(chosen)
        for side in chosen:
            if room.neighbour(side) in game.links:
                game.links[room.neighbour(side)].add(OPPOSITE[side])
        spec["bridge" if item.id == "bridge" else "path"] = True
    elif item.id == "acid":
        spec["acid"] = True
    elif item.on == "beside-path":
        spec["room"] = item.id
    else:
        spec["on"] = item.id


def _place_stairs(game: _Game, number: int) -> bool:
    """The exit stairs on a path tile next to (or on) one of the last tiles built: of those, the one the
    hero walks furthest to reach."""
    depth = _depths(game)
    for back in range(len(game.last)):
        recent = game.last[max(0, len(game.last) - 3 - back):]
        spots = [room for room in game.links if any(_away(room, built) <= 1 for built in recent)]
        if spots:
            far = max(depth.get(room, 0) for room in spots)
            best = [room for room in spots if depth.get(room, 0) >= far - 1]
            game.stairs = best[int(game.rng.integers(len(best)))]
            break
    else:
        return False
    entry = {"round": number, "build": "stairs", "tile": game.stairs.name}
    most = game.maker.loot.get("potions", 0) * game.maker.loot.get("potion_spells", 0)
    if len(game.got) - len(game.cast) > most:        # a dungeon document holds at most this many unused spells
        spell = next(s for s in ("wild", "reroll") if game.has(s))
        game.cast.append(spell)
        entry["cast"] = [spell]
    game.log.append(entry)
    game.last.append(game.stairs)
    return True


def _play_round(game: _Game, number: int) -> None:
    rng, rounds = game.rng, game.maker.rounds
    if game.stairs is not None:
        game.log.append({"round": number, "idle": True})
        return
    finishing = number == rounds or (number >= rounds - 3 and len(game.links) >= game.taste["route"]
                                     and rng.random() < 0.2)
    if finishing and game.links and _place_stairs(game, number):
        return
    if rng.random() < game.taste["idle"] and game.links:
        game.log.append({"round": number, "idle": True})
        return
    if _wants_loot(game) and _collect(game, number):
        return
    if not _build(game, number) and "cast" not in game.log[-1] and rng.random() < 0.5:
        game.log.pop()
        if not _collect(game, number):
            game.log.append({"round": number, "idle": True})


def build_dungeon(loot: LootLayout, rng: np.random.Generator, maker: Maker | None = None) -> _Game:
    """The building phase of one sheet, played until it ends legal (an entrance path and the stairs)."""
    maker = maker or load_maker()
    while True:
        game = _Game(loot, maker, rng)
        for number in range(1, maker.rounds + 1):
            _play_round(game, number)
        if game.stairs is not None:
            return game


def dungeon_document(game: _Game) -> dict:
    """The ``scrawl.dungeon/1`` document of a building phase (loot still lying included)."""
    tiles = {}
    for room, spec in game.tiles.items():
        out = {}
        if room in game.links:
            out["bridge" if spec.get("bridge") else "path"] = "".join(s for s in SIDES if s in game.links[room])
        out.update({key: spec[key] for key in ("acid", "room", "on") if key in spec})
        tiles[room.name] = out
    for room, kind in game.lying.items():
        tiles[room.name] = {"loot": kind}
    room, side = game.entrance
    return {"format": FORMAT, "entrance": f"{room.name}:{side}", "stairs": game.stairs.name,
            "tiles": dict(sorted(tiles.items(), key=lambda kv: (kv[0][1:], kv[0][0]))), "coins": game.coins,
            "spells": len(game.got) - len(game.cast)}


def play_maker(loot: LootLayout, rng: np.random.Generator, *, maker: Maker | None = None,
               hero_seed: int | None = None) -> dict:
    """One sheet's game: the building phase (``build_dungeon``), the hero phase from ``hero_seed`` (drawn
    from ``rng`` when not given), Mend cast on a crossed heart, and the score the sheet should give."""
    maker = maker or load_maker()
    game = build_dungeon(loot, rng, maker)
    document = dungeon_document(game)
    hero_seed = int(rng.integers(1 << 31)) if hero_seed is None else hero_seed
    phase = run_heroes(read_dungeon(document, maker), maker, seeded_dice(hero_seed))
    if phase.hp_lost and game.has("mend") and rng.random() < 0.85:
        game.cast.append("mend")
        document["spells"] = len(game.got) - len(game.cast)
    record = SheetRecord(gems=game.count("gem"), potions=game.count("potion"), spells_got=tuple(game.got),
                         spells_cast=tuple(game.cast), rounds=maker.rounds, souls=phase.souls,
                         hearts=phase.hp_lost)
    score = sheet_score(read_dungeon(document, maker), record, maker)
    heroes = [{"type": run.kind, "hp": run.hp, "left": run.left, "stats": dict(run.stats), "fate": run.fate}
              for run in phase.heroes]
    return {"dungeon": document, **record.to_json(), "score": score["total"],
            "collected": [room.name for room, _ in game.collected], "heroes": heroes, "hero_seed": hero_seed,
            "coin_trail": list(game.trail), "log": game.log}


# -- the hand ----------------------------------------------------------------------------------------------

def blank_maker_sheet(layout: MakerLayout, px_per_mm: float, code: str | None = None) -> np.ndarray:
    """The printed page as an RGB image (H x W x 3 uint8), rasterised from the project's own PDF (with the
    game code ``code`` when given)."""
    from generator.maker_sheet import render_maker_sheets
    from photographer.paper import rasterised

    buffer = io.BytesIO()
    render_maker_sheets([layout], buffer, code)
    return rasterised(buffer.getvalue(), px_per_mm)


def fill_maker_sheet(layout: MakerLayout, truth: dict, rng: np.random.Generator, *, style: HandStyle | None = None,
                     px_per_mm: float = 10.0, page: np.ndarray | None = None, sloppy: float = 0.3,
                     noise: bool = True, drawn: dict | None = None) -> np.ndarray:
    """The page with ``truth`` (``play_maker``) marked on it by hand: a new RGB array.

    ``page`` is the blank page at ``px_per_mm`` (drawn when not given); ``style`` the hand (a medium one
    from ``rng`` when not given); ``sloppy`` the share of boxes ticked in a hurry (bigger, further off
    centre, never far outside); ``noise`` adds what the scanner must ignore (the Coin track, the stat
    pips, the Hero Stats, the keeper's name). ``drawn`` (a dict) gets how each box was marked.
    """
    style = style or hand_for("medium", rng)
    page = blank_maker_sheet(layout, px_per_mm) if page is None else page
    pen = Pen(InkMask(page.shape[:2], px_per_mm), style, rng)
    how: dict = {}
    maker = layout.maker
    dungeon = read_dungeon(truth["dungeon"], maker)
    for room, item in built_items(dungeon):
        how[f"{room.name}|{item}"] = tick_box(pen, layout.tile(room.name).mark(item), sloppy)
    draw_paths(pen, layout, truth["dungeon"])
    for room, tile in sorted(dungeon.tiles.items()):
        if (tile.room or tile.on in BOSSES or tile.acid) and rng.random() < 0.5:
            doodle(pen, layout.tile(room.name).rect)
    for name in truth.get("collected", []):
        cross_icon(pen, layout.tile(name).icon)
    draw_record(pen, layout, truth, sloppy, how)
    if noise:
        draw_noise(pen, layout, truth)
    if drawn is not None:
        drawn.update(how)
    grain = grain_tile(rng, px_per_mm) if style.tool == "pencil" else None
    return apply_ink(page, pen.ink, style.colour, style.opacity, grain)


def draw_record(pen: Pen, layout: MakerLayout, truth: dict, sloppy: float, how: dict) -> None:
    """The Loot panel, the spells got (ring) and cast (box), the rounds, Souls and crossed hearts."""
    boxes = layout.boxes
    for kind, count in (("gem", truth["gems"]), ("potion", truth["potions"]), ("soul", truth["souls"])):
        for n in range(1, count + 1):
            how[f"{kind}_{n}"] = tick_box(pen, boxes[f"{kind}_{n}"], sloppy)
    for spell in truth["spells_got"]:
        how[f"spell_{spell}"] = tick_box(pen, boxes[f"spell_{spell}"], sloppy)
    for spell in truth["spells_cast"]:
        how[f"spell_{spell}_cast"] = tick_box(pen, boxes[f"spell_{spell}_cast"], sloppy)
    for n in range(1, truth["rounds"] + 1):
        how[f"round_{n}"] = tick_box(pen, boxes[f"round_{n}"], sloppy * 0.5, kinds=("cross",))
    for n in range(1, truth["hearts"] + 1):
        how[f"dungeon_hp_{n}"] = tick_box(pen, boxes[f"dungeon_hp_{n}"], sloppy, kinds=("cross",))
    if truth["gems"] >= layout.maker.loot.get("upgrade_after_gems", 0) and pen.rng.random() < 0.6:
        tick_box(pen, boxes["tool_upgraded"], sloppy)


def tick_box(pen: Pen, box: Rect, sloppy: float = 0.3, kinds: tuple[str, ...] = TICKS) -> str:
    """Tick, cross or scribble in a box, a little off its centre; in a hurry (``sloppy`` of the time) bigger
    and further off, the ink never more than half a millimetre past the box (so never into the middle third
    of a tile's side, where path lines are read). Says what was drawn (``tick``, ``cross:hurried``, ...)."""
    rng = pen.rng
    weights = np.array([{"tick": 0.5, "cross": 0.35, "scribble": 0.15}[k] for k in kinds])
    kind = str(rng.choice(kinds, p=weights / weights.sum()))
    hurried = bool(rng.random() < sloppy)
    side = min(box.w, box.h)
    size = side * (rng.uniform(0.8, 1.0) if hurried else rng.uniform(0.55, 0.8))
    reach = 0.16 if hurried else 0.1
    offset = np.clip(rng.normal(0, reach / 2, 2), -reach, reach) * side
    strokes = [size * shape for shape in _tick_shapes(kind, size, pen.style.width_mm, rng)]
    # Shrink the mark, then its offset, until the ink (half a pen's width past the strokes) fits.
    room = side / 2 + (0.5 if hurried else 0.0) - pen.style.width_mm / 2 - 0.1
    extent = max(float(np.abs(points).max()) for points in strokes)
    if extent > 0.75 * room:
        strokes = [points * (0.75 * room / extent) for points in strokes]
        extent = 0.75 * room
    offset = np.clip(offset, -(room - extent), room - extent)
    centre = np.array(box.centre) + offset
    for points in strokes:
        pen.stroke(centre + points, wobble=0.03)
    return kind + (":hurried" if hurried else "")


def _tick_shapes(kind: str, size: float, width: float, rng: np.random.Generator) -> list[np.ndarray]:
    """The strokes of a tick, a cross or a scribble, in units of the mark's size round its centre."""
    if kind == "tick":
        return [np.array([[-0.45, 0.0], [-0.12, 0.38], [0.5, -0.5]]) + rng.normal(0, 0.04, (3, 2))]
    if kind == "cross":
        shapes = []
        for sign in (1, -1):
            ends = np.array([[-0.42, -0.42 * sign], [0.42, 0.42 * sign]]) + rng.normal(0, 0.04, (2, 2))
            shapes.append(ends[::int(rng.choice([-1, 1]))])
        return shapes
    spacing = float(np.clip(width * 0.8 / size, 1 / 8, 1 / 3.5))
    offsets = np.arange(-0.45, 0.45 + 1e-9, spacing)
    points = np.array([[(-0.5 if i % 2 == 0 else 0.5), offset] for i, offset in enumerate(offsets)])
    turn = rng.normal(0.3, 0.2)
    rotate = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return [points @ rotate.T]


def cross_icon(pen: Pen, icon: Rect | None) -> None:
    """A loot collected: a cross over its printed Gem or Potion."""
    if icon is None:
        return
    size = icon.w * pen.rng.uniform(0.75, 1.0) / 2
    centre = np.array(icon.centre) + pen.rng.normal(0, 0.3, 2)
    for sign in (1, -1):
        pen.stroke(centre + size * np.array([[-1.0, -sign], [1.0, sign]]) + pen.rng.normal(0, 0.2, (2, 2)),
                   wobble=0.1)


def doodle(pen: Pen, tile: Rect) -> None:
    """A small drawing in the middle of a tile (a monster, a boss, a pond), inside its central 40%."""
    rng = pen.rng
    centre = np.array(tile.centre) + rng.normal(0, 0.01, 2) * tile.w
    radius = tile.w * rng.uniform(0.09, 0.15)
    t = np.linspace(0, 2 * np.pi, 60)
    kind = rng.choice(["blob", "face", "waves"])
    if kind == "waves":
        for row in (-0.5, 0.0, 0.5):
            x = np.linspace(-radius, radius, 30)
            pen.stroke(np.column_stack([centre[0] + x, centre[1] + row * radius + 0.25 * radius * np.sin(x * 4 / radius)]),
                       wobble=0.05)
        return
    lumps = 1 + 0.12 * np.sin(t * int(rng.integers(3, 7)) + rng.uniform(0, 6))
    pen.stroke(centre + radius * lumps[:, None] * np.column_stack([np.cos(t), np.sin(t)]), wobble=0.05)
    if kind == "face":
        for side in (-1, 1):
            pen.blob(centre + radius * np.array([0.35 * side, -0.25]), min(0.5, radius * 0.15))
        pen.stroke(centre + radius * np.array([[-0.35, 0.3], [0.0, 0.45], [0.35, 0.3]]), wobble=0.03)


def draw_paths(pen: Pen, layout: MakerLayout, document: dict) -> None:
    """Every link between two path tiles as a line from centre to centre (through the middle third of the
    side between them), and the entrance as a line from its tile's centre out past the grid's edge; a
    hand draws a few links in one stroke, and lifts the pen now and then."""
    rng = pen.rng
    links: dict = {}
    for name, spec in document["tiles"].items():
        room = Room.parse(name)
        for side in spec.get("path") or spec.get("bridge") or "":
            other = room.neighbour(side)
            far = other.name if _inside(other) else "out"
            links.setdefault(name, set()).add(far)
            links.setdefault(far, set()).add(name)
    start, side = document["entrance"].split(":")
    points = {name: np.array(layout.tile(name).rect.centre) + np.clip(rng.normal(0, 0.4, 2), -0.8, 0.8)
              for name in links if name != "out"}
    if "out" in links:
        rect = layout.tile(start).rect
        step = {"N": (0, -1), "S": (0, 1), "W": (-1, 0), "E": (1, 0)}[side]
        edge = np.array(rect.centre) + np.array(step) * rect.w / 2
        points["out"] = edge + np.array(step) * rng.uniform(2.0, 4.0) + np.clip(rng.normal(0, 0.4, 2), -0.8, 0.8) \
            * np.abs(step[::-1])
    wobble = min(pen.style.wobble_mm, 0.9)
    for chain in _chains(links, rng):
        pen.stroke(np.array([points[name] for name in chain]), wobble=wobble)


def _chains(links: dict, rng: np.random.Generator) -> list[list[str]]:
    """The links cut into walks (each a stroke): from the entrance, then from dead ends, 1-4 links each."""
    unused = {name: set(others) for name, others in links.items()}
    chains = []
    while any(unused.values()):
        ends = [n for n in sorted(unused) if len(unused[n]) == 1]
        here = "out" if unused.get("out") else (ends[0] if ends else next(n for n in sorted(unused) if unused[n]))
        chain, longest = [here], int(rng.integers(1, 5))
        while unused[here] and len(chain) <= longest:
            there = sorted(unused[here])[int(rng.integers(len(unused[here])))]
            unused[here].discard(there)
            unused[there].discard(here)
            chain.append(there)
            here = there
        chains.append(chain)
    return chains


def draw_noise(pen: Pen, layout: MakerLayout, truth: dict) -> None:
    """What the scanner must ignore: the Coin track crossed along, the dungeon's stat pips crossed, the
    heroes' numbers in Hero Stats, the keeper's name."""
    rng, boxes, maker = pen.rng, layout.boxes, layout.maker
    if rng.random() < 0.8:
        trail = [value for value in truth.get("coin_trail", []) if f"coin_{value}" in boxes]
        for value in dict.fromkeys(trail[:-1]):
            if rng.random() < 0.7:
                tick_box(pen, boxes[f"coin_{value}"], 0.0, kinds=("cross",))
        if trail:
            _ring(pen, boxes[f"coin_{trail[-1]}"])
    bonus = dungeon_modifiers(read_dungeon(truth["dungeon"], maker), maker)
    for stat, count in bonus.items():
        for n in range(1, count + 1):
            tick_box(pen, boxes[f"modifier_{stat}_{n}"], 0.0, kinds=("cross",))
    habits = {"1": int(rng.integers(3)), "4": int(rng.integers(2)), "7": int(rng.integers(2))}
    if rng.random() < 0.85:
        for n, hero in enumerate(truth.get("heroes", []), start=1):
            write_in_box(pen, boxes[f"hero_{n}_hp"], str(hero["hp"]), habits)
            for stat in (s.id for s in maker.stats):
                write_in_box(pen, boxes[f"hero_{n}_{stat}"], str(hero["stats"][stat]), habits)
            fate = boxes[f"hero_{n}_fate"]
            word = Rect(fate.x, fate.y, fate.w * 0.4, fate.h) if hero["fate"] == "died" else \
                Rect(fate.x + fate.w * 0.42, fate.y, fate.w * 0.58, fate.h)
            _ring(pen, word)
    if rng.random() < 0.8:
        scribble_name(pen, boxes["name"])


def _ring(pen: Pen, box: Rect) -> None:
    """A loop drawn round a box or a word, a little past it."""
    rng = pen.rng
    t = np.linspace(0, 2 * np.pi * rng.uniform(1.0, 1.15), 50) + rng.uniform(0, 2 * np.pi)
    radii = np.array([box.w, box.h]) / 2 * rng.uniform(0.95, 1.15)
    pen.stroke(np.array(box.centre) + radii * np.column_stack([np.cos(t), np.sin(t)]), wobble=0.05)
