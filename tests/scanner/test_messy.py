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


def test_a_dead_ends_bar_drawn_slanting_over_its_stub_is_asked_about_not_read_as_a_trap():
    """Seed 838 (``scan_accuracy.py --degrade warm``), game 83859000, player 4: A5's dead end from its bottom
    side ended in a bar drawn slanting and hooked back, whose edges slant both ways as an X's arms do. It was
    read as a Trap, sure, named nowhere. Seen from the ink's middle it lies along the room's axes, as a dead
    end's stub and bar do (``CROSSED_AXIS``): it is read as the dead end, and asked about as a possible X."""
    import numpy as np
    from photographer.degrade import degrade_shot

    shots = photographer.make_game_shots(83859000, players=4, condition="messy", map_id="map1", paper="a4")
    rng = np.random.default_rng(83859000)
    shot = [degrade_shot(shot, "warm", rng) for shot in shots][3]
    scans, _ = scan_photo(load_photo_bytes(shot.data, shot.truth["source"])[0], BLANKS)
    scan = scans[0].to_json()
    assert (shot.truth["rooms"]["A5"]["exits"], shot.truth["rooms"]["A5"]["trap"]) == ("S", False)
    assert (scan["rooms"]["A5"]["exits"], scan["rooms"]["A5"]["trap"]) == ("S", False)
    asked = {entry["where"]: entry for entry in scan["needs_review"]}
    assert asked["A5"]["why"] == "a dead end, or a Trap X with an arm near the side?"
    assert asked["A5"]["alternative"] == {"exits": "", "trap": True}
