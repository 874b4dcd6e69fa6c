"""Dungeon Maker: loot layouts, the building rules, and hand-worked hero phases.

The hero cases use the numbers of templates/dungeon_maker.toml (Spike trap INT 14 / 1 damage,
Slime STR 14 / 1, Ghost INT 15 / 2, Acid Pond DEX 12 / 1; Knight STR 7 INT 3 DEX 4, Mage STR 3
INT 7 DEX 4, Rogue STR 4 INT 4 DEX 7; HP table X1 Y1 = K8, X3 Y1 = M4, X2 Y1 = R6). Change those
numbers and these cases must be worked again. Dice: X and Y for each hero, then two per dangerous tile.
"""
from collections import Counter

import pytest

from games.errors import TemplateError
from games.heroes import final_score, problems, read_dungeon, route, run_heroes, threats
from games.maker import load_maker, roll_loot
from games.maps import Room


@pytest.fixture(scope="module")
def maker():
    return load_maker()


def dungeon(maker, tiles, entrance="A1:N", stairs="A3", **extra):
    return read_dungeon({"format": "scrawl.dungeon/1", "entrance": entrance, "stairs": stairs,
                         "tiles": tiles, **extra}, maker)


def one_hero(maker, built, dice):
    [hero] = run_heroes(built, maker, iter(dice), heroes=1).heroes
    return hero


# -- loot ----------------------------------------------------------------------------------
def test_loot_is_four_gems_and_two_potions_in_six_distinct_tiles():
    for seed in range(300):
        layout = roll_loot(seed, 1 + seed % 4)
        tiles = layout.gems + layout.potions
        assert (len(layout.gems), len(layout.potions), len(set(tiles))) == (4, 2, 6)
        assert all(1 <= t.col <= 6 and 1 <= t.row <= 6 for t in tiles)
        # Each item sits where its roll pointed: the rolls that landed on a free tile, in order.
        placed, seen = [], set()
        for x, y in layout.rolls:
            if Room(x, y) not in seen:
                seen.add(Room(x, y))
                placed.append(Room(x, y))
        assert tuple(placed) == tiles


def test_the_same_seed_and_page_give_the_same_layout_and_pages_differ():
    assert roll_loot(42, 1) == roll_loot(42, 1)
    assert len({(roll_loot(42, page).gems, roll_loot(42, page).potions) for page in range(1, 9)}) == 8


def test_placements_are_as_frequent_as_two_fair_dice_make_them():
    # The first Gem lands on the first roll: over 3600 seeds each of the 36 tiles expects 100.
    counts = Counter(roll_loot(seed).gems[0] for seed in range(3600))
    chi_square = sum((counts[Room(c, r)] - 100) ** 2 / 100 for c in range(1, 7) for r in range(1, 7))
    assert chi_square < 66.6          # 35 degrees of freedom, p = 0.001
    # Every die face turns up equally often across all rolls.
    faces = Counter(face for seed in range(2000) for roll in roll_loot(seed).rolls for face in roll)
    expected = sum(faces.values()) / 6
    assert sum((faces[f] - expected) ** 2 / expected for f in range(1, 7)) < 20.5   # 5 df, p = 0.001
    # Re-rolls happen exactly when a roll hits an occupied tile, so later items avoid taken tiles.
    assert sum(len(roll_loot(seed).rolls) > 6 for seed in range(500)) > 100


# -- the building rules ----------------------------------------------------------------------
@pytest.mark.parametrize("tiles, entrance, stairs, rule, where", [
    ({"A1": {"path": "NS"}, "A2": {"path": "N"}, "B1": {"on": "spikes"}}, "A1:N", "A2", "not_on_path", "B1"),
    ({"A1": {"path": "NS"}, "A2": {"bridge": "N"}}, "A1:N", "A2", "bridge_off_acid", "A2"),
    ({"A1": {"path": "NS"}, "A2": {"path": "N", "acid": True}}, "A1:N", "A2", "path_on_acid", "A2"),
    ({"A1": {"path": "NS"}, "A2": {"path": "N", "room": "slime"}}, "A1:N", "A2", "room_fills_tile", "A2"),
    ({"A1": {"path": "NS"}, "A2": {"path": "N", "loot": "gem"}}, "A1:N", "A2", "built_on_loot", "A2"),
    ({"A1": {"path": "NSW"}, "A2": {"path": "N"}}, "A1:N", "A2", "path_off_grid", "A1"),
    ({"B1": {"path": "NS"}, "B2": {"path": "N"}}, "B1:N", "B2", "entrance_corner", "B1"),
    ({"A1": {"path": "ES"}, "A2": {"path": "N"}}, "A1:N", "A2", "entrance_unlinked", "A1"),
    ({"A1": {"path": "NS"}, "A2": {"path": "N"}}, "A1:N", "D4", "stairs_off_path", "D4"),
    ({"A1": {"path": "NS"}, "A2": {"path": "N"}, "C3": {"path": "E"}}, "A1:N", "C3", "no_route", "C3"),
])
def test_each_building_rule_is_found(maker, tiles, entrance, stairs, rule, where):
    found = problems(dungeon(maker, tiles, entrance, stairs), maker)
    assert [(p.rule, p.where) for p in found] == [(rule, where)]


def test_a_dungeon_breaking_several_rules_lists_them_all(maker):
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"bridge": "NS"}, "A3": {"path": "N", "room": "ghost"},
                            "C3": {"on": "golem"}})
    assert {p.rule for p in problems(built, maker)} == {"bridge_off_acid", "room_fills_tile", "not_on_path"}


def test_a_dungeon_file_that_cannot_be_read_says_every_field(maker):
    with pytest.raises(TemplateError) as caught:
        read_dungeon({"entrance": "A1", "tiles": {"Z9": {}, "A2": {"room": "dragon", "colour": 3},
                                                  "A3": {"path": "NX"}}}, maker, "d.json")
    message = str(caught.value)
    for part in ["entrance: write the entrance as TILE:SIDE", "tiles.Z9: Z9 is not on the 6x6 grid",
                 "tiles.A2.room: 'dragon' is not one of slime, skeleton, ghost", "tiles.A2.colour: unknown field",
                 "tiles.A3: sides should be letters from NESW", "stairs: missing"]:
        assert part in message


def test_the_hero_walks_the_shortest_route(maker):
    built = dungeon(maker, {"A1": {"path": "NES"}, "B1": {"path": "WS"}, "B2": {"path": "NW"},
                            "A2": {"path": "NES"}, "A3": {"path": "N"}})
    assert [r.name for r in route(built)] == ["A1", "A2", "A3"]


# -- hand-worked hero phases -------------------------------------------------------------------
def test_the_check_is_against_the_highest_check_of_the_tile(maker):
    # A2: Spike trap (INT 14) and a Ghost beside it (INT 15): the Knight (INT 3) needs 15.
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"path": "NS", "on": "spikes"}, "A3": {"path": "N"},
                            "B2": {"room": "ghost"}})
    hero = one_hero(maker, built, [1, 1, 5, 6])      # K8; 5+6+3 = 14 would beat the trap, not the Ghost
    [step] = hero.steps
    assert (step.room, step.stat, step.need, step.total, step.passed, step.damage) == ("A2", "int", 15, 14, False, 3)
    assert (hero.hp, hero.left, hero.fate) == (8, 5, "escaped")
    hero = one_hero(maker, built, [1, 1, 6, 6])      # 6+6+3 = 15: passes, no damage
    assert (hero.steps[0].passed, hero.left) == (True, 8)


def test_tied_checks_use_the_heros_weakest_stat(maker):
    # A2: Spike trap INT 14 and a Slime beside it STR 14. The Knight (STR 7, INT 3) rolls with INT.
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"path": "NS", "on": "spikes"}, "A3": {"path": "N"},
                            "B2": {"room": "slime"}})
    hero = one_hero(maker, built, [1, 1, 5, 5])
    [step] = hero.steps
    assert (step.stat, step.need, step.total, step.passed) == ("int", 14, 13, False)   # with STR: 17
    # The Mage (STR 3, INT 7) rolls the same tile with STR.
    hero = one_hero(maker, built, [3, 1, 5, 5])
    assert (hero.kind, hero.steps[0].stat, hero.steps[0].total) == ("Mage", "str", 13)


def test_a_failed_check_takes_the_trap_and_the_monster_beside_it(maker):
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"path": "NS", "on": "spikes"}, "A3": {"path": "N"},
                            "B2": {"room": "slime"}})
    hero = one_hero(maker, built, [1, 1, 1, 1])
    assert hero.steps[0].damage == 1 + 1 and hero.left == 6
    assert hero.steps[0].threats == ["Spike trap (A2)", "Slime (B2)"]


def test_two_monster_rooms_beside_one_path_tile_both_hurt(maker):
    # B2 lies between the Slimes in B1 and B3; A1 has B1 beside it too.
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"path": "NE"}, "B2": {"path": "EW"}, "C2": {"path": "W"},
                            "B1": {"room": "slime"}, "B3": {"room": "slime"}}, stairs="C2")
    assert [name for name, _ in threats(built, maker, Room.parse("B2"))] == ["B1", "B3"]
    hero = one_hero(maker, built, [3, 1, 1, 1, 1, 1])     # Mage, 4 HP
    assert [(s.room, s.damage, s.hp) for s in hero.steps] == [("A1", 1, 3), ("B2", 2, 1)]
    assert hero.fate == "escaped"


def test_a_bridge_over_acid_makes_the_hero_dodge_the_pond(maker):
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"bridge": "NS", "acid": True}, "A3": {"path": "N"}})
    hero = one_hero(maker, built, [2, 1, 2, 2])          # Rogue, 6 HP, DEX 7: 2+2+7 = 11 < 12
    [step] = hero.steps
    assert (step.threats, step.stat, step.need, step.total, step.damage) == (["Acid Pond (A2)"], "dex", 12, 11, 1)
    assert hero.left == 5


def test_deaths_give_souls_and_escapes_cost_dungeon_hp(maker):
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"path": "NS", "on": "spikes"}, "A3": {"path": "N"},
                            "B1": {"room": "ghost"}, "B2": {"room": "ghost"}, "B3": {"room": "slime"}})
    dies = [3, 1, 1, 1, 1, 1]                 # Mage, 4 HP: -2 in A1, -3 in A2: dead in A2
    escapes = [1, 1, 6, 6, 6, 6, 6, 6]        # Knight passes A1, A2 and A3
    phase = run_heroes(built, maker, iter(dies + escapes + dies + escapes + dies))
    assert [(h.kind, h.fate, h.where) for h in phase.heroes] == [
        ("Mage", "died", "A2"), ("Knight", "escaped", "A3")] * 2 + [("Mage", "died", "A2")]
    assert (phase.souls, phase.hp_lost, phase.fallen) == (3, 2, False)
    # Building: Ghosts 3 + 3 and the Slime 1 beside the path, the trap 1, one lair of three 3.
    score = final_score(built, maker, phase)
    assert score == {"building": 11, "souls": 3, "souls_points": 9, "hp_lost": 2, "hp_points": -4, "total": 16}


def test_the_dungeon_falls_after_four_escapes_and_the_fifth_hero_stays_home(maker):
    built = dungeon(maker, {"A1": {"path": "NS"}, "A2": {"path": "NS"}, "A3": {"path": "N"}})
    phase = run_heroes(built, maker, iter([1, 1] * 5))
    assert (len(phase.heroes), phase.hp_lost, phase.fallen) == (4, 4, True)
    assert final_score(built, maker, phase)["total"] == -8
