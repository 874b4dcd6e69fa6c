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
"""
from __future__ import annotations

import hashlib

from games.errors import MapError
from games.maps import DungeonMap, Item, Room, standard_items

CODE_VERSION = 1
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # RFC 4648 base32, unpadded


def _item_order(dungeon: DungeonMap) -> list[tuple[Room, Item]]:
    rank = {item: i for i, item in enumerate(sorted(standard_items(), key=_item_rank))}
    return sorted(dungeon.items, key=lambda pair: (rank[pair[1]], pair[0]))


def _item_rank(item: Item) -> tuple:
    return (("loot", "dragon", "weapon", "monster").index(item.kind), item.letter)


def _room_bits(dungeon: DungeonMap) -> int:
    return max(1, (dungeon.rows * dungeon.cols - 1).bit_length())


def encode_map(dungeon: DungeonMap) -> str:
    """The code of a valid map (see the module text)."""
    bits = [f"{CODE_VERSION:04b}", f"{dungeon.cols - 1:04b}", f"{dungeon.rows - 1:04b}"]
    bits += ["1" if side in dungeon.walls else "0" for side in dungeon.interior_sides()]
    bits += ["1" if side in dungeon.entries else "0" for side in dungeon.border_sides()]
    width = _room_bits(dungeon)
    bits += [f"{(room.row - 1) * dungeon.cols + room.col - 1:0{width}b}" for room, _ in _item_order(dungeon)]
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

    if take(4) != CODE_VERSION:
        raise MapError(source, [("", "map code from an unknown version: update dungeon-scrawl")])
    cols, rows = take(4) + 1, take(4) + 1
    blank = DungeonMap(id=map_id, name=name, rows=rows, cols=cols)
    walls = frozenset(side for side in blank.interior_sides() if take(1))
    entries = frozenset(side for side in blank.border_sides() if take(1))
    width = _room_bits(blank)
    items = []
    for item in sorted(standard_items().elements(), key=_item_rank):
        index = take(width)
        items.append((Room(index % cols + 1, index // cols + 1), item))
    dungeon = DungeonMap(id=map_id, name=name, rows=rows, cols=cols, walls=walls, entries=entries,
                         items=tuple(items), seed=seed, version=version)
    problems = dungeon.problems()
    if problems:
        raise MapError(source, problems)
    return dungeon


def map_check(dungeon: DungeonMap) -> str:
    """Four characters that change whenever the map does: a sheet's check that its map is the one in hand."""
    digest = hashlib.sha256(encode_map(dungeon).encode("ascii")).digest()
    bits = int.from_bytes(digest[:3], "big") >> 4   # 20 bits
    return "".join(ALPHABET[(bits >> shift) & 31] for shift in (15, 10, 5, 0))
