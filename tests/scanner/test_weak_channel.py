"""A colour channel whose paper the photo shows far darker than the brightest's tells no colour
(``scanner.ink.CHANNEL_LEAST``): it takes the other two's mean. Only the weakest is left out, so that the
other two still tell a pen's colour from the grey print."""
import numpy as np

import photographer
from generator.kinds import BLANKS
from photographer.degrade import degrade_shot
from scanner.ink import measure
from scanner.load import load_photo_bytes
from scanner.scan import scan_photo


def test_a_dim_photo_in_vivid_colours_whose_green_is_weak_too_still_tells_a_pen_from_the_print():
    """``scan_accuracy.py --conditions dim --games 3 --players 4 --maps 1,...,random-expansion --seed 872
    --degrade saturate``, game 87257001, player 1: the lamp and the vivid colours left the paper's green
    under 0.7 of its red as well as its blue. Both were left out, the red alone told no colour, and 29 of
    the sheet's rooms were read without their paths, 5 of them named nowhere. Only the blue is left out."""
    shots = photographer.make_game_shots(87257001, players=4, condition="dim", map_id="map2", paper="a4")
    rng = np.random.default_rng(87257001)
    shot = [degrade_shot(shot, "saturate", rng) for shot in shots][0]
    scans, problems = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    assert problems == []
    read = {room: (entry["exits"], entry["trap"]) for room, entry in scans[0].to_json()["rooms"].items()}
    drawn = {room: (entry["exits"], entry["trap"]) for room, entry in shot.truth["rooms"].items()}
    assert {room: exits for room, exits in read.items() if exits[0] or exits[1]} == \
        {room: exits for room, exits in drawn.items() if exits[0] or exits[1]}


def test_only_the_weakest_channel_is_left_out():
    """Paper lit red 200, green 120, blue 60 (both under 0.7 of the red), grey print at half the paper and a
    blue pen: the pen is told by its colour, the print is not."""
    paper = np.full((400, 400, 3), (200, 120, 60), np.uint8)
    page = paper.copy()
    page[100:104, 40:360] = (100, 60, 30)       # a line of grey print: half the paper in every channel
    page[300:306, 40:360] = (60, 60, 50)        # a blue pen's stroke, seen under that lamp
    _, colour = measure(page, 8.0)
    assert colour[301:305, 60:340].mean() > 40 > 5 > colour[101:103, 60:340].mean()
