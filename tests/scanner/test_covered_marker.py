"""A sheet one of whose corner markers cannot be read (glare on it, a thumb, a sticker, a corner folded back)
is placed by the other three: their twelve corners fit the page as the sixteen do. It used to be refused
("only 3 of 4 corner markers visible"). A marker outside the photo, or two covered, is still refused, and so is
a sheet that another sheet lies over (what covers it would be read as its own)."""
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageOps

from photographer.degrade import cover_marker
from tests_support import run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "photos"
CORNERS = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}


def _photo(name: str, tmp_path: Path, *covered: int) -> str:
    image = np.asarray(ImageOps.exif_transpose(Image.open(SAMPLES / name)).convert("RGB"))
    for marker in covered:
        image = cover_marker(image, marker)
    path = tmp_path / f"{Path(name).stem}-covered-{'-'.join(map(str, covered))}.jpg"
    Image.fromarray(image).save(path, quality=92)
    return str(path)


def _scan(capsys, path: str) -> tuple[int, dict, str]:
    code, out, err = run_cli(capsys, "scan", path, "--json")
    return code, (json.loads(out) if out else {}), err


@pytest.fixture(scope="module")
def uncovered():
    """Each sample's reading with all four markers (read once)."""
    return {}


def _both(capsys, uncovered: dict, name: str, tmp_path: Path, key: str, marker: int) -> tuple[dict, dict]:
    """The sample's one sheet (of ``key``: "sheets", "dungeons", "rosters") read with ``marker`` covered, and
    read with all four (read once per sample); the covered photo is read without an error."""
    if name not in uncovered:
        _, document, _ = _scan(capsys, str(SAMPLES / name))
        uncovered[name] = document[key][0]
    _, document, err = _scan(capsys, _photo(name, tmp_path, marker))
    assert not document.get("errors"), err
    read, = document[key]
    return read, uncovered[name]


@pytest.mark.parametrize("marker", sorted(CORNERS))
def test_a_map_sheet_with_a_corner_marker_covered_reads_as_with_all_four(capsys, tmp_path, uncovered, marker):
    sheet, whole = _both(capsys, uncovered, "game7-classic-p1-medium.jpg", tmp_path, "sheets", marker)
    assert {room: (entry["exits"], entry["trap"]) for room, entry in sheet["rooms"].items()} == \
        {room: (entry["exits"], entry["trap"]) for room, entry in whole["rooms"].items()}
    assert sheet["score"]["total"] == whole["score"]["total"]
    assert [entry["where"] for entry in sheet["needs_review"]] == [entry["where"] for entry in whole["needs_review"]]


@pytest.mark.parametrize("marker", sorted(CORNERS))
def test_a_dungeon_maker_sheet_with_a_corner_marker_covered_reads_as_with_all_four(capsys, tmp_path, uncovered,
                                                                                    marker):
    dungeon, whole = _both(capsys, uncovered, "maker-21.jpg", tmp_path, "dungeons", marker)
    assert dungeon["dungeon"] == whole["dungeon"]
    assert dungeon["score"]["total"] == whole["score"]["total"]


@pytest.mark.parametrize("marker", [0, 2])
def test_a_monster_sheet_with_a_corner_marker_covered_reads_as_with_all_four(capsys, tmp_path, uncovered, marker):
    roster, whole = _both(capsys, uncovered, "monsters11-p1-medium.jpg", tmp_path, "rosters", marker)
    assert roster["roster"] == whole["roster"]


def test_two_corner_markers_covered_is_still_one_line_and_exit_2(capsys, tmp_path):
    path = _photo("game7-classic-p1-medium.jpg", tmp_path, 2, 3)
    code, out, err = run_cli(capsys, "scan", path)
    assert code == 2 and out == ""
    assert "only 2 of 4 corner markers visible (missing: bottom-right, bottom-left): keep the whole sheet in the " \
           "frame, nothing covering its corners" in err
    assert len(err.strip().splitlines()) == 1


def test_a_sheet_of_three_markers_another_sheet_lies_over_is_not_read():
    """Its fourth marker is hidden by the sheet on top, whose marker lies inside it: not read by three."""
    from scanner.load import load_photos
    from scanner.locate import _covered_marker, find_sheets

    photo = load_photos(SAMPLES / "game7-classic-p1-medium.jpg")[0]
    (frame,), _ = find_sheets(photo.image)
    three = {marker: quad for marker, quad in frame.markers.items() if marker != 2}
    assert _covered_marker(photo.image.shape[:2], three, [three])
    centre = np.mean([quad.mean(axis=0) for quad in frame.markers.values()], axis=0)
    on_top = {0: frame.markers[0] - frame.markers[0].mean(axis=0) + centre}      # a marker of a sheet over it
    assert not _covered_marker(photo.image.shape[:2], three, [three, on_top])
