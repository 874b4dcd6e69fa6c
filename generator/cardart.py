"""Card faces and backs for the printed decks.

Every function draws on a ``generator.sheet.Page`` whose origin is the top-left
corner of one card's trim: x from 0 to CARD_W, y from 0 to CARD_H, millimetres,
y down. The bleed lies beyond the trim (negative x and y, and past the far
edges); the caller clips to it. Icons are designed, like ``generator.art``, on a
100 x 100 grid centred on the origin, y up, and scaled to the size asked for.

``low_ink`` faces keep to outlines and thin lines: no filled backgrounds, title
bands or patterns, for home printers.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics

from games.cards import CardSpec, Deck
from games.errors import ScrawlError
from generator import fonts
from sheets.page import Rect
from generator.page import ACCENT, LIGHT_GREY, PRINT_GREY, Page

CARD_W, CARD_H = 63.0, 88.0       # mm, poker size
SAFE = 4.5                         # text keeps this far inside the trim
MIN_TEXT = 6.5                     # pt: the smallest text printed on a card
PT = 25.4 / 72                     # mm per point

PARCHMENT = Color(0.992, 0.976, 0.945)
INK = Color(0.12, 0.12, 0.12)
NOTE_GREY = Color(0.36, 0.36, 0.36)       # flavour text and footnotes
PEN = Color(0.13, 0.21, 0.46)     # the player's pen, on path-segment and trap cards
ACCENTS = {"doodles": ACCENT, "traps": Color(0.10, 0.34, 0.36), "monsters-reference": Color(0.31, 0.20, 0.48)}
KIND_LABELS = {"segment": "Path segment", "trap": "Trap card", "draw2": "Action card", "dungeon-trap": "Trap",
               "part": "Monster part", "colour": "Core colour", "order": "Order of play"}

BAND = 14.0                                        # the title band's lower edge
ART = Rect(14.5, 22.0, 34.0, 34.0)                 # the picture of a plain card
TEXT = Rect(SAFE + 1.0, 60.0, CARD_W - 2 * SAFE - 2.0, 83.5 - 60.0)


@dataclass(frozen=True)
class CardStyle:
    """How one deck's cards look: its name, its colour, and whether to save ink."""

    deck_id: str
    deck_name: str
    accent: Color
    low_ink: bool = False

    @classmethod
    def for_deck(cls, deck: Deck, *, low_ink: bool = False) -> "CardStyle":
        return cls(deck.id, deck.name, ACCENTS.get(deck.id, ACCENT), low_ink)

    def tint(self, t: float) -> Color:
        """The accent mixed toward white by ``t`` (0 = accent, 1 = white)."""
        a = self.accent
        return Color(a.red + (1 - a.red) * t, a.green + (1 - a.green) * t, a.blue + (1 - a.blue) * t)


# -- fronts ------------------------------------------------------------------------

def draw_front(card: Page, spec: CardSpec, style: CardStyle, *, bleed: float = 0.0) -> None:
    """One card's front: background, title, kind, then the picture and text its kind calls for."""
    _background(card, style, bleed)
    _title(card, spec, style)
    _spaced(card, CARD_W / 2, BAND + 4.6, _kind_label(spec).upper(), fonts.BOLD, 5.8, style.accent)
    _FACES.get(spec.kind, _plain_face)(card, spec, style)


def _kind_label(spec: CardSpec) -> str:
    label = KIND_LABELS.get(spec.kind, spec.kind.replace("-", " "))
    if spec.kind == "dungeon-trap":
        label += f"  \u00b7  {spec.fields['set']}"
    return label


def _low_ink_frame(card: Page, style: CardStyle, inset: float) -> None:
    """Low ink: a thin grey trim line and an accent frame ``inset`` mm inside it, in place of a filled card."""
    c = card.c
    c.setStrokeGray(0.6)
    c.setLineWidth(0.2)
    card.rect(0, 0, CARD_W, CARD_H)
    c.setStrokeColor(style.accent)
    c.setLineWidth(0.35 * mm)
    card.rect(inset, inset, CARD_W - 2 * inset, CARD_H - 2 * inset, radius=2.0)


def _background(card: Page, style: CardStyle, bleed: float) -> None:
    c = card.c
    if style.low_ink:
        _low_ink_frame(card, style, 2.5)
        card.line(2.5, BAND, CARD_W - 2.5, BAND)
        return
    c.setFillColor(PARCHMENT)
    card.rect(-bleed, -bleed, CARD_W + 2 * bleed, CARD_H + 2 * bleed, stroke=0, fill=1)
    c.setFillColor(style.accent)
    card.rect(-bleed, -bleed, CARD_W + 2 * bleed, BAND + bleed, stroke=0, fill=1)
    card.rect(-bleed, CARD_H - 2.2, CARD_W + 2 * bleed, 2.2 + bleed, stroke=0, fill=1)
    c.setStrokeColor(style.tint(0.55))
    c.setLineWidth(0.25 * mm)
    card.line(-bleed, BAND - 1.0, CARD_W + bleed, BAND - 1.0)


def _title(card: Page, spec: CardSpec, style: CardStyle) -> None:
    """The card's name in the title band; a trap card's set icon sits at the band's right."""
    room = CARD_W - 2 * SAFE
    if spec.kind == "dungeon-trap":
        room -= 2 * 9.0
        ink = white if not style.low_ink else style.accent
        set_icon(card, spec.fields["set"], CARD_W - SAFE - 3.6, BAND / 2, 8.0, ink=ink, fill=None)
    font = title_font(spec.title)
    size = 17.0 if font == fonts.TITLE else 13.0
    while card.text_width(spec.title, font, size) > room and size > 8:
        size -= 0.5
    card.c.setFillColor(style.accent if style.low_ink else white)
    card.text(CARD_W / 2, BAND / 2 + size * PT * 0.33, spec.title, font=font, size=size, align="centre")


def title_font(text: str) -> str:
    """The display face, or the bold face for a text needing a glyph the display face lacks (digits, '/')."""
    widths = pdfmetrics.getFont(fonts.TITLE).widths
    return fonts.TITLE if all(ord(ch) < 256 and widths[ord(ch)] for ch in text) else fonts.BOLD


def _panel(card: Page, box: Rect, style: CardStyle) -> None:
    """A rounded frame behind a card's picture."""
    card.c.setStrokeColor(style.tint(0.45))
    card.c.setFillColor(white)
    card.c.setLineWidth(0.25 * mm)
    card.rect(box.x, box.y, box.w, box.h, radius=2.5, fill=0 if style.low_ink else 1)


def _plain_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    text_block(card, [_Para(spec.text)], Rect(TEXT.x, ART.y, TEXT.w, TEXT.bottom - ART.y), spec, style,
               align="centre", valign="middle")


def _segment_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    _panel(card, ART.grown(1.5), style)
    exits = spec.exits
    draw_room(card, ART.grown(-2.5), style, exits=exits if spec.shape != "dead_end" else "",
              dead_end=exits if spec.shape == "dead_end" else "")
    text_block(card, [_Para(spec.text)], TEXT, spec, style, align="centre", valign="middle")


def _trap_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    _panel(card, ART.grown(1.5), style)
    draw_room(card, ART.grown(-2.5), style, cross=True)
    text_block(card, [_Para(spec.text)], TEXT, spec, style, align="centre", valign="middle")


def _draw_two_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    _panel(card, ART.grown(1.5), style)
    c = card.c
    cx, cy = ART.centre
    for dx, dy, turn, text in ((-4.0, 1.0, 12, ""), (4.0, -0.5, -7, "+2")):
        c.saveState()
        c.translate(*card.pt(cx + dx, cy + dy))
        c.rotate(turn)
        c.setStrokeColor(style.accent)
        c.setFillColor(white if style.low_ink else PARCHMENT)
        c.setLineWidth(0.4 * mm)
        c.roundRect(-10.5 * mm, -14.5 * mm, 21 * mm, 29 * mm, 1.8 * mm, stroke=1, fill=1)
        c.setLineWidth(0.2 * mm)
        c.roundRect(-8.8 * mm, -12.8 * mm, 17.6 * mm, 25.6 * mm, 1.2 * mm, stroke=1, fill=0)
        if text:
            c.setFillColor(style.accent)
            c.setFont(fonts.BOLD, 24)
            c.drawCentredString(0, -8.5, text)
        c.restoreState()
    text_block(card, [_Para(spec.text)], TEXT, spec, style, align="centre", valign="middle")


def _dungeon_trap_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    art = Rect(CARD_W / 2 - 10.5, 21.5, 21.0, 15.0)
    set_icon(card, spec.fields["set"], *art.centre, art.h, ink=style.accent,
             fill=None if style.low_ink else style.tint(0.8))
    paras = []
    for label, key in (("Dodge", "dodge"), ("Effect", "effect"), ("Helps", "helps")):
        paras += [_Para(label.upper(), fonts.BOLD, 0.8, style.accent, gap=1.6 if paras else 0.0, rule=True),
                  _Para(spec.fields[key], gap=0.3)]
    if spec.fields.get("flavour"):
        paras.append(_Para(spec.fields["flavour"], fonts.ITALIC, 0.92, NOTE_GREY, gap=2.2))
    box = Rect(TEXT.x, art.bottom + 3.0, TEXT.w, TEXT.bottom - art.bottom - 3.0)
    text_block(card, paras, box, spec, style, largest=8.0)


def _part_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    art = Rect(CARD_W / 2 - 13, ART.y + 1.5, 26, 26)
    fill = None if style.low_ink else style.tint(0.78)
    part_icon(card, spec.id, *art.centre, art.w, ink=style.accent, fill=fill)
    box = Rect(TEXT.x, art.bottom + 3.5, TEXT.w, TEXT.bottom - art.bottom - 3.5)
    text_block(card, [_Para(spec.text)], box, spec, style, align="centre", valign="middle")


def _colour_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    art = Rect(CARD_W / 2 - 14, ART.y + 1.0, 28, 28)
    swatch(card, spec, *art.centre, art.w, low_ink=style.low_ink)
    paras = [_Para(spec.text)]
    if re.search(r"\bn\b", spec.text):
        paras.append(_Para("n = core die sides \u00f7 4, rounded down", fonts.ITALIC, 0.85, NOTE_GREY, gap=2.0))
    box = Rect(TEXT.x, art.bottom + 3.5, TEXT.w, TEXT.bottom - art.bottom - 3.5)
    text_block(card, paras, box, spec, style, align="centre", valign="middle")


def _order_face(card: Page, spec: CardSpec, style: CardStyle) -> None:
    paras = [_Para(spec.text, fonts.ITALIC)] if spec.text else []
    paras += [_Para(step, number=str(i), gap=1.4 if (i > 1 or paras) else 0.0)
              for i, step in enumerate(spec.fields["steps"], start=1)]
    box = Rect(TEXT.x, BAND + 8.0, TEXT.w, TEXT.bottom - BAND - 8.0)
    text_block(card, paras, box, spec, style)


_FACES = {"segment": _segment_face, "trap": _trap_face, "draw2": _draw_two_face,
          "dungeon-trap": _dungeon_trap_face, "part": _part_face, "colour": _colour_face, "order": _order_face}


# -- text ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Para:
    """A paragraph of card text, sized relative to the card's body size."""

    text: str
    font: str = fonts.BODY
    scale: float = 1.0
    colour: Color = INK
    gap: float = 0.0          # mm of space before it
    rule: bool = False        # a section label, with a thin line running on to its right
    number: str = ""          # a numbered step: the number in a disc to its left


NUMBER_INDENT = 5.0


def text_block(card: Page, paras: list[_Para], box: Rect, spec: CardSpec, style: CardStyle, *,
               largest: float = 8.5, align: str = "left", valign: str = "top") -> float:
    """Wrap and draw paragraphs inside ``box``, at the largest size (down to 6.5 pt) at which all fit.

    Returns the size used. Raises ``ScrawlError`` naming the card if its text cannot fit.
    """
    size = largest
    while True:
        laid = [(para, _wrap(para, size, box.w)) for para in paras]
        height = sum(para.gap + len(lines) * _leading(para, size) for para, lines in laid)
        if height <= box.h + 1e-6:
            break
        size -= 0.25
        if size < MIN_TEXT:
            raise ScrawlError(f"card {spec.id!r} ({spec.title}): its text does not fit on the card even at "
                              f"{MIN_TEXT:g} pt; shorten it")
    y = box.y + (box.h - height) / 2 if valign == "middle" else box.y
    for para, lines in laid:
        y += para.gap
        for i, line in enumerate(lines):
            baseline = y + _leading(para, size) * 0.8
            _draw_line(card, para, line, size, box, baseline, align, first=i == 0, style=style)
            y += _leading(para, size)
    return size


def _wrap(para: _Para, size: float, width: float) -> list[str]:
    indent = NUMBER_INDENT if para.number else 0.0
    return simpleSplit(para.text, para.font, size * para.scale, (width - indent) * mm)


def _leading(para: _Para, size: float) -> float:
    return size * para.scale * 1.22 * PT


def _draw_line(card, para, line, size, box, baseline, align, *, first, style) -> None:
    c, font_size = card.c, size * para.scale
    c.setFillColor(para.colour)
    if para.number:
        if first:
            _number_disc(card, para.number, box.x + 1.9, baseline - font_size * PT * 0.36, font_size, style)
            c.setFillColor(para.colour)
        card.text(box.x + NUMBER_INDENT, baseline, line, font=para.font, size=font_size)
        return
    x = {"left": box.x, "centre": box.centre[0]}[align]
    card.text(x, baseline, line, font=para.font, size=font_size, align=align)
    if para.rule:
        c.setStrokeColor(para.colour)
        c.setLineWidth(0.15 * mm)
        start = box.x + card.text_width(line, para.font, font_size) + 1.5
        card.line(start, baseline - font_size * PT * 0.33, box.right, baseline - font_size * PT * 0.33)


def _number_disc(card: Page, number: str, cx: float, cy: float, size: float, style: CardStyle) -> None:
    """A step's number in a solid disc (low ink: a ring)."""
    card.c.setFillColor(white if style.low_ink else style.accent)
    card.c.setStrokeColor(style.accent)
    card.c.setLineWidth(0.25 * mm)
    card.circle(cx, cy, 1.85, stroke=1, fill=1)
    card.c.setFillColor(style.accent if style.low_ink else white)
    card.text(cx, cy + size * PT * 0.34, number, font=fonts.BOLD, size=size * 0.9, align="centre")


def _spaced(card: Page, cx: float, y: float, text: str, font: str, size: float, colour,
            space: float = 0.9) -> None:
    """A short line of letter-spaced capitals centred on cx (``space`` in points between letters)."""
    width = card.c.stringWidth(text, font, size) + space * (len(text) - 1)
    t = card.c.beginText()
    t.setTextOrigin(card.pt(cx, y)[0] - width / 2, card.pt(cx, y)[1])
    t.setFont(font, size)
    t.setCharSpace(space)
    t.setFillColor(colour)
    t.textOut(text)
    t.setCharSpace(0)      # character spacing outlives the text object: reset it
    card.c.drawText(t)


# -- pictures: the room as drawn on the map ------------------------------------------------

def draw_room(card: Page, box: Rect, style: CardStyle, *, exits: str = "", dead_end: str = "",
              cross: bool = False, pen: Color = PEN) -> None:
    """A room as on the map sheet (grey frame, round box, a passage diamond on each side) and the pen's strokes.

    ``exits``: the sides a path segment links to, a stroke from the centre to each;
    ``dead_end``: the side a dead end enters by, a stub that stops with a short bar;
    ``cross``: a trap's X.
    """
    c, k = card.c, box.w / 20.0            # the map sheet's rooms are about 20 mm
    cx, cy = box.centre
    c.setLineCap(1)
    c.setLineJoin(1)
    c.setStrokeGray(LIGHT_GREY)
    c.setLineWidth(0.3 * k * mm)
    card.rect(box.x, box.y, box.w, box.h)
    c.setStrokeGray(PRINT_GREY)
    c.setFillGray(1)
    r = 0.13 * box.w
    card.circle(box.x + r + 1.1 * k, box.y + r + 1.1 * k, r, fill=1)
    half = 0.11 * box.w
    c.setFillGray(1 if style.low_ink else 0.93)
    for x, y in _midpoints(box).values():
        card.polygon([(x, y - half), (x + half, y), (x, y + half), (x - half, y)])
    c.setStrokeColor(pen)
    c.setLineWidth(1.1 * k * mm)
    if exits:       # one unbroken line, out to each exit and back, so no seam shows at the centre
        strokes = c.beginPath()
        strokes.moveTo(*card.pt(*_midpoints(box)[exits[0]]))
        for side in exits[1:] or exits:
            strokes.lineTo(*card.pt(cx, cy))
            strokes.lineTo(*card.pt(*_midpoints(box)[side]))
        c.drawPath(strokes, stroke=1, fill=0)
    if dead_end:
        (sx, sy), bar = _midpoints(box)[dead_end], 0.2 * box.w
        card.line(sx, sy, cx, cy)
        dx, dy = (bar, 0) if dead_end in "NS" else (0, bar)
        card.line(cx - dx, cy - dy, cx + dx, cy + dy)
    if cross:       # a little right of and below the centre, clear of the round box, like the map's icons
        x, y, d = box.x + 0.56 * box.w, box.y + 0.56 * box.h, 0.2 * box.w
        card.line(x - d, y - d, x + d, y + d)
        card.line(x - d, y + d, x + d, y - d)


def _midpoints(box: Rect) -> dict[str, tuple[float, float]]:
    cx, cy = box.centre
    return {"N": (cx, box.y), "E": (box.right, cy), "S": (cx, box.bottom), "W": (box.x, cy)}


# -- pictures: icons on a 100-unit grid ----------------------------------------------------

class _Icon:
    """A canvas scaled so that a 100 x 100 grid (origin at the centre, y up) fills ``size`` mm."""

    def __init__(self, card: Page, cx: float, cy: float, size: float, ink, fill):
        self.c, self.ink, self.fill = card.c, ink, fill
        self.c.saveState()
        self.c.translate(*card.pt(cx, cy))
        self.c.scale(size * mm / 100, size * mm / 100)
        self.c.setLineJoin(1)
        self.c.setLineCap(1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.c.restoreState()

    def path(self, points, close=True):
        p = self.c.beginPath()
        p.moveTo(*points[0])
        for point in points[1:]:
            if len(point) == 2:
                p.lineTo(*point)
            else:
                p.curveTo(*point)
        if close:
            p.close()
        return p

    def draw(self, p, width=5.0, *, fill=True, ink=None):
        """Stroke a path in ink; fill it with the icon's fill colour, if it has one and ``fill``."""
        c = self.c
        c.setStrokeColor(ink or self.ink)
        c.setLineWidth(width)
        if fill and self.fill is not None:
            c.setFillColor(self.fill)
        c.drawPath(p, stroke=1, fill=1 if fill and self.fill is not None else 0)

    def solid(self, p):
        """Fill a small shape in ink (outlined only, if the icon has no fill: low ink)."""
        self.c.setFillColor(self.ink)
        self.c.setStrokeColor(self.ink)
        self.c.setLineWidth(4)
        self.c.drawPath(p, stroke=1, fill=1 if self.fill is not None else 0)

    def ellipse(self, x1, y1, x2, y2):
        p = self.c.beginPath()
        p.ellipse(x1, y1, x2 - x1, y2 - y1)
        return p


def set_icon(card: Page, name: str, cx: float, cy: float, size: float, *, ink, fill) -> None:
    """A trap card's set icon, centred on (cx, cy) mm and ``size`` mm across."""
    with _Icon(card, cx, cy, size, ink, fill) as icon:
        _SET_ICONS.get(name, _set_unknown)(icon, name)


def _set_pit(icon: _Icon, name: str) -> None:
    icon.draw(icon.ellipse(-46, -30, 46, 14), 6)
    icon.solid(icon.ellipse(-32, -22, 32, 4))
    for x, top in ((-16, 26), (0, 38), (16, 26)):
        icon.draw(icon.path([(x - 7, -8), (x, top), (x + 7, -8)]), 4.5)


def _set_snare(icon: _Icon, name: str) -> None:
    icon.draw(icon.path([(0, 50), (0, 12)], close=False), 7, fill=False)
    icon.draw(icon.path([(-9, 14), (9, 14), (9, -4), (-9, -4)]), 5)
    icon.draw(icon.path([(-9, 5), (9, 5)], close=False), 3.5, fill=False)
    icon.draw(icon.ellipse(-24, -50, 24, -4), 7, fill=False)


def _set_vapour(icon: _Icon, name: str) -> None:
    for y, x0 in ((24, -38), (2, -46), (-20, -38)):
        icon.draw(icon.path([(x0, y), (x0 + 14, y + 12, x0 + 26, y - 12, x0 + 40, y),
                             (x0 + 54, y + 12, x0 + 66, y - 12, x0 + 80, y)], close=False), 7, fill=False)
    for x, y, r in ((34, 40, 6), (44, 30, 4), (-40, -40, 5)):
        icon.draw(icon.ellipse(x - r, y - r, x + r, y + r), 4)


def _set_rune(icon: _Icon, name: str) -> None:
    icon.draw(icon.path([(0, 50), (42, 0), (0, -50), (-42, 0)]), 6)
    icon.draw(icon.path([(0, 30), (0, -30)], close=False), 6, fill=False)
    icon.draw(icon.path([(-14, 26), (0, 12), (14, 26)], close=False), 6, fill=False)
    icon.draw(icon.path([(-13, -22), (13, -6)], close=False), 6, fill=False)


def _set_crusher(icon: _Icon, name: str) -> None:
    icon.draw(icon.path([(-36, 48), (36, 48), (36, 8), (-36, 8)]), 6)
    icon.draw(icon.path([(-36, 28), (36, 28)], close=False), 3.5, fill=False)
    icon.draw(icon.path([(0, 48), (0, 28)], close=False), 3.5, fill=False)
    for x in (-18, 18):
        icon.draw(icon.path([(x - 9, -6), (x, -18), (x + 9, -6)], close=False), 6, fill=False)
    icon.draw(icon.path([(-46, -34), (46, -34)], close=False), 7, fill=False)
    for x in (-30, 30):
        icon.draw(icon.path([(x, -40), (x * 1.4, -48)], close=False), 4, fill=False)


def _set_blade(icon: _Icon, name: str) -> None:
    icon.draw(icon.path([(0, 46), (0, -12)], close=False), 6, fill=False)
    icon.draw(icon.path([(-36, -4), (-30, -40, 30, -40, 36, -4), (18, -26, -18, -26, -36, -4)]), 5)
    icon.draw(icon.ellipse(-6, 40, 6, 52), 5)
    for sx in (-1, 1):
        icon.draw(icon.path([(sx * 30, 34), (sx * 44, 24, sx * 50, 10, sx * 50, -4)], close=False), 4, fill=False)


def _set_unknown(icon: _Icon, name: str) -> None:
    icon.draw(icon.path([(0, 48), (44, 0), (0, -48), (-44, 0)]), 6)
    icon.c.setFillColor(icon.ink)
    icon.c.setFont(fonts.BOLD, 44)
    icon.c.drawCentredString(0, -15, name[:1].upper())


_SET_ICONS = {"pit": _set_pit, "snare": _set_snare, "vapour": _set_vapour, "rune": _set_rune,
              "crusher": _set_crusher, "blade": _set_blade}


def part_icon(card: Page, part: str, cx: float, cy: float, size: float, *, ink, fill) -> None:
    """The icon of a monster part type (core, weapon, shield, combo, nullifier)."""
    with _Icon(card, cx, cy, size, ink, fill) as icon:
        _PART_ICONS.get(part, _die)(icon)


def _core(icon: _Icon) -> None:
    icon.draw(icon.path([(0, -40), (-52, 0, -34, 50, 0, 26), (34, 50, 52, 0, 0, -40)]), 5)
    icon.draw(icon.path([(-24, 22), (-30, 12, -28, 2, -22, -6)], close=False), 4, fill=False)


def _weapon(icon: _Icon) -> None:
    icon.c.rotate(-40)
    icon.draw(icon.path([(-7, -14), (-7, 36), (0, 50), (7, 36), (7, -14)]), 5)
    icon.draw(icon.path([(0, -8), (0, 38)], close=False), 2.5, fill=False)
    icon.draw(icon.path([(-22, -14), (22, -14), (22, -22), (-22, -22)]), 5)
    icon.draw(icon.path([(-5, -22), (5, -22), (5, -42), (-5, -42)]), 5)
    icon.draw(icon.ellipse(-7, -52, 7, -40), 5)


def _shield(icon: _Icon) -> None:
    icon.draw(icon.path([(-36, 42), (36, 42), (36, 6), (36, -22, 14, -38, 0, -48),
                         (-14, -38, -36, -22, -36, 6)]), 6)
    icon.draw(icon.path([(0, 42), (0, -48)], close=False), 4, fill=False)
    icon.draw(icon.path([(-36, 14), (36, 14)], close=False), 4, fill=False)


def _combo(icon: _Icon) -> None:
    for x in (-30, 2):
        icon.draw(icon.path([(x, 32), (x + 30, 0), (x, -32)], close=False), 11, fill=False)


def _nullifier(icon: _Icon) -> None:
    icon.draw(icon.path([(-20, 20), (20, 20), (20, -20), (-20, -20)]), 4)
    for x, y in ((-9, -9), (9, 9)):
        icon.solid(icon.ellipse(x - 3.5, y - 3.5, x + 3.5, y + 3.5))
    icon.draw(icon.ellipse(-42, -42, 42, 42), 8, fill=False)
    icon.draw(icon.path([(-29, 29), (29, -29)], close=False), 8, fill=False)


def _ring(radius: float, corners: int) -> list[tuple[float, float]]:
    """The corners of a regular polygon on the icon grid, the first one straight up."""
    return [(radius * math.cos(math.radians(90 + 360 * i / corners)),
             radius * math.sin(math.radians(90 + 360 * i / corners))) for i in range(corners)]


def _die(icon: _Icon) -> None:
    icon.draw(icon.path([(-34, 34), (34, 34), (34, -34), (-34, -34)]), 5)


_PART_ICONS = {"core": _core, "weapon": _weapon, "shield": _shield, "combo": _combo, "nullifier": _nullifier}


def swatch(card: Page, spec: CardSpec, cx: float, cy: float, size: float, *, low_ink: bool) -> None:
    """A core die in the card's colour: a filled d20 outline, or (low ink) the outline and the colour's name."""
    colour = HexColor(spec.fields["swatch"])
    edge = Color(colour.red * 0.6, colour.green * 0.6, colour.blue * 0.6)
    if colour.red + colour.green + colour.blue > 2.7:
        edge = Color(0.55, 0.55, 0.55)
    outer = _ring(44, 6)
    with _Icon(card, cx, cy, size, INK if low_ink else edge, None if low_ink else colour) as icon:
        icon.draw(icon.path(outer), 3.5 if low_ink else 4)
        if low_ink:
            name = spec.title.lower()
            font_size = 14.0
            while icon.c.stringWidth(name, fonts.BOLD, font_size) > 62 and font_size > 6:
                font_size -= 0.5
            icon.c.setFillColor(INK)
            icon.c.setFont(fonts.BOLD, font_size)
            icon.c.drawCentredString(0, -font_size * 0.35, name)
            return
        inner = _ring(24, 3)
        icon.draw(icon.path(inner), 2.5, fill=False)
        for i, (x, y) in enumerate(inner):
            for j in (2 * i - 1, 2 * i, 2 * i + 1):
                icon.draw(icon.path([(x, y), outer[j % 6]], close=False), 2.5, fill=False)


# -- backs ----------------------------------------------------------------------------------

def draw_back(card: Page, style: CardStyle, *, bleed: float = 0.0) -> None:
    """The deck's back: the same on every card of the deck, so no card can be told from behind."""
    c = card.c
    cx, cy = CARD_W / 2, 36.0
    if style.low_ink:
        _low_ink_frame(card, style, 3.5)
        c.setLineWidth(0.15 * mm)
        card.rect(5.0, 5.0, CARD_W - 10, CARD_H - 10, radius=1.2)
    else:
        c.setFillColor(style.accent)
        card.rect(-bleed, -bleed, CARD_W + 2 * bleed, CARD_H + 2 * bleed, stroke=0, fill=1)
        _back_pattern(card, style, bleed)
    _medallion(card, style, cx, cy, 15.5)
    c.setStrokeColor(style.accent)
    c.setFillColor(white if style.low_ink else PARCHMENT)
    c.setLineWidth(0.35 * mm)
    card.rect(7.5, 57.0, CARD_W - 15, 11.0, radius=2.0, fill=1)
    font = title_font(style.deck_name)
    size = 14.0 if font == fonts.TITLE else 11.0
    while card.text_width(style.deck_name, font, size) > CARD_W - 20 and size > 7:
        size -= 0.5
    c.setFillColor(style.accent)
    card.text(CARD_W / 2, 62.5 + size * PT * 0.33, style.deck_name, font=font, size=size, align="centre")


def _back_pattern(card: Page, style: CardStyle, bleed: float) -> None:
    """A dungeon of 9 mm rooms with a passage diamond on every side, centred so both halves match."""
    c, step, half = card.c, 9.0, 0.9
    cx, cy = CARD_W / 2, CARD_H / 2
    cols = range(-math.ceil((cx + bleed) / step), math.ceil((cx + bleed) / step) + 1)
    rows = range(-math.ceil((cy + bleed) / step), math.ceil((cy + bleed) / step) + 1)
    walls, diamonds = c.beginPath(), c.beginPath()
    for i in cols:
        walls.moveTo(*card.pt(cx + (i + 0.5) * step, -bleed))
        walls.lineTo(*card.pt(cx + (i + 0.5) * step, CARD_H + bleed))
    for j in rows:
        walls.moveTo(*card.pt(-bleed, cy + (j + 0.5) * step))
        walls.lineTo(*card.pt(CARD_W + bleed, cy + (j + 0.5) * step))
    for i in cols:
        for j in rows:
            for x, y in ((cx + (i + 0.5) * step, cy + j * step), (cx + i * step, cy + (j + 0.5) * step)):
                diamonds.moveTo(*card.pt(x, y - half))
                for point in ((x + half, y), (x, y + half), (x - half, y)):
                    diamonds.lineTo(*card.pt(*point))
                diamonds.close()
    c.setStrokeColor(style.tint(0.18))
    c.setLineWidth(0.25 * mm)
    c.drawPath(walls, stroke=1, fill=0)
    c.setFillColor(style.tint(0.3))
    c.drawPath(diamonds, stroke=0, fill=1)


def _medallion(card: Page, style: CardStyle, cx: float, cy: float, r: float) -> None:
    c = card.c
    c.setStrokeColor(style.accent)
    c.setLineWidth(0.5 * mm)
    c.setFillColor(white if style.low_ink else PARCHMENT)
    card.circle(cx, cy, r, fill=1)
    c.setLineWidth(0.2 * mm)
    card.circle(cx, cy, r - 1.4)
    fill = None if style.low_ink else style.tint(0.8)
    if style.deck_id == "doodles":
        draw_room(card, Rect(cx - 8.5, cy - 8.5, 17, 17), style, exits="NESW", pen=style.accent)
    elif style.deck_id == "traps":
        set_icon(card, "rune", cx, cy, 19, ink=style.accent, fill=fill)
    elif style.deck_id == "monsters-reference":
        with _Icon(card, cx, cy, 21, style.accent, fill) as icon:
            icon.draw(icon.path(_ring(44, 6)), 5)
            icon.draw(icon.path([(-26, 0), (-10, 16, 10, 16, 26, 0), (10, -16, -10, -16, -26, 0)]), 4, fill=False)
            icon.solid(icon.ellipse(-8, -8, 8, 8))
    else:
        set_icon(card, style.deck_name, cx, cy, 19, ink=style.accent, fill=fill)
