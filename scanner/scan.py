"""From a photo to the sheets in it: locate, identify, rectify, separate the ink, read the marks.

``scan_photo`` is the whole pipeline for one image; it returns what it read and,
for anything it could not read, a reason a person can act on. It never raises
for a bad photo. Scoring is left to ``games`` (see ``scanner.batch``).

Each kind of sheet (``sheets.kinds``) is read by its entry in ``READERS``. The
blank page a photo is compared with comes from the caller, a renderer per kind
(``blanks[kind](layout, px_per_mm) -> greyscale image``: ``generator.kinds.BLANKS``
in practice), so the scanner never draws sheets itself; a kind the caller gives
no renderer for is refused with a reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Callable, Mapping, NamedTuple

import cv2
import numpy as np

from games.review import Rule
from games.mapfile import map_reference
from games.maps import OPPOSITE, SIDES, DungeonMap, Room
from sheets.dungeon import DESIGN, SheetLayout, sheet_layout
from sheets.kinds import KINDS, MAKER, MAP, MONSTER, kind_of
from sheets.page import PAPERS, PX_PER_MM, Rect, SheetId
from scanner.ink import (Allowance, Crease, apply_shift, as_crease, cleared_creases, crease_band, crease_mask,
                         crease_mm, darkness, ink_map, line_shade, measure, print_allowance, quieted, CREASE_BAND_MM,
                         FLAT_PRINT_SLACK_MM, QUIET_FROM, REACH_MM, REFINE_REACH_MM, noise_level, register,
                         register_tiles, shift_planes, stroke_gain, tile_count, without_creases)
from scanner.fastnp import median, percentile
from scanner.load import Photo
from scanner.locate import NO_QR, SheetFrame, find_sheets, read_sheet_id
from scanner.marks import MarksReading, has_marks
from scanner.marks import read_marks as read_expansion_marks
from scanner.read import (FAINT, INKED, LONE_X, PROBE_DEPTH, PROBE_HALF_WIDTH, SURE, UNWRITTEN_CONFIDENCE,
                          WASHED_AROUND, WASHED_WRITTEN, RoomReading, TallyReading, heading_to, link_question,
                          number_written, only_poking_in, read_room, read_tally, runs_into, settle,
                          slanting_both_ways, writes_rounds)
from scanner.visibility import (COVER_PX_PER_MM, blank_print, brightened_and_lit, covered, covered_and_brightened,
                               glare_lit, greyed_over, hidden_rooms, lit_places, print_seen, touching, washed_out,
                               washed_why, without_tone_halos)

if TYPE_CHECKING:
    from scanner.maker import MakerScan
    from scanner.monsters import MonsterScan

MOST_HIDDEN = 0.5        # with this share of the rooms not seen, a photo gives no score
PAGE_QUALITY = 92        # JPEG quality of a sheet's rectified page, kept for its overlay picture
TALLY = "tally 6"        # the tally beside scoring item 6, as review entries name it
RETAKE_SHARE = 3         # a third of the rooms asked about: the list opens by suggesting a new photo (as a Dungeon
                         # Maker sheet's does, ``scanner.maker.RETAKE_TILES``)
MIN_PX_PER_MM = 2.4      # below this the marks are too small to read


BlankRenderer = Callable[[object, float], np.ndarray]     # a layout at some px per mm -> its blank page
Blanks = Mapping[str, BlankRenderer]                        # per kind of sheet (``sheets.kinds``)


@dataclass
class SheetScan:
    """One sheet read from one photo."""

    source: str
    sheet_id: SheetId
    layout: SheetLayout
    rooms: list[RoomReading]
    tally: TallyReading
    ink: np.ndarray = field(repr=False)         # the ink map, registered to the layout, PX_PER_MM
    resolution: float = 0.0                     # the sheet's pixels per mm in the image read
    page_picture: Callable[[], np.ndarray] | None = field(default=None, repr=False)
    marks: MarksReading | None = None           # the expansion marks, on maps that have them
    hidden: dict[str, str] = field(default_factory=dict)    # rooms the photo does not show, and why
    identified_by_qr: bool = True               # False: read as the map of the game's other sheets or --map
    tally_hidden: str | None = None             # why the photo does not show the tally box, when it does not

    def record(self, outcome, want_pages: bool) -> None:
        """File this sheet in its file's outcome (``scanner.batch.PhotoOutcome``): its entry of ``sheets``,
        the readings behind it, and its rectified page (JPEG) when ``want_pages``."""
        from scanner.batch import SheetRead, page_jpeg

        page = page_jpeg(self.registered_page()) if want_pages else None
        outcome.reads.append(SheetRead(MAP.key, self.to_json(), (self.rooms, self.tally), page))

    def registered_page(self) -> np.ndarray:
        """The whole rectified photo, RGB at PX_PER_MM, moved onto the layout as the marks were read (for
        the overlay picture)."""
        return self.page_picture()

    def review(self) -> list[dict]:
        """The scanner's own doubts, as ``needs_review`` entries."""
        dungeon = self.layout.dungeon
        entries = [{"where": room, "rule": Rule.CANNOT_SEE, "confidence": 0.0,
                    "why": f"{why}: look at {room} on the sheet, or take the photo again without it",
                    **_trap_flag(dungeon.item_at(Room.parse(room)) is None)}
                   for room, why in self.hidden.items()]
        entries += [{"where": r.room, "rule": Rule.UNSURE_LINK if r.only_link_doubts else Rule.UNSURE_READING,
                     "why": "; ".join(r.doubts) or "hard to read", "confidence": r.confidence,
                     **_trap_flag(r.trap_in_doubt), **_alternative(r.alternative)}
                    for r in self.rooms if r.confidence < SURE and r.room not in self.hidden]
        if self.tally_hidden is not None:
            entries.append({"where": TALLY, "rule": Rule.CANNOT_SEE, "confidence": 0.0,
                            "why": f"{self.tally_hidden}: count the tally marks beside scoring item 6 on the "
                                   f"sheet (read as {self.tally.count}), or take the photo again without it"})
        elif self.tally.confidence < SURE:
            entries.append({"where": TALLY, "rule": Rule.UNSURE_READING, "confidence": self.tally.confidence,
                            "why": "; ".join(self.tally.doubts) or "the tally marks are hard to count"})
        if self.marks is not None:
            entries += self.marks.review()
        if not self.identified_by_qr:
            entries.append({"where": "photo", "rule": Rule.NO_QR_CODE,
                            "why": f"the QR code could not be read, so the sheet was read as "
                                   f"{self.layout.dungeon.name} on {self.layout.paper.upper()} paper (like the "
                                   f"other sheets of the game, or as --map says): check that this is right"})
        if self.resolution < 3.2:
            entries.append({"where": "photo", "rule": Rule.LOW_RESOLUTION,
                            "why": f"the sheet is only {self.resolution:.1f} pixels per mm in this photo: "
                                   f"come closer or use a higher resolution"})
        asked = {entry["where"] for entry in entries} & {r.room for r in self.rooms}
        if len(asked) * RETAKE_SHARE >= len(self.rooms):
            entries.insert(0, {"where": "photo", "rule": Rule.UNSURE_READING, "confidence": 0.3,
                               "why": f"{len(asked)} of the {len(self.rooms)} rooms are asked about below: taking "
                                      f"the photo again (the sheet flat, evenly lit, in focus, nothing on it) may be "
                                      f"quicker than checking them one by one"})
        return entries

    def confidence(self) -> float:
        values = [0.0 if r.room in self.hidden else r.confidence for r in self.rooms] + \
            [0.0 if self.tally_hidden is not None else self.tally.confidence]
        if self.marks is not None:
            values.append(self.marks.confidence())
        return round(float(min(values)), 3)

    def to_json(self) -> dict:
        """The sheet as the scan format has it (CONTRACTS.md section 3), before scoring."""
        rooms = {}
        for reading in self.rooms:
            if reading.drawn:
                rooms[reading.room] = {"exits": reading.exits, "trap": reading.trap, "round": reading.round}
        marks = {"marks": self.marks.marks.to_json()} if self.marks is not None else {}
        # A sheet of an earlier design (printed by an earlier release) says so: its overlay is drawn on its own
        # layout. The current design's sheets leave it out.
        design = {"design": self.layout.design} if self.layout.design != DESIGN else {}
        return {"source": self.source, "map": map_reference(self.layout.dungeon), "player": self.sheet_id.player,
                "game": self.sheet_id.code, "paper": self.layout.paper, **design, "rooms": rooms,
                "unusable": self.tally.count, **marks,
                "confidence": self.confidence(), "needs_review": self.review()}


def _trap_flag(possible: bool) -> dict:
    """A room entry's mark that a Trap may be there (or not) unlike what was read: such a doubt reaches
    the game's other sheets (``games.doubts.flag_shared_doubts``)."""
    return {"could_be_trap": True} if possible else {}


def _alternative(reading: tuple[str, bool] | None) -> dict:
    """A room entry's other reading, which scoring weighs (``games.doubts.weigh_review``)."""
    return {} if reading is None else {"alternative": {"exits": reading[0], "trap": reading[1]}}


def scan_photo(photo: Photo, blanks: Blanks, read_digit=None,
               hint: DungeonMap | None = None) -> tuple[list[SheetScan | MonsterScan], list[str]]:
    """Every sheet in one photo of a kind ``blanks`` has a renderer for (map sheets as ``SheetScan``,
    monster record sheets as ``scanner.monsters.MonsterScan``), and why any sheet in it could not be
    read. A map sheet whose QR code cannot be read is read as a sheet of ``hint``'s map when given (the
    map of the other sheets of its game, or the one the user named); without it, its problem is an
    ``Unidentified``, which such a hint would overcome."""
    frames, problems = find_sheets(photo.image)
    scans = []
    for index, frame in enumerate(frames):
        source = photo.source if len(frames) == 1 else f"{photo.source}#sheet={index + 1}"
        try:
            scans.append(_scan_sheet(photo, frame, source, blanks, read_digit, hint))
        except _Unreadable as exc:
            problems.append(exc.args[0])
    return scans, problems


class Unidentified(str):
    """Why a sheet could not be read: its QR code could not be read, and no map was known to read it by."""


class _Unreadable(Exception):
    """A sheet was found but cannot be read; the message says why and what to do."""


def _scan_sheet(photo: Photo, frame: SheetFrame, source: str, blanks: Blanks, read_digit,
                hint: DungeonMap | None = None) -> SheetScan | MonsterScan:
    resolution = frame.px_per_mm()
    if resolution < MIN_PX_PER_MM:
        raise _Unreadable(f"the sheet is too small in the photo ({resolution:.1f} pixels per mm): "
                          f"fill more of the frame with it, or send a higher resolution photo")
    try:
        sheet_id, guessed = _identify(photo, frame, blanks), None
    except _NoCode as exc:
        if hint is None:
            raise _Unreadable(Unidentified(f"{exc.args[0]}; or, for a dungeon map sheet, scan it with the other "
                                           f"sheets of its game, or name its map with --map")) from None
        paper = _paper_of(frame)
        sheet_id, guessed = sheet_layout(hint, paper).sheet_id(0), hint
    kind = kind_of(sheet_id)
    return READERS[kind.key](photo, frame, source, sheet_id, blanks[kind.key], read_digit, guessed, resolution)


def _scan_map_sheet(photo: Photo, frame: SheetFrame, source: str, sheet_id: SheetId, blank: BlankRenderer,
                    read_digit, guessed: DungeonMap | None, resolution: float) -> SheetScan:
    """A dungeon map sheet (of ``guessed``'s map when its QR code was not read): the map and the scoring
    section rectified, the ink told from the print, what the photo does not show found, every room, the
    tally and the expansion marks read."""
    layout = _layout(sheet_id) if guessed is None else sheet_layout(guessed, sheet_id.paper)
    reference = _reference(layout, blank)
    # Only the map and the scoring section are rectified and read; the rest of the page is needed only
    # for the overlay picture, which warps it when asked.
    homography = frame.homography(layout.paper)
    ink, shift, dark, gain, noise, fine, colour, tone = _registered_ink(photo.image, homography, reference)
    hidden = _hidden(layout, reference, dark, photo.image, homography)
    tally_hidden = hidden.pop(TALLY, None)
    sides = {where: hidden.pop(where) for where in [where for where in hidden if "|" in where]}   # "B3|E": a side
    unseen_sides = {where for where, why in sides.items() if why != LIT}
    lit_sides = {where for where, why in sides.items() if why == LIT}
    if len(hidden) >= MOST_HIDDEN * len(layout.rooms):
        raise _Unreadable(_mostly_hidden(hidden, len(layout.rooms)))

    def no_creases(ink: np.ndarray) -> tuple[np.ndarray, list[Crease], list[Crease]]:
        ink = _without_cave_arrows(ink, layout)
        shades = _Shades(ink, dark, reference.area)
        return without_creases(ink, _pixels(layout.grid), PX_PER_MM, INKED,
                               lambda line: _straight_path_fits(layout, line, shades.drawn))

    ink, creases, on_paths = no_creases(ink)
    if (creases or on_paths) and fine:
        # A folded sheet's panels lie a little apart, more than the finer allowance lets the print move. The
        # wider allowance may fade a crease below what is found as one: it is cleared where it was found.
        found = creases
        ink, creases, on_paths = no_creases(_page_ink(reference, dark, colour, gain, False))
        lost = [crease for crease in found
                if not any(crease[0] == other and abs(crease[1] - at) <= CREASE_BAND_MM * PX_PER_MM
                           for other, at in creases + on_paths)]
        if lost:
            ink, creases = cleared_creases(ink, lost, _pixels(layout.grid), PX_PER_MM), creases + lost
    marks = None
    if has_marks(layout):
        # The marks are read against the wide window's white, so that a solid fill is not taken for paper;
        # the rooms from the plain ink map, in which a hard shadow's edge across a box or a gate is not a
        # block of ink reaching into the room (a filled gate's outline is cleared with its circle below).
        marks = read_expansion_marks(_with_solid_fills(ink, photo.image, homography, shift, reference, layout,
                                                       blank, gain, noise, tone), layout, PX_PER_MM)
    if marks is not None and marks.marks.gates:
        ink = _without_filled_gates(ink, layout, marks.marks.gates)
    rooms = [read_room(ink, cell, PX_PER_MM, read_digit) for cell in layout.rooms]
    writes = writes_rounds(rooms)
    rooms = [settle(reading, ink, cell, PX_PER_MM, writes) for reading, cell in zip(rooms, layout.rooms)]
    rooms = _overshoots_settled(rooms, layout, ink)
    rooms = _overshoots_asked(rooms, layout, ink)
    rooms = _unseen_sides_asked(rooms, hidden, unseen_sides, lit_sides)
    rooms = _lit_sides_asked(rooms, layout, ink, hidden, lit_sides)
    rooms = _washed_around_asked(rooms, hidden, lambda room: number_written(ink, layout.room_cell(room), PX_PER_MM))
    if creases or on_paths:
        shades = _Shades(ink, dark, reference.area)
        rooms = [_along_crease(reading, cell, creases, on_paths, writes,
                               lambda line, cell=cell: shades.drawn(line, *_stretch(line, cell), DRAWN_ACROSS))
                 for reading, cell in zip(rooms, layout.rooms)]
        rooms = _beside_crease(rooms, layout, creases, ink)
    rooms = _lone_x_asked(rooms, layout, ink)
    rooms = _dead_ends_across_asked(rooms, layout, ink, hidden)
    tally = read_tally(ink, layout.unusable_tally, PX_PER_MM)
    return SheetScan(source, sheet_id, layout, rooms, tally, ink, resolution,
                     _page_picture(photo.image, homography, reference, shift), marks, hidden,
                     identified_by_qr=guessed is None, tally_hidden=tally_hidden)


FAINT_ALL_OVER = 0.9     # with this share of the rooms' print not seen, and nothing lying over them, the whole
                         # photo is too faint, not a lamp's glare or a shadow here and there


def _mostly_hidden(hidden: dict[str, str], rooms: int) -> str:
    """Why a photo with ``MOST_HIDDEN`` of its ``rooms`` hidden (``hidden``: room -> why) gives no score, and what
    to do: a photo whose print hardly shows in nearly every room (``FAINT_ALL_OVER``: dim, hazy, or out of focus,
    as a low-contrast photo in dim light is) is to be taken in better light, not moved out of a glare."""
    counted = f"{len(hidden)} of the {rooms} rooms cannot be seen clearly in this photo"
    if sum(washed_out(why) for why in hidden.values()) >= FAINT_ALL_OVER * rooms:
        return (f"{counted}: the print hardly shows anywhere (a dim, hazy or blurred photo?): take it again in "
                f"brighter, even light, with the lens clean and the sheet in focus")
    return (f"{counted} (glare, a shadow, something lying on the sheet, or the paper far from flat): take it again "
            f"from above with the sheet flat, the whole map in even light, and no lamp shining back from the paper")


def _paper_of(frame: SheetFrame) -> str:
    """The paper a sheet is printed on, from where its four markers sit against each other (A4 is
    taller and narrower than Letter): the paper whose marker layout the photo's markers fit best."""
    def misfit(paper: str) -> float:
        on_paper, in_image = frame.points(paper)       # the markers read: three, when one is covered
        seen = cv2.perspectiveTransform(on_paper.reshape(-1, 1, 2), frame.homography(paper)).reshape(-1, 2)
        return float(np.linalg.norm(seen - in_image, axis=1).sum())
    return min(PAPERS, key=misfit)


def _hidden(layout: SheetLayout, reference: _Reference, dark: np.ndarray, image: np.ndarray,
            homography: np.ndarray) -> dict[str, str]:
    """The rooms and the sides of rooms (``_side_places``) the photo does not show (``scanner.visibility``),
    and why; and the sides glare lights (``GLARE_SIDE``), why ``LIT``."""
    # What players fill in (gates, Diamonds' and Emeralds' boxes) and the printed arrows, coloured, often with
    # a path's stroke beside them (a cave's, inside the map), may look like an object lying there.
    marks = [Rect(g.centre[0] - g.radius, g.centre[1] - g.radius, 2 * g.radius, 2 * g.radius).grown(1.0)
             for g in layout.gates()] + [cell.mark.grown(1.0) for cell in layout.rooms if cell.mark is not None]
    for arrow in layout.arrows:
        (ax, ay), (bx, by) = arrow.tip, arrow.tail
        marks.append(Rect(min(ax, bx), min(ay, by), abs(ax - bx), abs(ay - by)).grown(CAVE_ARROW_MM + 1.5))
    return _unseen_places(layout, reference, dark, image, homography, marks, {TALLY: layout.unusable_tally},
                          _side_places(layout), lit=GLARE_SIDE)


def _side_places(layout: SheetLayout) -> dict[str, Rect]:
    """Where a stroke through each side of each room would be seen, named ``"B3|E"``: the middle of the side
    (``PROBE_HALF_WIDTH`` either way) and the probe bands on both sides of it (``PROBE_DEPTH``), as a rectangle."""
    places = {}
    for cell in layout.rooms:
        r, size = cell.rect, cell.rect.w
        half, deep = PROBE_HALF_WIDTH * size, PROBE_DEPTH[1] * size
        middle_x, middle_y = r.x + r.w / 2, r.y + r.h / 2
        for side, (x, y) in {"N": (middle_x, r.y), "S": (middle_x, r.bottom),
                             "W": (r.x, middle_y), "E": (r.right, middle_y)}.items():
            w, h = (2 * half, 2 * deep) if side in "NS" else (2 * deep, 2 * half)
            places[f"{cell.room.name}|{side}"] = Rect(x - w / 2, y - h / 2, w, h)
    return places


GLARE_SIDE = 0.1    # a side's place (``_side_places``) with a tenth of it lit by glare ...
GLARE_FAINT = 0.1   # ... and read unlinked with a probe stronger than this is asked about: glare adds light to a
                    # stroke as to the paper (a marker's stroke under its halo was read at 0.23, not a link)


def _unseen_sides_asked(rooms: list[RoomReading], hidden: dict[str, str], unseen: set[str],
                        lit: set[str] = frozenset()) -> list[RoomReading]:
    """The rooms the photo shows, a side read unlinked asked about where the photo does not show the side
    (``_side_places``: glare, a deep shadow, something lying there reaching it from the room across): a
    stroke through it would be lost with it; and where glare lights the side (``lit``) and some ink crosses
    its probe (``GLARE_FAINT``): a stroke there may be dimmed below a link."""
    asked = []
    for reading in rooms:
        sides = [side for side in SIDES
                 if (f"{reading.room}|{side}" in unseen
                     or (f"{reading.room}|{side}" in lit and not reading.trap
                         and reading.strengths.get(side, 0.0) > GLARE_FAINT))
                 and side not in reading.exits and link_question(side) not in reading.doubts]
        asked.append(reading if reading.room in hidden else _asked(reading, [link_question(side) for side in sides]))
    return asked


GLARE_HEADING = 0.3      # a stroke heading towards a side glare lights, over this share of the way from the middle,
GLARE_STROKE = 0.2       # ... its ink at least this strong (glare fades it)
GLARE_INSIDE = 3         # a room with this many of its sides lit by glare lies inside the glare


def _lit_sides_asked(rooms: list[RoomReading], layout: SheetLayout, ink: np.ndarray, hidden: dict[str, str],
                     lit: set[str]) -> list[RoomReading]:
    """The rooms the photo shows, a side glare lights (``lit``, or the room across is washed out: ``hidden``)
    read unlinked asked about where the path looks cut there. Glare adds its light to a stroke as to the
    paper, and a stroke fading out in it may end short of the side's probe, or vanish: a room whose stroke
    still heads towards the side (``scanner.read.heading_to``: ``GLARE_HEADING`` of the way, in ink of
    ``GLARE_STROKE``; in a room read as a dead end, not towards the opposite side as well, as the bar or blob
    at a dead end's end does, unless it runs on straight into a room the glare washes out); and, in a room
    inside the glare (``GLARE_INSIDE`` of its sides so), a room read as a dead end, or one the room across
    links to or is asked about linking to.
    (An underexposed photo, ``--degrade dark``, dims glare below what hides a room's print: seeds 761 and
    762 read six rooms wrong so, named nowhere; a lamp's warm light, ``warm``, seed 765, one more, a dead
    end; seed 771, ``dark``, one more, a straight path read as a dead end beside a washed-out room. Over 156
    glare photos of the photographer's own range kept from earlier runs it asks about four rooms, one read
    wrong; over 54 fresh ones, two read right. The straight run into a washed-out room asks about nine dead
    ends read right, and one wrong, over 612 glare and shadow photos. Seed 775, ``dark:0.6``: an empty
    room inside the glare beside a room asked about its side towards it; on 960 kept photos it asks
    nothing new.)"""
    washed = {room for room, why in hidden.items() if washed_out(why)}

    def glared(reading: RoomReading, cell) -> list[str]:
        """The sides of a room the photo shows that glare lights or that face a washed-out room."""
        if reading.room in hidden or reading.trap:
            return []
        return [side for side in SIDES
                if f"{reading.room}|{side}" in lit or cell.room.neighbour(side).name in washed]

    def unlinked(reading: RoomReading, side: str) -> bool:
        return side not in reading.exits and link_question(side) not in reading.doubts

    # First the sides a faded stroke heads towards; then, with those asked, the rooms inside the glare.
    heading = [_asked(reading, [link_question(side) for side in glared(reading, cell) if unlinked(reading, side)
                                and _cut_heading(ink, reading, cell, side, cell.room.neighbour(side).name in washed,
                                                 f"{reading.room}|{side}" in lit)])
               for reading, cell in zip(rooms, layout.rooms)]
    by_name = {reading.room: reading for reading in heading}
    asked = []
    for reading, cell in zip(heading, layout.rooms):
        sides = glared(reading, cell)
        if len(sides) >= GLARE_INSIDE:
            reading = _asked(reading, [link_question(side) for side in sides if unlinked(reading, side)
                                       and _cut_inside(reading, by_name.get(cell.room.neighbour(side).name), side)])
        asked.append(reading)
    return asked


def _cut_heading(ink: np.ndarray, reading: RoomReading, cell, side: str, into_washed: bool, lit: bool = False
                 ) -> bool:
    """Whether the room's stroke heads towards ``side`` as a stroke cut off by glare does: a room read with two
    sides or more; a dead end heading there and not to the opposite side too (as its bar or blob does), or
    running on straight into a washed-out room (``into_washed``); or a dead end from a side beside ``side``
    where glare lights ``side`` (``lit``) and washes out the room across: a corner turning into the glare.
    (Seed 868, ``--degrade cool``, game 86855000, glare, player 4: C7's corner from its bottom side to its
    right, drawn as an arc, lost its right half in the glare's halo, and C7 was read as a dead end, named
    nowhere, D7 beyond it washed out. Over 1,304 kept glare and shadow photos, 122 dead ends lay so, 8 of
    them cut corners; with the side lit, 11, 4 of them cut corners: C7; E2 of game 86855001, twice; D6 of
    game 86555001.)"""
    if into_washed and lit and len(reading.exits) == 1 and reading.exits != OPPOSITE[side]:
        return True
    return bool(reading.exits) and _heads_to(ink, cell, side) and \
        (len(reading.exits) >= 2 or not _heads_to(ink, cell, OPPOSITE[side])
         or into_washed and reading.exits == OPPOSITE[side])


def _cut_inside(reading: RoomReading, other: RoomReading | None, side: str) -> bool:
    """Whether a room inside the glare looks cut at ``side``: read as a dead end, or the room across
    (``other``) links to it or is asked about linking to it."""
    return len(reading.exits) == 1 or other is not None and (
        OPPOSITE[side] in other.exits or link_question(OPPOSITE[side]) in other.doubts)


def _dead_ends_across_asked(rooms: list[RoomReading], layout: SheetLayout, ink: np.ndarray, hidden: dict[str, str]
                            ) -> list[RoomReading]:
    """The rooms read as a dead end, a side they read unlinked asked about where the room across is asked about
    that side and this room's stroke heads towards it (``_heads_to``): the side is in doubt for both rooms, and
    the path may run on through it. Seed 818 (``--degrade dark``), glare: a straight path down through D1 and
    D2 lost its stroke across their side beside the glare; D2 was asked about its top side, D1, read as a dead
    end, named nowhere. Over 2313 kept photos of every condition (631 folders, glare and shadow ones among
    them) it asks about eight dead ends read right, each on a sheet the room across already puts in review."""
    by_name = {reading.room: reading for reading in rooms}

    def across_asked(cell, side: str) -> bool:
        other = by_name.get(cell.room.neighbour(side).name)
        return other is not None and link_question(OPPOSITE[side]) in other.doubts

    asked = []
    for reading, cell in zip(rooms, layout.rooms):
        if len(reading.exits) == 1 and not reading.trap and reading.room not in hidden:
            reading = _asked(reading, [link_question(side) for side in SIDES if side not in reading.exits
                                       and link_question(side) not in reading.doubts and across_asked(cell, side)
                                       and _heads_to(ink, cell, side)])
        asked.append(reading)
    return asked


def _heads_to(ink: np.ndarray, cell, side: str) -> bool:
    """Whether a room's stroke, faded as glare fades it, heads towards ``side`` (``GLARE_HEADING``)."""
    return heading_to(ink, cell, PX_PER_MM, side, GLARE_STROKE) >= GLARE_HEADING


WASHED_NEIGHBOURS = 3    # a room read empty with this many of its neighbours' print washed out is asked about


def _washed_around_asked(rooms: list[RoomReading], hidden: dict[str, str],
                         written: Callable[[str], bool] = lambda room: False) -> list[RoomReading]:
    """The rooms, one read as empty though the photo shows it asked about when glare or a deep shadow washes
    out the print of rooms across its sides: it lies in the washed-out patch, its own print just seen, its
    strokes perhaps not. So with ``WASHED_NEIGHBOURS`` of them (``WASHED_AROUND``; seed 739's glare, game
    73955002, player 2: F7's crossroads, pale blue in the photo, read as nothing and named nowhere, F6, E7
    and F8 around it hidden. Over 720 photos under glare, a shadow, a pen or a thumb, no other room read
    empty had even two such neighbours and something drawn); and with one, when faint ink in its round box
    says a number is written there (``written(room)``, ``scanner.read.number_written``; ``WASHED_WRITTEN``).
    (Seed 777's glare, game 77755001, player 1: G6's corner washed out but for its number, F6 and G7
    beside it hidden. Of 3,571 rooms read empty beside a washed-out room, over 464 folders of glare and
    shadow photos, 13 had such ink in the round box: all 13 drawn, 12 of them asked about already.)"""
    washed = {room for room, why in hidden.items() if washed_out(why)}
    if not washed:
        return rooms
    asked = []
    for reading in rooms:
        if reading.room not in hidden and not reading.drawn and WASHED_AROUND not in reading.doubts:
            room = Room.parse(reading.room)
            beside = sum(room.neighbour(side).name in washed for side in SIDES)
            if beside >= WASHED_NEIGHBOURS:
                reading = _asked(reading, [WASHED_AROUND])
            elif beside and WASHED_WRITTEN not in reading.doubts and written(reading.room):
                reading = _asked(reading, [WASHED_WRITTEN])
        asked.append(reading)
    return asked


def _asked(reading: RoomReading, doubts: list[str]) -> RoomReading:
    """``reading`` with ``doubts`` (new ones) added and its confidence at most 0.5, so that a person reads them;
    as it is with none."""
    if not doubts:
        return reading
    return replace(reading, confidence=min(reading.confidence, 0.5), doubts=reading.doubts + tuple(doubts))


def _cover_image(reference: _Reference, image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The reading area of a photo at COVER_PX_PER_MM, for telling what lies over the sheet."""
    x0, y0, x1, y1 = reference.area
    scale = COVER_PX_PER_MM / PX_PER_MM
    return cv2.warpPerspective(image, homography @ _page_to_mm(x0, y0, scale),
                               (int((x1 - x0) * scale), int((y1 - y0) * scale)),
                               flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


SIDE_HIDDEN = 0.25   # a side's place (``_side_places``) is hidden with a quarter of it hidden (a stroke crosses its
                     # middle: an object's edge touching a corner of it hides nothing)


LIT = "glare lights it"


def _unseen_places(layout, reference: _Reference, dark: np.ndarray, image: np.ndarray, homography: np.ndarray,
                   exclude: list[Rect], boxes: dict[str, Rect], sides: dict[str, Rect] | None = None,
                   cover_image: np.ndarray | None = None, lit: float | None = None, reached=frozenset()
                   ) -> dict[str, str]:
    """The rooms (``layout.rooms``: each with ``room`` and ``rect``), ``boxes`` and ``sides`` (at
    ``SIDE_HIDDEN``) hidden in the photo, and why (``scanner.visibility.hidden_rooms``), from the reading
    area's registered darkness (``dark``) and the photo seen through ``homography`` (its ``_cover_image``,
    when worked out already); with ``lit``, also the ``sides`` not hidden that glare lights over that share
    of them (``scanner.visibility.brightened``), why ``LIT``. ``reached``: ``hidden_rooms``'."""
    seen, printed = print_seen(dark, reference.printed, PX_PER_MM)
    origin = reference.origin_mm
    if cover_image is None:
        cover_image = _cover_image(reference, image, homography)
    if lit is None:
        cover, washed, greyed = covered(cover_image)
    else:
        cover, washed, greyed, halo = covered_and_brightened(cover_image)
    cover |= greyed_over(greyed, seen, printed)
    washed = without_tone_halos(washed, dark)
    cover &= ~reference.printed[2]          # the blank's own dense print: a cave's arrow, a coloured badge
    found = hidden_rooms(layout, origin, seen, printed, cover, washed, exclude=exclude, boxes=boxes,
                         reached=reached)
    if sides:
        found.update(hidden_rooms(_Tiles(()), origin, seen, printed, cover, washed, exclude=exclude, boxes=sides,
                                  least=SIDE_HIDDEN))
        if lit is not None:
            found.update({name: LIT for name in lit_places(halo, sides, origin, lit) if name not in found})
    return found


@dataclass(frozen=True)
class _Tiles:
    """A Dungeon Maker sheet's tiles as the rooms ``scanner.visibility`` looks for."""

    rooms: tuple


def _maker_hidden(layout, reference: _Reference, dark: np.ndarray, image: np.ndarray,
                  homography: np.ndarray) -> tuple[dict[str, str], frozenset, frozenset, tuple[str, ...]]:
    """The tiles and record boxes of a Dungeon Maker sheet the photo does not show, and why; the Gems,
    Potions, spells, Souls and hearts boxes where glare lights the paper or lies a few millimetres away
    (``scanner.visibility.glare_lit``), and the tiles' tick boxes ("tile|item") where it brightens the paper
    (``brightened``): ``MakerMarks.glared`` (there a tick washed out changes a count, or a spell cast); the
    tiles' tick boxes the photo does not show, as (tile, item); and the record rows the registration left off
    their print (``_rows_off_print``)."""
    record = {name: rect for name, rect in layout.boxes.items()
              if name.split("_")[0] in ("gem", "potion", "spell", "soul") or name.startswith("dungeon_hp_")}
    # Each tile's tick boxes too: glare on one corner of a tile can wash out a tick there and leave the rest.
    boxes = record | {f"{tile.id}|{item}": rect for tile in layout.tiles for item, rect in tile.marks}
    cover_image = _cover_image(reference, image, homography)
    found = _unseen_places(_Tiles(layout.tiles), reference, dark, image, homography, [], boxes,
                           cover_image=cover_image, reached=frozenset(record))
    tiles = {}
    for where, why in found.items():
        tile = where.split("|")[0]
        tiles.setdefault(tile, why.replace("this box", "a box of this tile") if "|" in where else why)
    shown = _print_shown({(tile.id, item): rect for tile in layout.tiles for item, rect in tile.marks},
                         reference, dark)
    for tile in _tiles_unprinted(shown):
        tiles.setdefault(tile, washed_why("this tile"))
    for tile, _ in _boxes_unprinted(shown):
        tiles.setdefault(tile, washed_why("a box of this tile"))
    unseen_boxes = frozenset(tuple(where.split("|")) for where in found if "|" in where)
    # The record boxes where glare lights the paper or lies a few millimetres away (``glare_lit``, as on the
    # monster sheets): a cross there may wash out entirely beyond the glare's halo, at the edge of its washed-out
    # core (sheet 9940500, glare: the fourth dungeon heart, read empty, named nowhere). The tiles' tick boxes
    # where it brightens the paper.
    halo, lit = brightened_and_lit(cover_image)
    glared = _glared(reference, halo, {key: rect for key, rect in boxes.items() if key not in record}) \
        | _glared(reference, lit, record)
    off = _rows_off_print(_print_shown(record, reference, dark), shown, set(found) | glared)
    return tiles, glared, unseen_boxes, off


TILE_PRINT_SEEN = 0.2    # a tile whose tick boxes show less than this share of the print the sheet's tiles show
BOX_PRINT_SEEN = 0.1     # a tick box whose printed outline shows less than this share of the sheet's median box's


def _print_shown(boxes: dict, reference: _Reference, dark: np.ndarray) -> dict:
    """How much of each Dungeon Maker box's printed outline (``boxes``: key -> Rect, a tile's tick boxes as
    (tile, item)) the registered photo (``dark``, 8-bit) shows: its darkness there as a share of the blank's,
    key -> share."""
    x0, y0 = reference.area[0], reference.area[1]
    shown = {}
    for key, rect in boxes.items():
        box = rect.grown(0.3)       # the printed outline, and the registration's slack round it
        place = (slice(max(int(round(box.y * PX_PER_MM)) - y0, 0), max(int(round(box.bottom * PX_PER_MM)) - y0, 0)),
                 slice(max(int(round(box.x * PX_PER_MM)) - x0, 0), max(int(round(box.right * PX_PER_MM)) - x0, 0)))
        blank = reference.darkness[place]
        line = blank > 0.25
        if line.sum() >= 5:
            shown[key] = float(dark[place][line].mean()) / 255 / float(blank[line].mean())
    return shown


ROW_PRINT_OFF = 0.3      # a record row whose boxes' printed outlines show, at the median, under this share of the
                         # sheet's median tick box's lies off where the registration put it (two curled sheets' Spells
                         # read wrong: 0.12 and 0.2; of 1200 rows of 240 sheets of every condition, none of a thumb's
                         # or glare's: 0.43 at the least, a fold across the Souls, then 0.69)


def _rows_off_print(shown: dict[str, float], tiles_shown: dict, hidden) -> tuple[str, ...]:
    """The record rows (``scanner.maker.record_places``: Gems, Spells, ...) whose boxes' printed outlines the
    registered photo hardly shows (``shown``, by box name), against the tiles' tick boxes (``tiles_shown``):
    the median box under ``ROW_PRINT_OFF`` of the median tick box, none of the row's boxes among the places
    the photo does not show or glare brightens (``hidden``: asked about already, and glare fades print).
    Where a curl lifts the sheet's edge fast, the registration may leave a row several millimetres off its
    print, beyond what ``_aligned_rows`` moves a row: maker sheet 9070309 (curled), its Spells 5-7 mm off,
    three spells got and two cast read as none, and only one box asked about. Such a row is asked about as
    one that may be read a box off (``MakerScan.slipped``)."""
    from scanner.maker import record_row as row_of

    if not shown or not tiles_shown:
        return ()
    typical = float(median(np.array(list(tiles_shown.values()))))
    rows: dict[str, list[float]] = {}
    for name, share in shown.items():
        if (row := row_of(name)) is not None:
            rows.setdefault(row, []).append(share)
    unseen = {row_of(name) for name in hidden}
    return tuple(row for row, shares in rows.items()
                 if row not in unseen and float(median(np.array(shares))) < ROW_PRINT_OFF * typical)


def _tiles_unprinted(shown: dict[tuple[str, str], float]) -> list[str]:
    """The Dungeon Maker tiles whose tick boxes' printed outlines the photo hardly shows (``_print_shown``):
    the median box's share, against the median tile's, under ``TILE_PRINT_SEEN``. The tiles' light print is
    too faint for ``scanner.visibility``'s print test, and glare it finds by its brightness; a phone's local
    tone mapping (HDR) evens that brightness out, and a washed-out tick was then read as empty, the sheet
    flagged nowhere (seed 862, ``--degrade hdr``, glare: sheet 8620501, D5's Skeleton beside C5). Over 60
    sheets of every condition (seed 863) such tiles lie only under glare, and each was found hidden already."""
    tiles: dict[str, list[float]] = {}
    for (tile, _), share in shown.items():
        tiles.setdefault(tile, []).append(share)
    if not tiles:
        return []
    medians = {tile: float(median(np.array(shares))) for tile, shares in tiles.items()}
    typical = float(median(np.array(list(medians.values()))))
    return [tile for tile, share in medians.items() if share < TILE_PRINT_SEEN * typical]


def _boxes_unprinted(shown: dict[tuple[str, str], float]) -> list[tuple[str, str]]:
    """The tick boxes whose printed outline the photo hardly shows (``_print_shown``): under ``BOX_PRINT_SEEN``
    of the sheet's median box. Glare on a tile's corner washes out a few boxes and leaves the rest: an
    underexposed photo (``--degrade dark``, seed 879, sheet 8790000) dimmed the glare below what the
    visibility test finds, and F5's Slime tick, in a box whose outline showed at 0.01, was read as empty, the
    sheet flagged nowhere. (On 48 sheets of every condition, seed 881, such boxes lay only under glare.)"""
    if not shown:
        return []
    typical = float(median(np.array(list(shown.values()))))
    return [key for key, share in shown.items() if share < BOX_PRINT_SEEN * typical]


def _glared(reference: _Reference, lit: np.ndarray, boxes: dict) -> frozenset:
    """The keys of ``boxes`` (key -> Rect in page mm) that glare touches, as ``lit`` maps it on the reading
    area's cover image (``scanner.visibility.brightened``'s map, its halo, or ``glare_lit``'s)."""
    touched = touching(lit, list(boxes.values()), reference.origin_mm)
    return frozenset(key for key, bright in zip(boxes, touched) if bright)


ALONG_CREASE = "a fold's crease runs along the middle of this row of rooms: is a path drawn here, or only the crease?"


CREASE_OVER_STROKE_MM = 2.0    # a crease cleared this near a room's middle may have taken a stroke with it


def _crease_lines(crease, cell) -> tuple[int, int]:
    """The first and last page row (a column crease's: column) of the band cleared for ``crease`` beside
    the middle of ``cell``."""
    along = int(round((cell.rect.centre[1] if crease[0] else cell.rect.centre[0]) * PX_PER_MM))
    return crease_band(int(as_crease(crease).at(along)), PX_PER_MM, 1 << 30)


def _crease_at(crease, cell) -> float:
    """Where (mm) a crease runs beside the middle of ``cell``: a column crease's x, a row crease's y."""
    return crease_mm(crease, cell.rect.centre[1] if crease[0] else cell.rect.centre[0], PX_PER_MM)


def _along_crease(reading: RoomReading, cell, cleared: list[Crease], kept: list[Crease],
                  writes: bool = False, drawn=lambda line: False) -> RoomReading:
    """A room along a fold's crease, asked about where the crease may have changed its reading: a crease
    ``kept`` on the ink map (it lies where a straight path could run) may be what links the room's two
    opposite sides, unless ``drawn(line)`` says that the line runs from side to side of this room as dark
    as the player's strokes; a crease ``cleared`` through the room's middle clears a stroke drawn along it too.
    For a player who ``writes`` round numbers, a room read only as the crease's two sides, its round box
    clean, holds the crease alone: it is read empty."""
    def off_middle(crease) -> tuple[str, float, float]:
        """The sides a crease runs towards, how far (mm) from the room's middle it runs, and the room's size."""
        columns, at = crease[0], _crease_at(crease, cell)
        start, size = (cell.rect.x, cell.rect.w) if columns else (cell.rect.y, cell.rect.h)
        return "NS" if columns else "EW", abs(at - (start + size / 2)), size

    doubts = list(reading.doubts)
    along = [sides for line, (sides, off, size) in zip(kept, map(off_middle, kept))
             if off <= 0.2 * size and set(sides) & set(reading.exits) and not drawn(line)]
    if writes and not reading.written and not reading.trap and any(set(reading.exits) <= set(sides) for sides in along):
        return RoomReading(reading.room, strengths=reading.strengths, confidence=UNWRITTEN_CONFIDENCE, written=False)
    if along:
        doubts.append(ALONG_CREASE)
    if reading.exits or reading.trap:
        for sides, off, _ in map(off_middle, cleared):
            doubts += [link_question(side) for side in sides if off <= CREASE_OVER_STROKE_MM
                       and side not in reading.exits and link_question(side) not in doubts]
    return _asked(reading, doubts[len(reading.doubts):])


def _linked_across(by_name: dict[str, RoomReading], cell, side: str) -> bool:
    """Whether the room across ``side`` of ``cell`` (its reading in ``by_name``, by room) links to that side."""
    other = by_name.get(cell.room.neighbour(side).name)
    return other is not None and OPPOSITE[side] in other.exits


def _sides_asked(rooms: list[RoomReading], layout: SheetLayout, doubtful) -> list[RoomReading]:
    """The rooms, each side that the room across links to and ``doubtful(reading, cell, side)`` says may be
    misread asked about (``link_question``)."""
    by_name = {reading.room: reading for reading in rooms}
    settled = []
    for reading, cell in zip(rooms, layout.rooms):
        doubts = list(reading.doubts)
        for side in SIDES:
            if _linked_across(by_name, cell, side) and link_question(side) not in doubts \
                    and doubtful(reading, cell, side):
                doubts.append(link_question(side))
        settled.append(_asked(reading, doubts[len(reading.doubts):]))
    return settled


def _beside_crease(rooms: list[RoomReading], layout: SheetLayout, cleared: list[Crease], ink: np.ndarray
                   ) -> list[RoomReading]:
    """The rooms, a side along which a fold's crease was ``cleared`` (where a stroke to the side is sought:
    ``PROBE_DEPTH``) asked about where clearing the crease may have taken the end of the stroke with it:
    where the room across it reads a link through it and this room some ink towards it, too little to read
    it linked; or, the room across not linked (a dead end), where this room's own stroke runs into the
    crease's band (``scanner.read.runs_into``). A side with no ink towards it stays as read."""
    def beside(cell, side: str):
        columns = side in "WE"
        start, size = (cell.rect.x, cell.rect.w) if columns else (cell.rect.y, cell.rect.h)
        edge = start if side in "NW" else start + size
        return next((crease for crease in cleared if crease[0] == columns
                     and abs(_crease_at(crease, cell) - edge) <= PROBE_DEPTH[1] * size), None)

    rooms = _sides_asked(rooms, layout, lambda reading, cell, side: side not in reading.exits
                         and reading.strengths.get(side, 0.0) >= FAINT and beside(cell, side) is not None)
    asked = []
    for reading, cell in zip(rooms, layout.rooms):
        sides = [side for side in SIDES if reading.exits and side not in reading.exits
                 and link_question(side) not in reading.doubts and (crease := beside(cell, side)) is not None
                 and runs_into(ink, cell, PX_PER_MM, side, _crease_lines(crease, cell))]
        asked.append(_asked(reading, [link_question(side) for side in sides]))
    return asked


def _lone_x_asked(rooms: list[RoomReading], layout: SheetLayout, ink: np.ndarray) -> list[RoomReading]:
    """The rooms read as a path that links to nothing around it (no entryway, no neighbour's stroke across
    any of its sides) and whose strokes slant both ways like an X's arms (``scanner.read.slanting_both_ways``),
    asked about as a Trap (``LONE_X``). Seed 726, dim: an X with one arm leaning steeply was read as a corner
    path, named only as a segment linked to nothing; the Trap's hits on the two sheets whose paths went
    through the room were lost, and those sheets scored 3 points high, named nowhere. Asked as a Trap, the
    doubt reaches the other sheets (``games.doubts.flag_shared_doubts``)."""
    by_name = {reading.room: reading for reading in rooms}

    def linked(cell, side: str) -> bool:
        return layout.dungeon.side_kind(cell.room, side) == "entry" or _linked_across(by_name, cell, side)

    return [_asked(reading, [LONE_X]) if len(reading.exits) >= 2 and not reading.trap_in_doubt
            and not any(linked(cell, side) for side in reading.exits) and slanting_both_ways(ink, cell, PX_PER_MM)
            else reading for reading, cell in zip(rooms, layout.rooms)]


POKED_IN_CONFIDENCE = 0.8   # a room settled so (``_overshoots_settled``) goes to no review by itself


def _overshoots_settled(rooms: list[RoomReading], layout: SheetLayout, ink: np.ndarray) -> list[RoomReading]:
    """The rooms whose one doubt is whether a side they read unlinked is linked after all, settled as read
    where the ink towards that side is only a short piece poking in across it (``only_poking_in``) and the
    room across links to it: the end of that room's stroke, run on past the side, as a messy hand's does.
    (On 130 folders of kept photos, messy ones and others, 53 rooms were asked so, every one unlinked there
    as read; where the side was linked, the room was asked about its stub too.)"""
    by_name = {reading.room: reading for reading in rooms}
    settled = []
    for reading, cell in zip(rooms, layout.rooms):
        side = next((side for side in SIDES if reading.doubts == (link_question(side),)), None)
        if side is not None and side not in reading.exits and not reading.trap \
                and _linked_across(by_name, cell, side) and only_poking_in(ink, cell, PX_PER_MM, side):
            reading = replace(reading, doubts=(), confidence=max(reading.confidence, POKED_IN_CONFIDENCE))
        settled.append(reading)
    return settled


def _overshoots_asked(rooms: list[RoomReading], layout: SheetLayout, ink: np.ndarray) -> list[RoomReading]:
    """The rooms, a side read linked only by a short piece of ink poking in across it, not joined to the
    room's own strokes, asked about where the room across that side is linked to it: the piece is more
    likely the end of the neighbour's stroke, run on past the side, than a path of this room's."""
    return _sides_asked(rooms, layout, lambda reading, cell, side:
                        side in reading.exits and only_poking_in(ink, cell, PX_PER_MM, side))


def _straight_path_fits(layout: SheetLayout, line: Crease, drawn) -> bool:
    """Whether a player's path could be the ``line`` found straight across the whole map (a row of the
    page, or a column): only through the middles of one row (column) of rooms, every room of it open to
    the next, or the line as dark as the player's strokes nearly all along it (``drawn(line)``: a path
    from an entrance to the one across the map may stop short of linking up). A fold's crease runs
    anywhere, walls and all, as a faint shade."""
    columns, at_mm = line[0], line[1] / PX_PER_MM
    grid, size = layout.grid, layout.room_size
    start = grid.x if columns else grid.y
    index, within = divmod(at_mm - start, size)
    if abs(within / size - 0.5) > 0.2:
        return False
    if drawn(line):
        return True
    dungeon = layout.dungeon
    rooms = [cell.room for cell in layout.rooms
             if round(((cell.rect.x if columns else cell.rect.y) - start) / size) == int(index)]
    side = "S" if columns else "E"
    return bool(rooms) and all(dungeon.side_kind(room, side) != "wall" for room in rooms
                               if dungeon.contains(room.neighbour(side)))


DRAWN_SHADE = 0.85       # a line found as a crease is drawn where the photo shows it this dark against the strokes
DRAWN_ACROSS = 0.9       # ... and drawn through a room where it is inked over this share of the room's width
STROKE_INK = 0.99        # the player's strokes: ink this sure, ...
FEWEST_STROKE_PX = 100   # ... in this many pixels beside the line at least


class _Shades:
    """How dark the photo shows lines found as creases, against the player's strokes elsewhere on the sheet
    (``ink``: the page's ink map; ``dark``: the registered darkness over the reading ``area``). A fold's
    crease is a faint shade all along it: on the photographer's folded sheets a fifth to three quarters as
    dark as the strokes (in pencil up to 0.77). A pen's straight path along a row of rooms is as dark as its
    other strokes: 0.93-1.15 over the fifth of its length least dark."""

    def __init__(self, ink: np.ndarray, dark: np.ndarray, area: tuple[int, int, int, int]):
        self.ink, self.dark, self.area = ink, dark, area
        self._lines: dict[tuple, tuple[np.ndarray, np.ndarray, float | None]] = {}

    @cached_property
    def _page(self) -> np.ndarray:
        """The registered darkness over the whole page (zero beyond the reading area)."""
        x0, y0, x1, y1 = self.area
        page = np.zeros(self.ink.shape, np.uint8)
        page[y0:y1, x0:x1] = self.dark
        return page

    def _line(self, line: Crease) -> tuple[np.ndarray, np.ndarray, float | None]:
        line = as_crease(line)
        key = (line[0], line[1], line.slope, line.middle)
        if key not in self._lines:
            shade, inked = line_shade(self.ink, self._page, line, PX_PER_MM, INKED)
            strokes = (self.ink >= STROKE_INK) & ~crease_mask(self.ink.shape, line, PX_PER_MM)
            pen = float(median(self._page[strokes])) if np.count_nonzero(strokes) >= FEWEST_STROKE_PX else None
            self._lines[key] = shade, inked, pen
        return self._lines[key]

    def drawn(self, line: Crease, start: int = 0, stop: int | None = None, cover: float = 0.0) -> bool:
        """Whether the photo shows ``line`` as dark as the player's strokes over nearly all of its inked
        pixels from pixel ``start`` to ``stop`` along it, inked over ``cover`` of them at least."""
        shade, inked, pen = self._line(line)
        along = shade[start:stop][inked[start:stop]]
        return pen is not None and along.size > max(0.0, cover * inked[start:stop].size - 1) and \
            percentile(along, 20) >= DRAWN_SHADE * pen


def _stretch(line: Crease, cell) -> tuple[int, int]:
    """The pixels along ``line`` (a row of the page, or a column) from one side of ``cell`` to the other."""
    start, size = (cell.rect.y, cell.rect.h) if line[0] else (cell.rect.x, cell.rect.w)
    return int(round(start * PX_PER_MM)), int(round((start + size) * PX_PER_MM))


CAVE_ARROW_MM = 1.8      # half the width of a cave entrance's printed arrow, with registration's slack


def _without_cave_arrows(ink: np.ndarray, layout: SheetLayout) -> np.ndarray:
    """The ink map without the arrows of cave entrances: they are printed in a room (beyond the cave's
    wall, where no path goes), in colour, which the ink map cannot tell from a coloured pen."""
    caves = [arrow for arrow in layout.arrows if layout.dungeon.contains(arrow.room.neighbour(arrow.side))]
    if not caves:
        return ink
    ink = ink.copy()
    for arrow in caves:
        ends = [tuple(int(round(v * PX_PER_MM)) for v in point) for point in (arrow.tip, arrow.tail)]
        cv2.line(ink, ends[0], ends[1], 0.0, int(round(2 * CAVE_ARROW_MM * PX_PER_MM)))
        mouth = arrow.mouth                          # the cave's mouth drawn on its wall, where there is one
        if mouth is not None:
            x0, y0 = int(mouth.x * PX_PER_MM), int(mouth.y * PX_PER_MM)
            ink[y0:int(np.ceil(mouth.bottom * PX_PER_MM)), x0:int(np.ceil(mouth.right * PX_PER_MM))] = 0.0
    return ink


GATE_APPROACH_MM = (0.6, 2.5)   # a path to a filled gate is sought this far beyond its circle
GATE_LANE_MM = 1.8              # ... and this far beside the line through its middle
GATE_REACHED_MM = 1.0           # ... and runs into the gate when its ink comes this near the circle (a hand's
                                # stroke into a gate came to 0.6-0.8 mm; dead ends stopped 1.3-1.7 mm short)


def _without_filled_gates(ink: np.ndarray, layout: SheetLayout, gates) -> np.ndarray:
    """The ink map with each filled Rune Gate's circle cleared, and where a room's stroke runs up to the
    circle, a line on to the side's midpoint in its place: the fill would read as strokes to the side
    in both rooms, and a path may link to a closed gate. A stroke that stops short of the circle
    (``GATE_REACHED_MM``) is left as drawn: a dead end before the gate, its side read as the room's
    probe finds it."""
    ink = ink.copy()
    for gate in layout.gates():
        if gate.side not in gates:
            continue
        cx, cy = gate.centre
        reach = gate.radius + GATE_APPROACH_MM[0]

        def lane(sign: int, far_mm: float) -> np.ndarray:
            """The ink beside the circle on one side (``sign``), from ``reach`` out to ``far_mm`` past its ring."""
            far = gate.radius + far_mm
            if gate.across == "x":
                x0, x1 = sorted((cx + sign * reach, cx + sign * far))
                a0, b0, a1, b1 = _pixels(Rect(x0, cy - GATE_LANE_MM, x1 - x0, 2 * GATE_LANE_MM))
            else:
                y0, y1 = sorted((cy + sign * reach, cy + sign * far))
                a0, b0, a1, b1 = _pixels(Rect(cx - GATE_LANE_MM, y0, 2 * GATE_LANE_MM, y1 - y0))
            return ink[b0:b1, a0:a1]

        cv2.circle(ink, (int(round(cx * PX_PER_MM)), int(round(cy * PX_PER_MM))), int(round(reach * PX_PER_MM)),
                   0.0, -1)
        for sign in (-1, 1):
            if (lane(sign, GATE_APPROACH_MM[1]) >= INKED).sum() >= 0.8 * PX_PER_MM ** 2 \
                    and (lane(sign, GATE_REACHED_MM) >= INKED).any():
                end = (cx + sign * reach, cy) if gate.across == "x" else (cx, cy + sign * reach)
                cv2.line(ink, tuple(int(round(v * PX_PER_MM)) for v in end),
                         (int(round(cx * PX_PER_MM)), int(round(cy * PX_PER_MM))), 1.0,
                         max(2, int(round(0.6 * PX_PER_MM))))
    return ink


FILL_PAPER_SCALE = 5.0   # a solid fill of a Curse Track half or a Rune Gate is up to 10 mm wide
FILL_REACH_MM = 1.5      # ... measured again that far round each box, gate and the Curse Track


def _with_solid_fills(ink: np.ndarray, image: np.ndarray, homography: np.ndarray, shift: np.ndarray,
                      reference: _Reference, layout: SheetLayout, blank: BlankRenderer, gain: float = 1.0,
                      noise: float = 0.0, tone: float = 1.0) -> np.ndarray:
    """The ink map with the Curse Track, the Rune Gates and the Diamonds' and Emeralds' boxes measured again
    against the paper's white found in a window wide enough not to take a solid fill or a dense scribble
    for paper (the ink map's own keeps only its outline). Moved as the reading area was registered, and
    its darkness toned down as the reading area's was (``tone``, ``_print_tone``)."""
    key = (layout.dungeon, layout.paper, layout.design, "fills")
    areas = ([layout.curse_box] if layout.curse_box is not None else []) + \
        [Rect(g.centre[0] - g.radius, g.centre[1] - g.radius, 2 * g.radius, 2 * g.radius) for g in layout.gates()] + \
        [cell.mark for cell in layout.rooms if cell.mark is not None]
    if key not in _REFERENCES:
        whole = _make_reference(blank(layout, PX_PER_MM), layout.width, layout.height,
                                (0, 0, int(round(layout.width * PX_PER_MM)), int(round(layout.height * PX_PER_MM))),
                                paper_scale=FILL_PAPER_SCALE)
        references = []
        for area in areas:
            x0, y0, x1, y1 = _pixels(area.grown(4.0))
            references.append(_Reference((x0, y0, x1, y1), whole.page_shape, whole.darkness[y0:y1, x0:x1],
                                         whole.allowance[y0:y1, x0:x1], FILL_PAPER_SCALE))
        _REFERENCES[key] = references
    ink = ink.copy()
    rx0, ry0 = reference.area[:2]
    for area, wide in zip(areas, _REFERENCES[key]):
        x0, y0, x1, y1 = wide.area
        if x0 < rx0 or y0 < ry0 or x1 > reference.area[2] or y1 > reference.area[3]:
            continue
        region = _rectified(image, homography, x0, y0, x1 - x0, y1 - y0)
        dark, colour = measure(quieted(region, noise), PX_PER_MM * wide.paper_scale)
        field = np.ascontiguousarray(shift[y0 - ry0:y1 - ry0, x0 - rx0:x1 - rx0])
        dark, colour = shift_planes(field, dark, colour)
        wide_ink = ink_map(_toned(dark, tone), colour, wide.allowance, gain)
        a0, b0, a1, b1 = _pixels(area.grown(FILL_REACH_MM))
        ink[b0:b1, a0:a1] = np.maximum(ink[b0:b1, a0:a1], wide_ink[b0 - y0:b1 - y0, a0 - x0:a1 - x0])
    return ink


def _pixels(rect: Rect) -> tuple[int, int, int, int]:
    """A rectangle (mm) as page pixels x0, y0, x1, y1."""
    return tuple(int(round(v * PX_PER_MM)) for v in (rect.x, rect.y, rect.right, rect.bottom))


# A filled bubble is wider than any stroke: the paper's white is found in a window wide enough not to
# take a filled bubble for paper; the many bubbles give registration plenty to hold on to in small tiles.
PAPER_SCALE = 3.0
TILE_MM = 32.0
REFINE_MM = 14.0


def _scan_monster_sheet(photo: Photo, frame: SheetFrame, source: str, sheet_id: SheetId, blank: BlankRenderer,
                        read_digit, guessed: DungeonMap | None, resolution: float) -> MonsterScan:
    """A monster record sheet: its cards and pools rectified, the ink told from the print, every bubble and
    life box measured."""
    layout = MONSTER.layout(sheet_id)
    key = (MONSTER.key, layout.paper, layout.page, layout.design)
    if key not in _REFERENCES:
        area = layout.reading_area()
        pixels = (max(area.x, 0), area.y, min(area.right, layout.width), min(area.bottom, layout.height))
        _REFERENCES[key] = replace(_make_reference(blank(layout, PX_PER_MM), layout.width, layout.height,
                                                   tuple(int(round(v * PX_PER_MM)) for v in pixels),
                                                   paper_scale=PAPER_SCALE, tile_mm=TILE_MM, refine_mm=REFINE_MM),
                                   scale_faint=True)
    homography = frame.homography(layout.paper)
    reference = _REFERENCES[key]
    registered = _registered_ink(photo.image, homography, reference)
    ink, shift, dark = registered.ink, registered.shift, registered.dark
    from scanner.monsters import MonsterScan, paper_grain, read_marks, shaded_bubbles  # only for monster record sheets

    # A thumb, a pen or glare over a bubble group, a life track or a pool's row: named, never read as empty.
    places = layout.places()
    cover_image = _cover_image(reference, photo.image, homography)
    hidden = _unseen_places(_Tiles(()), reference, dark, photo.image, homography, [], places,
                            cover_image=cover_image)
    x0, y0, x1, y1 = reference.area
    glared, faint = _monster_glared(layout, reference, cover_image, hidden), _washed_out(dark, reference)
    marks = replace(read_marks(ink, layout, PX_PER_MM), glared=glared, faint=faint,
                    shaded=shaded_bubbles(_on_page(reference, dark / 255), layout, glared, PX_PER_MM, faint)
                    if glared or faint else frozenset(),
                    grain=paper_grain(ink[y0:y1, x0:x1], reference.darkness, layout, PX_PER_MM))
    return MonsterScan(source, sheet_id, layout, marks, resolution,
                       _page_picture(photo.image, homography, reference, shift), hidden,
                       _whole_pools(_slipped(shift, reference, places), places))


def _whole_pools(slipped: tuple[str, ...], places: dict[str, Rect]) -> tuple[str, ...]:
    """The ``slipped`` places of a monster record sheet, with every row of a pool some of whose rows slipped: a
    pool's rows lie a few millimetres apart under one curl, and the registration's jump shows over some of them
    only. Seed 232, curled, sheet 232001: the reserve's d4 to d10 rows were named, and its d12 row's two dice
    were read in the d20 row, named nowhere."""
    pools = {place.split()[0] for place in slipped if not place.startswith("monster ")}
    return tuple(place for place in places
                 if place in slipped or (not place.startswith("monster ") and place.split()[0] in pools))


def _monster_glared(layout, reference: _Reference, cover_image: np.ndarray, hidden: dict) -> frozenset:
    """The bubbles, as (group, value), and life boxes, as (track, box from 1), of a monster record sheet
    where glare lights the paper or lies a few millimetres away (``scanner.visibility.glare_lit``: a marker's
    fill or a single cross washes out there to as little as an empty bubble's or box's ink), in places the
    photo shows."""
    boxes = {(track, number): box for track, track_boxes in layout.life_tracks().items() if track not in hidden
             for number, box in enumerate(track_boxes, start=1)}
    # A pool's place is its row of one die size: "reserve d10" for the bubble "d10 orange".
    boxes.update({(bubble.group, bubble.value): bubble.rect for pool in layout.pools for bubble in pool.bubbles
                  if f"{pool.key} {bubble.value.split()[0]}" not in hidden})
    # A card's groups by their own names ("monster 1 core colour"), as ``hidden`` names them.
    boxes.update({(bubble.group, bubble.value): bubble.rect for name, bubbles in layout.groups().items()
                  if name not in hidden for bubble in bubbles})
    return _glared(reference, glare_lit(cover_image), boxes)


SLIP_STEP_MM = 2.0    # the registration's move is compared between points this far apart ...
SLIPPED = 0.3         # ... and where it changes by this much (pixels per pixel) a place may be read a bubble off


def _slipped(shift: np.ndarray, reference: _Reference, places: dict[str, Rect]) -> tuple[str, ...]:
    """The places (a monster record sheet's ``MonsterLayout.places``, a Dungeon Maker sheet's record rows)
    where the registration's move jumps: a curl bends paper smoothly, but the record sheet's bubbles and
    boxes repeat every few millimetres, so a tile of it may be matched one bubble off where the paper curls
    most (or a steep view foreshortens it), and every mark there read as its neighbour. A jump of a bubble's pitch
    across one registration tile changes the move by about ``SLIPPED`` a pixel; a flat or evenly tilted
    sheet's changes by under a tenth of that."""
    step = int(round(SLIP_STEP_MM * PX_PER_MM))
    coarse = shift[::step, ::step]
    # Per cell of the coarse grid: how much the move changes along and down it, both coordinates.
    along, down = np.abs(np.diff(coarse, axis=1)).sum(axis=2), np.abs(np.diff(coarse, axis=0)).sum(axis=2)
    change = (along[:-1] + down[:, :-1]) / step
    # Widened by a step: the tiles' moves are blended between their middles, so a slip shows a little
    # beside the marks it moved.
    jumps = cv2.dilate((change >= SLIPPED).astype(np.uint8), np.ones((3, 3), np.uint8))
    x0, y0 = reference.area[:2]
    found = []
    for name, rect in places.items():
        a0, b0 = (max(0, int((v * PX_PER_MM - o) // step)) for v, o in ((rect.x, x0), (rect.y, y0)))
        a1, b1 = (int((v * PX_PER_MM - o) // step) + 1 for v, o in ((rect.right, x0), (rect.bottom, y0)))
        if jumps[b0:b1, a0:a1].any():
            found.append(name)
    return tuple(found)


def _scan_maker_sheet(photo: Photo, frame: SheetFrame, source: str, sheet_id: SheetId, blank: BlankRenderer,
                      read_digit, guessed: DungeonMap | None, resolution: float) -> MakerScan:
    """A Dungeon Maker sheet: rectified, the ink told from the print, every tick box and tile side measured."""
    layout = MAKER.layout(sheet_id)
    key = (MAKER.key, layout.paper, layout.design, layout.loot.seed, layout.loot.page)
    if key not in _REFERENCES:
        if len(_REFERENCES) > 64:       # each random loot layout is its own page: keep a tournament's bounded
            _REFERENCES.clear()
            _PRINT_MASKS.clear()
        # Read from the round track down to the Scoring chart's Souls and hearts (and the Spells, wherever
        # they sit), the page's whole width.
        bottom = max(layout.panels[name].rect.bottom for name in ("scoring", "spells")) + 2.0
        pixels = (0.0, layout.header.y - 1.0, layout.width, min(bottom, layout.height))
        grey = blank(layout, PX_PER_MM)
        # Where the blank prints (the letters in the tick boxes): a faint tick is looked for beside them.
        _PRINT_MASKS[key] = cv2.dilate((grey < MAKER_PRINT_LEVEL).astype(np.uint8), np.ones((3, 3), np.uint8))
        area = tuple(int(round(v * PX_PER_MM)) for v in pixels)
        _REFERENCES[key] = _make_reference(grey, layout.width, layout.height, area,
                                           refine_mm=MAP_REFINE_MM, refine_from_px=MAP_REFINE_FROM_MM * PX_PER_MM,
                                           finest=(MAKER_FINEST_MM, _within(_pixels(layout.grid), area)),
                                           flat_slack=True)
    reference = _REFERENCES[key]
    homography = frame.homography(layout.paper)
    ink, shift, dark, gain, _, fine, colour, _ = _registered_ink(photo.image, homography, reference)
    # A fold's crease straight across the grid reads as path lines through every tile it crosses: cleared,
    # and the tiles it ran along asked about (a line drawn there went with it).
    uncleared = ink
    ink, creases, _ = without_creases(ink, _pixels(layout.grid), PX_PER_MM, INKED)
    if creases and fine:
        # A folded sheet's panels lie a little apart, more than the finer allowance lets the print move. (The
        # wider one may fade the crease below what is found as one: it is cleared where it was found.)
        uncleared = _page_ink(reference, dark, colour, gain, False)
        ink = cleared_creases(uncleared, creases, _pixels(layout.grid), PX_PER_MM)
    from scanner.maker import MakerScan, read_marks, record_places      # only for Dungeon Maker sheets

    darkness = np.zeros(reference.page_shape, np.uint8)
    x0, y0, x1, y1 = reference.area
    darkness[y0:y1, x0:x1] = dark
    ink = _aligned_rows(ink, dark, colour, reference, _row_parts(layout.boxes), gain, fine and not creases)
    marks = read_marks(ink, layout, PX_PER_MM, _PRINT_MASKS[key], creases, uncleared, darkness)
    hidden, glared, unseen_boxes, off_print = _maker_hidden(layout, reference, dark, photo.image, homography)
    # Rows of record boxes, and a tile's tick boxes, repeat every few millimetres, so where the sheet bends
    # fast a registration tile may be matched a box off, every tick read as its neighbour (as on a monster
    # record sheet). A tick then lies between boxes, read in none of them: maker sheet 8450700, C5's Slime
    # (a broad pen, a dim photo, 3 mm of curl), read empty and named nowhere before tiles were looked at.
    places = {**record_places(layout.boxes), **{tile.id: tile.rect for tile in layout.tiles}}
    return MakerScan(source, sheet_id, layout, replace(marks, glared=glared), resolution,
                     _page_picture(photo.image, homography, reference, shift), hidden,
                     tuple(dict.fromkeys(_slipped(shift, reference, places) + off_print)), unseen_boxes)


class _Registered(NamedTuple):
    """A photo's reading area rectified and registered to the blank (``_registered_ink``)."""

    ink: np.ndarray       # the ink map, page-sized (zero outside the reading area)
    shift: np.ndarray     # the registration's shift field, over the reading area
    dark: np.ndarray      # the registered darkness (``scanner.ink.measure``'s), over the reading area
    gain: float           # the gain the sheet's strokes were read with (``scanner.ink.stroke_gain``)
    noise: float          # the photo's sensor noise (``scanner.ink.noise_level``)
    fine: bool            # whether the ink was told from the print with the finer allowance (a clear photo)
    colour: np.ndarray    # the registered colour, over the reading area
    tone: float           # how much darker than the blank the photo shows the print (``_print_tone``), by
                          # which its darkness was toned down


def _registered_ink(image: np.ndarray, homography: np.ndarray, reference: _Reference) -> _Registered:
    """The reference's reading area of a photo rectified and registered to the blank, its ink told from the
    print (``_Registered``)."""
    x0, y0, x1, y1 = reference.area
    region = _rectified(image, homography, x0, y0, x1 - x0, y1 - y0)
    noise = noise_level(region)
    region = quieted(region, noise)
    dark, colour = measure(region, PX_PER_MM * reference.paper_scale)
    shift, found = register_tiles(dark, reference.darkness, PX_PER_MM, tile_mm=reference.tile_mm)
    # A wide lens bows the sheet's edge further than the markers' homography follows (up to 7 mm off on a
    # steep view): where the move reads a pixel of the area from beyond its edge, the area is moved within
    # the photo around it (``_Margin``), not smeared from its own edge row.
    margin = _Margin.around(image, homography, reference, noise, dark, colour) \
        if _outward(shift) > OUTWARD_PX else None
    move = margin.move if margin is not None else shift_planes
    dark, colour = move(shift, dark, colour)
    spread = _spread(shift, reference.tile_mm)
    if reference.refine_mm and spread >= reference.refine_from_px:
        # Where the paper curls or bends, or a wide lens bows the lines, the move changes faster than the
        # first tiles can follow: smaller tiles follow it, after the large ones once more where it moved
        # parts of the sheet so far apart that some tiles may have been out of reach.
        # The smaller tiles at the page's edge reach as far as the large ones: past the large tiles' centres a
        # curl's move grows faster than their field follows.
        again = [(reference.tile_mm, np.where(found, REACH_MM, FAR_REACH_MM), None)] \
            if spread >= FAR_SPREAD_MM * PX_PER_MM else []
        for tile_mm, reach_mm, edge_reach_mm in again + [(reference.refine_mm, REFINE_REACH_MM, REACH_MM)]:
            more = register(dark, reference.darkness, PX_PER_MM, tile_mm=tile_mm, reach_mm=reach_mm,
                            edge_reach_mm=edge_reach_mm)
            dark, colour = move(more, dark, colour)
            shift = shift + more
    if reference.finest is not None and _bend(shift) >= BENT:
        tile_mm, (a0, b0, a1, b1) = reference.finest
        # Its field fades out at the grid's edge (``_faded``): it does not carry on past its tiles' centres.
        more = _faded(register(dark[b0:b1, a0:a1], reference.darkness[b0:b1, a0:a1], PX_PER_MM, tile_mm=tile_mm,
                               reach_mm=FINEST_REACH_MM, print_only=True, carry_on=False), dark.shape,
                      reference.finest[1])
        dark, colour = move(more, dark, colour)
        shift = shift + more
    tone = _print_tone(dark, *reference.print_art, faint=PRINT_FAINT if reference.scale_faint else 0.0)
    dark = _toned(dark, tone)
    gain = stroke_gain(dark, reference.allowance)
    fine = reference.flat_allowance is not None and noise < QUIET_FROM
    return _Registered(_page_ink(reference, dark, colour, gain, fine), shift, dark, gain, noise, fine, colour, tone)


PRINT_ART = (0.15, 0.45)     # the blank's grey art (pictures, light lines): how dark the photo shows it ...
PRINT_GAIN_FROM = 1.0        # ... against the blank, from which the photo's darkness is scaled down by as much
PRINT_FAINT = 0.45           # ... and under which it is scaled up, to show the art this dark


def _print_tone(dark: np.ndarray, art: np.ndarray | None, art_darkness: float, faint: float = 0.0) -> float:
    """How many times darker than the blank has it a photo shows the print, when more than
    ``PRINT_GAIN_FROM``, or its share of ``faint`` when less than that (1.0 otherwise): its registered
    darkness (8-bit) is toned by as much (``_toned``: divided by it), and so is every darkness measured again
    from the same photo.

    A phone's heavy sharpening rings every line: darker inside, a bright halo beside it, so the paper white
    beside the line is taken brighter and the line darker still. The printed pictures then showed darker
    than the allowance for them, and read as strokes: a Loot bag's lower half as a stroke to the bottom
    side, named nowhere. Photos in every one of the photographer's conditions show the grey art at 0.56-0.95
    of the blank's darkness (a lens softens thin lines); sharpened ones at 1.2-1.3. ``art`` and
    ``art_darkness``: the reference's ``print_art``.

    A photo showing it fainter than ``PRINT_FAINT`` (a hazy lens, a dim room: the photographer's dim
    monster sheets go down to 0.56, one steep one in 40 to 0.43, scaled by 1.05) is scaled up to show it
    that dark: under ``--degrade haze`` the print shows at 0.21-0.49, and a
    dim monster sheet's pool dice, filled 1-8% of the way, read out, named nowhere (seed 256). On monster
    record sheets only (``_Reference.scale_faint``; elsewhere ``faint`` is 0). A map photo as faint is
    refused, the print of its rooms washed out (``scanner.visibility``); scaled up, it was read instead, a
    round number missed (``tests/scanner/test_visibility.py``), and over 144 map sheets under ``--degrade
    haze`` (seed 817) the scaling changed nothing. A Dungeon Maker sheet's light grey art shows at 0.32-0.45
    in most of the photographer's dim photos: scaled up, one of 20 (seed 945) read a Gem and a spell more,
    named nowhere."""
    if art is None:
        return 1.0
    gain = float(median(dark[::2, ::2][art])) / 255 / art_darkness
    if gain < faint:
        return max(gain, 0.05) / faint
    return gain if gain > PRINT_GAIN_FROM else 1.0


PRINT_SOLID = 0.6            # the blank's solid print (this dark or more, a pixel or two inside its edges) ...
PRINT_WASHED = 0.75          # ... shown under this share of its darkness: the whole photo is washed out


def _washed_out(dark: np.ndarray, reference: "_Reference") -> bool:
    """Whether a photo shows the print faintly all over (a hazy lens, a dim room): its registered darkness
    (8-bit, toned) over the blank's solid print (``_Reference.solid_print``) under ``PRINT_WASHED`` of the
    blank's. Thin lines soften in a steep or blurred view, the grey art with them (``_print_tone``: a steep
    monster sheet's art at 0.43), but the inside of a solid letter or block keeps its darkness: every
    condition of the photographer's shows it at 0.90-1.00, a photo under ``--degrade haze`` at 0.24-0.58
    (monster sheets, seed 270, 160 photos each way)."""
    solid, darkness = reference.solid_print
    if solid is None:
        return False
    return float(median(dark[solid])) / 255 < PRINT_WASHED * darkness


def _toned(dark: np.ndarray, tone: float) -> np.ndarray:
    """A darkness (8-bit) divided by ``tone`` (``_print_tone``)."""
    return cv2.convertScaleAbs(dark, alpha=1.0 / tone) if tone != 1.0 else dark


def _rectified(image: np.ndarray, homography: np.ndarray, x0: int, y0: int, width: int, height: int) -> np.ndarray:
    """The photo (RGB) rectified onto ``width`` x ``height`` page pixels from page pixel (``x0``, ``y0``) on.
    Warped with a fourth channel: OpenCV's warp has a fast path for four channels, not for three, and the
    three it gives back are the same pixels in half the time, the channel's making included."""
    region = cv2.warpPerspective(cv2.cvtColor(image, cv2.COLOR_RGB2RGBA), homography @ _page_to_mm(x0, y0),
                                 (width, height), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(region, cv2.COLOR_RGBA2RGB)


OUTWARD_PX = 2.0 * PX_PER_MM   # a move reading the area's pixels from this far beyond its edge (half the map's margin
                               # round its walls) reads them from the photo there ...
MARGIN_PX = 96                 # ... around it, this wide (19 mm: every registration pass's reach together)


def _outward(shift: np.ndarray) -> float:
    """How far beyond the reading area's edge (pixels) the move ``shift`` reads any of its pixels from."""
    height, width = shift.shape[:2]
    near = min(MARGIN_PX, width, height)
    steps = np.arange(near, dtype=np.float32)
    return max(0.0, float((-(steps[None, :] + shift[:, :near, 0])).max()),
               float((steps[None, :] + shift[:, width - near:, 0] - (near - 1)).max()),
               float((-(steps[:, None] + shift[:near, :, 1])).max()),
               float((steps[:, None] + shift[height - near:, :, 1] - (near - 1)).max()))


@dataclass
class _Margin:
    """The registered darkness and colour kept with ``MARGIN_PX`` of the photo around the reading area (measured
    from the photo there; the area's own pixels are the area's measure, as without a margin), so that a move
    reading beyond the area's edge reads the sheet there. ``move`` is ``shift_planes`` for the area's two
    planes, the margin moved along (the move carried on from the area's edge)."""

    dark: np.ndarray
    colour: np.ndarray

    @classmethod
    def around(cls, image, homography, reference, noise: float, dark: np.ndarray, colour: np.ndarray) -> "_Margin":
        x0, y0, x1, y1 = reference.area
        m = MARGIN_PX
        region = _rectified(image, homography, x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m)
        wide_dark, wide_colour = measure(quieted(region, noise), PX_PER_MM * reference.paper_scale)
        wide_dark[m:-m, m:-m], wide_colour[m:-m, m:-m] = dark, colour
        return cls(wide_dark, wide_colour)

    def move(self, field: np.ndarray, dark: np.ndarray, colour: np.ndarray) -> list[np.ndarray]:
        m = MARGIN_PX
        self.dark[m:-m, m:-m], self.colour[m:-m, m:-m] = dark, colour
        self.dark, self.colour = shift_planes(np.pad(field, ((m, m), (m, m), (0, 0)), mode="edge"),
                                              self.dark, self.colour)
        return [np.ascontiguousarray(self.dark[m:-m, m:-m]), np.ascontiguousarray(self.colour[m:-m, m:-m])]


ROW_MARGIN_MM = 3.0     # a record row is lined up with the print this far round its boxes ...
ROW_REACH_MM = 1.6      # ... moved up to this far (under half the boxes' pitch, 3.6 mm) ...
ROW_PRINT = 0.25        # ... by the blank's pixels at least this dark
ROW_BETTER = 1.25       # ... when its print is matched this many times as well as where it was registered,
ROW_FOUND = 0.2         # ... and this well at least (a good photo's rows: 0.4-0.7)
ROW_PRINT_SEEN = 128    # the photo's darkness (8-bit) that counts as the print seen
ROW_KEEP_MM = 0.5       # the ink read again reaches this far round the boxes


def _row_parts(boxes: dict[str, Rect]) -> dict[str, Rect]:
    """What is lined up with the print on its own (``_aligned_rows``): the record's rows of boxes (Gems,
    Potions, Souls, dungeon HP), and each of the Spells' rings and cast boxes, which lie far apart."""
    from scanner.maker import record_places

    parts = {name: rect for name, rect in record_places(boxes).items() if name != "Spells"}
    parts.update((name, rect) for name, rect in boxes.items() if name.startswith("spell_"))
    return parts


def _aligned_rows(ink: np.ndarray, dark: np.ndarray, colour: np.ndarray, reference: _Reference,
                  places: dict[str, Rect], gain: float, fine: bool) -> np.ndarray:
    """The ink map with each record row (``places``) read again where its print lines up best: where a
    curl bends the sheet fast, the registration's tiles average its move and may leave a row's printed
    edges a millimetre off, reading as ticks (or a tick read beside its box)."""
    allowance = reference.flat_allowance if fine else reference.allowance
    ax, ay, bx, by = reference.area
    reach = int(round(ROW_REACH_MM * PX_PER_MM))
    copied = False
    for name, rect in places.items():
        x0, y0, x1, y1 = _pixels(rect.grown(ROW_MARGIN_MM))
        x0, y0, x1, y1 = max(x0 - ax, reach), max(y0 - ay, reach), min(x1 - ax, bx - ax - reach), \
            min(y1 - ay, by - ay - reach)
        if x1 <= x0 or y1 <= y0:
            continue
        blank = reference.darkness[y0:y1, x0:x1]
        printed = (blank >= ROW_PRINT).astype(np.float32)
        if not printed.any():
            continue
        # How much of the print the photo shows dark, for each move within reach (the photo taken no darker
        # than the print: a heavy tick beside it would pull the print onto itself).
        seen = np.minimum(dark[y0 - reach:y1 + reach, x0 - reach:x1 + reach], ROW_PRINT_SEEN).astype(np.float32)
        scores = cv2.matchTemplate(seen, printed, cv2.TM_CCORR) / (ROW_PRINT_SEEN * float(printed.sum()))
        here = float(scores[reach, reach])
        # The best peak within the reach: a match on its edge is none (the print matched better still beyond
        # it, or along the text beside a box: a dim photo's Mend cast box matched 1.6 mm off, its tick missed).
        _, best, _, (i, j) = cv2.minMaxLoc(scores[1:-1, 1:-1])
        dx, dy = i + 1 - reach, j + 1 - reach
        if (dx, dy) == (0, 0) or best < ROW_BETTER * here or best < ROW_FOUND \
                or best < float(scores[j:j + 3, i:i + 3].max()):
            continue
        if not copied:
            ink, copied = ink.copy(), True
        # Only the boxes themselves are read again: the margins overlap the next row's and the grid's.
        x0, y0, x1, y1 = _pixels(rect.grown(ROW_KEEP_MM))
        x0, y0, x1, y1 = max(x0 - ax, -dx), max(y0 - ay, -dy), min(x1 - ax, bx - ax - dx), min(y1 - ay, by - ay - dy)
        ink[ay + y0:ay + y1, ax + x0:ax + x1] = ink_map(dark[y0 + dy:y1 + dy, x0 + dx:x1 + dx],
                                                      colour[y0 + dy:y1 + dy, x0 + dx:x1 + dx],
                                                      allowance[y0:y1, x0:x1], gain)
    return ink


def _bend(shift: np.ndarray) -> float:
    """How fast the registration's move changes across the sheet where it bends most: the 95th percentile,
    over steps of 2 mm, of the change in the move per unit of distance (0 for a flat sheet)."""
    step = int(round(2 * PX_PER_MM))
    coarse = shift[::step, ::step]
    change = np.concatenate([np.abs(np.diff(coarse, axis=1)).sum(axis=2).ravel(),
                             np.abs(np.diff(coarse, axis=0)).sum(axis=2).ravel()]) / step
    return float(percentile(change, 95)) if change.size else 0.0


def _faded(field: np.ndarray, shape: tuple[int, int], area: tuple[int, int, int, int]) -> np.ndarray:
    """A shift field worked out over ``area`` (x0, y0, x1, y1) of a map of ``shape``, carried on beyond it
    from its edge and faded out over ``FINEST_FADE_MM``."""
    x0, y0, x1, y1 = area
    height, width = shape[:2]
    whole = cv2.copyMakeBorder(field, y0, height - y1, x0, width - x1, cv2.BORDER_REPLICATE)
    ys, xs = np.ogrid[:height, :width]
    off = np.maximum(np.maximum(x0 - xs, xs - (x1 - 1)).clip(0), np.maximum(y0 - ys, ys - (y1 - 1)).clip(0))
    weight = np.clip(1 - off / (FINEST_FADE_MM * PX_PER_MM), 0, 1).astype(np.float32)
    return whole * weight[..., None]


def _page_ink(reference: _Reference, dark: np.ndarray, colour: np.ndarray, gain: float, fine: bool) -> np.ndarray:
    """The ink map of the page from the reading area's registered darkness and colour, against the print's
    finer allowance (``fine``) or its wider one."""
    return _on_page(reference, ink_map(dark, colour, reference.flat_allowance if fine else reference.allowance, gain))


def _on_page(reference: _Reference, plane: np.ndarray) -> np.ndarray:
    """A plane of the reading area (``reference.area``) set in a page-sized one, 0 around it."""
    x0, y0, x1, y1 = reference.area
    page = np.zeros(reference.page_shape, np.float32)
    page[y0:y1, x0:x1] = plane
    return page


def _page_to_mm(x0: int = 0, y0: int = 0, scale: float = 1.0) -> np.ndarray:
    """Rectified page pixels (offset by ``x0, y0`` pixels at PX_PER_MM; ``scale`` times as many pixels a mm
    as PX_PER_MM) -> paper millimetres."""
    per_mm = PX_PER_MM * scale
    return np.array([[1 / per_mm, 0, x0 / PX_PER_MM], [0, 1 / per_mm, y0 / PX_PER_MM], [0, 0, 1]])


def _page_picture(image: np.ndarray, homography: np.ndarray, reference: _Reference, shift: np.ndarray):
    """A function drawing the whole rectified page, moved as the reading area was registered."""
    def draw() -> np.ndarray:
        height, width = reference.page_shape
        page = _rectified(image, homography, 0, 0, width, height)
        x0, y0, x1, y1 = reference.area
        field = np.pad(shift, ((y0, height - y1), (x0, width - x1), (0, 0)), mode="edge")
        return apply_shift(page, field)
    return draw


class _NoCode(Exception):
    """No QR code could be read on a sheet whose markers were found."""


def _identify(photo: Photo, frame: SheetFrame, blanks: Blanks) -> SheetId:
    found = read_sheet_id(photo.image, frame)
    if not found and photo.scale < 1.0:
        full = photo.full_image()
        big = SheetFrame({k: v / photo.scale for k, v in frame.markers.items()})
        found = read_sheet_id(full, big)
    if not found:
        # Only a sheet with no code read at all may be read by its game's map: a code of another program
        # says the sheet is not ours.
        raise (_NoCode if found.reason == NO_QR else _Unreadable)(found.reason)
    sheet_id = found.value
    kind = kind_of(sheet_id)
    if kind is None or kind.key not in READERS:
        raise _Unreadable(f"this is a {sheet_id.game.replace('-', ' ').title()} sheet; scrawl scan reads dungeon "
                          f"map sheets (score a Dungeon Maker dungeon with 'scrawl heroes')")
    if kind.key not in blanks:
        read = " and ".join(KINDS[key].plural for key in blanks)
        raise _Unreadable(f"this is a {kind.name}; this reads {read} only: read it with 'scrawl scan PHOTO'")
    reason = kind.unreadable(sheet_id)
    if reason is not None:
        raise _Unreadable(reason)
    return sheet_id


_LAYOUTS: dict = {}
_REFERENCES: dict = {}
_PRINT_MASKS: dict = {}
MAKER_PRINT_LEVEL = 215     # a Dungeon Maker blank's pixel darker than this is print


def _layout(sheet_id: SheetId) -> SheetLayout:
    """The map sheet a code names (``sheets.kinds.MAP``), made once per map, paper and design."""
    key = (sheet_id.map_id, sheet_id.seed, sheet_id.map_version, sheet_id.map_code, sheet_id.check, sheet_id.paper,
           sheet_id.layout_version)
    if key not in _LAYOUTS:
        try:
            _LAYOUTS[key] = MAP.layout(sheet_id)
        except ValueError as exc:       # a map this release cannot rebuild
            raise _Unreadable(str(exc)) from None
    return _LAYOUTS[key]


@dataclass(frozen=True)
class _Reference:
    """What every photo of one sheet is compared with: the blank's darkness and how dark its print may
    make a photo (``scanner.ink.print_allowance``), over the reading area, in rectified page pixels."""

    area: tuple[int, int, int, int]         # x0, y0, x1, y1 of the reading area in the page
    page_shape: tuple[int, int]             # the whole page's height and width
    darkness: np.ndarray
    allowance: Allowance
    paper_scale: float = 1.0                # the paper is estimated as if at this many times PX_PER_MM
    tile_mm: float = 48.0                   # registration tiles
    refine_mm: float = 0.0                  # ... and, when not 0, smaller tiles of a second pass
    refine_from_px: float = 0.0             # ... when the first pass moved parts of the sheet this much apart
    printed: tuple = ()                     # the blank's print blurred and where it is (scanner.visibility)
    flat_allowance: Allowance | None = None # the allowance for clear photos of uncreased sheets
    finest: tuple | None = None             # (tile mm, (x0, y0, x1, y1)): on a bent sheet, a third pass of
                                            # still smaller tiles over that part of the reading area
    scale_faint: bool = False               # a photo showing the print faintly is scaled up (``_print_tone``)

    @property
    def origin_mm(self) -> tuple[float, float]:
        """The reading area's top-left corner, in page millimetres."""
        return self.area[0] / PX_PER_MM, self.area[1] / PX_PER_MM

    @cached_property
    def print_art(self) -> tuple[np.ndarray | None, float]:
        """Where the blank prints grey art, on every second pixel of the reading area (every fourth would
        fall in step with the print's lines), and the art's median darkness; (None, 0) where it prints none.
        The same for every photo of the sheet (``_print_tone``)."""
        sample = self.darkness[::2, ::2]
        art = (sample > PRINT_ART[0]) & (sample < PRINT_ART[1])
        return (art, float(median(sample[art]))) if art.any() else (None, 0.0)

    @cached_property
    def solid_print(self) -> tuple[np.ndarray | None, float]:
        """Where the blank's print is solid (``PRINT_SOLID``), a pixel or two inside its edges, over the
        reading area, and its median darkness (``_washed_out``); (None, 0) where it prints nothing so dark
        and wide. The same for every photo of the sheet, as ``print_art``."""
        solid = cv2.erode((self.darkness > PRINT_SOLID).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        return (solid, float(median(self.darkness[solid]))) if solid.any() else (None, 0.0)


def _reference(layout: SheetLayout, blank: BlankRenderer) -> _Reference:
    key = (layout.dungeon, layout.paper, layout.design)
    if key not in _REFERENCES:
        _REFERENCES[key] = _make_reference(blank(layout, PX_PER_MM), layout.width, layout.height,
                                           _reading_area(layout), refine_mm=MAP_REFINE_MM,
                                           refine_from_px=MAP_REFINE_FROM_MM * PX_PER_MM, flat_slack=True)
    return _REFERENCES[key]


# A flat sheet's registration moves every part alike; a curled, bent or steeply photographed one moves
# them a millimetre or more apart, and is registered again in smaller tiles.
MAP_REFINE_MM = 16.0
MAP_REFINE_FROM_MM = 1.0
FAR_SPREAD_MM = 4.0
# ... and where the first pass moved the parts of the sheet this far apart, the second pass of the large tiles
# reaches further than the first: a sheet bowed up along its middle by 15-18 mm and photographed 20-25 degrees
# off square moves its middle 10-12 mm from where the corner markers put it, and the first pass, reaching
# 6 mm, leaves the tiles beyond its reach where the others' median puts them (seed 968, curled: three
# Dungeon Maker sheets read 12-32 of 36 tiles right, every tile asked about). Only the tiles the first pass
# did not find reach further: one it found keeps its reach, for a row of printed boxes matches itself a few
# boxes along as well (in the pencil sample's scoring section the first pass took a tile 5 mm along its
# boxes, and a second pass reaching 10 mm everywhere took the tile beside it 8 mm); and a move that far is
# taken only where a tile beside it moved alike (``scanner.ink.FAR_AGREE_MM``).
FAR_REACH_MM = 10.0
# A Dungeon Maker tile's tick boxes are 3.4 mm, 3.8 mm apart, with a letter printed in every one: where a curl
# or a steep view bends the sheet fast, the 16 mm tiles average the move over a tile and a half and leave the
# print a box's edge off, reading as ticks. On such a sheet (the move changing by BENT or more per unit of
# distance, at the 95th percentile) tiles the size of a corner's boxes follow it, over the grid only (beside
# it a tile may hold a single printed line, which says nothing of a move along it), taking the photo no
# darker than the print (a player's heavy strokes would outweigh it), and reaching less than the boxes' pitch.
BENT = 0.04
MAKER_FINEST_MM = 10.0
FINEST_REACH_MM = 2.0
FINEST_FADE_MM = 5.0


def _within(part: tuple[int, int, int, int], area: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Page pixels ``part`` (x0, y0, x1, y1) as pixels of the reading area ``area`` (page pixels), inside it."""
    ax, ay, bx, by = area
    x0, y0, x1, y1 = part
    return max(x0 - ax, 0), max(y0 - ay, 0), min(x1 - ax, bx - ax), min(y1 - ay, by - ay)


def _spread(shift: np.ndarray, tile_mm: float) -> float:
    """How far apart the registration moved the parts of the sheet, in pixels (the larger axis), between the
    centres of its tiles (of ``tile_mm``, as ``scanner.ink.register_tiles`` lays them): beyond them the move
    is carried on at the outermost tiles' slope, which on a flat sheet only spreads their noise further."""
    height, width = shift.shape[:2]
    x = int(width / tile_count(width, tile_mm, PX_PER_MM) / 2)
    y = int(height / tile_count(height, tile_mm, PX_PER_MM) / 2)
    step = shift[y:max(y, height - y) + 1:16, x:max(x, width - x) + 1:16].reshape(-1, 2)
    return float(np.ptp(step, axis=0).max())


def _make_reference(grey: np.ndarray, width_mm: float, height_mm: float, area: tuple[int, int, int, int],
                    paper_scale: float = 1.0, tile_mm: float = 48.0, refine_mm: float = 0.0,
                    refine_from_px: float = 0.0, finest: tuple | None = None, flat_slack: bool = False
                    ) -> _Reference:
    """The reference of a blank page rendered at PX_PER_MM, over ``area`` (page pixels). ``paper_scale``
    widens the window the paper's white is found in (``scanner.ink.paper_white``) that many times, for
    marks wider than strokes; ``flat_slack`` also works out the finer allowance of clear photos."""
    height, width = int(round(height_mm * PX_PER_MM)), int(round(width_mm * PX_PER_MM))
    grey = cv2.copyMakeBorder(grey[:height, :width], 0, max(0, height - grey.shape[0]), 0,
                              max(0, width - grey.shape[1]), cv2.BORDER_REPLICATE)
    x0, y0, x1, y1 = area
    dark = darkness(grey, PX_PER_MM * paper_scale)
    flat = (Allowance.of(print_allowance(dark, PX_PER_MM, FLAT_PRINT_SLACK_MM)[y0:y1, x0:x1]) if flat_slack
            else None)
    return _Reference(area, (height, width), dark[y0:y1, x0:x1].copy(),
                      Allowance.of(print_allowance(dark, PX_PER_MM)[y0:y1, x0:x1]), paper_scale, tile_mm,
                      refine_mm, refine_from_px, blank_print(dark[y0:y1, x0:x1], grey[y0:y1, x0:x1], PX_PER_MM),
                      flat, finest)


def _reading_area(layout: SheetLayout) -> tuple[int, int, int, int]:
    """The pixels that are read (and registered): the map and the scoring section, with a margin."""
    x0 = min(layout.grid.x, layout.score_area.x) - 4.0
    x1 = max(layout.grid.right, layout.score_area.right) + 4.0
    y0, y1 = layout.grid.y - 4.0, layout.score_area.bottom + 2.0
    return tuple(int(round(v * PX_PER_MM)) for v in (max(x0, 0), y0, min(x1, layout.width), y1))


# kind of sheet (``sheets.kinds``) -> its reader: (photo, frame, source, sheet id, blank renderer, digit reader,
# the map guessed when the QR code was not read, pixels per mm) -> what it read, with ``record``
READERS = {MAP.key: _scan_map_sheet, MONSTER.key: _scan_monster_sheet, MAKER.key: _scan_maker_sheet}
