"""`scrawl scan --jobs`: the photos read on several cores (this process and JOBS - 1 workers) give exactly
what one process gives, in the order given, and a photo that cannot be read loses none of the others."""
from __future__ import annotations

import json
from pathlib import Path

from tests_support import run_cli

PHOTOS = sorted(str(p) for p in (Path(__file__).resolve().parents[2] / "samples" / "photos").glob("game[0-9]*-*.*"))


def test_several_cores_read_what_one_reads(tmp_path, capsys):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not really a photo")
    photos = PHOTOS[:3] + [str(broken)] + PHOTOS[3:5]
    _, one, _ = run_cli(capsys, "scan", "--jobs", "1", "--json", *photos)
    code, two, err = run_cli(capsys, "scan", "--jobs", "2", "--json", *photos)
    assert code == 1
    assert json.loads(two) == json.loads(one)
    assert [sheet["source"] for sheet in json.loads(two)["sheets"]] == photos[:3] + photos[4:]
    assert [entry["source"] for entry in json.loads(two)["errors"]] == [str(broken)]
    assert "6/6 photos" in err          # the progress bar counted every file


def test_python_m_scrawl_runs_the_command_once_with_its_workers(capsys):
    """`python -m scrawl` is the same command (for a machine where the script is not on the PATH), its
    workers included."""
    import subprocess
    import sys

    photos = PHOTOS[:3]
    code, one, _ = run_cli(capsys, "scan", "--jobs", "1", "--json", *photos)
    result = subprocess.run([sys.executable, "-m", "scrawl", "scan", "--jobs", "2", "--json", *photos],
                            capture_output=True, text=True, timeout=300)
    assert (result.returncode, json.loads(result.stdout)) == (code, json.loads(one))
    assert [sheet["source"] for sheet in json.loads(result.stdout)["sheets"]] == photos
    assert "Traceback" not in result.stderr
    usage = subprocess.run([sys.executable, "-m", "scrawl", "--help"], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 0 and "Usage: scrawl " in usage.stdout


def test_a_worker_dying_loses_only_the_photo_it_was_reading():
    """A worker killed in the middle of a photo (out of memory, say) costs that photo, reported as an error
    line; every other photo of the call is still read, by this process, as one process reads it."""
    from generator.kinds import BLANKS
    from scanner.batch import scan_files
    from tests_support import DiesInAWorker

    photos = PHOTOS[:5]
    alone = scan_files(photos, BLANKS, jobs=1)
    dying = scan_files(photos, {kind: DiesInAWorker(blank) for kind, blank in BLANKS.items()}, jobs=2)
    assert [outcome.source for outcome in dying] == photos
    lost = [outcome for outcome in dying if outcome.errors]
    assert len(lost) == 1 and not lost[0].reads
    assert lost[0].errors[0]["error"].startswith("the scanner failed on this photo (BrokenProcessPool)")
    assert [o.sheets for o in dying if o is not lost[0]] == [o.sheets for o in alone if o.source != lost[0].source]
