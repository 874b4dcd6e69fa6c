"""Telling a player's ink from the print (scanner.ink), on made-up darkness values."""
import numpy as np
import pytest

from scanner.ink import Allowance, ink_map
from scanner.read import FAINT, INKED


def ink_at(stroke: float, printed: float, allowance: float | None = None) -> float:
    """The ink strength read where a grey stroke of darkness ``stroke`` lies over print of darkness
    ``printed`` (the photo multiplies the two: light passes through both), the blank allowing ``allowance``."""
    dark = 1.0 - (1.0 - printed) * (1.0 - stroke)
    pixel = np.full((1, 1), round(255 * dark), np.uint8)
    colour = np.zeros((1, 1), np.uint8)
    blank = np.full((1, 1), printed if allowance is None else allowance, np.float32)
    return float(ink_map(pixel, colour, Allowance.of(blank))[0, 0])


@pytest.mark.parametrize("printed", [0.2, 0.3, 0.45])
def test_a_pencil_stroke_over_the_printed_art_is_not_lost_in_it(printed):
    """A light stroke across a monster, a coin or the Skull: what it adds to the grey print's darkness is
    its own darkness times the print's lightness (over the darkest art, 0.22 x 0.55 = 0.12 only)."""
    assert ink_at(0.22, printed) >= INKED


def test_the_print_alone_is_no_ink():
    for printed in (0.1, 0.45, 0.85):
        assert ink_at(0.0, printed) == 0.0


@pytest.mark.parametrize("printed, blank", [(0.5, 0.45), (0.3, 0.27), (0.92, 0.85)])
def test_grey_printed_a_little_darker_than_the_blank_has_it_is_no_stroke(printed, blank):
    """Printers differ: the art and the walls may come out a little darker than the blank sheet has them."""
    assert ink_at(0.0, printed, allowance=blank) < FAINT


def _sheet_with_a_crease(px: float, cover: float, margin_cover: float, tilt_mm: float = 0.0
                         ) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A 200 x 150 mm ink map, its map 20-180 mm across and 20-130 mm down, a crease along y = 70 mm (at the
    map's middle, falling ``tilt_mm`` over the page's width) shown over ``cover`` of the map's width (in
    10 mm stretches) and ``margin_cover`` of the margins beside it."""
    ink = np.zeros((int(150 * px), int(200 * px)), np.float32)
    area = (int(20 * px), int(20 * px), int(180 * px), int(130 * px))
    for x0 in range(0, 200, 10):
        inside = 20 <= x0 < 180
        share = cover if inside else margin_cover
        for x in range(int(x0 * px), int((x0 + 10 * share) * px)):
            ink[int(round((70 + tilt_mm * (x / px - 100) / 200) * px)), x] = 0.6
    return ink, area


@pytest.mark.parametrize("cover, margin_cover, found", [
    (1.0, 1.0, True),       # plain across the map and beyond it
    (0.6, 1.0, True),       # print hid a third of it across the map, but it runs on out to the page's edge
    (0.6, 0.3, False),      # a broken line that stops short beyond the map: a player's path, not a fold
    (0.4, 1.0, False)])     # too little of it across the map
def test_a_crease_is_found_when_it_runs_on_beyond_the_map(cover, margin_cover, found):
    from scanner.ink import without_creases

    px = 5.0
    ink, area = _sheet_with_a_crease(px, cover, margin_cover)
    cleared, creases, _ = without_creases(ink, area, px)
    assert bool(creases) == found
    if found:
        assert abs(creases[0][1] - 70 * px) <= 2 and not creases[0][0]
        assert cleared[int(68 * px):int(72 * px), area[0]:area[2]].max() == 0.0


def test_a_crease_beside_a_printed_line_the_fold_shows_is_found_on_its_own_row():
    """A fold 2 mm above a row of tiles' printed edge: the panels' move shows that edge as ink across the
    map, never beyond it. The crease runs on beyond the map on its own row and is found and cleared
    there, though the edge, heavier inside the map, would draw a line fitted to the band onto itself
    (a Dungeon Maker sheet read four empty tiles as rooms along such a crease)."""
    from scanner.ink import without_creases

    px = 5.0
    ink, area = _sheet_with_a_crease(px, 0.85, 1.0)        # print hides a little of the crease in the map
    edge = int(72 * px)
    ink[edge - 1:edge + 2, area[0]:area[2]] = 0.6         # the tiles' edge, three pixels thick, map only
    cleared, creases, _ = without_creases(ink, area, px)
    assert len(creases) == 1 and abs(creases[0][1] - 70 * px) <= 1.0 * px
    assert cleared[int(70 * px), area[0]:area[2]].max() == 0.0


def test_a_stroke_crossing_a_cleared_crease_aslant_stays_joined():
    """A crease is cleared in a band a couple of millimetres tall; a stroke crossing it straight is carried
    across, and one crossing it aslant (or where the fold's two panels moved apart), its ends on either
    side of the band not over one another, is joined end to end, and nothing else is drawn in the band."""
    from scanner.ink import cleared_creases, crease_band

    px = 5.0
    ink, area = _sheet_with_a_crease(px, 1.0, 1.0)
    row = int(70 * px)
    top, bottom = crease_band(row, px, ink.shape[0])
    ink[:top, 300:303] = 0.8                      # straight across: x 300-302 on both sides
    ink[:top, 500:503] = 0.8                      # aslant: x 500-502 above, 508-510 below
    ink[bottom + 1:, 508:511] = 0.8
    ink[bottom + 1:, 300:303] = 0.8
    cleared = cleared_creases(ink, [(False, row)], area, px)
    band = cleared[top:bottom + 1]
    assert (band[:, 300:303] > 0.5).all()
    assert all((band[r, 499:512] > 0.5).any() for r in range(band.shape[0]))
    assert band[:, 504:507][0].max() == 0.0 and band[:, 504:507][-1].max() == 0.0
    assert band[:, area[0]:295].max() == 0.0 and band[:, 515:area[2]].max() == 0.0


def test_a_crease_a_little_off_the_paper_s_edges_is_found_and_cleared_end_to_end():
    """A sheet folded 1.6 mm off square: its crease falls 1.6 mm over the page, more than the band it is
    cleared in. It is found with its tilt and cleared from one end of the map to the other, a path crossing
    it at the far left still carried across."""
    from scanner.ink import without_creases

    px = 5.0
    ink, area = _sheet_with_a_crease(px, 1.0, 1.0, tilt_mm=1.6)
    ink[int(60 * px):int(80 * px), int(25 * px):int(25 * px) + 3] = 0.8       # a path crossing it, near the left
    cleared, creases, _ = without_creases(ink, area, px)
    assert len(creases) == 1
    crease = creases[0]
    assert abs(crease.slope - 1.6 / 200) < 0.002
    left, right = crease.at([area[0], area[2] - 1])
    assert abs(left - (70 - 0.64) * px) <= 1.5 and abs(right - (70 + 0.64) * px) <= 1.5
    line = ink >= 0.5
    line[:, int(25 * px):int(25 * px) + 3] = False
    assert cleared[:, area[0]:area[2]][line[:, area[0]:area[2]]].max() == 0.0
    assert (cleared[int(60 * px):int(80 * px), int(25 * px) + 1] > 0.5).all()


def test_the_registrations_move_carries_on_past_its_outermost_tiles_where_both_were_found():
    """A curl's move grows fastest at the paper's edge: past the outermost tiles' centres the field goes on
    at their slope, where the two outermost tiles of the row were both found; elsewhere it stays put."""
    from scanner.ink import _spread_out
    moves = np.zeros((2, 3, 2), np.float32)
    moves[:, :, 0] = [[0.0, 1.0, 3.0], [0.0, 1.0, 3.0]]        # x moves growing towards the right edge
    found = np.array([[True, True, True], [True, True, False]])
    field = _spread_out(moves, found, 300, 200)                 # tiles 100 px wide: centres at x 50, 150, 250
    assert field[50, 250, 0] == pytest.approx(3.0, abs=0.05)
    assert field[50, 299, 0] == pytest.approx(3.0 + 2.0 * 49.5 / 100, abs=0.05)    # on at the slope, 2 px/100
    assert field[150, 299, 0] == pytest.approx(3.0, abs=0.05)   # the lower row's edge tile was not found
    assert field[50, 150, 0] == pytest.approx(1.0, abs=0.05)    # between the centres, as before


def test_a_tile_whose_move_was_not_found_takes_the_move_of_the_tiles_beside_it():
    from scanner.ink import _filled
    moves = np.zeros((5, 5, 2), np.float32)
    moves[:, 4, 0] = 4.0                                        # the right edge column moved 4 px, the rest 0
    found = np.ones((5, 5), bool)
    found[2, 4] = found[2, 2] = False
    moves[2, 4] = moves[2, 2] = (-9.0, 9.0)                     # false matches, not taken
    _filled(moves, found)
    assert moves[2, 4].tolist() == [4.0, 0.0]                   # on the edge: the found beside it along the edge
    assert moves[2, 2].tolist() == [0.0, 0.0]                   # inside: the median of all found
    found = np.zeros((4, 4), bool)
    found[0, 0] = found[0, 1] = found[1, 0] = True
    moves[:] = 0.0
    moves[0, 0] = moves[0, 1] = moves[1, 0] = (2.0, 1.0)
    found = np.zeros((5, 5), bool)
    found[0, 0] = found[0, 1] = found[1, 0] = True
    _filled(moves, found)
    assert moves[4, 4].tolist() == [2.0, 1.0]                   # none beside it found: the median of all
