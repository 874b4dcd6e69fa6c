"""Reading the expansion marks of one rectified sheet (RULES.md section 2): Diamonds and Emeralds crossed
out, the halves of the Curse Track filled in, Rune Gates filled in.

Like ``scanner.read``, everything works on the registered ink map (0 paper,
1 surely ink, ``px_per_mm`` pixels per paper millimetre, row 0 at the top of
the page) and the sheet layout's millimetres. Each mark gets a yes or no, how
strongly the ink says so, and a confidence; below ``SURE`` a person looks.

- A cross-out (any X, slash or scribble) runs across its mark box: the share of
  the inner box's rows and of its columns that hold ink, whichever is less.
  A path never enters the box by design; a stroke that only touches its edge
  stays out of the inner box.
- A Curse Track half is filled when hatching, a scribble or solid ink covers
  most of it: the share of the half lying within ``FILL_REACH_MM`` of ink. Ink
  in its middle that covers little of it (a tick) is a doubt. A fold's crease
  straight along the track, a thin line through every half it crosses, would
  cover half of each: it is cleared first (``without_track_creases``).
- A Rune Gate's circle is filled when ink covers it as a surface: a path
  crosses the gate as a line (or two, each room's stroke ending near the side,
  or a corner's curve), which the scribble of a fill is not. Strokes closer
  than ``GATE_GAP_MM`` run together; what stays narrower than ``GATE_LINE_MM``
  is a line and does not count.
- The ink map takes the paper's white from a window a few millimetres wide, so a
  solid fill keeps only its outline there: what an outline encloses counts as
  ink (``solid_fills``).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from games.review import Rule
from games.board import Marks
from scanner.ink import CREASE_BAND_MM, cleared_creases, runs
from scanner.read import INKED, SURE

CROSS_INSET = 0.17         # the inner box: this share of the mark box is left off each edge (overshoots)
CROSSED, NOT_CROSSED = 0.55, 0.2          # row/column share of the inner box: sure above / below
FILL_INSET_MM = 0.5        # a fill may spill this far over a half's edge from the other half
FILL_REACH_MM = 0.6        # a pixel within this of ink is covered (hatching 1-1.5 mm apart covers all)
FILLED, NOT_FILLED = 0.55, 0.25           # covered share of a half: sure above / below
OUTLINE_GAP_MM = 0.8       # gaps in a solid fill's outline bridged before its inside is filled
OWN_SHARE = 0.25           # a stroke with less of itself in a half than this is another half's
CORE_INSET_MM = 1.2        # ink this far inside a half is the player's, not an overshoot
GATE_INSET_MM = 0.15       # the circle read is this much inside the printed one
GATE_GAP_MM = 1.2          # strokes of a fill this close run together into a surface
GATE_LINE_MM = 2.0         # a stroke narrower than this is a line (a path), not a surface
GATE_FILLED, GATE_EMPTY = 0.45, 0.15      # share of the circle covered as a surface: sure above / below
TRACK_CREASE_COVER = 0.8   # a narrow band of ink across this share of the Curse Track's halves ...
TRACK_CREASE_ALONE = 0.1   # ... a thin line with paper either side across this share of them at least, is a crease


@dataclass(frozen=True)
class MarkReading:
    """One mark read: ``where`` names it as needs_review does, ``label`` as a person says it."""

    kind: str                   # "diamond", "emerald", "curse_top", "curse_bottom", "gate"
    number: int | None          # the Diamond's or Emerald's number, the Curse Track space
    where: str                  # "C4", "curse track space 2 (top)", "C4-D4"
    label: str                  # "Diamond 4", "the top half of Curse Track space 2", "Rune Gate C4-D4"
    marked: bool
    strength: float
    confidence: float
    doubts: tuple[str, ...] = ()
    side: frozenset | None = None   # a gate's side

    def to_json(self) -> dict:
        return {"kind": self.kind, "where": self.where, "marked": self.marked, "strength": self.strength,
                "confidence": self.confidence}


@dataclass(frozen=True)
class MarksReading:
    """Every expansion mark of one sheet read."""

    readings: tuple[MarkReading, ...]
    curse_spaces: int = 0

    @property
    def marks(self) -> Marks:
        """What was read, as the board holds it."""
        marked = [r for r in self.readings if r.marked]
        top = {r.number for r in marked if r.kind == "curse_top"}
        bottom = {r.number for r in marked if r.kind == "curse_bottom"}
        return Marks(diamonds=frozenset(r.number for r in marked if r.kind == "diamond"),
                     emeralds=frozenset(r.number for r in marked if r.kind == "emerald"),
                     curse_top=tuple(k in top for k in range(1, self.curse_spaces + 1)),
                     curse_bottom=tuple(k in bottom for k in range(1, self.curse_spaces + 1)),
                     gates=frozenset(r.side for r in marked if r.kind == "gate"))

    def review(self) -> list[dict]:
        """The marks a person should look at, as ``needs_review`` entries (rule ``unsure_mark``)."""
        return [{"where": r.where, "rule": Rule.UNSURE_MARK, "confidence": r.confidence,
                 "why": f"{r.label}: " + ("; ".join(r.doubts) or "is it marked?") +
                        f" (read as {'marked' if r.marked else 'not marked'})"}
                for r in self.readings if r.confidence < SURE]

    def confidence(self) -> float:
        return min([1.0] + [r.confidence for r in self.readings])


def has_marks(layout) -> bool:
    """Whether a sheet's map has anything a player marks besides paths: its scan carries ``marks``."""
    return bool(layout.dungeon.expansion_features())


def read_marks(ink: np.ndarray, layout, px_per_mm: float) -> MarksReading:
    """Every Diamond, Emerald, Curse Track half and Rune Gate of a sheet (a ``sheets.dungeon.SheetLayout``)."""
    readings = []
    for cell in layout.rooms:
        if cell.mark is None:
            continue
        kind = cell.items[0].split(":")[0]
        number = int(cell.items[0].split(":")[1])
        crossed, strength, confidence, doubts = read_cross(ink, cell.mark, px_per_mm)
        readings.append(MarkReading(kind, number, cell.room.name, f"{kind.title()} {number} in {cell.room.name}",
                                    crossed, strength, confidence, doubts))
    if layout.curse:
        ink = solid_fills(without_track_creases(ink, layout.curse, layout.curse_box, px_per_mm), layout.curse_box,
                          px_per_mm)
    for space in layout.curse:
        for half, rect in (("top", space.top), ("bottom", space.bottom)):
            filled, strength, confidence, doubts = read_half(own_ink(ink, rect, layout.curse_box, px_per_mm), rect,
                                                             px_per_mm)
            readings.append(MarkReading(f"curse_{half}", space.number, f"curse track space {space.number} ({half})",
                                        f"the {half} half of Curse Track space {space.number}", filled, strength,
                                        confidence, doubts))
    for gate in layout.gates():
        filled, strength, confidence, doubts = read_gate(ink, gate.centre, gate.radius, px_per_mm)
        readings.append(MarkReading("gate", None, gate.name, f"Rune Gate {gate.name} ({gate.what})", filled,
                                    strength, confidence, doubts, side=gate.side))
    return MarksReading(tuple(readings), len(layout.curse))


# -- the readers: an ink map and a place on the sheet in, (marked, strength, confidence, doubts) out --------

def read_cross(ink: np.ndarray, box, px_per_mm: float) -> tuple[bool, float, float, tuple[str, ...]]:
    """Whether a Diamond's or Emerald's box (a ``Rect``, mm) is crossed out: an X, a slash or a scribble
    across it. The strength is the share of the inner box's rows and of its columns that hold ink, the
    less of the two: a cross-out spans the box both ways, an overshoot touching its edge neither."""
    inset_x, inset_y = box.w * CROSS_INSET, box.h * CROSS_INSET
    inner = _crop(ink, box.x + inset_x, box.y + inset_y, box.right - inset_x, box.bottom - inset_y, px_per_mm)
    inked = inner >= INKED
    if not inked.any():
        return False, 0.0, 1.0, ()
    strength = round(float(min(inked.any(axis=1).mean(), inked.any(axis=0).mean())), 3)
    crossed = strength >= (CROSSED + NOT_CROSSED) / 2
    confidence = _margin(strength, NOT_CROSSED, CROSSED)
    doubts = ()
    if confidence < SURE:
        doubts = ("a mark on it that may not cross it out",) if crossed else \
            ("ink on it that does not cross it out",)
    return crossed, strength, confidence, doubts


def read_half(ink: np.ndarray, half, px_per_mm: float) -> tuple[bool, float, float, tuple[str, ...]]:
    """Whether one half of a Curse Track space (a ``Rect``, mm) is filled in: hatching, a scribble or solid
    ink over most of it. A small tick inside it is a doubt, ink that only spills over its edge is not."""
    inner = _crop(ink, half.x + FILL_INSET_MM, half.y + FILL_INSET_MM, half.right - FILL_INSET_MM,
                  half.bottom - FILL_INSET_MM, px_per_mm)
    inked = (inner >= INKED).astype(np.uint8)
    if not inked.any():
        return False, 0.0, 1.0, ()
    reach = max(1, int(round(FILL_REACH_MM * px_per_mm)))
    covered = cv2.dilate(inked, _disc(reach))
    strength = round(float(covered.mean()), 3)
    filled = strength >= (FILLED + NOT_FILLED) / 2
    confidence = _margin(strength, NOT_FILLED, FILLED)
    core = int(round((CORE_INSET_MM - FILL_INSET_MM) * px_per_mm))
    in_core = float(inked[core:inked.shape[0] - core, core:inked.shape[1] - core].sum()) / px_per_mm ** 2
    doubts = ()
    if not filled and in_core >= 0.6:
        # Ink in the middle of the half is the player's: a tick, or a fill gone faint.
        confidence = min(confidence, 0.45)
    if confidence < SURE:
        doubts = ("a mark in it that may not fill it",) if filled else ("a small mark in it: a tick, or a fill?",)
    return filled, strength, confidence, doubts


def read_gate(ink: np.ndarray, centre: tuple[float, float], radius: float, px_per_mm: float
              ) -> tuple[bool, float, float, tuple[str, ...]]:
    """Whether a Rune Gate's circle (centre and radius in mm) is filled in. A path runs through it as a
    line (straight or curving, one from each room, maybe ending in it), whichever way it crosses. The strength is the share of the circle that ink covers as a surface: strokes
    closer than ``GATE_GAP_MM`` run together, and what is narrower than ``GATE_LINE_MM`` is a line."""
    half = int(np.ceil((radius + 1.5) * px_per_mm))
    cx, cy = centre[0] * px_per_mm - 0.5, centre[1] * px_per_mm - 0.5       # pixel centres at whole numbers
    x0, y0 = int(round(cx)) - half, int(round(cy)) - half
    window = _crop(ink, x0 / px_per_mm, y0 / px_per_mm, (x0 + 2 * half + 1) / px_per_mm,
                   (y0 + 2 * half + 1) / px_per_mm, px_per_mm)
    size = window.shape[0]
    offsets = (np.arange(size) + x0 - cx) / px_per_mm
    offsets_y = (np.arange(size) + y0 - cy) / px_per_mm
    circle = np.hypot(offsets[None, :], offsets_y[:, None]) <= radius - GATE_INSET_MM
    inked = (window >= INKED).astype(np.uint8)
    if not inked[circle].any():
        return False, 0.0, 1.0, ()
    gap = max(1, int(round(GATE_GAP_MM / 2 * px_per_mm)))
    line = max(1, int(round(GATE_LINE_MM / 2 * px_per_mm)))
    # A dense fill keeps only its outline in the ink map (see ``solid_fills``): what it encloses is ink.
    joined = _holes_filled(cv2.morphologyEx(inked, cv2.MORPH_CLOSE, _disc(gap)),
                           max_area=1.3 * np.pi * (radius * px_per_mm) ** 2)
    surface = cv2.morphologyEx(joined, cv2.MORPH_OPEN, _disc(line))
    strength = round(float(surface[circle].mean()), 3)
    filled = strength >= (GATE_FILLED + GATE_EMPTY) / 2
    confidence = _margin(strength, GATE_EMPTY, GATE_FILLED)
    doubts: tuple[str, ...] = ()
    if confidence < SURE:
        doubts = ("ink in it beside the path: filled in?",)
    return filled, strength, confidence, doubts


def without_track_creases(ink: np.ndarray, spaces, box, px_per_mm: float) -> np.ndarray:
    """The ink map with a fold's crease along the Curse Track (``spaces``, inside ``box``) cleared: a thin
    line straight across the halves of a row, which covers half of each once widened by ``FILL_REACH_MM``
    (and with a half's printed edge shown a little off, encloses it as a solid fill's outline would). It is
    a narrow band of rows holding ink across ``TRACK_CREASE_COVER`` of the halves' width, in which at least
    ``TRACK_CREASE_ALONE`` of it is a lone line with paper 1-2 mm above and below; where fills meet at the
    halves' dividing line, they leave no paper there. Strokes crossing the band are carried across it
    (``scanner.ink.cleared_creases``). (234 folded photos kept from earlier runs of the accuracy benchmark:
    of 1872 halves, 75 read wrong before, 14 of them sure; 4 after, and none read right before read wrong.)"""
    top = int(spaces[0].top.y * px_per_mm) - 3
    bottom = int(np.ceil(spaces[0].bottom.bottom * px_per_mm)) + 3
    columns = np.zeros(ink.shape[1], bool)
    for space in spaces:
        columns[int(np.ceil((space.top.x + FILL_INSET_MM) * px_per_mm)):
                int((space.top.right - FILL_INSET_MM) * px_per_mm)] = True
    inked = (ink[top:bottom, columns] >= INKED).astype(np.uint8)
    band = max(1, int(round(CREASE_BAND_MM / 2 * px_per_mm)))
    cover = cv2.dilate(inked, np.ones((2 * band + 1, 1), np.uint8)).mean(axis=1) >= TRACK_CREASE_COVER
    creases = []
    for first, last in runs(cover):
        if last + 1 - first > 2 * CREASE_BAND_MM * px_per_mm + 2 * band:
            continue                    # ink across the track this tall is the players' fills
        middle = (first + last) // 2
        near, far = band + 2, band + 6
        line = inked[max(middle - band, 0):middle + band + 1].any(axis=0)
        above = inked[max(middle - far, 0):max(middle - near, 0)].any(axis=0)
        below = inked[middle + near + 1:middle + far + 1].any(axis=0)
        if (line & ~above & ~below).mean() >= TRACK_CREASE_ALONE:
            creases.append((False, top + middle))
    if not creases:
        return ink
    area = tuple(int(round(v * px_per_mm)) for v in (box.x, box.y, box.right, box.bottom))
    return cleared_creases(ink, creases, area, px_per_mm)


def solid_fills(ink: np.ndarray, box, px_per_mm: float, margin_mm: float = 1.5) -> np.ndarray:
    """The ink map with the insides of solid fills in ``box`` (a ``Rect``, mm) made ink: the ink map takes
    the paper's white from a window a few mm wide, so a solid fill wider than that keeps only its outline.
    What an outline encloses is filled; a copy."""
    out = ink.copy()
    c0, r0 = max(0, int((box.x - margin_mm) * px_per_mm)), max(0, int((box.y - margin_mm) * px_per_mm))
    c1 = min(ink.shape[1], int(np.ceil((box.right + margin_mm) * px_per_mm)))
    r1 = min(ink.shape[0], int(np.ceil((box.bottom + margin_mm) * px_per_mm)))
    region = (ink[r0:r1, c0:c1] >= INKED).astype(np.uint8)
    # The outline is thin and broken where the strokes of the fill end: gaps are bridged first.
    bridged = cv2.morphologyEx(region, cv2.MORPH_CLOSE, _disc(max(1, int(round(OUTLINE_GAP_MM / 2 * px_per_mm)))))
    holes = _holes_filled(bridged).astype(bool) & ~region.astype(bool)
    out[r0:r1, c0:c1][holes] = 1.0
    return out


def own_ink(ink: np.ndarray, half, box, px_per_mm: float) -> np.ndarray:
    """The ink map with, around the Curse Track (``box``), the strokes that belong to the other row left out:
    a stroke (joined ink) lying mostly outside the row of ``half`` is a fill of the other row spilling
    over. A copy
    of the track's part of the map only where something is left out."""
    c0, r0 = max(0, int((box.x - 1.5) * px_per_mm)), max(0, int((box.y - 1.5) * px_per_mm))
    c1 = min(ink.shape[1], int(np.ceil((box.right + 1.5) * px_per_mm)))
    r1 = min(ink.shape[0], int(np.ceil((box.bottom + 1.5) * px_per_mm)))
    region = ink[r0:r1, c0:c1]
    count, labels, stats, _ = cv2.connectedComponentsWithStats((region >= INKED).astype(np.uint8), connectivity=8)
    if count <= 1:
        return ink
    # The half's row of the track: fills of neighbouring halves in the same row may run into one piece.
    inside = np.zeros(region.shape, bool)
    inside[max(0, int(half.y * px_per_mm) - r0):int(np.ceil(half.bottom * px_per_mm)) - r0, :] = True
    share = np.bincount(labels[inside], minlength=count) / np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    own = np.zeros(region.shape, bool)
    own[max(0, int(half.y * px_per_mm) - r0):int(np.ceil(half.bottom * px_per_mm)) - r0,
        max(0, int(half.x * px_per_mm) - c0):int(np.ceil(half.right * px_per_mm)) - c0] = True
    # ... unless it covers much of this half too: both halves filled, running into one piece.
    foreign = (share < OWN_SHARE) & (np.bincount(labels[own], minlength=count) < 0.35 * own.sum())
    foreign[0] = False
    if not foreign[labels[inside]].any():
        return ink
    out = ink.copy()
    out[r0:r1, c0:c1][foreign[labels] | ((region > 0) & (region < INKED) & ~inside)] = 0.0
    return out


def _holes_filled(mask: np.ndarray, max_area: float | None = None) -> np.ndarray:
    """A 0/1 mask with what it encloses (not reached from its border) set, holes above ``max_area``
    pixels left alone."""
    padded = np.pad(mask, 1).astype(np.uint8)
    flood = padded.copy()
    cv2.floodFill(flood, None, (0, 0), 1)
    holes = (flood[1:-1, 1:-1] == 0)
    if max_area is not None and holes.any():
        count, labels, stats, _ = cv2.connectedComponentsWithStats(holes.astype(np.uint8), connectivity=4)
        small = stats[:, cv2.CC_STAT_AREA] <= max_area
        small[0] = False
        holes = small[labels]
    return (mask.astype(bool) | holes).astype(np.uint8)


def _crop(ink: np.ndarray, x0: float, y0: float, x1: float, y1: float, px_per_mm: float) -> np.ndarray:
    """The ink between two corners (mm), zero where it runs off the map."""
    c0, r0 = int(round(x0 * px_per_mm)), int(round(y0 * px_per_mm))
    c1, r1 = max(c0 + 1, int(round(x1 * px_per_mm))), max(r0 + 1, int(round(y1 * px_per_mm)))
    out = np.zeros((r1 - r0, c1 - c0), np.float32)
    rows = slice(max(r0, 0), min(r1, ink.shape[0]))
    cols = slice(max(c0, 0), min(c1, ink.shape[1]))
    if rows.start < rows.stop and cols.start < cols.stop:
        out[rows.start - r0:rows.stop - r0, cols.start - c0:cols.stop - c0] = ink[rows, cols]
    return out


def _margin(strength: float, low: float, high: float) -> float:
    """Confidence in a yes/no: sure outside the band between ``low`` and ``high``, unsure (below ``SURE``)
    inside it, least in its middle."""
    if strength <= low or strength >= high:
        return 1.0
    middle, half = (low + high) / 2, (high - low) / 2
    return round(0.5 * abs(strength - middle) / half, 3)


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
