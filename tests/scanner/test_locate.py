"""Which sheet a photo shows, from its QR code: read even when the code is small, blurred, dim and badly
compressed; and when it cannot be, a reason a person can act on."""
import sys

import cv2
import numpy as np
import pytest

from sheets.dungeon import sheet_layout
from sheets.page import corner_markers, qr_rect
from generator.page import qr_runs
from photographer import blank_sheet
from scanner import locate
from scanner.locate import SheetFrame, read_sheet_id

STRANGER = "https://example.com/menu?table=12"   # a QR code printed by another program


def frame_of(paper: str, px_per_mm: float) -> SheetFrame:
    """The corner markers where a page drawn at ``px_per_mm`` has them."""
    return SheetFrame({m.id: px_per_mm * np.array([(m.rect.x, m.rect.y), (m.rect.right, m.rect.y),
                                                   (m.rect.right, m.rect.bottom), (m.rect.x, m.rect.bottom)])
                       for m in corner_markers(paper)})


def poor_photo(page: np.ndarray, seed: int) -> np.ndarray:
    """A page as a poor phone takes it: out of focus, in dim light (paper grey, ink dark grey), with sensor
    noise, saved at JPEG quality 55."""
    rng = np.random.default_rng(seed)
    grey = cv2.GaussianBlur(cv2.cvtColor(page, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0), 0.8)
    dim = 70 + grey * (140 - 70) / 255 + rng.normal(0, 8, grey.shape)
    _, data = cv2.imencode(".jpg", np.clip(dim, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 55])
    return cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)


def with_code(page: np.ndarray, text: str, px_per_mm: float, x: float, y: float, size: float) -> np.ndarray:
    """``page`` with ``text`` as a QR code of ``size`` mm at (``x``, ``y``) mm, on white with a quiet zone."""
    page = page.copy()
    count, runs = qr_runs(text)
    step = size / count

    def px(v: float) -> int:
        return int(round(v * px_per_mm))
    page[px(y - 4 * step):px(y + size + 4 * step), px(x - 4 * step):px(x + size + 4 * step)] = 255
    for row, start, end in runs:
        page[px(y + row * step):px(y + (row + 1) * step), px(x + start * step):px(x + end * step)] = 0
    return page


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_small_blurred_dim_badly_compressed_code_is_still_the_right_sheet(random_42, seed):
    # 3.3 px/mm: a 2 MP photo with the Letter sheet filling a third of the frame. OpenCV's detectors alone read
    # none of these (checked when this test was written); zxing-cpp on the rectified crop reads them all.
    layout = sheet_layout(random_42, "letter")
    photo = poor_photo(blank_sheet(layout, 2, 3.3), seed)
    found = read_sheet_id(photo, frame_of("letter", 3.3))
    assert found, found.reason
    sheet = found.value
    assert (sheet.player, sheet.paper, sheet.map_id, sheet.seed) == (2, "letter", "random", 42)


def test_another_programs_code_is_named_as_not_ours(classic):
    layout = sheet_layout(classic, "a4")
    qr = qr_rect("a4")
    page = with_code(blank_sheet(layout, 1, 4.0), STRANGER, 4.0, qr.x, qr.y, qr.w)
    found = read_sheet_id(page, frame_of("a4", 4.0))
    assert not found
    assert "not a dungeon-scrawl sheet code" in found.reason
    assert found.reason.endswith("this QR code is not one printed by dungeon-scrawl")


def test_a_decoding_that_is_not_ours_does_not_end_the_search(monkeypatch):
    # A stranger's code near the sheet's, or a misreading, can come before the sheet's own code.
    ours = "DS/L1/DOODLES/A4/P3/CLASSIC/K7Q2"
    monkeypatch.setattr(locate, "_qr_texts", lambda image, frame: iter(["", STRANGER, "DS/L1/DOODLES", ours]))
    found = read_sheet_id(np.zeros((10, 10), np.uint8))
    assert found, found.reason
    assert found.value.qr_text() == ours


def test_a_sheet_whose_code_is_gone_says_so(classic):
    layout = sheet_layout(classic, "a4")
    qr = qr_rect("a4")
    page = blank_sheet(layout, 1, 4.0).copy()
    page[int(qr.y * 4) - 8:int(qr.bottom * 4) + 8, int(qr.x * 4) - 8:int(qr.right * 4) + 8] = 255
    found = read_sheet_id(page, frame_of("a4", 4.0))
    assert not found
    assert found.reason == "no readable QR code: keep the sheet's top-right corner flat, sharp, in focus and in the frame"


def test_without_zxing_cpp_a_clear_code_is_still_read(classic, monkeypatch):
    monkeypatch.setitem(sys.modules, "zxingcpp", None)   # what an environment without it gives: ImportError
    assert locate._zxing() is None
    layout = sheet_layout(classic, "a4")
    found = read_sheet_id(blank_sheet(layout, 2, 6.0), frame_of("a4", 6.0))
    assert found, found.reason
    assert (found.value.player, found.value.map_id) == (2, "classic")


def test_a_sheet_far_off_in_a_large_photo_is_found_and_called_too_small(classic):
    """A sheet at 1.9 pixels per mm in a 12 MP frame: its markers (27 pixels a side) are under OpenCV's
    default smallest marker there (3% of the longer side), so the scan said a corner marker was missing,
    though the whole sheet is in the frame. All four are found, and the scan says what is wrong."""
    from generator.kinds import BLANKS
    from scanner.batch import scan_bytes

    page = blank_sheet(sheet_layout(classic, "a4"), 1, 1.9)
    photo = np.full((3568, 2672, 3), 120, np.uint8)                    # a grey table
    photo[2800:2800 + page.shape[0], 1900:1900 + page.shape[1]] = page
    assert len(locate.find_sheets(photo)[0]) == 1
    _, data = cv2.imencode(".png", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR))
    outcome = scan_bytes(data.tobytes(), "far.png", BLANKS)
    errors = [entry["error"] for entry in outcome.errors]
    assert not outcome.sheets and any("the sheet is too small in the photo (1.9 pixels per mm)" in error
                                      for error in errors), errors


@pytest.mark.parametrize("seed, paper", [(9270308, "letter"), (93020303, "a4")])
def test_a_curled_dungeon_maker_sheets_code_is_still_read(seed, paper):
    # The photographer's curled sheets (benchmarks/maker_accuracy.py, seeds 927 and 930): the curl bends the code
    # under the top-right marker, and every attempt but the fine crop binarised against a wider window (4.7 mm)
    # missed it, so the whole sheet went unread.
    import photographer
    from scanner.load import load_photo_bytes

    shot = photographer.make_maker_shots(seed, players=1, paper=paper, condition="curled")[0]
    photo = load_photo_bytes(shot.data, shot.name + shot.suffix)[0]
    frames, _ = locate.find_sheets(photo.image)
    found = read_sheet_id(photo.image, frames[0])
    assert found, found.reason
    sheet = found.value
    assert (sheet.game, sheet.paper, sheet.seed) == ("dungeon-maker", paper, seed)
