"""The blank pages the scanner compares photos with are drawn once and kept: a second scan of the same map
reads them from the cache, imports neither reportlab nor pdfium, and reads the photo the same. Nor does a scan
of one JPEG import what it does not need: numpy.ma (which numpy's percentile and median would import:
``scanner.fastnp``), pillow_heif (HEIC photos only), importlib.metadata, a process pool (3 photos or more)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHOTO = ROOT / "samples" / "photos" / "game7-classic-p1-medium.jpg"
SCAN = """
import json, sys
from scrawl.cli import main
try:
    main(["scan", sys.argv[1], "--json"])
except SystemExit:
    pass
needless = {"numpy.ma", "pillow_heif", "importlib.metadata", "concurrent.futures.process"}
heavy = {name.split(".")[0] for name in sys.modules} & {"reportlab", "pypdfium2"} | needless & set(sys.modules)
print(json.dumps(sorted(heavy)), file=sys.stderr)
"""


def _scan(cache: Path) -> tuple[dict, list[str]]:
    """Scan the sample photo in a new process with ``cache`` as the cache folder: the scan document, and
    which of reportlab, pypdfium2 and the needless modules above the process imported."""
    done = subprocess.run([sys.executable, "-c", SCAN, str(PHOTO)], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "SCRAWL_CACHE": str(cache)}, timeout=120)
    return json.loads(done.stdout), json.loads(done.stderr.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return cache, _scan(cache)


def test_a_scan_keeps_the_blank_page_it_drew(first):
    cache, (document, imported) = first
    assert [path.suffix for path in cache.iterdir()] == [".png"]
    assert imported == ["pypdfium2", "reportlab"]
    expected = json.loads((ROOT / "samples" / "photos" / "game-7-medium.expected.json").read_text())["sheets"][0]
    drawn = {room: (read["exits"], read["trap"]) for room, read in document["sheets"][0]["rooms"].items()}
    assert drawn == {room: (read["exits"], read["trap"]) for room, read in expected["rooms"].items()}


def test_the_next_scan_reads_it_and_imports_no_pdf_library(first):
    cache, (document, _) = first
    again, imported = _scan(cache)
    assert imported == []
    assert again == document


def test_a_damaged_blank_page_is_drawn_again(first, tmp_path):
    cache, (document, _) = first
    damaged = tmp_path / "cache"
    damaged.mkdir()
    (damaged / next(cache.iterdir()).name).write_bytes(b"not a png")
    again, imported = _scan(damaged)
    assert again == document and imported == ["pypdfium2", "reportlab"]
    assert (damaged / next(cache.iterdir()).name).read_bytes() == next(cache.iterdir()).read_bytes()


def test_a_cache_that_cannot_be_written_costs_only_time(first, tmp_path):
    cache, (document, _) = first
    blocked = tmp_path / "a-file"
    blocked.write_text("in the way")
    again, _ = _scan(blocked / "blanks")
    assert again == document
    assert blocked.read_text() == "in the way"


def test_a_sheet_printed_here_is_read_without_drawing_it_again(tmp_path):
    """scrawl sheet keeps the blank page of the map it prints: a photo of that sheet is then read without
    reportlab or pdfium, even for a random map never scanned before."""
    import pypdfium2 as pdfium

    cache = tmp_path / "cache"
    printed = subprocess.run([sys.executable, "-m", "scrawl.cli", "sheet", "--map", "random", "--seed", "90417",
                              "-o", str(tmp_path / "sheet.pdf")], capture_output=True, text=True, cwd=ROOT,
                             env={**os.environ, "SCRAWL_CACHE": str(cache)}, timeout=120)
    assert printed.returncode == 0 and len(list(cache.iterdir())) == 1
    document = pdfium.PdfDocument(str(tmp_path / "sheet.pdf"))
    document[0].render(scale=200 / 72).to_pil().convert("RGB").save(tmp_path / "photo.jpg", quality=90)
    document.close()
    done = subprocess.run([sys.executable, "-c", SCAN, str(tmp_path / "photo.jpg")], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "SCRAWL_CACHE": str(cache)}, timeout=120)
    scanned = json.loads(done.stdout)
    assert json.loads(done.stderr.strip().splitlines()[-1]) == []
    assert scanned["sheets"][0]["map"] == {"id": "random", "seed": 90417, "version": 1}
    assert scanned["sheets"][0]["rooms"] == {}


def test_the_cache_keeps_the_pages_used_last(tmp_path, monkeypatch):
    """A tournament of random maps does not fill the disk: beyond MOST_KEPT pages, the ones used longest
    ago go, and a page read from the cache counts as used."""
    import time

    import numpy as np

    from scrawl import blanks

    monkeypatch.setattr(blanks, "MOST_KEPT", 3)
    page = np.full((20, 10), 255, np.uint8)
    for number in range(3):
        blanks._keep(tmp_path / f"map-{number}.png", page)
        os.utime(tmp_path / f"map-{number}.png", (time.time() - 100 + number, time.time() - 100 + number))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["map-0.png", "map-1.png", "map-2.png"]
    blanks._touch(tmp_path / "map-0.png")              # read again: now the newest
    blanks._keep(tmp_path / "map-3.png", page)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["map-0.png", "map-2.png", "map-3.png"]
