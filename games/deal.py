"""The virtual dealer: a shuffled dungeon deck dealt into the seven rounds.

Each round reveals the top four cards. A revealed Draw 2 is discarded and two
more cards are revealed in its place (a Draw 2 among those is replaced the same
way), so a round has four to six usable cards. A solo game takes the Trap cards
out first. The shuffle is seeded: the same seed deals the same game.

Dealt for an expansion map that needs the die (RULES.md section 2), the deal
also rolls the die once a round, seeded by the deal's seed
(``games.die.roll_rounds``), so everyone at the table, and the random player,
uses the same rolls; ``to_json`` then says per round what the roll makes a
player cross out and fill in.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import CardSpec, Deck, SHAPE_NAMES
from games.die import load_die, roll_rounds, round_instructions
from games.errors import ScrawlError
from games.mapfile import map_reference
from games.maps import DungeonMap

ROUNDS = 7
CARDS_A_ROUND = 4
DEAL_VERSION = 1


@dataclass(frozen=True)
class Reveal:
    """One usable card of a round; ``after_draw2`` when it was revealed in place of a Draw 2."""

    card: CardSpec
    after_draw2: bool = False

    @property
    def words(self) -> str:
        if self.card.kind == "segment":
            return SHAPE_NAMES[self.card.shape]
        return self.card.title


@dataclass(frozen=True)
class Round:
    number: int
    reveals: tuple[Reveal, ...]
    draw2: int = 0            # Draw 2 cards revealed (and discarded) this round

    def segments(self) -> list[CardSpec]:
        return [r.card for r in self.reveals if r.card.kind == "segment"]

    def traps(self) -> int:
        return sum(1 for r in self.reveals if r.card.kind == "trap")


@dataclass(frozen=True)
class Deal:
    seed: int
    solo: bool
    deck_size: int
    rounds: tuple[Round, ...]
    dungeon: DungeonMap | None = None          # the map it was dealt for, if one was given
    rolls: tuple[int, ...] | None = None       # the die, one roll a round, on a map that needs the die

    def to_json(self) -> dict:
        """The ``scrawl.deal/1`` document; with a map, also ``"map"``, and on a die map a ``"roll"`` per round:
        ``{"number": 4, "icon": "sun", "do": ["Cross out Diamond 4 (room H3)", ...]}``."""
        document = {
            "format": "scrawl.deal/1",
            "seed": self.seed,
            "solo": self.solo,
            "deck": self.deck_size,
            "rounds": [{
                "round": r.number,
                "draw2": r.draw2,
                "cards": [{"card": x.card.id, "kind": x.card.kind, "shape": x.card.shape, "exits": x.card.exits,
                           "after_draw2": x.after_draw2} for x in r.reveals],
            } for r in self.rounds],
        }
        if self.dungeon is not None:
            document["map"] = map_reference(self.dungeon)
        if self.rolls is not None:
            die = load_die()
            todo = round_instructions(self.dungeon, self.rolls, die)
            for entry, roll, lines in zip(document["rounds"], self.rolls, todo):
                entry["roll"] = {"number": roll, "icon": die.icon(roll), "do": lines[1:]}
        return document


def deal(deck: Deck, seed: int, *, solo: bool = False, rounds: int = ROUNDS,
         dungeon: DungeonMap | None = None) -> Deal:
    """Shuffle ``deck`` by ``seed`` and reveal ``rounds`` rounds. Raises ``ScrawlError`` if the deck runs out.

    Given a ``dungeon`` that needs the die, the die is rolled once a round too (``Deal.rolls``); the cards
    dealt are the same with or without a map."""
    cards = [card for card in deck.physical_cards() if not (solo and card.kind == "trap")]
    rng = random.Random(f"dungeon-scrawl/deal/v{DEAL_VERSION}/{seed}")
    rng.shuffle(cards)
    rolls = None
    if dungeon is not None and dungeon.needs_die:
        rolls = roll_rounds(seed, rounds)
    return Deal(seed=seed, solo=solo, deck_size=len(cards), rounds=reveal_rounds(cards, rounds),
                dungeon=dungeon, rolls=rolls)


def reveal_rounds(cards: list[CardSpec], rounds: int = ROUNDS) -> tuple[Round, ...]:
    """Deal a deck in the order given (top card first) into rounds, replacing each Draw 2 by two cards."""
    pile = list(reversed(cards))      # pop() takes the top card
    dealt = []
    for number in range(1, rounds + 1):
        reveals, draw2 = [], 0
        pending = [False] * CARDS_A_ROUND   # one slot per card still to reveal: is it in place of a Draw 2?
        while pending:
            after = pending.pop(0)
            if not pile:
                raise ScrawlError(f"the deck ran out in round {number}: {len(cards)} cards are too few "
                                  f"for {rounds} rounds")
            card = pile.pop()
            if card.kind == "draw2":
                draw2 += 1
                pending[0:0] = [True, True]
            else:
                reveals.append(Reveal(card, after))
        dealt.append(Round(number, tuple(reveals), draw2))
    return tuple(dealt)
