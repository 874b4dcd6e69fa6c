"""`scrawl sight` as a user runs it: the answer line, the picture, --json, exit codes, one-line errors.

Answers worked by hand from templates/maps/classic.toml (and map3.toml, and a map file written here).
"""
import json

import pytest

from tests_support import TINY_MAP, run_cli as run


def test_two_rooms_seen_says_so_and_exits_0(capsys):
    code, out, err = run(capsys, "sight", "C4", "F7")
    assert code == 0 and err == ""
    assert out.splitlines()[0] == (
        "C4 sees F7: no wall or door blocks the line (it crosses the corner of C4, D4, C5, D5, "
        "then the corner of D5, E5, D6, E6, then the corner of E6, F6, E7, F7)")


def test_two_rooms_not_seen_names_the_wall_and_still_exits_0(capsys):
    code, out, err = run(capsys, "sight", "--map", "classic", "c4", "e4")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "C4 does not see E4: a wall between D4 and E4 blocks the line"
    # The picture: C4 looking, D4 on the line, E4 not seen, behind the wall D4-E4.
    assert " 4 > .   . | @   * | x   .   .   . |" in lines
    assert lines[-1].startswith("@ C4   x E4 (not seen)   * rooms on the line")


def test_one_room_lists_what_it_sees_and_marks_it_on_the_map(capsys):
    code, out, err = run(capsys, "sight", "C4")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("C4 sees 27 other rooms of The Sunken Keep: ")
    listed = lines[0].split(": ")[1].split(", ")
    assert {"D4", "C3", "C5", "F7", "H1"} <= set(listed)
    assert not {"C4", "B4", "E4", "C2", "A1", "H8"} & set(listed)
    # Row 4: B4-C4 and D4-E4 are walls, so only D4 is seen along it.
    assert " 4 > .   . | @   o | .   .   .   . |" in lines
    assert lines[2] == "     A   B   C   D   E   F   G   H"
    assert sum(line.count("o") for line in lines[2:-1]) == 27
    assert lines[-1] == "@ C4   o seen   . not seen   | --- wall"


def test_json_for_two_rooms(capsys):
    code, out, _ = run(capsys, "sight", "C4", "E4", "--json")
    assert code == 0
    document = json.loads(out)
    assert document == {"format": "scrawl.sight/1", "map": {"id": "classic", "seed": None},
                        "from": "C4", "to": "E4", "sees": False,
                        "blocked_by": {"where": "D4-E4", "what": "wall"},
                        "crossed": ["C4-D4", "D4-E4"], "rooms": ["C4", "D4", "E4"]}
    code, out, _ = run(capsys, "sight", "C5", "D6", "--json")
    document = json.loads(out)
    assert document["sees"] is True and document["blocked_by"] is None
    assert document["crossed"] == ["corner of C5, D5, C6, D6"]


def test_json_for_one_room(capsys):
    code, out, _ = run(capsys, "sight", "C4", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["format"] == "scrawl.sight/1" and document["from"] == "C4"
    assert document["map"] == {"id": "classic", "seed": None}
    assert len(document["visible"]) == 27
    assert [room for room in document["visible"] if room.endswith("4")] == ["D4"]


def test_a_random_map_by_its_seed(capsys):
    code, out, _ = run(capsys, "sight", "--map", "random", "--seed", "1234", "B2", "--json")
    assert code == 0
    assert json.loads(out)["map"] == {"id": "random", "seed": 1234, "version": 1}


def test_expansion_map_3_a_magic_door_blocks(capsys):
    # map3: C4-D4 and D4-E4 are passages, E4-F4 holds a Magic Door (dragon).
    code, out, _ = run(capsys, "sight", "--map", "3", "C4", "G4")
    assert code == 0
    assert out.splitlines()[0] == "C4 does not see G4: a magic door (dragon) between E4 and F4 blocks the line"
    assert "D Magic Door" in out.splitlines()[-1]


def test_a_map_file_with_a_door_and_rune_gates(tmp_path, capsys):
    source = tmp_path / "gated.toml"
    source.write_text(TINY_MAP.replace("[rooms]", 'doors = ["B3-C3:moon"]\n'
                                                  'gates = ["C4-D4:fork", "D1-D2:fork"]\n[rooms]'))
    code, out, err = run(capsys, "sight", "--map", source, "A3", "E3")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "A3 does not see E3: a magic door (moon) between B3 and C3 blocks the line"
    assert " 3 | @   * D *   *   x |" in out.splitlines()
    code, out, _ = run(capsys, "sight", "--map", source, "A4", "E4")
    assert out.splitlines()[0] == ("A4 sees E4: no wall or door blocks the line (it crosses A4-B4, then B4-C4, "
                                   "then C4-D4, then D4-E4); the Rune Gate on C4-D4 does not block it")


@pytest.mark.parametrize("args,message", [
    (["I9"], "room I9 is not on the 8x8 map (its rooms run from A1 to H8)"),
    (["C4", "A9"], "room A9 is not on the 8x8 map (its rooms run from A1 to H8)"),
    (["C0"], "not a room name: 'C0' (rows count from 1)"),
    (["4C", "C4"], "not a room name: '4C' (write column letter + row number, like 'C4')"),
    (["A1", "B2", "C3"], "give one room or two, not 3 (A1 B2 C3)"),
    (["--map", "dungeon9", "C4"], "unknown map 'dungeon9'"),
    (["--map", "random", "C4"], "--map random needs --seed N, the seed printed on the sheet"),
    ([], "Missing argument 'ROOM'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, "sight", *args)
    assert code == 2 and out == ""
    assert err.startswith("scrawl: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_help_explains_the_corner_rule_with_examples(capsys):
    code, out, _ = run(capsys, "sight", "--help")
    assert code == 0
    assert "scrawl sight C4 F7" in out and "--json" in out
    assert "Rune Gates" in out and "corner" in out
    code, out, _ = run(capsys, "--help")
    assert "scrawl sight --map 3 C4 F7" in out
