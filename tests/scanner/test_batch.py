"""A doubt on one sheet reaches the other sheets whose score it could change, and no others."""
import copy
import json
from pathlib import Path

import pytest

from games.state import FORMAT, read_game, score_game
from scanner.batch import flag_shared_doubts


SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "photos" / "game-7-medium.expected.json"


@pytest.fixture(scope="module")
def game():
    """Two sheets of a played sample game, and a room both drew in, a path through two sides on the first."""
    first, second = json.loads(SAMPLE.read_text())["sheets"][:2]
    room = next(name for name, drawn in first["rooms"].items()
                if len(drawn["exits"]) == 2 and name in second["rooms"])
    return first, second, room


def _shared_flags(game, reading=None, rule="unsure_link", why="is there a stroke to the top side?", errors=()):
    """The review rules of the second sheet when the first reads ``reading`` in the shared room (its own
    reading if None) and is unsure of it."""
    first, second, room = (copy.deepcopy(part) for part in game)
    if reading is not None:
        first["rooms"][room] = {"exits": "" if reading == "X" else reading, "trap": reading == "X", "round": None}
    first["needs_review"] = [{"where": room, "rule": rule, "why": why, "confidence": 0.4}]
    second["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second], "errors": list(errors)}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    return [entry["rule"] for entry in results[1].review]


@pytest.mark.parametrize("reading", ["X", ""])
def test_a_doubt_that_could_be_a_trap_flags_the_other_sheets_in_that_room(game, reading):
    assert "other_sheet_unsure" in _shared_flags(game, reading)


def test_only_a_doubtful_link_in_a_room_read_as_a_path_through_two_sides_stays_on_its_sheet(game):
    assert _shared_flags(game) == []        # (and so the sample's sheets break no rule)


@pytest.mark.parametrize("rule, why", [("unsure_reading", "14 mm² of ink that is not part of the path read"),
                                       ("wall_end", "the segment ends against the wall on the north (top) side")])
def test_any_other_doubt_about_a_path_reaches_the_other_sheets(game, rule, why):
    """A Trap X can be read as a path through two sides; then ink is left over or a rule breaks."""
    assert "other_sheet_unsure" in _shared_flags(game, rule=rule, why=why)


def test_a_photo_not_read_flags_every_sheet(game):
    assert "sheet_missing" in _shared_flags(game, errors=[{"source": "c.jpg", "error": "no sheet found"}])
