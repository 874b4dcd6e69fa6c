"""A flatbed scan of a sheet (or a PDF made from one): upright, evenly lit, a hair skewed.

The page lies on the glass a little crooked (under 2 degrees) and off the
corner; the white lid shows where the paper does not reach, with the faint
grey line a scanner's lamp draws along a paper edge.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import cv2
import numpy as np

from photographer.camera import PhotoMapping


@dataclass(frozen=True)
class Scan:
    """One flatbed scan's settings; ``fmt``, ``jpeg_quality`` and ``exif_orientation`` are for ``encode``."""

    dpi: int = 300
    skew_deg: float = 0.0
    shift_x_mm: float = 0.0
    shift_y_mm: float = 0.0
    white: float = 0.98           # how bright the scanner makes white paper (1.0 is 255)
    blur_px: float = 0.5
    noise: float = 1.0
    fmt: str = "png"
    jpeg_quality: int = 92
    exif_orientation: int = 1

    def as_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


def scan_for(rng: np.random.Generator, dpi: int | None = None) -> Scan:
    """A random flatbed scan at 200 or 300 dpi, saved as PNG or a good JPEG."""
    return Scan(dpi=int(dpi or rng.choice([200, 300])), skew_deg=float(rng.uniform(-2, 2)),
                shift_x_mm=float(rng.uniform(-2, 2)), shift_y_mm=float(rng.uniform(-2, 2)),
                white=float(rng.uniform(0.95, 1.0)), blur_px=float(rng.uniform(0.3, 0.8)),
                noise=float(rng.uniform(0.5, 2.0)), fmt=str(rng.choice(["png", "jpeg"])),
                jpeg_quality=int(rng.integers(85, 96)))


def scan_like(sheet_rgb: np.ndarray, px_per_mm: float, dpi: int = 300, rng: np.random.Generator | None = None, *,
              scan: Scan | None = None, return_mapping: bool = False):
    """The sheet as a flatbed scanner at ``dpi`` sees it (the scanned area is the paper's size).

    ``scan`` fixes every setting; otherwise they are drawn from ``rng``. With
    ``return_mapping`` the answer is ``(image, PhotoMapping)``.
    """
    rng = rng if rng is not None else np.random.default_rng(0)
    scan = scan or scan_for(rng, dpi)
    scale = scan.dpi / 25.4 / px_per_mm
    out_w, out_h = round(sheet_rgb.shape[1] * scale), round(sheet_rgb.shape[0] * scale)
    matrix = _placement(scan, scale, (out_w, out_h))
    source = cv2.GaussianBlur(sheet_rgb, (0, 0), 0.45 / scale) if scale < 1 else sheet_rgb
    lid = int(rng.integers(238, 252))
    image = cv2.warpAffine(source, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(lid, lid, lid))

    def to_photo(points_mm: np.ndarray) -> np.ndarray:
        return (points_mm * px_per_mm - 0.5) @ matrix[:, :2].T + matrix[:, 2]

    h, w = sheet_rgb.shape[0] / px_per_mm, sheet_rgb.shape[1] / px_per_mm
    outline = to_photo(np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float64))
    cv2.polylines(image, [np.round(outline * 16).astype(np.int32)], True, (lid - 60,) * 3, 1, cv2.LINE_AA, 4)
    image = cv2.convertScaleAbs(image, alpha=scan.white * 1.03, beta=-255 * 0.03 * scan.white)
    if scan.blur_px >= 0.1:
        image = cv2.GaussianBlur(image, (0, 0), scan.blur_px)
    if scan.noise > 0:
        noise = np.frombuffer(rng.bytes(image.size), np.uint8).reshape(image.shape)
        k = scan.noise / (256 / math.sqrt(12))
        image = cv2.addWeighted(image, 1.0, noise, k, -127.5 * k)
    return (image, PhotoMapping(to_photo, 1.0)) if return_mapping else image


def _placement(scan: Scan, scale: float, size: tuple[int, int]) -> np.ndarray:
    """The 2 x 3 affine matrix from sheet pixels to scan pixels (OpenCV coordinates)."""
    turn = math.radians(scan.skew_deg)
    cos, sin = math.cos(turn) * scale, math.sin(turn) * scale
    centre = np.array(size, np.float64) / 2
    shift = np.array([scan.shift_x_mm, scan.shift_y_mm]) * scan.dpi / 25.4
    # continuous sheet coordinates (s + 0.5) / scale about the page centre, turned, then back to pixel centres
    linear = np.array([[cos, -sin], [sin, cos]])
    offset = centre + shift - 0.5 + linear @ (np.array([0.5, 0.5]) - centre / scale)
    return np.hstack([linear, offset[:, None]])
