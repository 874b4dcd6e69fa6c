"""The monster record sheet: layout invariants, the layout JSON, the PDF a player prints, and what a scanner
finds on it."""
import itertools
import json

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from sheets.page import FORMAT, MARGIN, PAPERS, Rect, SheetId
from sheets.roster import (COLOURS, DESIGN, GAME, LIFE, MONSTERS_PER_PAGE, PART_TYPES, SIZES, design_check,
                                      layouts_json, monster_layout)
from generator.kinds import blank_image
from generator.monster_sheet import render_monster_sheets
from scanner.locate import find_markers, read_sheet_id
from tests_support import pdf_fonts, run_cli

PT_PER_MM = 72 / 25.4
BUBBLES_PER_PAGE = MONSTERS_PER_PAGE * (len(SIZES) + len(COLOURS) + 4 * (len(SIZES) + len(COLOURS) + len(PART_TYPES))) \
    + 2 * len(SIZES) * len(COLOURS)


@pytest.fixture(params=[(paper, player, page) for paper in PAPERS for player, page in ((1, 1), (2, 3))],
                ids=lambda case: f"{case[0]}-p{case[1]}-sheet{case[2]}")
def layout(request):
    paper, player, page = request.param
    return monster_layout(paper, player, page, pages=3)


# -- the layout ------------------------------------------------------------------------

def test_each_page_holds_three_monsters_of_a_core_and_four_parts(layout):
    assert len(layout.cards) == MONSTERS_PER_PAGE
    assert [card.number for card in layout.cards] == [3 * (layout.page - 1) + n for n in (1, 2, 3)]
    for card in layout.cards:
        assert [row.label for row in card.parts] == ["Core", "Part 1", "Part 2", "Part 3", "Part 4"]
        for row in card.parts:
            assert [b.value for b in row.sizes] == ["d4", "d6", "d8", "d10", "d12", "d20"]
            assert [b.value for b in row.colours] == list(COLOURS)
            assert [b.value for b in row.types] == ([] if row.part == 0 else list(PART_TYPES))
            assert len(row.life) == LIFE == 20, "a life track long enough for a d20"
            assert card.rect.contains(row.row) and card.rect.contains(row.name)
            for thing in [b.rect for b in row.sizes + row.colours + row.types] + list(row.life):
                assert card.rect.contains(thing)
        assert card.sketch.w >= 38.0 and card.sketch.h >= 50.0, "room to draw a monster"


def test_bubbles_are_big_enough_to_fill_and_never_touch(layout):
    bubbles = layout.bubbles()
    assert len(bubbles) == BUBBLES_PER_PAGE
    assert min(b.r for b in bubbles) >= 1.6
    centres = np.array([(b.cx, b.cy) for b in bubbles])
    radii = np.array([b.r for b in bubbles])
    gaps = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1)) - radii[:, None] - radii[None]
    np.fill_diagonal(gaps, np.inf)
    assert gaps.min() >= 0.5, "neighbouring bubbles keep half a millimetre apart"
    boxes = [box for track in layout.life_tracks().values() for box in track]
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)


def test_no_two_parts_of_the_sheet_overlap_and_all_keep_the_margin(layout):
    things = layout.printed()
    for (a, ra), (b, rb) in itertools.combinations(things.items(), 2):
        assert not ra.overlaps(rb), f"{a} {ra} overlaps {b} {rb}"
    inside = Rect(MARGIN, MARGIN, layout.width - 2 * MARGIN, layout.height - 2 * MARGIN)
    for name, rect in things.items():
        assert inside.contains(layout.qr if name == "qr" else rect), f"{name} {rect} leaves the printable area"
    for pool in layout.pools:
        assert len(pool.bubbles) == len(SIZES) * len(COLOURS)
        assert all(pool.rect.contains(b.rect) for b in pool.bubbles)
        assert pool.bubble(20, "pink").value == "d20 pink"


def test_groups_are_named_as_needs_review_names_them(layout):
    groups = layout.groups()
    first = layout.cards[0].number
    assert f"monster {first} core size" in groups and f"monster {first} core colour" in groups
    assert f"monster {first} core type" not in groups
    assert f"monster {first + 2} part 4 type" in groups
    assert len(groups) == MONSTERS_PER_PAGE * (2 + 4 * 3)
    assert all(b.group == name for name, bubbles in groups.items() for b in bubbles)
    assert set(layout.life_tracks()) == {f"{row.where} life" for row in layout.rows()}


def test_the_qr_code_names_game_player_and_page(layout):
    sheet = layout.sheet_id()
    text = sheet.qr_text()
    assert text == f"DS/L1/MONSTERS/{layout.paper.upper()}/P{layout.player}/ROSTER.{DESIGN}.{layout.page}/{sheet.check}"
    back = SheetId.parse(text)
    assert back == sheet and (back.game, back.player, back.seed) == (GAME, layout.player, layout.page)
    assert back.check == design_check(layout.paper) != design_check("letter" if layout.paper == "a4" else "a4")


def test_a_bad_paper_or_page_is_refused():
    with pytest.raises(ValueError, match="unknown paper"):
        monster_layout("a5")
    with pytest.raises(ValueError, match="page 3 of 2"):
        monster_layout("a4", 1, 3, 2)


# -- the layout JSON ----------------------------------------------------------------------

def test_the_layout_json_lists_every_bubble_box_and_field():
    layouts = [monster_layout("a4", player) for player in (1, 2)]
    document = json.loads(json.dumps(layouts_json(layouts)))
    assert document["format"] == FORMAT and document["game"] == "monsters"
    assert document["page"] == {"paper": "a4", "width_mm": 210.0, "height_mm": 297.0}
    assert document["roster"]["colours"] == list(COLOURS) and document["roster"]["life"] == 20
    for page, layout in zip(document["pages"], layouts):
        assert page["qr_text"] == layout.sheet_id().qr_text() and page["player"] == layout.player
        listed = {(b["group"], b["value"]) for b in page["bubbles"]}
        assert len(page["bubbles"]) == len(listed) == BUBBLES_PER_PAGE
        assert listed == {(b.group, b.value) for b in layout.bubbles()}
        for entry in page["bubbles"]:
            assert set(entry) == {"group", "value", "cx_mm", "cy_mm", "r_mm"}
        groups = {b["group"] for b in page["bubbles"]}
        for monster in page["monsters"]:
            for part in monster["parts"]:
                assert set(part["groups"]) <= groups and part["life"] in page["life"]
        assert len(page["life"]) == 15 and all(len(boxes) == 20 for boxes in page["life"].values())
        assert {"player name", "monster 1 name", "monster 1 sketch", "monster 3 part 4 name"} <= set(page["fields"])
        assert set(page["pools"]) == {"reserve", "active"}
        assert [m["id"] for m in page["markers"]] == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        layouts_json([])


# -- the PDF ----------------------------------------------------------------------------

def test_scrawl_monsters_writes_letter_pages_with_readable_markers_and_qr(tmp_path, capsys):
    pdf = tmp_path / "m.pdf"
    code, out, err = run_cli(capsys, "monsters", "--count", "2", "--paper", "letter", "-o", pdf)
    assert code == 0 and err == ""
    assert "2 pages, LETTER, 2 players" in out and str(pdf.with_suffix(".layout.json")) in out
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2
    for page in reader.pages:
        box = page.mediabox
        assert (float(box.width), float(box.height)) == pytest.approx((215.9 * PT_PER_MM, 279.4 * PT_PER_MM), abs=0.01)
    assert all(embedded for _, embedded in pdf_fonts(pdf))
    document = json.loads(pdf.with_suffix(".layout.json").read_text())
    assert [p["player"] for p in document["pages"]] == [1, 2]
    rendered = pdfium.PdfDocument(pdf)
    for index in (0, 1):
        image = np.asarray(rendered[index].render(scale=150 / 72, grayscale=True).to_pil().convert("L"))
        markers = find_markers(image)
        assert sorted(markers) == [0, 1, 2, 3]
        layout = monster_layout("letter", index + 1)
        for marker in layout.markers:
            expected = np.array(marker.rect.centre) * 150 / 25.4
            assert np.abs(markers[marker.id].mean(axis=0) - expected).max() < 2.0
        found = read_sheet_id(image)
        assert found, found.reason
        assert (found.value.game, found.value.player, found.value.paper, found.value.seed) == \
            ("monsters", index + 1, "letter", 1)


def test_pages_for_each_player_number_their_monsters_on(tmp_path, capsys):
    pdf = tmp_path / "m.pdf"
    code, out, _ = run_cli(capsys, "monsters", "--count", "1", "--pages", "2", "-o", pdf)
    assert code == 0 and "2 pages, A4, 1 player, 6 monsters each" in out
    document = json.loads(pdf.with_suffix(".layout.json").read_text())
    assert [(p["player"], p["page"]) for p in document["pages"]] == [(1, 1), (1, 2)]
    assert [m["monster"] for m in document["pages"][1]["monsters"]] == [4, 5, 6]


def test_same_arguments_same_bytes(tmp_path):
    layouts = [monster_layout("a4", 1)]
    render_monster_sheets(layouts, tmp_path / "a.pdf")
    render_monster_sheets(layouts, tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_a_bubble_holds_only_its_own_light_label_and_a_life_box_nothing():
    """The scanner reads the inside of each bubble and box: a bubble may carry its label ("4", "Rd") in light
    grey, as on an exam answer sheet, but nothing darker and not all over it; a life box stays white."""
    layout = monster_layout("a4", 1)
    grey = blank_image("monster", layout, 10.0)
    rows, cols = np.mgrid[0:grey.shape[0], 0:grey.shape[1]]
    for bubble in layout.bubbles():
        window = np.s_[int((bubble.cy - 2) * 10):int((bubble.cy + 2) * 10), int((bubble.cx - 2) * 10):int((bubble.cx + 2) * 10)]
        read = np.hypot((rows[window] + 0.5) / 10 - bubble.cy, (cols[window] + 0.5) / 10 - bubble.cx) < bubble.r - 0.45
        inside = grey[window][read]
        assert inside.min() > 185, f"{bubble.group} {bubble.value}: print darker than a label's light grey"
        assert (inside < 235).mean() < 0.4, f"{bubble.group} {bubble.value}: its label covers too much of it"
    for track in layout.life_tracks().values():
        for box in track:
            inside = grey[int((box.y + 0.5) * 10):int((box.bottom - 0.5) * 10),
                          int((box.x + 0.5) * 10):int((box.right - 0.5) * 10)]
            assert inside.min() > 235


def page_text(pdf_path, page: int = 0) -> list[tuple[str, float, tuple]]:
    """Every printed character of a page: (character, font size in pt, its box in PDF points)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(pdf_path)
    text = document[page].get_textpage()
    found = [(chr(raw.FPDFText_GetUnicode(text.raw, i)), raw.FPDFText_GetFontSize(text.raw, i), text.get_charbox(i))
             for i in range(text.count_chars())]
    return [entry for entry in found if not entry[0].isspace()]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_text_under_7_pt_but_the_footer_at_6(tmp_path, paper):
    render_monster_sheets([monster_layout(paper, 1)], tmp_path / "m.pdf")
    chars = page_text(tmp_path / "m.pdf")
    footer = "".join(ch for ch, size, _ in chars if size < 6.95)
    assert footer.startswith("dungeon-scrawl") and footer.endswith(paper.upper()), footer
    assert min(size for _, size, _ in chars) >= 6.0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_row_names_its_colours_and_sides_inside_its_bubbles(tmp_path, paper):
    """Part 4's row needs no heading three rows up: each bubble says which colour or die it is."""
    layout = monster_layout(paper, 1)
    render_monster_sheets([layout], tmp_path / "m.pdf")
    text = "".join(ch for ch, _, _ in page_text(tmp_path / "m.pdf"))
    rows = sum(len(card.parts) for card in layout.cards)
    pool_rows = sum(len(pool.bubbles) for pool in layout.pools) // 12
    assert text.count("Rd") == text.count("Pk") == rows + pool_rows
    assert text.count("20") >= rows


@pytest.mark.parametrize("arguments, message", [
    (["--count", "0"], "--count"),
    (["-o", "sheets.png"], "name it FILE.pdf"),
])
def test_bad_monsters_arguments_are_one_line(tmp_path, capsys, arguments, message):
    code, out, err = run_cli(capsys, "monsters", *arguments)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_the_vocabulary_is_the_rules_half_s():
    monsters = pytest.importorskip("games.monsters")
    for name, ours in (("SIZES", SIZES), ("COLOURS", COLOURS), ("PART_TYPES", PART_TYPES)):
        theirs = getattr(monsters, name, None)
        if theirs is not None:
            assert tuple(theirs) == tuple(ours), name
