from collections import Counter

import pytest

from games.cards import SHAPES, load_deck, orientations, parse_deck, rotate, shape_of
from games.deal import deal, reveal_rounds
from games.errors import ScrawlError, TemplateError


@pytest.fixture(scope="module")
def deck():
    return load_deck("doodles")


def test_the_dungeon_deck_has_the_36_cards_of_the_rules(deck):
    counts = Counter()
    for card in deck.physical_cards():
        counts[card.shape or card.kind] += 1
    assert counts == {"straight": 7, "corner": 8, "t": 7, "cross": 4, "dead_end": 6, "trap": 2, "draw2": 2}


def test_each_shape_turns_into_its_distinct_orientations():
    assert orientations("straight") == ("EW", "NS")
    assert orientations("corner") == ("ES", "NE", "NW", "SW")
    assert orientations("t") == ("ESW", "NES", "NEW", "NSW")
    assert orientations("cross") == ("NESW",)
    assert orientations("dead_end") == ("E", "N", "S", "W")
    assert rotate("NE") == "ES" and rotate("N", 3) == "W"
    assert {shape_of(exits) for shape in SHAPES for exits in orientations(shape)} == set(SHAPES)
    assert shape_of("") is None


def test_a_broken_deck_file_reports_every_problem():
    data = {"id": "x", "name": "X", "game": "doodles", "colour": "red", "cards": [
        {"id": "a", "kind": "segment", "title": "A", "shape": "zigzag"},
        {"id": "a", "kind": "wizard", "title": "B"},
        {"id": "c", "kind": "trap", "copies": 0},
    ]}
    with pytest.raises(TemplateError) as caught:
        parse_deck(data, "decks/x.toml")
    message = str(caught.value)
    for part in ["colour: unknown field", "cards[0].shape: unknown shape 'zigzag'",
                 "cards[1].id: 'a' is used by an earlier card", "cards[1].kind: unknown kind 'wizard'",
                 "cards[2].title: missing", "cards[2].copies: 0 copies"]:
        assert f"decks/x.toml: {part}" in message


def test_the_same_seed_deals_the_same_game_and_another_seed_another(deck):
    assert deal(deck, 7) == deal(deck, 7)
    assert deal(deck, 7).to_json() != deal(deck, 8).to_json()


def test_a_draw_2_is_discarded_and_two_cards_come_in_its_place(deck):
    seen_draw2 = 0
    for seed in range(300):
        game = deal(deck, seed)
        assert len(game.rounds) == 7
        for round_ in game.rounds:
            assert all(r.card.kind != "draw2" for r in round_.reveals)
            assert len(round_.reveals) == 4 + round_.draw2
            assert (sum(r.after_draw2 for r in round_.reveals) >= 2) == (round_.draw2 > 0)
            seen_draw2 += round_.draw2
    assert seen_draw2 > 300   # about two per game: both Draw 2 cards are usually reached


def test_a_draw_2_revealed_in_place_of_a_draw_2_is_replaced_too():
    deck = parse_deck({"id": "d", "name": "D", "game": "doodles", "cards": [
        {"id": "d2", "kind": "draw2", "title": "Draw 2", "copies": 2},
        {"id": "s", "kind": "segment", "title": "S", "shape": "straight", "copies": 10},
    ]}, "test")
    draw2, straight = deck.cards
    stacked = [draw2, draw2] + [straight] * 10
    first, second = reveal_rounds(stacked, rounds=2)
    assert first.draw2 == 2
    assert [r.after_draw2 for r in first.reveals] == [True, True, True, False, False, False]
    assert (second.draw2, len(second.reveals)) == (0, 4)


def test_a_solo_deal_has_no_trap_cards(deck):
    for seed in range(50):
        game = deal(deck, seed, solo=True)
        assert game.deck_size == 34
        assert all(r.card.kind != "trap" for round_ in game.rounds for r in round_.reveals)


def test_a_deck_too_small_for_seven_rounds_is_a_clear_error():
    deck = parse_deck({"id": "d", "name": "D", "game": "doodles", "cards": [
        {"id": "s", "kind": "segment", "title": "S", "shape": "straight", "copies": 10}]}, "test")
    with pytest.raises(ScrawlError, match="the deck ran out in round 3"):
        deal(deck, 1)
