"""The pen on paper: strokes laid into an ink-coverage mask, then the ink put on the page.

Strokes are polylines in paper millimetres (top-left origin, y down). Each
stroke is drawn anti-aliased into its own patch and added to the page's mask,
so where two strokes cross the ink gets denser, as it does on paper. The ink is
combined multiplicatively with the page: a pen over printed grey stays darker.
"""
from __future__ import annotations

import cv2
import numpy as np

_SHIFT = 4                  # cv2 drawing with 1/16 px precision
_CHUNK = 6                  # points per piece of a stroke whose pressure varies


class InkMask:
    """How much ink each page pixel holds, 0-255, for one pen."""

    def __init__(self, shape: tuple[int, int], px_per_mm: float):
        self.mask = np.zeros(shape, np.uint8)
        self.px_per_mm = px_per_mm

    def _pixels(self, points_mm: np.ndarray) -> np.ndarray:
        """Millimetres to OpenCV pixel coordinates (pixel centres at integers)."""
        return np.asarray(points_mm, np.float64) * self.px_per_mm - 0.5

    def stroke(self, points_mm: np.ndarray, width_mm: float, pressure: np.ndarray | float = 1.0) -> None:
        """One pen stroke along a polyline; ``pressure`` (0-1) per point or for the whole stroke."""
        points = self._pixels(points_mm)
        if len(points) < 2:
            return
        thickness = max(1, int(round(width_mm * self.px_per_mm)))
        pressure = np.broadcast_to(np.asarray(pressure, np.float64), (len(points),))
        patch, origin = self._patch(points, thickness)
        local = np.round((points - origin) * (1 << _SHIFT)).astype(np.int32)
        for start in range(0, len(points) - 1, _CHUNK):
            piece = local[start:start + _CHUNK + 1]
            level = int(round(255 * float(np.clip(pressure[start:start + _CHUNK + 1].mean(), 0, 1))))
            cv2.polylines(patch, [piece], False, level, thickness, cv2.LINE_AA, _SHIFT)
        self._add(patch, origin)

    def dot(self, centre_mm, radius_mm: float, pressure: float = 1.0) -> None:
        """A filled blob of ink."""
        centre = self._pixels(np.asarray([centre_mm]))
        radius = radius_mm * self.px_per_mm
        patch, origin = self._patch(centre, int(np.ceil(2 * radius)) + 2)
        local = np.round((centre[0] - origin) * (1 << _SHIFT)).astype(np.int32)
        cv2.circle(patch, tuple(int(v) for v in local), int(round(radius * (1 << _SHIFT))),
                   int(round(255 * pressure)), -1, cv2.LINE_AA, _SHIFT)
        self._add(patch, origin)

    def _patch(self, points: np.ndarray, thickness: int) -> tuple[np.ndarray, np.ndarray]:
        """An empty patch covering the points with room for the pen's width."""
        pad = thickness + 3
        low = np.floor(points.min(axis=0)) - pad
        high = np.ceil(points.max(axis=0)) + pad
        size = (high - low).astype(int) + 1
        return np.zeros((size[1], size[0]), np.uint8), low

    def _add(self, patch: np.ndarray, origin: np.ndarray) -> None:
        """Add a patch into the mask (saturating), clipped to the page."""
        h, w = self.mask.shape
        x0, y0 = int(origin[0]), int(origin[1])
        x1, y1 = x0 + patch.shape[1], y0 + patch.shape[0]
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        region = self.mask[cy0:cy1, cx0:cx1]
        cv2.add(region, patch[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0], dst=region)


def grain_tile(rng: np.random.Generator, px_per_mm: float, size: int = 512) -> np.ndarray:
    """A paper-tooth texture for pencil (0.45-1.0 as uint8 0-255): graphite catches on the fibres."""
    noise = rng.random((size, size)).astype(np.float32)
    fibre = max(0.6, 0.12 * px_per_mm)          # fibres of about 0.12 mm
    noise = cv2.GaussianBlur(noise, (0, 0), fibre, borderType=cv2.BORDER_REFLECT)
    noise = (noise - noise.mean()) / (noise.std() + 1e-6)
    return np.clip(255 * (0.84 + 0.17 * noise), 115, 255).astype(np.uint8)


def apply_ink(page: np.ndarray, ink: InkMask, colour: tuple[int, int, int], opacity: float,
              grain: np.ndarray | None = None) -> np.ndarray:
    """The page with the ink laid on it: each channel times (1 - coverage * (1 - ink colour))."""
    mask = ink.mask
    if grain is not None:
        reps = (-(-mask.shape[0] // grain.shape[0]), -(-mask.shape[1] // grain.shape[1]))
        tiled = np.tile(grain, reps)[:mask.shape[0], :mask.shape[1]]
        mask = cv2.multiply(mask, tiled, scale=1 / 255)
    factors = [cv2.convertScaleAbs(mask, alpha=-opacity * (255 - c) / 255, beta=255) for c in colour]
    return cv2.multiply(page, cv2.merge(factors), scale=1 / 255)
