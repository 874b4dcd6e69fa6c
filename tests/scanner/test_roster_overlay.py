"""The overlay picture of a monster record sheet: the page with what was read drawn over it, and the doubts
ringed in orange and listed under it.

The photos are made by the synthetic photographer: a roster filled in by hand and photographed like a
phone; the truth says which bubbles were filled and which were doubled or half-filled on purpose.
"""
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

import photographer
from generator.kinds import BLANKS
from scanner.batch import scan_bytes
from scanner.roster_overlay import ORANGE, layout_of, place_of, roster_overlay_picture
from scrawl.service import overlay_name


@dataclass
class Sheet:
    entry: dict
    readings: dict
    jpeg: bytes

    @property
    def page(self) -> np.ndarray:
        return cv2.cvtColor(cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def sheet_of(shot) -> Sheet:
    """A monster record sheet's photo read as the scanner reads it, with its page kept."""
    outcome = scan_bytes(shot.data, shot.truth["source"], BLANKS, want_pages=True)
    assert outcome.errors == [] and [read.kind for read in outcome.reads] == ["monster"]
    read = outcome.reads[0]
    return Sheet(read.entry, read.readings, read.page)


@pytest.fixture(scope="module")
def read():
    """A sheet with two bubbles doubled or half-filled on purpose, read with its page."""
    shot = photographer.make_monster_shots(4, players=1, faults=2)[0]
    return shot, sheet_of(shot)


def orange_share(picture: np.ndarray, rect, px_per_mm: float = 5.0) -> float:
    x0, y0 = int((rect.x - 1) * px_per_mm), int((rect.y - 1) * px_per_mm)
    x1, y1 = int((rect.right + 1) * px_per_mm), int((rect.bottom + 1) * px_per_mm)
    patch = picture[y0:y1, x0:x1].astype(int)
    return float((np.abs(patch - np.array(ORANGE)).sum(axis=2) < 60).mean())


def test_the_roster_read_is_what_was_drawn_and_every_fault_is_in_the_review(read):
    shot, sheet = read
    where = {entry["where"] for entry in sheet.entry["needs_review"]}
    assert {fault["where"] for fault in shot.truth["faults"]} <= where
    drawn = [card for card in shot.truth["rows"] if card is not None]
    assert len(sheet.entry["roster"]["players"][0]["monsters"]) == len(drawn)


def test_each_doubt_is_ringed_where_the_sheet_has_it_and_not_elsewhere(read):
    _, sheet = read
    picture = roster_overlay_picture(sheet.jpeg, sheet.entry, sheet.readings)
    layout = layout_of(sheet.entry)
    assert picture.shape[0] > sheet.page.shape[0] and picture.shape[1] == sheet.page.shape[1]   # a legend below
    for entry in sheet.entry["needs_review"]:
        rect = place_of(layout, entry["where"])
        assert rect is not None and orange_share(picture, rect) > 0.01
    quiet = [row for row in layout.rows()
             if not any(e["where"].startswith(row.where) for e in sheet.entry["needs_review"])]
    assert all(orange_share(picture, row.row) < 0.005 for row in quiet[:6])


def test_a_sheet_with_nothing_doubtful_says_so_and_marks_each_part_read():
    shot = photographer.make_monster_shots(5, players=1, pen="black")[0]
    sheet = sheet_of(shot)
    assert sheet.entry["needs_review"] == []
    picture = roster_overlay_picture(sheet.page, sheet.entry, sheet.readings)
    legend = picture[sheet.page.shape[0]:]
    assert (np.abs(legend.astype(int) - np.array((20, 150, 60))).sum(axis=2) < 60).any()    # the green "Nothing to review"
    parts = sum(len(card) for card in shot.truth["rows"] if card)
    assert len(sheet.readings["rows"]) == parts


def test_scrawl_scan_overlay_writes_a_picture_per_monster_sheet(tmp_path):
    """scrawl scan --overlay: the service gives one picture for each monster record sheet, named after its
    photo."""
    from scrawl.service import scan_game

    paths = []
    for shot in photographer.make_monster_shots(6, players=2):
        path = tmp_path / shot.truth["source"]
        path.write_bytes(shot.data)
        paths.append(str(path))
    game = scan_game(paths, overlays=True, jobs=1)
    pictures = game.overlays()
    taken: set = set()
    assert [name for name, _ in pictures] == [overlay_name(path, taken) for path in paths]
    assert all(picture.ndim == 3 and picture.shape[2] == 3 for _, picture in pictures)


def test_a_pool_row_glare_hides_is_ringed():
    """Glare over the reserve's row of d4s: the cannot_see entry names the row, and the overlay rings it."""
    shot = photographer.make_monster_shots(4, condition="glare")[1]
    assert "reserve d4" in shot.truth["hidden"]
    sheet = sheet_of(shot)
    assert "reserve d4" in {e["where"] for e in sheet.entry["needs_review"] if e["rule"] == "cannot_see"}
    picture = roster_overlay_picture(sheet.jpeg, sheet.entry, sheet.readings)
    layout = layout_of(sheet.entry)
    for entry in sheet.entry["needs_review"]:
        rect = place_of(layout, entry["where"])
        assert rect is not None and orange_share(picture, rect) > 0.01
