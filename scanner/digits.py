"""Reading the round number a player wrote in a room's round box.

The scanner hands over, for each room, the player's ink around the room's
printed round box: a square float image in [0, 1] (1 = surely ink, 0 = paper)
centred on the box, the printed circle already taken out. `read_digit` finds
the handwritten digit in it and reads it as a round number 1-7, or answers
None. A wrong round number can flag a legal sheet and a missing one never
does, so every doubt is answered with None.

How: the digit's ink is cut out of the crop (a hysteresis threshold scaled to
the pen's darkness; pieces lying mostly outside the circle, such as a passing
path stroke, are dropped), slant-corrected and scaled into a small glyph. The
glyph's stroke directions zone by zone, its coarse shape, its proportions, and
where ink may have been lost on the printed ring go to three small neural
networks trained on synthetic digits (``benchmarks/digits_train.py`` writes
``digits_model.npz`` beside this file). They also know 0, 8, 9 and scribbles,
so that those can be refused, and a digit is read only when all three name it
and their mean certainty is at least ACCEPT.

Pixels are (row, col), measured from the middle of the crop; millimetres are
turned into pixels through ``px_per_mm`` in `_Crop` and `_zones` only.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scanner.fastnp import percentile

MODEL_PATH = Path(__file__).with_name("digits_model.npz")

# The classes the networks tell apart: the round numbers, the other digits, and "junk"
# (scribbles, dashes, crosses, leftovers of path strokes), in the networks' output order.
CLASSES = ("1", "2", "3", "4", "5", "6", "7", "0", "8", "9", "junk")
ROUNDS = {str(n): n for n in range(1, 8)}

GLYPH = 24          # side of the normalised glyph image, pixels
GLYPH_BOX = 20      # the digit's longer side in the glyph, pixels
DIRECTIONS = 8      # stroke-direction bins over 180 degrees
ZONES = 6           # direction features are pooled over ZONES x ZONES zones of the glyph
COARSE = 8          # the coarse shape feature is the glyph at COARSE x COARSE
MAX_SLANT = 0.6     # the largest slant corrected, as horizontal shift per unit of height

# The ink threshold follows the pen: a pixel seeds the digit above SEED x the pen's
# darkness, and joins a seeded piece above GROW x it, but never below the floors.
# Near the printed ring, where faint leftovers of it (0.2-0.4) may lie, ink must
# be darker than RING_FLOOR to count.
SEED, SEED_FLOOR = 0.6, 0.45
GROW, GROW_FLOOR = 0.35, 0.25
RING_BAND_MM, RING_FLOOR = 0.35, 0.42
NEAR_MM = 0.8           # a piece of the digit comes this close to the ring or closer
OUTSIDE_MM = 0.8        # ink this far beyond the ring is "outside the circle"
KEEP_MM = 1.5           # nothing beyond the ring by more than this is part of the digit
# A piece of at most TIP_SHARE of the writing lying mostly (60%) within TIP_WIDTH_MM of
# the line of a passing stroke (fitted up to TIP_REACH_MM beyond the ring) is its tip.
TIP_SHARE, TIP_WIDTH_MM, TIP_REACH_MM = 0.3, 0.6, 2.0
MIN_INK_MM2 = 0.3       # less ink than a 1.2 mm pen line is no writing
MIN_EXTENT_MM = 1.2     # nor is anything smaller than this across
# The scanner counts ink only where it is darker than the print within its print
# slack (0.5 mm), so pencil and lighter pens may be lost within UNSEEN_MM of the ring.
UNSEEN_MM = 0.7
UNSEEN_FRAME = 4        # pixels of margin around the glyph in which lost ink is shown
FEATURES = DIRECTIONS * ZONES ** 2 + 2 * COARSE ** 2 + 2   # the length of a feature vector

ACCEPT = 0.99           # the networks' least mean certainty for an answer


@dataclass(frozen=True)
class _Zones:
    """Where each pixel of a crop lies relative to the printed ring.

    These depend only on the crop's shape, px_per_mm and the ring's radius, which
    repeat from room to room and photo to photo, so `_zones` keeps them: the arrays
    are shared between calls and made read-only.
    """

    distance: np.ndarray      # each pixel's distance from the box's centre, mm
    inside: np.ndarray        # bool: within the printed circle
    near_ring: np.ndarray     # bool: within RING_BAND_MM of the ring
    unseen: np.ndarray        # float32: 1 within UNSEEN_MM of the ring, where ink may be lost
    outside: np.ndarray       # bool: beyond the ring by more than OUTSIDE_MM
    near: np.ndarray          # bool: less than NEAR_MM beyond the ring
    kept: np.ndarray          # bool: less than KEEP_MM beyond the ring
    tip_reach: np.ndarray     # bool: less than TIP_REACH_MM beyond the ring
    border: np.ndarray        # flat indices of the crop's edge pixels


# typed: a NumPy float64 px_per_mm gives float64 distances and a Python float float32 ones,
# so 5.0 and np.float64(5.0) must not share an entry.
@functools.lru_cache(maxsize=64, typed=True)
def _zones(rows: int, cols: int, px_per_mm: float, radius_mm: float) -> _Zones:
    """The zones of a rows x cols crop, kept for the next crops of the same size and scale."""
    y = (np.arange(rows, dtype=np.float32) - (rows - 1) / 2) / px_per_mm
    x = (np.arange(cols, dtype=np.float32) - (cols - 1) / 2) / px_per_mm
    distance = np.sqrt(y[:, None] ** 2 + x[None, :] ** 2)
    edge = np.zeros((rows, cols), bool)
    edge[[0, -1], :] = edge[:, [0, -1]] = True
    zones = _Zones(distance, distance < radius_mm, np.abs(distance - radius_mm) < RING_BAND_MM,
                   (np.abs(distance - radius_mm) < UNSEEN_MM).astype(np.float32),
                   distance > radius_mm + OUTSIDE_MM, distance < radius_mm + NEAR_MM,
                   distance < radius_mm + KEEP_MM, distance < radius_mm + TIP_REACH_MM, np.flatnonzero(edge))
    for array in vars(zones).values():
        array.flags.writeable = False
    return zones


@dataclass(frozen=True)
class _Crop:
    """An ink crop and where the printed round box is in it, in pixels."""

    ink: np.ndarray           # float32, [0, 1]
    zones: _Zones
    px_per_mm: float
    radius_mm: float

    @classmethod
    def of(cls, ink, px_per_mm: float, radius_mm: float) -> "_Crop | None":
        """The crop, or None when ``ink`` is not a usable 2-D image."""
        ink = np.asarray(ink, dtype=np.float32)
        if ink.ndim == 3:
            ink = np.nan_to_num(ink).mean(axis=2)
        if ink.ndim != 2 or min(ink.shape) < 8 or not px_per_mm > 0 or not radius_mm > 0:
            return None
        # The same as clipping after np.nan_to_num (infinities clip to 0 and 1), which is slow on
        # small images: NaN, which clipping leaves, becomes 0.
        ink = np.clip(ink, 0.0, 1.0)
        if np.isnan(ink).any():
            ink[np.isnan(ink)] = 0.0
        try:
            zones = _zones(*ink.shape, px_per_mm, float(radius_mm))
        except TypeError:   # px_per_mm is an array, which cannot be a cache key
            zones = _zones.__wrapped__(*ink.shape, px_per_mm, float(radius_mm))
        return cls(ink, zones, float(px_per_mm), float(radius_mm))

    def px(self, mm: float) -> float:
        """A length in mm as pixels."""
        return mm * self.px_per_mm

    def px2(self, mm2: float) -> float:
        """An area in mm^2 as a pixel count."""
        return mm2 * self.px_per_mm ** 2


def _pen_darkness(crop: _Crop) -> float | None:
    """How dark the writing inside the circle is (pencil ~0.5, pens ~1), or None if there is none."""
    inside = crop.ink[crop.zones.inside & (crop.ink > GROW_FLOOR)]
    if inside.size < crop.px2(MIN_INK_MM2) / 2:
        return None
    return percentile(inside, 90)


def _digit_mask(crop: _Crop, darkness: float) -> np.ndarray:
    """The pixels of the handwriting in the circle: seeded ink pieces that are not passing strokes."""
    seed = max(SEED_FLOOR, SEED * darkness)
    grow = max(GROW_FLOOR, GROW * darkness)
    grow = np.where(crop.zones.near_ring, max(grow, min(seed, RING_FLOOR)), grow)
    count, labels = cv2.connectedComponents((crop.ink > grow).astype(np.uint8), connectivity=8)
    area = np.bincount(labels.ravel(), minlength=count)
    outside = np.bincount(labels[crop.zones.outside], minlength=count)
    near = np.bincount(labels[crop.zones.near], minlength=count)
    seeded = np.bincount(labels[crop.ink > seed], minlength=count) > 0
    # A piece of the digit is seeded, reaches the circle and lies mostly within it.
    # A path stroke comes in from the crop's edge and has much of its length outside.
    limit = np.full(count, 0.5)
    limit[labels.ravel()[crop.zones.border]] = 0.1
    passing = seeded & (outside >= limit * area)
    keep = seeded & ~passing & (near > 0) & (area >= crop.px2(0.05))
    keep[0] = passing[0] = False
    for tip in _stroke_tips(crop, labels, np.flatnonzero(passing), np.flatnonzero(keep), area):
        keep[tip] = False
    return keep[labels] & crop.zones.kept


def _stroke_tips(crop: _Crop, labels: np.ndarray, strokes, pieces, area: np.ndarray) -> list[int]:
    """The small pieces that lie on the line of a passing stroke: its tip inside the circle, cut
    off from it where the scanner lost the ink on the printed ring."""
    if strokes.size == 0:
        return []
    # Only pieces of at most TIP_SHARE of the writing can be tips; usually there are none,
    # and then the strokes' lines (a costly SVD each) are not needed.
    small = pieces[~(area[pieces] > TIP_SHARE * area[pieces].sum())]
    if small.size == 0:
        return []
    tips = []
    for stroke in strokes:
        rows, cols = np.nonzero((labels == stroke) & crop.zones.tip_reach)
        if rows.size < 3:
            continue
        points = np.column_stack([cols, rows]).astype(np.float32)
        middle = points.mean(axis=0)
        normal = np.linalg.svd(points - middle, full_matrices=False)[2][1]
        for piece in small:
            rows, cols = np.nonzero(labels == piece)
            off_line = np.abs((np.column_stack([cols, rows]) - middle) @ normal)
            if np.mean(off_line < crop.px(TIP_WIDTH_MM)) > 0.6:
                tips.append(piece)
    return tips


@dataclass(frozen=True)
class Writing:
    """The handwriting found in a round box crop; arrays are the crop's size."""

    ink: np.ndarray       # float32: the writing's ink scaled to the pen's darkness, 0 elsewhere
    unseen: np.ndarray    # float32: 1 where the scanner may have lost ink on the printed ring (read-only, shared)
    darkness: float       # the pen's darkness: pencil about 0.5, pens about 1


def _writing(crop: _Crop) -> Writing | None:
    """The handwriting in the circle, or None if there is none."""
    darkness = _pen_darkness(crop)
    if darkness is None:
        return None
    mask = _digit_mask(crop, darkness)
    if np.count_nonzero(mask) < crop.px2(MIN_INK_MM2):
        return None
    rows, cols = np.nonzero(mask)     # in reading order: the rows are sorted
    extent = max(rows[-1] - rows[0], cols.max() - cols.min()) + 1
    if extent < crop.px(MIN_EXTENT_MM):
        return None
    ink = np.where(mask, np.minimum(crop.ink / darkness, 1.0), np.float32(0))
    # Ink counts only where it is darker than the print nearby, so a pen can vanish
    # where it crosses the printed ring: a 7 may lose its bar there and look like a 1.
    return Writing(ink, crop.zones.unseen, darkness)


def _to_glyph(ink: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The affine map (2 x 3) that slant-corrects ink and scales it into the glyph, and its width / height."""
    moments = cv2.moments(ink)
    if moments["mu02"] <= 1e-6 or moments["m00"] <= 1e-6:
        return None
    slant = min(max(moments["mu11"] / moments["mu02"], -MAX_SLANT), MAX_SLANT)
    centre_row = moments["m01"] / moments["m00"]
    rows, cols = np.nonzero(ink > 0.3)
    if rows.size == 0:
        return None
    top, bottom = rows[0], rows[-1]     # np.nonzero lists pixels in reading order
    upright = cols - slant * (rows - centre_row)
    left, right = upright.min(), upright.max()
    height = bottom - top + 1.0
    width = right - left + 1.0
    scale = GLYPH_BOX / max(height, width)
    middle_row, middle_col = (bottom + top) / 2, (right + left) / 2
    # Pixel (col, row) goes to centre + scale * (col - slant * (row - centre_row) - middle_col, row - middle_row).
    centre = (GLYPH - 1) / 2
    to_glyph = np.float32([[scale, -scale * slant, centre + scale * (slant * centre_row - middle_col)],
                           [0, scale, centre - scale * middle_row]])
    return to_glyph, width / height


_TO_FRAME = np.float32([[0, 0, UNSEEN_FRAME], [0, 0, UNSEEN_FRAME]])   # from the glyph to the unseen frame


def _glyph(writing: Writing) -> tuple[np.ndarray, np.ndarray, float] | None:
    """The writing slant-corrected and scaled into a GLYPH x GLYPH image; where ink may be unseen, in a
    frame UNSEEN_FRAME pixels wider each side; and the writing's width / height."""
    found = _to_glyph(writing.ink)
    if found is None:
        return None
    to_glyph, aspect = found
    ink = writing.ink
    if to_glyph[0, 0] < 0.8:
        ink = cv2.GaussianBlur(ink, (0, 0), 0.4 / float(to_glyph[0, 0]))
    glyph = cv2.warpAffine(ink, to_glyph, (GLYPH, GLYPH), flags=cv2.INTER_LINEAR)
    to_frame = to_glyph + _TO_FRAME
    side = GLYPH + 2 * UNSEEN_FRAME
    unseen = cv2.warpAffine(writing.unseen, to_frame, (side, side), flags=cv2.INTER_LINEAR)
    return glyph, unseen, aspect


def _features(glyph: np.ndarray, unseen: np.ndarray, aspect: float, darkness: float) -> np.ndarray:
    """What the networks see: stroke directions by zone, the coarse shape, the proportions, and
    where and how likely ink may have been lost on the printed ring."""
    gx = cv2.Sobel(glyph, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(glyph, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)
    position = (np.arctan2(gy, gx) % np.pi) * (DIRECTIONS / np.pi)
    floor = np.floor(position)
    low = floor.astype(np.int32) % DIRECTIONS
    share = (position - floor).astype(np.float32)
    # Each pixel's gradient is shared between the two direction planes nearest its direction:
    # written straight into those two planes (the others stay 0).
    planes = np.zeros(GLYPH * GLYPH * DIRECTIONS, np.float32)
    planes[_PLANE_STARTS + low.ravel()] = (magnitude * (1 - share)).ravel()
    planes[_PLANE_STARTS + ((low + 1) % DIRECTIONS).ravel()] = (magnitude * share).ravel()
    planes = cv2.GaussianBlur(planes.reshape(GLYPH, GLYPH, DIRECTIONS), (0, 0), GLYPH / ZONES / 2)
    zones = np.sqrt(cv2.resize(planes, (ZONES, ZONES), interpolation=cv2.INTER_AREA)).ravel()
    zones /= _norm(zones) + 1e-6
    coarse = cv2.resize(glyph, (COARSE, COARSE), interpolation=cv2.INTER_AREA).ravel()
    coarse /= _norm(coarse) + 1e-6
    lost = cv2.resize(unseen, (COARSE, COARSE), interpolation=cv2.INTER_AREA).ravel()
    return np.concatenate([zones, coarse, lost, np.float32([np.log(aspect), darkness])])


_PLANE_STARTS = np.arange(GLYPH * GLYPH) * DIRECTIONS   # where each glyph pixel's DIRECTIONS planes start


def _norm(vector: np.ndarray) -> np.float32:
    """np.linalg.norm of a float32 vector, as it computes it, without its overhead."""
    return np.sqrt(vector.dot(vector))


def find_writing(ink: np.ndarray, px_per_mm: float, *, radius_mm: float) -> Writing | None:
    """The handwriting in a round box crop, or None when there is none (an empty box, a passing
    path stroke, specks, or an image that is not a 2-D crop)."""
    crop = _Crop.of(ink, px_per_mm, radius_mm)
    return None if crop is None else _writing(crop)


def writing_features(writing: Writing) -> np.ndarray | None:
    """The feature vector the networks classify for some handwriting."""
    glyph = _glyph(writing)
    return None if glyph is None else _features(*glyph, writing.darkness)


def has_writing(ink: np.ndarray, px_per_mm: float, *, radius_mm: float) -> bool:
    """Whether there is handwriting in the round box, readable or not (a passing path stroke is not)."""
    return find_writing(ink, px_per_mm, radius_mm=radius_mm) is not None


@dataclass(frozen=True)
class _Networks:
    """A few one-hidden-layer networks that each give class probabilities for a feature vector.

    Their weights are stacked, network by network, so that one batched matmul runs them all;
    it multiplies each network's weights on their own, so the results are those of one
    network at a time, to the bit."""

    mean: np.ndarray        # (features,): the training features' mean ...
    scale: np.ndarray       # ... and 1 / their spread
    hidden: np.ndarray          # (networks, features, units): the hidden layers' weights ...
    hidden_bias: np.ndarray     # (networks, units) ... and biases
    output: np.ndarray          # (networks, units, classes): the output layers' weights ...
    output_bias: np.ndarray     # (networks, classes) ... and biases

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> "_Networks":
        """The networks saved by ``benchmarks/digits_train.py``."""
        if not path.exists():
            raise FileNotFoundError(f"{path} is missing: run python benchmarks/digits_train.py")
        with np.load(path) as saved:
            data = {name: saved[name].astype(np.float32) for name in saved.files}
        if data["mean"].shape != (FEATURES,):
            raise ValueError(f"{path} was trained on other features: run python benchmarks/digits_train.py")
        count = int(data["networks"])
        w1, b1, w2, b2 = (np.stack([data[f"{name}_{i}"] for i in range(count)])
                          for name in ("w1", "b1", "w2", "b2"))
        return cls(data["mean"], data["scale"], w1, b1, w2, b2)

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(networks, classes): each network's class probabilities for one feature vector."""
        x = (features - self.mean) * self.scale
        hidden = np.maximum(x @ self.hidden + self.hidden_bias, 0)                  # (networks, units)
        logits = (hidden[:, None, :] @ self.output)[:, 0] + self.output_bias       # (networks, classes)
        odds = np.exp(logits - logits.max(axis=1, keepdims=True))
        return odds / odds.sum(axis=1, keepdims=True)


@functools.cache
def _networks() -> _Networks:
    return _Networks.load()


def read_digit(ink: np.ndarray, px_per_mm: float, *, radius_mm: float) -> tuple[int | None, float]:
    """The round number (1-7) handwritten in a round box, and how sure the reading is (0-1).

    ``ink`` is the player's ink around the box, centred on it: float in [0, 1],
    1 = ink; ``radius_mm`` is the printed circle's radius. The number is None when
    there is no writing, or it is not a digit from 1 to 7, or it is not clear which.
    """
    writing = find_writing(ink, px_per_mm, radius_mm=radius_mm)
    features = None if writing is None else writing_features(writing)
    if features is None:
        return None, 0.0
    votes = _networks().probabilities(features)
    mean = votes.sum(axis=0) / len(votes)     # as votes.mean(axis=0) computes it, faster
    best = int(mean.argmax())
    unanimous = bool((votes.argmax(axis=1) == best).all())
    label = CLASSES[best]
    if label not in ROUNDS or not unanimous or mean[best] < ACCEPT:
        return None, 0.0
    return ROUNDS[label], float(mean[best])
