"""The random player and the deal on the expansion maps: legal sheets, marks that match the die, and the
classic player's games unchanged."""
import pytest

from games.cards import load_deck
from games.deal import deal
from games.die import load_die, marks_from_rolls, roll_rounds
from games.mapfile import load_map
from games.maps import FEATURES
from games.player import play
from games.randommap import random_map
from games.rules import crossed_gates, problems, side_linked
from games.scoring import score
from scrawl.report import deal_table

# Boards the player made before the expansion rules existed (same deal and seed), room:exits@round,
# "X" for a Trap. The synthetic photographer and the benchmarks depend on these games staying the same.
CLASSIC_DEAL_5_SEED_36 = (
    "A3:ES@3 A4:ESW@2 A7:NSW@1 B3:ESW@3 B4:NSW@2 B5:NW@4 B6:ESW@7 C1:NS@1 C2:NE@3 C3:W@5 C6:ESW@6 C7:N@6 "
    "D2:SW@4 D3:N@5 D4:X@5 D6:EW@6 E6:SW@5 E7:NESW@4 E8:NS@3 F4:X@7 F5:ES@7 F7:EW@4 G5:NSW@6 G6:NESW@5 "
    "G7:EW@7 H2:E@1 H5:NS@2 H6:NESW@1 H7:N@2")
RANDOM_7_DEAL_4_SEED_29 = (
    "A1:NS@6 A2:NE@6 A3:EW@1 A5:E@5 B3:ESW@1 B4:NS@1 B5:NSW@5 B6:NS@5 B8:S@2 C3:W@3 C7:X@1 D3:ES@7 E2:S@7 "
    "E3:NEW@7 E8:ES@2 F1:ES@5 F2:EW@6 F3:ESW@6 F4:NEW@7 F8:W@3 G1:ESW@3 G2:NESW@4 G3:NESW@4 G4:NS@4 H1:NW@2 "
    "H2:X@3 H3:ES@2 H4:NSW@5")


@pytest.fixture(scope="module")
def deck():
    return load_deck("doodles")


def written(board) -> str:
    return " ".join(f"{room.name}:{drawing.exits or 'X'}@{drawing.round}" for room, drawing in board)


def test_the_classic_player_plays_exactly_the_games_it_played_before(classic, deck):
    board = play(classic, deal(deck, 5), 36)
    assert written(board) == CLASSIC_DEAL_5_SEED_36
    assert (board.unusable, score(classic, board).total) == (1, 16)
    assert board.marks.empty and board.marks.curse_top == ()
    plain = random_map(7)
    board = play(plain, deal(deck, 4), 29)
    assert written(board) == RANDOM_7_DEAL_4_SEED_29
    assert (board.unusable, score(plain, board).total) == (1, 4)


def _maps():
    maps = [load_map(f"map{n}") for n in range(2, 7)]
    maps += [random_map(seed, 1, frozenset(FEATURES)) for seed in (1, 2)]
    maps += [random_map(3, 1, frozenset({"runes", "caves"}))]      # gates without the die
    return maps


def test_the_player_keeps_every_expansion_rule_and_marks_what_the_die_says(deck):
    gates_crossed = door_links = cursed = 0
    for dungeon in _maps():
        for seed in range(8):
            game = deal(deck, seed, solo=seed % 4 == 0, dungeon=dungeon)
            board = play(dungeon, game, seed)
            rolls = roll_rounds(seed, 7) if dungeon.needs_die else None
            assert problems(dungeon, board, rolls=rolls) == [], (dungeon.id, seed, board.ascii(dungeon))
            segments = sum(len(r.segments()) for r in game.rounds)
            assert len(board.entered_rooms()) + board.unusable == segments
            if rolls is not None:
                expected = marks_from_rolls(dungeon, rolls)
                assert (board.marks.diamonds, board.marks.emeralds) == (expected.diamonds, expected.emeralds)
                assert (board.marks.curse_top, board.marks.curse_bottom) == (expected.curse_top, expected.curse_bottom)
                assert len(board.marks.curse_top) == dungeon.curse_spaces
            crossed = crossed_gates(dungeon, board)
            assert board.marks.gates == {dungeon.gate_partner(gate) for gate in crossed}
            gates_crossed += len(crossed)
            door_links += sum(side_linked(board, side) for side, _ in dungeon.doors)
            cursed += len(board.marks.emeralds)
    # The games really went through doors and gates, and cursed Emeralds: the checks above had work to do.
    assert gates_crossed >= 10 and door_links >= 10 and cursed >= 5


def test_doors_open_only_on_their_icon(deck):
    map6 = load_map("map6")
    die = load_die()
    for seed in range(6):
        board = play(map6, deal(deck, seed), seed, rolls=[3, 6, 3, 6, 3, 6, 3])    # moons only
        for side, icon in map6.doors:
            if side_linked(board, side):
                assert icon == "moon", (seed, side)
        rolls = roll_rounds(seed, 7)
        board = play(map6, deal(deck, seed), seed)
        for side, icon in map6.doors:
            if side_linked(board, side):
                made = max(board.at(room).round for room in side)
                assert die.icon(rolls[made - 1]) == icon


def test_the_player_uses_the_deals_rolls(deck):
    map5 = load_map("map5")
    game = deal(deck, 11, dungeon=map5)
    assert game.rolls == roll_rounds(11, 7)
    assert play(map5, game, 2) == play(map5, deal(deck, 11), 2) == play(map5, game, 2, rolls=roll_rounds(11, 7))
    assert play(map5, game, 2, rolls=[1, 1, 1, 1, 1, 1, 1]).marks.curse_bottom == (True,) * 4


def test_a_deal_for_a_die_map_rolls_the_die_and_says_what_to_do(deck, classic):
    map6 = load_map("map6")
    plain, with_die = deal(deck, 1234), deal(deck, 1234, dungeon=map6)
    assert with_die.rounds == plain.rounds
    assert plain.to_json() == deal(deck, 1234, dungeon=None).to_json()
    assert "map" not in plain.to_json() and all("roll" not in r for r in plain.to_json()["rounds"])
    document = with_die.to_json()
    assert document["map"] == {"id": "map6", "seed": None}
    rolls = roll_rounds(1234, 7)
    assert [r["roll"]["number"] for r in document["rounds"]] == list(rolls)
    first = document["rounds"][0]["roll"]
    assert first["icon"] == load_die().icon(rolls[0])
    assert first["do"][0].startswith(f"Cross out Diamond {rolls[0]} (room ")
    # A map without the die (map 1) names the map but rolls nothing.
    map1 = deal(deck, 1234, dungeon=load_map("map1")).to_json()
    assert map1["map"] == {"id": "map1", "seed": None} and all("roll" not in r for r in map1["rounds"])


def test_the_deal_table_prints_the_die_under_each_round(deck):
    map6 = load_map("map6")
    game = deal(deck, 1234)
    plain = deal_table(game, replay="scrawl deal --seed 1234")
    table = deal_table(game, replay="scrawl deal --seed 1234 --map 6", dungeon=map6).splitlines()
    assert table[0] == "Deal 1234 (36 cards, The Rune Maze)"
    assert "Replay it with: scrawl deal --seed 1234 --map 6" in table
    rolls = roll_rounds(1234, 7)
    round_rows = [i for i, line in enumerate(table) if line[:3].strip().isdigit()]
    assert [int(table[i].split()[0]) for i in round_rows] == [1, 2, 3, 4, 5, 6, 7]
    for i, roll in zip(round_rows, rolls):
        assert table[i + 1].strip().startswith(f"Roll {roll} (")
    assert "fill in the other gate with the same glyph" in table[-1]
    # The same deal dealt for the map prints the same table; without a map, the old table.
    assert deal_table(deal(deck, 1234, dungeon=map6), replay="scrawl deal --seed 1234 --map 6").splitlines() == table
    assert "Roll" not in plain and plain.splitlines()[0] == "Deal 1234 (36 cards)"
