"""Every rule a needs_review entry names is one member of ``games.review.Rule``, and the JSON keeps its
string."""
import json
import re

from games.board import Board, Drawing
from games.maps import Room
from games.review import Rule
from games.rules import problems


def test_each_rule_is_one_snake_case_string():
    assert len({rule.value for rule in Rule}) == len(Rule)
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", rule.value) for rule in Rule)


def test_a_broken_sheet_names_its_rules_from_the_enum_and_writes_them_as_text(classic):
    loot = next(room for room in classic.rooms() if classic.item_at(room) is not None)
    board = Board({loot: Drawing.trap_x(1), Room(1, 1): Drawing.segment("N", 9), Room(5, 5): Drawing.segment("EW", 2)})
    found = problems(classic, board)
    assert {problem.rule for problem in found} >= {Rule.TRAP_ON_ITEM, Rule.WALL_END, Rule.ROUND_RANGE, Rule.UNLINKED}
    assert all(isinstance(problem.rule, Rule) for problem in found)
    written = json.loads(json.dumps([problem.to_json() for problem in found]))
    assert {entry["rule"] for entry in written} >= {"trap_on_item", "wall_end", "round_range", "unlinked"}


def test_an_entry_is_written_back_as_it_came_with_what_scoring_added():
    """Scoring works with entries as ``Entry`` and writes them as JSON: keys it does not know, and an entry
    of another program with no rule, come back as they were; ``if_so`` and a longer ``why`` are added."""
    from games.review import Entry

    foreign = {"where": "C4", "why": "stroke touches the wall side", "seen_by": "ann"}
    assert Entry.from_json(foreign).to_json() == foreign
    scanned = {"where": "B2", "rule": "unsure_link", "why": "is there a stroke to the top side?",
               "confidence": 0.4, "could_be_trap": True, "alternative": {"exits": "S", "trap": False}}
    entry = Entry.from_json(scanned)
    assert entry.rule is Rule.UNSURE_LINK and entry.alternative == {"exits": "S", "trap": False}
    entry.if_so, entry.why = 9, entry.why + " (if a path to S: 9 points, not 12)"
    assert entry.to_json() == {**scanned, "why": "is there a stroke to the top side? (if a path to S: 9 points, "
                                                 "not 12)", "if_so": 9}
