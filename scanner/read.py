"""Reading the marks of one rectified sheet: per room the sides a segment links to, Trap ``X``s, the
round number, and the tally beside scoring item 6.

Everything works on an ink map (``scanner.ink.ink_map``): 0 paper, 1 surely
ink, ``px_per_mm`` pixels per paper millimetre, row 0 at the top of the page.
Room geometry is relative to the room's side, so any room size reads the same.

Each reading carries a confidence in [0, 1]; below ``SURE`` a person should
look. Readings are what a careful person would say, never a silent guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from games.maps import SIDES

SURE = 0.6                     # below this confidence a reading goes to needs_review
INKED = 0.45                   # ink strength that counts as a stroke pixel
PROBE_DEPTH = (0.08, 0.27)     # the band, as fractions of the room, where a stroke to a side is sought
PROBE_HALF_WIDTH = 0.15        # ... either side of the side's midpoint
LINK, NO_LINK = 0.62, 0.3      # probe strengths: surely linked, surely not
ROUND_MARGIN_MM = 0.9          # a round number may spill this far out of its circle


@dataclass(frozen=True)
class RoomReading:
    """What is drawn in one room, how sure the scanner is, and why it is unsure."""

    room: str
    exits: str = ""
    trap: bool = False
    round: int | None = None
    confidence: float = 1.0
    doubts: tuple[str, ...] = ()
    strengths: dict = field(default_factory=dict)   # side -> probe strength, for the overlay

    @property
    def drawn(self) -> bool:
        return bool(self.exits) or self.trap


@dataclass(frozen=True)
class TallyReading:
    count: int
    confidence: float
    strokes: tuple[tuple[float, float], ...] = ()     # x centres (mm from the box's left) and kind (1 upright, 2 gate)
    doubts: tuple[str, ...] = ()


def room_crop(ink: np.ndarray, rect, px_per_mm: float) -> np.ndarray:
    """The ink inside one room's square, a copy."""
    x0, y0 = int(round(rect.x * px_per_mm)), int(round(rect.y * px_per_mm))
    size = int(round(rect.w * px_per_mm))
    return ink[y0:y0 + size, x0:x0 + size].copy()


def read_room(ink: np.ndarray, cell, px_per_mm: float, read_digit=None) -> RoomReading:
    """The reading of one room (a ``generator.layout.RoomCell``) from the sheet's ink map.

    ``read_digit(crop, px_per_mm, radius_mm=...) -> (digit | None, confidence)`` reads the round number.
    """
    crop = room_crop(ink, cell.rect, px_per_mm)
    size = crop.shape[0]
    digit_crop, crop = _split_round_box(crop, cell, px_per_mm)
    strengths = {side: _probe(crop, side) for side in SIDES}
    exits = "".join(side for side in SIDES if strengths[side] >= LINK)
    doubts = [f"is there a stroke to the {_SIDE_WORDS[side]} side?" for side in SIDES
              if NO_LINK < strengths[side] < LINK]
    confidence = min([1.0] + [_margin(strengths[side]) for side in SIDES])
    area = float((crop >= INKED).sum()) / (px_per_mm ** 2)     # mm² of ink outside the round box
    trap = False
    if not exits:
        trap, trap_conf, trap_doubt = _read_trap(crop, area, px_per_mm)
        confidence = min(confidence, trap_conf)
        doubts += trap_doubt
    elif len(exits) == 1 and _centre_ink(crop) < 0.25:
        doubts.append("a stroke reaches the side but not the middle of the room: a dead end?")
        confidence = min(confidence, 0.4)
    stray = _unexplained(crop, exits, size, px_per_mm) if exits else 0.0
    if stray > 6.0:
        doubts.append(f"{stray:.0f} mm² of ink that is not part of the path read")
        confidence = min(confidence, max(0.2, 1.0 - stray / 15.0))
    round_number = None
    if read_digit is not None and (exits or trap):
        round_number, digit_conf = read_digit(digit_crop, px_per_mm, radius_mm=cell.round_box[2])
        if round_number is not None and digit_conf < SURE:
            round_number = None
    return RoomReading(cell.room.name, exits, trap, round_number, round(float(confidence), 3),
                       tuple(doubts), {k: round(float(v), 3) for k, v in strengths.items()})


_SIDE_WORDS = {"N": "top", "E": "right", "S": "bottom", "W": "left"}


def _margin(strength: float) -> float:
    """1 where a probe is clearly linked or clearly not, falling to 0 halfway between."""
    middle = (LINK + NO_LINK) / 2
    return float(np.clip(abs(strength - middle) / ((LINK - NO_LINK) / 2) - 0.0, 0.0, 1.0)) ** 0.5


def _split_round_box(crop: np.ndarray, cell, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The crop around the round box (for the digit), and the room with the round box blanked out."""
    cx, cy, r = cell.round_box
    ox, oy = cell.rect.x, cell.rect.y
    centre = ((cx - ox) * px_per_mm, (cy - oy) * px_per_mm)
    half = int(round((r + 1.5) * px_per_mm))
    x, y = int(round(centre[0])), int(round(centre[1]))
    padded = np.pad(crop, half)
    digit = padded[y:y + 2 * half + 1, x:x + 2 * half + 1].copy()
    cleaned = crop.copy()
    cv2.circle(cleaned, (x, y), int(round((r + ROUND_MARGIN_MM) * px_per_mm)), 0.0, -1)
    return digit, cleaned


def _probe(crop: np.ndarray, side: str) -> float:
    """How surely a stroke runs from the middle of ``side`` into the room: the share of the probe band's
    lines (parallel to the side) that the stroke crosses."""
    size = crop.shape[0]
    d0, d1 = (int(round(f * size)) for f in PROBE_DEPTH)
    lo, hi = int(round((0.5 - PROBE_HALF_WIDTH) * size)), int(round((0.5 + PROBE_HALF_WIDTH) * size))
    band = {"N": crop[d0:d1, lo:hi], "S": crop[size - d1:size - d0, lo:hi][::-1],
            "W": crop[lo:hi, d0:d1].T, "E": crop[lo:hi, size - d1:size - d0].T[::-1]}[side]
    per_line = band.max(axis=1)
    return float(np.clip((per_line - 0.2) / (INKED + 0.15 - 0.2), 0, 1).mean())


def _centre_ink(crop: np.ndarray) -> float:
    size = crop.shape[0]
    a, b = int(0.32 * size), int(0.68 * size)
    centre = crop[a:b, a:b]
    return float(max(centre.max(axis=0).mean(), centre.max(axis=1).mean()))


def _read_trap(crop: np.ndarray, area: float, px_per_mm: float) -> tuple[bool, float, list[str]]:
    """With no stroke to any side: empty, a Trap ``X``, or a mark to look at."""
    if area < 2.5:
        return False, 1.0 if area < 1.2 else 0.8, []
    xness = _xness(crop, px_per_mm)
    if xness >= 0.75 and area >= 8.0:
        return True, min(1.0, 0.6 + (xness - 0.75) * 2.0), []
    if area < 5.0 and xness < 0.4:
        return False, 0.55, ["a small mark in the room: a smudge, or something drawn?"]
    return xness >= 0.55, 0.3, ["a mark that is neither a clear path nor a clear X"]


def _xness(crop: np.ndarray, px_per_mm: float) -> float:
    """How well the ink makes an ``X``: both diagonals through its middle inked, at the best small turn."""
    mask = (crop >= INKED).astype(np.uint8)
    ys, xs = np.nonzero(mask)
    if len(xs) < 10:
        return 0.0
    cx, cy = float(np.median(xs)), float(np.median(ys))
    reach = 0.5 * max(np.percentile(np.hypot(xs - cx, ys - cy), 90), 2.0 * px_per_mm)
    near = cv2.dilate(mask, _disc(max(1, int(round(0.8 * px_per_mm)))))
    best = 0.0
    for turn in np.radians(np.arange(-20, 21, 5)):
        scores = []
        for angle in (np.pi / 4 + turn, 3 * np.pi / 4 + turn):
            t = np.linspace(-reach, reach, 25)
            px = np.clip(np.round(cx + t * np.cos(angle)).astype(int), 0, crop.shape[1] - 1)
            py = np.clip(np.round(cy + t * np.sin(angle)).astype(int), 0, crop.shape[0] - 1)
            scores.append(near[py, px].mean())
        best = max(best, min(scores))
    return float(best)


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _unexplained(crop: np.ndarray, exits: str, size: int, px_per_mm: float) -> float:
    """Square millimetres of ink the read path does not account for: outside the corridors from the
    room's middle to each linked side (and the arcs a corner may be drawn as)."""
    allowed = np.zeros(crop.shape, np.uint8)
    width = max(1, int(round(0.22 * size)))
    centre = (size // 2, size // 2)
    mids = {"N": (size // 2, 0), "E": (size - 1, size // 2), "S": (size // 2, size - 1), "W": (0, size // 2)}
    for side in exits:
        cv2.line(allowed, centre, mids[side], 1, width)
    cv2.circle(allowed, centre, int(0.3 * size), 1, -1)
    for a, b in (("N", "E"), ("E", "S"), ("S", "W"), ("W", "N")):
        if a in exits and b in exits:
            corner = (size - 1 if "E" in a + b else 0, size - 1 if "S" in a + b else 0)
            cv2.circle(allowed, corner, size // 2, 1, width)
    stray = (crop >= INKED) & (allowed == 0)
    stray = cv2.morphologyEx(stray.astype(np.uint8), cv2.MORPH_OPEN, _disc(1))
    return float(stray.sum()) / px_per_mm ** 2


# -- the tally beside scoring item 6 ------------------------------------------------

def read_tally(ink: np.ndarray, box, px_per_mm: float) -> TallyReading:
    """The number of tally marks in a box (a ``generator.layout.Rect``): upright strokes, each crossing
    stroke of a five-bar gate counting one more."""
    grow = 1.0
    x0 = int(round((box.x + 0.6) * px_per_mm))
    x1 = int(round((box.right - 0.6) * px_per_mm))
    y0 = int(round((box.y - grow) * px_per_mm))
    y1 = int(round((box.bottom + grow) * px_per_mm))
    crop = ink[y0:y1, x0:x1]
    mask = (crop >= INKED).astype(np.uint8)
    height = mask.shape[0]
    upright = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((max(3, int(0.42 * height)), 1), np.uint8))
    profile = upright.max(axis=0)
    runs = _runs(profile)
    min_gap = 0.6 * px_per_mm
    merged: list[list[int]] = []
    for start, end in runs:
        if merged and start - merged[-1][1] < min_gap:
            merged[-1][1] = end
        else:
            merged.append([start, end])
    strokes = [((a + b) / 2 / px_per_mm, 1) for a, b in merged]
    leftover = mask & (cv2.dilate(upright, np.ones((1, 3), np.uint8)) == 0)
    gates = _diagonals(leftover, px_per_mm)
    strokes += [(x, 2) for x in gates]
    count = len(merged) + len(gates)
    doubts, confidence = [], 1.0
    wide = [b - a for a, b in merged if (b - a) > 2.2 * px_per_mm]
    if wide:
        doubts.append("tally marks drawn so close together they may run into each other")
        confidence = 0.4
    stray = float(leftover.sum()) / px_per_mm ** 2 - 3.0 * len(gates)
    if stray > 4.0:
        doubts.append("marks in the tally box that are neither upright strokes nor gates")
        confidence = min(confidence, 0.4)
    return TallyReading(count, confidence, tuple(sorted(strokes)), tuple(doubts))


def _runs(profile: np.ndarray) -> list[tuple[int, int]]:
    runs, start = [], None
    for i, value in enumerate(list(profile) + [0]):
        if value and start is None:
            start = i
        elif not value and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _diagonals(mask: np.ndarray, px_per_mm: float) -> list[float]:
    """The x centres (mm) of long slanted strokes: the fifth mark of each gate."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found = []
    for k in range(1, count):
        w, h = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        if w >= 2.5 * px_per_mm and h >= 0.3 * mask.shape[0] and stats[k, cv2.CC_STAT_AREA] >= 2.0 * px_per_mm ** 2:
            found.append(float(centroids[k][0]) / px_per_mm)
    return found
