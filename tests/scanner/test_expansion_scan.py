"""scrawl scan on an expansion map: the marks a player makes besides paths read from phone photos, scored,
and checked against the game's die rolls.

The sample photos (samples/photos/game17-map6-*) were made by the synthetic
photographer (samples/make_samples.py, make_photos): map 6, medium photos,
Diamonds crossed out, Emeralds cursed, a Rune Gate filled on each sheet.
"""
import json
from pathlib import Path

import pytest

from tests_support import run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "photos"
GAME17 = sorted(str(p) for p in SAMPLES.glob("game17-map6-*") if ".json" not in p.name)
EXPECTED = json.loads((SAMPLES / "game-17-map6-medium.expected.json").read_text())
TRUE_ROLLS = EXPECTED["rolls"]


def expected() -> dict:
    return {Path(s["source"]).name: s for s in EXPECTED["sheets"]}


@pytest.fixture(scope="module")
def game17():
    """The two photos scanned in one call with the game's rolls, and scored as scrawl scan does."""
    from games.state import game_json
    from generator.kinds import BLANKS
    from scanner.batch import game_document, scan_files
    from games.game import score_document

    outcomes = scan_files(GAME17, BLANKS, rolls=TRUE_ROLLS)
    document = game_document(outcomes)
    results, errors = score_document(document)
    return document, game_json(results, errors)


def test_the_sample_game_has_every_kind_of_mark():
    sheets = EXPECTED["sheets"]
    assert len(GAME17) == 2 and all(s["map"]["id"] == "map6" for s in sheets)
    for sheet in sheets:
        marks = sheet["marks"]
        assert marks["diamonds"] and marks["emeralds"] and marks["gates"]
        assert any(marks["curse_track"]["top"]) and any(marks["curse_track"]["bottom"])
        assert not all(marks["curse_track"]["top"])


def test_every_diamond_and_emerald_is_read_crossed_out_or_not(game17):
    from games.mapfile import load_map

    dungeon = load_map("map6")
    _, scored = game17
    for sheet in scored["sheets"]:
        true = expected()[Path(sheet["source"]).name]["marks"]
        for kind, key in (("diamond", "diamonds"), ("emerald", "emeralds")):
            for room, item in dungeon.rooms_with(kind):
                assert (item.number in sheet["marks"][key]) == (item.number in true[key]), (sheet["source"], room)


def test_every_curse_track_half_and_rune_gate_is_read(game17):
    _, scored = game17
    for sheet in scored["sheets"]:
        true = expected()[Path(sheet["source"]).name]["marks"]
        for half in ("top", "bottom"):
            assert sheet["marks"]["curse_track"][half] == true["curse_track"][half], (sheet["source"], half)
        assert sheet["marks"]["gates"] == true["gates"]


def test_the_expansion_score_lines_are_as_a_careful_person_scores_them(game17):
    _, scored = game17
    for sheet in scored["sheets"]:
        true = expected()[Path(sheet["source"]).name]
        lines = {line["item"]: line for line in sheet["score"]["lines"]}
        true_lines = {line["item"]: line for line in true["score"]["lines"]}
        for item in (8, 9, 10):
            assert lines[item] == true_lines[item], (sheet["source"], item)
        assert sheet["score"]["total"] == true["score"]["total"]
        # A scribble overshooting into the next half may be flagged as a doubt about that mark, but the
        # rolls agree with every mark: no rule is broken.
        assert [entry for entry in sheet["needs_review"] if entry["rule"] != "unsure_mark"] == []


def test_the_rolls_given_are_in_the_document(game17):
    document, scored = game17
    assert document["rolls"] == TRUE_ROLLS and scored["rolls"] == TRUE_ROLLS


def test_rolls_that_disagree_with_the_marks_are_flagged_by_name(capsys):
    # Diamond 6 rolled in round 1: the sheets do not have it crossed out.
    rolls = [6] + TRUE_ROLLS[1:]
    code, out, _ = run_cli(capsys, "scan", *GAME17, "--rolls", ",".join(map(str, rolls)), "--json")
    document = json.loads(out)
    assert code == 1
    for sheet in document["sheets"]:
        whys = [entry["why"] for entry in sheet["needs_review"] if entry.get("rule") == "diamond_roll"]
        assert any("Diamond 6" in why for why in whys), sheet["needs_review"]


def test_without_rolls_the_document_has_none_and_the_marks_alone_score():
    from generator.kinds import BLANKS
    from scanner.batch import game_document, scan_files

    outcomes = scan_files(GAME17[:1], BLANKS)
    document = game_document(outcomes)
    assert "rolls" not in document and "marks" in document["sheets"][0]


def test_a_classic_sheet_has_no_marks(classic):
    from photographer import play_game, truth_sheet

    from sheets.dungeon import sheet_layout
    from scanner.marks import has_marks

    layout = sheet_layout(classic, "a4")
    assert not has_marks(layout)
    board = play_game(classic, 5, 1)[0]
    assert board.marks.empty and "marks" not in truth_sheet(classic, board, 1, "x.jpg")


def test_the_overlay_draws_the_marks_read(game17, tmp_path):
    import numpy as np
    from PIL import Image

    from generator.kinds import BLANKS
    from scanner.batch import scan_files
    from scanner.overlay import layout_of
    from scanner.overlay import PURPLE, draw_overlay
    from scanner.scan import PX_PER_MM

    outcome, = scan_files(GAME17[:1], BLANKS, want_pages=True)
    sheet = outcome.sheets[0]
    import cv2

    page = cv2.cvtColor(cv2.imdecode(np.frombuffer(outcome.pages[0], np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    rooms, tally = outcome.readings[0]
    picture = draw_overlay(page, layout_of(sheet), PX_PER_MM, rooms, tally, sheet)
    layout = layout_of(sheet)
    gate = next(g for g in layout.gates() if g.name in sheet["marks"]["gates"])
    x, y = (int(round(v * PX_PER_MM)) for v in gate.centre)
    assert tuple(picture[y, x]) == PURPLE          # a filled gate is drawn filled
    Image.fromarray(picture).save(tmp_path / "overlay.png")


def test_a_hard_shadow_across_a_diamond_and_a_rune_gate_is_no_path(map6):
    """A shadow's edge across a Diamond's box and a Rune Gate: the marks are measured against a window wide
    enough not to take a solid fill for paper, and there the shadowed part reads as a block of ink; the rooms
    beside them must still read empty, and the crossed-out Diamond crossed out."""
    import cv2
    import numpy as np
    from photographer import blank_sheet, camera_for, photograph

    from sheets.dungeon import sheet_layout
    from generator.kinds import BLANKS
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    layout = sheet_layout(map6, "letter")
    page = blank_sheet(layout, 1, 10.0).astype(np.float32)
    room = next(c for c in layout.rooms if c.room.name == "A7")          # Diamond 5, its box lower right
    box = room.mark
    cv2.line(page, (int(box.x * 10), int(box.bottom * 10)), (int(box.right * 10), int(box.y * 10)), (40, 40, 45), 6)
    gate = next(g for g in layout.gates() if {r.name for r in g.side} == {"C6", "D6"})
    ys, xs = np.mgrid[0:page.shape[0], 0:page.shape[1]]
    shade = np.ones(page.shape[:2], np.float32)
    for (x, y) in ((box.x + 0.4 * box.w, box.y + 0.5 * box.h), gate.centre):      # an edge through each
        shade[np.hypot(xs - (x - 30) * 10, ys - (y + 20) * 10) < np.hypot(30, 20) * 10] = 0.55
    photo = photograph((page * shade[..., None]).astype(np.uint8), 10.0,
                       camera_for("easy", np.random.default_rng(5), (layout.width, layout.height)),
                       np.random.default_rng(5), layout=layout)
    ok, data = cv2.imencode(".png", cv2.cvtColor(photo, cv2.COLOR_RGB2BGR))
    scans, problems = scan_photo(load_photo_bytes(data.tobytes(), "shadow.png")[0], BLANKS)
    assert not problems
    rooms = {r.room: r for r in scans[0].rooms}
    for name in ("A7", "C6", "D6"):
        assert not rooms[name].drawn and rooms[name].confidence >= 0.6, (name, rooms[name])
    assert scans[0].marks.marks.diamonds == {5}
