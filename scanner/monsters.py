"""Reading a monster record sheet: how full each bubble is, the one marked in each group, the life boxes
crossed off, and the roster they make (``scrawl.roster/1``, one player).

Everything works on an ink map (``scanner.ink.ink_map``): 0 paper, 1 surely
ink, ``px_per_mm`` pixels per paper millimetre, row 0 at the top of the page,
registered to the layout. Bubble and box positions come from
``sheets.roster``.

A bubble is *filled* when most of its inside is inked, *half-filled* when a
fair part is (a tick, a dot, a hurried scribble), empty below that. One group
(a part's die sides, its colour, its type) gives one reading; two filled
bubbles in a group, or a half-filled one, give the likelier reading and a
``needs_review`` entry saying so. Nothing is silently guessed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import cv2
import numpy as np

from games.review import Rule
from sheets.page import Rect, SheetId
from sheets.roster import COLOURS, Bubble, MonsterLayout, PartRow
from scanner.fastnp import median
from scanner.visibility import GLARED_SURENESS

ROSTER_FORMAT = "scrawl.roster/1"
FILLED = 0.5            # share of a bubble's inside inked: surely filled
MARKED = 0.2            # ... below this, empty (a stray line, a neighbour's overshoot)
ROW_LINE = 4            # a row with this many bubbles half-filled has a line along it: its life track is asked about
JOINED = 0.9            # the gap between two neighbouring pool bubbles inked this much across: one patch of ink
SPILLED = 0.9           # ... and one of the two filled under this: perhaps only the other's fill run over
EVEN = 0.5              # a filled bubble's emptiest sector of its rim has at least this share of its mean ink
EVEN_SHARE = 0.5        # ... or, where less, this share of the page's filled bubbles' median (``_evenness``)
EVEN_LEAST = 6          # ... when the page has this many filled bubbles or more
FILLED_SHARE = 0.52     # a page whose filled bubbles are lighter (a pencil's) has its bubbles measured against
                        # this share of their median as FILLED (``_filled_level``)
SECTORS = 6
CROSSED = 0.06          # mean ink over a life box's inside: crossed off (a slash covers a fifth or more)
FAINT_BOX = (0.035, 0.09)  # ... between these, a faint mark (counted from CROSSED on, and flagged)
LIGHTER = 0.3           # ... and so is a box counted crossed with under this share of its track's typical cross
END_LIGHTER = 0.5       # ... or, the last box counted, under this share (a stroke through the row running on)
CROSS_SHARE = 0.25      # a sheet crossed off heavily (a marker's crosses ink three quarters of a box) counts a box
CLEAR_CROSS = 0.15      # ... crossed from this share of its typical cross, the median of its boxes inked this much
CLEAR_CROSSES = 3       # ... (this many at least): a dim photo's grain fills an empty box up to 9%
GRAIN_SHARE = 0.9       # a dim photo's grain: this share of box-sized patches of its unprinted paper are
                        # inked no more than ``SheetMarks.grain`` (0 in a clear photo) ...
GRAIN_CROSS = 1.5       # ... and a box counts crossed from this many times that on
PAPER_CLEAR_MM = 1.0    # the grain is measured this far at least from the print (darker than PRINTED)
PRINTED = 0.03
GLARED_NOTE = "glare brightens the paper here or close by, which may wash out a light mark"
FAINT_NOTE = "the whole photo shows the print faintly (a hazy lens, dim light?), which may wash out a light mark"
BUBBLE_INSET_MM = 0.45  # the inside of a bubble read: clear of its printed ring
BOX_INSET_MM = 0.35


@dataclass(frozen=True)
class Doubt:
    """One ``needs_review`` entry: where on the sheet, which rule, why, and how likely the reading is right."""

    where: str
    rule: str
    why: str
    confidence: float

    def to_json(self) -> dict:
        return {"where": self.where, "rule": self.rule, "why": self.why, "confidence": round(self.confidence, 2)}


@dataclass(frozen=True)
class SheetMarks:
    """How full every bubble and life box of one page is (0 paper to 1 fully inked)."""

    layout: MonsterLayout
    fills: dict                    # (group, value) -> fill
    life: dict                     # track name -> fills of its boxes, first box first
    glared: frozenset = frozenset()     # bubbles (group, value) and life boxes (track, box from 1) where
                                        # glare lights the paper or near it (``scanner.visibility.glare_lit``)
    grain: float = 0.0                  # how far the photo's grain alone inks a box (``paper_grain``)
    joined: tuple = ()                  # (pool key, value, value): neighbouring pool bubbles both filled, with
                                        # the gap between them inked across (``joined_bubbles``)
    shaded: frozenset = frozenset()     # bubbles (group, value) darker than their group's others, where glare
                                        # lies or on a faint photo (``shaded_bubbles``)
    faint: bool = False                 # the photo shows the whole print faintly (``scanner.scan._washed_out``:
                                        # a hazy lens, a dim room)
    sketched: frozenset = frozenset()   # the cards (numbers) with a drawing in their sketch area (``sketched``)

    def group(self, name: str) -> dict[str, float]:
        """The fills of one group's bubbles by value, in printed order."""
        return {b.value: self.fills[(b.group, b.value)] for b in self.layout.groups()[name]}

    @cached_property
    def crossing(self) -> float:
        """The fill from which a life box of this page counts as crossed: ``CROSSED``, or for a page crossed
        off heavily ``CROSS_SHARE`` of its typical cross (``CLEAR_CROSS``), whichever is more (worked out
        once a page, not once a track)."""
        typical = _typical([fill for fills in self.life.values() for fill in fills], CLEAR_CROSS, CLEAR_CROSSES)
        crossing = CROSSED if typical is None else max(CROSSED, CROSS_SHARE * typical)
        return max(crossing, GRAIN_CROSS * self.grain)

    @cached_property
    def typical_crosses(self) -> dict[str, float]:
        """Per life track with ``CLEAR_CROSSES`` boxes crossed or more, the median fill of its crossed boxes."""
        typical = {name: _typical(fills, self.crossing, CLEAR_CROSSES) for name, fills in self.life.items()}
        return {name: value for name, value in typical.items() if value is not None}

    def damage(self, track: str) -> tuple[int, list["Doubt"]]:
        """``damage`` of one of the page's life tracks, at the page's ``crossing``; the first box left empty
        asked about where glare brightens the paper over it (a light cross washed out there would be one
        damage more, and no gap to show it); and a track whose crosses are all much lighter than the other
        tracks' (under ``LIGHTER`` of their median typical cross) asked about as a whole: a fold's crease
        along the row inks every box alike, and where it outnumbers the page's crosses the page's own
        ``crossing`` stays low enough to count them."""
        fills = self.life[track]
        count, doubts = damage(track, fills, self.crossing, self.grain)
        others = [value for name, value in self.typical_crosses.items() if name != track]
        mine = _typical(fills[:count], self.crossing)        # the boxes counted: all crossed
        if mine is not None and others and not doubts:
            theirs = float(median(others))
            if mine < LIGHTER * theirs:
                counted = f"the {count} boxes counted as crossed are all" if count > 1 else \
                    "the box counted as crossed is"
                doubts.append(Doubt(track, Rule.FAINT_MARK, f"{counted} much "
                                    f"lighter ({mine:.0%}) than the crosses on the sheet's other tracks "
                                    f"({theirs:.0%}): a fold's crease or a smudge along the row? Counted as "
                                    f"{count} damage", 0.4))
        if count and not doubts and (lined := self._lined_row(track)) >= ROW_LINE:
            doubts.append(Doubt(track, Rule.UNSURE_MARK, f"a line runs along this row: {lined} of its bubbles are "
                                f"half-filled too (a fold's crease?). Are the {count} boxes counted really crossed? "
                                f"Counted as {count} damage", 0.4))
        if count < len(fills) and (track, count + 1) in self.glared:
            doubts.append(Doubt(f"{track} box {count + 1}", Rule.UNSURE_MARK,
                                f"is it crossed? Read as not ({fills[count]:.0%} inked); {GLARED_NOTE}",
                                GLARED_SURENESS))
        return count, doubts

    def _lined_row(self, track: str) -> int:
        """How many bubbles of a life track's row (its core's or part's die sides, colour and type) are
        half-filled: a line along the row (a fold's crease) half-fills many, and crosses every box alike."""
        groups = _row_groups(self.layout).get(track.rsplit(" ", 1)[0], {})
        return sum(MARKED <= self.fills.get((b.group, b.value), 0.0) < FILLED
                   for bubbles in groups.values() for b in bubbles)


def _row_groups(layout: MonsterLayout) -> dict[str, dict]:
    """Each core's and part's bubble groups (its die sides, colour and type: ``PartRow.groups``), by the row's
    name (``monster 1 part 2``)."""
    return {row.where: row.groups() for row in layout.rows()}


def read_marks(ink: np.ndarray, layout: MonsterLayout, px_per_mm: float) -> SheetMarks:
    """Measure every bubble and life box of ``layout`` on a registered ink map."""
    inks = {(b.group, b.value): bubble_ink(ink, b, px_per_mm) for b in layout.bubbles()}
    even, level = _evenness(inks), _filled_level(inks)
    fills = {key: bubble_fill(min(1.0, mean / level), min(1.0, rim / level), even) for key, (mean, rim) in inks.items()}
    life = {name: tuple(box_fill(ink, box, px_per_mm) for box in boxes)
            for name, boxes in layout.life_tracks().items()}
    return SheetMarks(layout, fills, life, joined=joined_bubbles(ink, layout, fills, px_per_mm),
                      sketched=sketched(ink, layout, px_per_mm))


SKETCHED = 0.015        # a card's sketch area with this share of it in full ink holds a drawing
SKETCH_INSET_MM = 1.5   # ... inside its printed dashed border


def sketched(ink: np.ndarray, layout: MonsterLayout, px_per_mm: float) -> frozenset:
    """The cards (numbers) whose sketch area holds a drawing: ``SKETCHED`` of it, inside its border, in full
    ink. Over 216 cards in every condition of the photographer's (seed 309, three sheets a condition), the
    cards drawn held 4.2% or more, the others 0.4% at most but where a pen lay over them (7-13%)."""
    found = []
    for card in layout.cards:
        patch = _inside(ink, card.sketch, SKETCH_INSET_MM, px_per_mm)
        if patch.size and np.count_nonzero(patch >= 0.5) >= SKETCHED * patch.size:
            found.append(card.number)
    return frozenset(found)


def joined_bubbles(ink: np.ndarray, layout: MonsterLayout, fills: dict, px_per_mm: float) -> tuple:
    """The neighbouring bubbles of a pool (side by side in a row, or one above the other) both read filled
    with the gap between their rings inked across (``JOINED``), as (pool key, value, value). A bubble filled
    on purpose leaves that gap clear or only touched; a scribble run on from its bubble covers the gap and
    fills its neighbour too (a third or more of the neighbour is enough to read it filled)."""
    joined, columns = [], len(COLOURS)        # a pool's bubbles row by row, a column per colour
    for pool in layout.pools:
        for index, bubble in enumerate(pool.bubbles):
            if fills[(bubble.group, bubble.value)] < FILLED:
                continue
            right = (pool.bubbles[index + 1],) if index % columns != columns - 1 else ()
            below = (pool.bubbles[index + columns],) if index + columns < len(pool.bubbles) else ()
            for other in right + below:
                if fills[(other.group, other.value)] >= FILLED and _gap_ink(ink, bubble, other, px_per_mm) >= JOINED:
                    joined.append((pool.key, bubble.value, other.value))
    return tuple(joined)


def _gap_ink(ink: np.ndarray, first: Bubble, second: Bubble, px_per_mm: float) -> float:
    """The mean ink over the gap between two neighbouring bubbles' rings (``second`` right of or below
    ``first``), as wide across as most of a bubble."""
    half = 0.8 * first.r
    if abs(first.cy - second.cy) < 1e-6:
        x0, x1, y0, y1 = first.cx + first.r, second.cx - second.r, first.cy - half, first.cy + half
    else:
        x0, x1, y0, y1 = first.cx - half, first.cx + half, first.cy + first.r, second.cy - second.r
    patch = ink[max(int(round(y0 * px_per_mm)), 0):int(round(y1 * px_per_mm)) + 1,
                max(int(round(x0 * px_per_mm)), 0):int(round(x1 * px_per_mm)) + 1]
    return float(patch.mean()) if patch.size else 0.0


def paper_grain(ink: np.ndarray, blank_darkness: np.ndarray, layout: MonsterLayout, px_per_mm: float) -> float:
    """How far a photo's grain alone inks a life box: the ``GRAIN_SHARE`` quantile of the ink over box-sized
    patches of the paper the blank leaves unprinted (``ink`` and ``blank_darkness`` over the same area).
    A clear photo's paper reads almost no ink (0, up to 0.07 in a messaging app's copy); a dim one's grain,
    smoothed by the phone into blotches, inks such patches up to a third (issue 9's dim photos: their most
    inked empty boxes about as inked as this). The player's sketches and names cover far less of that paper
    than the share left over."""
    box = next(iter(layout.life_tracks().values()))[0]
    side = max(1, int(round((box.w - 2 * BOX_INSET_MM) * px_per_mm)))
    clear = 2 * int(round(PAPER_CLEAR_MM * px_per_mm)) + 1
    paper = cv2.dilate((blank_darkness > PRINTED).astype(np.uint8), np.ones((clear, clear), np.uint8)) == 0
    values = cv2.blur(ink, (side, side))[paper][::7]
    if not values.size:
        return 0.0
    return float(np.partition(values, int(GRAIN_SHARE * (values.size - 1)))[int(GRAIN_SHARE * (values.size - 1))])


def bubble_fill(mean: float, rim: float, even: float = EVEN) -> float:
    """How filled a bubble is, from its ``bubble_ink``: the mean ink strength over its inside, clear of its
    ring; but a bubble with a sector of its rim left emptier than ``even`` of the rest (half hatched, a dot
    in the middle, a tick) counts as half-filled at most."""
    if mean >= FILLED and rim < even * mean:
        return FILLED - 0.01
    return mean


def _evenness(inks: dict) -> float:
    """The share of its mean ink a filled bubble's emptiest rim sector must have on this page to count as
    filled throughout: ``EVEN``, or for a page whose filled bubbles' rims are uneven (a pencil's strokes
    leave gaps a marker does not) ``EVEN_SHARE`` of their median, if less. On 36 pencil photos of seed 125
    a full bubble's emptiest sector had 0.49-0.80 of its mean at the median over the page, and 64 full
    bubbles under 0.5 were asked about as half-filled; a half-filled one (a hatch, a dot, a tick) with as much
    ink as a filled one leaves a sector empty (0-0.05 for a hatch)."""
    ratios = sorted(rim / mean for mean, rim in inks.values() if mean >= FILLED)
    if len(ratios) < EVEN_LEAST:
        return EVEN
    return min(EVEN, EVEN_SHARE * ratios[len(ratios) // 2])


def _filled_level(inks: dict) -> float:
    """What a page's bubbles' ink is measured against, as a share of a marker's (1: as it is): for a page whose
    filled bubbles are light, ``FILLED_SHARE`` of their median over ``FILLED``, where that is less than 1. A
    pencil fills a bubble to 0.42-1.0 of its inside (median 0.6-0.97 a page), so many a full bubble read
    half-filled; a half-filled one not left with an empty rim (a dot, a tick) had at most 0.47 of its page's
    median, a full one 0.56 or more (pencil photos of seeds 201000-201011; a marker's and a ballpoint's pages,
    median 0.97-1.0, are measured as they are)."""
    typical = _typical([mean for mean, _ in inks.values()], FILLED, EVEN_LEAST)
    return 1.0 if typical is None else min(1.0, FILLED_SHARE * typical / FILLED)


def bubble_ink(ink: np.ndarray, bubble: Bubble, px_per_mm: float) -> tuple[float, float]:
    """The mean ink strength over the inside of a bubble (clear of its ring), and that of the emptiest
    sector of its rim (the outer half of the inside)."""
    radius = (bubble.r - BUBBLE_INSET_MM) * px_per_mm
    dy, dx, sector = _disc(round(radius * 4) / 4)
    rows = np.clip(np.round(bubble.cy * px_per_mm + dy).astype(int), 0, ink.shape[0] - 1)
    cols = np.clip(np.round(bubble.cx * px_per_mm + dx).astype(int), 0, ink.shape[1] - 1)
    values = ink[rows, cols]
    rim = sector >= 0
    sums = np.bincount(sector[rim], values[rim], SECTORS) / np.maximum(np.bincount(sector[rim], minlength=SECTORS), 1)
    return float(values.mean()), float(sums.min())


@lru_cache(maxsize=8)
def _disc(radius: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pixel offsets (rows, cols) within ``radius`` of a centre, and each one's sector of the outer half
    of the radius (-1 nearer the centre)."""
    reach = int(np.ceil(radius))
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    distance = np.hypot(dy, dx)
    inside = distance <= radius
    sector = np.floor((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
    sector[distance < 0.5 * radius] = -1
    return dy[inside], dx[inside], sector[inside]


def box_fill(ink: np.ndarray, box: Rect, px_per_mm: float) -> float:
    """The mean ink strength over the inside of a life box, clear of its printed edge."""
    patch = _inside(ink, box, BOX_INSET_MM, px_per_mm)
    return float(patch.mean()) if patch.size else 0.0


def _inside(image: np.ndarray, box: Rect, inset_mm: float, px_per_mm: float) -> np.ndarray:
    """The part of a page-sized map ``inset_mm`` inside a box's printed edge (its last row and column included)."""
    x0, y0 = int(round((box.x + inset_mm) * px_per_mm)), int(round((box.y + inset_mm) * px_per_mm))
    x1, y1 = int(round((box.right - inset_mm) * px_per_mm)), int(round((box.bottom - inset_mm) * px_per_mm))
    return image[max(y0, 0):max(y1 + 1, 0), max(x0, 0):max(x1 + 1, 0)]


# -- from marks to a reading ------------------------------------------------------------------

def choose(group: str, fills: dict[str, float]) -> tuple[str | None, list[Doubt]]:
    """The value marked in one group (None: nothing marked), and the doubts about it.

    One filled bubble is the reading. Two or more filled: the fullest, flagged
    ``two_bubbles``. A half-filled bubble (alone, or beside a filled one): the
    fullest, flagged ``half_filled``.
    """
    ranked = sorted(fills.items(), key=lambda item: -item[1])
    filled = [value for value, fill in ranked if fill >= FILLED]
    half = [value for value, fill in ranked if MARKED <= fill < FILLED]
    if not filled and not half:
        return None, []
    best, best_fill = ranked[0]
    if len(filled) >= 2:
        second = fills[filled[1]]
        listed = ", ".join(filled)
        return best, [Doubt(group, Rule.TWO_BUBBLES, f"{len(filled)} bubbles filled ({listed}): read as {best}",
                            _clip(0.5 * (best_fill - second) / max(best_fill, 1e-6) + 0.2))]
    if half:
        if filled:
            why = f"{best} filled, {', '.join(half)} half-filled: read as {best}"
            return best, [Doubt(group, Rule.HALF_FILLED, why, _clip(0.5 + (best_fill - fills[half[0]])))]
        listed = ", ".join(f"{v} ({fills[v]:.0%})" for v in half)
        why = f"only half-filled: {listed}; read as {best}"
        return best, [Doubt(group, Rule.HALF_FILLED if len(half) == 1 else Rule.TWO_BUBBLES, why,
                            _clip(0.3 + 0.4 * (best_fill - MARKED) / (FILLED - MARKED)))]
    return best, []


def damage(track: str, fills: tuple[float, ...], crossing: float = CROSSED,
           grain: float = 0.0) -> tuple[int, list[Doubt]]:
    """How many boxes of a life track are crossed off (filled from ``crossing`` on: ``SheetMarks.crossing``),
    counted from box 1 to the first box left empty, and the doubts: a faintly marked box (``FAINT_BOX``, in
    proportion to ``crossing``, and inked more than the photo's ``grain`` inks the paper), or crossed boxes
    after a gap (damage is crossed off from box 1: a stray mark, a curl's or a shadow's edge; on 53 such
    tracks of photos in issue 9's conditions, the boxes crossed from box 1 were the damage drawn every time,
    all crossed boxes never)."""
    faint = tuple(bound * crossing / CROSSED for bound in FAINT_BOX)
    faint = (max(faint[0], grain), faint[1])
    crossed = [fill >= crossing for fill in fills]
    count = next((i for i, mark in enumerate(crossed) if not mark), len(crossed))
    # Box (from 1) -> why it is asked about.
    asked = {i: f"faintly marked ({fill:.0%}): " + ("counted as crossed" if fill >= crossing else "not counted")
             for i, fill in enumerate(fills, start=1) if faint[0] <= fill < faint[1]}
    # A box counted crossed but far lighter than the track's other crosses: a fold's crease or a smudge
    # along the row more likely than the player's cross.
    typical = _typical(fills, crossing) or 0.0
    asked.update({i: f"much lighter ({fill:.0%}) than the track's other crosses ({typical:.0%}): counted as crossed"
                  for i, fill in enumerate(fills, start=1) if faint[1] <= fill < LIGHTER * typical})
    # The last box counted, half as inked as the others: one stroke along the row, through the boxes crossed,
    # may end a little way into the next.
    if count >= 2 and max(faint[1], LIGHTER * typical) <= fills[count - 1] < END_LIGHTER * typical:
        asked[count] = (f"lighter ({fills[count - 1]:.0%}) than the track's other crosses ({typical:.0%}), "
                        f"the last box counted: crossed, or the end of a stroke through the box before?")
    if len(asked) >= 2:         # one entry for the track, naming each box (a curl or a crease may touch ten)
        doubts = [_faint_boxes(track, fills, sorted(asked), crossing, typical)]
    else:
        doubts = [Doubt(f"{track} box {i}", Rule.FAINT_MARK, why, 0.5) for i, why in asked.items()]
    if not doubts and (step := _darker_start(fills, count, grain)) is not None:
        first, head, tail = step
        doubts.append(Doubt(track, Rule.UNSURE_MARK, f"boxes 1-{first} are darker ({head:.0%}) than the rest of the "
                            f"track ({tail:.0%}), as crosses make them, but lighter than this photo counts a cross "
                            f"(its grain inks the paper up to {grain:.0%}): are they crossed? Read as {count} "
                            f"damage", 0.4))
    if any(crossed[count:]):
        boxes = ", ".join(str(i) for i, mark in enumerate(crossed, start=1) if mark)
        doubts.append(Doubt(track, Rule.GAP_IN_TRACK, f"boxes {boxes} crossed, not only the first ones: read as "
                                                   f"{count} damage, the boxes crossed from box 1 on", 0.5))
    return count, doubts


STEP = 0.12             # boxes from box 1 inked this much more than the rest of their track (median against
STEP_GRAIN = 0.4        # median), and this share of the photo's grain more, look crossed off (at least two boxes)


def _darker_start(fills: tuple[float, ...], count: int, grain: float) -> tuple[int, float, float] | None:
    """The boxes from box 1 beyond the ``count`` counted crossed that stand out from the rest of the track as
    crosses do, when two or more do: how many from box 1, and the medians of those not counted and of the
    rest. A dim photo's grain raises the fill a box counts crossed from above a pencil's crosses; their run
    from box 1 still stands out."""
    best, most = None, 0.0
    for first in range(count + 2, len(fills)):
        # The boxes of the run not counted (two at least), each darker than the rest's median.
        head, tail = float(median(fills[count:first])), float(median(fills[first:]))
        if min(fills[count:first]) <= tail:
            continue
        # The step weighed by how many boxes lie on each side of it (a lone box at the end says little).
        weight = (head - tail) * (first * (len(fills) - first)) ** 0.5
        if weight > most:
            best, most = (first, head, tail), weight
    if best is None or best[1] - best[2] < max(STEP, STEP_GRAIN * grain):
        return None
    return best


def _typical(fills, marked: float, least: int = 1) -> float | None:
    """The typical mark among ``fills``: the median of those at ``marked`` or more, when there are ``least``
    of them (else None). A track's typical cross (its boxes counted crossed, ``crossing`` on), or a page's
    typical filled bubble."""
    strong = sorted(fill for fill in fills if fill >= marked)
    return strong[len(strong) // 2] if strong and len(strong) >= least else None


def _faint_boxes(track: str, fills: tuple[float, ...], boxes: list[int], crossing: float, typical: float) -> Doubt:
    """One ``faint_mark`` entry for the boxes of a track each asked about, saying which were counted."""
    listed = ", ".join(f"{n} ({fills[n - 1]:.0%})" for n in boxes)
    counted = [str(n) for n in boxes if fills[n - 1] >= crossing]
    left = [str(n) for n in boxes if fills[n - 1] < crossing]
    told = "; ".join(part for part in (f"counted as crossed: {', '.join(counted)}" if counted else "",
                                       f"not counted: {', '.join(left)}" if left else "") if part)
    against = f" (this track's crosses: {typical:.0%})" if typical else ""
    return Doubt(track, Rule.FAINT_MARK, f"faint marks in boxes {listed}{against}: {told}", 0.5)


def _by_card(places: list[str]) -> list[tuple[str, str]]:
    """Places of a monster record sheet as review entries name them, those of one monster's card, or of one
    pool, together: (where, the places listed), in the order given. A curl bends a card's whole edge, or
    the page's bottom under a pool, so one entry for the card (``monster 2``) or the pool (``reserve``) names
    its places rather than one entry for each."""
    cards: dict[str, list[str]] = {}
    for place in places:
        words = place.split()
        # A card's places are "monster 2 ...", a pool's rows "reserve d6" (``MonsterLayout.places``).
        key = " ".join(words[:2]) if words[0] == "monster" else words[0]
        cards.setdefault(key, []).append(place)
    return [(key, ", ".join(listed)) if len(listed) >= 2 else (listed[0], listed[0]) for key, listed in cards.items()]


def sureness(marks: SheetMarks) -> float:
    """How clearly every bubble and box reads as filled or empty (1: none near a threshold)."""
    values = np.array(list(marks.fills.values()) + [f for track in marks.life.values() for f in track])
    if not len(values):
        return 1.0
    margin = np.minimum(np.abs(values - MARKED), np.abs(values - FILLED))
    return round(float(np.clip(margin.min() / 0.15, 0.0, 1.0)), 3)


@dataclass
class Reading:
    """One page read: its monsters, pools and doubts (the roster of one player, before pages are merged)."""

    player: int
    page: int
    monsters: list[dict] = field(default_factory=list)
    reserve: list[str] = field(default_factory=list)
    active: list[str] = field(default_factory=list)
    doubts: list[Doubt] = field(default_factory=list)
    left_out: list[dict] = field(default_factory=list)      # parts and monsters whose life is all crossed off


# A card sketched (``SheetMarks.sketched``) with nothing marked in it: a light fill read as empty leaves the whole
# monster out (seed 308, pencil, sheet 308000 player 2: monster 1's core die sides and colour half filled in
# pencil, read 10% and 14%, and the monster left out of the roster, named nowhere).
SKETCHED_NO_CORE = "monster {} is sketched, but no core die is marked, so it is left out: is a bubble of its core filled?"


def read_roster(marks: SheetMarks) -> Reading:
    """The monsters, parts, dice and damage marked on one page.

    A part whose life is all crossed off has left play with its die, and a
    monster whose core has, with all its parts: they are left out of the
    roster and listed in ``left_out``. A monster with no core die marked is
    not there (flagged if parts of it are marked, or its card is sketched).
    """
    layout = marks.layout
    reading = Reading(layout.player, layout.page)
    for card in layout.cards:
        core, core_doubts = _part(marks, card.core)
        parts, part_doubts, gone = [], [], []
        for row in card.parts[1:]:
            part, doubts = _part(marks, row)
            part_doubts += doubts
            if part is not None and _destroyed(part):
                gone.append({"where": row.where, "die": part["die"],
                             "why": f"all {part['damage']} life crossed off: the part has left play"})
            elif part is not None:
                parts.append(part)
        if core is None:
            reading.doubts += core_doubts        # glare over the core's fill: asked, not left out unsaid
            if parts or gone:
                reading.doubts.append(Doubt(card.core.where, Rule.MISSING, f"parts are marked but no core die: "
                                                                        f"monster {card.number} is left out", 0.3))
            elif card.number in marks.sketched and not core_doubts:
                reading.doubts.append(Doubt(card.core.where, Rule.MISSING, SKETCHED_NO_CORE.format(card.number), 0.3))
            continue
        reading.doubts += core_doubts + part_doubts
        if _destroyed(core):
            reading.left_out.append({"where": f"monster {card.number}", "die": core["die"],
                                     "why": f"all {core['damage']} life of its core crossed off: the monster has "
                                            f"left play with its parts"})
            continue
        reading.left_out += gone
        reading.monsters.append({"name": None, "core": core, "parts": parts})
    for pool in layout.pools:
        reading.doubts += _washed_rows(marks, pool)
        dice = getattr(reading, pool.key)
        for bubble in pool.bubbles:
            fill = marks.fills[(bubble.group, bubble.value)]
            if fill >= MARKED:
                dice.append(bubble.value)
            if MARKED <= fill < FILLED:
                reading.doubts.append(Doubt(f"{pool.key} {bubble.value}", Rule.HALF_FILLED,
                                            f"half-filled ({fill:.0%}): read as a {bubble.value} die", 0.5))
        reading.doubts += _spilled(marks, pool)
    return reading


def _spilled(marks: SheetMarks, pool) -> list[Doubt]:
    """A pool bubble joined to its filled neighbour by one patch of ink (``SheetMarks.joined``) and itself
    filled less than a marker fills a bubble (``SPILLED``): perhaps only the neighbour's fill run over."""
    doubts = []
    for key, first, second in marks.joined:
        if key != pool.key:
            continue
        (full, full_fill), (less, less_fill) = sorted(((v, marks.fills[(key, v)]) for v in (first, second)),
                                                      key=lambda item: -item[1])
        if less_fill < SPILLED:
            doubts.append(Doubt(f"{key} {less}", Rule.UNSURE_MARK,
                                f"one patch of ink runs from {full} into {less} ({less_fill:.0%} filled): read as "
                                f"both dice; is {less} marked, or is it {full}'s ink run over?", 0.5))
    return doubts


def _washed_rows(marks: SheetMarks, pool) -> list[Doubt]:
    """A pool's rows with bubbles read empty where glare brightens the paper (``SheetMarks.glared``), one
    question a row: a marker's fill washed out there reads as empty as a bubble never filled (under 1% on the
    photographer's glare), so every such bubble is named. On a faint photo (``SheetMarks.faint``), the rows
    with bubbles read empty but for a trace of ink (``FAINT_TRACE``) or a shade too (``_washed``)."""
    doubts = []
    for where, bubbles in pool.rows().items():
        lit, notes = _washed_bubbles(marks, bubbles, anywhere_in_glare=True)
        if lit:
            size, colours = where.rsplit(" ", 1)[1], [bubble.value.split(" ", 1)[1] for bubble in lit]
            doubts.append(Doubt(where, Rule.UNSURE_MARK,
                                f"is {'the ' + colours[0] if len(colours) == 1 else 'any of ' + ', '.join(colours)} "
                                f"{size} marked? Read as not; {_first_note(notes)}", GLARED_SURENESS))
    return doubts


def _washed_bubbles(marks: SheetMarks, bubbles, anywhere_in_glare: bool = False) -> tuple[list, set]:
    """Those of ``bubbles`` read empty that may be fills washed out (``_washed``), and the notes why."""
    lit, notes = [], set()
    for bubble in bubbles:
        note = _washed(marks, (bubble.group, bubble.value), anywhere_in_glare)
        if note:
            lit.append(bubble)
            notes.add(note)
    return lit, notes


FAINT_TRACE = 0.05     # on a faint photo a bubble read empty is asked about with this much ink in it: under
                       # --degrade haze (seeds 264-266, every condition), 35 of the 54 fills read empty show
                       # 5-20%, and 47 of 31600 bubbles never filled


def _washed(marks: SheetMarks, key: tuple, anywhere_in_glare: bool = False) -> str | None:
    """Why a bubble read empty may be a fill washed out, as the question says it: ``GLARED_NOTE`` where glare
    brightens the paper over it and it keeps a trace of ink (``GLARED_TRACE``) or a shade (``SheetMarks.shaded``),
    or whatever it keeps (``anywhere_in_glare``: a pool's bubbles); ``FAINT_NOTE`` on a faint photo, with a
    trace (``FAINT_TRACE``) or a shade; else None."""
    fill = marks.fills[key]
    if fill >= MARKED:
        return None
    if key in marks.glared and (anywhere_in_glare or fill >= GLARED_TRACE or key in marks.shaded):
        return GLARED_NOTE
    if marks.faint and (fill >= FAINT_TRACE or key in marks.shaded):
        return FAINT_NOTE
    return None


def _first_note(notes: set) -> str:
    """The note a question about washed-out bubbles gives: glare's where any lies under glare."""
    return GLARED_NOTE if GLARED_NOTE in notes else FAINT_NOTE


GLARED_TRACE = 0.05    # a card's bubble read empty where glare brightens the paper is asked about with this much
                       # ink left in it: a fill washed out keeps a trace (9% on seed 230), a bubble never filled
                       # reads 0-2%
SHADE_DARKER = 0.07    # ... or with its inside this much darker (of black) than the median of its group's other
                       # bubbles (``shaded_bubbles``)


def shaded_bubbles(dark: np.ndarray, layout: MonsterLayout, glared: frozenset, px_per_mm: float,
                   faint: bool = False) -> frozenset:
    """The bubbles, as (group, value), whose inside shows darker than the median of their group's other bubbles
    (a pool's: its row's) by ``SHADE_DARKER`` or more, on the registered darkness ``dark`` (0 paper to 1
    black, page pixels): a card's bubbles where glare brightens the paper (``SheetMarks.glared``), or on a
    faint photo (``SheetMarks.faint``) every bubble.

    Glare can wash a fill out of the ink map altogether (under the print's allowance, read 0%) and still
    leave it a grey disc a person sees at once: seed 242, glare, sheet 242005, monster 1 part 3's pink fill
    read 0.4% and white alone, named nowhere. Over 260 glare photos (seeds 243 and 245) such washed fills
    showed 20-67 (of 255) darker than their group's other bubbles, bubbles never filled at most 14. On 120
    glare photos of seed 250, not looked at while choosing the step: 8 of the 17 fills read empty under glare
    are found, none of the 604 bubbles never filled there (the other 9 washed out to paper: a group left with
    nothing read is named anyway). A hazy photo's pencil fills the same: under ``--degrade haze`` (seeds
    276-278, 72 photos) 90 fills read empty, 38 with a trace of ink (``FAINT_TRACE``), 77 with the one or the
    shade; 9 of 31246 bubbles never filled are as dark."""
    groups = {name: bubbles for name, bubbles in layout.groups().items()
              if faint or any((b.group, b.value) in glared for b in bubbles)}
    if faint:
        for pool in layout.pools:
            groups.update(pool.rows())
    shaded = set()
    for bubbles in groups.values():
        means = {b.value: bubble_ink(dark, b, px_per_mm)[0] for b in bubbles}
        for b in bubbles:
            others = [mean for value, mean in means.items() if value != b.value]
            if (faint or (b.group, b.value) in glared) and means[b.value] - median(np.array(others)) >= SHADE_DARKER:
                shaded.add((b.group, b.value))
    return frozenset(shaded)


def _washed_group(marks: SheetMarks, name: str, value: str | None) -> Doubt | None:
    """A card's group with bubbles read empty where glare brightens the paper (``SheetMarks.glared``) but for a
    trace of ink (``GLARED_TRACE``) or a shade (``SheetMarks.shaded``), or on a faint photo for a trace
    (``FAINT_TRACE``), asked about once: a fill washed out reads as nearly empty, and the group then reads as
    nothing marked, or as another bubble alone where two were filled (seed 230, glare: monster 1's core
    colour, purple and black both filled, the purple at the glare's edge read 9% filled, and black read with
    nothing asked)."""
    bubbles, notes = _washed_bubbles(marks, marks.layout.groups()[name])
    if not bubbles:
        return None
    lit = [bubble.value for bubble in bubbles]
    which = f"the {lit[0]} bubble" if len(lit) == 1 else f"any of {', '.join(lit)}"
    why = f"is {which} filled? Read as none marked" if value is None else \
        f"is {which} filled too? Read as {value} alone"
    return Doubt(name, Rule.UNSURE_MARK, f"{why}; {_first_note(notes)}", GLARED_SURENESS)


def _destroyed(part: dict) -> bool:
    """Whether a part's damage reaches its die's sides (life 0)."""
    return part["die"] is not None and part["damage"] >= int(part["die"].split()[0][1:])


def _part(marks: SheetMarks, row: PartRow) -> tuple[dict | None, list[Doubt]]:
    """One part as the roster has it (None: nothing marked), and its doubts."""
    where = row.where
    size, doubts = choose(f"{where} size", marks.group(f"{where} size"))
    colour, more = choose(f"{where} colour", marks.group(f"{where} colour"))
    doubts += more
    kind = None
    if row.part:
        kind, more = choose(f"{where} type", marks.group(f"{where} type"))
        doubts += more
    washed = [doubt for name, value in zip(row.groups(), (size, colour, kind))    # (a core has no type)
              if (doubt := _washed_group(marks, name, value)) is not None]
    if size is None and colour is None and kind is None:
        return None, washed
    doubts += washed
    lost, more = marks.damage(f"{where} life")
    doubts += more
    die = f"{size} {colour}" if size and colour else None
    missing = [name for name, value in (("die sides", size), ("colour", colour)) if value is None]
    if row.part and kind is None:
        missing.append("type")
    if missing:
        doubts.append(Doubt(where, Rule.MISSING, f"no {' and no '.join(missing)} marked", 0.3))
    if size is not None and lost > int(size[1:]):
        doubts.append(Doubt(f"{where} life", Rule.BEYOND_LIFE,
                            f"{lost} boxes crossed on a {size}: more damage than its life", 0.4))
    part = {"die": die, "damage": lost} if not row.part else \
        {"name": None, "type": kind, "die": die, "damage": lost}
    return part, doubts


def roster_json(reading: Reading, name: str | None = None) -> dict:
    """A reading as a one-player ``scrawl.roster/1`` document, with its doubts as ``needs_review``."""
    player = {"name": name or f"Player {reading.player}", "reserve": list(reading.reserve),
              "active": list(reading.active), "monsters": reading.monsters}
    return {"format": ROSTER_FORMAT, "players": [player], "needs_review": [d.to_json() for d in reading.doubts]}


@dataclass
class MonsterScan:
    """One monster record sheet read from one photo."""

    source: str
    sheet_id: SheetId
    layout: MonsterLayout
    marks: SheetMarks
    resolution: float = 0.0
    page_picture: object = field(default=None, repr=False)    # draws the rectified page (RGB), for overlays
    hidden: dict = field(default_factory=dict)    # places (``MonsterLayout.places``) the photo does not show, and why
    slipped: tuple = ()                            # places where the paper curls so that they may be read a bubble off

    def reading(self) -> Reading:
        reading = read_roster(self.marks)
        # A place the photo does not show is asked about once, as unseen: what lies over it (a pen's body
        # filling bubbles, a thumb's edge across boxes) is not asked about again bubble by bubble.
        reading.doubts = [d for d in reading.doubts
                          if not any(d.where == place or d.where.startswith(place + " ") for place in self.hidden)
                          and not self._missing_unseen(d)]
        unseen = [Doubt(where, Rule.CANNOT_SEE, f"{why.replace('this box', 'these marks')}: look at {where} on the "
                        f"sheet, or take the photo again without it", 0.0) for where, why in self._unseen().items()]
        curled = [Doubt(where, Rule.UNSURE_MARK, f"the paper curls here, so these marks may be read one bubble or box "
                        f"off: look at {places} on the sheet, or flatten it and take the photo again", 0.3)
                  for where, places in _by_card([w for w in self.slipped if w not in self.hidden])]
        reading.doubts[:0] = unseen + curled
        if self.resolution < 3.2:
            reading.doubts.append(Doubt("photo", Rule.LOW_RESOLUTION,
                                        f"the sheet is only {self.resolution:.1f} pixels per mm in this photo: "
                                        f"come closer or use a higher resolution", 0.5))
        return reading

    def _unseen(self) -> dict[str, str]:
        """The places to ask about as unseen, and why: those the photo does not show, but a core's or a part's
        whole row where one of its groups is not shown and the others read nothing. That row is then left
        out of the roster, and what the photo does show of it may be washed out too: glare over a core's
        die sides, its colour hatched lightly beside them and read empty, left a monster out with only its
        die sides asked about (seed 157, glare)."""
        rows = _row_groups(self.layout)
        unseen: dict[str, str] = {}
        for where, why in self.hidden.items():
            row = where.rpartition(" ")[0]
            if where in rows.get(row, {}) and not any(choose(name, self.marks.group(name))[0] is not None
                                                      for name in rows[row] if name not in self.hidden):
                where = row
            unseen.setdefault(where, why)
        return unseen

    def _missing_unseen(self, doubt: Doubt) -> bool:
        """Whether ``doubt`` says a part has no die sides, colour or type marked where the photo does not
        show what it turns on: each group read empty (glare over its bubbles), or each group read marked (a
        pen's body over an unused part's bubbles) lies where the photo does not show it, and is asked about
        there, as unseen. (A core's, which leaves its monster out, is kept.)"""
        if doubt.rule != Rule.MISSING or " part " not in doubt.where:
            return False
        names = list(_row_groups(self.layout).get(doubt.where, {}))
        empty = [name for name in names if choose(name, self.marks.group(name))[0] is None]
        marked = [name for name in names if name not in empty]
        return any(part and all(name in self.hidden for name in part) for part in (empty, marked))

    def record(self, outcome, want_pages: bool) -> None:
        """File this sheet in its file's outcome (``scanner.batch.PhotoOutcome``): its entry of ``rosters``, what
        was read on each row (``scanner.roster_overlay.row_readings``), and its rectified page (JPEG) when
        ``want_pages``, for the overlay picture and the page's corrections."""
        from scanner.batch import SheetRead, page_jpeg
        from scanner.roster_overlay import row_readings
        from sheets.kinds import MONSTER

        page = page_jpeg(self.page_picture()) if want_pages and self.page_picture is not None else None
        outcome.reads.append(SheetRead(MONSTER.key, self.to_json(), row_readings(self.marks), page))

    def to_json(self) -> dict:
        """The sheet's entry of the scan document's ``rosters`` (before a player's pages are merged)."""
        reading = self.reading()
        return {"source": self.source, "player": self.sheet_id.player, "page": self.layout.page,
                "paper": self.layout.paper, "roster": roster_json(reading),
                "needs_review": [d.to_json() for d in reading.doubts], "left_out": reading.left_out,
                "confidence": 0.0 if self.hidden else 0.3 if self.slipped else sureness(self.marks)}


def merge_entries(entries: list[dict]) -> list[dict]:
    """The ``rosters`` entries of one scan, one per player: a player's pages merged in page order (the
    entry's ``source`` is the first page's photo, ``sources`` all of them). A page photographed twice is
    read once, and flagged."""
    by_player: dict[int, list[dict]] = {}
    for entry in entries:
        by_player.setdefault(entry["player"], []).append(entry)
    merged = []
    for player, pages in by_player.items():
        pages = sorted(pages, key=lambda e: e["page"])
        kept, doubts = [], []
        for entry in pages:
            if any(e["page"] == entry["page"] for e in kept):
                doubts.append({"where": "photo", "rule": Rule.SAME_PAGE_TWICE,
                               "why": f"{entry['source']} is player {player}'s sheet {entry['page']} again: "
                                      f"only {next(e['source'] for e in kept if e['page'] == entry['page'])} "
                                      f"is read", "confidence": 0.5})
                continue
            kept.append(entry)
        if len(kept) == 1 and not doubts:
            merged.append(kept[0])
            continue
        first = kept[0]
        roster = {"format": ROSTER_FORMAT, "players": [{
            "name": first["roster"]["players"][0]["name"],
            "reserve": [d for e in kept for d in e["roster"]["players"][0]["reserve"]],
            "active": [d for e in kept for d in e["roster"]["players"][0]["active"]],
            "monsters": [m for e in kept for m in e["roster"]["players"][0]["monsters"]]}]}
        review = [d for e in kept for d in e["needs_review"]] + doubts
        roster["needs_review"] = review
        merged.append({"source": first["source"], "sources": [e["source"] for e in kept], "player": player,
                       "page": first["page"], "pages": [e["page"] for e in kept], "paper": first["paper"],
                       "roster": roster, "needs_review": review,
                       "left_out": [gone for e in kept for gone in e.get("left_out", [])],
                       "confidence": min(e["confidence"] for e in kept)})
    return merged


def _clip(value: float) -> float:
    return float(min(1.0, max(0.0, value)))

