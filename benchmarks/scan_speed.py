"""How fast ``scrawl scan`` is, whole process, against decoding the same photos with OpenCV.

    python benchmarks/scan_speed.py [--runs 5] [--photos 16] [--tournament 102] [--tournament-runs 3]
                                    [--folder DIR]

Every figure is a whole process timed from outside (start-up, imports and
exit included), the command and its yardstick run in turn (A B A B ...),
the median of the runs printed, and the ratio taken pair by pair:

1. one 12 MP phone photo: ``scrawl scan PHOTO --json`` against
   ``python -c "import cv2; cv2.imread(PHOTO)"``;
2. ``--photos`` photos in one call, against one process decoding them one
   after another;
3. a tournament: ``--tournament`` photos (of 3-player games, each game with
   its own code, so that each is scored on its own) in one call, and its
   first half in another, ``--tournament-runs`` times each; the time
   projected to 1000 sheets from the whole run, adding each further sheet
   at the rate between the two runs (what a call pays once, start-up and
   the worker's start, is not paid again every 102 sheets);
4. ``scrawl --help`` against ``python -c pass``.

Peak memory is the largest resident set of the command's processes (each
worker is a process of its own). The photos are the synthetic
photographer's, with a phone sensor's grain added (which makes a file, and
its decoding, as heavy as a real phone's: about 2.5 MB); they are kept in
``--folder`` to be reused. The blank sheets are in the cache, as after
``scrawl sheet``: one scan before the timing fills it.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXYZ2345679"


def make_photos(folder: Path, count: int, first_seed: int) -> list[Path]:
    """``count`` 12 MP JPEGs of 3-player games (each game its own code), made once and kept in ``folder``."""
    from bench_support import with_grain
    from photographer import make_game_shots

    folder.mkdir(parents=True, exist_ok=True)
    paths = sorted(folder.glob("*.jpg"))
    seed = first_seed + len(paths) // 3
    while len(paths) < count:
        code = "".join(CODE_LETTERS[seed // len(CODE_LETTERS) ** k % len(CODE_LETTERS)] for k in range(4))
        for shot in make_game_shots(seed, players=3, difficulty="medium", megapixels=12, code=code):
            path = folder / f"game{seed}-p{shot.truth['player']}.jpg"
            path.write_bytes(with_grain(shot.data, shot.suffix, seed))
            paths.append(path)
        seed += 1
        print(f"  photographed {min(len(paths), count)}/{count}", end="\r", file=sys.stderr)
    return sorted(paths)[:count]


# The commands run as on a user's machine, where Python keeps each module it compiles (``__pycache__``) and
# the second run loads it: a sandbox that sets PYTHONDONTWRITEBYTECODE would have every run compile the
# project's modules again (about 0.06 s a process, more with workers).
USERS_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds, and the peak resident set (MB) of the largest of the command's processes (the kernel's
    figure for a reaped child covers the descendants it waited for, as GNU time's %M does)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=USERS_ENV)
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def paired(a: list[str], b: list[str], runs: int) -> dict:
    """``a`` and ``b`` run in turn, ``runs`` times each after one warm-up of each."""
    run(a), run(b)
    walls_a, walls_b, peaks = [], [], []
    for _ in range(runs):
        wall, peak = run(a)
        walls_a.append(wall)
        peaks.append(peak)
        walls_b.append(run(b)[0])
    ratios = [x / y for x, y in zip(walls_a, walls_b)]
    return {"a": statistics.median(walls_a), "b": statistics.median(walls_b),
            "ratio": statistics.median(ratios), "peak": max(peaks)}


def tournament(scrawl: list[str], sheets: list[str], runs: int) -> None:
    """The whole tournament's photos in one call, and its first half's (whole games) in another, taken in turn
    ``runs`` times; 1000 sheets projected from the whole run by the rate between the two, which leaves out
    what a call pays once whatever its size (start-up, imports, the worker's start), and, as a check, at the
    whole run's own rate a sheet, which counts it again in every 102 sheets."""
    half = len(sheets) // 6 * 3
    whole, part, peaks = [], [], []
    for _ in range(runs):
        seconds, peak = run([*scrawl, "scan", "--json", *sheets])
        whole.append(seconds)
        peaks.append(peak)
        part.append(run([*scrawl, "scan", "--json", *sheets[:half]])[0])
    full, first = statistics.median(whole), statistics.median(part)
    rate = (full - first) / (len(sheets) - half)
    projected = full + (1000 - len(sheets)) * rate
    print(f"tournament: {len(sheets)} sheets ({len(sheets) // 3} games) in {full:.1f} s, the first {half} in "
          f"{first:.1f} s (medians of {runs}): {rate * 1000:.0f} ms a sheet beyond them; 1000 sheets in about "
          f"{projected:.0f} s ({full:.1f} s + {1000 - len(sheets)} x {rate * 1000:.0f} ms; at the {len(sheets)}-sheet "
          f"run's own {full / len(sheets) * 1000:.0f} ms a sheet, {full / len(sheets) * 1000:.0f} s); "
          f"peak {max(peaks):.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--photos", type=int, default=16)
    parser.add_argument("--tournament", type=int, default=102, help="photos in the tournament run (0: none)")
    parser.add_argument("--tournament-runs", type=int, default=3, help="runs of the tournament and of its half")
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "scrawl-scan-speed")
    parser.add_argument("--make-photos", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if 0 < args.tournament < 6:
        parser.error("--tournament needs 6 photos or more: 1000 sheets are projected from its first half's run")
    if args.make_photos:        # in a process of its own: see below
        make_photos(args.folder, args.make_photos, 7000)
        return
    # The command as users run it: the installed script (``python -m scrawl.cli`` would load the CLI twice,
    # as __main__ and as scrawl.cli).
    python = sys.executable
    script = Path(sys.executable).with_name("scrawl")
    scrawl = [str(script)] if script.exists() else [python, "-m", "scrawl.cli"]
    # The photographer grows a process past 1 GB, and a child started from it would report that as its own
    # peak (Linux keeps the high-water mark across fork and exec): the photos are made by a process of their own.
    count = max(args.photos, args.tournament)
    subprocess.run([python, __file__, "--make-photos", str(count), "--folder", str(args.folder)], check=True)
    photos = sorted(args.folder.glob("*.jpg"))[:count]
    batch = [str(p) for p in photos[:args.photos]]
    one = batch[0]
    subprocess.run([*scrawl, "scan", "--json", *batch[:3]], capture_output=True, env=USERS_ENV)   # blanks cached
    listing = args.folder / "batch.txt"
    listing.write_text("\n".join(batch))
    decode_all = [python, "-c", f"import cv2\nfor p in open({str(listing)!r}).read().split('\\n'): cv2.imread(p)"]
    print(f"whole process, median of {args.runs} runs taken in turn with the yardstick; {os.cpu_count()} cores")
    print(f"{'what':<44}{'scrawl s':>9}{'yardstick s':>12}{'ratio':>8}{'peak MB':>9}")
    rows = [("one 12 MP photo", [*scrawl, "scan", "--json", one], [python, "-c", f"import cv2; cv2.imread({one!r})"]),
            (f"{len(batch)} photos in one call", [*scrawl, "scan", "--json", *batch], decode_all),
            ("scrawl --help", [*scrawl, "--help"], [python, "-c", "pass"])]
    for label, a, b in rows:
        figures = paired(a, b, args.runs)
        print(f"{label:<44}{figures['a']:>9.2f}{figures['b']:>12.2f}{figures['ratio']:>7.2f}x{figures['peak']:>9.0f}")
    if args.tournament:
        tournament(scrawl, [str(p) for p in photos[:args.tournament]], args.tournament_runs)
    print(f"(photos kept in {args.folder})")


if __name__ == "__main__":
    main()
