"""Three numpy computations the scanner makes on every sheet, done the short way.

``np.percentile`` calls ``np.unique`` on its indices, and ``np.unique``, like
``np.median``'s check for NaNs in a float array, imports ``numpy.ma`` (about
28 ms, in every process that reads a photo), besides their overhead on the
few hundred values of a digit's circle. ``percentile`` and ``median`` take the
steps of numpy's own, bit for bit, on arrays without NaNs. ``label_set`` marks
which labels of a connected-components image appear in a part of it, where
``np.isin(labels, np.unique(part))`` would sort.
"""
from __future__ import annotations

import numpy as np


def percentile(values: np.ndarray, q: float) -> float:
    """``np.percentile(values, q)`` for a non-empty array without NaNs, bit for bit: an integer array's
    in float64, a float array's in its own precision, as numpy's lerp does."""
    flat = np.asarray(values).ravel()
    index = (flat.size - 1) * (q / 100)
    below = int(np.floor(index))
    above = min(below + 1, flat.size - 1)
    ordered = np.partition(flat, [below, above])
    low, high = ordered[below], ordered[above]
    share = index - below
    # np.percentile's lerp: from the lower value up, or from the upper value down past halfway.
    step = high - low
    return float(high - step * (1 - share) if share >= 0.5 else low + step * share)


def median(values, axis: int | None = None):
    """``np.median(values, axis)`` for an array without NaNs, bit for bit: the middle value, or the mean
    of the two middle values, of the whole array or along ``axis``."""
    values = np.asarray(values)
    if axis is None:
        values, axis = values.ravel(), 0
    size = values.shape[axis]
    middle = [size // 2 - 1, size // 2] if size % 2 == 0 else [size // 2]
    return np.mean(np.take(np.partition(values, middle, axis=axis), middle, axis=axis), axis=axis)


def label_set(labels: np.ndarray, count: int) -> np.ndarray:
    """A table, ``count`` long, of which of the labels (0 .. count - 1) occur in ``labels``."""
    seen = np.zeros(count, bool)
    seen[labels.ravel()] = True
    return seen
