"""Reading a Dungeon Maker sheet: the boxes ticked in each tile, the path lines through the tiles' sides, the
loot, spells, rounds, Souls and hearts ticked, and the built dungeon they make (``scrawl.dungeon/1``).

Everything works on an ink map (``scanner.ink.ink_map``: 0 paper, 1 surely ink) registered to the layout
(``sheets.maker``), ``px_per_mm`` pixels per paper millimetre. A box is *ticked* when enough of its inside
is inked, empty well below that; in between it is read the likelier way and named in ``needs_review``. A
path links two tiles when a line runs through the middle third of the side between them; a line that is
neither clearly there nor clearly not is named too. Nothing is silently guessed: what the sheet says is
written as it is, and the building rules (``games.heroes``) say what is wrong with it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from games.heroes import CORNERS, FORMAT as DUNGEON_FORMAT, SheetRecord, mark_loot_left
from games.maker import SIZE, Maker
from games.maps import OPPOSITE, SIDES, Room
from games.review import Entry, Rule
from scanner.fastnp import median, percentile
from scanner.ink import crease_mask, crease_mm
from scanner.visibility import GLARED_SURENESS, washed_out
from sheets.maker import LAYOUT_VERSION, MakerLayout
from sheets.page import Rect, SheetId
from sheets.roster import around

TICKED = 0.12           # mean ink over a box's inside: ticked (a tick or a cross covers a fifth or more)
BLANK = 0.045           # ... below this, empty; between the two, read the likelier way and named
STRONGEST = 20          # a sheet's ink level: the median fill of its this many most inked boxes ...
TICKED_SHARE = 0.3      # ... of which a box ticked lightly (a pencil, dim light) still has this share
BLANK_SHARE = 0.06      # ... and an empty one at most this share
TICKED_LEAST = 0.09    # the lowest the two levels go, whatever the sheet's ink
BLANK_LEAST = 0.012
LINKED = 0.5            # a side's line strength (``side_strength``): a line runs through the side
NOT_LINKED = 0.2        # ... below this, no line; between, read the likelier way and named
BOX_INSET_MM = 0.4      # the inside of a box read: clear of its printed edge and a path line grazing it
CREASED = 0.4          # the confidence of a box read empty that a fold's crease ran through the middle of
RETAKE_TILES = 12       # this many tiles asked about (a third of the grid): the list opens by suggesting a new photo
PROBE_MM = (0.8, 3.2)   # the band beside a side where a line through it is sought, from the side inwards
PROBE_SPAN = (0.37, 0.63)   # ... along the side, as shares of it: between the corner boxes
STROKE = 0.45           # ink strength of a stroke's pixel
FAINT = 0.2             # ink weaker than this counts for nothing
DARKER = 0.35           # a box read empty, darker than the same box of the other tiles by this share of the
DARKER_LEAST = 7 / 255  # sheet's typical tick (and by this much at least: a photo's grain) is read ticked and asked
                        # about: a tick drawn over its printed letters, which the print's allowance hides in dim light
                        # or pencil (on 121 sheets of seeds 625, 701 and 703, the 20 such boxes of tiles the photo
                        # shows were all ticks)
                        # (on the pencil sheets of seeds 61-64, whose ticks are faint, empty boxes were 0.016 darker
                        # at most; a pencil tick read empty, seed 608, was 0.036)
MARKED = 0.45           # a box read empty whose darkest tenth is darker than its kind's box elsewhere, pixel by pixel
MARKED_LEAST = 0.12     # (``_marked``), by this share of what the sheet's ticks show there and by this much at least, is
                        # asked about (read empty): a light pencil tick over the letters darkens too few of the
                        # box's pixels for the box's mean to show it (seed 954, sheet 9540804: A1's Boss Slime, 0.02
                        # darker on the mean, read empty, named nowhere; its darkest tenth 0.15, 0.53 of the ticks').
                        # On 660 sheets of every condition (190 in pencil), no empty box the photo shows came to
                        # both: pencil's came to 0.16, or to 0.47 of the ticks', not both; beside a thumb's shadow,
                        # to 0.98 of the ticks' but under 0.12. Of the ticks read empty there that nothing else
                        # asked about, 9540804's was the one. (Read ticked, as ``DARKER`` boxes are, a fresh run,
                        # seed 956, read a pencil path line across an empty Ghost box as a tick: so it is only asked.)
DARKISH = 0.25          # ... and one darker by this share of it (but under DARKER) is read empty and asked: a light
                        # pencil tick over the letters came to 0.31, and of 118,000 empty boxes on 288 sheets of
                        # every condition, 5 the photo shows came to 0.25-0.35 (each in a tile asked about already)


@dataclass
class MakerMarks:
    """How inked every box and every tile side of one sheet is."""

    ticks: dict[tuple[str, str], float]         # (tile, market item) -> box fill
    sides: dict[tuple[str, str], float]         # (tile, side) -> line strength
    boxes: dict[str, float]                     # loot, spells, rounds, souls, hearts -> box fill
    along_crease: frozenset = frozenset()       # (tile, side): a fold's crease, cleared, ran through its middle
    under_crease: frozenset = frozenset()       # (tile, item) and record box names: a tick may lie under a crease
    ticked_under_crease: dict = field(default_factory=dict)  # ... of those, the ones read ticked from the ink
                                                # beyond the crease's line (``CREASE_TICK``): -> its share
    darker: dict = field(default_factory=dict)  # (tile, item) -> how much darker than its kind's box elsewhere
    glared: frozenset = frozenset()             # Gems, Potions, spells, Souls, hearts and tick boxes ("A1|path")
                                                # where glare brightens the paper (a light tick there may be
                                                # washed out: ``scanner.visibility.brightened``)
    shade: dict = field(default_factory=dict)   # record box name -> how dark (0-1) the photo shows its inside
    marked: dict = field(default_factory=dict)  # (tile, item) -> how much darker than its kind's box elsewhere its
                                                # darkest tenth is, pixel by pixel (``_marked``)
    crease_darker: dict = field(default_factory=dict)  # (tile, item) a crease runs through -> how much darker
                                                # than its kind's box in the other tiles along it (``_crease_darker``)


def read_marks(ink: np.ndarray, layout: MakerLayout, px_per_mm: float,
               printed: np.ndarray | None = None, creases=(), uncleared: np.ndarray | None = None,
               darkness: np.ndarray | None = None) -> MakerMarks:
    """Measure every tick box, tile side and record box of ``layout`` on a registered ink map; ``printed``
    (the page's pixels where the blank prints, when given) are left out of the tick boxes' fill, since a
    light tick over a printed letter is told from it less surely than beside it. ``creases`` are the
    folds cleared from the ink map (``scanner.ink.without_creases``: ``Crease``): the sides whose
    middle one ran through may have lost a path line with it, and a box is read beside the crease's band.
    A box the band covers a quarter of or more is named in ``under_crease`` when the ink map before the
    creases were cleared (``uncleared``) holds more ink in it than the crease's own line: a tick cleared
    with it. ``darkness`` (the page's registered darkness, 8-bit: ``scanner.ink.measure``'s) gives ``darker``
    (``_darker``)."""
    bands = [crease_mask(ink.shape, crease, px_per_mm) for crease in creases]
    creased = np.logical_or.reduce(bands).astype(np.uint8) if bands else None
    boxes = _tick_boxes(layout)
    ticks = {key: box_fill(ink, box, px_per_mm, printed, creased) for key, box in boxes.items()}
    # The tick boxes' insides in the photo, those no cleared crease runs through: ``_darker`` and ``_marked``.
    patches = {} if darkness is None else _box_patches(darkness, boxes, px_per_mm, creased)
    sides = {(tile.id, side): side_strength(ink, tile.rect, side, px_per_mm)
             for tile in layout.tiles for side in SIDES}
    names = [name for name in layout.boxes if name.split("_")[0] in ("gem", "potion", "spell", "round", "soul")
             or name.startswith("dungeon_hp_")]
    boxes.update((name, layout.boxes[name]) for name in names)
    under, ticked = (frozenset(), {}) if uncleared is None else \
        _ticks_under_creases(uncleared, list(zip(creases, bands)), boxes, layout, px_per_mm)
    darker, crease_darker = ({}, {}) if darkness is None else _darker(patches, darkness, layout, px_per_mm, creased)
    return MakerMarks(ticks, sides, {name: box_fill(ink, layout.boxes[name], px_per_mm, None, creased)
                                     for name in names},
                      frozenset(_along_creases(layout, creases, px_per_mm)), under, ticked, darker,
                      crease_darker=crease_darker,
                      shade={} if darkness is None else _shade(darkness, layout, names, px_per_mm, creased),
                      marked=_marked(patches))


def _shade(darkness: np.ndarray, layout: MakerLayout, names: list[str], px_per_mm: float,
           creased: np.ndarray | None) -> dict:
    """Record box name -> the mean darkness (0-1) of its inside in the photo (``darkness``, 8-bit). Boxes a
    cleared crease runs through are left out, as in ``_darker``."""
    return {name: float(inside.mean()) / 255 for name, inside in
            _box_patches(darkness, {name: layout.boxes[name] for name in names}, px_per_mm, creased).items()}


def _darker(patches: dict, darkness: np.ndarray, layout: MakerLayout, px_per_mm: float,
            creased: np.ndarray | None) -> tuple[dict, dict]:
    """(tile, item) -> how much darker (0-1) the inside of that tick box (``patches``: ``_box_patches`` of the
    8-bit ``darkness``) is in the photo than the same box (the same printed letters) in the other tiles, less
    what the tile's boxes are darker by together (a shadow's edge, a curl's shading). A tick drawn over the
    letters shows here where the print's allowance may hide it from the ink map. Boxes a cleared crease runs
    through are left out: it darkens a whole row of them. Second, the same for those boxes
    (``_crease_darker``)."""
    means = {key: float(inside.mean()) / 255 for key, inside in patches.items()}
    kinds: dict[str, list[float]] = {}
    for (_, item), value in means.items():
        kinds.setdefault(item, []).append(value)
    typical = {item: float(median(values)) for item, values in kinds.items()}
    excess = {key: value - typical[key[1]] for key, value in means.items()}
    shading = _tile_shading(excess)
    return {key: value - shading[key[0]] for key, value in excess.items()}, \
        _crease_darker(darkness, layout, px_per_mm, creased, shading)


def _tick_boxes(layout: MakerLayout) -> dict:
    """(tile, item) -> that tick box."""
    return {(tile.id, item): box for tile in layout.tiles for item, box in tile.marks}


def _box_patches(darkness: np.ndarray, boxes: dict, px_per_mm: float, creased: np.ndarray | None,
                 on_crease: bool = False) -> dict:
    """Each of ``boxes`` (key -> box) -> its inside, cut from ``darkness``: the boxes no cleared crease
    (``creased``) runs through, or with ``on_crease`` those it does."""
    patches = {}
    for key, box in boxes.items():
        if (creased is not None and bool(_inside(creased, box, px_per_mm).any())) == on_crease:
            inside = _inside(darkness, box, px_per_mm)
            if inside.size:
                patches[key] = inside
    return patches


def _tile_shading(excess: dict) -> dict[str, float]:
    """Tile -> what its boxes are darker by together (a shadow's edge, a curl's shading): the median over
    them of ``excess`` ((tile, item) -> how much darker than its kind)."""
    tiles: dict[str, list[float]] = {}
    for (tile, _), value in excess.items():
        tiles.setdefault(tile, []).append(value)
    return {tile: float(median(values)) for tile, values in tiles.items()}


CREASE_SAME = 3         # a box a crease runs through is compared with its kind's boxes along the crease: this many


def _crease_darker(darkness: np.ndarray, layout: MakerLayout, px_per_mm: float, creased: np.ndarray | None,
                   shading: dict[str, float]) -> dict:
    """(tile, item) -> for a tick box a cleared crease runs through, how much darker (0-1) its inside is than
    the same box in the other tiles the creases run through (their median, with ``CREASE_SAME`` of them or
    more: a crease darkens the same box of every tile along it alike), less its tile's shading (``_darker``'s).
    A tick the crease's clearing took with it shows here (seed 956, folded, sheet 9560407: A4's Acid tick,
    cleared with the crease along its row of boxes, read as an empty tile, the score 3 for 4 and nothing
    flagged)."""
    means: dict[str, dict[str, float]] = {}
    for (tile, item), inside in _box_patches(darkness, _tick_boxes(layout), px_per_mm, creased,
                                             on_crease=True).items():
        means.setdefault(item, {})[tile] = float(inside.mean()) / 255
    return {(tile, item): value - float(median(list(values.values()))) - shading.get(tile, 0.0)
            for item, values in means.items() if len(values) >= CREASE_SAME for tile, value in values.items()}


def _marked(patches: dict) -> dict:
    """(tile, item) -> how much darker (0-1) than the same box in the other tiles the darkest tenth of that tick
    box's inside (``patches``, as ``_darker`` takes them) is, pixel by pixel (against the median of its kind's
    boxes, pixel by pixel), less what the tile's boxes are darker by together. A light tick over the letters
    darkens only the pixels it covers: the box's mean (``_darker``) shows it little, its darkest pixels
    plainly. Boxes a cleared crease runs through are left out, as in ``_darker``."""
    if not patches:
        return {}
    rows, cols = min(patch.shape[0] for patch in patches.values()), min(patch.shape[1] for patch in patches.values())
    kinds: dict[str, list[np.ndarray]] = {}
    for (_, item), patch in patches.items():
        kinds.setdefault(item, []).append(patch[:rows, :cols])
    typical = {item: median(np.stack(values).astype(np.float32), axis=0) for item, values in kinds.items()}
    excess = {key: (patch[:rows, :cols] - typical[key[1]]) / 255 for key, patch in patches.items()}
    shading = _tile_shading({key: float(median(value)) for key, value in excess.items()})
    return {key: percentile(value, 90) - shading[key[0]] for key, value in excess.items()}


CREASE_LEFT = 0.3       # a box is read beside a crease's band when this share of its inside is left
CREASE_SOME = 0.25      # a box the band covers this share of or more (read beside it or not) is asked about ...
CREASE_EXTRA = 0.19     # ... when this share of the band's part of it is ink beyond the crease's own line: a tick
                        # sitting on the crease, mostly cleared with it (a hurried tick reached 20%; of 1,110
                        # empty boxes under creases on 72 folded sheets, 4 reached 19-22%)
CREASE_TICK = 0.3       # ... and read as ticked (still asked about) when this share is, where the band covers all
                        # but ``CREASE_LEFT`` of the box: its fill was read over the band, cleared with the tick
                        # (on 160 folded sheets, 39 ticked boxes so covered had 0.21-0.82, 35 of them 0.3 or
                        # more; 868 empty ones at most 0.2, though empty boxes half beside the band reached 0.39)


def _ticks_under_creases(uncleared: np.ndarray, creases: list, boxes: dict, layout: MakerLayout,
                         px_per_mm: float) -> tuple[frozenset, dict]:
    """The boxes a crease's band covers ``CREASE_SOME`` of or more, with more ink in the band than the crease's
    own line: in each column (row) of the box, the inked pixels beyond the line's typical width across the grid.
    Second, those of them with a tick's ink there (``CREASE_TICK``), the band covering all but ``CREASE_LEFT``
    of them, each with that ink's share of the band's part of the box. ``creases`` are (crease, its band:
    ``scanner.ink.crease_mask``)."""
    found, ticked = set(), {}
    grid = [int(round(v * px_per_mm)) for v in (layout.grid.x, layout.grid.y, layout.grid.right, layout.grid.bottom)]
    for crease, band in creases:
        columns = crease[0]
        work = uncleared.T if columns else uncleared
        band = band.T if columns else band
        inked = (work >= FAINT) & band
        a, b = (grid[1], grid[3]) if columns else (grid[0], grid[2])
        line = float(median(inked[:, a:b].sum(axis=0)))
        for key, box in boxes.items():
            x0, y0, x1, y1 = _inside_pixels(box, px_per_mm)
            if columns:
                x0, y0, x1, y1 = y0, x0, y1, x1
            covered = band[y0:y1, x0:x1]
            if x1 <= x0 or covered.sum() < CREASE_SOME * (y1 - y0) * (x1 - x0):
                continue
            beyond = np.clip(inked[y0:y1, x0:x1].sum(axis=0) - line, 0, None).sum()
            if beyond >= CREASE_EXTRA * covered.sum():
                found.add(key)
                if beyond >= CREASE_TICK * covered.sum() and covered.mean() > 1 - CREASE_LEFT:
                    ticked[key] = max(float(beyond / covered.sum()), ticked.get(key, 0.0))
    return frozenset(found), ticked


def _inside_pixels(box: Rect, px_per_mm: float) -> tuple[int, int, int, int]:
    """The inside of a box read, clear of its printed edge, as page pixels x0, y0, x1, y1."""
    x0, y0 = (int(round((v + BOX_INSET_MM) * px_per_mm)) for v in (box.x, box.y))
    x1, y1 = (int(round((v - BOX_INSET_MM) * px_per_mm)) for v in (box.right, box.bottom))
    return x0, y0, x1, y1


def _inside(image: np.ndarray, box: Rect, px_per_mm: float) -> np.ndarray:
    """The inside of a box read (clear of its printed edge), cut from a page-sized map."""
    x0, y0, x1, y1 = _inside_pixels(box, px_per_mm)
    return image[max(y0, 0):y1, max(x0, 0):x1]


CREASE_NEAR_MM = 2.5    # a crease this near a tile's middle line ran where a path line through it would


def _along_creases(layout: MakerLayout, creases, px_per_mm: float):
    """The (tile, side) pairs a cleared crease ran through the middle of: a column crease the tiles' N and S
    sides, a row crease their E and W sides."""
    for crease in creases:
        columns = crease[0]
        for tile in layout.tiles:
            middle, along = tile.rect.centre if columns else tile.rect.centre[::-1]
            if abs(middle - crease_mm(crease, along, px_per_mm)) <= CREASE_NEAR_MM:
                yield from ((tile.id, side) for side in ("NS" if columns else "EW"))


def box_fill(ink: np.ndarray, box: Rect, px_per_mm: float, printed: np.ndarray | None = None,
             creased: np.ndarray | None = None) -> float:
    """The mean ink strength over the inside of a box, clear of its printed edge (and of the print inside it,
    where ``printed`` says, while at least a third of the inside is left; and of the band a crease was
    cleared from, where ``creased`` says, while ``CREASE_LEFT`` of it is left)."""
    patch = _inside(ink, box, px_per_mm)
    if not patch.size:
        return 0.0
    values = np.where(patch >= FAINT, patch, 0.0)
    keep = None
    if creased is not None:
        off = _inside(creased, box, px_per_mm) == 0
        if off.shape == values.shape and CREASE_LEFT <= off.mean() < 1:
            keep = off
    if printed is not None:
        clear = _inside(printed, box, px_per_mm) == 0
        if keep is not None:
            clear &= keep
        if clear.shape == values.shape and clear.mean() >= (1 if keep is None else keep.mean()) / 3:
            keep = clear
    return float(values.mean() if keep is None else values[keep].mean())


def side_strength(ink: np.ndarray, tile: Rect, side: str, px_per_mm: float) -> float:
    """How surely a line runs through the middle of a tile's ``side``: the share of the lines parallel to the
    side, in a band just inside it, that a stroke crosses (1: every one)."""
    near, far = (int(round(v * px_per_mm)) for v in PROBE_MM)
    x0, y0, x1, y1 = (int(round(v * px_per_mm)) for v in (tile.x, tile.y, tile.right, tile.bottom))
    lo, hi = PROBE_SPAN
    if side in "NS":
        a, b = int(round(x0 + lo * (x1 - x0))), int(round(x0 + hi * (x1 - x0)))
        band = ink[y0 + near:y0 + far, a:b] if side == "N" else ink[y1 - far:y1 - near, a:b]
    else:
        a, b = int(round(y0 + lo * (y1 - y0))), int(round(y0 + hi * (y1 - y0)))
        band = (ink[a:b, x0 + near:x0 + far] if side == "W" else ink[a:b, x1 - far:x1 - near]).T
    if not band.size:
        return 0.0
    per_line = band.max(axis=1)
    return float(np.clip((per_line - FAINT) / (STROKE + 0.15 - FAINT), 0, 1).mean())


# -- from marks to a dungeon ----------------------------------------------------------------------------

@dataclass
class MakerReading:
    """A sheet read: its dungeon (``scrawl.dungeon/1``, without entrance or stairs when none was read), what
    else it records, and the scanner's doubts as ``needs_review`` entries."""

    dungeon: dict
    record: SheetRecord
    doubts: list[Entry] = field(default_factory=list)
    links: dict[tuple[str, str], bool] = field(default_factory=dict)   # (tile, side) -> linked, as read


def _decide(fill: float, sure: float, none: float) -> tuple[bool, float | None]:
    """Whether a measure reads as marked, and the confidence when it is between ``none`` and ``sure``."""
    if fill >= sure:
        return True, None
    if fill <= none:
        return False, None
    middle = (sure + none) / 2
    return fill >= middle, round(0.3 + 0.4 * abs(fill - middle) / (sure - middle), 2)


def _decide_box(fill: float, sure: float, none: float, under_crease: bool, crease_tick: float | None = None
                ) -> tuple[bool, float | None, bool, float]:
    """A box's reading as ``_decide`` gives it, whether it is asked about only because a fold's crease ran
    through it (``under_crease``: ``MakerMarks.under_crease``), and the fill to show in the question. A box
    under a crease is asked about where it reads surely empty, and read as ticked where it would read empty
    but a tick's ink lies beyond the crease's line (``crease_tick``: that ink's share, from
    ``MakerMarks.ticked_under_crease``, shown as its fill: clearing the crease cleared the box's own)."""
    on, unsure = _decide(fill, sure, none)
    if not on and crease_tick is not None:
        return True, CREASED, True, crease_tick
    if unsure is None and not on and under_crease:
        return on, CREASED, True, fill
    return on, unsure, False, fill


def tick_levels(marks: MakerMarks) -> tuple[float, float]:
    """The fills from which a box of this sheet reads ticked, and up to which it reads empty: ``TICKED`` and
    ``BLANK`` for a pen, lower for a sheet whose ticks are all faint (a pencil, dim light), judged by its
    most inked boxes (a played sheet ticks a dozen or more)."""
    strongest = sorted(list(marks.ticks.values()) + list(marks.boxes.values()))[-STRONGEST:]
    level = float(median(strongest)) if strongest else 0.0
    return (float(np.clip(level * TICKED_SHARE, TICKED_LEAST, TICKED)),
            float(np.clip(level * BLANK_SHARE, BLANK_LEAST, BLANK)))


def read_sheet(marks: MakerMarks, layout: MakerLayout, maker: Maker, unseen=frozenset(),
               unseen_boxes=frozenset()) -> MakerReading:
    """The dungeon and the record a sheet's marks make, with every doubt named. A box the ink map reads empty
    but the photo shows as much darker than its kind's box in the other tiles as this sheet's ticks make it
    (``DARKER``) is read as ticked and asked about: a light tick over the printed letters that their
    allowance hid from the ink map; one a little darker (``DARKISH``) is read empty and asked about. In the
    tiles ``unseen`` (the photo does not show them: a pen's or a thumb's shadow darkens boxes too) it is read
    empty and asked about. And a box the ink map reads ticked
    but the photo shows no darker than its kind elsewhere (``PALER``) is read empty and asked about: the
    print moved against the blank under it. A box in ``unseen_boxes`` ((tile, item): something lies over it in
    the photo, and its tile is asked about as unseen) is read empty: what covers it reads as ink."""
    doubts: list[Entry] = []
    names = {item.id: item.name for item in maker.market}
    ticked: dict[str, set[str]] = {}
    sure, blank = tick_levels(marks)
    unsure_boxes: dict[str, list[tuple[str, bool, float, float]]] = {}
    creased: dict[str, list[str]] = {}
    darker: dict[str, list[str]] = {}
    paler: dict[str, list[str]] = {}
    tick = _tick_darkness(marks, sure)
    dark_enough = max(DARKER * tick, DARKER_LEAST)
    darkish = max(DARKISH * tick, DARKER_LEAST)
    ticks_marked = [marks.marked[key] for key, fill in marks.ticks.items() if fill >= sure and key in marks.marked]
    marked_enough = max(MARKED * float(median(ticks_marked)), MARKED_LEAST) if ticks_marked else None
    little_darker: dict[str, list[str]] = {}
    marked: dict[str, list[str]] = {}
    along_fold: dict[str, list[str]] = {}
    for (tile, item), fill in marks.ticks.items():
        if (tile, item) in unseen_boxes:
            continue
        on, unsure, on_crease, shown = _decide_box(fill, sure, blank, (tile, item) in marks.under_crease,
                                                   marks.ticked_under_crease.get((tile, item)))
        if on_crease:
            creased.setdefault(tile, []).append(f"the {names[item]} box")
        along = (tile, item) not in marks.darker       # a crease runs through it: ``_crease_darker``
        shows = marks.crease_darker.get((tile, item), 0.0) if along else marks.darker[(tile, item)]
        if not on and shows >= dark_enough:
            on = tile not in unseen
            unsure = DARKER_SURENESS if unsure is None else unsure
            (along_fold if along else darker).setdefault(tile, []).append(f"the {names[item]} box")
        elif not on and shows >= darkish:
            unsure = DARKISH_SURENESS if unsure is None else unsure
            (along_fold if along else little_darker).setdefault(tile, []).append(f"the {names[item]} box")
        elif not on and marked_enough is not None and marks.marked.get((tile, item), 0.0) >= marked_enough:
            unsure = DARKISH_SURENESS if unsure is None else unsure
            marked.setdefault(tile, []).append(f"the {names[item]} box")
        elif on and (tile, item) in marks.darker and marks.darker[(tile, item)] < PALER * tick:
            on = tick <= 0          # no darkness to go by where the sheet's ticks make none
            unsure = DARKER_SURENESS if unsure is None else unsure
            paler.setdefault(tile, []).append(f"the {names[item]} box")
        elif unsure is not None and not on_crease and _settled(marks, tile, item, on, tick, unseen):
            unsure = None
        if unsure is not None:
            unsure_boxes.setdefault(tile, []).append((names[item], on, shown, unsure))
        if on:
            ticked.setdefault(tile, set()).add(item)
    doubts += [_noted(_boxes_doubt(tile, boxes, f"is {{}}'s box ticked in {tile}?",
                                   f"which boxes are ticked in {tile}?"),
                      (creased.get(tile), CREASED_NOTE), (darker.get(tile), DARKER_NOTE),
                      (little_darker.get(tile), DARKISH_NOTE), (paler.get(tile), PALER_NOTE),
                      (marked.get(tile), MARKED_NOTE), (along_fold.get(tile), ALONG_FOLD_NOTE))
               for tile, boxes in unsure_boxes.items()]
    links = _links(marks, doubts)
    record = _record(marks, layout, maker, doubts, (sure, blank), unseen)
    dungeon = _dungeon(layout, maker, ticked, links, record, doubts)
    return MakerReading(dungeon, record, doubts, links)


def _boxes_doubt(where: str, boxes: list[tuple[str, bool, float, float]], one: str, several: str) -> Entry:
    """One review entry for the doubtful boxes of one place (a tile, the Souls), (label, read ticked, fill,
    confidence) each: a person looks at the place once, so a fold or a smudge across several of its boxes is
    asked about once. ``one`` asks about a single box (its label in the braces), ``several`` about more."""
    def read(on: bool, fill: float) -> str:
        return f"{'ticked' if on else 'empty'} ({fill:.0%} inked)"

    if len(boxes) == 1:
        label, on, fill, unsure = boxes[0]
        return Entry(where, Rule.UNSURE_MARK, f"{one.format(label)} Read as {read(on, fill)}", unsure)
    listed = "; ".join(f"{label} {read(on, fill)}" for label, on, fill, _ in boxes)
    return Entry(where, Rule.UNSURE_MARK, f"{several} Read as: {listed}", min(unsure for *_, unsure in boxes))


DARKISH_SURENESS = 0.45  # the confidence of a box read empty that is a little darker than its kind elsewhere
DARKER_SURENESS = 0.35  # the confidence of a box read empty that is darker than its kind's box elsewhere (and of
                        # one read ticked that is not: ``PALER``)
PALER = 0.25            # a box read ticked, but darker than its kind's box elsewhere by under this share of the
                        # sheet's typical tick, has ink only the ink map sees: the print moved under it (a true
                        # tick was 0.41 of the typical at least, on 1008 ticks of 72 sheets in every condition).
                        # It is read empty and asked about (on 121 sheets of seeds 625, 701 and 703: 20 such boxes
                        # of tiles the photo shows, 19 not ticked; one tick under glare, 0.11)


SETTLED_EMPTY = 0.1     # a box whose ink is between the levels, read empty, darker than its kind elsewhere by under
SETTLED_TICK = 0.5      # this share of the sheet's typical tick (or read ticked, by this share or more), is not asked
                        # about: the photo's darkness agrees (on 130 sheets of seeds 625, 701 and 703, of such boxes in
                        # tiles the photo shows, 53 ticks were 0.36 of it darker or more, 94 empty ones 0.21 at most)


def _settled(marks: MakerMarks, tile: str, item: str, on: bool, tick: float, unseen) -> bool:
    """Whether a box whose ink is between the sheet's levels is settled by how much darker than its kind in the
    other tiles the photo shows it (``SETTLED_EMPTY``, ``SETTLED_TICK``): not in a tile the photo does not
    show, nor where glare brightens the paper (it lightens a tick there as it washes it out)."""
    darker = marks.darker.get((tile, item))
    if darker is None or tick <= 0 or tile in unseen or f"{tile}|{item}" in marks.glared:
        return False
    return darker < SETTLED_EMPTY * tick if not on else darker >= SETTLED_TICK * tick


def _tick_darkness(marks: MakerMarks, sure: float) -> float:
    """How much darker than its kind's box elsewhere (``MakerMarks.darker``) this sheet's ticks make a box: the
    median over the boxes read surely ticked (0 with none). A box read empty must be ``DARKER`` of it darker
    (``DARKER_LEAST`` at least) to be asked about, and one read ticked less than ``PALER`` of it is."""
    ticks = [marks.darker[key] for key, fill in marks.ticks.items() if fill >= sure and key in marks.darker]
    return float(median(ticks)) if ticks else 0.0


CREASED_NOTE = "a fold's crease runs through {boxes}, with more ink there than a crease leaves: perhaps a tick"
DARKER_NOTE = "{boxes} {are} darker than in the other tiles, as a tick over the letters makes it"
DARKISH_NOTE = "{boxes} {are} a little darker than in the other tiles, as a light tick over the letters makes it"
MARKED_NOTE = "the photo shows a mark in {boxes}, which {are} plain in the other tiles: a light tick over the letters?"
ALONG_FOLD_NOTE = "a fold's crease runs through {boxes}, and the photo shows {boxes} darker than in the other " \
                  "tiles along it: perhaps a tick, cleared with the crease"
PALER_NOTE = "{boxes} {are} no darker than in the other tiles, so the ink read there is more likely the print, " \
             "shifted in the photo"
GLARED_NOTE = "glare brightens the paper at {boxes}, which may wash out a light tick"


def _noted(entry: Entry, *notes: tuple[list[str] | None, str]) -> Entry:
    """A box doubt with each of ``notes`` (labels, note: ``CREASED_NOTE``, ``DARKER_NOTE``, ...) added about
    some of its boxes (the labels), in order, where there are any."""
    for labels, note in notes:
        if labels:
            entry.why += "; " + note.format(boxes=" and ".join(labels), are="is" if len(labels) == 1 else "are")
    return entry


def _links(marks: MakerMarks, doubts: list[Entry]) -> dict[tuple[str, str], bool]:
    """Which sides a line runs through: between two tiles, both tiles' bands together; at the grid's edge,
    the one tile's."""
    links = {}
    for (tile, side), strength in marks.sides.items():
        room = Room.parse(tile)
        other = room.neighbour(side)
        inside = 1 <= other.col <= SIZE and 1 <= other.row <= SIZE
        if inside and (other.name, OPPOSITE[side]) in links:
            links[(tile, side)] = links[(other.name, OPPOSITE[side])]
            continue
        both = (strength + marks.sides[(other.name, OPPOSITE[side])]) / 2 if inside else strength
        linked, unsure = _decide(both, LINKED, NOT_LINKED)
        where = f"{tile}-{other.name}" if inside else f"{tile}:{side}"
        if unsure is None and not linked and ((tile, side) in marks.along_crease
                                              or (other.name, OPPOSITE[side]) in marks.along_crease):
            doubts.append(Entry(tile, Rule.UNSURE_LINK, f"a fold's crease runs through {where}: is a path line "
                                f"drawn along it? Read as none", 0.4))
        if unsure is not None:
            doubts.append(Entry(tile, Rule.UNSURE_LINK, f"is there a path line through {where}? Read as "
                                f"{'a line' if linked else 'none'}", unsure))
        links[(tile, side)] = linked
    return links


def _count(marks: MakerMarks, prefix: str, doubts: list[Entry], what: str,
           levels: tuple[float, float] = (TICKED, BLANK), in_order: bool = False,
           paler: frozenset = frozenset()) -> list[str]:
    """The boxes named ``prefix``... that are ticked (their names); the doubtful ones named, in one entry (a
    box read surely empty where glare brightens the paper, ``MakerMarks.glared``, among them; and one read
    ticked that is in ``paler``, read empty: ``_paler_records``). With ``in_order`` (numbered boxes crossed
    off one after another, as the rounds are), a box with some ink in it (more than ``levels``' empty) before
    one read surely ticked is read as ticked, and not asked about."""
    found, unsure_boxes, creased, glared, pale = [], [], [], [], []
    boxes = [(name, fill) for name, fill in marks.boxes.items() if name.startswith(prefix)]
    last_sure = max((int(name[len(prefix):]) for name, fill in boxes if fill >= levels[0]), default=0) \
        if in_order else 0
    for name, fill in boxes:
        on, unsure, on_crease, shown = _decide_box(fill, *levels, name in marks.under_crease,
                                                   marks.ticked_under_crease.get(name))
        number = name[len(prefix):]     # none for a place of one box (a spell's ring, its cast box)
        in_sequence = bool(number) and int(number) < last_sure and fill > levels[1]
        if in_sequence:
            on, unsure = True, None
        label, noted = (f"box {number}",) * 2 if number else ("box", "the box")
        if on_crease:
            creased.append(noted)
        if unsure is None and not on and name in marks.glared:
            unsure = GLARED_SURENESS
            glared.append(noted)
        elif on and name in paler and not in_sequence:
            on, unsure = False, DARKER_SURENESS if unsure is None else unsure
            pale.append(noted)
        if unsure is not None:
            unsure_boxes.append((label, on, shown, unsure))
        if on:
            found.append(name)
    if unsure_boxes:
        doubts.append(_noted(_boxes_doubt(what, unsure_boxes, f"is the {what} {{}} ticked?",
                                          f"which {what} boxes are ticked?"),
                             (creased, CREASED_NOTE), (glared, GLARED_NOTE), (pale, RECORD_PALER_NOTE)))
    return found


RECORD_PALER = 0.25     # a record box read ticked (Gems, Potions, spells, rounds, Souls, hearts) that the photo shows
                        # darker than the boxes of its kind read empty by under this share of the sheet's typical
                        # record tick has ink only the ink map sees: a dim photo's grain (maker sheet 9530704, a
                        # Souls box read ticked at 17%: -0.01 of it) or the print moved under a curl (96105012, a
                        # Wild cast box: 0.08). It is read empty and asked about. On 351 sheets of every condition,
                        # 2,074 ticks with empty boxes of their kind to compare were 0.37 of it darker at least
                        # (0.28 under glare); of the empty boxes read ticked, those two were the only ones the
                        # photo shows (the rest lay under a pen or a thumb, asked about as unseen)
RECORD_PALER_NOTE = "the photo shows {boxes} no darker than the empty boxes of its kind, so the ink read there " \
                    "is more likely the photo's grain or the print"


def _box_kind(name: str) -> str:
    """Which record boxes print alike: "gem_2" -> "gem", "spell_mend" -> "spell", "spell_mend_cast" ->
    "spell_cast"."""
    if name.startswith("spell_"):
        return "spell_cast" if name.endswith("_cast") else "spell"
    return name.rsplit("_", 1)[0]


def _paler_records(marks: MakerMarks, levels: tuple[float, float], unseen=frozenset()) -> frozenset:
    """The record boxes read surely ticked (``levels``: ticked, empty) that the photo shows no darker than the
    boxes of their kind read surely empty, by ``RECORD_PALER`` of what the sheet's record ticks are darker by
    (their median): ink the ink map reads where the photo shows none. Kinds with no box read empty (all
    twenty rounds crossed) have nothing to compare with, and are not judged; nor are the boxes ``unseen``
    (something lies over them in the photo: they are asked about as such), nor where glare brightens the
    paper (``MakerMarks.glared``: it lightens a tick as it washes it out; test sheet 470505's first Souls tick
    showed 0.22 of the typical)."""
    kinds: dict[str, list[str]] = {}
    for name in marks.shade:
        if name not in unseen and name not in marks.glared:
            kinds.setdefault(_box_kind(name), []).append(name)
    excess = {}
    for names in kinds.values():
        # A spell's cast box whose ring is surely empty is empty by the rules too (only a spell got is cast):
        # without it a dim photo's cast boxes may have none read surely empty to compare with (seed 956, dim,
        # sheet 9560709: the Wild cast box read ticked at 22%, as dark as Mend's empty one, named nowhere).
        empty = [marks.shade[name] for name in names if marks.boxes[name] < levels[1]
                 or (name.endswith("_cast") and marks.boxes.get(name[:-len("_cast")], 1.0) < levels[1])]
        if empty:
            paper = float(median(empty))
            excess.update((name, marks.shade[name] - paper) for name in names if marks.boxes[name] >= levels[0])
    typical = float(median(list(excess.values()))) if excess else 0.0
    return frozenset(name for name, value in excess.items() if value < RECORD_PALER * typical) \
        if typical > 0 else frozenset()


def _record(marks: MakerMarks, layout: MakerLayout, maker: Maker, doubts: list[Entry],
            levels: tuple[float, float], unseen=frozenset()) -> SheetRecord:
    got, cast = [], []
    paler = _paler_records(marks, levels, unseen)
    for spell in maker.spells:
        key = spell["id"]
        ring = {f"spell_{key}": marks.boxes[f"spell_{key}"]}
        box = {f"spell_{key}_cast": marks.boxes[f"spell_{key}_cast"]}
        asked = len(doubts)
        if _count(MakerMarks({}, {}, ring, under_crease=marks.under_crease,
                             ticked_under_crease=marks.ticked_under_crease, glared=marks.glared), f"spell_{key}",
                  doubts, f"{spell['name']} got", levels, paler=paler):
            got.append(key)
        fill = box[f"spell_{key}_cast"]
        on, unsure = _decide(fill, *levels)
        if on and unsure is not None and key not in got and len(doubts) == asked:
            # Only a spell got can be cast: a doubtful tick in the cast box of a spell surely not got (its ring
            # read empty and not asked about: not in doubt, nor lit by glare or under a crease, where a tick
            # may be lost) is more likely the photo's grain or the print (still asked about).
            doubts.append(Entry(f"{spell['name']} cast", Rule.UNSURE_MARK,
                                f"is the {spell['name']} cast box ticked? Read as empty ({fill:.0%} inked): "
                                f"{spell['name']} is not ticked as got, and only a spell got can be cast", unsure))
            continue
        if _count(MakerMarks({}, {}, box, under_crease=marks.under_crease,
                             ticked_under_crease=marks.ticked_under_crease, glared=marks.glared), f"spell_{key}_cast",
                  doubts, f"{spell['name']} cast", levels, paler=paler):
            cast.append(key)
    doubts += _cast_a_box_off(maker, marks, got, cast, doubts)
    return SheetRecord(gems=len(_count(marks, "gem_", doubts, "Gems", levels, paler=paler)),
                       potions=len(_count(marks, "potion_", doubts, "Potions", levels, paler=paler)),
                       spells_got=tuple(got), spells_cast=tuple(cast),
                       rounds=len(_count(marks, "round_", doubts, "round", levels, in_order=True, paler=paler)),
                       souls=len(_count(marks, "soul_", doubts, "Souls", levels, paler=paler)),
                       hearts=len(_count(marks, "dungeon_hp_", doubts, "dungeon HP", levels, paler=paler)))


def _cast_a_box_off(maker: Maker, marks: MakerMarks, got: list[str], cast: list[str], doubts: list[Entry]
                    ) -> list[Entry]:
    """Spells got but read not cast whose cast box lies next to one read empty and asked about (a trace of
    ink in it): under a curl the print may sit most of a box off where the registration puts it, and a tick
    is then read, faintly, in the cast box beside its own (seed 977, curled at the page's right edge, sheet
    9770009: Bargain's tick read 0% in its box and 6% in Wild build's below it, and only Wild build's was
    asked about). The spells are printed one above the other, in the order of ``Maker.spells``."""
    asked = {doubt.where for doubt in doubts}
    spells = maker.spells
    more = []
    for i, spell in enumerate(spells):
        if spell["id"] not in got or spell["id"] in cast or f"{spell['name']} cast" in asked:
            continue
        beside = [other for other in spells[max(0, i - 1):i + 2]
                  if other is not spell and other["id"] not in cast and f"{other['name']} cast" in asked]
        if beside:
            fill = marks.boxes[f"spell_{spell['id']}_cast"]
            more.append(Entry(f"{spell['name']} cast", Rule.UNSURE_MARK,
                              f"is the {spell['name']} cast box ticked? Read as empty ({fill:.0%} inked), but the "
                              f"{beside[0]['name']} cast box beside it holds a trace of ink: a tick read a box off?",
                              CAST_BESIDE_SURENESS))
    return more


CAST_BESIDE_SURENESS = 0.5


def _dungeon(layout: MakerLayout, maker: Maker, ticked: dict[str, set[str]], links: dict, record: SheetRecord,
             doubts: list[Entry]) -> dict:
    """The ``scrawl.dungeon/1`` document: each tile as ticked, the path sides as the lines read."""
    rooms = {item.id for item in maker.market if item.on == "beside-path"}
    on_path = {item.id: item.name for item in maker.market if item.on == "path"}
    tiles, stairs = {}, []
    for tile in layout.tiles:
        items = ticked.get(tile.id, set())
        sides = "".join(side for side in SIDES if links[(tile.id, side)])
        spec = _tile(tile.id, items, sides, rooms, doubts, on_path)
        if "stairs" in items:
            stairs.append(tile.id)
        if spec:
            tiles[tile.id] = spec
    mark_loot_left(tiles, layout.loot, record.gems, record.potions)
    _dead_ends(tiles, doubts)
    document = {"format": DUNGEON_FORMAT, "tiles": tiles}
    entrances = [f"{room.name}:{side}" for room, corner in CORNERS.items() for side in corner
                 if links[(room.name, side)]]
    if entrances:
        document["entrance"] = entrances[0]
        if len(entrances) > 1:
            doubts.append(Entry(entrances[0].split(":")[0], Rule.UNSURE_READING,
                                f"lines run out of the grid at {', '.join(entrances)}: which is the entrance? "
                                f"Read as {entrances[0]}", 0.4))
    if stairs:
        document["stairs"] = stairs[0]
        if len(stairs) > 1:
            doubts.append(Entry(stairs[0], Rule.UNSURE_READING, f"Exit stairs ticked in {', '.join(stairs)}: "
                                f"read in {stairs[0]}", 0.4))
    return document


def _dead_ends(tiles: dict, doubts: list[Entry]) -> None:
    """Name each path line read into a tile of the grid that holds no path: a stray line (a fold's crease, a
    pen lying there), a tick missed, or a dead end the player meant; a person tells which."""
    for name, spec in tiles.items():
        room = Room.parse(name)
        for side in spec.get("path") or spec.get("bridge") or "":
            other = room.neighbour(side)
            if 1 <= other.col <= SIZE and 1 <= other.row <= SIZE and not (
                    tiles.get(other.name, {}).get("path") or tiles.get(other.name, {}).get("bridge")):
                doubts.append(Entry(name, Rule.UNSURE_LINK, f"the path of {name} runs through its {side} side into "
                                    f"{other.name}, where no path is read: a stray line, a box not ticked, or a "
                                    "dead end?", 0.5))


def _tile(name: str, items: set[str], sides: str, rooms: set[str], doubts: list[Entry],
          on_path: dict[str, str]) -> dict:
    """One tile's entry from its ticked items and the sides lines run through. A tile with lines through its
    sides and something ticked that goes on a path (``on_path``: item -> name), but no Path, is read as a
    path through those sides, and asked about: the lines and the item both say the Path's tick is the one missing
    (washed out by glare with its box's print: E2's Gate on sheet 8910502 of seed 891; or under a pen)."""
    spec: dict = {}
    path = items & {"path", "bridge"}
    needs_path = sorted(on_path[item] for item in items & on_path.keys())
    if path:
        spec["bridge" if "bridge" in items else "path"] = sides
        if not sides:
            doubts.append(Entry(name, Rule.UNSURE_READING, f"a {'bridge' if 'bridge' in items else 'path'} is "
                                f"ticked in {name} but no line runs through its sides", 0.4))
    elif sides and needs_path:
        spec["path"] = sides
        doubts.append(Entry(name, Rule.UNSURE_READING, f"a line runs through {name}'s {'/'.join(sides)} side and "
                            f"{' and '.join(needs_path)} goes on a path, but no Path is ticked there: read as a "
                            "path", 0.4))
    elif sides:
        doubts.append(Entry(name, Rule.UNSURE_READING, f"a line runs through {name}'s {'/'.join(sides)} side but "
                            "no Path is ticked there", 0.4))
    if "acid" in items:
        spec["acid"] = True
    room = sorted(items & rooms)
    if room:
        spec["room"] = room[0]
        if len(room) > 1:
            doubts.append(Entry(name, Rule.UNSURE_READING, f"{' and '.join(room)} both ticked in {name}", 0.4))
    on = sorted(items - rooms - {"path", "bridge", "acid", "stairs"})
    if on:
        spec["on"] = on[0]
        if len(on) > 1:
            doubts.append(Entry(name, Rule.UNSURE_READING, f"{' and '.join(on)} both ticked on {name}'s path", 0.4))
    return spec


def _beside_hidden(tiles: dict, hidden: dict[str, str]) -> list[Entry]:
    """A tile next to a tile the photo does not show. Read as holding something: the edge of what covers the
    sheet (a pen, a hand) reaches into it unseen, and its shadow or outline reads as a tick or a line. Read
    as empty beside glare or a deep shadow: these fade out over millimetres, and may have washed out a tick
    whose tile still shows its print."""
    covered = {where for where in hidden if len(where) == 2 and where[0] in "ABCDEF"}
    washed = {where for where in covered if washed_out(hidden[where])}
    doubts = []
    for name in sorted(Room(col, row).name for col in range(1, SIZE + 1) for row in range(1, SIZE + 1)):
        if name in covered:
            continue
        room, held = Room.parse(name), bool(tiles.get(name))
        near = sorted(other for other in (covered if held else washed)
                      if max(abs(Room.parse(other).col - room.col), abs(Room.parse(other).row - room.row)) == 1)
        if near and held:
            doubts.append(Entry(name, Rule.UNSURE_READING, f"next to {', '.join(near)}, which the photo does not "
                                f"show: is {name} as read? (what covers the sheet may reach into it)", 0.5))
        elif near:
            doubts.append(Entry(name, Rule.UNSURE_READING, f"next to {', '.join(near)}, whose print the photo does "
                                f"not show: is {name} empty? (glare or a shadow may wash out a tick beside it)", 0.5))
    return doubts


# A record row's boxes by the prefix of their names: the row as review entries name it (``_count``), and
# what its boxes are called.
RECORD_ROWS = {"gem_": ("Gems", "Gems boxes"), "potion_": ("Potions", "Potions boxes"),
               "soul_": ("Souls", "Souls boxes"), "dungeon_hp_": ("dungeon HP", "dungeon HP hearts")}
NEAR_HIDDEN_MM = 3.0    # a record box this close to one the photo does not show may be washed out too


def _unseen(hidden: dict[str, str]) -> list[Entry]:
    """A ``cannot_see`` entry for each tile and box the photo does not show; a record row's boxes (the Souls
    under glare) in one entry."""
    rows: dict[str, list[str]] = {}
    doubts = []
    for where, why in hidden.items():
        prefix = next((prefix for prefix in RECORD_ROWS if where.startswith(prefix)), None)
        if prefix is not None:
            rows.setdefault(prefix, []).append(where[len(prefix):])
            if len(rows[prefix]) > 1:
                continue
        doubts.append(Entry(_place(where), Rule.CANNOT_SEE, f"{why}: look at {_place(where)} on the sheet, or "
                            f"take the photo again without it", 0.0))
    for prefix, numbers in rows.items():
        if len(numbers) > 1:
            row, boxes = RECORD_ROWS[prefix]
            first = prefix + numbers[0]
            at = next(i for i, doubt in enumerate(doubts) if doubt.where == _place(first))
            why = hidden[first].replace("this box", f"{boxes} {', '.join(numbers)}")
            doubts[at] = Entry(row, Rule.CANNOT_SEE, f"{why}: look at them on the sheet, or take the photo again "
                               f"without it", 0.0)
    return doubts


def _rows_beside_hidden(boxes: dict[str, Rect], hidden: dict[str, str]) -> list[Entry]:
    """A row of record boxes (the dungeon HP hearts, say) next to a box the photo does not show (the Souls
    under glare): the glare or shadow fades out over millimetres and may have washed out its marks too,
    while its print still shows. Asked about once per row."""
    unseen = [(name, boxes[name]) for name in hidden if name in boxes]
    doubts = []
    for prefix, (row, what) in RECORD_ROWS.items():
        mine = [rect for name, rect in boxes.items() if name.startswith(prefix) and name not in hidden]
        near = {next((RECORD_ROWS[p][1] for p in RECORD_ROWS if other.startswith(p)), _place(other))
                for rect in mine for other, hidden_rect in unseen
                if not other.startswith(prefix) and _gap_mm(rect, hidden_rect) <= NEAR_HIDDEN_MM}
        if near:
            doubts.append(Entry(row, Rule.UNSURE_READING, f"next to the {', '.join(sorted(near))} the photo does not "
                                f"show: are the {what} as read? (glare or a shadow fades out over a few millimetres)",
                                0.5))
    return doubts


def _slip_doubt(boxes: str, place: str) -> Entry:
    """The question for a place (a tile, a record row) where the registration's move jumps (``MakerScan.slipped``)."""
    return Entry(place, Rule.UNSURE_MARK, f"the sheet bends here in the photo (curled, or seen steeply), so {boxes} "
                 f"boxes may be read one box off: look at them on the sheet, or flatten it and take the photo again",
                 0.3)


_ROW_OF = {**{prefix: row for prefix, (row, _) in RECORD_ROWS.items()}, "spell_": "Spells"}


def record_row(box: str) -> str | None:
    """The record row (``record_places``) a box of the layout (by name: "gem_2", "spell_mend_cast") is part of,
    or None for a tile's box or the rounds."""
    return next((row for prefix, row in _ROW_OF.items() if box.startswith(prefix)), None)


def record_places(boxes: dict[str, Rect]) -> dict[str, Rect]:
    """The record's rows of boxes (Gems, Potions, Souls, dungeon HP) and the Spells, each as the rectangle
    round its boxes, by the name review entries give them."""
    places = {row: [rect for name, rect in boxes.items() if record_row(name) == row] for row in _ROW_OF.values()}
    return {row: around(rects) for row, rects in places.items() if rects}


def _gap_mm(one: Rect, other: Rect) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(other.x - one.right, one.x - other.right, 0.0)
    dy = max(other.y - one.bottom, one.y - other.bottom, 0.0)
    return float(np.hypot(dx, dy))


def _place(box: str) -> str:
    """A tile's name as it is, a record box's as a person finds it ("soul_2" -> "Souls box 2")."""
    words = {"gem": "Gems box", "potion": "Potions box", "soul": "Souls box", "dungeon_hp": "dungeon HP heart"}
    for prefix, word in words.items():
        if box.startswith(prefix + "_") and box[len(prefix) + 1:].isdigit():
            return f"{word} {box[len(prefix) + 1:]}"
    if box.startswith("spell_"):
        return f"Spells: {box[6:].replace('_cast', ' cast')}"
    return box


def sureness(marks: MakerMarks) -> float:
    """How clearly every box and side reads one way (1: none near a threshold)."""
    boxes = np.array(list(marks.ticks.values()) + list(marks.boxes.values()))
    sides = np.array(list(marks.sides.values()))
    margin = min(np.minimum(np.abs(boxes - BLANK), np.abs(boxes - TICKED)).min() / 0.05,
                 np.minimum(np.abs(sides - NOT_LINKED), np.abs(sides - LINKED)).min() / 0.15)
    return round(float(np.clip(margin, 0.0, 1.0)), 3)


@dataclass
class MakerScan:
    """One Dungeon Maker sheet read from one photo."""

    source: str
    sheet_id: SheetId
    layout: MakerLayout
    marks: MakerMarks
    resolution: float = 0.0
    page_picture: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    hidden: dict[str, str] = field(default_factory=dict)     # tile or box -> why the photo does not show it
    slipped: tuple = ()         # record rows (``record_places``) and tiles where the registration may be a box off
    unseen_boxes: frozenset = frozenset()   # tiles' tick boxes, (tile, item), the photo does not show

    def reading(self) -> MakerReading:
        reading = read_sheet(self.marks, self.layout, self.layout.maker, frozenset(self.hidden), self.unseen_boxes)
        reading.doubts[:0] = _unseen(self.hidden)
        tiles = {tile.id for tile in self.layout.tiles}
        reading.doubts += [_slip_doubt(f"the {row}", row) for row in self.slipped if row not in tiles]
        reading.doubts += _beside_hidden(reading.dungeon.get("tiles", {}), self.hidden)
        reading.doubts += _rows_beside_hidden(self.layout.boxes, self.hidden)
        asked = {doubt.where for doubt in reading.doubts if doubt.where in tiles}
        # A tile asked about already is looked at whole: asked again, it would only lengthen the list.
        slipped = [tile for tile in self.slipped if tile in tiles and tile not in asked]
        reading.doubts += [_slip_doubt(f"{tile}'s tick", tile) for tile in slipped]
        asked.update(slipped)
        if len(asked) >= RETAKE_TILES:
            reading.doubts.insert(0, Entry("photo", Rule.UNSURE_READING, f"{len(asked)} of the {SIZE * SIZE} tiles "
                                           "are asked about below: taking the photo again (the sheet flat, evenly "
                                           "lit, nothing on it) may be quicker than checking them one by one", 0.3))
        if self.resolution < 3.2:
            reading.doubts.append(Entry("photo", Rule.LOW_RESOLUTION, f"the sheet is only {self.resolution:.1f} "
                                        "pixels per mm in this photo: come closer or use a higher resolution", 0.5))
        return reading

    def record(self, outcome, want_pages: bool) -> None:
        """File this sheet in its file's outcome (``scanner.batch.PhotoOutcome``): its entry of ``dungeons``,
        and its rectified page (JPEG) when ``want_pages``, for the overlay picture."""
        from scanner.batch import SheetRead, page_jpeg

        page = page_jpeg(self.page_picture()) if want_pages and self.page_picture is not None else None
        outcome.reads.append(SheetRead("maker", self.to_json(), None, page))

    def to_json(self) -> dict:
        """The sheet's entry of the scan document's ``dungeons`` (unscored: ``games.heroes.score_entry``)."""
        reading = self.reading()
        # A sheet of an earlier design says so (its overlay is drawn on its own layout); the current one's don't.
        design = {"design": self.layout.design} if self.layout.design != LAYOUT_VERSION else {}
        return {"source": self.source, "player": self.sheet_id.player, "paper": self.layout.paper,
                "seed": self.layout.loot.seed, **design, **({"game": self.sheet_id.code} if self.sheet_id.code else {}),
                "dungeon": reading.dungeon, "record": reading.record.to_json(),
                "needs_review": [d.to_json() for d in reading.doubts], "confidence": sureness(self.marks)}
