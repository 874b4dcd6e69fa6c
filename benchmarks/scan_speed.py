"""How fast ``scrawl scan`` reads a phone photo, against the time OpenCV needs just to decode it.

    python benchmarks/scan_speed.py [--photos 6]

Makes 12-megapixel JPEG photos of played sheets with the synthetic
photographer, then for each: the time ``cv2.imread`` takes to decode it at full
size, and the time the scanner takes from the file's bytes to the sheet's
readings (loading included, the blank sheet already rendered as it is after
the first photo of a game), timed in alternation over several rounds
(``--rounds``) so that both see the same state of the machine; the medians
are printed. The ratio of the two is the figure the scanner issue sets (at
most 2x; the aim is 1x). Peak memory is measured on a separate
``scrawl scan`` process of all the photos (its maximum resident set size).
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

from photographer import make_game_shots, write_shots


def _timed(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def interleaved(decode, scan, rounds: int) -> tuple[float, float, float]:
    """Median decode time, median scan time and median ratio over ``rounds`` rounds of one decode then
    one scan. Alternating the two means a slow spell of the machine (the other core busy, the clock
    stepping down, the page cache) falls on both, so the ratio holds still where the times do not."""
    decodes, scans = [], []
    for _ in range(rounds):
        decodes.append(_timed(decode))
        scans.append(_timed(scan))
    ratios = [s / d for s, d in zip(scans, decodes)]
    return statistics.median(decodes), statistics.median(scans), statistics.median(ratios)


def _with_sensor_detail(path: Path) -> Path:
    """The photo again with per-pixel grain (sigma 4 of 255) at JPEG quality 92: the synthetic photos are
    smoother than a phone's, so they compress (and decode) unusually fast."""
    import numpy as np

    image = cv2.imread(str(path))
    grain = np.random.default_rng(0).normal(0, 4.0, image.shape)
    grainy = path.with_name(path.stem + "-grain*.jpg".replace("*", ""))
    cv2.imwrite(str(grainy), np.clip(image + grain, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return grainy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=9, help="decode/scan rounds a photo (medians are quoted)")
    args = parser.parse_args()

    from generator.kinds import BLANKS
    from scanner.batch import scan_file

    cv2.setNumThreads(1)      # the scanner runs one photo per core; so does the decode it is compared with
    folder = Path(tempfile.mkdtemp(prefix="scan-speed-"))
    paths: list[Path] = []
    seed = 500
    while len(paths) < args.photos:
        shots = [s for s in make_game_shots(seed, players=3, difficulty="medium", megapixels=12.0)
                 if s.suffix == ".jpg"]
        paths += [p for p in write_shots(shots, folder) if p.suffix == ".jpg"]
        seed += 1
    paths = paths[:args.photos]
    paths += [_with_sensor_detail(path) for path in paths]
    scan_file(str(paths[0]), BLANKS)          # the blank sheet is rendered once per map, then cached

    print(f"{len(paths)} photos, 12 MP JPEG, one core each (*: the same photo with a phone sensor's grain, "
          f"which makes the file, and its decoding, as heavy as a real phone's)")
    print("  photo                                   size  decode ms   scan ms   ratio")
    ratios = []
    for path in paths:
        decode, scan, ratio = interleaved(lambda: cv2.imread(str(path), cv2.IMREAD_COLOR),
                                          lambda: scan_file(str(path), BLANKS), args.rounds)
        ratios.append(ratio)
        print(f"  {path.name:<36} {path.stat().st_size / 2**20:5.1f} MB {1000 * decode:9.1f} {1000 * scan:9.1f}"
              f"   {ratio:5.2f}x")
    half = len(ratios) // 2
    print(f"  median ratio {statistics.median(ratios[:half]):.2f}x as made, "
          f"{statistics.median(ratios[half:]):.2f}x with grain; worst {max(ratios):.2f}x")

    # A fresh process runs scrawl scan and reports the largest resident set of it and its workers, so
    # that nothing this script did itself is counted.
    probe = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
             "subprocess.run([sys.executable, '-m', 'scrawl.cli', 'scan', *sys.argv[1:], '--json'], "
             "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
             "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)")
    out = subprocess.run([sys.executable, "-c", probe, *map(str, paths)], capture_output=True, text=True).stdout
    wall, peak = map(float, out.split())
    print(f"scrawl scan of all {len(paths)} photos (both cores): {wall:.2f} s wall, "
          f"{wall / len(paths):.2f} s a photo including start-up; peak memory of one process {peak:.0f} MB")


if __name__ == "__main__":
    main()
