"""Finding printed sheets in an image: ArUco corner markers grouped per sheet, the homography, the QR code.

Images are numpy arrays; pixel positions are (x, y) as OpenCV gives them.
Paper positions are layout millimetres (top-left origin, y down). A homography
here always maps paper millimetres to image pixels.

Failures are values: a lookup that finds nothing says why, it never raises.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from scanner.fastnp import percentile
from sheets.page import MARKER_DICTIONARY, PAPERS, Rect, SheetId, corner_markers, qr_rect, qr_rects

CORNER_NAMES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
QR_PX_PER_MM = 9.0      # the QR code is re-sampled this finely before decoding


@dataclass(frozen=True)
class Found:
    """A lookup's answer: the value, or None and the reason a person can act on."""

    value: object
    reason: str = ""

    def __bool__(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class SheetFrame:
    """One sheet's corner markers in an image: marker id -> its corners (x, y), clockwise from top-left. All
    four, or three when the fourth lies in the photo but cannot be read (a thumb or glare on it):
    ``find_sheets``."""

    markers: dict

    def points(self, paper: str) -> tuple[np.ndarray, np.ndarray]:
        """The corners of the markers read (sixteen, or twelve) on ``paper`` (mm) and in the image (pixels)."""
        read = [marker for marker in corner_markers(paper) if marker.id in self.markers]
        return (np.float32([corner for marker in read for corner in marker.rect.corners]),
                np.float32([corner for marker in read for corner in self.markers[marker.id]]))

    def homography(self, paper: str) -> np.ndarray:
        """Paper millimetres -> image pixels, fitted to all the marker corners read (sixteen, or twelve)."""
        matrix, _ = cv2.findHomography(*self.points(paper), 0)
        return matrix

    def px_per_mm(self) -> float:
        """The sheet's average resolution in the image, from the markers' size."""
        sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for quad in self.markers.values() for i in range(4)]
        return float(np.mean(sides)) / corner_markers("a4")[0].rect.w


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)


def _detector(**settings) -> cv2.aruco.ArucoDetector:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    parameters = cv2.aruco.DetectorParameters()
    for name, value in settings.items():
        setattr(parameters, name, value)
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def detect_markers(image: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Every sheet marker in an image, duplicates included: (id, four corners clockwise from its top-left)."""
    grey = _grey(image)
    found = _detect_quickly(grey)
    return found if found is not None else _detect_thoroughly(grey)


def _detect_quickly(grey: np.ndarray) -> list[tuple[int, np.ndarray]] | None:
    """Markers found on a half-size image with one threshold, then each re-detected at full size in a
    window around it for exact corners: a third of the time of ``_detect_thoroughly``, and the same
    corners. None when that does not find whole sheets (fewer than four markers, or a marker lost)."""
    if min(grey.shape) < 1200:
        return None
    small = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector(adaptiveThreshWinSizeMin=13, adaptiveThreshWinSizeMax=13).detectMarkers(small)
    if ids is None or len(ids) < 4 or len(ids) % 4:
        return None
    exact = _detector(cornerRefinementMethod=cv2.aruco.CORNER_REFINE_SUBPIX)
    found = []
    for marker_id, quad in zip(ids.ravel(), corners):
        quad = quad.reshape(4, 2) * 2.0
        pad = 0.6 * float(np.ptp(quad, axis=0).max())
        x0, y0 = np.maximum(quad.min(axis=0) - pad, 0).astype(int)
        x1, y1 = (quad.max(axis=0) + pad).astype(int)
        window_corners, window_ids, _ = exact.detectMarkers(grey[y0:y1, x0:x1])
        matches = [q for i, q in zip(() if window_ids is None else window_ids.ravel(), window_corners)
                   if i == marker_id]
        if len(matches) != 1:
            return None
        found.append((int(marker_id), matches[0].reshape(4, 2).astype(np.float64) + (x0, y0)))
    return found


SMALLEST_MARKER_PERIMETER_PX = 64   # a marker 16 pixels a side (under 3 a cell) is the least worth looking for


def _detect_thoroughly(grey: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Markers found at full size with every threshold the detector tries, and again slightly blurred.
    The detector's smallest marker is a share of the image's longer side (3% by default: 107 pixels round
    a 12 MP photo's marker), so a sheet far off in a steep photo lost its farthest marker; it is set to
    ``SMALLEST_MARKER_PERIMETER_PX``, which costs no time, and the scan then says what it can of the sheet."""
    detector = _detector(cornerRefinementMethod=cv2.aruco.CORNER_REFINE_SUBPIX,
                         minMarkerPerimeterRate=min(0.03, SMALLEST_MARKER_PERIMETER_PX / max(grey.shape)))
    found: list[tuple[int, np.ndarray]] = []
    # Razor-sharp edges (a rendered page, a flatbed scan) can defeat the detector's
    # thresholds at some scales; a whisker of blur, as any camera adds, cures it.
    for attempt in (grey, cv2.GaussianBlur(grey, (0, 0), 1.0)):
        corners, ids, _ = detector.detectMarkers(attempt)
        for marker_id, quad in zip(() if ids is None else ids.ravel(), corners):
            quad = quad.reshape(4, 2).astype(np.float64)
            size = np.linalg.norm(quad[0] - quad[2])
            if not any(i == marker_id and np.linalg.norm(q.mean(0) - quad.mean(0)) < size / 2 for i, q in found):
                found.append((int(marker_id), quad))
        if len(found) >= 4:
            break
    return found


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The sheet markers in an image: marker id -> its four corners; the first of each id."""
    found: dict[int, np.ndarray] = {}
    for marker_id, quad in detect_markers(image):
        found.setdefault(marker_id, quad)
    return found


def find_sheets(image: np.ndarray) -> tuple[list[SheetFrame], list[str]]:
    """The sheets in an image, and for each sheet only partly seen, why it cannot be read."""
    grey = _grey(image)
    markers = [(i, q) for i, q in detect_markers(grey) if i in CORNER_NAMES]
    frames, problems = [], []
    groups = _group_markers(markers)
    for group in groups:
        if len(group) == 3:
            marker_id, quad = _fourth_marker(grey, group)
            if quad is not None:
                group = {**group, marker_id: quad}
        if len(group) == 4 or (len(group) == 3 and _covered_marker(grey.shape, group, groups)):
            frames.append(SheetFrame(group))
        else:
            missing = ", ".join(CORNER_NAMES[i] for i in sorted(set(CORNER_NAMES) - set(group)))
            # (where two markers put the others is too unsure to tell: two corners on one edge say nothing
            # of the perspective)
            advice = ("it is in the photo but cannot be read (covered, in a deep shadow, or out of focus?): take "
                      "the photo again with that corner clear, sharp and evenly lit"
                      if len(group) == 3 and _missing_in_frame(grey.shape, group) else
                      "keep the whole sheet in the frame, nothing covering its corners")
            problems.append(f"only {len(group)} of 4 corner markers visible (missing: {missing}): {advice}")
    if not markers:
        problems.append("no sheet found: none of the four black corner squares is visible; photograph the whole "
                        "sheet from above, in good light")
    return frames, problems


FOURTH_MARKER_REACH = 0.5   # a marker of the missing id found this share of its size from where the other
                            # three put it is the sheet's (the papers' places lie further apart than that)
FOURTH_MARKER_SIZE = 1.2    # ... and its outline no more than this much larger or smaller than they predict
# The window round that place is tried as it is and sharpened (unsharp masking: how much, and the blur
# taken away, in the marker's cells), enlarged to 8 pixels a cell or more first.
FOURTH_MARKER_SHARPENING = ((0, 0.0), (1, 0.2), (2, 0.4), (4, 0.2), (4, 0.4))


def _fourth_marker(grey: np.ndarray, group: dict) -> tuple[int, np.ndarray | None]:
    """The corner marker a sheet whose other three were found lacks, looked for where those three put it:
    its id, and its corners or None.

    A marker the detector passed over, blurred (the far corner of a steep photo, a shaky hand) or dark,
    is often read in a window round that place, sharpened or enlarged, where the detector need not find
    it among the whole photo's shapes. Only the missing id, near its predicted place, is taken."""
    marker_id, = set(CORNER_NAMES) - set(group)
    for paper in PAPERS:
        predicted = _predicted_quad(group, marker_id, paper)
        if not _inside(predicted, grey.shape):
            continue
        size = float(np.ptp(predicted, axis=0).max())
        pad = 0.8 * size
        x0, y0 = np.maximum(predicted.min(axis=0) - pad, 0).astype(int)
        x1, y1 = (predicted.max(axis=0) + pad).astype(int)
        window = grey[y0:y1, x0:x1]
        cell = float(np.ptp(predicted, axis=0).min()) / 6     # a 4 x 4 marker in its black border, seen
                                                               # foreshortened on a steep photo
        scale = int(np.clip(np.ceil(8 / cell), 1, 3))
        if scale > 1:
            window = cv2.resize(window, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        found = []
        for amount, spread in FOURTH_MARKER_SHARPENING:
            attempt = window if not amount else cv2.addWeighted(
                window, 1.0 + amount, cv2.GaussianBlur(window, (0, 0), spread * cell * scale), -amount, 0)
            corners, ids, _ = _recovery_detector().detectMarkers(attempt)
            for found_id, quad in zip(() if ids is None else ids.ravel(), corners):
                # pixel centres: (x + 0.5) / scale - 0.5 in the window, as cv2.resize maps them
                quad = (quad.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5 + (x0, y0)
                if found_id == marker_id and \
                        np.linalg.norm(quad.mean(axis=0) - predicted.mean(axis=0)) < FOURTH_MARKER_REACH * size:
                    found.append(quad)
        # A blurred outline may be found inside the marker's edge: the one nearest the size the other three
        # predict is kept, and none far from it.
        off = {index: abs(np.log(_perimeter(quad) / _perimeter(predicted))) for index, quad in enumerate(found)}
        best = min(off, key=off.get, default=None)
        if best is not None and off[best] < np.log(FOURTH_MARKER_SIZE):
            return marker_id, found[best]
    return marker_id, None


def _covered_marker(shape: tuple, group: dict, groups: list[dict]) -> bool:
    """Whether a sheet of three markers is read by them: its fourth lies in the image where the three put it
    (covered, not outside the photo) on every paper, and no other sheet's marker lies on it (a sheet under
    another is not read: what covers it would be read as its own)."""
    marker_id, = set(CORNER_NAMES) - set(group)
    hulls = []
    for paper in PAPERS:
        predicted = _predicted_quad(group, marker_id, paper)
        if not _inside(predicted, shape):
            return False
        hulls.append(cv2.convexHull(np.float32([*predicted, *(p for quad in group.values() for p in quad)])))
    return not any(cv2.pointPolygonTest(hull, tuple(float(v) for v in np.mean(quad, axis=0)), False) >= 0
                   for other in groups if other is not group for quad in other.values() for hull in hulls)


def _perimeter(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1).sum())


def _missing_in_frame(shape: tuple, group: dict) -> bool:
    """Whether the marker a sheet of three lacks lies in the image, where the three put it (on either paper)."""
    marker_id, = set(CORNER_NAMES) - set(group)
    return any(_inside(_predicted_quad(group, marker_id, paper), shape) for paper in PAPERS)


def _inside(quad: np.ndarray, shape: tuple) -> bool:
    return quad.min() >= 0 and quad[:, 0].max() < shape[1] and quad[:, 1].max() < shape[0]


@lru_cache(maxsize=1)
def _recovery_detector() -> cv2.aruco.ArucoDetector:
    # a window of a few markers' size: larger thresholding windows than the detector's default suit it
    return _detector(cornerRefinementMethod=cv2.aruco.CORNER_REFINE_SUBPIX, minMarkerPerimeterRate=0.05,
                     adaptiveThreshWinSizeMax=53)


def _predicted_quad(group: dict, marker_id: int, paper: str) -> np.ndarray:
    """Where the corners of marker ``marker_id`` lie in the image if the sheet is ``paper`` and its other
    markers are ``group``'s (three of them)."""
    matrix = SheetFrame(group).homography(paper)
    rect = next(marker.rect for marker in corner_markers(paper) if marker.id == marker_id)
    return cv2.perspectiveTransform(np.float32([rect.corners]), matrix)[0].astype(np.float64)


def _group_markers(markers: list[tuple[int, np.ndarray]]) -> list[dict]:
    """Markers sorted into sheets. One of each id is one sheet; with more, each marker predicts where its
    sheet's other three should be and takes the nearest unclaimed ones."""
    ids = [i for i, _ in markers]
    if len(ids) == len(set(ids)):
        return [dict(markers)] if markers else []
    free = list(range(len(markers)))
    groups = []
    while free:
        seed = free[0]
        best: dict = {}
        for paper in PAPERS:
            group = _predict_group(markers, free, seed, paper)
            if len(group) > len(best):
                best = group
        groups.append({markers[k][0]: markers[k][1] for k in best.values()})
        free = [k for k in free if k not in best.values()]
    return groups


def _predict_group(markers, free: list[int], seed: int, paper: str) -> dict[int, int]:
    """Marker id -> index into ``markers``: the seed marker and the free markers where the seed predicts them."""
    seed_id, seed_quad = markers[seed]
    rects = {m.id: m.rect for m in corner_markers(paper)}
    r = rects[seed_id]
    local, _ = cv2.findHomography(np.float32(r.corners), np.float32(seed_quad), 0)
    group = {seed_id: seed}
    centre = seed_quad.mean(axis=0)
    for marker_id, rect in rects.items():
        if marker_id == seed_id:
            continue
        predicted = cv2.perspectiveTransform(np.float32([[rect.centre]]), local)[0, 0]
        tolerance = 0.25 * np.linalg.norm(predicted - centre)
        near = [(np.linalg.norm(markers[k][1].mean(axis=0) - predicted), k) for k in free
                if markers[k][0] == marker_id and k not in group.values()]
        if near and min(near)[0] < tolerance:
            group[marker_id] = min(near)[1]
    return group


NO_QR = "no readable QR code: keep the sheet's top-right corner flat, sharp, in focus and in the frame"
QR_FINE_PX_PER_MM = 13.0   # the code re-sampled finer when QR_PX_PER_MM fails (a tiny, blurred code)
# Binarisations of the crop tried in turn: smoothing (pixels at QR_PX_PER_MM), the window a pixel is told
# dark or light against (mm: 2-4 modules) and the offset below the window's mean that still counts as light.
# Chosen greedily over 646 hard synthetic photos (photos of benchmarks/qr_read.py, seeds 1 and 2): zxing-cpp
# read 583 codes from the plain crop, 627 with the first binarisation too, 634 with all three (of the 12
# others, 11 are below 3 px/mm and one at 3.0). QR_FINE_BINARISATIONS are for the crop at QR_FINE_PX_PER_MM:
# the second, little smoothed against a wider window, reads a code a curl bends (two of 320 curled Dungeon
# Maker photos, whose code sits under the top-right marker, were read by no other attempt).
QR_BINARISATIONS = ((1.5, 3.0, 2), (0.5, 2.0, 5), (2.0, 2.0, 2))
QR_FINE_BINARISATIONS = ((1.5, 2.0, 2), (0.5, 4.7, 5))


def read_sheet_id(image: np.ndarray, frame: SheetFrame | None = None) -> Found:
    """Which sheet this is, from its QR code: read from a sharp, upright re-sampling of the code's corner
    when the sheet's markers are known, else from the whole image.

    Many decodings are tried, cheapest first, until one gives a code of ours; a code that is not ours
    (another program's, or one misread) does not end the search, and is the reason given only when no
    attempt reads one of ours."""
    rejected = ""
    for text in _qr_texts(image, frame):
        if not text:
            continue
        try:
            return Found(SheetId.parse(text))
        except ValueError as exc:
            rejected = rejected or f"{exc}: this QR code is not one printed by dungeon-scrawl"
    return Found(None, rejected or NO_QR)


def _qr_texts(image: np.ndarray, frame: SheetFrame | None):
    """The texts of the decodings of the image's QR code, lazily, cheapest attempt first.

    A code sits at one of a few places relative to the top-right marker (``sheets.page.qr_rects``: beside
    it on map and monster record sheets, under it on Dungeon Maker sheets), the same on every paper, so the
    A4 fit finds it on Letter too; the quick attempts are made at every place before the slow ones. With the markers known, on the upright crop of the code's corner: zxing-cpp
    (under a millisecond; it reads most photos); zxing-cpp on the crop binarised (smoothed against sensor
    and JPEG noise, each pixel dark or light against its neighbourhood: dim, unevenly lit, low-contrast
    codes); OpenCV where the layout puts the code's corners; the crop contrast-stretched and sharpened,
    and re-sampled finer. Then the searches of tens of milliseconds: OpenCV's detectors on the crop,
    zxing-cpp and OpenCV on a wider crop, and last the whole image, by zxing-cpp, then by OpenCV (hundreds
    of milliseconds on a big photo). Without zxing-cpp installed, OpenCV's attempts alone."""
    zxing = _zxing()
    if frame is not None:
        places = qr_rects("a4")            # each place one of our sheets prints its code, the commonest first
        crops = []                          # each made when first tried: most photos are read at the first place
        for place in places:                # the quick attempts at every place before the slow ones at any
            crops.append(_qr_crop(image, frame, "a4", 5.0, rect=place))
            yield from _qr_quick(zxing, crops[-1])
        for place, crop in zip(places, crops):
            yield from _qr_slow(image, frame, zxing, place, crop)
    grey = _grey(image)
    if zxing:
        yield from _zxing_decode(zxing, grey, upright=False)
    yield _decode_qr(grey)


def _qr_quick(zxing, crop: np.ndarray):
    """``_qr_texts``' quick attempts on the upright crop of a code's place: zxing-cpp, on the crop and
    binarised; OpenCV where the layout puts the code's corners."""
    if zxing:
        yield from _zxing_decode(zxing, crop)
        for sigma, window_mm, offset in QR_BINARISATIONS:
            yield from _zxing_decode(zxing, _binarised(crop, sigma, window_mm, offset))
    yield _decode_in_place(crop, 5.0)


def _qr_slow(image: np.ndarray, frame: SheetFrame, zxing, place: Rect, crop: np.ndarray):
    """``_qr_texts``' slower attempts at a code printed at ``place`` (mm on the A4 fit), whose crop is ``crop``:
    sharpened, re-sampled finer, OpenCV's detectors, a wider crop."""
    if zxing:
        yield from _zxing_decode(zxing, _sharpened(crop))
        fine = _qr_crop(image, frame, "a4", 5.0, QR_FINE_PX_PER_MM, rect=place)
        yield from _zxing_decode(zxing, fine)
        for sigma, window_mm, offset in QR_FINE_BINARISATIONS:
            yield from _zxing_decode(zxing, _binarised(fine, sigma, window_mm, offset, QR_FINE_PX_PER_MM))
    yield _decode_qr(crop)
    wide = _qr_crop(image, frame, "a4", 9.0, rect=place)
    if zxing:
        yield from _zxing_decode(zxing, wide)
    yield _decode_qr(wide)


def _zxing():
    """The zxing-cpp module, or None where it is not installed (imported on first use: it is only needed
    when a photo is read)."""
    try:
        import zxingcpp
    except ImportError:
        return None
    return zxingcpp


def _zxing_decode(zxing, grey: np.ndarray, upright: bool = True) -> list[str]:
    """The QR codes zxing-cpp reads in a grey image. ``upright``: a rectified crop, so no turned codes are
    searched for and no smaller copies of the image are tried."""
    try:
        codes = zxing.read_barcodes(np.ascontiguousarray(grey), formats=zxing.BarcodeFormat.QRCode,
                                    try_rotate=not upright, try_downscale=not upright)
    except Exception:  # a decoder failing on one image is one attempt failed, never the scan's error
        return []
    return [code.text for code in codes if code.text]


def _binarised(grey: np.ndarray, sigma: float, window_mm: float, offset: int,
               px_per_mm: float = QR_PX_PER_MM) -> np.ndarray:
    """A crop smoothed (``sigma`` pixels at ``QR_PX_PER_MM``) against sensor and JPEG noise, then each pixel
    black or white against the mean of the ``window_mm`` around it less ``offset``: reads codes that are dim,
    unevenly lit or of low contrast."""
    smooth = cv2.GaussianBlur(grey, (0, 0), sigma * px_per_mm / QR_PX_PER_MM)
    window = int(round(window_mm * px_per_mm)) | 1
    return cv2.adaptiveThreshold(smooth, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, window, offset)


def _sharpened(grey: np.ndarray) -> np.ndarray:
    """A crop contrast-stretched (1st to 99th percentile to black and white) and unsharp-masked."""
    low, high = percentile(grey, 1), percentile(grey, 99)
    gain = 255.0 / max(high - low, 1.0)
    stretched = cv2.convertScaleAbs(grey, alpha=gain, beta=-low * gain)
    return cv2.addWeighted(stretched, 2.0, cv2.GaussianBlur(stretched, (0, 0), 2.0), -1.0, 0)


def _qr_crop(image: np.ndarray, frame: SheetFrame, paper: str, margin: float,
             px_per_mm: float = QR_PX_PER_MM, rect: Rect | None = None) -> np.ndarray:
    """The QR code's corner of the sheet (a code printed at ``rect``, else where map sheets print it),
    upright, grey, at ``px_per_mm``, ``margin`` mm around the code."""
    qr = rect or qr_rect(paper)
    x0, y0, side = qr.x - margin, qr.y - margin, qr.w + 2 * margin
    to_crop = np.array([[px_per_mm, 0, -x0 * px_per_mm], [0, px_per_mm, -y0 * px_per_mm], [0, 0, 1]])
    matrix = frame.homography(paper) @ np.linalg.inv(to_crop)
    size = int(round(side * px_per_mm))
    crop = cv2.warpPerspective(image, matrix, (size, size), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)
    return _grey(crop)


def _decode_in_place(crop: np.ndarray, margin: float) -> str:
    """The code of a ``_qr_crop``, decoded where the layout puts its corners (no search: a quarter of the
    time, and enough for most photos)."""
    start, end = margin * QR_PX_PER_MM, crop.shape[0] - margin * QR_PX_PER_MM
    corners = np.float32([[(start, start), (end, start), (end, end), (start, end)]])
    try:
        text, _ = cv2.QRCodeDetector().decode(crop, corners)
    except cv2.error:
        text = ""
    return text or ""


def _decode_qr(grey: np.ndarray) -> str:
    variants = [grey]
    if grey.shape[0] * grey.shape[1] < 1_000_000:   # a crop: cheap to also try it cleaned up
        sharp = cv2.addWeighted(grey, 2.0, cv2.GaussianBlur(grey, (0, 0), 2.0), -1.0, 0)
        _, binary = cv2.threshold(cv2.GaussianBlur(grey, (0, 0), 1.0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        variants += [sharp, binary]
    for variant in variants:
        for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
            try:
                text, _, _ = detector.detectAndDecode(variant)
            except cv2.error:
                text = ""
            if text:
                return text
    return ""
