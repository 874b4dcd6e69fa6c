"""What may happen to a photo beyond the photographer's own range: for benchmarks that ask how the scanner
fares on photos it was not tuned on (``--degrade`` of ``benchmarks/scan_accuracy.py`` and its siblings).

Each degradation is applied to the finished photo, upright, which is then saved again as JPEG (quality 90,
or the one ``jpeg`` names); the truth is the photo's own. ``spec`` is a name, or a name and an amount
(``blur:3``):

- ``blur:SIGMA`` (2): out of focus, a Gaussian blur of SIGMA pixels of the photo;
- ``motion:LENGTH`` (9): a shaking hand, a straight streak of LENGTH pixels at 30 degrees;
- ``jpeg:QUALITY`` (30): saved again, strongly compressed;
- ``noise:SIGMA`` (12): more sensor noise, Gaussian, in 8-bit levels;
- ``warm:STRENGTH`` (1): a tungsten lamp and no white balance, green x0.82 and blue x0.55 at 1;
- ``sharpen:SIGMA`` (2): a phone's heavy sharpening, an unsharp mask of amount 1.2 over SIGMA pixels;
- ``small:MEGAPIXELS`` (2): resampled to that many megapixels (``INTER_AREA``);
- ``dark:EXPOSURE`` (0.45): the exposure times EXPOSURE;
- ``haze:SHARE`` (0.45): a smudged lens, the contrast lowered by SHARE towards a light grey;
- ``hdr:BOOST`` (1.6): a phone's local tone mapping, the light evened out (over 25 pixels: 60% of it
  kept, lifted by 80 levels) and the detail on it multiplied by BOOST;
- ``cool:STRENGTH`` (1): shade or an overcast sky and no white balance, red x0.62 and green x0.86 at 1;
- ``vignette:SHARE`` (0.5): a cheap lens darkening towards the corners, the corners by SHARE;
- ``saturate:GAIN`` (1.8): a phone's vivid colours, each pixel's distance from its grey times GAIN (under 1:
  paler colours);
- ``cover:GROWTH`` (1.3): one corner marker, chosen at random, hidden under a patch of the paper's colour
  GROWTH times its size (as glare, a sticker or a corner folded back hides it), nothing else on the sheet
  touched.
"""
from __future__ import annotations

import argparse
import io
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps

DEGRADATIONS = {"blur": 2.0, "motion": 9.0, "jpeg": 30.0, "noise": 12.0, "warm": 1.0, "sharpen": 2.0,
                "small": 2.0, "dark": 0.45, "haze": 0.45, "hdr": 1.6, "cool": 1.0, "vignette": 0.5,
                "saturate": 1.8, "cover": 1.3}


def parse(spec: str) -> tuple[str, float]:
    """``"blur:3"`` -> ("blur", 3.0); ``"blur"`` -> ("blur", its default). Raises ValueError for an unknown name."""
    name, _, amount = spec.partition(":")
    if name not in DEGRADATIONS:
        raise ValueError(f"unknown degradation {name!r} (one of: {', '.join(DEGRADATIONS)})")
    return name, float(amount) if amount else DEGRADATIONS[name]


HELP = ("degrade every photo after it is taken, beyond the photographer's range: blur[:SIGMA], motion[:PIXELS], "
        "jpeg[:QUALITY], noise[:SIGMA], warm[:STRENGTH], sharpen[:SIGMA], small[:MEGAPIXELS], dark[:EXPOSURE], "
        "haze[:SHARE], hdr[:BOOST], cool[:STRENGTH], vignette[:SHARE], saturate[:GAIN], cover[:GROWTH] "
        "(photographer/degrade.py)")


def spec_argument(spec: str) -> str:
    """An ``argparse`` type: the spec, checked ("" for none: argparse passes a default through it too)."""
    try:
        if spec:
            parse(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return spec


def degrade(photo: np.ndarray, spec: str, rng: np.random.Generator) -> np.ndarray:
    """An upright RGB photo (uint8) degraded as ``spec`` says (before it is saved again)."""
    name, amount = parse(spec)
    image = photo.astype(np.float32)
    if name == "blur":
        image = cv2.GaussianBlur(image, (0, 0), amount)
    elif name == "motion":
        size = max(3, int(round(amount)) | 1)
        kernel = np.zeros((size, size), np.float32)
        kernel[size // 2, :] = 1.0
        turn = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), 30, 1.0)
        kernel = cv2.warpAffine(kernel, turn, (size, size))
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    elif name == "noise":
        image += rng.normal(0.0, amount, image.shape).astype(np.float32)
    elif name == "warm":
        image *= np.array([1.0, 1.0 - 0.18 * amount, 1.0 - 0.45 * amount], np.float32)
    elif name == "sharpen":
        image += 1.2 * (image - cv2.GaussianBlur(image, (0, 0), amount))
    elif name == "small":
        height, width = image.shape[:2]
        scale = min(1.0, (amount * 1e6 / (height * width)) ** 0.5)
        image = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                           interpolation=cv2.INTER_AREA)
    elif name == "dark":
        image *= amount
    elif name == "haze":
        image = image * (1.0 - amount) + 200.0 * amount
    elif name == "hdr":
        light = cv2.GaussianBlur(image, (0, 0), 25.0)
        image = light * 0.6 + 80.0 + amount * (image - light)
    elif name == "cool":
        image *= np.array([1.0 - 0.38 * amount, 1.0 - 0.14 * amount, 1.0], np.float32)
    elif name == "vignette":
        height, width = image.shape[:2]
        ys, xs = np.ogrid[:height, :width]
        reach = ((xs - width / 2) / (width / 2)) ** 2 + ((ys - height / 2) / (height / 2)) ** 2   # 2 at a corner
        image *= (1.0 - amount * reach / 2.0).astype(np.float32)[..., None]
    elif name == "saturate":
        grey = image.mean(axis=2, keepdims=True)
        image = grey + amount * (image - grey)
    elif name == "cover":
        image = _covered_marker(image, amount, rng)
    return np.clip(np.rint(image), 0, 255).astype(np.uint8)


def _covered_marker(image: np.ndarray, growth: float, rng: np.random.Generator) -> np.ndarray:
    """One of the sheet's corner markers, chosen by ``rng``, covered (``cover_marker``)."""
    found = _corner_markers(image)
    return _cover(image, found[sorted(found)[int(rng.integers(len(found)))]], growth) if found else image


def _corner_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The sheet's corner markers in an RGB photo, found as any ArUco reader finds them: id -> corners."""
    from sheets.page import MARKER_DICTIONARY

    grey = cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_RGB2GRAY)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY)))
    corners, ids, _ = detector.detectMarkers(grey)
    return {} if ids is None else {int(i): quad.reshape(4, 2) for i, quad in zip(ids.ravel(), corners) if int(i) < 4}


def cover_marker(image: np.ndarray, marker_id: int, growth: float = DEGRADATIONS["cover"]) -> np.ndarray:
    """An RGB photo (uint8 or float) with corner marker ``marker_id`` painted over with the median colour of the
    paper round it, the patch ``growth`` times the marker's size; unchanged if that marker is not found."""
    quad = _corner_markers(image).get(marker_id)
    return image if quad is None else _cover(image, quad, growth)


def _cover(image: np.ndarray, quad: np.ndarray, growth: float) -> np.ndarray:
    """``cover_marker``'s patch over the marker found at ``quad`` (its corners in the photo)."""
    image = image.copy()
    centre = quad.mean(axis=0)
    patch = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(patch, [(centre + (quad - centre) * growth).round().astype(np.int32)], 1)
    ring = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(ring, [(centre + (quad - centre) * (growth + 0.5)).round().astype(np.int32)], 1)
    image[patch > 0] = np.median(image[(ring > 0) & (patch == 0)], axis=0)
    return image


def degrade_shot(shot, spec: str, rng: np.random.Generator):
    """A ``photographer.Shot`` whose photo is degraded as ``spec`` says and saved again as JPEG (its file name
    and truth's ``source`` ending in .jpg, the truth's ``degraded`` saying how)."""
    name, amount = parse(spec)
    import pillow_heif

    pillow_heif.register_heif_opener()          # the photographer writes a few HEIC photos
    upright = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(shot.data))).convert("RGB"))
    buffer = io.BytesIO()
    Image.fromarray(degrade(upright, spec, rng)).save(buffer, "JPEG",
                                                      quality=int(amount) if name == "jpeg" else 90)
    source = str(Path(shot.truth["source"]).with_suffix(".jpg"))
    return replace(shot, data=buffer.getvalue(), suffix=".jpg", photo=None,
                   truth={**shot.truth, "source": source, "degraded": f"{name}:{amount:g}"})

