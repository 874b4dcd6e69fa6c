"""The "how to draw" key on every dungeon map sheet (a segment, a dead end, a Trap X, a round number), as a
player and the scanner see it: printed on every kind of map and on both papers, legible, clear of
everything else on the page, and outside the part of the page the scanner reads, so sheets printed before
it scan as they did."""
import dataclasses
import io

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from games.mapfile import load_map
from games.maps import FEATURES
from games.randommap import random_map
from sheets.dungeon import sheet_layout
from sheets.page import MARGIN, PAPERS, Rect
from generator.sheet import render_sheets

PT_PER_MM = 72 / 25.4
CAPTIONS = ("segment", "dead end", "Trap X", "round")
TITLE = "How to draw"
SMALLEST = 7.0          # pt: no text on a sheet is smaller but its footer (issue 22)
DESIGNED = ["classic"] + [f"map{n}" for n in range(1, 7)]
KINDS = {**{name: (lambda name=name: load_map(name)) for name in DESIGNED},
         "random": lambda: random_map(42),
         "random expansion": lambda: random_map(7, 1, frozenset(FEATURES)),
         "random expansion, some features": lambda: random_map(3, 1, frozenset({"caves", "doors"}))}


def _pdf(layout, players: int = 1) -> bytes:
    buffer = io.BytesIO()
    render_sheets(layout, players, buffer)
    return buffer.getvalue()


def _texts(page, height_mm: float) -> list[tuple[str, float, float, float]]:
    """Every piece of text on a PDF page: (text, size in pt, x and y of its start in layout mm)."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = abs(tm[0] * cm[0]) or 1.0
            x, y = cm[0] * tm[4] + cm[4], cm[3] * tm[5] + cm[5]
            found.append((text.strip(), size * scale, x / PT_PER_MM, height_mm - y / PT_PER_MM))

    page.extract_text(visitor_text=visit)
    return found


def _image(pdf: bytes, px_per_mm: float, page: int = 0) -> np.ndarray:
    bitmap = pdfium.PdfDocument(pdf)[page].render(scale=px_per_mm / PT_PER_MM)
    return np.asarray(bitmap.to_pil().convert("RGB")).astype(int)


def _pixels(rect: Rect, px_per_mm: float):
    return np.s_[int(rect.y * px_per_mm):int(np.ceil(rect.bottom * px_per_mm)),
                 int(rect.x * px_per_mm):int(np.ceil(rect.right * px_per_mm))]


# -- printed, legible, on every map ----------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_map_sheet_prints_the_key_with_captions_of_7_pt_or_more(kind, paper):
    layout = sheet_layout(KINDS[kind](), paper)
    reader = PdfReader(io.BytesIO(_pdf(layout)))
    texts = _texts(reader.pages[0], layout.height)
    key = layout.draw_key.grown(0.1)
    for caption in (TITLE, *CAPTIONS):
        printed = [(size, x, y) for text, size, x, y in texts if text == caption]
        assert printed, f"{kind} {paper}: the key lacks {caption!r}"
        for size, x, y in printed:
            assert size >= SMALLEST, f"{kind} {paper}: {caption!r} is printed at {size} pt"
            assert key.contains(Rect(x, y, 0, 0)), f"{kind} {paper}: {caption!r} is printed outside the key"
    in_key = [(text, size) for text, size, x, y in texts if key.contains(Rect(x, y, 0, 0))]
    assert sorted(text for text, _ in in_key) == sorted((TITLE, *CAPTIONS))


def test_every_player_s_page_prints_the_key(classic):
    layout = sheet_layout(classic, "letter")
    reader = PdfReader(io.BytesIO(_pdf(layout, players=3)))
    for number, page in enumerate(reader.pages, start=1):
        text = page.extract_text()
        assert all(caption in text for caption in (TITLE, *CAPTIONS)), f"page {number} lacks the key"


def test_the_layout_json_places_the_key_on_every_page(classic):
    layout = sheet_layout(classic, "a4")
    document = layout.to_json(players=2)
    key = layout.draw_key
    assert [page["draw_key"] for page in document["pages"]] == [
        {"x_mm": key.x, "y_mm": key.y, "w_mm": key.w, "h_mm": key.h}] * 2


# -- where it sits ------------------------------------------------------------------------------------

def _layouts():
    """Classic, the six expansion maps, plain random maps and twenty random expansion maps, on both papers."""
    maps = [(name, load_map(name)) for name in DESIGNED]
    maps += [(f"random {seed}", random_map(seed)) for seed in (9, 42, 4294967295)]
    maps += [(f"random expansion {seed}", random_map(seed, 1, frozenset(FEATURES))) for seed in range(20)]
    for name, dungeon in maps:
        for paper in PAPERS:
            yield f"{name} {paper}", sheet_layout(dungeon, paper)


def _reading_area(layout) -> Rect:
    """What the scanner reads and registers (``scanner.scan._reading_area``): the map and the scoring
    section, and 4 mm around them."""
    x, y = min(layout.grid.x, layout.score_area.x), layout.grid.y
    right, bottom = max(layout.grid.right, layout.score_area.right), layout.score_area.bottom
    return Rect(x, y, right - x, bottom - y).grown(4.0)


def _everything_else(layout) -> dict[str, Rect]:
    """Everything else printed on the page, by name."""
    g = layout.grid                     # the map with its column letters, row numbers and entry arrows
    things = {"map": Rect(g.x - 10.5, g.y - 10.5, g.w + 17.0, g.h + 17.0), "header": layout.header,
              "name row": layout.name_row, "qr with its quiet zone": layout.qr.grown(2.0),
              "score area": layout.score_area, "total": layout.total, "ruler": layout.ruler}
    things.update({f"marker {m.id}": m.rect for m in layout.markers})
    things.update({f"arrow {a.room.name}:{a.side}": a.footprint() for a in layout.arrows})
    for line in layout.score_lines:
        things[f"score line {line.item}"] = line.row
    if layout.die_legend is not None:
        things["die legend"] = layout.die_legend
    if layout.curse_box is not None:
        things["curse track"] = layout.curse_box
    # The footer's row between the lower markers: the sheet's name and layout version, the ruler, its note.
    left, right = layout.markers[3].rect, layout.markers[2].rect
    things["footer"] = Rect(left.right, layout.ruler.y, right.x - left.right, layout.ruler.h)
    return things


def test_the_key_sits_in_the_margin_clear_of_everything_and_of_what_the_scanner_reads():
    problems = []
    for name, layout in _layouts():
        key = layout.draw_key
        page = Rect(MARGIN, MARGIN, layout.width - 2 * MARGIN, layout.height - 2 * MARGIN)
        if not page.contains(key):
            problems.append(f"{name}: the key {key} leaves the page's {MARGIN} mm margin")
        if key.overlaps(_reading_area(layout)):
            problems.append(f"{name}: the key {key} lies in the area the scanner reads")
        for thing, rect in _everything_else(layout).items():
            if key.grown(1.0).overlaps(rect):
                problems.append(f"{name}: the key {key} comes within 1 mm of the {thing} {rect}")
        if key.w < 45.0 or key.h < 18.0:
            problems.append(f"{name}: the key {key} is too small to read")
    assert problems == []


def test_the_key_is_the_same_size_on_every_map_of_a_paper():
    sizes = {}
    for name, layout in _layouts():
        sizes.setdefault(layout.paper, set()).add((layout.draw_key.w, layout.draw_key.h))
    assert all(len(found) == 1 for found in sizes.values()), sizes


# -- what it prints ------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("kind", ["classic", "map6", "random", "random expansion"])
def test_the_key_prints_pen_strokes_inside_its_rectangle_and_nothing_else_changes(kind, paper):
    """Without the key the page is the same but for its rectangle, which is then blank (the title, what the
    map is and the name row keep out of it); with it, the rectangle shows blue pen strokes."""
    layout = sheet_layout(KINDS[kind](), paper)
    scale = 6.0
    with_key = _image(_pdf(layout), scale)
    without = _image(_pdf(dataclasses.replace(layout, draw_key=None)), scale)
    key = _pixels(layout.draw_key, scale)
    assert without[key].min() == 255, "something else is printed where the key goes"
    around = np.ones(with_key.shape[:2], dtype=bool)
    around[_pixels(layout.draw_key.grown(0.5), scale)] = False
    assert not (with_key != without).any(axis=2)[around].any(), "the key changed the page outside its rectangle"
    red, green, blue = (with_key[key][..., i] for i in range(3))
    pen = (blue - red > 40) & (blue < 200)
    assert pen.sum() > 150, "no pen-blue strokes in the key"
    dark = (with_key[key].max(axis=2) < 90).sum()
    assert dark > 150, "the key's captions and title are not printed dark"
