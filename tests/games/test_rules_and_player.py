import pytest

from games.board import Board, Drawing
from games.cards import load_deck
from games.deal import deal
from games.maps import Room
from games.player import play
from games.randommap import random_map
from games.rules import can_draw, can_trap, late_segments, problems, reached
from games.scoring import resolve_traps, score

R = Room.parse


def test_a_first_segment_must_link_to_an_entryway(classic):
    board = Board()
    assert can_draw(classic, board, R("C1"), "NS")        # C1's north side is an entry arrow
    assert not can_draw(classic, board, R("C2"), "NE")     # nothing to link to yet
    board = board.with_drawing(R("C1"), Drawing.segment("NS"))
    assert can_draw(classic, board, R("C2"), "NE")         # now it hangs from C1
    assert not can_draw(classic, board, R("C2"), "NS")     # C2's south side is a wall
    assert not can_draw(classic, board, R("C1"), "EW")     # one segment per room
    assert not can_draw(classic, board, R("B1"), "EW")     # B1's west side is a wall


def test_a_trap_needs_an_empty_room(classic):
    board = Board({R("C1"): Drawing.segment("NS")})
    assert can_trap(classic, board, R("A1"))
    assert not can_trap(classic, board, R("B2"))    # loot
    assert not can_trap(classic, board, R("C1"))    # a segment
    assert not can_trap(classic, Board({R("A1"): Drawing.trap_x()}), R("A1"))


@pytest.fixture(scope="module")
def deck():
    return load_deck("doodles")


def test_many_random_games_keep_every_drawing_rule(classic, deck):
    for seed in range(120):
        dungeon = classic if seed % 3 == 0 else random_map(seed)
        game = deal(deck, seed, solo=seed % 5 == 0)
        board = play(dungeon, game, seed)
        assert problems(dungeon, board) == [], (seed, board.ascii(dungeon))
        segments = sum(len(r.segments()) for r in game.rounds)
        drawn = len(board.entered_rooms())
        assert drawn + board.unusable == segments                # every segment drawn or tallied
        assert len(board.trap_rooms()) == sum(r.traps() for r in game.rounds)
        assert {d.round for _, d in board} <= set(range(1, 8))


def test_the_random_player_is_seeded(classic, deck):
    game = deal(deck, 3)
    assert play(classic, game, 3) == play(classic, game, 3)
    assert play(classic, game, 3) != play(classic, game, 4)


def test_a_greedy_player_scores_more_than_an_indifferent_one(classic, deck):
    greedy = sum(score(classic, play(classic, deal(deck, s), s, greed=4)).total for s in range(40))
    plain = sum(score(classic, play(classic, deal(deck, s), s, greed=0)).total for s in range(40))
    assert greedy > plain


def test_trap_hits_name_the_owner_and_the_room():
    trapper = Board({R("B4"): Drawing.trap_x()})
    walker = Board({R("A4"): Drawing.segment("EW"), R("B4"): Drawing.segment("W")})
    hits = resolve_traps([trapper, walker, Board()])
    assert hits[0] == [] and hits[2] == []
    [hit] = hits[1]
    assert (hit.room, hit.owner, hit.victim, hit.shared) == (R("B4"), 0, 1, False)


def test_problems_name_the_room_and_say_why(classic):
    board = Board({R("B1"): Drawing.segment("EW", round=1)})
    [wall, unlinked] = problems(classic, board)
    assert (wall.where, wall.rule) == ("B1", "wall_end")
    assert "wall on the west (left) side" in wall.why
    assert (unlinked.where, unlinked.rule) == ("B1", "unlinked")


def test_a_segment_joined_to_the_path_only_through_a_later_round_is_late(classic):
    board = Board({R("C1"): Drawing.segment("NS", 3),       # hangs from C1's entry arrow, round 3
                   R("C2"): Drawing.segment("NE", 1),       # joins the path through C1: late in round 1
                   R("D2"): Drawing.segment("EW"),          # no number: drawn in every round, never late
                   R("E2"): Drawing.segment("W", 3)})       # joined through C1 by round 3: in time
    assert late_segments(classic, board) == {R("C2"): 1}
    assert late_segments(classic, board.with_drawing(R("C1"), Drawing.segment("NS", 1))) == {}
    assert late_segments(classic, board.with_drawing(R("C1"), Drawing.segment("NS"))) == {}


def _late_round_by_round(dungeon, board):
    """RULES.md's reading of "late", round by round: the rooms linked to an entryway through segments
    drawn by each round's end (no number: every round)."""
    late = {}
    for round_number in sorted({d.round for _, d in board if d.entered and d.round is not None and 1 <= d.round <= 7}):
        by_then = reached(dungeon, board, lambda d: d.round is None or d.round <= round_number)
        late.update({room: round_number for room, d in board if d.entered and d.round == round_number
                     and room not in by_then})
    return late


def test_late_segments_agree_with_a_search_round_by_round(classic):
    import random

    rng = random.Random(7)
    maps = [classic, random_map(3), random_map(11)]
    for _ in range(1500):
        dungeon = rng.choice(maps)
        density = rng.random()
        drawings = {}
        for col in range(dungeon.cols + 2):                 # a ring of rooms off the map too
            for row in range(dungeon.rows + 2):
                if rng.random() < density:
                    exits = "".join(side for side in "NESW" if rng.random() < 0.6) or "N"
                    drawings[Room(col, row)] = Drawing.segment(exits, rng.choice([None, None, 0, 1, 2, 4, 6, 7, 9]))
        board = Board(drawings)
        assert list(late_segments(dungeon, board).items()) == list(_late_round_by_round(dungeon, board).items())
