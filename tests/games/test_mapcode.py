import pytest

from games.errors import MapError
from games.mapcode import decode_map, encode_map
from games.randommap import random_map


def test_classic_and_random_maps_survive_the_code(classic):
    for dungeon in [classic] + [random_map(seed) for seed in range(40)]:
        code = encode_map(dungeon)
        assert len(code) == 52
        back = decode_map(code, map_id=dungeon.id, name=dungeon.name, seed=dungeon.seed, version=dungeon.version)
        assert back == dungeon


def test_damaged_codes_are_refused_with_a_reason(classic):
    code = encode_map(classic)
    with pytest.raises(MapError, match="cut short"):
        decode_map(code[:30])
    with pytest.raises(MapError, match="not a map code"):
        decode_map("hello world")
    with pytest.raises(MapError, match="unknown version"):
        decode_map("7" + code[1:])
