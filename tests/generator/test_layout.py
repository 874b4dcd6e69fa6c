"""Layout invariants a printed sheet depends on, on both papers, for designed and random maps."""
import itertools
import json

import pytest

from games.randommap import random_map
from sheets.dungeon import sheet_layout
from sheets.page import FORMAT, PAPERS, Rect

PRINTABLE_MARGIN = 6.0   # most printers leave 4-6 mm unprinted at each edge
CASES = [(paper, name) for paper in PAPERS for name in ("classic", "random")]


@pytest.fixture(params=CASES, ids=lambda case: f"{case[0]}-{case[1]}")
def layout(request, classic):
    paper, name = request.param
    return sheet_layout(classic if name == "classic" else random_map(9), paper)


def printed_things(layout):
    """Everything printed on the page that must not collide, by name."""
    things = {f"room {cell.room.name}": cell.rect for cell in layout.rooms}
    things.update({f"marker {m.id}": m.rect for m in layout.markers})
    things["qr"] = layout.qr.grown(2.0)  # the QR code's quiet zone belongs to it
    things["header"] = layout.header
    things["name row"] = layout.name_row
    things["how to draw key"] = layout.draw_key
    things["ruler"] = layout.ruler
    for line in layout.score_lines:
        for part in ("badge", "text", "tally", "count", "points"):
            if getattr(line, part) is not None:
                things[f"score {line.item} {part}"] = getattr(line, part)
    things["total"] = layout.total
    return things


def test_paper_sizes():
    assert PAPERS == {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def test_everything_is_inside_the_printable_area(layout):
    printable = Rect(PRINTABLE_MARGIN, PRINTABLE_MARGIN, layout.width - 2 * PRINTABLE_MARGIN,
                     layout.height - 2 * PRINTABLE_MARGIN)
    for name, rect in printed_things(layout).items():
        assert printable.contains(rect), f"{name} {rect} leaves the printable area"
    for arrow in layout.arrows:
        for x, y in (arrow.tip, arrow.tail):
            assert printable.contains(Rect(x, y, 0, 0))


def test_nothing_overlaps(layout):
    things = printed_things(layout)
    for (a, ra), (b, rb) in itertools.combinations(things.items(), 2):
        assert not ra.overlaps(rb), f"{a} {ra} overlaps {b} {rb}"


def test_rooms_are_square_on_a_regular_grid(layout):
    size = layout.room_size
    assert size >= 18.0, "rooms big enough to draw in with a marker"
    for cell in layout.rooms:
        assert (cell.rect.w, cell.rect.h) == (size, size)
        assert cell.rect.x == pytest.approx(layout.grid.x + (cell.room.col - 1) * size)
        assert cell.rect.y == pytest.approx(layout.grid.y + (cell.room.row - 1) * size)
        cx, cy, r = cell.round_box
        assert cell.rect.contains(Rect(cx - r, cy - r, 2 * r, 2 * r))
        assert cx < cell.rect.centre[0] and cy < cell.rect.centre[1], "round box in the upper-left"
        if cell.items:
            assert cell.rect.contains(cell.icon)
            nearest_x = min(max(cx, cell.icon.x), cell.icon.right)
            nearest_y = min(max(cy, cell.icon.y), cell.icon.bottom)
            assert (nearest_x - cx) ** 2 + (nearest_y - cy) ** 2 > (r + 0.3) ** 2, "icon clear of the round box"
        else:
            assert cell.icon is None


def test_markers_sit_in_the_four_corners_clockwise(layout):
    corners = [(0, 0), (layout.width, 0), (layout.width, layout.height), (0, layout.height)]
    assert [m.id for m in layout.markers] == [0, 1, 2, 3]
    for marker, (cx, cy) in zip(layout.markers, corners):
        mx, my = marker.rect.centre
        assert abs(mx - cx) < 20 and abs(my - cy) < 20, f"marker {marker.id} is not near its corner"
        assert marker.rect.w == marker.rect.h >= 10


def test_scoring_section_is_below_the_map(layout):
    assert layout.score_area.y > layout.grid.bottom
    for line in layout.score_lines:
        assert line.row.y > layout.grid.bottom
    assert [line.item for line in layout.score_lines] == [1, 2, 3, 4, 5, 6, 7]
    assert layout.total.y > layout.score_lines[-1].row.y
    assert layout.score_lines[5].tally is not None and layout.score_lines[6].tally is not None
    assert all(line.tally is None for line in layout.score_lines[:5])


def test_layout_json_follows_the_contract(layout):
    document = json.loads(json.dumps(layout.to_json(players=3)))
    assert document["format"] == FORMAT == "scrawl.sheet-layout/1"
    assert document["game"] == "doodles"
    assert {"id", "seed", "rows", "cols"} <= set(document["map"])
    assert document["page"] == {"paper": layout.paper, "width_mm": layout.width, "height_mm": layout.height}
    assert [(p["page"], p["player"]) for p in document["pages"]] == [(1, 1), (2, 2), (3, 3)]
    page = document["pages"][0]
    assert len(page["rooms"]) == 64
    room = page["rooms"][0]
    assert {"id", "row", "col", "x_mm", "y_mm", "w_mm", "h_mm", "items"} <= set(room)
    assert (room["id"], room["row"], room["col"]) == ("A1", 1, 1)
    assert {"unusable_tally", "trap_tally"} <= set(page["boxes"])
    assert all(set(box) == {"x_mm", "y_mm", "w_mm", "h_mm"} for box in page["boxes"].values())
    assert [m["id"] for m in page["markers"]] == [0, 1, 2, 3]
    assert all(set(m) >= {"id", "x_mm", "y_mm", "size_mm"} for m in page["markers"])
    items = sorted(i for r in page["rooms"] for i in r["items"])
    assert items.count("loot") == 4 and "dragon" in items and "weapon:F" in items and "monster:A" in items


def test_every_passage_is_listed_once_per_room_and_entries_once(layout):
    sides = layout.sides()
    dungeon = layout.dungeon
    assert {s["kind"] for s in sides} <= {"passage", "entry"}
    assert sum(s["kind"] == "entry" for s in sides) == 6
    passages = [(s["room"], s["side"]) for s in sides if s["kind"] == "passage"]
    assert len(passages) == len(set(passages)) == 2 * (112 - len(dungeon.walls))
