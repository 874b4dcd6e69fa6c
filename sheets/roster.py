"""The monster record sheet layout: where every card, bubble, life box and marker sits on the page.

Pure, like ``sheets.dungeon``: computed from the paper, the player and the
page; drawn by ``generator.monster_sheet``, read by ``scanner.monsters`` and
written as ``FILE.layout.json`` (CONTRACTS.md section 2). No reportlab, no
OpenCV here. Millimetres from the page's top-left corner, x right, y down.

The page, top to bottom::

    marker  monster doodle, title, player                      QR   marker
    Monster 1  |        die sides   colour (12)          life (20 boxes)
    +--------+ | Core   o o o o o o  o o o o o o o o o o o o  [][][][][] ...
    | sketch | |        monster name ____________   the core: ...
    |        | | Part 1 o o o o o o  o o o ...                 [][][][][] ...
    |        | |        name ______  o weapon o shield o combo o nullifier
    ...          (three monster cards, a core and four parts each)
    marker   Reserve dice (6 x 12)  Active dice (6 x 12)  How to mark   marker

Every bubble belongs to a group named the way ``needs_review`` names it
(``monster 2 core colour``, ``monster 1 part 3 type``, ``reserve``): one
bubble of a card's group is the reading; each pool bubble is one die.
"""
from __future__ import annotations

import zlib
from base64 import b32encode
from dataclasses import dataclass

from sheets.page import (MARGIN, MARKER_SIZE, PAPERS, Marker, Rect, SheetId, corner_markers, layout_document,
                         printed_codes, printed_codes_json, qr_rect, round_mm)

GAME = "monsters"
MAP_ID = "roster"           # the QR code's token: ROSTER.<design>.<page>
DESIGN = 2                  # the sheet's design; a new design is a new number, old sheets still scan
DESIGNS = (1, 2)            # the designs this release reads: 1 had no labels inside its bubbles
LAYOUT_VERSION = 1

# The game's vocabulary, as the roster format spells it (scrawl.roster/1).
SIZES = (4, 6, 8, 10, 12, 20)
COLOURS = ("red", "blue", "green", "yellow", "black", "white", "brown", "gray", "colourless", "purple", "orange",
           "pink")
COLOUR_CODES = {"red": "Rd", "blue": "Bu", "green": "Gn", "yellow": "Ye", "black": "Bk", "white": "Wh",
                "brown": "Br", "gray": "Gy", "colourless": "Cl", "purple": "Pu", "orange": "Or", "pink": "Pk"}
PART_TYPES = ("weapon", "shield", "combo", "nullifier")
POOLS = (("reserve", "Reserve dice"), ("active", "Active dice"))

MONSTERS_PER_PAGE = 3
PARTS = 4                   # besides the core: at most 5 parts with it
LIFE = 20                   # boxes on a life track: a d20's life

BUBBLE = 3.4                # a bubble's diameter
PITCH = 4.2                 # bubble to bubble in a group
POOL_BUBBLE = 3.2
POOL_PITCH = (4.2, 3.85)    # across, down
BOX = 2.15                  # a life box
BOX_PITCH = 2.5
FIVE_GAP = 0.8              # between each five life boxes
TAG_W = 13.0                # "Core", "Part 1" at a row's left
GROUP_GAP = 3.0
TYPE_PITCH = 15.0           # a type bubble and its word
CARD_TITLE = 9.0            # a card's band: its number, the column titles and labels
DIE_LINE = 5.0              # a part's first line: die sides, colour, life
NAME_LINE = 4.8             # its second: name, type
CARD_PAD = 1.6
CARD_GAP = 2.4
POOL_H = 33.0
POOL_LIFT = 3.5             # the pools' last row kept off the paper's bottom edge, which curls most
POOL_TITLE = 4.6
POOL_LABELS = 5.2           # colour swatches and codes over a pool's columns
POOL_ROW_LABEL = 7.5
HEADER_TOP_GAP = 2.0        # between the header (QR) and the first card


class SheetOverflow(ValueError):
    """The cards do not fit the page."""


def around(rects) -> Rect:
    """The rectangle round ``rects``."""
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.right for r in rects) - x0, max(r.bottom for r in rects) - y0)


@dataclass(frozen=True)
class Bubble:
    """A circle to fill: ``value`` of ``group`` (``d8`` of ``monster 1 core size``, ``d6 red`` of ``reserve``)."""

    group: str
    value: str
    cx: float
    cy: float
    r: float

    @property
    def rect(self) -> Rect:
        return Rect(self.cx - self.r, self.cy - self.r, 2 * self.r, 2 * self.r)

    def to_json(self) -> dict:
        return {"group": self.group, "value": self.value, "cx_mm": round_mm(self.cx), "cy_mm": round_mm(self.cy),
                "r_mm": round_mm(self.r)}


@dataclass(frozen=True)
class PartRow:
    """One part of a monster card: the core (``part`` 0) or part 1-4."""

    monster: int
    part: int
    row: Rect                       # both lines
    tag: Rect                       # where "Core" / "Part 1" is printed
    name: Rect                      # the line to write the part's name on (the monster's name for the core)
    types: tuple[Bubble, ...]       # empty for the core
    sizes: tuple[Bubble, ...]
    colours: tuple[Bubble, ...]
    life: tuple[Rect, ...]          # LIFE boxes, the first to cross off first

    @property
    def label(self) -> str:
        return "Core" if self.part == 0 else f"Part {self.part}"

    @property
    def where(self) -> str:
        """How ``needs_review`` names this part: ``monster 2 core``, ``monster 2 part 3``."""
        return f"monster {self.monster} " + ("core" if self.part == 0 else f"part {self.part}")

    def groups(self) -> dict[str, tuple[Bubble, ...]]:
        """The part's bubble groups by name: ``... size``, ``... colour`` and (not for the core) ``... type``."""
        groups = {f"{self.where} size": self.sizes, f"{self.where} colour": self.colours}
        if self.types:
            groups[f"{self.where} type"] = self.types
        return groups

    def to_json(self) -> dict:
        """Where the part is; its bubbles are in the page's ``bubbles`` under its groups' names."""
        return {"part": "core" if self.part == 0 else self.part, "label": self.label, "where": self.where,
                "row": self.row.to_json(), "name": self.name.to_json(), "groups": list(self.groups()),
                "life": f"{self.where} life"}


@dataclass(frozen=True)
class MonsterCard:
    """One monster: number, sketch area, the core and four parts."""

    number: int                     # counted over the player's pages: page 2 starts at 4
    rect: Rect
    title: Rect                     # the band with the number and the column titles
    sketch: Rect
    parts: tuple[PartRow, ...]

    @property
    def core(self) -> PartRow:
        return self.parts[0]


@dataclass(frozen=True)
class Pool:
    """A pool tracker: one bubble per die, a row per size and a column per colour."""

    key: str                        # reserve, active
    title: str
    rect: Rect
    bubbles: tuple[Bubble, ...]     # row by row: d4 red, d4 blue, ... d20 pink

    def bubble(self, size: int, colour: str) -> Bubble:
        return self.bubbles[SIZES.index(size) * len(COLOURS) + COLOURS.index(colour)]

    def rows(self) -> dict[str, tuple[Bubble, ...]]:
        """The pool's rows, one per die size, by the name ``needs_review`` gives them (``reserve d6``)."""
        row = len(COLOURS)
        return {f"{self.key} d{size}": self.bubbles[k * row:(k + 1) * row] for k, size in enumerate(SIZES)}


@dataclass(frozen=True)
class MonsterLayout:
    """Everything printed on one page of monster record sheet, in millimetres."""

    paper: str
    width: float
    height: float
    player: int
    page: int                       # the player's page, from 1
    pages: int                      # how many pages the player has
    header: Rect
    title: Rect
    doodle: Rect                    # the header's monster picture
    name_line: Rect                 # the player's name
    markers: tuple[Marker, ...]
    qr: Rect
    cards: tuple[MonsterCard, ...]
    pools: tuple[Pool, ...]
    legend: Rect                    # how to mark, beside the pools
    design: int = DESIGN            # the printed design (``DESIGNS``): the same geometry, another blank page

    @property
    def game(self) -> str:
        return GAME

    def sheet_id(self, player: int | None = None) -> SheetId:
        """What the QR code says: game, paper, player, the design and this page (``ROSTER.1.2``: page 2)."""
        return SheetId(game=GAME, paper=self.paper, player=player or self.player, map_id=MAP_ID, seed=self.page,
                       map_version=self.design, check=design_check(self.paper, self.design))

    def rows(self) -> list[PartRow]:
        return [part for card in self.cards for part in card.parts]

    def groups(self) -> dict[str, tuple[Bubble, ...]]:
        """Every group of bubbles of which one is marked, by name, card by card."""
        return {name: bubbles for row in self.rows() for name, bubbles in row.groups().items()}

    def bubbles(self) -> list[Bubble]:
        """Every bubble on the page: the cards' groups, then the pools'."""
        return [b for bubbles in self.groups().values() for b in bubbles] + \
            [b for pool in self.pools for b in pool.bubbles]

    def life_tracks(self) -> dict[str, tuple[Rect, ...]]:
        """Every life track by name: ``monster 1 core life``, ``monster 1 part 2 life``."""
        return {f"{row.where} life": row.life for row in self.rows()}

    def places(self) -> dict[str, Rect]:
        """Where the scanner reads marks, by the name ``needs_review`` gives them: each bubble group
        (``monster 1 part 2 colour``), each life track (``monster 1 part 2 life``) and each pool's row of a
        die size (``reserve d6``), as the rectangle round it. What may hide a mark (a thumb, glare) is
        judged place by place."""
        places = {name: around([b.rect for b in bubbles]) for name, bubbles in self.groups().items()}
        places.update({name: around(boxes) for name, boxes in self.life_tracks().items()})
        for pool in self.pools:
            places.update({name: around([b.rect for b in bubbles]) for name, bubbles in pool.rows().items()})
        return places

    def fields(self) -> dict[str, Rect]:
        """The places people write or draw in that the scanner does not read."""
        fields = {"player name": self.name_line}
        for card in self.cards:
            fields[f"monster {card.number} name"] = card.core.name
            fields[f"monster {card.number} sketch"] = card.sketch
            for row in card.parts[1:]:
                fields[f"{row.where} name"] = row.name
        return fields

    def reading_area(self) -> Rect:
        """What the scanner rectifies and reads: the cards and the pools."""
        top = self.cards[0].rect.y - 2.0
        return Rect(MARGIN, top, self.width - 2 * MARGIN, self.height - MARGIN - top)

    def printed(self) -> dict[str, Rect]:
        """The parts of the page that must keep clear of one another, by name."""
        things = {f"monster {card.number}": card.rect for card in self.cards}
        things.update({f"pool {pool.key}": pool.rect for pool in self.pools})
        things["legend"] = self.legend
        things["header"] = self.header
        things.update(printed_codes(self.markers, self.qr))
        return things

    def to_json(self) -> dict:
        """This page's part of the ``scrawl.sheet-layout/1`` document."""
        return {
            "page": self.page,
            "player": self.player,
            "qr_text": self.sheet_id().qr_text(),
            "monsters": [{"monster": card.number, "rect": card.rect.to_json(), "sketch": card.sketch.to_json(),
                          "parts": [row.to_json() for row in card.parts]} for card in self.cards],
            "pools": {pool.key: {"title": pool.title, "rect": pool.rect.to_json(), "group": pool.key}
                      for pool in self.pools},
            "bubbles": [b.to_json() for b in self.bubbles()],
            "life": {name: [box.to_json() for box in boxes] for name, boxes in self.life_tracks().items()},
            "fields": {name: rect.to_json() for name, rect in self.fields().items()},
            **printed_codes_json(self.markers, self.qr),
        }


def design_check(paper: str, design: int = DESIGN) -> str:
    """The QR code's four-character check: this design on this paper (a sheet read against another design's
    layout would be misread, so it is refused instead)."""
    signature = f"{GAME}/{design}/{paper}/{MONSTERS_PER_PAGE}/{PARTS}/{LIFE}/{','.join(COLOURS)}"
    return b32encode(zlib.crc32(signature.encode()).to_bytes(4, "big")).decode()[:4]


def layouts_json(layouts: list[MonsterLayout]) -> dict:
    """The ``scrawl.sheet-layout/1`` document for the pages of one ``scrawl monsters`` run."""
    if not layouts:
        raise ValueError("no pages to describe")
    roster = {"design": layouts[0].design, "monsters_per_page": MONSTERS_PER_PAGE, "parts": PARTS + 1, "life": LIFE,
              "sizes": [f"d{s}" for s in SIZES], "colours": list(COLOURS), "types": list(PART_TYPES)}
    return layout_document(GAME, LAYOUT_VERSION, {"roster": roster}, layouts[0],
                           [layout.to_json() for layout in layouts])


# -- the layout ------------------------------------------------------------------------

def monster_layout(paper: str, player: int = 1, page: int = 1, pages: int = 1, design: int = DESIGN
                   ) -> MonsterLayout:
    """Lay out page ``page`` of ``player``'s monster record sheets for ``paper`` (``a4`` or ``letter``), as
    ``design`` printed it (every design has the same geometry; only the print inside the bubbles differs)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (one of: {', '.join(PAPERS)})")
    if not (1 <= page <= pages) or player < 1:
        raise ValueError(f"page {page} of {pages} for player {player}: pages and players count from 1")
    width, height = PAPERS[paper]
    markers = corner_markers(paper)
    inner = MARGIN + MARKER_SIZE + 4.0          # the strips between two markers start here
    qr = qr_rect(paper)
    header = Rect(inner, MARGIN, qr.x - 4.0 - inner, qr.bottom - MARGIN)
    doodle = Rect(header.x, header.y + 1.0, 15.0, 15.0)
    title = Rect(doodle.right + 3.0, header.y, header.right - doodle.right - 3.0, 17.0)
    name_line = Rect(header.x + 24.0, header.bottom - 5.5, header.w - 24.0 - 30.0, 5.0)

    pool_top = height - MARGIN - POOL_LIFT - POOL_H
    pools, legend = _pools(Rect(inner, pool_top, width - 2 * inner, POOL_H))
    top = header.bottom + HEADER_TOP_GAP
    zone = Rect(MARGIN, top, width - 2 * MARGIN, pool_top - 3.0 - top)
    card_h = (zone.h - (MONSTERS_PER_PAGE - 1) * CARD_GAP) / MONSTERS_PER_PAGE
    if card_h < CARD_TITLE + (PARTS + 1) * (DIE_LINE + NAME_LINE + 0.6) + CARD_PAD:
        raise SheetOverflow(f"{MONSTERS_PER_PAGE} monster cards do not fit {zone.h:.0f} mm of {paper} paper")
    first = (page - 1) * MONSTERS_PER_PAGE + 1
    cards = tuple(_card(first + i, Rect(zone.x, zone.y + i * (card_h + CARD_GAP), zone.w, card_h))
                  for i in range(MONSTERS_PER_PAGE))
    return MonsterLayout(paper=paper, width=width, height=height, player=player, page=page, pages=pages,
                         header=header, title=title, doodle=doodle, name_line=name_line, markers=markers, qr=qr,
                         cards=cards, pools=pools, legend=legend, design=design)


def table_width() -> float:
    """A part row from its tag to the last life box."""
    return TAG_W + len(SIZES) * PITCH + GROUP_GAP + len(COLOURS) * PITCH + GROUP_GAP + _life_width()


def _life_width() -> float:
    return (LIFE - 1) * BOX_PITCH + (LIFE - 1) // 5 * FIVE_GAP + BOX


def _card(number: int, rect: Rect) -> MonsterCard:
    """A monster card: the sketch area at the left, the core and four parts as two-line rows at the right."""
    table_x = rect.right - CARD_PAD - table_width()
    title = Rect(rect.x, rect.y, rect.w, CARD_TITLE)
    body_top, body_bottom = title.bottom, rect.bottom - CARD_PAD
    sketch = Rect(rect.x + CARD_PAD, body_top, table_x - 3.0 - rect.x - CARD_PAD, body_bottom - body_top)
    pitch = (body_bottom - body_top) / (PARTS + 1)
    parts = tuple(_part_row(number, part, table_x, body_top + part * pitch, rect.right - CARD_PAD)
                  for part in range(PARTS + 1))
    return MonsterCard(number, rect, title, sketch, parts)


def column_x(table_x: float) -> dict[str, float]:
    """Where each column group of a part row starts: sizes, colours, life (and the name on the second line)."""
    sizes = table_x + TAG_W
    colours = sizes + len(SIZES) * PITCH + GROUP_GAP
    life = colours + len(COLOURS) * PITCH + GROUP_GAP
    return {"sizes": sizes, "colours": colours, "life": life}


def _part_row(monster: int, part: int, table_x: float, y: float, right: float) -> PartRow:
    where = f"monster {monster} " + ("core" if part == 0 else f"part {part}")
    x = column_x(table_x)
    cy = y + DIE_LINE / 2
    r = BUBBLE / 2
    sizes = tuple(Bubble(f"{where} size", f"d{s}", x["sizes"] + (i + 0.5) * PITCH, cy, r)
                  for i, s in enumerate(SIZES))
    colours = tuple(Bubble(f"{where} colour", c, x["colours"] + (i + 0.5) * PITCH, cy, r)
                    for i, c in enumerate(COLOURS))
    life = tuple(Rect(x["life"] + i * BOX_PITCH + i // 5 * FIVE_GAP, cy - BOX / 2, BOX, BOX) for i in range(LIFE))
    line2 = y + DIE_LINE
    if part == 0:
        name = Rect(x["sizes"], line2, x["life"] - GROUP_GAP - x["sizes"], NAME_LINE)
        types: tuple[Bubble, ...] = ()
    else:
        name_w = len(SIZES) * PITCH + 3.0
        name = Rect(x["sizes"], line2, name_w, NAME_LINE)
        types = tuple(Bubble(f"{where} type", kind, name.right + 3.0 + r + i * TYPE_PITCH, line2 + NAME_LINE / 2, r)
                      for i, kind in enumerate(PART_TYPES))
    row = Rect(table_x, y, right - table_x, DIE_LINE + NAME_LINE)
    return PartRow(monster, part, row, Rect(table_x, y, TAG_W - 1.0, DIE_LINE + NAME_LINE), name, types, sizes,
                   colours, life)


def _pools(zone: Rect) -> tuple[tuple[Pool, ...], Rect]:
    """The two pool trackers side by side from the left of ``zone``, and the marking legend in what is left."""
    across, down = POOL_PITCH
    width = POOL_ROW_LABEL + len(COLOURS) * across + 1.0
    pools = []
    x = zone.x
    for key, title in POOLS:
        rect = Rect(x, zone.y, width, zone.h)
        top = rect.y + POOL_TITLE + POOL_LABELS
        bubbles = tuple(Bubble(key, f"d{size} {colour}", rect.x + POOL_ROW_LABEL + (c + 0.5) * across,
                               top + (s + 0.5) * down, POOL_BUBBLE / 2)
                        for s, size in enumerate(SIZES) for c, colour in enumerate(COLOURS))
        pools.append(Pool(key, title, rect, bubbles))
        x = rect.right + 4.0
    legend = Rect(x, zone.y, zone.right - x, zone.h)
    if legend.w < 24.0:
        raise SheetOverflow("no room for the marking legend beside the pools")
    return tuple(pools), legend

