"""Reading marks from an ink map: rooms and tallies drawn the way hands draw them.

The ink maps here are drawn directly (1 = ink), at the scanner's 5 pixels per
millimetre, so each test shows one reading rule without a camera in between.
"""
import cv2
import numpy as np
import pytest

from generator.layout import sheet_layout
from scanner.read import SURE, read_room, read_tally

PX = 5.0


@pytest.fixture(scope="module")
def box(classic):
    return sheet_layout(classic, "a4").score_lines[5].tally


def _ink(box, strokes, width_mm=1.0):
    """An ink map with straight strokes, each ((x0, y0), (x1, y1)) in mm from the box's top-left."""
    ink = np.zeros((int((box.bottom + 10) * PX), int((box.right + 10) * PX)), np.float32)
    for (x0, y0), (x1, y1) in strokes:
        cv2.line(ink, (int((box.x + x0) * PX), int((box.y + y0) * PX)), (int((box.x + x1) * PX), int((box.y + y1) * PX)),
                 1.0, max(1, int(round(width_mm * PX))), cv2.LINE_AA)
    return ink


def _bars(box, count, lean_mm=0.0, start=1.5, gap=2.6):
    top, bottom = 0.8, box.h - 0.8
    return [((start + i * gap + lean_mm, top), (start + i * gap - lean_mm, bottom)) for i in range(count)]


@pytest.mark.parametrize("count", [1, 3, 4])
@pytest.mark.parametrize("lean_mm", [0.0, 0.6, 0.9, 1.2])
def test_upright_and_leaning_marks_are_counted_without_doubt(box, count, lean_mm):
    reading = read_tally(_ink(box, _bars(box, count, lean_mm)), box, PX)
    assert reading.count == count
    assert reading.confidence >= SURE, reading.doubts


def test_a_five_bar_gate_counts_five(box):
    gate = ((0.8, box.h - 1.2), (1.5 + 3 * 2.6 + 0.8, 1.2))
    reading = read_tally(_ink(box, _bars(box, 4, 0.6) + [gate]), box, PX)
    assert (reading.count, reading.confidence >= SURE) == (5, True)


def test_a_gate_whose_bars_ran_into_each_other_still_counts_five_but_is_flagged(box):
    bars = _bars(box, 3, 0.6, gap=3.0)
    gate = ((0.8, box.h - 1.2), (1.5 + 2 * 3.0 + 0.8, 1.2))
    reading = read_tally(_ink(box, bars + [gate] + _bars(box, 1, start=12.0)), box, PX)
    assert reading.count == 6 and reading.confidence < SURE
    assert "a gate across 3 upright marks instead of four" in reading.doubts


def test_a_dash_that_is_no_tally_mark_is_flagged(box):
    dash = ((12.0, box.h / 2), (15.0, box.h / 2))
    reading = read_tally(_ink(box, _bars(box, 3, 0.9) + [dash]), box, PX)
    assert reading.confidence < SURE
    assert "neither upright strokes nor gates" in " ".join(reading.doubts)


def test_a_tail_running_on_from_a_mark_is_flagged(box):
    """Ink joined to a counted mark but reaching far beside it is not just the mark's leaning end."""
    tail = ((1.5 + 2 * 2.6, box.h - 0.8), (1.5 + 2 * 2.6 + 5.0, box.h - 0.8))
    reading = read_tally(_ink(box, _bars(box, 3, 0.9) + [tail]), box, PX)
    assert reading.confidence < SURE


# -- rooms ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cell(classic):
    return next(c for c in sheet_layout(classic, "a4").rooms if c.room.name == "D4")


def _draw(cell, strokes, width_mm):
    r = cell.rect
    ink = np.zeros((int((r.bottom + 20) * PX), int((r.right + 20) * PX)), np.float32)
    for (x0, y0), (x1, y1) in strokes:
        cv2.line(ink, (int((r.x + x0 * r.w) * PX), int((r.y + y0 * r.h) * PX)),
                 (int((r.x + x1 * r.w) * PX), int((r.y + y1 * r.h) * PX)), 1.0, int(round(width_mm * PX)), cv2.LINE_AA)
    return ink


X = [((0.3, 0.3), (0.75, 0.78)), ((0.75, 0.3), (0.28, 0.75))]


@pytest.mark.parametrize("strokes, exits, trap", [
    ([((0.5, 0.0), (0.5, 1.0))], "NS", False),
    ([((0.0, 0.5), (0.5, 0.5)), ((0.5, 0.5), (0.5, 1.0))], "SW", False),
    (X, "", True),
])
def test_paths_and_traps_read_sure(cell, strokes, exits, trap):
    reading = read_room(_draw(cell, strokes, 0.9), cell, PX)
    assert (reading.exits, reading.trap) == (exits, trap)
    assert reading.confidence >= SURE, reading.doubts


@pytest.mark.parametrize("edge", [((-0.1, 0.5), (0.08, 0.5)), ((0.5, 1.1), (0.5, 0.92)), ((1.1, 0.45), (0.92, 0.5))])
def test_a_neighbours_stroke_poking_across_the_edge_leaves_the_room_empty_or_its_x_sure(cell, edge):
    """A stroke to a passage often runs on a little into the next room; that is not a mark in it."""
    empty = read_room(_draw(cell, [edge], 1.6), cell, PX)
    assert (empty.exits, empty.trap, empty.doubts) == ("", False, ())
    trap = read_room(_draw(cell, X + [edge], 1.6), cell, PX)
    assert (trap.exits, trap.trap) == ("", True) and trap.confidence >= SURE, trap.doubts


def test_a_small_mark_inside_the_room_is_flagged(cell):
    reading = read_room(_draw(cell, [((0.45, 0.55), (0.58, 0.55))], 0.9), cell, PX)
    assert not reading.drawn and reading.confidence < SURE
