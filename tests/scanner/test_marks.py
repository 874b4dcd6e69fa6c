"""The expansion-mark readers on synthetic ink: a blank ink map with strokes drawn where a player would."""
import cv2
import numpy as np
import pytest

from sheets.page import Rect
from scanner.marks import MarkReading, MarksReading, read_cross, read_gate, read_half, solid_fills
from scanner.read import SURE

PPM = 5.0
WIDTH_MM = 0.5


def blank() -> np.ndarray:
    return np.zeros((int(60 * PPM), int(60 * PPM)), np.float32)


def stroke(ink: np.ndarray, *points_mm, width_mm: float = WIDTH_MM) -> np.ndarray:
    """A pen stroke through the points (mm), full ink."""
    pts = np.round(np.array(points_mm, np.float64) * PPM * 16).astype(np.int32)
    cv2.polylines(ink, [pts], False, 1.0, max(1, int(round(width_mm * PPM))), cv2.LINE_AA, 4)
    return ink


BOX = Rect(20.0, 20.0, 5.1, 5.1)            # a Diamond's or Emerald's box
HALF = Rect(20.0, 20.0, 8.8, 5.5)           # the top half of a Curse Track space
GATE, RADIUS = (30.0, 30.0), 3.2            # a Rune Gate on a vertical side: the path runs left-right


def sure(reading) -> bool:
    return reading[2] >= SURE


# -- Diamonds and Emeralds ------------------------------------------------------------------------------

def test_an_x_crosses_a_mark_out():
    ink = stroke(stroke(blank(), (20.3, 20.4), (24.8, 24.9)), (24.7, 20.2), (20.4, 24.8))
    crossed, strength, confidence, _ = read_cross(ink, BOX, PPM)
    assert crossed and confidence >= SURE and strength > 0.9


def test_a_single_slash_crosses_a_mark_out():
    ink = stroke(blank(), (20.2, 25.0), (25.0, 20.3))
    assert read_cross(ink, BOX, PPM)[0] and sure(read_cross(ink, BOX, PPM))


def test_a_scribble_crosses_a_mark_out():
    ink = stroke(blank(), (20.5, 21), (21.5, 24.5), (22.5, 21), (23.5, 24.5), (24.5, 21))
    assert read_cross(ink, BOX, PPM)[0] and sure(read_cross(ink, BOX, PPM))


def test_a_sloppy_x_running_past_the_box_crosses_it_out():
    ink = stroke(stroke(blank(), (19.0, 19.2), (26.2, 26.0)), (26.0, 19.1), (19.3, 26.3))
    assert read_cross(ink, BOX, PPM)[0] and sure(read_cross(ink, BOX, PPM))


def test_nothing_on_a_mark_is_surely_not_crossed():
    assert read_cross(blank(), BOX, PPM) == (False, 0.0, 1.0, ())


def test_a_stroke_touching_the_box_edge_does_not_cross_it_out():
    ink = stroke(blank(), (14.0, 22.5), (20.4, 22.6))        # a path's overshoot, stopping at the edge
    crossed, _, confidence, _ = read_cross(ink, BOX, PPM)
    assert not crossed and confidence >= SURE


def test_a_short_mark_inside_the_box_is_a_doubt():
    ink = stroke(blank(), (22.0, 22.0), (23.2, 22.6))
    crossed, _, confidence, doubts = read_cross(ink, BOX, PPM)
    assert confidence < SURE and doubts


# -- Curse Track halves --------------------------------------------------------------------------------

def hatch(ink, rect, gap=1.2):
    for x in np.arange(rect.x + 0.4, rect.right - 0.2, gap):
        stroke(ink, (x, rect.y + 0.3), (x, rect.bottom - 0.3))
    return ink


def test_a_hatched_half_is_filled():
    filled, strength, confidence, _ = read_half(hatch(blank(), HALF), HALF, PPM)
    assert filled and confidence >= SURE and strength > 0.8


def test_a_scribbled_half_is_filled():
    xs = np.arange(HALF.x + 0.3, HALF.right, 0.9)
    points = [(x, HALF.y + 0.4 if i % 2 == 0 else HALF.bottom - 0.4) for i, x in enumerate(xs)]
    filled, _, confidence, _ = read_half(stroke(blank(), *points), HALF, PPM)
    assert filled and confidence >= SURE


def test_a_solid_half_is_filled_though_the_ink_map_keeps_only_its_outline():
    ink = blank()
    ink_outline = stroke(ink, (HALF.x + 0.2, HALF.y + 0.2), (HALF.right - 0.2, HALF.y + 0.2),
                         (HALF.right - 0.2, HALF.bottom - 0.2), (HALF.x + 0.2, HALF.bottom - 0.2),
                         (HALF.x + 0.2, HALF.y + 0.2), width_mm=0.3)
    filled, _, confidence, _ = read_half(solid_fills(ink_outline, HALF, PPM), HALF, PPM)
    assert filled and confidence >= SURE


def test_an_empty_half_is_surely_empty():
    assert read_half(blank(), HALF, PPM) == (False, 0.0, 1.0, ())


def test_a_fill_spilling_over_from_the_other_half_leaves_this_one_empty():
    below = Rect(HALF.x, HALF.bottom, HALF.w, HALF.h)
    ink = hatch(blank(), Rect(below.x, below.y - 0.4, below.w, below.h + 0.4))
    filled, _, confidence, _ = read_half(ink, HALF, PPM)
    assert not filled and confidence >= SURE


def test_a_tick_in_a_half_is_a_doubt():
    ink = stroke(blank(), (23.0, 22.8), (23.8, 23.7), (25.3, 21.5))
    filled, _, confidence, doubts = read_half(ink, HALF, PPM)
    assert not filled and confidence < SURE and "tick" in doubts[0]


# -- Rune Gates --------------------------------------------------------------------------------------

def scribble_circle(ink, centre, radius, gap=0.8):
    points = []
    for i, d in enumerate(np.arange(-radius + gap / 2, radius, gap)):
        chord = np.sqrt(radius ** 2 - d ** 2)
        ends = (-chord, chord) if i % 2 == 0 else (chord, -chord)
        points += [(centre[0] + e, centre[1] + d) for e in ends]
    return stroke(ink, *points)


def test_a_path_crossing_a_gate_does_not_fill_it():
    ink = stroke(blank(), (GATE[0] - 9, GATE[1] + 0.6), (GATE[0] + 9, GATE[1] - 0.4), width_mm=1.0)
    filled, _, confidence, _ = read_gate(ink, GATE, RADIUS, PPM)
    assert not filled and confidence >= SURE


def test_two_strokes_meeting_off_centre_in_a_gate_do_not_fill_it():
    # Each room's stroke ends near the side, beside its midpoint, one running on past it.
    ink = stroke(blank(), (GATE[0] - 9, GATE[1] + 1.2), (GATE[0] + 1.5, GATE[1] + 1.1))
    stroke(ink, (GATE[0] + 9, GATE[1] - 1.0), (GATE[0] - 0.3, GATE[1] - 0.9))
    filled, _, confidence, _ = read_gate(ink, GATE, RADIUS, PPM)
    assert not filled and confidence >= SURE


def test_a_corner_curving_through_a_gate_does_not_fill_it():
    corner = np.array([GATE[0], GATE[1] + 9.5])
    angles = np.linspace(-np.pi / 2, 0, 30)
    ink = stroke(blank(), *[tuple(corner + 9.5 * np.array([np.cos(a), np.sin(a)])) for a in angles])
    stroke(ink, (GATE[0] - 9, GATE[1]), (GATE[0], GATE[1]))
    filled, _, confidence, _ = read_gate(ink, GATE, RADIUS, PPM)
    assert not filled and confidence >= SURE


def test_a_scribbled_gate_is_filled():
    filled, strength, confidence, _ = read_gate(scribble_circle(blank(), GATE, RADIUS * 0.85), GATE, RADIUS, PPM)
    assert filled and confidence >= SURE and strength > 0.6


def test_a_filled_gate_with_the_path_running_to_it_is_filled():
    ink = scribble_circle(blank(), GATE, RADIUS * 0.8)
    stroke(ink, (GATE[0] - 9, GATE[1] + 0.5), (GATE[0], GATE[1] + 0.4))
    assert read_gate(ink, GATE, RADIUS, PPM)[0]


def test_a_solid_gate_is_filled_though_the_ink_map_keeps_only_its_outline():
    ink = blank()
    cv2.circle(ink, tuple(int(round(v * PPM)) for v in GATE), int(2.6 * PPM), 1.0, int(0.6 * PPM))
    filled, _, confidence, _ = read_gate(ink, GATE, RADIUS, PPM)
    assert filled and confidence >= SURE


def test_an_empty_gate_is_surely_empty():
    assert read_gate(blank(), GATE, RADIUS, PPM) == (False, 0.0, 1.0, ())


# -- a sheet's marks ----------------------------------------------------------------------------------

def test_the_marks_read_and_what_a_person_is_asked():
    from games.board import Marks
    from games.maps import Room

    side = frozenset({Room.parse("C4"), Room.parse("D4")})
    readings = MarksReading((
        MarkReading("diamond", 4, "B2", "Diamond 4 in B2", True, 1.0, 1.0),
        MarkReading("emerald", 2, "E5", "Emerald 2 in E5", False, 0.3, 0.2, ("ink on it that does not cross it out",)),
        MarkReading("curse_top", 1, "curse track space 1 (top)", "the top half of Curse Track space 1", True, 0.9, 1.0),
        MarkReading("curse_bottom", 2, "curse track space 2 (bottom)", "...", True, 0.9, 1.0),
        MarkReading("gate", None, "C4-D4", "Rune Gate C4-D4 (eye)", True, 0.8, 1.0, side=side),
    ), curse_spaces=2)
    assert readings.marks == Marks(diamonds=frozenset({4}), curse_top=(True, False), curse_bottom=(False, True),
                                   gates=frozenset({side}))
    entry, = readings.review()
    assert entry["where"] == "E5" and entry["rule"] == "unsure_mark" and "Emerald 2" in entry["why"]


@pytest.mark.parametrize("map_id", ["map5", "map6"])
def test_every_mark_of_an_expansion_sheet_is_read(map_id):
    from games.mapfile import load_map
    from sheets.dungeon import sheet_layout
    from scanner.marks import read_marks

    layout = sheet_layout(load_map(map_id), "a4")
    ink = np.zeros((int(layout.height * PPM), int(layout.width * PPM)), np.float32)
    crossed = [cell for cell in layout.rooms if cell.mark is not None][::2]
    for cell in crossed:
        b = cell.mark
        stroke(ink, (b.x + 0.2, b.bottom - 0.2), (b.right - 0.2, b.y + 0.2))
    hatch(ink, layout.curse[0].top)
    hatch(ink, layout.curse[-1].bottom)
    for gate in layout.gates()[:1]:
        scribble_circle(ink, gate.centre, gate.radius * 0.85)
    marks = read_marks(ink, layout, PPM)
    assert marks.review() == []
    got = marks.marks
    want = {(c.items[0].split(":")[0], int(c.items[0].split(":")[1])) for c in crossed}
    assert {("diamond", n) for n in got.diamonds} | {("emerald", n) for n in got.emeralds} == want
    spaces = len(layout.curse)
    assert got.curse_top == (True,) + (False,) * (spaces - 1)
    assert got.curse_bottom == (False,) * (spaces - 1) + (True,)
    assert got.gates == frozenset(g.side for g in layout.gates()[:1])
