"""Vector icon art for the items printed in the rooms of a dungeon map sheet.

Every icon is drawn in a single grey ``ink`` (plus lighter tints of it and
white), so it prints as mid-grey that a scanner can tell apart from players'
pen strokes.  Icons are designed on a 100 x 100 unit grid centred on the
origin and scaled to the requested size.
"""
from __future__ import annotations

import math

from generator.fonts import BOLD

__all__ = ["draw_item"]

_LETTERS = "ABCDEF"
_LW = 3.0          # outline width in grid units (~0.9 pt at 31 pt)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def _tint(ink: float, t: float) -> float:
    """Mix `ink` toward white by fraction `t` (0 = ink, 1 = white)."""
    return ink + (1.0 - ink) * t


class _Style:
    def __init__(self, ink: float, design: int = 2):
        self.ink = ink
        self.design = design            # the sheet's design (``sheets.dungeon.DESIGN``)
        self.light = _tint(ink, 0.78)   # pale fill
        self.mid = _tint(ink, 0.50)     # medium fill
        self.dark = _tint(ink, 0.25)    # shade


def _fill_stroke(c, p, fill, line, lw=_LW, stroke=True):
    if fill is not None:
        c.setFillGray(fill)
    if line is not None:
        c.setStrokeGray(line)
    c.setLineWidth(lw)
    c.drawPath(p, stroke=1 if stroke and line is not None else 0,
               fill=1 if fill is not None else 0)


def _sticker(c, paths, fill, line, lw=_LW):
    """Fill `paths` as one merged shape with a single outline around it."""
    c.setStrokeGray(line)
    c.setLineWidth(2 * lw)
    for p in paths:
        c.drawPath(p, stroke=1, fill=0)
    c.setFillGray(fill)
    for p in paths:
        c.drawPath(p, stroke=0, fill=1)


def _line(c, pts, gray, lw, close=False):
    p = c.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    if close:
        p.close()
    c.setStrokeGray(gray)
    c.setLineWidth(lw)
    c.drawPath(p, stroke=1, fill=0)


def _curve(c, p0, p1, p2, p3, gray, lw):
    p = c.beginPath()
    p.moveTo(*p0)
    p.curveTo(*p1, *p2, *p3)
    c.setStrokeGray(gray)
    c.setLineWidth(lw)
    c.drawPath(p, stroke=1, fill=0)


def _circle(c, x, y, r, fill=None, line=None, lw=_LW):
    p = c.beginPath()
    p.circle(x, y, r)
    _fill_stroke(c, p, fill, line, lw)


def _ellipse(c, x, y, rx, ry, fill=None, line=None, lw=_LW):
    p = c.beginPath()
    p.ellipse(x - rx, y - ry, 2 * rx, 2 * ry)
    _fill_stroke(c, p, fill, line, lw)


def _poly(c, pts, fill=None, line=None, lw=_LW):
    p = c.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    p.close()
    _fill_stroke(c, p, fill, line, lw)


class _Pen:
    """Path builder that maps every point through `f` (for re-posed parts)."""

    def __init__(self, c, f=None):
        self.p = c.beginPath()
        self.f = f or (lambda x, y: (x, y))

    def m(self, x, y):
        self.p.moveTo(*self.f(x, y))
        return self

    def l(self, x, y):
        self.p.lineTo(*self.f(x, y))
        return self

    def c(self, x1, y1, x2, y2, x3, y3):
        self.p.curveTo(*self.f(x1, y1), *self.f(x2, y2), *self.f(x3, y3))
        return self

    def z(self):
        self.p.close()
        return self.p


# A monster's or a weapon's letter badge sits beside its picture, not on it: the picture drawn smaller, up
# and to the left, the badge in the lower right corner it leaves free.
ART_SCALE = 0.8
ART_SHIFT = (-9.0, 9.0)
BADGE_AT = (34.0, -34.0)
BADGE_R = 17.0


def _beside_badge(c, st: _Style) -> None:
    """Make room for the letter badge: the picture smaller, up and to the left (design 1 drew the badge on
    the picture)."""
    if st.design > 1:
        c.translate(*ART_SHIFT)
        c.scale(ART_SCALE, ART_SCALE)


def _letter_badge(c, st: _Style, letter: str) -> None:
    if st.design > 1:
        _badge(c, st, letter, *BADGE_AT, r=BADGE_R)
    else:
        _badge(c, st, letter, 25, -25)


def _badge(c, st: _Style, letter: str, x: float, y: float, r: float = 25.0):
    """Round token with the letter knocked out in white."""
    _circle(c, x, y, r + 3.5, fill=1.0)                # white halo
    _circle(c, x, y, r, fill=st.ink)
    size = 48.0 * r / 25.0                            # cap height ~70% of the badge's radius
    c.setFillGray(1.0)
    c.setFont(BOLD, size)
    c.drawCentredString(x, y - 0.729 * size / 2.0 + 0.3, letter)


# --------------------------------------------------------------------------
# loot
# --------------------------------------------------------------------------

def _loot(c, st: _Style):
    _loot_sack(c, st)
    _loot_tie_and_emblem(c, st)
    _loot_coins_and_gem(c, st)


def _loot_sack(c, st: _Style):
    """The sack: its body and ruffled top as one shape, the mouth's shadow, the folds and the shading."""
    ink = st.ink
    # sack body
    body = c.beginPath()
    body.moveTo(-9, 15)
    body.curveTo(-30, 8, -42, -10, -40, -28)
    body.curveTo(-38, -44, -22, -47, 0, -47)
    body.curveTo(22, -47, 38, -44, 40, -28)
    body.curveTo(42, -10, 30, 8, 9, 15)
    body.close()
    # ruffled top above the tie
    top = c.beginPath()
    top.moveTo(-7, 19)
    top.curveTo(-14, 24, -22, 30, -24, 36)
    top.curveTo(-20, 40, -16, 37, -13, 40)
    top.curveTo(-10, 45, -4, 41, 0, 44)
    top.curveTo(4, 41, 10, 45, 13, 40)
    top.curveTo(16, 37, 20, 40, 24, 36)
    top.curveTo(22, 30, 14, 24, 7, 19)
    top.close()
    _sticker(c, [top, body], st.light, ink)
    # inner shadow of the mouth of the sack
    mouth = c.beginPath()
    mouth.moveTo(-18, 35)
    mouth.curveTo(-8, 38, 8, 38, 18, 35)
    mouth.curveTo(8, 33, -8, 33, -18, 35)
    mouth.close()
    _fill_stroke(c, mouth, st.mid, None)
    # folds of cloth
    for p0, p1, p2, p3 in (((-6, 9), (-14, 0), (-20, -10), (-22, -22)),
                           ((6, 9), (12, 2), (16, -6), (17, -14)),
                           ((-5, 33), (-6, 28), (-5, 25), (-4, 22)),
                           ((5, 33), (6, 28), (5, 25), (4, 22))):
        _curve(c, p0, p1, p2, p3, ink, _LW * 0.6)
    # shading on the left flank
    shade = c.beginPath()
    shade.moveTo(-36, -20)
    shade.curveTo(-36, -36, -26, -42, -10, -43)
    shade.curveTo(-24, -38, -30, -30, -36, -20)
    shade.close()
    _fill_stroke(c, shade, st.mid, None)


def _loot_tie_and_emblem(c, st: _Style):
    """The rope tied round the sack's neck, its knot and ends, and the big coin stitched on the front."""
    ink = st.ink
    # rope tie around the neck
    tie = c.beginPath()
    tie.roundRect(-13, 14, 26, 8, 4)
    _fill_stroke(c, tie, st.mid, ink, _LW * 0.8)
    # knot and dangling rope ends
    _curve(c, (6, 16), (12, 10), (16, 6), (22, 5), ink, _LW * 1.1)
    _curve(c, (6, 16), (14, 14), (20, 14), (25, 12), ink, _LW * 1.1)
    _circle(c, 22, 5, 1.8, fill=ink)
    _circle(c, 25, 12, 1.8, fill=ink)
    _circle(c, 5, 18, 3.2, fill=st.mid, line=ink, lw=_LW * 0.8)
    # emblem: a big coin stitched on the front
    _circle(c, 0, -20, 14, fill=st.mid, line=ink, lw=_LW * 0.9)
    _circle(c, 0, -20, 9.5, fill=None, line=ink, lw=_LW * 0.5)
    star = []
    for i in range(10):
        a = math.pi / 2 + i * math.pi / 5
        rr = 7.0 if i % 2 == 0 else 3.0
        star.append((rr * math.cos(a), -20 + rr * math.sin(a)))
    _poly(c, star, fill=ink)


def _loot_coins_and_gem(c, st: _Style):
    """A little stack of coins and a gem at the foot of the sack."""
    ink = st.ink
    for i in range(3):
        x, y = 31 - i * 0.8, -45 + i * 5.2
        _ellipse(c, x, y, 10, 3.6, fill=st.mid, line=ink, lw=_LW * 0.7)
        side = c.beginPath()
        side.rect(x - 10, y, 20, 2.6)
        _fill_stroke(c, side, st.mid, None)
        _line(c, [(x - 10, y), (x - 10, y + 2.6)], ink, _LW * 0.7)
        _line(c, [(x + 10, y), (x + 10, y + 2.6)], ink, _LW * 0.7)
        _ellipse(c, x, y + 2.6, 10, 3.6, fill=st.light, line=ink, lw=_LW * 0.7)
    _ellipse(c, 29.4, -31, 5, 1.6, fill=None, line=ink, lw=_LW * 0.4)
    gem = [(-41, -37), (-37, -33), (-29, -33), (-25, -37), (-33, -47)]
    _poly(c, gem, fill=st.light, line=ink, lw=_LW * 0.7)
    _line(c, [(-41, -37), (-25, -37)], ink, _LW * 0.45)
    _line(c, [(-35, -37), (-33, -47), (-31, -37)], ink, _LW * 0.45)
    _line(c, [(-37, -33), (-35, -37)], ink, _LW * 0.45)
    _line(c, [(-29, -33), (-31, -37)], ink, _LW * 0.45)


# --------------------------------------------------------------------------
# dragon
# --------------------------------------------------------------------------

def _dragon(c, st: _Style):
    ink = st.ink
    c.saveState()
    c.translate(-4, -3)
    c.scale(0.92, 0.92)
    _dragon_wing(c, st)
    _dragon_body(c, st)
    _dragon_belly_and_spikes(c, st)
    _dragon_face(c, st)
    # claws
    for (x, y) in ((-16, -46), (-9, -46), (14, -46), (20, -46)):
        _line(c, [(x, y + 3), (x, y)], ink, _LW * 0.5)
    # tail spade
    _poly(c, [(-27, -41), (-19, -35), (-17, -45)], fill=ink, line=ink, lw=_LW * 0.6)
    c.restoreState()


def _head_scaled(x, y, k=1.2, px=22.0, py=24.0):
    """A point of the dragon's head, which is drawn a bit larger than the rest of it."""
    return px + k * (x - px), py + k * (y - py)


def _dragon_wing(c, st: _Style):
    """The near wing, with its bones from the wrist to the scallops' points."""
    ink = st.ink
    w = (_Pen(c).m(4, -2)
         .c(2, 12, -2, 24, -6, 32)        # arm up to the wrist
         .c(-12, 40, -20, 46, -30, 49)    # to the wing tip
         .c(-30, 40, -34, 32, -42, 26)    # scallop 1
         .c(-36, 18, -36, 10, -38, 4)     # scallop 2
         .c(-28, 4, -20, 0, -16, -6)      # scallop 3 back to the body
         .z())
    _fill_stroke(c, w, st.light, ink)
    for end in ((-42, 26), (-38, 4), (-16, -6)):
        _line(c, [(-6, 32), end], ink, _LW * 0.6)
    _circle(c, -6, 32, 2.4, fill=ink)


def _dragon_body(c, st: _Style):
    """The body group as one shape: tail, hind leg, torso, neck, head, horns, front leg."""
    tail = (_Pen(c).m(-18, -14)
            .c(-30, -16, -44, -22, -44, -34)
            .c(-44, -44, -32, -47, -27, -41)
            .c(-24, -37, -28, -33, -32, -35)
            .c(-30, -38, -34, -40, -36, -36)
            .c(-36, -28, -26, -26, -14, -28).z())
    torso = (_Pen(c).m(-22, -20)
             .c(-22, -8, -8, -2, 8, -2)
             .c(18, -2, 24, -10, 22, -20)
             .c(20, -32, 6, -33, -6, -32)
             .c(-16, -32, -22, -28, -22, -20).z())
    neck = (_Pen(c).m(6, -4).c(12, 10, 14, 20, 17, 30).l(30, 26)
            .c(26, 14, 26, 4, 22, -12).z())
    head = (_Pen(c, _head_scaled).m(16, 28)
            .c(16, 36, 22, 40, 30, 39)
            .c(38, 38, 42, 35, 46, 33)
            .c(49, 32, 49, 27, 46, 26.5)
            .l(34, 25)
            .l(43, 22)
            .c(45, 21, 44, 17.5, 42, 17.5)
            .c(34, 16, 26, 18, 22, 20)
            .c(18, 22, 16, 24, 16, 28).z())
    horn1 = _Pen(c, _head_scaled).m(19, 35).c(15, 40, 11, 43, 5, 44).c(11, 40, 13, 36, 16, 31).z()
    horn2 = _Pen(c, _head_scaled).m(25, 38).c(23, 43, 20, 46, 15, 48).c(19, 43, 19, 40, 20, 36).z()
    hind = (_Pen(c).m(-18, -18)
            .c(-8, -18, -4, -26, -8, -34)
            .l(-4, -42).l(-2, -46).l(-16, -46)
            .c(-16, -40, -22, -34, -22, -26).z())
    front = (_Pen(c).m(12, -22).l(18, -22).l(20, -40).l(26, -46).l(14, -46)
             .l(12, -38).z())
    _sticker(c, [tail, hind, torso, neck, horn1, horn2, head, front], st.mid, st.ink)


def _dragon_belly_and_spikes(c, st: _Style):
    """The pale belly plates up the front of the neck, and the ridge spikes down the neck and back."""
    ink = st.ink
    belly = (_Pen(c).m(17, -8).c(27, 4, 27, 14, 28, 22).l(24, 23)
             .c(22, 14, 20, 4, 11, -6).z())
    _fill_stroke(c, belly, st.light, None)
    for y in (0, 7, 14):
        _line(c, [(14 + y * 0.55, y - 4), (20 + y * 0.45, y - 6)], ink, _LW * 0.4)
    for (x, y) in ((9, 6), (12, 15), (14.5, 24), (0, -1.5)):
        _poly(c, [(x - 1.5, y - 3.5), (x - 7.5, y + 1.5), (x + 0.5, y + 3)], fill=ink)


def _dragon_face(c, st: _Style):
    """The eye, the brow ridge over it, the nostril, and the teeth peeking at the mouth."""
    ink = st.ink
    ex, ey = _head_scaled(29.5, 32.5)
    _ellipse(c, ex, ey, 3.8, 3.0, fill=1.0, line=ink, lw=_LW * 0.5)
    _ellipse(c, ex + 1.0, ey, 1.1, 2.2, fill=ink)
    brow = _Pen(c, _head_scaled).m(25, 35).c(28, 37, 32, 37.5, 35, 35.5).z()
    c.setStrokeGray(ink)
    c.setLineWidth(_LW * 0.8)
    c.drawPath(brow, stroke=1, fill=0)
    nx, ny = _head_scaled(44, 30.5)
    _ellipse(c, nx, ny, 1.5, 1.0, fill=ink)
    for x in (38, 42):
        _poly(c, [_head_scaled(x - 1.2, 25.4), _head_scaled(x, 23.2), _head_scaled(x + 1.2, 25.4)], fill=1.0)


# --------------------------------------------------------------------------
# weapons (drawn pointing up in local coordinates, then laid diagonally)
# --------------------------------------------------------------------------

def _grip(c, st, x0, x1, y0, y1):
    p = c.beginPath()
    p.roundRect(x0, y0, x1 - x0, y1 - y0, 2)
    _fill_stroke(c, p, st.dark, st.ink, _LW * 0.8)
    y = y0 + 4
    while y < y1 - 2:
        _line(c, [(x0, y - 1.5), (x1, y + 1.5)], st.ink, _LW * 0.5)
        y += 5


def _sword(c, st):
    ink = st.ink
    blade = c.beginPath()
    blade.moveTo(-7, -20)
    blade.lineTo(-7, 40)
    blade.lineTo(0, 60)
    blade.lineTo(7, 40)
    blade.lineTo(7, -20)
    blade.close()
    _fill_stroke(c, blade, st.light, ink)
    _line(c, [(0, -16), (0, 42)], ink, _LW * 0.55)
    guard = c.beginPath()
    guard.moveTo(-22, -18)
    guard.curveTo(-16, -22, 16, -22, 22, -18)
    guard.curveTo(24, -22, 22, -26, 18, -26)
    guard.lineTo(-18, -26)
    guard.curveTo(-22, -26, -24, -22, -22, -18)
    guard.close()
    _fill_stroke(c, guard, st.mid, ink)
    _grip(c, st, -4.5, 4.5, -48, -26)
    _circle(c, 0, -53, 6, fill=st.mid, line=ink)


def _axe(c, st):
    ink = st.ink
    shaft = c.beginPath()
    shaft.roundRect(-4, -58, 8, 108, 3)
    _fill_stroke(c, shaft, st.mid, ink)
    _grip(c, st, -4.5, 4.5, -50, -28)
    head = c.beginPath()
    head.moveTo(-3, 42)
    head.curveTo(-12, 44, -20, 52, -26, 58)
    head.curveTo(-38, 48, -40, 22, -30, 10)
    head.curveTo(-22, 18, -12, 24, -3, 26)
    head.close()
    _fill_stroke(c, head, st.light, ink)
    edge = c.beginPath()
    edge.moveTo(-26, 52)
    edge.curveTo(-34, 42, -35, 26, -30, 16)
    c.setStrokeGray(ink)
    c.setLineWidth(_LW * 0.55)
    c.drawPath(edge, stroke=1, fill=0)
    back = c.beginPath()
    back.moveTo(3, 40)
    back.lineTo(16, 36)
    back.lineTo(3, 28)
    back.close()
    _fill_stroke(c, back, st.mid, ink)
    collar = c.beginPath()
    collar.roundRect(-6, 24, 12, 20, 2)
    _fill_stroke(c, collar, st.mid, ink)
    _circle(c, 0, 34, 2, fill=ink)


def _bow(c, st):
    ink = st.ink
    # string
    _line(c, [(2, 52), (2, -52)], ink, _LW * 0.5)
    # arrow
    _line(c, [(4, 0), (-40, 0)], ink, _LW * 0.9)
    _poly(c, [(-52, 0), (-38, 6), (-41, 0), (-38, -6)], fill=st.mid, line=ink, lw=_LW * 0.6)
    for dy in (1, -1):
        _poly(c, [(2, 0), (-4, 7 * dy), (-14, 7 * dy), (-9, 0)],
              fill=st.light, line=ink, lw=_LW * 0.6)
    # limbs (recurved)
    limb = c.beginPath()
    limb.moveTo(6, 56)
    limb.curveTo(0, 56, -2, 52, -6, 46)
    limb.curveTo(-20, 26, -24, 10, -24, 0)
    limb.curveTo(-24, -10, -20, -26, -6, -46)
    limb.curveTo(-2, -52, 0, -56, 6, -56)
    c.setStrokeGray(ink)
    c.setLineWidth(9)
    c.drawPath(limb, stroke=1, fill=0)
    c.setStrokeGray(st.mid)
    c.setLineWidth(9 - 2 * _LW * 0.8)
    c.drawPath(limb, stroke=1, fill=0)
    _grip(c, st, -29, -19, -9, 9)


def _spear(c, st):
    ink = st.ink
    shaft = c.beginPath()
    shaft.roundRect(-3.5, -60, 7, 92, 3)
    _fill_stroke(c, shaft, st.mid, ink)
    head = c.beginPath()
    head.moveTo(0, 64)
    head.curveTo(8, 50, 12, 40, 10, 34)
    head.curveTo(8, 30, 4, 28, 3, 28)
    head.lineTo(-3, 28)
    head.curveTo(-4, 28, -8, 30, -10, 34)
    head.curveTo(-12, 40, -8, 50, 0, 64)
    head.close()
    _fill_stroke(c, head, st.light, ink)
    _line(c, [(0, 32), (0, 56)], ink, _LW * 0.55)
    socket = c.beginPath()
    socket.roundRect(-5, 18, 10, 11, 2)
    _fill_stroke(c, socket, st.dark, ink, _LW * 0.8)
    # lugs below the head, and a bound ribbon
    for sx in (-1, 1):
        _poly(c, [(sx * 4, 22), (sx * 15, 25), (sx * 4, 27)], fill=st.light, line=ink,
              lw=_LW * 0.7)
    _line(c, [(-4, 12), (4, 14)], ink, _LW * 0.6)
    _line(c, [(-4, 8), (4, 10)], ink, _LW * 0.6)
    butt = c.beginPath()
    butt.roundRect(-4.5, -62, 9, 8, 2)
    _fill_stroke(c, butt, st.dark, ink, _LW * 0.8)


def _mace(c, st):
    ink = st.ink
    shaft = c.beginPath()
    shaft.roundRect(-4, -52, 8, 80, 3)
    _fill_stroke(c, shaft, st.mid, ink)
    _grip(c, st, -5, 5, -50, -24)
    _circle(c, 0, -55, 5.5, fill=st.mid, line=ink)
    cy, r = 38.0, 15.0
    spikes = []
    n = 8
    for i in range(n):
        a = math.pi / 2 + i * 2 * math.pi / n
        tip = (math.cos(a) * (r + 10), cy + math.sin(a) * (r + 10))
        l = (math.cos(a - 0.3) * (r - 1), cy + math.sin(a - 0.3) * (r - 1))
        rr = (math.cos(a + 0.3) * (r - 1), cy + math.sin(a + 0.3) * (r - 1))
        spikes.append([l, tip, rr])
    for sp in spikes:
        _poly(c, sp, fill=st.mid, line=ink)
    _circle(c, 0, cy, r, fill=st.light, line=ink)
    _circle(c, -5, cy + 5, 4, fill=1.0)
    collar = c.beginPath()
    collar.roundRect(-6, 20, 12, 6, 2)
    _fill_stroke(c, collar, st.dark, ink, _LW * 0.8)


def _hammer(c, st):
    ink = st.ink
    shaft = c.beginPath()
    shaft.roundRect(-4, -56, 8, 98, 3)
    _fill_stroke(c, shaft, st.mid, ink)
    _grip(c, st, -5, 5, -52, -26)
    _circle(c, 0, -57, 5.5, fill=st.mid, line=ink)
    _poly(c, [(-4.5, 40), (0, 62), (4.5, 40)], fill=st.light, line=ink)
    # curved pick on the back
    pick = (_Pen(c).m(2, 46).c(14, 46, 24, 38, 29, 22)
            .c(22, 29, 12, 32, 2, 32).z())
    _fill_stroke(c, pick, st.light, ink)
    # heavy square hammer head
    block = c.beginPath()
    block.roundRect(-26, 27, 24, 22, 2)
    _fill_stroke(c, block, st.light, ink)
    face = c.beginPath()
    face.roundRect(-34, 23, 10, 30, 2.5)
    _fill_stroke(c, face, st.mid, ink)
    _line(c, [(-16, 27), (-16, 49)], ink, _LW * 0.55)
    collar = c.beginPath()
    collar.roundRect(-6, 26, 12, 22, 2)
    _fill_stroke(c, collar, st.dark, ink, _LW * 0.8)
    _circle(c, 0, 37, 2, fill=ink)


_WEAPONS = {           # drawing, offset x, offset y, scale
    "A": (_sword, -6, 8, 0.86),
    "B": (_axe, -5, 2, 0.76),
    "C": (_bow, -5, 9, 0.84),
    "D": (_spear, -6, 8, 0.82),
    "E": (_mace, -5, 4, 0.84),
    "F": (_hammer, -4, 1, 0.78),
}


def _weapon(c, st, letter):
    fn, dx, dy, k = _WEAPONS[letter]
    c.saveState()
    _beside_badge(c, st)
    c.translate(dx, dy)
    c.rotate(-45)
    c.scale(k, k)
    fn(c, st)
    c.restoreState()
    _letter_badge(c, st, letter)


# --------------------------------------------------------------------------
# monsters
# --------------------------------------------------------------------------

def _grin(c, ink, half_w, corners, out, low, back, inner, lw):
    """A filled mouth, left-right symmetric: from its corners (at ``corners``) down round to ``low`` (the
    curve's handles ``out`` from the middle) and back along an upper lip at ``inner`` (handles ``back``)."""
    m = c.beginPath()
    m.moveTo(-half_w, corners)
    m.curveTo(-out, low, out, low, half_w, corners)
    m.curveTo(back, inner, -back, inner, -half_w, corners)
    m.close()
    _fill_stroke(c, m, ink, ink, lw)


def _eye(c, st, x, y, r, look=(0.0, 0.0)):
    _circle(c, x, y, r, fill=1.0, line=st.ink, lw=_LW * 0.7)
    _circle(c, x + look[0], y + look[1], r * 0.5, fill=st.ink)


def _goblin(c, st):
    ink = st.ink
    ears = []
    for sx in (-1, 1):
        e = c.beginPath()
        e.moveTo(sx * 20, 18)
        e.curveTo(sx * 32, 22, sx * 42, 28, sx * 48, 36)
        e.curveTo(sx * 40, 14, sx * 32, 4, sx * 22, 0)
        e.close()
        ears.append(e)
    head = c.beginPath()
    head.moveTo(0, 36)
    head.curveTo(18, 36, 28, 22, 28, 6)
    head.curveTo(28, -14, 16, -30, 0, -30)
    head.curveTo(-16, -30, -28, -14, -28, 6)
    head.curveTo(-28, 22, -18, 36, 0, 36)
    head.close()
    _sticker(c, ears + [head], st.light, ink)
    for sx in (-1, 1):
        _curve(c, (sx * 26, 12), (sx * 32, 16), (sx * 38, 20), (sx * 42, 28), ink, _LW * 0.5)
    # angry brows + eyes
    for sx in (-1, 1):
        _eye(c, st, sx * 11, 8, 6.5, (-sx * 1.2, -1))
        _poly(c, [(sx * 3, 12), (sx * 18, 19), (sx * 19, 15), (sx * 4, 9)], fill=ink)
    # nose
    nose = c.beginPath()
    nose.moveTo(-2, 4)
    nose.curveTo(-6, -4, -4, -7, 0, -7)
    nose.curveTo(4, -7, 6, -4, 2, 4)
    nose.close()
    _fill_stroke(c, nose, st.mid, ink, _LW * 0.7)
    # grin with upward fangs
    _grin(c, ink, 15, -14, 8, -24, 8, -18, _LW * 0.7)
    for sx in (-1, 1):
        _poly(c, [(sx * 6, -20), (sx * 9, -11), (sx * 11, -19)], fill=1.0, line=ink, lw=_LW * 0.5)


def _ogre(c, st):
    ink = st.ink
    horns = []
    for sx in (-1, 1):
        h = c.beginPath()
        h.moveTo(sx * 14, 26)
        h.curveTo(sx * 24, 34, sx * 30, 42, sx * 28, 50)
        h.curveTo(sx * 38, 44, sx * 40, 30, sx * 28, 16)
        h.close()
        horns.append(h)
    head = c.beginPath()
    head.moveTo(0, 32)
    head.curveTo(20, 32, 32, 20, 32, 2)
    head.curveTo(32, -20, 20, -32, 0, -32)
    head.curveTo(-20, -32, -32, -20, -32, 2)
    head.curveTo(-32, 20, -20, 32, 0, 32)
    head.close()
    _sticker(c, [head], st.light, ink)
    for h in horns:
        _fill_stroke(c, h, st.mid, ink)
    for sx in (-1, 1):
        _curve(c, (sx * 22, 26), (sx * 28, 30), (sx * 32, 34), (sx * 33, 38), ink, _LW * 0.5)
    # heavy brow ridge
    brow = c.beginPath()
    brow.moveTo(-22, 14)
    brow.curveTo(-12, 20, -4, 16, 0, 11)
    brow.curveTo(4, 16, 12, 20, 22, 14)
    brow.lineTo(20, 9)
    brow.curveTo(12, 13, 4, 10, 0, 6)
    brow.curveTo(-4, 10, -12, 13, -20, 9)
    brow.close()
    _fill_stroke(c, brow, st.mid, ink, _LW * 0.7)
    for sx in (-1, 1):
        _eye(c, st, sx * 11, 4, 4.8, (sx * -1, 0))
    # big flat nose
    _ellipse(c, 0, -6, 7, 5, fill=st.mid, line=ink, lw=_LW * 0.7)
    _circle(c, -3, -7, 1.3, fill=ink)
    _circle(c, 3, -7, 1.3, fill=ink)
    # mouth with tusks
    _grin(c, ink, 17, -16, 8, -14, 10, -24, _LW * 0.7)
    for sx in (-1, 1):
        _poly(c, [(sx * 8, -22), (sx * 14, -8), (sx * 15, -20)], fill=1.0, line=ink, lw=_LW * 0.6)


def _skull_outline(c, top, crown, cheek, jaw, chin):
    """A skull's outline, left-right symmetric: from the top of the head (0, ``top``) down the right side,
    ``crown`` = (control x at the top, widest x, control y, y where it is widest), ``cheek`` = (control y,
    control x, control y, cheekbone x, y), ``jaw`` = the jaw's corner (x, y), ``chin`` = the chin curve's
    control point (x, y); then the left side as its mirror."""
    a, w, b, mid = crown
    d, e, f, g, h = cheek
    i, j = jaw
    k, m = chin
    path = c.beginPath()
    path.moveTo(0, top)
    path.curveTo(a, top, w, b, w, mid)
    path.curveTo(w, d, e, f, g, h)
    path.lineTo(i, j)
    path.curveTo(k, m, -k, m, -i, j)
    path.lineTo(-g, h)
    path.curveTo(-e, f, -w, d, -w, mid)
    path.curveTo(-w, b, -a, top, 0, top)
    path.close()
    return path


def _bat(c, st):
    """Monster C: a bat with its wings spread, pointed ears, big eyes and two fangs (no skull: the one skull
    on our sheets is the Skull)."""
    ink = st.ink
    wings = []
    for sx in (-1, 1):
        w = (_Pen(c, lambda x, y, sx=sx: (sx * x, y)).m(8, 10)
             .c(20, 26, 36, 30, 48, 22)          # the wing's top edge, out to its tip
             .l(44, 8)
             .c(40, 4, 36, 2, 32, 4)             # scalloped trailing edge: three fingers
             .c(30, -4, 26, -8, 20, -6)
             .c(18, -14, 14, -18, 8, -16)
             .z())
        wings.append(w)
    body = c.beginPath()
    body.ellipse(-14, -26, 28, 44)
    ears = []
    for sx in (-1, 1):
        ear = c.beginPath()
        ear.moveTo(sx * 4, 14)
        ear.lineTo(sx * 13, 34)
        ear.lineTo(sx * 13, 10)
        ear.close()
        ears.append(ear)
    _sticker(c, wings + [body] + ears, st.light, ink)
    for sx in (-1, 1):                          # the wings' bones
        _line(c, [(sx * 9, 6), (sx * 44, 20)], ink, _LW * 0.5)
        _line(c, [(sx * 9, 2), (sx * 30, 2)], ink, _LW * 0.5)
        _line(c, [(sx * 9, -2), (sx * 19, -8)], ink, _LW * 0.5)
        _eye(c, st, sx * 6, 6, 5, (sx * 1.0, 0.5))
    _poly(c, [(-5, -6), (-2.5, -13), (0, -6)], fill=1.0, line=ink, lw=_LW * 0.5)   # fangs
    _poly(c, [(0, -6), (2.5, -13), (5, -6)], fill=1.0, line=ink, lw=_LW * 0.5)
    _ellipse(c, 0, -20, 8, 3, fill=st.mid)     # the belly's shade

def _slime(c, st):
    """Monster D: a squat, wide blob melting into a puddle, with drips, two eyes on stalks and bubbles (low
    and wide where the ghost is tall with a wavy hem)."""
    ink = st.ink
    puddle = c.beginPath()
    puddle.ellipse(-48, -36, 96, 18)
    b = (_Pen(c).m(-40, -26)
         .c(-44, -6, -30, 12, 0, 12)
         .c(30, 12, 44, -6, 40, -26)
         .c(38, -30, 34, -30, 32, -26)        # a drip on the right
         .c(30, -34, 26, -34, 26, -26)
         .l(-22, -26)
         .c(-24, -36, -30, -36, -30, -26)     # a drip on the left
         .c(-34, -30, -38, -30, -40, -26)
         .z())
    stalks = []
    for sx in (-1, 1):
        stalk = c.beginPath()
        stalk.moveTo(sx * 6, 8)
        stalk.curveTo(sx * 8, 20, sx * 12, 26, sx * 14, 28)
        stalk.lineTo(sx * 18, 26)
        stalk.curveTo(sx * 14, 20, sx * 12, 14, sx * 12, 8)
        stalk.close()
        stalks.append(stalk)
    _sticker(c, [puddle, b] + stalks, st.light, ink)
    for sx in (-1, 1):
        _eye(c, st, sx * 16, 30, 6.5, (sx * 1.5, 1.0))
    h = c.beginPath()                         # glossy highlight
    h.moveTo(-30, -12)
    h.curveTo(-28, -2, -20, 4, -10, 7)
    h.curveTo(-18, -1, -22, -5, -25, -13)
    h.close()
    _fill_stroke(c, h, 1.0, None)
    _grin(c, ink, 14, -12, 6, -18, 6, -14, _LW * 0.6)
    _circle(c, 24, -2, 3.0, fill=None, line=ink, lw=_LW * 0.5)
    _circle(c, 31, -12, 2.0, fill=None, line=ink, lw=_LW * 0.5)
    _circle(c, -36, -31, 2.4, fill=None, line=ink, lw=_LW * 0.5)

def _cyclops(c, st):
    ink = st.ink
    horn = c.beginPath()
    horn.moveTo(-7, 28)
    horn.curveTo(-4, 38, 0, 44, 4, 50)
    horn.curveTo(8, 42, 9, 34, 7, 28)
    horn.close()
    head = c.beginPath()
    head.moveTo(0, 32)
    head.curveTo(22, 32, 32, 16, 32, -2)
    head.curveTo(32, -24, 18, -34, 0, -34)
    head.curveTo(-18, -34, -32, -24, -32, -2)
    head.curveTo(-32, 16, -22, 32, 0, 32)
    head.close()
    _fill_stroke(c, horn, st.mid, ink)
    _sticker(c, [head], st.light, ink)
    # spots
    for (x, y, r) in ((-22, 14, 3), (-25, 4, 2), (22, 18, 2.5)):
        _circle(c, x, y, r, fill=st.mid)
    # one big eye
    _ellipse(c, 0, 8, 14, 11, fill=1.0, line=ink, lw=_LW * 0.8)
    _circle(c, 1, 7, 6.5, fill=ink)
    _circle(c, 3, 9.5, 2, fill=1.0)
    # lid
    lid = c.beginPath()
    lid.moveTo(-15, 12)
    lid.curveTo(-8, 22, 8, 22, 15, 12)
    lid.curveTo(8, 18, -8, 18, -15, 12)
    lid.close()
    _fill_stroke(c, lid, st.mid, ink, _LW * 0.6)
    # jagged grin
    _grin(c, ink, 18, -12, 8, -26, 8, -16, _LW * 0.6)
    teeth = [(-12, -14.5), (-6, -15.6), (0, -16), (6, -15.6), (12, -14.5)]
    for (x, y) in teeth:
        _poly(c, [(x - 2.6, y + 0.3), (x, y - 5), (x + 2.6, y + 0.3)], fill=1.0)


def _ghost(c, st):
    ink = st.ink
    g = c.beginPath()
    g.moveTo(0, 40)
    g.curveTo(20, 40, 30, 26, 30, 8)
    g.lineTo(40, 2)
    g.curveTo(40, -4, 34, -6, 30, -4)
    g.lineTo(30, -26)
    g.curveTo(26, -34, 20, -34, 16, -26)
    g.curveTo(12, -36, 4, -36, 0, -28)
    g.curveTo(-4, -36, -12, -36, -16, -26)
    g.curveTo(-20, -34, -28, -36, -32, -28)
    g.lineTo(-30, -4)
    g.curveTo(-34, -6, -40, -4, -40, 2)
    g.lineTo(-30, 8)
    g.curveTo(-30, 26, -20, 40, 0, 40)
    g.close()
    _sticker(c, [g], st.light, ink)
    for sx in (-1, 1):
        _ellipse(c, sx * 10, 12, 5.5, 8, fill=ink)
        _circle(c, sx * 10 + 1.5, 15, 1.8, fill=1.0)
    _ellipse(c, 0, -8, 6, 8, fill=ink)
    _ellipse(c, -20, 0, 4, 2.5, fill=st.mid)
    _ellipse(c, 20, 0, 4, 2.5, fill=st.mid)


# -- design 1 (sheets printed by earlier releases): drawn only as the blank page they are read against --

def _skull_v1(c, st):
    """Monster C as design 1 sheets print it: a skull (design 2 draws a bat)."""
    ink = st.ink
    sk = _skull_outline(c, 38, (22, 32, 22, 6), (-6, 26, -12, 20, -14), (18, -28), (10, -34))
    _sticker(c, [sk], st.light, ink)
    # crack
    _line(c, [(4, 38), (7, 30), (3, 25), (6, 19)], ink, _LW * 0.6)
    # sockets
    for sx in (-1, 1):
        s = c.beginPath()
        s.moveTo(sx * 4, 8)
        s.curveTo(sx * 4, 16, sx * 10, 18, sx * 16, 16)
        s.curveTo(sx * 24, 14, sx * 24, 4, sx * 18, 0)
        s.curveTo(sx * 12, -4, sx * 4, 0, sx * 4, 8)
        s.close()
        _fill_stroke(c, s, ink, None)
        _circle(c, sx * 13, 8, 2.2, fill=1.0)
    # nose
    _poly(c, [(0, -2), (-4.5, -10), (4.5, -10)], fill=ink)
    # teeth
    tr = c.beginPath()
    tr.roundRect(-14, -26, 28, 11, 3)
    _fill_stroke(c, tr, 1.0, ink, _LW * 0.7)
    for x in (-7, 0, 7):
        _line(c, [(x, -26), (x, -15)], ink, _LW * 0.5)
    _line(c, [(-14, -20.5), (14, -20.5)], ink, _LW * 0.5)


def _slime_v1(c, st):
    """Monster D as design 1 sheets print it (design 2 draws a squat puddle)."""
    ink = st.ink
    b = (_Pen(c).m(-38, -28)
         .c(-42, -2, -28, 26, -2, 29)
         .c(2, 31, 4, 35, 2, 41)
         .c(10, 38, 11, 33, 8, 29)
         .c(30, 26, 42, -2, 38, -28)
         .c(34, -34, 26, -32, 22, -28)
         .c(18, -34, 12, -34, 8, -28)
         .l(8, -36)
         .c(8, -42, 0, -42, 0, -36)
         .l(0, -28)
         .c(-8, -34, -16, -32, -20, -28)
         .c(-26, -34, -34, -34, -38, -28)
         .z())
    _sticker(c, [b], st.light, ink)
    # glossy highlight
    h = c.beginPath()
    h.moveTo(-30, -2)
    h.curveTo(-28, 8, -22, 16, -12, 22)
    h.curveTo(-20, 12, -24, 6, -26, -4)
    h.close()
    _fill_stroke(c, h, 1.0, None)
    for sx in (-1, 1):
        _eye(c, st, sx * 12, 4, 7, (sx * 1.5, 1.5))
    _grin(c, ink, 10, -12, 6, -22, 4, -15, _LW * 0.6)
    # bubbles
    _circle(c, 20, 14, 2.8, fill=None, line=ink, lw=_LW * 0.5)
    _circle(c, 26, 4, 1.8, fill=None, line=ink, lw=_LW * 0.5)


def _coin_stamp_v1(c, st: _Style):
    """A Skull Coin's stamp as design 1 printed it: a small skull over two crossed bones."""
    ink = st.ink
    for x0, y0, x1, y1 in ((-17, -19, 17, -5), (-17, -5, 17, -19)):
        _line(c, [(x0, y0), (x1, y1)], ink, 4.0)
        for x, y in ((x0, y0), (x1, y1)):
            _circle(c, x, y + 1.6, 2.2, fill=ink)
            _circle(c, x, y - 1.6, 2.2, fill=ink)
    stamp = c.beginPath()
    stamp.moveTo(0, 23)
    stamp.curveTo(12, 23, 17, 15, 17, 7)
    stamp.curveTo(17, 1, 13, -2, 10, -3)
    stamp.lineTo(9, -10)
    stamp.lineTo(-9, -10)
    stamp.lineTo(-10, -3)
    stamp.curveTo(-13, -2, -17, 1, -17, 7)
    stamp.curveTo(-17, 15, -12, 23, 0, 23)
    stamp.close()
    _fill_stroke(c, stamp, ink, st.light, _LW * 0.8)
    for sx in (-1, 1):
        _ellipse(c, sx * 6.5, 7, 4.2, 4.6, fill=st.light)
    _poly(c, [(0, 2), (-2.2, -2.5), (2.2, -2.5)], fill=st.light)


_MONSTERS = {          # drawing, offset x, offset y, scale
    "A": (_goblin, -6, 11, 0.86),
    "B": (_ogre, -8, 3, 0.88),
    "C": (_bat, -8, 8, 0.9),
    "D": (_slime, -8, 10, 0.9),
    "E": (_cyclops, -8, 3, 0.88),
    "F": (_ghost, -8, 8, 0.9),
}
_MONSTERS_V1 = {**_MONSTERS, "C": (_skull_v1, -10, 8, 0.9), "D": (_slime_v1, -8, 6, 0.9)}


def _monster(c, st, letter):
    fn, dx, dy, k = (_MONSTERS if st.design > 1 else _MONSTERS_V1)[letter]
    c.saveState()
    _beside_badge(c, st)
    c.translate(dx, dy)
    c.scale(k, k)
    fn(c, st)
    c.restoreState()
    _letter_badge(c, st, letter)


# --------------------------------------------------------------------------
# the Skull and its coins (expansion maps)
# --------------------------------------------------------------------------

def _bone(c, x0, y0, x1, y1, width=7.0):
    """The paths of one bone from (x0, y0) to (x1, y1): a shaft with two knobs at each end."""
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    px, py = -uy, ux
    shaft = c.beginPath()
    h = width / 2
    shaft.moveTo(x0 + px * h, y0 + py * h)
    shaft.lineTo(x1 + px * h, y1 + py * h)
    shaft.lineTo(x1 - px * h, y1 - py * h)
    shaft.lineTo(x0 - px * h, y0 - py * h)
    shaft.close()
    paths = [shaft]
    for (x, y), out in (((x0, y0), -1), ((x1, y1), 1)):
        for side in (-1, 1):
            knob = c.beginPath()
            knob.circle(x + ux * out * 1.5 + px * side * h * 0.95, y + uy * out * 1.5 + py * side * h * 0.95,
                        h * 1.05)
            paths.append(knob)
    return paths


def _the_skull(c, st: _Style):
    """The Skull: a big crowned skull sitting on a heap of bones, the one skull on our sheets (its coins
    carry its head, smaller)."""
    ink = st.ink
    for bone in ((-44, -30, 40, -46), (-40, -47, 44, -31), (-30, -22, 30, -26)):
        _sticker(c, _bone(c, *bone), st.light, ink, lw=_LW * 0.8)
    _skull_head(c, st)


def _skull_head(c, st: _Style):
    """The Skull's crowned head, centred near (0, 10) on the 100-unit grid."""
    ink = st.ink
    head = _skull_outline(c, 34, (20, 30, 22, 6), (-4, 26, -9, 21, -11), (19, -24), (10, -29))
    crown = c.beginPath()                     # a three-pointed crown on the skull's brow
    crown.moveTo(-21, 26)
    crown.lineTo(-25, 48)
    crown.lineTo(-11, 38)
    crown.lineTo(0, 52)
    crown.lineTo(11, 38)
    crown.lineTo(25, 48)
    crown.lineTo(21, 26)
    crown.curveTo(8, 31, -8, 31, -21, 26)
    crown.close()
    _sticker(c, [head], st.light, ink)
    _fill_stroke(c, crown, st.mid, ink, _LW * 0.9)
    for x, y in ((-25, 48), (0, 52), (25, 48)):
        _circle(c, x, y, 2.6, fill=ink)
    _line(c, [(-20, 30), (20, 30)], ink, _LW * 0.5)
    for sx in (-1, 1):                        # hollow, narrowed eye sockets
        socket = c.beginPath()
        socket.moveTo(sx * 3, 10)
        socket.curveTo(sx * 5, 18, sx * 18, 19, sx * 21, 11)
        socket.curveTo(sx * 23, 4, sx * 16, -2, sx * 10, -1)
        socket.curveTo(sx * 5, 0, sx * 3, 4, sx * 3, 10)
        socket.close()
        _fill_stroke(c, socket, ink, None)
    nose = c.beginPath()
    nose.moveTo(0, -3)
    nose.curveTo(-3, -7, -5, -11, -3, -12)
    nose.lineTo(3, -12)
    nose.curveTo(5, -11, 3, -7, 0, -3)
    nose.close()
    _fill_stroke(c, nose, ink, None)
    for x in (-10, -3.5, 3.5, 10):            # the grin
        _line(c, [(x, -16), (x, -24)], ink, _LW * 0.6)
    _line(c, [(-15, -18), (15, -18)], ink, _LW * 0.6)


def _skull_coin(c, st: _Style):
    """A Skull Coin: a thick round coin with a milled rim and a little skull stamped on its face."""
    ink = st.ink
    _circle(c, 3, -5, 40, fill=st.dark, line=ink)                 # the coin's edge, seen below its face
    _circle(c, 0, 0, 40, fill=st.mid, line=ink)
    for i in range(28):                                            # milling around the rim
        a = 2 * math.pi * i / 28
        _line(c, [(34.5 * math.cos(a), 34.5 * math.sin(a)), (38 * math.cos(a), 38 * math.sin(a))],
              ink, _LW * 0.45)
    _circle(c, 0, 0, 31, fill=st.light, line=ink, lw=_LW * 0.8)
    if st.design == 1:
        _coin_stamp_v1(c, st)
        return
    # The stamp: the Skull's own crowned head, small.
    c.saveState()
    c.translate(0, -6)
    c.scale(0.56, 0.56)
    _skull_head(c, st)
    c.restoreState()


# --------------------------------------------------------------------------
# public entry point
# --------------------------------------------------------------------------

def _parse(item: str):
    if item == "loot":
        return _loot, None
    if item == "dragon":
        return _dragon, None
    if item == "skull":
        return _the_skull, None
    if item == "skull_coin":
        return _skull_coin, None
    kind, sep, letter = item.partition(":") if isinstance(item, str) else ("", "", "")
    if sep and len(letter) == 1 and letter in _LETTERS:
        if kind == "weapon":
            return _weapon, letter
        if kind == "monster":
            return _monster, letter
    raise ValueError(f"unknown item {item!r}")


def draw_item(c, item: str, cx: float, cy: float, size: float, *, ink=0.55, design: int = 2) -> None:
    """Draw `item` centred on (cx, cy) in reportlab points (origin bottom-left, y up), fitting a size x size
    square, as the sheet design ``design`` draws it."""
    fn, letter = _parse(item)
    st = _Style(float(ink), design)
    c.saveState()
    c.translate(cx, cy)
    s = size / 100.0
    c.scale(s, s)
    c.setLineJoin(1)
    c.setLineCap(1)
    if letter is None:
        fn(c, st)
    else:
        fn(c, st, letter)
    c.restoreState()
