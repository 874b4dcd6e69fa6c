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
