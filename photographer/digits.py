"""A small stroke font for handwritten digits and the minus sign, with per-instance jitter.

Each glyph is one or more strokes through key points in a box one unit high
(x to the right, y down, about 0.6 wide). A key point written twice makes a
sharp corner; elsewhere the pen runs a smooth Catmull-Rom curve through the
points. Some digits have variants (a 1 with or without a base, a crossed 7,
an open or closed 4), picked per instance like a person's habit.
"""
from __future__ import annotations

import numpy as np

Glyph = tuple[tuple[tuple[float, float], ...], ...]

GLYPHS: dict[str, tuple[Glyph, ...]] = {
    "0": ((((0.30, 0.00), (0.09, 0.14), (0.02, 0.50), (0.10, 0.86), (0.30, 1.00), (0.50, 0.86),
            (0.57, 0.50), (0.50, 0.14), (0.30, 0.00), (0.20, 0.05)),),),
    "1": ((((0.10, 0.24), (0.32, 0.00), (0.32, 0.00), (0.32, 1.00)),),
          (((0.30, 0.00), (0.30, 1.00)),),
          (((0.10, 0.22), (0.32, 0.00), (0.32, 0.00), (0.32, 1.00)), ((0.12, 1.00), (0.52, 1.00)))),
    "2": ((((0.04, 0.24), (0.14, 0.06), (0.32, 0.00), (0.50, 0.08), (0.55, 0.27), (0.46, 0.46),
            (0.02, 1.00), (0.02, 1.00), (0.58, 0.98)),),),
    "3": ((((0.04, 0.12), (0.25, 0.00), (0.48, 0.06), (0.52, 0.24), (0.42, 0.40), (0.24, 0.47),
            (0.24, 0.47), (0.46, 0.55), (0.56, 0.74), (0.48, 0.93), (0.26, 1.00), (0.02, 0.90)),),),
    "4": ((((0.40, 0.00), (0.40, 0.00), (0.00, 0.66), (0.00, 0.66), (0.58, 0.66)), ((0.44, 0.28), (0.44, 1.00))),
          (((0.06, 0.00), (0.02, 0.55), (0.02, 0.55), (0.56, 0.55)), ((0.46, 0.00), (0.46, 1.00)))),
    "5": ((((0.10, 0.02), (0.06, 0.44), (0.06, 0.44), (0.30, 0.37), (0.50, 0.46), (0.57, 0.68),
            (0.48, 0.90), (0.26, 1.00), (0.02, 0.90)), ((0.10, 0.02), (0.54, 0.00))),),
    "6": ((((0.48, 0.04), (0.28, 0.06), (0.10, 0.28), (0.04, 0.60), (0.12, 0.90), (0.30, 1.00), (0.50, 0.90),
            (0.55, 0.70), (0.46, 0.54), (0.28, 0.50), (0.10, 0.60), (0.05, 0.72)),),),
    "7": ((((0.00, 0.02), (0.58, 0.02), (0.58, 0.02), (0.34, 0.50), (0.22, 1.00)),),
          (((0.00, 0.02), (0.58, 0.02), (0.58, 0.02), (0.34, 0.50), (0.22, 1.00)), ((0.14, 0.53), (0.50, 0.50)))),
    "8": ((((0.48, 0.12), (0.30, 0.00), (0.10, 0.10), (0.10, 0.30), (0.30, 0.46), (0.52, 0.62), (0.56, 0.84),
            (0.30, 1.00), (0.04, 0.84), (0.08, 0.62), (0.30, 0.46), (0.48, 0.30), (0.48, 0.12)),),),
    "9": ((((0.54, 0.24), (0.42, 0.04), (0.24, 0.00), (0.06, 0.12), (0.06, 0.34), (0.24, 0.46), (0.44, 0.40),
            (0.54, 0.24), (0.54, 0.24), (0.50, 0.62), (0.44, 1.00)),),),
    "-": ((((0.04, 0.52), (0.46, 0.50)),),),
}
GLYPH_WIDTH = 0.6


def spline(points: np.ndarray, per_segment: int = 8) -> np.ndarray:
    """A smooth Catmull-Rom curve through ``points``; a repeated point becomes a corner."""
    points = np.asarray(points, np.float64)
    if len(points) < 3:
        t = np.linspace(0, 1, per_segment + 1)[:, None]
        return points[0] + t * (points[-1] - points[0])
    padded = np.vstack([2 * points[0] - points[1], points, 2 * points[-1] - points[-2]])
    t = np.linspace(0, 1, per_segment, endpoint=False)[:, None]
    pieces = []
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1:i + 3]
        if np.allclose(p1, p2):
            continue
        pieces.append(0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                             + (3 * p1 - p0 - 3 * p2 + p3) * t ** 3))
    pieces.append(points[-1:])
    return np.vstack(pieces)


def glyph_strokes(char: str, rng: np.random.Generator, slop: float, variant: int | None = None) -> list[np.ndarray]:
    """The strokes of one handwritten character in the unit box, key points jittered by ``slop``."""
    variants = GLYPHS[char]
    glyph = variants[rng.integers(len(variants)) if variant is None else variant % len(variants)]
    strokes = []
    for keys in glyph:
        keys = np.array(keys, np.float64)
        jitter = rng.normal(0, 0.035 * slop, keys.shape)
        same = np.all(np.isclose(keys[1:], keys[:-1]), axis=1)   # keep repeated points together: corners
        for i in np.flatnonzero(same):
            jitter[i + 1] = jitter[i]
        strokes.append(spline(keys + jitter))
    return strokes


def write_text(text: str, centre_mm: tuple[float, float], height_mm: float, rng: np.random.Generator, *,
               slop: float = 1.0, slant: float = 0.15, angle_deg: float = 0.0,
               habits: dict[str, int] | None = None) -> list[np.ndarray]:
    """Polylines in paper millimetres for ``text`` (digits and '-') written around ``centre_mm``.

    ``slant`` shears the letters forwards (0.2 is a clear italic); ``habits`` fixes a
    variant per character so one writer's 7s all look alike.
    """
    strokes, x = [], 0.0
    for char in text:
        width = GLYPH_WIDTH * rng.uniform(0.85, 1.15)
        for stroke in glyph_strokes(char, rng, slop, (habits or {}).get(char)):
            stroke = stroke * [width / GLYPH_WIDTH, 1.0] + [x, rng.normal(0, 0.03 * slop)]
            strokes.append(stroke)
        x += width + rng.uniform(0.12, 0.25)
    every = np.vstack(strokes)
    middle = (every.min(axis=0) + every.max(axis=0)) / 2
    turn = np.radians(angle_deg)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    placed = []
    for stroke in strokes:
        local = stroke - middle
        local[:, 0] -= slant * local[:, 1]          # y grows down: the top leans right
        placed.append(local @ rotation.T * height_mm + np.asarray(centre_mm, np.float64))
    return placed
