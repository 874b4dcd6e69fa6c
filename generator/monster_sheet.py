"""The monster record sheet as a PDF, drawn from ``sheets.roster``.

Bubbles, life boxes and lines players write on print in mid or light grey so
pen marks stand out to the scanner; titles and labels print dark. Every die-side
and colour bubble carries its own label in light grey (``4``, ``Rd``), as on an
exam answer sheet, so a player filling Part 4 needs no column heading to find
the column; a filled bubble hides it, and the scanner compares ink with this
blank, label and all. The only colour on the page is in the colour swatches
over the colour columns and the title, never inside a bubble or a box: the
sheet reads the same in greyscale.

No text is smaller than 7 pt (the footer 6 pt): ``MIN_TEXT``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator import fonts
from sheets.page import Rect
from generator.maker_sheet import _baseline, _text
from sheets.roster import (COLOUR_CODES, COLOURS, LAYOUT_VERSION, SIZES, MonsterCard, MonsterLayout,
                           PartRow, Pool, column_x)
from generator.page import ACCENT, LIGHT_GREY, PRINT_GREY, TEXT_GREY, Page, draw_markers, draw_qr

NOTE_GREY = 0.35
FRAME_GREY = 0.62
RULE_GREY = 0.86
SWATCHES = {   # what each die colour looks like in a swatch (RGB 0-1); None: drawn as a see-through die
    "red": (0.84, 0.16, 0.14), "blue": (0.16, 0.36, 0.80), "green": (0.18, 0.58, 0.26),
    "yellow": (0.97, 0.82, 0.10), "black": (0.08, 0.08, 0.08), "white": (1.0, 1.0, 1.0),
    "brown": (0.52, 0.32, 0.16), "gray": (0.58, 0.58, 0.60), "colourless": None,
    "purple": (0.50, 0.22, 0.66), "orange": (0.96, 0.52, 0.10), "pink": (0.96, 0.56, 0.74),
}
MIN_TEXT = 7.0          # the smallest text on the sheet, the footer's aside
FOOTER_TEXT = 6.0
LABEL_GREY = 0.78       # a bubble's own label inside it: legible, and light beside a pen's mark
LABEL_SQUEEZE = 0.66    # the narrowest a label is printed (its horizontal scale), to fit inside a bubble


@dataclass(frozen=True)
class _Print:
    """How one design prints its words: sizes in pt, nudges in mm. Design 1's are kept only to draw the blank
    page its sheets, printed by earlier releases, are read against."""

    labelled: bool          # labels inside the bubbles, not over the first row
    titles: float           # "die sides", "die colour", "life: ..."
    words: float            # the part types, the legend, the header's note
    notes: float            # "name", "sketch it here", the pools' notes, life counts, "d4"
    footer: float
    type_gap: float         # from a type bubble to its word
    pool_label_drop: float  # a pool row's "d4" below its bubbles' centre
    last_line: float        # the legend's last line, below its top
    legend_note: tuple[str, str]


PRINTS = {1: _Print(False, 6.5, 6.5, 6.0, 5.5, 0.9, 0.75, 25.4,
                   ("Each die in one place only:", "a part, the reserve or active.")),
          2: _Print(True, MIN_TEXT, MIN_TEXT, MIN_TEXT, FOOTER_TEXT, 0.8, 0.85, 25.6,
                   ("A die is in one place only:", "a part, reserve or active."))}
TYPE_WORDS = {"weapon": "weapon", "shield": "shield", "combo": "combo", "nullifier": "nullifier"}


def render_monster_sheets(layouts: list[MonsterLayout], path: Path | BinaryIO) -> None:
    """Write a PDF (to a path or a binary file) with one page per layout. Same input, same bytes."""
    if not layouts:
        raise ValueError("no pages to print")
    fonts.register_fonts()
    first = layouts[0]
    canvas = Canvas(path if hasattr(path, "write") else str(path), pagesize=(first.width * mm, first.height * mm),
                    invariant=1, initialFontName=fonts.BODY, pageCompression=1)
    canvas.setTitle("Dungeon Scrawl: monster record sheets")
    canvas.setAuthor("dungeon-scrawl")
    players = max(layout.player for layout in layouts)
    canvas.setSubject(f"Monster record sheets, {first.paper.upper()}, {players} player(s), {len(layouts)} page(s)")
    canvas.setCreator("dungeon-scrawl")
    for layout in layouts:
        canvas.setPageSize((layout.width * mm, layout.height * mm))
        page = Page(canvas, layout.height)
        look = PRINTS[layout.design]
        _draw_header(page, layout, look)
        for card in layout.cards:
            _draw_card(page, card, look)
        for pool in layout.pools:
            _draw_pool(page, pool, look)
        _draw_legend(page, layout, look)
        draw_markers(page, layout)
        draw_qr(page, layout, layout.sheet_id(layout.player))
        canvas.showPage()
    canvas.save()


# -- header -------------------------------------------------------------------------------

def _draw_header(page: Page, layout: MonsterLayout, look: _Print) -> None:
    title = layout.title
    _doodle(page, layout.doodle)
    page.c.setFillColor(ACCENT)
    page.text(title.x, title.y + 9.0, "Monster Record", font=fonts.TITLE, size=24.0)
    sheet = f"  \u00b7  sheet {layout.page} of {layout.pages}" if layout.pages > 1 else ""
    _text(page, title.x, title.y + 14.2, f"Dice monsters: sketch them, power them with dice{sheet}",
          font=fonts.ITALIC, size=8.0, grey=TEXT_GREY, width=title.w)
    header = layout.header
    page.c.setFillGray(TEXT_GREY)
    page.text(header.right, title.y + 9.0, f"Player {layout.player}", font=fonts.BOLD, size=12.0, align="right")
    line = layout.name_line
    _text(page, header.x, line.bottom - 0.8, "Player name", font=fonts.BOLD, size=8.0)
    page.c.setStrokeGray(PRINT_GREY)
    page.c.setLineWidth(0.3 * mm)
    page.line(line.x, line.bottom, line.right, line.bottom)
    _text(page, header.right, line.bottom - 0.8, "one bubble per group", font=fonts.ITALIC, size=look.words,
          grey=NOTE_GREY, align="right")


def _doodle(page: Page, box: Rect) -> None:
    """Our own little monster: a lumpy body with two horns, one big eye, a toothy grin and stubby feet."""
    c = page.c
    x, y, s = box.x, box.y, box.w / 10          # a 10 x 10 grid over the box
    def p(u, v):
        return page.pt(x + u * s, y + v * s)
    c.saveState()
    c.setLineJoin(1)
    c.setLineCap(1)
    c.setStrokeColor(ACCENT)
    c.setLineWidth(0.35 * mm)
    c.setFillColor(Color(0.55 + 0.45 * 0.8, 0.16 + 0.84 * 0.8, 0.12 + 0.88 * 0.8))
    # The horns, behind the body.
    for side in (-1, 1):
        horn = c.beginPath()
        horn.moveTo(*p(5 + side * 1.6, 3.2))
        horn.curveTo(*p(5 + side * 2.4, 1.6), *p(5 + side * 3.4, 1.0), *p(5 + side * 3.9, 0.2))
        horn.curveTo(*p(5 + side * 3.6, 1.6), *p(5 + side * 3.2, 2.8), *p(5 + side * 2.8, 3.8))
        horn.close()
        c.drawPath(horn, stroke=1, fill=1)
    # The body.
    body = c.beginPath()
    body.moveTo(*p(1.2, 8.4))
    body.curveTo(*p(0.2, 5.6), *p(1.4, 2.6), *p(5.0, 2.6))
    body.curveTo(*p(8.6, 2.6), *p(9.8, 5.6), *p(8.8, 8.4))
    body.curveTo(*p(7.4, 9.2), *p(2.6, 9.2), *p(1.2, 8.4))
    body.close()
    c.drawPath(body, stroke=1, fill=1)
    # Feet.
    for u in (2.6, 6.6):
        c.ellipse(*p(u, 9.6), *p(u + 1.0 + 0.0, 8.6), stroke=1, fill=1)
    # The eye: white, a dark pupil, a glint.
    c.setFillGray(1)
    c.circle(*p(5.0, 4.9), 1.35 * s * mm, stroke=1, fill=1)
    c.setFillColor(ACCENT)
    c.circle(*p(5.35, 5.05), 0.62 * s * mm, stroke=0, fill=1)
    c.setFillGray(1)
    c.circle(*p(5.55, 4.8), 0.2 * s * mm, stroke=0, fill=1)
    # The grin, with two teeth.
    grin = c.beginPath()
    grin.moveTo(*p(3.2, 7.0))
    grin.curveTo(*p(4.2, 7.9), *p(5.8, 7.9), *p(6.8, 7.0))
    c.drawPath(grin, stroke=1, fill=0)
    c.setFillGray(1)
    c.setLineWidth(0.2 * mm)
    for u in (4.2, 5.5):
        tooth = c.beginPath()
        tooth.moveTo(*p(u, 7.55))
        tooth.lineTo(*p(u + 0.35, 8.2))
        tooth.lineTo(*p(u + 0.7, 7.6))
        tooth.close()
        c.drawPath(tooth, stroke=1, fill=1)
    c.restoreState()


# -- monster cards ------------------------------------------------------------------------

def _draw_card(page: Page, card: MonsterCard, look: _Print) -> None:
    c, r = page.c, card.rect
    c.setStrokeGray(FRAME_GREY)
    c.setLineWidth(0.3 * mm)
    c.setFillGray(1)
    page.rect(r.x, r.y, r.w, r.h, radius=1.8)
    page.c.setFillColor(ACCENT)
    page.text(card.sketch.x + 0.4, r.y + 6.4, "Monster", font=fonts.TITLE, size=13.0)
    width = page.text_width("Monster ", fonts.TITLE, 13.0)
    page.text(card.sketch.x + 0.4 + width, r.y + 6.4, str(card.number), font=fonts.BOLD, size=11.0)
    _column_titles(page, card, look)
    # The sketch area: a dashed frame to draw in.
    s = card.sketch
    c.saveState()
    c.setDash(1.2, 1.6)
    c.setStrokeGray(LIGHT_GREY)
    c.setLineWidth(0.25 * mm)
    page.rect(s.x, s.y, s.w, s.h, radius=1.4)
    c.restoreState()
    _text(page, s.x + 1.5, s.bottom - 1.5, "sketch it here", font=fonts.ITALIC, size=look.notes, grey=0.6)
    for i, row in enumerate(card.parts):
        if i:
            c.setStrokeGray(RULE_GREY)
            c.setLineWidth(0.15 * mm)
            y = (card.parts[i - 1].row.bottom + row.row.y) / 2
            page.line(row.row.x, y, row.row.right, y)
        _draw_part(page, row, look)


def _column_titles(page: Page, card: MonsterCard, look: _Print) -> None:
    """Over the rows: what each group is, a swatch over each colour column, the life track's counts. (Design
    1, read but no longer printed, labelled the columns here instead of inside the bubbles.)"""
    first = card.core
    x = column_x(first.row.x)
    top = card.title.y
    sizes_mid = (first.sizes[0].cx + first.sizes[-1].cx) / 2
    colours_mid = (first.colours[0].cx + first.colours[-1].cx) / 2
    _text(page, sizes_mid, top + 3.1, "die sides", font=fonts.BOLD, size=look.titles, grey=TEXT_GREY,
          align="centre")
    _text(page, colours_mid, top + 3.1, "die colour", font=fonts.BOLD, size=look.titles, grey=TEXT_GREY,
          align="centre")
    _text(page, x["life"], top + 3.1, "life: cross one box per damage", font=fonts.BOLD, size=look.titles,
          grey=TEXT_GREY, width=first.row.right - x["life"])
    label_y = top + 8.1
    for bubble, colour in zip(first.colours, COLOURS):
        _swatch(page, bubble.cx, top + (5.6 if look.labelled else 4.9), 0.95, colour)
    if not look.labelled:
        for bubble, size in zip(first.sizes, SIZES):
            _text(page, bubble.cx, label_y, str(size), font=fonts.BOLD, size=6.5, grey=0.25, align="centre")
        for bubble, colour in zip(first.colours, COLOURS):
            _text(page, bubble.cx, label_y, COLOUR_CODES[colour], font=fonts.BOLD, size=6.0, grey=0.25,
                  align="centre")
    for n in (1, 5, 10, 15, 20):
        box = first.life[n - 1]
        _text(page, box.centre[0], label_y, str(n), size=look.notes, grey=0.4, align="centre")


def _swatch(page: Page, cx: float, cy: float, r: float, colour: str) -> None:
    """A die colour as a small dot; white and colourless as outlines (colourless with a see-through glint)."""
    c = page.c
    rgb = SWATCHES[colour]
    c.setLineWidth(0.18 * mm)
    c.setStrokeGray(0.35)
    if rgb is None:
        c.setFillGray(1)
        page.circle(cx, cy, r, stroke=1, fill=1)
        page.line(cx - r * 0.45, cy + r * 0.45, cx + r * 0.45, cy - r * 0.45)
        return
    c.setFillColorRGB(*rgb)
    page.circle(cx, cy, r, stroke=1 if colour in ("white", "yellow") else 0, fill=1)


def _draw_part(page: Page, row: PartRow, look: _Print) -> None:
    tag = row.tag
    line1 = tag.y + (row.sizes[0].cy - tag.y)
    if row.part == 0:
        page.c.setFillColor(ACCENT)
        page.text(tag.x + 3.6, line1 + 1.2, "Core", font=fonts.BOLD, size=8.0)
        _heart(page, tag.x + 1.5, line1, 2.6)
    else:
        _text(page, tag.x, line1 + 1.1, row.label, font=fonts.BOLD, size=7.5, grey=TEXT_GREY)
    name = row.name
    _text(page, tag.x, _baseline(name, look.notes), "name", font=fonts.ITALIC, size=look.notes, grey=NOTE_GREY)
    page.c.setStrokeGray(LIGHT_GREY)
    page.c.setLineWidth(0.25 * mm)
    page.line(name.x, name.bottom - 0.6, name.right, name.bottom - 0.6)
    for bubble in row.sizes + row.colours + row.types:
        _bubble(page, bubble.cx, bubble.cy, bubble.r)
    if look.labelled:
        for bubble, size in zip(row.sizes, SIZES):
            _bubble_label(page, bubble, str(size))
        for bubble, colour in zip(row.colours, COLOURS):
            _bubble_label(page, bubble, COLOUR_CODES[colour])
    for bubble in row.types:
        _text(page, bubble.cx + bubble.r + look.type_gap, _baseline(Rect(0, bubble.cy - 1, 0, 2), look.words),
              TYPE_WORDS[bubble.value], size=look.words, grey=TEXT_GREY)
    for box in row.life:
        _life_box(page, box)
    if row.part == 0:
        life = row.life[0]
        _text(page, name.right - 0.5, _baseline(name, look.notes) - 0.4, "the monster\u2019s name",
              font=fonts.ITALIC, size=look.notes, grey=0.6, align="right")
        _text(page, life.x, _baseline(name, look.notes), "lose the core and the monster is gone",
              font=fonts.ITALIC, size=look.notes, grey=NOTE_GREY, width=row.life[-1].right - life.x)


def _bubble_label(page: Page, bubble, label: str) -> None:
    """A bubble's own label, light grey and centred inside it, narrowed (never shrunk) to fit its ring."""
    c = page.c
    room = 2 * (bubble.r - 0.45)                      # inside the ring, as the scanner reads it
    natural = page.text_width(label, fonts.BODY, MIN_TEXT)
    squeeze = max(LABEL_SQUEEZE, min(1.0, room / natural))
    text = c.beginText()
    text.setFont(fonts.BODY, MIN_TEXT)
    text.setHorizScale(squeeze * 100)
    text.setFillGray(LABEL_GREY)
    x, y = page.pt(bubble.cx - natural * squeeze / 2, bubble.cy + MIN_TEXT * 0.36 * 0.3528 * 0.98)
    text.setTextOrigin(x, y)
    text.textOut(label)
    text.setHorizScale(100)         # the scale is text state: it would narrow every later line on the page
    c.drawText(text)


def _bubble(page: Page, cx: float, cy: float, r: float) -> None:
    page.c.setStrokeGray(PRINT_GREY)
    page.c.setFillGray(1)
    page.c.setLineWidth(0.25 * mm)
    page.circle(cx, cy, r - 0.125, fill=1)


def _life_box(page: Page, box: Rect) -> None:
    page.c.setStrokeGray(PRINT_GREY)
    page.c.setFillGray(1)
    page.c.setLineWidth(0.22 * mm)
    page.rect(box.x + 0.11, box.y + 0.11, box.w - 0.22, box.h - 0.22, radius=0.3, fill=1)


def _heart(page: Page, cx: float, cy: float, size: float) -> None:
    """A small filled heart: the core."""
    c = page.c
    w, h = size, size * 0.9
    top, bottom = cy - h * 0.5, cy + h * 0.5
    path = c.beginPath()
    path.moveTo(*page.pt(cx, bottom))
    path.curveTo(*page.pt(cx - w * 0.2, bottom - h * 0.25), *page.pt(cx - w / 2, cy + h * 0.05),
                 *page.pt(cx - w * 0.48, top + h * 0.28))
    path.curveTo(*page.pt(cx - w * 0.45, top), *page.pt(cx - w * 0.05, top), *page.pt(cx, top + h * 0.28))
    path.curveTo(*page.pt(cx + w * 0.05, top), *page.pt(cx + w * 0.45, top), *page.pt(cx + w * 0.48, top + h * 0.28))
    path.curveTo(*page.pt(cx + w / 2, cy + h * 0.05), *page.pt(cx + w * 0.2, bottom - h * 0.25),
                 *page.pt(cx, bottom))
    path.close()
    c.setFillColor(ACCENT)
    c.drawPath(path, stroke=0, fill=1)


# -- pools and legend ------------------------------------------------------------------------

def _draw_pool(page: Page, pool: Pool, look: _Print) -> None:
    c, r = page.c, pool.rect
    c.setStrokeGray(FRAME_GREY)
    c.setLineWidth(0.3 * mm)
    page.rect(r.x, r.y, r.w, r.h, radius=1.6)
    page.c.setFillColor(ACCENT)
    page.text(r.x + 1.6, r.y + 4.0, pool.title, font=fonts.TITLE, size=10.5)
    note = "dice not in play" if pool.key == "reserve" else "in play, not in a monster"
    _text(page, r.right - 1.4, r.y + 3.8, note, font=fonts.ITALIC, size=look.notes, grey=NOTE_GREY, align="right")
    columns = len(COLOURS)
    first_row = pool.bubbles[:columns]
    top = first_row[0].cy - first_row[0].r
    for bubble, colour in zip(first_row, COLOURS):
        _swatch(page, bubble.cx, top - (1.6 if look.labelled else 3.6), 0.8, colour)
        if not look.labelled:
            _text(page, bubble.cx, top - 0.7, COLOUR_CODES[colour], font=fonts.BOLD, size=5.5, grey=0.25,
                  align="centre")
    for row, size in enumerate(SIZES):
        bubble = pool.bubbles[row * columns]
        _text(page, r.x + 1.4, bubble.cy + look.pool_label_drop, f"d{size}", font=fonts.BOLD, size=look.notes,
              grey=0.25)
    for i, bubble in enumerate(pool.bubbles):
        _bubble(page, bubble.cx, bubble.cy, bubble.r)
        if look.labelled:
            _bubble_label(page, bubble, COLOUR_CODES[COLOURS[i % columns]])


def _draw_legend(page: Page, layout: MonsterLayout, look: _Print) -> None:
    """How to mark: a filled bubble counts, a tick does not; a box crossed is one damage."""
    c, r = page.c, layout.legend
    page.c.setFillColor(ACCENT)
    page.text(r.x, r.y + 4.0, "How to mark", font=fonts.TITLE, size=10.5)
    rows = [("fill", "counts"), ("tick", "asks for a look"), ("box", "1 damage")]
    for i, (kind, words) in enumerate(rows):
        cy = r.y + 9.2 + i * 4.6
        cx = r.x + 2.0
        if kind == "box":
            box = Rect(cx - 1.1, cy - 1.1, 2.2, 2.2)
            _life_box(page, box)
            c.setStrokeGray(0.15)
            c.setLineWidth(0.35 * mm)
            page.line(box.x + 0.2, box.bottom - 0.2, box.right - 0.2, box.y + 0.2)
            page.line(box.x + 0.2, box.y + 0.2, box.right - 0.2, box.bottom - 0.2)
        else:
            _bubble(page, cx, cy, 1.6)
            c.setStrokeGray(0.15)
            c.setFillGray(0.15)
            if kind == "fill":
                page.circle(cx, cy, 1.3, stroke=0, fill=1)
            else:
                c.setLineWidth(0.35 * mm)
                c.setLineCap(1)
                page.line(cx - 1.0, cy, cx - 0.2, cy + 0.9)
                page.line(cx - 0.2, cy + 0.9, cx + 1.4, cy - 1.3)
        _text(page, cx + 2.8, cy + 0.8, words, size=look.words, grey=TEXT_GREY, width=r.right - cx - 3.0)
    first, last = look.legend_note
    _text(page, r.x, r.y + 22.8, first, font=fonts.ITALIC, size=look.notes, grey=NOTE_GREY, width=r.w)
    _text(page, r.x, r.y + look.last_line, last, font=fonts.ITALIC, size=look.notes, grey=NOTE_GREY, width=r.w)
    c.setFillGray(0.45)
    page.text(r.x, r.bottom - 0.8, f"dungeon-scrawl \u00b7 v{LAYOUT_VERSION} \u00b7 {layout.paper.upper()}",
              size=look.footer)
