"""A doubt on one sheet reaches the other sheets whose score it could change, and no others."""
import pytest

from games.state import FORMAT, read_game, score_game
from scanner.batch import flag_shared_doubts


def _sheet(source, rooms, review=()):
    return {"source": source, "map": {"id": "classic", "seed": None}, "player": 1, "unusable": 0,
            "rooms": {name: {"exits": exits, "trap": exits == "X", "round": None} if exits != "X"
                      else {"exits": "", "trap": True, "round": None} for name, exits in rooms.items()},
            "confidence": 1.0, "needs_review": list(review)}


def _shared_flags(doubted_reading, errors=()):
    """The review rules of sheet b.jpg, when a.jpg reads ``doubted_reading`` in C3 and is unsure of it."""
    doubt = {"where": "C3", "rule": "unsure_reading", "why": "is there a stroke to the top side?", "confidence": 0.4}
    document = {"format": FORMAT, "errors": list(errors), "sheets": [
        _sheet("a.jpg", {"C3": doubted_reading}, [doubt]),
        _sheet("b.jpg", {"C3": "EW", "D3": "W"})]}
    sheets, errors = read_game(document, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    return [entry["rule"] for entry in results[1].review]


@pytest.mark.parametrize("reading", ["X", "", "S"])
def test_a_doubt_that_could_be_a_trap_flags_the_other_sheets_in_that_room(reading):
    assert "other_sheet_unsure" in _shared_flags(reading)


@pytest.mark.parametrize("reading", ["NS", "ES", "NEW"])
def test_a_doubt_in_a_room_read_as_a_path_through_two_sides_stays_on_its_sheet(reading):
    assert "other_sheet_unsure" not in _shared_flags(reading)


def test_a_photo_not_read_flags_every_sheet():
    assert "sheet_missing" in _shared_flags("NS", errors=[{"source": "c.jpg", "error": "no sheet found"}])
