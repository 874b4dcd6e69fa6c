"""The game-night page in a real headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

A phone-sized browser starts a game, photographs player 1's sheet (a sample photo through the
card's camera input), sees the score the sheet is worth, taps a room to correct its reading, sees
the score change, and finds the correction still there after a reload. The server is the real app
on a free port with its data in a temporary folder.

``python tests/web/test_browser.py --screenshot samples/serve-phone.png`` writes the README's
screenshot: a three-player game with all three sample photos scored.
"""
from __future__ import annotations

import copy
import io
import json
import re
import shutil
import socket
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
PHOTOS = Path(__file__).resolve().parents[2] / "samples" / "photos"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed (/usr/bin/chromium): apt-get install chromium; "
                ".ci/run installs it", allow_module_level=True)
try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:
    pytest.skip("playwright is not installed: pip install -e \".[test]\"", allow_module_level=True)


class Server:
    """The real app served by uvicorn in a background thread."""

    def __init__(self, data_dir: Path, guard=None):
        import uvicorn

        from scrawl.web import create_app

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(data_dir, guard=guard), host="127.0.0.1", port=port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the app did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def game(self, gid: str) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/games/{gid}") as answer:
            return json.load(answer)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("serve")) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(20_000)
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


# -- what the scores should be, worked out apart from the page ----------------------------------

def truth_total(photo: str) -> int:
    """The score of the sheet in ``photo`` as drawn (its *.expected.json), scored alone: with one sheet
    uploaded, the other players' Traps cannot hit it."""
    from games.state import read_game, score_game

    for expected in PHOTOS.glob("*.expected.json"):
        for sheet in json.loads(expected.read_text(encoding="utf-8"))["sheets"]:
            if Path(sheet["source"]).name == photo:
                sheets, _ = read_game({"sheets": [dict(sheet, needs_review=[])]})
                return score_game(sheets)[0].score.total
    raise LookupError(photo)


def reading(room: dict | None) -> str:
    """A room of the game document as its options spell it."""
    if not room:
        return ""
    if room.get("trap"):
        return "X"
    return "".join(side for side in "NESW" if side in room.get("exits", ""))


def total_with(game: dict, sheet: dict, room: str, new: str) -> int:
    """The sheet's score (alone) if ``room`` read ``new``."""
    from games.state import read_game, score_game

    rooms = {name: {"exits": r.get("exits", ""), "trap": r.get("trap", False), "round": r.get("round")}
             for name, r in copy.deepcopy(sheet["rooms"]).items()}
    rooms.pop(room, None)
    if new == "X":
        rooms[room] = {"exits": "", "trap": True}
    elif new:
        rooms[room] = {"exits": new}
    sheets, errors = read_game({"sheets": [{"map": game["map"], "player": sheet["player"], "rooms": rooms,
                                            "unusable": sheet["unusable"]}]})
    assert not errors, errors
    return score_game(sheets)[0].score.total


def room_to_correct(game: dict, sheet: dict) -> tuple[dict, int]:
    """A scored room (loot first) whose next reading, the one a tap gives, changes the score."""
    scored = [name for line in sheet["score"]["lines"] if line["item"] in (1, 2, 3) for name in line["rooms"]]
    for name in scored:
        geometry = next(r for r in sheet["geometry"]["rooms"] if r["room"] == name)
        options = geometry["options"]
        now = reading(sheet["rooms"].get(name))
        new = options[(options.index(now) + 1) % len(options)] if now in options else options[0]
        total = total_with(game, sheet, name, new)
        if total != sheet["total"]:
            return geometry, total
    raise AssertionError("no scored room whose next reading changes the score")


# -- the page ------------------------------------------------------------------------------------

def start_game(page, url: str, names: list[str], map_label: str | None = None, reload: bool = True) -> str:
    if reload:
        page.goto(url + "/")
    if map_label:
        page.locator("label.choice-item", has_text=map_label).click()
    rows = page.locator(".player-row input")
    while rows.count() < len(names):
        page.get_by_role("button", name="+ Add a player").click()
    for row, name in zip(rows.all(), names):
        row.fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/#/game/*")
    page.locator("#player-1 input[type=file]").wait_for(state="attached")
    return page.url.rsplit("/", 1)[1]


def photograph(page, player: int, photo: Path) -> None:
    card = page.locator(f"#player-{player}")
    card.locator("input[type=file]").set_input_files(photo)
    card.locator(".breakdown .total").wait_for(timeout=30_000)


def tap_room(page, player: int, sheet: dict, room: dict) -> None:
    """A finger on the room's centre, where it shows in the (scaled) overlay picture."""
    image = page.locator(f"#player-{player} .stage img")
    expect(image).to_have_js_property("complete", True)
    page.locator(f"#player-{player} .stage-wrap").evaluate("el => el.scrollIntoView({block: 'center'})")
    box = image.bounding_box()
    geometry = sheet["geometry"]
    scale = box["width"] / geometry["width"]
    x = box["x"] + (room["x"] + room["w"] / 2) * geometry["px_per_mm"] * scale
    y = box["y"] + (room["y"] + room["h"] / 2) * geometry["px_per_mm"] * scale
    page.touchscreen.tap(x, y)


def test_a_phone_scores_a_sheet_and_corrects_a_room(server, browser, phone):
    photo = PHOTOS / "game7-classic-p1-medium.jpg"
    gid = start_game(phone, server.url, ["Ann", "Bo"])
    card = phone.locator("#player-1")
    expect(card.locator("h2")).to_have_text("Ann")
    expect(phone.locator("#player-2 h2")).to_have_text("Bo")
    other = browser.new_context(**PHONE).new_page()     # Bo's phone, on the same game
    other.goto(f"{server.url}/#/game/{gid}")
    expect(other.locator("#player-1 .card-upload")).to_be_visible()

    photograph(phone, 1, photo)
    expected = truth_total(photo.name)
    expect(card.locator(".breakdown .total")).to_have_text(str(expected))
    expect(card.locator(".card-total")).to_have_text(str(expected))
    expect(phone.locator(".standings .pts[data-total='1']")).to_have_text(str(expected))
    expect(card.locator(".stage img")).to_have_attribute("src", server.game(gid)["sheets"][0]["overlay"])
    # The other phone refreshes the open game by itself.
    expect(other.locator("#player-1 .breakdown .total")).to_have_text(str(expected), timeout=10_000)
    other.context.close()

    game = server.game(gid)
    sheet = game["sheets"][0]
    assert sheet["total"] == expected
    room, corrected_total = room_to_correct(game, sheet)
    tap_room(phone, 1, sheet, room)
    expect(card.locator(".breakdown .total")).to_have_text(str(corrected_total))
    expect(phone.locator(".standings .pts[data-total='1']")).to_have_text(str(corrected_total))
    expect(card.locator(f".mark.corrected[data-room='{room['room']}']")).to_be_visible()
    assert server.game(gid)["sheets"][0]["rooms"][room["room"]]["corrected"] is True

    phone.reload()
    expect(card.locator(".breakdown .total")).to_have_text(str(corrected_total))
    expect(card.locator(f".mark.corrected[data-room='{room['room']}']")).to_be_visible()
    expect(card.locator(".corrected .chip")).to_contain_text(room["room"])


def test_a_file_that_is_not_a_photo_gets_a_message_on_its_card(server, phone):
    start_game(phone, server.url, ["Ann", "Bo"])
    phone.locator("#player-2 input[type=file]").set_input_files(
        {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"not a photo at all"})
    error = phone.locator("#player-2 .card-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("could not be used")
    expect(phone.locator("#player-1 .card-error")).to_be_hidden()


def test_a_photo_over_25_mb_is_refused_on_the_phone_before_it_is_sent(server, phone):
    start_game(phone, server.url, ["Ann", "Bo"])
    posted = []
    phone.on("request", lambda request: posted.append(request.url) if request.method == "POST" else None)
    phone.locator("#player-1 input[type=file]").set_input_files(
        {"name": "huge.jpg", "mimeType": "image/jpeg", "buffer": b"\xff\xd8\xff" + bytes(26 * 1024 * 1024)})
    expect(phone.locator("#player-1 .card-error")).to_contain_text("over 25 MB")
    assert not [url for url in posted if url.endswith("/photos")]       # not sent over the Wi-Fi at all


# -- one game, one sheet per player (issue 18) ------------------------------------------------------------

def other_games_photo(tmp_path: Path) -> Path:
    """A phone photo of player 1's sheet of a game printed with the code K7QX (by the photographer)."""
    from photographer import make_game_shots

    shot = make_game_shots(5, players=1, code="K7QX")[0]
    path = tmp_path / f"other-game{shot.suffix}"
    path.write_bytes(shot.data)
    return path


def test_a_sheet_of_another_game_is_refused_on_its_card(server, phone, tmp_path):
    gid = start_game(phone, server.url, ["Ann", "Bo"])
    code = server.game(gid)["code"]
    expect(phone.locator(".game-meta .code")).to_have_text(f"Game {code}")
    phone.locator("#player-1 input[type=file]").set_input_files(other_games_photo(tmp_path))
    error = phone.locator("#player-1 .card-error")
    expect(error).to_contain_text(f"This sheet is from game K7QX (The Sunken Keep); this is game {code}",
                                  timeout=30_000)
    expect(error).to_contain_text("upload it to its own game")
    expect(phone.locator("#player-1 .sheet")).to_have_count(0)
    assert server.game(gid)["photos"] == []


def test_a_game_for_sheets_printed_already_takes_their_code(server, phone, tmp_path):
    phone.goto(server.url + "/")
    phone.get_by_text("Sheets printed already?").click()
    phone.get_by_placeholder("like K7QX").fill("k7qx")
    gid = start_game(phone, server.url, ["Ann", "Bo"], reload=False)
    expect(phone.locator(".game-meta .code")).to_have_text("Game K7QX")
    photograph(phone, 1, other_games_photo(tmp_path))
    expect(phone.locator("#player-1 .card-error")).to_be_hidden()
    assert server.game(gid)["sheets"][0]["game"] == "K7QX"


def test_remove_asks_first_and_undo_brings_the_photo_back(server, phone):
    start_game(phone, server.url, ["Ann", "Bo"])
    photograph(phone, 1, PHOTOS / "game7-classic-p1-medium.jpg")
    card = phone.locator("#player-1")
    total = card.locator(".card-total").inner_text()
    card.get_by_role("button", name="Remove photo").click()
    dialog = phone.get_by_role("dialog")
    expect(dialog).to_contain_text("Remove this photo of Ann's sheet?")
    dialog.get_by_role("button", name="Keep it").click()
    expect(dialog).to_be_hidden()
    expect(card.locator(".sheet")).to_have_count(1)
    card.get_by_role("button", name="Remove photo").click()
    dialog.get_by_role("button", name="Remove photo").click()
    expect(card.locator(".sheet")).to_have_count(0)
    snackbar = phone.locator("#snackbar")
    expect(snackbar).to_contain_text("Photo of Ann's sheet removed.")
    snackbar.get_by_role("button", name="Undo").click()
    expect(card.locator(".card-total")).to_have_text(total)
    expect(snackbar).to_be_hidden()


def test_a_retake_asks_about_the_hand_corrections_and_can_be_undone(server, phone):
    gid = start_game(phone, server.url, ["Ann", "Bo"])
    photograph(phone, 1, PHOTOS / "game7-classic-p1-medium.jpg")
    game = server.game(gid)
    sheet = game["sheets"][0]
    room, corrected_total = room_to_correct(game, sheet)
    tap_room(phone, 1, sheet, room)
    card = phone.locator("#player-1")
    expect(card.locator(".breakdown .total")).to_have_text(str(corrected_total))

    card.locator("input[type=file]").set_input_files(PHOTOS / "game7-classic-p1-medium.jpg")
    dialog = phone.get_by_role("dialog")
    expect(dialog).to_contain_text("Ann's sheet has 1 hand correction")
    dialog.get_by_role("button", name="Keep corrections").click()
    expect(phone.locator("#snackbar")).to_contain_text("sheet retaken", timeout=30_000)
    expect(card.locator(".breakdown .total")).to_have_text(str(corrected_total))
    expect(card.locator(f".mark.corrected[data-room='{room['room']}']")).to_be_visible()
    retaken = server.game(gid)["sheets"]
    assert len(retaken) == 1 and retaken[0]["id"] != sheet["id"]

    phone.locator("#snackbar").get_by_role("button", name="Undo").click()
    expect(phone.locator("#snackbar")).to_be_hidden()
    deadline = time.monotonic() + 10
    while server.game(gid)["sheets"][0]["id"] != sheet["id"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [s["id"] for s in server.game(gid)["sheets"]] == [sheet["id"]]
    expect(card.locator(".breakdown .total")).to_have_text(str(corrected_total))


def test_a_diamond_and_a_round_number_are_fixed_on_the_page(server, phone):
    gid = start_game(phone, server.url, ["Ann", "Bo"], map_label="The Rune Maze")
    photograph(phone, 1, PHOTOS / "game17-map6-p1-medium.webp")
    card = phone.locator("#player-1")
    before = server.game(gid)["sheets"][0]
    diamond = card.locator("[data-mark='diamond-2']")
    expect(diamond).to_have_attribute("aria-pressed", "false")
    diamond.click()
    expect(diamond).to_have_attribute("aria-pressed", "true")
    expect(diamond).to_have_class(re.compile(r"\bfixed\b"))
    after = server.game(gid)["sheets"][0]
    assert after["total"] != before["total"]
    expect(card.locator(".breakdown .total")).to_have_text(str(after["total"]))

    # A tap on a room with a path moves it to its next reading (another path, or a Trap) and opens its panel,
    # where the round number written in it is one tap.
    room_name = next(name for name, room in after["rooms"].items() if room.get("round") and room.get("exits"))
    room = next(r for r in after["geometry"]["rooms"] if r["room"] == room_name)
    tap_room(phone, 1, after, room)
    panel = card.locator(".room-panel")
    expect(panel).to_contain_text(f"Room {room_name}")
    expect(card.locator(f".mark.corrected[data-room='{room_name}']")).to_be_visible()
    new_round = 7 if after["rooms"][room_name]["round"] != 7 else 6
    panel.get_by_role("button", name=f"round {new_round}", exact=True).click()
    expect(panel.get_by_role("button", name=f"round {new_round}", exact=True)).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_role("button", name="Reset round")).to_be_visible()
    fixed = server.game(gid)["sheets"][0]["rooms"][room_name]
    assert fixed["round"] == new_round and fixed["round_corrected"] is True


def test_a_review_entry_about_another_sheet_opens_that_sheet(server, phone):
    gid = start_game(phone, server.url, ["Ann", "Bo"])
    photograph(phone, 1, PHOTOS / "game7-classic-p1-medium.jpg")
    # The same sheet photographed again from Bo's card: it is Ann's, so it goes to Ann's card, beside the first.
    phone.locator("#player-2 input[type=file]").set_input_files(PHOTOS / "game7-classic-p1-medium.jpg")
    expect(phone.locator("#player-2 .card-note")).to_contain_text("That photo was the sheet of Ann (player 1)",
                                                                  timeout=30_000)
    first, second = server.game(gid)["sheets"]
    card = phone.locator("#player-1")
    expect(card.locator(".card-note")).to_contain_text("2 photos of this sheet: only the first counts")
    expect(phone.locator(".standings .stand")).to_have_count(2)      # Ann once, and Bo waiting
    entry = card.locator(".sheet").first.locator(".review button.where")
    expect(entry).to_have_text("the other photo")
    assert entry.get_attribute("data-sheet") == second["id"] != first["id"]
    entry.click()
    expect(card.locator(".sheet").nth(1).locator(".stage-wrap")).to_be_in_viewport()


def test_change_events_tell_a_phone_at_once(server):
    """The event stream itself: a ``change`` event follows a correction within a second."""
    import urllib.request

    with urllib.request.urlopen(urllib.request.Request(f"{server.url}/api/games", method="POST",
                                                       data=json.dumps({"players": ["Ann"], "map": "map2"}).encode(),
                                                       headers={"Content-Type": "application/json"})) as answer:
        gid = json.load(answer)["id"]
    with urllib.request.urlopen(f"{server.url}/api/games/{gid}/events", timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.readline().startswith(b"retry:") and stream.readline() == b"event: hello\n"
        started = time.monotonic()
        urllib.request.urlopen(urllib.request.Request(f"{server.url}/api/games/{gid}/rolls", method="PUT",
                                                      data=b'{"rolls": []}',
                                                      headers={"Content-Type": "application/json"}))
        lines = [stream.readline() for _ in range(4)]
        assert b"event: change\n" in lines and time.monotonic() - started < 3.0     # well before a 4 s poll


def test_the_game_page_shows_its_join_code_and_remembers_whose_phone_it_is(server, phone):
    gid = start_game(phone, server.url, ["Ann", "Bo", "Chidi"])
    invite = phone.locator("details.invite")
    invite.locator("summary").click()
    expect(invite.locator(".join-qr svg")).to_be_visible()
    expect(invite.locator(".join-url")).to_have_text(f"{server.url}/#/game/{gid}")
    assert f"{server.url}/#/game/{gid}" in invite.locator(".join-qr svg").get_attribute("aria-label")
    invite.get_by_role("button", name="3 Chidi").click()
    expect(phone.locator(".cards > .card").first).to_have_attribute("id", "player-3")
    phone.reload()
    expect(phone.locator(".cards > .card").first).to_have_attribute("id", "player-3")
    expect(phone.locator(".me-note")).to_have_text("this phone: Chidi")


def test_the_die_roller_says_what_the_roll_does_on_every_phone(server, browser, phone):
    gid = start_game(phone, server.url, ["Ann", "Bo"], map_label="The Emerald Rot")
    die = phone.locator("section.die")
    expect(die).to_be_visible()
    other = browser.new_context(**PHONE).new_page()
    other.goto(f"{server.url}/#/game/{gid}")
    expect(other.locator("section.die")).to_be_visible()
    die.get_by_role("button", name="Roll the die").click()
    expect(die.locator(".die-face")).to_be_visible()
    rolled = server.game(gid)["die"]["rolls"][0]
    expect(die.locator(".die-face strong")).to_have_text(str(rolled["roll"]))
    expect(die.locator(".die-lines")).to_contain_text(rolled["lines"][0])
    expect(die.get_by_role("button", name="Roll for round 2")).to_be_visible()
    # The other phone hears of the roll through the change events, well before a poll would come.
    expect(other.locator("section.die .die-face strong")).to_have_text(str(rolled["roll"]), timeout=3_500)
    other.context.close()
    die.get_by_role("button", name="Take back the last roll").click()
    expect(die.locator(".die-face")).to_have_count(0)


def test_the_end_screen_names_the_winner_and_gives_the_results(server, phone):
    gid = start_game(phone, server.url, ["Ann", "Bo"])
    # Before any photo, the game's own sheets (names and code on them) are the first thing to print.
    first_print = phone.locator("section.first-print")
    expect(first_print.get_by_role("link", name=re.compile("Map sheets"))).to_have_attribute(
        "href", f"/print/games/{gid}/sheets.pdf")
    photograph(phone, 1, PHOTOS / "game7-classic-p1-medium.jpg")
    expect(first_print).to_be_hidden()
    photograph(phone, 2, PHOTOS / "game7-classic-p2-medium.jpg")
    phone.get_by_role("button", name="End of game: the results").click()
    end = phone.locator("section.end")
    expect(end).to_be_visible()
    board = server.game(gid)["scoreboard"]
    expect(end.locator(".end-winner")).to_have_text(f"{board[0]['name']} wins with {board[0]['total']} points!")
    expect(end.locator(".end-list li")).to_have_count(2)
    csv = phone.request.get(server.url + end.get_by_role("link", name="Results (CSV)").get_attribute("href"))
    assert csv.ok and csv.text().splitlines()[1].startswith(f"1,{board[0]['player']},{board[0]['name']}")
    png = phone.request.get(server.url + end.get_by_role("link", name="Picture to share").get_attribute("href"))
    assert png.ok and png.body()[:8] == b"\x89PNG\r\n\x1a\n"


def test_six_players_scores_fit_a_phone_and_the_start_screen_names_each_map(server, phone):
    phone.goto(server.url + "/")
    expect(phone.locator("label.choice-item", has_text="The Rune Maze")).to_contain_text("adds Rune Gates")
    expect(phone.locator("label.choice-item", has_text="The Sunken Keep")).to_contain_text("the classic map")
    start_game(phone, server.url, ["Ann", "Bo", "Chidi", "Dana", "Eve", "Farid"])
    stands = phone.locator(".standings .stand")
    expect(stands).to_have_count(6)
    for box in (stand.bounding_box() for stand in stands.all()):
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_a_sign_shows_when_the_server_cannot_be_reached(server, phone):
    start_game(phone, server.url, ["Ann", "Bo"])
    expect(phone.locator("#offline")).to_be_hidden()
    phone.route("**/api/**", lambda route: route.abort())
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(phone.locator("#offline")).to_be_visible()
    phone.unroute("**/api/**")
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(phone.locator("#offline")).to_be_hidden()


def test_the_page_follows_the_phones_dark_theme(server, browser):
    page = browser.new_context(**PHONE, color_scheme="dark").new_page()
    start_game(page, server.url, ["Ann", "Bo"])
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.querySelector('.game-head h1')).color")
    page.context.close()
    assert background == "rgb(27, 22, 17)" and ink == "rgb(239, 228, 204)"


def test_a_large_photo_is_shrunk_in_the_phone_before_it_is_sent(server, phone, tmp_path):
    import sqlite3

    from PIL import Image

    big = tmp_path / "big.jpg"
    Image.open(PHOTOS / "game7-classic-p1-medium.jpg").resize((4608, 3456)).save(big, quality=95)
    gid = start_game(phone, server.url, ["Ann", "Bo"])
    photograph(phone, 1, big)
    with sqlite3.connect(server.server.config.app.state.store.path) as db:
        (data,) = db.execute("SELECT data FROM photos WHERE game_id = ?", (gid,)).fetchone()
    assert data[:3] == b"\xff\xd8\xff" and len(data) < big.stat().st_size
    assert Image.open(io.BytesIO(data)).size == (3000, 2250)


# -- the README's screenshot -----------------------------------------------------------------------

def screenshot(path: Path) -> None:
    """A three-player game with the three sample photos of game 7 scored, as a 390 px phone shows it."""
    import tempfile

    data = Path(tempfile.mkdtemp(prefix="scrawl-shot-"))
    try:
        with Server(data) as running, sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = chromium.new_context(**PHONE).new_page()
            start_game(page, running.url, ["Ann", "Bo", "Chidi"])
            for player, name in enumerate(["game7-classic-p1-medium.jpg", "game7-classic-p2-medium.jpg",
                                           "game7-classic-p3-medium.heic"], start=1):
                photograph(page, player, PHOTOS / name)
            page.locator("#toast").wait_for(state="hidden")
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            bottom = page.locator("#player-1 .traps").bounding_box()
            height = bottom["y"] + bottom["height"] + 16
            picture = page.screenshot(clip={"x": 0, "y": 0, "width": 390, "height": height}, full_page=True)
            chromium.close()
        _save_small_png(picture, path)
    finally:
        shutil.rmtree(data, ignore_errors=True)


def _save_small_png(png: bytes, path: Path) -> None:
    """The screenshot with a 256-colour palette: a README picture, a fifth of the bytes."""
    import io

    from PIL import Image

    Image.open(io.BytesIO(png)).convert("RGB").quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--screenshot"] or len(sys.argv) != 3:
        sys.exit("usage: python tests/web/test_browser.py --screenshot samples/serve-phone.png")
    screenshot(Path(sys.argv[2]))


def test_a_phone_without_the_join_link_is_told_how_to_get_in(tmp_path, browser):
    """Under a join code (scrawl serve's), the plain address shows how to join and nothing else; the join
    link opens the page."""
    from scrawl.guard import GuardSettings

    with Server(tmp_path, guard=GuardSettings(code="TESTME", any_host=True)) as guarded:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.goto(guarded.url + "/")
        expect(page.locator("#locked")).to_be_visible()
        expect(page.locator("#locked")).to_contain_text("needs its join link")
        expect(page.locator("#view")).to_be_hidden()
        page.goto(guarded.url + "/join/TESTME")
        expect(page.locator("#locked")).to_be_hidden()
        expect(page.get_by_role("button", name="Start the game")).to_be_visible()
        context.close()


# -- a monster battle ------------------------------------------------------------------------------------

def monster_photos(folder: Path, seed: int = 4) -> list[tuple[Path, dict]]:
    """Two players' monster record sheets filled by hand and photographed, by the photographer, with the
    roster each should read as."""
    from photographer import make_monster_shots

    shots = []
    for shot in make_monster_shots(seed, monsters=2):
        path = folder / shot.truth["source"]
        path.write_bytes(shot.data)
        shots.append((path, shot.truth["roster"]["players"][0]))
    return shots


def battle_game(page, url: str, shots: list[tuple[Path, dict]]) -> str:
    """A monster battle of Ann and Bob started on the phone, both sheets photographed on their cards."""
    page.goto(url + "/")
    page.locator("label.choice-item", has_text="Monster battle").click()
    expect(page.locator("[data-ref=map-set]")).to_be_hidden()
    gid = start_game(page, url, ["Ann", "Bob"], reload=False)
    for player, (path, _) in enumerate(shots, start=1):
        page.locator(f"#player-{player} input[type=file]").set_input_files(path)
        page.locator(f"#player-{player} .monster-sheet").wait_for(timeout=30_000)
    return gid


def test_a_monster_battle_reads_both_rosters_and_plays_the_battle(server, phone, tmp_path):
    """At phone size: both players' monster sheets read (each card lists the monsters' dice as drawn), the
    battle's winner and each side's odds shown, a part corrected on the page, and Play again rolls new dice."""
    shots = monster_photos(tmp_path)
    gid = battle_game(phone, server.url, shots)
    for player, (_, truth) in enumerate(shots, start=1):
        card = phone.locator(f"#player-{player}")
        expect(card.locator(".card-total")).to_have_text(f"{len(truth['monsters'])} monsters")
        for monster in truth["monsters"]:
            expect(card.locator(".monster-cards")).to_contain_text(monster["core"]["die"])
    battle = server.game(gid)["battle"]
    expect(phone.locator(".battle-winner")).to_have_text(battle["outcome"])
    expect(phone.locator(".odds-names")).to_contain_text(f"Ann {battle['odds']['chances'][0]['percent']}%")
    seed = battle["seed"]
    expect(phone.locator("[data-ref=battle-seed]")).to_have_text(f"dice {seed}")
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Result (CSV)").click()
    result = Path(download.value.path()).read_text(encoding="utf-8")
    ann = "won" if battle["winner"] == "Ann" else "draw" if battle["winner"] is None else "lost"
    assert result.splitlines()[1].startswith(f"1,Ann,{ann},{battle['odds']['chances'][0]['percent']},")
    assert phone.get_by_role("link", name="Picture to share").get_attribute("href").startswith(
        f"/api/games/{gid}/results.png")

    truth = shots[0][1]
    used = {die for m in truth["monsters"] for die in [m["core"]["die"]] + [p["die"] for p in m["parts"]]}
    free = next(f"d{sides} {colour}" for sides in (20, 12, 10) for colour in ("pink", "orange", "white", "green")
                if f"d{sides} {colour}" not in used | set(truth["reserve"]) | set(truth["active"]))
    card = phone.locator("#player-1")
    card.locator(".part-row", has_text="Core").first.click()
    editor = card.locator(".part-editor")
    editor.locator("[data-field=size]").select_option(free.split()[0])
    editor.locator("[data-field=colour]").select_option(free.split()[1])
    editor.get_by_role("button", name="Save").click()
    expect(card.locator(".part-row.fixed").first).to_contain_text(free)
    expect(card.locator(".part-row.fixed").first).to_contain_text("corrected")
    assert server.game(gid)["rosters"][0]["monsters"][0]["core"]["die"] == free

    phone.get_by_role("button", name="Play again with new dice").click()
    expect(phone.locator("[data-ref=battle-seed]")).not_to_have_text(f"dice {seed}")
    again = server.game(gid)["battle"]
    expect(phone.locator(".battle-winner")).to_have_text(again["outcome"])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def battle_screenshot(path: Path) -> None:
    """A monster battle of two photographed sheets, as a 390 x 844 phone shows it, the whole page."""
    import tempfile

    data = Path(tempfile.mkdtemp(prefix="scrawl-shot-"))
    try:
        with Server(data) as running, sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = chromium.new_context(**PHONE).new_page()
            battle_game(page, running.url, monster_photos(data))
            page.locator("#toast").wait_for(state="hidden")
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(500)
            picture = page.screenshot(full_page=True)
            chromium.close()
        _save_small_png(picture, path)
    finally:
        shutil.rmtree(data, ignore_errors=True)


# -- a Dungeon Maker game --------------------------------------------------------------------------------

def maker_game(page, url: str, folder: Path) -> str:
    """A Dungeon Maker game of Ann and Bob started on the phone with the loot seed of their printed sheets;
    Ann's sheet has its hero phase ticked (10 points), Bob's has not (6 points so far)."""
    from test_dungeon_maker import SEED, Sheet, small_dungeon

    page.goto(url + "/")
    page.locator("label.choice-item", has_text="Dungeon Maker").click()
    expect(page.locator("[data-ref=map-set]")).to_be_hidden()
    page.locator("[data-ref=printed] summary").click()
    page.locator("[data-ref=loot]").fill(str(SEED))
    gid = start_game(page, url, ["Ann", "Bob"], reload=False)
    for player, souls, hearts in ((1, 2, 1), (2, 0, 0)):
        sheet = Sheet(player=player)
        small_dungeon(sheet, souls, hearts)
        path = folder / f"maker-{player}.jpg"
        path.write_bytes(sheet.jpeg())
        page.locator(f"#player-{player} input[type=file]").set_input_files(path)
        page.locator(f"#player-{player} .maker-sheet").wait_for(timeout=30_000)
    return gid


def test_a_dungeon_maker_game_scores_corrects_and_plays_the_heroes(server, phone, tmp_path):
    """At phone size: both sheets read and scored by their Scoring chart, a tile corrected with a tap (the
    score changes), the heroes played for the sheet without Souls, and the winner named."""
    gid = maker_game(phone, server.url, tmp_path)
    ann, bob = phone.locator("#player-1"), phone.locator("#player-2")
    expect(ann.locator(".card-total")).to_have_text("10")
    expect(bob.locator(".card-total")).to_have_text("6")
    expect(bob.locator("[data-tile=B1]")).to_have_attribute("aria-label", "B1: path E\u2009W, Spike trap")
    expect(bob.locator(".breakdown tfoot th")).to_have_text("So far")
    expect(phone.locator("[data-ref=status]")).to_contain_text("Play the heroes for Bob")

    bob.locator("[data-tile=C2]").click()
    bob.locator(".tile-panel [data-field=room]").select_option("ghost")
    bob.locator(".tile-panel").get_by_role("button", name="Save").click()
    expect(bob.locator(".card-total")).to_have_text("7")       # a Ghost: 2 points more, 1 Coin point less
    expect(bob.locator("[data-tile=C2].fixed")).to_have_attribute("aria-label", "C2: Ghost")

    bob.get_by_role("button", name="Play the heroes").click()
    expect(bob.locator(".heroes .hint")).to_contain_text("dice ")
    sheet = next(s for s in server.game(gid)["sheets"] if s["name"] == "Bob")
    expect(bob.locator(".card-total")).to_have_text(str(sheet["total"]))
    expect(bob.locator(".hero-list > li")).to_have_count(len(sheet["heroes"]["heroes"]))
    expect(phone.locator("[data-ref=status]")).to_contain_text(server.game(gid)["winner"]["line"])
    bob.locator(".replay input").fill("77")                    # the dice another phone played, replayed here
    bob.get_by_role("button", name="Replay").click()
    expect(bob.locator(".heroes .hint")).to_have_text("dice 77")
    assert next(s for s in server.game(gid)["sheets"] if s["name"] == "Bob")["heroes"]["seed"] == 77
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_dungeon_maker_sheet_is_scored_without_heroes_and_undone_on_the_phone(server, phone, tmp_path):
    """The table leaves out Bob's heroes: his building score becomes final, the winner is named; undo waits
    for the heroes again."""
    gid = maker_game(phone, server.url, tmp_path)
    bob = phone.locator("#player-2")
    bob.get_by_role("button", name="Score without heroes").click()
    expect(bob.locator(".heroes h3")).to_have_text("No heroes")
    expect(bob.locator(".breakdown tfoot th")).to_have_text("Total")
    expect(phone.locator("[data-ref=status]")).to_contain_text("Ann wins with 10 points")
    bob.get_by_role("button", name="Undo: wait for the heroes").click()
    expect(bob.get_by_role("button", name="Play the heroes")).to_be_visible()
    expect(phone.locator("[data-ref=status]")).to_contain_text("Play the heroes for Bob")
    assert next(s for s in server.game(gid)["sheets"] if s["name"] == "Bob")["heroes"]["state"] == "ready"


def maker_screenshot(path: Path) -> None:
    """A Dungeon Maker game of two photographed sheets, Bob's heroes played, as a 390 x 844 phone shows it."""
    import tempfile

    data = Path(tempfile.mkdtemp(prefix="scrawl-shot-"))
    try:
        with Server(data) as running, sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = chromium.new_context(**PHONE).new_page()
            maker_game(page, running.url, data)
            page.locator("#player-2").get_by_role("button", name="Play the heroes").click()
            page.locator("#player-2 .hero-list").wait_for()
            page.locator("#player-2 [data-tile=B1]").click()
            page.locator("#toast").wait_for(state="hidden")
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(500)
            picture = page.screenshot(full_page=True)
            chromium.close()
        _save_small_png(picture, path)
    finally:
        shutil.rmtree(data, ignore_errors=True)
