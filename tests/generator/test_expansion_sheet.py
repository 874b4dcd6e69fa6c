"""The expansion maps' sheets (RULES.md section 2) as a player, a printer and the scanner see them:
every element printed, nothing overlapping, the page size, the fonts, the texts, the ink."""
import dataclasses
import hashlib
import io
import json
import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from games.die import load_die
from games.mapfile import load_map
from games.maps import FEATURES, SIDES, STEP
from games.randommap import random_map
from games.scoring import score_items
from sheets.dungeon import sheet_layout
from sheets.page import PAPERS, Rect
from generator.sheet import render_sheets
from tests_support import pdf_fonts

PT_PER_MM = 72 / 25.4
MAPS = [f"map{n}" for n in range(1, 7)]
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CLEAR = 0.2     # mm that must stay between two printed things


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory):
    """Each expansion map's sheet, one page, on both papers: (layout, PDF bytes)."""
    made = {}
    for name in MAPS:
        for paper in PAPERS:
            layout = sheet_layout(load_map(name), paper)
            buffer = io.BytesIO()
            render_sheets(layout, 1, buffer)
            made[name, paper] = (layout, buffer.getvalue())
    return made


def _image(pdf: bytes, px_per_mm: float):
    page = pdfium.PdfDocument(pdf)[0]
    return np.asarray(page.render(scale=px_per_mm / PT_PER_MM, grayscale=True).to_pil().convert("L")).astype(int)


# -- shapes, for the overlap checks ---------------------------------------------------

def _rect_gap(a: Rect, b: Rect) -> float:
    dx = max(a.x - b.right, b.x - a.right)
    dy = max(a.y - b.bottom, b.y - a.bottom)
    return math.hypot(dx, dy) if dx > 0 and dy > 0 else max(dx, dy)


def _disc_rect_gap(disc, rect: Rect) -> float:
    cx, cy, r = disc
    dx = max(rect.x - cx, 0.0, cx - rect.right)
    dy = max(rect.y - cy, 0.0, cy - rect.bottom)
    return math.hypot(dx, dy) - r


def _gap(a, b) -> float:
    """How far apart two shapes (a Rect, or a disc (cx, cy, r)) stay; negative when they overlap."""
    if isinstance(a, Rect) and isinstance(b, Rect):
        return _rect_gap(a, b)
    if isinstance(a, Rect):
        return _disc_rect_gap(b, a)
    if isinstance(b, Rect):
        return _disc_rect_gap(a, b)
    return math.hypot(a[0] - b[0], a[1] - b[1]) - a[2] - b[2]


def _map_things(layout) -> dict[str, list[tuple[str, object]]]:
    """The things printed on the map that must keep apart, by kind: (name, shape)."""
    dungeon = layout.dungeon
    things = {"round box": [], "icon": [], "mark": [], "cave arrow": [], "side mark": [], "passage": []}
    for cell in layout.rooms:
        things["round box"].append((f"round box {cell.room.name}", cell.round_box))
        if cell.icon:
            things["icon"].append((f"{cell.items[0]} in {cell.room.name}", cell.icon))
        if cell.mark:
            things["mark"].append((f"{cell.items[0]} in {cell.room.name}", cell.mark))
        for side in ("E", "S"):
            if dungeon.side_kind(cell.room, side) == "passage" and not (
                    dungeon.door_at(cell.room, side) or dungeon.gate_at(cell.room, side)):
                x, y = cell.side_midpoint(side)
                things["passage"].append((f"passage {cell.room.name}:{side}", (x, y, 0.11 * layout.room_size)))
    for arrow in layout.arrows:
        if arrow.mouth is not None:
            things["cave arrow"].append((f"cave {arrow.room.name}:{arrow.side}", arrow.footprint()))
    for mark in layout.side_marks:
        things["side mark"].append((f"{mark.kind} {mark.name}", (*mark.centre, mark.radius)))
    return things


# Which kinds of things may not come near which (RULES.md section 2 elements against what a room holds).
APART = [("mark", "round box"), ("mark", "icon"), ("mark", "cave arrow"), ("mark", "side mark"),
         ("mark", "passage"), ("side mark", "round box"), ("side mark", "icon"), ("side mark", "cave arrow"),
         ("side mark", "side mark"), ("icon", "cave arrow"), ("cave arrow", "round box"),
         ("cave arrow", "passage")]


def overlaps(layout) -> list[str]:
    """Every pair of printed things that touch, as lines a person can read."""
    things = _map_things(layout)
    found = []
    for kind_a, kind_b in APART:
        for name_a, a in things[kind_a]:
            for name_b, b in things[kind_b]:
                if name_a != name_b and _gap(a, b) < CLEAR:
                    found.append(f"{name_a} touches {name_b} ({_gap(a, b):.2f} mm)")
    below = [("die legend", layout.die_legend), ("curse track", layout.curse_box)]
    for name, box in below:
        if box is None:
            continue
        for other, rect in [("score area", layout.score_area), ("grid", layout.grid)] + [
                (f"arrow {a.room.name}:{a.side}", a.footprint()) for a in layout.arrows]:
            if _gap(box, rect) < 1.0:
                found.append(f"{name} touches {other}")
    if layout.die_legend is not None and layout.curse_box is not None and _gap(layout.die_legend,
                                                                                layout.curse_box) < 3.0:
        found.append("die legend touches the curse track")
    return found


def page_overlaps(layout) -> list[str]:
    """Every pair of the page's blocks (header, name row, how to draw key, map, die band, scoring lines, markers,
    ruler) that overlap."""
    g = layout.grid                            # the map with its labels (left, top) and entry arrows
    drawing = Rect(g.x - 10.5, g.y - 10.5, g.w + 17.0, g.h + 17.0)
    things = {"map": drawing, "header": layout.header, "qr": layout.qr.grown(2.0), "ruler": layout.ruler,
              "total": layout.total, "name row": layout.name_row, "how to draw key": layout.draw_key}
    things.update({f"marker {m.id}": m.rect for m in layout.markers})
    for line in layout.score_lines:
        for part in ("badge", "text", "tally", "count", "points"):
            if getattr(line, part) is not None:
                things[f"score {line.item} {part}"] = getattr(line, part)
    if layout.die_legend is not None:
        things["die legend"] = layout.die_legend
    if layout.curse_box is not None:
        things["curse track"] = layout.curse_box
    names = sorted(things)
    return [f"{a} overlaps {b}" for i, a in enumerate(names) for b in names[i + 1:]
            if {a, b} != {"map", "header"} and things[a].overlaps(things[b])]


def random_expansion_layouts():
    for seed in range(50):
        dungeon = random_map(seed, 1, frozenset(FEATURES))
        for paper in PAPERS:
            yield seed, paper, sheet_layout(dungeon, paper)


# -- geometry -------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("name", MAPS)
def test_nothing_on_an_expansion_map_overlaps(name, paper):
    layout = sheet_layout(load_map(name), paper)
    assert overlaps(layout) + page_overlaps(layout) == []


def test_nothing_overlaps_on_fifty_random_expansion_maps():
    problems = [f"seed {seed} {paper}: {line}" for seed, paper, layout in random_expansion_layouts()
                for line in overlaps(layout) + page_overlaps(layout)]
    assert problems == []


@pytest.mark.parametrize("features", [("diamonds",), ("caves", "runes"), ("doors", "skull"),
                                      ("emeralds",), ("diamonds", "emeralds")])
def test_nothing_overlaps_with_some_features_only(features):
    for seed in range(10):
        for paper in PAPERS:
            layout = sheet_layout(random_map(seed, 1, frozenset(features)), paper)
            assert overlaps(layout) + page_overlaps(layout) == [], (seed, paper)


def test_the_overlap_check_sees_an_overlap():
    layout = sheet_layout(load_map("map6"), "a4")
    cell = next(c for c in layout.rooms if c.mark)
    moved = dataclasses.replace(cell, mark=Rect(cell.round_box[0], cell.round_box[1], cell.mark.w, cell.mark.h))
    rooms = tuple(moved if c.room == cell.room else c for c in layout.rooms)
    assert any("round box" in line for line in overlaps(dataclasses.replace(layout, rooms=rooms)))


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("name", MAPS)
def test_everything_stays_in_its_room_and_on_the_page(name, paper):
    layout = sheet_layout(load_map(name), paper)
    for cell in layout.rooms:
        for box in (cell.icon, cell.mark):
            if box is not None:
                assert cell.rect.contains(box.grown(-0.3)), f"{cell.items} leaves {cell.room.name}"
    printable = Rect(6.0, 6.0, layout.width - 12.0, layout.height - 12.0)
    for box in (layout.die_legend, layout.curse_box, layout.score_area, layout.total):
        if box is not None:
            assert printable.contains(box)
    assert layout.total.bottom < layout.ruler.y


def test_rooms_stay_big_enough_to_draw_in():
    for name in MAPS:
        assert sheet_layout(load_map(name), "a4").room_size >= 17.5
        assert sheet_layout(load_map(name), "letter").room_size >= 15.5


def test_marks_sit_in_a_corner_clear_of_the_paths():
    """A Diamond or an Emerald is crossed out with a pen: never on the lines a path takes through the
    middle of its room."""
    for name in MAPS:
        layout = sheet_layout(load_map(name), "letter")
        for cell in layout.rooms:
            if cell.mark:
                cx, cy = cell.rect.centre
                line = 0.6     # half a pen stroke
                assert cell.mark.x > cx + line or cell.mark.right < cx - line
                assert cell.mark.y > cy + line or cell.mark.bottom < cy - line


# -- the layout JSON ------------------------------------------------------------------

@pytest.mark.parametrize("name", MAPS)
def test_layout_json_lists_every_element(name):
    dungeon = load_map(name)
    layout = sheet_layout(dungeon, "a4")
    page = json.loads(json.dumps(layout.to_json(players=2)))["pages"][1]
    rooms = {room["id"]: room for room in page["rooms"]}
    for room, item in dungeon.items:
        assert item.name in rooms[room.name]["items"]
        if item.kind in ("diamond", "emerald"):
            assert set(rooms[room.name]["mark"]) == {"x_mm", "y_mm", "w_mm", "h_mm"}
        else:
            assert "mark" not in rooms[room.name]
    kinds = {(side["room"], side["side"]): side["kind"] for side in page["sides"]}
    for side, icon in dungeon.doors:
        for room in side:
            other = next(r for r in side if r != room)
            direction = next(s for s in SIDES if room.neighbour(s) == other)
            assert kinds[room.name, direction] == f"magic_door:{icon}"
    for side, glyph in dungeon.gates:
        for room in side:
            direction = next(s for s in SIDES if room.neighbour(s) in side and room.neighbour(s) != room)
            assert kinds[room.name, direction] == f"rune_gate:{glyph}"
    for room, side in dungeon.cave_entries():
        assert kinds[room.name, side] == "entry"
    marks = page.get("side_marks", [])
    assert len(marks) == len(dungeon.doors) + len(dungeon.gates)
    assert all({"id", "kind", "cx_mm", "cy_mm", "r_mm"} <= set(mark) for mark in marks)
    assert page["boxes"].get("die_legend") is not None or not dungeon.needs_die
    for k in range(1, dungeon.curse_spaces + 1):
        assert {f"curse_{k}_top", f"curse_{k}_bottom"} <= set(page["boxes"])
    assert f"curse_{dungeon.curse_spaces + 1}_top" not in page["boxes"]


def test_the_richest_map_has_every_kind_of_element():
    """Map 6 holds every expansion element, so its layout shows each kind the scanner must read."""
    page = sheet_layout(load_map("map6"), "a4").to_json()["pages"][0]
    items = {item.split(":")[0] for room in page["rooms"] for item in room["items"]}
    assert {"diamond", "skull", "skull_coin", "emerald"} <= items
    kinds = {side["kind"].split(":")[0] for side in page["sides"]}
    assert {"magic_door", "rune_gate", "entry", "passage"} <= kinds
    assert {"curse_track", "curse_1_top", "curse_1_bottom", "die_legend"} <= set(page["boxes"])


# -- the PDF --------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("name", MAPS)
def test_page_size_and_embedded_fonts(pdfs, name, paper):
    _, pdf = pdfs[name, paper]
    reader = PdfReader(io.BytesIO(pdf))
    width, height = PAPERS[paper]
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(width * PT_PER_MM, abs=0.05)
    assert float(box.height) == pytest.approx(height * PT_PER_MM, abs=0.05)
    fonts = pdf_fonts(io.BytesIO(pdf))
    assert fonts and all(embedded for _, embedded in fonts), fonts


@pytest.mark.parametrize("name", MAPS)
def test_the_sheet_prints_its_own_scoring_list_and_die_legend(pdfs, name):
    layout, pdf = pdfs[name, "a4"]
    dungeon = layout.dungeon
    text = " ".join(PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    assert f"expansion map {name[3:]}" in text and dungeon.name in text
    for number, label, rule in score_items(dungeon):
        assert label in text, f"{name} lacks scoring item {number} {label!r}"
        assert " ".join(rule.split()[:4]) in text, f"{name} lacks the rule of item {number}"
    printed = {label for _, label, _ in score_items(dungeon)}
    for absent in {"Diamonds", "Skull Coins", "Emeralds"} - printed:
        assert absent not in text
    features = dungeon.expansion_features()
    assert ("The Die" in text) == dungeon.needs_die
    if "diamonds" in features:
        assert "cross out that Diamond" in text
    if "doors" in features:
        assert "Magic Doors" in text
    if dungeon.curse_spaces:
        assert "Curse Track" in text and "from the right" in text and "from the left" in text
        for k in range(1, dungeon.curse_spaces + 1):
            assert str(k) in text
    if dungeon.needs_die:
        for number, _ in load_die().faces:
            assert str(number) in text


def test_a_random_expansion_sheet_names_its_seed_and_features(tmp_path):
    layout = sheet_layout(random_map(77, 1, frozenset(FEATURES)), "letter")
    path = tmp_path / "random.pdf"
    render_sheets(layout, 1, path)
    text = " ".join(PdfReader(path).pages[0].extract_text().split())
    assert "Random expansion map #77" in text
    assert "diamonds, caves, doors, skull, emeralds, runes" in text


@pytest.mark.parametrize("paper", list(PAPERS))
def test_what_players_mark_is_printed_and_the_curse_halves_are_white(pdfs, paper):
    """Each Diamond's or Emerald's box and each gate's circle shows print (the scanner compares with the
    blank); the Curse Track's halves are white inside, so a filled half reads at once."""
    scale = 8.0
    layout, pdf = pdfs["map6", paper]
    image = _image(pdf, scale)
    px = lambda mm: int(round(mm * scale))  # noqa: E731 - millimetres to pixels

    def patch(rect, inset):
        return image[px(rect.y + inset):px(rect.bottom - inset), px(rect.x + inset):px(rect.right - inset)]

    marks = [cell for cell in layout.rooms if cell.mark]
    assert len(marks) == 10
    for cell in marks:
        inside = patch(cell.mark, 0.3)
        assert inside.min() < 200, f"nothing printed in the mark of {cell.room.name}"
        assert inside.min() > 60, f"the mark of {cell.room.name} prints too dark to cross out"
        assert inside.mean() > 200, f"the mark of {cell.room.name} is not light"
    for gate in layout.gates():
        cx, cy = gate.centre
        r = gate.radius * 0.6
        inside = image[px(cy - r):px(cy + r), px(cx - r):px(cx + r)]
        assert inside.min() < 215 and inside.min() > 60 and inside.mean() > 200, gate.name
    for space in layout.curse:
        for half in (space.top, space.bottom):
            inside = patch(half, 0.5)
            assert inside.min() > 235, f"curse space {space.number} is not white inside"


def test_doors_and_gates_are_light_where_the_path_crosses(pdfs):
    """A path crosses a Magic Door or a Rune Gate through the side's midpoint: no dark print there."""
    scale = 8.0
    layout, pdf = pdfs["map6", "a4"]
    image = _image(pdf, scale)
    for mark in layout.side_marks:
        x, y = (int(round(v * scale)) for v in mark.centre)
        assert image[y - 2:y + 3, x - 2:x + 3].min() > 90, mark.name


def test_a_cave_entrance_is_a_wall_with_an_arrow():
    """A cave entrance's side is printed as a wall (it is one, seen from the room beyond), its arrow in
    that room pointing through it."""
    scale = 8.0
    layout = sheet_layout(load_map("map3"), "a4")
    buffer = io.BytesIO()
    render_sheets(layout, 1, buffer)
    image = _image(buffer.getvalue(), scale)
    caves = [a for a in layout.arrows if a.mouth is not None]
    assert len(caves) == len(layout.dungeon.cave_entries()) == 2
    for arrow in caves:
        cell = layout.room_cell(arrow.room.name)
        x1, y1, x2, y2 = cell.side_ends(arrow.side)
        # Along the wall, a quarter of the way from its end: the wall's dark line.
        qx, qy = x1 + (x2 - x1) * 0.2, y1 + (y2 - y1) * 0.2
        assert image[int(qy * scale), int(qx * scale)] < 80, f"no wall at cave {arrow.room.name}:{arrow.side}"
        dc, dr = STEP[arrow.side]
        assert arrow.tip == pytest.approx(tuple(m + 0.8 * d for m, d in zip(cell.side_midpoint(arrow.side),
                                                                             (dc, dr))))
        beyond = layout.room_cell(arrow.room.neighbour(arrow.side).name).rect
        assert beyond.contains(Rect(*arrow.tail, 0, 0)), "the arrow lies in the room beyond the wall"


# -- classic sheets are unchanged ---------------------------------------------------------

def test_classic_sheet_prints_byte_for_byte_as_the_committed_sample():
    buffer = io.BytesIO()
    render_sheets(sheet_layout(load_map("classic"), "a4"), 1, buffer, "K7QX")
    committed = (SAMPLES / "sheet-classic-a4.pdf").read_bytes()
    assert hashlib.sha256(buffer.getvalue()).hexdigest() == hashlib.sha256(committed).hexdigest()
    layout_json = json.dumps(sheet_layout(load_map("classic"), "a4").to_json(1, "K7QX"), indent=1) + "\n"
    assert layout_json == (SAMPLES / "sheet-classic-a4.layout.json").read_text()


def test_plain_random_sheet_prints_byte_for_byte_as_the_committed_sample():
    buffer = io.BytesIO()
    render_sheets(sheet_layout(random_map(1234), "letter"), 1, buffer, "K7QX")
    assert buffer.getvalue() == (SAMPLES / "sheet-random-1234-letter.pdf").read_bytes()


def test_an_expansion_sheet_prints_the_same_whatever_the_process():
    """The key beside the map shows one Magic Door's icon and one Rune Gate's glyph. They were picked by
    sorting (side, icon) pairs whose sides are sets, an order that changed with Python's string hashing
    from one run to the next: map 3 and map 6 printed different icons on different runs, and the blank the
    scanner compares a photo with could differ from the sheet printed."""
    import os
    import subprocess
    import sys

    script = ("import hashlib, numpy; from generator.kinds import BLANKS; from games.mapfile import load_map; "
              "from sheets.dungeon import sheet_layout; "
              "print([hashlib.md5(numpy.ascontiguousarray(BLANKS['map'](sheet_layout(load_map(m), 'a4'), 2.0))"
              ".tobytes()).hexdigest() for m in ('map3', 'map6')])")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1", "2")}
    assert len(runs) == 1, runs
