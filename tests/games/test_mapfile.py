import pytest

from games.errors import MapError
from games.mapfile import load_map
from tests_support import TINY_MAP

GOOD = TINY_MAP


def write(tmp_path, text, name="my-map.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_valid_map_file_loads(tmp_path):
    dungeon = load_map(write(tmp_path, GOOD))
    assert (dungeon.id, dungeon.rows, dungeon.cols, len(dungeon.walls)) == ("tiny", 5, 5, 1)


def test_broken_map_reports_file_field_and_problem_for_every_problem(tmp_path):
    text = (GOOD.replace('C4.items = ["monster:D"]', 'C4.items = ["lute"]')
                .replace('walls = ["A1-B1"]', 'walls = ["A1-B1", "A1-C3", "B2-B2x"]')
                .replace('"E4:E"', '"E4:Q"')
                .replace("rows = 5", 'rows = "five"'))
    path = write(tmp_path, text)
    with pytest.raises(MapError) as caught:
        load_map(path)
    problems = dict(caught.value.problems)
    message = str(caught.value)
    assert message.startswith(str(path) + ": ")
    assert problems["rooms.C4.items[0]"].startswith("unknown item 'lute'")
    assert problems["rows"] == "should be a whole number, not 'five'"
    assert "A1 and C3 are not neighbours" in problems["walls[1]"]
    assert "not a room name: 'B2x'" in problems["walls[2]"]
    assert "side 'Q' is not one of N, E, S, W" in problems["entries[3]"]
    assert len(caught.value.problems) == 5
    assert f"{path}: rooms.C4.items[0]: unknown item 'lute'" in message


def test_rule_problems_are_all_reported_after_the_fields_parse(tmp_path):
    text = (GOOD.replace('"C5:S"]', '"C5:S", "C5:W"]')
                .replace('B2.items = ["monster:E"]', 'B2.items = ["monster:E", "loot"]')
                .replace('walls = ["A1-B1"]', 'walls = ["A1-B1", "A1-A2"]'))
    with pytest.raises(MapError) as caught:
        load_map(write(tmp_path, text))
    text_problems = [f"{path}: {why}" for path, why in caught.value.problems]
    assert "caves: C5:W is a passage; a cave entrance stands on a wall inside the map" in text_problems
    assert "entries: C5 has 2 entryways; a room has at most one" in text_problems
    assert "rooms.B2.items: 2 items; a room holds at most one" in text_problems
    assert "rooms: the map has 5 loot, it needs 4" in text_problems


def test_unreachable_rooms_are_named(tmp_path):
    text = GOOD.replace('walls = ["A1-B1"]', 'walls = ["C3-B3", "C3-D3", "C3-C2", "C3-C4"]')
    with pytest.raises(MapError, match="no passage leads from any entryway to C3"):
        load_map(write(tmp_path, text))


def test_missing_and_malformed_files_name_the_file(tmp_path):
    with pytest.raises(MapError, match=r"nowhere\.toml: no such map file"):
        load_map(tmp_path / "nowhere.toml")
    with pytest.raises(MapError, match=r"bad\.toml: not valid TOML"):
        load_map(write(tmp_path, "rows = = 3", "bad.toml"))


def test_unknown_fields_are_reported_not_ignored(tmp_path):
    with pytest.raises(MapError) as caught:
        load_map(write(tmp_path, GOOD + '\nC1.treasure = "yes"\n'))
    assert dict(caught.value.problems)["rooms.C1.treasure"].startswith("unknown field")
