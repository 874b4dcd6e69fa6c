"""Telling the players' ink from the print: a rectified photo against the blank sheet.

Both images are first *flattened* the same way: each is divided by its own
paper white, estimated by a morphological closing that fills in everything
narrower than a few millimetres (lines, strokes, letters) but follows a hard
shadow's edge. What is left is how much darker each pixel is than the paper
around it. Ink is what is darker than anything the blank sheet prints nearby,
or coloured where the print is grey.

Images here are rectified: ``px_per_mm`` pixels per paper millimetre, row 0 at
the top of the printed page.
"""
from __future__ import annotations

import cv2
import numpy as np

PAPER_WINDOW_MM = 3.2     # wider than any stroke or printed line, narrower than a room
PRINT_SLACK_MM = 0.5      # how far the print may sit from where the blank has it, after registration
DARK_SPAN = 0.22          # darkness above the print that counts as full ink
CHROMA_FLOOR, CHROMA_SPAN = 0.09, 0.2


def _kernel(px_per_mm: float, mm: float) -> np.ndarray:
    size = max(3, int(round(mm * px_per_mm)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def flatten(channel: np.ndarray, px_per_mm: float) -> np.ndarray:
    """A channel divided by its local paper white: 1.0 is paper, lower is darker."""
    values = channel.astype(np.float32) + 1.0
    paper = cv2.morphologyEx(values, cv2.MORPH_CLOSE, _kernel(px_per_mm, PAPER_WINDOW_MM))
    return np.minimum(values / paper, 1.0)


def darkness(image: np.ndarray, px_per_mm: float) -> np.ndarray:
    """How much darker than the paper around it each pixel is (0 paper, 1 black), whatever the light."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    return 1.0 - flatten(grey, px_per_mm)


def chroma(image: np.ndarray, px_per_mm: float) -> np.ndarray:
    """How coloured each pixel is after white balance (0 grey): print is grey, many pens are not."""
    channels = [flatten(image[:, :, c], px_per_mm) for c in range(3)]
    return np.maximum(np.maximum(channels[0], channels[1]), channels[2]) - \
        np.minimum(np.minimum(channels[0], channels[1]), channels[2])


def ink_map(photo: np.ndarray, blank_darkness: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Ink strength per pixel, 0 (paper or print) to 1 (surely a player's stroke)."""
    expected = cv2.dilate(blank_darkness, _kernel(px_per_mm, 2 * PRINT_SLACK_MM))
    dark = (darkness(photo, px_per_mm) - expected - 0.04) / DARK_SPAN
    colour = (chroma(photo, px_per_mm) - CHROMA_FLOOR) / CHROMA_SPAN
    return np.clip(np.maximum(dark, colour), 0.0, 1.0)


def register(photo_darkness: np.ndarray, blank_darkness: np.ndarray, px_per_mm: float, *,
             tile_mm: float = 48.0, area: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Where each pixel of the blank lies in the rectified photo: a smooth (dx, dy) field in pixels.

    The corner markers place the sheet to a millimetre or two; a curled or
    bent sheet moves its middle further. Phase correlation of tiles of the
    photo against the blank measures that move tile by tile.
    """
    height, width = blank_darkness.shape
    x0, y0, x1, y1 = area or (0, 0, width, height)
    tile = int(tile_mm * px_per_mm)
    nx, ny = max(1, round((x1 - x0) / tile)), max(1, round((y1 - y0) / tile))
    xs = np.linspace(x0, x1, nx + 1).astype(int)
    ys = np.linspace(y0, y1, ny + 1).astype(int)
    shifts = np.zeros((ny, nx, 2), np.float32)
    good = np.zeros((ny, nx), bool)
    limit = 3.5 * px_per_mm
    for j in range(ny):
        for i in range(nx):
            a = blank_darkness[ys[j]:ys[j + 1], xs[i]:xs[i + 1]]
            b = photo_darkness[ys[j]:ys[j + 1], xs[i]:xs[i + 1]]
            window = cv2.createHanningWindow((a.shape[1], a.shape[0]), cv2.CV_32F)
            (dx, dy), response = cv2.phaseCorrelate(a.astype(np.float32), b.astype(np.float32), window)
            if response > 0.08 and abs(dx) < limit and abs(dy) < limit:
                shifts[j, i] = (dx, dy)
                good[j, i] = True
    if good.any():
        shifts[~good] = np.median(shifts[good], axis=0)
    field = cv2.resize(shifts, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    return np.pad(field, ((y0, height - y1), (x0, width - x1), (0, 0)), mode="edge")


def apply_shift(image: np.ndarray, field: np.ndarray) -> np.ndarray:
    """The photo moved so that it lies on the blank: pixel (x, y) takes the photo's (x + dx, y + dy)."""
    height, width = field.shape[:2]
    grid_x, grid_y = np.meshgrid(np.arange(width, dtype=np.float32), np.arange(height, dtype=np.float32))
    return cv2.remap(image, grid_x + field[..., 0], grid_y + field[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
