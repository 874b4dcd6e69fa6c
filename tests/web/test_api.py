"""scrawl serve's HTTP API as the page and the phones use it: games, photos, corrections, the scoreboard,
the export, printing, and a clear one-line answer for everything that goes wrong.

Sample game 7 (samples/photos: three players, two JPEGs and an iPhone HEIC) is
played once per module; tests that change a game work on a copy of its data
folder, which is also what a restart sees.
"""
import io
import json
import re
import shutil
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from scrawl.api.common import MAX_PHOTO
from scrawl.web import PAGE_DIR, create_app, server_url

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "photos"
PHOTOS = ["game7-classic-p1-medium.jpg", "game7-classic-p2-medium.jpg", "game7-classic-p3-medium.heic"]
EXPECTED = json.loads((SAMPLES / "game-7-medium.expected.json").read_text())
PLAYERS = ["Ann", "Bo", "Chidi"]


def upload(client, gid, name=None, data=None, filename=None):
    data = data if data is not None else (SAMPLES / name).read_bytes()
    return client.post(f"/api/games/{gid}/photos",
                       files={"photo": (filename or name, data, "application/octet-stream")})


def one_line(response) -> str:
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail and "Traceback" not in detail
    return detail


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A data folder holding sample game 7, its three photos uploaded one by one: (folder, id, answers)."""
    folder = tmp_path_factory.mktemp("played")
    with TestClient(create_app(folder)) as client:
        game = client.post("/api/games", json={"players": PLAYERS}).json()
        answers = [upload(client, game["id"], name) for name in PHOTOS]
    return folder, game["id"], answers


@pytest.fixture
def game(played, tmp_path):
    """A copy of the played game's data folder, to change freely: (client, game id, folder)."""
    folder = tmp_path / "data"
    shutil.copytree(played[0], folder)
    with TestClient(create_app(folder)) as client:
        yield client, played[1], folder


@pytest.fixture
def empty(tmp_path):
    """An app on an empty data folder, and a new game of three players in it: (client, game id)."""
    with TestClient(create_app(tmp_path / "data")) as client:
        yield client, client.post("/api/games", json={"players": PLAYERS}).json()["id"]


# -- a played game -------------------------------------------------------------------------------------
def test_each_photo_gives_its_players_sheet_and_the_scoreboard_has_the_scanners_totals(played):
    _, gid, answers = played
    assert [answer.status_code for answer in answers] == [201, 201, 201]
    assert [len(answer.json()["added"]) for answer in answers] == [1, 1, 1]
    document = answers[-1].json()
    want = {sheet["player"]: sheet["score"]["total"] for sheet in EXPECTED["sheets"]}
    assert {s["player"]: (s["name"], s["total"]) for s in document["sheets"]} == \
           {1: ("Ann", want[1]), 2: ("Bo", want[2]), 3: ("Chidi", want[3])}
    assert [(row["place"], row["name"], row["total"]) for row in document["scoreboard"]] == \
           [(1, "Ann", 11), (2, "Bo", -4), (3, "Chidi", -15)]
    assert [p["name"] for p in document["photos"]] == PHOTOS and all(p["error"] is None for p in document["photos"])
    assert document["errors"] == [] and document["needs_review"] == 0
    assert [p["sheets"] for p in document["photos"]] == [answer.json()["added"] for answer in answers]


def test_traps_are_resolved_between_the_photos_of_a_game(game):
    client, gid, _ = game
    document = client.get(f"/api/games/{gid}").json()
    ann = document["sheets"][0]
    want = EXPECTED["sheets"][0]["trap_hits"]
    assert [(hit["room"], hit["by"], hit["name"]) for hit in ann["trap_hits"]] == \
           [(h["room"], Path(h["by"]).name, n) for h, n in zip(want, ["Chidi", "Bo"])]
    # Without Chidi's sheet, Chidi's Trap in B3 no longer springs on Ann.
    chidi_photo = document["photos"][2]["id"]
    after = client.delete(f"/api/games/{gid}/photos/{chidi_photo}")
    assert after.status_code == 200
    ann_after = after.json()["sheets"][0]
    assert [hit["room"] for hit in ann_after["trap_hits"]] == ["E3"]
    assert ann_after["total"] > ann["total"]
    assert [row["name"] for row in after.json()["scoreboard"]] == ["Ann", "Bo"]


def test_a_sheet_document_has_what_the_page_draws(played):
    document = played[2][-1].json()
    sheet = document["sheets"][0]
    assert re.fullmatch(rf"/api/games/{document['id']}/sheets/{sheet['id']}/overlay\.png\?v=\w+", sheet["overlay"])
    assert sheet["rooms"]["E3"] == {"exits": "NESW", "trap": False, "round": 4, "corrected": False,
                                    "round_corrected": False}
    assert sheet["unusable"] == 1 and sheet["unusable_corrected"] is False
    assert [line["item"] for line in sheet["score"]["lines"]] == list(range(1, 8))
    geometry = sheet["geometry"]
    assert (geometry["px_per_mm"], geometry["width"], geometry["height"]) == (5.0, 1050, 1485)
    rooms = {room["room"]: room for room in geometry["rooms"]}
    assert len(rooms) == 64
    assert rooms["A1"]["options"] == ["", "S", "X"]         # the map's edge north and west, a wall east
    assert rooms["E3"]["options"][0] == "" and "NESW" in rooms["E3"]["options"]


def test_the_overlay_is_the_page_s_size_and_light_enough_for_phones(played):
    from PIL import Image

    sheet = played[2][-1].json()["sheets"][0]
    with TestClient(create_app(played[0])) as client:
        picture = client.get(sheet["overlay"])
    assert picture.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(picture.content))
    assert image.width == sheet["geometry"]["width"] and image.height > sheet["geometry"]["height"]  # + legend
    assert len(picture.content) < 400_000


def test_the_export_is_what_scrawl_scan_prints_and_scrawl_score_reads(game, capsys):
    from games.state import read_game, score_game
    from tests_support import run_cli

    client, gid, _ = game
    response = client.get(f"/api/games/{gid}/export")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="game-{gid}.json"'
    code, out, _ = run_cli(capsys, "scan", "--jobs", "1", "--json", *(SAMPLES / name for name in PHOTOS))
    want = json.loads(out.replace(f"{SAMPLES}/", ""))     # the web's sources are the photos' names
    game_code = client.get(f"/api/games/{gid}").json()["code"]
    for sheet in want["sheets"]:        # the web game knows its code and its players' names
        assert sheet["game"] is None and sheet["name"] is None
        sheet.update(game=game_code, name=PLAYERS[sheet["player"] - 1])
    assert code == 0 and response.json() == want
    sheets, errors = read_game(response.json(), "export")
    assert errors == [] and [result.score.total for result in score_game(sheets)] == [11, -4, -15]


# -- corrections ---------------------------------------------------------------------------------------
def test_a_room_correction_changes_the_total_and_the_overlay_and_a_reset_restores_both(game):
    client, gid, _ = game
    sheet = client.get(f"/api/games/{gid}").json()["sheets"][0]
    base = f"/api/games/{gid}/sheets/{sheet['id']}"
    before = client.get(sheet["overlay"])
    assert before.status_code == 200 and before.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert before.headers["cache-control"] == "no-store"

    corrected = client.put(f"{base}/rooms/E3", json={"reading": ""})
    assert corrected.status_code == 200
    changed = corrected.json()["sheets"][0]
    assert changed["total"] == 14 != sheet["total"]
    assert changed["rooms"]["E3"] == {"exits": "", "trap": False, "round": None, "corrected": True,
                                      "round_corrected": False}
    assert changed["overlay"] != sheet["overlay"]
    assert client.get(changed["overlay"]).content != before.content
    assert "E3" not in client.get(f"/api/games/{gid}/export").json()["sheets"][0]["rooms"]

    trap = client.put(f"{base}/rooms/e3", json={"reading": "x"}).json()["sheets"][0]
    assert trap["rooms"]["E3"]["trap"] is True and trap["total"] != changed["total"]

    reset = client.delete(f"{base}/rooms/E3")
    assert reset.status_code == 200
    restored = reset.json()["sheets"][0]
    assert restored["total"] == sheet["total"] and restored["rooms"]["E3"]["corrected"] is False
    assert restored["overlay"] == sheet["overlay"]
    assert client.get(restored["overlay"]).content == before.content


def test_a_correction_clears_the_scanners_doubt_about_that_room(game):
    client, gid, folder = game
    sheet = client.get(f"/api/games/{gid}").json()["sheets"][1]
    # The scanner was unsure of C2 on this sheet (as it is on harder photos).
    with sqlite3.connect(folder / "scrawl.db") as db:
        raw = json.loads(db.execute("SELECT sheet FROM sheets WHERE id = ?", (sheet["id"],)).fetchone()[0])
        raw["needs_review"] = [{"where": "C2", "rule": "unsure_reading", "why": "faint stroke", "confidence": 0.4}]
        db.execute("UPDATE sheets SET sheet = ? WHERE id = ?", (json.dumps(raw), sheet["id"]))
    doubted = client.get(f"/api/games/{gid}").json()
    assert [entry["where"] for entry in doubted["sheets"][1]["needs_review"]] == ["C2"]
    assert doubted["needs_review"] >= 1
    exits = sheet["rooms"]["C2"]["exits"] if "C2" in sheet["rooms"] else ""
    looked = client.put(f"/api/games/{gid}/sheets/{sheet['id']}/rooms/C2", json={"reading": exits}).json()
    assert looked["sheets"][1]["needs_review"] == []


def test_a_reading_that_is_not_among_the_rooms_options_is_400(game):
    client, gid, _ = game
    sheet = client.get(f"/api/games/{gid}").json()["sheets"][0]
    base = f"/api/games/{gid}/sheets/{sheet['id']}/rooms"
    wall = client.put(f"{base}/A1", json={"reading": "N"})          # A1's north side is the map's edge
    assert wall.status_code == 400
    assert one_line(wall) == '"N" cannot be drawn in A1: it is one of "", "S", "X"'
    item_room = next(room["room"] for room in sheet["geometry"]["rooms"] if "X" not in room["options"])
    assert client.put(f"{base}/{item_room}", json={"reading": "X"}).status_code == 400   # no Trap on an item
    assert client.put(f"{base}/A1", json={"reading": "banana"}).status_code == 400
    assert client.put(f"{base}/A1", json={}).status_code == 422
    assert client.get(f"/api/games/{gid}").json()["sheets"][0]["total"] == sheet["total"]


def test_a_tally_correction(game):
    client, gid, _ = game
    sheet = client.get(f"/api/games/{gid}").json()["sheets"][0]
    tally = f"/api/games/{gid}/sheets/{sheet['id']}/tally"
    corrected = client.put(tally, json={"count": 5}).json()["sheets"][0]
    lost = {line["item"]: line for line in corrected["score"]["lines"]}[6]
    assert corrected["unusable"] == 5 and corrected["unusable_corrected"] is True and lost["count"] == 5
    assert corrected["total"] == sheet["total"] - 8            # 1 -> 5 lost segments, -2 points each
    for count in (-1, 41, "many"):
        assert client.put(tally, json={"count": count}).status_code == 422
    reset = client.delete(tally).json()["sheets"][0]
    assert (reset["unusable"], reset["unusable_corrected"], reset["total"]) == (1, False, sheet["total"])


def test_a_restart_keeps_the_game_its_photos_and_corrections(game):
    client, gid, folder = game
    sheet = client.get(f"/api/games/{gid}").json()["sheets"][0]
    client.put(f"/api/games/{gid}/sheets/{sheet['id']}/rooms/E3", json={"reading": ""})
    before = client.put(f"/api/games/{gid}/sheets/{sheet['id']}/tally", json={"count": 3}).json()
    overlay = client.get(before["sheets"][0]["overlay"]).content

    with TestClient(create_app(folder)) as restarted:
        after = restarted.get(f"/api/games/{gid}").json()
        assert after == before
        assert after["sheets"][0]["rooms"]["E3"]["corrected"] and after["sheets"][0]["unusable"] == 3
        assert [photo["name"] for photo in after["photos"]] == PHOTOS
        assert restarted.get(after["sheets"][0]["overlay"]).content == overlay
        assert [g["id"] for g in restarted.get("/api/games").json()["games"]] == [gid]


# -- uploads that go wrong -------------------------------------------------------------------------------
def test_an_upload_over_25_mb_is_413(empty):
    client, gid = empty
    big = b"\xff\xd8\xff" + bytes(26 * 1024 * 1024)
    answer = upload(client, gid, data=big, filename="huge.jpg")
    assert answer.status_code == 413 and "25 MB" in one_line(answer)
    just_over = upload(client, gid, data=b"\xff\xd8\xff" + bytes(MAX_PHOTO), filename="big.jpg")   # within the
    assert just_over.status_code == 413 and "25 MB" in one_line(just_over)            # multipart allowance

    def chunks():               # no Content-Length: the bytes are counted as they come
        yield b"--x\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n\r\n\xff\xd8\xff"
        for _ in range(27):
            yield bytes(1024 * 1024)
    streamed = client.post(f"/api/games/{gid}/photos", content=chunks(),
                           headers={"content-type": "multipart/form-data; boundary=x"})
    assert streamed.status_code == 413 and "25 MB" in one_line(streamed)
    assert client.get(f"/api/games/{gid}").json()["photos"] == []


def test_a_file_that_is_not_an_image_is_415_whatever_its_name(empty):
    client, gid = empty
    answer = upload(client, gid, data=b"Ann 11, Bo -4, Chidi -15\n", filename="scores.jpg")
    assert answer.status_code == 415
    assert one_line(answer) == "not a photo: send a JPEG, PNG, WebP, HEIC or PDF of the sheet"
    assert client.get(f"/api/games/{gid}").json()["photos"] == []


def test_a_broken_photo_is_422_with_the_scanners_reason_and_nothing_of_it_is_kept(empty, tmp_path):
    client, gid = empty
    database = tmp_path / "data" / "scrawl.db"
    photos_kept = lambda: __import__("sqlite3").connect(database).execute("SELECT COUNT(*) FROM photos").fetchone()[0]
    cut = (SAMPLES / PHOTOS[0]).read_bytes()[:200_000]
    body = (b'--x\r\nContent-Disposition: form-data; name="photo"; filename="../../etc/Ann\x01\'s sheet.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n" + cut + b"\r\n--x--\r\n")
    answer = client.post(f"/api/games/{gid}/photos", content=body,
                         headers={"content-type": "multipart/form-data; boundary=x"})
    assert answer.status_code == 422
    assert one_line(answer) == ("truncated or damaged image (the file ends before the picture does): "
                                "copy the photo again")
    document = client.get(f"/api/games/{gid}").json()
    assert document["photos"] == [] and document["errors"] == []      # the phone that sent it was told
    assert document["sheets"] == [] and document["scoreboard"] == []
    assert photos_kept() == 0           # a stranger's junk cannot fill the disk


def test_a_photo_without_a_sheet_is_422(empty):
    import cv2

    client, gid = empty
    ok, png = cv2.imencode(".png", np.full((600, 800, 3), 200, np.uint8))
    answer = upload(client, gid, data=png.tobytes(), filename="table.png")
    assert answer.status_code == 422 and "no sheet" in one_line(answer)


def test_a_pdf_of_scanned_sheets_gives_a_sheet_per_page(empty):
    client, gid = empty
    pdf = client.get("/print/sheets.pdf?map=classic&players=2&paper=a4").content
    answer = upload(client, gid, data=pdf, filename="scans.pdf")
    assert answer.status_code == 201
    document = answer.json()
    assert [(s["player"], s["name"], s["source"]) for s in document["sheets"]] == \
           [(1, "Ann", "scans.pdf#page=1"), (2, "Bo", "scans.pdf#page=2")]
    assert document["photos"][0]["sheets"] == answer.json()["added"]


def test_several_phones_uploading_at_once_all_get_their_sheets(tmp_path):
    with TestClient(create_app(tmp_path)) as client:
        gid = client.post("/api/games", json={"players": PLAYERS}).json()["id"]
        names = PHOTOS + [PHOTOS[1]]
        with ThreadPoolExecutor(len(names)) as pool:        # every iPhone calls its photos image.jpg
            answers = list(pool.map(lambda name: upload(client, gid, name, filename="image.jpg"), names))
        assert [answer.status_code for answer in answers] == [201] * 4
        document = client.get(f"/api/games/{gid}").json()
    added = [sid for answer in answers for sid in answer.json()["added"]]
    assert sorted(added) == sorted(sheet["id"] for sheet in document["sheets"]) and len(set(added)) == 4
    assert sorted(s["player"] for s in document["sheets"]) == [1, 2, 2, 3]
    assert sorted(p["name"] for p in document["photos"]) == \
           ["image (2).jpg", "image (3).jpg", "image (4).jpg", "image.jpg"]


# -- games -----------------------------------------------------------------------------------------------
def test_a_new_game_and_the_list_of_games(tmp_path):
    with TestClient(create_app(tmp_path)) as client:
        first = client.post("/api/games", json={"players": ["  Ann ", "Bo"], "map": "classic", "paper": "letter"})
        assert first.status_code == 201
        game = first.json()
        assert (game["players"], game["map"], game["paper"]) == (["Ann", "Bo"], {"id": "classic", "seed": None}, "letter")
        assert game["print"]["sheets"] == f"/print/games/{game['id']}/sheets.pdf"
        assert game["print"]["decks"]["traps"] == "/print/deck/traps.pdf?paper=letter"
        random = client.post("/api/games", json={"players": ["Cy"], "map": "random"}).json()
        assert random["map"]["id"] == "random" and isinstance(random["map"]["seed"], int)
        seeded = client.post("/api/games", json={"players": ["Di"], "map": "random", "seed": 1234}).json()
        assert seeded["map"]["seed"] == 1234
        listed = client.get("/api/games").json()["games"]
        assert [g["id"] for g in listed] == [seeded["id"], random["id"], game["id"]]
        assert listed[2] == {"id": game["id"], "created": game["created"], "players": ["Ann", "Bo"],
                             "map": {"id": "classic", "seed": None}, "sheets": 0, "kind": "map"}
        assert client.get(f"/api/games/{game['id']}").json() == game


@pytest.mark.parametrize("body, detail", [
    ({"players": []}, "players: a game has 1 to 6 players, not 0"),
    ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "players: a game has 1 to 6 players, not 7"),
    ({"players": ["Ann", "   "]}, "players: player 2 has no name"),
    ({"players": ["x" * 25]}, "players: player 1's name is 25 characters long; at most 24"),
    ({"players": ["Ann", "ann"]}, "players: two players are called Ann: give them names the scoreboard can tell apart"),
    ({"players": ["Ann"], "map": "/etc/passwd"}, "map: unknown map '/etc/passwd': choose classic, map1, map2, map3, map4, map5, map6 or random"),
    ({"players": ["Ann"], "paper": "a3"}, "paper: unknown paper 'a3': choose a4 or letter"),
    ({"map": "classic"}, "players: missing"),
])
def test_bad_game_bodies_are_422_with_a_readable_line(empty, body, detail):
    client, _ = empty
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422 and one_line(answer) == detail


def test_a_body_that_is_not_json_is_422(empty):
    client, _ = empty
    answer = client.post("/api/games", content=b"{players: Ann", headers={"content-type": "application/json"})
    assert answer.status_code == 422 and one_line(answer) == "the body is not valid JSON"


def test_unknown_games_sheets_photos_and_rooms_are_404(game):
    client, gid, _ = game
    sheet = client.get(f"/api/games/{gid}").json()["sheets"][0]["id"]
    for method, path, body, detail in [
        ("GET", "/api/games/nope", None, "no such game"),
        ("GET", "/api/games/nope/export", None, "no such game"),
        ("DELETE", f"/api/games/{gid}/photos/nope", None, "no such photo"),
        ("DELETE", f"/api/games/nope/photos/{sheet}", None, "no such game"),
        ("PUT", f"/api/games/{gid}/sheets/nope/rooms/A1", {"reading": ""}, "no such sheet"),
        ("PUT", f"/api/games/nope/sheets/{sheet}/rooms/A1", {"reading": ""}, "no such game"),
        ("PUT", f"/api/games/{gid}/sheets/{sheet}/rooms/Z9", {"reading": ""}, "no room Z9 on this sheet's map"),
        ("DELETE", f"/api/games/{gid}/sheets/nope/rooms/A1", None, "no such sheet"),
        ("PUT", f"/api/games/{gid}/sheets/nope/tally", {"count": 1}, "no such sheet"),
        ("GET", f"/api/games/{gid}/sheets/nope/overlay.png", None, "no such sheet"),
    ]:
        answer = client.request(method, path, json=body)
        assert (answer.status_code, one_line(answer)) == (404, detail), path
    assert upload(client, "nope", PHOTOS[0]).status_code == 404


def test_deleting_a_photo_for_a_retake(game):
    client, gid, _ = game
    document = client.get(f"/api/games/{gid}").json()
    answer = client.delete(f"/api/games/{gid}/photos/{document['photos'][1]['id']}")
    assert answer.status_code == 200
    assert [s["name"] for s in answer.json()["sheets"]] == ["Ann", "Chidi"]
    assert client.delete(f"/api/games/{gid}/photos/{document['photos'][1]['id']}").status_code == 404
    again = upload(client, gid, PHOTOS[1])
    assert again.status_code == 201 and [s["name"] for s in again.json()["sheets"]] == ["Ann", "Chidi", "Bo"]
    assert [row["total"] for row in again.json()["scoreboard"]] == [11, -4, -15]


# -- the server, the page, printing ----------------------------------------------------------------------
def test_the_server_gives_its_address_and_a_qr_code_of_it(tmp_path):
    import cv2

    with TestClient(create_app(tmp_path, url="http://192.168.1.20:8000/")) as client:
        answer = client.get("/api/server").json()
    assert answer["url"] == "http://192.168.1.20:8000/"
    svg = answer["qr_svg"]
    assert svg.startswith("<svg") and "<image" not in svg and "base64" not in svg
    # Draw the SVG's squares and read them back as a QR code.
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    modules = np.full((size, size), 255, np.uint8)
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1", svg):
        modules[int(y), int(x):int(x) + int(w)] = 0
    picture = cv2.resize(modules, (size * 8, size * 8), interpolation=cv2.INTER_NEAREST)
    assert cv2.QRCodeDetector().detectAndDecode(picture)[0] == "http://192.168.1.20:8000/"


def test_without_an_address_given_the_server_answers_with_the_one_asked(empty):
    client, _ = empty
    assert client.get("/api/server").json()["url"] == "http://testserver/"


def test_the_address_on_every_interface_is_the_network_one():
    assert server_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    address = server_url("0.0.0.0", 8080)
    assert re.fullmatch(r"http://\d+\.\d+\.\d+\.\d+:8080/", address) and "0.0.0.0" not in address


def test_maps(empty):
    client, _ = empty
    answer = client.get("/api/maps").json()
    assert [(m["id"], m["name"]) for m in answer["maps"]] == [
        ("classic", "The Sunken Keep"), ("map1", "Map 1: The Drowned Cellars"), ("map2", "Map 2: The Glittering Warren"),
        ("map3", "Map 3: The Bone Vault"), ("map4", "Map 4: The Lantern Halls"), ("map5", "Map 5: The Emerald Rot"),
        ("map6", "Map 6: The Rune Maze"), ("random", "A random map")]
    assert answer["papers"] == ["a4", "letter"]
    # Each map says what it adds to the one before (the start screen shows it under the name).
    assert [m["note"] for m in answer["maps"]] == [
        "the classic map", "a plain map", "adds caves, Diamonds (with the die)",
        "adds Magic Doors, the Skull (with the die)", "the same elements, another dungeon (with the die)",
        "adds Emeralds (with the die)", "adds Rune Gates (with the die)", "new every seed"]


def test_openapi_lists_every_route_and_no_page_needs_the_internet(empty):
    client, _ = empty
    assert client.get("/docs").status_code == 404        # Swagger's page loads its scripts from a CDN
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) >= {"/api/server", "/api/maps", "/api/games", "/api/games/{gid}", "/api/games/{gid}/photos",
                          "/api/games/{gid}/photos/{pid}", "/api/games/{gid}/sheets/{sid}/rooms/{room}",
                          "/api/games/{gid}/sheets/{sid}/tally", "/api/games/{gid}/sheets/{sid}/overlay.png",
                          "/api/games/{gid}/export", "/print/sheets.pdf", "/print/deck/{name}.pdf"}


def test_the_page_is_served(empty):
    if not (PAGE_DIR / "index.html").is_file():
        pytest.skip("the page is not written yet")
    client, _ = empty
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.text == (PAGE_DIR / "index.html").read_text(encoding="utf-8")
    assert client.get("/page/index.html").status_code == 200
    assert client.get("/page/..%2Fstore.py").status_code == 404
    assert client.get("/page/nothing.js").status_code == 404


def test_print_links_give_pdfs(tmp_path):
    from io import BytesIO

    from pypdf import PdfReader

    with TestClient(create_app(tmp_path)) as client:
        game = client.post("/api/games", json={"players": PLAYERS, "map": "random", "seed": 77}).json()
        sheets = client.get(game["print"]["sheets"])
        assert sheets.status_code == 200 and sheets.content[:5] == b"%PDF-"
        assert sheets.headers["content-type"] == "application/pdf" and f"sheet-random-77-a4-game-{game['code']}.pdf" in \
            sheets.headers["content-disposition"]
        assert len(PdfReader(BytesIO(sheets.content)).pages) == 3
        for link in game["print"]["decks"].values():
            deck = client.get(link)
            assert deck.status_code == 200 and deck.content[:5] == b"%PDF-"
        fresh = client.get("/print/sheets.pdf?map=random&seed=&players=1&paper=letter")
        assert fresh.status_code == 200 and re.search(r"sheet-random-\d+-letter\.pdf",
                                                      fresh.headers["content-disposition"])
        for bad, status in [("/print/sheets.pdf?map=../../etc/passwd", 422), ("/print/sheets.pdf?players=0", 422),
                            ("/print/sheets.pdf?map=random&seed=ten", 422), ("/print/sheets.pdf?paper=a3", 422),
                            ("/print/deck/jokers.pdf", 404), ("/print/deck/traps.pdf?paper=a5", 422)]:
            answer = client.get(bad)
            assert answer.status_code == status, bad
            one_line(answer)


def test_an_expansion_map_game_is_played_and_scored_with_its_marks(tmp_path):
    """A game on map 6: its photos give the scanner's totals, items 8-10 included, and the export carries
    the marks read."""
    expected = json.loads((SAMPLES / "game-17-map6-medium.expected.json").read_text())
    names = ["game17-map6-p1-medium.webp", "game17-map6-p2-medium.jpg"]
    with TestClient(create_app(tmp_path / "data")) as client:
        gid = client.post("/api/games", json={"players": ["Ann", "Bo"], "map": "map6"}).json()["id"]
        answers = [upload(client, gid, name) for name in names]
        assert [answer.status_code for answer in answers] == [201, 201]
        want = {sheet["player"]: sheet["score"]["total"] for sheet in expected["sheets"]}
        assert {s["player"]: s["total"] for s in answers[-1].json()["sheets"]} == want
        export = client.get(f"/api/games/{gid}/export").json()
    for sheet in export["sheets"]:
        truth = next(s for s in expected["sheets"] if s["player"] == sheet["player"])
        assert sheet["marks"]["diamonds"] == truth["marks"]["diamonds"]
        assert [line["item"] for line in sheet["score"]["lines"]] == list(range(1, 11))
