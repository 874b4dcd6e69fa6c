"""The sheet PDF as a player and a printer see it: pages, size, fonts, texts, ink."""
import numpy as np
import pypdfium2 as pdfium
import pytest

from tests_support import pdf_fonts
from pypdf import PdfReader

from sheets.dungeon import sheet_layout
from generator.sheet import render_sheets

PT_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def sheets(tmp_path_factory, classic):
    folder = tmp_path_factory.mktemp("sheets")
    made = {}
    for paper in ("a4", "letter"):
        path = folder / f"classic-{paper}.pdf"
        render_sheets(sheet_layout(classic, paper), 3, path)
        made[paper] = path
    return made


@pytest.mark.parametrize("paper,size_mm", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_one_page_per_player_at_paper_size(sheets, paper, size_mm):
    reader = PdfReader(sheets[paper])
    assert len(reader.pages) == 3
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert width == pytest.approx(size_mm[0] * PT_PER_MM, abs=0.05)
        assert height == pytest.approx(size_mm[1] * PT_PER_MM, abs=0.05)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_font_is_embedded(sheets, paper):
    fonts = pdf_fonts(sheets[paper])
    assert fonts, "the sheet has text"
    assert all(embedded for _, embedded in fonts), fonts
    names = {name for name, _ in fonts}
    assert "DarkGardenMK" in names and "BitstreamVeraSans-Roman" in names


def test_the_texts_a_player_reads_are_there(sheets):
    reader = PdfReader(sheets["a4"])
    for number, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        for expected in ("The Sunken Keep", "Adventurer", f"Player {number} of 3", "Scoring", "Loot",
                         "Weapons", "Monsters slain", "Monsters unmatched", "Untouched entries",
                         "Lost segments", "Traps sprung", "Total", "Print at 100%", "5 cm"):
            assert expected in text, f"page {number} lacks {expected!r}"
        for label in "ABCDEFGH12345678":
            assert label in text


def test_same_arguments_give_identical_bytes(tmp_path, classic, random_42):
    for dungeon in (classic, random_42):
        first, second = tmp_path / "one.pdf", tmp_path / "two.pdf"
        render_sheets(sheet_layout(dungeon, "letter"), 2, first)
        render_sheets(sheet_layout(dungeon, "letter"), 2, second)
        assert first.read_bytes() == second.read_bytes()


def test_random_sheet_prints_its_seed(tmp_path, random_42):
    path = tmp_path / "random.pdf"
    render_sheets(sheet_layout(random_42, "a4"), 1, path)
    text = PdfReader(path).pages[0].extract_text()
    assert "Random dungeon" in text and "seed 42" in text and "generator v1" in text


def test_what_players_draw_over_is_mid_grey_and_walls_are_dark(sheets, classic):
    """Pen strokes must stand out: grid, passages and icons print mid-grey, never black."""
    layout = sheet_layout(classic, "a4")
    scale = 200 / 72
    image = np.asarray(pdfium.PdfDocument(sheets["a4"])[0].render(scale=scale, grayscale=True)
                       .to_pil().convert("L")).astype(int)
    px = lambda mm: int(round(mm * 200 / 25.4))  # noqa: E731 - millimetres to pixels at 200 dpi
    for cell in layout.rooms:
        r = cell.rect
        inner = image[px(r.y + 1.2):px(r.bottom - 1.2), px(r.x + 1.2):px(r.right - 1.2)]
        assert inner.min() >= 95, f"room {cell.room.name} prints something darker than mid-grey"
    # The wall between A1 and B1 (classic.toml) is a heavy dark line.
    a1 = layout.room_cell("A1").rect
    wall = image[px(a1.y + 5):px(a1.bottom - 5), px(a1.right - 0.3):px(a1.right + 0.3) + 1]
    assert wall.max() < 80
