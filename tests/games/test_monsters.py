"""Doodle dice monsters: dice and rosters (scrawl.roster/1) read, and every impossible thing in them found."""
import json
from pathlib import Path

import pytest

from games.monsters import Die, DieError, Part, read_roster, roster_json

SAMPLE = Path(__file__).parent.parent.parent / "samples" / "monster-roster.json"


def one_player(*monsters, reserve=(), active=()):
    return {"format": "scrawl.roster/1",
            "players": [{"name": "Ann", "reserve": list(reserve), "active": list(active), "monsters": list(monsters)}]}


def monster(core, *parts, name=None):
    return {"name": name, "core": {"die": core, "damage": 0},
            "parts": [{"name": None, "type": kind, "die": die, "damage": 0} for kind, die in parts]}


def found(data):
    _, problems = read_roster(data)
    return [f"{p.where}: {p.why}" for p in problems]


# -- dice --------------------------------------------------------------------------------------
def test_a_die_is_written_size_then_colour_and_reads_back():
    die = Die.parse("d12 Pink")
    assert (die.sides, die.colour, die.name, die.n) == (12, "pink", "d12 pink", 3)
    assert Die.parse(die.name) == die
    assert Die.parse("d8 grey") == Die.parse("d8 metallic") == Die(8, "gray")
    assert Die.parse("d4 colorless").colour == "colourless"
    assert [Die.parse(f"d{s} red").n for s in (4, 6, 8, 10, 12, 20)] == [1, 1, 2, 2, 3, 5]


@pytest.mark.parametrize("text, message", [
    ("d7 red", "'d7 red': sides must be one of 4, 6, 8, 10, 12, 20"),
    ("d6 mauve", "'d6 mauve': colour must be one of red, blue, green"),
    ("d7 mauve", "sides must be one of 4, 6, 8, 10, 12, 20 and colour must be one of"),
    ("red d6", "'red d6': write a die as \"dN colour\", like \"d6 red\""),
    ("d6", "write a die as"),
    (6, "write a die as"),
    (None, 'missing: write a die as "dN colour"'),      # a scan that read no size or colour
])
def test_a_die_that_cannot_be_read_says_what_is_wrong_with_it(text, message):
    with pytest.raises(DieError) as caught:
        Die.parse(text)
    assert message in str(caught.value)


# -- rosters -----------------------------------------------------------------------------------
def test_the_sample_roster_reads_without_problems_and_writes_back_the_same():
    roster, problems = read_roster(json.loads(SAMPLE.read_text(encoding="utf-8")))
    assert problems == []
    ann, bob = roster.players
    assert (ann.name, len(ann.monsters), [d.name for d in ann.active]) == ("Ann", 3, ["d4 green"])
    mossback = ann.monsters[0]
    assert mossback.name == "Mossback" and mossback.core.die == Die(8, "red")
    assert mossback.parts[0] == Part("weapon", Die(6, "blue"), 2, "Stinger")
    assert mossback.parts[0].life == 4
    assert ann.monsters[2].name is None and bob.monsters[0].core.life == 9
    assert read_roster(roster_json(roster)) == (roster, [])


def test_a_monster_may_be_a_core_alone_and_lists_may_be_left_out():
    roster, problems = read_roster({"players": [{"monsters": [{"core": {"die": "d4 red"}}]}]})
    assert problems == []
    [player] = roster.players
    assert player.name == "Player 1" and player.reserve == () and player.monsters[0].parts == ()


def test_a_roster_with_impossible_parts_lists_every_problem_at_once():
    data = one_player(
        monster("d8 red", ("weapon", "d6 blue")),
        monster("d10 green", ("weapon", "d6 blue"), ("shield", "d7 red"), ("combo", "d4 mauve"),
                ("nullifier", "d4 black"), ("laser", "d12 white")),
        reserve=["d6 blue", "d20 red", "d20 red"])
    data["players"][0]["monsters"][0]["parts"][0]["damage"] = 6
    assert found(data) == [
        "players[0].reserve[2]: d20 red is used twice (also players[0].reserve[1])",
        "players[0].monsters[0].parts[0].damage: 6 damage is beyond the life of a d6 blue part "
        "(5 at most: at life 0 it has left play)",
        "players[0].monsters[1]: 6 parts (at most 5 with the core)",
        "players[0].monsters[1].parts[0].die: d6 blue is used twice (also players[0].monsters[0].parts[0])",
        "players[0].monsters[1].parts[1].die: 'd7 red': sides must be one of 4, 6, 8, 10, 12, 20",
        "players[0].monsters[1].parts[2].die: 'd4 mauve': colour must be one of red, blue, green, yellow, black, "
        "white, brown, gray, colourless, purple, orange, pink",
        "players[0].monsters[1].parts[4].type: 'laser' is not a part type (types: weapon, shield, combo, nullifier)",
    ]


def test_a_die_used_by_two_monsters_is_used_twice_but_one_in_reserve_and_one_in_a_monster_is_not():
    assert found(one_player(monster("d8 red"), monster("d6 blue", ("weapon", "d8 red")))) == [
        "players[0].monsters[1].parts[0].die: d8 red is used twice (also players[0].monsters[0].core)"]
    assert found(one_player(monster("d8 red"), reserve=["d8 red"], active=["d8 red"])) == []
    # Each player has their own dice: both may own a d8 red.
    two = one_player(monster("d8 red"))
    two["players"].append({"name": "Bob", "monsters": [monster("d8 red")]})
    assert found(two) == []


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="scrawl.roster/9"), "format: 'scrawl.roster/9' is not a format this release reads"),
    (lambda d: d.update(players=[]), "players: should be a list of players"),
    (lambda d: d["players"][0].update(colour="red"), "players[0].colour: unknown field"),
    (lambda d: d["players"][0]["monsters"][0].pop("core"), "players[0].monsters[0].core: every monster has one core"),
    (lambda d: d["players"][0]["monsters"][0]["parts"][0].update(type="core"),
     "players[0].monsters[0].parts[0].type: a monster has exactly one core"),
    (lambda d: d["players"][0]["monsters"][0]["core"].update(damage=-1),
     "players[0].monsters[0].core.damage: should be a whole number from 0, not -1"),
    (lambda d: d["players"][0]["monsters"][0]["parts"][0].update(dammage=2),
     "players[0].monsters[0].parts[0].dammage: unknown field"),
    (lambda d: d["players"][0].update(reserve="d6 red"), "players[0].reserve: should be a list"),
])
def test_each_field_that_cannot_be_read_is_named(change, message):
    data = one_player(monster("d8 red", ("weapon", "d6 blue")))
    change(data)
    problems = found(data)
    assert len(problems) == 1 and problems[0].startswith(message)


def test_something_that_is_not_a_roster_is_one_problem():
    roster, problems = read_roster(["d6 red"], "ann.json")
    assert roster.players == () and [p.why for p in problems] == [
        'ann.json should be a JSON object like {"format": "scrawl.roster/1", "players": [...]}']


def test_a_player_without_a_name_is_called_by_their_number():
    roster, _ = read_roster({"players": [{"name": None, "monsters": []}]}, first_player=2)
    assert roster.players[0].name == "Player 2"
