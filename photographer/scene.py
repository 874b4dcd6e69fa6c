"""What is around and over the sheet: the table it lies on and the light that falls on both.

Everything here is smooth, so it is computed on coarse grids of photo pixels
that carry the paper coordinates seen there (see ``geometry.Pinhole.to_paper``)
and scaled up afterwards.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from photographer.geometry import Pinhole

TABLES = {   # base colours (RGB) of each kind of table
    "wood": [(196, 150, 104), (150, 100, 62), (112, 74, 48), (206, 176, 128), (160, 148, 132)],
    "dark-cloth": [(38, 40, 48), (30, 46, 70), (40, 58, 44), (58, 36, 38), (24, 24, 26)],
    "grey-desk": [(120, 122, 124), (92, 96, 100), (150, 146, 140)],
    "white-desk": [(222, 222, 218), (214, 216, 220)],
}


def smooth_noise(rng: np.random.Generator, size: int = 128, blur: float = 2.0) -> np.ndarray:
    """A small tile of smooth noise (mean 0, standard deviation 1) to be sampled at any scale."""
    tile = cv2.GaussianBlur(rng.standard_normal((size, size)).astype(np.float32), (0, 0), blur,
                            borderType=cv2.BORDER_REFLECT)
    return (tile - tile.mean()) / (tile.std() + 1e-6)


def sample(tile: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``tile`` read at fractional coordinates (x, y), repeating."""
    return cv2.remap(tile, x.astype(np.float32), y.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_WRAP)


def table(kind: str, x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The table top seen at plane coordinates (x, y) mm, as float RGB 0-255."""
    palette = TABLES[kind]
    base = np.array(palette[rng.integers(len(palette))], np.float32) * rng.uniform(0.9, 1.1)
    if kind == "wood":
        tone = _wood(x, y, rng)
    elif kind == "dark-cloth":
        tone = 1 + 0.12 * sample(smooth_noise(rng), x / 50, y / 50) + 0.05 * sample(smooth_noise(rng, blur=0.7),
                                                                                    x / 1.2, y / 1.2)
    else:
        tone = 1 + 0.04 * sample(smooth_noise(rng), x / 80, y / 80) + 0.02 * sample(smooth_noise(rng, blur=0.7),
                                                                                    x / 1.5, y / 1.5)
    return np.clip(tone[..., None] * base, 0, 255)


def _wood(x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brightness of wood: growth rings warped by slow noise, long fibres, planks with seams."""
    angle = rng.uniform(0, math.pi)
    across = x * math.cos(angle) + y * math.sin(angle) + rng.uniform(0, 1000)
    along = -x * math.sin(angle) + y * math.cos(angle) + rng.uniform(0, 1000)
    warp = 6 * sample(smooth_noise(rng), across / 40, along / 240)
    rings = np.sin(2 * np.pi * (across + warp) / rng.uniform(3, 9))
    fibres = sample(smooth_noise(rng, blur=0.8), across / 0.9, along / 30)
    plank_width = rng.uniform(90, 220)
    plank = np.floor(across / plank_width)
    plank_tone = np.sin(plank * 12.9898 + rng.uniform(0, 6)) * 0.07
    within = (across / plank_width) % 1
    to_seam = np.minimum(within, 1 - within) * plank_width           # millimetres to the nearest seam
    tone = 1 + 0.07 * rings + 0.06 * fibres + plank_tone
    return tone * (1 - 0.35 * np.clip(1 - to_seam / 0.6, 0, 1))


def paper_inside(x: np.ndarray, y: np.ndarray, paper: tuple[float, float], px_per_mm: np.ndarray | float,
                 soft: float = 1.0) -> np.ndarray:
    """How much of each grid cell is paper (0-1), from its distance to the paper's edge."""
    distance = np.minimum(np.minimum(x, paper[0] - x), np.minimum(y, paper[1] - y))
    return np.clip(distance * px_per_mm / soft + 0.5, 0, 1)


def drop_shadow(background: np.ndarray, inside: np.ndarray, px_per_mm: float, lift_mm: float,
                rng: np.random.Generator) -> np.ndarray:
    """The table darkened just beside the sheet, where the paper's edge keeps light off it."""
    reach = (0.8 + 0.4 * lift_mm) * px_per_mm
    turn = rng.uniform(0, 2 * math.pi)
    shift = np.float32([[1, 0, math.cos(turn) * reach * 0.6], [0, 1, math.sin(turn) * reach * 0.6]])
    shade = cv2.warpAffine(inside.astype(np.float32), shift, inside.shape[::-1])
    shade = cv2.GaussianBlur(shade, (0, 0), max(0.5, reach))
    return background * (1 - 0.35 * shade * (1 - inside))[..., None]


def light_field(shape: tuple[int, int], *, exposure: float, warmth: float, gradient: float, gradient_deg: float,
                vignette: float) -> np.ndarray:
    """Per-channel light over a grid of ``shape`` cells covering the frame: white balance, exposure, a
    brightness gradient across the frame (``1 - gradient`` at the dark side) and lens vignetting."""
    rows, cols = shape
    v, u = np.mgrid[0:rows, 0:cols].astype(np.float32)
    u, v = (u + 0.5) / cols - 0.5, (v + 0.5) / rows - 0.5
    aspect = cols / rows
    g = math.radians(gradient_deg)
    along = u * aspect * math.cos(g) + v * math.sin(g)
    along = (along - along.min()) / max(float(np.ptp(along)), 1e-6)
    brightness = 1 - gradient * along ** 1.2
    radius2 = (u * aspect) ** 2 + v ** 2
    brightness *= 1 - vignette * radius2 / radius2.max()
    gains = np.array([1 + 0.08 * warmth, 1 + 0.01 * warmth, 1 - 0.12 * warmth], np.float32)
    return exposure * brightness[..., None] * gains


def curl_shading(x: np.ndarray, y: np.ndarray, camera: Pinhole, rng: np.random.Generator) -> np.ndarray:
    """Brightness of the curled paper: parts facing away from the light are a little darker."""
    if camera.curl.lift_mm <= 0:
        return np.ones_like(x)
    dx, dy = camera.curl.slope(x, y, *camera.paper)
    turn = rng.uniform(0, 2 * math.pi)
    return np.clip(1 + 0.9 * (dx * math.cos(turn) + dy * math.sin(turn)) - 0.25 * np.hypot(dx, dy), 0.7, 1.12)


def shadow_mask(shape: tuple[int, int], cell: float, camera: Pinhole, forbidden: np.ndarray, inside: np.ndarray,
                rng: np.random.Generator, tries: int = 60, across: np.ndarray | None = None,
                across_share: float = 0.06) -> np.ndarray | None:
    """A soft-edged shadow of a hand or a phone (0-1 over the coarse grid) reaching onto the sheet.

    It stays off every cell of ``forbidden`` and covers some of the sheet (and, given
    ``across``, at least ``across_share`` of those cells); None if no such shadow was found.
    """
    w, h = camera.paper
    for _ in range(tries):
        tip_mm = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        mask = _arm(shape, cell, camera, tip_mm, rng)
        on_sheet = float((mask * inside).sum()) / max(float(inside.sum()), 1.0)
        if 0.02 < on_sheet < 0.35 and float((mask * forbidden).max()) < 0.03:
            if across is None or float((mask * across).sum()) >= across_share * float(across.sum()):
                return mask
    return None


def _arm(shape: tuple[int, int], cell: float, camera: Pinhole, tip_mm: np.ndarray,
         rng: np.random.Generator) -> np.ndarray:
    """A band from outside the frame to ``tip_mm`` on the paper, its end a rounded hand or a square phone."""
    scale = float(camera.scale(tip_mm)[0]) / cell           # coarse cells per paper millimetre
    tip = camera.to_photo(tip_mm)[0] / cell
    middle = camera.to_photo([(camera.paper[0] / 2, camera.paper[1] / 2)])[0] / cell
    away = tip - middle
    turn = math.atan2(away[1], away[0]) + rng.normal(0, 0.5)
    direction = np.array([math.cos(turn), math.sin(turn)])
    across = np.array([-direction[1], direction[0]])
    half = rng.uniform(14, 32) * scale
    far = tip + direction * (shape[0] + shape[1])
    band = np.array([tip + across * half, far + across * half * 1.3, far - across * half * 1.3, tip - across * half])
    mask = np.zeros(shape, np.float32)
    cv2.fillPoly(mask, [np.round(band * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    if rng.random() < 0.6:       # a hand: a rounded end, wider than the arm
        axes = (int(half * rng.uniform(1.1, 1.5) * 16), int(half * rng.uniform(0.9, 1.2) * 16))
        cv2.ellipse(mask, tuple(int(v) for v in np.round(tip * 16)), axes, math.degrees(turn), 0, 360, 1.0,
                    -1, cv2.LINE_AA, 4)
    soft = rng.uniform(0.004, 0.012) * min(shape)
    return cv2.GaussianBlur(mask, (0, 0), max(0.6, soft))
