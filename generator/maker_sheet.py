"""The Dungeon Maker sheet as a PDF, drawn from ``sheets.maker``.

What players draw over or erase (the grid, the loot, boxes and pips) prints in
mid or light grey; rules and charts print dark, so the sheet reads well in
greyscale. Every number on the sheet comes from ``templates/dungeon_maker.toml``.
"""
from __future__ import annotations

import math

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from games.maker import MarketItem
from generator import fonts
from sheets.page import Rect
from sheets.maker import ON_TEXT, SPELL_LINES, MakerLayout, Panel, SheetOverflow, tick_label
from generator.page import ACCENT, LIGHT_GREY, PRINT_GREY, TEXT_GREY, WALL_GREY, Page, draw_markers, draw_qr

MIN_TEXT = 6.0                      # pt: the narrowest text on the sheet (its width at this size)
# Design -> the smallest letters printed. Design 2 prints its dense charts at 6-6.5 pt; design 3 prints them at
# 7 pt, each line set condensed to the width it had (no narrower than 6 pt text: 86%), so that the same boxes
# and charts hold letters a player reads at arm's length.
LEAST_PT = {2: 6.0, 3: 7.0}
PT = 25.4 / 72                      # mm per point
FRAME_GREY = 0.62
NOTE_GREY = 0.35
STRIPE = 0.945
# A tile's tick boxes and their letters print light: a light pencil tick over them must still show darker
# than the print does (the scanner tells ink from print by how much darker it is).
TICK_BOX_GREY = 0.66
TICK_LABEL_GREY = 0.74
TINT = Color(0.55 + 0.45 * 0.85, 0.16 + 0.84 * 0.85, 0.12 + 0.88 * 0.85)   # ACCENT, mostly white


class TextDoesNotFit(SheetOverflow):
    """A text the sheet cannot print at MIN_TEXT or more in the space the layout gives it."""


def render_maker_sheets(layouts: list[MakerLayout], path, code: str | None = None, names=()) -> None:
    """Write a PDF (to a path or a binary file) with one page per loot layout, page N for player N. Same
    input, same bytes. ``code`` (``sheets.page.new_game_code``) prints the game's code on every page and in
    its QR code; ``names`` (player 1 first) prints each player's name as the keeper's."""
    if not layouts:
        raise ValueError("no pages to print")
    fonts.register_fonts()
    pdfmetrics.registerFontFamily(fonts.BODY, normal=fonts.BODY, bold=fonts.BOLD, italic=fonts.ITALIC,
                                  boldItalic="Vera-BoldItalic")
    first = layouts[0]
    canvas = Canvas(path if hasattr(path, "write") else str(path), pagesize=(first.width * mm, first.height * mm),
                    invariant=1, initialFontName=fonts.BODY, pageCompression=1)
    canvas.setTitle("Dungeon Scrawl: Dungeon Maker")
    canvas.setAuthor("dungeon-scrawl")
    canvas.setSubject(f"Dungeon Maker sheets, loot seed {first.loot.seed}, {first.paper.upper()}, "
                      f"{len(layouts)} page(s)")
    canvas.setCreator("dungeon-scrawl")
    for layout in layouts:
        canvas.setPageSize((layout.width * mm, layout.height * mm))
        page = _Sheet(canvas, layout.height, LEAST_PT[layout.design])
        _draw_header(page, layout, code, names[layout.loot.page - 1] if layout.loot.page <= len(names) else None)
        _draw_grid(page, layout)
        for panel in layout.panels.values():
            _draw_frame(page, panel)
        _draw_tools(page, layout)
        _draw_loot(page, layout)
        _draw_heroes(page, layout)
        _draw_spells(page, layout)
        _draw_market(page, layout)
        _draw_rules(page, layout)
        _draw_scoring(page, layout)
        _draw_hero_stats(page, layout)
        _draw_coin_track(page, layout)
        draw_markers(page, layout)
        draw_qr(page, layout, layout.sheet_id(layout.loot.page, code))
        canvas.showPage()
    canvas.save()


# -- text -------------------------------------------------------------------------------

class _Sheet(Page):
    """A page of one design: text asked for under ``least`` pt prints at ``least`` pt, condensed to the width
    the smaller size takes, so that every line keeps its place and its letters grow taller."""

    def __init__(self, canvas: Canvas, height_mm: float, least: float):
        super().__init__(canvas, height_mm)
        self.least = least

    def text(self, x, y, text, *, font=fonts.BODY, size=8.0, align="left") -> None:
        if size >= self.least - 1e-6:
            super().text(x, y, text, font=font, size=size, align=align)
            return
        width = self.text_width(text, font, size)
        left = {"left": x, "centre": x - width / 2, "right": x - width}[align]
        line = self.c.beginText(*self.pt(left, y))
        line.setFont(font, self.least)
        line.setHorizScale(100.0 * size / self.least)
        line.textOut(text)
        self.c.saveState()          # the narrowing is text state: it must not outlive this line
        self.c.drawText(line)
        self.c.restoreState()


def _fit(page: Page, text: str, font: str, size: float, width: float) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width``; raises below MIN_TEXT."""
    while page.text_width(text, font, size) > width + 1e-6:
        size -= 0.25
        if size < MIN_TEXT - 1e-6:
            raise TextDoesNotFit(f"{text!r} does not fit {width:.1f} mm at {MIN_TEXT} pt")
    return size


def _text(page: Page, x, y, text, *, font=fonts.BODY, size=6.5, grey=TEXT_GREY, align="left", width=None):
    """A line of text with its baseline at y; shrunk to ``width`` if given."""
    if width is not None:
        size = _fit(page, text, font, max(size, _least(page)), width)
    page.c.setFillGray(grey)
    page.text(x, y, text, font=font, size=size, align=align)
    return size


def _runs(page: Page, x, y, runs, *, size=6.5, width=None) -> float:
    """Text in runs of (text, font, grey) on one baseline, shrunk together to ``width``."""
    if width is not None:
        size = max(size, _least(page))
    while width is not None and sum(page.text_width(t, f, size) for t, f, _ in runs) > width + 1e-6:
        size -= 0.25
        if size < MIN_TEXT - 1e-6:
            raise TextDoesNotFit(f"{''.join(t for t, _, _ in runs)!r} does not fit {width:.1f} mm")
    for text, font, grey in runs:
        page.c.setFillGray(grey)
        page.text(x, y, text, font=font, size=size)
        x += page.text_width(text, font, size)
    return size


def _least(page: Page) -> float:
    """The smallest letters ``page`` prints (``LEAST_PT``); a plain ``Page`` prints any size."""
    return getattr(page, "least", MIN_TEXT)


def _baseline(box: Rect, size: float) -> float:
    """The baseline that centres a line of ``size`` pt text in ``box``."""
    return box.y + box.h / 2 + size * PT * 0.36


def _paragraphs(page: Page, box: Rect, *versions: list[str], size=7.0) -> float:
    """Paragraphs (reportlab mini-markup) filling ``box`` from its top, at the largest size that fits.

    ``versions`` go from the fullest text to the shortest; the first that fits at MIN_TEXT or more is printed.
    """
    for number, paras in enumerate(versions):
        fitted = _fit_paragraphs(box, paras, size, _least(page))
        if fitted is not None:
            break
        if number == len(versions) - 1:
            raise TextDoesNotFit(f"rules text {paras[0][:40]!r}... does not fit {box.w:.1f} x {box.h:.1f} mm")
    flow, heights, gap, narrow = fitted
    y = (page.height_mm - box.y) * mm
    for para, height in zip(flow, heights):
        y -= height
        if narrow == 1.0:
            para.drawOn(page.c, box.x * mm, y)
        else:
            page.c.saveState()
            page.c.translate(box.x * mm, y)
            page.c.scale(narrow, 1.0)           # condensed to the width the fitted size takes
            para.drawOn(page.c, 0, 0)
            page.c.restoreState()
        y -= gap
    return size


def _fit_paragraphs(box: Rect, paras: list[str], size: float, least: float = MIN_TEXT):
    """The paragraphs set in ``box`` at the largest size that fits (at ``least`` pt or more, condensed to that
    size's width), their heights, the gap between them and how condensed they are; None if none fits."""
    size = max(size, least)
    while size >= MIN_TEXT - 1e-6:
        letters = max(size, least)
        narrow = size / letters
        style = ParagraphStyle("rules", fontName=fonts.BODY, fontSize=letters, leading=max(size * 1.16, letters * 1.08),
                               alignment=TA_LEFT, textColor=Color(TEXT_GREY, TEXT_GREY, TEXT_GREY))
        flow = [Paragraph(text, style) for text in paras]
        heights = [p.wrap(box.w * mm / narrow, box.h * mm)[1] for p in flow]
        gap = size * 0.3
        if sum(heights) + gap * (len(flow) - 1) <= box.h * mm + 1e-6:
            return flow, heights, gap, narrow
        size -= 0.25
    return None


# -- shapes -------------------------------------------------------------------------------

def _path(page: Page, points, *, close=True):
    path = page.c.beginPath()
    path.moveTo(*page.pt(*points[0]))
    for point in points[1:]:
        path.lineTo(*page.pt(*point))
    if close:
        path.close()
    return path


def _die(page: Page, rect: Rect, value: int, *, ink=0.25, fill=1.0) -> None:
    """A die face: a rounded square with ``value`` pips, all vector."""
    c = page.c
    c.setLineWidth(max(0.18, rect.w * 0.045) * mm)
    c.setStrokeGray(ink)
    c.setFillGray(fill)
    page.rect(rect.x, rect.y, rect.w, rect.h, radius=rect.w * 0.2, fill=1)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    c.setFillGray(ink)
    step = rect.w * 0.27
    for col, row in spots[value]:
        page.circle(rect.x + rect.w / 2 + (col - 1) * step, rect.y + rect.h / 2 + (row - 1) * step,
                    rect.w * 0.095, stroke=0, fill=1)


def _tick_box(page: Page, box: Rect, label: str) -> None:
    """A tile's tick box: a light frame with what it stands for inside, faint enough to tick over."""
    _box(page, box, grey=TICK_BOX_GREY, width=0.2, radius=0.35)
    # 6 pt (7 pt from design 3), narrowed (never shrunk) where two letters would touch the frame; keyed in the
    # Market's Tick column.
    size, font = max(6.0, _least(page)), fonts.BODY
    width = page.text_width(label, font, size)
    scale = min(100.0, 100.0 * (box.w - 0.45) / width)
    x, y = page.pt(box.centre[0] - width * scale / 200, _baseline(box, size))
    text = page.c.beginText(x, y)
    text.setFont(font, size)
    text.setHorizScale(scale)
    text.setFillGray(TICK_LABEL_GREY)
    text.textOut(label)
    if size > MIN_TEXT:             # design 3 on: the narrowing ends with the label
        page.c.saveState()
        page.c.drawText(text)
        page.c.restoreState()
    else:                           # design 2 left it on for the next line drawn (its blank keeps that print)
        page.c.drawText(text)


def _box(page: Page, rect: Rect, *, grey=PRINT_GREY, width=0.25, radius=0.6) -> None:
    page.c.setStrokeGray(grey)
    page.c.setFillGray(1)
    page.c.setLineWidth(width * mm)
    page.rect(rect.x, rect.y, rect.w, rect.h, radius=radius, fill=1)


def _ring(page: Page, rect: Rect, *, grey=PRINT_GREY, width=0.25) -> None:
    page.c.setStrokeGray(grey)
    page.c.setFillGray(1)
    page.c.setLineWidth(width * mm)
    page.circle(*rect.centre, rect.w / 2, fill=1)


def _gem(page: Page, cx, cy, size, *, ink=PRINT_GREY) -> None:
    """A cut gem: table, crown and pavilion facets, in one grey."""
    c = page.c
    w, h = size * 0.92, size * 0.78
    top, girdle, tip = cy - h * 0.42, cy - h * 0.12, cy + h * 0.5
    half_table = w * 0.26
    outline = [(cx - half_table, top), (cx + half_table, top), (cx + w / 2, girdle), (cx, tip),
               (cx - w / 2, girdle)]
    c.setLineJoin(1)
    c.setLineWidth(size * 0.045 * mm)
    c.setStrokeGray(ink)
    c.setFillGray(ink + (1 - ink) * 0.82)
    c.drawPath(_path(page, outline), stroke=1, fill=1)
    c.setFillGray(ink + (1 - ink) * 0.5)
    c.drawPath(_path(page, [(cx - half_table, girdle), (cx + half_table, girdle), (cx, tip)]), stroke=0, fill=1)
    c.setLineWidth(size * 0.028 * mm)
    for a, b in (((cx - w / 2, girdle), (cx + w / 2, girdle)), ((cx - half_table, top), (cx - w * 0.12, girdle)),
                 ((cx + half_table, top), (cx + w * 0.12, girdle)), ((cx - w * 0.12, girdle), (cx, tip)),
                 ((cx + w * 0.12, girdle), (cx, tip)), ((cx - half_table, girdle), (cx, tip)),
                 ((cx + half_table, girdle), (cx, tip))):
        page.line(*a, *b)
    c.setFillGray(1)
    c.drawPath(_path(page, [(cx - half_table * 0.7, top + h * 0.06), (cx - half_table * 0.1, top + h * 0.06),
                            (cx - half_table * 0.55, girdle - h * 0.04)]), stroke=0, fill=1)


def _potion(page: Page, cx, cy, size, *, ink=PRINT_GREY) -> None:
    """A round flask with a cork, half full, with a bubble or two."""
    c = page.c
    r = size * 0.3
    body_cy = cy + size * 0.16
    neck_w, neck_top = size * 0.2, cy - size * 0.36
    c.setLineJoin(1)
    c.setLineWidth(size * 0.045 * mm)
    c.setStrokeGray(ink)
    c.setFillGray(1)
    page.rect(cx - neck_w / 2, neck_top, neck_w, body_cy - r - neck_top + 0.5, fill=1)
    page.circle(cx, body_cy, r, fill=1)
    # The liquid: the lower part of the flask.
    c.saveState()
    clip = c.beginPath()
    clip.circle(*page.pt(cx, body_cy), r * mm)
    c.clipPath(clip, stroke=0, fill=0)
    c.setFillGray(ink + (1 - ink) * 0.55)
    page.rect(cx - r, body_cy - r * 0.15, 2 * r, r * 1.2, stroke=0, fill=1)
    c.restoreState()
    c.setFillGray(ink + (1 - ink) * 0.55)
    c.setStrokeGray(ink)
    page.circle(cx, body_cy, r, fill=0)
    c.setFillGray(1)
    page.circle(cx + r * 0.3, body_cy + r * 0.3, r * 0.13, stroke=0, fill=1)
    page.circle(cx - r * 0.25, body_cy + r * 0.55, r * 0.08, stroke=0, fill=1)
    page.circle(cx - r * 0.42, body_cy - r * 0.4, r * 0.12, stroke=0, fill=1)
    # The cork.
    c.setFillGray(ink + (1 - ink) * 0.3)
    page.rect(cx - neck_w * 0.62, neck_top - size * 0.1, neck_w * 1.24, size * 0.12, radius=size * 0.02, fill=1)


def _tool_pen(page: Page, cx, cy, size, ink):
    """The canvas set up for a tool icon: origin at its centre, turned 40 degrees, a handle-thick pen.

    Returns the canvas and the icon's unit (a tenth of its size, in points); the caller restores state.
    """
    c = page.c
    c.saveState()
    c.translate(*page.pt(cx, cy))
    c.rotate(-40)
    u = size * mm / 10
    c.setStrokeGray(ink)
    c.setLineCap(1)
    c.setLineJoin(1)
    c.setLineWidth(0.9 * u)
    return c, u


def _shovel(page: Page, cx, cy, size, *, ink=TEXT_GREY) -> None:
    """The basic tool: a plain shovel, drawn on the diagonal."""
    c, u = _tool_pen(page, cx, cy, size, ink)
    c.line(0, -1.2 * u, 0, 4.2 * u)
    c.line(-1.2 * u, 4.2 * u, 1.2 * u, 4.2 * u)
    c.setLineWidth(0.45 * u)
    c.setFillGray(ink + (1 - ink) * 0.7)
    blade = c.beginPath()
    blade.moveTo(-1.7 * u, -1.2 * u)
    blade.lineTo(1.7 * u, -1.2 * u)
    blade.lineTo(1.6 * u, -3.6 * u)
    blade.lineTo(0, -4.8 * u)
    blade.lineTo(-1.6 * u, -3.6 * u)
    blade.close()
    c.drawPath(blade, stroke=1, fill=1)
    c.restoreState()


def _pickaxe(page: Page, cx, cy, size, *, ink=TEXT_GREY) -> None:
    """The upgraded tool: a pickaxe with a spark, for Gems and Potions."""
    c, u = _tool_pen(page, cx - size * 0.06, cy + size * 0.06, size, ink)
    c.line(0, -4.2 * u, 0, 3.2 * u)
    c.setFillGray(ink + (1 - ink) * 0.7)
    c.setLineWidth(0.45 * u)
    head = c.beginPath()
    head.moveTo(-4.4 * u, 1.6 * u)
    head.curveTo(-2.4 * u, 3.9 * u, 2.4 * u, 3.9 * u, 4.4 * u, 1.6 * u)
    head.curveTo(2.2 * u, 2.7 * u, -2.2 * u, 2.7 * u, -4.4 * u, 1.6 * u)
    head.close()
    c.drawPath(head, stroke=1, fill=1)
    c.restoreState()
    # A four-point spark at the top right.
    sx, sy, s = cx + size * 0.3, cy - size * 0.3, size * 0.16
    c.setFillGray(ink)
    page.polygon([(sx, sy - s), (sx + s * 0.28, sy - s * 0.28), (sx + s, sy), (sx + s * 0.28, sy + s * 0.28),
                  (sx, sy + s), (sx - s * 0.28, sy + s * 0.28), (sx - s, sy), (sx - s * 0.28, sy - s * 0.28)],
                 stroke=0)


def _heart(page: Page, rect: Rect, *, grey=PRINT_GREY) -> None:
    """A heart outline to cross off: one dungeon HP."""
    c = page.c
    cx, w, h = rect.centre[0], rect.w, rect.h
    top, bottom = rect.y + h * 0.28, rect.bottom - h * 0.05
    path = c.beginPath()
    path.moveTo(*page.pt(cx, bottom))
    path.curveTo(*page.pt(cx - w * 0.2, bottom - h * 0.25), *page.pt(rect.x, rect.y + h * 0.55),
                 *page.pt(rect.x + w * 0.02, top))
    path.curveTo(*page.pt(rect.x + w * 0.05, rect.y), *page.pt(cx - w * 0.05, rect.y), *page.pt(cx, top))
    path.curveTo(*page.pt(cx + w * 0.05, rect.y), *page.pt(rect.right - w * 0.05, rect.y),
                 *page.pt(rect.right - w * 0.02, top))
    path.curveTo(*page.pt(rect.right, rect.y + h * 0.55), *page.pt(cx + w * 0.2, bottom - h * 0.25),
                 *page.pt(cx, bottom))
    path.close()
    c.setStrokeGray(grey)
    c.setFillGray(1)
    c.setLineWidth(0.28 * mm)
    c.setLineJoin(1)
    c.drawPath(path, stroke=1, fill=1)


def _arrow(page: Page, tip, tail, *, head=1.9, shaft=0.42) -> None:
    (tx, ty), (bx, by) = tip, tail
    length = math.hypot(tx - bx, ty - by)
    dx, dy = (tx - bx) / length, (ty - by) / length      # along the arrow, towards the tip
    px, py = -dy, dx
    neck = (tx - dx * 2.0, ty - dy * 2.0)
    page.polygon([(tx, ty), (neck[0] + px * head, neck[1] + py * head),
                  (neck[0] + px * shaft, neck[1] + py * shaft), (bx + px * shaft, by + py * shaft),
                  (bx - px * shaft, by - py * shaft), (neck[0] - px * shaft, neck[1] - py * shaft),
                  (neck[0] - px * head, neck[1] - py * head)], stroke=0)


# -- header and grid ------------------------------------------------------------------------

def _draw_header(page: Page, layout: MakerLayout, code: str | None = None, keeper: str | None = None) -> None:
    title = layout.title
    size = _fit(page, "Dungeon Maker", fonts.TITLE, 21.0, title.w)
    page.c.setFillColor(ACCENT)
    page.text(title.x, title.y + 7.4, "Dungeon Maker", font=fonts.TITLE, size=size)
    seed, number = layout.loot.seed, layout.loot.page
    lines = ([f"Game {code} \u00b7 seed {seed}, player {number}", f"Game {code} \u00b7 player {number}"] if code
             else [f"Loot layout: seed {seed}, page {number}", f"Seed {seed}, page {number}"])   # the first that fits
    line = next((text for text in lines if page.text_width(text, fonts.BOLD, 7.5) <= title.w), lines[-1])
    _text(page, title.x, title.bottom - 1.0, line, font=fonts.BOLD, size=7.5, width=title.w)
    name = layout.name_line
    _text(page, layout.rounds_label.right, name.bottom - 0.9, "Keeper", font=fonts.BOLD, size=8.0, align="right")
    page.c.setStrokeGray(PRINT_GREY)
    page.c.setLineWidth(0.3 * mm)
    page.line(name.x + 1.5, name.bottom, name.right, name.bottom)
    if keeper:
        _text(page, name.x + 3.0, name.bottom - 1.0, keeper, font=fonts.BOLD, size=10.0, width=name.w - 4.0)
    label = layout.rounds_label
    _text(page, label.right, _baseline(label, 7.0) - 0.3, "Rounds", font=fonts.BOLD, size=7.0, align="right")
    for n in range(1, layout.maker.rounds + 1):
        box = layout.boxes[f"round_{n}"]
        _box(page, box, grey=PRINT_GREY, radius=0.5)
        _text(page, box.centre[0], _baseline(box, 6.0), str(n), font=fonts.BOLD if n % 5 == 0 else fonts.BODY,
              size=6.0, grey=0.55, align="centre")


def _draw_grid(page: Page, layout: MakerLayout) -> None:
    c, grid = page.c, layout.grid
    c.setLineCap(1)
    c.setStrokeGray(LIGHT_GREY)
    c.setLineWidth(0.25 * mm)
    for tile in layout.tiles:
        page.rect(tile.rect.x, tile.rect.y, tile.rect.w, tile.rect.h)
    c.setStrokeGray(PRINT_GREY)
    c.setLineWidth(0.5 * mm)
    page.rect(grid.x, grid.y, grid.w, grid.h)
    labels = {item.id: tick_label(item) for item in layout.maker.market}
    for tile in layout.tiles:
        for item, box in tile.marks:
            _tick_box(page, box, labels[item])
        if tile.label is not None:
            _text(page, tile.label.centre[0], _baseline(tile.label, 6.0), tile.id, font=fonts.BODY, size=6.0,
                  grey=0.55, align="centre")
        if tile.icon is not None:
            draw = _gem if tile.items[0] == "gem" else _potion
            draw(page, *tile.icon.centre, tile.icon.w, ink=PRINT_GREY)
    letters = "ABCDEF"
    for die in layout.col_dice:
        _die(page, die.rect, die.value)
        _text(page, die.rect.right + 1.0, _baseline(die.rect, 7.0), letters[die.value - 1], font=fonts.BOLD,
              size=7.0, grey=0.4)
    for die in layout.row_dice:
        _die(page, die.rect, die.value)
    page.c.setFillColor(ACCENT)
    for arrow in layout.arrows:
        _arrow(page, arrow.tip, arrow.tail)
    note = layout.entrance_note
    _runs(page, note.x, _baseline(note, 6.5),
          [("Entrance: ", fonts.BOLD, TEXT_GREY),
           ("a path in through a corner tile's outer side (arrows).  ", fonts.BODY, TEXT_GREY),
           ("X die across, Y die down: X 3, Y 5 is C5.", fonts.ITALIC, NOTE_GREY)], size=6.5, width=note.w)


# -- panels -------------------------------------------------------------------------------

def _draw_frame(page: Page, panel: Panel) -> None:
    r = panel.rect
    page.c.setStrokeGray(FRAME_GREY)
    page.c.setLineWidth(0.3 * mm)
    page.rect(r.x, r.y, r.w, r.h, radius=1.6)
    page.c.setFillColor(ACCENT)
    page.text(r.x + 1.6, r.y + 4.0, panel.title, font=fonts.TITLE, size=11.0)


def _title_note(page: Page, panel: Panel, *texts: str) -> None:
    """A short italic note at the right of a panel's title band: the first of ``texts`` that fits."""
    r = panel.rect
    room = r.w - 3.2 - page.text_width(panel.title, fonts.TITLE, 11.0) - 3.0
    for text in texts:
        if not text:
            return                   # nothing fits, and that is fine
        if page.text_width(text, fonts.ITALIC, MIN_TEXT) <= room or text is texts[-1]:
            _text(page, r.right - 1.6, r.y + 3.7, text, font=fonts.ITALIC, size=6.5, grey=NOTE_GREY,
                  align="right", width=room)
            return


def _subtitle(page: Page, box: Rect, title: str, *notes: str, size: float = 9.5) -> bool:
    """A chart's title inside a shared panel, and the first of ``notes`` that fits beside it (False: none)."""
    page.c.setFillColor(ACCENT)
    page.text(box.x, box.y + 3.3, title, font=fonts.TITLE, size=size)
    room = box.w - page.text_width(title, fonts.TITLE, size) - 2.0
    for note in notes:
        if page.text_width(note, fonts.ITALIC, MIN_TEXT) <= room:
            _text(page, box.right, box.y + 3.2, note, font=fonts.ITALIC, size=6.0, grey=NOTE_GREY, align="right",
                  width=room)
            return True
    return False


def _draw_tools(page: Page, layout: MakerLayout) -> None:
    gems = layout.maker.loot.get("upgrade_after_gems", 3)
    _title_note(page, layout.panels["tools"], "circle yours", "")
    texts = {"basic": ("Basic tool", "Basic", "at the start", "to start"),
             "upgraded": ("Upgraded tool", "Upgraded", f"after {gems} Gems", f"{gems} Gems")}
    for slot in layout.tools:
        ring = slot.marks[0]
        _ring(page, ring, grey=PRINT_GREY)
        draw = _shovel if slot.key == "basic" else _pickaxe
        draw(page, *ring.centre, ring.w * 0.72, ink=0.3)
        long_name, name, long_note, note = texts[slot.key]
        box = slot.label
        if max(page.text_width(long_name, fonts.BOLD, 6.5), page.text_width(long_note, fonts.BODY, 6.0)) <= box.w:
            name, note = long_name, long_note
        _text(page, box.x, box.centre[1] - 0.3, name, font=fonts.BOLD, size=6.5, width=box.w)
        _text(page, box.x, box.centre[1] + 2.3, note, font=fonts.BODY, size=6.0, grey=NOTE_GREY, width=box.w)


def _draw_loot(page: Page, layout: MakerLayout) -> None:
    loot = layout.maker.loot
    _title_note(page, layout.panels["loot"], "tick one when you collect it")
    notes = {
        "gem": ("Gems", f"+{loot.get('gem_coin', 4)} Coin", "each; the {} upgrades your tool".format(
            _ordinal(loot.get("upgrade_after_gems", 3)))),
        "potion": ("Potions", f"+{loot.get('potion_coin', 2)} Coin, +{loot.get('potion_spells', 1)} spell",
                   "each; only with the upgraded tool"),
    }
    for slot in layout.loot_slots:
        name, beside, below = notes[slot.key]
        _text(page, slot.label.x + 4.2, _baseline(slot.label, 7.0), name, font=fonts.BOLD, size=7.0,
              width=slot.label.w - 4.4)
        draw = _gem if slot.key == "gem" else _potion
        draw(page, slot.label.x + 1.7, slot.label.centre[1], 3.6, ink=PRINT_GREY)
        for box in slot.marks:
            _box(page, box)
        room = slot.note.right - slot.marks[-1].right - 1.5
        font = fonts.BOLD if page.text_width(beside, fonts.BOLD, 6.5) <= room else fonts.BODY
        _text(page, slot.marks[-1].right + 1.5, _baseline(slot.label, 6.5), beside, font=font, size=6.5,
              width=room)
        _text(page, slot.note.x, slot.note.y + 2.0, below, size=6.0, grey=NOTE_GREY, width=slot.note.w)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _draw_heroes(page: Page, layout: MakerLayout) -> None:
    maker, hp = layout.maker, layout.hp
    _title_note(page, layout.panels["heroes"], "roll 2 dice: X across, Y down", "X across, Y down",
                "2 dice")
    c = page.c
    for y, row in enumerate(hp.cells, start=1):
        for x, cell in enumerate(row, start=1):
            letter, points = maker.hp_table[y - 1][x - 1][0], maker.hp_table[y - 1][x - 1][1:]
            shade = {0: 0.93, 1: 1.0, 2: 0.965}[[t.letter for t in maker.hero_types].index(letter) % 3]
            c.setFillGray(shade)
            c.setStrokeGray(0.75)
            c.setLineWidth(0.18 * mm)
            page.rect(cell.x, cell.y, cell.w, cell.h, fill=1)
            size = max(MIN_TEXT, min(6.8, cell.h / PT * 0.62))
            width = page.text_width(letter, fonts.BOLD, size) + page.text_width(points, fonts.BODY, size)
            _runs(page, cell.centre[0] - width / 2, _baseline(cell, size),
                  [(letter, fonts.BOLD, TEXT_GREY), (points, fonts.BODY, TEXT_GREY)], size=size)
    for die in hp.cols + hp.rows:
        _die(page, die.rect, die.value, ink=0.3)
    # Hero Basic Stats.
    titles = ((layout.basic_title, "Hero Basic Stats"), (layout.modifiers_title, "Stats Modifier"))
    size = min(_fit(page, title, fonts.TITLE, 9.5, box.w) for box, title in titles)
    _subtitle(page, layout.basic_title, "Hero Basic Stats", size=size)
    table = layout.basic_stats
    _table_head(page, table)
    for i, hero in enumerate(maker.hero_types):
        row = table.rows[i]
        if i % 2 == 0:
            _stripe(page, row)
        cell = table.cell(i, "hero")
        _runs(page, cell.x + 0.6, _baseline(cell, 6.5), [(hero.letter + " ", fonts.BOLD, TEXT_GREY),
                                                        (hero.name, fonts.BODY, TEXT_GREY)],
              size=6.5, width=cell.w - 0.8)
        for stat in maker.stats:
            cell = table.cell(i, stat.id)
            _text(page, cell.centre[0], _baseline(cell, 7.0), str(hero.stats[stat.id]), font=fonts.BOLD, size=7.0,
                  align="centre")
    # Stats Modifier.
    rule = "cross 1 per modifier built"
    note = layout.modifiers_note
    if note is None:
        _subtitle(page, layout.modifiers_title, "Stats Modifier", rule, "1 per modifier built", "1 per modifier",
                  size=size)
    else:
        _subtitle(page, layout.modifiers_title, "Stats Modifier", size=size)
        _text(page, note.x, note.bottom - 0.5, rule, font=fonts.ITALIC, size=6.0, grey=NOTE_GREY, width=note.w)
    for slot, stat in zip(layout.modifiers, maker.stats):
        _text(page, slot.label.x, _baseline(slot.label, 6.5), stat.short, font=fonts.BOLD, size=6.5)
        for pip in slot.marks:
            _ring(page, pip, grey=PRINT_GREY)
        if slot.note.w > 8.0:
            _text(page, slot.note.x, _baseline(slot.note, 6.0), stat.name, font=fonts.ITALIC, size=6.0,
                  grey=NOTE_GREY, width=slot.note.w)


def _stripe(page: Page, row: Rect) -> None:
    page.c.setFillGray(STRIPE)
    page.rect(row.x, row.y, row.w, row.h, stroke=0, fill=1)


def _table_head(page: Page, table, *, left=("hero",), size=6.0) -> None:
    """Column titles over a rule; the ``left`` columns are read from their left edge, the rest centred."""
    page.c.setStrokeGray(0.55)
    page.c.setLineWidth(0.2 * mm)
    page.line(table.header.x, table.header.bottom, table.header.right, table.header.bottom)
    for column in table.columns:
        head = table.head(column.key)
        if column.key in left:
            _text(page, head.x + 0.6, head.bottom - 0.8, column.title, font=fonts.BOLD, size=size, grey=NOTE_GREY,
                  width=head.w - 0.8)
        else:
            _text(page, head.centre[0], head.bottom - 0.8, column.title, font=fonts.BOLD, size=size, grey=NOTE_GREY,
                  align="centre", width=head.w - 0.4)


def _draw_spells(page: Page, layout: MakerLayout) -> None:
    potions = layout.maker.loot.get("potion_spells", 1)
    _title_note(page, layout.panels["spells"], f"tick the ring: got (1 to start, +{potions} per Potion); the box: cast",
                "ring: got (1 to start); box: cast", "ring: got; box: cast")
    for slot, spell in zip(layout.spells, layout.maker.spells):
        box = slot.label
        _ring(page, slot.marks[0])
        _box(page, slot.marks[1], radius=0.4)
        name, text = spell["name"], spell["text"]
        if box.h < SPELL_LINES - 1e-6:
            _runs(page, box.x, box.y + 2.55, [(name, fonts.BOLD, TEXT_GREY), ("  " + text, fonts.BODY, TEXT_GREY)],
                  size=6.5, width=box.w)
        else:
            # Two lines of 7 pt (design 3) need the lines a little further apart than 6-6.5 pt did.
            name_y, text_y = (2.4, 4.5) if _least(page) < 7.0 else (2.2, 4.75)
            _text(page, box.x, box.y + name_y, name, font=fonts.BOLD, size=6.5, width=box.w)
            _text(page, box.x, box.y + text_y, text, size=6.0, grey=NOTE_GREY, width=box.w)


def _modifier_text(item: MarketItem, maker) -> str:
    shorts = {s.id: s.short for s in maker.stats}
    text = " ".join(f"{value:+d} {shorts[stat]}" for stat, value in item.modifier.items())
    return f"{text} on fail" if text and item.on_fail else text


def _draw_market(page: Page, layout: MakerLayout) -> None:
    maker, table = layout.maker, layout.market
    _title_note(page, layout.panels["market"], "roll 2 dice: buy an item matching either die, or the two added")
    _table_head(page, table, left=("buy", "item", "modifier", "on"))
    shorts = {s.id: s.short for s in maker.stats}
    for i, item in enumerate(maker.market):
        row = table.rows[i]
        if i % 2 == 0:
            _stripe(page, row)
        buy = table.cell(i, "buy")
        x = buy.x + 0.6
        die = min(3.0, row.h - 0.5)
        if not item.buy:
            _text(page, x, _baseline(buy, 6.5), "any", font=fonts.BOLD, size=6.5)
        for value in item.buy:
            if value <= 6:
                _die(page, Rect(x, row.y + (row.h - die) / 2, die, die), value, ink=0.2)
                x += die + 0.8
            else:
                pill = Rect(x, row.y + (row.h - die) / 2, die + 1.6, die)
                page.c.setFillGray(0.2)
                page.rect(pill.x, pill.y, pill.w, pill.h, stroke=0, fill=1, radius=die * 0.2)
                _text(page, pill.centre[0], _baseline(pill, 6.5), str(value), font=fonts.BOLD, size=6.5, grey=1.0,
                      align="centre")
                x += pill.w + 0.8
        cells = {
            "item": (item.name, fonts.BOLD, "left"),

            "cost": (str(item.cost), fonts.BOLD, "centre"),
            "damage": (str(item.damage) if item.damage else "\u2013", fonts.BODY, "centre"),
            "check": (f"{shorts[item.check]} {item.value}" if item.check else "\u2013", fonts.BODY, "centre"),
            "modifier": (_modifier_text(item, maker) or "\u2013", fonts.BODY, "left"),
            "on": (ON_TEXT[item.on], fonts.BODY, "left"),
        }
        letter = table.cell(i, "letter")
        side = min(3.2, row.h - 0.3)
        _tick_box(page, Rect(letter.centre[0] - side / 2, row.y + (row.h - side) / 2, side, side), tick_label(item))
        for key, (text, font, align) in cells.items():
            cell = table.cell(i, key)
            x = cell.centre[0] if align == "centre" else cell.x + 0.6
            _text(page, x, _baseline(cell, 6.5), text, font=font, size=6.5, align=align, width=cell.w - 1.0)


def _draw_rules(page: Page, layout: MakerLayout) -> None:
    maker = layout.maker
    stairs = next((item for item in maker.market if not item.buy), None)
    last = f" <b>{stairs.name}</b> last: any roll, on a path next to the last room built." if stairs else ""
    def round_text(setup: str, pips: bool) -> list[str]:
        return [
            f"<b>Setup:</b> {setup} You have {maker.start_coin} Coin, the basic tool and 1 circled spell.",
            "<b>Each round, one action,</b> then cross the round off. <b>Collect</b> one loot: cross it, tick it "
            "under Loot. Or <b>build:</b> roll 2 dice, buy a Market item matching either die or the two added, pay "
            "its Coin, tick its box in the tile, and draw it (a path: a line through the sides it links)."
            + (" Cross its Modifier pips, unless \u2018on fail\u2019." if pips else "")
            + " Build on loot only once it is collected. Paths link the entrance to your rooms." + last,
        ]

    def hero_text(on_fail: bool, fall: bool) -> list[str]:
        return [
            f"<b>Up to {maker.heroes} heroes,</b> one at a time: roll 2 dice on the Hero HP table for type and HP, "
            "then fill in its stats. The hero walks the path from the entrance to the stairs. On each tile that can "
            "hurt (a trap or gate on it, monster rooms beside it, an Acid Pond under it) it makes <b>one check:</b> "
            "2 dice + the stat of the highest check there must reach it (a tie: its weakest of those stats). "
            "<b>Fail:</b> it takes the damage of every threat there."
            + (" A modifier marked \u2018on fail\u2019 counts from then on." if on_fail else ""),
            "<b>0 HP:</b> it dies, +1 Soul. <b>Stairs:</b> it escapes, cross 1 dungeon HP."
            + (" At 0 dungeon HP no more heroes come." if fall else ""),
        ]

    # The fullest wording that fits; the entrance is also told under the grid, the fall of the dungeon is rare.
    long_setup = "draw the entrance: a path in through the outer side of a corner tile (arrows)."
    short_setup = "draw the entrance, as told under the grid."
    _paragraphs(page, layout.panels["round"].body, round_text(long_setup, True), round_text(short_setup, True),
                round_text(long_setup, False))
    _paragraphs(page, layout.panels["hero_phase"].body, hero_text(True, True), hero_text(True, False),
                hero_text(False, False))


def _draw_scoring(page: Page, layout: MakerLayout) -> None:
    panel = layout.panels["scoring"]
    first = layout.score_lines[0]
    _text(page, first.points.centre[0], panel.rect.y + 3.9, "points", font=fonts.ITALIC, size=6.0, grey=NOTE_GREY,
          align="centre")
    for i, line in enumerate(layout.score_lines):
        if i % 2 == 0:
            _stripe(page, line.row)
        _runs(page, line.text.x + 0.6, _baseline(line.row, 6.5),
              [(line.label, fonts.BOLD, TEXT_GREY), ("  " + line.rule, fonts.BODY, 0.25)],
              size=6.5, width=line.text.w - 0.6)
        for mark in line.marks:
            if line.key == "dungeon_hp":
                _heart(page, mark)
            else:
                _box(page, mark, radius=0.4)
        _box(page, line.points, grey=PRINT_GREY)
    total = layout.boxes["total"]
    page.c.setFillColor(ACCENT)
    page.text(total.x - 2.5, total.bottom - 1.0, "Total", font=fonts.TITLE, size=12.0, align="right")
    _box(page, total, grey=WALL_GREY, width=0.45, radius=0.8)


def _draw_hero_stats(page: Page, layout: MakerLayout) -> None:
    maker, table = layout.maker, layout.hero_stats
    _title_note(page, layout.panels["hero_stats"], "basic stat + crossed modifiers")
    _table_head(page, table, left=("fate",))
    for i in range(maker.heroes):
        row = table.rows[i]
        cell = table.cell(i, "hero")
        _text(page, cell.centre[0], _baseline(cell, 7.0), str(i + 1), font=fonts.BOLD, size=7.0, align="centre")
        for column in table.columns[1:-1]:
            _box(page, layout.boxes[f"hero_{i + 1}_{column.key}"], grey=LIGHT_GREY, radius=0.5)
        fate = table.cell(i, "fate")
        _runs(page, fate.x + 1.2, _baseline(fate, 6.5), [("died", fonts.BODY, 0.3), ("  /  ", fonts.BODY, 0.6),
                                                        ("escaped", fonts.BODY, 0.3)], size=6.5, width=fate.w - 1.6)
        page.c.setStrokeGray(0.8)
        page.c.setLineWidth(0.15 * mm)
        if i:
            page.line(row.x, row.y, row.right, row.y)
    body = layout.panels["hero_stats"].body
    room = Rect(body.x, table.rows[-1].bottom, body.w, body.bottom - table.rows[-1].bottom)
    if room.h >= 3.4:
        _runs(page, room.x + 0.6, _baseline(room, 6.0) + 0.3,
              [("Fate: ", fonts.BOLD, NOTE_GREY), ("circle one. Died: +1 Soul; escaped: cross a dungeon HP.",
                                                   fonts.BODY, NOTE_GREY)], size=6.0, width=room.w - 1.0)


def _draw_coin_track(page: Page, layout: MakerLayout) -> None:
    maker, label = layout.maker, layout.coin_label
    page.c.setFillColor(ACCENT)
    page.text(label.x, label.y + 5.2, "Coin", font=fonts.TITLE, size=12.0)
    _text(page, label.x, label.y + 8.8, f"start at {maker.start_coin},", size=6.0, grey=NOTE_GREY, width=label.w)
    _text(page, label.x, label.y + 11.4, "move one mark", size=6.0, grey=NOTE_GREY, width=label.w)
    value = 0
    while f"coin_{value}" in layout.boxes:
        box = layout.boxes[f"coin_{value}"]
        start = value == maker.start_coin
        page.c.setStrokeGray(WALL_GREY if start else PRINT_GREY)
        page.c.setFillColor(TINT) if start else page.c.setFillGray(1)
        page.c.setLineWidth((0.45 if start else 0.25) * mm)
        page.rect(box.x + 0.25, box.y + 0.25, box.w - 0.5, box.h - 0.5, radius=0.6, fill=1)
        _text(page, box.centre[0], _baseline(box, 6.5), str(value), font=fonts.BOLD if start or value % 10 == 0
              else fonts.BODY, size=6.5, grey=TEXT_GREY if start else 0.5, align="centre")
        value += 1

