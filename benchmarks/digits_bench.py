"""How well the round-number reader reads handwritten round numbers, and how often it is wrong.

    python benchmarks/digits_bench.py [--count N] [--seed S]

Makes N synthetic round-box crops (default 4000) with a generator of its own,
unlike the one the reader was trained on (``benchmarks/digits_train.py``):
digits are drawn by a pen "turtle" (lines, turns and arcs) or set in OpenCV's
built-in fonts, in ballpoint, marker or pencil, at 4-8 px/mm, slanted,
off-centre, blurred, with ink lost where it crosses the printed ring (as the
scanner's ink map loses pencil and light pens there), faint leftovers of the
ring and path strokes passing by. Prints, for the round numbers 1-7, how many are read, read wrong
(the figure that matters: a wrong round number can flag a legal sheet) and
refused, by condition and by digit; how many 0, 8, 9, passing strokes and
empty boxes are refused; and the time per call.
"""
from __future__ import annotations

import argparse
import collections
import time
from dataclasses import dataclass

import cv2
import numpy as np

from scanner.digits import read_digit

FINE = 4   # crops are drawn this many times finer, then averaged down

# Pen "turtle" programs, in a box one unit tall with y down; headings in degrees
# (0 = right, 90 = down), positive turns clockwise on the page.
#   ("M", x, y, heading): lift the pen and put it down at (x, y)
#   ("L", length): draw straight on; ("T", degrees): turn on the spot
#   ("A", radius, degrees): draw an arc, turning as it goes
TURTLE = {
    1: [[("M", 0.5, 0.0, 90), ("L", 1.0)],
        [("M", 0.22, 0.28, -40), ("L", 0.36), ("T", 130), ("L", 1.0)],
        [("M", 0.22, 0.28, -40), ("L", 0.36), ("T", 130), ("L", 1.0), ("M", 0.18, 1.0, 0), ("L", 0.65)]],
    2: [[("M", 0.08, 0.3, -80), ("A", 0.28, 225), ("L", 0.7), ("T", -145), ("L", 0.7)],
        [("M", 0.05, 0.22, -60), ("A", 0.3, 190), ("A", 0.9, 20), ("L", 0.45), ("T", -130), ("A", 1.5, -12)]],
    3: [[("M", 0.08, 0.12, -35), ("A", 0.24, 215), ("T", -175), ("A", 0.27, 225)],
        [("M", 0.05, 0.0, 0), ("L", 0.75), ("T", 135), ("L", 0.5), ("T", -135), ("A", 0.27, 215)]],
    4: [[("M", 0.55, 0.0, 122), ("L", 0.78), ("T", -122), ("L", 0.9), ("M", 0.68, 0.3, 90), ("L", 0.72)],
        [("M", 0.68, 1.0, -90), ("L", 1.0), ("T", -147), ("L", 0.78), ("T", -123), ("L", 0.9)],
        [("M", 0.08, 0.0, 95), ("L", 0.6), ("T", -95), ("L", 0.85), ("M", 0.7, 0.0, 90), ("L", 1.0)]],
    5: [[("M", 0.85, 0.0, 180), ("L", 0.62), ("T", -90), ("L", 0.42), ("T", -80), ("A", 0.27, 215)],
        [("M", 0.22, 0.0, 95), ("L", 0.43), ("T", -105), ("A", 0.28, 200), ("M", 0.22, 0.0, 0), ("L", 0.6)]],
    6: [[("M", 0.75, 0.0, 150), ("A", 0.75, -55), ("A", 0.26, -320)],
        [("M", 0.7, 0.0, 125), ("L", 0.55), ("A", 0.26, -330)]],
    7: [[("M", 0.0, 0.0, 0), ("L", 0.72), ("T", 117), ("L", 1.1)],
        [("M", 0.0, 0.0, 0), ("L", 0.72), ("T", 115), ("L", 1.1), ("M", 0.2, 0.52, 0), ("L", 0.5)],
        [("M", 0.0, 0.18, -90), ("L", 0.18), ("T", 90), ("L", 0.72), ("T", 112), ("A", 2.5, -14)]],
    0: [[("M", 0.5, 0.0, 180), ("A", 0.5, -375)]],
    8: [[("M", 0.5, 0.5, 0), ("A", 0.24, -360), ("A", 0.26, 360)],
        [("M", 0.7, 0.12, 210), ("A", 0.22, -180), ("L", 0.15), ("A", 0.25, 290), ("L", 0.35), ("A", 0.2, -50)]],
    9: [[("M", 0.8, 0.25, -90), ("A", 0.25, -360), ("T", 180), ("L", 0.75)],
        [("M", 0.8, 0.25, -90), ("A", 0.25, -350), ("T", 175), ("L", 0.45), ("A", 0.5, 45)]],
}
WIDTHS = {0: 0.75, 8: 0.9}   # turtle digits are drawn round; these get narrower: 0.6 x this
FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX]


def walk(program, rng, wobble: float) -> list[np.ndarray]:
    """The polylines a turtle program draws, with its lengths and turns a little off."""
    lines, here, heading = [], None, 0.0
    for op, *args in program:
        if op == "M":
            here, heading = np.array(args[:2], float) + rng.normal(0, wobble, 2), args[2]
            lines.append([here])
        elif op == "T":
            heading += args[0] * rng.normal(1, wobble)
        elif op == "L":
            length = args[0] * rng.normal(1, wobble)
            for _ in range(8):
                here = here + length / 8 * np.array([np.cos(np.radians(heading)), np.sin(np.radians(heading))])
                lines[-1].append(here)
        else:
            radius, sweep = args[0] * rng.normal(1, wobble), args[1] * rng.normal(1, wobble / 2)
            steps = max(4, int(abs(sweep) / 10))
            for _ in range(steps):
                step_length = 2 * np.pi * radius * abs(sweep) / 360 / steps
                heading += sweep / steps / 2
                here = here + step_length * np.array([np.cos(np.radians(heading)), np.sin(np.radians(heading))])
                heading += sweep / steps / 2
                lines[-1].append(here)
    return [np.array(line) for line in lines]


def to_box(lines: list[np.ndarray]) -> list[np.ndarray]:
    """The polylines moved and scaled so that their ink spans y 0..1, starting at x 0."""
    points = np.vstack(lines)
    low, high = points.min(axis=0), points.max(axis=0)
    scale = 1 / max(high[1] - low[1], 1e-6)
    return [(line - low) * scale for line in lines]


@dataclass
class Case:
    """One synthetic crop and what made it."""

    ink: np.ndarray
    px_per_mm: float
    radius_mm: float
    truth: object          # 1..9, 0, "stroke" or "empty"
    conditions: tuple      # e.g. ("pencil", "blur")


def placement(rng, px_per_mm: float, radius_mm: float, side: int, width: float) -> np.ndarray:
    """2 x 3 affine map from a glyph box (width x 1) to fine crop pixels: size, slant, place."""
    height_mm = rng.uniform(0.6, 1.1) * 2 * radius_mm
    slant = np.tan(np.radians(rng.uniform(-15, 15)))
    offset = rng.uniform(-0.7, 0.7, 2)
    linear = np.array([[height_mm, -slant * height_mm], [0, height_mm]]) * px_per_mm * FINE
    centre = (side / 2 + offset * px_per_mm) * FINE
    return np.hstack([linear, (centre - linear @ [width / 2, 0.5])[:, None]])


def turtle_glyph(digit: int, rng, px_per_mm, radius_mm, side, pen_mm) -> np.ndarray:
    """A turtle-drawn digit on the fine canvas."""
    program = TURTLE[digit][rng.integers(len(TURTLE[digit]))]
    lines = to_box(walk(program, rng, rng.uniform(0.02, 0.06)))
    squeeze = 0.6 * WIDTHS.get(digit, 1.0) * rng.uniform(0.85, 1.15)
    natural = max(np.vstack(lines)[:, 0].max(), 1e-6)
    lines = [line * [min(1.0, squeeze / natural), 1.0] for line in lines]
    width = np.vstack(lines)[:, 0].max()
    to_fine = placement(rng, px_per_mm, radius_mm, side, width)
    canvas = np.zeros((side * FINE, side * FINE), np.uint8)
    for line in lines:
        points = line @ to_fine[:, :2].T + to_fine[:, 2]
        cv2.polylines(canvas, [np.round(points * 8).astype(np.int32)], False, 255,
                      max(1, round(pen_mm * px_per_mm * FINE)), cv2.LINE_AA, 3)
    return canvas.astype(np.float32) / 255


def font_glyph(digit: int, rng, px_per_mm, radius_mm, side, pen_mm) -> np.ndarray:
    """A digit set in one of OpenCV's fonts, placed on the fine canvas."""
    face = FONTS[rng.integers(len(FONTS))] | (cv2.FONT_ITALIC if rng.random() < 0.3 else 0)
    thickness = int(rng.integers(2, 7))
    sheet = np.zeros((160, 160), np.uint8)
    cv2.putText(sheet, str(digit), (40, 120), face, 3.0, 255, thickness, cv2.LINE_AA)
    rows, cols = np.nonzero(sheet > 127)
    sheet = sheet[rows.min():rows.max() + 1, cols.min():cols.max() + 1].astype(np.float32) / 255
    width = sheet.shape[1] / sheet.shape[0]
    to_fine = placement(rng, px_per_mm, radius_mm, side, width)
    from_sheet = np.array([[1 / sheet.shape[0], 0, 0], [0, 1 / sheet.shape[0], 0], [0, 0, 1]])
    return cv2.warpAffine(sheet, to_fine @ from_sheet, (side * FINE, side * FINE), flags=cv2.INTER_LINEAR)


def passing_stroke(rng, px_per_mm, radius_mm, side, pen_mm) -> np.ndarray:
    """A path stroke: a curve from the right or bottom edge that passes the box without entering it."""
    canvas = np.zeros((side * FINE, side * FINE), np.uint8)
    half = side / 2 / px_per_mm
    miss = radius_mm + rng.uniform(0.5, 2.0)
    angle = np.radians(rng.uniform(-10, 100))
    closest = miss * np.array([np.cos(angle), np.sin(angle)])
    along = np.array([-np.sin(angle), np.cos(angle)])
    bulge = rng.uniform(-0.15, 0.15)
    t = np.linspace(-2.5 * half, 2.5 * half, 50)[:, None]
    points_mm = closest + t * along + bulge * t ** 2 * closest / miss
    points = (points_mm * px_per_mm + side / 2) * FINE
    cv2.polylines(canvas, [np.round(points * 8).astype(np.int32)], False, 255,
                  max(1, round(pen_mm * px_per_mm * FINE)), cv2.LINE_AA, 3)
    return canvas.astype(np.float32) / 255


def ring_leftover(rng, px_per_mm, radius_mm, side) -> np.ndarray:
    """A faint piece of the printed ring that registration missed by a fraction of a millimetre."""
    canvas = np.zeros((side * FINE, side * FINE), np.uint8)
    shift = rng.uniform(0.15, 0.4) * rng.choice([-1, 1])
    start = rng.uniform(0, 360)
    centre = (int(side / 2 * FINE * 8), int(side / 2 * FINE * 8))
    axes = (int((radius_mm + shift) * px_per_mm * FINE * 8),) * 2
    cv2.ellipse(canvas, centre, axes, 0, start, start + rng.uniform(60, 200), 255,
                max(1, round(0.25 * px_per_mm * FINE)), cv2.LINE_AA, 3)
    return canvas.astype(np.float32) / 255 * rng.uniform(0.2, 0.4)


def over_print(ink: np.ndarray, rng, px_per_mm, radius_mm, side, survives: float) -> np.ndarray:
    """``ink`` as the scanner's ink map leaves it where it crosses the printed ring: ink counts
    there, within the print slack (0.2-0.5 mm) around the line, only as far as it is darker than
    the print, so pencil and light pens vanish (``survives`` 0) and dark pens stay (up to 1)."""
    band = np.zeros((side, side), np.uint8)
    centre = np.round((side / 2 + rng.normal(0, 0.1, 2) * px_per_mm) * 8).astype(int)
    thickness = max(1, round((0.3 + 2 * rng.uniform(0.2, 0.5)) * px_per_mm))
    cv2.circle(band, tuple(centre), round(radius_mm * px_per_mm * 8), 255, thickness, cv2.LINE_8, 3)
    return np.where(band > 0, ink * survives, ink)


def make_case(truth, rng) -> Case:
    """A crop holding ``truth`` under a random mix of the hard conditions."""
    px_per_mm, radius_mm = rng.uniform(4, 8), 2.6
    side = round(2 * (radius_mm + 1.5) * px_per_mm)
    conditions = []
    pen = rng.choice(["ballpoint", "marker", "pencil"], p=[0.5, 0.2, 0.3])
    pen_mm = {"ballpoint": rng.uniform(0.3, 0.5), "marker": rng.uniform(0.8, 1.2),
              "pencil": rng.uniform(0.3, 0.6)}[pen]
    darkness = rng.uniform(0.4, 0.7) if pen == "pencil" else rng.uniform(0.85, 1.0)
    if pen != "ballpoint":
        conditions.append(pen)
    fine = np.zeros((side * FINE, side * FINE), np.float32)
    if isinstance(truth, int):
        draw = font_glyph if rng.random() < 0.3 else turtle_glyph
        fine = draw(truth, rng, px_per_mm, radius_mm, side, pen_mm)
        conditions.append("font" if draw is font_glyph else "turtle")
    if truth == "stroke" or rng.random() < 0.25:
        fine = np.maximum(fine, passing_stroke(rng, px_per_mm, radius_mm, side, pen_mm))
        conditions.append("stroke nearby")
    ink = cv2.resize(fine, (side, side), interpolation=cv2.INTER_AREA) * darkness
    if rng.random() < 0.6:
        survives = 0.0 if pen == "pencil" or rng.random() < 0.4 else rng.uniform(0.7, 1.0)
        ink = over_print(ink, rng, px_per_mm, radius_mm, side, survives)
        conditions.append("lost on the ring" if survives == 0 else "kept on the ring")
    if rng.random() < 0.3:
        ink = np.maximum(ink, cv2.resize(ring_leftover(rng, px_per_mm, radius_mm, side), (side, side),
                                         interpolation=cv2.INTER_AREA))
        conditions.append("ring leftover")
    if rng.random() < 0.3:
        ink = cv2.GaussianBlur(ink, (0, 0), rng.uniform(0.6, 1.2))
        conditions.append("blur")
    if px_per_mm < 5:
        conditions.append("4-5 px/mm")
    ink = np.clip(ink + rng.normal(0, 0.03, ink.shape), 0, 1).astype(np.float32)
    return Case(ink, px_per_mm, radius_mm, truth, tuple(conditions))


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def report(cases: list[Case], answers: list) -> None:
    """Print the read, wrong and refused rates: overall, by condition, by digit; then the refusals."""
    rounds = [(c, a) for c, a in zip(cases, answers) if c.truth in range(1, 8)]
    read = sum(a == c.truth for c, a in rounds)
    wrong = sum(a is not None and a != c.truth for c, a in rounds)
    print(f"round numbers 1-7: {len(rounds)} crops")
    print(f"  read {percent(read, len(rounds))}   wrong {percent(wrong, len(rounds))}   "
          f"refused {percent(len(rounds) - read - wrong, len(rounds))}")
    print("\nby condition (a crop can have several)      crops    read   wrong  refused")
    names = sorted({n for c, _ in rounds for n in c.conditions})
    for name in ["ballpoint, sharp, 5+ px/mm, nothing nearby"] + names:
        chosen = [(c, a) for c, a in rounds if (name in c.conditions if name in names else
                  not set(c.conditions) - {"turtle", "font"})]
        ok = sum(a == c.truth for c, a in chosen)
        bad = sum(a is not None and a != c.truth for c, a in chosen)
        print(f"  {name:42s} {len(chosen):5d}  {percent(ok, len(chosen))}  {percent(bad, len(chosen))}  "
              f"{percent(len(chosen) - ok - bad, len(chosen))}")
    print("\nconfusion: truth -> answers (- = refused)")
    columns = list(range(1, 8)) + [None]
    print("  truth " + "".join(f"{'-' if k is None else k:>6}" for k in columns))
    for truth in list(range(10)) + ["stroke", "empty"]:
        chosen = [a for c, a in zip(cases, answers) if c.truth == truth]
        if chosen:
            counts = collections.Counter(chosen)
            print(f"  {str(truth):>6}" + "".join(f"{counts.get(k, 0):6d}" for k in columns))
    print("\nnot round numbers, refused:")
    for group, members in [("0, 8, 9", (0, 8, 9)), ("path stroke only", ("stroke",)), ("empty", ("empty",))]:
        chosen = [a for c, a in zip(cases, answers) if c.truth in members]
        print(f"  {group:18s} {sum(a is None for a in chosen):5d} of {len(chosen):5d}  "
              f"{percent(sum(a is None for a in chosen), len(chosen))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    truths = [int(t) if t.isdigit() else t for t in
              rng.choice(["1", "2", "3", "4", "5", "6", "7"] * 4 + ["0", "8", "9", "stroke", "empty"],
                         args.count)]
    cases = [make_case(truth, rng) for truth in truths]
    read_digit(cases[0].ink, cases[0].px_per_mm, radius_mm=cases[0].radius_mm)   # loads the networks
    answers, seconds = [], []
    for case in cases:
        start = time.perf_counter()
        answers.append(read_digit(case.ink, case.px_per_mm, radius_mm=case.radius_mm)[0])
        seconds.append(time.perf_counter() - start)
    print(f"{len(cases)} synthetic round boxes (seed {args.seed}), not from the training generator\n")
    report(cases, answers)
    written = [s for c, s in zip(cases, seconds) if c.truth != "empty"]
    print(f"\nspeed: {1000 * np.mean(seconds):.2f} ms per read_digit call, "
          f"{1000 * np.mean(written):.2f} ms with writing, {1000 * max(seconds):.2f} ms at most")


if __name__ == "__main__":
    main()
