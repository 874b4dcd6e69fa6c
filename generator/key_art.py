"""The "how to draw" key printed beside the title of every dungeon map sheet.

Four little rooms, drawn as on the map (``generator.cardart.draw_room``: grey frame, round box, a passage
diamond on each side), each with the pen strokes the scanner reads best, in the player's pen blue, and a
caption under it:

1. a segment: a line from one side's middle to the opposite side's middle, reaching both sides;
2. a dead end: a line from a side's middle that stops at the room's centre with a short cross bar;
3. a Trap X: two strokes corner to corner, the one towards the round box stopping short of it;
4. a round number: a digit written in the round box, in the room's upper-left corner.

The strokes bow a little, as a hand's do. Drawn in the layout's ``draw_key`` rectangle, which lies outside
the part of the page the scanner reads.
"""
from __future__ import annotations

import math

from reportlab.lib.units import mm

from generator import fonts
from generator.cardart import PEN, CardStyle, draw_room
from sheets.page import Rect
from generator.page import ACCENT, TEXT_GREY, Page

TITLE = "How to draw"
TITLE_SIZE = 11.0           # pt, the sheet's section titles' font, a little smaller than theirs
CAPTIONS = ("segment", "dead end", "Trap X", "round")
CAPTION_SIZES = (7.5, 7.25, 7.0)   # pt, the largest that keeps the captions apart; never below 7
CAPTION_GAP = 1.2           # mm kept between two captions
PEN_WIDTH = 0.5             # mm: a marker on a room of about 10 mm, like a ballpoint on the map's 20 mm rooms
DIGIT_PEN = 0.3             # mm: the round number, written smaller
BOW = 0.035                 # how far a stroke bows out, as a share of its length
PT = 25.4 / 72              # mm per point


def draw_key(page: Page, box: Rect) -> None:
    """The key, filling ``box`` (mm): its title at the top, then the four rooms in a row, captioned."""
    c = page.c
    c.saveState()
    size = caption_size(page, box.w)
    cell = box.w / len(CAPTIONS)
    title_base = box.y + 3.0
    caption_base = box.bottom - 0.9
    caption_top = caption_base - 0.75 * size * PT
    # The room with its passage diamonds (0.11 of the room beyond each side) fits the cell and the space
    # between the title and the captions.
    room = math.floor(10 * min((cell - 0.6) / 1.22, (caption_top - 0.8 - title_base - 0.8) / 1.22)) / 10
    top = (title_base + 0.8 + caption_top - 0.8) / 2 - room / 2
    c.setFillGray(TEXT_GREY)
    page.text(box.x, title_base, TITLE, font=fonts.TITLE, size=TITLE_SIZE)
    style = CardStyle("sheet", "Map sheet", ACCENT)
    for i, (caption, strokes) in enumerate(zip(CAPTIONS, (_segment, _dead_end, _trap, _round_number))):
        centre = box.x + (i + 0.5) * cell
        square = Rect(centre - room / 2, top, room, room)
        draw_room(page, square, style)          # the room alone: the strokes are drawn by hand below
        c.setStrokeColor(PEN)
        c.setLineCap(1)
        c.setLineJoin(1)
        c.setLineWidth(PEN_WIDTH * mm)
        strokes(page, square)
        c.setFillGray(TEXT_GREY)
        page.text(centre, caption_base, caption, font=fonts.BODY, size=size, align="centre")
    c.restoreState()


def caption_size(page: Page, width: float) -> float:
    """The captions' size (pt) for a key ``width`` mm wide: the largest of CAPTION_SIZES that keeps
    neighbouring captions, centred in their quarters, CAPTION_GAP apart."""
    cell = width / len(CAPTIONS)
    for size in CAPTION_SIZES:
        widths = [page.text_width(text, fonts.BODY, size) for text in CAPTIONS]
        if max(widths) <= cell and all((a + b) / 2 + CAPTION_GAP <= cell for a, b in zip(widths, widths[1:])):
            return size
    return CAPTION_SIZES[-1]


# -- the pen's strokes -------------------------------------------------------------------------------

def _stroke(page: Page, x1: float, y1: float, x2: float, y2: float, bow: float = BOW) -> None:
    """A pen stroke from (x1, y1) to (x2, y2) that bows ``bow`` of its length to its left, as a hand's."""
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = (y1 - y2) / length, (x2 - x1) / length      # across the stroke
    off = bow * length
    path = page.c.beginPath()
    path.moveTo(*page.pt(x1, y1))
    path.curveTo(*page.pt(x1 + (x2 - x1) / 3 + nx * off, y1 + (y2 - y1) / 3 + ny * off),
                 *page.pt(x1 + 2 * (x2 - x1) / 3 + nx * off, y1 + 2 * (y2 - y1) / 3 + ny * off),
                 *page.pt(x2, y2))
    page.c.drawPath(path, stroke=1, fill=0)


def _segment(page: Page, room: Rect) -> None:
    """Side's middle to the opposite side's middle, reaching both sides."""
    _stroke(page, room.x, room.centre[1], room.right, room.centre[1], bow=0.02)


def _dead_end(page: Page, room: Rect) -> None:
    """From the side's middle to the centre, where a short bar across ends it."""
    cx, cy = room.centre
    _stroke(page, room.x, cy, cx, cy, bow=0.03)
    bar = 0.2 * room.h
    _stroke(page, cx + 0.1, cy - bar, cx - 0.1, cy + bar, bow=0.03)


def _trap(page: Page, room: Rect) -> None:
    """Corner to corner; the stroke towards the round box (upper left) starts past it."""
    inset = 0.1 * room.w
    _stroke(page, room.right - inset, room.y + inset, room.x + inset, room.bottom - inset, bow=0.025)
    start = 0.37 * room.w                  # the round box reaches 0.28 of the room along this diagonal
    _stroke(page, room.x + start, room.y + start, room.right - inset, room.bottom - inset, bow=-0.025)


def _round_number(page: Page, room: Rect) -> None:
    """A 3 written in the round box (as ``draw_room`` prints it: 0.13 of the room, 1.1 mm in per 20 mm)."""
    k = room.w / 20.0
    r = 0.13 * room.w
    cx, cy = room.x + r + 1.1 * k, room.y + r + 1.1 * k
    h = 1.35 * r                            # the digit's height: inside the circle
    page.c.setLineWidth(DIGIT_PEN * mm)

    def p(u: float, v: float) -> tuple[float, float]:
        """A point of the digit, drawn on a box from (-0.5, -0.5) to (0.5, 0.5), y down."""
        return page.pt(cx + u * h * 0.75, cy + v * h)

    path = page.c.beginPath()
    path.moveTo(*p(-0.38, -0.36))
    path.curveTo(*p(-0.2, -0.58), *p(0.4, -0.56), *p(0.34, -0.22))
    path.curveTo(*p(0.3, -0.04), *p(0.1, 0.0), *p(-0.08, 0.0))
    path.moveTo(*p(0.02, 0.0))
    path.curveTo(*p(0.46, 0.0), *p(0.5, 0.48), *p(0.04, 0.5))
    path.curveTo(*p(-0.2, 0.51), *p(-0.36, 0.42), *p(-0.44, 0.3))
    page.c.drawPath(path, stroke=1, fill=0)
