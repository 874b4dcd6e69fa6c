"""scrawl scan: photos of finished sheets in, readings and scores out, and a reason for every photo it cannot read.

The sample photos in samples/photos were made by the synthetic photographer
(photographer/); their expected documents hold what is really drawn.
"""
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests_support import run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "photos"
GAME7 = sorted(str(p) for p in SAMPLES.glob("game7-*") if ".json" not in p.name)
GAME8 = sorted(str(p) for p in SAMPLES.glob("game8-*") if ".json" not in p.name)


def expected(name: str) -> dict:
    """The true sheets of a sample game, by photo file name."""
    return {Path(s["source"]).name: s for s in json.loads((SAMPLES / name).read_text())["sheets"]}


def drawn(rooms: dict) -> dict:
    """Room -> (exits, trap): what decides the score."""
    return {room: (entry["exits"], entry["trap"]) for room, entry in rooms.items()}


def scan_json(capsys, *args) -> tuple[int, dict, str]:
    code, out, err = run_cli(capsys, "scan", *args, "--json")
    return code, json.loads(out), err


@pytest.fixture(scope="module")
def game7(tmp_path_factory):
    """The three photos of sample game 7 (two JPEGs and an iPhone HEIC), scanned in one call."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "scrawl.cli", "scan", *GAME7, "--json"], capture_output=True,
                         text=True)
    return run.returncode, json.loads(run.stdout)


def test_sample_game_reads_every_room_and_tally(game7):
    code, document = game7
    truth = expected("game-7-medium.expected.json")
    assert [s["source"] for s in document["sheets"]] == GAME7 and document["errors"] == []
    for sheet in document["sheets"]:
        true = truth[Path(sheet["source"]).name]
        assert drawn(sheet["rooms"]) == drawn(true["rooms"]), sheet["source"]
        assert sheet["unusable"] == true["unusable"]
        assert sheet["player"] == true["player"] and sheet["map"] == {"id": "classic", "seed": None}


def test_sample_game_scores_as_a_careful_person_would(game7):
    code, document = game7
    truth = expected("game-7-medium.expected.json")
    for sheet in document["sheets"]:
        true = truth[Path(sheet["source"]).name]
        assert sheet["score"]["total"] == true["score"]["total"], sheet["source"]
        assert sheet["score"]["lines"] == true["score"]["lines"]
    assert code == (1 if any(s["needs_review"] for s in document["sheets"]) else 0)


def test_traps_are_resolved_between_the_photos_of_one_call(game7):
    _, document = game7
    truth = expected("game-7-medium.expected.json")
    hits = {Path(s["source"]).name: sorted((h["room"], Path(h["by"]).name) for h in s["trap_hits"])
            for s in document["sheets"]}
    true_hits = {name: sorted((h["room"], Path(h["by"]).name) for h in s["trap_hits"]) for name, s in truth.items()}
    assert hits == true_hits
    assert any(hits.values()), "the sample game is chosen to have traps that hit"


def test_round_numbers_read_are_right(game7):
    _, document = game7
    truth = expected("game-7-medium.expected.json")
    read = wrong = 0
    for sheet in document["sheets"]:
        true = truth[Path(sheet["source"]).name]["rooms"]
        for room, entry in sheet["rooms"].items():
            if entry["round"] is not None:
                read += 1
                wrong += entry["round"] != true[room]["round"]
    assert wrong == 0 and read >= 0.5 * sum(len(s["rooms"]) for s in document["sheets"])


def test_a_hard_photo_is_read_or_flagged(capsys):
    code, document, _ = scan_json(capsys, *GAME8)
    truth = expected("game-8-hard.expected.json")
    for sheet in document["sheets"]:
        true = truth[Path(sheet["source"]).name]
        if sheet["score"]["total"] != true["score"]["total"]:
            assert sheet["needs_review"], f"{sheet['source']}: a wrong score that is not flagged"
        else:
            assert drawn(sheet["rooms"]) == drawn(true["rooms"]) or sheet["needs_review"]


@pytest.mark.parametrize("turn", [Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_180, Image.Transpose.ROTATE_270])
def test_photos_turned_any_way_read_the_same(capsys, tmp_path, turn):
    source = Path(GAME7[0])
    turned = tmp_path / "turned.jpg"
    Image.open(source).transpose(turn).save(turned, quality=92)
    code, document, _ = scan_json(capsys, str(turned))
    true = expected("game-7-medium.expected.json")[Path(GAME7[0]).name]
    sheet, = document["sheets"]
    assert drawn(sheet["rooms"]) == drawn(true["rooms"]) and sheet["unusable"] == true["unusable"]


def _with_marker(photo: Path, marker: int, change) -> np.ndarray:
    """The photo (upright RGB) with ``change`` applied to the pixels round one corner marker (id 0-3): it is
    given the window and returns the window's new pixels."""
    from scanner.locate import detect_markers

    image = np.asarray(Image.open(photo).convert("RGB")).copy()
    quad = dict(detect_markers(image))[marker]
    size = int(np.ptp(quad, axis=0).max())
    x0, y0 = np.maximum(quad.min(axis=0) - size, 0).astype(int)
    x1, y1 = (quad.max(axis=0) + size).astype(int)
    image[y0:y1, x0:x1] = change(image[y0:y1, x0:x1])
    return image


def test_a_corner_marker_too_blurred_for_the_detector_is_found_where_the_other_three_put_it(capsys, tmp_path):
    # The far corner of a steep photo out of focus, or a shaky hand: the sheet reads as if it were sharp.
    import cv2
    from scanner.locate import detect_markers

    image = _with_marker(Path(GAME7[0]), 0, lambda window: cv2.GaussianBlur(window, (0, 0), 6))
    assert 0 not in dict(detect_markers(image)), "the detector alone finds this marker: the test shows nothing"
    blurred = tmp_path / "blurred.jpg"
    Image.fromarray(image).save(blurred, quality=92)
    (sheet,), (sharp,) = (scan_json(capsys, photo)[1]["sheets"] for photo in (str(blurred), GAME7[0]))
    true = expected("game-7-medium.expected.json")[Path(GAME7[0]).name]
    assert drawn(sheet["rooms"]) == drawn(true["rooms"]) and sheet["unusable"] == true["unusable"]
    assert sheet["score"] == sharp["score"] and sheet["needs_review"] == sharp["needs_review"] == []


def test_a_corner_marker_out_of_the_frame_is_asked_to_be_in_it(capsys, tmp_path):
    from scanner.locate import detect_markers

    # turned in the frame, so that one straight cut of the photo can take one marker alone
    image = np.asarray(Image.open(GAME7[0]).convert("RGB").rotate(25, expand=True, fillcolor=(70, 55, 40)))
    markers = dict(detect_markers(image))
    x, y = (int(v) for v in markers[3].mean(axis=0))               # the bottom-left marker's centre
    others = np.concatenate([quad for marker, quad in markers.items() if marker != 3])
    # the photo cut through that marker, on the side where the other three are whole
    cuts = [(image[:, x:], others[:, 0].min() > x + 20), (image[:, :x], others[:, 0].max() < x - 20),
            (image[y:], others[:, 1].min() > y + 20), (image[:y], others[:, 1].max() < y - 20)]
    cut = tmp_path / "cut.jpg"
    Image.fromarray(next(part for part, others_whole in cuts if others_whole)).save(cut, quality=92)
    code, out, err = run_cli(capsys, "scan", str(cut))
    assert code == 2
    assert "only 3 of 4 corner markers visible (missing: bottom-left): keep the whole sheet in the frame" in err


def test_a_photo_with_a_third_of_its_rooms_in_doubt_opens_its_list_with_a_new_photo(capsys, tmp_path):
    # A sensor's heavy noise (a phone in the dark): what is read wrong is named, among 30 rooms or more asked
    # about, and a new photo is quicker than checking them.
    from photographer.degrade import degrade

    image = degrade(np.asarray(Image.open(GAME7[0]).convert("RGB")), "noise:90", np.random.default_rng(1))
    noisy = tmp_path / "noisy.jpg"
    Image.fromarray(image).save(noisy, quality=90)
    sheet, = scan_json(capsys, str(noisy))[1]["sheets"]
    first, *rest = sheet["needs_review"]
    asked = {entry["where"] for entry in rest if entry["where"][0] in "ABCDEFGH" and entry["where"][1:].isdigit()}
    assert first["where"] == "photo" and first["rule"] == "unsure_reading"
    count = int(first["why"].split()[0])          # the scanner's own doubts; the rules may add more rooms
    assert first["why"].startswith(f"{count} of the 64 rooms are asked about below: taking the photo again")
    assert 30 <= count <= len(asked)
    true = expected("game-7-medium.expected.json")[Path(GAME7[0]).name]
    wrong = {room for room in set(sheet["rooms"]) | set(true["rooms"])
             if drawn(sheet["rooms"]).get(room) != drawn(true["rooms"]).get(room)}
    assert wrong and wrong <= asked


@pytest.mark.parametrize("spec", ["sharpen:2", "sharpen:4"])
def test_a_heavily_sharpened_photo_reads_as_the_sharp_one(capsys, tmp_path, spec):
    # A phone's sharpening rings every printed line darker than the blank prints it: the pictures in the rooms
    # read as strokes (a Loot bag's lower half as a stroke to the bottom side, named nowhere) until the
    # photo's darkness is scaled back to the print's.
    from photographer.degrade import degrade

    image = degrade(np.asarray(Image.open(GAME7[0]).convert("RGB")), spec, np.random.default_rng(1))
    sharpened = tmp_path / "sharpened.jpg"
    Image.fromarray(image).save(sharpened, quality=90)
    (sheet,), (sharp,) = (scan_json(capsys, photo)[1]["sheets"] for photo in (str(sharpened), GAME7[0]))
    assert drawn(sheet["rooms"]) == drawn(sharp["rooms"]) and sheet["unusable"] == sharp["unusable"]
    assert sheet["score"] == sharp["score"] and sheet["needs_review"] == []


@pytest.mark.parametrize("spec", ["sharpen:1.5", "sharpen:2", "hdr"])
def test_a_sharpened_photo_reads_the_printed_diamonds_as_not_crossed_out(capsys, tmp_path, spec):
    # Sharpening or a phone's tone mapping rings the printed gem in each Diamond's and Emerald's box; the boxes
    # are measured again against a wider window's white, which was not toned back to the print as the rest of
    # the sheet is, so a printed gem read as crossed out (Diamond 2, Emerald 3, the Rune Gate C6-D6: each
    # asked about, and the score wrong).
    from photographer.degrade import degrade

    sample = SAMPLES / "game17-map6-p1-medium.webp"
    image = degrade(np.asarray(Image.open(sample).convert("RGB")), spec, np.random.default_rng(1))
    photo = tmp_path / "sharpened.jpg"
    Image.fromarray(image).save(photo, quality=90)
    (sheet,) = scan_json(capsys, str(photo))[1]["sheets"]
    true = expected("game-17-map6-medium.expected.json")[sample.name]
    assert sheet["marks"] == true["marks"]
    # (Since the registration carries the move on to the paper's edge, sharpen:1.5 asks about Emerald 3 in C7,
    # "ink on it that does not cross it out", read as not marked: a question, not a gem read as crossed out.)
    assert [entry for entry in sheet["needs_review"]
            if entry["rule"] in ("unsure_mark", "gate_crossed_closed", "gate_filled_early")
            and "read as not marked" not in entry["why"]] == []


def test_a_pdf_of_a_flatbed_scan(capsys, tmp_path, classic):
    from photographer import blank_sheet, ink_sheet, play_game, scan_like, truth_sheet
    from photographer.hand import hand_style

    from sheets.dungeon import sheet_layout

    layout = sheet_layout(classic, "a4")
    board = play_game(classic, 5, 1)[0]
    rng = np.random.default_rng(5)
    page = ink_sheet(blank_sheet(layout, 1, 10.0), layout, board, 10.0, hand_style(rng, pen="blue"), rng)
    image = scan_like(page, 10.0, 150, rng)
    pdf = tmp_path / "scan.pdf"
    Image.fromarray(image).save(pdf, "PDF", resolution=150)
    code, document, _ = scan_json(capsys, str(pdf))
    sheet, = document["sheets"]
    true = truth_sheet(classic, board, 1, "scan.pdf")
    assert drawn(sheet["rooms"]) == drawn(true["rooms"]) and sheet["unusable"] == true["unusable"]


def test_overlays_are_written_per_photo(capsys, tmp_path):
    code, out, err = run_cli(capsys, "scan", *GAME8, "--overlay", str(tmp_path / "seen"))
    pictures = sorted(p.name for p in (tmp_path / "seen").iterdir())
    assert pictures == [Path(p).stem + ".overlay.png" for p in GAME8]
    picture = Image.open(tmp_path / "seen" / pictures[0])
    assert picture.width == 1050 and picture.height > 1485          # the A4 sheet at 5 px/mm, a legend below
    assert "Overlays:" in out


# -- bad input: a value, never a crash ---------------------------------------------


def _photo_of(page: np.ndarray, layout, seed: int = 3) -> bytes:
    """An easy phone photo of a (possibly tampered) page, as JPEG bytes."""
    from photographer import camera_for, photograph

    rng = np.random.default_rng(seed)
    camera = camera_for("easy", rng, (layout.width, layout.height))
    image = photograph(page, 10.0, camera, rng, layout=layout)
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


@pytest.fixture(scope="module")
def tampered(tmp_path_factory, classic):
    """Photos of sheets a person spoiled: two corner markers covered, a stranger's QR code, a smudged QR code."""
    import cv2
    from photographer import blank_sheet

    from sheets.dungeon import sheet_layout

    folder = tmp_path_factory.mktemp("tampered")
    layout = sheet_layout(classic, "a4")
    blank = blank_sheet(layout, 1, 10.0)

    def px(rect, grow=0.0):
        return [int(round(v * 10)) for v in (rect.x - grow, rect.y - grow, rect.right + grow, rect.bottom + grow)]

    covered = blank.copy()
    for corner in (2, 3):           # a hand over the bottom markers (one covered marker alone: the sheet is read)
        x0, y0, x1, y1 = px(layout.markers[corner].rect, 3.0)
        covered[y0:y1, x0:x1] = (235, 200, 170)
    foreign = blank.copy()
    code = cv2.QRCodeEncoder.create().encode("https://example.com/some-other-game")
    x0, y0, x1, y1 = px(layout.qr)
    foreign[y0:y1, x0:x1] = cv2.cvtColor(cv2.resize(code, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST),
                                         cv2.COLOR_GRAY2RGB)
    smudged = blank.copy()
    x0, y0, x1, y1 = px(layout.qr, 1.0)
    smudged[y0:y1, x0:x1] = cv2.GaussianBlur(smudged[y0:y1, x0:x1], (0, 0), 25)
    files = {}
    for name, page in (("covered", covered), ("foreign", foreign), ("smudged", smudged)):
        files[name] = folder / f"{name}.jpg"
        files[name].write_bytes(_photo_of(page, layout))
    table = np.random.default_rng(1).integers(60, 120, (900, 1200, 3), dtype=np.uint8)
    files["table"] = folder / "table.jpg"
    Image.fromarray(table).save(files["table"])
    files["text"] = folder / "notes.jpg"
    files["text"].write_text("not a photo")
    files["empty"] = folder / "empty.jpg"
    files["empty"].write_bytes(b"")
    files["half"] = folder / "half.jpg"
    whole = Path(GAME8[0]).read_bytes()
    files["half"].write_bytes(whole[: len(whole) // 2])
    return files


@pytest.mark.parametrize("name, reason", [
    ("covered", "only 2 of 4 corner markers visible (missing: bottom-right, bottom-left): keep the whole sheet in the "
                "frame, nothing covering its corners"),
    ("foreign", "not a dungeon-scrawl sheet code"),
    ("smudged", "no readable QR code: keep the sheet's top-right corner flat, sharp"),
    ("table", "no sheet found: none of the four black corner squares is visible"),
    ("text", "not an image this scanner reads: give a JPEG, PNG, WebP, HEIC or PDF"),
    ("empty", "empty file (0 bytes)"),
    ("half", "truncated or damaged image"),
])
def test_each_bad_photo_alone_is_one_line_and_exit_2(capsys, tampered, name, reason):
    code, out, err = run_cli(capsys, "scan", str(tampered[name]))
    assert code == 2 and out == ""
    assert err.startswith(f"scrawl: error: no sheet could be read: {tampered[name]}: ") and reason in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bad_photos_among_good_ones_are_errors_and_the_rest_is_scored(capsys, tampered):
    bad = [str(tampered[name]) for name in ("covered", "foreign", "text")]
    code, document, err = scan_json(capsys, GAME8[0], *bad)
    assert code == 1
    assert [s["source"] for s in document["sheets"]] == [GAME8[0]]
    assert [e["source"] for e in document["errors"]] == bad
    assert "only 2 of 4 corner markers visible" in document["errors"][0]["error"]
    sheet, = document["sheets"]
    assert any(entry["rule"] == "sheet_missing" for entry in sheet["needs_review"]), \
        "traps on a sheet not read are not counted: the scored sheet must say so"


def test_many_photos_show_a_progress_bar(capsys, tampered):
    code, out, err = run_cli(capsys, "scan", *GAME8, str(tampered["text"]), str(tampered["empty"]))
    assert "scanning [" in err and "4/4 photos" in err
    assert "NOT SCORED" in out and code == 1


def test_a_segment_joined_only_through_a_later_round_asks_about_the_room_its_path_meets(capsys, tmp_path):
    """A folded sheet shaken as it was photographed (seed 865's second folded game, player 1, ``--degrade
    motion``): B6's stroke to C6 was lost, so C6's segment, drawn in round 6, joined the path only through C5,
    whose number reads 7. Only the two round numbers were asked about; B6, read wrong, was named nowhere. The
    room the late segment's path leads into, where meeting it would join it in time, is asked about too."""
    from photographer import make_game_shots
    from photographer.degrade import degrade_shot

    shots = [degrade_shot(shot, "motion", np.random.default_rng(0))
             for shot in make_game_shots(86554001, players=4, condition="folded", map_id="map2")]
    for shot in shots:
        (tmp_path / Path(shot.truth["source"]).name).write_bytes(shot.data)
    _, document, _ = scan_json(capsys, *(str(tmp_path / Path(shot.truth["source"]).name) for shot in shots))
    sheet = next(sheet for sheet in document["sheets"] if sheet["player"] == 1)
    truth = next(shot.truth for shot in shots if shot.truth["player"] == 1)
    assert truth["rooms"]["B6"]["exits"] == "NES" and truth["rooms"]["C6"]["exits"] == "NEW"
    if drawn(sheet["rooms"]).get("B6") != drawn(truth["rooms"])["B6"]:
        asked = [entry["why"] for entry in sheet["needs_review"] if entry["where"] == "B6"]
        assert asked == ["the path of C6 leads to this room's east (right) side, but no stroke here was read to "
                         "meet it: is there one?"]
