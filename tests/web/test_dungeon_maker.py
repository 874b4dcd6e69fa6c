"""A Dungeon Maker game on the game-night page (issue 21), through scrawl serve's HTTP API: each player's
Dungeon Maker sheet photographed and read, its score from the Scoring chart, what was read corrected tile
by tile (and the entrance, the stairs, the record), the hero phase played from a seed the page shows for a
sheet whose Souls and hearts were not ticked, the standings with a winner, and sheets of another game or
kind refused with one line.

The sheets are drawn here plainly on the printed page (ticks and path lines at known places, as
``tests/scanner/test_maker_scan.py`` draws them), so what the page must show is known apart from the reader.
"""
import pypdfium2 as pdfium
import pytest
from fastapi.testclient import TestClient

from scrawl.web import create_app
from tests_support import MakerSheet

SEED = 2


class Sheet(MakerSheet):
    """A printed Dungeon Maker page of one player of loot seed ``seed`` (``SEED``), and a pen."""

    def __init__(self, seed: int = SEED, player: int = 1, paper: str = "a4"):
        super().__init__(seed, paper, player)

    def jpeg(self) -> bytes:
        return self.encoded(".jpg")


def free_tiles(sheet: Sheet) -> set[str]:
    return {tile.id for tile in sheet.layout.tiles if not tile.items}


def small_dungeon(sheet: Sheet, souls: int = 0, hearts: int = 0) -> None:
    """Entrance A1:N, a path A1-B1-C1 with a Spike trap on B1 and the stairs on C1, a Slime in C2 beside it and
    an Acid Pond in B2; the Reroll spell got; Souls and hearts as given; seven rounds."""
    assert free_tiles(sheet) >= {"A1", "B1", "C1", "B2", "C2"}
    sheet.build("A1", "path")
    sheet.build("B1", "path", "spikes")
    sheet.build("C1", "path", "stairs")
    sheet.build("C2", "slime")
    sheet.build("B2", "acid")
    sheet.link("A1", "B1")
    sheet.link("B1", "C1")
    sheet.out("A1", "N")
    sheet.boxes("spell_reroll", *(f"soul_{n}" for n in range(1, souls + 1)),
                *(f"dungeon_hp_{n}" for n in range(1, hearts + 1)), *(f"round_{n}" for n in range(1, 8)))


@pytest.fixture(scope="module")
def photos() -> dict:
    """Ann's sheet (player 1) with its hero phase ticked (two Souls, one heart: 10 points), Bob's (player 2)
    with the same dungeon and no hero phase (building 6 points so far), and Cy's (player 3) with no stairs."""
    ann, bob, cy = Sheet(player=1), Sheet(player=2), Sheet(player=3)
    small_dungeon(ann, souls=2, hearts=1)
    small_dungeon(bob)
    cy.build("A1", "path")
    cy.out("A1", "N")
    cy.boxes("spell_reroll", "round_1")
    return {"ann": ann.jpeg(), "bob": bob.jpeg(), "cy": cy.jpeg()}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "data")) as running:
        yield running


def one_line(response) -> str:
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail and "Traceback" not in detail
    return detail


def upload(client, gid, data, name="sheet.jpg"):
    return client.post(f"/api/games/{gid}/photos", files={"photo": (name, data, "image/jpeg")})


def maker_game(client, players=("Ann", "Bob"), seed=SEED) -> dict:
    answer = client.post("/api/games", json={"players": list(players), "kind": "maker", "seed": seed})
    assert answer.status_code == 201
    return answer.json()


@pytest.fixture
def played(client, photos) -> dict:
    game = maker_game(client)
    for name in ("ann", "bob"):
        assert upload(client, game["id"], photos[name], f"{name}.jpg").status_code == 201
    return client.get(f"/api/games/{game['id']}").json()


def sheet_of(doc: dict, name: str) -> dict:
    return next(sheet for sheet in doc["sheets"] if sheet["name"] == name)


def tile(sheet: dict, name: str) -> dict:
    return next(t for t in sheet["tiles"] if t["tile"] == name)


def test_each_sheet_is_read_and_scored_by_its_chart(played):
    ann = sheet_of(played, "Ann")
    assert (tile(ann, "A1")["path"], tile(ann, "A1")["entrance"]) == ("NE", "N")
    assert (tile(ann, "B1")["path"], tile(ann, "B1")["on"]) == ("EW", "spikes")
    assert tile(ann, "C1")["stairs"] and tile(ann, "C2")["room"] == "slime" and tile(ann, "B2")["acid"]
    assert (ann["entrance"], ann["stairs"], ann["needs_review"]) == ("A1:N", "C1", [])
    # 20 Coin - 3 paths - trap 2 - slime 3 - pond 2 = 10 left (2 points); slime 1, trap 1, pond 1, one spell
    # unused 1: building 6; 2 Souls +6, one heart -2.
    assert (ann["score"]["building"], ann["total"], ann["final"]) == (6, 10, True)
    assert {line["what"]: line["points"] for line in ann["score"]["lines"]}["Traps on a path"] == 1
    assert ann["heroes"]["state"] == "on_sheet"
    bob = sheet_of(played, "Bob")
    assert (bob["total"], bob["final"], bob["heroes"]["state"]) == (6, False, "ready")
    assert played["kind"] == "maker" and played["winner"]["done"] is False
    assert "Play the heroes for Bob" in played["winner"]["line"]


def test_playing_the_heroes_gives_the_final_score_and_a_winner(client, played):
    from games.heroes import entry_dungeon, final_score, run_heroes, seeded_dice
    from games.maker import load_maker

    gid, bob = played["id"], sheet_of(played, "Bob")
    doc = client.post(f"/api/games/{gid}/sheets/{bob['id']}/heroes", json={"seed": 77}).json()
    heroes = sheet_of(doc, "Bob")["heroes"]
    maker = load_maker()
    dungeon = entry_dungeon({"dungeon": {"format": "scrawl.dungeon/1", "entrance": "A1:N", "stairs": "C1",
                                         "coins": 10, "spells": 1,
                                         "tiles": {"A1": {"path": "NE"}, "B1": {"path": "EW", "on": "spikes"},
                                                   "C1": {"path": "W"}, "B2": {"acid": True},
                                                   "C2": {"room": "slime"}}}}, maker)
    expected = final_score(dungeon, maker, run_heroes(dungeon, maker, seeded_dice(77)))
    assert heroes["state"] == "played" and heroes["seed"] == 77 and heroes["route"] == ["A1", "B1", "C1"]
    assert heroes["final"] == expected and sheet_of(doc, "Bob")["total"] == expected["total"]
    assert sum(h["fate"] == "died" for h in heroes["heroes"]) == expected["souls"]
    assert doc["winner"]["done"] is True
    best = max(10, expected["total"])
    assert doc["winner"]["winners"] == [name for name, total in (("Ann", 10), ("Bob", expected["total"]))
                                        if total == best]
    assert doc["scoreboard"][0]["total"] == best
    # Again with new dice, then the seed shown replays the same phase.
    again = client.post(f"/api/games/{gid}/sheets/{bob['id']}/heroes").json()
    assert isinstance(sheet_of(again, "Bob")["heroes"]["seed"], int)
    replay = client.post(f"/api/games/{gid}/sheets/{bob['id']}/heroes", json={"seed": 77}).json()
    assert sheet_of(replay, "Bob")["heroes"] == heroes


def test_a_sheet_with_its_hero_phase_ticked_or_no_stairs_is_not_played(client, played, photos):
    gid = played["id"]
    ann = sheet_of(played, "Ann")
    answer = client.post(f"/api/games/{gid}/sheets/{ann['id']}/heroes")
    assert answer.status_code == 422 and "Souls" in one_line(answer)
    three = maker_game(client, ("Ann", "Bob", "Cy"))
    cy = sheet_of(upload(client, three["id"], photos["cy"]).json(), "Cy")
    assert cy["heroes"]["state"] == "blocked" and "no Exit stairs" in cy["heroes"]["why"]
    assert any(entry["rule"] == "no_stairs" for entry in cy["needs_review"])
    answer = client.post(f"/api/games/{three['id']}/sheets/{cy['id']}/heroes")
    assert answer.status_code == 422 and "stairs" in one_line(answer)


def test_a_sheet_the_heroes_cannot_walk_is_scored_as_it_is_when_the_table_says_so(client, photos):
    """Cy's dungeon has no stairs: the heroes cannot come, and the game would wait for ever. "Score without
    heroes" makes the building score final; undo puts the sheet back to waiting."""
    game = maker_game(client, ("Ann", "Bob", "Cy"))
    gid = game["id"]
    for name in ("ann", "bob"):
        upload(client, gid, photos[name], f"{name}.jpg")
    cy = sheet_of(upload(client, gid, photos["cy"], "cy.jpg").json(), "Cy")
    bob = sheet_of(client.get(f"/api/games/{gid}").json(), "Bob")
    # A table out of time may leave out the heroes of a dungeon they could walk, too.
    bob = sheet_of(client.post(f"/api/games/{gid}/sheets/{bob['id']}/heroes/skip").json(), "Bob")
    before = client.get(f"/api/games/{gid}").json()
    assert before["winner"]["done"] is False and "Play the heroes for Cy" in before["winner"]["line"]
    doc = client.post(f"/api/games/{gid}/sheets/{cy['id']}/heroes/skip").json()
    skipped = sheet_of(doc, "Cy")
    assert skipped["heroes"]["state"] == "skipped" and skipped["final"] is True
    assert skipped["total"] == cy["score"]["total"] == cy["score"]["building"]
    assert (bob["total"], bob["final"]) == (6, True)
    assert doc["winner"]["done"] is True and doc["winner"]["winners"] == ["Ann"]
    undone = client.delete(f"/api/games/{gid}/sheets/{cy['id']}/heroes").json()
    assert sheet_of(undone, "Cy")["heroes"]["state"] == "blocked" and undone["winner"]["done"] is False
    ann = sheet_of(doc, "Ann")
    answer = client.post(f"/api/games/{gid}/sheets/{ann['id']}/heroes/skip")
    assert answer.status_code == 422 and "Souls" in one_line(answer)


def test_the_overlay_shows_the_score_after_the_heroes_played_on_the_page(client, played, monkeypatch):
    import scanner.maker_overlay as overlay

    titles = []
    monkeypatch.setattr(overlay, "_text", lambda canvas, text, *args, **kwargs: titles.append(text))
    gid, bob = played["id"], sheet_of(played, "Bob")
    assert client.get(bob["overlay"]).status_code == 200
    assert any("score 6  (hero phase not on the sheet)" in text for text in titles)
    titles.clear()
    doc = client.post(f"/api/games/{gid}/sheets/{bob['id']}/heroes", json={"seed": 77}).json()
    bob = sheet_of(doc, "Bob")
    assert client.get(bob["overlay"]).status_code == 200
    assert any(f"score {bob['total']}  (heroes played on the page, dice 77)" in text for text in titles)


def test_a_tile_corrected_changes_the_score_and_reset_puts_it_back(client, played):
    gid, ann = played["id"], sheet_of(played, "Ann")
    base = f"/api/games/{gid}/sheets/{ann['id']}"
    # A Ghost said to be in C2 instead of the Slime: 3 points beside the path, not 1.
    fixed = client.put(f"{base}/tiles/C2", json={"room": "ghost"})
    assert fixed.status_code == 200
    now = sheet_of(fixed.json(), "Ann")
    assert tile(now, "C2")["room"] == "ghost" and tile(now, "C2")["corrected"] and now["corrections"] == 1
    # The Ghost costs 1 Coin more than the Slime: 9 Coin left is 1 point, not 2; the Ghost scores 2 more.
    assert now["score"]["building"] == ann["score"]["building"] + 2 - 1
    back = client.delete(f"{base}/tiles/C2").json()
    assert sheet_of(back, "Ann")["score"] == ann["score"] and sheet_of(back, "Ann")["corrections"] == 0


def test_the_entrance_stairs_and_record_corrected(client, played):
    gid, bob = played["id"], sheet_of(played, "Bob")
    base = f"/api/games/{gid}/sheets/{bob['id']}"
    gone = sheet_of(client.put(f"{base}/places/stairs", json={"at": None}).json(), "Bob")
    assert gone["stairs"] is None and gone["heroes"]["state"] == "blocked"
    moved = sheet_of(client.put(f"{base}/places/stairs", json={"at": "b1"}).json(), "Bob")
    assert moved["stairs"] == "B1" and tile(moved, "B1")["stairs"] and moved["heroes"]["state"] == "ready"
    ticked = sheet_of(client.put(f"{base}/record", json={"souls": 3, "hearts": 2}).json(), "Bob")
    assert ticked["record"]["souls"] == 3 and ticked["heroes"]["state"] == "on_sheet"
    assert ticked["total"] == bob["score"]["building"] + 3 * 3 - 2 * 2 and ticked["final"]
    entrance = sheet_of(client.put(f"{base}/places/entrance", json={"at": "A1:W"}).json(), "Bob")
    assert entrance["entrance"] == "A1:W"
    assert {entry["rule"] for entry in entrance["needs_review"]} >= {"entrance_unlinked"}
    for path in ("places/entrance", "places/stairs", "record"):
        assert client.delete(f"{base}/{path}").status_code == 200
    assert sheet_of(client.get(f"/api/games/{gid}").json(), "Bob")["score"] == bob["score"]


def test_a_doubt_the_correction_settles_leaves_the_list(client, played):
    gid, ann = played["id"], sheet_of(played, "Ann")
    base = f"/api/games/{gid}/sheets/{ann['id']}"
    # A1 said to hold a bridge path with no pond under it: a building rule broken, named under its tile and
    # numbered as on the picture; the pond said to be there too, and the entry leaves the list.
    doc = client.put(f"{base}/tiles/A1", json={"path": "NE", "bridge": True}).json()
    review = sheet_of(doc, "Ann")["needs_review"]
    assert [(entry["number"], entry["where"], entry["rule"]) for entry in review] == [(1, "A1", "bridge_off_acid")]
    assert tile(sheet_of(doc, "Ann"), "A1")["review"] == [1]
    settled = client.put(f"{base}/tiles/A1", json={"path": "NE", "bridge": True, "acid": True}).json()
    assert sheet_of(settled, "Ann")["needs_review"] == []


@pytest.mark.parametrize("path, body, words", [
    ("tiles/C3", {"path": "NX"}, "not a set of sides"),
    ("tiles/C3", {"bridge": True}, "a bridge path links sides"),
    ("tiles/C3", {"room": "dragon"}, "not a monster room"),
    ("tiles/C3", {"path": "NS", "on": "slime"}, "not built on a path"),
    ("places/entrance", {"at": "C3:N"}, "comes in from outside at a corner"),
    ("places/stairs", {"at": "G9"}, "is not a tile"),
    ("record", {"souls": 6}, "at most 5"),
    ("record", {"spells_got": ["fireball"]}, "not a spell"),
    ("record", {}, "at least one count"),
    ("record", {"gems": -1}, "gems"),
])
def test_an_impossible_correction_is_one_line_and_changes_nothing(client, played, path, body, words):
    base = f"/api/games/{played['id']}/sheets/{played['sheets'][0]['id']}"
    answer = client.put(f"{base}/{path}", json=body)
    assert answer.status_code == 422 and words in one_line(answer)
    assert client.get(f"/api/games/{played['id']}").json()["sheets"] == played["sheets"]


def test_tiles_places_and_sheets_that_are_not_there_are_404(client, played):
    base = f"/api/games/{played['id']}/sheets/{played['sheets'][0]['id']}"
    assert client.put(f"{base}/tiles/G7", json={}).status_code == 404
    assert client.put(f"{base}/places/attic", json={"at": None}).status_code == 404
    assert "Dungeon Maker sheet" in one_line(client.put(f"{base}/rooms/C4", json={"reading": "NS"}))
    assert "Dungeon Maker" in one_line(client.post(f"/api/games/{played['id']}/rolls"))
    mapgame = client.post("/api/games", json={"players": ["Ann"]}).json()
    answer = client.post(f"/api/games/{mapgame['id']}/sheets/x/heroes")
    assert answer.status_code == 404 and "not a Dungeon Maker game" in one_line(answer)


def test_sheets_of_another_kind_or_loot_seed_are_refused_and_not_kept(client, photos):
    from photographer import make_game_shots

    game = maker_game(client)
    mapshot = make_game_shots(5, players=1)[0]
    answer = upload(client, game["id"], mapshot.data, "map.jpg")
    assert answer.status_code == 422 and "dungeon map sheet" in one_line(answer)
    other = maker_game(client, seed=SEED + 1)
    answer = upload(client, other["id"], photos["ann"])
    assert answer.status_code == 422 and f"loot seed {SEED}" in one_line(answer)
    answer = upload(client, game["id"], photos["cy"])          # page 3 in a game of two
    assert answer.status_code == 422 and "2 players" in one_line(answer)
    mapgame = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json()
    answer = upload(client, mapgame["id"], photos["ann"])
    assert answer.status_code == 422 and "Dungeon Maker sheet" in one_line(answer)
    for gid in (game["id"], other["id"], mapgame["id"]):
        assert client.get(f"/api/games/{gid}").json()["photos"] == []


def test_the_overlay_print_and_export_of_a_maker_game(client, played):
    picture = client.get(played["sheets"][0]["overlay"])
    assert picture.status_code == 200 and picture.content[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = client.get(played["print"]["sheets"])
    assert pdf.status_code == 200 and pdf.content[:5] == b"%PDF-"
    assert len(pdfium.PdfDocument(pdf.content)) == 2
    export = client.get(f"/api/games/{played['id']}/export").json()
    assert [entry["name"] for entry in export["dungeons"]] == ["Ann", "Bob"]
    assert export["dungeons"][0]["score"]["total"] == 10


def test_the_results_of_a_maker_game_as_csv_and_a_picture(client, played):
    import csv
    import io

    from PIL import Image

    gid, bob = played["id"], sheet_of(played, "Bob")
    answer = client.get(f"/api/games/{gid}/results.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert [(r["place"], r["name"], r["total"], r["final"], r["heroes"]) for r in rows] == \
        [("1", "Ann", "10", "yes", "on sheet"), ("2", "Bob", "6", "no", "ready")]
    assert (rows[0]["building"], rows[0]["Souls"], rows[0]["Souls points"], rows[0]["dungeon HP points"]) == \
        ("6", "2", "6", "-2")
    assert rows[0]["Traps on a path"] == "1"
    doc = client.post(f"/api/games/{gid}/sheets/{bob['id']}/heroes", json={"seed": 77}).json()
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/games/{gid}/results.csv").text)))
    played_bob = next(r for r in rows if r["name"] == "Bob")
    assert (played_bob["total"], played_bob["final"], played_bob["heroes"]) == \
        (str(sheet_of(doc, "Bob")["total"]), "yes", "played")
    assert played_bob["Souls"] == str(sheet_of(doc, "Bob")["heroes"]["final"]["souls"])
    picture = client.get(f"/api/games/{gid}/results.png")
    assert picture.status_code == 200 and Image.open(io.BytesIO(picture.content)).size[0] == 800


def test_a_retake_keeps_the_corrections_the_new_photo_still_reads_otherwise(client, played, photos):
    gid, ann = played["id"], sheet_of(played, "Ann")
    client.put(f"/api/games/{gid}/sheets/{ann['id']}/tiles/C2", json={"room": "ghost"})
    client.put(f"/api/games/{gid}/sheets/{ann['id']}/tiles/A1", json={"path": "NE"})    # as read: not carried
    retaken = client.post(f"/api/games/{gid}/photos?replaces={ann['id']}",
                          files={"photo": ("again.jpg", photos["ann"], "image/jpeg")}).json()
    new = sheet_of(retaken, "Ann")
    assert new["id"] != ann["id"] and retaken["undo"]
    assert tile(new, "C2")["room"] == "ghost" and new["corrections"] == 1


@pytest.mark.parametrize("body, words", [
    ({"players": ["Ann"], "kind": "maker"}, "2 to 6 players"),
    ({"players": list("ABCDEFG"), "kind": "maker"}, "1 to 6 players"),
])
def test_a_maker_game_has_two_to_six_players(client, body, words):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422 and words in one_line(answer)
