"""Train the round-number reader's networks on synthetic handwriting and write scanner/digits_model.npz.

    python benchmarks/digits_train.py [--per-class N] [--seed S]

There is no real handwriting to learn from, so this script makes its own: each
digit in several ways people write it (1 with and without flag and base, open
and closed 4, 7 with and without crossbar, ...) from pen-stroke models with
jittered control points, plus the digits of the TrueType fonts at hand, all
slanted, stretched, elastically warped and put into a round-box crop as the
scanner sees one (pencil or marker, blur, noise, ink lost where it crosses
the printed ring, faint leftovers of the ring, a path stroke passing by). The
negative classes 0, 8, 9 and "junk" (dashes, crosses, ticks, tangles, stray
curves) teach the reader what to refuse.

The benchmark (``benchmarks/digits_bench.py``) measures on a different
generator; this one is for training only. Takes about 12 minutes on 2 cores.
"""
from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scanner.digits import CLASSES, MODEL_PATH, Writing, find_writing, writing_features

SUPER = 4            # the crop is drawn this many times finer, then averaged down
HIDDEN = 160         # units in each network's hidden layer
NETWORKS = 3
EPOCHS = 40
BATCH = 128
LEARNING_RATE = 2e-3    # at the start; it falls to 0 along a half cosine
WEIGHT_DECAY = 1e-2     # per unit of learning rate
INPUT_NOISE = 0.1       # noise added to the standardised features while training

# ---------------------------------------------------------------------------
# Pen-stroke models. A digit is a list of strokes; a stroke is a list of smooth
# pieces meeting at corners; a piece is a list of control points in a unit box
# (x right 0..1, y down 0..1) that a Catmull-Rom spline passes through.
# ---------------------------------------------------------------------------

STYLES: dict[str, list[list[list[list[tuple[float, float]]]]]] = {
    "1": [
        [[[(0.5, 0.0), (0.5, 1.0)]]],
        [[[(0.1, 0.3), (0.5, 0.0)], [(0.5, 0.0), (0.5, 1.0)]]],
        [[[(0.15, 0.25), (0.5, 0.0)], [(0.5, 0.0), (0.5, 1.0)]], [[(0.15, 1.0), (0.85, 1.0)]]],
        [[[(0.2, 0.2), (0.35, 0.12), (0.55, 0.0)], [(0.55, 0.0), (0.5, 0.5), (0.45, 1.0)]]],
    ],
    "2": [
        [[[(0.05, 0.3), (0.3, 0.04), (0.65, 0.02), (0.92, 0.25), (0.82, 0.5), (0.4, 0.8), (0.0, 1.0)],
          [(0.0, 1.0), (1.0, 0.98)]]],
        [[[(0.1, 0.2), (0.5, 0.0), (0.9, 0.2), (0.85, 0.45), (0.05, 1.0)], [(0.05, 1.0), (0.95, 1.0)]]],
        [[[(0.05, 0.3), (0.35, 0.02), (0.75, 0.05), (0.9, 0.3), (0.6, 0.65), (0.2, 0.9), (0.15, 1.0),
           (0.3, 0.85), (0.6, 0.95), (1.0, 0.95)]]],
        [[[(0.0, 0.25), (0.4, 0.0), (0.85, 0.1), (0.85, 0.35), (0.0, 1.0)], [(0.0, 1.0), (0.45, 0.9),
                                                                           (1.0, 1.0)]]],
    ],
    "3": [
        [[[(0.1, 0.15), (0.45, 0.0), (0.85, 0.15), (0.8, 0.38), (0.4, 0.5)],
          [(0.4, 0.5), (0.85, 0.62), (0.92, 0.82), (0.55, 1.0), (0.05, 0.88)]]],
        [[[(0.05, 0.0), (0.95, 0.0)], [(0.95, 0.0), (0.4, 0.4)],
          [(0.4, 0.4), (0.85, 0.55), (0.95, 0.8), (0.55, 1.0), (0.05, 0.88)]]],
        [[[(0.05, 0.2), (0.4, 0.0), (0.8, 0.1), (0.75, 0.4), (0.35, 0.48), (0.8, 0.58), (0.95, 0.8),
           (0.6, 1.0), (0.2, 0.95), (0.0, 0.8)]]],
    ],
    "4": [
        [[[(0.6, 0.0), (0.0, 0.68)], [(0.0, 0.68), (1.0, 0.68)]], [[(0.72, 0.3), (0.72, 1.0)]]],
        [[[(0.1, 0.0), (0.05, 0.6)], [(0.05, 0.6), (1.0, 0.6)]], [[(0.78, 0.0), (0.78, 1.0)]]],
        [[[(0.7, 1.0), (0.7, 0.0)], [(0.7, 0.0), (0.0, 0.65)], [(0.0, 0.65), (1.0, 0.65)]]],
        [[[(0.35, 0.0), (0.0, 0.6)], [(0.0, 0.6), (1.0, 0.6)]], [[(0.75, 0.2), (0.72, 1.0)]]],
    ],
    "5": [
        [[[(0.15, 0.0), (0.1, 0.45)], [(0.1, 0.45), (0.5, 0.36), (0.88, 0.55), (0.88, 0.8), (0.5, 1.0),
                                        (0.05, 0.9)]], [[(0.15, 0.0), (0.92, 0.0)]]],
        [[[(0.92, 0.0), (0.15, 0.0)], [(0.15, 0.0), (0.08, 0.45)],
          [(0.08, 0.45), (0.55, 0.38), (0.92, 0.62), (0.75, 0.95), (0.35, 1.0), (0.02, 0.85)]]],
        [[[(0.2, 0.02), (0.12, 0.42)], [(0.12, 0.42), (0.6, 0.42), (0.85, 0.7), (0.55, 0.98),
                                         (0.1, 0.92)]], [[(0.2, 0.0), (0.8, 0.05)]]],
    ],
    "6": [
        [[[(0.85, 0.05), (0.45, 0.08), (0.12, 0.45), (0.1, 0.8), (0.45, 1.0), (0.85, 0.85), (0.85, 0.6),
           (0.5, 0.48), (0.15, 0.65)]]],
        [[[(0.75, 0.0), (0.15, 0.62)], [(0.15, 0.62), (0.25, 0.95), (0.65, 0.98), (0.88, 0.75),
                                         (0.6, 0.5), (0.2, 0.6)]]],
        [[[(0.8, 0.0), (0.35, 0.25), (0.1, 0.65), (0.3, 1.0), (0.75, 0.95), (0.85, 0.7), (0.5, 0.55),
           (0.12, 0.72)]]],
    ],
    "7": [
        [[[(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.35, 1.0)]]],
        [[[(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.4, 1.0)]], [[(0.35, 0.52), (0.95, 0.5)]]],
        [[[(0.0, 0.22), (0.02, 0.0)], [(0.02, 0.0), (1.0, 0.02)], [(1.0, 0.02), (0.45, 1.0)]]],
        [[[(0.0, 0.05), (0.5, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.65, 0.4), (0.5, 1.0)]]],
        [[[(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.55, 0.5), (0.5, 1.0)]], [[(0.3, 0.5), (0.85, 0.48)]]],
    ],
    "0": [
        [[[(0.5, 0.0), (0.05, 0.25), (0.02, 0.7), (0.5, 1.0), (0.95, 0.7), (0.92, 0.25), (0.5, 0.0),
           (0.3, 0.08)]]],
        [[[(0.55, 0.02), (0.15, 0.2), (0.05, 0.6), (0.35, 1.0), (0.8, 0.9), (0.95, 0.4), (0.7, 0.02),
           (0.45, 0.05)]]],
    ],
    "8": [
        [[[(0.85, 0.12), (0.5, 0.0), (0.15, 0.15), (0.2, 0.38), (0.5, 0.5), (0.88, 0.7), (0.8, 0.95),
           (0.5, 1.0), (0.12, 0.92), (0.12, 0.7), (0.5, 0.5), (0.8, 0.35), (0.85, 0.12)]]],
        [[[(0.5, 0.0), (0.2, 0.12), (0.25, 0.4), (0.5, 0.47), (0.75, 0.4), (0.8, 0.12), (0.5, 0.0)]],
         [[(0.5, 0.47), (0.1, 0.65), (0.15, 0.95), (0.5, 1.0), (0.9, 0.9), (0.9, 0.65), (0.5, 0.47)]]],
    ],
    "9": [
        [[[(0.85, 0.25), (0.5, 0.0), (0.12, 0.2), (0.15, 0.45), (0.5, 0.55), (0.85, 0.35)],
          [(0.85, 0.35), (0.85, 0.05), (0.82, 1.0)]]],
        [[[(0.88, 0.2), (0.5, 0.0), (0.1, 0.22), (0.3, 0.5), (0.75, 0.42), (0.9, 0.15), (0.85, 0.6),
           (0.6, 0.95), (0.25, 1.0)]]],
        [[[(0.85, 0.3), (0.55, 0.0), (0.15, 0.15), (0.2, 0.48), (0.6, 0.5), (0.85, 0.3)],
          [(0.85, 0.3), (0.5, 1.0)]]],
    ],
    "junk": [
        [[[(0.0, 0.5), (1.0, 0.5)]]],
        [[[(0.0, 0.0), (1.0, 1.0)]], [[(1.0, 0.0), (0.0, 1.0)]]],
        [[[(0.5, 0.0), (0.5, 1.0)]], [[(0.0, 0.5), (1.0, 0.5)]]],
        [[[(0.0, 0.4), (0.35, 1.0)], [(0.35, 1.0), (1.0, 0.0)]]],
        [[[(0.0, 0.6), (0.25, 0.3), (0.5, 0.6), (0.75, 0.3), (1.0, 0.6)]]],
        [[[(0.9, 0.15), (0.4, 0.0), (0.05, 0.5), (0.4, 1.0), (0.9, 0.85)]]],
        [[[(0.0, 0.1), (1.0, 0.25), (0.0, 0.4), (1.0, 0.55), (0.0, 0.7), (1.0, 0.85), (0.0, 1.0)]]],
        [[[(0.3, 0.3), (0.7, 0.3), (0.7, 0.7), (0.3, 0.7), (0.3, 0.3)]]],
        # Single curves that are no digit, such as what is left of a digit whose ends
        # vanished on the printed ring: a 1 is straight. (No S: it is a 5 without its bar.)
        [[[(0.8, 0.0), (0.3, 0.5), (0.8, 1.0)]]],
        [[[(0.2, 0.0), (0.7, 0.5), (0.2, 1.0)]]],
        [[[(0.8, 0.0), (0.5, 0.15), (0.5, 0.8), (0.2, 1.0)]]],
        [[[(0.65, 0.0), (0.65, 0.8), (0.4, 1.0), (0.1, 0.85)]]],
        [[[(0.1, 0.2), (0.5, 0.0), (0.9, 0.2), (0.5, 0.55), (0.5, 0.75)]]],
        [[[(0.9, 0.2), (0.5, 0.0), (0.1, 0.5), (0.5, 1.0), (0.9, 0.8)]]],
        [[[(0.0, 0.0), (0.0, 1.0)], [(0.0, 1.0), (0.8, 1.0)]]],
        [[[(0.1, 0.0), (0.1, 0.7), (0.5, 1.0), (0.9, 0.7), (0.9, 0.0)]]],
    ],
}


def spline(points: np.ndarray, per_segment: int = 12) -> np.ndarray:
    """A Catmull-Rom curve through ``points`` (n, 2), as a polyline."""
    if len(points) < 3:
        return points
    padded = np.vstack([2 * points[0] - points[1], points, 2 * points[-1] - points[-2]])
    t = np.linspace(0, 1, per_segment, endpoint=False)[:, None]
    curve = []
    for p0, p1, p2, p3 in zip(padded, padded[1:], padded[2:], padded[3:]):
        curve.append(0.5 * (2 * p1 + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                            + (-p0 + 3 * p1 - 3 * p2 + p3) * t ** 3))
    curve.append(points[-1:])
    return np.vstack(curve)


def random_junk_stroke(rng) -> list[list[list[tuple[float, float]]]]:
    """A random tangle: many random control points in the unit box."""
    count = rng.integers(8, 13)
    return [[[tuple(p) for p in rng.uniform(0, 1, (count, 2))]]]


def stroke_polylines(label: str, rng) -> list[np.ndarray]:
    """One way of writing ``label``, jittered, as polylines in the unit box."""
    styles = STYLES[label]
    if label == "junk" and rng.random() < 0.3:
        strokes = random_junk_stroke(rng)
    else:
        strokes = styles[rng.integers(len(styles))]
    jitter = rng.uniform(0.015, 0.05)
    lines = []
    for stroke in strokes:
        pieces, end = [], None
        for piece in stroke:
            points = np.array(piece, dtype=np.float64) + rng.normal(0, jitter, (len(piece), 2))
            if end is not None:
                points[0] = end
            end = points[-1].copy()
            pieces.append(spline(points))
        lines.append(np.vstack(pieces))
    return lines


# ---------------------------------------------------------------------------
# Font digits: the glyph of a TrueType font as a mask in the unit box.
# ---------------------------------------------------------------------------

def font_files() -> list[Path]:
    """The TrueType fonts to take digits from: reportlab's Vera family and DejaVu if installed."""
    import reportlab

    folders = [Path(reportlab.__file__).parent / "fonts", Path("/usr/share/fonts/truetype/dejavu")]
    skip = ("Math", "ExtraLight", "hb-test")
    return sorted(p for folder in folders if folder.is_dir() for p in folder.glob("*.ttf")
                  if not any(s in p.name for s in skip))


def font_mask(font: Path, label: str, size: int = 96) -> np.ndarray:
    """The digit ``label`` in ``font``, cropped to its ink, as a float mask (1 = ink)."""
    face = ImageFont.truetype(str(font), size)
    image = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(image).text((size // 2, size // 4), label, fill=255, font=face)
    mask = np.asarray(image, dtype=np.float32) / 255
    rows, cols = np.nonzero(mask > 0.5)
    return mask[rows.min():rows.max() + 1, cols.min():cols.max() + 1]


# ---------------------------------------------------------------------------
# The crop: the glyph placed in a round box as the scanner sees it.
# ---------------------------------------------------------------------------

def glyph_transform(rng, px_per_mm: float, radius_mm: float, side: int, aspect: float,
                    size: float = 1.0) -> np.ndarray:
    """A 2 x 3 affine map from the unit box to supersampled crop pixels: size, slant, turn, place."""
    height = rng.uniform(0.6, 1.1) * 2 * radius_mm * size
    width = height * aspect * rng.uniform(0.75, 1.3)
    slant = np.tan(np.radians(rng.uniform(-18, 18)))
    turn = np.radians(rng.normal(0, 4))
    offset = rng.normal(0, 0.35, 2) * radius_mm / 2.6
    shape = np.array([[width, -slant * height], [0, height]])
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    linear = rotation @ shape * px_per_mm * SUPER
    centre = np.array([side * SUPER / 2, side * SUPER / 2]) + offset * px_per_mm * SUPER
    return np.hstack([linear, (centre - linear @ [0.5, 0.5])[:, None]])


def elastic(image: np.ndarray, rng, amount: float) -> np.ndarray:
    """``image`` bent by a smooth random displacement of about ``amount`` pixels."""
    rows, cols = image.shape
    field = rng.normal(0, 1, (2, rows, cols)).astype(np.float32)
    sigma = rows / 6
    field = np.stack([cv2.GaussianBlur(f, (0, 0), sigma) for f in field])
    field *= amount / (field.std() + 1e-6)
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    return cv2.remap(image, x + field[0], y + field[1], cv2.INTER_LINEAR, borderValue=0)


def draw_glyph(label: str, rng, fonts, px_per_mm: float, radius_mm: float, side: int,
               pen_mm: float) -> np.ndarray:
    """The digit drawn on a supersampled canvas (1 = ink)."""
    canvas = np.zeros((side * SUPER, side * SUPER), np.float32)
    pen_px = max(1, int(round(pen_mm * px_per_mm * SUPER)))
    if label != "junk" and fonts and rng.random() < 0.25:
        mask = fonts[label][rng.integers(len(fonts[label]))]
        to_crop = glyph_transform(rng, px_per_mm, radius_mm, side, mask.shape[1] / mask.shape[0])
        to_unit = np.array([[1 / mask.shape[1], 0, 0], [0, 1 / mask.shape[0], 0], [0, 0, 1]])
        canvas = cv2.warpAffine(mask, to_crop @ to_unit, canvas.shape[::-1], flags=cv2.INTER_LINEAR)
        grow = int(rng.integers(-1, 3)) * max(1, pen_px // 3)
        if grow:
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(grow) + 1,) * 2)
            canvas = (cv2.dilate if grow > 0 else cv2.erode)(canvas, kernel)
    else:
        aspect = 1.0 if label == "junk" else rng.uniform(0.5, 0.75)
        size = rng.uniform(0.3, 1.0) if label == "junk" else 1.0
        to_crop = glyph_transform(rng, px_per_mm, radius_mm, side, aspect, size)
        for line in stroke_polylines(label, rng):
            points = line @ to_crop[:, :2].T + to_crop[:, 2]
            cv2.polylines(canvas, [np.round(points * 16).astype(np.int32)], False, 1.0, pen_px,
                          cv2.LINE_AA, 4)
    if rng.random() < 0.5:
        canvas = elastic(canvas, rng, rng.uniform(0.5, 2.0) * SUPER)
    return canvas


def ring(side: int, px_per_mm: float, radius_mm: float, centre_mm, line_mm: float) -> np.ndarray:
    """A printed-ring mask of the crop's size, around ``centre_mm`` from the crop's middle."""
    canvas = np.zeros((side * SUPER, side * SUPER), np.float32)
    centre = (np.array([side / 2, side / 2]) + np.asarray(centre_mm) * px_per_mm) * SUPER
    cv2.circle(canvas, tuple(np.round(centre * 16).astype(int)), int(round(radius_mm * px_per_mm * SUPER * 16)),
               1.0, max(1, int(round(line_mm * px_per_mm * SUPER))), cv2.LINE_AA, 4)
    return cv2.resize(canvas, (side, side), interpolation=cv2.INTER_AREA)


def path_stroke(rng, side: int, px_per_mm: float, radius_mm: float, pen_mm: float) -> np.ndarray:
    """A path stroke passing the box: a long line or curve coming in from the right or the bottom."""
    canvas = np.zeros((side * SUPER, side * SUPER), np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    gap = radius_mm + rng.uniform(0.3, 2.5)
    normal = np.array([np.cos(angle), np.sin(angle)])
    if normal @ [1, 1] < 0:
        normal = -normal
    along = np.array([-normal[1], normal[0]])
    t = np.linspace(-3 * side, 3 * side, 60)[:, None] / px_per_mm
    bend = rng.uniform(-0.08, 0.08)
    points_mm = gap * normal + t * along + bend * t ** 2 * normal
    points = (points_mm * px_per_mm + side / 2) * SUPER
    cv2.polylines(canvas, [np.round(points * 16).astype(np.int32)], False, 1.0,
                  max(1, int(round(pen_mm * px_per_mm * SUPER))), cv2.LINE_AA, 4)
    return cv2.resize(canvas, (side, side), interpolation=cv2.INTER_AREA)


def pencil_grain(glyph: np.ndarray, rng) -> np.ndarray:
    """``glyph`` with the patchy darkness of a pencil line."""
    grain = cv2.GaussianBlur(rng.uniform(0, 1, glyph.shape).astype(np.float32), (0, 0), 0.7)
    return glyph * (1 - 0.3 * (grain - grain.min()) / (np.ptp(grain) + 1e-6))


def print_gap(glyph: np.ndarray, rng, px_per_mm, radius_mm, side, ring_mm, pencil: bool) -> np.ndarray:
    """``glyph`` where it crosses the printed ring: the scanner counts ink there (up to its print
    slack, 0.5 mm, either side of the line) only where it is darker than the print, so pencil
    vanishes, and so does a pen that is not much darker than the print."""
    band = ring(side, px_per_mm, radius_mm, ring_mm, rng.uniform(0.3, 1.3))
    lost = 1.0 if pencil or rng.random() < 0.5 else rng.uniform(0, 1)
    return glyph * (1 - lost * band)


def ring_residue(rng, px_per_mm, radius_mm, side, ring_mm) -> np.ndarray:
    """A faint crescent of the printed ring, left where the scanner's registration was a little off."""
    residue = ring(side, px_per_mm, radius_mm, ring_mm + rng.normal(0, 0.25, 2), 0.3)
    residue = np.clip(residue - ring(side, px_per_mm, radius_mm, ring_mm, 0.45), 0, 1)
    return residue * rng.uniform(0.2, 0.4)


def crop(label: str, rng, fonts) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """A synthetic ink crop holding ``label``.

    Returns (ink, the glyph as drawn, the glyph as left by the print, px_per_mm, radius_mm).
    """
    px_per_mm = rng.uniform(3.8, 8.5)
    radius_mm = rng.uniform(2.3, 2.8)
    side = int(round(2 * (radius_mm + 1.5) * px_per_mm)) + int(rng.integers(-1, 2))
    pen_mm = min(rng.choice([rng.uniform(0.25, 0.5), rng.uniform(0.5, 1.2)], p=[0.6, 0.4]), 0.6 * radius_mm)
    drawn = cv2.resize(draw_glyph(label, rng, fonts, px_per_mm, radius_mm, side, pen_mm), (side, side),
                       interpolation=cv2.INTER_AREA)
    pencil = rng.random() < 0.3
    darkness = rng.uniform(0.45, 0.75) if pencil else rng.uniform(0.8, 1.0)
    ring_mm = rng.normal(0, 0.15, 2)
    visible = pencil_grain(drawn, rng) if pencil else drawn
    if rng.random() < 0.6:
        visible = print_gap(visible, rng, px_per_mm, radius_mm, side, ring_mm, pencil)
    ink = visible * darkness
    if rng.random() < 0.4:
        ink = np.maximum(ink, ring_residue(rng, px_per_mm, radius_mm, side, ring_mm))
    if rng.random() < 0.35:
        ink = np.maximum(ink, darkness * path_stroke(rng, side, px_per_mm, radius_mm, pen_mm))
    if rng.random() < 0.5:
        ink = cv2.GaussianBlur(ink, (0, 0), rng.uniform(0.3, 1.0))
    ink = ink + rng.normal(0, rng.uniform(0, 0.04), ink.shape)
    return np.clip(ink, 0, 1).astype(np.float32), drawn, visible, px_per_mm, radius_mm


def faithful(writing: Writing, drawn: np.ndarray, visible: np.ndarray) -> bool:
    """Whether a crop is worth learning from: the print left a third of the glyph or more, and
    the reader found what was left and little else. (A 7 that lost its bar on the ring is kept:
    it teaches the reader that a 1 there may be a 7.)"""
    core, left = drawn > 0.6, visible > 0.5
    found = writing.ink > 0
    kept = (left & core).sum() / max(core.sum(), 1)
    recovered = (found & left).sum() / max(left.sum(), 1)
    extra = (found & (drawn < 0.1)).sum() / max(found.sum(), 1)
    return kept >= 0.35 and recovered >= 0.85 and extra <= 0.15


@functools.cache
def font_masks() -> dict[str, list[np.ndarray]]:
    """Every font's mask of every digit."""
    files = font_files()
    return {label: [font_mask(f, label) for f in files] for label in CLASSES if label != "junk"}


def examples(job: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``count`` feature vectors of class ``CLASSES[index]`` from crops seeded by ``seed``."""
    index, count, seed = job
    rng, fonts = np.random.default_rng(seed), font_masks()
    features = []
    while len(features) < count:
        ink, drawn, visible, px_per_mm, radius_mm = crop(CLASSES[index], rng, fonts)
        writing = find_writing(ink, px_per_mm, radius_mm=radius_mm)
        vector = None if writing is None or not faithful(writing, drawn, visible) else writing_features(writing)
        if vector is not None:
            features.append(vector)
    return np.array(features, np.float32), np.full(count, index)


def dataset(per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Feature vectors and class indices: ``per_class`` crops of each class (fewer of 0, 8, 9)."""
    jobs = []
    for index, label in enumerate(CLASSES):
        wanted = per_class * 3 // 4 if label in ("0", "8", "9") else per_class
        jobs += [(index, wanted // 10, seed * 1000 + index * 10 + part) for part in range(10)]
    with multiprocessing.Pool() as pool:
        parts = pool.map(examples, jobs)
    return np.vstack([x for x, _ in parts]), np.concatenate([y for _, y in parts])


# ---------------------------------------------------------------------------
# The networks: one hidden layer of ReLUs, softmax out, trained with Adam.
# ---------------------------------------------------------------------------

class Adam:
    """Adam's running gradient moments for a set of weights, and its update step."""

    def __init__(self, params: dict[str, np.ndarray]):
        self.first = {name: np.zeros_like(value) for name, value in params.items()}
        self.second = {name: np.zeros_like(value) for name, value in params.items()}
        self.steps = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray], rate: float) -> None:
        """Move ``params`` (in place) against ``grads``, and shrink the weights a little."""
        self.steps += 1
        for name, grad in grads.items():
            first, second = self.first[name], self.second[name]
            first *= 0.9
            first += 0.1 * grad
            second *= 0.999
            second += 0.001 * grad * grad
            params[name] -= rate * (first / (1 - 0.9 ** self.steps)) / (
                np.sqrt(second / (1 - 0.999 ** self.steps)) + 1e-8)
            if name.startswith("w"):
                params[name] *= 1 - WEIGHT_DECAY * rate


def train_network(x: np.ndarray, y: np.ndarray, rng) -> dict[str, np.ndarray]:
    """One network's weights, fitted to standardised features ``x`` and classes ``y``."""
    n, d = x.shape
    k = len(CLASSES)
    params = {"w1": rng.normal(0, np.sqrt(2 / d), (d, HIDDEN)), "b1": np.zeros(HIDDEN),
              "w2": rng.normal(0, np.sqrt(1 / HIDDEN), (HIDDEN, k)), "b2": np.zeros(k)}
    params = {name: value.astype(np.float32) for name, value in params.items()}
    adam = Adam(params)
    for epoch in range(EPOCHS):
        rate = LEARNING_RATE * 0.5 * (1 + np.cos(np.pi * epoch / EPOCHS))
        for _ in range(0, n, BATCH):
            chosen = rng.integers(0, n, BATCH)
            noisy = x[chosen] + rng.normal(0, INPUT_NOISE, (BATCH, d)).astype(np.float32)
            adam.step(params, gradients(params, noisy, y[chosen]), rate)
    return params


def gradients(params, x, y):
    """The cross-entropy loss's gradients for one batch."""
    hidden = np.maximum(x @ params["w1"] + params["b1"], 0)
    logits = hidden @ params["w2"] + params["b2"]
    odds = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = odds / odds.sum(axis=1, keepdims=True)
    p[np.arange(len(y)), y] -= 1
    p /= len(y)
    back = (p @ params["w2"].T) * (hidden > 0)
    return {"w2": hidden.T @ p, "b2": p.sum(axis=0), "w1": x.T @ back, "b1": back.sum(axis=0)}


def predict(params, x):
    """The class a network picks for each row of ``x``."""
    hidden = np.maximum(x @ params["w1"] + params["b1"], 0)
    return (hidden @ params["w2"] + params["b2"]).argmax(axis=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-class", type=int, default=7000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    x, y = dataset(args.per_class, args.seed)
    print(f"{len(x)} training crops made in {time.perf_counter() - start:.0f} s")
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-3
    xs = (x - mean) / spread
    held_out = rng.random(len(xs)) < 0.1
    saved = {"networks": np.array(NETWORKS), "mean": mean.astype(np.float16),
             "scale": (1 / spread).astype(np.float16)}
    for i in range(NETWORKS):
        params = train_network(xs[~held_out], y[~held_out], rng)
        accuracy = (predict(params, xs[held_out]) == y[held_out]).mean()
        print(f"network {i}: {100 * accuracy:.1f}% right on held-out training crops")
        for name, value in params.items():
            saved[f"{name}_{i}"] = value.astype(np.float16)
    np.savez_compressed(MODEL_PATH, **saved)
    print(f"wrote {MODEL_PATH} ({os.path.getsize(MODEL_PATH) / 1024:.0f} KiB) "
          f"in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
