"""Expansion maps 1-6 and random expansion maps: they load, validate, keep their promises, and travel whole
in map codes and sheet codes."""
from collections import Counter
from dataclasses import replace

import pytest

from games.board import side_name
from games.die import curse_track, load_die, parse_rolls, roll_rounds
from games.errors import MapError, ScrawlError
from games.mapcode import decode_map, encode_map, map_check
from games.mapfile import choose_map, load_map, map_from_reference, map_reference
from games.maps import FEATURES, GLYPHS, ICONS, Room, standard_items
from games.randommap import random_map
from sheets.page import SheetId
from tests_support import reachable

EXPECTED_FEATURES = {
    "map1": set(),
    "map2": {"caves", "diamonds"},
    "map3": {"caves", "diamonds", "doors", "skull"},
    "map4": {"caves", "diamonds", "doors", "skull"},
    "map5": {"caves", "diamonds", "doors", "skull", "emeralds"},
    "map6": set(FEATURES),
}


@pytest.mark.parametrize("map_id", sorted(EXPECTED_FEATURES))
def test_each_expansion_map_loads_validates_and_has_its_elements(map_id):
    dungeon = load_map(map_id)
    assert dungeon.problems() == []
    assert dungeon.expansion_features() == EXPECTED_FEATURES[map_id]
    assert dungeon.needs_die == (map_id != "map1")
    # Every room is reachable from the six outer entryways alone.
    assert len(reachable(dungeon, [room for room, _ in dungeon.outer_entries()])) == 64
    assert len(dungeon.outer_entries()) == 6
    kinds = Counter(item.kind for _, item in dungeon.items)
    assert Counter({item: n for item, n in Counter(i for _, i in dungeon.items).items()
                    if item in standard_items()}) == standard_items()
    if "diamonds" in EXPECTED_FEATURES[map_id]:
        assert sorted(item.number for _, item in dungeon.rooms_with("diamond")) == [1, 2, 3, 4, 5, 6]
    if "skull" in EXPECTED_FEATURES[map_id]:
        assert kinds["skull"] == 1 and 2 <= kinds["skull_coin"] <= 6
    if "emeralds" in EXPECTED_FEATURES[map_id]:
        assert sorted(item.number for _, item in dungeon.rooms_with("emerald")) == list(
            range(1, dungeon.curse_spaces + 1))
    for room, side in dungeon.cave_entries():
        assert dungeon.side_kind(room, side) == "entry"
        assert dungeon.side_kind(room.neighbour(side), {"N": "S", "S": "N", "E": "W", "W": "E"}[side]) == "wall"


def test_the_maps_are_numbered_from_the_command_line_and_differ():
    maps = [choose_map(str(n)) for n in range(1, 7)]
    assert [m.id for m in maps] == [f"map{n}" for n in range(1, 7)]
    assert len({encode_map(m) for m in maps}) == 6
    assert load_map("map1") != load_map("classic")


def test_a_door_on_a_wall_and_a_glyph_on_one_gate_are_refused(tmp_path):
    from importlib import resources  # map 6 with two mistakes: a door on a wall, a glyph on one gate
    raw = resources.files("templates").joinpath("maps", "map6.toml").read_text(encoding="utf-8")
    wall = raw.split('walls = [\n    "')[1].split('"')[0]
    broken = raw.replace('doors = ["', f'doors = ["{wall}:moon", "').replace('"C3-D3:spiral", ', "")
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(MapError) as caught:
        load_map(path)
    messages = [f"{where}: {why}" for where, why in caught.value.problems]
    assert f"doors: {wall} is a wall; doors and gates stand on passages" in messages
    assert "gates: glyph 'spiral' is on 1 gates; every glyph is on exactly two" in messages


def test_a_map_file_names_an_unknown_icon_by_its_field(tmp_path):
    from importlib import resources
    raw = resources.files("templates").joinpath("maps", "map3.toml").read_text(encoding="utf-8")
    path = tmp_path / "odd.toml"
    path.write_text(raw.replace(":moon", ":star", 1), encoding="utf-8")
    with pytest.raises(MapError, match=r"doors\[\d\]: unknown 'star' \(one of: sun, dragon, moon\)"):
        load_map(path)


def test_a_map_file_of_an_earlier_release_with_skull_doors_still_loads_them_as_sun_doors(tmp_path):
    """The die's skull became the sun (one skull on our sheets: the Skull); a player's own map file written
    before keeps working, its doors the same doors."""
    from importlib import resources
    raw = resources.files("templates").joinpath("maps", "map3.toml").read_text(encoding="utf-8")
    assert ":sun" in raw
    path = tmp_path / "old.toml"
    path.write_text(raw.replace(":sun", ":skull"), encoding="utf-8")
    assert load_map(path).doors == load_map("map3").doors
    assert {icon for _, icon in load_map("map3").doors} >= {"sun"}


SEEDS = range(120)


@pytest.fixture(scope="module")
def expansion_maps():
    return [random_map(seed, 1, FEATURES) for seed in SEEDS]


def test_random_expansion_maps_keep_the_plain_promises_and_add_their_own(expansion_maps):
    for dungeon in expansion_maps:
        plain = random_map(dungeon.seed)
        where = f"seed {dungeon.seed}"
        assert dungeon.problems() == [], where
        # The plain map of the same seed, with elements added: same walls, same outer entryways.
        assert dungeon.walls == plain.walls and set(dungeon.outer_entries()) == set(plain.entries), where
        assert set(plain.items) <= set(dungeon.items), where
        assert len(reachable(dungeon, [room for room, _ in dungeon.outer_entries()])) == 64, where
        assert dungeon.expansion_features() == set(FEATURES), where
        # Caves: on interior walls, not in or next to a room with another entryway.
        caves = dungeon.cave_entries()
        assert len(caves) == 2, where
        for room, side in caves:
            others = [r for r, _ in dungeon.entries if r != room]
            assert all(room.steps_to(other) > 1 for other in others), where
        diamonds = [room for room, _ in dungeon.rooms_with("diamond")]
        assert all(abs(a.col - b.col) > 1 or abs(a.row - b.row) > 1
                   for i, a in enumerate(diamonds) for b in diamonds[i + 1:]), where
        skull = dungeon.rooms_with("skull")[0][0]
        for coin, _ in dungeon.rooms_with("skull_coin"):
            assert abs(coin.col - skull.col) > 1 or abs(coin.row - skull.row) > 1, where
        # Doors: every icon; gates: two pairs; never two on the sides of one room.
        assert set(icon for _, icon in dungeon.doors) == set(ICONS), where
        glyphs = Counter(glyph for _, glyph in dungeon.gates)
        assert len(glyphs) == 2 and set(glyphs.values()) == {2} and set(glyphs) <= set(GLYPHS), where
        rooms = [room for side, _ in dungeon.doors | dungeon.gates for room in side]
        assert len(rooms) == len(set(rooms)), where
        for side, _ in dungeon.doors | dungeon.gates:
            assert side not in dungeon.walls, where


def test_random_expansion_maps_vary_and_repeat(expansion_maps):
    assert len({encode_map(m) for m in expansion_maps}) == len(expansion_maps)
    assert random_map(17, 1, {"diamonds", "runes"}) == random_map(17, 1, frozenset({"runes", "diamonds"}))
    # Asking for fewer features gives only those.
    few = random_map(17, 1, {"diamonds"})
    assert few.expansion_features() == {"diamonds"}
    assert few.walls == random_map(17).walls


def test_unknown_features_and_features_on_a_designed_map_are_clear_errors():
    with pytest.raises(ScrawlError, match="unknown map feature 'lava': choose from diamonds,caves,doors"):
        choose_map("random", 3, "diamonds,lava")
    with pytest.raises(ScrawlError, match="--features only applies to --map random"):
        choose_map("3", None, "caves")
    with pytest.raises(ScrawlError, match="use --map classic, --map 1 to 6"):
        choose_map("7")


@pytest.mark.parametrize("dungeon", [load_map("map6"), load_map("map3"), random_map(5, 1, FEATURES),
                                     random_map(9, 1, {"caves"})], ids=["map6", "map3", "random-all", "random-caves"])
def test_map_codes_carry_every_expansion_element(dungeon):
    code = encode_map(dungeon)
    back = decode_map(code, map_id=dungeon.id, name=dungeon.name, seed=dungeon.seed, version=dungeon.version)
    assert back == replace(dungeon, features=frozenset())
    assert (back.doors, back.gates, back.curse_spaces, back.cave_entries()) == (
        dungeon.doors, dungeon.gates, dungeon.curse_spaces, dungeon.cave_entries())


def test_plain_map_codes_and_checks_are_unchanged():
    # Printed classic sheets carry this check: it must never change.
    classic = load_map("classic")
    assert encode_map(classic).startswith("C54BCC")
    assert map_check(classic) == SheetId.for_sheet(classic, "a4", 1).check
    assert encode_map(random_map(42)).startswith("C")


def test_sheet_codes_name_a_random_expansion_map_by_seed_and_feature_letters():
    dungeon = random_map(42, 1, {"diamonds", "runes", "caves"})
    text = SheetId.for_sheet(dungeon, "letter", 2).qr_text()
    assert text.startswith("DS/L2/DOODLES/LETTER/P2/RANDOM.1.42.DCR/")
    assert len(text.split("/")) == 7, "rebuilt from its seed, not carried whole"
    assert SheetId.parse(text).dungeon() == dungeon
    designed = SheetId.for_sheet(load_map("map5"), "a4", 1).qr_text()
    assert designed.startswith("DS/L2/DOODLES/A4/P1/MAP5/") and len(designed.split("/")) == 7
    assert SheetId.parse(designed).dungeon() == load_map("map5")


def test_scan_references_rebuild_expansion_maps():
    for dungeon in (load_map("map4"), random_map(8, 1, {"emeralds", "doors"})):
        ref = map_reference(dungeon)
        assert map_from_reference(ref) == dungeon
    assert map_reference(random_map(8, 1, {"emeralds", "doors"}))["features"] == ["doors", "emeralds"]
    assert map_from_reference({"id": "3"}) == load_map("map3")


def test_the_die_and_the_curse_track():
    die = load_die()
    assert [die.icon(n) for n in range(1, 7)] == ["sun", "dragon", "moon", "sun", "dragon", "moon"]
    assert roll_rounds(11, 7) == roll_rounds(11, 7) and len(roll_rounds(11, 7)) == 7
    assert parse_rolls("3,5, 1") == (3, 5, 1)
    with pytest.raises(ScrawlError, match="the die's numbers 1-6"):
        parse_rolls("3,7")
    # Two dragons fill the top halves of spaces 1 and 2 from the left; three suns the bottom halves of
    # spaces 4, 3, 2 from the right; moons fill nothing. Space 2 is full: its Emerald is cursed.
    track = curse_track([2, 1, 3, 5, 4, 6, 1], 4)
    assert track.top == (True, True, False, False)
    assert track.bottom == (False, True, True, True)
    assert track.cursed() == (2,)
    # A full half-row takes no more: five suns on a four-space track.
    assert curse_track([1, 4, 1, 4, 1], 4).bottom == (True, True, True, True)


def test_side_names_put_the_top_left_room_first():
    assert side_name(frozenset({Room.parse("D4"), Room.parse("C4")})) == "C4-D4"
    assert side_name(frozenset({Room.parse("B3"), Room.parse("B2")})) == "B2-B3"
