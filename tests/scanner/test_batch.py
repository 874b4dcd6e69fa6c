"""A doubt on one sheet reaches the other sheets whose score it could change (a Trap there or not), and no others."""
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


def _shared_flags(game, reading=None, rule="unsure_link", why="is there a stroke to the top side?", errors=(),
                  could_be_trap=False):
    """The review rules of the second sheet when the first reads ``reading`` in the shared room (its own
    reading if None) and is unsure of it (``could_be_trap``: the scanner says the doubt is about a Trap)."""
    first, second, room = (copy.deepcopy(part) for part in game)
    if reading is not None:
        first["rooms"][room] = {"exits": "" if reading == "X" else reading, "trap": reading == "X", "round": None}
    first["needs_review"] = [{"where": room, "rule": rule, "why": why, "confidence": 0.4,
                              **({"could_be_trap": True} if could_be_trap else {})}]
    second["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second], "errors": list(errors)}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    return [entry["rule"] for entry in results[1].review]


@pytest.mark.parametrize("reading, rule, why", [
    ("X", "unsure_reading", "hard to read"),
    ("", "unsure_reading", "a mark that is neither a clear path nor a clear X"),
    ("E", "unsure_reading", "a dead end, or a Trap X with an arm near the side?"),
    ("", "cannot_see", "something lies over this room in the photo (a finger, a pen?)")])
def test_a_doubt_that_could_be_a_trap_flags_the_other_sheets_in_that_room(game, reading, rule, why):
    assert "other_sheet_unsure" in _shared_flags(game, reading, rule=rule, why=why, could_be_trap=True)


@pytest.mark.parametrize("reading, rule, why", [
    (None, "unsure_link", "is there a stroke to the top side?"),
    (None, "unsure_reading", "14 mm² of ink that is not part of the path read"),
    (None, "wall_end", "the segment ends against the wall on the north (top) side"),
    ("E", "unsure_reading", "a stroke reaches the side but not the middle of the room: a dead end?")])
def test_a_doubt_only_about_a_path_stays_on_its_sheet(game, reading, rule, why):
    """Whether a path reaches a side, or ends against a wall, changes that sheet's own score only."""
    assert _shared_flags(game, reading, rule=rule, why=why) == []


def test_a_rule_about_a_trap_reaches_the_other_sheets(game):
    assert "other_sheet_unsure" in _shared_flags(game, "X", rule="too_many_traps", why="a fourth trap")


def test_a_photo_not_read_flags_every_sheet(game):
    assert "sheet_missing" in _shared_flags(game, errors=[{"source": "c.jpg", "error": "no sheet found"}])


def test_each_entry_says_what_the_other_reading_would_score_and_the_biggest_comes_first(game):
    """The first sheet is unsure whether a room with a printed item holds its path at all, and cannot see
    another room: the entry says the total without that path, and the room not seen comes first."""
    from games.mapfile import load_map
    from games.maps import Room
    from scanner.batch import weigh_review

    first, second, _ = (copy.deepcopy(part) for part in game)
    classic = load_map("classic")
    with_item = next(name for name in first["rooms"] if classic.item_at(Room.parse(name)) is not None
                     and not first["rooms"][name]["trap"])
    unseen = next(name for name in ("H8", "H7", "G8", "A8", "A1", "H1") if name not in first["rooms"])
    first["needs_review"] = [
        {"where": with_item, "rule": "unsure_reading", "why": "a stroke reaches the side: a dead end?",
         "confidence": 0.4, "alternative": {"exits": "", "trap": False}},
        {"where": unseen, "rule": "cannot_see", "why": "something lies over this room", "confidence": 0.0}]
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second]}, "scan")
    results = score_game(sheets)
    total = results[0].score.total
    without = copy.deepcopy(first)
    del without["rooms"][with_item]
    expected = score_game(read_game({"format": FORMAT, "sheets": [without, second]}, "scan")[0])[0].score.total
    weigh_review(results)
    assert [entry["rule"] for entry in results[0].review] == ["cannot_see", "unsure_reading"]
    entry = results[0].review[1]
    assert expected != total and entry["if_so"] == expected
    assert entry["why"].endswith(f"(if nothing drawn: {expected} points, not {total})")
