"""The expansion maps' rules (RULES.md section 2), worked by hand on map 6, The Rune Maze.

Map 6: Magic Doors D5-E5 sun, E4-F4 dragon, F1-F2 moon, G4-H4 sun; Rune Gates A1-B1 and C6-D6 (wave),
C3-D3 and G1-H1 (spiral); cave entrances B7:S and H3:S; a Curse Track of 4 spaces (Emerald 1 in G1,
2 in E6, 3 in C7, 4 in F4). The die: 1 sun, 2 dragon, 3 moon, 4 sun, 5 dragon, 6 moon.
"""
import json

import pytest

from games.board import Board, Drawing, Marks
from games.die import curse_track, marks_from_rolls, round_instructions
from games.errors import TemplateError
from games.mapfile import load_map
from games.maps import Room, interior_side
from games.rules import can_draw, can_trap, joins_path, problems
from games.scoring import score
from games.state import game_json, read_game, score_game

R = Room.parse


def side(text):
    a, b = text.split("-")
    return interior_side(R(a), R(b))


def board_of(rooms: dict, marks: Marks = Marks()) -> Board:
    """``{"F1": "ES@1"}`` as a board: the segment's sides, ``@`` its round."""
    drawings = {}
    for name, text in rooms.items():
        exits, _, round_text = text.partition("@")
        drawings[R(name)] = Drawing.segment(exits, int(round_text) if round_text else None)
    return Board(drawings, 0, marks)


def rules_of(found) -> list[str]:
    return sorted(f"{p.rule}@{p.where}" for p in found)


# -- the die and the Curse Track ----------------------------------------------------------------
def test_the_curse_track_fills_dragons_from_the_left_and_suns_from_the_right():
    # 2 dragon, 1 sun, 3 moon, 5 dragon: tops of spaces 1-2, the bottom of space 4.
    track = curse_track([2, 1, 3, 5], 4)
    assert track.top == (True, True, False, False)
    assert track.bottom == (False, False, False, True)
    assert track.cursed() == ()


def test_more_suns_than_spaces_fill_the_bottom_row_and_no_more():
    # Five suns (1, 4, 1, 4, 1) on a 4-space track, two dragons (2, 5).
    track = curse_track([1, 4, 1, 2, 5, 4, 1], 4)
    assert track.bottom == (True, True, True, True)
    assert track.top == (True, True, False, False)
    assert track.cursed() == (1, 2)


def test_moons_fill_nothing():
    track = curse_track([3, 6, 3, 6, 3, 6, 3], 4)
    assert track.top == track.bottom == (False,) * 4


def test_the_rolls_mark_diamonds_the_track_and_cursed_emeralds(map6):
    marks = marks_from_rolls(map6, [1, 4, 1, 2, 5, 4, 1])
    assert marks.diamonds == {1, 2, 4, 5}
    assert marks.emeralds == {1, 2}
    assert marks.gates == frozenset()
    assert marks_from_rolls(map6, [None, 3]).diamonds == {3}


def test_round_instructions_say_what_each_roll_does_on_map6(map6):
    rounds = round_instructions(map6, [1, 4, 1, 2, 5, 4, 1])
    assert rounds[0] == ["Roll 1 (sun)", "Cross out Diamond 1 (room A3)",
                         "Magic Doors with the sun are open this round",
                         "Curse Track: fill the bottom half of space 4 (from the right)"]
    assert rounds[2][1] == "Diamond 1 is already crossed out"
    assert rounds[3][3] == "Curse Track: fill the top half of space 1 (from the left)"
    # Round 5: the second dragon fills the top of space 2, whose bottom the third sun filled in round 3.
    assert rounds[4][3:] == ["Curse Track: fill the top half of space 2 (from the left)",
                             "Space 2 is full: cross out Emerald 2 (room E6); it is cursed"]
    assert rounds[5][3:] == ["Curse Track: fill the bottom half of space 1 (from the right)",
                             "Space 1 is full: cross out Emerald 1 (room G1); it is cursed"]
    assert rounds[6][3] == "Curse Track: the bottom row is full, nothing to fill"


def test_round_instructions_have_only_the_lines_of_the_maps_features():
    map2 = load_map("map2")        # Diamonds and caves: no doors, no Curse Track
    assert round_instructions(map2, [3, 6]) == [["Roll 3 (moon)", "Cross out Diamond 3 (room E4)"],
                                                ["Roll 6 (moon)", "Cross out Diamond 6 (room E7)"]]
    map5 = load_map("map5")
    assert "Moon: the Curse Track rests" in round_instructions(map5, [3])[0]
    assert round_instructions(map5, [None]) == [["Roll not known: nothing to cross out or fill in"]]


# -- Magic Doors --------------------------------------------------------------------------------
def test_a_door_links_only_in_a_round_that_rolled_its_icon(map6):
    board = board_of({"G1": "NW@1", "F1": "ES@1"})        # F1 ends at the moon door F1-F2
    assert can_draw(map6, board, R("F2"), "N", icon="moon")
    assert not can_draw(map6, board, R("F2"), "N", icon="sun")
    assert not can_draw(map6, board, R("F2"), "N")          # no die rolled: every door closed
    assert joins_path(map6, board, R("F2"), "N", icon="moon")
    assert not joins_path(map6, board, R("F2"), "N", icon="dragon")


def test_a_segment_may_end_at_a_closed_door(map6):
    board = board_of({"G1": "NW@1"})
    assert can_draw(map6, board, R("F1"), "ES", icon="sun")   # joins G1; its south end meets the closed door


def test_a_segment_that_would_link_through_a_closed_door_is_refused_even_if_it_joins_elsewhere(map6):
    # F2 "NE" joins G2 (a plain passage) and would complete the moon door's link with F1.
    board = board_of({"G1": "NSW@1", "G2": "NW@1", "F1": "ES@1"})
    assert not can_draw(map6, board, R("F2"), "NE", icon="sun")
    assert can_draw(map6, board, R("F2"), "NE", icon="moon")
    assert can_draw(map6, board, R("F2"), "ES", icon="sun")   # no end on the door: a different segment


def test_problems_with_rolls_flag_a_door_linked_on_the_wrong_icon(map6):
    marks = marks_from_rolls(map6, [6, 4, 6, 3, 6, 3, 6])
    wrong = board_of({"G1": "NW@1", "F1": "ES@1", "F2": "N@2"}, marks)     # round 2 rolled 4, a sun
    found = problems(map6, wrong, rolls=[6, 4, 6, 3, 6, 3, 6])
    assert rules_of(found) == ["door_closed@F2"]
    assert found[0].why == ("the path links F1 and F2 through the moon Magic Door in round 2, but round 2 "
                            "rolled 4 (sun): the door was closed")
    right = board_of({"G1": "NW@1", "F1": "ES@1", "F2": "N@3"}, marks)
    assert problems(map6, right, rolls=[6, 4, 6, 3, 6, 3, 6]) == []
    # Without rolls, or with round 2's roll unknown, nothing can be said about the door.
    assert problems(map6, wrong) == []
    assert rules_of(problems(map6, wrong, rolls=[6, None, 6, 3, 6, 3, 6])) == []
    unread = board_of({"G1": "NW@1", "F1": "ES@1", "F2": "N"}, marks)
    assert problems(map6, unread, rolls=[6, 4, 6, 3, 6, 3, 6]) == []


def test_a_door_linked_in_a_round_past_the_rolls_is_not_judged(map6):
    board = board_of({"G1": "NW@1", "F1": "ES@1", "F2": "N@5"}, Marks(diamonds=frozenset({4})))
    assert problems(map6, board, rolls=[4]) == []


# -- Rune Gates ---------------------------------------------------------------------------------
def test_crossing_a_closed_gate_is_refused_but_ending_at_it_is_allowed(map6):
    closed = Marks(gates=frozenset({side("C6-D6")}))
    board = board_of({"A1": "NE@1", "B1": "W@1", "B7": "ES@2", "C7": "NW@2"}, closed)
    assert can_draw(map6, board, R("C6"), "SE")              # ends at the closed gate C6-D6
    board = board.with_drawing(R("C6"), Drawing.segment("SE", 3))
    assert not can_draw(map6, board, R("D6"), "W")            # would cross it
    assert not can_draw(map6, board, R("D6"), "NW")
    # Without the crossing of A1-B1 and the mark, C6-D6 is open and the same segment may cross it.
    open_gate = Board({room: drawing for room, drawing in board if room.name != "B1"})
    assert can_draw(map6, open_gate, R("D6"), "W")
    assert not joins_path(map6, board, R("D6"), "W")


def test_a_gate_counts_closed_once_its_partner_is_crossed_even_before_it_is_filled_in(map6):
    board = board_of({"A1": "NE@1", "B1": "W@1", "B7": "ES@2", "C7": "NW@2", "C6": "SE@3"})
    assert not can_draw(map6, board, R("D6"), "W")


def test_problems_flag_each_gate_rule(map6):
    crossed = {"A1": "NE@1", "B1": "W@1"}
    assert rules_of(problems(map6, board_of(crossed))) == ["gate_not_closed@C6-D6"]
    filled = Marks(gates=frozenset({side("C6-D6")}))
    assert problems(map6, board_of(crossed, filled)) == []
    both = {**crossed, "B7": "ES@2", "C7": "NW@2", "C6": "SE@3", "D6": "W@3"}
    found = problems(map6, board_of(both, filled))
    assert rules_of(found) == ["gate_crossed_closed@C6-D6", "gate_not_closed@A1-B1"]
    assert "in round 3, after crossing A1-B1 closed it in round 1" in next(
        p.why for p in found if p.rule == "gate_crossed_closed")
    early = Marks(gates=frozenset({side("C3-D3")}))
    assert rules_of(problems(map6, Board(marks=early))) == ["gate_filled_early@C3-D3"]


def test_both_gates_of_a_glyph_crossed_in_one_round_flags_both(map6):
    both = {"A1": "NE@1", "B1": "W@1", "B7": "ES@1", "C7": "NW@1", "C6": "SE@1", "D6": "W@1"}
    marks = Marks(gates=frozenset({side("A1-B1"), side("C6-D6")}))
    assert rules_of(problems(map6, board_of(both, marks))) == ["gate_crossed_closed@A1-B1",
                                                               "gate_crossed_closed@C6-D6"]


# -- the Curse Track and the Emeralds -------------------------------------------------------------
def test_curse_order_and_emerald_marks(map6):
    good = Marks(emeralds=frozenset({4}), curse_top=(True, True, True, True), curse_bottom=(False, False, False, True))
    assert problems(map6, Board(marks=good)) == []
    gap = Marks(curse_top=(True, False, True, False), curse_bottom=(False, False, False, False))
    assert rules_of(problems(map6, Board(marks=gap))) == ["curse_order@curse track"]
    left_bottom = Marks(curse_top=(False,) * 4, curse_bottom=(True, False, False, False))
    found = problems(map6, Board(marks=left_bottom))
    assert rules_of(found) == ["curse_order@curse track"]
    assert "not one run from the right" in found[0].why
    forgot = Marks(curse_top=(True, True, True, True), curse_bottom=(False, False, False, True))
    found = problems(map6, Board(marks=forgot))
    assert rules_of(found) == ["emerald_mark@F4"]
    assert found[0].why == "space 4 of the Curse Track is full, so Emerald 4 is cursed, but it is not crossed out"


def test_the_curse_track_against_the_rolls_says_which_halves_differ(map6):
    rolls = [1, 4, 1, 2, 5, 4, 1]          # 2 dragons, 5 suns
    right = marks_from_rolls(map6, rolls)
    assert problems(map6, Board(marks=right), rolls=rolls) == []
    wrong = Marks(diamonds=right.diamonds, emeralds=frozenset({1}), curse_top=(True, False, False, False),
                  curse_bottom=(True, True, True, True))
    found = problems(map6, Board(marks=wrong), rolls=rolls)
    assert rules_of(found) == ["curse_roll@curse track"]
    assert found[0].why == ("2 dragons and 5 suns were rolled; the top half of space 2 is empty, "
                            "the rolls fill it")
    # With a roll unknown the track cannot be checked.
    assert problems(map6, Board(marks=wrong), rolls=[1, 4, 1, 2, None, 4, 1]) == []


def test_diamonds_against_the_rolls(map6):
    rolls = [1, 4, 1, 2, 5, 4, 1]
    track = marks_from_rolls(map6, rolls)
    missing = Marks(diamonds=frozenset({1, 2, 4}), emeralds=track.emeralds, curse_top=track.curse_top,
                    curse_bottom=track.curse_bottom)
    found = problems(map6, Board(marks=missing), rolls=rolls)
    assert [(p.rule, p.where, p.why) for p in found] == [
        ("diamond_roll", "A7", "Diamond 5 was rolled in round 5 but is not crossed out")]
    extra = Marks(diamonds=frozenset({1, 2, 4, 5, 6}), emeralds=track.emeralds, curse_top=track.curse_top,
                  curse_bottom=track.curse_bottom)
    found = problems(map6, Board(marks=extra), rolls=rolls)
    assert [(p.rule, p.where, p.why) for p in found] == [
        ("diamond_roll", "G8", "Diamond 6 is crossed out but 6 was never rolled")]
    # An unknown roll might have been the 6: no complaint.
    assert problems(map6, Board(marks=extra), rolls=[1, 4, 1, 2, 5, None, 1]) == []


def test_too_many_rolls_and_unknown_marks():
    map2 = load_map("map2")         # Diamonds only: no Emeralds, no gates, no Curse Track
    found = problems(map2, Board(), rolls=[3] * 8)
    assert "too_many_rolls@rolls" in rules_of(found)
    odd = Marks(emeralds=frozenset({2}), gates=frozenset({side("C6-D6")}), curse_top=(True,))
    assert rules_of(problems(map2, Board(marks=odd))) == ["unknown_mark@C6-D6", "unknown_mark@curse track",
                                                          "unknown_mark@marks"]
    with pytest.raises(ValueError, match="not 7"):
        problems(map2, Board(), rolls=[7])


def test_classic_sheets_have_no_new_problems_and_rolls_change_nothing(classic):
    board = board_of({"C1": "NS@1", "C2": "NE@2"})
    assert problems(classic, board) == problems(classic, board, rolls=[1, 2, 3, 4, 5, 6, 1]) == []


# -- items, traps and entries ---------------------------------------------------------------------
def test_a_trap_goes_in_no_room_with_any_item(map6):
    assert can_trap(map6, Board(), R("B2"))           # empty
    assert can_trap(map6, Board(), R("H8"))
    for name in ("A3", "A4", "D4", "G1"):             # Diamond 1, a Skull Coin, the Skull, Emerald 1
        assert not can_trap(map6, Board(), R(name)), name
    board = Board({R("A3"): Drawing.trap_x(1), R("A4"): Drawing.trap_x(2)})
    assert rules_of(problems(map6, board)) == ["trap_on_item@A3", "trap_on_item@A4"]
    assert [p.why for p in problems(map6, board)] == ["a trap in the room with the Diamond 1",
                                                      "a trap in the room with the Skull Coin"]


def test_a_cave_entrance_starts_a_path_and_scores_item_5(map6):
    assert can_draw(map6, Board(), R("B7"), "S")          # B7:S is a cave entrance
    assert not can_draw(map6, Board(), R("B8"), "N")       # from B8 that side is a wall
    assert map6.side_kind(R("B7"), "S") == "entry"
    untouched = score(map6, Board()).line(5)
    assert (untouched.count, untouched.points) == (8, 8) and "B7:S" in untouched.rooms
    linked = score(map6, board_of({"B7": "S@1"})).line(5)
    assert (linked.count, linked.points) == (7, 7) and "B7:S" not in linked.rooms


def test_score_lines_follow_the_maps_items(classic, map6):
    assert [line.item for line in score(classic, Board()).lines] == [1, 2, 3, 4, 5, 6, 7]
    assert [line.item for line in score(load_map("map2"), Board()).lines] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [line.item for line in score(map6, Board()).lines] == list(range(1, 11))
    sheet = score(map6, board_of({"A4": "NW@1", "A3": "ES@1", "B3": "EW@2", "C3": "W@2"}))
    diamonds = sheet.line(8)
    assert (diamonds.count, diamonds.points, diamonds.rooms) == (2, 12, ("A3", "C3"))
    assert diamonds.note == "6 Diamonds not crossed out: each uncrossed Diamond entered scores 6"
    assert sheet.line(9).note == "the path never entered the Skull's room D4: coins score nothing"
    with pytest.raises(KeyError, match="no scoring item 8"):
        score(classic, Board()).line(8)


def test_emerald_line_names_the_cursed_rooms(map6):
    marks = Marks(emeralds=frozenset({1}), curse_top=(True, False, False, False), curse_bottom=(True,) * 4)
    line = score(map6, board_of({"G1": "NW@1", "F1": "E@1", "B7": "ES@2", "C7": "W@2"}, marks)).line(10)
    assert (line.count, line.points, line.rooms, line.note) == (2, 0, ("C7", "G1"), "cursed: G1")


# -- the scan/score document ---------------------------------------------------------------------------
def test_marks_and_rolls_round_trip_through_the_document(map6):
    document = {"format": "scrawl.scan/1", "rolls": [1, 4, 1, 2, 5, 4, 1], "sheets": [
        {"source": "anna", "map": {"id": "map6"}, "player": 1,
         "rooms": {"A1": {"exits": "NE", "round": 1}, "B1": {"exits": "W", "round": 1}},
         "marks": {"diamonds": [1, 2, 4, 5], "emeralds": [1, 2], "gates": ["C6-D6"],
                   "curse_track": {"top": [True, True, False, False], "bottom": [True, True, True, True]}}}]}
    sheets, errors = read_game(document)
    assert errors == []
    assert sheets[0].board.marks == Marks(diamonds=frozenset({1, 2, 4, 5}), emeralds=frozenset({1, 2}),
                                          curse_top=(True, True, False, False), curse_bottom=(True,) * 4,
                                          gates=frozenset({side("C6-D6")}))
    results = score_game(sheets)
    assert results[0].problems == []
    assert results[0].score.line(8).points == 2           # B1 is Diamond 3, not crossed out; 2 are left
    written = json.loads(json.dumps(game_json(results, errors)))
    assert written["rolls"] == [1, 4, 1, 2, 5, 4, 1]
    assert written["sheets"][0]["marks"] == document["sheets"][0]["marks"]
    again, errors = read_game(written)
    assert errors == [] and again[0].board == sheets[0].board and again[0].rolls == sheets[0].rolls


def test_a_classic_sheet_writes_no_new_keys(classic):
    document = {"format": "scrawl.scan/1", "sheets": [{"source": "bo", "map": "classic",
                                                      "rooms": {"C1": {"exits": "NS", "round": 1}}}]}
    sheets, errors = read_game(document)
    written = game_json(score_game(sheets), errors)
    assert set(written) == {"format", "sheets", "errors"}
    assert "marks" not in written["sheets"][0]
    assert [line["item"] for line in written["sheets"][0]["score"]["lines"]] == [1, 2, 3, 4, 5, 6, 7]


def test_bad_marks_name_the_field(map6):
    document = {"sheets": [{"source": "anna", "map": "map6", "rooms": {}, "marks": {
        "diamonds": [0, 3], "emeralds": "2", "gates": ["C6-E6"], "stars": [],
        "curse_track": {"top": [True, False], "bottom": [1, 0, 0, 0]}}}]}
    sheets, errors = read_game(document)
    assert sheets == []
    message = errors[0]["error"]
    assert "marks.diamonds[0]: should be a Diamond's number 1-6, not 0" in message
    assert "marks.emeralds: should be the numbers of the Emeralds crossed out" in message
    assert "marks.gates[0]: should be a side between two neighbouring rooms, like \"C6-D6\", not 'C6-E6'" in message
    assert "marks.stars: unknown mark" in message
    assert "marks.curse_track.top: 2 halves, but this map's Curse Track has 4 spaces" in message
    assert "marks.curse_track.bottom: should be true or false for each space" in message


def test_bad_rolls_are_a_document_error():
    with pytest.raises(TemplateError, match=r"rolls\[1\]: should be a number the die shows, 1-6"):
        read_game({"rolls": [3, 7], "sheets": []})
    with pytest.raises(TemplateError, match="rolls: should be the die's numbers in round order"):
        read_game({"rolls": "3,5", "sheets": []})
    sheets, _ = read_game({"rolls": [3, None], "sheets": [{"map": "map2", "rooms": {}}]})
    assert sheets[0].rolls == (3, None)


def test_the_score_report_lines_up_items_1_to_10_and_leaves_classic_as_it_was():
    from scrawl.report import score_report

    sheets, errors = read_game({"sheets": [{"source": "anna", "map": "map6", "rooms": {"B7": {"exits": "S"}}},
                                           {"source": "bo", "map": "classic", "rooms": {}}]})
    report = score_report(score_game(sheets), errors).splitlines()
    assert "   1 Loot                  0    +0" in report
    assert "  10 Emeralds              0    +0" in report
    assert "  1 Loot                  0    +0" in report          # the classic sheet, as before


def test_sheets_of_one_game_must_agree_on_the_marks_the_die_makes():
    """Everyone crosses out the Diamonds and fills the Curse Track from the same roll: a sheet that differs
    from the others is flagged (a misread or a mistake), the majority is not; with two sheets, both."""
    from games.board import Board, Marks
    from games.mapfile import load_map
    from games.rules import shared_mark_problems

    dungeon = load_map("map5")
    rooms = {item.number: room.name for room, item in dungeon.rooms_with("diamond")}
    right = Marks(diamonds=frozenset({2, 4}), curse_top=(True, False, False, False),
                  curse_bottom=(False, False, False, True))
    misread = Marks(diamonds=frozenset({2}), curse_top=(True, False, False, False),
                    curse_bottom=(False, False, False, True))
    found = shared_mark_problems(dungeon, [Board(marks=right), Board(marks=misread), Board(marks=right)])
    assert found[0] == [] and found[2] == []
    assert [(p.where, p.rule) for p in found[1]] == [(rooms[4], "marks_differ")]
    assert found[1][0].why == ("Diamond 4 is not crossed out here, but on 2 of the other 2 sheets it is: "
                               "the die is the same for everyone")
    two = shared_mark_problems(dungeon, [Board(marks=right), Board(marks=misread)])
    assert [p.where for p in two[0]] == [rooms[4]] and [p.where for p in two[1]] == [rooms[4]]
    # A filled half that the others lack, on a three-sheet game.
    odd = Marks(diamonds=frozenset({2, 4}), curse_top=(True, True, False, False),
                curse_bottom=(False, False, False, True))
    found = shared_mark_problems(dungeon, [Board(marks=right), Board(marks=odd), Board(marks=right)])
    assert [(p.where, p.why.split(" here")[0]) for p in found[1]] == [
        ("curse track", "the top half of Curse Track space 2 is filled in")]
    # One sheet, or a map without the die: nothing to compare.
    assert shared_mark_problems(dungeon, [Board(marks=misread)]) == [[]]
    assert shared_mark_problems(load_map("map1"), [Board(), Board()]) == [[], []]
