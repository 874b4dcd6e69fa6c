"""`scrawl battle` as a user runs it: the fight round by round, the odds, and refused rosters."""
import json
from pathlib import Path

import pytest

from tests_support import run_cli as run

SAMPLE = Path(__file__).parent.parent.parent / "samples" / "monster-roster.json"


def test_help_shows_the_roster_format_and_examples(capsys):
    code, out, _ = run(capsys, "battle", "--help")
    assert code == 0
    for text in ("ROSTER.json", "--seed", "--trials", "scrawl.roster/1", "scrawl battle samples/monster-roster.json"):
        assert text in out


def test_a_battle_is_told_round_by_round_and_replays_with_its_seed(capsys):
    code, out, err = run(capsys, "battle", SAMPLE, "--seed", "7")
    assert (code, err) == (0, "")
    assert out.startswith("Battle of Ann and Bob, seed 7 (replay it with --seed 7)")
    assert "Round 1" in out and "Initiative:" in out and " wins in round " in out
    assert run(capsys, "battle", SAMPLE, "--seed", "7")[1] == out


def test_trials_give_each_side_s_chance(capsys):
    code, out, _ = run(capsys, "battle", SAMPLE, "--trials", "200", "--seed", "1")
    assert code == 0 and "200 battles of Ann and Bob" in out
    shares = [float(line.split()[2].rstrip("%")) for line in out.splitlines() if " wins " in line]
    assert len(shares) == 2 and 99.0 <= sum(shares) <= 100.0


def test_an_impossible_roster_is_refused_with_every_problem_on_one_line(tmp_path, capsys):
    roster = json.loads(SAMPLE.read_text())
    monster = roster["players"][0]["monsters"][0]
    monster["parts"] = [{"name": None, "type": "weapon", "die": f"d{sides} red", "damage": 0}
                        for sides in (4, 6, 10, 12, 20)]                       # a sixth part with the core
    monster["core"]["die"] = "d7 mauve"
    path = tmp_path / "roster.json"
    path.write_text(json.dumps(roster))
    code, out, err = run(capsys, "battle", path)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "6 parts" in err and "d7" in err and "mauve" in err


def test_a_scan_without_monster_sheets_says_what_to_scan(tmp_path, capsys):
    scan = tmp_path / "scan.json"
    scan.write_text(json.dumps({"format": "scrawl.scan/1", "sheets": [], "errors": []}))
    code, out, err = run(capsys, "battle", scan)
    assert code == 2 and out == ""
    assert err == (f"scrawl: error: {scan}: this scan holds no monster record sheet: scan the players' monster "
                   "record sheets ('scrawl monsters' prints them) with 'scrawl scan PHOTO... --json' and give that "
                   "file\n")


@pytest.mark.parametrize("command", ["score", "battle"])
def test_a_photo_given_for_a_json_file_says_to_scan_it(tmp_path, capsys, command):
    photo = tmp_path / "sheet.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)))
    code, out, err = run(capsys, command, photo)
    assert code == 2 and "Traceback" not in err
    assert err == f"scrawl: error: {photo}: not a JSON document (a photo?): photos of sheets are read by " \
                  "'scrawl scan PHOTO...'\n"
