"""A dead end drawn as a short stub: read as the dead end it is, without a flag, unless a neighbour's stroke
runs up to the same side (then it may be that stroke overshooting the passage)."""
import cv2
import numpy as np
import pytest

from sheets.dungeon import sheet_layout
from scanner.read import SURE, read_room, settle_stub

PX = 5.0


@pytest.fixture(scope="module")
def layout(classic):
    return sheet_layout(classic, "a4")


def _ink(layout, strokes):
    """An ink map of the page with strokes ((x0, y0), (x1, y1)) in page millimetres, 0.8 mm wide."""
    ink = np.zeros((int(layout.height * PX), int(layout.width * PX)), np.float32)
    for (x0, y0), (x1, y1) in strokes:
        cv2.line(ink, (int(x0 * PX), int(y0 * PX)), (int(x1 * PX), int(y1 * PX)), 1.0, 4, cv2.LINE_AA)
    return ink


def _stub(cell, depth: float, bar: bool):
    """A stroke from the middle of the left side ``depth`` of the room in, with a cross bar at its end."""
    r = cell.rect
    y, end = r.y + r.h / 2, r.x + depth * r.w
    strokes = [((r.x + 0.3, y), (end, y))]
    if bar:
        strokes.append(((end, y - 0.12 * r.h), (end, y + 0.12 * r.h)))
    return strokes


def _cells(layout, name, neighbour):
    cells = {cell.room.name: cell for cell in layout.rooms}
    return cells[name], cells[neighbour]


@pytest.mark.parametrize("depth", [0.22, 0.26, 0.3])
@pytest.mark.parametrize("bar", [False, True])
def test_a_short_stub_is_a_dead_end_without_a_flag(layout, depth, bar):
    cell, _ = _cells(layout, "D4", "C4")
    ink = _ink(layout, _stub(cell, depth, bar))
    reading = settle_stub(read_room(ink, cell, PX), ink, cell, PX)
    assert (reading.exits, reading.trap) == ("W", False)
    assert reading.confidence >= SURE and reading.doubts == ()


@pytest.mark.parametrize("depth, bar, settled", [(0.2, False, False), (0.27, False, True), (0.2, True, True)])
def test_a_stub_met_by_the_neighbours_path(layout, depth, bar, settled):
    """C4's path runs to its right side: a short stroke just past it in D4 may be that stroke overshooting,
    but not one deeper than a hand overshoots, nor one finished with a bar."""
    cell, left = _cells(layout, "D4", "C4")
    r = left.rect
    neighbour_path = [((r.x + r.w / 2, r.y + 0.3), (r.x + r.w / 2, r.y + r.h / 2)),
                      ((r.x + r.w / 2, r.y + r.h / 2), (r.right - 0.3, r.y + r.h / 2))]
    ink = _ink(layout, _stub(cell, depth, bar) + neighbour_path)
    reading = settle_stub(read_room(ink, cell, PX), ink, cell, PX)
    assert reading.exits == "W"
    assert (reading.confidence >= SURE) == settled


def test_a_path_to_the_middle_is_read_as_before(layout):
    cell, _ = _cells(layout, "D4", "C4")
    ink = _ink(layout, _stub(cell, 0.55, True))
    reading = settle_stub(read_room(ink, cell, PX), ink, cell, PX)
    assert (reading.exits, reading.confidence >= SURE) == ("W", True)


def test_a_stub_in_a_room_whose_round_number_is_read_is_a_dead_end_even_beside_the_neighbours_path(layout):
    """A player writes the round number in every room they draw in: a short stroke met by C4's path, with a
    speck deep in the room (the number spilling out of its circle), is D4's own dead end once a round
    number is read there; without one it stays a question (perhaps C4's stroke overshooting)."""
    from dataclasses import replace

    cell, left = _cells(layout, "D4", "C4")
    r, d = left.rect, cell.rect
    neighbour_path = [((r.x + r.w / 2, r.y + 0.3), (r.x + r.w / 2, r.y + r.h / 2)),
                      ((r.x + r.w / 2, r.y + r.h / 2), (r.right - 0.3, r.y + r.h / 2))]
    speck = [((d.x + 0.7 * d.w, d.y + 0.75 * d.h), (d.x + 0.7 * d.w + 0.4, d.y + 0.75 * d.h))]
    ink = _ink(layout, _stub(cell, 0.2, False) + neighbour_path + speck)
    reading = read_room(ink, cell, PX)
    assert settle_stub(reading, ink, cell, PX).confidence < SURE
    written = settle_stub(replace(reading, round=3), ink, cell, PX)
    assert (written.exits, written.round, written.doubts) == ("W", 3, ())
    assert written.confidence >= SURE


def test_a_stub_in_a_room_with_a_clean_round_box_stays_a_question_for_a_player_who_writes_rounds(layout):
    """For a player who writes round numbers, a short stroke in a room with no number is more likely a
    neighbour's overshoot than a dead end: not settled, however deep or barred."""
    cell, _ = _cells(layout, "D4", "C4")
    r = cell.rect
    x, end = r.x + r.w / 2, r.bottom - 0.26 * r.h        # from the bottom side: far from the round box
    ink = _ink(layout, [((x, r.bottom - 0.3), (x, end)), ((x - 0.12 * r.w, end), (x + 0.12 * r.w, end))])
    reading = read_room(ink, cell, PX)
    assert reading.exits == "S" and not reading.written and reading.confidence < SURE
    assert settle_stub(reading, ink, cell, PX).confidence >= SURE
    kept = settle_stub(reading, ink, cell, PX, writes=True)
    assert kept.confidence < SURE and kept.doubts


def test_a_stub_whose_opposite_side_is_just_short_of_a_link_is_not_settled(layout):
    """A faint straight path through printed art can show as one strong half and the other half just short
    of a link (kept rounded, as 0.62): its room is still asked about, never settled as a dead end."""
    from dataclasses import replace

    from scanner.read import STUB_DOUBT, link_question

    cell, _ = _cells(layout, "D4", "C4")
    ink = _ink(layout, _stub(cell, 0.22, False))
    reading = replace(read_room(ink, cell, PX), round=4, doubts=(link_question("E"), STUB_DOUBT), confidence=0.4,
                      strengths={"N": 0.0, "E": 0.62, "S": 0.0, "W": 1.0})
    assert settle_stub(reading, ink, cell, PX) == reading


def test_a_stub_with_pieces_of_ink_in_line_beyond_it_is_not_settled(layout):
    """A faint straight path through printed art shows as a stroke from one side and broken pieces in line
    with it further on: not a dead end, even with the round number read; without the pieces it is one."""
    from dataclasses import replace

    from scanner.read import STUB_DOUBT

    cell, _ = _cells(layout, "D4", "C4")
    r = cell.rect
    y = r.y + r.h / 2
    pieces = [((r.x + depth * r.w, y), (r.x + (depth + 0.04) * r.w, y)) for depth in (0.45, 0.58, 0.7)]
    for strokes, settled in ((_stub(cell, 0.22, False), True), (_stub(cell, 0.22, False) + pieces, False)):
        ink = _ink(layout, strokes)
        reading = replace(read_room(ink, cell, PX), round=4, doubts=(STUB_DOUBT,), confidence=0.4,
                          strengths={"N": 0.0, "E": 0.0, "S": 0.0, "W": 1.0})
        assert (settle_stub(reading, ink, cell, PX).confidence >= SURE) == settled


def test_a_corner_drawn_as_an_arc_short_of_the_other_side_is_asked_about(layout):
    """A messy hand's corner from the left side to the bottom one, drawn as an arc that cuts across the room
    and meets the bottom side left of its middle, beyond the bottom side's probe (seed 717, game 71759000,
    player 4's E2): read as a dead end to the left, and settled so without a doubt. A stroke from a side
    that runs on nearly to a side beside it is asked about that side."""
    cell, _ = _cells(layout, "D4", "C4")
    r = cell.rect
    bend = [(0.02, 0.5), (0.15, 0.5), (0.22, 0.62), (0.25, 0.78), (0.25, 0.97)]    # (of the room's width, height)
    points = [(int((r.x + a * r.w) * PX), int((r.y + b * r.h) * PX)) for a, b in bend]
    ink = _ink(layout, [])
    cv2.polylines(ink, [np.array(points, np.int32)], False, 1.0, 2, cv2.LINE_AA)     # a pencil's 0.4 mm line
    first = read_room(ink, cell, PX)
    assert first.exits == "W"
    reading = settle_stub(first, ink, cell, PX)
    assert reading.exits == "W" and reading.confidence < SURE
    assert "is there a stroke to the bottom side?" in reading.doubts


def test_a_corner_whose_stroke_went_with_the_round_number_is_not_settled_as_a_dead_end(layout):
    """A light pencil's corner from the left side up to the top one, broken a third of the way round, its
    upper piece touching the round number written beside it (seed 901, game 90158003, player 1's A6, under
    a wobblier hand than the photographer's): that piece went with the number, so only a stub from the left
    side was left, settled as a dead end, and the question about the top side dropped. It stays."""
    cell, _ = _cells(layout, "D4", "C4")
    r = cell.rect
    cx, cy, radius = ((cell.round_box[0] - r.x) / r.w, (cell.round_box[1] - r.y) / r.h, cell.round_box[2] / r.w)

    def points(fractions):
        return np.array([(int((r.x + a * r.w) * PX), int((r.y + b * r.h) * PX)) for a, b in fractions], np.int32)

    ink = _ink(layout, [])
    lower = [(0.02, 0.45), (0.12, 0.43), (0.2, 0.38), (0.26, 0.3)]
    upper = [(0.28, 0.26), (0.36, 0.16), (0.43, 0.1), (0.48, 0.0)]
    three = [(cx - 0.5 * radius, cy - 0.6 * radius), (0.345, cy - 0.6 * radius), (cx, cy),
             (cx + 0.4 * radius, cy + 0.6 * radius), (cx - 0.5 * radius, cy + 0.6 * radius)]
    for stroke, width in ((lower, 2), (upper, 2), (three, 4)):      # a pencil's 0.4 mm line, the number pressed
        cv2.polylines(ink, [points(stroke)], False, 1.0, width, cv2.LINE_AA)
    first = read_room(ink, cell, PX)
    assert first.exits == "W" and "is there a stroke to the top side?" in first.doubts
    reading = settle_stub(first, ink, cell, PX)
    assert "is there a stroke to the top side?" in reading.doubts and reading.confidence < SURE


def test_a_corner_drawn_as_an_arc_through_the_round_box_is_no_dead_end(tmp_path):
    """Seed 73859001, map 2, a messy hand (player 3's C7): a corner from the top side to the left drawn as an
    arc through the round box, meeting the left edge above the side's middle. Blanking the box cut the arc
    in two, the part left at the left edge looked like the neighbour's stroke poking in, and the room was
    settled as a dead end from the top, asked about nowhere. A stroke that runs on unbroken from the side to
    another side's edge is no dead end's stub: the room is read as the corner, or asked about."""
    import photographer
    from generator.kinds import BLANKS
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    shot = next(shot for shot in photographer.make_game_shots(73859001, players=4, condition="messy",
                                                              map_id="map2", paper="a4")
                if shot.truth["player"] == 3)
    assert shot.truth["rooms"]["C7"]["exits"] == "NW"
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    c7 = next(room for room in scans[0].rooms if room.room == "C7")
    assert c7.exits == "NW" or c7.confidence < SURE


def test_a_round_number_written_high_is_no_stroke_from_the_stubs_side(layout):
    """A messy hand's dead end from the top side, finished with a bar, and a 7 written high in its round box,
    touching the room's top edge and its left one (seed 787, game 78759000, player 1's G2 and G7: a 6 and a
    7). The number is a piece of ink apart from the stub, but it touches the top edge too, so it was taken
    for a stroke from the top running on to the left side: the dead end was asked about, and the left side.
    Only a stroke crossing the side near its middle, as the stub does, runs on so: the room is settled."""
    cell, _ = _cells(layout, "D4", "C4")
    r = cell.rect
    cx, cy, radius = ((cell.round_box[0] - r.x) / r.w, (cell.round_box[1] - r.y) / r.h, cell.round_box[2] / r.w)

    def mm(a, b):
        return r.x + a * r.w, r.y + b * r.h

    stub = [(mm(0.5, 0.01), mm(0.5, 0.22)), (mm(0.4, 0.22), mm(0.6, 0.22))]
    seven = [(mm(0.02, 0.02), mm(cx + 0.5 * radius, 0.02)), (mm(cx + 0.5 * radius, 0.02), mm(cx, cy + 0.7 * radius))]
    ink = _ink(layout, stub + seven)
    first = read_room(ink, cell, PX)
    assert first.exits == "N"
    reading = settle_stub(first, ink, cell, PX)
    assert (reading.exits, reading.doubts) == ("N", ())
    assert reading.confidence >= SURE
