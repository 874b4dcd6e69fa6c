"""A Trap X read as a path linked to nothing around it: asked about as a Trap, so that the sheets whose
paths went through its room are told their score hangs on it."""
import photographer
from scrawl.service import scan_game


def _dim_game(game: int, folder):
    """A four-player game on map 3 photographed in dim light, scanned together as ``scrawl scan`` does: its
    shots, and its scored sheets by player."""
    shots = photographer.make_game_shots(game, players=4, condition="dim", map_id="map3", paper="a4")
    paths = [str(p) for p in photographer.write_shots(shots, folder) if not p.name.endswith(".json")]
    return shots, {sheet["player"]: sheet for sheet in scan_game(paths, jobs=1).scored["sheets"]}


def test_an_x_read_as_a_lone_corner_is_asked_about_and_the_sheets_it_would_hit_are_flagged(tmp_path):
    """Seed 726 (game 72657002, dim): player 4's Trap in C5, one arm leaning steeply, was read as a corner
    path to the right and bottom sides, named only as a segment linked to nothing. Players 1 and 3, whose
    paths went through C5, lost its hit: 12 and 18 points for 9 and 15, named nowhere."""
    shots, sheets = _dim_game(72657002, tmp_path)
    assert shots[3].truth["rooms"]["C5"]["trap"]
    assert [entry["alternative"] for entry in sheets[4]["needs_review"] if entry["where"] == "C5"
            and "Trap X" in entry["why"]] == [{"exits": "", "trap": True}]
    for player, truly in ((1, 9), (3, 15)):
        asked = [entry for entry in sheets[player]["needs_review"] if entry["where"] == "C5"]
        assert [entry["rule"] for entry in asked] == ["other_sheet_unsure"]
        assert f"{truly} points, not {sheets[player]['score']['total']}" in asked[0]["why"]


def test_a_little_unclear_ink_in_a_dim_photo_is_read_as_no_trap_and_asked_about(tmp_path):
    """Seed 783 (game 78357002, dim): player 4's C1 holds only its printed Loot bag, which the dim photo
    shows darker than the blank, in pieces: 2.8 mm² of ink, neither a path nor an X. It was read as a Trap
    (asked about), and the Trap hit players 1 and 3, whose paths ran through C1: three sheets scored wrong.
    So little ink is read as no Trap, still asked about. Player 4 drew every Trap of the game elsewhere,
    surely, so none can hide in C1: the other sheets are not asked about it."""
    shots, sheets = _dim_game(78357002, tmp_path)
    assert not shots[3].truth["rooms"].get("C1", {}).get("trap")
    assert sheets[4]["rooms"].get("C1", {}).get("trap", False) is False
    # Read without the dim photo's noisy blue channel (``scanner.ink.CHANNEL_LEAST``), the print's pieces
    # hardly show as ink and C1 is read empty outright; where it is asked about, it is for this reason.
    assert all("neither a clear path nor a clear X" in entry["why"] for entry in sheets[4]["needs_review"]
               if entry["where"] == "C1")
    for player, truly in ((1, 18), (3, 20)):
        assert sheets[player]["score"]["total"] == truly
        assert not [entry for entry in sheets[player]["needs_review"] if entry["where"] == "C1"]
