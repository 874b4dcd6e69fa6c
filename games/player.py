"""A random legal player: plays a whole game from a deal, keeping every drawing rule.

It is what tests, samples and the synthetic photographer use to make realistic
sheets. Each revealed segment goes where the rules allow, picked at random with
a leaning towards rooms with something to score; a segment that fits nowhere
becomes a tally mark beside scoring item 6. Same map, deal and seed: same sheet.

On the expansion maps (RULES.md section 2) the die is rolled each round after
the cards are revealed: the player crosses out the Diamond rolled, draws the
round's cards through the Magic Doors the roll opens and never through a closed
Rune Gate, fills in the other gate of a glyph when the path crosses a gate, and
at the round's end fills the Curse Track and crosses out the cursed Emeralds.
On a map without them the player makes exactly the random choices it always did.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import Sequence

from games.board import Board, Drawing
from games.cards import orientations
from games.deal import Deal
from games.die import load_die, marks_from_rolls, roll_rounds
from games.maps import DungeonMap, Item, interior_side
from games.rules import can_draw, can_trap, crossed_gates

PLAYER_VERSION = 1


def play(dungeon: DungeonMap, game: Deal, seed: int, *, greed: float = 2.0,
         rolls: Sequence[int | None] | None = None) -> Board:
    """One player's finished sheet. ``greed`` weights rooms with loot, weapons or the dragon (0: no preference),
    and on the expansion maps Diamonds, the Skull, its coins and Emeralds still clean.

    ``rolls`` are the die's numbers, one a round; on a map that needs the die they default to the deal's
    (``game.rolls``, else ``games.die.roll_rounds(game.seed, ...)``), so every player of one deal sees the same
    rolls, as at the table. ``None`` for a round: no die rolled, every Magic Door closed.
    """
    rng = random.Random(f"dungeon-scrawl/player/v{PLAYER_VERSION}/{seed}")
    if rolls is None and dungeon.needs_die:
        rolls = game.rolls if game.rolls is not None else roll_rounds(game.seed, len(game.rounds))
    die = load_die()
    board = Board()
    rooms = list(dungeon.rooms())
    for index, round_ in enumerate(game.rounds):
        roll = rolls[index] if rolls is not None and index < len(rolls) else None
        icon = die.icon(roll) if roll is not None else None
        if rolls is not None:
            # The die is rolled after the cards are revealed: the Diamond rolled is crossed out now.
            board = board.with_marks(replace(board.marks, diamonds=marks_from_rolls(dungeon, rolls[:index + 1]).diamonds))
        cards = [reveal.card for reveal in round_.reveals]
        rng.shuffle(cards)       # the cards of a round may be drawn in any order
        for card in cards:
            if card.kind == "segment":
                options = [(room, exits) for room in rooms for exits in orientations(card.shape)
                           if can_draw(dungeon, board, room, exits, icon=icon)]
                if not options:
                    board = board.with_tally()
                    continue
                armed = {dungeon.item_at(r).letter for r in board.entered_rooms()
                         if dungeon.item_at(r) is not None and dungeon.item_at(r).kind == "weapon"}
                weights = [_appeal(dungeon, board, room, armed, greed) for room, _ in options]
                room, exits = rng.choices(options, weights)[0]
                board = board.with_drawing(room, Drawing.segment(exits, round_.number))
                if dungeon.gates:
                    board = _close_gates(dungeon, board, room, exits)
            elif card.kind == "trap":
                options = [room for room in rooms if can_trap(dungeon, board, room)]
                if options:
                    board = board.with_drawing(rng.choice(options), Drawing.trap_x(round_.number))
        if rolls is not None:
            # At the round's end: the Curse Track filled, and the Emeralds of its full spaces crossed out.
            marked = marks_from_rolls(dungeon, rolls[:index + 1])
            board = board.with_marks(replace(board.marks, emeralds=marked.emeralds, curse_top=marked.curse_top,
                                             curse_bottom=marked.curse_bottom))
    return board


def _close_gates(dungeon: DungeonMap, board: Board, room, exits: str) -> Board:
    """A segment that crosses a Rune Gate closes the other gate of its glyph: the player fills it in."""
    crossed = crossed_gates(dungeon, board)
    fill = {dungeon.gate_partner(gate) for gate in
            (interior_side(room, room.neighbour(side)) for side in exits if dungeon.gate_at(room, side) is not None)
            if gate in crossed}
    if not fill:
        return board
    return board.with_marks(replace(board.marks, gates=board.marks.gates | fill))


def _appeal(dungeon: DungeonMap, board: Board, room, armed: set[str], greed: float) -> float:
    """How much a player wants to draw here: more for loot, weapons, the dragon and armed monsters; on the
    expansion maps more for a Diamond not crossed out, the Skull, its coins and an Emerald not cursed."""
    item: Item | None = dungeon.item_at(room)
    if item is None:
        return 1.0
    if item.kind == "monster":
        return 1.0 + greed if item.letter in armed else 0.5
    if item.kind == "diamond" and item.number in board.marks.diamonds:
        return 1.0 + greed / 2
    if item.kind == "emerald" and item.number in board.marks.emeralds:
        return 0.5
    return 1.0 + greed
