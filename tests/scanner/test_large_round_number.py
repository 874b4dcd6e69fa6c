"""A round number written larger than its round box, so large that its foot lies in the left side's probe:
not read as a stroke to that side, and asked about."""
from types import SimpleNamespace

import cv2
import numpy as np
import photographer
from games.game import score_document
from games.state import game_json
from generator.kinds import BLANKS
from scanner.batch import game_document, scan_files
from scanner.read import _number_only, _split_round_box, link_question, read_room

PX = 5.0            # pixels a millimetre: a 20 mm room is 100 pixels square
SIZE = 100
CELL = SimpleNamespace(rect=SimpleNamespace(x=0.0, y=0.0, w=20.0, h=20.0), round_box=(3.7, 3.7, 2.6), mark=None,
                       room=SimpleNamespace(name="C4"))                     # a room of the classic map
TWO = [(10, 8), (20, 4), (30, 12), (26, 26), (6, 46), (30, 46)]            # a 2 about the box, 42 px (8 mm) tall
FIVE = [(26, 8), (12, 8), (11, 18), (22, 17), (26, 24), (20, 31), (10, 30)]  # a 5 of the usual size


def _room(*strokes, width=4) -> np.ndarray:
    crop = np.zeros((SIZE, SIZE), np.float32)
    for points in strokes:
        cv2.polylines(crop, [np.array(points, np.int32)], False, 1.0, width)
    return crop


def test_a_large_round_number_reaching_the_left_probe_is_not_read_as_a_stroke_there(tmp_path):
    """Seed 31010, map 1: player 3's G1 is a straight path from top to bottom; the 2 written in its round box
    is 1.5 times the box's height, its foot across the left side's probe. Before, G1 was read as a T
    (top, bottom and left), the sheet asked nothing; then as a T, asked about. It is now read as it is
    drawn, and still asked about (a person should look: it may be a stroke the number was written over)."""
    shots = photographer.make_game_shots(31010, players=3, condition="good", map_id="map1", paper="a4",
                                         large_numbers=True)
    paths = [str(p) for p in photographer.write_shots(shots, tmp_path) if not p.name.endswith(".json")]
    results, errors = score_document(game_document(scan_files(paths, BLANKS, jobs=1)))
    sheets = {sheet["player"]: sheet for sheet in game_json(results, errors)["sheets"]}
    for shot in shots:
        sheet = sheets[shot.truth["player"]]
        named = {entry["where"] for entry in sheet["needs_review"]}
        for name, room in shot.truth["rooms"].items():
            read = sheet["rooms"].get(name, {"exits": "", "trap": False})
            if (read["exits"], read["trap"]) != (room["exits"], room["trap"]):
                assert name in named, (shot.truth["player"], name, room["exits"], read["exits"])
    g1 = [entry for entry in sheets[3]["needs_review"] if entry["where"] == "G1"]
    assert sheets[3]["rooms"]["G1"]["exits"] == "NS"
    assert any(link_question("W") in entry["why"] for entry in g1)


def _only(crop: np.ndarray, sides: str) -> str:
    return _number_only(crop, CELL, PX, sides, _split_round_box(crop, CELL, PX)[3])


def test_a_number_whose_foot_lies_in_the_left_probe_is_only_a_number():
    straight = [(55, 0), (55, 99)]                                     # the room's own path, top to bottom
    assert _only(_room(TWO, straight), "NSW") == "W"     # not the path's own sides


def test_an_arm_only_the_number_draws_is_not_read_and_is_asked_about():
    reading = read_room(_room(TWO, [(55, 0), (55, 99)]), CELL, PX)
    assert reading.exits == "NS" and link_question("W") in reading.doubts
    # A dead end's short stub whose bar runs into the number (a messy hand does so) is the room's only path:
    # not asked about so.
    reading = read_room(_room(FIVE, [(0, 50), (25, 50)], [(25, 30), (25, 62)]), CELL, PX)
    assert reading.exits == "W" and link_question("W") not in reading.doubts


def test_strokes_to_the_left_side_are_not_the_number():
    number = [(14, 10), (22, 6), (22, 28)]                             # a 1 of the usual size, in its box
    t = [(55, 0), (55, 99)], [(0, 50), (55, 50)]                       # a T to the left
    dead_end = [(0, 50), (50, 50)], [(50, 42), (50, 58)]               # a dead end from the left
    chord = [(0, 50), (50, 0)]                                         # a corner drawn straight past the box
    touching = [(0, 50), (50, 50), (50, 99)], [(14, 12), (20, 6), (20, 50)]   # a number written onto the path
    for strokes in ((number, *t), (number, *dead_end), (chord,), (number, chord), touching):
        assert _only(_room(*strokes), "NESW") == ""
    assert _only(_room(number), "W") == ""            # nothing in the left probe at all


def test_a_large_number_whose_foot_the_printed_ring_cut_off_is_still_only_a_number():
    """Seed 31031, map 3, a dim photo (player 3's D5, F6, H6): where the 2's stroke crossed the printed ring
    the scanner lost its ink, so the foot in the left probe was a piece of its own, taken for a stroke to
    the left side and named nowhere."""
    straight = [(55, 0), (55, 99)]
    crop = _room(TWO, straight)
    cv2.circle(crop, (18, 18), 13, 0.0, 4)        # the ink lost on the ring: 0.8 mm across
    assert _only(crop, "NSW") == "W"
    reading = read_room(crop, CELL, PX)
    assert reading.exits == "NS" and link_question("W") in reading.doubts
    # A corner's arm to the left side passing just outside the ring, drawn apart from its arm to the bottom,
    # is not the number's, though the number reaches down to the ring (seed 719, a pencil photo, D8).
    one = [(17, 6), (19, 30)]
    crop = _room(one, [(0, 36), (45, 36)], [(50, 38), (50, 99)])
    cv2.circle(crop, (18, 18), 13, 0.0, 4)
    assert _only(crop, "SW") == ""
    assert read_room(crop, CELL, PX).exits == "SW"


def test_a_large_number_touching_the_path_and_the_left_edge_is_asked_about():
    """Seed 32021, map 2, a dim photo (player 2's G3): a 3 written half again the box's size, joined to the
    straight path's top, its lower curl across the left side's probe to the room's edge. The number and the
    path are one piece of ink, so the side could not be told from a stroke there: read as a T, asked about
    nowhere. Ink that meets the side's edge within a number's reach of the box (a number up to twice its
    size) is no stroke from the side: the left side is now asked about. A real arm to the left, which meets
    the edge at the side's middle, is not."""
    three = [(10, 3), (28, 3), (18, 15), (30, 25), (20, 36), (4, 37)]
    joined, straight = [(28, 3), (55, 3)], [(55, 0), (55, 99)]
    reading = read_room(_room(three, joined, straight), CELL, PX)
    assert link_question("W") in reading.doubts
    reading = read_room(_room(three, joined, straight, [(0, 50), (55, 50)]), CELL, PX)
    assert reading.exits == "NSW" and link_question("W") not in reading.doubts


def test_a_large_number_reaching_two_probes_beside_the_path_is_only_a_number():
    """Seed 35031, map 3, a dim photo (player 3's C8): a 2 written so large that its foot lies across the left
    side's probe and its top in the top side's, beside the room's straight path. Alone it reached two sides,
    as a corner drawn straight past the number does, so it was not taken for the number: read as a T, asked
    about nowhere. The top side is linked by the path anyway: the 2 is only the number, the room reads as it
    is drawn, and the left side is asked about."""
    two = [(14, 8), (26, 3), (38, 10), (30, 26), (6, 46), (30, 46)]
    reading = read_room(_room(two, [(58, 0), (58, 99)]), CELL, PX)
    assert reading.exits == "NS" and link_question("W") in reading.doubts


def test_a_large_number_broken_into_pieces_in_the_left_probe_is_still_only_a_number():
    """Seed 37031, map 3, a dim photo (player 3's H2): a dead end from the right side, and a 5 written large
    over the round box, its bowl across the left side's probe to near the edge. The dim photo broke the 5's
    last curl off as a speck of its own beside the bowl, and any ink in the probe not the number's kept the
    side a stroke: read as a straight path, named nowhere. Ink there that by itself would not link the side
    no longer does so: the room reads as drawn, and the left side is asked about."""
    shot = next(shot for shot in photographer.make_game_shots(37031, players=3, condition="dim", map_id="map3",
                                                              large_numbers=True)
                if shot.truth["player"] == 3)
    assert shot.truth["rooms"]["H2"]["exits"] == "E"
    from scanner.load import load_photo_bytes
    from scanner.read import SURE
    from scanner.scan import scan_photo
    scans, problems = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    h2 = next(reading for reading in scans[0].rooms if reading.room == "H2")
    assert h2.exits == "E" or h2.confidence < SURE
    assert link_question("W") in h2.doubts
