"""`scrawl deal`, `scrawl score` and `scrawl deck` as a user runs them: output, exit codes, one-line errors."""
import json

import pytest
from pypdf import PdfReader

from tests_support import run_cli as run

GAME = {"format": "scrawl.scan/1", "sheets": [
    {"source": "anna", "map": {"id": "classic"}, "player": 1, "unusable": 1,
     "rooms": {"C1": {"exits": "NS", "round": 1}, "C2": {"exits": "NEW", "round": 2},
               "D2": {"exits": "W", "round": 2}, "B2": {"exits": "E", "round": 3},
               "A1": {"trap": True, "round": 3}}},
    {"source": "bob", "map": "classic", "player": 2,
     "rooms": {"C1": {"exits": "NW", "round": 1}, "B1": {"exits": "E", "round": 1}}},
]}


def write(tmp_path, document, name="game.json"):
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def test_deal_prints_seven_rounds_and_how_to_replay(capsys):
    code, out, err = run(capsys, "deal", "--seed", "1234")
    assert code == 0 and err == ""
    assert "Replay it with: scrawl deal --seed 1234" in out
    rows = [line for line in out.splitlines() if line[:3].strip().isdigit()]
    assert [int(line.split()[0]) for line in rows] == [1, 2, 3, 4, 5, 6, 7]
    # Seed 1234 reveals a Draw 2 in round 5: six cards that round, marked, and explained below.
    assert rows[4].count("*") == 4 and "in place of a Draw 2" in out
    assert run(capsys, "deal", "--seed", "1234")[1] == out


def test_deal_without_a_seed_prints_the_one_it_chose(capsys):
    code, out, _ = run(capsys, "deal")
    seed = int(out.split()[1])
    assert code == 0 and f"scrawl deal --seed {seed}" in out
    assert run(capsys, "deal", "--seed", seed)[1] == out


def test_deal_json_is_one_document_and_solo_has_no_traps(capsys):
    code, out, _ = run(capsys, "deal", "--seed", "5", "--solo", "--json")
    document = json.loads(out)
    assert code == 0 and document["format"] == "scrawl.deal/1" and document["deck"] == 34
    assert len(document["rounds"]) == 7
    assert all(card["kind"] != "trap" for r in document["rounds"] for card in r["cards"])


def test_score_prints_each_breakdown_traps_and_standings(tmp_path, capsys):
    code, out, err = run(capsys, "score", write(tmp_path, {**GAME, "sheets": GAME["sheets"][:1] + [
        {**GAME["sheets"][1], "rooms": {"A4": {"exits": "EW"}, "B4": {"exits": "W"}}}]}))
    assert code == 0 and err == ""
    assert "anna (player 1), The Sunken Keep: 6 points" in out
    assert "1 Loot                  1    +2   B2" in out
    assert "bob (player 2), The Sunken Keep: 6 points" in out
    assert "Standings: anna 6, bob 6" in out


def test_score_flags_broken_rules_and_exits_1(tmp_path, capsys):
    code, out, _ = run(capsys, "score", write(tmp_path, GAME))
    assert code == 0
    assert "NEEDS REVIEW" not in out
    assert "trap in A1" not in out              # bob linked to A1's side but never entered it
    code, out, _ = run(capsys, "score", write(tmp_path, {**GAME, "sheets": [
        GAME["sheets"][0], {**GAME["sheets"][1], "rooms": {"A1": {"exits": "E"}}}]}))
    assert code == 1
    assert "trap in A1: laid by anna" in out
    assert "NEEDS REVIEW A1: the segment ends against the wall on the east (right) side" in out


def test_score_json_fills_in_scores_and_needs_review(tmp_path, capsys):
    bad = {**GAME, "sheets": [GAME["sheets"][0], {**GAME["sheets"][1], "rooms": {"A1": {"exits": "E"}}}]}
    code, out, err = run(capsys, "score", write(tmp_path, bad), "--json")
    assert code == 1 and err == ""
    document = json.loads(out)
    anna, bob = document["sheets"]
    assert anna["score"]["total"] == 6 and anna["needs_review"] == []
    assert [line["points"] for line in anna["score"]["lines"]] == [2, 1, 0, 0, 5, -2, 0]
    assert bob["score"]["total"] == 6 - 3 and bob["trap_hits"] == [{"room": "A1", "by": "anna", "shared": False}]
    assert {entry["rule"] for entry in bob["needs_review"]} == {"wall_end", "unlinked"}
    # The filled-in document scores the same again.
    code, again, _ = run(capsys, "score", write(tmp_path, document, "again.json"), "--json")
    assert json.loads(again)["sheets"][0]["score"] == anna["score"]


@pytest.mark.parametrize("content, message", [
    ('{"sheets": [', "game.json: not valid JSON: Expecting value at line 1 column 13"),
    ('[1, 2]', "game.json: should be a JSON object"),
    ('{"format": "scrawl.scan/9", "sheets": []}', "'scrawl.scan/9' is not a format this release reads"),
    ('{"sheets": [{"map": "moon"}]}', "no sheet could be scored: sheets[0]: map: unknown map 'moon'"),
    ('{"sheets": [{"map": "classic", "rooms": {"C1": {"exits": "NQ"}}, "unusable": -1}]}',
     "unusable: should be the tally beside item 6"),
])
def test_score_rejects_a_malformed_document_with_one_line(tmp_path, capsys, content, message):
    code, out, err = run(capsys, "score", write(tmp_path, content))
    assert code == 2 and out == ""
    assert err.startswith("scrawl: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_score_a_missing_file(tmp_path, capsys):
    code, _, err = run(capsys, "score", tmp_path / "nope.json")
    assert code == 2 and err.endswith("nope.json: no such file\n")


def test_score_goes_on_when_one_sheet_is_broken(tmp_path, capsys):
    document = {**GAME, "sheets": [GAME["sheets"][0], {"source": "carl", "map": "classic", "rooms": {"Q7": {}}}]}
    code, out, _ = run(capsys, "score", write(tmp_path, document), "--json")
    result = json.loads(out)
    assert code == 1
    assert [sheet["source"] for sheet in result["sheets"]] == ["anna"]
    assert result["errors"][0]["source"] == "carl" and "Q7 is not on the 8x8 map" in result["errors"][0]["error"]


def test_deck_writes_the_dungeon_deck(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "deck")
    pdf = tmp_path / "output" / "deck-doodles-a4.pdf"
    assert code == 0 and err == "" and pdf.is_file()
    assert "36 cards on 8 pages" in out
    assert len(PdfReader(pdf).pages) == 8


@pytest.mark.parametrize("args, message", [
    (["deck", "jokers"], "'jokers' is not one of"),
    (["deck", "--backs", "sideways"], "'sideways' is not one of"),
    (["deck", "--bleed", "9"], "--bleed 9 does not fit 3x3 cards on A4"),
    (["deck", "-o", "deck.png"], "deck.png: this is a PDF, so name it FILE.pdf"),
])
def test_deck_bad_arguments_are_one_line_and_exit_2(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "output").exists()


def test_the_sample_game_in_the_readme_scores(capsys):
    from pathlib import Path

    sample = Path(__file__).parent.parent.parent / "samples" / "game-classic-3p.json"
    code, out, err = run(capsys, "score", sample)
    assert code == 0 and err == ""
    assert "Standings: bo 14, chidi 14, anna -8" in out
