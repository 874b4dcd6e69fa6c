"""The synthetic photographer makes the photos it says, of the sheets it says, the same every time."""
import io
import json
from dataclasses import replace

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

import photographer
from games.board import Board, Drawing
from games.maps import STEP, Room
from sheets.dungeon import sheet_layout
from sheets.page import Rect
from photographer import Camera, camera_for, encode, hand_style, ink_sheet, photograph, place_camera
from scanner.locate import find_markers

PPM = photographer.PX_PER_MM


@pytest.fixture(scope="module")
def layout(classic):
    return sheet_layout(classic, "a4")


@pytest.fixture(scope="module")
def blank(layout):
    return photographer.blank_sheet(layout, 1)


@pytest.fixture(scope="module")
def shots():
    return photographer.make_game_shots(5, players=3, difficulty="medium", megapixels=3.0, keep_photos=True)


def decode(data: bytes) -> np.ndarray:
    return np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB"))


def marker_corners(layout, mapping) -> dict[int, np.ndarray]:
    return {m.id: mapping([(m.rect.x, m.rect.y), (m.rect.right, m.rect.y), (m.rect.right, m.rect.bottom),
                           (m.rect.x, m.rect.bottom)]) for m in layout.markers}


# -- the game and its truth ---------------------------------------------------------------------------------

def test_truth_is_the_played_board(shots, classic):
    boards = photographer.play_game(classic, 5, 3)
    assert [s.truth["player"] for s in shots] == [1, 2, 3]
    for shot, board in zip(shots, boards):
        truth = shot.truth
        assert truth["rooms"] == board.rooms_json() and truth["unusable"] == board.unusable
        assert truth["map"] == {"id": "classic", "seed": None}
        assert truth["source"] == shot.name + shot.suffix and truth["difficulty"] == "medium"
        assert truth["camera"]["kind"] == "phone" and truth["hand"]["pen"] in photographer.hand.PENS
        assert 0 <= truth["written"]["trap_tally"] <= truth["written"]["trap_hits"]
    assert any(s.truth["rooms"] for s in shots)


def test_same_seed_same_bytes_other_seed_other_bytes():
    first = photographer.make_game_shots(11, players=1, difficulty="hard", megapixels=2.0)
    again = photographer.make_game_shots(11, players=1, difficulty="hard", megapixels=2.0)
    other = photographer.make_game_shots(12, players=1, difficulty="hard", megapixels=2.0)
    assert first[0].data == again[0].data and first[0].truth == again[0].truth
    assert first[0].data != other[0].data


def test_decoded_photo_is_the_camera_size(shots):
    for shot in shots:
        camera = shot.truth["camera"]
        image = decode(shot.data)
        assert image.shape == (camera["height"], camera["width"], 3)
        assert image.shape == shot.photo.shape
        assert shot.suffix == photographer.camera.FORMATS[camera["fmt"]]
        assert cv2.absdiff(image, shot.photo).mean() < 6      # only the file's compression apart


def test_write_shots_writes_photos_and_truth(shots, tmp_path):
    paths = photographer.write_shots(shots, tmp_path / "out")
    assert [p.name for p in paths] == [s.truth["source"] for s in shots]
    for path, shot in zip(paths, shots):
        assert path.read_bytes() == shot.data
        assert json.loads(path.with_name(shot.name + ".truth.json").read_text()) == shot.truth


def test_degraded_shots_are_the_same_photo_degraded_as_asked(shots):
    from photographer.degrade import degrade_shot, parse

    def sharpness(image):
        return cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), cv2.CV_32F).var()

    rng = np.random.default_rng(1)
    shot = shots[0]
    blurred, small, warm = (degrade_shot(shot, spec, rng) for spec in ("blur:3", "small:1", "warm"))
    assert blurred.suffix == ".jpg" and blurred.truth["source"].endswith(".jpg")
    assert blurred.truth["degraded"] == "blur:3" and blurred.truth["rooms"] == shot.truth["rooms"]
    assert decode(blurred.data).shape == shot.photo.shape
    assert sharpness(decode(blurred.data)) < sharpness(shot.photo) / 4
    assert 0.95e6 < np.prod(decode(small.data).shape[:2]) <= 1.0e6
    paper = decode(warm.data).reshape(-1, 3).astype(float).mean(axis=0)
    assert paper[2] < 0.7 * paper[0]                          # blue well below red: a tungsten cast
    with pytest.raises(ValueError, match="unknown degradation 'fog'"):
        parse("fog:2")


# -- the hand ---------------------------------------------------------------------------------------------

def ink_difference(inked, blank, rect, inset):
    """Largest change of any channel inside ``rect`` shrunk by ``inset`` millimetres."""
    x0, y0 = int((rect.x + inset) * PPM), int((rect.y + inset) * PPM)
    x1, y1 = int((rect.right - inset) * PPM), int((rect.bottom - inset) * PPM)
    return int(np.abs(inked[y0:y1, x0:x1].astype(int) - blank[y0:y1, x0:x1]).max())


@pytest.mark.parametrize("pen", ["black", "blue", "red", "pencil"])
def test_ink_is_in_the_drawn_rooms_and_nowhere_else_on_the_grid(layout, blank, classic, pen):
    rng = np.random.default_rng(3)
    board = photographer.play_game(classic, 21, 2)[1]
    inked = ink_sheet(blank, layout, board, PPM, hand_style(rng, pen), rng, trap_hits=2, write_scores=True)
    assert inked.shape == blank.shape and not np.shares_memory(inked, blank)
    for cell in layout.rooms:
        change = ink_difference(inked, blank, cell.rect, 3.5)
        if board.at(cell.room).empty:
            assert change == 0, f"ink in empty room {cell.room}"
        else:
            assert change > 40, f"no ink in {cell.room}"


def near_side(inked, blank, cell, side):
    """Ink change in a small box 2-4 mm inside ``side``, across its midpoint."""
    mx, my = cell.side_midpoint(side)
    dc, dr = STEP[side]
    cx, cy = mx - dc * 3.0, my - dr * 3.0
    half_along, half_across = 1.0, 1.2
    w, h = (half_along, half_across) if dc else (half_across, half_along)
    return ink_difference(inked, blank, Rect(cx - w, cy - h, 2 * w, 2 * h), 0.0)


def test_segments_reach_their_exit_sides_only(layout, blank, classic):
    """Ink crosses the midpoint of every exit side, and of no other side (the N side is left
    out of the second check: a round number may lean that far)."""
    rng = np.random.default_rng(8)
    board = photographer.play_game(classic, 33, 1)[0]
    inked = ink_sheet(blank, layout, board, PPM, hand_style(rng, "black", tool="ballpoint", neat=True), rng)
    checked = 0
    for room, drawing in board:
        if not drawing.entered:
            continue
        cell = layout.room_cell(room.name)
        for side in "NESW":
            if side in drawing.exits:
                assert near_side(inked, blank, cell, side) > 60, f"{room} {side}"
            elif side != "N" and "NESW"["NESW".index(side) ^ 2] not in board.at(room.neighbour(side)).exits:
                assert near_side(inked, blank, cell, side) == 0, f"{room} {side}"
            checked += 1
    assert checked > 40


def count_marks(inked, blank, box):
    x0, y0, x1, y1 = (int(v * PPM) for v in (box.x - 1, box.y - 1, box.right + 1, box.bottom + 1))
    ink = (np.abs(inked[y0:y1, x0:x1].astype(int) - blank[y0:y1, x0:x1]).max(axis=2) > 60).astype(np.uint8)
    return cv2.connectedComponents(ink)[0] - 1


@pytest.mark.parametrize("tallies", [0, 3, 7])
def test_tally_marks_count_the_lost_segments(layout, blank, tallies):
    rng = np.random.default_rng(tallies)
    board = Board({Room.parse("C1"): Drawing.segment("NS", 1)}, unusable=tallies)
    inked = ink_sheet(blank, layout, board, PPM, hand_style(rng, "blue", tool="marker"), rng, name=False)
    assert count_marks(inked, blank, layout.unusable_tally) == tallies // 5 + tallies % 5
    assert count_marks(inked, blank, layout.score_line(7).tally) == 0
    inked = ink_sheet(blank, layout, board, PPM, hand_style(rng, "blue", tool="marker"), rng, trap_hits=2,
                      name=False)
    assert count_marks(inked, blank, layout.score_line(7).tally) == 2


# -- the camera ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def inked(layout, blank, classic):
    rng = np.random.default_rng(1)
    board = photographer.play_game(classic, 5, 1)[0]
    return ink_sheet(blank, layout, board, PPM, hand_style(rng, "blue", tool="marker"), rng, write_scores=True)


@pytest.mark.parametrize("camera", [
    replace(Camera(), width=2400, height=1800, exif_orientation=6, jpeg_quality=88),
    replace(Camera(), width=1800, height=2400, fill=0.5, rotation_deg=183, tilt_deg=10, tilt_axis_deg=40,
            place_x=0.1, place_y=0.9, curl_mm=3, curl_side="E", blur_px=0.5, noise=2),
    replace(Camera(), width=2400, height=1800, fill=0.45, rotation_deg=70, tilt_deg=35, tilt_axis_deg=120,
            curl_mm=5, curl_side="V", gradient=0.4, table="dark-cloth", blur_px=1.0, noise=4, jpeg_quality=70),
], ids=["easy-sideways-phone", "upside-down-curled", "tilt-35"])
def test_markers_are_found_where_the_mapping_puts_them(layout, inked, camera):
    photo, mapping = photograph(inked, PPM, camera, np.random.default_rng(2), layout=layout, return_mapping=True)
    assert photo.shape == (camera.height, camera.width, 3) and photo.dtype == np.uint8
    image = decode(encode(photo, camera)[0])
    found = find_markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in marker_corners(layout, mapping).items():
        assert np.abs(found[marker_id] - corners).max() < 2.0, f"marker {marker_id}"


def test_an_easy_photo_from_camera_for_shows_all_markers(layout, inked):
    rng = np.random.default_rng(4)
    camera = replace(camera_for("easy", rng), width=2048, height=1536, fmt="jpeg")
    photo, mapping = photograph(inked, PPM, camera, rng, layout=layout, return_mapping=True)
    found = find_markers(decode(encode(photo, camera)[0]))
    assert sorted(found) == [0, 1, 2, 3]
    assert all(np.abs(found[i] - c).max() < 2.0 for i, c in marker_corners(layout, mapping).items())


def test_the_mapping_round_trips_and_the_sheet_fills_what_the_camera_says(layout):
    camera = replace(Camera(), fill=0.5, rotation_deg=100, tilt_deg=30, tilt_axis_deg=200, curl_mm=6, curl_side="N")
    pinhole, fill = place_camera(camera, (layout.width, layout.height))
    assert fill == pytest.approx(0.5, abs=0.005)
    assert place_camera(replace(camera, rotation_deg=45, fill=0.9), (layout.width, layout.height))[1] < 0.5
    points = np.array([(5.0, 5.0), (105.0, 150.0), (200.0, 290.0), (20.0, 10.0)])
    u, v = pinhole.to_photo(points).T
    x, y = pinhole.to_paper(u, v, steps=12)
    assert np.abs(np.column_stack([x, y]) - points).max() < 0.05
    outline = pinhole.outline()
    assert (outline.min(axis=0) > 0).all() and (outline.max(axis=0) < [camera.width, camera.height]).all()


@pytest.mark.parametrize("difficulty", photographer.DIFFICULTIES)
def test_camera_for_keeps_to_its_difficulty(difficulty):
    rng = np.random.default_rng(9)
    limits = {"easy": (6, 0.6, 10, 0.5, 2, 85), "medium": (3, 0.45, 25, 1.0, 4, 75),
              "hard": (2, 0.35, 35, 1.5, 6, 60)}[difficulty]
    low_mp, low_fill, tilt, blur, noise, quality = limits
    cameras = [camera_for(difficulty, rng) for _ in range(40)]
    for camera in cameras:
        assert low_mp * 0.98e6 <= camera.width * camera.height <= 12e6
        assert camera.fill >= low_fill - 0.01 and camera.tilt_deg <= tilt
        assert camera.blur_px <= blur and camera.noise <= noise and camera.jpeg_quality >= quality
        assert place_camera(camera, (210.0, 297.0))[0].curl_shift_mm() <= 3.01
        assert camera.exif_orientation in (1, 3, 6, 8) and camera.fmt in photographer.camera.FORMATS
    assert {c.width > c.height for c in cameras} == {True, False}
    assert any(c.exif_orientation != 1 for c in cameras)
    if difficulty == "easy":
        assert not any(c.shadow for c in cameras)
        hands = [photographer.hand_for("easy", rng) for _ in range(20)]
        assert {(h.pen, h.tool) for h in hands} <= {("black", "marker"), ("blue", "marker")}
    else:
        assert any(c.shadow for c in cameras)


def test_a_medium_shadow_keeps_off_the_markers_and_the_grid(layout, inked):
    camera = replace(Camera(), width=1600, height=1200, fill=0.6, rotation_deg=90, shadow_strength=0.6,
                     shadow_over="margin")
    dark = photograph(inked, PPM, replace(camera, shadow=True), np.random.default_rng(5), layout=layout)
    plain, mapping = photograph(inked, PPM, camera, np.random.default_rng(5), layout=layout, return_mapping=True)
    shade = plain.astype(int).sum(axis=2) - dark.astype(int).sum(axis=2)
    keep = np.zeros(shade.shape, np.uint8)
    for corners in marker_corners(layout, mapping).values():
        cv2.fillPoly(keep, [np.round(corners).astype(np.int32)], 1)
    g = layout.grid
    cv2.fillPoly(keep, [np.round(mapping([(g.x, g.y), (g.right, g.y), (g.right, g.bottom), (g.x, g.bottom)]))
                        .astype(np.int32)], 1)
    assert (shade > 30).sum() > 0.02 * shade.size          # there is a shadow ...
    assert shade[keep > 0].max() <= 3                      # ... but not over the markers or the grid


# -- the files ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def small_photo():
    """A small photo that looks different turned any way: a dark top-left corner and a red bar."""
    photo = np.full((120, 200, 3), 230, np.uint8)
    photo[:30, :50] = 20
    photo[90:, 120:] = (200, 30, 30)
    return photo


@pytest.mark.parametrize("fmt", ["jpeg", "png", "webp"])
@pytest.mark.parametrize("orientation", [1, 3, 6, 8])
def test_exif_orientation_round_trips(small_photo, fmt, orientation):
    data, suffix = encode(small_photo, replace(Camera(), fmt=fmt, exif_orientation=orientation, jpeg_quality=95))
    stored = Image.open(io.BytesIO(data))
    assert stored.size == ((120, 200) if orientation in (6, 8) else (200, 120))
    assert stored.getexif().get(0x0112, 1) == orientation
    assert np.abs(decode(data).astype(int) - small_photo).mean() < 3


def test_heic_opens_with_pil(small_photo):
    pillow_heif = pytest.importorskip("pillow_heif")
    pillow_heif.register_heif_opener()
    data, suffix = encode(small_photo, replace(Camera(), fmt="heic", exif_orientation=6))
    assert suffix == ".heic"
    image = decode(data)
    assert image.shape == small_photo.shape and np.abs(image.astype(int) - small_photo).mean() < 6


def test_a_scan_is_upright_evenly_lit_and_finds_its_markers(layout, inked):
    scan = photographer.Scan(dpi=200, skew_deg=1.5, shift_x_mm=1.0, shift_y_mm=-1.0, fmt="png")
    image, mapping = photographer.scan_like(inked, PPM, 200, np.random.default_rng(1), scan=scan,
                                            return_mapping=True)
    assert image.shape[:2] == (round(297 * 200 / 25.4), round(210 * 200 / 25.4))
    found = find_markers(decode(encode(image, scan)[0]))
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in marker_corners(layout, mapping).items():
        assert np.abs(found[marker_id] - corners).max() < 1.5
    top = found[1][0] - found[0][0]
    assert abs(np.degrees(np.arctan2(top[1], top[0]))) < 2


def test_the_command_line_writes_a_game(tmp_path, capsys):
    from photographer.__main__ import main

    assert main(["--seed", "4", "--players", "1", "--difficulty", "easy", "--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == 2 and written[1] == "game4-classic-p1-easy.truth.json"
    assert capsys.readouterr().out.strip().endswith(written[0])


def test_with_megapixels_keeps_the_frame_shape():
    camera = photographer.with_megapixels(replace(Camera(), width=3000, height=4000), 2.0)
    assert 1.9e6 < camera.width * camera.height <= 2.0e6 and camera.width % 8 == 0
    assert camera.height / camera.width == pytest.approx(4 / 3, rel=0.01)
