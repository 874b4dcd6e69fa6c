"""Line of sight (RULES.md section 4): answers worked by hand on small maps drawn here, and on the classic map.

Room (col, row) has its centre at (col - 1/2, row - 1/2); grid lines lie on whole numbers, y downwards.
"""
import itertools

import pytest

from games.errors import ScrawlError
from games.maps import FEATURES, DungeonMap, Room, interior_side
from games.randommap import random_map
from games.sight import describe, picture, sees, sight, visible_from


def side(text):
    a, b = (Room.parse(name) for name in text.split("-"))
    return interior_side(a, b)


def grid(cols=5, rows=4, walls=(), doors=(), gates=(), caves=()):
    """A bare map for sight: no items or entryways needed. ``doors``/``gates`` like ``"C2-D2:moon"``,
    ``caves`` like ``"D2:W"`` (the wall must be in ``walls`` too)."""
    def marked(texts):
        return frozenset((side(text.split(":")[0]), text.split(":")[1]) for text in texts)

    return DungeonMap(id="test", name="Test", rows=rows, cols=cols, walls=frozenset(map(side, walls)),
                      entries=frozenset((Room.parse(t.split(":")[0]), t.split(":")[1]) for t in caves),
                      doors=marked(doors), gates=marked(gates))


def look(dungeon, a, b):
    return sight(dungeon, Room.parse(a), Room.parse(b))


# -- straight through passages ---------------------------------------------------------------

def test_a_row_of_passages_is_seen_along_and_one_wall_in_it_blocks():
    seen = look(grid(), "A2", "E2")
    assert seen.clear and seen.blocked_by is None
    assert seen.crossed == ("A2-B2", "B2-C2", "C2-D2", "D2-E2")
    assert [room.name for room in seen.rooms] == ["A2", "B2", "C2", "D2", "E2"]
    walled = look(grid(walls=["C2-D2"]), "A2", "E2")
    assert not walled.clear
    assert walled.blocked_by == ("C2-D2", "wall")
    assert walled.crossed == seen.crossed          # the whole line, not only up to the blocker


def test_a_column_of_passages_and_a_wall_across_it():
    assert look(grid(), "C1", "C4").crossed == ("C1-C2", "C2-C3", "C3-C4")
    assert look(grid(), "C1", "C4").clear
    assert look(grid(walls=["C3-C4"]), "C1", "C4").blocked_by == ("C3-C4", "wall")


def test_walls_beside_the_line_do_not_block_it():
    # Neighbours in row 2 see each other whatever walls stand in rows 1 and 3.
    assert look(grid(walls=["B1-C1", "B3-C3", "B2-B3", "C1-C2"]), "B2", "C2").clear


def test_the_first_blocker_is_named_from_the_room_looking():
    dungeon = grid(walls=["B2-C2", "C2-D2"])
    assert look(dungeon, "A2", "E2").blocked_by == ("B2-C2", "wall")
    assert look(dungeon, "E2", "A2").blocked_by == ("C2-D2", "wall")
    assert look(dungeon, "E2", "A2").crossed == ("D2-E2", "C2-D2", "B2-C2", "A2-B2")


# -- shallow diagonals close to walls ------------------------------------------------------

# A1 (0.5, 0.5) to E2 (4.5, 1.5): y = 0.5 + (x - 0.5) / 4. It crosses x=1 at y=0.625 (A1-B1), x=2 at
# y=0.875 (B1-C1), y=1 at x=2.5 (C1-C2), x=3 at y=1.125 (C2-D2), x=4 at y=1.375 (D2-E2).
SHALLOW = ("A1-B1", "B1-C1", "C1-C2", "C2-D2", "D2-E2")


def test_a_shallow_diagonal_crosses_the_sides_worked_by_hand():
    seen = look(grid(), "A1", "E2")
    assert seen.crossed == SHALLOW and seen.clear
    assert [room.name for room in seen.rooms] == ["A1", "B1", "C1", "C2", "D2", "E2"]


@pytest.mark.parametrize("walls", [
    ["B1-B2"],            # under the line from x=1 to 2, where the line is 1/8 to 3/8 above it
    ["D1-D2"],            # above the line from x=3 to 4, where the line is 1/8 to 3/8 below it
    ["C1-D1"],            # x=3 from y=0 to 1: the line passes its lower end 1/8 below it
    ["B1-B2", "C1-D1", "D1-D2", "B2-C2"],
])
def test_a_shallow_diagonal_grazing_wall_ends_still_sees(walls):
    assert look(grid(walls=walls), "A1", "E2").clear


@pytest.mark.parametrize("wall", ["B1-C1", "C1-C2", "C2-D2"])
def test_the_walls_the_shallow_diagonal_does_cross_block_it(wall):
    assert look(grid(walls=[wall]), "A1", "E2").blocked_by == (wall, "wall")
    assert look(grid(walls=[wall]), "E2", "A1").blocked_by == (wall, "wall")


# -- exactly through a grid corner ----------------------------------------------------------
# A1 to B2 passes exactly through the corner (1, 1) of A1, B1, A2, B2: round it through B1 or through A2.

CORNER = "corner of A1, B1, A2, B2"


@pytest.mark.parametrize("walls,clear", [
    ([], True),
    (["A1-B1"], True),                       # one wall at the corner: slip by through A2
    (["A1-B1", "B1-B2"], True),              # two walls meet on B1's side: still by through A2
    (["A1-A2", "A2-B2"], True),              # two walls meet on A2's side: by through B1
    (["A1-B1", "A2-B2"], False),             # a straight wall through the corner
    (["A1-A2", "B1-B2"], False),             # a straight wall the other way
    (["A1-B1", "A1-A2"], False),             # walls on both sides (round the room looking)
    (["B1-B2", "A2-B2"], False),             # walls on both sides (round the room looked at)
    (["A1-B1", "A1-A2", "A2-B2", "B1-B2"], False),
])
def test_a_line_exactly_through_a_corner(walls, clear):
    dungeon = grid(walls=walls)
    seen = look(dungeon, "A1", "B2")
    assert seen.crossed == (CORNER,)
    assert seen.clear is clear
    assert seen.blocked_by == (None if clear else (CORNER, "walls"))
    assert look(dungeon, "B2", "A1").clear is clear


@pytest.mark.parametrize("walls,clear", [
    (["A1-B1"], True),                       # B1 to A2 goes round through A1 or B2
    (["A1-B1", "A1-A2"], True),              # both walls on A1's side: by through B2
    (["A1-B1", "B1-B2"], False),             # round the room looking, both ways
    (["A1-B1", "A2-B2"], False),
])
def test_the_other_diagonal_through_the_same_corner(walls, clear):
    dungeon = grid(walls=walls)
    assert look(dungeon, "B1", "A2").crossed == (CORNER,)
    assert look(dungeon, "B1", "A2").clear is clear
    assert look(dungeon, "A2", "B1").clear is clear


def test_a_door_one_way_round_and_a_wall_the_other_block_the_corner():
    dungeon = grid(walls=["A2-B2"], doors=["A1-B1:moon"])
    assert look(dungeon, "A1", "B2").blocked_by == (CORNER, "a wall and a magic door (moon)")
    assert look(dungeon, "B2", "A1").blocked_by == (CORNER, "a wall and a magic door (moon)")
    assert look(grid(doors=["A1-B1:moon", "A2-B2:sun"]), "A1", "B2").blocked_by == (CORNER, "magic doors")
    assert look(grid(doors=["A1-B1:moon"]), "A1", "B2").clear        # the door alone: by through A2


def test_a_gate_at_a_corner_lets_the_line_by():
    assert look(grid(walls=["A2-B2"], gates=["A1-B1:fork", "C3-C4:fork"]), "A1", "B2").clear


def test_a_corner_in_the_middle_of_a_longer_line():
    # A1 (0.5, 0.5) to D2 (3.5, 1.5) crosses x=1 at y=2/3 (A1-B1), meets the corner (2, 1) of B1, C1, B2, C2,
    # then x=3 at y=4/3 (C2-D2).
    seen = look(grid(), "A1", "D2")
    assert seen.crossed == ("A1-B1", "corner of B1, C1, B2, C2", "C2-D2")
    assert [room.name for room in seen.rooms] == ["A1", "B1", "C2", "D2"]
    assert look(grid(walls=["B1-C1"]), "A1", "D2").clear
    assert look(grid(walls=["B1-C1", "B2-C2"]), "A1", "D2").blocked_by == ("corner of B1, C1, B2, C2", "walls")


# -- doors, gates, caves ---------------------------------------------------------------------

def test_a_magic_door_blocks_whatever_its_icon():
    for icon in ("sun", "dragon", "moon"):
        seen = look(grid(doors=[f"C2-D2:{icon}"]), "A2", "E2")
        assert seen.blocked_by == ("C2-D2", f"magic door ({icon})")


def test_a_rune_gate_does_not_block():
    dungeon = grid(gates=["C2-D2:fork", "A3-A4:fork"])
    assert look(dungeon, "A2", "E2").clear
    assert look(dungeon, "A2", "E2").crossed == ("A2-B2", "B2-C2", "C2-D2", "D2-E2")


def test_a_cave_entrance_wall_blocks_from_both_sides():
    # The cave entrance is the entry D2:W on the wall C2-D2: side_kind says "entry" from D2, "wall" from C2.
    dungeon = grid(walls=["C2-D2"], caves=["D2:W"])
    assert dungeon.side_kind(Room.parse("D2"), "W") == "entry"
    assert look(dungeon, "A2", "E2").blocked_by == ("C2-D2", "wall with a cave entrance")
    assert look(dungeon, "E2", "A2").blocked_by == ("C2-D2", "wall with a cave entrance")
    assert not sees(dungeon, Room.parse("C2"), Room.parse("D2"))


# -- a room and all it sees ------------------------------------------------------------------

def test_a_room_sees_itself_and_lists_only_others():
    dungeon = grid()
    c2 = Room.parse("C2")
    assert sees(dungeon, c2, c2) and sight(dungeon, c2, c2).crossed == ()
    assert c2 not in visible_from(dungeon, c2)
    assert len(visible_from(dungeon, c2)) == 19                  # no walls: every other room of 5x4


def test_visible_from_worked_by_hand_in_reading_order():
    # 3x3, walls B1-B2 (above B2) and B2-C2 (right of B2). From B2: B1 and C2 are behind walls; C1 is past
    # the corner (2, 1) with a wall on each way round; A1 past (1, 1) by A2; C3 past (2, 2) by B3.
    dungeon = grid(cols=3, rows=3, walls=["B1-B2", "B2-C2"])
    assert [room.name for room in visible_from(dungeon, Room.parse("B2"))] == ["A1", "A2", "A3", "B3", "C3"]


def test_rooms_off_the_map_are_an_error_naming_the_map_size():
    dungeon = grid()
    with pytest.raises(ScrawlError, match=r"^room F1 is not on the 5x4 map \(its rooms run from A1 to E4\)$"):
        sight(dungeon, Room.parse("A1"), Room.parse("F1"))
    with pytest.raises(ScrawlError, match="room A5 is not on the 5x4 map"):
        sight(dungeon, Room.parse("A5"), Room.parse("A1"))
    with pytest.raises(ScrawlError, match="room E9 is not on the 5x4 map"):
        visible_from(dungeon, Room.parse("E9"))


# -- the classic map, worked by hand from templates/maps/classic.toml ------------------------

def test_classic_answers(classic):
    def name_of(a, b):
        return look(classic, a, b)

    # C4 to F7 passes exactly through three corners; at the last one E6-F6 is a wall, but E6-E7-F7 is open.
    assert name_of("C4", "F7").clear
    assert name_of("C4", "F7").crossed == ("corner of C4, D4, C5, D5", "corner of D5, E5, D6, E6",
                                          "corner of E6, F6, E7, F7")
    assert name_of("C4", "E4").blocked_by == ("D4-E4", "wall")
    assert name_of("A1", "C1").blocked_by == ("A1-B1", "wall")
    assert name_of("B1", "H1").clear
    # C5 to D6: C5-D5 is a wall, but C5-C6-D6 is open.
    assert name_of("C5", "D6").clear
    # A1 to H8: at the corner of B2, C2, B3, C3 the walls B2-B3 and C2-C3 close both ways round.
    assert name_of("A1", "H8").blocked_by == ("corner of B2, C2, B3, C3", "walls")
    # Row 4 from C4: B4-C4 and D4-E4 are walls, so only D4 is seen along it.
    row_4 = [room.name for room in visible_from(classic, Room.parse("C4")) if room.row == 4]
    assert row_4 == ["D4"]


# -- symmetry ----------------------------------------------------------------------------------

def _assert_symmetric(dungeon):
    rooms = list(dungeon.rooms())
    for a, b in itertools.combinations(rooms, 2):
        assert sees(dungeon, a, b) == sees(dungeon, b, a), (a, b)


def test_sight_is_symmetric_on_the_classic_map(classic):
    _assert_symmetric(classic)


def test_sight_is_symmetric_on_a_map_with_doors_gates_and_caves():
    dungeon = random_map(7, features=FEATURES)
    assert dungeon.doors and dungeon.gates and dungeon.cave_entries()
    _assert_symmetric(dungeon)
    # The doors there really do block: some line is stopped by one.
    blockers = {sight(dungeon, a, b).blocked_by[1] for a, b in itertools.combinations(dungeon.rooms(), 2)
                if not sees(dungeon, a, b)}
    assert any(what.startswith("magic door") for what in blockers)
    assert any("corner of" in sight(dungeon, a, b).blocked_by[0] for a, b in itertools.combinations(dungeon.rooms(), 2)
               if not sees(dungeon, a, b))


# -- the words and the picture -----------------------------------------------------------------

def test_describe_says_what_blocks_or_what_the_line_crosses():
    dungeon = grid(walls=["A2-B2"], doors=["A1-B1:moon", "C2-D2:sun"], gates=["B3-C3:eye", "D3-D4:eye"])
    assert describe(dungeon, look(dungeon, "A2", "E2")) == \
        "A2 does not see E2: a wall between A2 and B2 blocks the line"
    assert describe(dungeon, look(dungeon, "E2", "B2")) == \
        "E2 does not see B2: a magic door (sun) between C2 and D2 blocks the line"
    assert describe(dungeon, look(dungeon, "A1", "B2")) == ("A1 does not see B2: the line passes exactly through "
                                                            "the corner of A1, B1, A2, B2, and a wall and a magic "
                                                            "door (moon) block it both ways round")
    assert describe(dungeon, look(dungeon, "A3", "E3")) == (
        "A3 sees E3: no wall or door blocks the line (it crosses A3-B3, then B3-C3, then C3-D3, then D3-E3); "
        "the Rune Gate on B3-C3 does not block it")
    assert describe(dungeon, look(dungeon, "C3", "C3")) == "C3 sees C3: a room always sees itself"


def test_picture_marks_rooms_walls_doors_and_gates():
    dungeon = grid(cols=3, rows=2, walls=["A1-B1"], doors=["B1-B2:moon"], gates=["B2-C2:fork", "A1-A2:fork"])
    marks = {Room.parse("A2"): "@", Room.parse("C1"): "o"}
    assert picture(dungeon, marks) == "\n".join([
        "     A   B   C",
        "   +---+---+---+",
        " 1 | . | .   o |",
        "   + g +-D-+   +",
        " 2 | @   . g . |",
        "   +---+---+---+",
    ])
