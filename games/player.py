"""A random legal player: plays a whole game from a deal, keeping every drawing rule.

It is what tests, samples and the synthetic photographer use to make realistic
sheets. Each revealed segment goes where the rules allow, picked at random with
a leaning towards rooms with something to score; a segment that fits nowhere
becomes a tally mark beside scoring item 6. Same map, deal and seed: same sheet.
"""
from __future__ import annotations

import random

from games.board import Board, Drawing
from games.cards import orientations
from games.deal import Deal
from games.maps import DungeonMap, Item
from games.rules import can_draw, can_trap

PLAYER_VERSION = 1


def play(dungeon: DungeonMap, game: Deal, seed: int, *, greed: float = 2.0) -> Board:
    """One player's finished sheet. ``greed`` weights rooms with loot, weapons or the dragon (0: no preference)."""
    rng = random.Random(f"dungeon-scrawl/player/v{PLAYER_VERSION}/{seed}")
    board = Board()
    rooms = list(dungeon.rooms())
    for round_ in game.rounds:
        cards = [reveal.card for reveal in round_.reveals]
        rng.shuffle(cards)       # the cards of a round may be drawn in any order
        for card in cards:
            if card.kind == "segment":
                options = [(room, exits) for room in rooms for exits in orientations(card.shape)
                           if can_draw(dungeon, board, room, exits)]
                if not options:
                    board = board.with_tally()
                    continue
                armed = {dungeon.item_at(r).letter for r in board.entered_rooms()
                         if dungeon.item_at(r) is not None and dungeon.item_at(r).kind == "weapon"}
                weights = [_appeal(dungeon.item_at(room), armed, greed) for room, _ in options]
                room, exits = rng.choices(options, weights)[0]
                board = board.with_drawing(room, Drawing.segment(exits, round_.number))
            elif card.kind == "trap":
                options = [room for room in rooms if can_trap(dungeon, board, room)]
                if options:
                    board = board.with_drawing(rng.choice(options), Drawing.trap_x(round_.number))
    return board


def _appeal(item: Item | None, armed: set[str], greed: float) -> float:
    """How much a player wants to draw here: more for loot, weapons, the dragon and armed monsters."""
    if item is None:
        return 1.0
    if item.kind == "monster":
        return 1.0 + greed if item.letter in armed else 0.5
    return 1.0 + greed
