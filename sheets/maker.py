"""The Dungeon Maker sheet layout: where every tile, chart, box and marker sits on the page.

Pure, like ``sheets.dungeon``: computed from one loot layout, the game's data
(``games.maker``) and a paper size; drawn by ``generator.maker_sheet`` and
written as ``FILE.layout.json`` (CONTRACTS.md section 2). No reportlab, no
OpenCV here. Millimetres from the page's top-left corner, x right, y down.

The page, top to bottom::

    marker  title, seed and page  |  keeper, round track 1..20       marker
    X dice                                     | Tools        QR
    Y |  the 6x6 dungeon grid: tile names,     | Loot
    d |  Gems and Potions, corner arrows       | Heroes: HP table, basic
    i |                                        |   stats, stat modifiers
    c |                                        | Spells (below Scoring
    e |  entrance note                         |   when they do not fit)
    Market chart                   | Scoring (Souls, Dungeon HP, total)
    A round      | Hero phase      | Hero Stats
    marker            Coin track 0..40                               marker

Every panel is a ``Rect``; no two panels, the grid, the header, the footer,
the markers or the QR code share area, and all keep ``MARGIN`` from the edge.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.errors import ScrawlError
from games.maker import LOOT_VERSION, SIZE, LootLayout, Maker, MarketItem, load_maker
from games.maps import Room
from sheets.page import (MARGIN, MARKER_SIZE, PAPERS, QR_SIZE, Marker, Rect, SheetId, corner_markers, qr_rect_below_marker,
                         layout_document, printed_codes, printed_codes_json)

GAME = "dungeon-maker"
MAP_ID = "loot"
# The sheet's design, printed in its QR code. 2: a box to tick per item in every tile, a "cast" box per spell
# (readable by camera); 3: no letter under 7 pt (the same grid and tick boxes; the Hero HP table a little
# tighter so that each spell has two lines of 7 pt). The scanner reads every design in DESIGNS, each against
# its own layout and blank page.
LAYOUT_VERSION = 3
DESIGNS = (2, 3)

# Tiles as big as lets every chart fit: Letter is the shorter page.
TILE = {"a4": 22.0, "letter": 21.0}
DIE_BAND = 6.0        # die faces along the grid's top and left
DIE_SIZE = 4.6
ARROW_BAND = 4.5      # corner arrows right of and below the grid
GAP = 2.4             # between panels
TITLE_H = 5.0         # a panel's title band
SUBTITLE_H = 4.2      # a chart's title inside a shared panel
PAD = 1.4             # inside a panel's frame
SCORING_WIDTH = 83.0  # the lower zone's right column; the Market and the rules take the rest
ROW = 3.45            # a line of the Market chart ...
ROW_TIGHT = 3.2       # ... where design 3's 7 pt rules need the room (Letter, the shorter page)
SCORE_LINE = 3.8      # a line of the Scoring chart
HP_ROW = 3.8          # a line of the Hero HP table (more where there is room)
HP_ROW_LEAST = 3.25   # ... and less where that lets Spells sit beside the grid (design 2) ...
HP_ROW_LEAST_7PT = 2.9   # ... (design 3: its spells take two lines of 7 pt)
BASIC_ROW = 3.5       # a hero type's line of the Hero Basic Stats
MODIFIER_ROW = 3.9    # a stat's line of Stats Modifier pips
SPELL_LINE = 3.6      # a spell on one line
SPELL_LINES = 4.8     # a spell's name, and what it does under it (design 2's 6-6.5 pt) ...
SPELL_LINES_7PT = 5.3  # ... and in design 3's 7 pt
SCORE_TOTAL = 5.6     # the Scoring chart's total line
HERO_ROW_LEAST = 4.0  # a hero's line of the Hero Stats chart, at least
NOTE_H = 2.8          # a line of small print under a chart
LOOT_LINE = 6.8       # a line of the Loot panel: boxes, then what the loot gives
ON_TEXT = {"empty": "empty tile", "path": "on a path", "acid": "on an Acid Pond", "beside-path": "beside a path"}


class SheetOverflow(ScrawlError, ValueError):
    """The game's data asks for more than one page holds: say which part, so the template can be trimmed."""


# Each tile's tick boxes, in its four corners, three to a corner (the outer corner, then along the top or
# bottom edge, then along the side), so that a path drawn through the middle of a side passes between them.
# Which items share a corner: what the tile is made of; what goes on a path; bosses; rooms beside a path.
CORNER_GROUPS = ("NW", "NE", "SE", "SW")
TICK_LABELS = {"path": "P", "bridge": "Br", "acid": "A", "gate": "Gt", "stairs": "Ex"}   # else the item's letter
TICK_INSET = 0.7      # from the tile's edge to its corner boxes
TICK_GAP = 0.4        # between two boxes of a corner


@dataclass(frozen=True)
class Tile:
    """One tile of the dungeon grid: the loot printed in it, its tick boxes (item id, box) and its name's place."""

    room: Room
    rect: Rect
    items: tuple[str, ...]
    icon: Rect | None
    marks: tuple[tuple[str, Rect], ...] = ()
    label: Rect | None = None

    @property
    def id(self) -> str:
        return self.room.name

    def mark(self, item: str) -> Rect:
        return next(rect for key, rect in self.marks if key == item)


@dataclass(frozen=True)
class Die:
    """A die face printed as a label."""

    value: int
    rect: Rect


@dataclass(frozen=True)
class Arrow:
    """A corner arrow: tip at the grid's corner, tail outside it."""

    corner: str          # "NW", "NE", "SE", "SW"
    tip: tuple[float, float]
    tail: tuple[float, float]


@dataclass(frozen=True)
class Panel:
    """A framed part of the sheet with a title band."""

    name: str
    title: str
    rect: Rect

    @property
    def body(self) -> Rect:
        r = self.rect
        return Rect(r.x + PAD, r.y + TITLE_H, r.w - 2 * PAD, r.h - TITLE_H - PAD)


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    x: float
    w: float


@dataclass(frozen=True)
class Table:
    """Rows under a header line, cut into columns."""

    columns: tuple[Column, ...]
    header: Rect
    rows: tuple[Rect, ...]

    @property
    def rect(self) -> Rect:
        return Rect(self.header.x, self.header.y, self.header.w, self.rows[-1].bottom - self.header.y)

    def column(self, key: str) -> Column:
        return next(c for c in self.columns if c.key == key)

    def cell(self, row: int, key: str) -> Rect:
        r, col = self.rows[row], self.column(key)
        return Rect(col.x, r.y, col.w, r.h)

    def head(self, key: str) -> Rect:
        col = self.column(key)
        return Rect(col.x, self.header.y, col.w, self.header.h)


@dataclass(frozen=True)
class HpTable:
    """The Hero HP table: X dice across, Y dice down, a cell per roll."""

    title: Rect
    cols: tuple[Die, ...]
    rows: tuple[Die, ...]
    cells: tuple[tuple[Rect, ...], ...]    # cells[y - 1][x - 1]


@dataclass(frozen=True)
class Slot:
    """A named line of a panel: a label, its marks (boxes to tick or pips to cross), a note."""

    key: str
    label: Rect
    marks: tuple[Rect, ...]
    note: Rect


@dataclass(frozen=True)
class ScoreLine:
    key: str
    label: str
    rule: str
    row: Rect
    text: Rect
    marks: tuple[Rect, ...]   # Souls boxes, dungeon HP hearts
    points: Rect


@dataclass(frozen=True)
class MakerLayout:
    """Everything printed on one Dungeon Maker sheet, in millimetres."""

    loot: LootLayout
    maker: Maker
    paper: str
    width: float
    height: float
    tile_size: float
    grid: Rect
    tiles: tuple[Tile, ...]
    col_dice: tuple[Die, ...]
    row_dice: tuple[Die, ...]
    arrows: tuple[Arrow, ...]
    entrance_note: Rect
    header: Rect
    title: Rect
    name_line: Rect
    rounds_label: Rect
    markers: tuple[Marker, ...]
    qr: Rect
    panels: dict
    boxes: dict
    tools: tuple[Slot, ...]
    loot_slots: tuple[Slot, ...]
    hp: HpTable
    basic_title: Rect
    basic_stats: Table
    modifiers_title: Rect
    modifiers: tuple[Slot, ...]
    modifiers_note: Rect | None       # a line under the pips for their rule, where the title leaves no room
    spells: tuple[Slot, ...]
    market: Table
    score_lines: tuple[ScoreLine, ...]
    hero_stats: Table
    footer: Rect
    coin_label: Rect
    design: int = LAYOUT_VERSION

    def sheet_id(self, player: int | None = None, code: str | None = None) -> SheetId:
        """What the QR code says: game, paper, page (the player's number), the loot layout's seed and check,
        and the game's code when the sheets were printed as one game (``sheets.page.new_game_code``)."""
        return SheetId(game=GAME, paper=self.paper, player=player or self.loot.page, map_id=MAP_ID,
                       seed=self.loot.seed, map_version=LOOT_VERSION, check=self.loot.check(),
                       layout_version=self.design, code=code)

    @property
    def grid_block(self) -> Rect:
        """The grid with its die faces and corner arrows."""
        g = self.grid
        return Rect(g.x - DIE_BAND, g.y - DIE_BAND, g.w + DIE_BAND + ARROW_BAND, g.h + DIE_BAND + ARROW_BAND)

    def tile(self, name: str) -> Tile:
        room = Room.parse(name)
        return self.tiles[(room.row - 1) * SIZE + room.col - 1]

    def printed(self) -> dict[str, Rect]:
        """The parts of the page that must keep clear of one another, by name."""
        things = {f"panel {name}": panel.rect for name, panel in self.panels.items()}
        things["grid"] = self.grid_block
        things["header"] = self.header
        things["footer"] = self.footer
        things.update(printed_codes(self.markers, self.qr))
        return things

    def to_json(self) -> dict:
        """This page's part of the ``scrawl.sheet-layout/1`` document."""
        return {
            "page": self.loot.page,
            "player": self.loot.page,
            "seed": self.loot.seed,
            "check": self.loot.check(),
            "qr_text": self.sheet_id().qr_text(),
            "tile_mm": self.tile_size,
            "rooms": [{"id": t.id, "row": t.room.row, "col": t.room.col, **t.rect.to_json(),
                       "items": list(t.items), "marks": {item: rect.to_json() for item, rect in t.marks}}
                      for t in self.tiles],
            "sides": [],
            "loot_rolls": [list(roll) for roll in self.loot.rolls],
            "boxes": {name: rect.to_json() for name, rect in self.boxes.items()},
            "panels": {name: panel.rect.to_json() for name, panel in self.panels.items()},
            **printed_codes_json(self.markers, self.qr),
        }


def layouts_json(layouts: list[MakerLayout]) -> dict:
    """The ``scrawl.sheet-layout/1`` document for the pages of one ``scrawl loot`` run."""
    if not layouts:
        raise ValueError("no pages to describe")
    first = layouts[0]
    loot = {"seed": first.loot.seed, "version": LOOT_VERSION, "rows": SIZE, "cols": SIZE}
    return layout_document(GAME, first.design, {"loot": loot}, first, [layout.to_json() for layout in layouts])


# -- the layout ------------------------------------------------------------------------

def maker_layout(loot: LootLayout, paper: str, maker: Maker | None = None, design: int = LAYOUT_VERSION
                 ) -> MakerLayout:
    """Lay out the Dungeon Maker sheet of ``loot`` for ``paper`` (``a4`` or ``letter``), of one of the
    ``DESIGNS`` (the designs share the grid and its tick boxes; design 3 prints no letter under 7 pt).

    Raises ``SheetOverflow`` (a ``ValueError``) naming the part that does not fit, if the
    game's data asks for more than the page holds (many more market items, say).
    """
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (one of: {', '.join(PAPERS)})")
    if design not in DESIGNS:
        raise ValueError(f"unknown Dungeon Maker sheet design {design} (one of: {', '.join(map(str, DESIGNS))})")
    maker = maker or load_maker()
    width, height = PAPERS[paper]
    tile = TILE[paper]
    boxes: dict[str, Rect] = {}

    markers = corner_markers(paper)
    inner = MARGIN + MARKER_SIZE + 4.0            # the strips between two markers start here
    header = Rect(inner, MARGIN, width - 2 * inner, MARKER_SIZE)
    footer = Rect(inner, height - MARGIN - MARKER_SIZE, width - 2 * inner, MARKER_SIZE)
    top = header.bottom + 3.0
    bottom = footer.y - 3.0                       # panels beside the bottom markers end here
    title, name_line, rounds_label = _header(header, maker, boxes)

    grid = Rect(MARGIN + DIE_BAND, top + DIE_BAND, SIZE * tile, SIZE * tile)
    col_dice, row_dice, arrows, entrance_note = _grid_labels(grid, tile)
    block_right, block_bottom = grid.right + ARROW_BAND, grid.bottom + ARROW_BAND
    qr = qr_rect_below_marker(paper)
    if abs(qr.y - top) > 1e-6:
        raise SheetOverflow("the header's height moved the QR code from where the scanner looks for it")
    two_lines, hp_least = (SPELL_LINES, HP_ROW_LEAST) if design < 3 else (SPELL_LINES_7PT, HP_ROW_LEAST_7PT)
    panels = _right_column(Rect(block_right + 3.0, top, width - MARGIN - block_right - 3.0, block_bottom - top),
                           qr, maker, two_lines, hp_least)
    row = ROW_TIGHT if design >= 3 and paper == "letter" else ROW
    panels.update(_lower_zone(Rect(MARGIN, block_bottom + 3.0, width - 2 * MARGIN, bottom - block_bottom - 3.0),
                              maker, spells="spells" not in panels, row=row))

    heroes = _heroes(panels["heroes"], maker, boxes)
    spells = panels["spells"]
    market = _table(panels["market"].body,
                    [("buy", "Roll", 10.0), ("item", "Item", 20.5), ("letter", "Tick", 7.5), ("cost", "Coin", 6.5),
                     ("damage", "Dmg", 6.0), ("check", "Check", 11.0), ("modifier", "Modifier", 20.5),
                     ("on", "Build", 0.0)], 3.2, row, len(maker.market))
    return MakerLayout(
        loot=loot, maker=maker, paper=paper, width=width, height=height, tile_size=tile, grid=grid,
        tiles=_tiles(grid, tile, loot, tick_groups(maker)), col_dice=col_dice, row_dice=row_dice, arrows=arrows,
        entrance_note=entrance_note, header=header, title=title, name_line=name_line, rounds_label=rounds_label,
        markers=markers, qr=qr, panels=panels, boxes=boxes,
        tools=_tools(panels["tools"], boxes), loot_slots=_loot(panels["loot"], maker, boxes), **heroes,
        spells=_spells(spells, maker, SPELL_LINE if spells.rect.w >= 60.0 else two_lines, boxes), market=market,
        score_lines=_score_lines(panels["scoring"], maker, boxes), hero_stats=_hero_stats(panels["hero_stats"],
                                                                                          maker, boxes),
        footer=footer, coin_label=_coin_track(footer, maker, boxes), design=design)


def _grid_labels(grid: Rect, tile: float):
    """Die faces over the columns and beside the rows; an arrow at each corner where the entrance may start."""
    inset = (DIE_BAND - DIE_SIZE) / 2
    col_dice = tuple(Die(c, Rect(grid.x + (c - 0.5) * tile - DIE_SIZE / 2, grid.y - DIE_BAND + inset - 0.3,
                                 DIE_SIZE, DIE_SIZE)) for c in range(1, SIZE + 1))
    row_dice = tuple(Die(r, Rect(grid.x - DIE_BAND + inset - 0.3, grid.y + (r - 0.5) * tile - DIE_SIZE / 2,
                                 DIE_SIZE, DIE_SIZE)) for r in range(1, SIZE + 1))
    out = ARROW_BAND - 0.5
    arrows = (
        Arrow("NW", (grid.x - 0.6, grid.y - 0.6), (grid.x - out, grid.y - out)),
        Arrow("NE", (grid.right + 0.6, grid.y - 0.6), (grid.right + out, grid.y - out)),
        Arrow("SE", (grid.right + 0.6, grid.bottom + 0.6), (grid.right + out, grid.bottom + out)),
        Arrow("SW", (grid.x - 0.6, grid.bottom + 0.6), (grid.x - out, grid.bottom + out)),
    )
    return col_dice, row_dice, arrows, Rect(grid.x + 6.0, grid.bottom, grid.w - 12.0, ARROW_BAND)


def _right_column(area: Rect, qr: Rect, maker: Maker, two_lines: float = SPELL_LINES,
                  hp_least: float = HP_ROW_LEAST) -> dict[str, Panel]:
    """Beside the grid: Tools left of the QR code, Loot, the hero tables, and Spells if they fit.

    Spells sit here when the Hero HP table's rows can shrink a little to make room: that leaves
    the lower zone bigger boxes to write scores and heroes in.
    """
    tools = Panel("tools", "Tools", Rect(area.x, area.y, qr.x - 3.0 - area.x, QR_SIZE))
    stack = _Stack(area.x, tools.rect.bottom + GAP, area.w)
    panels = {"tools": tools, "loot": stack.add("loot", "Loot", 2 * LOOT_LINE)}
    side_by_side = _side_by_side(area.w)
    spell_h = len(maker.spells) * (SPELL_LINE if area.w >= 60.0 else two_lines)
    room = area.bottom - stack.y - 2 * (TITLE_H + PAD) - GAP - spell_h
    if _heroes_height(maker, side_by_side, hp_least) <= room + 1e-6:
        need = _heroes_height(maker, side_by_side)
        panels["heroes"] = stack.add("heroes", "Hero HP table", min(room, need + max(0.0, room - need) * 0.6))
        panels["spells"] = stack.fill("spells", "Spells", area.bottom)
    else:
        panels["heroes"] = stack.fill("heroes", "Hero HP table", area.bottom)
    if panels["heroes"].body.h < _heroes_height(maker, side_by_side, hp_least) - 1e-6:
        raise SheetOverflow("no room for the hero charts beside the grid")
    return panels


def _lower_zone(area: Rect, maker: Maker, *, spells: bool, row: float = ROW) -> dict[str, Panel]:
    """Below the grid: the Market over the two rules boxes; Scoring over Hero Stats (and Spells if asked)."""
    left = _Stack(area.x, area.y, area.w - SCORING_WIDTH - 3.0)
    rest = _Stack(area.right - SCORING_WIDTH, area.y, SCORING_WIDTH)
    panels = {"market": left.add("market", "Market", 3.2 + len(maker.market) * row)}
    half = (left.w - GAP) / 2
    panels["round"] = _Stack(left.x, left.y, half).fill("round", "A round", area.bottom)
    panels["hero_phase"] = _Stack(left.x + half + GAP, left.y, half).fill("hero_phase", "Hero phase", area.bottom)
    # The Scoring lines grow (bigger boxes to write in) with what Hero Stats leaves over.
    lines = len(score_rules(maker))
    least = (2 * (TITLE_H + PAD) + GAP + lines * SCORE_LINE + SCORE_TOTAL + 3.2 + maker.heroes * HERO_ROW_LEAST
             + (TITLE_H + PAD + GAP + len(maker.spells) * SPELL_LINE if spells else 0.0))
    line = SCORE_LINE + max(0.0, min(0.9, (area.bottom - rest.y - least) * 0.4 / lines))
    panels["scoring"] = rest.add("scoring", "Scoring", lines * line + SCORE_TOTAL)
    if spells:
        panels["spells"] = rest.add("spells", "Spells", len(maker.spells) * SPELL_LINE)
    panels["hero_stats"] = rest.fill("hero_stats", "Hero Stats", area.bottom)
    if panels["hero_stats"].body.h < 3.2 + maker.heroes * HERO_ROW_LEAST - 1e-6:
        raise SheetOverflow(f"no room for {maker.heroes} heroes in the Hero Stats chart")
    return panels


def _side_by_side(width: float) -> bool:
    """Do the Hero Basic Stats and the Stats Modifier pips fit next to each other?"""
    return width >= 56.0


class _Stack:
    """Panels stacked downwards from (x, y), all ``w`` wide."""

    def __init__(self, x: float, y: float, w: float):
        self.x, self.y, self.w = x, y, w

    def add(self, name: str, title: str, body_h: float) -> Panel:
        panel = Panel(name, title, Rect(self.x, self.y, self.w, TITLE_H + body_h + PAD))
        self.y = panel.rect.bottom + GAP
        return panel

    def fill(self, name: str, title: str, bottom: float) -> Panel:
        """A panel taking what is left of the stack down to ``bottom``."""
        if bottom - self.y < TITLE_H + PAD + 10.0:
            raise SheetOverflow(f"no room left for the {title} panel "
                                f"({bottom - self.y:.1f} mm on {self.w:.0f} mm)")
        panel = Panel(name, title, Rect(self.x, self.y, self.w, bottom - self.y))
        self.y = bottom + GAP
        return panel


def _header(header: Rect, maker: Maker, boxes: dict) -> tuple[Rect, Rect, Rect]:
    """Title and seed left; the keeper's name over the round track right."""
    size = 4.5
    track_x = header.right - maker.rounds * size
    track_y = header.bottom - size - 0.3
    for n in range(1, maker.rounds + 1):
        boxes[f"round_{n}"] = Rect(track_x + (n - 1) * size, track_y, size, size)
    rounds_label = Rect(track_x - 14.0, track_y, 13.0, size)
    name_line = Rect(rounds_label.x + 13.0, header.y + 0.8, header.right - rounds_label.x - 13.0, 5.0)
    boxes["name"] = name_line
    title = Rect(header.x, header.y, rounds_label.x - 3.0 - header.x, header.h)
    if title.w < 40.0:
        raise SheetOverflow(f"no room for the title beside a track of {maker.rounds} rounds")
    return title, name_line, rounds_label


def tick_groups(maker: Maker) -> dict[str, tuple[str, ...]]:
    """Which market items' tick boxes share each corner of a tile (``CORNER_GROUPS``), in market order."""
    bosses = set(maker.scoring.get("boss_on_path", {}))
    groups = {
        "NW": [i.id for i in maker.market if i.on in ("empty", "acid")],
        "NE": [i.id for i in maker.market if i.on == "path" and i.id not in bosses],
        "SE": [i.id for i in maker.market if i.on == "path" and i.id in bosses],
        "SW": [i.id for i in maker.market if i.on == "beside-path"],
    }
    for corner, items in groups.items():
        if len(items) > 3:
            raise SheetOverflow(f"{len(items)} market items share a tile corner ({', '.join(items)}); at most 3 fit")
    return {corner: tuple(items) for corner, items in groups.items()}


def tick_label(item: MarketItem) -> str:
    """What a tile's tick box for ``item`` shows (also in the Market's Tick column)."""
    return TICK_LABELS.get(item.id) or item.letter or item.name[:2]


def tick_size(tile: float) -> float:
    """The side of a tile's tick box: two boxes and a gap leave the middle third of each side clear."""
    return round((tile * 0.36 - TICK_INSET - TICK_GAP) / 2, 2)


def _tiles(grid: Rect, tile: float, loot: LootLayout, groups: dict) -> tuple[Tile, ...]:
    items = dict(loot.items())
    tiles = []
    for row in range(1, SIZE + 1):
        for col in range(1, SIZE + 1):
            room = Room(col, row)
            rect = Rect(grid.x + (col - 1) * tile, grid.y + (row - 1) * tile, tile, tile)
            kind = items.get(room)
            size = 0.36 * tile
            icon = Rect(rect.centre[0] - size / 2, rect.centre[1] - size / 2, size, size) if kind else None
            marks, label = _tick_boxes(rect, groups)
            tiles.append(Tile(room, rect, (kind,) if kind else (), icon, marks, label))
    return tuple(tiles)


def _tick_boxes(rect: Rect, groups: dict) -> tuple[tuple[tuple[str, Rect], ...], Rect]:
    """A tile's tick boxes, three in an L at each corner, and the place of its name (inside the NW corner's L)."""
    size = tick_size(rect.w)
    near, far = TICK_INSET, TICK_INSET + size + TICK_GAP      # offsets from the corner's two edges
    marks = []
    for corner in CORNER_GROUPS:
        def at(dx: float, dy: float) -> Rect:
            x = rect.x + dx if "W" in corner else rect.right - dx - size
            y = rect.y + dy if "N" in corner else rect.bottom - dy - size
            return Rect(x, y, size, size)
        for item, (dx, dy) in zip(groups[corner], ((near, near), (far, near), (near, far))):
            marks.append((item, at(dx, dy)))
    return tuple(marks), Rect(rect.x + far, rect.y + far, size, size)


def _tools(panel: Panel, boxes: dict) -> tuple[Slot, ...]:
    """Two tools to circle, each an icon in a ring with its name beside it."""
    body = panel.body
    half = body.h / 2
    slots = []
    for i, key in enumerate(("basic", "upgraded")):
        y = body.y + i * half
        size = max(5.5, min(7.6, body.w - 13.0))    # the names need about 12 mm beside it
        ring = Rect(body.x, y + (half - size) / 2, size, size)
        boxes[f"tool_{key}"] = ring
        slots.append(Slot(key, Rect(ring.right + 1.2, y, body.right - ring.right - 1.2, half), (ring,),
                          Rect(ring.right + 1.2, y, body.right - ring.right - 1.2, half)))
    return tuple(slots)


def _loot(panel: Panel, maker: Maker, boxes: dict) -> tuple[Slot, ...]:
    """Gems, then Potions: a box to tick per loot collected, and what it gives below."""
    body = panel.body
    size = 4.0
    slots = []
    for line, (kind, count) in enumerate((("gem", maker.loot.get("gems", 4)),
                                          ("potion", maker.loot.get("potions", 2)))):
        y = body.y + line * LOOT_LINE
        marks = tuple(Rect(body.x + 16.0 + i * (size + 0.8), y + 0.3, size, size) for i in range(count))
        for i, rect in enumerate(marks):
            boxes[f"{kind}_{i + 1}"] = rect
        slots.append(Slot(kind, Rect(body.x, y, 15.5, 4.6), marks, Rect(body.x, y + 4.6, body.w, LOOT_LINE - 4.6)))
    return tuple(slots)


def _heroes_height(maker: Maker, side_by_side: bool, hp_row: float = HP_ROW) -> float:
    """The height of the heroes panel's body: HP table, then basic stats and modifiers."""
    hp_h = 4.2 + SIZE * hp_row - (TITLE_H - SUBTITLE_H)
    basic_h = SUBTITLE_H + 3.2 + len(maker.hero_types) * BASIC_ROW
    mods_h = SUBTITLE_H + len(maker.stats) * MODIFIER_ROW + (NOTE_H if side_by_side else 0.0)
    return hp_h + 1.5 + (max(basic_h, mods_h) if side_by_side else basic_h + 1.0 + mods_h)


def _heroes(panel: Panel, maker: Maker, boxes: dict) -> dict:
    """The Hero HP table, then the Hero Basic Stats and the Stats Modifier pips, sharing one panel.

    Where the panel is taller than it must be, the rows grow a little and the rest goes between the charts.
    """
    body = panel.body
    side_by_side = _side_by_side(panel.rect.w)
    grow = body.h - _heroes_height(maker, side_by_side)
    band = 4.2
    cell_w = (body.w - band) / SIZE
    cell_h = HP_ROW + (min(1.6, grow * 0.6 / SIZE) if grow > 0 else grow / SIZE)
    grow = max(0.0, grow - (cell_h - HP_ROW) * SIZE)
    rows_below = max(len(maker.hero_types), len(maker.stats)) if side_by_side else \
        len(maker.hero_types) + len(maker.stats)
    extra = min(0.9, grow * 0.5 / rows_below)
    basic_row, modifier_row = BASIC_ROW + extra, MODIFIER_ROW + extra
    spare = grow - extra * rows_below                # what is left goes between the charts
    x0, y0 = body.x + band, body.y + band
    die = min(3.4, cell_h - 0.3)
    hp = HpTable(
        title=Rect(panel.rect.x, panel.rect.y, panel.rect.w, TITLE_H),
        cols=tuple(Die(x, Rect(x0 + (x - 0.5) * cell_w - die / 2, body.y + (band - die) / 2 - 0.2, die, die))
                   for x in range(1, SIZE + 1)),
        rows=tuple(Die(y, Rect(body.x + (band - die) / 2 - 0.2, y0 + (y - 0.5) * cell_h - die / 2, die, die))
                   for y in range(1, SIZE + 1)),
        cells=tuple(tuple(Rect(x0 + (x - 1) * cell_w, y0 + (y - 1) * cell_h, cell_w, cell_h)
                          for x in range(1, SIZE + 1)) for y in range(1, SIZE + 1)))
    basic_h = SUBTITLE_H + 3.2 + len(maker.hero_types) * basic_row
    below = y0 + SIZE * cell_h + 1.5 + (spare / 2 if side_by_side else spare / 3)
    if side_by_side:
        basic_w = body.w * 0.5
        basic_box = Rect(body.x, below, basic_w - 1.5, basic_h)
        mods_box = Rect(body.x + basic_w + 1.5, below, body.w - basic_w - 1.5, body.bottom - below)
    else:
        basic_box = Rect(body.x, below, body.w, basic_h)
        mods_y = basic_box.bottom + 1.0 + spare / 3
        mods_box = Rect(body.x, mods_y, body.w, body.bottom - mods_y)
    basic_title = Rect(basic_box.x, basic_box.y, basic_box.w, SUBTITLE_H)
    stat_w = min(8.0, (basic_box.w - 11.0) / len(maker.stats))
    spec = [("hero", "Hero", basic_box.w - stat_w * len(maker.stats))]
    spec += [(s.id, s.short, stat_w) for s in maker.stats]
    basic = _table(Rect(basic_box.x, basic_box.y + SUBTITLE_H, basic_box.w, basic_h - SUBTITLE_H), spec, 3.2,
                   basic_row, len(maker.hero_types))
    modifiers_title = Rect(mods_box.x, mods_box.y, mods_box.w, SUBTITLE_H)
    label_w = 7.0
    pitch = min(3.9, (mods_box.w - label_w) / maker.modifier_pips)
    pip = min(3.0, pitch - 0.6)
    modifiers = []
    for line, stat in enumerate(maker.stats):
        y = mods_box.y + SUBTITLE_H + line * modifier_row
        marks = tuple(Rect(mods_box.x + label_w + i * pitch, y + (modifier_row - pip) / 2, pip, pip)
                      for i in range(maker.modifier_pips))
        for i, rect in enumerate(marks):
            boxes[f"modifier_{stat.id}_{i + 1}"] = rect
        modifiers.append(Slot(stat.id, Rect(mods_box.x, y, label_w, modifier_row), marks,
                              Rect(marks[-1].right + 1.0, y, max(0.0, mods_box.right - marks[-1].right - 1.0),
                                   modifier_row)))
    note = Rect(mods_box.x, modifiers[-1].label.bottom, mods_box.w, NOTE_H) if side_by_side else None
    return {"hp": hp, "basic_title": basic_title, "basic_stats": basic, "modifiers_title": modifiers_title,
            "modifiers": tuple(modifiers), "modifiers_note": note}


def _spells(panel: Panel, maker: Maker, block: float, boxes: dict) -> tuple[Slot, ...]:
    """A line per spell, ``block`` mm tall and centred in its share of the panel: a ring to circle, then the
    spell's name and what it does (under the name when ``block`` has room for two lines)."""
    body = panel.body
    line_h = body.h / len(maker.spells)
    slots = []
    for i, spell in enumerate(maker.spells):
        y = body.y + i * line_h + max(0.0, line_h - block) / 2
        ring = Rect(body.x, y + 0.2, 3.4, 3.4)
        cast = Rect(body.right - 3.4, y + 0.2, 3.4, 3.4)        # ticked when the spell is cast
        boxes[f"spell_{spell['id']}"] = ring
        boxes[f"spell_{spell['id']}_cast"] = cast
        text = Rect(ring.right + 1.2, y, cast.x - 1.5 - ring.right - 1.2, min(block, line_h))
        slots.append(Slot(spell["id"], text, (ring, cast), text))
    return tuple(slots)


def _table(body: Rect, spec: list[tuple[str, str, float]], header_h: float, row_h: float, rows: int) -> Table:
    """Columns of the given widths, the last one taking what is left of ``body``."""
    columns, x = [], body.x
    for i, (key, title, w) in enumerate(spec):
        w = body.right - x if i == len(spec) - 1 else w
        columns.append(Column(key, title, x, w))
        x += w
    header = Rect(body.x, body.y, body.w, header_h)
    return Table(tuple(columns), header,
                 tuple(Rect(body.x, header.bottom + i * row_h, body.w, row_h) for i in range(rows)))


def score_rules(maker: Maker) -> list[tuple[str, str, str, int]]:
    """The Scoring chart's lines: key, label, how it scores, and how many marks it has."""
    s = maker.scoring

    def each(table: dict) -> str:
        return ", ".join(f"{maker.item(key).name} {value}" for key, value in table.items()) + " each"

    def groups(values: list) -> str:
        # values[n] is a group of n tiles; the last value counts for every bigger group too.
        last = len(values) - 1
        sizes = [(f"{n}+" if n == last else str(n), str(points)) for n, points in enumerate(values) if n and points]
        return "group of {}: {}".format("/".join(size for size, _ in sizes), "/".join(p for _, p in sizes))

    return [
        ("monsters", "Monsters beside a path", each(s["monster_beside_path"]), 0),
        ("bosses", "Bosses on a path", each(s["boss_on_path"]), 0),
        ("traps", "Traps on a path", f"{s['trap_on_path']} each", 0),
        ("lairs", "Lairs", "monster rooms side by side, " + groups(s["lair"]), 0),
        ("acid", "Acid Ponds side by side", groups(s["acid"]), 0),
        ("coin", "Coin left", f"1 per {s['coin_per_point']} Coin", 0),
        ("spells", "Spells not cast", f"{s['unused_spell']} each", 0),
        ("souls", "Souls", f"{_signed(maker.soul_points)} each", maker.heroes),
        ("dungeon_hp", "Dungeon HP", f"{_signed(maker.lost_hp_points)} per crossed heart",
         maker.dungeon_hp),
    ]


def _score_lines(panel: Panel, maker: Maker, boxes: dict) -> tuple[ScoreLine, ...]:
    body = panel.body
    rules = score_rules(maker)
    line_h = (body.h - SCORE_TOTAL) / len(rules)
    points_w = 10.0
    result = []
    for i, (key, label, rule, marks) in enumerate(rules):
        row = Rect(body.x, body.y + i * line_h, body.w, line_h)
        points = Rect(row.right - points_w, row.y + 0.4, points_w, line_h - 0.8)
        size = line_h - 1.0
        mark_rects = tuple(Rect(points.x - 2.5 - (marks - j) * (size + 0.7), row.y + 0.5, size, size)
                           for j in range(marks))
        text_right = (mark_rects[0].x if mark_rects else points.x) - 1.2
        result.append(ScoreLine(key, label, rule, row, Rect(row.x, row.y, text_right - row.x, line_h),
                                mark_rects, points))
        boxes[f"score_{key}"] = points
        prefix = "soul" if key == "souls" else "dungeon_hp"
        for j, rect in enumerate(mark_rects):
            boxes[f"{prefix}_{j + 1}"] = rect
    total_y = body.y + len(rules) * line_h + 0.6
    boxes["total"] = Rect(body.right - points_w - 3.0, total_y, points_w + 3.0, 4.8)
    return tuple(result)


def _hero_stats(panel: Panel, maker: Maker, boxes: dict) -> Table:
    body = panel.body
    spec = [("hero", "Hero", 9.0), ("type", "Type", 10.5), ("hp", "HP", 9.5)]
    spec += [(s.id, s.short, 9.5) for s in maker.stats]
    spec += [("fate", "Fate", 0.0)]
    table = _table(body, spec, 3.2, min(6.0, (body.h - 3.2) / maker.heroes), maker.heroes)   # up to 6 mm
    for n in range(maker.heroes):
        for column in table.columns[1:]:
            cell = table.cell(n, column.key)
            boxes[f"hero_{n + 1}_{column.key}"] = Rect(cell.x + 0.5, cell.y + 0.45, cell.w - 1.0, cell.h - 0.9)
    return table


def _coin_track(footer: Rect, maker: Maker, boxes: dict) -> Rect:
    """0 up to the most Coin a game can bring, in two rows between the bottom markers; the label left of them."""
    loot = maker.loot
    most = (maker.start_coin + loot.get("gems", 0) * loot.get("gem_coin", 0)
            + loot.get("potions", 0) * loot.get("potion_coin", 0))
    per_row = most // 2 + 1
    cell_w = min(6.6, (footer.w - 24.0) / per_row)
    cell_h = 5.6
    x0 = footer.right - per_row * cell_w
    y0 = footer.y + (footer.h - 2 * cell_h) / 2
    for value in range(most + 1):
        row, col = divmod(value, per_row)
        boxes[f"coin_{value}"] = Rect(x0 + col * cell_w, y0 + row * cell_h, cell_w, cell_h)
    if cell_w < 4.5:
        raise SheetOverflow(f"no room for a coin track up to {most} between the markers")
    return Rect(footer.x, footer.y, x0 - 2.0 - footer.x, footer.h)


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"\u2212{-value}"

