"""One game, one sheet per player: game codes, names, duplicate and blank sheets (issue 18).

What a host notices: the code and the names printed on the sheets, the scores of each game's sheets
scored only with each other, a photo given twice or a sheet with nothing drawn named for review (exit 1),
and sheets printed before codes still read.
"""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from sheets.page import GAME_CODE_LETTERS, SheetId, game_code
from tests_support import run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


# -- the code and the names on the printed sheets ------------------------------------------------------

def test_the_qr_text_carries_the_game_code_and_old_codes_still_read(classic):
    sheet = SheetId.for_sheet(classic, "letter", 3, "K7QX")
    assert sheet.qr_text() == f"DS/L2/DOODLES/LETTER/P3.K7QX/CLASSIC/{sheet.check}"
    assert SheetId.parse(sheet.qr_text()) == sheet
    old = SheetId.parse(f"DS/L1/DOODLES/A4/P2/CLASSIC/{sheet.check}")
    assert (old.player, old.code) == (2, None)
    with pytest.raises(ValueError, match="damaged"):
        SheetId.parse(f"DS/L1/DOODLES/A4/P2.K0QX/CLASSIC/{sheet.check}")    # 0 is never in a code


def test_game_codes_are_typed_forgivingly_and_refused_clearly():
    assert game_code(" k7-qx ") == "K7QX"
    with pytest.raises(ValueError, match="is not a game code"):
        game_code("KOQX")       # the letter O is left out (it reads as 0)
    assert not set("01OIL8B") & set(GAME_CODE_LETTERS)


def _page_text(pdf: Path) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def test_sheet_prints_one_code_and_each_players_name(tmp_path, capsys):
    code, out, err = run_cli(capsys, "sheet", "--names", "Ann, Bo,Zoë", "-o", tmp_path / "s.pdf")
    assert code == 0 and err == ""
    game = out.split("), game ")[1].split()[0]
    assert game_code(game) == game
    pages = _page_text(tmp_path / "s.pdf")
    assert len(pages) == 3          # the names set the player count
    for number, (text, name) in enumerate(zip(pages, ["Ann", "Bo", "Zoë"]), start=1):
        assert name in text and f"Game {game}" in text and f"Player {number} of 3" in text
    layout = json.loads((tmp_path / "s.layout.json").read_text())
    assert layout["game_code"] == game
    assert [page["name"] for page in layout["pages"]] == ["Ann", "Bo", "Zoë"]
    assert [SheetId.parse(page["qr_text"]).code for page in layout["pages"]] == [game] * 3

    again_code, again, _ = run_cli(capsys, "sheet", "--names", "Ann,Bo", "-o", tmp_path / "t.pdf")
    assert again_code == 0 and again.split("), game ")[1].split()[0] != game     # every game its own code


def test_a_game_printed_again_keeps_its_code_and_names(tmp_path, capsys):
    code, out, _ = run_cli(capsys, "sheet", "--names", "Ann,Bo", "-o", tmp_path / "a.pdf")
    game = out.split("), game ")[1].split()[0]
    code, out, err = run_cli(capsys, "sheet", "--game", game.lower(), "-o", tmp_path / "b.pdf")
    assert code == 0 and f"game {game}" in out
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


@pytest.mark.parametrize("args, message", [
    (["--names", "Ann,,Bo"], "--names: an empty name"),
    (["--names", "Ann,ann"], "--names: two players have the same name"),
    (["--names", "Ann,Bo", "--players", "3"], "--names gives 2 names but --players is 3"),
    (["--game", "K0QX"], "--game: 'K0QX' is not a game code"),
])
def test_bad_names_and_codes_are_one_line_and_exit_2(tmp_path, capsys, args, message):
    code, out, err = run_cli(capsys, "sheet", *args, "-o", tmp_path / "s.pdf")
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "s.pdf").exists()


def test_a_game_book_that_cannot_be_written_costs_only_the_names(tmp_path, capsys, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("SCRAWL_DATA", str(blocker))
    code, out, err = run_cli(capsys, "sheet", "--names", "Ann", "-o", tmp_path / "s.pdf")
    assert code == 0 and (tmp_path / "s.pdf").is_file()
    assert err.startswith("Warning: the game book") and "--names" in err


# -- scanning: games kept apart, names read back, duplicates and blanks --------------------------------

@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    """Photos of two games of two players on the classic map, printed with codes, and the names each
    game was printed with, kept in the game book."""
    from photographer import make_game_shots, write_shots
    from games.mapfile import load_map, map_reference
    from scrawl.gamebook import PrintedGame, record_game

    folder = tmp_path_factory.mktemp("two-games")
    games = {}
    for seed, code, names in ((7, "K7QX", ("Ann", "Bo")), (8, "M4TD", ("Cy", "Dee"))):
        record_game(PrintedGame(code, map_reference(load_map("classic")), "a4", 2, names))
        shots = make_game_shots(seed, players=2, difficulty="easy", code=code)
        paths = [p for p in write_shots(shots, folder / code) if not p.name.endswith(".json")]
        games[code] = ([str(p) for p in paths], names)
    return games


def _scan(capsys, *args):
    code, out, err = run_cli(capsys, "scan", "--jobs", "1", "--json", *args)
    return code, json.loads(out), err


def test_two_games_scanned_together_score_as_each_game_alone(two_games, capsys):
    alone = {}
    for code, (paths, _) in two_games.items():
        _, document, _ = _scan(capsys, *paths)
        alone.update({sheet["source"]: sheet["score"]["total"] for sheet in document["sheets"]})
    together_paths = [path for paths, _ in two_games.values() for path in paths]
    _, together, _ = _scan(capsys, *together_paths)
    assert {sheet["source"]: sheet["score"]["total"] for sheet in together["sheets"]} == alone
    assert [sheet["game"] for sheet in together["sheets"]] == ["K7QX", "K7QX", "M4TD", "M4TD"]
    assert not any(entry["rule"] == "duplicate_sheet" for sheet in together["sheets"]
                   for entry in sheet["needs_review"])
    hits = {hit["by"] for sheet in together["sheets"] for hit in sheet["trap_hits"]}
    for sheet in together["sheets"]:          # a trap hit only ever comes from a sheet of the same game
        same_game = {s["source"] for s in together["sheets"] if s["game"] == sheet["game"]}
        assert {hit["by"] for hit in sheet["trap_hits"]} <= same_game
    assert hits


def test_names_are_read_back_from_the_game_book_and_said_instead_of_files(two_games, capsys):
    paths = [path for paths, _ in two_games.values() for path in paths]
    _, document, _ = _scan(capsys, *paths)
    assert [sheet["name"] for sheet in document["sheets"]] == ["Ann", "Bo", "Cy", "Dee"]
    code, out, _ = run_cli(capsys, "scan", "--jobs", "1", *paths)
    assert "== Game K7QX, The Sunken Keep ==" in out and "== Game M4TD, The Sunken Keep ==" in out
    assert "Ann (player 1), The Sunken Keep:" in out
    standings = [line for line in out.splitlines() if line.startswith("Standings:")]
    assert len(standings) == 2      # one per game
    assert all(".jpg" not in line and ".png" not in line for line in standings)
    assert {"Ann", "Bo"} <= set(standings[0].replace(",", " ").split())


def test_names_given_to_scan_win_over_the_book(two_games, capsys):
    paths, _ = two_games["K7QX"]
    _, document, _ = _scan(capsys, "--names", "Xena,Yuri", *paths)
    assert [sheet["name"] for sheet in document["sheets"]] == ["Xena", "Yuri"]


def test_the_same_photo_twice_is_flagged_and_changes_no_score(two_games, capsys):
    paths, _ = two_games["K7QX"]
    _, once, _ = _scan(capsys, *paths)
    code, twice, _ = _scan(capsys, paths[0], paths[1], paths[0])
    assert code == 1
    totals = [sheet["score"]["total"] for sheet in twice["sheets"]]
    assert totals == [once["sheets"][0]["score"]["total"], once["sheets"][1]["score"]["total"],
                      once["sheets"][0]["score"]["total"]]
    flagged = [[entry for entry in sheet["needs_review"] if entry["rule"] == "duplicate_sheet"]
               for sheet in twice["sheets"]]
    assert [len(entries) for entries in flagged] == [1, 0, 1]
    assert "the same drawing" in flagged[0][0]["why"] and paths[0] in flagged[0][0]["why"]
    out = run_cli(capsys, "scan", "--jobs", "1", paths[0], paths[1], paths[0])[1]
    assert "Not ranked:" in out and out.count("Standings:") == 1


def test_two_games_printed_before_codes_flag_their_second_player_1(capsys):
    photos = sorted(str(p) for p in (SAMPLES / "photos").glob("game[78]-classic-*"))
    code, document, _ = _scan(capsys, *photos)
    assert code == 1
    assert all(sheet["game"] is None for sheet in document["sheets"])
    by_source = {Path(sheet["source"]).name: sheet for sheet in document["sheets"]}
    for second in ("game8-classic-p1-hard.jpg", "game8-classic-p2-hard.jpg"):
        assert any(entry["rule"] == "duplicate_sheet" for entry in by_source[second]["needs_review"])
    expected = json.loads((SAMPLES / "photos" / "game-7-medium.expected.json").read_text())
    alone = {Path(sheet["source"]).name: sheet["score"]["total"] for sheet in expected["sheets"]}
    _, game7, _ = _scan(capsys, *[p for p in photos if "game7" in p])
    assert {name: by_source[name]["score"]["total"] for name in alone} == \
        {Path(sheet["source"]).name: sheet["score"]["total"] for sheet in game7["sheets"]}


def test_the_print_pdf_itself_is_a_blank_sheet(capsys):
    code, document, _ = _scan(capsys, SAMPLES / "sheet-classic-a4.pdf")
    assert code == 1
    [sheet] = document["sheets"]
    assert sheet["game"] == "K7QX"
    assert [entry["rule"] for entry in sheet["needs_review"]][:1] == ["blank_sheet"]


def test_a_typed_sheet_with_nothing_drawn_is_flagged(tmp_path, capsys):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"format": "scrawl.scan/1", "sheets": [
        {"source": "anna", "map": "classic", "player": 1, "rooms": {"B1": {"exits": "NS"}}},
        {"source": "bo", "map": "classic", "player": 2, "rooms": {}}]}))
    code, out, _ = run_cli(capsys, "score", "--json", state)
    document = json.loads(out)
    assert code == 1
    assert [[e["rule"] for e in sheet["needs_review"] if e["rule"] == "blank_sheet"] for sheet in document["sheets"]] \
        == [[], ["blank_sheet"]]


def test_typed_sheets_of_two_game_codes_are_two_games(tmp_path, capsys):
    state = tmp_path / "state.json"
    sheet = {"map": "classic", "player": 1, "rooms": {"A4": {"exits": "EW", "round": 1}}}
    state.write_text(json.dumps({"format": "scrawl.scan/1", "sheets": [
        dict(sheet, source="a", name="Ann", game="K7QX"), dict(sheet, source="b", name="Cy", game="M4TD")]}))
    code, out, _ = run_cli(capsys, "score", state)
    assert "== Game K7QX, The Sunken Keep ==" in out and "== Game M4TD, The Sunken Keep ==" in out
    assert "Ann (player 1)" in out and "Cy (player 1)" in out and "duplicate" not in out
    document = json.loads(run_cli(capsys, "score", "--json", state)[1])
    assert [(s["name"], s["game"]) for s in document["sheets"]] == [("Ann", "K7QX"), ("Cy", "M4TD")]
