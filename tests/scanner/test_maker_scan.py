"""A Dungeon Maker sheet read from a picture of the printed page with pen marks drawn on it: the dungeon, the
record and the score it gives, and every doubt and broken rule named.

The marks are drawn here plainly (straight lines, clean ticks) at a known place, so a failure says what the
reader does wrong, not what a camera did; the photographer's hand and camera are measured by
``benchmarks/maker_accuracy.py`` and ``tests/scanner/test_maker_photographer.py``.
"""
import cv2
import pytest

from games.heroes import score_entry
from games.maker import load_maker
from generator.kinds import BLANKS
from scanner.load import load_photo_bytes
from scanner.scan import scan_photo
from tests_support import MakerSheet

INK = MakerSheet.INK


class Sheet(MakerSheet):
    """A printed Dungeon Maker page and a pen (``tests_support.MakerSheet``), read as ``scrawl scan`` reads it."""

    def scan(self) -> dict:
        scans, problems = scan_photo(load_photo_bytes(self.encoded(), "sheet.png")[0], BLANKS)
        assert problems == [] and len(scans) == 1
        return score_entry(scans[0].to_json(), load_maker())


def _free(layout, count: int) -> list[str]:
    return [tile.id for tile in layout.tiles if not tile.items][:count]


def _small_dungeon(sheet: Sheet) -> None:
    """Entrance A1:N, a path A1-B1-C1 with a trap on B1 and the stairs on C1, a slime beside it in C2 and an
    Acid Pond in B2; the Reroll spell, two Souls, one heart crossed, seven rounds."""
    sheet.build("A1", "path")
    sheet.build("B1", "path", "spikes")
    sheet.build("C1", "path", "stairs")
    sheet.build("C2", "slime")
    sheet.build("B2", "acid")
    sheet.link("A1", "B1")
    sheet.link("B1", "C1")
    sheet.out("A1", "N")
    sheet.boxes("spell_reroll", "soul_1", "soul_2", "dungeon_hp_1", *(f"round_{n}" for n in range(1, 8)))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_finished_sheet_reads_to_its_dungeon_and_score(paper):
    sheet = Sheet(seed=5, paper=paper)
    assert set(_free(sheet.layout, 36)) >= {"A1", "B1", "C1", "B2", "C2"}
    _small_dungeon(sheet)
    entry = sheet.scan()
    assert entry["dungeon"]["tiles"] == {"A1": {"path": "NE"}, "B1": {"path": "EW", "on": "spikes"},
                                         "C1": {"path": "W"}, "B2": {"acid": True}, "C2": {"room": "slime"}}
    assert (entry["dungeon"]["entrance"], entry["dungeon"]["stairs"]) == ("A1:N", "C1")
    assert entry["record"] == {"gems": 0, "potions": 0, "spells_got": ["reroll"], "spells_cast": [], "rounds": 7,
                               "souls": 2, "hearts": 1}
    assert entry["needs_review"] == []
    # 20 Coin - 3 paths - trap 2 - slime 3 - pond 2 = 10 left (2 points); slime 1, trap 1, pond 1, one spell
    # unused 1: building 6; 2 Souls +6, one heart -2.
    assert (entry["score"]["coins"], entry["score"]["building"], entry["score"]["total"]) == (10, 6, 10)


def test_each_building_rule_broken_on_the_sheet_is_named():
    sheet = Sheet(seed=5)
    _small_dungeon(sheet)
    sheet.build("D1", "path", "golem")            # a Golem on a path, but the path is not linked: no route there
    sheet.build("E3", "spikes")                   # a trap with no path
    sheet.build("D3", "bridge")                   # a bridge with no pond
    sheet.link("D3", "D4")
    sheet.build("D4", "path")
    sheet.build("F3", "slime", "path")            # a room and a path in one tile
    sheet.link("F3", "F4")
    sheet.build("F4", "path")
    entry = sheet.scan()
    rules = {(doubt["where"], doubt["rule"]) for doubt in entry["needs_review"]}
    assert {("E3", "not_on_path"), ("D3", "bridge_off_acid"), ("F3", "room_fills_tile"),
            ("D1", "unsure_reading")} <= rules, rules
    # Coin: 20 - 10 (the small dungeon) - D1 1+8, E3 2, D3 2, D4 1, F3 3+1, F4 1 = -9: spent what it did not have
    assert ("Coin", "overspent") in rules
    assert entry["score"]["coins"] == 0


def test_a_doubtful_tick_and_a_stray_line_are_named_not_guessed():
    sheet = Sheet(seed=5)
    _small_dungeon(sheet)
    free = [name for name in _free(sheet.layout, 36) if name[0] in "EF" and name[1] != "1"]
    line = next((f"E{row}", f"F{row}") for row in "23456" if {f"E{row}", f"F{row}"} <= set(free))
    dot = next(name for name in free if name not in line)
    box = sheet.layout.tile(dot).mark("ghost")
    cv2.circle(sheet.image, sheet._p(*box.centre), 4, INK, -1)        # a dot in the Ghost's box: a tick?
    sheet.link(*line)                             # a line through two tiles with nothing ticked
    entry = sheet.scan()
    named = {}
    for doubt in entry["needs_review"]:
        named.setdefault(doubt["where"], []).append(doubt)
    assert any("no Path is ticked" in doubt["why"] for doubt in named[line[0]])
    assert [doubt["rule"] for doubt in named[dot]] == ["unsure_mark"] and "Ghost" in named[dot][0]["why"]


def test_a_line_through_a_tile_whose_gate_is_ticked_but_not_its_path_reads_as_a_path_and_is_asked_about():
    """A Gate goes on a path: with the lines through the tile's sides, they say the Path's tick is the one
    missing (glare washed out its box on sheet 8910502 of seed 891; E2's Gate was read with no path, the
    score two off). Read as a path through those sides, and asked about; a line with nothing ticked that
    goes on a path is still read as no path."""
    sheet = Sheet(seed=5)
    _small_dungeon(sheet)
    sheet.build("D1", "gate")                     # a Gate ticked, its Path's tick missing
    sheet.link("C1", "D1")
    entry = sheet.scan()
    assert entry["dungeon"]["tiles"]["D1"] == {"path": "W", "on": "gate"}
    assert entry["dungeon"]["tiles"]["C1"] == {"path": "EW"}
    asked = [doubt["why"] for doubt in entry["needs_review"] if doubt["where"] == "D1"]
    assert asked == ["a line runs through D1's W side and Gate goes on a path, but no Path is ticked there: "
                     "read as a path"]


def _faint_tick(sheet: Sheet, box) -> None:
    """A tick a hair's width wide: about 8% of the box inked, between a clear tick and an empty box."""
    corner = sheet._p(box.x + box.w * 0.4, box.bottom - 0.6)
    cv2.line(sheet.image, sheet._p(box.x + 0.6, box.y + box.h * 0.55), corner, INK, 1)
    cv2.line(sheet.image, corner, sheet._p(box.right - 0.4, box.y + 0.5), INK, 1)


def _dot(sheet: Sheet, box) -> None:
    """A dot of ink: about 3% of the box, less than half a faint tick."""
    cv2.circle(sheet.image, sheet._p(*box.centre), 3, INK, -1)


@pytest.mark.parametrize("mark, box, asked", [(_faint_tick, 4, False), (_dot, 4, False), (_faint_tick, 7, True)])
def test_a_faint_round_box_before_a_clearly_crossed_one_is_read_crossed_off(mark, box, asked):
    """Rounds are crossed off in order: a faint tick (read ticked, but asked about) or a dot (read empty, asked
    about: 6 rounds for 7) in round box 4, with boxes 5-7 clearly ticked after it, is read as crossed off and
    not asked about (the rounds change no score: the question only lengthened the list). A faint tick in the
    last box crossed, with nothing clear after it, still is."""
    sheet = Sheet(seed=5)
    sheet.boxes(*(f"round_{n}" for n in range(1, 8) if n != box))
    mark(sheet, sheet.layout.boxes[f"round_{box}"])
    entry = sheet.scan()
    assert entry["record"]["rounds"] == 7
    assert any(doubt["where"] == "round" and f"round box {box}" in doubt["why"]
               for doubt in entry["needs_review"]) == asked


def test_two_entrances_and_no_stairs_are_named():
    sheet = Sheet(seed=5)
    sheet.build("A1", "path")
    sheet.out("A1", "N")
    sheet.out("A1", "W")
    entry = sheet.scan()
    rules = {doubt["rule"] for doubt in entry["needs_review"]}
    assert "no_stairs" in rules and "stairs" not in entry["dungeon"]
    assert entry["dungeon"]["entrance"] == "A1:N"
    assert any("which is the entrance" in doubt["why"] for doubt in entry["needs_review"])
    assert "path_off_grid" in rules            # the second way out of the grid breaks a rule too


def test_scrawl_scan_and_heroes_take_a_photo_of_the_sheet(tmp_path, capsys):
    from tests_support import run_cli

    sheet = Sheet(seed=5)
    _small_dungeon(sheet)
    photo = tmp_path / "dungeon.png"
    cv2.imwrite(str(photo), cv2.cvtColor(sheet.image, cv2.COLOR_RGB2BGR))
    code, out, err = run_cli(capsys, "scan", photo, "--overlay", tmp_path / "over")
    assert code == 0, err
    assert "Dungeon Maker sheet: 10 points" in out and "entrance A1:N, stairs C1" in out
    overlay = cv2.imread(str(tmp_path / "over" / "dungeon.overlay.png"))
    assert overlay is not None and overlay.shape[1] == round(sheet.layout.width * 5)
    code, out, err = run_cli(capsys, "heroes", photo, "--seed", 3)
    assert code == 0, err
    assert "Route: A1 B1 C1 (3 tiles)" in out and "Hero phase, seed 3" in out


def test_scrawl_heroes_refuses_a_sheet_with_no_entrance_saying_what_to_check(tmp_path, capsys):
    from tests_support import run_cli

    sheet = Sheet(seed=5)
    sheet.build("A1", "path", "stairs")
    photo = tmp_path / "half.png"
    cv2.imwrite(str(photo), cv2.cvtColor(sheet.image, cv2.COLOR_RGB2BGR))
    code, out, err = run_cli(capsys, "heroes", photo)
    assert code == 2
    assert f"scrawl: error: {photo}: no entrance read on the sheet, so no hero can walk it" in err
    assert "Traceback" not in err
