"""A corner drawn as a straight line from one side's middle to the next's: what the sheet's key asks (lines
to the middle of each side), read as the corner it is."""
import cv2
import numpy as np
import photographer
from games.game import score_document
from games.state import game_json
from generator.kinds import BLANKS
from scanner.batch import game_document, scan_files
from scanner.read import _chord_corner

PX = 5.0            # pixels a millimetre: a 20 mm room is 100 pixels square
SIZE = 100


def _room(*lines, width=4) -> np.ndarray:
    crop = np.zeros((SIZE, SIZE), np.float32)
    for a, b in lines:
        cv2.line(crop, a, b, 1.0, width)
    return crop


def _corner(crop: np.ndarray, whole: np.ndarray | None = None) -> str:
    return _chord_corner(crop, crop if whole is None else whole, PX)


def test_a_game_drawn_with_straight_corners_reads_every_room_and_asks_nothing(tmp_path):
    """Seed 21000: a hand that draws every corner straight across it. Before, each such corner ran through
    the edges of both sides' probes and was read as nothing, asked about; three sheets, 15 rooms."""
    shots = photographer.make_game_shots(21000, players=3, condition="good", map_id="classic", paper="a4",
                                         straight_corners=True)
    corners = [name for shot in shots for name, room in shot.truth["rooms"].items()
               if room["exits"] in ("NE", "ES", "SW", "NW")]
    assert len(corners) >= 10
    paths = [str(p) for p in photographer.write_shots(shots, tmp_path) if not p.name.endswith(".json")]
    results, errors = score_document(game_document(scan_files(paths, BLANKS, jobs=1)))
    sheets = {sheet["player"]: sheet for sheet in game_json(results, errors)["sheets"]}
    for shot in shots:
        sheet = sheets[shot.truth["player"]]
        read = {name: (room["exits"], room["trap"]) for name, room in sheet["rooms"].items()
                if room["exits"] or room["trap"]}
        assert read == {name: (room["exits"], room["trap"]) for name, room in shot.truth["rooms"].items()}
        assert sheet["needs_review"] == []


def test_a_straight_line_between_neighbouring_sides_is_that_corner():
    middles = {"N": (50, 0), "E": (99, 50), "S": (50, 99), "W": (0, 50)}
    for a, b, corner in (("N", "E", "NE"), ("E", "S", "ES"), ("S", "W", "SW"), ("W", "N", "NW")):
        room = _room((middles[a], middles[b]))
        assert _corner(room) == corner


def test_other_strokes_are_no_straight_corner():
    bent = _room(((50, 0), (50, 50)), ((50, 50), (99, 50)))             # a corner bent at the middle
    x = _room(((10, 10), (90, 90)), ((90, 10), (10, 90)))               # a Trap
    stub = _room(((50, 0), (50, 45)), ((40, 45), (60, 45)))             # a dead end from the top
    straight = _room(((0, 50), (99, 50)))                                # a straight path across
    for room in (bent, x, stub, straight):
        assert _corner(room) == ""
    specks = np.zeros((SIZE, SIZE), np.float32)
    specks[np.random.default_rng(1).random((SIZE, SIZE)) < 0.08] = 1.0    # a dim photo's grain, one pixel each
    assert _corner(specks) == ""


def test_a_round_number_written_over_a_straight_corner_does_not_hide_it():
    whole = _room(((0, 50), (50, 0)))
    cv2.circle(whole, (22, 22), 9, 1.0, 3)                               # the number, written over the line
    crop = whole.copy()
    crop[8:38, 8:38] = 0.0                                               # ... taken away with the line under it
    assert _corner(crop, whole) == "NW"
    assert _corner(np.zeros_like(crop), whole) == ""                   # a number alone is no corner
