"""A printed sheet, rendered to pixels, gives back its markers, its QR code and so its map."""
import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from sheets.dungeon import sheet_layout
from generator.sheet import render_sheets
from scanner.locate import find_markers, read_sheet_id

DPI = 150


def render(path, page, dpi=DPI):
    pdf = pdfium.PdfDocument(path)
    return np.asarray(pdf[page].render(scale=dpi / 72, grayscale=True).to_pil().convert("L"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_markers_and_qr_code_come_back(tmp_path, classic, paper):
    layout = sheet_layout(classic, paper)
    path = tmp_path / "sheet.pdf"
    render_sheets(layout, 2, path)
    for page in (0, 1):
        image = render(path, page)
        markers = find_markers(image)
        assert sorted(markers) == [0, 1, 2, 3]
        for marker in layout.markers:
            expected = np.array(marker.rect.centre) * DPI / 25.4
            assert np.abs(markers[marker.id].mean(axis=0) - expected).max() < 2.0, f"marker {marker.id}"
        found = read_sheet_id(image)
        assert found, found.reason
        sheet = found.value
        assert (sheet.game, sheet.map_id, sheet.player, sheet.paper, sheet.layout_version) == \
            ("doodles", "classic", page + 1, paper, 2)
        dungeon = sheet.dungeon()
        assert (dungeon.walls, dungeon.entries, dungeon.items) == (classic.walls, classic.entries, classic.items)


def test_random_map_comes_back_from_its_own_qr_code(tmp_path, random_42):
    path = tmp_path / "random.pdf"
    render_sheets(sheet_layout(random_42, "a4"), 1, path)
    image = cv2.rotate(render(path, 0), cv2.ROTATE_180)   # a photo taken upside down
    assert sorted(find_markers(image)) == [0, 1, 2, 3]
    found = read_sheet_id(image)
    assert found, found.reason
    assert (found.value.map_id, found.value.seed, found.value.map_version) == ("random", 42, 1)
    assert found.value.dungeon() == random_42


def test_a_page_without_a_code_says_why():
    blank = np.full((1200, 850), 255, np.uint8)
    assert find_markers(blank) == {}
    found = read_sheet_id(blank)
    assert not found and "QR code" in found.reason


def test_a_custom_map_sheet_carries_its_whole_map(tmp_path):
    from games.mapfile import load_map
    from tests_support import TINY_MAP

    source = tmp_path / "tiny.toml"
    source.write_text(TINY_MAP)
    tiny = load_map(source)
    path = tmp_path / "tiny.pdf"
    render_sheets(sheet_layout(tiny, "letter"), 1, path)
    found = read_sheet_id(render(path, 0))
    assert found, found.reason
    assert found.value.map_id == "tiny" and found.value.map_code
    back = found.value.dungeon()
    assert (back.walls, back.entries, back.items) == (tiny.walls, tiny.entries, tiny.items)
