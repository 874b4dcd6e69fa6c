"""Reading marks from an ink map: rooms and tallies drawn the way hands draw them.

The ink maps here are drawn directly (1 = ink), at the scanner's 5 pixels per
millimetre, so each test shows one reading rule without a camera in between.
"""
from dataclasses import replace

import cv2
import numpy as np
import pytest

from sheets.dungeon import sheet_layout
from scanner.read import (SURE, RoomReading, link_question, question_unwritten, read_room, read_tally,
                          settle_unwritten, slanting_both_ways, writes_rounds)

PX = 5.0


@pytest.fixture(scope="module")
def box(classic):
    return sheet_layout(classic, "a4").unusable_tally


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


def test_slivers_of_the_printed_box_left_by_registration_are_no_marks(box):
    """A photo registered a fraction of a millimetre off leaves thin lines of the box's outline (and of the
    next box's) in the ink: the count stands and nothing is asked; a dash across the middle still is."""
    edges = _ink(box, [((0.6, -0.6), (box.w - 0.6, -0.6)), ((0.6, box.h + 0.6), (box.w - 0.6, box.h + 0.6))], 0.3)
    reading = read_tally(np.maximum(_ink(box, _bars(box, 2, 0.6)), edges), box, PX)
    assert (reading.count, reading.doubts) == (2, ())
    dash = _ink(box, _bars(box, 2, 0.6) + [((12.0, box.h / 2), (15.0, box.h / 2))])
    assert read_tally(np.maximum(dash, edges), box, PX).confidence < SURE


def test_a_tail_running_on_from_a_mark_is_flagged(box):
    """Ink joined to a counted mark but reaching far beside it is not just the mark's leaning end."""
    tail = ((1.5 + 2 * 2.6, box.h - 0.8), (1.5 + 2 * 2.6 + 5.0, box.h - 0.8))
    reading = read_tally(_ink(box, _bars(box, 3, 0.9) + [tail]), box, PX)
    assert reading.confidence < SURE


def test_a_lone_mark_at_the_boxs_right_end_is_asked_about(box):
    """A curled sheet's photo may stretch the printed box so that its right end stands inside where the
    blank has it, and reads as an upright mark (seed 844 ``--degrade hdr``, curled: 18 for 20, nothing
    asked). Marks are drawn from the left side by side, so a lone one at the right end is asked about;
    a row of marks that runs on to the end is not."""
    lone = read_tally(_ink(box, _bars(box, 1, start=box.w - 1.4)), box, PX)
    assert lone.count == 1 and lone.confidence < SURE
    assert lone.doubts == ("a lone mark at the box's right end: a tally mark, or the box's own printed end?",)
    after_two = read_tally(_ink(box, _bars(box, 2) + _bars(box, 1, start=box.w - 1.4)), box, PX)
    assert after_two.count == 3 and after_two.confidence < SURE
    full = read_tally(_ink(box, _bars(box, 16, start=1.5, gap=2.5)), box, PX)     # the last at 39 mm
    assert full.count == 16 and full.confidence >= SURE, full.doubts
    a_little_in = read_tally(_ink(box, _bars(box, 1, start=box.w - 4.0)), box, PX)
    assert a_little_in.count == 1 and a_little_in.confidence >= SURE, a_little_in.doubts


def test_a_mark_against_the_boxs_left_end_is_asked_about(box):
    """The marks are looked for from 0.6 mm in from the box's printed ends. A first mark drawn against the
    left end can fall outside that, by a few tenths of a millimetre of registration (the dim sample's one
    mark: read as none, score 12 for 10, nothing asked): such a stroke is asked about. A first mark drawn
    clear of the end, read, is not."""
    against = read_tally(_ink(box, _bars(box, 1, start=0.1), width_mm=0.6), box, PX)
    assert against.count == 0 and against.confidence < SURE
    assert against.doubts == ("a mark cut off at the box's left end: a tally mark drawn against the end, or the "
                              "box's own printed end?",)
    clear = read_tally(_ink(box, _bars(box, 3, start=1.0), width_mm=0.6), box, PX)
    assert clear.count == 3 and clear.confidence >= SURE, clear.doubts
    assert read_tally(_ink(box, []), box, PX).confidence >= SURE


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


def _walls_shown_dark(cell, ink: np.ndarray, strength: float = 0.6) -> np.ndarray:
    """``ink`` with a frame 0.6 mm wide along the room's edge, all round: its walls' print shown darker than the
    blank's allowance (a phone's tone mapping of a dim photo)."""
    r, band = cell.rect, int(round(0.6 * PX))
    x0, y0, x1, y1 = (int(round(v * PX)) for v in (r.x, r.y, r.right, r.bottom))
    frame = np.zeros_like(ink)
    frame[y0:y1, x0:x1] = strength
    frame[y0 + band:y1 - band, x0 + band:x1 - band] = 0.0
    return np.maximum(ink, frame)


def test_the_walls_shown_dark_all_round_are_no_trap(cell):
    """Seed 744 with a phone's tone mapping (``--degrade hdr``), dim: an empty room's walls showed as a frame
    of ink, which seen from its middle lies mostly along the diagonals, like an X's arms: three empty rooms
    were read as Traps, named nowhere. The frame is no mark; an X inside it is still one."""
    empty = read_room(_walls_shown_dark(cell, _draw(cell, [], 0.9)), cell, PX)
    assert (empty.exits, empty.trap) == ("", False)
    assert empty.confidence >= SURE, empty.doubts
    trap = read_room(_walls_shown_dark(cell, _draw(cell, X, 0.9)), cell, PX)
    assert (trap.exits, trap.trap) == ("", True) and trap.confidence >= SURE, trap.doubts


def _round_written(cell):
    """A 1 written in the round box (fractions of the room)."""
    cx, cy, r = cell.round_box
    fx, fy, fr = (cx - cell.rect.x) / cell.rect.w, (cy - cell.rect.y) / cell.rect.w, r / cell.rect.w
    return [((fx, fy - 0.6 * fr), (fx, fy + 0.6 * fr))]


def test_a_small_mark_inside_a_room_whose_round_number_is_written_is_flagged(cell):
    reading = read_room(_draw(cell, [((0.45, 0.55), (0.58, 0.55))] + _round_written(cell), 0.9), cell, PX)
    assert not reading.drawn and reading.confidence < SURE
    assert reading.doubts[0] == "a small mark in the room: a smudge, or something drawn?"


@pytest.mark.parametrize("marks", [
    [((0.45, 0.55), (0.58, 0.55))],                   # a small mark in the middle
    [((0.5, -0.05), (0.5, 0.17))],                    # a stroke poking in across the top, a little too far
])
def test_a_room_with_a_small_mark_or_a_weak_stroke_and_no_round_number_is_read_empty_without_doubt(cell, marks):
    """Players write the round number in every room they draw in: for a player who does, a small mark or
    a stroke that only half reaches a side's probe, in a room whose round box is clean, is a smudge or a
    neighbour's overshoot. With a number written it is still asked about."""
    alone = read_room(_draw(cell, marks, 0.9), cell, PX)
    assert not alone.written and alone.doubts
    settled = settle_unwritten(alone)
    assert (settled.exits, settled.trap, settled.doubts) == ("", False, ())
    assert settled.confidence >= SURE
    with_round = read_room(_draw(cell, marks + _round_written(cell), 0.9), cell, PX)
    assert with_round.written and settle_unwritten(with_round) == with_round
    assert with_round.confidence < SURE and with_round.doubts


def test_faint_print_left_round_the_round_box_circle_is_no_number_written(cell):
    """A folded sheet's panel moved, or a dim photo's grain: the printed circle of a clean round box shows
    a little off and leaves a faint crescent along it (here 0.3 strength, 0.4 mm wide, a third of the way
    round). That is no round number: a path read in the room is still asked about. A 1 written inside is."""
    cx, cy, r = cell.round_box
    path = _draw(cell, [((0.5, 0.0), (0.5, 1.0))], 0.9)
    crescent = np.zeros_like(path)
    cv2.ellipse(crescent, (int(round(cx * PX)), int(round(cy * PX))), (int(round(r * PX)),) * 2, 0, 200, 320, 0.3,
                max(1, int(round(0.4 * PX))))
    shifted = read_room(np.maximum(path, crescent), cell, PX)
    assert not shifted.written
    assert question_unwritten(shifted).confidence < SURE
    numbered = read_room(np.maximum(np.maximum(path, crescent), _draw(cell, _round_written(cell), 0.6)), cell, PX)
    assert numbered.written and question_unwritten(numbered) == numbered


def test_a_path_in_a_room_whose_round_box_is_clean_is_asked_about(cell):
    """A straight path read in a room where no round number is written: perhaps neighbours' strokes running
    on into it; with the number written, the path is sure."""
    path = [((0.5, 0.0), (0.5, 1.0))]
    unwritten = question_unwritten(read_room(_draw(cell, path, 0.9), cell, PX))
    assert unwritten.exits == "NS" and unwritten.confidence < SURE
    assert unwritten.alternative == ("", False)
    written = read_room(_draw(cell, path + _round_written(cell), 0.9), cell, PX)
    assert question_unwritten(written) == written and written.confidence >= SURE


def test_a_player_writes_round_numbers_when_most_rooms_drawn_hold_one():
    drawn = [RoomReading(f"A{n}", "NS", written=n != 1) for n in range(1, 9)]
    assert writes_rounds(drawn)
    assert not writes_rounds([replace(reading, written=False) for reading in drawn])
    assert not writes_rounds(drawn[:4])          # too few rooms drawn to tell


def _room(dungeon, paper, name):
    return next(c for c in sheet_layout(dungeon, paper).rooms if c.room.name == name)


def _digit_touching(cell, end):
    """A 7 written in the round box, its stem running on to ``end`` (fractions of the room)."""
    cx, cy, r = cell.round_box
    fx, fy, fr = (cx - cell.rect.x) / cell.rect.w, (cy - cell.rect.y) / cell.rect.w, r / cell.rect.w
    top, corner = (fx - 0.6 * fr, fy - 0.6 * fr), (fx + 0.6 * fr, fy - 0.6 * fr)
    return [(top, corner), (corner, end)]


@pytest.mark.parametrize("x", [
    [((0.22, 0.22), (0.72, 0.92)), ((0.08, 0.7), (0.88, 0.3))],      # the round number runs into one arm
    [((0.2, 0.2), (0.62, 0.9)), ((0.15, 0.72), (0.85, 0.32))],        # ... and the X is off the middle
    [((0.2, 0.22), (0.65, 0.95)), ((0.1, 0.8), (0.9, 0.35))],         # ... its arms through two sides' probes
    [((0.3, 0.12), (0.7, 0.97)), ((0.97, 0.3), (0.12, 0.68))],
])
def test_an_x_with_an_arm_cut_short_or_through_a_side_is_a_sure_trap(cell, x):
    """The round number's circle is blanked with what is written in it, cutting an arm joined to it short;
    an X leaning so that its arms run through the middles of sides meets those sides' probes. Both are
    still two strokes slanting opposite ways."""
    reading = read_room(_draw(cell, x + _digit_touching(cell, x[0][0]), 0.9), cell, PX)
    assert (reading.exits, reading.trap) == ("", True)
    assert reading.confidence >= SURE, reading.doubts


def test_a_corner_drawn_as_an_arc_is_not_an_x(cell):
    arc = [((0.5, 0.0), (0.52, 0.2)), ((0.52, 0.2), (0.6, 0.36)), ((0.6, 0.36), (0.75, 0.47)), ((0.75, 0.47), (1.0, 0.5))]
    reading = read_room(_draw(cell, arc, 0.9), cell, PX)
    assert (reading.exits, reading.trap) == ("NE", False)


def _wave(start, end, amplitude, period):
    """A stroke from ``start`` to ``end`` (room fractions, along one axis) zigzagging ``amplitude`` either side
    of its line, turning every half ``period``, as a hurried hand draws."""
    (x0, y0), (x1, y1) = start, end
    length = abs(x1 - x0) + abs(y1 - y0)
    turns = max(2, int(round(2 * length / period)))
    across = (0.0, 1.0) if y0 == y1 else (1.0, 0.0)
    points = [(x0 + (x1 - x0) * k / turns + across[0] * amplitude * (-1) ** k * (0 < k < turns),
               y0 + (y1 - y0) * k / turns + across[1] * amplitude * (-1) ** k * (0 < k < turns))
              for k in range(turns + 1)]
    return list(zip(points, points[1:]))


@pytest.mark.parametrize("amplitude, period", [(0.05, 0.25), (0.08, 0.35), (0.12, 0.25), (0.1, 0.5)])
@pytest.mark.parametrize("legs, exits", [
    ([((0.5, 0.0), (0.5, 1.0))], "NS"),
    ([((0.0, 0.5), (1.0, 0.5))], "EW"),
    ([((0.5, 0.0), (0.5, 1.0)), ((0.5, 0.5), (1.0, 0.5))], "NES"),
    ([((0.5, 0.0), (0.5, 0.5)), ((0.5, 0.5), (1.0, 0.5))], "NE"),
])
def test_a_path_drawn_wavy_is_its_path_not_a_trap(cell, legs, exits, amplitude, period):
    """Seed 724, a messy hand (game 72459000, player 3): H5's path from top to bottom zigzagged, its strokes
    slanting both ways like an X's arms, and the room was read as a Trap, sure, named nowhere."""
    strokes = [segment for start, end in legs for segment in _wave(start, end, amplitude, period)]
    reading = read_room(_draw(cell, strokes, 0.6), cell, PX)
    assert (reading.exits, reading.trap) == (exits, False)


@pytest.mark.parametrize("amplitude, period", [(0.08, 0.25), (0.12, 0.25), (0.1, 0.35)])
def test_a_wavy_path_fading_short_of_its_sides_is_read_as_a_path_and_asked_about(cell, amplitude, period):
    """A pencil's wavy stroke fading out a tenth of the room short of both sides (seed 903, under a hand
    three times as shaky as the photographer's medium one, several such paths were read as Traps, named
    nowhere): near its sides it inks too few lines to be sure it is no X, so it is read as the path and
    asked about, with the Trap as the other reading."""
    reading = read_room(_draw(cell, _wave((0.5, 0.12), (0.5, 0.88), amplitude, period), 0.6), cell, PX)
    assert (reading.exits, reading.trap) == ("NS", False) and reading.confidence < SURE
    assert reading.alternative == ("", True)


STEEP_X = [((0.3, 0.33), (0.92, 0.64)), ((0.7, 0.2), (0.45, 0.9))]     # seed 726's, its arms run through two sides


@pytest.mark.parametrize("strokes, slanting", [
    (STEEP_X, True),
    (X, True),
    ([((0.5, 0.0), (0.52, 0.2)), ((0.52, 0.2), (0.6, 0.36)), ((0.6, 0.36), (0.75, 0.47)), ((0.75, 0.47), (1.0, 0.5))],
     False),                                                              # a corner drawn as an arc
    ([((0.0, 0.5), (0.5, 0.5)), ((0.5, 0.5), (0.5, 1.0))], False),       # a corner drawn square
    ([((0.5, 0.0), (0.5, 1.0)), ((0.5, 0.5), (1.0, 0.5))], False),       # a tee
])
def test_an_x_leaning_so_that_it_is_read_as_a_corner_still_slants_both_ways(cell, strokes, slanting):
    """Seed 726, dim: an X with one arm leaning steeply was read as a corner path (its slants fall short of
    a sure X's); linked to nothing around it, such a room is asked about as a Trap."""
    assert slanting_both_ways(_draw(cell, strokes, 0.9), cell, PX) == slanting
    if strokes is STEEP_X:
        reading = read_room(_draw(cell, strokes, 0.9), cell, PX)
        assert (reading.exits, reading.trap) == ("ES", False)        # what the room alone is read as


def test_a_path_drawn_off_the_middle_past_the_round_box_of_a_small_room_is_a_link(map6):
    """On a Letter sheet of map 6 rooms are 15.5 mm, and a stroke to the top side drawn a little left of
    the middle, broken where it crossed the print, lies close enough to the circle to pass for the number."""
    small = _room(map6, "letter", "E5")
    strokes = [((0.39, 0.0), (0.40, 0.36)), ((0.42, 0.42), (0.5, 0.5)), ((0.5, 0.5), (0.5, 1.0))]
    reading = read_room(_draw(small, strokes, 0.5), small, PX)
    assert reading.exits == "NS" and reading.confidence >= SURE, reading.doubts


def test_a_round_number_written_large_is_not_a_link_to_the_side_beside_it(map6):
    small = _room(map6, "letter", "E5")
    cx, cy, r = small.round_box
    fx, fy, fr = (cx - small.rect.x) / small.rect.w, (cy - small.rect.y) / small.rect.w, r / small.rect.w
    two = [((fx - fr, fy - 0.8 * fr), (fx + 0.8 * fr, fy - fr)), ((fx + 0.8 * fr, fy - fr), (fx - fr, fy + 1.6 * fr)),
           ((fx - fr, fy + 1.6 * fr), (fx + 0.9 * fr, fy + 1.6 * fr))]          # its foot low, into the left probe
    reading = read_room(_draw(small, two + [((0.5, 0.0), (0.5, 0.5)), ((0.5, 0.5), (1.0, 0.5))], 0.6), small, PX)
    assert reading.exits == "NE" and reading.confidence >= SURE, reading.doubts



def test_a_stroke_the_round_number_was_written_touching_is_asked_about_not_dropped(map6):
    """A number written so close to a stroke to the top side that the two are one piece of ink: the piece
    lies mostly near the circle and is taken for the number, stroke and all. The side is then asked
    about, never read as surely not linked."""
    small = _room(map6, "letter", "E5")
    cx, cy, r = small.round_box
    fx, fy, fr = (cx - small.rect.x) / small.rect.w, (cy - small.rect.y) / small.rect.w, r / small.rect.w
    two = [((fx - fr, fy - 0.8 * fr), (fx + 0.8 * fr, fy - fr)), ((fx + 0.8 * fr, fy - fr), (fx - fr, fy + fr)),
           ((fx - fr, fy + fr), (0.45, fy + fr))]                   # its foot run on into the stroke
    top = [((0.45, 0.1), (0.45, 0.33))]                             # broken where it met the path below
    across = [((0.0, 0.5), (1.0, 0.5))]
    reading = read_room(_draw(small, two + top + across, 0.5), small, PX)
    assert "N" in reading.exits or link_question("N") in reading.doubts, reading
    assert reading.confidence < SURE or "N" in reading.exits


def test_a_round_number_run_into_a_dead_ends_bar_with_its_tail_in_a_sides_probe_is_asked_about(cell):
    """Seed 719, a messy hand with a marker (game 71959009, player 3's C1): a 3 written large beside a dead
    end's bar, touching it, so the two are one piece and not taken for the number; the 3's tail lay in the
    left side's probe, and the room was read NW for N, named nowhere. A side whose probe holds only ink near
    the round box, joined to nothing drawn from that side, is asked about."""
    three = [(0.1, 0.08), (0.25, 0.06), (0.28, 0.14), (0.18, 0.2), (0.3, 0.26), (0.28, 0.36), (0.14, 0.4)]
    dead_end = [((0.5, 0.02), (0.5, 0.25)), ((0.3, 0.25), (0.7, 0.25))]
    reading = read_room(_draw(cell, dead_end + list(zip(three, three[1:])), 0.6), cell, PX)
    assert reading.exits == "NW" and link_question("W") in reading.doubts and reading.confidence < SURE
    # A path drawn to that side past the number is read as it is.
    path = read_room(_draw(cell, dead_end + list(zip(three, three[1:])) + [((0.0, 0.38), (0.5, 0.38))], 0.6),
                     cell, PX)
    assert link_question("W") not in path.doubts


def test_rooms_along_a_folds_crease_are_asked_about_where_the_crease_may_have_changed_them(classic):
    """A crease kept on the ink map (a straight path could run there) may be all that links a room's left
    and right sides; a crease cleared through a room's middle may have taken a stroke along it too."""
    from scanner.read import RoomReading
    from scanner.scan import ALONG_CREASE, PX_PER_MM, _along_crease

    cell = next(c for c in sheet_layout(classic, "a4").rooms if c.room.name == "D4")
    middle = int(round((cell.rect.y + cell.rect.h / 2) * PX_PER_MM))
    far = middle + int(round(0.4 * cell.rect.h * PX_PER_MM))
    linked, corner = RoomReading("D4", "EW"), RoomReading("D4", "NW")

    asked = _along_crease(linked, cell, [], [(False, middle)])
    assert ALONG_CREASE in asked.doubts and asked.confidence < SURE
    asked = _along_crease(corner, cell, [(False, middle + 3)], [])
    assert asked.doubts == (link_question("E"),) and asked.confidence < SURE
    assert _along_crease(linked, cell, [(False, far)], [(False, far)]) == linked
    assert _along_crease(RoomReading("D4"), cell, [(False, middle)], []) == RoomReading("D4")
    # For a player who writes round numbers, a room read only as the crease's two sides with a clean round
    # box holds the crease alone; with a number written, or another side read, it is still asked about.
    alone = _along_crease(replace(linked, written=False), cell, [], [(False, middle)], writes=True)
    assert (alone.exits, alone.doubts) == ("", ()) and alone.confidence >= SURE
    assert ALONG_CREASE in _along_crease(linked, cell, [], [(False, middle)], writes=True).doubts
    tee = RoomReading("D4", "NEW", written=False)
    assert ALONG_CREASE in _along_crease(tee, cell, [], [(False, middle)], writes=True).doubts


def test_a_side_a_crease_was_cleared_along_is_asked_about_where_the_room_across_it_is_linked(classic):
    """A crease cleared close inside D3's bottom side may take the end of its stroke to that side: with
    some ink read towards it and D4 linked up to it, the side is asked about; with no ink towards it, with
    D4 not linked to it, or with the crease farther in than a stroke to the side is looked for, D3 stays
    as read (an empty side next to a linked one is no misreading in itself: so the game of 1354003's
    third, folded sheet read G3 without the path down into G4, and named nowhere)."""
    from scanner.read import RoomReading
    from scanner.scan import PX_PER_MM, _beside_crease

    layout = sheet_layout(classic, "a4")
    d3_cell = next(cell for cell in layout.rooms if cell.room.name == "D3")
    bottom = d3_cell.rect.y + d3_cell.rect.h

    def d3(reading: RoomReading, d4: RoomReading, inside_mm: float = 2.4) -> RoomReading:
        """D3 as read beside a crease cleared ``inside_mm`` above its bottom side, D4 read as ``d4``."""
        given = {"D3": reading, "D4": d4}
        rooms = [given.get(cell.room.name, RoomReading(cell.room.name)) for cell in layout.rooms]
        crease = (False, int(round((bottom - inside_mm) * PX_PER_MM)))
        ink = np.zeros((int(bottom * PX_PER_MM) + 40, int(d3_cell.rect.right * PX_PER_MM) + 40), np.float32)
        return _beside_crease(rooms, layout, [crease], ink)[layout.rooms.index(d3_cell)]

    faint = RoomReading("D3", "W", strengths={"N": 0.0, "E": 0.0, "S": 0.27, "W": 0.93})
    asked = d3(faint, RoomReading("D4", "N"))
    assert asked.doubts == (link_question("S"),) and asked.confidence < SURE
    assert d3(faint, RoomReading("D4", "E")) == faint
    assert d3(faint, RoomReading("D4", "N"), inside_mm=7.0) == faint
    clean = RoomReading("D3", "W", strengths={"N": 0.0, "E": 0.0, "S": 0.0, "W": 0.93})
    assert d3(clean, RoomReading("D4", "N")) == clean


def test_a_dead_end_whose_stroke_runs_into_a_cleared_crease_is_asked_about(classic):
    """D3's path runs down from its middle towards its bottom side, into a crease's band cleared 2.6 mm above
    that side; D4 below is empty (a dead end). The side's probe lines left between the middle and the band
    are crossed by the stroke, so the side is asked about (seed 601's folded C3 read NEW for NESW so, named
    nowhere). A stroke that stops short of the band, or one that runs along the room beside it, leaves D3
    as read."""
    from scanner.read import RoomReading
    from scanner.scan import PX_PER_MM, _beside_crease

    layout = sheet_layout(classic, "a4")
    cell = next(c for c in layout.rooms if c.room.name == "D3")
    crease = (False, int(round((cell.rect.bottom - 2.6) * PX_PER_MM)))
    read = RoomReading("D3", "NW", strengths={"N": 1.0, "E": 0.0, "S": 0.13, "W": 1.0})

    def d3(strokes) -> RoomReading:
        ink = _draw(cell, strokes, 0.8)
        ink[crease[1] - 5:crease[1] + 6] = 0.0          # the band cleared (``scanner.ink.crease_band``)
        rooms = [read if c is cell else RoomReading(c.room.name) for c in layout.rooms]
        return _beside_crease(rooms, layout, [crease], ink)[layout.rooms.index(cell)]

    path = [((0.5, 0.0), (0.5, 0.5)), ((0.0, 0.5), (0.5, 0.5))]
    asked = d3(path + [((0.5, 0.5), (0.5, 1.0))])
    assert asked.doubts == (link_question("S"),) and asked.confidence < SURE
    assert d3(path + [((0.5, 0.5), (0.5, 0.62))]) == read
    assert d3(path + [((0.0, 0.75), (1.0, 0.75)), ((0.0, 0.79), (1.0, 0.79))]) == read


def test_a_neighbours_stroke_run_on_into_a_room_is_asked_about(classic):
    """D4's path up through its top side runs on into D3 (a sixth of the room), whose own path is a T
    through its other three sides, not joined to it: D3's bottom side reads linked by that piece alone, and
    is asked about (a messy hand's 2.8 mm overshoot on seed 1759003 read so, named nowhere). D3's own
    stroke down to the side leaves D3 as read. With D4 not linked up to it the piece is a stray, joined to
    nothing and crossing the probe only in part: asked about too (``read_room``'s own question)."""
    from scanner.scan import PX_PER_MM, _overshoots_asked

    layout = sheet_layout(classic, "a4")
    cells = {cell.room.name: cell for cell in layout.rooms}
    d3, d4 = cells["D3"].rect, cells["D4"].rect
    middle_x, middle_y, size = d3.x + d3.w / 2, d3.y + d3.h / 2, d3.w

    def line(ink, start, end):
        cv2.line(ink, tuple(int(round(v * PX_PER_MM)) for v in start), tuple(int(round(v * PX_PER_MM)) for v in end),
                 1.0, int(round(0.7 * PX_PER_MM)))

    def d3_asked(own_down: bool, d4_up: bool) -> tuple[str, tuple]:
        ink = np.zeros((int(layout.height * PX_PER_MM), int(layout.width * PX_PER_MM)), np.float32)
        line(ink, (d3.x, middle_y), (d3.x + size, middle_y))                  # D3's T: left to right ...
        line(ink, (middle_x, middle_y), (middle_x, d3.y))                     # ... and up
        if own_down:
            line(ink, (middle_x, middle_y), (middle_x, d3.y + size))
        line(ink, (middle_x, d4.y), (middle_x, d4.y - 0.18 * size))           # the piece run on into D3
        if d4_up:
            line(ink, (middle_x, d4.y), (middle_x, d4.y + d4.h))              # D4's path up to it (else a stray)
        rooms = [read_room(ink, cell, PX_PER_MM) for cell in layout.rooms]
        reading = _overshoots_asked(rooms, layout, ink)[layout.rooms.index(cells["D3"])]
        return reading.exits, reading.doubts

    assert d3_asked(own_down=False, d4_up=True) == ("NESW", (link_question("S"),))
    assert d3_asked(own_down=True, d4_up=True) == ("NESW", ())
    assert d3_asked(own_down=False, d4_up=False) == ("NESW", (link_question("S"),))


@pytest.mark.parametrize("run_on", [0.12, 0.15])
def test_a_neighbours_stroke_run_on_a_little_past_a_side_read_unlinked_is_not_asked_about(classic, run_on):
    """D3's path from its left side to its middle and down through its bottom side runs on into D4 (an eighth
    of the room, or more), whose own path runs from left to right: D4's top side reads neither linked nor
    not (the piece crosses part of its probe) and was asked about, the room's one question (a messy hand's
    overshoots, seed 788: C7, F1, A5 and more, each read right). The piece is joined to nothing of D4's and
    D3 links to the side: it is D3's stroke run on, and D4 is read as it is, without a question. With D3
    not linked to it, it is a stray and still asked about."""
    from scanner.scan import PX_PER_MM, _overshoots_settled

    layout = sheet_layout(classic, "a4")
    cells = {cell.room.name: cell for cell in layout.rooms}
    d3, d4 = cells["D3"].rect, cells["D4"].rect

    def line(ink, start, end):
        cv2.line(ink, tuple(int(round(v * PX_PER_MM)) for v in start), tuple(int(round(v * PX_PER_MM)) for v in end),
                 1.0, int(round(0.7 * PX_PER_MM)))

    def d4_read(d3_down: bool) -> RoomReading:
        ink = np.zeros((int(layout.height * PX_PER_MM), int(layout.width * PX_PER_MM)), np.float32)
        line(ink, (d4.x, d4.y + d4.h / 2), (d4.right, d4.y + d4.h / 2))                     # D4: left to right
        line(ink, (d3.x, d3.y + d3.h / 2), (d3.x + d3.w / 2, d3.y + d3.h / 2))              # D3: left to the middle
        # ... and down through its side, run on into D4; or only a stray across the side, D3 not linked to it
        start = d3.y + d3.h / 2 if d3_down else d3.bottom - 0.1 * d3.h
        line(ink, (d3.x + d3.w / 2, start), (d3.x + d3.w / 2, d4.y + run_on * d4.h))
        rooms = [read_room(ink, cell, PX_PER_MM) for cell in layout.rooms]
        assert rooms[layout.rooms.index(cells["D4"])].doubts == (link_question("N"),)
        return _overshoots_settled(rooms, layout, ink)[layout.rooms.index(cells["D4"])]

    settled = d4_read(d3_down=True)
    assert (settled.exits, settled.doubts) == ("EW", ()) and settled.confidence >= SURE
    stray = d4_read(d3_down=False)
    assert (stray.exits, stray.doubts) == ("EW", (link_question("N"),)) and stray.confidence < SURE


@pytest.mark.parametrize("piece, asked", [
    (((0.5, 0.79), (0.5, 0.92)), True),        # a short piece alone in the bottom probe: asked about
    (((0.5, 0.5), (0.5, 0.92)), False),        # the same side's stroke joined to the path: a sure link
    (((0.5, 0.64), (0.5, 0.96)), False),       # through the whole probe, broken 2 mm off the path (by the
                                               # print under it, as a crossing often is): the player's own
    (((0.5, 0.72), (0.5, 1.0)), True),         # through the whole probe, 3.5 mm off: a neighbour's run on
])
def test_a_sides_stroke_joined_to_no_other_sides_is_asked_about(cell, piece, asked):
    """A path's segment is one line: ink at a side's probe that is joined to none of the other sides' strokes
    is a neighbour's stroke run on, print left by a sheet that moved, a fold's shadow, or a broken path. It is
    asked about when it crosses its probe only in part, or lies far from the rest."""
    reading = read_room(_draw(cell, [((0.0, 0.5), (1.0, 0.5)), piece], 0.9), cell, PX)
    assert reading.exits == "ESW"
    assert (link_question("S") in reading.doubts) == asked
    assert (reading.confidence < SURE) == asked


@pytest.mark.parametrize("short_mm, linked", [(0.2, True), (0.5, True), (1.6, False)])
def test_a_stroke_to_a_filled_rune_gate_links_only_when_it_reaches_the_gate(map6, short_mm, linked):
    """A filled gate's circle is cleared from the ink; a stroke that runs up to it links the room to the
    gate's side, one that stops short of it is a dead end before the gate (seed 211's steep E8 ended in a
    dot 1.7 mm off a filled gate and read linked through it, named nowhere)."""
    from scanner.scan import PX_PER_MM, _without_filled_gates

    layout = sheet_layout(map6, "a4")
    gate = next(g for g in layout.gates() if g.across == "x")
    (cx, cy), radius = gate.centre, gate.radius
    cell = next(c for c in layout.rooms if c.rect.x < cx - 5 < c.rect.right and c.rect.y < cy < c.rect.bottom)
    ink = np.zeros((int((cell.rect.bottom + 20) * PX_PER_MM), int((cx + 20) * PX_PER_MM)), np.float32)

    def line(a, b):
        cv2.line(ink, (int(round(a[0] * PX_PER_MM)), int(round(a[1] * PX_PER_MM))),
                 (int(round(b[0] * PX_PER_MM)), int(round(b[1] * PX_PER_MM))), 1.0, 4)

    line((cell.rect.centre[0], cell.rect.y), cell.rect.centre)                      # in from the top side
    line(cell.rect.centre, (cx - radius - short_mm, cy))                            # on towards the gate
    cv2.circle(ink, (int(round(cx * PX_PER_MM)), int(round(cy * PX_PER_MM))), int(round(radius * PX_PER_MM)),
               1.0, -1)                                                             # the gate filled in
    reading = read_room(_without_filled_gates(ink, layout, {gate.side}), cell, PX_PER_MM)
    assert reading.exits == ("NE" if linked else "N")


@pytest.mark.parametrize("end, asked", [(0.82, True), (0.83, True), (0.84, False)])
def test_a_side_linked_only_just_is_asked_about(cell, end, asked):
    """A stroke down from the middle that stops short in the bottom side's probe: under ``LINK`` it is no link,
    asked about; just over it (under ``LINK_SURE``) it is read as the link and still asked about, as the
    printed art at a side's middle, dark in a dim or heavily compressed photo, read so (seed 791
    ``--degrade jpeg:40``, seed 794 ``--degrade warm``: 0.627 and 0.625, named nowhere); further on it is a
    link without a question."""
    from scanner.read import LINK, LINK_SURE

    reading = read_room(_draw(cell, [((0.0, 0.5), (1.0, 0.5)), ((0.5, 0.5), (0.5, end))], 0.9), cell, PX)
    assert reading.exits == ("ESW" if reading.strengths["S"] >= LINK else "EW")
    assert (link_question("S") in reading.doubts) == asked
    assert asked == (reading.strengths["S"] < LINK_SURE)
    assert (reading.confidence < SURE) == asked
