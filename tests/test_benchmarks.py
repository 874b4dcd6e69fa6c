"""The accuracy benchmarks start and take their options, as benchmarks/README.md runs them (with nothing to
measure: the figures themselves are the benchmarks' to print, not the tests')."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
NOTHING = {"scan_accuracy.py": ["--conditions", "good", "--games", "0"], "maker_accuracy.py": ["--sheets", "0"],
           "monster_accuracy.py": ["--sheets", "0"]}


def run(script: str, *args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *NOTHING[script], *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)})


@pytest.mark.parametrize("script", sorted(NOTHING))
@pytest.mark.parametrize("degrade", [(), ("--degrade", "blur:2")])
def test_an_accuracy_benchmark_runs_with_and_without_degrading_its_photos(script, degrade, tmp_path):
    done = run(script, *degrade, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr


def test_an_unknown_degradation_is_one_line_saying_which_there_are(tmp_path):
    done = run("maker_accuracy.py", "--degrade", "fog", tmp_path=tmp_path)
    assert done.returncode == 2
    assert "argument --degrade: unknown degradation 'fog' (one of: blur, motion, jpeg," in done.stderr
