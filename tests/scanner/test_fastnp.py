"""The scanner's short-way percentile, median and label sets give numpy's own answers, bit for bit (the
scan of every photo depends on them), on the kinds of arrays the scanner gives them."""
import numpy as np
import pytest

from scanner.fastnp import label_set, median, percentile


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.float64])
def test_percentile_is_numpys_to_the_bit(dtype):
    rng = np.random.default_rng(3)
    for size in [1, 2, 3, 7, 100, 999, 4096]:
        values = (rng.random(size) * 255).astype(dtype)
        for q in (0, 1, 50, 90, 99, 100):
            assert percentile(values, q) == float(np.percentile(values, q)), (size, q)
    grid = (rng.random((40, 30)) * 255).astype(dtype)
    assert percentile(grid, 99) == float(np.percentile(grid, 99))


def test_median_is_numpys_to_the_bit():
    rng = np.random.default_rng(4)
    for size in [1, 2, 5, 6, 31]:
        shifts = rng.normal(size=(size, 2)).astype(np.float32)
        assert np.array_equal(median(shifts, axis=0), np.median(shifts, axis=0))
        levels = list(rng.random(size))
        assert float(median(levels)) == float(np.median(levels))


def test_label_set_marks_the_labels_present():
    labels = np.array([[0, 2, 2], [5, 0, 2]])
    assert label_set(labels, 7).tolist() == [True, False, True, False, False, True, False]
