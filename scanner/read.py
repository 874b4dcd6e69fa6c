"""Reading the marks of one rectified sheet: per room the sides a segment links to, Trap ``X``s, the
round number, and the tally beside scoring item 6.

Everything works on an ink map (``scanner.ink.ink_map``): 0 paper, 1 surely
ink, ``px_per_mm`` pixels per paper millimetre, row 0 at the top of the page.
Room geometry is relative to the room's side, so any room size reads the same.

Each reading carries a confidence in [0, 1]; below ``SURE`` a person should
look. Readings are what a careful person would say, never a silent guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from games.maps import OPPOSITE, SIDES
from scanner.fastnp import label_set, percentile

SURE = 0.6                     # below this confidence a reading goes to needs_review
INKED = 0.45                   # ink strength that counts as a stroke pixel
FAINT = 0.2                    # weaker than this, ink counts for nothing anywhere
PROBE_DEPTH = (0.08, 0.27)     # the band, as fractions of the room, where a stroke to a side is sought
PROBE_HALF_WIDTH = 0.15        # ... either side of the side's midpoint
LINK, NO_LINK = 0.62, 0.3      # probe strengths: surely linked, surely not
LINK_SURE = 0.66               # a side linked by less is still asked about: over 940 kept photos, a third of the
                               # sides read linked at 0.62-0.66 were not (the print at the side's middle, dark in a
                               # dim or compressed photo), three of them named nowhere; 28 true links were asked too
ROUND_MARGIN_MM = 0.9          # a round number may spill this far out of its circle
DIGIT_REACH_MM = 1.8           # a stroke mostly within this of the circle is the round number
OVERSHOOT_DEPTH = 0.2          # a neighbour's stroke may poke this far (of the room) across the edge
OVERSHOOT_MM2 = 5.0            # ... with at most this much ink
MARK_REACH_MM = 1.2            # a stroke mostly within this of a Diamond's or Emerald's box crosses it out
MARK_MARGIN_MM = 0.0           # ... and the box itself is cleared, this far round it (paths pass close by)
BOX_EDGE_MM = 0.6              # a printed box's outline, left in the ink by registration, is this thin and this near
BAR_END_MM = 1.5               # a tally bar's leaning ends reach this far beside its upright middle
TALLY_END_MM = 2.0             # a lone tally mark this near the box's right end may be the box's printed end ...
TALLY_APART_MM = 5.0           # ... with no other mark this near it
TALLY_INSET_MM = 0.6           # the tally's marks are read this far in from the box's printed ends
TALLY_START_MM = 0.3           # ink from 0.3 mm before the tally box's printed left end to where marks are read ...
TALLY_START_SHARE = 0.4        # ... over this share of the box's height or more ...
TALLY_COUNTED_MM = 1.0         # ... with no mark counted this near: a first mark drawn against the end, cut off
X_FAMILY, X_DIAGONAL = 0.25, 0.78   # crossing strokes: each slant's share of the edges, and both together's
LONE_X_FAMILY, LONE_X_DIAGONAL = 0.2, 0.45   # ... in a path linked to nothing around it, enough to ask
X_MM2 = 8.0                    # ... with at least this much ink
CROSSED_AXIS = 0.25            # ink whose edges slant both ways as an X's do, but which seen from its middle lies along
                               # the room's axes (under this share on the diagonals: ``_xness``), with a stroke to a
                               # side, is read as the path and asked about: a dead end's bar drawn slanting, hooked
                               # over its stub (seed 838 ``--degrade warm``, messy: A5's dead end read as a Trap,
                               # named nowhere, at 0.0). Of 283 Traps so read with a side's stroke on kept photos
                               # (not under a pen or a thumb), none came under 0.25; a fresh run's did (seed 843,
                               # random camera, game 84320003 player 2: G8, read as a path to the top and right
                               # sides, asked about)
UNCLEAR_X_MM2 = 12.0           # a mark neither a clear path nor a clear X is read as a Trap (and asked about) only
                               # with this much ink: a Trap's X drawn in a room is 25 mm² or more, a dim photo's
                               # grain and the print it shows darker than the blank mostly 3-11 (on 1,673 folders of
                               # kept photos such marks read as Traps were 51 empty rooms, 41 in dim light, all but
                               # one under 12 mm², against 7 X's of 26.6 mm² or more)
WAVE_NEAR = 0.3                # within this share of the room from a side its path's stroke, however wavy, ...
WAVE_ONCE = 0.9                # ... crosses this share of the lines across its way in once ...
WAVE_SPAN = 0.8                # ... and this share of them at least (an X's arms: twice, or none near the side)
WAVE_ONCE_ASKED, WAVE_SPAN_ASKED = 0.6, 0.6   # ... or, curling and fading more than that, read so but asked about
WAVE_ELSEWHERE = 0.03          # ... with at most this share of the room's ink near its other sides
UNWRITTEN_MM2 = 0.5            # less even faint ink than this in a round box: no round number written ...
WRITTEN_WITHIN = 0.7           # ... counted within this share of the circle's radius from its middle
UNWRITTEN_CONFIDENCE = 0.8     # a room with a clean round box read as empty, the player writing round numbers


@dataclass(frozen=True)
class RoomReading:
    """What is drawn in one room, how sure the scanner is, and why it is unsure."""

    room: str
    exits: str = ""
    trap: bool = False
    round: int | None = None
    confidence: float = 1.0
    doubts: tuple[str, ...] = ()
    strengths: dict = field(default_factory=dict)   # side -> probe strength, for the overlay
    written: bool = True        # the round box holds writing (or was not looked at)

    @property
    def alternative(self) -> tuple[str, bool] | None:
        """The other reading a person might see here (exits, trap), when the doubt points at one: a Trap
        or none, the sides in question linked or not, or, for a stub, nothing of this room's own."""
        if self.trap_in_doubt:
            return ("", False) if self.trap else ("", True)
        unsure = {side for side, question in _LINK_QUESTIONS.items() if question in self.doubts}
        if unsure:
            return "".join(side for side in SIDES if (side in self.exits) != (side in unsure)), False
        if STUB_DOUBT in self.doubts or _UNWRITTEN_PATH in self.doubts:
            return "", False
        return None

    @property
    def trap_in_doubt(self) -> bool:
        """Whether the doubts are about a Trap: read as one but unsure, or ink that may be an ``X`` read as
        something else. Only such a doubt can change another sheet's score (Traps hit between sheets)."""
        if self.trap:
            return self.confidence < SURE
        return any(doubt in _TRAP_DOUBTS or (len(self.exits) <= 1 and doubt.endswith(_STRAY))
                   for doubt in self.doubts)

    @property
    def drawn(self) -> bool:
        return bool(self.exits) or self.trap

    @property
    def only_link_doubts(self) -> bool:
        """Whether every doubt is only whether a stroke reaches some side (nothing else looks wrong)."""
        return bool(self.doubts) and all(doubt in _LINK_QUESTIONS.values() for doubt in self.doubts)


@dataclass(frozen=True)
class TallyReading:
    count: int
    confidence: float
    strokes: tuple[tuple[float, float], ...] = ()     # x centres (mm from the box's left) and kind (1 upright, 2 gate)
    doubts: tuple[str, ...] = ()


def room_crop(ink: np.ndarray, rect, px_per_mm: float) -> np.ndarray:
    """The ink inside one room's square, a copy."""
    x0, y0 = int(round(rect.x * px_per_mm)), int(round(rect.y * px_per_mm))
    size = int(round(rect.w * px_per_mm))
    return ink[y0:y0 + size, x0:x0 + size].copy()


def read_room(ink: np.ndarray, cell, px_per_mm: float, read_digit=None) -> RoomReading:
    """The reading of one room (a ``sheets.dungeon.RoomCell``) from the sheet's ink map.

    ``read_digit(crop, px_per_mm, radius_mm=...) -> (digit | None, confidence)`` reads the round number.
    """
    crop = marked = room_crop(ink, cell.rect, px_per_mm)
    if cell.mark is not None:
        crop = _without_mark(crop, cell, px_per_mm)
    if crop.max(initial=0.0) < FAINT:
        # Nothing anywhere in the room that any test below would count: most rooms of a sheet.
        return RoomReading(cell.room.name, strengths={side: 0.0 for side in SIDES})
    size = crop.shape[0]
    whole = crop
    digit_crop, crop, beside_number, pieces = _split_round_box(crop, cell, px_per_mm)
    strengths = {side: _probe(crop, side) for side in SIDES}
    exits = "".join(side for side in SIDES if strengths[side] >= LINK)
    # A corner drawn as a straight line from one side's middle to the next's runs through the edges of both
    # probes, not along them.
    chord = _chord_corner(crop, whole, px_per_mm) if len(exits) < 2 else ""
    exits = chord or exits
    # A side whose stroke went with the round number (written touching it) is asked about, not dropped.
    doubts = [_LINK_QUESTIONS[side] for side in SIDES if side not in chord and (NO_LINK < strengths[side] < LINK
              or (strengths[side] <= NO_LINK and _went_with_number(beside_number, side)))]
    # A side linked only just (``LINK_SURE``) is asked about too.
    doubts += [_LINK_QUESTIONS[side] for side in exits if side not in chord and strengths[side] < LINK_SURE]
    # A side linked only by ink beside the round box: a number written large, its tail in the side's probe.
    # (A corner drawn straight from the left side to the top passes the round box: found as one line, its
    # ends are no number's tail.)
    doubts += [_LINK_QUESTIONS[side] for side in exits if side not in chord
               and _LINK_QUESTIONS[side] not in doubts and _beside_number(crop, cell, px_per_mm, side)]
    # ... or by a number written larger still, whose strokes run on from the round box into the probe, an
    # arm added to a path: read without that arm, and asked about. (A dead end's stub the number was written
    # touching is not asked about so.)
    if len(exits) >= 2:
        number_only = _number_only(whole, cell, px_per_mm, exits.replace(chord, ""), pieces)
        doubts += [_LINK_QUESTIONS[side] for side in number_only if _LINK_QUESTIONS[side] not in doubts]
        if len(number_only) == 1:       # (both sides beside the box so: more likely a corner drawn past it)
            exits = exits.replace(number_only, "")
    # A side linked only by what crosses out the room's Diamond or Emerald, drawn beyond its box.
    if cell.mark is not None and exits:
        doubts += [_LINK_QUESTIONS[side] for side in _cross_out_only(marked, cell, px_per_mm, exits.replace(chord, ""))
                   if _LINK_QUESTIONS[side] not in doubts]
    confidence = min([1.0] + [_margin(strengths[side]) for side in SIDES if side not in chord])
    area = float((crop >= INKED).sum()) / (px_per_mm ** 2)     # mm² of ink outside the round box
    inner = _without_overshoots(crop, px_per_mm) if not exits or area >= X_MM2 else crop
    exits, trap, confidence, doubts = _path_or_trap(crop, inner, area, exits, confidence, doubts, px_per_mm)
    # A side whose stroke is joined to none of the others' strokes: asked about when it crosses its probe band
    # only in part, or lies far from them.
    apart = _apart(whole, exits, px_per_mm) if len(exits) >= 2 and not trap else ""
    if any(strengths[side] >= APART_STRENGTH for side in apart):      # (far apart is apart at the nearer reach)
        far = _apart(whole, exits, px_per_mm, FAR_APART_MM)
        apart = [side for side in apart if strengths[side] < APART_STRENGTH or side in far]
    doubts += [_LINK_QUESTIONS[side] for side in apart if _LINK_QUESTIONS[side] not in doubts]
    written = _written(digit_crop, cell.round_box[2], px_per_mm)
    if not exits and not trap and float((_digit_off_walls(digit_crop, cell, size, px_per_mm) >= INKED).sum()) \
            >= 2.0 * px_per_mm ** 2:
        doubts.append(_ROUND_ALONE)
        confidence = min(confidence, 0.4)
        # Something was drawn here; only ink that looks a little like an X makes a Trap likely (a path read
        # as nothing is this sheet's own doubt).
        inner = _off_walls(inner, px_per_mm)
        if float((inner >= INKED).sum()) / px_per_mm ** 2 >= 2.5 and _xness(inner, px_per_mm)[0] >= 0.35:
            doubts.append(_FAINT_X)
    stray = _unexplained(crop, exits, size, px_per_mm) if exits else 0.0
    if stray > 6.0:
        doubts.append(f"{stray:.0f} mm² {_STRAY}")
        confidence = min(confidence, max(0.2, 1.0 - stray / 15.0))
    round_number = None
    if read_digit is not None and (exits or trap):
        round_number, digit_conf = read_digit(digit_crop, px_per_mm, radius_mm=cell.round_box[2])
        if round_number is not None and digit_conf < SURE:
            round_number = None
    if doubts:
        confidence = min(confidence, 0.5)        # a doubt put in words always reaches a person
    return RoomReading(cell.room.name, exits, trap, round_number, round(float(confidence), 3),
                       tuple(doubts), {k: round(float(v), 3) for k, v in strengths.items()}, written)


def _path_or_trap(crop: np.ndarray, inner: np.ndarray, area: float, exits: str, confidence: float, doubts: list,
                  px_per_mm: float) -> tuple[str, bool, float, list]:
    """What a room's ink is, from the ``exits`` its probes found with their ``confidence`` and ``doubts``: a
    path, a Trap ``X`` or nothing, as (exits, trap, confidence, doubts).

    ``area`` is the mm² of ink outside the round box; ``inner`` the ink without the neighbours' overshoots
    (the room's ink as it is, when it holds a path and too little ink for an ``X``)."""
    trap = False
    crossed = _crossed(inner, px_per_mm) if area >= X_MM2 else None
    wavy = _wavy_path(inner, exits) if crossed is not None else ""
    if wavy:
        crossed = None
        if wavy == "asked":
            doubts = doubts + [_WAVY_OR_X]
            confidence = min(confidence, 0.4)
    if crossed is not None and exits and _xness(inner, px_per_mm)[0] < CROSSED_AXIS:
        crossed = None
        doubts = doubts + [_DEAD_END_OR_X]
        confidence = min(confidence, 0.3)
    if crossed is not None:
        # Two strokes slanting opposite ways and nearly nothing along the room's axes: an X, however its
        # arms lean, wherever they end and whichever sides' probes they pass through.
        exits, trap, confidence, doubts = "", True, crossed, []
    elif not exits:
        trap, trap_conf, trap_doubt, explained = _read_trap(inner, px_per_mm)
        if explained:
            confidence, doubts = trap_conf, trap_doubt
        else:
            confidence = min(confidence, trap_conf)
            doubts += trap_doubt
    elif len(exits) == 1 and _centre_ink(crop) < 0.25:
        doubts.append(STUB_DOUBT)
        confidence = min(confidence, 0.4)
    elif len(exits) == 1 and area >= X_MM2:
        xness, coverage = _xness(inner, px_per_mm)
        if xness >= 0.75:
            # An X leaning so that one arm runs near a side's midpoint: its ink reaches out along the
            # diagonals, where a dead end's stub and bar run along the room's axes.
            exits, trap = "", True
            confidence = min(1.0, 0.5 + confidence) * 0.75
            if _is_x(xness, coverage):
                doubts = []          # what the other sides' probes met is the X's arms
        elif xness >= 0.5:
            doubts.append(_DEAD_END_OR_X)
            confidence = min(confidence, 0.3)
    return exits, trap, confidence, doubts


_SIDE_WORDS = {"N": "top", "E": "right", "S": "bottom", "W": "left"}
_LINK_QUESTIONS = {side: f"is there a stroke to the {word} side?" for side, word in _SIDE_WORDS.items()}


def link_question(side: str) -> str:
    """The doubt a reading holds about whether a stroke runs to ``side`` (N, E, S or W)."""
    return _LINK_QUESTIONS[side]


STUB_DOUBT = "a stroke reaches the side but not the middle of the room: a dead end?"
_UNCLEAR_MARK = "a mark that is neither a clear path nor a clear X"
_DEAD_END_OR_X = "a dead end, or a Trap X with an arm near the side?"
_ROUND_ALONE = "a round number seems written here, but no path or X was read"
_SMALL_MARK = "a small mark in the room: a smudge, or something drawn?"
_UNWRITTEN_DOUBTS = (_SMALL_MARK, *_LINK_QUESTIONS.values())
_UNWRITTEN_PATH = "no round number is written here: is a path drawn, or do the neighbours' strokes run on into it?"
_STRAY = "of ink that is not part of the path read"
_FAINT_X = "faint strokes in it may be a Trap X"
_WAVY_OR_X = "a path drawn wavy, or a Trap X?"
LONE_X = "a path linked to nothing around it, its strokes slanting both ways: is it a Trap X?"
WASHED_AROUND = ("read as empty, but the print of the rooms around it cannot be seen (glare, or a deep shadow?), "
                 "which may have washed out what is drawn here too: is anything drawn in it?")
WASHED_WRITTEN = ("read as empty, but a round number seems written in it, and the print of a room beside it cannot "
                  "be seen (glare, or a deep shadow?), which may have washed out its path too: is anything drawn "
                  "in it?")
_TRAP_DOUBTS = (_UNCLEAR_MARK, _DEAD_END_OR_X, _FAINT_X, _WAVY_OR_X, LONE_X, WASHED_AROUND, WASHED_WRITTEN)
STUB_MM2 = 14.0         # a dead end's stub and its bar, at most (outside the round box)
STUB_DEPTH = 0.42       # ... all within this share of the room from its side
STUB_OWN_DEPTH = 0.25   # a stroke this deep is no neighbour's overshoot (a hand's runs 3.5 mm past a side at most)
STUB_BAR = 0.16         # ... nor one with a bar this long across its end
STUB_CONFIDENCE = 0.85
STUB_SPAN = 0.2         # a stub crosses its side this near the side's middle (the probe's span, 0.15, and some)
ARC_SPREAD = 0.4        # a stroke from a side reaching this share of the room off its axis runs on to a side beside it
WRITTEN_STUB_MM2 = 21.0  # ... in a room whose round number is read (a broad pen's stub and bar)
BROKEN_ON_MM2 = 0.4      # ... with no more than this of ink in line beyond it (a faint path broken by the print)
IN_LINE_MM = 1.0         # a broken path's pieces lie in line with each other to within this


WRITES_ROUNDS_SHARE = 0.8   # a player who writes round numbers: in this share of the rooms read as drawn ...
WRITES_ROUNDS_FROM = 6      # ... of at least this many


def writes_rounds(readings: list[RoomReading]) -> bool:
    """Whether the player writes the round number in the rooms they draw in, as the rules ask: in most of
    the rooms read surely as a path or a Trap, the round box holds writing."""
    drawn = [reading for reading in readings if (reading.exits or reading.trap) and reading.confidence >= SURE]
    return len(drawn) >= WRITES_ROUNDS_FROM and sum(r.written for r in drawn) >= WRITES_ROUNDS_SHARE * len(drawn)


def settle(reading: RoomReading, ink: np.ndarray, cell, px_per_mm: float, writes: bool) -> RoomReading:
    """A room's reading once what the sheet as a whole says is known: whether the player ``writes`` round
    numbers (``writes_rounds``), which makes a clean round box evidence (``settle_unwritten``,
    ``question_unwritten``), and a dead end's stub told from a neighbour's overshoot (``settle_stub``)."""
    if writes:
        reading = settle_unwritten(reading)
    reading = settle_stub(reading, ink, cell, px_per_mm, writes)
    return question_unwritten(reading) if writes else reading


def settle_unwritten(reading: RoomReading) -> RoomReading:
    """For a player who writes round numbers (``writes_rounds``): a room where nothing was read surely, only
    a small mark or a stroke that half reaches a side's probe, and whose round box is clean, holds a smudge,
    the ghost of a wiped stroke or a neighbour's stroke poking in across a side, not a path of its own."""
    if reading.written or reading.exits or reading.trap or not reading.doubts \
            or any(doubt not in _UNWRITTEN_DOUBTS for doubt in reading.doubts):
        return reading
    return replace(reading, confidence=UNWRITTEN_CONFIDENCE, doubts=())


def question_unwritten(reading: RoomReading) -> RoomReading:
    """For a player who writes round numbers (``writes_rounds``): a room read as a path whose round box is
    clean is asked about, as its strokes may be the neighbours' running on into it."""
    if reading.written or not reading.exits or reading.trap or _UNWRITTEN_PATH in reading.doubts:
        return reading
    return replace(reading, confidence=min(reading.confidence, 0.45), doubts=(*reading.doubts, _UNWRITTEN_PATH))


def _sides_asked_too(reading: RoomReading, sides) -> RoomReading:
    """A stub's reading, not settled, asked about ``sides`` as well (each question once)."""
    doubts = reading.doubts + tuple(_LINK_QUESTIONS[side] for side in sides
                                    if _LINK_QUESTIONS[side] not in reading.doubts)
    return replace(reading, doubts=doubts, confidence=min(reading.confidence, 0.5))


def settle_stub(reading: RoomReading, ink: np.ndarray, cell, px_per_mm: float, writes: bool = False
                ) -> RoomReading:
    """A room whose only ink is a short stroke from one side's middle that stops inside the room (doubted
    only as a dead end, or as a link the probe found part of), read as that side's dead end without a
    doubt when it cannot be a neighbour's stroke overshooting the passage: a round number is read in the
    room (the player drew here), or it reaches deeper than a hand overshoots, or ends in a bar, or nothing
    across that side runs up to it. Other neighbours' strokes poking in across other sides are no part of it.
    For a player who ``writes`` round numbers, a room whose round box is clean is never settled so: its
    stroke is more likely a neighbour's overshoot."""
    # (The strengths kept are rounded: a side just short of LINK may read as LINK here, and is still unsure.)
    unsure = [side for side in SIDES if side not in reading.exits and reading.strengths.get(side, 0.0) > NO_LINK]
    sides = set(reading.exits) | set(unsure)
    stub_doubts = (STUB_DOUBT, *_LINK_QUESTIONS.values())
    if reading.trap or len(sides) != 1 or not reading.doubts or any(d not in stub_doubts for d in reading.doubts) \
            or (writes and not reading.written):
        return reading
    side = sides.pop()
    crop = room_crop(ink, cell.rect, px_per_mm)
    if cell.mark is not None:
        crop = _without_mark(crop, cell, px_per_mm)
    # A stroke from the side that runs on unbroken to another side's edge is no dead end's stub: a corner
    # drawn as an arc through the round box, which the box's blanking cuts in two (seed 738, messy: C7).
    # Asked about that side too. (Only a stroke crossing the side near its middle, where the stub does: the
    # round number, written high in its box, also touches the top edge, and the left one.)
    through = _joined_to_side(crop, side, STUB_SPAN)[0] >= INKED
    edge = max(1, int(round(PROBE_DEPTH[0] * crop.shape[0])))
    reached = [other for other in SIDES if other != side and _near_side(through, other, edge).any()]
    if reached:
        return _sides_asked_too(reading, reached)
    _, crop, beside_number, _ = _split_round_box(crop, cell, px_per_mm)
    if any(_went_with_number(beside_number, other) for other in SIDES if other != side):
        # A stroke to another side went with the round number, written touching it (seed 901, pencil: a corner
        # drawn as an arc past the number, broken beside it): the question about that side stays.
        return reading
    crop = _without_overshoots(crop, px_per_mm, keep=side)
    most = STUB_MM2
    if reading.round is not None:
        # The round number says the room was drawn in: ink not joined to the stroke from the side (the
        # number spilling out of its circle, a speck) does not make it more than a dead end, and a broad
        # pen's stub and bar cover more than a fine one's.
        crop, rest = _joined_to_side(crop, side)
        if rest.sum() > OVERSHOOT_MM2 * px_per_mm ** 2 or _runs_on(rest, crop, side) > BROKEN_ON_MM2 * px_per_mm ** 2:
            return reading
        most = WRITTEN_STUB_MM2
    ys, xs = np.nonzero(crop >= INKED)
    size = crop.shape[0]
    depth = {"N": ys, "S": size - 1 - ys, "W": xs, "E": size - 1 - xs}[side] / size
    lateral = {"N": xs, "S": xs, "W": ys, "E": ys}[side] / size
    if len(xs) == 0 or len(xs) / px_per_mm ** 2 > most or depth.max() > STUB_DEPTH:
        return reading
    # A stroke from the side that runs on across the room nearly to a side beside it: a corner drawn as an arc
    # that cuts across the room (a messy hand's), short of that side's probe. Asked about that side too.
    joined = crop if reading.round is not None else _joined_to_side(crop, side)[0]
    ends = np.nonzero(joined >= INKED)[1 if side in "NS" else 0] / size - 0.5
    if ends.size and np.abs(ends).max() > ARC_SPREAD:
        beside = ("E" if ends[np.abs(ends).argmax()] > 0 else "W") if side in "NS" else \
            ("S" if ends[np.abs(ends).argmax()] > 0 else "N")
        return _sides_asked_too(reading, beside)
    # Deeper than any overshoot, or finished with a bar across its end: surely this room's own dead end,
    # even where the neighbour's path runs up to the same side (as a dead end's neighbour's usually does).
    deep = depth[np.abs(lateral - 0.5) <= 0.2].max(initial=0.0) >= STUB_OWN_DEPTH
    end = lateral[depth >= depth.max() - 0.08]
    barred = end.size > 0 and float(np.ptp(end)) >= STUB_BAR
    if not (deep or barred or reading.round is not None):
        step = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[side]
        beyond = replace(cell.rect, x=cell.rect.x + step[0] * cell.rect.w, y=cell.rect.y + step[1] * cell.rect.h)
        across = room_crop(ink, beyond, px_per_mm) if beyond.x >= 0 and beyond.y >= 0 else np.zeros((1, 1))
        if across.shape == crop.shape and _probe(across, OPPOSITE[side]) > NO_LINK:
            return reading               # the neighbour's stroke reaches this side: perhaps its overshoot
    return RoomReading(reading.room, side, False, reading.round, STUB_CONFIDENCE, (), reading.strengths,
                       reading.written)


def only_poking_in(ink: np.ndarray, cell, px_per_mm: float, side: str) -> bool:
    """Whether the ink by which ``side`` reads linked is only a short piece poking in across it, in the
    side's probe, within ``OVERSHOOT_DEPTH`` of it and joined to nothing else, while the room holds ink of
    its own elsewhere: what a neighbour's stroke running on past the side leaves, where a faint path broken
    into pieces leaves more of them in line towards the middle."""
    crop = room_crop(ink, cell.rect, px_per_mm)
    size = crop.shape[0]
    # First the common case, cheaply: a stroke runs on from the side past where an overshoot ends.
    near, far = int(OVERSHOOT_DEPTH * size) + 2, int(0.38 * size)
    a, b = int((0.5 - PROBE_HALF_WIDTH) * size), int((0.5 + PROBE_HALF_WIDTH) * size) + 1
    strip = _lane(crop, side, near, far, a, b)
    if strip.size and (strip >= INKED).any(axis=1).all():
        return False
    if cell.mark is not None:
        crop = _without_mark(crop, cell, px_per_mm)
    whole, crop = crop, _split_round_box(crop, cell, px_per_mm)[1]
    if side in _chord_corner(crop, whole, px_per_mm):
        return False        # a corner drawn straight leaves the side aslant, and may pass the round number
    joined, rest = _joined_to_side(crop, side)
    along = np.arange(size)
    depth = np.broadcast_to({"N": along[:, None], "S": size - 1 - along[:, None],
                             "W": along[None, :], "E": size - 1 - along[None, :]}[side], crop.shape)
    lateral = np.broadcast_to({"N": along[None, :], "S": along[None, :],
                               "W": along[:, None], "E": along[:, None]}[side], crop.shape)
    count, labels = cv2.connectedComponents((joined >= INKED).astype(np.uint8), connectivity=8)
    window = np.abs(lateral - size / 2) <= PROBE_HALF_WIDTH * size
    inside = label_set(labels[window], count)
    inside[0] = False
    piece = inside[labels]
    if not piece.any() or not rest.any():
        return False
    reach = int(depth[piece].max())
    if reach > OVERSHOOT_DEPTH * size or piece.sum() > OVERSHOOT_MM2 * px_per_mm ** 2:
        return False
    # Between the piece and the room's middle (short of a bar across it, which wobbles), a faint path broken
    # into pieces leaves some ink in line with it (a pencil's, or in dim light); a neighbour's stroke run on
    # leaves clean paper.
    wobble = IN_LINE_MM * px_per_mm
    between = (lateral >= lateral[piece].min() - wobble) & (lateral <= lateral[piece].max() + wobble) \
        & (depth > reach + 0.05 * size) & (depth < 0.38 * size)
    return int((between & (crop >= FAINT)).sum()) <= BROKEN_ON_MM2 * px_per_mm ** 2


INTO_BAND_LINES = 2   # a side's probe lines left between a room's middle and a cleared band that must all be crossed
ACROSS_SHARE = 0.6    # ... by a stroke across them, not one along them, inked over no more than this share of each


def runs_into(ink: np.ndarray, cell, px_per_mm: float, side: str, band: tuple[int, int]) -> bool:
    """Whether a stroke runs towards ``side`` of ``cell`` into a band of the page cleared of ink beside it
    (``band``: its first and last page row, or column for the W and E sides; a fold's crease): every line
    of the side's probe (``_probe_band``) between the room's middle and the band, at least
    ``INTO_BAND_LINES`` of them, crossed by ink (``INKED``) but not inked along (``ACROSS_SHARE``), the
    round number left out. The probe's lines under the band say nothing, and those beyond it may lie under
    the side's print; in the lines left, only a stroke to the side crosses so near its midpoint (a Trap's
    arms run to the corners)."""
    crop = _room_strokes(ink, cell, px_per_mm)
    rows, columns = _probe_band(crop.shape[0], side)
    lines, across = (columns, rows) if side in "WE" else (rows, columns)
    start = int(round((cell.rect.x if side in "WE" else cell.rect.y) * px_per_mm))
    first, last = band[0] - start, band[1] - start
    kept = [line for line in range(lines.start, lines.stop) if (line > last if side in "NW" else line < first)]
    if len(kept) < INTO_BAND_LINES:
        return False
    inked = (crop[:, kept][across].T if side in "WE" else crop[kept][:, across]) >= INKED
    return bool(inked.any(axis=1).all() and (inked.sum(axis=1) <= ACROSS_SHARE * inked.shape[1]).all())


HEADING_FROM = 0.05     # a stroke heading towards a side is sought from this far (of the room) off its middle


def heading_to(ink: np.ndarray, cell, px_per_mm: float, side: str, least: float = INKED) -> float:
    """How far a stroke runs from the room's middle towards ``side`` short of its probe: the share of the
    lines across the lane between them (``PROBE_HALF_WIDTH`` either side of the line through the side's
    midpoint, from ``HEADING_FROM`` off the middle to the probe) that ink of ``least`` strength crosses,
    the round number left out."""
    crop = _room_strokes(ink, cell, px_per_mm)
    size = crop.shape[0]
    d1 = int(round(PROBE_DEPTH[1] * size))
    m = int(round((0.5 - HEADING_FROM) * size))
    lo, hi = int(round((0.5 - PROBE_HALF_WIDTH) * size)), int(round((0.5 + PROBE_HALF_WIDTH) * size))
    if m <= d1:
        return 0.0
    return float((_lane(crop, side, d1, m, lo, hi) >= least).any(axis=1).mean())


def _room_strokes(ink: np.ndarray, cell, px_per_mm: float) -> np.ndarray:
    """A room's ink (a copy) without its printed mark and its round number: the strokes of its path."""
    crop = room_crop(ink, cell.rect, px_per_mm)
    if cell.mark is not None:
        crop = _without_mark(crop, cell, px_per_mm)
    return _split_round_box(crop, cell, px_per_mm)[1]


def _lane(room: np.ndarray, side: str, near: int, far: int, lo: int, hi: int) -> np.ndarray:
    """The part of a room's array from ``near`` to ``far`` pixels in from ``side``, between ``lo`` and ``hi``
    along it, turned so that each row is a line parallel to the side (a view)."""
    size = room.shape[0]
    return {"N": room[near:far, lo:hi], "S": room[size - far:size - near, lo:hi],
            "W": room[lo:hi, near:far].T, "E": room[lo:hi, size - far:size - near].T}[side]


def _near_side(room: np.ndarray, side: str, width: int) -> np.ndarray:
    """The strip of a room's array within ``width`` pixels of ``side``'s edge (a view)."""
    return {"N": room[:width], "S": room[-width:], "W": room[:, :width], "E": room[:, -width:]}[side]


def _joined_to_side(crop: np.ndarray, side: str, span: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The room with only the strokes that start at ``side`` (within ``PROBE_DEPTH[0]`` of its edge; with
    ``span``, within that share of the room either side of the side's middle), and the inked pixels of the
    others (a mask)."""
    inked = crop >= INKED
    count, labels = cv2.connectedComponents(inked.astype(np.uint8), connectivity=8)
    band = max(1, int(round(PROBE_DEPTH[0] * crop.shape[0])))
    strip = _near_side(labels, side, band)
    if span is not None:
        a, b = int(round((0.5 - span) * crop.shape[0])), int(round((0.5 + span) * crop.shape[0]))
        strip = strip[:, a:b] if side in "NS" else strip[a:b]
    touching = label_set(strip, count)
    touching[0] = False
    keep = touching[labels]
    return np.where(keep, crop, 0.0), inked & ~keep


def _runs_on(rest: np.ndarray, stub: np.ndarray, side: str) -> int:
    """Pixels of ``rest`` (ink not joined to the stub from ``side``) in line with the stub and beyond its
    end: the pieces of a faint path broken by the print it crosses, which a dead end does not have."""
    size = rest.shape[0]
    along = np.arange(size) / size
    depth = {"N": along[:, None], "S": 1 - along[:, None], "W": along[None, :], "E": 1 - along[None, :]}[side]
    lateral = {"N": along[None, :], "S": along[None, :], "W": along[:, None], "E": along[:, None]}[side]
    ys, xs = np.nonzero(stub >= INKED)
    reach = float(np.broadcast_to(depth, rest.shape)[ys, xs].max(initial=0.0))
    corridor = (np.abs(lateral - 0.5) <= 0.2) & (depth > reach + 0.05)
    return int((rest & corridor).sum())


def _margin(strength: float) -> float:
    """Confidence in one side's reading: sure outside the band between ``NO_LINK`` and ``LINK``,
    unsure (below ``SURE``) inside it, least in its middle."""
    if strength <= NO_LINK or strength >= LINK:
        return 1.0
    middle, half = (LINK + NO_LINK) / 2, (LINK - NO_LINK) / 2
    return 0.5 * abs(strength - middle) / half


def _written(digit: np.ndarray, radius_mm: float, px_per_mm: float) -> bool:
    """Whether a round number is written in the round box (``digit``, the window ``_split_round_box``
    gives, centred on the circle): faint ink inside the circle, well within its printed line. Around
    the line, the print shown a little off (a folded sheet's panel moved, a dim photo's grain) leaves
    faint ink in many a clean box: of 1,993 rooms of folded photos with no number, 37 held 0.5 mm² of it
    in the whole window and 9 within 0.7 of the radius; of 751 in dim photos, 182 and 7; every box with
    a number written held over 1 mm² within it, but under a pen, a thumb or glare (300 photos kept from
    earlier runs of the accuracy benchmark, every condition)."""
    half = digit.shape[0] // 2
    inside = np.zeros(digit.shape, np.uint8)
    cv2.circle(inside, (half, half), int(round(WRITTEN_WITHIN * radius_mm * px_per_mm)), 1, -1)
    return float(((digit >= FAINT) & (inside == 1)).sum()) >= UNWRITTEN_MM2 * px_per_mm ** 2


def _round_window(crop: np.ndarray, cell, px_per_mm: float) -> tuple[tuple[int, int], np.ndarray]:
    """The round box's middle in a room's crop (pixels) and the window round it that the digit is read from."""
    cx, cy, r = cell.round_box
    x, y = int(round((cx - cell.rect.x) * px_per_mm)), int(round((cy - cell.rect.y) * px_per_mm))
    return (x, y), _window(crop, x, y, int(round((r + 1.5) * px_per_mm)))


def number_written(ink: np.ndarray, cell, px_per_mm: float) -> bool:
    """Whether faint ink in a room's round box says a round number is written there (``_written``): asked of
    a room read empty, which ``read_room`` does not look at so closely."""
    return _written(_round_window(room_crop(ink, cell.rect, px_per_mm), cell, px_per_mm)[1], cell.round_box[2],
                    px_per_mm)


def _split_round_box(crop: np.ndarray, cell, px_per_mm: float
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, tuple[int, np.ndarray]]:
    """The crop around the round box (for the digit), and the room without the round number: strokes
    lying mostly in or near the circle are the number; of any other stroke, only the circle is blanked.
    Third, when a stroke was taken for the number, the room with only what lies near the circle blanked:
    where a path's stroke was written touching the number, the part of it beyond. Fourth, the pieces of
    ink of ``crop`` it told apart (count, labels: ``cv2.connectedComponents`` of its inked pixels)."""
    (x, y), digit = _round_window(crop, cell, px_per_mm)
    r = cell.round_box[2]
    near = np.zeros(crop.shape, np.uint8)
    cv2.circle(near, (x, y), int(round((r + DIGIT_REACH_MM) * px_per_mm)), 1, -1)
    count, labels, stats, _ = cv2.connectedComponentsWithStats((crop >= INKED).astype(np.uint8), connectivity=8)
    cleaned, beside = crop.copy(), None
    if count > 1:
        inside = np.bincount(labels[near == 1], minlength=count)
        reach = 2 * (r + DIGIT_REACH_MM) * px_per_mm
        compact = (stats[:, cv2.CC_STAT_WIDTH] <= reach) & (stats[:, cv2.CC_STAT_HEIGHT] <= reach)
        number = (inside / np.maximum(stats[:, cv2.CC_STAT_AREA], 1) >= 0.7) & compact
        number &= ~_along_probes(labels, count, x / crop.shape[1], y / crop.shape[0])
        number[0] = False
        if number.any():
            beside = np.where(near == 1, 0.0, crop)
            cleaned[number[labels]] = 0.0
    cv2.circle(cleaned, (x, y), int(round((r + ROUND_MARGIN_MM) * px_per_mm)), 0.0, -1)
    return digit, cleaned, beside, (count, labels)


NUMBER_REACH = 2.0    # a side's probe ink within this many times the ring's radius of its centre (a number
                      # written up to twice the ring's size) ...
NUMBER_TAIL = 0.9     # ... this much of it, may be the number's tail ...
SIDE_EDGE = 0.03      # ... unless it is joined to ink this near the side's edge beyond that reach (a stroke
                      # drawn from the side)


def _went_with_number(beside_number: np.ndarray | None, side: str) -> bool:
    """Whether a stroke to ``side`` went with the round number (written touching it): ``beside_number``, the
    ink ``_split_round_box`` took with the number, meets that side's probe."""
    return beside_number is not None and _probe(beside_number, side) > NO_LINK


def _beside_number(crop: np.ndarray, cell, px_per_mm: float, side: str) -> bool:
    """Whether the ink in ``side``'s probe lies (nearly) all within ``NUMBER_REACH`` times the ring's radius of
    its centre, none of it joined to a stroke that starts at the side (meeting the side's edge beyond that
    reach)."""
    cx, cy, r = cell.round_box
    x, y = (cx - cell.rect.x) * px_per_mm, (cy - cell.rect.y) * px_per_mm
    rows, cols = _probe_band(crop.shape[0], side)
    ys, xs = np.nonzero(crop[rows, cols] >= INKED)
    reach = NUMBER_REACH * r * px_per_mm
    near = np.hypot(xs + cols.start - x, ys + rows.start - y) <= reach
    if ys.size == 0 or float(near.mean()) < NUMBER_TAIL:
        return False
    count, labels = cv2.connectedComponents((crop >= INKED).astype(np.uint8), connectivity=8)
    edge = max(1, int(round(SIDE_EDGE * crop.shape[0])))
    # A stroke from the side meets its edge beyond the number's reach (a number written larger than its box
    # may touch the edge too, within it).
    strip = _near_side(labels, side, edge)
    at_rows, at_cols = np.nonzero(strip)
    size = crop.shape[0]
    beyond = np.hypot(at_cols + (size - edge if side == "E" else 0) - x,
                      at_rows + (size - edge if side == "S" else 0) - y) > reach
    at_side = label_set(strip[at_rows[beyond], at_cols[beyond]], count)
    at_side[0] = False
    return not at_side[labels[rows, cols]].any()


NUMBER_CORE = 0.8     # ink within this share of the round box's radius of its centre is the round number's
RING_CUT_MM = 0.8     # the printed ring may cut a digit's stroke in two: both ends within this of the ring ...
RING_GAP_MM = 1.6     # ... and this near each other (a stroke crossing the ring aslant loses more of itself)


def _with_ring_cut(number: np.ndarray, labels: np.ndarray, count: int, on_ring: np.ndarray,
                   px_per_mm: float) -> np.ndarray:
    """``number`` (per piece of ink, whether it is the round number's) with the pieces the printed ring cut
    from its strokes. In a dim or pencil photo the ring takes the ink where a digit's stroke crosses it: a
    piece with an end across the ring from the number's ink, near it, is the number's too; but not a path's
    arm passing outside the ring (it ends by the rest of the path, not in open paper). ``on_ring``: the
    inked pixels within RING_CUT_MM of the ring."""
    ringed = label_set(labels[on_ring], count)
    ringed[0] = False
    if not (ringed & ~number).any():
        return number
    reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(round(RING_GAP_MM * px_per_mm)) + 1,) * 2)
    apart = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * int(round(RING_GAP_MM / 2 * px_per_mm)) + 1,) * 2)
    number = number.copy()
    for _ in range(3):          # (the ring may leave a speck of the stroke between the two pieces)
        cut = on_ring & number[labels]
        if not cut.any():
            break
        more = label_set(labels[(cv2.dilate(cut.astype(np.uint8), reach) == 1) & on_ring], count) & ~number
        more[0] = False
        for piece in np.flatnonzero(more):
            around = label_set(labels[cv2.dilate((labels == piece).astype(np.uint8), apart) == 1], count)
            around[0] = False
            more[piece] = not (around & ~number & ~ringed).any()
        if not more.any():
            break
        number |= more
    return number


@lru_cache(maxsize=256)
def _ring_zone(size: int, x: float, y: float, radius: float, reach: float) -> np.ndarray:
    """The pixels of a ``size``-square room crop within ``reach`` of the round box's ring (all in pixels);
    the same for a room of a layout from photo to photo. Read-only."""
    rows, cols = np.ogrid[:size, :size]
    zone = np.abs(np.hypot(cols - x, rows - y) - radius) <= reach
    zone.setflags(write=False)
    return zone


def _number_only(whole: np.ndarray, cell, px_per_mm: float, sides: str, pieces: tuple[int, np.ndarray]) -> str:
    """Those of ``sides`` whose ink in the probe band all belongs to strokes that run through the round box
    (or that the printed ring cut from such a stroke) and link no other side: a round number written so
    large that it reaches the probe (more than ``_beside_number`` allows). A path's stroke goes to a side's
    middle and never into the circle, but for a corner drawn straight past it, which links the other side
    too, as does a stroke the number was written touching. Only the two sides nearest the box can be so
    reached. Other ink may lie in the band too, if by itself it would not link the side (a speck of the
    number's stroke that a dim photo broke off). ``whole``: the room's ink with the number in it;
    ``pieces``: its pieces of ink, as ``_split_round_box`` returns them."""
    size = whole.shape[0]
    cx, cy, r = cell.round_box
    x, y = (cx - cell.rect.x) * px_per_mm, (cy - cell.rect.y) * px_per_mm
    inked = whole >= INKED
    bands = {side: _probe_band(size, side) for side in sides
             if side in ("N" if y < size / 2 else "S") + ("W" if x < size / 2 else "E")}
    bands = {side: band for side, band in bands.items() if inked[band].any()}
    if not bands:
        return ""
    count, labels = pieces
    core = np.zeros(whole.shape, np.uint8)
    cv2.circle(core, (int(round(x)), int(round(y))), max(1, int(round(NUMBER_CORE * r * px_per_mm))), 1, -1)
    number = label_set(labels[(core == 1) & inked], count)
    number[0] = False
    number = _with_ring_cut(number, labels, count,
                            _ring_zone(size, x, y, r * px_per_mm, RING_CUT_MM * px_per_mm) & inked, px_per_mm)
    return _linked_only_by(number, whole, inked, labels, count, bands, rest=NO_LINK, linked_anyway=True)


def _linked_only_by(chosen: np.ndarray, whole: np.ndarray, inked: np.ndarray, labels: np.ndarray, count: int,
                    bands: dict, others: float = NO_LINK, rest: float | None = None,
                    linked_anyway: bool = False) -> str:
    """Those sides (``bands``: side -> its probe band) whose ink in the probe band all belongs to the
    ``chosen`` pieces of ink (per label of ``labels``), pieces that by themselves reach no other side's
    probe beyond ``others``. With ``rest``, other ink may lie in the band too, so long as by itself it
    reaches less than ``rest`` into the probe. With ``linked_anyway``, the chosen pieces may reach another
    side that the other pieces link by themselves."""
    found = ""
    unchosen = None
    for side, band in bands.items():
        here = label_set(labels[band][inked[band]], count)
        here[0] = False
        ours, besides = here & chosen, here & ~chosen
        if not ours.any() or (besides.any() and (rest is None
                                                  or _probe(np.where(besides[labels], whole, 0.0), side) >= rest)):
            continue
        alone = np.where(ours[labels], whole, 0.0)
        reached = [other for other in SIDES if other != side and _probe(alone, other) > others]
        if reached and linked_anyway:
            if unchosen is None:
                kept = chosen.copy()
                kept[0] = True
                unchosen = np.where(kept[labels], 0.0, whole)
            reached = [other for other in reached if _probe(unchosen, other) < LINK]
        if not reached:
            found += side
    return found


def _along_probes(labels: np.ndarray, count: int, fx: float, fy: float) -> np.ndarray:
    """Per piece of ink, whether it runs from the middle of one of the two sides nearest the round box
    (at ``fx, fy`` of the room) through most of that side's probe depth: a piece of a path, which in a small
    room, or drawn off the middle, passes close enough to the circle to be taken for the number. (A digit
    written large may reach into the probe band, but not out to the side's edge, nor with most of its ink
    that near the side in the band rather than beside it.)"""
    size = labels.shape[0]
    core = slice(int(round((0.5 - PROBE_HALF_WIDTH) * size)), int(round((0.5 + PROBE_HALF_WIDTH) * size)) + 1)
    depth = int(round(PROBE_DEPTH[1] * size))
    edge = max(1, int(round(PROBE_DEPTH[0] * size)))
    near_side = labels[:depth] if fy < 0.5 else labels[size - depth:][::-1]
    beside = labels[:, :depth].T if fx < 0.5 else labels[:, size - depth:].T[::-1]
    along = np.zeros(count, bool)
    for strip in (near_side, beside):         # rows: lines parallel to the side, from the side inwards
        band = strip[:, core]
        present = np.zeros((count, band.shape[0]), bool)
        present[band, np.arange(band.shape[0])[:, None]] = True
        centred = np.bincount(band.ravel(), minlength=count) >= 0.5 * np.bincount(strip.ravel(), minlength=count)
        along |= (present.sum(axis=1) >= 0.5 * band.shape[0]) & present[:, :edge].any(axis=1) & centred
    return along


def _mark_pixels(cell, px_per_mm: float, grow: float) -> tuple[slice, slice]:
    """The rows and columns of a room crop that its Diamond's or Emerald's box covers, grown by ``grow`` mm."""
    box = cell.mark.grown(grow)
    x0, y0 = (box.x - cell.rect.x) * px_per_mm, (box.y - cell.rect.y) * px_per_mm
    x1, y1 = (box.right - cell.rect.x) * px_per_mm, (box.bottom - cell.rect.y) * px_per_mm
    return slice(max(0, int(y0)), int(np.ceil(y1))), slice(max(0, int(x0)), int(np.ceil(x1)))


CROSS_OUT_REACH = 0.5    # a cross-out's arms may reach this far into another side's probe (a path's stroke, fully)


def _cross_out_only(marked: np.ndarray, cell, px_per_mm: float, sides: str) -> str:
    """Those of ``sides`` whose ink in the probe band all belongs to strokes reaching into the room's Diamond
    or Emerald box, strokes that link no other side: a cross-out drawn large, or with a broad pen, beyond
    what ``_without_mark`` takes for one. No path enters the box by design; a path the cross-out touches
    links its other sides fully. Other ink may lie in the probe too, if without the cross-out the side
    would not be surely linked.
    ``marked``: the room's ink with the box and cross-out in it."""
    inked = marked >= INKED
    count, labels = cv2.connectedComponents(inked.astype(np.uint8), connectivity=8)
    box = _mark_pixels(cell, px_per_mm, 0.0)
    crossing = label_set(labels[box][inked[box]], count)
    crossing[0] = False
    if not crossing.any():
        return ""
    return _linked_only_by(crossing, marked, inked, labels, count,
                           {side: _probe_band(marked.shape[0], side) for side in sides}, CROSS_OUT_REACH, LINK)


def _without_mark(crop: np.ndarray, cell, px_per_mm: float) -> np.ndarray:
    """The room without its Diamond's or Emerald's box and the strokes crossing it out (read by
    ``scanner.marks``): strokes lying mostly in or near the box, and of any other stroke the box itself.
    No path enters the box by design."""
    rows, cols = _mark_pixels(cell, px_per_mm, MARK_REACH_MM)
    near = np.zeros(crop.shape, np.uint8)
    near[rows, cols] = 1
    count, labels, stats, _ = cv2.connectedComponentsWithStats((crop >= FAINT).astype(np.uint8), connectivity=8)
    cleaned = crop.copy()
    if count > 1:
        inside = np.bincount(labels[near == 1], minlength=count)
        within = ((stats[:, cv2.CC_STAT_LEFT] >= cols.start) & (stats[:, cv2.CC_STAT_TOP] >= rows.start)
                  & (stats[:, cv2.CC_STAT_LEFT] + stats[:, cv2.CC_STAT_WIDTH] <= cols.stop)
                  & (stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT] <= rows.stop))
        on_box = np.zeros(crop.shape, np.uint8)
        on_box[_mark_pixels(cell, px_per_mm, 0.0)] = 1
        in_box = np.bincount(labels[on_box == 1], minlength=count)
        area = np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
        # A cross-out touching a path (a corner's curve passes near the box) is one piece with it: kept; so
        # is a bit of a path passing beside the box.
        mark = (inside / area >= 0.7) & (in_box / area >= 0.3) & within
        mark[0] = False
        cleaned[mark[labels]] = 0.0
    cleaned[_mark_pixels(cell, px_per_mm, MARK_MARGIN_MM)] = 0.0
    return cleaned


def _window(image: np.ndarray, x: int, y: int, half: int) -> np.ndarray:
    """The (2 half + 1)-pixel square of ``image`` centred on (x, y), zero where it runs off the image."""
    window = np.zeros((2 * half + 1, 2 * half + 1), image.dtype)
    top, left = y - half, x - half
    rows = slice(max(top, 0), min(top + 2 * half + 1, image.shape[0]))
    cols = slice(max(left, 0), min(left + 2 * half + 1, image.shape[1]))
    window[rows.start - top:rows.stop - top, cols.start - left:cols.stop - left] = image[rows, cols]
    return window


def _probe(crop: np.ndarray, side: str) -> float:
    """How surely a stroke runs from the middle of ``side`` into the room: the share of the probe band's
    lines (parallel to the side) that the stroke crosses."""
    band = crop[_probe_band(crop.shape[0], side)]
    band = {"N": band, "S": band[::-1], "W": band.T, "E": band.T[::-1]}[side]     # lines parallel to the side
    per_line = (band * _lateral_weight(band.shape[1])).max(axis=1)
    return float(np.clip((per_line - FAINT) / (INKED + 0.15 - FAINT), 0, 1).mean())


def _probe_band(size: int, side: str) -> tuple[slice, slice]:
    """Where ``side``'s probe looks in a room ``size`` pixels square: ``PROBE_DEPTH`` in from the side,
    ``PROBE_HALF_WIDTH`` either side of its midpoint (rows, columns)."""
    d0, d1 = (int(round(f * size)) for f in PROBE_DEPTH)
    lo, hi = int(round((0.5 - PROBE_HALF_WIDTH) * size)), int(round((0.5 + PROBE_HALF_WIDTH) * size))
    return {"N": (slice(d0, d1), slice(lo, hi)), "S": (slice(size - d1, size - d0), slice(lo, hi)),
            "W": (slice(lo, hi), slice(d0, d1)), "E": (slice(lo, hi), slice(size - d1, size - d0))}[side]


@lru_cache(maxsize=16)
def _lateral_weight(width: int) -> np.ndarray:
    """Trust in ink across a probe: full near the side's midpoint, less towards the band's edges, where a
    round number or the arm of an X may reach but a stroke to the passage rarely runs."""
    t = np.abs(np.linspace(-PROBE_HALF_WIDTH, PROBE_HALF_WIDTH, width))
    weight = np.clip(1.0 - (t - 0.09) / 0.06 * 0.6, 0.4, 1.0)[None, :]
    weight.flags.writeable = False      # shared between calls
    return weight


JOIN_MM = 1.2          # a path's stroke broken by less than this (where it crossed the print, a lifted pen) is one
FAR_APART_MM = 2.5     # ... and a side's stroke filling its probe band, when it is this far from all the others
APART_STRENGTH = 0.85  # a side's stroke joined to no other side's is asked about when its probe is weaker than
                       # this: a player's own stroke, broken where it crosses the print, fills its probe band


def _apart(crop: np.ndarray, exits: str, px_per_mm: float, join_mm: float = JOIN_MM) -> str:
    """The sides of ``exits`` whose stroke in the probe band is joined to none of the other sides' strokes
    in the room: a path's segment is one line, so such a side's ink is something else (a neighbour's
    stroke run on past its side, print left by a sheet that moved, a fold's shadow) or the path broke off.
    Strokes count joined across gaps under ``join_mm`` (``JOIN_MM``; ``read_room`` also asks at
    ``FAR_APART_MM``)."""
    reach = max(1, int(round(join_mm * px_per_mm))) | 1
    inked = crop >= INKED
    joined = cv2.dilate(inked.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    bands = {side: _probe_band(crop.shape[0], side) for side in exits}
    pieces = {side: set(np.flatnonzero(label_set(labels[band][inked[band]], count)).tolist()) - {0}
              for side, band in bands.items()}
    return "".join(side for side in exits
                   if not pieces[side] & set().union(*(pieces[other] for other in exits if other != side)))


def _centre_ink(crop: np.ndarray) -> float:
    size = crop.shape[0]
    a, b = int(0.32 * size), int(0.68 * size)
    centre = np.where(crop[a:b, a:b] >= INKED, crop[a:b, a:b], 0.0)    # not a faint ghost of a wiped stroke
    return float(max(centre.max(axis=0).mean(), centre.max(axis=1).mean()))


def _without_overshoots(crop: np.ndarray, px_per_mm: float, keep: str | None = None) -> np.ndarray:
    """The room without the short strokes that only poke in across its edge: a neighbour's stroke
    running on a little past the side it links to. Such a piece touches one edge and stays within
    ``OVERSHOOT_DEPTH`` of it; one poking in across side ``keep`` (a dead end's own side) is kept.
    (Only for telling X from nothing, and a dead end's stub from a path: the side probes keep every
    stroke, as a faint path can break into pieces that look like this.)"""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((crop >= INKED).astype(np.uint8), connectivity=8)
    if count <= 1:
        return crop
    size = crop.shape[0]
    band = OVERSHOOT_DEPTH * size
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    poking = (((left == 0) & (right <= band)) | ((top == 0) & (bottom <= band))
              | ((right == size) & (left >= size - band)) | ((bottom == size) & (top >= size - band)))
    poking &= stats[:, cv2.CC_STAT_AREA] <= OVERSHOOT_MM2 * px_per_mm ** 2
    if keep is not None:
        poking &= ~{"W": left == 0, "N": top == 0, "E": right == size, "S": bottom == size}[keep]
    poking[0] = False
    if not poking.any():
        return crop
    cleaned = crop.copy()
    cleaned[poking[labels]] = 0.0
    return cleaned


def _is_x(xness: float, coverage: float) -> bool:
    """Two crossing diagonal strokes that account for (nearly) all the ink."""
    return xness >= 0.8 and coverage >= 0.8


def _crossed(crop: np.ndarray, px_per_mm: float) -> float | None:
    """The confidence that the ink is a Trap ``X``, judged by the direction of its strokes' edges; None
    when it is not surely one.

    A path's strokes and a dead end's bar run along the room's axes, and a corner drawn as an arc turns
    one way only; an X's two strokes slant opposite ways, each within about 25 degrees of a diagonal.
    So: the share of the edges (weighted by their contrast) slanting each way, which for an X is well
    over a quarter each and together nearly all. Unlike ``_xness`` this does not depend on where the
    ink's middle is, so an arm cut short by the round number's circle, or an X off the room's centre,
    reads the same.
    """
    if float((crop >= INKED).sum()) < X_MM2 * px_per_mm ** 2:
        return None
    rising, falling = _slants(crop)
    family = min(rising, falling)
    if family < X_FAMILY or rising + falling < X_DIAGONAL:
        return None
    return min(1.0, 0.7 + 3.0 * (family - X_FAMILY))


def _slants(crop: np.ndarray) -> tuple[float, float]:
    """The shares of the ink's edges (weighted by their contrast) that run within 25 degrees of each
    diagonal: rising (lower left to upper right) and falling."""
    smooth = cv2.GaussianBlur(crop.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    weight, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)       # (to about 0.3 degrees)
    total = float(weight.sum())
    if total <= 0.0:
        return 0.0, 0.0
    # Along the edge, not across it: the gradient's angle turned a quarter, folded into half a turn.
    direction = cv2.subtract(angle, 90.0)
    direction[direction < 0] += 180.0
    direction[direction >= 180] -= 180.0
    rising = float(weight[(direction > 20) & (direction < 70)].sum()) / total
    falling = float(weight[(direction > 110) & (direction < 160)].sum()) / total
    return rising, falling


def slanting_both_ways(ink: np.ndarray, cell, px_per_mm: float) -> bool:
    """Whether a room's strokes (without the round number and the neighbours' overshoots) slant both ways,
    as an X's arms do, though less surely than ``_crossed`` asks of a Trap read as one: each slant at least
    ``LONE_X_FAMILY`` of the edges, both together ``LONE_X_DIAGONAL``. A path's strokes run along the room's
    axes, and a corner drawn as an arc turns one way only."""
    crop = _split_round_box(room_crop(ink, cell.rect, px_per_mm), cell, px_per_mm)[1]
    rising, falling = _slants(_without_overshoots(crop, px_per_mm))
    return min(rising, falling) >= LONE_X_FAMILY and rising + falling >= LONE_X_DIAGONAL


def _wavy_path(crop: np.ndarray, exits: str) -> str:
    """How surely the ink is strokes from the sides the probes found, drawn wavy, whose slants
    both ways ``_crossed`` would take for an X's arms (seed 724, a messy hand: H5's path from top to bottom
    read as a Trap, named nowhere). Near each such side, such a stroke crosses nearly every line across
    its way in once; an X's arms there run out to the room's corners, crossing each line twice or not
    at all. "sure", "asked" (a stroke curling back or fading near a side: read as a path, asked about),
    or "" (no wavy path).

    Under a hand three times as shaky as the photographer's medium one (seed 903), 48 of 54 paths read
    as Xs pass the asked levels; of the 13,804 Xs on 7,985 kept photos (116 with two sides' probes
    met), none passes even those (the nearest: 0.57 of the lines near a side inked)."""
    if len(exits) < 2:
        return ""
    drawn = crop >= INKED
    near = int(round(WAVE_NEAR * crop.shape[0]))
    if sum(int(_near_side(drawn, side, near).sum()) for side in SIDES if side not in exits) \
            > WAVE_ELSEWHERE * drawn.sum():
        return ""        # ink near other sides: an X's arms run on past the middle, a path's do not
    sure = True
    # With all four sides ways in there are no other sides to keep clear of ink: an X whose arms met all four
    # probes is told apart only by how few lines near a side they ink (0.57 on the one kept photo with one).
    span_asked = WAVE_SPAN if len(exits) == 4 else WAVE_SPAN_ASKED
    for side in exits:
        strip = _near_side(drawn, side, near)
        lines = strip if side in "NS" else strip.T          # the lines across its way in
        crossings = (np.diff(lines.astype(np.int8), axis=1, prepend=0) == 1).sum(axis=1)
        inked = crossings > 0
        span, once = float(inked.mean()), float((crossings[inked] == 1).mean()) if inked.any() else 0.0
        if span < span_asked or once < WAVE_ONCE_ASKED:
            return ""
        sure = sure and span >= WAVE_SPAN and once >= WAVE_ONCE
    return "sure" if sure else "asked"


WALL_STRIP_MM = 0.8     # a room's ink this near its edge, all round, is its walls' print shown darker than the blank's


def _wall_strip(px_per_mm: float) -> int:
    """``WALL_STRIP_MM`` in pixels, at least one."""
    return max(1, int(round(WALL_STRIP_MM * px_per_mm)))


def _off_walls(crop: np.ndarray, px_per_mm: float) -> np.ndarray:
    """A room crop without the ink within ``WALL_STRIP_MM`` of its edge (a copy)."""
    strip = _wall_strip(px_per_mm)
    crop = crop.copy()
    crop[:strip] = 0.0
    crop[-strip:] = 0.0
    crop[:, :strip] = 0.0
    crop[:, -strip:] = 0.0
    return crop


def _digit_off_walls(digit: np.ndarray, cell, size: int, px_per_mm: float) -> np.ndarray:
    """The round box's window (``_split_round_box``'s first crop) without the ink within ``WALL_STRIP_MM`` of
    the room's edge (a room of ``size`` pixels), which the window reaches near the room's corner."""
    cx, cy, r = cell.round_box
    x, y = int(round((cx - cell.rect.x) * px_per_mm)), int(round((cy - cell.rect.y) * px_per_mm))
    half = digit.shape[0] // 2
    strip = _wall_strip(px_per_mm)
    rows, cols = np.arange(y - half, y + half + 1), np.arange(x - half, x + half + 1)
    inside = ((rows >= strip) & (rows < size - strip))[:, None] & ((cols >= strip) & (cols < size - strip))[None, :]
    return np.where(inside, digit, 0.0)


def _read_trap(crop: np.ndarray, px_per_mm: float) -> tuple[bool, float, list[str], bool]:
    """With no sure stroke to any side: empty, a Trap ``X``, or a mark to look at. The last value says
    whether an ``X`` accounts for all the ink (so ink near a side is an arm of it, not a path).

    The ink within ``WALL_STRIP_MM`` of the room's edge is left out: a phone's local tone mapping (HDR) of a
    dim photo shows the heavy walls darker than the blank's allowance, and seen from the room's middle that
    frame of ink lies mostly along the diagonals, as an X's arms do (seed 744, ``--degrade hdr``, dim: three
    empty rooms read as Traps, named nowhere). An X's arms end inside the room."""
    crop = _off_walls(crop, px_per_mm)
    area = float((crop >= INKED).sum()) / px_per_mm ** 2
    if area < 2.5:
        return False, 1.0 if area < 1.2 else 0.8, [], False
    xness, coverage = _xness(crop, px_per_mm)
    if xness >= 0.75 and area >= 8.0:
        return True, min(1.0, 0.6 + (xness - 0.75) * 2.0), [], _is_x(xness, coverage)
    if area < 5.0 and xness < 0.4:
        return False, 0.55, [_SMALL_MARK], False
    return xness >= 0.55 and area >= UNCLEAR_X_MM2, 0.3, [_UNCLEAR_MARK], False


def _xness(crop: np.ndarray, px_per_mm: float) -> tuple[float, float]:
    """How much the ink looks like an ``X``, and how much of it an X accounts for.

    Seen from the middle of the ink, an X reaches out along the four
    diagonals (each arm within about 25 degrees of one, as hands turn and
    skew them); a path's strokes and a dead end's bar run along the room's
    axes. The first value is the share of the outer ink in the diagonal
    sectors, reduced when one of the four is nearly empty; the second the
    share alone. (An arm may touch the round number: the circle is blanked,
    but what spills out of it is kept, so as not to cut that arm.)
    """
    ys, xs = np.nonzero(crop >= INKED)
    size = crop.shape[0]
    if len(xs) < 10 or np.ptp(xs) < 0.3 * size or np.ptp(ys) < 0.3 * size:
        return 0.0, 0.0          # a line or a dot, not two crossing strokes
    cx, cy = float(np.median(xs)), float(np.median(ys))
    radius = np.hypot(xs - cx, ys - cy)
    outer = radius >= 0.35 * percentile(radius, 90)
    angle = np.degrees(np.arctan2(ys[outer] - cy, xs[outer] - cx)) % 360
    off_diagonal = np.abs((angle % 90) - 45)
    diagonal = off_diagonal < 25
    if not diagonal.any():
        return 0.0, 0.0
    share = float(diagonal.mean())
    sectors = np.bincount((angle[diagonal] // 90).astype(int), minlength=4)[:4] / diagonal.sum()
    balance = min(1.0, float(sectors.min()) / 0.1)
    return share * balance, share


CHORD_COVER = 0.85       # a corner drawn as a straight line: ink along this share of the line from one side's middle
                         # to a neighbouring side's (from a tenth to nine tenths of the way) ...
CHORD_REACH_MM = 1.5     # ... within this of it (a hand's straight line wanders, and misses the middles a little) ...
CHORD_END = 0.3          # ... and along the line's ends, this share of it at each end, the room's own ink (its
                         # round number left out), not a number's slanting stroke, within CHORD_END_MM of it
CHORD_END_MM = 1.0       # (a dead end's stub from one side's middle leaves its way within 1 mm of such a line
                         # in 1.4 mm) ...
CHORD_INSIDE = 0.6       # ... holding this share of the room's ink (a dead end's stub or an L runs off it)
CHORD_PIECE_MM2 = 3.0    # the line is sought in pieces of ink at least this large (with the number: a straight
                         # corner's stroke is 10 mm² or more), not in the tips of a crossed-out Diamond's cross
                         # left beside its cleared box (about 2 mm² each) ...
CHORD_SPECK_MM2 = 1.0    # ... and its ends and the room's ink in pieces at least this large (a number written
                         # over the line leaves pieces of 2-4 mm² of it; a dim photo's grain is smaller)
_ADJACENT = (("N", "E"), ("E", "S"), ("S", "W"), ("W", "N"))


def _side_middles(size: int) -> dict[str, tuple[int, int]]:
    """Each side's middle in a room ``size`` pixels square, as (x, y)."""
    return {"N": (size // 2, 0), "E": (size - 1, size // 2), "S": (size // 2, size - 1), "W": (0, size // 2)}


def _chord_corner(crop: np.ndarray, whole: np.ndarray, px_per_mm: float) -> str:
    """The two sides (in ``SIDES`` order) a corner drawn as a straight line joins, when the room's ink is such
    a line from one side's middle to the other's (``CHORD_COVER``, ``CHORD_INSIDE``); else "". ``crop`` is
    the room without its round number, ``whole`` with it: a number written over the line takes the line's
    ink with it, so the line is looked for in ``whole``, and its ends (``CHORD_END``) and the room's ink
    around it in ``crop``. (An X's arms run corner to corner through the middle, parallel to such a line
    but a third of the room away from it.)"""
    disc = _disc(max(1, int(round(CHORD_REACH_MM * px_per_mm))))
    lines = _chord_lines(crop.shape[0])
    # First with every piece of ink (taking the small ones away only uncovers the line): most rooms, cheaply.
    near = cv2.dilate((whole >= INKED).astype(np.uint8), disc)
    lines = [(pair, xs, ys) for pair, xs, ys in lines if near[ys, xs].mean() >= CHORD_COVER]
    if not lines:
        return ""
    ink, own = (_without_specks(image >= INKED, px_per_mm, least)
                for image, least in ((whole, CHORD_PIECE_MM2), (crop, CHORD_SPECK_MM2)))
    total = int(own.sum())
    if not total:
        return ""
    near, near_own = cv2.dilate(ink, disc), cv2.dilate(own, _disc(max(1, int(round(CHORD_END_MM * px_per_mm)))))
    middles = _side_middles(crop.shape[0])
    found = []
    for (a, b), xs, ys in lines:
        if near[ys, xs].mean() < CHORD_COVER or near_own[ys, xs][_CHORD_ENDS].mean() < CHORD_COVER:
            continue
        band = cv2.line(np.zeros_like(own), middles[a], middles[b], 1, disc.shape[0])
        if int((own & band).sum()) >= CHORD_INSIDE * total:
            found.append("".join(side for side in SIDES if side in a + b))
    return found[0] if len(found) == 1 else ""


_CHORD_ALONG = np.linspace(0.1, 0.9, 33)[:, None]     # where along each line it is looked at ...
_CHORD_ENDS = (_CHORD_ALONG[:, 0] <= CHORD_END) | (_CHORD_ALONG[:, 0] >= 1 - CHORD_END)   # ... and its ends


@lru_cache(maxsize=8)
def _chord_lines(size: int) -> list[tuple[tuple[str, str], np.ndarray, np.ndarray]]:
    """Each pair of neighbouring sides, and the pixels (x, y) along the line between their middles at which
    ``_chord_corner`` looks, in a room ``size`` pixels square."""
    middles = _side_middles(size)
    lines = []
    for a, b in _ADJACENT:
        points = np.rint(np.array(middles[a]) * (1 - _CHORD_ALONG) + np.array(middles[b]) * _CHORD_ALONG).astype(int)
        xs, ys = points[:, 0].copy(), points[:, 1].copy()
        xs.flags.writeable = ys.flags.writeable = False     # shared between calls
        lines.append(((a, b), xs, ys))
    return lines


def _without_specks(inked: np.ndarray, px_per_mm: float, least_mm2: float) -> np.ndarray:
    """``inked`` (bool) without its pieces smaller than ``least_mm2``, as uint8."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(inked.astype(np.uint8), connectivity=8)
    kept = stats[:, cv2.CC_STAT_AREA] >= least_mm2 * px_per_mm ** 2
    kept[0] = False
    return kept[labels].astype(np.uint8)


def _disc(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _unexplained(crop: np.ndarray, exits: str, size: int, px_per_mm: float) -> float:
    """Square millimetres of ink the read path does not account for: outside the corridors from the
    room's middle to each linked side (and the arcs, or the straight line, a corner may be drawn as)."""
    allowed = np.zeros(crop.shape, np.uint8)
    width = max(1, int(round(0.22 * size)))
    centre = (size // 2, size // 2)
    mids = _side_middles(size)
    for side in exits:
        cv2.line(allowed, centre, mids[side], 1, width)
    cv2.circle(allowed, centre, int(0.3 * size), 1, -1)
    for a, b in _ADJACENT:
        if a in exits and b in exits:
            corner = (size - 1 if "E" in a + b else 0, size - 1 if "S" in a + b else 0)
            cv2.circle(allowed, corner, size // 2, 1, width)
            if len(exits) == 2:
                cv2.line(allowed, mids[a], mids[b], 1, width)     # ... or drawn straight across
    stray = (crop >= INKED) & (allowed == 0)
    stray = cv2.morphologyEx(stray.astype(np.uint8), cv2.MORPH_OPEN, _disc(1))
    return float(stray.sum()) / px_per_mm ** 2


# -- the tally beside scoring item 6 ------------------------------------------------

def read_tally(ink: np.ndarray, box, px_per_mm: float) -> TallyReading:
    """The number of tally marks in a box (a ``sheets.page.Rect``): upright strokes, leaning ones,
    and five for each five-bar gate."""
    x0 = int(round((box.x + TALLY_INSET_MM) * px_per_mm))
    x1 = int(round((box.right - TALLY_INSET_MM) * px_per_mm))
    y0 = int(round((box.y - 1.0) * px_per_mm))
    y1 = int(round((box.bottom + 1.0) * px_per_mm))
    mask = (ink[y0:y1, x0:x1] >= INKED).astype(np.uint8)
    height = mask.shape[0]
    upright = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((max(3, int(0.4 * height)), 1), np.uint8))
    bars = _merge_runs(_runs(upright.max(axis=0)), int(0.6 * px_per_mm))
    strokes = [((a + b) / 2 / px_per_mm, 1) for a, b in bars]
    crossing = mask & (cv2.dilate(upright, np.ones((1, 3), np.uint8)) == 0)
    crossing = _without_box_edges(crossing, mask, upright, px_per_mm)
    gates, gate_ink, gate_bars = _gates(mask, crossing, bars, px_per_mm)
    strokes += [(x, 2) for x in gates]
    doubts, confidence = [], 1.0
    if any(b - a > 2.2 * px_per_mm for a, b in bars):
        doubts.append("tally marks drawn so close together they may run into each other")
        confidence = 0.4
    if any(n != 4 for n in gate_bars):
        doubts.append("a gate across " + " or ".join(str(n) for n in sorted(set(gate_bars))) +
                      " upright marks instead of four")
        confidence = min(confidence, 0.4)
    rest = crossing & ~gate_ink & ~_bar_ends(mask, upright, crossing, bars, int(round(BAR_END_MM * px_per_mm)))
    leaning = _leaning_strokes(rest, int(0.36 * height))
    strokes += [(x / px_per_mm, 1) for x, _ in leaning]
    stray = float(rest.sum()) - sum(area for _, area in leaning)
    if stray > 1.5 * px_per_mm ** 2:
        doubts.append("marks in the tally box that are neither upright strokes nor gates")
        confidence = min(confidence, 0.4)
    xs = sorted(x for x, _ in strokes)
    if _lone_at_end(xs, box.w - TALLY_INSET_MM):
        doubts.append(TALLY_AT_END)
        confidence = min(confidence, 0.4)
    if _against_start(ink, box, x0, y0, y1, xs, px_per_mm):
        doubts.append(TALLY_AT_START)
        confidence = min(confidence, 0.4)
    # A gate is five marks, whatever it crosses: with a thick pen two of its bars can run into one.
    # (A gate across other than four bars is flagged above, so a person checks the count.)
    count = len(bars) - sum(gate_bars) + 5 * len(gates) + len(leaning)
    return TallyReading(count, confidence, tuple(sorted(strokes)), tuple(doubts))


TALLY_AT_END = "a lone mark at the box's right end: a tally mark, or the box's own printed end?"


TALLY_AT_START = "a mark cut off at the box's left end: a tally mark drawn against the end, or the box's own " \
                 "printed end?"


def _against_start(ink: np.ndarray, box, x0: int, y0: int, y1: int, xs: list[float], px_per_mm: float) -> bool:
    """Whether an upright stroke stands against the tally box's printed left end (from ``TALLY_START_MM``
    before it to ``x0``, the pixel column from which the marks are read, ``TALLY_INSET_MM`` in): a column of
    ink over ``TALLY_START_SHARE`` of the box's height or more (a leaning first mark's foot crosses it in a
    short run), with no mark counted within ``TALLY_COUNTED_MM`` of the marks' start. A first mark drawn
    against the end, cut off (a registration a tenth of a millimetre different left a dim sample's one mark
    outside the marks' crop: read as none, named nowhere), or the printed end itself where the registration
    left it."""
    a0 = max(0, int(round((box.x - TALLY_START_MM) * px_per_mm)))
    strip = ink[y0:y1, a0:x0] >= INKED
    tall = strip.size and float(strip.sum(axis=0).max()) >= TALLY_START_SHARE * box.h * px_per_mm
    return bool(tall) and not (xs and xs[0] < TALLY_COUNTED_MM)


def _lone_at_end(xs: list[float], end: float) -> bool:
    """Whether the last of the tally marks at ``xs`` (mm, sorted) lies within ``TALLY_END_MM`` of the box's
    right ``end`` with no other mark within ``TALLY_APART_MM``. Marks are drawn from the left, side by
    side; a curled sheet's photo may stretch the printed box, so that its right end stands inside where
    the blank has it and reads as an upright mark (seed 844 ``--degrade hdr``, curled: 1.4 mm short)."""
    return bool(xs) and xs[-1] >= end - TALLY_END_MM and (len(xs) == 1 or xs[-1] - xs[-2] >= TALLY_APART_MM)


def _without_box_edges(crossing: np.ndarray, mask: np.ndarray, upright: np.ndarray, px_per_mm: float) -> np.ndarray:
    """A tally box's ink that is not upright, without the thin flat lines along and beyond the box's top
    and bottom edges that no counted mark runs into: the printed outlines (this box's, and the next
    one's) where the photo's registration left a sliver of them. A player's marks stand up, and a gate's
    bar or a dash crosses the middle."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(crossing, connectivity=8)
    height = stats[:, cv2.CC_STAT_HEIGHT]
    flat = (height <= BOX_EDGE_MM * px_per_mm) & (stats[:, cv2.CC_STAT_WIDTH] >= 2 * height)
    margin = px_per_mm * (1.0 + 2 * BOX_EDGE_MM)         # the crop runs 1 mm past the box
    middle = (centroids[:, 1] > margin) & (centroids[:, 1] < crossing.shape[0] - margin)
    pieces_count, pieces = cv2.connectedComponents(mask, connectivity=8)
    upright_pieces = label_set(pieces[upright > 0], pieces_count)
    joined = label_set(labels[upright_pieces[pieces] & (crossing > 0)], count)
    edge = flat & ~middle & ~joined
    edge[0] = False
    return np.where(edge[labels], 0, crossing).astype(crossing.dtype) if edge.any() else crossing


def _bar_ends(mask: np.ndarray, upright: np.ndarray, crossing: np.ndarray, bars: list[tuple[int, int]],
              reach: int) -> np.ndarray:
    """The ends of strokes already counted as upright bars: a leaning or bowed stroke keeps only its
    middle through the upright test, and its ends are left over. They are in the same piece of ink as
    a bar and within ``reach`` pixels of its columns (0/1, ``uint8``)."""
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    counted = np.zeros(count, bool)
    counted[labels[upright > 0]] = True
    counted[0] = False
    near = np.zeros(mask.shape[1], bool)
    for start, end in bars:
        near[max(0, start - reach):end + reach] = True
    return (crossing.astype(bool) & counted[labels] & near[None, :]).astype(np.uint8)


def _leaning_strokes(mask: np.ndarray, length: int) -> list[tuple[float, float]]:
    """Tally marks leaning too far for the upright test: strokes at least ``length`` tall, within 35
    degrees of upright. Their x centres (pixels) and areas (pixels)."""
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found = []
    for k in range(1, count):
        if stats[k, cv2.CC_STAT_HEIGHT] < length:
            continue
        ys, xs = np.nonzero(labels == k)
        cov = np.cov(np.vstack([xs, ys]))
        angle = 0.5 * np.degrees(np.arctan2(2 * cov[0, 1], cov[0, 0] - cov[1, 1]))   # 0 = across, 90 = upright
        if abs(abs(angle) - 90) <= 35:
            found.append((float(centroids[k][0]), float(stats[k, cv2.CC_STAT_AREA])))
    return found


def _runs(profile: np.ndarray) -> list[tuple[int, int]]:
    """Where a 0/1 profile is 1: (start, end) pairs, end exclusive."""
    edges = np.diff(np.concatenate([[0], (profile > 0).astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()))


def _merge_runs(runs: list[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for start, end in runs:
        if merged and start - merged[-1][1] < gap:
            merged[-1][1] = end
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def _gates(mask: np.ndarray, crossing: np.ndarray, bars: list[tuple[int, int]],
           px_per_mm: float) -> tuple[list[float], np.ndarray, list[int]]:
    """The x centres (mm) of gates, strokes that cross two or more upright bars (seen as crossing ink
    in most of the gaps between the bars they join), the gates' ink, and how many bars each crosses."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    found, ink, crossed = [], np.zeros(mask.shape, np.uint8), []
    for k in range(1, count):
        left, width = stats[k, cv2.CC_STAT_LEFT], stats[k, cv2.CC_STAT_WIDTH]
        inside = [(a, b) for a, b in bars if a >= left - 1 and b <= left + width + 1]
        if len(inside) < 2:
            continue
        mine = crossing & (labels == k)
        bridged = [mine[:, a:b + 1].any() for (_, a), (b, _) in zip(inside, inside[1:])]
        if sum(bridged) >= 0.6 * len(bridged) and mine.sum() >= 1.5 * px_per_mm ** 2:
            found.append(float(left + width / 2) / px_per_mm)
            ink |= (labels == k).astype(np.uint8)
            crossed.append(len(inside))
    return found, ink, crossed
