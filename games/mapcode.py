"""The whole map as a short code, so a printed sheet carries its own map.

The code is base32 (letters A-Z and digits 2-7, which a QR code stores in its
compact alphanumeric mode). Bits, most significant first:

    4  code version (1)
    4  columns - 1, then 4  rows - 1
    1  per interior side, in ``DungeonMap.interior_sides()`` order: 1 = wall
    1  per outer side, in ``DungeonMap.border_sides()`` order: 1 = entryway
    n  per item, in the order loot (by room), dragon, weapons A-F, monsters A-F:
       the room's index (row - 1) * columns + (column - 1), n = bits for rows*columns

An 8x8 map is 52 characters.

A map with expansion elements (RULES.md section 2) is written as version 2:
the same fields, then

    3  cave entrances, then per cave: room index, 2 bits side (NESW)
    1  Diamonds? then 6 room indexes, Diamond 1 first
    1  the Skull? then its room index, 3 bits coin count, a room index per coin
    3  Curse Track spaces, then a room index per Emerald, Emerald 1 first
    4  Magic Doors, then per door: the side's index in ``interior_sides()``, 2 bits icon
    4  Rune Gates, then per gate: the side's index, 2 bits glyph

A plain map keeps its version 1 code, so the sheets printed before keep their check.
"""
from __future__ import annotations

import hashlib

from games.errors import MapError
from games.maps import GLYPHS, ICONS, SIDES, DungeonMap, Item, Room, standard_items

CODE_VERSION = 1
EXPANSION_CODE_VERSION = 2
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # RFC 4648 base32, unpadded


def _item_order(dungeon: DungeonMap) -> list[tuple[Room, Item]]:
    """The standard items in code order (the expansion items are written by kind after them)."""
    rank = {item: i for i, item in enumerate(sorted(standard_items(), key=_item_rank))}
    standard = [pair for pair in dungeon.items if pair[1] in rank]
    return sorted(standard, key=lambda pair: (rank[pair[1]], pair[0]))


def _item_rank(item: Item) -> tuple:
    return (("loot", "dragon", "weapon", "monster").index(item.kind), item.letter)


def _room_bits(dungeon: DungeonMap) -> int:
    return max(1, (dungeon.rows * dungeon.cols - 1).bit_length())


def _side_bits(dungeon: DungeonMap) -> int:
    return max(1, (len(dungeon.interior_sides()) - 1).bit_length())


def encode_map(dungeon: DungeonMap) -> str:
    """The code of a valid map (see the module text)."""
    expansion = bool(dungeon.expansion_features())
    version = EXPANSION_CODE_VERSION if expansion else CODE_VERSION
    bits = [f"{version:04b}", f"{dungeon.cols - 1:04b}", f"{dungeon.rows - 1:04b}"]
    bits += ["1" if side in dungeon.walls else "0" for side in dungeon.interior_sides()]
    bits += ["1" if side in dungeon.entries else "0" for side in dungeon.border_sides()]
    width = _room_bits(dungeon)

    def index(room: Room) -> str:
        return f"{(room.row - 1) * dungeon.cols + room.col - 1:0{width}b}"

    standard = standard_items()
    bits += [index(room) for room, item in _item_order(dungeon) if item in standard]
    if expansion:
        caves = dungeon.cave_entries()
        bits += [f"{len(caves):03b}"] + [index(room) + f"{SIDES.index(side):02b}" for room, side in caves]
        diamonds = dungeon.rooms_with("diamond")
        bits += ["1" if diamonds else "0"] + [index(room) for room, _ in diamonds]
        skull, coins = dungeon.rooms_with("skull"), dungeon.rooms_with("skull_coin")
        bits += ["1" if skull else "0"]
        if skull:
            bits += [index(skull[0][0]), f"{len(coins):03b}"] + [index(room) for room, _ in coins]
        bits += [f"{dungeon.curse_spaces:03b}"] + [index(room) for room, _ in dungeon.rooms_with("emerald")]
        sides = {side: i for i, side in enumerate(dungeon.interior_sides())}
        side_width = _side_bits(dungeon)
        for marks, names in ((dungeon.doors, ICONS), (dungeon.gates, GLYPHS)):
            ordered = sorted(marks, key=lambda pair: sides[pair[0]])
            bits += [f"{len(ordered):04b}"]
            bits += [f"{sides[side]:0{side_width}b}{names.index(mark):02b}" for side, mark in ordered]
    text = "".join(bits)
    text += "0" * (-len(text) % 5)
    return "".join(ALPHABET[int(text[i:i + 5], 2)] for i in range(0, len(text), 5))


def decode_map(code: str, *, map_id: str = "coded", name: str = "", seed: int | None = None,
               version: int | None = None) -> DungeonMap:
    """The map a code describes. Raises ``MapError`` if the code is damaged or not a valid map."""
    source = "map code"
    text = code.strip().upper()
    if not text or any(char not in ALPHABET for char in text):
        raise MapError(source, [("", f"not a map code: {code[:24]!r}")])
    bits = "".join(f"{ALPHABET.index(char):05b}" for char in text)
    pos = 0

    def take(n: int) -> int:
        nonlocal pos
        if pos + n > len(bits):
            raise MapError(source, [("", "the map code is cut short")])
        value = int(bits[pos:pos + n], 2)
        pos += n
        return value

    code_version = take(4)
    if code_version not in (CODE_VERSION, EXPANSION_CODE_VERSION):
        raise MapError(source, [("", "map code from an unknown version: update dungeon-scrawl")])
    cols, rows = take(4) + 1, take(4) + 1
    blank = DungeonMap(id=map_id, name=name, rows=rows, cols=cols)
    walls = frozenset(side for side in blank.interior_sides() if take(1))
    entries = set(side for side in blank.border_sides() if take(1))
    width = _room_bits(blank)

    def room() -> Room:
        index = take(width)
        return Room(index % cols + 1, index // cols + 1)

    items = [(room(), item) for item in sorted(standard_items().elements(), key=_item_rank)]
    extra: dict = {}
    if code_version == EXPANSION_CODE_VERSION:
        for _ in range(take(3)):
            entries.add((room(), SIDES[take(2)]))
        if take(1):
            items += [(room(), Item("diamond", str(n))) for n in range(1, 7)]
        if take(1):
            items.append((room(), Item("skull")))
            items += [(room(), Item("skull_coin")) for _ in range(take(3))]
        extra["curse_spaces"] = take(3)
        items += [(room(), Item("emerald", str(n))) for n in range(1, extra["curse_spaces"] + 1)]
        sides = blank.interior_sides()
        side_width = _side_bits(blank)
        for key, names in (("doors", ICONS), ("gates", GLYPHS)):
            marks = set()
            for _ in range(take(4)):
                index, mark = take(side_width), take(2)
                if index >= len(sides) or mark >= len(names):
                    raise MapError(source, [("", "the map code is damaged")])
                marks.add((sides[index], names[mark]))
            extra[key] = frozenset(marks)
    dungeon = DungeonMap(id=map_id, name=name, rows=rows, cols=cols, walls=walls, entries=frozenset(entries),
                         items=tuple(items), seed=seed, version=version, **extra)
    problems = dungeon.problems()
    if problems:
        raise MapError(source, problems)
    return dungeon


def map_check(dungeon: DungeonMap) -> str:
    """Four characters that change whenever the map does: a sheet's check that its map is the one in hand."""
    digest = hashlib.sha256(encode_map(dungeon).encode("ascii")).digest()
    bits = int.from_bytes(digest[:3], "big") >> 4   # 20 bits
    return "".join(ALPHABET[(bits >> shift) & 31] for shift in (15, 10, 5, 0))
