"""A doubt on one sheet reaches the other sheets whose score it could change (a Trap there or not), and no others."""
import copy
import json
from pathlib import Path

import pytest

from games.state import FORMAT, read_game, score_game
from games.doubts import flag_shared_doubts


SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "photos" / "game-7-medium.expected.json"


@pytest.fixture(scope="module")
def game():
    """Two sheets of a played sample game, and a room both drew in, a path through two sides on the first."""
    first, second = json.loads(SAMPLE.read_text())["sheets"][:2]
    room = next(name for name, drawn in first["rooms"].items()
                if len(drawn["exits"]) == 2 and name in second["rooms"])
    return first, second, room


def _shared_flags(game, reading=None, rule="unsure_link", why="is there a stroke to the top side?", errors=(),
                  could_be_trap=False, traps_shown=(2, 2)):
    """The review rules of the second sheet when the first reads ``reading`` in the shared room (its own
    reading if None) and is unsure of it (``could_be_trap``: the scanner says the doubt is about a Trap),
    the two sheets showing ``traps_shown`` of their two Traps elsewhere (every sheet of the game holds both)."""
    first, second, room = (copy.deepcopy(part) for part in game)
    for sheet, shown in zip((first, second), traps_shown):
        for name in [name for name, drawn in sheet["rooms"].items() if drawn["trap"] and name != room][shown:]:
            del sheet["rooms"][name]
    if reading is not None:
        first["rooms"][room] = {"exits": "" if reading == "X" else reading, "trap": reading == "X", "round": None}
    first["needs_review"] = [{"where": room, "rule": rule, "why": why, "confidence": 0.4,
                              **({"could_be_trap": True} if could_be_trap else {})}]
    second["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second], "errors": list(errors)}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    return [entry.rule for entry in results[1].review]


@pytest.mark.parametrize("reading, rule, why", [
    ("X", "unsure_reading", "hard to read"),
    ("", "unsure_reading", "a mark that is neither a clear path nor a clear X"),
    ("E", "unsure_reading", "a dead end, or a Trap X with an arm near the side?"),
    ("", "cannot_see", "something lies over this room in the photo (a finger, a pen?)")])
def test_a_doubt_that_could_be_a_trap_flags_the_other_sheets_in_that_room(game, reading, rule, why):
    """The first sheet shows one Trap elsewhere; the other sheets hold two, so its second may be here."""
    assert "other_sheet_unsure" in _shared_flags(game, reading, rule=rule, why=why, could_be_trap=True,
                                                 traps_shown=(1, 2))


@pytest.mark.parametrize("reading, rule, why", [
    ("", "unsure_reading", "a mark that is neither a clear path nor a clear X"),
    ("", "cannot_see", "something lies over this room in the photo (a finger, a pen?)")])
def test_a_sheet_showing_all_its_traps_elsewhere_hides_none_in_a_doubted_room(game, reading, rule, why):
    """Every player draws every Trap card revealed: with both of its Traps read surely elsewhere, a room of
    the first sheet read as no Trap cannot hold a third, so the other sheets are not asked about it; a
    Trap read unsurely still is asked about."""
    assert _shared_flags(game, reading, rule=rule, why=why, could_be_trap=True) == []
    assert "other_sheet_unsure" in _shared_flags(game, "X", rule="unsure_reading", why="hard to read",
                                                 could_be_trap=True)


def test_no_trap_is_asked_about_when_a_sheet_sure_of_every_room_shows_none(game):
    """The first sheet cannot see a room and shows no Trap: asked about while the second shows its two;
    when the second, sure of every room, shows none, no Trap card was revealed and nothing is asked."""
    covered = dict(reading="", rule="cannot_see", why="covered", could_be_trap=True)
    assert "other_sheet_unsure" in _shared_flags(game, **covered, traps_shown=(0, 2))
    assert _shared_flags(game, **covered, traps_shown=(0, 0)) == []


def test_sheets_that_disagree_about_their_traps_bound_nothing(game):
    """The second sheet shows two Traps surely and a third sheet (of another game, or a Trap missed) shows
    none and is sure of every room: the sheets disagree, so the first sheet's covered room is asked about."""
    first, second, room = (copy.deepcopy(part) for part in game)
    second_traps = [name for name, drawn in second["rooms"].items() if drawn["trap"]]
    third = copy.deepcopy(second)
    third["player"], third["source"] = 3, "c.jpg"
    for name in second_traps:
        del third["rooms"][name]
    for name in [name for name, drawn in first["rooms"].items() if drawn["trap"] and name != room]:
        del first["rooms"][name]
    first["rooms"][room] = {"exits": "", "trap": False, "round": None}
    first["needs_review"] = [{"where": room, "rule": "cannot_see", "why": "covered", "confidence": 0.0,
                              "could_be_trap": True}]
    second["needs_review"] = third["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second, third], "errors": []}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    assert "other_sheet_unsure" in [entry.rule for entry in results[1].review]


@pytest.mark.parametrize("reading, rule, why", [
    (None, "unsure_link", "is there a stroke to the top side?"),
    (None, "unsure_reading", "14 mm² of ink that is not part of the path read"),
    (None, "wall_end", "the segment ends against the wall on the north (top) side"),
    ("E", "unsure_reading", "a stroke reaches the side but not the middle of the room: a dead end?")])
def test_a_doubt_only_about_a_path_stays_on_its_sheet(game, reading, rule, why):
    """Whether a path reaches a side, or ends against a wall, changes that sheet's own score only."""
    assert "other_sheet_unsure" not in _shared_flags(game, reading, rule=rule, why=why, traps_shown=(1, 2))


def test_a_rule_about_a_trap_reaches_the_other_sheets(game):
    assert "other_sheet_unsure" in _shared_flags(game, "X", rule="too_many_traps", why="a fourth trap")


def test_a_photo_not_read_flags_every_sheet(game):
    assert "sheet_missing" in _shared_flags(game, errors=[{"source": "c.jpg", "error": "no sheet found"}])


def test_each_entry_says_what_the_other_reading_would_score_and_the_biggest_comes_first(game):
    """The first sheet is unsure whether a room with a printed item holds its path at all, and cannot see
    another room: the entry says the total without that path, and the room not seen comes first."""
    from games.mapfile import load_map
    from games.maps import Room
    from games.doubts import weigh_review

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
    assert [entry.rule for entry in results[0].review] == ["cannot_see", "unsure_reading"]
    entry = results[0].review[1]
    assert expected != total and entry.if_so == expected
    assert entry.why.endswith(f"(if nothing drawn: {expected} points, not {total})")


def test_sheets_showing_different_numbers_of_traps_are_all_told(game):
    """The first sheet shows one of its two Traps and is sure of every room: its other X was read as
    something else (or the player missed it), so both sheets' scores may be wrong and both are told."""
    first, second, _ = (copy.deepcopy(part) for part in game)
    del first["rooms"][next(name for name, drawn in first["rooms"].items() if drawn["trap"])]
    first["needs_review"] = second["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second], "errors": []}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    for result in results:
        told = [entry for entry in result.review if entry.rule == "trap_count"]
        assert [entry.where for entry in told] == ["game"]
        assert f"player {first['player']}: 1, player {second['player']}: 2" in told[0].why   # players, not files
    assert "trap_count" not in _shared_flags(game)


@pytest.mark.parametrize("reading, could_be_trap, told", [("X", True, False), ("NS", False, True)])
def test_a_trap_count_the_doubted_rooms_explain_is_not_told_again(game, reading, could_be_trap, told):
    """The first sheet shows one of its two Traps surely, and is unsure of the room of its other. Read as an
    X unsurely (the doubt is about a Trap there), that room accounts for the difference and is already
    named (on the first sheet, and on the second where a Trap there would change its score): the game-wide
    count is not told as well. Read as a path with a doubt about one side only, nothing accounts for it:
    every sheet is told."""
    first, second, _ = (copy.deepcopy(part) for part in game)
    doubted = next(name for name, drawn in first["rooms"].items() if drawn["trap"])
    first["rooms"][doubted] = {"exits": "" if reading == "X" else reading, "trap": reading == "X", "round": None}
    why = "hard to read" if could_be_trap else "is there a stroke to the top side?"
    first["needs_review"] = [{"where": doubted, "rule": "unsure_reading", "why": why, "confidence": 0.4,
                              **({"could_be_trap": True} if could_be_trap else {})}]
    second["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [first, second], "errors": []}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    assert [any(entry.rule == "trap_count" for entry in result.review) for result in results] == [told, told]
    assert [entry.where for entry in results[0].review if entry.rule == "unsure_reading"] == [doubted]


# -- every player draws every card revealed ------------------------------------------------------------
def _dealt_game(seed: int = 21):
    """The three sheets of a game on the classic map played by the random legal player: the first tallied
    one segment it could not draw, the other two drew every segment (so they hold the same shapes)."""
    from games.mapfile import load_map
    from photographer.paper import play_game, truth_sheet

    classic = load_map("classic")
    boards = play_game(classic, seed, 3)
    sheets = [truth_sheet(classic, board, player, f"p{player}.jpg") for player, board in enumerate(boards, 1)]
    for sheet in sheets:
        sheet["needs_review"] = []
    assert [sheet["unusable"] for sheet in sheets] == [1, 0, 0]
    return sheets


def _reviewed(sheets) -> list[list[dict]]:
    """Each sheet's review list after the game's sheets are scored together, as ``scrawl scan`` does."""
    from games.game import score_document

    results, _ = score_document({"format": FORMAT, "sheets": sheets, "errors": []})
    return [result.review for result in results]


def _a_dead_end(sheet) -> tuple[str, str]:
    """A dead end of a sheet, and the corner it makes with one side more (the stub's side turned)."""
    room, drawn = next((name, drawn) for name, drawn in sorted(sheet["rooms"].items()) if len(drawn["exits"]) == 1)
    turned = {"N": "E", "E": "S", "S": "W", "W": "N"}[drawn["exits"]]
    return room, "".join(side for side in "NESW" if side in drawn["exits"] + turned)


def test_sheets_of_one_game_show_the_same_cards_less_their_tallies():
    from games.rules import same_cards
    from games.state import read_game

    boards = [sheet.board for sheet in read_game({"format": FORMAT, "sheets": _dealt_game()}, "scan")[0]]
    assert all(same_cards(a, b) for a in boards for b in boards)
    assert [rule for review in _reviewed(_dealt_game()) for rule in review] == []


def test_a_dead_end_read_as_a_corner_is_told_on_that_sheet_only():
    """The second sheet's dead end is read, surely, as a corner: its total may be wrong, and no room entry
    says so. It cannot show the cards the other two show, which agree: it alone is told what to look for."""
    sheets = _dealt_game()
    room, corner = _a_dead_end(sheets[1])
    sheets[1]["rooms"][room]["exits"] = corner
    reviews = _reviewed(sheets)
    told = [entry for entry in reviews[1] if entry.rule == "card_count"]
    assert [entry.where for entry in told] == ["game"]
    assert told[0].why.endswith(": it has 1 corner more and 1 dead end fewer than player 3's sheet, with as many tally "
                                   "marks. Look for a room misread so")
    assert "player 1, player 3" in told[0].why
    assert [entry.rule for entry in reviews[0] + reviews[2] if entry.rule == "card_count"] == []


def _four_players():
    """The four sheets of a game on the classic map (seed 21: two sheets tallied a segment each)."""
    from games.mapfile import load_map
    from photographer.paper import play_game, truth_sheet

    classic = load_map("classic")
    sheets = [truth_sheet(classic, board, player, f"p{player}.jpg")
              for player, board in enumerate(play_game(classic, 21, 4), 1)]
    for sheet in sheets:
        sheet["needs_review"] = []
    return sheets


def _corner_as_dead_end(sheet) -> None:
    room, drawn = next((name, drawn) for name, drawn in sorted(sheet["rooms"].items())
                       if len(drawn["exits"]) == 2 and drawn["exits"] not in ("NS", "EW"))
    sheet["rooms"][room]["exits"] = drawn["exits"][0]


def test_two_sheets_misread_apart_are_told_and_the_two_read_right_are_not():
    """Four players: the third sheet's dead end read as a corner, the fourth's corner as a dead end. The
    first two agree; each of the others agrees with no sheet. Only the two misread are told (the first two
    were told too, each a look at a sheet with nothing wrong on it)."""
    sheets = _four_players()
    room, corner = _a_dead_end(sheets[2])
    sheets[2]["rooms"][room]["exits"] = corner
    _corner_as_dead_end(sheets[3])
    told = [[entry.why for entry in review if entry.rule == "card_count"] for review in _reviewed(sheets)]
    assert [len(entries) for entries in told] == [0, 0, 1, 1]
    assert "player 1, player 2, player 4 show" in told[2][0]


def test_two_sheets_misread_alike_leave_no_side_likelier():
    """The third and fourth sheets each with a dead end read as a corner agree with each other as the first two
    do: every sheet is told."""
    sheets = _four_players()
    for sheet in sheets[2:]:
        room, corner = _a_dead_end(sheet)
        sheet["rooms"][room]["exits"] = corner
    told = [[entry for entry in review if entry.rule == "card_count"] for review in _reviewed(sheets)]
    assert [len(entries) for entries in told] == [1, 1, 1, 1]


def test_a_difference_a_doubted_room_explains_adds_nothing():
    """The same misreading, with the scanner unsure of the stub's turned side: the doubt names the room,
    and its other reading makes the sheets agree, so no game-level entry is added."""
    sheets = _dealt_game()
    room, corner = _a_dead_end(sheets[1])
    stub = sheets[1]["rooms"][room]["exits"]
    sheets[1]["rooms"][room]["exits"] = corner
    sheets[1]["needs_review"] = [{"where": room, "rule": "unsure_link", "why": "is there a stroke to that side?",
                                  "confidence": 0.4, "alternative": {"exits": stub, "trap": False}}]
    reviews = _reviewed(sheets)
    assert [entry.rule for entry in reviews[1]] == ["unsure_link"]
    assert [entry.rule for entry in reviews[0] + reviews[2]] == []


def _doubt_of_a_corner(sheet, extra=()) -> str:
    """Give a sheet a doubt about one of its corners' sides (the other reading: a dead end), and ``extra``
    entries; returns the room."""
    room, drawn = next((name, drawn) for name, drawn in sorted(sheet["rooms"].items())
                       if len(drawn["exits"]) == 2 and drawn["exits"] not in ("NS", "EW"))
    sheet["needs_review"] = [{"where": room, "rule": "unsure_link", "why": "is there a stroke to that side?",
                              "confidence": 0.4, "alternative": {"exits": drawn["exits"][0], "trap": False}},
                             *extra]
    return room


def test_a_doubt_the_other_sheets_answer_leaves_the_review_list():
    """The third sheet shows exactly the shapes and tally of the second. Were its doubted corner a dead end,
    it would not: the doubt is answered, and the sheet's list is empty."""
    sheets = _dealt_game()
    _doubt_of_a_corner(sheets[2])
    assert _reviewed(sheets)[2] == []


@pytest.mark.parametrize("extra", [
    {"where": "tally 6", "rule": "unsure_reading", "why": "marks in the tally box that are neither strokes"},
    {"where": "A1", "rule": "cannot_see", "why": "something lies over this room", "confidence": 0.0}])
def test_a_doubt_stays_where_something_else_on_the_sheet_looks_wrong(extra):
    """The tally or a hidden room could hold a second misreading that makes up for the first."""
    sheets = _dealt_game()
    room = _doubt_of_a_corner(sheets[2], [extra])
    assert room in [entry.where for entry in _reviewed(sheets)[2]]


def test_two_doubts_that_together_keep_the_match_both_stay():
    """A corner that may be a dead end and a dead end that may be a corner: read both other ways, the sheet
    still matches the second, so neither doubt is answered."""
    sheets = _dealt_game()
    stub_room, corner = _a_dead_end(sheets[2])
    room = _doubt_of_a_corner(sheets[2], [{"where": stub_room, "rule": "unsure_link", "why": "a stroke there?",
                                           "confidence": 0.4, "alternative": {"exits": corner, "trap": False}}])
    assert {room, stub_room} <= {entry.where for entry in _reviewed(sheets)[2]}


def test_a_sheet_that_looks_wrong_itself_answers_no_doubt():
    """Two sheets misread alike (a messy hand's stroke run on into a room read as a dead end on two sheets of
    one game, seed 2359005): they match each other and not the sheet read right. The one whose misreading
    is named by more than a room doubt (here its tally) answers no doubt of the other's, which stays."""
    sheets = _dealt_game()
    for sheet in sheets[1:]:
        room, corner = _a_dead_end(sheet)
        stub, sheet["rooms"][room]["exits"] = sheet["rooms"][room]["exits"], corner
    sheets[2]["needs_review"] = [{"where": room, "rule": "unsure_link", "why": "is there a stroke to that side?",
                                  "confidence": 0.4, "alternative": {"exits": stub, "trap": False}}]
    sheets[1]["needs_review"] = [{"where": "tally 6", "rule": "unsure_reading", "why": "marks in the tally box"}]
    assert room in [entry.where for entry in _reviewed(sheets)[2]]
    sheets[1]["needs_review"] = []      # with nothing on it that looks wrong, it answers the doubt
    assert room not in [entry.where for entry in _reviewed(sheets)[2]]


def test_two_sheets_misread_alike_answer_neither_doubt():
    """Seed 717, a messy hand (game 71759009): players 1 and 3 each drew a corner as an arc across the room,
    read as a dead end on both sheets, and each sheet had one room doubt. The two matched each other, so
    each answered the other's doubt away: two rooms wrong and named nowhere. A sheet with a doubt of its
    own answers none."""
    sheets = _dealt_game()
    misread = []
    for sheet in sheets[1:]:
        room, corner = _a_dead_end(sheet)
        stub, sheet["rooms"][room]["exits"] = sheet["rooms"][room]["exits"], corner
        sheet["needs_review"] = [{"where": room, "rule": "unsure_link", "why": "is there a stroke to that side?",
                                  "confidence": 0.4, "alternative": {"exits": stub, "trap": False}}]
        misread.append(room)
    reviews = _reviewed(sheets)
    assert [room in [entry.where for entry in review] for room, review in zip(misread, reviews[1:])] == [True, True]


def test_a_sheet_whose_doubt_keeps_its_cards_still_answers():
    """A doubt whether a corner turns one way or the other leaves the sheet's cards as they are: the sheet
    still answers the other sheets' doubts."""
    sheets = _dealt_game()
    room, drawn = next((name, drawn) for name, drawn in sorted(sheets[1]["rooms"].items())
                       if drawn["exits"] in ("NE", "ES", "SW", "NW"))
    turned = {"NE": "ES", "ES": "SW", "SW": "NW", "NW": "NE"}[drawn["exits"]]
    sheets[1]["needs_review"] = [{"where": room, "rule": "unsure_link", "why": "is there a stroke to that side?",
                                  "confidence": 0.4, "alternative": {"exits": turned, "trap": False}}]
    _doubt_of_a_corner(sheets[2])
    assert _reviewed(sheets)[2] == []


def _broken_link(sheet: dict):
    """A passage of the sheet, (room, side, room across), whose stroke on the far side left out would leave
    the near room's segment linked to nothing; the room across keeps another side."""
    from games.maps import OPPOSITE, Room

    sheets, _ = read_game({"format": FORMAT, "sheets": [sheet]}, "scan")
    dungeon = sheets[0].dungeon
    for name, drawn in sorted(sheet["rooms"].items()):
        for side in drawn["exits"]:
            room = Room.parse(name)
            across = room.neighbour(side).name
            there = sheet["rooms"].get(across, {}).get("exits", "")
            if OPPOSITE[side] not in there or len(there) < 2 or dungeon.side_kind(room, side) != "passage":
                continue
            changed = copy.deepcopy(sheet)
            changed["rooms"][across]["exits"] = there.replace(OPPOSITE[side], "")
            changed["needs_review"] = []
            sheets, _ = read_game({"format": FORMAT, "sheets": [changed]}, "scan")
            if any(p.rule == "unlinked" and p.where == name for p in score_game(sheets)[0].problems):
                return changed, name, across
    raise AssertionError("no passage whose loss unlinks a segment")


def test_a_segment_linked_to_nothing_asks_about_the_room_its_path_leads_into(game):
    """A scan that misses the stroke on one side of a passage leaves the segment beyond unlinked: the rules
    name that segment's rooms, and the review also asks about the room the path leads into, where the
    stroke was missed, with what the sheet would score if it is there."""
    changed, name, across = _broken_link(copy.deepcopy(game[0]))
    sheets, errors = read_game({"format": FORMAT, "sheets": [changed]}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    asked = [entry for entry in results[0].review if entry.where == across]
    assert [entry.rule for entry in asked] == ["unsure_link"]
    assert asked[0].why.startswith(f"the path of {name} leads to this room's ")
    assert asked[0].alternative["exits"] == game[0]["rooms"][across]["exits"]


def test_a_sheet_whose_segments_all_link_gets_no_such_question(game):
    """The sample sheet as played: every segment links, and nothing is asked about."""
    sheet = copy.deepcopy(game[0])
    sheet["needs_review"] = []
    sheets, errors = read_game({"format": FORMAT, "sheets": [sheet]}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    assert [entry.where for entry in results[0].review] == []


def test_no_such_question_comes_from_a_room_the_photo_does_not_show(game):
    """A segment read in a room under a pen is no path to go by: the room is named cannot_see, and the room
    its read path leads into is not asked about for it."""
    changed, name, across = _broken_link(copy.deepcopy(game[0]))
    changed["needs_review"] = [{"where": name, "rule": "cannot_see", "why": "something lies over this room"}]
    sheets, errors = read_game({"format": FORMAT, "sheets": [changed]}, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    assert across not in {entry.where for entry in results[0].review}


# -- a round number misread -----------------------------------------------------------------------------
def _renumbered(sheet, number: int, late_at_least: int):
    """A room of ``sheet`` whose round number, read as ``number``, leaves at least ``late_at_least`` segments
    joined to the path only through segments of later rounds; the sheet with it so read, and those rooms."""
    from games.mapfile import load_map
    from games.rules import late_segments
    from games.state import read_game

    classic = load_map("classic")
    for name in sorted(sheet["rooms"]):
        if sheet["rooms"][name]["round"] in (None, number):
            continue
        trial = {**sheet, "rooms": {**sheet["rooms"], name: {**sheet["rooms"][name], "round": number}}}
        board = read_game({"format": FORMAT, "sheets": [trial]}, "scan")[0][0].board
        late = sorted(room.name for room in late_segments(classic, board))
        if len(late) >= late_at_least:
            return name, trial, late
    raise AssertionError("no such room")


def test_a_round_number_read_too_late_is_asked_about_in_its_own_room():
    """A 1 read as a 7 where the path passes: every segment drawn after it and joined through it looks drawn
    before the path reached it. One entry, in the room whose number is misread, not one in each other room."""
    sheets = _dealt_game()
    room, sheets[1], late = _renumbered(sheets[1], 7, 2)
    unlinked = [entry for entry in _reviewed(sheets)[1] if entry.rule == "unlinked"]
    assert [entry.where for entry in unlinked] == [room]
    assert unlinked[0].why.startswith("the round number here is read as 7: is it 7?")
    assert ", ".join(name for name in late if name != room) in unlinked[0].why


def test_a_round_number_read_too_early_names_the_room_the_path_came_through():
    """A 7 whose bar is lost, read as a 1, in a room (B2) the path reached in round 5 through C2: either
    number may be the misread one, and the entry names both."""
    sheets = _dealt_game()
    room, sheets[1], late = _renumbered(sheets[1], 1, 1)
    assert (room, late) == ("B2", ["B2"])
    assert [(entry.where, entry.why) for entry in _reviewed(sheets)[1] if entry.rule == "unlinked"] == [
        ("B2", "drawn in round 1, but it joins the path only through C2, whose round number is read as 5: is one "
               "of the two numbers misread?")]
