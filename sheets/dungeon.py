"""The dungeon map sheet layout: where every room, side, box and marker sits on the page.

One pure module, computed once from a map and a paper size, read by the PDF
renderer, the scanner and the overlay, and written as ``FILE.layout.json``
(CONTRACTS.md section 2). No reportlab, no OpenCV here.

Coordinates are millimetres from the page's top-left corner, x to the right,
y downwards: the way a person reads the sheet.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from games.maps import FEATURES, SIDES, STEP, DungeonMap, Room
from games.mapcode import encode_map, map_check
from games.board import side_name
from games.scoring import score_items
from sheets.page import (GAME, MAP_DESIGN, MARGIN, MARKER_SIZE, PAPERS, Marker, Rect, SheetId, corner_markers,
                         layout_document, printed_codes_json, qr_rect, round_mm)

HEADER_BOTTOM = MARGIN + 26.0
TITLE_W = 80.0        # the title, "Dungeon Scrawl" at 27 pt (78.6 mm): what the map is, under it, wraps to this
NAME_ROW_H = 6.0      # the header's last row, across it: the adventurer's name line and the player
KEY_GAP = 2.5         # between the title and the "how to draw" key on its right
LABEL_BAND = 4.0      # column letters and row numbers
ARROW_BAND = 6.5      # entry arrows, between the labels and the grid
RULER_LENGTH = 50.0
ARROW_HEAD = 2.3      # half the width of an entry arrow's head
# Expansion maps.
MARK_SHARE = 0.25     # a Diamond's or Emerald's box, as a share of the room, in a corner clear of the paths
MARK_INSET = 0.05     # its gap to the room's sides: the box ends 0.2 of the room from the lines through the middle
CAVE_ARROW = 0.3      # a cave entrance's arrow, as a share of the room
CAVE_MOUTH = (4.8, 3.0)  # mm: the cave mouth drawn on the wall under its arrow, wide and deep
CAVE_ARROW_HEAD = 1.6   # half the width of a cave entrance's arrow head, narrower than the mouth
GATE_RADIUS = 0.17    # a Rune Gate's circle (filled in to close it), as a share of the room
DOOR_RADIUS = 0.19    # a Magic Door stands inside a circle of this radius
ICON_CLEARANCE = 0.4  # mm kept between an item's picture or box and a cave's arrow, a door or a gate
DIE_BAND = 17.3       # the band under the map holding the die legend and the Curse Track (at most 17.3 mm,
                      # or the rooms of maps 5 and 6 on Letter shrink below 15.5 mm)
DIE_BAND_SHORT = 11.0 # the band when it holds the die legend alone
CURSE_SPACE_W = 9.0   # one Curse Track space, its halves side by side with their neighbours'
CURSE_HALF_H = 4.5    # one half of a space, filled in from the die
CURSE_TITLE_H = 4.4   # the track's title, above its spaces
CURSE_LEAD = 8.0      # the dragon's arrow left of the top halves, the sun's right of the bottom halves
PASSAGE_HALF = 0.11   # a passage's little diamond on its side, as a share of the room
BELOW_GRID = ARROW_BAND + 3.5   # from the map's bottom to what is under it: the bottom entry arrows, and a gap
SCORE_TITLE = 5.0     # the scoring section's title, above its lines
# The sheet's design, the QR code's layout version (``L2``): 2 drew the die's sun, monster C as a bat, a
# squat slime and the letter badges beside the pictures. Design 1's sheets, printed by earlier releases,
# are read against a blank of their own design: the geometry is the same.
DESIGN = MAP_DESIGN
DESIGNS = (1, 2)
KEY_W = 22.0          # design 2, a map with expansion elements: the symbol key's strip right of the map


@dataclass(frozen=True)
class RoomCell:
    room: Room
    rect: Rect
    items: tuple[str, ...]
    round_box: tuple[float, float, float]   # centre x, centre y, radius
    icon: Rect | None                        # where the item's picture is printed
    mark: Rect | None = None                 # a Diamond or Emerald, crossed out there: lower-right, or a free corner

    def side_ends(self, side: str) -> tuple[float, float, float, float]:
        """The two ends of one side of the room: x1, y1, x2, y2."""
        r = self.rect
        return {"N": (r.x, r.y, r.right, r.y), "S": (r.x, r.bottom, r.right, r.bottom),
                "W": (r.x, r.y, r.x, r.bottom), "E": (r.right, r.y, r.right, r.bottom)}[side]

    def side_midpoint(self, side: str) -> tuple[float, float]:
        cx, cy = self.rect.centre
        dc, dr = STEP[side]
        return (cx + dc * self.rect.w / 2, cy + dr * self.rect.h / 2)


@dataclass(frozen=True)
class EntryArrow:
    """An entryway's arrow, pointing through ``side`` into ``room``. A cave entrance's arrow lies in the
    room beyond its wall, and ``mouth`` is the cave mouth drawn on that wall (None for an outer entryway)."""

    room: Room
    side: str
    tip: tuple[float, float]
    tail: tuple[float, float]
    mouth: Rect | None = None

    @property
    def head(self) -> float:
        """Half the width of the arrow's head."""
        return ARROW_HEAD if self.mouth is None else CAVE_ARROW_HEAD

    def footprint(self) -> Rect:
        """What the arrow, with its head and its cave mouth, covers on the page."""
        (tx, ty), (bx, by) = self.tip, self.tail
        across_x, across_y = (self.head, 0.0) if tx == bx else (0.0, self.head)
        drawn = Rect(min(tx, bx) - across_x, min(ty, by) - across_y, abs(tx - bx) + 2 * across_x,
                     abs(ty - by) + 2 * across_y)
        if self.mouth is None:
            return drawn
        x, y = min(drawn.x, self.mouth.x), min(drawn.y, self.mouth.y)
        return Rect(x, y, max(drawn.right, self.mouth.right) - x, max(drawn.bottom, self.mouth.bottom) - y)


@dataclass(frozen=True)
class SideMark:
    """A Magic Door (``what`` is its die icon) or a Rune Gate (its glyph) on a passage, centred on the side.

    A gate's circle is what a player fills in to close it; ``radius`` is that circle's."""

    side: frozenset[Room]
    kind: str            # "magic_door" or "rune_gate"
    what: str
    centre: tuple[float, float]
    radius: float
    across: str          # "x" when the side is vertical (the path crosses it left-right), "y" when horizontal

    @property
    def name(self) -> str:
        return side_name(self.side)

    def to_json(self) -> dict:
        return {"id": self.name, "kind": self.kind, ("glyph" if self.kind == "rune_gate" else "icon"): self.what,
                "cx_mm": round_mm(self.centre[0]), "cy_mm": round_mm(self.centre[1]), "r_mm": round_mm(self.radius)}


@dataclass(frozen=True)
class CurseSpace:
    """One space of the Curse Track: its two halves, filled in from the die, and its Emerald's room."""

    number: int
    top: Rect
    bottom: Rect
    emerald_room: str


@dataclass(frozen=True)
class ScoreLine:
    item: int
    label: str
    rule: str
    row: Rect            # the whole line
    badge: Rect          # the item number
    text: Rect           # label and rule
    tally: Rect | None   # tally space, items 6 and 7
    count: Rect
    points: Rect


@dataclass(frozen=True)
class SheetLayout:
    """Everything printed on one dungeon map sheet, in millimetres."""

    dungeon: DungeonMap
    paper: str
    width: float
    height: float
    room_size: float
    grid: Rect
    rooms: tuple[RoomCell, ...]
    arrows: tuple[EntryArrow, ...]
    col_labels: tuple[tuple[str, float, float], ...]   # text, centre x, centre y
    row_labels: tuple[tuple[str, float, float], ...]
    header: Rect                             # the title and, under it, what the map is
    name_row: Rect                           # under the title and the key: "Adventurer", its line, the player
    name_line: Rect
    qr: Rect
    markers: tuple[Marker, ...]
    score_area: Rect
    score_lines: tuple[ScoreLine, ...]
    total: Rect
    ruler: Rect
    # Expansion maps (RULES.md section 2); empty on a plain map.
    side_marks: tuple[SideMark, ...] = ()
    die_legend: Rect | None = None           # the die's six faces and what they do on this map
    curse_box: Rect | None = None            # the Curse Track, with its title
    curse: tuple[CurseSpace, ...] = ()
    # How to draw a segment, a dead end, a Trap X and a round number: beside the title, clear of what the
    # scanner reads (the map and the scoring section), so sheets printed without it read the same.
    draw_key: Rect | None = None
    design: int = DESIGN
    symbol_key: Rect | None = None      # what the expansion elements' symbols are (design 2, maps with them)

    def room_cell(self, name: str) -> RoomCell:
        room = Room.parse(name)
        return self.rooms[(room.row - 1) * self.dungeon.cols + room.col - 1]

    def score_line(self, item: int) -> ScoreLine:
        """The printed line of scoring item ``item`` (1-10)."""
        return next(line for line in self.score_lines if line.item == item)

    @property
    def unusable_tally(self) -> Rect:
        """The box of tally marks beside scoring item 6: the segments that could not be drawn."""
        return self.score_line(6).tally

    def gates(self) -> tuple[SideMark, ...]:
        return tuple(mark for mark in self.side_marks if mark.kind == "rune_gate")

    def doors(self) -> tuple[SideMark, ...]:
        return tuple(mark for mark in self.side_marks if mark.kind == "magic_door")

    def sides(self) -> list[dict]:
        """Every side of every room that is not a plain wall (CONTRACTS.md section 2)."""
        out = []
        for cell in self.rooms:
            for side in SIDES:
                kind = self.dungeon.side_kind(cell.room, side)
                if kind == "wall":
                    continue
                if kind == "passage" and self.dungeon.door_at(cell.room, side):
                    kind = f"magic_door:{self.dungeon.door_at(cell.room, side)}"
                elif kind == "passage" and self.dungeon.gate_at(cell.room, side):
                    kind = f"rune_gate:{self.dungeon.gate_at(cell.room, side)}"
                out.append({"room": cell.room.name, "side": side, "kind": kind})
        return out

    def boxes(self) -> dict[str, Rect]:
        """Named boxes players write in: tallies, counts, points, total, name, and the Curse Track's halves."""
        boxes = {"unusable_tally": self.score_line(6).tally, "trap_tally": self.score_line(7).tally}
        for line in self.score_lines:
            boxes[f"count_{line.item}"] = line.count
            boxes[f"points_{line.item}"] = line.points
        boxes["total"] = self.total
        boxes["name"] = self.name_line
        if self.curse_box is not None:
            boxes["curse_track"] = self.curse_box
            for space in self.curse:
                boxes[f"curse_{space.number}_top"] = space.top
                boxes[f"curse_{space.number}_bottom"] = space.bottom
        if self.die_legend is not None:
            boxes["die_legend"] = self.die_legend
        return boxes

    def to_json(self, players: int = 1, code: str | None = None, names: Sequence[str] = ()) -> dict:
        """The ``scrawl.sheet-layout/1`` document for ``players`` pages of this sheet, printed for the game
        ``code`` (its ``game_code``; None: no game) and its players' ``names`` (each page's ``name``)."""
        dungeon = self.dungeon
        page_common = {
            "rooms": [{"id": c.room.name, "row": c.room.row, "col": c.room.col,
                       **{k: v for k, v in c.rect.to_json().items()},
                       "items": list(c.items),
                       **({"icon": c.icon.to_json()} if c.icon else {}),
                       **({"mark": c.mark.to_json()} if c.mark else {}),
                       "round_box": {"cx_mm": round_mm(c.round_box[0]), "cy_mm": round_mm(c.round_box[1]),
                                     "r_mm": round_mm(c.round_box[2])}} for c in self.rooms],
            "sides": self.sides(),
            **({"side_marks": [mark.to_json() for mark in self.side_marks]} if self.side_marks else {}),
            "boxes": {name: rect.to_json() for name, rect in self.boxes().items()},
            **printed_codes_json(self.markers, self.qr),
            **({"draw_key": self.draw_key.to_json()} if self.draw_key is not None else {}),
            **({"symbol_key": self.symbol_key.to_json()} if self.symbol_key is not None else {}),
        }
        described = {"map": {
            "id": dungeon.id, "name": dungeon.name, "seed": dungeon.seed, "version": dungeon.version,
            "rows": dungeon.rows, "cols": dungeon.cols, "code": encode_map(dungeon), "check": map_check(dungeon),
            **({"features": [f for f in FEATURES if f in dungeon.expansion_features()],
                "curse_spaces": dungeon.curse_spaces} if dungeon.expansion_features() else {})}}
        if code:
            described["game_code"] = code
        return layout_document(GAME, self.design, described, self,
                               [{"page": n, "player": n, "qr_text": self.sheet_id(n, code).qr_text(),
                                 **({"name": names[n - 1]} if n <= len(names) else {}), **page_common}
                                for n in range(1, players + 1)])

    def sheet_id(self, player: int, code: str | None = None) -> "SheetId":
        return SheetId.for_sheet(self.dungeon, self.paper, player, code, self.design)


def sheet_layout(dungeon: DungeonMap, paper: str, design: int = DESIGN) -> SheetLayout:
    """Lay out a dungeon map sheet for ``paper`` (``a4`` or ``letter``), as ``design`` prints it (``DESIGNS``:
    the same geometry, another blank page)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (one of: {', '.join(PAPERS)})")
    width, height = PAPERS[paper]
    cols = dungeon.cols
    ruler_top = height - MARGIN - 5.0
    items = score_items(dungeon)
    die_band = (DIE_BAND if dungeon.curse_spaces else DIE_BAND_SHORT) if dungeon.needs_die else 0.0
    key_w = KEY_W if design > 1 and dungeon.expansion_features() else 0.0
    room, grid = _map_grid(dungeon, width, ruler_top, die_band, len(items) + 1, key_w)
    symbol_key = Rect(grid.right + ARROW_BAND + 1.0, grid.y, key_w - 1.0, grid.h) if key_w else None

    rects = {r: Rect(grid.x + (r.col - 1) * room, grid.y + (r.row - 1) * room, room, room)
             for r in dungeon.rooms()}
    arrows = _entry_arrows(dungeon, rects, room)
    side_marks = _side_marks(dungeon, rects, room)
    rooms = _room_cells(dungeon, rects, room, arrows, side_marks)
    label_offset = ARROW_BAND + LABEL_BAND / 2
    col_labels = tuple((c.room.name[0], c.rect.centre[0], grid.y - label_offset) for c in rooms[:cols])
    row_labels = tuple((str(c.room.row), grid.x - label_offset, c.rect.centre[1]) for c in rooms[::cols])

    markers = corner_markers(paper)
    qr = qr_rect(paper)
    header, name_row, name_line, draw_key = _header(qr)

    # Under the map: the die band (expansion maps), then the scoring section.
    drawing = Rect(grid.x, grid.y, grid.w + key_w, grid.h)     # the map and its key, side by side
    if die_band:
        body = _body_with_labels(drawing, width)
    else:                                   # as wide as the map, clear of the corner markers
        left = max(grid.x, MARGIN + MARKER_SIZE + 2.0)
        body = Rect(left, grid.y, grid.right - left, grid.h)
    score_top = grid.bottom + BELOW_GRID + die_band
    die_legend, curse_box, curse = _die_band(dungeon, body, grid, score_top) if die_band else (None, None, [])
    score_area, score_lines, total = _scoring_section(items, body, score_top, ruler_top)
    ruler = Rect(width / 2 - RULER_LENGTH + 8.0, height - MARGIN - 5.0, RULER_LENGTH, 5.0)

    return SheetLayout(dungeon=dungeon, paper=paper, width=width, height=height, room_size=room,
                       grid=grid, rooms=tuple(rooms), arrows=tuple(arrows), col_labels=col_labels,
                       row_labels=row_labels, header=header, name_row=name_row, name_line=name_line, qr=qr,
                       markers=markers, score_area=score_area, score_lines=tuple(score_lines), total=total,
                       ruler=ruler, side_marks=tuple(side_marks), die_legend=die_legend, curse_box=curse_box,
                       curse=tuple(curse), draw_key=draw_key, design=design, symbol_key=symbol_key)


def _map_grid(dungeon: DungeonMap, width: float, ruler_top: float, die_band: float, lines: int,
              key_w: float = 0.0) -> tuple[float, Rect]:
    """The room size and the map's grid: the largest room (up to 20 mm) that leaves the scoring section's
    ``lines`` (its items and the total) 5.5 mm or more and ``key_w`` mm beside it for the symbol key, the
    map and its key centred across the page."""
    rows, cols = dungeon.rows, dungeon.cols
    grid_top = HEADER_BOTTOM + 3.0 + LABEL_BAND + ARROW_BAND
    free_height = ruler_top - 2.0 - grid_top - BELOW_GRID - die_band - SCORE_TITLE - lines * 5.5
    free_width = width - 2 * (MARGIN + LABEL_BAND + ARROW_BAND + 2.0) - key_w
    room = min(20.0, math.floor(2 * min(free_height / rows, free_width / cols)) / 2)
    return room, Rect((width - key_w - cols * room) / 2, grid_top, cols * room, rows * room)


def _entry_arrows(dungeon: DungeonMap, rects: dict[Room, Rect], room: float) -> list[EntryArrow]:
    """The arrows of the map's entryways, outer ones in the band round the map and cave entrances inside."""
    arrows = []
    for r, side in sorted(dungeon.entries):
        rect = rects[r]
        dc, dr = STEP[side]
        mx, my = rect.centre[0] + dc * room / 2, rect.centre[1] + dr * room / 2
        mouth = None
        if not dungeon.contains(r.neighbour(side)):
            length = ARROW_BAND - 0.3
        else:
            # A cave entrance's arrow lies in the room beyond its wall, where no path can end (it is a wall
            # there); the cave mouth stands on the wall, under the arrow's tip.
            length = CAVE_ARROW * room
            mouth = _span(mx, my, dc, dr, 0.0, CAVE_MOUTH[1], CAVE_MOUTH[0] / 2)
        arrows.append(EntryArrow(r, side, (mx + dc * 0.8, my + dr * 0.8), (mx + dc * length, my + dr * length),
                                 mouth))
    return arrows


def _side_marks(dungeon: DungeonMap, rects: dict[Room, Rect], room: float) -> list[SideMark]:
    """The Magic Doors and then the Rune Gates, each centred on its passage, in the order of their sides."""
    side_marks = []
    for kind, marks in (("magic_door", dungeon.doors), ("rune_gate", dungeon.gates)):
        for side, what in sorted(marks, key=lambda pair: side_name(pair[0])):
            first, second = sorted(side)
            x1, y1 = rects[first].centre
            x2, y2 = rects[second].centre
            radius = (GATE_RADIUS if kind == "rune_gate" else DOOR_RADIUS) * room
            side_marks.append(SideMark(side, kind, what, ((x1 + x2) / 2, (y1 + y2) / 2), radius,
                                       "x" if first.row == second.row else "y"))
    return side_marks


def _room_cells(dungeon: DungeonMap, rects: dict[Room, Rect], room: float, arrows: list[EntryArrow],
                side_marks: list[SideMark]) -> list[RoomCell]:
    """Every room's cell, row by row: its round box, and its item's picture or box clear of what else is in it."""
    rooms = []
    for r in dungeon.rooms():
        rect = rects[r]
        radius = round(0.13 * room, 2)
        round_box = (rect.x + radius + 1.1, rect.y + radius + 1.1, radius)
        item = dungeon.item_at(r)
        icon = mark = None
        # What else is printed in the room: cave arrows lying in it, doors and gates on its sides.
        taken = [Obstacle.box(arrow.footprint()) for arrow in arrows
                 if arrow.mouth is not None and rect.overlaps(arrow.footprint())]
        taken += [Obstacle.disc(*m.centre, m.radius) for m in side_marks if r in m.side]
        if item is not None and item.kind in item.CROSSABLE:
            # Crossed out by the player, so kept clear of the path's lines through the room's middle and of
            # a corner segment's curve: in the lower-right corner, or another free corner.
            mark = _free_spot(rect, round_box, taken, _MARK_SPOTS, passages=())
        elif item is not None:
            # The picture a little right of and below the centre; smaller and moved where that is taken.
            passages = [s for s in SIDES if dungeon.side_kind(r, s) == "passage"]
            icon = _free_spot(rect, round_box, taken, _ICON_SPOTS, passages) if taken else \
                _spot(rect, *_ICON_SPOTS[0])
        rooms.append(RoomCell(r, rect, (item.name,) if item else (), round_box, icon, mark))
    return rooms


def _header(qr: Rect) -> tuple[Rect, Rect, Rect, Rect]:
    """The header, its name row, the name line and the "how to draw" key: the title with what the map is
    under it, the key on its right, and across both the name row, left of the QR code."""
    inner_left = MARGIN + MARKER_SIZE + 4.0
    name_row = Rect(inner_left, HEADER_BOTTOM - NAME_ROW_H, qr.x - 4.0 - inner_left, NAME_ROW_H)
    header = Rect(inner_left, MARGIN, TITLE_W, name_row.y - 0.5 - MARGIN)
    draw_key = _draw_key_rect(header, name_row)
    name_line = Rect(name_row.x + 22.0, HEADER_BOTTOM - 6.0, name_row.w - 22.0 - 52.0, 5.0)  # right: game, player
    return header, name_row, name_line, draw_key


def _body_with_labels(grid: Rect, width: float) -> Rect:
    """The width of the die band and the scoring section on a map with the die: as wide as the map with its
    row labels (the width of the whole drawing above them), clear of the corner markers beside the scoring
    section's last lines."""
    inner = MARGIN + MARKER_SIZE + 2.0
    left = max(grid.x - LABEL_BAND - ARROW_BAND, inner)
    return Rect(left, grid.y, min(grid.right + LABEL_BAND + ARROW_BAND, width - inner) - left, grid.h)


def _die_band(dungeon: DungeonMap, body: Rect, grid: Rect, score_top: float
              ) -> tuple[Rect, Rect | None, list[CurseSpace]]:
    """The die legend and, on a map with a Curse Track, the track and its spaces: from just under the bottom
    entry arrows to 2 mm above the scoring section, the track at the right."""
    band_top = grid.bottom + ARROW_BAND + 1.5
    band = Rect(body.x, band_top, body.w, score_top - 2.0 - band_top)
    spaces = dungeon.curse_spaces
    track_w = spaces * CURSE_SPACE_W + 2 * CURSE_LEAD if spaces else 0.0
    die_legend = Rect(band.x, band.y, band.w - track_w - (6.0 if track_w else 0.0), band.h)
    curse_box = None
    curse = []
    if spaces:
        curse_box = Rect(band.right - track_w, band.y, track_w, band.h)
        emeralds = {item.number: room.name for room, item in dungeon.rooms_with("emerald")}
        top = band.y + CURSE_TITLE_H
        for k in range(1, spaces + 1):
            x = curse_box.x + CURSE_LEAD + (k - 1) * CURSE_SPACE_W + 0.6
            w = CURSE_SPACE_W - 1.2
            curse.append(CurseSpace(k, Rect(x, top, w, CURSE_HALF_H),
                                    Rect(x, top + CURSE_HALF_H, w, CURSE_HALF_H), emeralds.get(k, "")))
    return die_legend, curse_box, curse


def _scoring_section(items: tuple[tuple[int, str, str], ...], body: Rect, score_top: float, ruler_top: float
                     ) -> tuple[Rect, list[ScoreLine], Rect]:
    """The scoring section under its title: one line for each item, with its boxes at the right, and the total
    under them."""
    lines = len(items) + 1  # the scoring items and the total
    line_h = min(7.0, (ruler_top - 2.0 - score_top - SCORE_TITLE) / lines)
    score_area = Rect(body.x, score_top, body.w, SCORE_TITLE + lines * line_h)
    box_h = line_h - 1.2
    points_w, count_w, tally_w = 13.0, 11.0, 40.0
    score_lines = []
    for i, (number, label, rule) in enumerate(items):
        row = Rect(body.x, score_top + SCORE_TITLE + i * line_h, body.w, line_h)
        inner_y = row.y + 0.6
        points = Rect(row.right - points_w, inner_y, points_w, box_h)
        count = Rect(points.x - 2.0 - count_w, inner_y, count_w, box_h)
        tally = Rect(count.x - 3.0 - tally_w, inner_y, tally_w, box_h) if number in (6, 7) else None
        badge = Rect(row.x, inner_y, box_h, box_h)
        text_right = (tally.x if tally else count.x) - 2.0
        text = Rect(badge.right + 2.0, inner_y, text_right - badge.right - 2.0, box_h)
        score_lines.append(ScoreLine(number, label, rule, row, badge, text, tally, count, points))
    total_y = score_top + SCORE_TITLE + len(items) * line_h + 0.6
    total = Rect(body.right - points_w - 4.0, total_y, points_w + 4.0, box_h)
    return score_area, score_lines, total


def _draw_key_rect(header: Rect, name_row: Rect) -> Rect:
    """The "how to draw" key: right of the title, up to the header's right edge (4 mm short of the QR code),
    above the name row: outside the area the scanner reads (the map and the scoring section, with a margin)
    on every map and paper, as the map's labels start 3 mm below the header and the map 13.5 mm."""
    x = header.right + KEY_GAP
    return Rect(x, MARGIN, name_row.right - x, name_row.y - 1.0 - MARGIN)


# -- placing the pictures in a room ----------------------------------------------

@dataclass(frozen=True)
class Obstacle:
    """Something printed that a room's picture must keep clear of: a box, or a disc (``rect`` holds its
    bounds)."""

    rect: Rect
    round: bool = False

    @classmethod
    def box(cls, rect: Rect) -> "Obstacle":
        return cls(rect)

    @classmethod
    def disc(cls, cx: float, cy: float, r: float) -> "Obstacle":
        return cls(Rect(cx - r, cy - r, 2 * r, 2 * r), True)

    def gap(self, rect: Rect) -> float:
        """How far ``rect`` stays from this (negative when they overlap), in mm."""
        if self.round:
            cx, cy = self.rect.centre
            return _distance_to_rect(cx, cy, rect) - self.rect.w / 2
        dx = max(self.rect.x - rect.right, rect.x - self.rect.right)
        dy = max(self.rect.y - rect.bottom, rect.y - self.rect.bottom)
        if dx > 0 and dy > 0:
            return math.hypot(dx, dy)
        return max(dx, dy)


def _distance_to_rect(x: float, y: float, rect: Rect) -> float:
    """From a point to the nearest point of a rectangle (0 inside it)."""
    dx = max(rect.x - x, 0.0, x - rect.right)
    dy = max(rect.y - y, 0.0, y - rect.bottom)
    return math.hypot(dx, dy)


def _span(x: float, y: float, dc: int, dr: int, near: float, far: float, across: float) -> Rect:
    """The box from ``near`` to ``far`` mm along the direction (dc, dr) from (x, y), ``across`` mm either side."""
    x1, y1 = x + dc * near, y + dr * near
    x2, y2 = x + dc * far, y + dr * far
    half_x, half_y = (across if dc == 0 else 0.0), (across if dr == 0 else 0.0)
    return Rect(min(x1, x2) - half_x, min(y1, y2) - half_y, abs(x2 - x1) + 2 * half_x, abs(y2 - y1) + 2 * half_y)


def _spot(rect: Rect, fx: float, fy: float, size: float) -> Rect:
    """A square of ``size`` (a share of the room) centred at (fx, fy) (shares of the room from its corner)."""
    side = size * rect.w
    cx, cy = rect.x + fx * rect.w, rect.y + fy * rect.h
    return Rect(cx - side / 2, cy - side / 2, side, side)


def _icon_spots() -> tuple[tuple[float, float, float], ...]:
    """Where an item's picture may go, best first: the usual place, then smaller and nearby."""
    spots = [(0.58, 0.58, 0.56)]
    for size in (0.56, 0.52, 0.48, 0.44, 0.40, 0.36):
        low, high = size / 2 + 0.07, 1 - size / 2 - 0.07
        steps = range(round(low * 50), round(high * 50) + 1)
        centres = [(a / 50, b / 50) for a in steps for b in steps]
        centres.sort(key=lambda c: (round(math.hypot(c[0] - 0.58, c[1] - 0.58), 6), c))
        spots += [(x, y, size) for x, y in centres]
    return tuple(spots)


def _mark_spots() -> tuple[tuple[float, float, float], ...]:
    """Where a Diamond's or Emerald's box may go, best first: lower-right, lower-left, upper-right, then
    the same a little smaller."""
    spots = []
    for share in (MARK_SHARE, 0.9 * MARK_SHARE, 0.8 * MARK_SHARE):
        near, far = MARK_INSET + share / 2, 1 - MARK_INSET - share / 2
        spots += [(far, far, share), (near, far, share), (far, near, share)]
    return tuple(spots)


_ICON_SPOTS = _icon_spots()
_MARK_SPOTS = _mark_spots()


def _free_spot(rect: Rect, round_box, taken: list[Obstacle], spots, passages) -> Rect:
    """The first of ``spots`` in the room that keeps clear of the round box, of what is ``taken`` and of
    the passages' diamonds on the sides listed in ``passages``; the first spot if none does."""
    room = rect.w
    round_disc = Obstacle.disc(*round_box)
    diamonds = [Obstacle.disc(rect.centre[0] + STEP[side][0] * room / 2, rect.centre[1] + STEP[side][1] * room / 2,
                              PASSAGE_HALF * room) for side in passages]
    for spot in spots:
        candidate = _spot(rect, *spot)
        if (round_disc.gap(candidate) >= 0.3 and all(o.gap(candidate) >= ICON_CLEARANCE for o in taken)
                and all(o.gap(candidate) >= 0.2 for o in diamonds)):
            return candidate
    return _spot(rect, *spots[0])

