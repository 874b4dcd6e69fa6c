"""The hand on an expansion map: Diamonds and Emeralds crossed out, Curse Track halves and Rune Gates filled.

A player crosses a mark out with an X, a single slash or a scribble, sometimes
sloppily, running a little past its box; fills a Curse Track half by hatching,
a scribble or solid ink; fills a gate's circle with a scribble. Every random
choice comes from the pen's ``rng`` (a stream of its own, so the classic sheets
draw exactly as before).
"""
from __future__ import annotations

import numpy as np

from games.board import Marks
from sheets.dungeon import SheetLayout
from sheets.page import Rect

CROSS_STYLES = ("x", "slash", "scribble")
FILL_STYLES = ("hatch", "scribble", "solid")


def draw_marks(pen, layout: SheetLayout, marks: Marks, *, sloppy: float = 0.3) -> dict:
    """Draw ``marks`` on the sheet with ``pen``; how each was drawn, by where (for the truth)."""
    how = {}
    for cell in layout.rooms:
        if cell.mark is None:
            continue
        kind, number = cell.items[0].split(":")
        crossed = marks.diamonds if kind == "diamond" else marks.emeralds
        if int(number) in crossed:
            how[cell.room.name] = cross_out(pen, cell.mark, sloppy=sloppy)
    for space in layout.curse:
        for half, rect, filled in (("top", space.top, marks.curse_top), ("bottom", space.bottom, marks.curse_bottom)):
            if space.number <= len(filled) and filled[space.number - 1]:
                how[f"curse track space {space.number} ({half})"] = fill_half(pen, rect, sloppy=sloppy)
    for gate in layout.gates():
        if gate.side in marks.gates:
            how[gate.name] = fill_gate(pen, gate.centre, gate.radius, sloppy=sloppy)
    return how


def cross_out(pen, box: Rect, *, style: str | None = None, sloppy: float = 0.3) -> str:
    """Cross out a Diamond's or Emerald's box: an X, a slash or a scribble, sometimes past its edges."""
    rng = pen.rng
    style = style or str(rng.choice(CROSS_STYLES, p=[0.5, 0.3, 0.2]))
    careless = rng.random() < sloppy
    size = box.w * rng.uniform(0.75, 1.0 if not careless else 1.25)
    centre = np.asarray(box.centre) + rng.normal(0, 0.06 * box.w, 2).clip(-0.15 * box.w, 0.15 * box.w)
    half = size / 2
    if style == "x":
        for corner in ((-1, -1), (1, -1)):
            a = centre + np.array(corner) * half + rng.normal(0, 0.25, 2)
            b = centre - np.array(corner) * half + rng.normal(0, 0.25, 2)
            pen.stroke(np.vstack([a, b]), wobble=0.1)
    elif style == "slash":
        lean = 1 if rng.random() < 0.8 else -1         # most hands slash from lower left to upper right
        a = centre + np.array([-half, lean * half]) + rng.normal(0, 0.25, 2)
        b = centre + np.array([half, -lean * half]) + rng.normal(0, 0.25, 2)
        pen.stroke(np.vstack([a, b]), wobble=0.1)
    else:
        turns = int(rng.integers(4, 8))
        t = np.linspace(0, 1, turns + 1)
        xs = centre[0] - half + size * t
        ys = centre[1] + np.where(np.arange(turns + 1) % 2 == 0, -half, half) * rng.uniform(0.7, 1.0, turns + 1)
        pen.stroke(np.column_stack([xs, ys]), wobble=0.08)
    return style


def fill_half(pen, half: Rect, *, style: str | None = None, sloppy: float = 0.3) -> str:
    """Fill one half of a Curse Track space: hatching, a scribble or solid, sometimes a little past it."""
    rng = pen.rng
    style = style or str(rng.choice(FILL_STYLES, p=[0.45, 0.35, 0.2]))
    spill = rng.uniform(0.0, 0.5) if rng.random() < sloppy else rng.uniform(-0.5, 0.0)
    inner = half.grown(spill)
    width = pen.style.width_mm
    if style == "hatch":
        gap = rng.uniform(0.9, 1.4) + 0.3 * width
        lines = _hatch_lines(inner, gap, np.radians(rng.choice([45, -45, 60, -60, 90])))
        for a, b in lines:
            pen.stroke(np.vstack([a, b]), wobble=0.05)
    elif style == "scribble":
        gap = rng.uniform(0.7, 1.1) + 0.3 * width
        points = _zigzag(inner, gap, rng)
        pen.stroke(points, wobble=0.05)
    else:
        gap = max(0.35, 0.7 * width)
        for a, b in _hatch_lines(inner, gap, 0.0):
            pen.stroke(np.vstack([a, b]), wobble=0.03)
    return style


def fill_gate(pen, centre, radius: float, *, sloppy: float = 0.3) -> str:
    """Fill a Rune Gate's circle with a scribble back and forth across it, or solid (the scribble dense)."""
    rng = pen.rng
    reach = radius * (rng.uniform(0.95, 1.12) if rng.random() < sloppy else rng.uniform(0.78, 0.95))
    solid = rng.random() < 0.25
    gap = max(0.3, 0.6 * pen.style.width_mm) if solid else rng.uniform(0.6, 0.9) + 0.3 * pen.style.width_mm
    angle = rng.uniform(0, np.pi)
    along, across = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    offsets = np.arange(-reach + gap / 2, reach, gap)
    points = []
    for i, d in enumerate(offsets):
        chord = np.sqrt(max(reach ** 2 - d ** 2, 0.0)) * rng.uniform(0.85, 1.0)
        ends = [-chord, chord] if i % 2 == 0 else [chord, -chord]
        points += [np.asarray(centre) + across * d + along * e for e in ends]
    pen.stroke(np.array(points), wobble=0.04)
    return "solid" if solid else "scribble"


def draw_tick(pen, half: Rect) -> None:
    """A small tick in a half: what a player may make instead of filling it (a doubt to the scanner)."""
    rng = pen.rng
    x, y = half.centre
    a = np.array([x - 1.0, y]) + rng.normal(0, 0.2, 2)
    b = np.array([x - 0.2, y + 0.9]) + rng.normal(0, 0.1, 2)
    c = np.array([x + 1.3, y - 1.2]) + rng.normal(0, 0.2, 2)
    pen.stroke(np.vstack([a, b, c]), wobble=0.03)


def _hatch_lines(rect: Rect, gap: float, angle: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Parallel lines ``gap`` apart at ``angle`` (0 = across), clipped to ``rect``."""
    direction = np.array([np.cos(angle), np.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    centre = np.asarray(rect.centre)
    corners = np.array([[rect.x, rect.y], [rect.right, rect.y], [rect.right, rect.bottom], [rect.x, rect.bottom]])
    span = (corners - centre) @ normal
    lines = []
    for d in np.arange(span.min() + gap / 2, span.max(), gap):
        base = centre + normal * d
        ts = []
        for axis, low, high in ((0, rect.x, rect.right), (1, rect.y, rect.bottom)):
            if abs(direction[axis]) < 1e-9:
                if not low <= base[axis] <= high:
                    ts = None
                    break
                continue
            t0, t1 = sorted(((low - base[axis]) / direction[axis], (high - base[axis]) / direction[axis]))
            ts.append((t0, t1))
        if ts is None:
            continue
        start, stop = max(t[0] for t in ts), min(t[1] for t in ts)
        if stop - start > 0.3:
            lines.append((base + direction * start, base + direction * stop))
    return lines


def _zigzag(rect: Rect, gap: float, rng: np.random.Generator) -> np.ndarray:
    """A scribble back and forth across ``rect``, advancing ``gap`` each way."""
    upright = rect.h > rect.w if rng.random() < 0.7 else rect.h <= rect.w
    steps = np.arange(0, (rect.w if not upright else rect.h) + 1e-9, gap)
    points = []
    for i, s in enumerate(steps):
        far = i % 2 == 1
        if upright:
            points.append((rect.x + (rect.w if far else 0) + rng.normal(0, 0.15), rect.y + s))
        else:
            points.append((rect.x + s, rect.y + (rect.h if far else 0) + rng.normal(0, 0.15)))
    return np.array(points)
