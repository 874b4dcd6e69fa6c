"""A stroke dimmed by glare: a side whose place glare lights, read unlinked though ink crosses its probe, is
asked about instead of dropped in silence."""
import numpy as np
import photographer
from generator.kinds import BLANKS
from scanner.load import load_photo_bytes
from scanner.read import RoomReading, link_question
from scanner.scan import GLARE_FAINT, _unseen_sides_asked, scan_photo
from scanner.visibility import COVER_PX_PER_MM, lit_places
from sheets.page import Rect


def test_a_stroke_under_glare_read_too_faint_for_a_link_is_asked_about():
    """Seed 730 (game 73055001, glare, player 3): the glare's halo lay over A4's bottom side. Its stroke
    showed at 0.23 of a probe, under the 0.3 that is asked about, and A4 (a path to the right, bottom and
    left sides) was read as a straight path to the right and left, named nowhere."""
    shot = photographer.make_game_shots(73055001, players=4, condition="glare", map_id="map2", paper="a4")[2]
    scans, problems = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    assert problems == []
    assert shot.truth["rooms"]["A4"]["exits"] == "ESW"
    a4 = next(reading for reading in scans[0].rooms if reading.room == "A4")
    assert a4.exits == "EW"
    assert link_question("S") in a4.doubts
    named = {entry["where"]: entry["why"] for entry in scans[0].to_json()["needs_review"]
             if entry["rule"] == "unsure_link"}
    assert named["A4"] == "is there a stroke to the bottom side?"


def test_a_lit_side_is_asked_only_when_ink_crosses_its_probe_and_the_room_is_no_trap():
    faint, bare = GLARE_FAINT + 0.1, GLARE_FAINT / 2
    rooms = [RoomReading("A1", "EW", strengths={"N": 0.0, "E": 1.0, "S": faint, "W": 1.0}),
             RoomReading("A2", "EW", strengths={"N": 0.0, "E": 1.0, "S": bare, "W": 1.0}),
             RoomReading("A3", "", True, strengths={"N": faint, "E": 0.0, "S": 0.0, "W": 0.0}),
             RoomReading("A4", "EW", strengths={"N": faint, "E": 1.0, "S": 0.0, "W": 1.0})]
    lit = {"A1|S", "A2|S", "A3|N", "A1|E"}
    asked = {reading.room: reading for reading in _unseen_sides_asked(rooms, {}, set(), lit)}
    assert asked["A1"].doubts == (link_question("S"),)          # lit, and ink there: asked
    assert asked["A1"].confidence == 0.5
    assert asked["A2"].doubts == ()                             # lit, but nothing crosses the probe
    assert asked["A3"].doubts == ()                             # a Trap's X has no sides to ask about
    assert asked["A4"].doubts == ()                             # ink there, but no glare


def test_lit_places_are_those_with_their_share_of_the_map_lit():
    lit = np.zeros((40, 60), bool)          # at COVER_PX_PER_MM, the map's top-left at (10, 20) mm
    lit[0:10, 0:10] = True
    boxes = {"in": Rect(10, 20, 10, 10), "edge": Rect(15, 20, 10, 10), "out": Rect(40, 40, 10, 10)}
    assert COVER_PX_PER_MM == 1.0
    assert lit_places(lit, boxes, (10.0, 20.0), 0.5) == {"in", "edge"}
    assert lit_places(lit, boxes, (10.0, 20.0), 0.6) == {"in"}
    assert lit_places(lit, {}, (10.0, 20.0), 0.1) == set()
