"""Doodle dice monsters: hand-worked combats, with every die roll scripted, and what ``scrawl battle`` prints.

Each case lists its rolls as (sides, result) in the order the engine rolls them
(initiative ties; then per attack: nullifier, weapon, black reroll, white reroll,
shield) and fails if a different die is rolled or a roll is left over. The
player policy of games/battle.py picks targets and actions; each case says why.
Cores of colour "colourless" with no ally have no power, so they are the plain monsters.
"""
import json
from pathlib import Path

import pytest

from games.battle import battle_odds, play_battle, seeded_rng
from games.errors import ScrawlError
from games.monsters import read_roster
from scrawl.battle_report import battle_command, event_line

SAMPLE = Path(__file__).parent.parent.parent / "samples" / "monster-roster.json"


class Dice:
    """Scripted dice for ``play_battle``: each roll takes the next (sides, result)."""

    def __init__(self, rolls):
        self.rolls = list(rolls)

    def randint(self, low, high):
        assert self.rolls, f"the case has no roll left for a d{high}"
        sides, result = self.rolls.pop(0)
        assert (low, high) == (1, sides), f"a d{high} was rolled where the case expects a d{sides}"
        return result


def monster(core, *parts, name=None):
    """``monster("d8 red:2", "weapon d6 blue")``: a die, then ``:damage`` when some is marked."""
    def part(text):
        die, _, damage = text.partition(":")
        return die, int(damage or 0)

    die, damage = part(core)
    return {"name": name, "core": {"die": die, "damage": damage},
            "parts": [{"name": None, "type": spec.split()[0], "die": part(spec.split(maxsplit=1)[1])[0],
                       "damage": part(spec)[1]} for spec in parts]}


def table(ann, bob, ann_reserve=(), ann_active=(), bob_reserve=(), bob_active=()):
    roster, problems = read_roster({"format": "scrawl.roster/1", "players": [
        {"name": "Ann", "reserve": list(ann_reserve), "active": list(ann_active), "monsters": ann},
        {"name": "Bob", "reserve": list(bob_reserve), "active": list(bob_active), "monsters": bob}]})
    assert problems == []
    return roster


def fight(roster, *rolls, rounds=1):
    dice = Dice(rolls)
    battle = play_battle(roster, dice, round_cap=rounds)
    assert dice.rolls == [], f"rolls left over: {dice.rolls}"
    return battle


def damage(battle):
    """(monster, part, damage taken, life left) for every hit, in order."""
    return [(e["monster"], e["part"], e["amount"], e["life"]) for e in battle.log if e["event"] == "damage"]


def events(battle, kind):
    return [e for e in battle.log if e["event"] == kind]


def attacks(battle):
    return [(e["round"], e["monster"], e["part"], e["target"], e["aimed"]) for e in events(battle, "attack")]


def order(battle, round_=1):
    [initiative] = [e for e in events(battle, "initiative") if e["round"] == round_]
    return [(entry["monster"], entry["rolls"]) for entry in initiative["order"]]


def lines(battle, *kinds):
    return [event_line(e).strip() for e in battle.log if not kinds or e["event"] in kinds]


PLAIN = "colourless"
ANN, BOB = "Ann's monster 1", "Bob's monster 1"


# -- initiative ------------------------------------------------------------------------------
def test_the_smallest_core_acts_first():
    battle = fight(table([monster("d8 red"), monster("d6 blue")], [monster("d4 green"), monster("d20 black")]))
    assert order(battle) == [("Bob's monster 1", []), ("Ann's monster 2", []), ("Ann's monster 1", []),
                             ("Bob's monster 2", [])]


def test_tied_cores_roll_and_the_highest_goes_first_rolling_again_on_a_tie():
    roster = table([monster("d6 colourless")], [monster("d6 colourless")])
    assert order(fight(roster, (6, 2), (6, 5))) == [(BOB, [5]), (ANN, [2])]
    assert order(fight(roster, (6, 4), (6, 4), (6, 1), (6, 3))) == [(BOB, [4, 3]), (ANN, [4, 1])]
    # Both struggled once: a d6 core deals 1.
    assert damage(fight(roster, (6, 5), (6, 2))) == [(BOB, "core", 1, 5), (ANN, "core", 1, 5)]


def test_yellow_cores_go_before_all_others_smallest_first():
    battle = fight(table([monster("d20 yellow")], [monster("d4 red"), monster("d8 yellow")]))
    assert [m for m, _ in order(battle)] == ["Bob's monster 2", ANN, BOB]
    # Ann's d20 core struggles for 5 and fells Bob's d4 core before it can act.
    assert damage(battle) == [(ANN, "core", 2, 18), (BOB, "core", 5, 0)]
    assert [a[1] for a in attacks(battle)] == ["Bob's monster 2", ANN]


# -- part types ------------------------------------------------------------------------------
def test_a_weapon_rolls_its_die_for_damage_and_one_action_is_one_attack():
    battle = fight(table([monster("d12 colourless", "weapon d6 red", "weapon d8 blue")], [monster("d20 colourless")]),
                   (8, 7))
    # One action: the larger weapon attacks. Bob's core struggles for 5 at the part with the least life.
    assert attacks(battle) == [(1, ANN, "part 2", BOB, "core"), (1, BOB, "core", ANN, "part 1")]
    assert damage(battle) == [(BOB, "core", 7, 13), (ANN, "part 1", 5, 1)]


def test_each_combo_part_is_one_more_action_and_each_weapon_attacks_once_a_turn():
    ann = monster("d12 colourless", "weapon d6 red", "weapon d8 blue", "combo d4 green", "combo d4 white")
    battle = fight(table([ann], [monster("d20 colourless")]), (8, 5), (6, 4))
    # Three actions: the d8, the d6, then (no weapon left this turn) the core struggles for 3.
    assert [a[2] for a in attacks(battle) if a[1] == ANN] == ["part 2", "part 1", "core"]
    assert damage(battle)[:3] == [(BOB, "core", 5, 15), (BOB, "core", 4, 11), (BOB, "core", 3, 8)]
    assert events(battle, "part_falls") == [{"round": 1, "event": "part_falls", "monster": ANN, "part": "part 3",
                                             "die": "d4 green"}]


def test_a_core_struggles_once_a_round_for_one_damage_per_four_sides():
    roster = table([monster("d8 colourless", "combo d4 red")], [monster("d20 colourless")])
    battle = fight(roster, rounds=2)
    # Two actions a turn, but one struggle a round: d8 deals 2, d20 deals 5.
    assert damage(battle) == [(BOB, "core", 2, 18), (ANN, "part 1", 5, 0),
                              (BOB, "core", 2, 16), (ANN, "core", 5, 3)]
    assert lines(battle, "attack")[0] == "Ann's monster 1 struggles (d8 colourless core) at Bob's monster 1 core"


def test_a_shield_takes_the_attack_and_rolls_its_die_the_first_time_it_is_hit_each_round():
    ann = monster("d10 colourless", "weapon d12 red", "weapon d8 blue", "combo d4 green")
    bob = monster("d12 colourless", "shield d20 gray")
    battle = fight(table([ann], [bob]), (12, 9), (20, 4), (8, 6), (12, 3), (20, 2), (8, 8), rounds=2)
    assert [e["instead_of"] for e in events(battle, "shield")] == ["core", "core"]
    assert [e["roll"] for e in events(battle, "shield_roll")] == [4, 2]       # once in round 1, once in round 2
    assert damage(battle) == [
        (BOB, "part 1", 5, 15), (BOB, "part 1", 6, 9), (ANN, "part 3", 3, 1),   # round 1: 9-4, then 6 unblocked
        (BOB, "part 1", 1, 8), (BOB, "part 1", 8, 0), (ANN, "part 3", 3, 0),    # round 2: aimed at the shield itself
    ]
    assert lines(battle, "damage")[0] == "Bob's monster 1 part 1 takes 5 (9, -4 shield): 15 life left"
    assert lines(battle, "part_falls")[0] == "Bob's monster 1 part 1 falls: its d20 gray leaves play"


def test_a_nullifier_cancels_on_half_its_sides_or_less_once_a_round():
    ann = monster("d10 colourless", "weapon d12 red", "weapon d8 blue", "combo d4 green")
    bob = monster("d12 colourless", "nullifier d20 gray")
    battle = fight(table([ann], [bob]), (20, 10), (8, 7), (20, 11), (12, 4), (8, 2), rounds=2)
    assert [(e["round"], e["roll"], e["cancelled"]) for e in events(battle, "nullifier")] == [(1, 10, True),
                                                                                            (2, 11, False)]
    # Round 1: the d12 is cancelled before it is rolled; the d8 then hits (the nullifier is spent).
    assert damage(battle) == [(BOB, "core", 7, 5), (ANN, "part 3", 3, 1), (BOB, "core", 4, 1), (BOB, "core", 2, 0)]
    assert (battle.winner, battle.rounds) == ("Ann", 2)
    assert lines(battle, "nullifier")[0] == (
        "Bob's monster 1 part 1 (nullifier d20 gray) rolls 10, needs 10 or less: the attack is cancelled")


def test_a_nullifier_cannot_cancel_an_attack_on_itself():
    battle = fight(table([monster("d10 colourless", "weapon d6 red")],
                         [monster("d20 colourless", "nullifier d4 gray")]), (6, 4))
    assert events(battle, "nullifier") == []
    assert damage(battle)[0] == (BOB, "part 1", 4, 0)


# -- the order of operations -------------------------------------------------------------------
def test_a_shield_and_a_nullifier_on_the_same_attack_go_in_the_order_of_the_rules():
    bob = monster("d12 colourless", "shield d20 gray", "nullifier d20 blue")
    battle = fight(table([monster("d10 colourless", "weapon d12 red")], [bob]), (20, 15), (12, 10), (20, 3))
    first = battle.log[1:7]
    assert [e["event"] for e in first] == ["attack", "shield", "nullifier", "roll", "shield_roll", "damage"]
    assert [event_line(e) for e in first] == [
        "  Ann's monster 1 attacks with part 1 (d12 red) at Bob's monster 1 core",
        "    Bob's monster 1 part 1 (shield) takes the attack instead of the core",
        "    Bob's monster 1 part 2 (nullifier d20 blue) rolls 15, needs 10 or less: no effect",
        "    Ann's monster 1 part 1 rolls 10",
        "    Bob's monster 1 part 1 rolls its shield die (d20 gray): 3",
        "    Bob's monster 1 part 1 takes 7 (10, -3 shield): 13 life left",
    ]


def test_black_forces_a_high_roll_again_then_white_rerolls_a_low_one_each_once_a_round():
    ann = monster("d10 white", "weapon d12 red", "weapon d8 blue", "combo d4 green")
    battle = fight(table([ann], [monster("d12 black")]), (12, 11), (12, 2), (12, 9), (8, 1))
    assert [(e["monster"], e["colour"], e["was"], e["roll"]) for e in events(battle, "reroll")] == [
        ("Bob's monster 1", "black", 11, 2), (ANN, "white", 2, 9)]
    # The second attack's 1 stands: white has rerolled this round already.
    assert damage(battle) == [(BOB, "core", 9, 3), (BOB, "core", 1, 2), (ANN, "part 3", 3, 1)]
    assert lines(battle, "reroll") == ["Bob's monster 1 (black) makes it roll again: 11 becomes 2",
                                       "Ann's monster 1 (white) rolls again: 2 becomes 9"]


# -- monsters and dice leaving play, and losing --------------------------------------------------
def test_losing_the_core_removes_the_monster_with_all_its_parts_and_dice():
    bob = monster("d4 colourless:2", "weapon d12 red", "combo d6 blue")
    battle = fight(table([monster("d4 yellow", "weapon d8 blue")], [bob], bob_reserve=["d4 red"]), (8, 2))
    assert lines(battle, "monster_falls") == [
        "Bob's monster 1 falls, and its dice leave play: d4 colourless, d12 red, d6 blue"]
    # Bob's monster never gets its turn; a reserve die keeps Bob in the battle.
    assert [a[1] for a in attacks(battle)] == [ANN]
    assert battle.winner is None and battle.left["Bob"] == {"monsters": [], "active": [], "reserve": ["d4 red"]}


def test_attacking_with_no_enemy_monster_makes_the_enemy_remove_an_active_die_then_a_reserve_die():
    ann = monster("d6 colourless", "weapon d8 red", "combo d4 green")
    battle = fight(table([ann], [], bob_active=["d10 red", "d4 blue"], bob_reserve=["d6 green"]))
    assert lines(battle, "die_removed") == ["Bob removes a die from the active pool: d4 blue",
                                            "Bob removes a die from the active pool: d10 red"]
    battle = fight(table([ann], [], bob_reserve=["d6 green", "d4 red"]))
    assert [(e["die"], e["pool"]) for e in events(battle, "die_removed")] == [("d4 red", "reserve"),
                                                                             ("d6 green", "reserve")]
    # No monsters, no active and no reserve dice: Bob has lost.
    assert (battle.winner, battle.reason, battle.rounds) == ("Ann", "out", 1)


def test_a_player_is_out_only_with_no_monsters_and_no_dice_at_all():
    # Bob's d8 core struggles for 2 a round: Ann's d4 core falls in round 2.
    battle = fight(table([monster("d4 colourless")], [monster("d8 colourless")]), rounds=5)
    assert (battle.winner, battle.rounds) == ("Bob", 2)
    assert lines(battle, "out") == ["Ann has no monsters and no dice left"]
    # With a die in reserve, Ann sketches it as a new monster in round 2 and fights on.
    battle = fight(table([monster("d4 colourless")], [monster("d8 colourless")], ann_reserve=["d6 colourless"]),
                   rounds=2)
    assert battle.winner is None and battle.left["Ann"]["monsters"] == ["Ann's monster 2"]
    # A player who starts with nothing has already lost.
    battle = fight(table([], [monster("d8 colourless")]))
    assert (battle.winner, battle.rounds) == ("Bob", 0)


def test_gathering_takes_up_to_five_of_the_largest_dice_and_sketching_pairs_them_into_monsters():
    ann_reserve = ["d4 red", "d6 blue", "d8 green", "d10 white", "d12 black", "d20 red"]
    battle = play_battle(table([monster("d20 colourless")], [monster("d12 colourless")], ann_reserve=ann_reserve),
                         seeded_rng(1), round_cap=2)
    assert [line for line in lines(battle, "gather", "sketch")] == [
        "Ann gathers d20 red, d12 black, d10 white, d8 green, d6 blue",
        "Ann sketches Ann's monster 2: core d20 red, part 1 weapon d12 black",
        "Ann sketches Ann's monster 3: core d10 white, part 1 weapon d8 green",
        "Ann sketches Ann's monster 4: core d6 blue",
    ]
    assert battle.left["Ann"]["reserve"] == ["d4 red"]


def test_a_battle_nobody_can_win_is_a_draw_at_the_round_cap():
    # Blue d20 cores take 5 less: their struggles (5) do nothing.
    battle = fight(table([monster("d20 blue")], [monster("d20 blue")]), *[(20, 2), (20, 1)] * 3, rounds=3)
    assert (battle.winner, battle.reason, battle.rounds) == (None, "round_cap", 3)
    assert {e["amount"] for e in events(battle, "damage")} == {0}


# -- the twelve core colours ---------------------------------------------------------------------
def test_red_adds_n_to_each_weapon_roll_but_not_to_struggling():
    battle = fight(table([monster("d8 red", "weapon d6 blue", "combo d4 green")], [monster("d20 colourless")]), (6, 3))
    assert damage(battle)[:2] == [(BOB, "core", 5, 15), (BOB, "core", 2, 13)]      # 3 + 2, then a struggle of 2
    assert lines(battle, "roll") == ["Ann's monster 1 part 1 rolls 3 +2 red"]


def test_blue_cores_and_shields_take_n_less_from_each_hit():
    ann = monster("d4 colourless", "weapon d20 red", "weapon d6 gray", "combo d4 green")
    bob = monster("d8 blue", "shield d10 white", "weapon d4 red")
    battle = fight(table([ann], [bob]), (20, 12), (10, 3), (6, 5), (4, 1), (20, 6), (6, 2), (4, 1), rounds=2)
    assert damage(battle) == [
        (BOB, "part 1", 7, 3),          # 12 - 3 shield - 2 blue
        (BOB, "part 1", 3, 0),          # 5 - 2 blue
        (ANN, "core", 1, 3),
        (BOB, "core", 4, 4),            # 6 - 2 blue
        (BOB, "core", 0, 4),            # 2 - 2 blue
        (ANN, "core", 1, 2),
    ]
    assert lines(battle, "damage")[0] == "Bob's monster 1 part 1 takes 7 (12, -3 shield, -2 blue): 3 life left"


def test_green_heals_n_at_the_start_of_its_turn_and_can_heal_an_ally_as_an_action():
    ann = [monster("d8 green:2", "weapon d4 red:3", "combo d6 blue"), monster("d10 purple:5")]
    battle = fight(table(ann, [monster("d20 colourless")]), (4, 4))
    assert [(e["monster"], e["part"], e["amount"], e["life"], e["by"]) for e in events(battle, "heal")] == [
        (ANN, "part 1", 2, 3, None),                         # its most damaged part, before acting
        ("Ann's monster 2", "core", 2, 7, ANN),              # its second action, after the attack
    ]
    assert lines(battle, "heal") == ["Ann's monster 1 heals its part 1 by 2 (green): 3 life",
                                     "Ann's monster 1 heals Ann's monster 2 core by 2: 7 life"]


def test_yellow_acts_first_even_with_the_largest_core():
    battle = fight(table([monster("d20 yellow", "weapon d4 red")], [monster("d4 colourless")]), (4, 4))
    assert [m for m, _ in order(battle)] == [ANN, BOB]
    assert (battle.winner, attacks(battle)) == ("Ann", [(1, ANN, "part 1", BOB, "core")])


def test_black_makes_an_enemy_roll_above_half_again_and_leaves_a_low_one():
    ann = monster("d10 colourless", "weapon d12 red", "weapon d8 blue", "combo d4 green")
    battle = fight(table([ann], [monster("d20 black")]), (12, 3), (8, 7), (8, 2))
    # 3 on a d12 is not above half: it stands. 7 on a d8 is: rolled again, 2.
    assert [(e["was"], e["roll"]) for e in events(battle, "reroll")] == [(7, 2)]
    assert damage(battle)[:2] == [(BOB, "core", 3, 17), (BOB, "core", 2, 15)]


def test_white_rerolls_its_own_weapon_roll_of_half_or_less_once_a_round():
    ann = monster("d10 white", "weapon d12 red", "weapon d8 blue", "combo d4 green")
    battle = fight(table([ann], [monster("d20 colourless")]), (12, 6), (12, 11), (8, 1), (12, 2), (12, 5), rounds=2)
    # Round 1: 6 on the d12 is rolled again (11); the d8's 1 stands. Round 2: white may reroll again.
    assert [(e["round"], e["was"], e["roll"]) for e in events(battle, "reroll")] == [(1, 6, 11), (2, 2, 5)]
    assert [d for d in damage(battle) if d[0] == BOB] == [(BOB, "core", 11, 9), (BOB, "core", 1, 8),
                                                          (BOB, "core", 5, 3)]


def test_brown_cannot_be_attacked_in_the_round_it_is_sketched():
    # A roster's monsters were sketched in round 1: Ann cannot attack Bob's brown monster then.
    battle = fight(table([monster("d6 colourless", "weapon d8 red")], [monster("d4 brown", "weapon d6 blue")]),
                   (6, 2), (6, 1), (8, 5), rounds=2)
    assert lines(battle, "wait") == ["Ann's monster 1 waits: nothing it can attack or do"]
    assert attacks(battle)[1:] == [(2, BOB, "part 1", ANN, "core"), (2, ANN, "part 1", BOB, "core")]
    assert (battle.winner, battle.rounds) == ("Ann", 2)
    # A brown monster sketched in round 2 is safe in round 2 and hit in round 3.
    battle = fight(table([monster("d6 colourless", "weapon d8 red")], [], bob_reserve=["d20 brown", "d4 red"]),
                   (8, 8), rounds=3)
    assert [e["round"] for e in events(battle, "wait")] == [2]
    assert [(r, target) for r, who, _, target, _ in attacks(battle) if who == ANN] == [(1, None), (3, BOB)]
    assert (battle.winner, battle.rounds) == ("Bob", 3)


def test_gray_sends_n_damage_past_a_shield_and_ignores_blue():
    bob = monster("d12 blue", "shield d20 white")
    battle = fight(table([monster("d8 gray", "weapon d12 red")], [bob]), (12, 9), (20, 3))
    # 9: 2 go past the shield to the core; the shield takes 7 - 3 (its roll), and blue takes nothing off.
    assert damage(battle)[:2] == [(BOB, "part 1", 4, 16), (BOB, "core", 2, 10)]
    assert lines(battle, "damage")[:2] == ["Bob's monster 1 part 1 takes 4 (7, -3 shield): 16 life left",
                                           "Bob's monster 1 core takes 2 past the shield (gray): 10 life left"]


def test_colourless_copies_the_power_of_its_largest_ally_with_its_own_n():
    ann = [monster("d8 red"), monster("d12 colourless", "weapon d6 blue")]
    battle = fight(table(ann, [monster("d20 colourless")]), (6, 2))
    # The red d8 struggles for 2 (red adds nothing to struggling); the colourless d12 is red with n = 3.
    assert damage(battle)[:2] == [(BOB, "core", 2, 18), (BOB, "core", 5, 13)]
    # Bob's colourless core has no ally: no power.
    assert damage(battle)[2] == ("Ann's monster 2", "part 1", 5, 1)


def test_purple_gives_up_an_action_to_gather_a_die_when_the_reserve_holds_more_than_a_round_gathers():
    ann = monster("d6 purple", "combo d4 red", "weapon d8 blue")
    reserve = ["d10 green", "d12 red", "d4 blue", "d4 gray", "d6 white", "d8 black"]
    battle = fight(table([ann], [monster("d20 colourless")], ann_reserve=reserve), (8, 4))
    # Its second action, after the weapon: one die more than the 5 that round 2 gathers.
    assert lines(battle, "gather") == ["Ann's monster 1 spends an action gathering d12 red (purple)"]
    assert battle.left["Ann"]["active"] == ["d12 red"] and len(battle.left["Ann"]["reserve"]) == 5
    # With 5 dice in reserve, gathering one now gains nothing: it struggles instead.
    battle = fight(table([ann], [monster("d20 colourless")], ann_reserve=reserve[:5]), (8, 4))
    assert events(battle, "gather") == [] and damage(battle)[1] == (BOB, "core", 1, 15)


def test_orange_disables_an_enemy_weapon_no_larger_than_its_core_and_larger_than_its_own_for_the_round():
    bob = monster("d10 colourless", "weapon d8 red", "weapon d4 white", "weapon d12 blue")
    battle = fight(table([monster("d8 orange", "weapon d6 blue")], [bob]), (12, 3), (12, 5), (12, 2), rounds=3)
    # Each round Ann's only action disables the d8 (the d12 is larger than its d8 core); Bob attacks with the d12.
    assert [(e["round"], e["part"], e["die"]) for e in events(battle, "disable")] == [
        (1, "part 1", "d8 red"), (2, "part 1", "d8 red"), (3, "part 1", "d8 red")]
    assert {part for _, who, part, _, _ in attacks(battle) if who == BOB} == {"part 3"}
    assert lines(battle, "disable")[0] == (
        "Ann's monster 1 disables Bob's monster 1 part 1 (d8 red) until the end of the round (orange)")
    # With a weapon as large as the enemy's, it attacks; its combo action then disables.
    battle = fight(table([monster("d8 orange", "weapon d8 blue", "combo d4 red")],
                         [monster("d10 colourless", "weapon d8 red")]), (8, 3))
    assert [e["event"] for e in battle.log if e["event"] in ("attack", "disable")] == ["attack", "disable", "attack"]
    assert attacks(battle)[1] == (1, BOB, "core", ANN, "part 2")        # disabled, Bob's monster struggles


def test_pink_pulls_the_first_attack_each_round_that_is_aimed_at_an_ally():
    ann = monster("d10 colourless", "weapon d12 red", "weapon d8 blue", "combo d4 green")
    bob = [monster("d6 red:4"), monster("d20 pink")]
    battle = fight(table([ann], bob), (12, 7), (8, 3))
    assert events(battle, "pink") == [{"round": 1, "event": "pink", "monster": "Bob's monster 2", "aimed": "core"}]
    assert damage(battle)[1:3] == [("Bob's monster 2", "core", 7, 13), (BOB, "core", 3, 0)]
    assert lines(battle, "pink") == ["Bob's monster 2 (pink) pulls the attack onto its core"]


# -- seeds and odds --------------------------------------------------------------------------------
def sample_roster():
    with open(SAMPLE, encoding="utf-8") as file:
        roster, problems = read_roster(json.load(file))
    assert problems == []
    return roster


def test_the_same_seed_plays_the_same_battle():
    roster = sample_roster()
    assert play_battle(roster, seeded_rng(7)).log == play_battle(roster, seeded_rng(7)).log
    assert len({str(play_battle(roster, seeded_rng(seed)).log) for seed in range(6)}) > 1


def test_a_much_stronger_side_wins_nearly_always_and_a_mirror_match_is_even():
    strong = [monster("d20 red", "weapon d20 blue", "weapon d12 green", "combo d8 white"),
              monster("d12 yellow", "weapon d10 black", "shield d20 gray")]
    odds = battle_odds(table(strong, [monster("d4 colourless", "weapon d4 red")]), 1, 200)
    assert odds.chance("Ann") > 0.9 and odds.wins[1] + odds.draws < 20
    mirror = [monster("d8 red", "weapon d6 blue", "shield d10 yellow"), monster("d6 green", "weapon d8 black")]
    odds = battle_odds(table(mirror, mirror), 1, 200)
    assert 0.3 < odds.chance("Ann") < 0.7 and 0.3 < odds.chance("Bob") < 0.7
    assert odds.wins[0] + odds.wins[1] + odds.draws == odds.trials == 200


# -- scrawl battle -----------------------------------------------------------------------------
def run(capsys, *args):
    code = battle_command(*args)
    out, err = capsys.readouterr()
    return code, out, err


def test_scrawl_battle_prints_the_rounds_and_the_winner_and_replays_with_the_seed(capsys):
    code, out, err = run(capsys, [SAMPLE], 3, None, False)
    assert code == 0 and err == ""
    assert out.startswith("Battle of Ann and Bob, seed 3 (replay it with --seed 3)\n")
    assert "\nRound 1\n  Initiative: Ann's monster 3 (d4 yellow, yellow), " in out
    assert "Ann's Mossback attacks with Stinger (d6 blue)" in out
    assert " wins in round " in out and "has no monsters and no dice left." in out
    assert run(capsys, [SAMPLE], 3, None, False)[1] == out


def test_scrawl_battle_json_is_one_document_with_the_log(capsys):
    code, out, _ = run(capsys, [SAMPLE], 3, None, True)
    result = json.loads(out)
    assert code == 0 and result["format"] == "scrawl.battle/1" and result["seed"] == 3
    assert result["winner"] in ("Ann", "Bob") and result["log"][-1]["event"] == "end"
    code, out, _ = run(capsys, [SAMPLE], 3, 50, True)
    trials = json.loads(out)
    assert trials["trials"] == 50 and sum(trials["wins"].values()) + trials["draws"] == 50


def test_scrawl_battle_trials_give_each_sides_chance(capsys):
    code, out, _ = run(capsys, [SAMPLE], 1, 200, False)
    assert code == 0 and out.startswith("200 battles of Ann and Bob (seeds 1 to 200, at most 100 rounds each)")
    chances = [float(line.split()[2].rstrip("%")) for line in out.splitlines() if " wins " in line]
    assert len(chances) == 2 and all(10 < c < 90 for c in chances)      # the sample is a close fight


def test_scrawl_battle_takes_two_rosters_or_scans_and_passes_on_what_needs_review(tmp_path, capsys):
    ann = {"format": "scrawl.roster/1", "players": [{"name": None, "monsters": [monster("d8 red", "weapon d6 blue")]}]}
    scan = {"format": "scrawl.scan/1", "sheets": [], "rosters": [
        {"source": "bob.jpg", "player": 2, "roster": {"format": "scrawl.roster/1", "players": [
            {"name": None, "monsters": [monster("d6 blue", "weapon d10 red")]}]},
         "needs_review": [{"where": "monster 1 core colour", "rule": "two_bubbles", "why": "blue and green filled",
                           "confidence": 0.4}]}]}
    (tmp_path / "ann.json").write_text(json.dumps(ann))
    (tmp_path / "scan.json").write_text(json.dumps(scan))
    code, out, _ = run(capsys, [tmp_path / "ann.json", tmp_path / "scan.json"], 1, None, False)
    assert code == 1
    assert out.startswith("Check these readings of the scanned sheets (the battle uses them as read):\n"
                          "  bob.jpg: monster 1 core colour: blue and green filled\n")
    assert "Battle of Player 1 and Player 2" in out and "Player 2's monster 1" in out


def test_scrawl_battle_refuses_a_bad_roster_with_every_problem_and_anything_but_two_players(tmp_path):
    bad = {"players": [{"name": "Ann", "monsters": [
        monster("d8 red", "weapon d6 blue", "weapon d7 red", "combo d4 mauve", "shield d6 blue", "combo d4 red")]},
        {"name": "Bob", "monsters": []}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(ScrawlError) as caught:
        battle_command([tmp_path / "bad.json"], 1, None, False)
    message = str(caught.value)
    for part in [f"{tmp_path / 'bad.json'}: players[0].monsters[0]: 6 parts (at most 5 with the core)",
                 "players[0].monsters[0].parts[1].die: 'd7 red': sides must be one of",
                 "players[0].monsters[0].parts[2].die: 'd4 mauve': colour must be one of",
                 "players[0].monsters[0].parts[3].die: d6 blue is used twice (also players[0].monsters[0].parts[0])"]:
        assert part in message
    assert "\n" not in message
    one = {"players": [{"name": "Ann", "monsters": []}]}
    (tmp_path / "one.json").write_text(json.dumps(one))
    with pytest.raises(ScrawlError, match="a battle is between two players.* give 1 \\(Ann\\)"):
        battle_command([tmp_path / "one.json"], 1, None, False)
    with pytest.raises(ScrawlError, match="give 3"):
        battle_command([tmp_path / "one.json"] * 3, 1, None, False)
    with pytest.raises(ScrawlError, match="missing.json: no such file"):
        battle_command([tmp_path / "missing.json"], 1, None, False)
