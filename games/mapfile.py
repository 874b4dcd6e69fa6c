"""Maps as TOML data: ``templates/maps/NAME.toml``, validated on load.

A map file looks like::

    id = "classic"
    name = "The Sunken Keep"
    rows = 8
    cols = 8
    entries = ["B1:N", "H3:E", ...]      # room and the outer side its arrow points through
    walls = ["A2-B2", "C3-C4", ...]      # interior sides that are walls
    # expansion maps only:
    caves = ["D4:W", ...]                # cave entrances: a room and the wall its arrow points through
    doors = ["C4-D4:moon", ...]          # Magic Doors: a passage and the die icon that opens it
    gates = ["B2-B3:fork", ...]          # Rune Gates: a passage and its glyph (each glyph on two gates)
    curse_spaces = 4                     # Curse Track spaces; Emeralds 1..4 are linked to them
    [rooms]
    B2.items = ["loot"]

Loading reports every problem at once, each with the file and field it is in:
``maps/classic.toml: rooms.C4.items[0]: unknown item 'lute'``.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import templates
from games.datafile import parse_toml, take
from games.errors import MapError, ScrawlError
from games.maps import FEATURES, GLYPHS, ICONS, OLD_ICONS, SIDES, DungeonMap, Item, Room, interior_side
from games.mapcode import decode_map, encode_map
from games.randommap import LATEST_VERSION, parse_features, random_map

DESIGNED_MAPS = ("classic", "map1", "map2", "map3", "map4", "map5", "map6")
EXPANSION_NUMBERS = {str(n): f"map{n}" for n in range(1, 7)}   # --map 3 is the designed map "map3"


def load_map(name_or_path: str | Path) -> DungeonMap:
    """A designed map by name (``classic``) or a map file by path. Raises ``MapError``."""
    text_name = str(name_or_path)
    if text_name in DESIGNED_MAPS:
        return _designed_map(text_name)
    path = Path(name_or_path)
    source = str(path)
    try:
        raw = templates.user_file(path)
    except FileNotFoundError:
        raise MapError(source, [("", f"no such map file (designed maps: {', '.join(DESIGNED_MAPS)})")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MapError(source, [("", f"cannot read the map file: {exc}")]) from None
    return parse_map(parse_toml(raw, source, MapError), source)


@lru_cache(maxsize=None)
def _designed_map(name: str) -> DungeonMap:
    """A designed map, read and checked once a process (every scanned sheet names its map: a tournament's
    thousand sheets would parse the same file a thousand times). Maps are frozen, so one is shared."""
    source = f"maps/{name}.toml"
    return parse_map(parse_toml(templates.text(source), source, MapError), source)


def parse_map(data: dict, source: str) -> DungeonMap:
    """Build a map from parsed TOML, checking every field. Raises ``MapError`` listing all problems."""
    reader = _MapReader(data)
    map_id, name, rows, cols = reader.header()
    entries = reader.entries()
    walls = reader.walls()
    doors = reader.marked_sides("doors", ICONS)
    gates = reader.marked_sides("gates", GLYPHS)
    curse_spaces = reader.field("curse_spaces", int, 0)
    items = reader.items()
    if reader.problems:
        raise MapError(source, reader.problems)
    dungeon = DungeonMap(id=map_id, name=name, rows=rows, cols=cols, walls=frozenset(walls),
                         entries=frozenset(entries), items=tuple(items), doors=frozenset(doors),
                         gates=frozenset(gates), curse_spaces=curse_spaces)
    rule_problems = dungeon.problems()
    if rule_problems:
        raise MapError(source, rule_problems)
    return dungeon


class _MapReader:
    """A map file's parsed TOML, read field by field, and every problem found in it so far, in order."""

    def __init__(self, data: dict):
        self.data = data
        self.problems: list[tuple[str, str]] = []
        self.rows = self.cols = None

    def field(self, key, kind, default=None):
        """``data[key]`` if it is a ``kind``, otherwise ``default`` with the problem noted."""
        return take(self.problems, self.data, key, kind, key, default)

    def header(self) -> tuple:
        """The map's id, name, rows and cols, with a problem for each field a map file does not have."""
        map_id = self.field("id", str)
        if isinstance(map_id, str) and not re.fullmatch(r"[a-z][a-z0-9-]{0,23}", map_id):
            self.problems.append(("id", f"{map_id!r} should be 1-24 lowercase letters, digits or '-', "
                                        "starting with a letter"))
        name = self.field("name", str)
        self.rows = self.field("rows", int)
        self.cols = self.field("cols", int)
        known = ("id", "name", "rows", "cols", "entries", "walls", "caves", "doors", "gates", "curse_spaces", "rooms")
        for key in sorted(set(self.data) - set(known)):
            self.problems.append((key, f"unknown field (fields: {', '.join(known)})"))
        return map_id, name, self.rows, self.cols

    def room_in_map(self, text, path):
        """The room named ``text``, or None with the problem noted (also when it lies outside the map)."""
        rows, cols = self.rows, self.cols
        try:
            room = Room.parse(text)
        except ValueError as exc:
            self.problems.append((path, str(exc)))
            return None
        if isinstance(rows, int) and isinstance(cols, int) and not (room.col <= cols and room.row <= rows):
            self.problems.append((path, f"room {room.name} is outside the {cols}x{rows} map"))
            return None
        return room

    def side_between(self, text: str, path: str, why_not: str = ""):
        """The side between the two rooms of ``ROOM-ROOM``, or None with the problem noted."""
        a, b = (self.room_in_map(part, path) for part in text.split("-"))
        if a is None or b is None:
            return None
        if a.steps_to(b) != 1:
            self.problems.append((path, f"{a.name} and {b.name} are not neighbours{why_not}"))
            return None
        return interior_side(a, b)

    def entries(self) -> set:
        """The entryways, outer ones (``entries``) and cave entrances (``caves``): (room, side) pairs."""
        entries = set()
        listed_entries = [(f"entries[{i}]", text) for i, text in enumerate(self.field("entries", list, []))]
        listed_entries += [(f"caves[{i}]", text) for i, text in enumerate(self.field("caves", list, []))]
        for path, text in listed_entries:
            if not isinstance(text, str) or text.count(":") != 1:
                self.problems.append((path, f"write an entryway as ROOM:SIDE, like 'B1:N', not {text!r}"))
                continue
            room_text, side = (part.strip().upper() for part in text.split(":"))
            room = self.room_in_map(room_text, path)
            if side not in SIDES or len(side) != 1:
                self.problems.append((path, f"side {side!r} is not one of N, E, S, W"))
            elif room is not None:
                if (room, side) in entries:
                    self.problems.append((path, f"entryway {text!r} is listed twice"))
                entries.add((room, side))
        return entries

    def walls(self) -> set:
        """The interior sides that are walls."""
        walls = set()
        for i, text in enumerate(self.field("walls", list, [])):
            path = f"walls[{i}]"
            if not isinstance(text, str) or text.count("-") != 1:
                self.problems.append((path, f"write a wall as ROOM-ROOM, like 'A2-B2', not {text!r}"))
                continue
            side = self.side_between(text, path, ", so no wall stands between them")
            if side in walls:
                self.problems.append((path, f"wall {text!r} is listed twice"))
            elif side is not None:
                walls.add(side)
        return walls

    def marked_sides(self, key: str, names: tuple[str, ...]) -> set:
        """The passages listed under ``key`` with their mark, one of ``names``: (side, mark) pairs."""
        found = set()
        for i, text in enumerate(self.field(key, list, [])):
            path = f"{key}[{i}]"
            side_text, _, mark = str(text).partition(":")
            if key == "doors":              # a map file written before the die's skull became the sun
                mark = OLD_ICONS.get(mark.strip(), mark)
            if not isinstance(text, str) or side_text.count("-") != 1 or not mark:
                self.problems.append((path, f"write it as ROOM-ROOM:{names[0].upper()}, like 'C4-D4:{names[0]}', "
                                            f"not {text!r}"))
                continue
            if mark.strip() not in names:
                self.problems.append((path, f"unknown {mark.strip()!r} (one of: {', '.join(names)})"))
                continue
            side = self.side_between(side_text, path)
            if side is not None:
                found.add((side, mark.strip()))
        return found

    def items(self) -> list:
        """The items in the rooms (the ``rooms`` table): (room, item) pairs."""
        items = []
        for room_text, spec in self.field("rooms", dict, {}).items():
            base = f"rooms.{room_text}"
            room = self.room_in_map(room_text, base)
            if not isinstance(spec, dict):
                self.problems.append((base, f"should be a table like {{items = [\"loot\"]}}, not {spec!r}"))
                continue
            for key in sorted(set(spec) - {"items"}):
                self.problems.append((f"{base}.{key}", "unknown field (a room has: items)"))
            listed = spec.get("items", [])
            if not isinstance(listed, list):
                self.problems.append((f"{base}.items", f"should be a list like [\"loot\"], not {listed!r}"))
                continue
            for j, text in enumerate(listed):
                try:
                    item = Item.parse(text)
                except ValueError as exc:
                    self.problems.append((f"{base}.items[{j}]", str(exc)))
                    continue
                if room is not None:
                    items.append((room, item))
        return items


def choose_map(name: str, seed: int | None = None, features: str | None = None) -> DungeonMap:
    """The map a player asked for: ``classic``, an expansion map ``1``..``6``, ``random`` (with a seed, and
    ``features`` like ``"diamonds,caves"`` for an expansion map) or a map file's path.

    Raises ``ScrawlError`` (``MapError`` for a broken file) with a message that says what to ask for instead.
    """
    if name == "random":
        if seed is None:
            raise ScrawlError("a random map needs a seed")
        try:
            return random_map(seed, LATEST_VERSION, parse_features(features or ""))
        except ValueError as exc:
            raise ScrawlError(str(exc)) from None
    if features:
        raise ScrawlError(f"--features only applies to --map random (map {name} has its own elements)")
    if seed is not None:
        raise ScrawlError(f"--seed only applies to --map random (the {name} map is always the same)")
    name = EXPANSION_NUMBERS.get(name, name)
    if name in DESIGNED_MAPS:
        return load_map(name)
    if name.endswith(".toml") or templates.is_user_file(name):
        return load_map(Path(name))
    raise ScrawlError(f"unknown map {name!r}: use --map classic, --map 1 to 6, --map random or --map FILE.toml")


def map_reference(dungeon: DungeonMap) -> dict:
    """How a scan result names its map: ``{"id": "classic", "seed": null}``, plus what rebuilds any other map."""
    ref = {"id": dungeon.id, "seed": dungeon.seed}
    if dungeon.seed is not None:
        ref["version"] = dungeon.version
        if dungeon.features:
            ref["features"] = [name for name in FEATURES if name in dungeon.features]
    elif dungeon.id not in DESIGNED_MAPS:
        ref["name"] = dungeon.name
        ref["code"] = encode_map(dungeon)
    return ref


def map_from_reference(ref) -> DungeonMap:
    """The map a scan result names (the inverse of ``map_reference``); ``"classic"`` alone also works.

    Raises ``ScrawlError`` saying what to write instead.
    """
    if isinstance(ref, str):
        ref = {"id": ref}
    if not isinstance(ref, dict) or not isinstance(ref.get("id"), str):
        raise ScrawlError(f"map should be like {{\"id\": \"classic\"}} or {{\"id\": \"random\", \"seed\": 42}}, not {ref!r}")
    map_id, seed, code = ref["id"], ref.get("seed"), ref.get("code")
    if code is not None:
        if not isinstance(code, str):
            raise ScrawlError(f"map.code should be the map's code as text, not {code!r}")
        return _decoded_map(code, map_id, str(ref.get("name") or map_id))
    if map_id == "random":
        version = ref.get("version", LATEST_VERSION)
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ScrawlError(f"a random map needs its seed, a whole number like {{\"id\": \"random\", \"seed\": 42}}, not {seed!r}")
        features = ref.get("features") or []
        if not isinstance(features, list) or not all(isinstance(name, str) for name in features):
            raise ScrawlError(f"map.features should be a list like [\"diamonds\", \"caves\"], not {features!r}")
        try:
            return _random_map(seed, version, frozenset(features))
        except ValueError as exc:
            raise ScrawlError(str(exc)) from None
    map_id = EXPANSION_NUMBERS.get(map_id, map_id)
    if map_id in DESIGNED_MAPS:
        return load_map(map_id)
    raise ScrawlError(f"unknown map {map_id!r}: use \"classic\", \"random\" with a seed, or give the map's \"code\"")


@lru_cache(maxsize=64)
def _random_map(seed: int, version: int, features: frozenset[str]) -> DungeonMap:
    """``random_map``, made once for the sheets of a game (each names the same seed)."""
    return random_map(seed, version, features)


@lru_cache(maxsize=64)
def _decoded_map(code: str, map_id: str, name: str) -> DungeonMap:
    """``decode_map``, decoded and checked once for the sheets of a game (each carries the same code)."""
    return decode_map(code, map_id=map_id, name=name)
