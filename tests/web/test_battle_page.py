"""A monster battle on the game-night page (issue 21), through scrawl serve's HTTP API: two players' monster
record sheets photographed, each roster read as drawn, what was read corrected row by row and pool by
pool, the battle played from a seed (again with new dice) with each side's odds, and sheets of the wrong
kind of game refused with a line saying where they go.

The photos are made by the synthetic photographer; what the page must show is worked out apart from it
(the rosters as drawn, the battle as ``games.battle`` plays those rosters).
"""
import pytest
from fastapi.testclient import TestClient

from scrawl.web import create_app


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "data")) as running:
        yield running


@pytest.fixture(scope="module")
def shots():
    from photographer import make_monster_shots

    return make_monster_shots(7, monsters=2)


def one_line(response) -> str:
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail and "Traceback" not in detail
    return detail


def upload(client, gid, shot):
    return client.post(f"/api/games/{gid}/photos", files={"photo": (shot.truth["source"], shot.data, "image/jpeg")})


def battle(client, players=("Ann", "Bob")) -> dict:
    answer = client.post("/api/games", json={"players": list(players), "kind": "monster"})
    assert answer.status_code == 201
    return answer.json()


def as_played(rosters: list[dict], seed: int) -> str:
    """Who wins the battle of these rosters with these dice, as scrawl battle says it."""
    from games.battle import play_battle, seeded_rng
    from games.monsters import read_roster
    from scrawl.battle_report import outcome_line

    roster, problems = read_roster({"format": "scrawl.roster/1", "players": rosters})
    assert problems == []
    return outcome_line(play_battle(roster, seeded_rng(seed)))


@pytest.fixture
def played(client, shots):
    game = battle(client)
    for shot in shots:
        assert upload(client, game["id"], shot).status_code == 201
    return client.get(f"/api/games/{game['id']}").json()


def test_both_rosters_read_as_drawn_and_the_battle_is_played_from_the_seed_shown(played, shots):
    assert [r["name"] for r in played["rosters"]] == ["Ann", "Bob"]
    for roster, shot in zip(played["rosters"], shots):
        truth = shot.truth["roster"]["players"][0]
        assert (roster["monsters"], roster["reserve"], roster["active"]) == \
            (truth["monsters"], truth["reserve"], truth["active"])
    fight = played["battle"]
    assert fight["ready"] and fight["seed"] == played["seed"]
    named = [dict(r, name=n) for r, n in zip([s.truth["roster"]["players"][0] for s in shots], ["Ann", "Bob"])]
    assert fight["outcome"] == as_played(named, fight["seed"])
    assert fight["winner"] in (None, "Ann", "Bob") and fight["rounds"][0]["round"] == 1
    odds = fight["odds"]
    assert sum(side["wins"] for side in odds["chances"]) + odds["draws"] == odds["trials"]


def test_play_again_rolls_new_dice_and_a_seed_replays_a_battle(client, played):
    gid = played["id"]
    again = client.post(f"/api/games/{gid}/battle").json()["battle"]
    replay = client.post(f"/api/games/{gid}/battle", json={"seed": played["seed"]}).json()["battle"]
    assert again["seed"] != played["seed"] or again["outcome"] == played["battle"]["outcome"]
    assert replay["outcome"] == played["battle"]["outcome"] and replay["rounds"] == played["battle"]["rounds"]
    assert client.get(f"/api/games/{gid}").json()["battle"]["seed"] == played["seed"]


def test_a_part_and_a_pool_corrected_change_the_roster_and_reset_puts_them_back(client, played):
    gid, sheet = played["id"], played["sheets"][0]
    base = f"/api/games/{gid}/sheets/{sheet['id']}"
    fixed = client.put(f"{base}/parts/monster-1-part-4", json={"die": "d12 pink", "type": "shield", "damage": 3})
    assert fixed.status_code == 200
    monster = fixed.json()["rosters"][0]["monsters"][0]
    assert {"name": None, "type": "shield", "die": "d12 pink", "damage": 3} in monster["parts"]
    gone = client.put(f"{base}/parts/monster-1-core", json={"die": None}).json()
    assert len(gone["rosters"][0]["monsters"]) == len(played["rosters"][0]["monsters"]) - 1
    pools = client.put(f"{base}/pools/reserve", json={"dice": ["d8 blue", "d4 red"]}).json()
    assert pools["rosters"][0]["reserve"] == ["d4 red", "d8 blue"]
    assert pools["sheets"][0]["corrections"] == 3
    for path in ("parts/monster-1-part-4", "parts/monster-1-core", "pools/reserve"):
        assert client.delete(f"{base}/{path}").status_code == 200
    assert client.get(f"/api/games/{gid}").json()["rosters"] == played["rosters"]


@pytest.mark.parametrize("path, body, words", [
    ("parts/monster-1-core", {"die": "d7 red"}, "sides must be one of"),
    ("parts/monster-1-core", {"die": "d8 red", "type": "weapon"}, "a core has no type"),
    ("parts/monster-1-part-1", {"die": "d8 red", "type": "sword"}, "not a part's type"),
    ("parts/monster-1-part-1", {"die": "d4 red", "type": "weapon", "damage": 9}, "at most 4 damage"),
    ("pools/active", {"dice": ["d6 red", "d6 red"]}, "given twice"),
    ("pools/active", {"dice": ["a banana"]}, "write a die as"),
])
def test_an_impossible_correction_is_one_line_and_changes_nothing(client, played, path, body, words):
    base = f"/api/games/{played['id']}/sheets/{played['sheets'][0]['id']}"
    answer = client.put(f"{base}/{path}", json=body)
    assert answer.status_code == 422 and words in one_line(answer)
    assert client.get(f"/api/games/{played['id']}").json()["rosters"] == played["rosters"]


def test_rows_pools_and_games_that_are_not_there_are_404(client, played):
    base = f"/api/games/{played['id']}/sheets/{played['sheets'][0]['id']}"
    assert client.put(f"{base}/parts/monster-9-core", json={"die": None}).status_code == 404
    assert client.put(f"{base}/parts/C4", json={"die": None}).status_code == 404
    assert client.put(f"{base}/pools/attic", json={"dice": []}).status_code == 404
    assert "monster record sheet" in one_line(client.put(f"{base}/rooms/C4", json={"reading": "NS"}))
    assert client.post(f"/api/games/{played['id']}/rolls").status_code == 404
    mapgame = client.post("/api/games", json={"players": ["Ann"]}).json()
    assert "not a monster battle" in one_line(client.post(f"/api/games/{mapgame['id']}/battle"))


def test_a_battle_waits_for_both_sheets_and_for_a_roster_it_can_play(client, shots):
    game = battle(client, ("Zoë", "Bob"))
    assert "Photograph Zoë and Bob" in game["battle"]["waiting"]
    first = upload(client, game["id"], shots[0]).json()
    assert first["battle"]["ready"] is False and "Bob" in first["battle"]["waiting"]
    doc = upload(client, game["id"], shots[1]).json()
    sid = doc["sheets"][1]["id"]
    # Bob's part 4 said to hold a die another part already holds: the battle waits for the sheet to be fixed.
    used = doc["rosters"][1]["monsters"][0]["core"]["die"]
    stuck = client.put(f"/api/games/{game['id']}/sheets/{sid}/parts/monster-2-part-4",
                       json={"die": used, "type": "weapon"}).json()["battle"]
    assert stuck["ready"] is False and "Correct Bob's sheet" in stuck["waiting"]


def test_the_overlay_and_the_export_of_a_battle(client, played):
    from games.monsters import read_roster

    picture = client.get(played["sheets"][0]["overlay"])
    assert picture.status_code == 200 and picture.content[:8] == b"\x89PNG\r\n\x1a\n"
    export = client.get(f"/api/games/{played['id']}/export").json()
    assert [entry["roster"]["players"][0]["name"] for entry in export["rosters"]] == ["Ann", "Bob"]
    for entry in export["rosters"]:
        assert read_roster(entry["roster"])[1] == []
    pdf = client.get(played["print"]["sheets"])
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"


def test_sheets_of_the_other_kind_of_game_are_refused_and_not_kept(client, shots):
    from photographer import make_game_shots

    fight = battle(client)
    mapshot = make_game_shots(5, players=1)[0]
    answer = client.post(f"/api/games/{fight['id']}/photos", files={"photo": ("map.jpg", mapshot.data, "image/jpeg")})
    assert answer.status_code == 422 and "monster battle" in one_line(answer)
    mapgame = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json()
    answer = upload(client, mapgame["id"], shots[0])
    assert answer.status_code == 422 and "monster record sheet" in one_line(answer)
    assert client.get(f"/api/games/{mapgame['id']}").json()["photos"] == []
    assert client.get(f"/api/games/{fight['id']}").json()["photos"] == []


def test_a_third_players_sheet_is_refused_from_a_battle(client):
    from photographer import make_monster_shots

    third = make_monster_shots(8, players=3, monsters=1)[2]
    answer = upload(client, battle(client)["id"], third)
    assert answer.status_code == 422 and "player 3" in one_line(answer)


@pytest.mark.parametrize("body, words", [
    ({"players": ["Ann"], "kind": "monster"}, "between two players"),
    ({"players": ["Ann", "Bob"], "kind": "chess"}, "unknown kind of game"),
])
def test_a_battle_is_started_with_two_players_only(client, body, words):
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422 and words in one_line(answer)


def test_the_result_as_csv_and_a_picture_once_the_battle_is_played(client, played):
    """Each side's row: won or lost as the battle panel says, its chance as the odds show, the monsters it
    had at the start and at the end; the picture to share says who won."""
    import csv
    import io

    from PIL import Image

    answer = client.get(f"/api/games/{played['id']}/results.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    fight = played["battle"]
    assert [row["name"] for row in rows] == ["Ann", "Bob"]
    for row, roster in zip(rows, played["rosters"]):
        assert row["result"] == ("draw" if fight["winner"] is None else "won" if fight["winner"] == row["name"]
                                 else "lost")
        assert int(row["monsters at the start"]) == len(roster["monsters"])
        assert int(row["monsters at the end"]) == len(fight["left"][row["name"]]["monsters"])
        assert int(row["rounds"]) == fight["rounds_played"] and int(row["dice"]) == fight["seed"]
    assert [int(row["chance to win %"]) for row in rows] == [side["percent"] for side in fight["odds"]["chances"]]
    if fight["winner"] is not None:
        assert int(next(row for row in rows if row["result"] == "lost")["monsters at the end"]) == 0
    picture = client.get(f"/api/games/{played['id']}/results.png")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(picture.content)).size[0] == 800


def test_before_the_battle_is_played_its_results_say_why_not(client, shots):
    game = battle(client, ("Zoë", "Bob"))
    assert upload(client, game["id"], shots[0]).status_code == 201
    for path in ("results.csv", "results.png"):
        answer = client.get(f"/api/games/{game['id']}/{path}")
        assert answer.status_code == 404
        assert one_line(answer) == "the battle is not played yet: Photograph Bob's monster record sheet to play the battle."
