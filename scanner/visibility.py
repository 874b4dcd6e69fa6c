"""What the camera could not see: rooms under glare, a deep shadow, a finger or an object lying on the sheet.

A room whose print the photo does not show cannot be read, and must never be
read as empty. Two signs, each measured against what the blank sheet prints:

- **washed out**: the printed lines of the room show much less of their
  darkness than the blank has them (glare, or a shadow so deep the print is
  lost), compared after blurring both by a millimetre so that a thin line
  softened by the lens still counts whole;
- **covered**: the paper's own colour, found the way ``scanner.ink`` finds
  it (a closing that fills in lines and strokes), is far darker or far more
  coloured than the sheet's paper around it: a pen, a phone, a finger. A
  shadow darkens paper by half at most and keeps its colour.

Images here are rectified like ``scanner.ink``'s: row 0 at the top of the
reading area, ``px_per_mm`` pixels per paper millimetre.
"""
from __future__ import annotations

import cv2
import numpy as np

COVER_PX_PER_MM = 1.0      # the covering test's resolution: objects are millimetres wide, not tenths
PAPER_AROUND_MM = 60.0     # the sheet's paper colour is the median over a window this wide
CLOSE_MM = 5.0             # ... of the paper colour found under lines and strokes narrower than this
COVERED_LEVEL = 0.4        # paper darker than this share of the paper around it has something on it
COVERED_CHROMA = 0.2       # ... and so has paper whose colour strays this far from the paper around it
BLUR_MM = 1.0              # print and photo are compared blurred this much
PRINTED = 0.12             # blurred blank darkness above which a pixel is print
PRINT_SEEN = 0.35          # print showing less than this share of its darkness is not seen
UNSEEN_SHARE = 0.12        # a room is hidden when this share of its print is not seen
COVERED_SHARE = 0.04       # ... or this share of its area is covered (16 mm² of a 20 mm room)


def covered(region_rgb: np.ndarray) -> np.ndarray:
    """Where something other than paper lies on the sheet (bool), for a rectified RGB image at
    ``COVER_PX_PER_MM``."""
    size = max(3, int(round(CLOSE_MM * COVER_PX_PER_MM)) | 1)
    paper = cv2.morphologyEx(region_rgb, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    height, width = paper.shape[:2]
    quarter = cv2.resize(paper, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    window = max(3, int(round(PAPER_AROUND_MM * COVER_PX_PER_MM / 4)) | 1)
    around = cv2.resize(cv2.medianBlur(quarter, window), (width, height), interpolation=cv2.INTER_LINEAR)
    relative = paper.astype(np.float32) / np.maximum(around.astype(np.float32), 1.0)
    level = relative.mean(axis=2)
    chroma = relative.max(axis=2) - relative.min(axis=2)
    return (level < COVERED_LEVEL) | (chroma > COVERED_CHROMA)


def print_seen(photo_dark: np.ndarray, blank_dark: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """How much of the print's darkness the registered photo shows, per pixel (1 all of it), and where
    the blank prints anything; ``photo_dark`` is ``scanner.ink.measure``'s (8-bit), ``blank_dark`` 0-1."""
    sigma = BLUR_MM * px_per_mm
    blank = cv2.GaussianBlur(blank_dark.astype(np.float32), (0, 0), sigma)
    photo = cv2.GaussianBlur(photo_dark, (0, 0), sigma).astype(np.float32) * (1 / 255)
    return photo / np.maximum(blank, 1e-3), blank > PRINTED


def hidden_rooms(layout, origin_mm: tuple[float, float], seen: np.ndarray, printed: np.ndarray, px_per_mm: float,
                 cover: np.ndarray, exclude=()) -> dict[str, str]:
    """Room name -> why it cannot be seen, for every room of ``layout`` (a ``SheetLayout``) that is hidden.
    ``seen``/``printed`` are ``print_seen``'s at ``px_per_mm``, ``cover`` is ``covered``'s, all with their
    top-left pixel at ``origin_mm``; ``exclude`` are rectangles (mm) whose own print or fill is the
    players' to change (a Rune Gate filled in, a Diamond crossed out)."""
    fair = np.ones(cover.shape, bool)
    for rect in exclude:
        a0, b0, a1, b1 = _box(rect, origin_mm, COVER_PX_PER_MM)
        fair[max(b0, 0):max(b1, 0), max(a0, 0):max(a1, 0)] = False
    found = {}
    for cell in layout.rooms:
        a0, b0, a1, b1 = _box(cell.rect, origin_mm, px_per_mm)
        room_print = printed[b0:b1, a0:a1]
        unseen = float((seen[b0:b1, a0:a1][room_print] < PRINT_SEEN).mean()) if room_print.any() else 0.0
        c0, d0, c1, d1 = _box(cell.rect, origin_mm, COVER_PX_PER_MM)
        room_fair = fair[d0:d1, c0:c1]
        over = float((cover[d0:d1, c0:c1] & room_fair).sum()) / max(float(room_fair.size), 1.0)
        if over >= COVERED_SHARE:
            found[cell.room.name] = "something lies over this room in the photo (a finger, a pen?)"
        elif unseen >= UNSEEN_SHARE:
            found[cell.room.name] = "the print of this room cannot be seen (glare, or a deep shadow?)"
    return found


def _box(rect, origin_mm: tuple[float, float], px_per_mm: float) -> tuple[int, int, int, int]:
    x0, y0 = origin_mm
    return tuple(int(round((v - o) * px_per_mm)) for v, o in
                 ((rect.x, x0), (rect.y, y0), (rect.right, x0), (rect.bottom, y0)))
