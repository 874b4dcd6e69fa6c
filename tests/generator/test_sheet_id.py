"""The QR code's text: short for maps this release can rebuild, the whole map for maps it cannot."""
from dataclasses import replace

import pytest

from games.mapcode import encode_map
from games.mapfile import load_map
from games.randommap import random_map
from sheets.dungeon import sheet_layout
from sheets.page import SheetId
from tests_support import TINY_MAP

# Designed maps are frozen once printed: a change makes a new map id, never a new classic.
CLASSIC_CODE = "C54BCCUQQIEJCKCZBAASEYAYQEASDAICNLKWOC34JFZGMG4VDEFQ"


def test_the_classic_map_is_frozen(classic):
    assert encode_map(classic) == CLASSIC_CODE


def test_designed_and_random_maps_travel_by_name(classic):
    sheet = sheet_layout(classic, "a4").sheet_id(3)
    assert sheet.qr_text() == f"DS/L2/DOODLES/A4/P3/CLASSIC/{sheet.check}"      # L2: the sheet's design
    back = SheetId.parse(sheet.qr_text())
    assert back == sheet and back.dungeon() == classic
    sheet = sheet_layout(random_map(987654), "letter").sheet_id(4)
    assert sheet.qr_text() == f"DS/L2/DOODLES/LETTER/P4/RANDOM.1.987654/{sheet.check}"
    assert len(sheet.qr_text()) <= 45
    assert SheetId.parse(sheet.qr_text()).dungeon() == random_map(987654)


def test_a_sheet_of_the_earlier_design_reads_against_its_own_blank_and_a_later_one_is_named(classic):
    """Design 1 sheets (printed by earlier releases: the die's skull, monster C a skull, badges on the art)
    are read against a blank of their own design; the geometry of a map without expansion elements is the
    same in both."""
    from sheets.kinds import MAP

    old = SheetId.parse(sheet_layout(classic, "a4", design=1).sheet_id(1).qr_text())
    assert old.layout_version == 1 and MAP.unreadable(old) is None
    layout = MAP.layout(old)
    assert layout.design == 1 and layout.symbol_key is None
    assert layout.grid == sheet_layout(classic, "a4").grid
    later = replace(old, layout_version=3)
    assert "newer release" in MAP.unreadable(later)


def test_a_map_of_your_own_travels_whole(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_MAP)
    tiny = load_map(path)
    text = sheet_layout(tiny, "a4").sheet_id(1).qr_text()
    assert text.endswith("/" + encode_map(tiny))
    back = SheetId.parse(text).dungeon()
    assert (back.walls, back.entries, back.items) == (tiny.walls, tiny.entries, tiny.items)


def test_an_edited_copy_of_a_designed_map_is_not_mistaken_for_it(classic):
    edited = replace(classic, walls=classic.walls - {next(iter(sorted(classic.walls, key=sorted)))})
    sheet = sheet_layout(edited, "a4").sheet_id(1)
    assert sheet.map_code == encode_map(edited)
    assert SheetId.parse(sheet.qr_text()).dungeon() == replace(edited, name="classic")


def test_codes_that_cannot_be_trusted_say_why(classic):
    good = sheet_layout(classic, "a4").sheet_id(1)
    wrong_check = replace(good, check="AAAA" if good.check != "AAAA" else "BBBB")
    with pytest.raises(ValueError, match="different map 'classic'"):
        SheetId.parse(wrong_check.qr_text()).dungeon()
    with pytest.raises(ValueError, match="not one this release knows"):
        SheetId.parse(replace(good, map_id="lost-caves").qr_text()).dungeon()
    for foreign in ("https://example.com/menu", "DS/L1/DOODLES/A4", "DS/L1/DOODLES/A5/P1/CLASSIC/AAAA",
                    "DS/LX/DOODLES/A4/P1/CLASSIC/AAAA"):
        with pytest.raises(ValueError, match="sheet code"):
            SheetId.parse(foreign)
