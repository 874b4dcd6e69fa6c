"""One game, one sheet per player (issue 18), through scrawl serve's HTTP API: a web game's code and names
on its printed sheets and its scores, a sheet of another game or map refused, retakes and removals that
can be undone and never drop corrections silently, and every reading a person can fix (rooms, round
numbers, the tally, Diamonds, Emeralds, the Curse Track, Rune Gates).
"""
import io
import json
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from scrawl.web import create_app

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "photos"
PLAYERS = ["Ann", "Bo", "Chidi"]


def upload(client, gid, name=None, data=None, filename=None, **params):
    data = data if data is not None else (SAMPLES / name).read_bytes()
    return client.post(f"/api/games/{gid}/photos", params=params,
                       files={"photo": (filename or name, data, "application/octet-stream")})


def one_line(response) -> str:
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail and "Traceback" not in detail
    return detail


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "data")) as running:
        yield running


def new_game(client, players=PLAYERS, map_name="classic") -> dict:
    answer = client.post("/api/games", json={"players": players, "map": map_name})
    assert answer.status_code == 201
    return answer.json()


def shot(code: str | None, player: int = 1, map_id: str = "classic", seed: int = 5):
    """A phone photo of one player's sheet of a game printed with ``code``, by the photographer."""
    from photographer import make_game_shots

    taken = make_game_shots(seed, players=player, map_id=map_id, code=code)[player - 1]
    return taken.data, taken.name + taken.suffix


# -- the game's code and names --------------------------------------------------------------------------
def test_a_web_game_has_a_code_and_prints_it_with_the_players_names(client):
    from pypdf import PdfReader
    from sheets.page import game_code

    game = new_game(client)
    assert game_code(game["code"]) == game["code"]
    assert client.get(f"/api/games/{game['id']}").json()["code"] == game["code"]
    pdf = client.get(game["print"]["sheets"])
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(pdf.content)).pages
    assert len(pages) == 3
    for page, name in zip(pages, PLAYERS):
        text = page.extract_text()
        assert f"Game {game['code']}" in text and name in text
    assert client.get("/print/games/nope/sheets.pdf").status_code == 404


def test_scored_sheets_carry_the_games_names_and_code(client):
    game = new_game(client)
    answer = upload(client, game["id"], "game7-classic-p2-medium.jpg")
    assert answer.status_code == 201
    export = client.get(f"/api/games/{game['id']}/export").json()
    assert [(s["player"], s["name"], s["game"]) for s in export["sheets"]] == [(2, "Bo", game["code"])]


def test_a_database_made_before_game_codes_is_opened_and_its_games_get_codes(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = sqlite3.connect(folder / "scrawl.db")
    db.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, created TEXT NOT NULL, players TEXT NOT NULL, map TEXT NOT NULL,
                            paper TEXT NOT NULL);
        CREATE TABLE photos (id TEXT PRIMARY KEY, game_id TEXT NOT NULL, uploaded TEXT NOT NULL, name TEXT NOT NULL,
                             data BLOB NOT NULL, error TEXT);
        CREATE TABLE sheets (id TEXT PRIMARY KEY, photo_id TEXT NOT NULL, game_id TEXT NOT NULL, sheet TEXT NOT NULL,
                             readings TEXT NOT NULL, page BLOB NOT NULL, corrections TEXT NOT NULL);
        INSERT INTO games VALUES ('old1', '2026-01-02T20:00:00', '["Ann", "Bo"]', '{"id": "classic", "seed": null}',
                                  'a4');
    """)
    db.commit()
    db.close()
    with TestClient(create_app(folder)) as old:
        game = old.get("/api/games/old1").json()
        assert len(game["code"]) == 4 and game["players"] == ["Ann", "Bo"]
        # Its sheets printed before codes carry none, and are still this game's.
        answer = upload(old, "old1", "game7-classic-p1-medium.jpg")
        assert answer.status_code == 201 and answer.json()["sheets"][0]["name"] == "Ann"
    with TestClient(create_app(folder)) as again:
        assert again.get("/api/games/old1").json()["code"] == game["code"]


# -- a sheet of another game ------------------------------------------------------------------------------
def test_a_sheet_of_another_game_is_refused_and_not_kept(client):
    game = new_game(client)
    data, name = shot("K7QX")
    answer = upload(client, game["id"], data=data, filename=name)
    assert answer.status_code == 422
    assert one_line(answer) == (f"this sheet is from game K7QX (The Sunken Keep); this is game {game['code']} "
                                f"(The Sunken Keep): upload it to its own game")
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["photos"] == [] and after["sheets"] == []


def test_a_sheet_of_the_games_own_code_is_taken(client):
    game = new_game(client)
    data, name = shot(game["code"])
    answer = upload(client, game["id"], data=data, filename=name)
    assert answer.status_code == 201
    assert [(s["player"], s["name"], s["game"]) for s in answer.json()["sheets"]] == [(1, "Ann", game["code"])]


def test_a_sheet_of_another_map_is_refused(client):
    game = new_game(client)
    answer = upload(client, game["id"], "game17-map6-p1-medium.webp")
    assert answer.status_code == 422
    assert one_line(answer) == (f"this sheet is of another map (The Rune Maze); this is game {game['code']} "
                                f"(The Sunken Keep): upload it to its own game")
    assert client.get(f"/api/games/{game['id']}").json()["photos"] == []


def test_a_second_photo_of_one_player_is_flagged_not_silently_replaced(client):
    game = new_game(client)
    upload(client, game["id"], "game7-classic-p1-medium.jpg")
    answer = upload(client, game["id"], "game7-classic-p1-medium.jpg", filename="again.jpg")
    assert answer.status_code == 201 and answer.json()["undo"] is None
    sheets = answer.json()["sheets"]
    assert [s["player"] for s in sheets] == [1, 1] and all(s["duplicate"] for s in sheets)
    assert "both claim player 1" in sheets[0]["needs_review"][0]["why"]
    # The second sheet is scored in Ann's place to compare, never ranked beside her.
    assert (sheets[0]["duplicate_of"], sheets[1]["duplicate_of"]) == (None, sheets[0]["id"])
    assert [(row["name"], row["sheet"]) for row in answer.json()["scoreboard"]] == [("Ann", sheets[0]["id"])]


# -- retakes, removals and undo -------------------------------------------------------------------------
def corrected_game(client) -> tuple[dict, dict]:
    """A game with Ann's sheet, a loot room corrected to nothing and round 2 written in E3: (game, Ann's
    sheet), the sheet with ``read_total``, its total as read, and ``room``, the loot room."""
    game = new_game(client)
    sheet = upload(client, game["id"], "game7-classic-p1-medium.jpg").json()["sheets"][0]
    base = f"/api/games/{game['id']}/sheets/{sheet['id']}"
    room = sheet["score"]["lines"][0]["rooms"][0]
    assert client.put(f"{base}/rooms/{room}", json={"reading": ""}).status_code == 200
    answer = client.put(f"{base}/rounds/E3", json={"round": 2})
    assert answer.status_code == 200
    corrected = answer.json()["sheets"][0]
    assert corrected["total"] != sheet["total"]
    return game, dict(corrected, read_total=sheet["total"], room=room)


def test_a_retake_keeping_corrections_applies_them_to_the_new_reading_and_can_be_undone(client):
    game, old = corrected_game(client)
    assert old["corrections"] == 2
    answer = upload(client, game["id"], "game7-classic-p1-medium.jpg", filename="retake.jpg",
                    replaces=old["id"], corrections="keep")
    assert answer.status_code == 201
    document = answer.json()
    assert [p["name"] for p in document["photos"]] == ["retake.jpg"]
    (new,) = document["sheets"]
    assert new["id"] != old["id"] and new["total"] == old["total"] and new["rooms"][old["room"]]["corrected"] is True
    assert new["rooms"]["E3"]["round"] == 2 and new["rooms"]["E3"]["round_corrected"] is True
    undone = client.post(f"/api/games/{game['id']}/undo/{document['undo']}")
    assert undone.status_code == 200
    assert [(s["id"], s["total"], s["corrections"]) for s in undone.json()["sheets"]] == [(old["id"], old["total"], 2)]
    assert [p["name"] for p in undone.json()["photos"]] == ["game7-classic-p1-medium.jpg"]
    again = client.post(f"/api/games/{game['id']}/undo/{document['undo']}")
    assert again.status_code == 404 and "nothing to undo" in one_line(again)


def test_a_retake_dropping_corrections_scores_the_new_reading(client):
    game, old = corrected_game(client)
    answer = upload(client, game["id"], "game7-classic-p1-medium.jpg", filename="retake.jpg",
                    replaces=old["id"], corrections="drop")
    (new,) = answer.json()["sheets"]
    assert new["total"] == old["read_total"] and new["corrections"] == 0
    bad = upload(client, game["id"], "game7-classic-p1-medium.jpg", replaces=new["id"], corrections="maybe")
    assert bad.status_code == 422 and "corrections" in one_line(bad)


def test_a_removed_photo_comes_back_with_its_corrections_on_undo(client):
    game, old = corrected_game(client)
    removed = client.delete(f"/api/games/{game['id']}/photos/{old['photo_id']}")
    assert removed.status_code == 200 and removed.json()["sheets"] == [] and removed.json()["undo"]
    assert client.get("/api/games").json()["games"][0]["sheets"] == 0
    back = client.post(f"/api/games/{game['id']}/undo/{removed.json()['undo']}").json()
    assert [(s["id"], s["total"], s["corrections"]) for s in back["sheets"]] == [(old["id"], old["total"], 2)]
    assert client.post(f"/api/games/nope/undo/{removed.json()['undo']}").status_code == 404


# -- every reading can be fixed -------------------------------------------------------------------------
def test_a_round_number_correction_and_its_reset(client):
    game, sheet = corrected_game(client)
    base = f"/api/games/{game['id']}/sheets/{sheet['id']}"
    for bad, status, words in [({"round": 8}, 422, "round"), ({"round": "two"}, 422, "round")]:
        answer = client.put(f"{base}/rounds/E3", json=bad)
        assert answer.status_code == status and words in one_line(answer)
    assert client.put(f"{base}/rounds/Z9", json={"round": 1}).status_code == 404
    corrected = client.get(sheet["overlay"]).content
    reset = client.delete(f"{base}/rounds/E3").json()["sheets"][0]
    assert reset["rooms"]["E3"]["round_corrected"] is False and reset["rooms"]["E3"]["round"] != 2
    # The overlay picture wrote the corrected number in the room's round box; now the number read.
    assert client.get(reset["overlay"]).content != corrected


@pytest.fixture
def map6(client):
    """A map 6 game with Ann's sheet: (game, Ann's sheet)."""
    game = new_game(client, ["Ann", "Bo"], "map6")
    return game, upload(client, game["id"], "game17-map6-p1-medium.webp").json()["sheets"][0]


def test_an_expansion_sheet_lists_its_marks_as_read(map6):
    _, sheet = map6
    marks = {mark["mark"]: mark["marked"] for mark in sheet["marks"]}
    assert {key for key, marked in marks.items() if marked} >= {"diamond-1", "diamond-3", "emerald-1",
                                                                "curse-top-1", "curse-bottom-4", "gate-A1-B1"}
    assert marks["diamond-2"] is False and marks["curse-top-3"] is False
    assert {mark["kind"] for mark in sheet["marks"]} == {"diamond", "emerald", "curse_top", "curse_bottom", "gate"}


def test_crossing_a_diamond_out_changes_the_score_and_a_reset_puts_it_back(client, map6):
    game, sheet = map6
    base = f"/api/games/{game['id']}/sheets/{sheet['id']}/marks"
    crossed = client.put(f"{base}/diamond-2", json={"marked": True})
    assert crossed.status_code == 200
    after = crossed.json()["sheets"][0]
    mark = next(m for m in after["marks"] if m["mark"] == "diamond-2")
    assert mark["marked"] is True and mark["corrected"] is True
    assert after["total"] != sheet["total"]
    export = client.get(f"/api/games/{game['id']}/export").json()["sheets"][0]
    assert 2 in export["marks"]["diamonds"]
    back = client.delete(f"{base}/diamond-2").json()["sheets"][0]
    assert back["total"] == sheet["total"]


def test_curse_track_halves_and_rune_gates_can_be_fixed(client, map6):
    game, sheet = map6
    base = f"/api/games/{game['id']}/sheets/{sheet['id']}/marks"
    client.put(f"{base}/curse-top-3", json={"marked": True})
    answer = client.put(f"{base}/gate-A1-B1", json={"marked": False})
    assert answer.status_code == 200
    export = client.get(f"/api/games/{game['id']}/export").json()["sheets"][0]
    assert export["marks"]["curse_track"]["top"][:3] == [True, True, True]
    assert "A1-B1" not in export["marks"]["gates"]
    for bad in ("diamond-9", "gate-Z1-Z2", "nothing"):
        missing = client.put(f"{base}/{bad}", json={"marked": True})
        assert missing.status_code == 404 and f"no mark {bad}" in one_line(missing)
    assert client.put(f"{base}/diamond-2", json={"marked": "yes please"}).status_code == 422


def test_a_classic_sheet_has_no_marks_to_fix(client):
    game = new_game(client)
    sheet = upload(client, game["id"], "game7-classic-p1-medium.jpg").json()["sheets"][0]
    assert sheet["marks"] == []
    answer = client.put(f"/api/games/{game['id']}/sheets/{sheet['id']}/marks/diamond-1", json={"marked": True})
    assert answer.status_code == 404 and "its map has no Diamonds" in one_line(answer)


def test_review_entries_name_the_player_and_the_sheet_to_open(client):
    game = new_game(client)
    for name in ("game7-classic-p1-medium.jpg", "game7-classic-p1-medium.jpg"):
        upload(client, game["id"], name)
    first, second = client.get(f"/api/games/{game['id']}").json()["sheets"]
    entry = first["needs_review"][0]
    assert entry["rule"] == "duplicate_sheet" and entry["sheet"] == second["id"] and entry["player_name"] == "Ann"
    assert json.dumps(entry)


# -- the game page's join code, the die, the results -------------------------------------------------------
def test_a_game_has_a_join_address_and_qr_code_of_its_own(tmp_path):
    with TestClient(create_app(tmp_path, url="http://192.168.1.20:8000/")) as running:
        game = new_game(running)
        join = running.get(f"/api/games/{game['id']}/join").json()
        assert join["url"] == f"http://192.168.1.20:8000/#/game/{game['id']}"
        assert join["qr_svg"].startswith("<svg") and join["url"] in join["qr_svg"]
        assert running.get("/api/games/nope/join").status_code == 404



def test_behind_the_join_code_the_games_address_goes_through_the_join_link(tmp_path):
    from scrawl.guard import JOIN_COOKIE, GuardSettings

    app = create_app(tmp_path, url="http://testserver/join/DRAGON7", guard=GuardSettings(code="DRAGON7", any_host=True))
    with TestClient(app) as running:
        running.cookies.set(JOIN_COOKIE, "DRAGON7")
        game = new_game(running)
        join = running.get(f"/api/games/{game['id']}/join").json()["url"]
        assert join == f"http://testserver/join/DRAGON7#/game/{game['id']}"
        running.cookies.clear()
        answer = running.get(join.split("#")[0], follow_redirects=False)     # a new phone scans the code
        assert answer.status_code == 303 and answer.cookies.get(JOIN_COOKIE) == "DRAGON7"


def test_the_die_roller_rolls_each_round_and_says_what_the_roll_does(client):
    game = new_game(client, ["Ann", "Bo"], "map5")
    assert game["die"]["rolls"] == [] and game["die"]["rounds"] == 7
    assert [face["icon"] for face in game["die"]["faces"]] == ["sun", "dragon", "moon"] * 2
    rolled = client.post(f"/api/games/{game['id']}/rolls")
    assert rolled.status_code == 200
    (first,) = rolled.json()["die"]["rolls"]
    assert first["round"] == 1 and 1 <= first["roll"] <= 6 and first["lines"]
    table = client.put(f"/api/games/{game['id']}/rolls", json={"rolls": [4, 2]}).json()["die"]["rolls"]
    assert [(r["roll"], r["icon"]) for r in table] == [(4, "sun"), (2, "dragon")]
    assert any("Curse Track: fill the bottom half of space" in line for line in table[0]["lines"])
    assert client.delete(f"/api/games/{game['id']}/rolls/last").json()["die"]["rolls"][0]["roll"] == 4
    for _ in range(6):
        client.post(f"/api/games/{game['id']}/rolls")
    full = client.post(f"/api/games/{game['id']}/rolls")
    assert full.status_code == 409 and "all 7 rounds are rolled" in one_line(full)
    bad = client.put(f"/api/games/{game['id']}/rolls", json={"rolls": [7]})
    assert bad.status_code == 422


def test_a_classic_game_has_no_die(client):
    game = new_game(client)
    assert game["die"] is None
    answer = client.post(f"/api/games/{game['id']}/rolls")
    assert answer.status_code == 404 and "without the die" in one_line(answer)


def test_the_results_as_csv_and_as_a_picture(client):
    from PIL import Image

    game = new_game(client)
    for name in ("game7-classic-p1-medium.jpg", "game7-classic-p2-medium.jpg"):
        upload(client, game["id"], name)
    answer = client.get(f"/api/games/{game['id']}/results.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = [line.split(",") for line in answer.text.splitlines()]
    assert rows[0][:5] == ["place", "player", "name", "total", "1 Loot"]
    assert [row[:3] for row in rows[1:]] == [["1", "1", "Ann"], ["2", "2", "Bo"], ["", "3", "Chidi"]]
    document = client.get(f"/api/games/{game['id']}").json()
    assert [int(row[3]) for row in rows[1:3]] == [row["total"] for row in document["scoreboard"]]
    picture = client.get(f"/api/games/{game['id']}/results.png")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(picture.content)).size[0] == 800
    assert client.get("/api/games/nope/results.csv").status_code == 404


def test_a_name_that_looks_like_a_formula_stays_text_in_the_csv(client):
    game = new_game(client, ["=SUM(A1)", "Bo"])
    assert "'=SUM(A1)" in client.get(f"/api/games/{game['id']}/results.csv").text


def test_the_winners_line_names_ties_together():
    from scrawl.api.results import winners_line

    assert winners_line([{"place": 1, "name": "Ann", "total": 11}, {"place": 2, "name": "Bo", "total": 3}]) == \
        "Ann wins with 11 points"
    assert winners_line([{"place": 1, "name": "Ann", "total": 1}, {"place": 1, "name": "Bo", "total": 1}]) == \
        "A tie: Ann and Bo, 1 point each"
    assert winners_line([]) == "No sheet is scored yet"


def test_the_die_rollers_rolls_check_the_marks(client, map6):
    game, sheet = map6
    truth = json.loads((SAMPLES / "game-17-map6-medium.expected.json").read_text())["rolls"]
    played = client.put(f"/api/games/{game['id']}/rolls", json={"rolls": truth}).json()["sheets"][0]
    assert played["total"] == sheet["total"] and played["needs_review"] == []
    begun = client.put(f"/api/games/{game['id']}/rolls", json={"rolls": truth[:3]}).json()["sheets"][0]
    assert begun["needs_review"] == []          # the rounds not rolled yet are unknown, not wrong
    wrong = client.put(f"/api/games/{game['id']}/rolls", json={"rolls": [1] * 7}).json()["sheets"][0]
    assert "diamond_roll" in {entry["rule"] for entry in wrong["needs_review"]}


def test_a_removed_photo_is_deleted_for_good_two_days_later(tmp_path):
    folder = tmp_path / "data"
    with TestClient(create_app(folder)) as running:
        game = new_game(running)
        photo = upload(running, game["id"], "game7-classic-p1-medium.jpg").json()["photos"][0]["id"]
        token = running.delete(f"/api/games/{game['id']}/photos/{photo}").json()["undo"]
    with sqlite3.connect(folder / "scrawl.db") as db:
        db.execute("UPDATE photos SET removed_at = '2026-01-01T20:00:00'")
        db.execute("UPDATE sheets SET removed_at = '2026-01-01T20:00:00'")
    with TestClient(create_app(folder)) as reopened:
        assert reopened.post(f"/api/games/{game['id']}/undo/{token}").status_code == 404
    with sqlite3.connect(folder / "scrawl.db") as db:
        assert db.execute("SELECT COUNT(*) FROM photos").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM sheets").fetchone() == (0,)


def test_a_game_for_sheets_printed_already_takes_their_code(client):
    game = client.post("/api/games", json={"players": ["Ann", "Bo"], "code": " k7qx "}).json()
    assert game["code"] == "K7QX"
    data, name = shot("K7QX")
    answer = upload(client, game["id"], data=data, filename=name)
    assert answer.status_code == 201 and answer.json()["sheets"][0]["name"] == "Ann"
    bad = client.post("/api/games", json={"players": ["Ann"], "code": "K7Q"})
    assert bad.status_code == 422 and one_line(bad).startswith("code: 'K7Q' is not a game code")
