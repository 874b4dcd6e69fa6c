"""Telling the players' ink from the print: a rectified photo against the blank sheet.

Both images are first *flattened* the same way: each is divided by its own
paper white, estimated by a morphological closing that fills in everything
narrower than a few millimetres (lines, strokes, letters) but follows a hard
shadow's edge. What is left is how much darker each pixel is than the paper
around it. Ink is what is darker than anything the blank sheet prints nearby,
or coloured where the print is grey (after balancing the light's colour).

Images here are rectified: ``px_per_mm`` pixels per paper millimetre, row 0 at
the top of the printed page.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import cv2
import numpy as np

from scanner.fastnp import median, percentile

PAPER_WINDOW_MM = 3.2     # wider than any stroke or printed line, narrower than a room
PRINT_SLACK_MM = 0.5      # how far the print may sit from where the blank has it, after registration
FLAT_PRINT_SLACK_MM = 0.3 # ... in a clear photo of a sheet with no crease, whose registration is finer
WALL_SLACK_MM = 1.0       # ... and the heavy walls, whose edges leave the strongest trace when off
WALL_DARKNESS = 0.6
DARK_SPAN = 0.22          # darkness above the print that counts as full ink
ART_DARKNESS = 0.45       # the darkest grey of the printed art, through which a stroke is seen
PRINT_TONE = 0.05         # ... and a printer may print a grey this much (of it) darker than the blank has it
CHROMA_FLOOR, CHROMA_SPAN = 0.09, 0.2
CHANNEL_LEAST = 0.7       # a colour channel whose paper shows under this share of the brightest channel's tells
                          # no colour (``measure``)


def _kernel(px_per_mm: float, mm: float, shape=cv2.MORPH_RECT) -> np.ndarray:
    size = max(3, int(round(mm * px_per_mm)) | 1)
    return cv2.getStructuringElement(shape, (size, size))


def paper_white(image: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The paper's colour (or grey) around each pixel, as the image's type: a closing that fills in
    everything narrower than a few millimetres (lines, strokes, letters) but keeps a hard shadow's edge
    where it is. Worked out at a third of the resolution, which is plenty for light and shadow."""
    small = cv2.resize(image, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA)
    small = cv2.morphologyEx(small, cv2.MORPH_CLOSE, _kernel(px_per_mm / 3, PAPER_WINDOW_MM))
    return cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)


def darkness(image: np.ndarray, px_per_mm: float) -> np.ndarray:
    """How much darker than the paper around it each pixel is (0 paper, 1 black), whatever the light,
    as float32."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    white = paper_white(grey, px_per_mm).astype(np.float32) + 1.0
    return np.clip(1.0 - (grey.astype(np.float32) + 1.0) / white, 0.0, 1.0)


def measure(page: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """A rectified photo's darkness (as ``darkness``) and colour: how far each pixel is from the paper's
    own colour there, channel by channel (0 grey like the print; a blue, red or green pen is not).

    The weakest channel, when its paper shows under ``CHANNEL_LEAST`` of the brightest channel's, is left out
    of both (it takes the other two's mean; only the one, so that the other two still tell a colour): there the
    sensor's noise is a large part of what is left, and divided by the paper's own level it colours the print
    as a pen does. That is every dim photo (a tungsten lamp): the photographer's show the paper's blue at
    0.47-0.6 of its red (61 dim photos of seeds 7100-7119), its shadow and good ones at 0.815 or more (121 of
    the same seeds; every other condition at 0.82 or more in an earlier count); the threshold sits midway. A
    phone's vivid colours over a dim photo (``--degrade saturate``) push it to 0.25-0.42, its blue at 7-40
    levels of 255: there every tile of a Dungeon Maker sheet was read wrong, and a map sheet read strokes in a
    dozen empty rooms. On the photographer's own dim photos (the channel kept below 0.45, left out at 0.6 or
    0.7), fresh seeds: 48 map sheets of seed 874, 95.83% -> 97.92% of scores exact, 14 -> 10 right sheets
    flagged; 20 monster sheets of seed 313, bubbles 99.81% -> 99.99%, needless flags 29 -> 9; 20 Dungeon Maker
    sheets of seed 992 as they were (100% of tiles). The sample dim photo's score is read right, not asked
    about. (Every channel under the threshold was left out at first: a dim photo in vivid colours has its green
    under 0.7 too, and the red alone told no colour; seed 872's 12 such map sheets read 95.83% of rooms, 5
    wrong ones named nowhere, against 99.74% and none with only the blue left out.)

    Both are ``uint8``, 255 for 1: worked out in 8 bits, a third of the time of floats, and a
    step of 1/255 is far below anything the ink test tells apart.
    """
    white = paper_white(page, px_per_mm)
    relative = cv2.divide(page, white, scale=255)     # saturates at the paper: 255
    r, g, b = channels = cv2.split(relative)
    levels = cv2.mean(white[::8, ::8])[:3]
    weakest = min(range(3), key=lambda index: levels[index])
    if levels[weakest] < CHANNEL_LEAST * max(levels):  # only the weakest: the other two still tell a colour
        kept = [channel for index, channel in enumerate(channels) if index != weakest]
        grey = cv2.addWeighted(kept[0], 0.5, kept[1], 0.5, 0)
        r, g, b = [grey if index == weakest else channel for index, channel in enumerate(channels)]
        relative = cv2.merge((r, g, b))
    dark = cv2.subtract(255, cv2.cvtColor(relative, cv2.COLOR_RGB2GRAY))
    colour = cv2.subtract(cv2.max(cv2.max(r, g), b), cv2.min(cv2.min(r, g), b))
    return dark, colour


def print_allowance(blank_darkness: np.ndarray, px_per_mm: float, slack_mm: float = PRINT_SLACK_MM) -> np.ndarray:
    """How dark the print may make each pixel of a photo of the blank sheet: its darkness spread by
    ``slack_mm`` (and the heavy walls by ``WALL_SLACK_MM``), as registration leaves it that far off.
    The same for every photo of one sheet, so worked out once.

    The slack costs what a stroke passes close to: within it of the printed art, a stroke must be darker
    than the art to count, which a light pencil is not. So a clear photo of a sheet with no crease,
    registered to a tenth of a millimetre, is read with ``FLAT_PRINT_SLACK_MM``; a folded sheet (a crease
    found, its panels shifted against each other) or a noisy photo with the wider ``PRINT_SLACK_MM``."""
    allowance = cv2.dilate(blank_darkness, _kernel(px_per_mm, 2 * slack_mm, cv2.MORPH_ELLIPSE))
    walls = np.where(blank_darkness > WALL_DARKNESS, blank_darkness, 0.0).astype(np.float32)
    return np.maximum(allowance, cv2.dilate(walls, _kernel(px_per_mm, 2 * WALL_SLACK_MM, cv2.MORPH_ELLIPSE)))


@dataclass(frozen=True)
class Allowance:
    """A ``print_allowance`` in the terms ``ink_map`` works in, worked out once per sheet: with ``art`` the
    allowance where it is the art's grey (0 over the walls and the lettering), ink is
    ``(dark - floor) * scale - offset``, that is ((dark / 255 - allowance) / (1 - art) - 0.04 - PRINT_TONE
    art) / DARK_SPAN. Light passes through a stroke and the print under it, so the darkness a stroke adds
    over grey print is its own times the print's lightness. Sliced like an array."""

    floor: np.ndarray
    scale: np.ndarray
    offset: np.ndarray

    @classmethod
    def of(cls, allowance: np.ndarray) -> "Allowance":
        art = np.where(allowance <= ART_DARKNESS, allowance, 0.0).astype(np.float32)
        return cls((255 * allowance).astype(np.float32), (1 / (255 * DARK_SPAN) / (1.0 - art)).astype(np.float32),
                   ((0.04 + PRINT_TONE * art) / DARK_SPAN).astype(np.float32))

    def __getitem__(self, index) -> "Allowance":
        return Allowance(self.floor[index], self.scale[index], self.offset[index])


def ink_map(dark: np.ndarray, colour: np.ndarray, allowance: Allowance, gain: float = 1.0) -> np.ndarray:
    """Ink strength per pixel, 0 (paper or print) to 1 (surely a player's stroke), given the photo's
    registered darkness and colour (``measure``, 8-bit) and the blank's ``Allowance``; ``gain`` (from
    ``stroke_gain``) for a sheet drawn in strokes fainter than a pen's."""
    # Worked in place: this runs over a million pixels.
    above_print = dark.astype(np.float32)
    above_print -= allowance.floor
    above_print *= allowance.scale
    above_print -= allowance.offset
    if gain != 1.0:
        above_print *= gain
    coloured = colour.astype(np.float32)
    coloured -= 255 * CHROMA_FLOOR
    coloured *= 1 / (255 * CHROMA_SPAN)
    return np.clip(np.maximum(above_print, coloured, out=above_print), 0.0, 1.0, out=above_print)


REACH_MM = 6.0            # the furthest a tile of the photo is believed to lie from the blank's (a curl's middle
                          # moves 5 mm; rooms repeat every 15-20 mm, so a false match lies further)
REFINE_REACH_MM = 3.5     # ... and, after a first pass, how much further a smaller tile may lie
MATCHED = 0.08            # the phase correlation's response a tile's move is taken with
EDGE_AGREE_FROM_MM = 1.5  # in a smaller tiles' pass (``edge_reach_mm``), a move this far is taken only if a tile
EDGE_AGREE_MM = 1.0       # beside it moved within this of it: along a curled edge the tiles beside moved 0.5-1.2 mm
                          # from each other, while a tile with little print may match 2-5 mm off (a monster
                          # sheet's life track, a maker sheet's repeating tick boxes)
FAR_AGREE_MM = 4.0        # where a tile may reach beyond REACH_MM, a move that far is taken only if a tile beside
                          # it moved within this of it: a bend moves its neighbours alike (a bowed sheet's far
                          # tiles lay 0.2-2.9 mm from one beside them), while a tile with hardly any print in it
                          # can match as well 9 mm off its neighbours (a curled monster sheet's, response 0.08)


def register(photo_darkness: np.ndarray, blank_darkness: np.ndarray, px_per_mm: float, *,
             tile_mm: float = 48.0, reach_mm: float | np.ndarray = REACH_MM, print_only: bool = False,
             edge_reach_mm: float | None = None, carry_on: bool = True) -> np.ndarray:
    """Where each pixel of the blank lies in the rectified photo: a smooth (dx, dy) field in pixels.

    The corner markers place the sheet to a millimetre or two; a curled or
    bent sheet moves its middle further. Phase correlation of tiles of the
    photo against the blank measures that move tile by tile. With
    ``print_only`` (small tiles, in which a player's heavy ink may outweigh
    the print), the photo is taken no darker than the blank's print there.
    ``reach_mm``, ``edge_reach_mm``, ``carry_on``: see ``register_tiles``.
    """
    return register_tiles(photo_darkness, blank_darkness, px_per_mm, tile_mm=tile_mm, reach_mm=reach_mm,
                          print_only=print_only, edge_reach_mm=edge_reach_mm, carry_on=carry_on)[0]


def register_tiles(photo_darkness: np.ndarray, blank_darkness: np.ndarray, px_per_mm: float, *,
                   tile_mm: float = 48.0, reach_mm: float | np.ndarray = REACH_MM,
                   print_only: bool = False, edge_reach_mm: float | None = None, carry_on: bool = True
                   ) -> tuple[np.ndarray, np.ndarray]:
    """``register``'s field, and which of its tiles' moves were found (a rows x columns bool array; the
    others, whose best match lay beyond reach or was too weak, or far and unlike every tile beside them, are
    given a move by ``_filled``: their ring neighbours' at the edge, the found ones' median inside).

    ``reach_mm`` may be such an array too: each tile's own reach. ``edge_reach_mm``: the outermost ring of
    tiles reaches this far, where the rest reach ``reach_mm`` (a smaller tiles' pass after the large ones:
    a curl's move grows fastest at the page's edge, past the large tiles' centres); a move of
    ``EDGE_AGREE_FROM_MM`` or more is then taken only where a tile beside it moved alike. ``carry_on``: the
    field goes on at the outermost tiles' slope to the edge (``_spread_out``), or stays at their moves."""
    height, width = blank_darkness.shape
    nx, ny = tile_count(width, tile_mm, px_per_mm), tile_count(height, tile_mm, px_per_mm)
    xs = np.linspace(0, width, nx + 1).astype(int)
    ys = np.linspace(0, height, ny + 1).astype(int)
    shifts = np.zeros((ny, nx, 2), np.float32)
    good = np.zeros((ny, nx), bool)
    limits = np.broadcast_to(np.asarray(reach_mm, np.float32) * px_per_mm, (ny, nx))
    near, agree = REACH_MM, FAR_AGREE_MM
    if edge_reach_mm is not None:
        near, agree = EDGE_AGREE_FROM_MM, EDGE_AGREE_MM
        limits = limits.copy()
        limits[[0, -1], :] = limits[:, [0, -1]] = edge_reach_mm * px_per_mm
    for j in range(ny):
        for i in range(nx):
            a = blank_darkness[ys[j]:ys[j + 1], xs[i]:xs[i + 1]]
            b = photo_darkness[ys[j]:ys[j + 1], xs[i]:xs[i + 1]].astype(np.float32)
            if print_only:
                b = np.minimum(b, float(a.max()) * (255 if photo_darkness.dtype == np.uint8 else 1))
            window = _window(a.shape[1], a.shape[0])
            # Copies, both: where a tile is already a size the transform likes, phaseCorrelate multiplies its
            # inputs by the window in place, and ``a`` is the blank's own darkness.
            (dx, dy), response = cv2.phaseCorrelate(a.astype(np.float32), b, window)
            if response > MATCHED and abs(dx) < limits[j, i] and abs(dy) < limits[j, i]:
                shifts[j, i] = (dx, dy)
                good[j, i] = True
    good &= _near_or_agreed(shifts, good, near * px_per_mm, agree * px_per_mm)
    if good.any():
        _filled(shifts, good)
    if not carry_on:
        return cv2.resize(shifts, (width, height), interpolation=cv2.INTER_LINEAR), good
    return _spread_out(shifts, good, width, height), good


def tile_count(length: int, tile_mm: float, px_per_mm: float) -> int:
    """How many of ``register_tiles``' tiles of ``tile_mm`` lie across ``length`` pixels (of equal size, at
    least one)."""
    return max(1, round(length / int(tile_mm * px_per_mm)))


def _spread_out(shifts: np.ndarray, good: np.ndarray, width: int, height: int) -> np.ndarray:
    """The tiles' moves (rows x columns x 2, each at its tile's centre) as a field over ``width`` x ``height``
    pixels: linear between the centres, as OpenCV's resize makes it, and carried on at the same slope past
    the outermost centres to the edge where the two outermost tiles of that row or column were both found
    (a curl's move grows fastest at the paper's edge: held at the last centres' moves, a curled monster
    sheet's life track at the edge was read a box short). Elsewhere the move stays at the outermost one."""
    ny, nx = good.shape
    padded = np.pad(shifts, ((1, 1), (1, 1), (0, 0)), mode="edge")
    # The columns beyond the left and right edges, then (through transposed views) the rows above and below.
    for moves, found, out in ((shifts, good, padded), (shifts.transpose(1, 0, 2), good.T, padded.transpose(1, 0, 2))):
        if found.shape[1] >= 2:
            for side, edge, inner in ((0, 0, 1), (-1, -1, -2)):
                both = (found[:, edge] & found[:, inner])[:, None]
                out[1:-1, side] = np.where(both, 2 * moves[:, edge] - moves[:, inner], moves[:, edge])
    for row, col, in_row, in_col in ((0, 0, 1, 1), (0, -1, 1, -2), (-1, 0, -2, 1), (-1, -1, -2, -2)):
        padded[row, col] = padded[row, in_col] + padded[in_row, col] - padded[in_row, in_col]
    tile_w, tile_h = width / nx, height / ny
    big = cv2.resize(padded, (int(round(width + 2 * tile_w)), int(round(height + 2 * tile_h))),
                     interpolation=cv2.INTER_LINEAR)
    x0, y0 = int(round(tile_w)), int(round(tile_h))
    return np.ascontiguousarray(big[y0:y0 + height, x0:x0 + width])


def _filled(shifts: np.ndarray, good: np.ndarray) -> None:
    """Give each tile whose move was not found (``good`` False) a move: on the outermost ring, the mean of the
    found tiles beside it that lie on the ring too (or of any found beside it); inside, the median of all. A
    curl's move grows towards the paper's edge: the whole sheet's median lay 3 mm from the moves of an edge
    tile's neighbours along the edge. Inside, the tiles beside one not found are as likely to hold weak false
    matches themselves (a dim photo's rows of score boxes), and the median of all is the safer guess."""
    ring = np.zeros_like(good)
    ring[[0, -1], :] = ring[:, [0, -1]] = True
    whole = median(shifts[good], axis=0)
    fill = {}
    for j, i in zip(*np.nonzero(~good)):
        rows, cols = slice(max(0, j - 1), j + 2), slice(max(0, i - 1), i + 2)
        around = good[rows, cols]
        if ring[j, i] and (around & ring[rows, cols]).any():
            around = around & ring[rows, cols]
        fill[j, i] = shifts[rows, cols][around].mean(axis=0) if ring[j, i] and around.any() else whole
    for (j, i), move in fill.items():
        shifts[j, i] = move


def _near_or_agreed(shifts: np.ndarray, good: np.ndarray, near: float, agree: float) -> np.ndarray:
    """Which tiles' moves (``good`` ones, rows x columns x 2 pixels) are kept: those under ``near`` on both
    axes, and those further with a ``good`` tile beside them (of eight) that moved within ``agree`` of them."""
    far = good & (np.abs(shifts).max(axis=2) >= near)
    kept = ~far
    ny, nx = good.shape
    for j, i in zip(*np.nonzero(far)):
        around = [(b, a) for b in range(max(0, j - 1), min(ny, j + 2)) for a in range(max(0, i - 1), min(nx, i + 2))
                  if (b, a) != (j, i) and good[b, a]]
        kept[j, i] = any(np.hypot(*(shifts[b, a] - shifts[j, i])) <= agree for b, a in around)
    return kept


@lru_cache(maxsize=16)
def _window(width: int, height: int) -> np.ndarray:
    window = cv2.createHanningWindow((width, height), cv2.CV_32F)
    window.flags.writeable = False      # shared between calls
    return window


def apply_shift(image: np.ndarray, field: np.ndarray) -> np.ndarray:
    """An image of the photo moved so that it lies on the blank: pixel (x, y) takes its (x + dx, y + dy).
    (Any number of channels: moving the darkness and colour together is one pass.)"""
    grid = _pixel_grid(*field.shape[:2])
    return cv2.remap(image, grid + field, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def shift_planes(field: np.ndarray, *planes: np.ndarray) -> list[np.ndarray]:
    """Up to four single-channel images of one size moved as ``apply_shift`` moves an image, in one pass,
    pixel for pixel as ``apply_shift`` of them merged. (OpenCV's remap has a fast path for four channels
    and none for two or three, which take twice as long; its float maps are turned into the fixed-point
    ones it works with either way.)"""
    xy, fraction = cv2.convertMaps(_pixel_grid(*field.shape[:2]) + field, None, cv2.CV_16SC2)
    padded = cv2.merge(list(planes) + [planes[0]] * (4 - len(planes)))
    moved = cv2.remap(padded, xy, fraction, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Taken out one by one: splitting all four takes three times as long as taking two.
    return [cv2.extractChannel(moved, channel) for channel in range(len(planes))]


@lru_cache(maxsize=4)
def _pixel_grid(height: int, width: int) -> np.ndarray:
    """Each pixel's own (x, y), as float32 (a map for ``cv2.remap``); the same for every sheet of a size."""
    grid = np.empty((height, width, 2), np.float32)
    grid[..., 0] = np.arange(width, dtype=np.float32)[None, :]
    grid[..., 1] = np.arange(height, dtype=np.float32)[:, None]
    grid.flags.writeable = False
    return grid


CREASE_COVER = 0.8        # a line of ink across this share of the map, along the paper's edges, is a fold
CREASE_BAND_MM = 0.8      # ... straight to within this (a hand's line wanders more over a whole map)
CREASE_STEP_MM = 2.0


class Crease(tuple):
    """A fold's crease found on the ink map: (across, pixel), a column of the page when ``across`` else a row,
    where it crosses ``middle`` (a pixel along it, the map's middle); a crease a little off the paper's
    edges runs ``slope`` pixels off that row (column) per pixel along it (``at``)."""

    def __new__(cls, across: bool, pixel: int, slope: float = 0.0, middle: int = 0) -> "Crease":
        crease = super().__new__(cls, (across, pixel))
        crease.slope, crease.middle = slope, middle
        return crease

    def at(self, along):
        """The row (column) the crease runs through at pixel ``along`` (a number or an array of them)."""
        return np.rint(self[1] + self.slope * (np.asarray(along) - self.middle)).astype(int)


def as_crease(crease) -> Crease:
    return crease if isinstance(crease, Crease) else Crease(*crease)


def crease_mm(crease, along_mm: float, px_per_mm: float) -> float:
    """Where (mm across the page) a crease runs beside the point ``along_mm`` along it."""
    return float(as_crease(crease).at(int(round(along_mm * px_per_mm)))) / px_per_mm


CREASE_TILT_PARTS = 8     # a crease's tilt is measured over this many stretches of the map
CREASE_MOST_TILT = 0.02   # ... and taken as at most this (2 mm in 100 mm: the camera's own turn is rectified)


def _fitted(work: np.ndarray, across: bool, row: int, x0: int, x1: int, px_per_mm: float, inked: float) -> Crease:
    """The crease found along ``row`` of ``work``, with its tilt: in each stretch of the map, the row near
    ``row`` with the most ink, and the line through them (the median of the slopes between them: a path's
    stroke along one stretch moves one point, not the line)."""
    reach = int(round(3 * CREASE_BAND_MM * px_per_mm))
    window = work[max(row - reach, 0):row + reach + 1, x0:x1] >= inked
    width = (x1 - x0) // CREASE_TILT_PARTS
    middle = (x0 + x1) // 2
    points = []
    for part in range(CREASE_TILT_PARTS):
        counts = window[:, part * width:(part + 1) * width].sum(axis=1)
        if width and counts.max() >= width / 3:
            points.append((x0 + part * width + width / 2, max(row - reach, 0) + int(counts.argmax())))
    if len(points) < CREASE_TILT_PARTS // 2:
        return Crease(across, row, 0.0, middle)
    slopes = [(b[1] - a[1]) / (b[0] - a[0]) for a, b in combinations(points, 2)]
    slope = float(np.clip(median(np.array(slopes)), -CREASE_MOST_TILT, CREASE_MOST_TILT))
    pixel = int(round(float(median(np.array([y - slope * (x - middle) for x, y in points])))))
    return Crease(across, pixel if abs(pixel - row) <= reach else row, slope, middle)


def without_creases(ink: np.ndarray, area: tuple[int, int, int, int], px_per_mm: float,
                    inked: float = 0.45, could_be_path=None
                    ) -> tuple[np.ndarray, list[Crease], list[Crease]]:
    """The ink map without the creases of a folded sheet, and where they were (``Crease``: (across, pixel),
    ``across`` False for a row of the page, True for a column, and its tilt). A crease is a thin dark
    line straight across the whole sheet along its edges: across ``area`` (x0, y0, x1, y1 in pixels, the
    map) it shows as ink in nearly every step of one narrow band of rows (or columns), and it runs on
    beyond the map on both sides, where a path, which ends at the map's edge, does not. Where print hides
    it or a step between the panels breaks it, it covers less of the map, and is taken for a crease only
    if on one side it runs on out to the page's edge (``_runs_far``). The band is
    cleared, except where a stroke crosses it: there the ink on both sides of the band is carried across.
    ``could_be_path(crease)`` says whether a player's straight path could run there: such a line is left
    as it is, and returned third, for the rooms along it to be asked about."""
    found, kept = [], []
    for turned in (False, True):
        work = ink.T if turned else ink
        x0, y0, x1, y1 = (area[1], area[0], area[3], area[2]) if turned else area
        half = cv2.resize(work[y0:y1, x0:x1], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        creases = []
        for row, plain in _crease_rows(half >= inked / 2, px_per_mm / 2):
            # The line fitted near the band may be drawn to a printed line beside the crease that the fold's
            # move shows as ink (a row of tiles' edge, 2 mm off): the band's own row is tried too.
            for crease in (_fitted(work, turned, y0 + 2 * row, x0, x1, px_per_mm, inked / 2),
                           Crease(turned, y0 + 2 * row, 0.0, (x0 + x1) // 2)):
                if _runs_beyond(work, crease, x0, x1, px_per_mm, inked / 2) and \
                        (plain or _runs_far(work, crease, x0, x1, px_per_mm, inked / 2)):
                    creases.append(crease)
                    break
        if could_be_path is not None:
            kept += [crease for crease in creases if could_be_path(crease)]
            creases = [crease for crease in creases if crease not in kept]
        if creases:
            found += creases
            ink = cleared_creases(ink, creases, area, px_per_mm)
    return np.ascontiguousarray(ink), found, kept


def line_shade(ink: np.ndarray, darkness: np.ndarray, crease, px_per_mm: float, inked: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Along a line found as a crease, at every pixel of the page along it: the photo's darkest pixel
    across the line's band (``darkness``, page-sized), and whether ink (``inked`` or more) lies there."""
    crease = as_crease(crease)
    work_ink, work_dark = (ink.T, darkness.T) if crease[0] else (ink, darkness)
    along = np.arange(work_ink.shape[1])
    band = int(round(CREASE_BAND_MM * px_per_mm))
    rows = np.clip(crease.at(along)[None, :] + np.arange(-band, band + 1)[:, None], 0, work_ink.shape[0] - 1)
    return work_dark[rows, along].max(axis=0), work_ink[rows, along].max(axis=0) >= inked


def cleared_creases(ink: np.ndarray, creases, area: tuple[int, int, int, int], px_per_mm: float) -> np.ndarray:
    """The ink map with the bands of ``creases`` (``Crease``, or (across, pixel) for a level one, as
    ``without_creases`` finds them) cleared over ``area``, a stroke crossing a band carried across it."""
    for turned in (False, True):
        rows = [as_crease(crease) for crease in creases if crease[0] == turned]
        if not rows:
            continue
        work = (ink.T if turned else ink).copy()
        x0, x1 = (area[1], area[3]) if turned else (area[0], area[2])
        for crease in rows:
            for top, bottom, a, b in _stretches(crease, x0, x1, px_per_mm, work.shape[0]):
                above = work[top - 1 if top else top, a:b]
                below = work[bottom + 1 if bottom + 1 < work.shape[0] else bottom, a:b]
                work[top:bottom + 1, a:b] = _carried(above, below, bottom + 1 - top)
        ink = work.T if turned else work
    return np.ascontiguousarray(ink)


def crease_mask(shape: tuple[int, int], crease, px_per_mm: float) -> np.ndarray:
    """Where ``cleared_creases`` clears a crease's band, on a page-sized map of ``shape`` (True), the whole
    page along."""
    crease = as_crease(crease)
    mask = np.zeros(shape[::-1] if crease[0] else shape, bool)
    for top, bottom, a, b in _stretches(crease, 0, mask.shape[1], px_per_mm, mask.shape[0]):
        mask[top:bottom + 1, a:b] = True
    return mask.T if crease[0] else mask


def _stretches(crease: Crease, start: int, stop: int, px_per_mm: float, length: int):
    """The crease's band from pixel ``start`` to ``stop`` along it, as the stretches along which it keeps
    to the same rows (columns): (first row, last row, first pixel along, pixel after the last)."""
    along = np.arange(start, stop)
    lines = crease.at(along)
    for line in np.unique(lines):
        a, b = along[lines == line][[0, -1]]
        yield (*crease_band(int(line), px_per_mm, length), int(a), int(b) + 1)


CARRIED_INK = 0.2         # ink strength of a stroke carried across a crease's band


def _carried(above: np.ndarray, below: np.ndarray, height: int) -> np.ndarray:
    """The ``height`` rows of a crease's band, between the rows ``above`` and ``below`` it: ink where both
    show it, and a stroke that crosses the band aslant (or where the panels on either side of a fold have
    moved apart), its ends on the two sides not overlapping but less than the band's height apart, joined
    by a straight strip from one end to the other."""
    band = np.repeat(np.minimum(above, below)[None], height, axis=0)
    ends_above, ends_below = runs(above >= CARRIED_INK), runs(below >= CARRIED_INK)
    for a0, a1 in ends_above:
        for b0, b1 in ends_below:
            if b0 <= a1 and a0 <= b1 or b0 > a1 + height or a0 > b1 + height:
                continue        # overlapping (the minimum carries it), or too far apart to be one stroke
            strength = min(above[a0:a1 + 1].max(), below[b0:b1 + 1].max())
            for row in range(height):
                share = (row + 0.5) / height
                left, right = int(round(a0 + share * (b0 - a0))), int(round(a1 + share * (b1 - a1)))
                band[row, left:right + 1] = np.maximum(band[row, left:right + 1], strength)
    return band


def runs(inked: np.ndarray) -> list[tuple[int, int]]:
    """The first and last index of each run of True in ``inked``."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], inked.astype(np.int8), [0]))))
    return [(int(first), int(end) - 1) for first, end in zip(edges[::2], edges[1::2])]


def crease_band(pixel: int, px_per_mm: float, length: int) -> tuple[int, int]:
    """The first and last row (or column) ``without_creases`` clears for a crease found at ``pixel``, in a
    map ``length`` rows (or columns) long."""
    half = int(round(CREASE_BAND_MM * px_per_mm))
    return max(pixel - half - 1, 0), min(pixel + half + 1, length - 1)


CREASE_BEYOND_MM = (2.0, 3.8)   # a crease shows this far beyond the map on both sides


def _runs_beyond(ink: np.ndarray, crease: Crease, x0: int, x1: int, px_per_mm: float, inked: float) -> bool:
    band = int(round(2 * CREASE_BAND_MM * px_per_mm))     # a panel's shift may bend the crease a little there
    near, far = (int(round(mm * px_per_mm)) for mm in CREASE_BEYOND_MM)
    sides = []
    for a, b in ((max(x0 - far, 0), max(x0 - near, 0)), (x1 + near, x1 + far)):
        row = int(crease.at((a + b) // 2))
        sides.append(ink[max(row - band, 0):row + band + 1, a:b])
    return all(side.size and (side >= inked).any(axis=0).mean() >= 0.5 for side in sides)


CREASE_FAINT_COVER = 0.5     # a fainter line across the map (print hides a crease, a step between panels breaks
CREASE_FAR_MM = 5.0          # it) is a crease if on one side it runs on to the page's edge, over this much at least,
CREASE_EDGE_MM = 3.0         # as plainly as across the map (short of the edge, where the paper's own edge may show)


def _runs_far(ink: np.ndarray, crease: Crease, x0: int, x1: int, px_per_mm: float, inked: float) -> bool:
    """Whether the crease runs on beyond the map, on one side at least, in nearly every step out to the
    page's edge: a path drawn into the map from its edge does not go as far, and a path ends there."""
    band = int(round(2 * CREASE_BAND_MM * px_per_mm))
    near, edge, far = (int(round(mm * px_per_mm)) for mm in (CREASE_BEYOND_MM[0], CREASE_EDGE_MM, CREASE_FAR_MM))
    step = max(1, int(round(CREASE_STEP_MM * px_per_mm)))
    for a, b in ((edge, max(x0 - near, edge)), (x1 + near, max(ink.shape[1] - edge, x1 + near))):
        row = int(crease.at((a + b) // 2))
        side = ink[max(row - band, 0):row + band + 1, a:b] >= inked
        steps = side.shape[1] // step
        if side.shape[1] >= far and steps and \
                side.any(axis=0)[:steps * step].reshape(steps, step).max(axis=1).mean() >= CREASE_COVER:
            return True
    return False


def _crease_rows(inked: np.ndarray, px_per_mm: float) -> list[tuple[int, bool]]:
    """The middle rows of the bands in which ink covers ``CREASE_FAINT_COVER`` of the steps across, each
    with whether it covers ``CREASE_COVER`` somewhere."""
    band = int(round(CREASE_BAND_MM * px_per_mm))
    step = max(1, int(round(CREASE_STEP_MM * px_per_mm)))
    steps = inked.shape[1] // step
    if steps < 10:
        return []
    # Whether ink lies within the band of each row, in each step across: one dilation whose window reaches
    # ``band`` rows either way and a step to the right, read at the first column of every step.
    near = cv2.dilate(inked.astype(np.uint8), np.ones((2 * band + 1, step), np.uint8), anchor=(0, band),
                      borderType=cv2.BORDER_CONSTANT, borderValue=0)
    cover = near[:, :steps * step:step].mean(axis=1)
    plain = runs(cover >= CREASE_COVER)
    return sorted([((top + bottom) // 2, True) for top, bottom in plain] +
                  [((top + bottom) // 2, False) for top, bottom in runs(cover >= CREASE_FAINT_COVER)
                   if not any(top <= first <= bottom for first, _ in plain)])


QUIET_FROM = 0.012        # sensor noise (of the paper's brightness) above which a photo is smoothed first


def noise_level(image: np.ndarray) -> float:
    """The sensor noise of a rectified photo, as a share of the paper's brightness: the typical difference
    of a pixel from the median of its neighbours (strokes and lines are too few to move it)."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    middle = grey[grey.shape[0] // 4:3 * grey.shape[0] // 4, grey.shape[1] // 4:3 * grey.shape[1] // 4]
    diff = cv2.absdiff(middle, cv2.medianBlur(middle, 5))
    return _percentile(diff, 50) * 1.48 / (_percentile(middle, 90) + 1.0)


def _percentile(image: np.ndarray, q: float) -> float:
    """A percentile of an 8-bit image, from its histogram (a tenth of the time of sorting it)."""
    counts = cv2.calcHist([image], [0], None, [256], [0, 256]).ravel().cumsum()
    return float(np.searchsorted(counts, counts[-1] * q / 100))


def quieted(image: np.ndarray, noise: float | None = None) -> np.ndarray:
    """A rectified photo with heavy sensor noise (a dim room's photo) smoothed, the more the noisier (up to
    0.28 mm, under the width of a pen's line), else as it is: noise that strong reads as specks of ink
    all over the rooms. A clear photo's noise is under half of ``QUIET_FROM``, a dim one's two to six times it.
    ``noise`` is the photo's ``noise_level``, when a part of it is smoothed as the whole was."""
    noise = noise_level(image) if noise is None else noise
    if noise < QUIET_FROM:
        return image
    return cv2.GaussianBlur(image, (0, 0), min(1.4, 0.5 + 20 * (noise - QUIET_FROM)))


STROKE_CORE = 0.45        # the darkness above the print of a stroke's core that full ink needs no help for
MOST_GAIN = 2.0
STROKE_PX = 0.002         # ... judged when at least this share of the area is stroke, so not on a blank sheet


def stroke_gain(dark: np.ndarray, allowance: Allowance) -> float:
    """How much fainter than a pen's this sheet's strokes are, as the factor that brings them to full ink
    (1 for a pen, up to ``MOST_GAIN`` for light pencil): the darkness above the print of the cores of the
    sheet's strokes (the darkest tenth of what stands out of the print at all) against ``STROKE_CORE``.
    Judged on the sheet itself, so a light hand is read as surely as a heavy one."""
    step = dark[::3, ::3]
    contrast = (step.astype(np.float32) - allowance.floor[::3, ::3]) * allowance.scale[::3, ::3] * DARK_SPAN
    standing = contrast[contrast > 0.08]
    if standing.size < STROKE_PX * contrast.size:
        return 1.0
    core = percentile(standing, 90)
    return float(np.clip(STROKE_CORE / max(core, 1e-3), 1.0, MOST_GAIN))
