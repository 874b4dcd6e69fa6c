import pytest

from games.maps import Item, Room, standard_items
from tests_support import reachable


def test_room_names_round_trip():
    assert Room.parse("C4") == Room(3, 4)
    assert Room.parse("c4").name == "C4"
    assert Room.parse("H12") == Room(8, 12)
    assert repr(Room(1, 1)) == "Room.parse('A1')"


@pytest.mark.parametrize("bad", ["", "4C", "C", "CC", "C0", "C-1", "*3"])
def test_room_parse_rejects_and_quotes_bad_names(bad):
    with pytest.raises(ValueError, match=repr(bad).replace("*", r"\*")):
        Room.parse(bad)


def test_items_parse_and_reject():
    assert Item.parse("weapon:C") == Item("weapon", "C")
    assert str(Item.parse("loot")) == "loot"
    for bad in ("lute", "weapon:G", "weapon", "dragon:A", "monster:a"):
        with pytest.raises(ValueError, match="unknown item"):
            Item.parse(bad)


def test_classic_map_is_a_complete_8x8_dungeon(classic):
    assert (classic.id, classic.rows, classic.cols) == ("classic", 8, 8)
    assert classic.name == "The Sunken Keep"
    assert classic.problems() == []
    assert sorted(item for _, item in classic.items) == sorted(standard_items().elements())
    assert len(classic.entries) == 6
    assert len({room for room, _ in classic.entries}) == 6
    for room, side in classic.entries:
        assert not classic.contains(room.neighbour(side)), f"{room}:{side} is not on the edge"


def test_classic_map_every_room_reachable_through_passages(classic):
    assert len(reachable(classic, [room for room, _ in classic.entries])) == 64


def test_side_kinds_agree_from_both_rooms(classic):
    opposite = {"N": "S", "E": "W", "S": "N", "W": "E"}
    for room in classic.rooms():
        for side in "NESW":
            other = room.neighbour(side)
            if classic.contains(other):
                assert classic.side_kind(room, side) == classic.side_kind(other, opposite[side])
    assert classic.side_kind(Room.parse("A1"), "E") == "wall"      # walls = ["A1-B1", ...]
    assert classic.side_kind(Room.parse("A1"), "S") == "passage"
    assert classic.side_kind(Room.parse("C1"), "N") == "entry"
    assert classic.side_kind(Room.parse("A1"), "N") == "wall"      # the outer edge


def test_problems_lists_every_broken_map_rule(classic):
    from dataclasses import replace

    broken = replace(
        classic,
        entries=frozenset(sorted(classic.entries)[:4] + [(Room.parse("D4"), "N")]),
        items=classic.items + ((Room.parse("B2"), Item("dragon")),),
    )
    problems = dict(broken.problems())
    messages = " | ".join(f"{k}: {v}" for k, v in broken.problems())
    assert "4 entryways on the outer edge; a map has exactly 6" in messages
    assert "D4:N is a passage; a cave entrance stands on a wall inside the map" in messages
    assert "rooms.B2.items" in problems and "2 items" in problems["rooms.B2.items"]
    assert "the map has 2 dragon, it needs 1" in messages


def test_a_wall_that_is_not_between_two_rooms_is_a_problem_not_a_crash(classic):
    from dataclasses import replace

    odd = replace(classic, walls=classic.walls | {frozenset({Room.parse("A1")}),
                                                   frozenset({Room.parse("A1"), Room.parse("C1")})})
    messages = [message for path, message in odd.problems() if path == "walls"]
    assert "A1 is not a side between two neighbouring rooms of the map" in messages
    assert "A1-C1 is not a side between two neighbouring rooms of the map" in messages
