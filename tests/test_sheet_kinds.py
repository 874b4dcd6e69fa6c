"""Each kind of sheet is named once (``sheets.kinds``) and has one row in each layer's table: what a sheet's
QR code says is the kind that printed it, and a photo of a kind the scanner does not read is refused
with a reason."""
import cv2
import pytest

from games.kinds import SCORERS
from games.mapfile import load_map
from games.maker import roll_loot
from generator.kinds import BLANKS, DRAW_PAGE, blank_image
from scanner.load import load_photo_bytes
from scanner.overlays import OVERLAYS
from scanner.scan import READERS, scan_photo
from sheets.dungeon import sheet_layout
from sheets.kinds import KINDS, MAKER, MAP, MONSTER, kind_of
from sheets.maker import maker_layout
from sheets.page import SheetId
from sheets.roster import monster_layout


def test_every_layer_has_a_row_for_the_kinds_it_handles():
    from sheets import maker, roster

    assert (MONSTER.game, MAKER.game) == (roster.GAME, maker.GAME)     # named in kinds too, to import neither
    assert set(DRAW_PAGE) == set(KINDS)
    assert set(READERS) == set(BLANKS) == set(KINDS)          # every kind we print is read back
    assert set(SCORERS) == set(OVERLAYS) == set(KINDS)        # ... scored and drawn over
    assert len({rules.entries for rules in SCORERS.values()}) == len(SCORERS)
    assert len({kind.game for kind in KINDS.values()}) == len(KINDS)


@pytest.mark.parametrize("kind, layout, sheet_id", [
    (MAP, sheet_layout(load_map("map5"), "letter"), lambda layout: layout.sheet_id(2)),
    (MONSTER, monster_layout("a4", 3, 2, 2), lambda layout: layout.sheet_id()),
    (MAKER, maker_layout(roll_loot(1234, 1), "a4"), lambda layout: layout.sheet_id())])
def test_a_sheets_code_names_its_kind_and_rebuilds_its_layout(kind, layout, sheet_id):
    read = SheetId.parse(sheet_id(layout).qr_text())
    assert kind_of(read) is kind
    if kind.layout is not None:
        assert kind.layout(read) == layout
    assert kind.unreadable(read) is None


def test_a_code_of_a_newer_release_says_to_update():
    read = SheetId.parse(sheet_layout(load_map("classic"), "a4").sheet_id(1).qr_text().replace("/L2/", "/L3/"))
    assert MAP.unreadable(read) == "this sheet was printed by a newer release (layout v3): update dungeon-scrawl"


def _photo_of(kind: str, layout):
    """A plain photo of a blank page of one kind: its blank image, as a JPEG a phone might send."""
    grey = blank_image(kind, layout, 6.0)
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))
    return load_photo_bytes(data.tobytes(), f"{kind}.jpg")[0]


def test_a_blank_dungeon_maker_sheet_is_read_as_an_empty_dungeon():
    scans, problems = scan_photo(_photo_of("maker", maker_layout(roll_loot(7, 1), "a4")), BLANKS)
    assert problems == [] and [type(scan).__name__ for scan in scans] == ["MakerScan"]
    entry = scans[0].to_json()
    assert entry["dungeon"]["tiles"] == {} and "entrance" not in entry["dungeon"]
    assert entry["record"]["souls"] == 0 and entry["needs_review"] == []


def test_a_dungeon_maker_sheet_of_the_first_design_says_to_print_new_ones():
    code = maker_layout(roll_loot(7, 1), "a4").sheet_id().qr_text()
    assert "/L3/" in code
    assert MAKER.unreadable(SheetId.parse(code.replace("/L3/", "/L1/"))) == (
        "this Dungeon Maker sheet has no boxes to tick in its tiles, so a camera cannot read it: print new sheets "
        "with 'scrawl loot', or type the dungeon for 'scrawl heroes'")
    assert "newer release" in MAKER.unreadable(SheetId.parse(code.replace("/L3/", "/L4/")))


def test_a_dungeon_maker_sheet_of_the_second_design_is_read_against_its_own_layout():
    """Design 3 printed the same boxes with bigger letters: a design 2 sheet is still read, on its own blank."""
    old = maker_layout(roll_loot(7, 1), "a4", design=2)
    read = SheetId.parse(old.sheet_id().qr_text())
    assert "/L2/" in read.qr_text() and MAKER.unreadable(read) is None
    assert MAKER.layout(read) == old and MAKER.layout(read).design == 2
    scans, problems = scan_photo(_photo_of("maker", old), BLANKS)
    assert problems == [] and scans[0].to_json()["design"] == 2
    assert "design" not in scan_photo(_photo_of("maker", maker_layout(roll_loot(7, 1), "a4")), BLANKS)[0][0].to_json()


def test_a_kind_given_no_renderer_is_refused_and_the_others_still_read():
    """The game-night page reads map sheets only: a monster record sheet sent to it is refused, by name."""
    photo = _photo_of("monster", monster_layout("a4", 1, 1, 1))
    scans, problems = scan_photo(photo, {"map": BLANKS["map"]})
    assert scans == [] and problems == ["this is a monster record sheet; this reads dungeon map sheets only: read "
                                        "it with 'scrawl scan PHOTO'"]
    scans, problems = scan_photo(photo, BLANKS)
    assert problems == [] and [type(scan).__name__ for scan in scans] == ["MonsterScan"]
    assert scans[0].sheet_id.player == 1


def test_monster_sheets_of_the_earlier_design_still_read_and_a_later_one_is_named():
    """Design 1 (no labels in its bubbles) was printed by earlier releases: it reads against its own blank."""
    from sheets import roster
    from sheets.kinds import MONSTER

    for design in roster.DESIGNS:
        sheet_id = roster.monster_layout("a4", 1, design=design).sheet_id()
        assert MONSTER.unreadable(sheet_id) is None and MONSTER.layout(sheet_id).design == design
    later = roster.monster_layout("a4", 1).sheet_id()
    later = type(later)(**{**later.__dict__, "map_version": max(roster.DESIGNS) + 1})
    assert "newer release" in MONSTER.unreadable(later)
