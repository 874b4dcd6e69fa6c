"""The Dungeon Maker sheet: layout invariants, the PDF a player prints, and what a scanner reads back."""
import dataclasses
import itertools
import json
import re

import numpy as np
import pypdfium2 as pdfium
import pytest

from tests_support import pdf_fonts
from pypdf import PdfReader
from pypdf.generic import ContentStream

from games.maker import LOOT_VERSION, SIZE, load_maker, roll_loot
from sheets.page import FORMAT, MARGIN, PAPERS, Rect
from games.errors import ScrawlError
from sheets.maker import GAME, SheetOverflow, layouts_json, maker_layout
from generator.maker_sheet import TextDoesNotFit, render_maker_sheets
from scanner.locate import find_markers, read_sheet_id

PT_PER_MM = 72 / 25.4
SEED = 1234
PAGES = 3
CASES = [(paper, seed, page) for paper in PAPERS for seed in (1, 1234, 987654321) for page in (1, 2, 7)]


@pytest.fixture(scope="module")
def maker():
    return load_maker()


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """Three pages of seed 1234 on each paper: the PDF path and its layouts."""
    folder = tmp_path_factory.mktemp("maker")
    made = {}
    for paper in PAPERS:
        layouts = [maker_layout(roll_loot(SEED, page), paper) for page in range(1, PAGES + 1)]
        path = folder / f"loot-{SEED}-{paper}.pdf"
        render_maker_sheets(layouts, path)
        made[paper] = (path, layouts)
    return made


# -- the layout ------------------------------------------------------------------------

@pytest.fixture(params=CASES, ids=lambda case: f"{case[0]}-seed{case[1]}-p{case[2]}")
def layout(request):
    paper, seed, page = request.param
    return maker_layout(roll_loot(seed, page), paper)


def test_the_grid_is_six_by_six_square_tiles_big_enough_to_draw_in(layout):
    assert len(layout.tiles) == SIZE * SIZE
    assert layout.tile_size >= 21.0, "tiles of about 22 mm: room to draw a monster"
    names = [tile.id for tile in layout.tiles]
    assert names == [f"{col}{row}" for row in range(1, 7) for col in "ABCDEF"]
    for tile in layout.tiles:
        assert (tile.rect.w, tile.rect.h) == (layout.tile_size, layout.tile_size)
        assert tile.rect.x == pytest.approx(layout.grid.x + (tile.room.col - 1) * layout.tile_size)
        assert tile.rect.y == pytest.approx(layout.grid.y + (tile.room.row - 1) * layout.tile_size)
    # Die faces 1..6: X over the columns, Y beside the rows.
    assert [d.value for d in layout.col_dice] == [1, 2, 3, 4, 5, 6]
    assert [d.value for d in layout.row_dice] == [1, 2, 3, 4, 5, 6]
    for die, tile in zip(layout.col_dice, layout.tiles[:SIZE]):
        assert die.rect.centre[0] == pytest.approx(tile.rect.centre[0]) and die.rect.bottom <= layout.grid.y
    for die, tile in zip(layout.row_dice, layout.tiles[::SIZE]):
        assert die.rect.centre[1] == pytest.approx(tile.rect.centre[1]) and die.rect.right <= layout.grid.x


def test_the_loot_is_printed_in_the_tiles_its_dice_rolled(layout):
    loot = layout.loot
    expected = {room.name: [kind] for room, kind in loot.items()}
    printed = {tile.id: list(tile.items) for tile in layout.tiles if tile.items}
    assert printed == expected
    assert sum(items == ["gem"] for items in printed.values()) == 4
    assert sum(items == ["potion"] for items in printed.values()) == 2
    for tile in layout.tiles:
        if tile.items:
            assert tile.rect.contains(tile.icon)


def test_no_two_parts_of_the_sheet_overlap(layout):
    things = layout.printed()
    for (a, ra), (b, rb) in itertools.combinations(things.items(), 2):
        assert not ra.overlaps(rb), f"{a} {ra} overlaps {b} {rb}"


def test_everything_stays_inside_the_margin(layout):
    inside = Rect(MARGIN, MARGIN, layout.width - 2 * MARGIN, layout.height - 2 * MARGIN)
    for name, rect in layout.printed().items():
        if name == "qr":
            rect = layout.qr          # its quiet zone may run into the margin
        assert inside.contains(rect), f"{name} {rect} leaves the printable area"
    for arrow in layout.arrows:
        for x, y in (arrow.tip, arrow.tail):
            assert inside.contains(Rect(x, y, 0, 0))


def test_every_box_to_write_in_sits_in_its_part_and_apart_from_the_others(layout):
    holders = [panel.rect for panel in layout.panels.values()] + [layout.header, layout.footer]
    for name, box in layout.boxes.items():
        assert any(holder.contains(box) for holder in holders), f"box {name} {box} is outside every panel"
    for (a, ra), (b, rb) in itertools.combinations(layout.boxes.items(), 2):
        assert not ra.overlaps(rb), f"box {a} overlaps box {b}"


def test_the_boxes_a_game_needs_are_all_there(layout, maker):
    boxes = layout.boxes
    assert {f"round_{n}" for n in range(1, maker.rounds + 1)} <= set(boxes)
    loot = maker.loot
    most = maker.start_coin + loot["gems"] * loot["gem_coin"] + loot["potions"] * loot["potion_coin"]
    assert {name for name in boxes if name.startswith("coin_")} == {f"coin_{n}" for n in range(most + 1)}
    assert {f"gem_{n}" for n in range(1, 5)} | {"potion_1", "potion_2"} <= set(boxes)
    assert {"tool_basic", "tool_upgraded", "name", "total"} <= set(boxes)
    assert {f"spell_{spell['id']}" for spell in maker.spells} <= set(boxes)
    assert {f"soul_{n}" for n in range(1, maker.heroes + 1)} <= set(boxes)
    assert {f"dungeon_hp_{n}" for n in range(1, maker.dungeon_hp + 1)} <= set(boxes)
    for stat in maker.stats:
        assert {f"modifier_{stat.id}_{n}" for n in range(1, maker.modifier_pips + 1)} <= set(boxes)
    for hero in range(1, maker.heroes + 1):
        assert {f"hero_{hero}_{key}" for key in ("type", "hp", "fate", *(s.id for s in maker.stats))} <= set(boxes)
    scoring_keys = {f"score_{key}" for key in ("monsters", "bosses", "traps", "lairs", "acid", "coin", "spells",
                                               "souls", "dungeon_hp")}
    assert scoring_keys <= set(boxes)


def test_a_market_too_long_for_the_page_is_refused(maker):
    crowded = dataclasses.replace(maker, market=maker.market * 3)
    for paper in PAPERS:
        with pytest.raises(SheetOverflow, match="no room left for the A round panel") as refused:
            maker_layout(roll_loot(1), paper, crowded)
        assert isinstance(refused.value, ScrawlError), "the command line turns it into one plain line"


def test_a_text_too_long_to_print_at_six_points_is_refused(maker, tmp_path):
    spells = list(maker.spells)
    spells[2] = dict(spells[2], text="buy any item whatever the dice say, then tell the table a long story " * 2)
    wordy = dataclasses.replace(maker, spells=tuple(spells))
    for paper in PAPERS:
        with pytest.raises(TextDoesNotFit, match="does not fit"):
            render_maker_sheets([maker_layout(roll_loot(1), paper, wordy)], tmp_path / "wordy.pdf")


def test_an_unknown_paper_is_refused():
    with pytest.raises(ValueError, match="unknown paper 'a5'"):
        maker_layout(roll_loot(1), "a5")


# -- the PDF -------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
def test_one_page_per_loot_layout_at_paper_size(sheets, paper):
    reader = PdfReader(sheets[paper][0])
    assert len(reader.pages) == PAGES
    width, height = PAPERS[paper]
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(width * PT_PER_MM, abs=0.05)
        assert float(page.mediabox.height) == pytest.approx(height * PT_PER_MM, abs=0.05)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_font_is_embedded_and_none_is_a_printer_font(sheets, paper):
    found = pdf_fonts(sheets[paper][0])
    assert found and all(embedded for _, embedded in found), found
    names = {name for name, _ in found}
    assert {"DarkGardenMK", "BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold"} <= names
    assert not names & {"Helvetica", "Helvetica-Bold", "Times-Roman", "Courier", "Symbol", "ZapfDingbats"}


@pytest.mark.parametrize("paper", list(PAPERS))
def test_no_text_is_smaller_than_six_points(sheets, paper):
    reader = PdfReader(sheets[paper][0])
    sizes = set()
    for page in reader.pages:
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"Tf":
                sizes.add(float(operands[1]))
    assert sizes and min(sizes) >= 6.0, sorted(sizes)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_chart_a_game_needs_is_printed(sheets, paper, maker):
    reader = PdfReader(sheets[paper][0])
    for number, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        for title in ("Dungeon Maker", "Keeper", "Rounds", "Tools", "Loot", "Gems", "Potions", "Hero HP table",
                      "Hero Basic Stats", "Stats Modifier", "Spells", "Market", "A round", "Hero phase", "Scoring",
                      "Souls", "Dungeon HP", "Total", "Hero Stats", "Coin", "Entrance", "Basic", "Upgraded"):
            assert title in text, f"page {number} lacks {title!r}"
        assert f"Loot layout: seed {SEED}, page {number}" in text
        for item in maker.market:
            assert item.name in text, f"the Market lacks {item.name}"
        for hero in maker.hero_types:
            assert hero.name in text
        for stat in maker.stats:
            assert stat.short in text
        for spell in maker.spells:
            assert spell["name"] in text and spell["text"] in text
        for tile in ("A1", "C5", "F6"):
            assert tile in text


def test_the_numbers_come_from_the_game_data(sheets, maker):
    text = PdfReader(sheets["a4"][0]).pages[0].extract_text()
    compact = re.sub(r"\s+", "", text)        # the rules wrap: compare without spaces

    def printed(words: str) -> bool:
        return re.sub(r"\s+", "", words) in compact

    assert printed(f"You have {maker.start_coin} Coin")
    assert printed(f"+{maker.loot['gem_coin']} Coin")
    assert printed(f"1 per {maker.scoring['coin_per_point']} Coin")
    assert printed(f"+{maker.soul_points} each")
    assert printed(f"Up to {maker.heroes} heroes")
    # Each check as a stat and value, e.g. DEX 13 for the Gate.
    shorts = {s.id: s.short for s in maker.stats}
    for item in maker.market:
        if item.check:
            assert f"{shorts[item.check]} {item.value}" in text
    for row in maker.hp_table:
        for cell in row:
            assert cell in compact


def _grey_page(path, index, px_per_mm=6.0):
    page = pdfium.PdfDocument(str(path))[index]
    image = page.render(scale=px_per_mm / PT_PER_MM, grayscale=True).to_pil().convert("L")
    return np.asarray(image)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_markers_and_the_qr_code_read_back(sheets, paper):
    path, layouts = sheets[paper]
    for index, layout in enumerate(layouts):
        image = _grey_page(path, index)
        markers = find_markers(image)
        assert sorted(markers) == [0, 1, 2, 3]
        for marker in layout.markers:
            cx, cy = markers[marker.id].mean(axis=0) / 6.0
            assert (cx, cy) == pytest.approx(marker.rect.centre, abs=1.0)
        found = read_sheet_id(image)
        assert found, found.reason
        sheet = found.value
        assert (sheet.game, sheet.paper, sheet.player, sheet.map_id) == (GAME, paper, index + 1, "loot")
        assert (sheet.seed, sheet.map_version, sheet.check) == (SEED, LOOT_VERSION, layout.loot.check())
        assert sheet.qr_text() == layout.sheet_id().qr_text()


def test_what_players_draw_over_prints_in_grey(sheets):
    path, layouts = sheets["a4"]
    layout = layouts[0]
    image = _grey_page(path, 0, px_per_mm=8.0).astype(int)
    px = lambda mm: int(round(mm * 8.0))  # noqa: E731 - millimetres to pixels
    for tile in layout.tiles:
        r = tile.rect
        inner = image[px(r.y + 0.8):px(r.bottom - 0.8), px(r.x + 0.8):px(r.right - 0.8)]
        assert inner.min() >= 110, f"tile {tile.id} prints something darker than mid-grey"
        if tile.items:
            assert inner.min() < 200, f"the {tile.items[0]} in {tile.id} is not printed"
        else:
            # Paths are drawn through the middle of each side: that cross (0.36 to 0.64 of a side) is clear.
            third = r.w * 0.37     # a little in from the boxes: their anti-aliased edges
            across = image[px(r.y + third):px(r.bottom - third), px(r.x + 1.2):px(r.right - 1.2)]
            down = image[px(r.y + 1.2):px(r.bottom - 1.2), px(r.x + third):px(r.right - third)]
            for band in (across, down):
                assert (band < 200).mean() < 0.01, f"tile {tile.id}'s middle should be clear for paths"
        for item, box in tile.marks:
            window = image[px(box.y + 0.3):px(box.bottom - 0.3), px(box.x + 0.3):px(box.right - 0.3)]
            assert window.min() >= 110 and window.mean() > 200, f"{item}'s box in {tile.id} is too dark to tick"


def test_every_tile_has_a_tick_box_per_market_item_clear_of_the_others(sheets):
    for paper in PAPERS:
        layout = sheets[paper][1][0]
        items = {item.id for item in layout.maker.market}
        for tile in layout.tiles:
            assert {item for item, _ in tile.marks} == items
            boxes = [box for _, box in tile.marks]
            assert min(box.w for box in boxes) >= 3.2, paper
            for i, one in enumerate(boxes):
                assert tile.rect.contains(one), (tile.id, paper)
                assert not any(one.overlaps(other) for other in boxes[i + 1:]), (tile.id, paper)
                # ... and out of the middle third of every side, where the path lines run
                r = tile.rect
                for band in (Rect(r.x, r.y + r.h * 0.36, r.w, r.h * 0.28), Rect(r.x + r.w * 0.36, r.y, r.w * 0.28, r.h)):
                    assert not one.overlaps(band), (tile.id, paper)


def test_same_input_gives_identical_bytes_and_pages_differ(tmp_path):
    one, two, other = tmp_path / "one.pdf", tmp_path / "two.pdf", tmp_path / "other.pdf"
    render_maker_sheets([maker_layout(roll_loot(42, 1), "letter")], one)
    render_maker_sheets([maker_layout(roll_loot(42, 1), "letter")], two)
    render_maker_sheets([maker_layout(roll_loot(42, 2), "letter")], other)
    assert one.read_bytes() == two.read_bytes()
    assert one.read_bytes() != other.read_bytes()


# -- the layout JSON -------------------------------------------------------------------------

def test_the_layout_json_names_the_game_the_pages_and_the_loot(sheets):
    layouts = sheets["letter"][1]
    document = json.loads(json.dumps(layouts_json(layouts)))
    assert document["format"] == FORMAT == "scrawl.sheet-layout/1"
    assert document["game"] == "dungeon-maker"
    assert document["loot"]["seed"] == SEED and document["loot"]["version"] == LOOT_VERSION
    assert document["page"] == {"paper": "letter", "width_mm": 215.9, "height_mm": 279.4}
    assert [p["page"] for p in document["pages"]] == [1, 2, 3]
    for page, layout in zip(document["pages"], layouts):
        assert page["player"] == page["page"] and page["seed"] == SEED
        assert page["qr_text"] == layout.sheet_id().qr_text()
        assert len(page["rooms"]) == 36 and page["sides"] == []
        loot = {room["id"]: room["items"] for room in page["rooms"] if room["items"]}
        assert loot == {room.name: [kind] for room, kind in layout.loot.items()}
        assert {item for items in loot.values() for item in items} == {"gem", "potion"}
        a1 = page["rooms"][0]
        assert (a1["id"], a1["row"], a1["col"]) == ("A1", 1, 1)
        assert a1["x_mm"] == round(layout.grid.x, 2) and a1["w_mm"] == layout.tile_size
        assert [m["id"] for m in page["markers"]] == [0, 1, 2, 3]
        assert set(page["qr"]) == {"x_mm", "y_mm", "size_mm"}
        assert set(page["boxes"]["total"]) == {"x_mm", "y_mm", "w_mm", "h_mm"}


def test_an_empty_run_has_no_layout_document():
    with pytest.raises(ValueError):
        layouts_json([])
