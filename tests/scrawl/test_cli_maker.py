"""`scrawl loot` and `scrawl heroes` as a user runs them."""
import json
from pathlib import Path

import pytest

from tests_support import run_cli as run

SAMPLE = Path(__file__).parent.parent.parent / "samples" / "dungeon-maker-built.json"


def test_heroes_prints_every_walk_and_the_score_and_replays(capsys):
    code, out, err = run(capsys, "heroes", SAMPLE, "--seed", "3")
    assert code == 0 and err == ""
    assert "Route: A1 A2 A3 B3 C3 D3 D4 D5 E5 (9 tiles)" in out
    assert out.count("Hero ") >= 5 and "escaped by the stairs in E5" in out and "died in" in out
    assert "Total" in out.splitlines()[-1]
    assert run(capsys, "heroes", SAMPLE, "--seed", "3")[1] == out


def test_heroes_json_score_adds_up(capsys):
    code, out, _ = run(capsys, "heroes", SAMPLE, "--seed", "3", "--json")
    result = json.loads(out)
    score = result["score"]
    assert code == 0 and len(result["heroes"]) == 5
    assert score["souls"] == sum(h["fate"] == "died" for h in result["heroes"])
    assert score["total"] == score["building"] + 3 * score["souls"] - 2 * score["hp_lost"]


def test_heroes_trials_give_the_expected_score_and_spread(capsys):
    code, out, _ = run(capsys, "heroes", SAMPLE, "--trials", "200", "--seed", "1")
    assert code == 0
    assert "200 hero phases (seeds 1 to 200)" in out
    mean = float(out.split("expected score")[1].split()[0])
    assert 15 < mean < 32        # a full build: most heroes die, a few escape


def test_heroes_refuses_a_dungeon_that_breaks_building_rules_listing_every_problem(tmp_path, capsys):
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"entrance": "B1:N", "stairs": "A2", "tiles": {
        "B1": {"path": "NS"}, "A2": {"bridge": "N"}, "C4": {"on": "spikes"}}}))
    code, out, err = run(capsys, "heroes", path)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    for part in ["A2: a bridge path goes only on an Acid Pond", "C4: a Spike trap goes on a path",
                 "B1: the entrance B1:N must come in from outside at a corner"]:
        assert part in err


@pytest.mark.parametrize("content, message", [
    ("{", "d.json: not valid JSON"),
    ('{"entrance": "A1:N", "stairs": "A2", "tiles": {"A1": {"room": "dragon"}}}', "'dragon' is not one of"),
])
def test_heroes_bad_files_are_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "d.json"
    path.write_text(content)
    code, _, err = run(capsys, "heroes", path)
    assert code == 2 and message in err and err.count("\n") == 1


def test_loot_writes_k_pages_with_their_layouts_and_prints_the_seed(tmp_path, monkeypatch, capsys):
    from pypdf import PdfReader

    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "loot", "--count", "4", "--seed", "1234")
    pdf = tmp_path / "output" / "loot-1234-a4.pdf"
    assert code == 0 and err == "" and pdf.is_file()
    assert "Wrote output/loot-1234-a4.pdf (4 pages, A4, loot seed 1234, game " in out
    assert len(PdfReader(pdf).pages) == 4
    document = json.loads(pdf.with_suffix(".layout.json").read_text())
    assert document["game"] == "dungeon-maker" and len(document["pages"]) == 4
    from games.maker import roll_loot

    for page in document["pages"]:
        expected = roll_loot(1234, page["page"])
        gems = sorted(room["id"] for room in page["rooms"] if "gem" in room["items"])
        assert gems == sorted(room.name for room in expected.gems)


def test_loot_without_a_seed_chooses_one_and_says_how_to_reprint(tmp_path, capsys):
    code, out, _ = run(capsys, "loot", "-o", tmp_path / "a.pdf")
    again = out.split("run with ")[1].split(" to print")[0]
    seed, game = again.split()[1], again.split()[3]
    assert code == 0 and again == f"--seed {seed} --game {game}"
    run(capsys, "loot", "--seed", seed, "--game", game, "-o", tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


@pytest.mark.parametrize("args, message", [
    (["loot", "--count", "0"], "Invalid value for '--count'"),
    (["loot", "--paper", "a5"], "'a5' is not one of"),
    (["loot", "-o", "loot.png"], "loot.png: this is a PDF, so name it FILE.pdf"),
])
def test_loot_bad_arguments_are_one_line_and_write_nothing(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *args)
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "output").exists()


def test_loot_names_print_a_game_code_and_the_scan_names_each_player(tmp_path, monkeypatch, capsys):
    import re

    import pypdfium2 as pdfium

    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "loot", "--names", "Ann,Bo", "--seed", "5")
    assert code == 0 and err == ""
    game = re.search(r"game ([A-Z0-9]{4})\)", out).group(1)
    assert "Wrote output/loot-5-a4.pdf (2 pages, A4, loot seed 5, game " in out
    pdf = pdfium.PdfDocument(tmp_path / "output" / "loot-5-a4.pdf")
    assert len(pdf) == 2
    text = pdf[1].get_textpage().get_text_range()
    assert f"Game {game} \u00b7 seed 5, player 2" in text and "Bo" in text
    photo = tmp_path / "bo.png"
    pdf[1].render(scale=8 * 25.4 / 72).to_pil().save(photo)
    code, out, err = run(capsys, "scan", photo, "--json")
    entry = json.loads(out)["dungeons"][0]
    assert (entry["game"], entry["player"], entry["name"]) == (game, 2, "Bo")
