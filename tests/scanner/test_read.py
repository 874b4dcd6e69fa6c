"""Reading marks from an ink map: tallies drawn the way hands draw them.

The ink maps here are drawn directly (1 = ink), at the scanner's 5 pixels per
millimetre, so each test shows one reading rule without a camera in between.
"""
import cv2
import numpy as np
import pytest

from generator.layout import sheet_layout
from scanner.read import SURE, read_tally

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
