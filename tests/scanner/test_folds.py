"""Map sheets photographed folded (the photographer's ``folded`` condition): the crease is no path, and a
room the crease may have changed is read right or asked about. Last, a side read
linked from ink joined to none of the room's path, on folded, curled and steep photos, is asked about."""
import pytest

import photographer
from generator.kinds import BLANKS
from scanner.load import load_photo_bytes
from scanner.scan import scan_photo


def _read(seed: int, map_id: str, paper: str, player: int) -> tuple[dict, dict]:
    """The scan (as ``scrawl scan --json`` gives a sheet) and the truth of one player's folded sheet."""
    shot = photographer.make_game_shots(seed, players=3, condition="folded", map_id=map_id, paper=paper)[player - 1]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    return scans[0].to_json(), shot.truth


def _wrong(scan: dict, truth: dict) -> list[str]:
    """The rooms whose paths or Trap are read otherwise than drawn."""
    def held(rooms: dict, name: str) -> tuple:
        room = rooms.get(name, {})
        return room.get("exits", ""), room.get("trap", False)

    return sorted(name for name in set(scan["rooms"]) | set(truth["rooms"])
                  if held(scan["rooms"], name) != held(truth["rooms"], name))


@pytest.mark.parametrize("seed, map_id, paper, player, right, asked", [
    # Folded 1.9 mm off square across the page: the crease falls out of the band it was looked for in, was
    # not found, and read as paths through row 3 (a Trap read as a path across, one side added to C3).
    (3754001, "random", "a4", 1, {"A3", "B3", "C3"}, set()),
    # A crease 2.4 mm inside row 3's bottom sides, paths crossing it aslant: B3's and D3's strokes down were
    # cut by the cleared band (now joined across it); G3's ends short of it and is asked about.
    (1354003, "random-expansion", "letter", 3, {"B3", "D3"}, {"G3"}),
    # The panel below the crease moved 0.7 mm: the empty dragon room D3's round box kept faint print round
    # its circle, taken for a number written, so D4's stroke run on past the side read as D3's path to it,
    # named nowhere. Faint ink well inside the circle counts as writing: D3 is asked about.
    (63654008, "map5", "a4", 3, set(), {"D3"}),
    # A crease 1.6 mm below row 8's middle, cleared with the stroke drawn along it between A8 and B8: both
    # rooms are asked about the side (once only within 1.5 mm of the middle).
    (61154000, "classic", "a4", 2, set(), {"A8", "B8"}),
    # Drawn in pencil, whose strokes are fainter than a pen's: the creases show at 0.7-0.75 of their
    # darkness (a pen's straight line at 0.93 or more), still faint enough to be cleared as creases.
    (67654000, "classic", "a4", 3, {"A2", "C2", "H2", "B6", "C6", "D6", "H6"}, set())])
def test_a_folded_map_sheet_reads_its_rooms_or_names_them(seed, map_id, paper, player, right, asked):
    scan, truth = _read(seed, map_id, paper, player)
    named = {entry["where"] for entry in scan["needs_review"]}
    wrong = _wrong(scan, truth)
    assert [room for room in wrong if room not in named] == []
    assert not right & set(wrong) and asked <= named


@pytest.mark.parametrize("seed, condition, map_id, paper, player, room", [
    (21154004, "folded", "map6", "a4", 2, "D4"),         # a neighbour's stroke down to the fold: D4's top side
    (21153004, "curled", "map6", "a4", 1, "B3"),         # the dragon's print left beside a curl: B3's right side
    (21152007, "steep", "random", "letter", 1, "D4"),    # a printed diamond left by a steep view: D4's bottom
])
def test_a_side_read_from_ink_joined_to_none_of_the_rooms_path_is_asked_about(seed, condition, map_id, paper, player,
                                                                               room):
    """A side read linked from a piece of ink in its probe that is joined to none of the room's other
    strokes, and crosses the probe only in part: each of these was read wrong and named nowhere. (21152007's
    D4 reads right since the registration carries a steep view's move on to the paper's edge.)"""
    shot = photographer.make_game_shots(seed, players=3, condition=condition, map_id=map_id,
                                        paper=paper)[player - 1]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    scan = scans[0].to_json()
    assert room in _wrong(scan, shot.truth) or seed == 21152007
    assert [w for w in _wrong(scan, shot.truth) if w not in {e["where"] for e in scan["needs_review"]}] == []


@pytest.mark.parametrize("seed, map_id, paper, player", [
    # A crease through the top halves of spaces 2-4 (two thirds down an A4 page): each read filled, sure,
    # and the wrong score named nowhere.
    (63054005, "map6", "a4", 1),
    # Through the bottom halves of a Letter sheet's spaces 1-3, with the top halves filled: asked about.
    (63054011, "map6", "letter", 3)])
def test_a_crease_along_the_curse_track_is_not_read_as_fills(seed, map_id, paper, player):
    scan, truth = _read(seed, map_id, paper, player)
    assert scan["marks"]["curse_track"] == truth["marks"]["curse_track"]
    assert not [entry for entry in scan["needs_review"] if entry["where"].startswith("curse track")]


def test_a_straight_path_down_a_whole_column_is_kept_not_cleared_as_a_crease():
    """Expansion map 6, Letter, good light (game 66650003, player 1): the player's path ran straight down
    column G from its entrance at the top to the one at the bottom, a line across the whole map like a fold's
    crease. Such a line is kept where a path could run (every room of the column open to the next), but
    the column was worked out from the rooms' left edges with a floor that 127.95 - 34.95 mm (92.999...)
    put in column F, whose walls no path crosses: the line was cleared as a crease, and all eight rooms
    of G lost their N and S sides. Now they read as drawn. A room the line crosses from side to side as dark
    as the player's other strokes (a crease is a faint shade) is not asked about: six of the eight (in G3
    and G6 the print hides part of the line)."""
    shot = photographer.make_game_shots(66650003, players=2, condition="good", map_id="map6", paper="letter")[0]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    scan = scans[0].to_json()
    column = [f"G{row}" for row in range(1, 9)]
    assert all("N" in shot.truth["rooms"][name]["exits"] or "S" in shot.truth["rooms"][name]["exits"]
               for name in column)
    assert [name for name in _wrong(scan, shot.truth) if name in column] == []
    assert {entry["where"] for entry in scan["needs_review"]} & set(column) == {"G3", "G6"}


def test_a_straight_path_along_a_row_with_a_gap_is_no_crease():
    """Random map, A4, good light (game 70150001, player 3): the player's path ran along row 4 from the
    entrance on the left to the one on the right, one room short of linking up (E4 a dead end), a line
    across the whole map like a fold's crease. Such a line was kept only where every room of the row is
    open to the next, so it was cleared as a crease and eight rooms lost their sides (asked about, and the
    score wrong). The line is as dark as the player's other strokes all along; a crease is a faint shade.
    Now the rooms read as drawn, and only the two at the gap, where the line does not run from side to
    side, are asked about."""
    shot = photographer.make_game_shots(70150001, players=3, condition="good", map_id="random", paper="a4")[2]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    scan = scans[0].to_json()
    row = {f"{column}4" for column in "ABCDEFGH"}
    assert shot.truth["rooms"]["E4"]["exits"] == "W" and "W" not in shot.truth["rooms"]["F4"]["exits"]
    assert row & set(_wrong(scan, shot.truth)) == set()
    assert row & {entry["where"] for entry in scan["needs_review"]} <= {"E4", "F4"}
