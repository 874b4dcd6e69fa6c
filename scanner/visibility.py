"""What the camera could not see: rooms under glare, a deep shadow, a finger or an object lying on the sheet.

A room whose print the photo does not show cannot be read, and must never be
read as empty. Two signs, each measured against what the blank sheet prints:

- **washed out**: the printed lines of the room show much less of their
  darkness than the blank has them (glare, or a shadow so deep the print is
  lost), compared after blurring both by a millimetre so that a thin line
  softened by the lens still counts whole; or part of the room is glare
  itself, paper brighter than around it and at the camera's white;
- **covered**: the paper's own colour (``_paper_colour``) is far
  darker or far more coloured than the sheet's paper around it: a pen, a
  phone, a finger. A shadow darkens paper by half at most and keeps its
  colour. Paper only a little greyer is covered where it hides the print
  under it (``greyed_over``), or where it is shaped like a pen: long,
  narrow and straight (a silver pen on plain paper hides no print).

Images here are rectified like ``scanner.ink``'s: row 0 at the top of the
reading area, ``px_per_mm`` pixels per paper millimetre.
"""
from __future__ import annotations

import cv2
import numpy as np

from scanner.fastnp import percentile

COVER_PX_PER_MM = 1.0      # the covering test's resolution: objects are millimetres wide, not tenths
PAPER_AROUND_MM = 60.0     # the sheet's paper colour is the median over a window this wide
CLOSE_MM = 5.0             # ... of the paper colour: a median, then a closing, this wide
COVERED_LEVEL = 0.4        # paper darker than this share of the paper around it has something on it
COVERED_CHROMA = 0.2       # ... and so has paper whose colour strays this far from the paper around it
SMALLEST_COVER_MM2 = 80.0  # ... in a patch at least this large (a blob of ink is smaller)
BLUR_MM = 1.0              # print and photo are compared blurred this much
SEEN_PX_PER_MM = 2.5       # ... at this resolution
PRINTED = 0.12             # blurred blank darkness above which a pixel is print
PRINT_SEEN = 0.35          # print showing less than this share of its darkness is not seen
UNSEEN_SHARE = 0.12        # a room is hidden when this share of its print is not seen
COVERED_SHARE = 0.04       # ... or this share of its area is covered (16 mm² of a 20 mm room)
COVER_REACH = 1            # pixels (mm) a Dungeon Maker sheet's record boxes are looked round for a cover: a thumb's
                           # edge found 1 mm short of a Potions box it crossed read as a tick (seed 947, sheet 9471103)
GLARE_LEVEL = 1.08         # paper this much brighter than the paper around it ...
GLARE_WHITE = 245          # ... and this near the camera's white in every channel is washed out by glare
WASHED_SHARE = 0.1         # ... and a room with this share of its area washed out is hidden
GREYED_LEVEL = 0.88       # paper this much darker than around it is greyed: a shadow or a pale object
GREYED_LOST = 0.5          # ... an object when this share of the print under it is lost
GREYED_REACH = 3           # ... judged within this many mm
DENSE_PRINT = 0.85         # print darker than this (of the paper) through a 5 mm median and closing is dense
BAND_LONG_MM = 40.0        # greyed paper in a straight band at least this long ...
BAND_WIDE_MM = 16.0        # ... and at most this wide (a pen and its shadow; an arm's shadow is wider) ...
BAND_FULL = 0.6            # ... filling this share of its bounding rectangle is an object lying there ...
BAND_THICK_MM = 6.0        # ... when its area is this many mm for each mm of its length (a pen is 8 mm wide and
                           # greyed with its shadow 10-14 mm; a straight shadow's edge or a curl's shading leaves
                           # a greyed line 3 mm thick, which read as a pen and hid the tiles along it)
PEN_LONG_MM = 75.0         # a band this long is a pen if at most PEN_WIDE_MM wide (the shadow a pen casts widens
PEN_WIDE_MM = 22.0         # ... it: 17-20 mm measured; no shadow or shading that narrow runs this far) ...
PEN_FULL = 0.5             # ... and filling this share of its rectangle (a pen along a diagonal fills less)
PEN_ALONG_MM = 85.0        # ... or this long, at most PEN_WIDE_MM wide along PEN_ALONG_SHARE of its length: a
PEN_ALONG_SHARE = 0.95     # ... patch of print or a stroke greyed beside it widens its rectangle, not its length
PEN_TIP_MM = 2.5           # a pen reaches this much beyond both ends of where it is found (the median that finds
                           # it loses half its window off a narrow end: the tapered tip)


def covered(region_rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where something other than paper lies on the sheet, where glare washes the paper out, and where the
    paper is a little greyer than around it (a shadow, or a pale object: ``greyed_over`` tells), as bool
    maps, for a rectified RGB image at ``COVER_PX_PER_MM``."""
    paper, relative = _paper_and_relative(region_rgb)
    return _covered(paper, relative, _channel_mean(relative))


def covered_and_brightened(region_rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``covered``'s three maps and ``brightened``'s, the paper's colour worked out once for all four."""
    paper, relative = _paper_and_relative(region_rgb)
    level = _channel_mean(relative)
    return (*_covered(paper, relative, level), _halo(level, *_brightness(paper)))


def _covered(paper: np.ndarray, relative: np.ndarray, level: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``covered``'s maps from ``_paper_and_relative``'s two and the mean of the second over its channels."""
    r, g, b = cv2.split(relative)
    chroma = cv2.max(cv2.max(r, g), b) - cv2.min(cv2.min(r, g), b)
    # Glare: paper brighter than the paper around it, and at the camera's white (a lit part of a sheet
    # beside a shadow is brighter than the paper around it too, but not white).
    washed = _washed(paper, level)
    greyed = level < GREYED_LEVEL
    objects = _without_small((level < COVERED_LEVEL) | (chroma > COVERED_CHROMA)) | _straight_bands(greyed)
    return _with_pen_tips(objects), washed, greyed


def _channel_mean(image: np.ndarray) -> np.ndarray:
    """The mean over an image's three channels, as float32: the values of numpy's ``mean(axis=2)`` (summed in
    the order numpy sums them), channel by channel with OpenCV, as numpy's reductions over an axis of three
    are five times slower (about 3 ms of a map photo's 140 in ``covered``)."""
    r, g, b = cv2.split(image.astype(np.float32, copy=False))
    return (r + g + b) / 3


def _washed(paper: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Where glare washes the paper out: brighter than the paper around it (``level``, the mean over the
    channels of ``_paper_and_relative``'s second), and at the camera's white in every channel."""
    return (level > GLARE_LEVEL) & _at_white(paper)


def _at_white(paper: np.ndarray) -> np.ndarray:
    """Where the paper is at the camera's white (``GLARE_WHITE``) in every channel."""
    return cv2.min(cv2.min(paper[..., 0], paper[..., 1]), paper[..., 2]) >= GLARE_WHITE


def _paper_and_relative(region_rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The paper's colour (``_paper_colour``) and, channel by channel, how bright it is against the paper
    around it (a median over ``PAPER_AROUND_MM``), as float32."""
    paper = _paper_colour(region_rgb)
    height, width = paper.shape[:2]
    quarter = cv2.resize(paper, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    window = max(3, int(round(PAPER_AROUND_MM * COVER_PX_PER_MM / 4)) | 1)
    around = cv2.resize(cv2.medianBlur(quarter, window), (width, height), interpolation=cv2.INTER_LINEAR)
    return paper, paper.astype(np.float32) / np.maximum(around.astype(np.float32), 1.0)


TONE_HALO_DARK = 0.5       # a line at least this dark (registered darkness, 1 black) ...
TONE_HALO_MM = 5.0         # ... may brighten the paper this far round it to the camera's white: a phone's local tone
                           # mapping lifts the paper beside heavy lines (walls, strokes), where glare lights a patch
                           # whatever lies in it


def without_tone_halos(washed: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """``covered``'s washed-out map without the patches that lie wholly within ``TONE_HALO_MM`` of a heavy line:
    a phone's local tone mapping evens out the light, and lifts the paper beside a wall or a stroke to white
    in a band that hugs it, its print and marks as clear as anywhere (their contrast raised, not lowered).
    Glare washes out a patch of its own shape, which reaches paper away from any line. ``dark`` is the
    reading area's registered darkness (8-bit, ``scanner.ink.measure``'s), the same area as ``washed``."""
    if not washed.any():
        return washed
    heavy = cv2.resize((dark >= TONE_HALO_DARK * 255).astype(np.float32), (washed.shape[1], washed.shape[0]),
                       interpolation=cv2.INTER_AREA) > 0
    reach = 2 * int(round(TONE_HALO_MM * COVER_PX_PER_MM)) + 1
    near = cv2.dilate(heavy.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0
    count, labels = cv2.connectedComponents(washed.astype(np.uint8), connectivity=8)
    glare = np.zeros(count, bool)
    glare[labels[washed & ~near]] = True
    glare[0] = False
    return glare[labels]


GLARE_HALO_LEVEL = 1.15    # paper this much brighter than the paper around it ...
GLARE_HALO_PAGE = 1.1      # ... and than most of the page's paper (its 75th percentile) is lit by glare
GLARED_SURENESS = 0.4      # the confidence of a box or bubble read empty where glare lights it: a light mark
                           # there may be washed out (Dungeon Maker and monster record sheets)


def brightened(region_rgb: np.ndarray) -> np.ndarray:
    """Where glare brightens the paper without washing it out (bool, for a rectified RGB image at
    ``COVER_PX_PER_MM``): the light it adds dims every mark there by as much as it brightens the paper, a
    sixth or more here, so a light tick may vanish. The page's own brightest paper is no glare: a lit part
    of a sheet beside a shadow is brighter than the paper around it, but not than the page."""
    paper, relative = _paper_and_relative(region_rgb)
    return _halo(_channel_mean(relative), *_brightness(paper))


def _brightness(paper: np.ndarray) -> tuple[np.ndarray, float]:
    """The paper's brightness (the mean over its channels) and most of the page's (its 75th percentile)."""
    brightness = _channel_mean(paper)
    return brightness, percentile(brightness, 75)


def _halo(level: np.ndarray, brightness: np.ndarray, page: float) -> np.ndarray:
    """``brightened``'s map from the mean over the channels of ``_paper_and_relative``'s second and
    ``_brightness`` of its paper."""
    return (level >= GLARE_HALO_LEVEL) & (brightness >= GLARE_HALO_PAGE * page)


GLARE_REACH_MM = 4.0       # glare fades away, not off: a light mark this near where it is found may be washed out
GLARE_WHITE_PAGE = 1.05    # paper at the camera's white (GLARE_WHITE) and this much brighter than most of the page's


def glare_lit(region_rgb: np.ndarray) -> np.ndarray:
    """Where glare lights the paper (bool, for a rectified RGB image at ``COVER_PX_PER_MM``): brightened
    (``brightened``) or washed out (``covered``'s second map), and ``GLARE_REACH_MM`` around. The two are
    where it is strongest; it fades over millimetres beyond them. (Monster sheets, glare: of ten pool dice and
    life tracks marked but read empty, three lay in them and seven 1-4 mm outside.)"""
    return brightened_and_lit(region_rgb)[1]


def brightened_and_lit(region_rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``brightened``'s map and ``glare_lit``'s, the paper's colour worked out once for both."""
    paper, relative = _paper_and_relative(region_rgb)
    level = _channel_mean(relative)
    brightness, page = _brightness(paper)
    halo = _halo(level, brightness, page)
    # On a brightly exposed page glare has little room left to brighten the paper before the camera's white:
    # paper at that white and brighter than most of the page's is lit too, however bright the paper around.
    white = _at_white(paper) & (brightness >= GLARE_WHITE_PAGE * page)
    lit = halo | _washed(paper, level) | white
    reach = 2 * int(round(GLARE_REACH_MM * COVER_PX_PER_MM)) + 1
    return halo, cv2.dilate(lit.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0


def _straight_bands(greyed: np.ndarray) -> np.ndarray:
    """The parts of ``greyed`` that are long, narrow, straight bands, as thick as a pen (``BAND_THICK_MM``): a
    pale pen lying on the sheet, as grey as a shadow but shaped like no shadow of a hand, an arm or a phone
    (those are wider, and a crease's shading is gone through ``_paper_colour``'s closing). Such a pen may lie
    on plain paper, where ``greyed_over`` finds no print lost under it."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(greyed.astype(np.uint8), connectivity=8)
    bands = np.zeros(count, bool)
    for label in range(1, count):
        area = stats[label, cv2.CC_STAT_AREA]
        if area < BAND_LONG_MM * COVER_PX_PER_MM * 2:
            continue
        x, y, w, h = stats[label, :4]
        points = cv2.findNonZero((labels[y:y + h, x:x + w] == label).astype(np.uint8))
        long, wide, angle = _pen_shape(points)
        if area < BAND_THICK_MM * long * COVER_PX_PER_MM ** 2:
            continue
        bands[label] = (long >= BAND_LONG_MM and wide <= BAND_WIDE_MM
                        and area >= BAND_FULL * long * wide * COVER_PX_PER_MM ** 2) or _is_pen(long, wide, area) \
            or (long >= PEN_ALONG_MM and _widths_along(points, angle) <= PEN_WIDE_MM)
    return bands[labels] if bands.any() else np.zeros(greyed.shape, bool)


def _widths_along(points: np.ndarray, angle: float) -> float:
    """How wide (mm) a patch (``cv2.findNonZero``'s ``points``) is across its length (``angle``, degrees),
    pixel by pixel along it: the ``PEN_ALONG_SHARE`` percentile of those widths."""
    xy = points.reshape(-1, 2).astype(np.float32)
    along = xy @ np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))], np.float32)
    widths = np.bincount(np.floor(along - along.min()).astype(int))      # pixels across, at each pixel along
    return float(percentile(widths[widths > 0], 100 * PEN_ALONG_SHARE)) / COVER_PX_PER_MM


def _pen_shape(points: np.ndarray) -> tuple[float, float, float]:
    """The length and width (mm) of the smallest rectangle round a patch's ``points`` (``cv2.findNonZero``'s),
    and the angle (degrees) of its long side."""
    (_, _), (w, h), angle = cv2.minAreaRect(points)
    if w < h:
        w, h, angle = h, w, angle + 90
    return w / COVER_PX_PER_MM, h / COVER_PX_PER_MM, angle


def _with_pen_tips(cover: np.ndarray) -> np.ndarray:
    """``cover`` with each pen-shaped patch (``_is_pen``) drawn on by ``PEN_TIP_MM`` past both its ends,
    along its length: the median that found it lost its tapered tip, which may lie over the end of a row of
    boxes. (The map is a few hundred pixels a side: each pen is drawn over the whole of it.)"""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cover.astype(np.uint8), connectivity=8)
    grown = cover.copy()
    reach = int(round(PEN_TIP_MM * COVER_PX_PER_MM))
    for label in range(1, count):
        if max(stats[label, 2:4]) < PEN_LONG_MM * COVER_PX_PER_MM * 0.7:      # too short along any angle
            continue
        patch = (labels == label).astype(np.uint8)
        long, wide, angle = _pen_shape(cv2.findNonZero(patch))
        if not _is_pen(long, wide, stats[label, cv2.CC_STAT_AREA]):
            continue
        kernel = np.zeros((2 * reach + 1, 2 * reach + 1), np.uint8)
        dx, dy = reach * np.cos(np.radians(angle)), reach * np.sin(np.radians(angle))
        cv2.line(kernel, (round(reach - dx), round(reach - dy)), (round(reach + dx), round(reach + dy)), 1)
        grown |= cv2.dilate(patch, kernel) > 0
    return grown


def _is_pen(long: float, wide: float, area: float) -> bool:
    """Whether a patch ``long`` by ``wide`` mm (``_pen_shape``) of ``area`` pixels is shaped like a pen and
    the shadow it casts."""
    return long >= PEN_LONG_MM and wide <= PEN_WIDE_MM and area >= PEN_FULL * long * wide * COVER_PX_PER_MM ** 2


def _without_small(cover: np.ndarray) -> np.ndarray:
    """The covered map without patches smaller than ``SMALLEST_COVER_MM2``: a player's filled-in blob of ink
    is not something lying on the sheet (a pen is 8 mm by 14 cm, a fingertip 15 by 20 mm)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cover.astype(np.uint8), connectivity=8)
    small = stats[:, cv2.CC_STAT_AREA] < SMALLEST_COVER_MM2 * COVER_PX_PER_MM ** 2
    small[0] = False
    return cover & ~small[labels] if small.any() else cover


def _paper_colour(image: np.ndarray) -> np.ndarray:
    """The paper's own colour (or grey) at ``COVER_PX_PER_MM``: a median over ``CLOSE_MM``, in which a pen's
    highlight vanishes, then a closing as wide, in which lines, strokes and the printed art vanish, but not
    a pen's body or a finger."""
    size = max(3, int(round(CLOSE_MM * COVER_PX_PER_MM)) | 1)
    return cv2.morphologyEx(cv2.medianBlur(image, size), cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))


def greyed_over(greyed: np.ndarray, seen: np.ndarray, printed: np.ndarray) -> np.ndarray:
    """Of the parts of the sheet a little darker than the paper around them (``covered``'s third map), those
    that hide the print under them (bool, at ``COVER_PX_PER_MM``): a pale object, a silver pen, where a
    shadow, as dark, leaves the print to be seen. ``seen`` and ``printed`` are ``print_seen``'s."""
    size = (greyed.shape[1], greyed.shape[0])
    lost = cv2.resize((printed & (seen < PRINT_SEEN)).astype(np.float32), size, interpolation=cv2.INTER_AREA)
    there = cv2.resize(printed.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    window = 2 * GREYED_REACH + 1
    there_near = cv2.blur(there, (window, window))
    hiding = (cv2.blur(lost, (window, window)) >= GREYED_LOST * there_near) & (there_near > 0.02)
    reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (window, window))
    return greyed & (cv2.dilate(hiding.astype(np.uint8), reach) > 0)


def blank_print(blank_dark: np.ndarray, blank_grey: np.ndarray, px_per_mm: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the photos of one sheet are measured against, worked out once: the blank's darkness blurred as
    ``print_seen`` compares it (at ``SEEN_PX_PER_MM``), where it prints anything, and where its own print
    is dense enough for ``covered`` to take for an object (any print that stays a little dark through its
    median and closing: it may be coloured, as a cave's arrow is; at ``COVER_PX_PER_MM``, widened by 3 mm
    for a stroke beside it), which is never counted as covered. ``blank_dark`` 0-1 and
    ``blank_grey`` (8-bit), over the reading area at ``px_per_mm``."""
    scale = SEEN_PX_PER_MM / px_per_mm
    small = cv2.resize(blank_dark.astype(np.float32), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    blurred = cv2.GaussianBlur(small, (0, 0), BLUR_MM * SEEN_PX_PER_MM)
    size = (int(blank_grey.shape[1] * COVER_PX_PER_MM / px_per_mm), int(blank_grey.shape[0] * COVER_PX_PER_MM / px_per_mm))
    grey = cv2.resize(blank_grey, size, interpolation=cv2.INTER_AREA)
    paper = _paper_colour(grey)
    dense = (paper < DENSE_PRINT * percentile(paper, 99)).astype(np.uint8)
    reach = int(round(3.0 * COVER_PX_PER_MM)) * 2 + 1
    dense = cv2.dilate(dense, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0
    return np.maximum(blurred, 1e-3), blurred > PRINTED, dense


def print_seen(photo_dark: np.ndarray, blank: tuple[np.ndarray, np.ndarray], px_per_mm: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """How much of the print's darkness the registered photo shows, per pixel at ``SEEN_PX_PER_MM`` (1 all
    of it), and where the blank prints anything; ``photo_dark`` is ``scanner.ink.measure``'s (8-bit, at
    ``px_per_mm``), ``blank`` is ``blank_print``'s."""
    blurred, printed, _ = blank
    small = cv2.resize(photo_dark, (blurred.shape[1], blurred.shape[0]), interpolation=cv2.INTER_AREA)
    photo = cv2.GaussianBlur(small.astype(np.float32) * (1 / 255), (0, 0), BLUR_MM * SEEN_PX_PER_MM)
    return photo / blurred, printed


def hidden_rooms(layout, origin_mm: tuple[float, float], seen: np.ndarray, printed: np.ndarray,
                 cover: np.ndarray, washed: np.ndarray, exclude=(), boxes=None, least: float = 0.0,
                 reached=frozenset()) -> dict[str, str]:
    """Room name -> why it cannot be seen, for every room of ``layout`` (a ``SheetLayout``) that is hidden,
    and the same for each of ``boxes`` (name -> ``Rect``, mm) that is, by its name.
    ``seen``/``printed`` are ``print_seen``'s (at ``SEEN_PX_PER_MM``), ``cover`` and ``washed`` are ``covered``'s, all with their
    top-left pixel at ``origin_mm``; ``exclude`` are rectangles (mm) whose own print or fill is the
    players' to change (a Rune Gate filled in, a Diamond crossed out). A place is hidden with at least
    ``least`` of it hidden, whatever the shares above say (a small place's edge may be touched harmlessly).
    ``reached``: names of ``boxes`` over which the cover is taken ``COVER_REACH`` wider."""
    fair = np.ones(cover.shape, np.uint8)
    for a0, b0, a1, b1 in _boxes(list(exclude), origin_mm, COVER_PX_PER_MM):
        fair[max(b0, 0):max(b1, 0), max(a0, 0):max(a1, 0)] = 0
    # Sums over any rectangle from summed-area tables: one pass over each map, not one per room.
    print_total = cv2.integral(printed.astype(np.uint8))
    print_unseen = cv2.integral((printed & (seen < PRINT_SEEN)).astype(np.uint8))
    fair_covered = cv2.integral(cover.astype(np.uint8) & fair)
    glare = cv2.integral(washed.astype(np.uint8))
    places = {cell.room.name: (cell.rect, "this room") for cell in layout.rooms}
    places.update({name: (rect, "this box") for name, rect in (boxes or {}).items()})
    if not places:
        return {}
    rects = [rect for rect, _ in places.values()]
    seen_box, cover_box = _boxes(rects, origin_mm, SEEN_PX_PER_MM), _boxes(rects, origin_mm, COVER_PX_PER_MM)
    unseen = _sums(print_unseen, seen_box) / np.maximum(_sums(print_total, seen_box), 1.0)
    area = _areas(cover_box)
    covers = _sums(fair_covered, cover_box)
    if reached:
        wider = cv2.dilate(cover.astype(np.uint8), np.ones((2 * COVER_REACH + 1,) * 2, np.uint8))
        covers = np.where([name in reached for name in places], _sums(cv2.integral(wider & fair), cover_box), covers)
    lying = covers / area >= max(COVERED_SHARE, least)
    washed_out = (unseen >= max(UNSEEN_SHARE, least)) | (_sums(glare, cover_box) / area >= max(WASHED_SHARE, least))
    found = {}
    for (name, (_, what)), over, lost in zip(places.items(), lying, washed_out):
        if over:
            found[name] = f"something lies over {what} in the photo (a finger, a pen?)"
        elif lost:
            found[name] = washed_why(what)
    return found


WASHED_OUT = "cannot be seen"


def washed_why(what: str) -> str:
    """Why a place (``what``: "this room", "this tile") is hidden when glare or a deep shadow washes out its
    print (``washed_out`` tells it from the other reasons)."""
    return f"the print of {what} {WASHED_OUT} (glare, or a deep shadow?)"


def washed_out(why: str) -> bool:
    """Whether ``hidden_rooms`` said a place is hidden because its print cannot be seen (glare, a deep
    shadow), not because something lies over it."""
    return WASHED_OUT in why


def _sums(table: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The sums over boxes (rows of x0, y0, x1, y1, clipped to the map) from a ``cv2.integral`` table."""
    height, width = table.shape[0] - 1, table.shape[1] - 1
    x0, x1 = (np.clip(boxes[:, k], 0, width) for k in (0, 2))
    y0, y1 = (np.clip(boxes[:, k], 0, height) for k in (1, 3))
    return (table[y1, x1] - table[y0, x1] - table[y1, x0] + table[y0, x0]).astype(np.float64)


def _areas(boxes: np.ndarray) -> np.ndarray:
    """Each pixel box's area (rows of x0, y0, x1, y1), at least 1, as float64."""
    return np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1).astype(np.float64)


def lit_places(lit: np.ndarray, boxes: dict, origin_mm: tuple[float, float], least: float) -> set[str]:
    """The names of ``boxes`` (name -> ``Rect``, mm) with at least ``least`` of their area in ``lit``
    (``brightened``'s map, its top-left pixel at ``origin_mm``)."""
    if not boxes:
        return set()
    names = list(boxes)
    pixels = _boxes([boxes[name] for name in names], origin_mm, COVER_PX_PER_MM)
    shares = _sums(cv2.integral(lit.astype(np.uint8)), pixels) / _areas(pixels)
    return {name for name, share in zip(names, shares) if share >= least}


def touching(mask: np.ndarray, rects: list, origin_mm: tuple[float, float]) -> list[bool]:
    """Per rectangle (``Rect``, mm), whether any pixel of ``mask`` (at ``COVER_PX_PER_MM``, its top-left pixel at
    ``origin_mm``) lies in it."""
    return (_sums(cv2.integral(mask.astype(np.uint8)), _boxes(rects, origin_mm, COVER_PX_PER_MM)) > 0).tolist()


def _boxes(rects: list, origin_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """Rectangles (``Rect``, mm) as pixel boxes (rows of x0, y0, x1, y1, rounded half to even) of a map whose
    top-left pixel is at ``origin_mm``."""
    if not rects:
        return np.zeros((0, 4), np.int64)
    x0, y0 = origin_mm
    corners = np.array([(r.x, r.y, r.right, r.bottom) for r in rects], np.float64)
    return np.rint((corners - np.array([x0, y0, x0, y0])) * px_per_mm).astype(np.int64)
