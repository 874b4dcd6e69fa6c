"""Finding a printed sheet in an image: its ArUco corner markers and its QR code.

Images are numpy arrays; pixel positions are (x, y) as OpenCV gives them.
Failures are values: a lookup that finds nothing says why, it never raises.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from generator.layout import MARKER_DICTIONARY, SheetId


@dataclass(frozen=True)
class Found:
    """A lookup's answer: the value, or None and the reason a person can act on."""

    value: object
    reason: str = ""

    def __bool__(self) -> bool:
        return self.value is not None


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The sheet markers in an image: marker id -> its four corners (x, y), clockwise from its top-left."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, parameters)
    grey = _grey(image)
    found: dict[int, np.ndarray] = {}
    # Razor-sharp edges (a rendered page, a flatbed scan) can defeat the detector's
    # thresholds at some scales; a whisker of blur, as any camera adds, cures it.
    for attempt in (grey, cv2.GaussianBlur(grey, (0, 0), 1.0)):
        corners, ids, _ = detector.detectMarkers(attempt)
        for marker_id, quad in zip(() if ids is None else ids.ravel(), corners):
            found.setdefault(int(marker_id), quad.reshape(4, 2))
        if len(found) >= 4:
            break
    return found


def read_sheet_id(image: np.ndarray) -> Found:
    """Which sheet this is, from its QR code."""
    grey = _grey(image)
    text = ""
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        text, _, _ = detector.detectAndDecode(grey)
        if text:
            break
    if not text:
        return Found(None, "no readable QR code: keep the sheet's top-right corner sharp and in the frame")
    try:
        return Found(SheetId.parse(text))
    except ValueError as exc:
        return Found(None, str(exc))
