"""The round number handwritten in a round box is read, or refused when it is not a clear 1-7.

The digits here come from this file's own generator, unlike the reader's
training generator: angular pen polylines and OpenCV's built-in fonts, slanted
and scaled, in a crop as the scanner cuts it (2.6 mm circle, 5 px/mm unless
said otherwise).
"""
import cv2
import numpy as np
import pytest

from scanner.digits import has_writing, read_digit

RADIUS = 2.6

# Digits as straight pen moves in a box one unit tall (x right, y down): block capitals style.
POLYLINES = {
    1: [[(0.55, 0.0), (0.5, 1.0)]],
    2: [[(0.0, 0.2), (0.3, 0.0), (0.75, 0.0), (1.0, 0.25), (0.0, 1.0), (1.0, 1.0)]],
    3: [[(0.0, 0.0), (1.0, 0.0), (0.4, 0.45), (0.95, 0.65), (0.65, 1.0), (0.0, 0.92)]],
    4: [[(0.75, 1.0), (0.75, 0.0), (0.0, 0.7), (1.0, 0.7)]],
    5: [[(1.0, 0.0), (0.1, 0.0), (0.05, 0.45), (0.7, 0.4), (1.0, 0.7), (0.6, 1.0), (0.0, 0.9)]],
    6: [[(0.85, 0.0), (0.2, 0.4), (0.0, 0.75), (0.3, 1.0), (0.8, 0.95), (1.0, 0.7), (0.6, 0.5), (0.1, 0.65)]],
    7: [[(0.0, 0.0), (1.0, 0.0), (0.35, 1.0)]],
    8: [[(0.5, 0.5), (0.9, 0.22), (0.5, 0.0), (0.1, 0.22), (0.5, 0.5), (0.95, 0.75), (0.5, 1.0),
         (0.05, 0.75), (0.5, 0.5)]],
    9: [[(0.9, 0.3), (0.5, 0.0), (0.1, 0.2), (0.3, 0.5), (0.9, 0.3), (0.85, 1.0)]],
    0: [[(0.5, 0.0), (0.05, 0.2), (0.0, 0.8), (0.5, 1.0), (0.95, 0.8), (1.0, 0.2), (0.5, 0.0)]],
}
FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX]


def side(px_per_mm):
    return 2 * round((RADIUS + 1.5) * px_per_mm) + 1


def glyph_sheet(digit, rng):
    """The digit, big and upright, on a black sheet cropped to its ink (uint8, 255 = ink)."""
    sheet = np.zeros((200, 200), np.uint8)
    if rng.random() < 0.5:
        font = FONTS[rng.integers(len(FONTS))]
        cv2.putText(sheet, str(digit), (50, 150), font, 4.0, 255, int(rng.integers(6, 14)), cv2.LINE_AA)
    else:
        width = rng.uniform(0.5, 0.7)
        for line in POLYLINES[digit]:
            points = np.array(line) * [width * 120, 120] + 40 + rng.normal(0, 3, (len(line), 2))
            cv2.polylines(sheet, [np.round(points).astype(np.int32)], False, 255, int(rng.integers(6, 16)),
                          cv2.LINE_AA)
    rows, cols = np.nonzero(sheet > 127)
    return sheet[rows.min():rows.max() + 1, cols.min():cols.max() + 1]


def crop_with(digit, rng, *, px_per_mm=5.0, ink=(0.85, 1.0)):
    """A round box crop with ``digit`` written in it: 65-100% of the circle tall, slanted, a bit off-centre."""
    n = side(px_per_mm)
    sheet = glyph_sheet(digit, rng).astype(np.float32) / 255
    height = rng.uniform(0.65, 1.0) * 2 * RADIUS * px_per_mm
    scale = height / sheet.shape[0]
    slant = np.tan(np.radians(rng.uniform(-12, 12)))
    centre = n / 2 - 0.5 + rng.uniform(-0.4, 0.4, 2) * px_per_mm
    linear = np.array([[scale, -slant * scale], [0, scale]])
    middle = np.array([sheet.shape[1], sheet.shape[0]]) / 2
    to_crop = np.hstack([linear, (centre - linear @ middle)[:, None]])
    placed = cv2.warpAffine(sheet, to_crop, (n, n), flags=cv2.INTER_AREA)
    return np.clip(placed * rng.uniform(*ink), 0, 1).astype(np.float32)


def path_stroke(n, start, end, px_per_mm=5.0, width_mm=0.8):
    """A crop holding only a straight path stroke from ``start`` to ``end`` (pixel x, y)."""
    canvas = np.zeros((n, n), np.uint8)
    cv2.line(canvas, start, end, 255, max(1, round(width_mm * px_per_mm)), cv2.LINE_AA)
    return canvas.astype(np.float32) / 255


def readings(digit, count, seed, **options):
    rng = np.random.default_rng(seed)
    px_per_mm = options.get("px_per_mm", 5.0)
    return [read_digit(crop_with(digit, rng, **options), px_per_mm, radius_mm=RADIUS)[0] for _ in range(count)]


# Of 70, at least this many are read: 90%, but 79% for 1. A tall 1 reaching the printed
# ring is often refused, as the scanner may have lost a 7's bar there.
LEAST_READ = {1: 55, 2: 63, 3: 63, 4: 63, 5: 63, 6: 63, 7: 63}


@pytest.mark.parametrize("digit", range(1, 8))
def test_each_round_number_is_read(digit):
    answers = readings(digit, 70, seed=digit)
    assert answers.count(digit) >= LEAST_READ[digit], answers
    assert sum(a not in (None, digit) for a in answers) <= 1, answers


@pytest.mark.parametrize("px_per_mm", [4.0, 8.0])
def test_round_numbers_are_read_at_low_and_high_resolution(px_per_mm):
    answers = {digit: readings(digit, 20, seed=100 + digit, px_per_mm=px_per_mm) for digit in range(1, 8)}
    read = sum(a.count(d) for d, a in answers.items())
    wrong = sum(x not in (None, d) for d, a in answers.items() for x in a)
    assert read >= 0.8 * 140 and wrong <= 1, answers


def test_pencil_is_read():
    answers = {digit: readings(digit, 20, seed=200 + digit, ink=(0.45, 0.7)) for digit in range(1, 8)}
    read = sum(a.count(d) for d, a in answers.items())
    wrong = sum(x not in (None, d) for d, a in answers.items() for x in a)
    assert read >= 0.8 * 140 and wrong <= 1, answers


def test_a_read_number_comes_with_its_confidence():
    rng = np.random.default_rng(5)
    digit, confidence = read_digit(crop_with(7, rng), 5.0, radius_mm=RADIUS)
    assert digit == 7 and 0.9 <= confidence <= 1.0


@pytest.mark.parametrize("digit", [0, 8, 9])
def test_other_digits_are_refused(digit):
    answers = readings(digit, 40, seed=300 + digit)
    assert answers.count(None) >= 36, answers


def test_an_empty_box_reads_nothing():
    rng = np.random.default_rng(6)
    empty = np.clip(rng.normal(0, 0.04, (side(5.0), side(5.0))), 0, 1).astype(np.float32)
    assert read_digit(empty, 5.0, radius_mm=RADIUS) == (None, 0.0)
    assert not has_writing(empty, 5.0, radius_mm=RADIUS)


@pytest.mark.parametrize("start, end", [((25, 41), (41, 25)), ((41, 30), (20, 41)), ((34, 0), (41, 20))])
def test_a_path_stroke_past_the_box_reads_nothing(start, end):
    stroke = path_stroke(side(5.0), start, end)
    assert read_digit(stroke, 5.0, radius_mm=RADIUS)[0] is None
    assert not has_writing(stroke, 5.0, radius_mm=RADIUS)


def test_a_path_stroke_beside_the_number_is_ignored():
    rng = np.random.default_rng(7)
    n = side(5.0)
    stroke = path_stroke(n, (n - 1, n - 15), (n - 15, n - 1))   # passes 1.1 mm outside the circle
    answers = [(digit, read_digit(np.maximum(crop_with(digit, rng), stroke), 5.0, radius_mm=RADIUS)[0])
               for digit in range(1, 8) for _ in range(5)]
    assert sum(read == digit for digit, read in answers) >= 30, answers
    assert all(read in (None, digit) for digit, read in answers), answers


def test_a_faint_leftover_of_the_printed_ring_is_no_writing():
    n = side(5.0)
    leftover = np.zeros((n, n), np.uint8)
    cv2.ellipse(leftover, (n // 2 + 1, n // 2), (13, 13), 0, 100, 250, 255, 1, cv2.LINE_AA)
    leftover = leftover.astype(np.float32) / 255 * 0.35
    assert read_digit(leftover, 5.0, radius_mm=RADIUS) == (None, 0.0)
    assert not has_writing(leftover, 5.0, radius_mm=RADIUS)


def test_a_leftover_of_the_printed_ring_beside_the_number_is_ignored():
    rng = np.random.default_rng(11)
    n = side(5.0)
    answers = []
    for digit in range(1, 8):
        for _ in range(10):
            leftover = np.zeros((n, n), np.uint8)
            start = int(rng.integers(0, 360))
            cv2.ellipse(leftover, (n // 2, n // 2 + 1), (14, 14), 0, start, start + 120, 255, 1, cv2.LINE_AA)
            crop = np.maximum(crop_with(digit, rng), leftover.astype(np.float32) / 255 * 0.3)
            answers.append((digit, read_digit(crop, 5.0, radius_mm=RADIUS)[0]))
    assert sum(read == digit for digit, read in answers) >= 60, answers
    assert all(read in (None, digit) for digit, read in answers), answers


def test_a_number_is_writing_even_when_it_cannot_be_read():
    rng = np.random.default_rng(8)
    assert has_writing(crop_with(8, rng), 5.0, radius_mm=RADIUS)
    assert has_writing(crop_with(3, rng, ink=(0.5, 0.6)), 5.0, radius_mm=RADIUS)


@pytest.mark.parametrize("image", [
    np.ones((41, 41), np.float32),
    np.zeros((41, 41), np.float32),
    np.ones((3, 3), np.float32),
    np.zeros((0, 0), np.float32),
    np.full((41, 41), np.nan, np.float32),
    np.random.default_rng(9).random((30, 55)).astype(np.float32),
    np.random.default_rng(10).random((41, 41, 3)).astype(np.float32),
], ids=["all ink", "all paper", "tiny", "empty array", "nan", "not square", "colour"])
def test_odd_input_gives_an_answer_not_a_crash(image):
    digit, confidence = read_digit(image, 5.0, radius_mm=RADIUS)
    assert digit is None or digit in range(1, 8)
    assert 0.0 <= confidence <= 1.0
    assert isinstance(has_writing(image, 5.0, radius_mm=RADIUS), bool)


def test_all_ink_is_not_a_number():
    assert read_digit(np.ones((41, 41), np.float32), 5.0, radius_mm=RADIUS) == (None, 0.0)
