"""Map sheets drawn by a messy hand and photographed (the photographer's ``messy`` condition): rooms read
wrong on such photos and named nowhere, each read as drawn now."""
import photographer
from generator.kinds import BLANKS
from scanner.load import load_photo_bytes
from scanner.scan import scan_photo


def test_a_path_drawn_wavy_is_read_as_drawn_not_as_a_trap():
    """Seed 724 (game 72459000, player 3): H5's path from top to bottom zigzagged, its strokes slanting
    both ways like an X's arms; it was read as a Trap, sure, and its segment's rooms as unlinked."""
    shot = photographer.make_game_shots(72459000, players=4, condition="messy", map_id="map1", paper="a4")[2]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    scan = scans[0].to_json()
    assert shot.truth["rooms"]["H5"]["exits"] == "NS"
    assert (scan["rooms"]["H5"]["exits"], scan["rooms"]["H5"]["trap"]) == ("NS", False)
    assert not [entry for entry in scan["needs_review"] if entry["rule"] == "unlinked"]
