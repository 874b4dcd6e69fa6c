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
import json
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

    def __init__(self, data_dir: Path):
        import uvicorn

        from scrawl.web import create_app

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(data_dir), host="127.0.0.1", port=port,
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

def start_game(page, url: str, names: list[str]) -> str:
    page.goto(url + "/")
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
