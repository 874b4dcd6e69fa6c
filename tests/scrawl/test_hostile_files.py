"""Hostile and absurd files given to the commands (issue 19, point 5): each is refused on its own in one
line, the other files of a batch are still read, and nothing hangs, fills the memory or crashes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests_support import run_cli

PHOTO = Path(__file__).resolve().parents[2] / "samples" / "photos" / "game7-classic-p1-medium.jpg"


def _scrawl(*args, cwd=None, timeout=120):
    """``scrawl ARGS`` in its own process (a hang or a crash would take the test run with it otherwise)."""
    return subprocess.run([sys.executable, "-m", "scrawl.cli", *map(os.fsdecode, args)], capture_output=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, "PYTHONIOENCODING": "utf-8"})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_and_a_device_in_a_batch_are_refused_and_the_photo_is_scored(tmp_path):
    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    done = _scrawl("scan", PHOTO, fifo, "/dev/zero", timeout=60)
    out = done.stdout.decode()
    assert done.returncode == 1, done.stderr
    assert "Player 1, The Sunken Keep:" in out
    assert f"NOT SCORED {fifo}: not a regular file (a pipe or a device)" in out
    assert "NOT SCORED /dev/zero: not a regular file" in out


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize("command", ["score", "heroes", "battle"])
def test_deep_json_and_endless_numbers_are_one_line_and_exit_2(tmp_path, capsys, command):
    deep = _write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)
    code, out, err = run_cli(capsys, command, deep)
    assert code == 2 and err == f"scrawl: error: {deep}: nested more than 40 deep: not a document of ours\n"
    huge = _write(tmp_path / "huge.json", '{"format": "scrawl.scan/1", "sheets": [{"unusable": ' + "9" * 5000 + "}]}")
    code, out, err = run_cli(capsys, command, huge)
    assert code == 2 and "is far larger than any in a game" in err and err.count("\n") == 1


def test_an_absurd_tally_is_named_for_review_not_scored_silently(tmp_path, capsys):
    state = _write(tmp_path / "s.json", json.dumps({"sheets": [
        {"source": "anna", "map": "classic", "player": 1, "unusable": 10 ** 14, "rooms": {"B1": {"exits": "NS"}}}]}))
    code, out, _ = run_cli(capsys, "score", state)
    assert code == 1
    assert "NEEDS REVIEW unusable: a tally of 100000000000000: a game reveals at most 42 cards" in out
    code, _, err = run_cli(capsys, "score", _write(tmp_path / "p.json", json.dumps({"sheets": [
        {"map": "classic", "player": 10 ** 9, "rooms": {}}]})))
    assert code == 2 and "should be a player number from 1 to 99" in err


def test_an_overlay_that_is_a_file_is_refused_before_any_photo_is_read(tmp_path, capsys, monkeypatch):
    import scrawl.service

    target = _write(tmp_path / "pictures", "my notes")
    monkeypatch.setattr(scrawl.service, "scan_game", lambda *a, **k: pytest.fail("scanned before checking"))
    code, out, err = run_cli(capsys, "scan", PHOTO, "--overlay", target)
    assert code == 2 and out == ""
    assert err == f"scrawl: error: --overlay {target}: this is a file; name a folder for the pictures " \
                  f"(it is made if missing)\n"
    assert target.read_text() == "my notes"


@pytest.mark.skipif(sys.platform != "linux", reason="file names as raw bytes: Linux")
def test_a_file_name_that_is_not_utf8_gets_its_overlay_and_its_score(tmp_path):
    odd = os.fsdecode(b"caf\xe9.jpg")
    shutil.copy(PHOTO, tmp_path / odd)
    done = _scrawl("scan", odd, "--overlay", "seen", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stderr.decode()
    assert b"Player 1, The Sunken Keep:" in done.stdout
    assert os.listdir(tmp_path / "seen") == [os.fsdecode(b"caf\xe9.overlay.png")]


def test_pdfs_too_large_for_sheets_are_refused_before_any_page_is_drawn(tmp_path, monkeypatch):
    import pypdfium2
    from reportlab.pdfgen.canvas import Canvas

    from scanner.load import PhotoError, load_photos

    huge, many = tmp_path / "huge.pdf", tmp_path / "many.pdf"
    canvas = Canvas(str(huge), pagesize=(1660 / 25.4 * 72,) * 2)      # four pages 1.66 m a side: 2.6 KB
    for _ in range(4):
        canvas.showPage()
    canvas.save()
    canvas = Canvas(str(many))
    for _ in range(300):
        canvas.showPage()
    canvas.save()
    monkeypatch.setattr(pypdfium2.PdfPage, "render", lambda *a, **k: pytest.fail("a page was drawn"))
    with pytest.raises(PhotoError, match=r"page 1 is 1660x1660 mm: too large for a sheet"):
        load_photos(huge)
    with pytest.raises(PhotoError, match=r"a PDF of 300 pages: this reads at most 24"):
        load_photos(many)


def test_values_beyond_what_a_game_can_hold_are_refused_in_short(tmp_path, capsys):
    samples = PHOTO.parents[1]
    dungeon = json.loads((samples / "dungeon-maker-built.json").read_text())
    dungeon["coins"] = 10 ** 14
    code, _, err = run_cli(capsys, "heroes", _write(tmp_path / "d.json", json.dumps(dungeon)))
    assert code == 2 and "coins: should be a whole number from 0 to 40 (what a game can hold)" in err
    roster = json.loads((samples / "monster-roster.json").read_text())
    roster["players"][0]["reserve"] = ["d6 red"] * 100_000
    code, _, err = run_cli(capsys, "battle", _write(tmp_path / "r.json", json.dumps(roster)))
    assert code == 2 and err.count("\n") == 1 and len(err) < 2500
    assert "d6 red is used twice" in err and "more like these" in err
