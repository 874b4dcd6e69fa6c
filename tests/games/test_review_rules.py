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
