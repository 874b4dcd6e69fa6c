"""The dungeon map sheet as a PDF, drawn from the sheet layout.

Everything a player draws over (grid, passages, round boxes, item icons, score
boxes) is printed in mid-grey so pen strokes stand out to the scanner; walls
and text are dark, so the sheet reads well in greyscale too.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import BinaryIO

from reportlab.graphics.barcode import qrencoder
from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from games.maps import SIDES, STEP
from generator import art, fonts
from generator.layout import LAYOUT_VERSION, MARKER_DICTIONARY, SheetLayout

PRINT_GREY = 0.55     # what players draw over
LIGHT_GREY = 0.72
WALL_GREY = 0.15
TEXT_GREY = 0.12
ACCENT = Color(0.55, 0.16, 0.12)   # entry arrows and the title: dark enough for greyscale


class Page:
    """A reportlab canvas addressed in layout millimetres (top-left origin, y down).

    This is the one place where layout millimetres become PDF points.
    """

    def __init__(self, canvas: Canvas, height_mm: float):
        self.c = canvas
        self.height_mm = height_mm

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return x * mm, (self.height_mm - y) * mm

    def line(self, x1, y1, x2, y2) -> None:
        self.c.line(*self.pt(x1, y1), *self.pt(x2, y2))

    def rect(self, x, y, w, h, *, stroke=1, fill=0, radius=0.0) -> None:
        px, py = self.pt(x, y + h)
        if radius:
            self.c.roundRect(px, py, w * mm, h * mm, radius * mm, stroke=stroke, fill=fill)
        else:
            self.c.rect(px, py, w * mm, h * mm, stroke=stroke, fill=fill)

    def circle(self, cx, cy, r, *, stroke=1, fill=0) -> None:
        self.c.circle(*self.pt(cx, cy), r * mm, stroke=stroke, fill=fill)

    def polygon(self, points, *, stroke=1, fill=1) -> None:
        path = self.c.beginPath()
        path.moveTo(*self.pt(*points[0]))
        for point in points[1:]:
            path.lineTo(*self.pt(*point))
        path.close()
        self.c.drawPath(path, stroke=stroke, fill=fill)

    def text(self, x, y, text, *, font=fonts.BODY, size=8.0, align="left") -> None:
        """Text whose baseline starts (or centres, or ends) at (x, y)."""
        self.c.setFont(font, size)
        draw = {"left": self.c.drawString, "centre": self.c.drawCentredString,
                "right": self.c.drawRightString}[align]
        draw(*self.pt(x, y), text)

    def text_width(self, text, font, size) -> float:
        return self.c.stringWidth(text, font, size) / mm


def render_sheets(layout: SheetLayout, players: int, path: Path | BinaryIO) -> None:
    """Write a PDF (to a path or a binary file) with one numbered page per player. Same input, same bytes."""
    fonts.register_fonts()
    dungeon = layout.dungeon
    canvas = Canvas(path if hasattr(path, "write") else str(path), pagesize=(layout.width * mm, layout.height * mm), invariant=1,
                    initialFontName=fonts.BODY, pageCompression=1)
    canvas.setTitle(f"Dungeon Scrawl: {dungeon.name}")
    canvas.setAuthor("dungeon-scrawl")
    canvas.setSubject(f"Map sheet, {dungeon.name}, {layout.paper.upper()}, {players} player(s)")
    canvas.setCreator("dungeon-scrawl")
    for player in range(1, players + 1):
        page = Page(canvas, layout.height)
        _draw_header(page, layout, player, players)
        _draw_map(page, layout)
        _draw_scoring(page, layout)
        _draw_ruler(page, layout)
        _draw_markers(page, layout)
        _draw_qr(page, layout, player)
        canvas.showPage()
    canvas.save()


def blank_image(layout: SheetLayout, px_per_mm: float, player: int = 1):
    """The blank printed page as a greyscale image (numpy ``uint8``, 255 white) at ``px_per_mm``: what the
    scanner compares a photo with to tell the players' ink from the print."""
    import numpy as np
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    render_sheets(layout, player, buffer)
    document = pdfium.PdfDocument(buffer.getvalue())
    bitmap = document[player - 1].render(scale=px_per_mm * 25.4 / 72, grayscale=True)
    return np.array(bitmap.to_pil().convert("L"))


# -- header -------------------------------------------------------------------

def _draw_header(page: Page, layout: SheetLayout, player: int, players: int) -> None:
    c, box, dungeon = page.c, layout.header, layout.dungeon
    c.setFillColor(ACCENT)
    page.text(box.x, box.y + 9.5, "Dungeon Scrawl", font=fonts.TITLE, size=27)
    c.setFillGray(TEXT_GREY)
    if dungeon.seed is None:
        subtitle = f"{dungeon.name}  \u00b7  {dungeon.id} map"
    else:
        subtitle = f"Random dungeon  \u00b7  seed {dungeon.seed}  \u00b7  generator v{dungeon.version}"
    page.text(box.x, box.y + 15.5, subtitle, font=fonts.ITALIC, size=9.5)
    line = layout.name_line
    page.text(box.x, line.bottom - 0.8, "Adventurer", font=fonts.BOLD, size=9)
    c.setStrokeGray(PRINT_GREY)
    c.setLineWidth(0.3 * mm)
    page.line(line.x, line.bottom, line.right, line.bottom)
    page.text(box.right, line.bottom - 0.8, f"Player {player} of {players}", font=fonts.BOLD, size=9,
              align="right")


# -- the map --------------------------------------------------------------------

def _draw_map(page: Page, layout: SheetLayout) -> None:
    c, dungeon = page.c, layout.dungeon
    room = layout.room_size
    # Thin guide lines on every side; walls and passages go on top.
    c.setLineCap(1)
    c.setStrokeGray(LIGHT_GREY)
    c.setLineWidth(0.25 * mm)
    for cell in layout.rooms:
        page.rect(cell.rect.x, cell.rect.y, room, room)
    # Walls: heavy dark lines, the outer edge included, except at entryways.
    c.setStrokeGray(WALL_GREY)
    c.setLineWidth(1.1 * mm)
    for cell in layout.rooms:
        for side in SIDES:
            if dungeon.side_kind(cell.room, side) == "wall":
                if side in "NW" and dungeon.contains(cell.room.neighbour(side)):
                    continue  # an interior wall is drawn once, from its room to the E or S
                page.line(*cell.side_ends(side))
    # Passages: a small diamond on each side shared by two rooms.
    half = 0.11 * room
    c.setLineWidth(0.3 * mm)
    c.setStrokeGray(PRINT_GREY)
    c.setFillGray(0.93)
    for cell in layout.rooms:
        for side in ("E", "S"):
            if dungeon.side_kind(cell.room, side) == "passage":
                x, y = cell.side_midpoint(side)
                page.polygon([(x, y - half), (x + half, y), (x, y + half), (x - half, y)])
    for cell in layout.rooms:
        # The round box for the round number, upper-left.
        cx, cy, r = cell.round_box
        c.setFillGray(1)
        page.circle(cx, cy, r, fill=1)
        if cell.icon:
            art.draw_item(c, cell.items[0], *page.pt(*cell.icon.centre), cell.icon.w * mm, ink=PRINT_GREY)
    _draw_arrows(page, layout)
    c.setFillGray(0.3)
    for text, x, y in layout.col_labels + layout.row_labels:
        page.text(x, y + 1.3, text, font=fonts.BOLD, size=10, align="centre")


def _draw_arrows(page: Page, layout: SheetLayout) -> None:
    page.c.setFillColor(ACCENT)
    page.c.setStrokeColor(ACCENT)
    page.c.setLineWidth(0.2 * mm)
    page.c.setLineJoin(1)
    for arrow in layout.arrows:
        (tx, ty), (bx, by) = arrow.tip, arrow.tail
        dc, dr = STEP[arrow.side]          # pointing out of the room; the arrow points in
        px, py = -dr, dc                   # across the arrow
        head, shaft = 2.3, 0.75
        neck = (tx + dc * 2.6, ty + dr * 2.6)
        page.polygon([
            (tx, ty),
            (neck[0] + px * head, neck[1] + py * head),
            (neck[0] + px * shaft, neck[1] + py * shaft),
            (bx + px * shaft, by + py * shaft),
            (bx - px * shaft, by - py * shaft),
            (neck[0] - px * shaft, neck[1] - py * shaft),
            (neck[0] - px * head, neck[1] - py * head),
        ])


# -- scoring --------------------------------------------------------------------

def _draw_scoring(page: Page, layout: SheetLayout) -> None:
    c, area = page.c, layout.score_area
    first = layout.score_lines[0]
    c.setFillGray(TEXT_GREY)
    page.text(area.x, area.y + 3.6, "Scoring", font=fonts.TITLE, size=14)
    c.setFillGray(0.35)
    page.text(first.count.centre[0], area.y + 4.0, "count", font=fonts.ITALIC, size=6.5, align="centre")
    page.text(first.points.centre[0], area.y + 4.0, "points", font=fonts.ITALIC, size=6.5, align="centre")
    tally = layout.score_lines[5].tally
    page.text(tally.centre[0], layout.score_lines[5].row.y - 0.3, "tally marks", font=fonts.ITALIC, size=6.5,
              align="centre")
    for line in layout.score_lines:
        size = min(8.0, line.row.h * 1.25)
        baseline = line.badge.centre[1] + size * 0.13
        c.setFillGray(0.3)
        page.circle(*line.badge.centre, line.badge.h / 2, stroke=0, fill=1)
        c.setFillGray(1)
        page.text(line.badge.centre[0], baseline, str(line.item), font=fonts.BOLD, size=size, align="centre")
        c.setFillGray(TEXT_GREY)
        page.text(line.text.x, baseline, line.label, font=fonts.BOLD, size=size)
        offset = page.text_width(line.label, fonts.BOLD, size) + 2.0
        c.setFillGray(0.3)
        rule_size = size - 1.0
        while page.text_width(line.rule, fonts.BODY, rule_size) > line.text.w - offset and rule_size > 5:
            rule_size -= 0.25
        page.text(line.text.x + offset, baseline, line.rule, font=fonts.BODY, size=rule_size)
        c.setStrokeGray(PRINT_GREY)
        c.setLineWidth(0.3 * mm)
        c.setFillGray(1)
        for box in (line.tally, line.count, line.points):
            if box is not None:
                page.rect(box.x, box.y, box.w, box.h, radius=0.8)
    total = layout.total
    c.setFillGray(TEXT_GREY)
    page.text(total.x - 3.0, total.centre[1] + 1.6, "Total", font=fonts.TITLE, size=13, align="right")
    c.setStrokeGray(WALL_GREY)
    c.setLineWidth(0.5 * mm)
    c.setFillGray(1)
    page.rect(total.x, total.y, total.w, total.h, radius=0.8)


# -- print furniture: ruler, markers, QR --------------------------------------------

def _draw_ruler(page: Page, layout: SheetLayout) -> None:
    """A 5 cm bar with millimetre ticks, so players can check the print scale."""
    c, ruler = page.c, layout.ruler
    c.setStrokeGray(TEXT_GREY)
    c.setFillGray(TEXT_GREY)
    c.setLineWidth(0.2 * mm)
    page.line(ruler.x, ruler.y, ruler.right, ruler.y)
    for i in range(0, 51):
        tick = 2.6 if i % 10 == 0 else (1.8 if i % 5 == 0 else 1.0)
        page.line(ruler.x + i, ruler.y, ruler.x + i, ruler.y + tick)
    for i in range(0, 6):
        page.text(ruler.x + 10 * i, ruler.bottom - 0.2, str(i), font=fonts.BODY, size=5.5, align="centre")
    page.text(ruler.right + 1.2, ruler.bottom - 0.2, "cm", font=fonts.BODY, size=5.5)
    page.text(ruler.right + 6.0, ruler.y + 2.2, "Print at 100% (no \u2018fit to page\u2019):",
              font=fonts.ITALIC, size=6.5)
    page.text(ruler.right + 6.0, ruler.y + 5.0, "this bar must measure 5 cm.", font=fonts.ITALIC, size=6.5)
    c.setFillGray(0.45)
    page.text(layout.markers[3].rect.right + 4.0, ruler.bottom - 0.2,
              f"dungeon-scrawl  \u00b7  layout v{LAYOUT_VERSION}  \u00b7  {layout.paper.upper()}",
              font=fonts.BODY, size=5.5)


def _marker_cells(marker_id: int):
    import cv2  # heavy: only when a sheet is drawn

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    bits = dictionary.generateImageMarker(marker_id, 6, borderBits=1)
    return bits


def _draw_markers(page: Page, layout: SheetLayout) -> None:
    c = page.c
    c.setFillGray(0)
    for marker in layout.markers:
        cells = _marker_cells(marker.id)
        n = cells.shape[0]
        step = marker.rect.w / n
        for row in range(n):
            for col in range(n):
                if cells[row, col] == 0:
                    # A hair of overlap so neighbouring black cells print as one shape.
                    page.rect(marker.rect.x + col * step - 0.01, marker.rect.y + row * step - 0.01,
                              step + 0.02, step + 0.02, stroke=0, fill=1)


def _draw_qr(page: Page, layout: SheetLayout, player: int) -> None:
    """The sheet's QR code, from reportlab's encoder, as filled runs of dark modules."""
    count, runs = qr_runs(layout.sheet_id(player).qr_text())
    step = layout.qr.w / count
    page.c.setFillGray(0)
    for row, start, end in runs:
        page.rect(layout.qr.x + start * step - 0.01, layout.qr.y + row * step - 0.01,
                  (end - start) * step + 0.02, step + 0.02, stroke=0, fill=1)


def qr_runs(text: str) -> tuple[int, list[tuple[int, int, int]]]:
    """``text`` as a QR code (reportlab's encoder, error correction M): its size in modules, and its dark
    modules as runs along the rows, (row, first column, column after the last)."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    count = code.getModuleCount()
    runs = []
    for row in range(count):
        col = 0
        while col < count:
            if not code.isDark(row, col):
                col += 1
                continue
            start = col
            while col < count and code.isDark(row, col):
                col += 1
            runs.append((row, start, col))
    return count, runs
