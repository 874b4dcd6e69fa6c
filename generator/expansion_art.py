"""Vector art of the expansion maps' elements: the die's icons, Rune Gate glyphs, Diamonds, Emeralds,
Magic Doors and cave mouths.

Same conventions as ``generator.art``: each picture is designed on a 100 x 100
unit grid centred on the origin, drawn in one grey ``ink`` with lighter tints
of it and white, and scaled to the size asked for, in reportlab points
(origin bottom-left, y up).
"""
from __future__ import annotations

import math

from generator.art import _LW, _circle, _ellipse, _fill_stroke, _line, _poly
from generator.fonts import BOLD

__all__ = ["draw_die_icon", "draw_glyph", "draw_diamond", "draw_emerald", "draw_door", "draw_cave_mouth"]


def _placed(c, cx: float, cy: float, size: float, rotate: float = 0.0) -> None:
    """Move the canvas so the 100-unit grid is centred on (cx, cy) and spans ``size`` points."""
    c.saveState()
    c.translate(cx, cy)
    if rotate:
        c.rotate(rotate)
    s = size / 100.0
    c.scale(s, s)
    c.setLineJoin(1)
    c.setLineCap(1)


def _haloed_number(c, text: str, x: float, y: float, size: float, ink: float, halo: float = 1.0) -> None:
    """A bold number centred on (x, y) (the middle of its digits), with a ring of ``halo`` around it so
    lines under it do not cut it."""
    baseline = y - 0.729 * size / 2
    c.saveState()                               # the text render mode is part of the graphics state
    c.setLineWidth(size * 0.16)
    c.setStrokeGray(halo)
    halo_text = c.beginText()
    halo_text.setFont(BOLD, size)
    halo_text.setTextRenderMode(1)              # stroke only: the halo
    halo_text.setTextOrigin(x - c.stringWidth(text, BOLD, size) / 2, baseline)
    halo_text.textOut(text)
    c.drawText(halo_text)
    c.restoreState()
    c.setFillGray(ink)
    c.setFont(BOLD, size)
    c.drawCentredString(x, baseline, text)


# --------------------------------------------------------------------------
# the die's icons: bold silhouettes that read at 2-3 mm
# --------------------------------------------------------------------------

def _icon_sun(c, ink: float, paper: float) -> None:
    # A round face with eight pointed rays: nothing like the Skull, the one skull on our sheets.
    rays = []
    for i in range(16):
        angle = math.pi / 2 + i * math.pi / 8
        radius = 49.0 if i % 2 == 0 else 30.0
        rays.append((radius * math.cos(angle), radius * math.sin(angle)))
    _poly(c, rays, fill=ink)
    _circle(c, 0, 0, 25.0, fill=paper)
    _circle(c, 0, 0, 19.0, fill=ink)


def _icon_skull_v1(c, ink: float, paper: float) -> None:
    # The sun's glyph on design 1 sheets (printed by earlier releases): a skull. Drawn only for the blank
    # page those sheets are read against.
    cranium = c.beginPath()
    cranium.moveTo(-24, -30)
    cranium.curveTo(-24, -20, -40, -14, -40, 6)
    cranium.curveTo(-40, 32, -22, 44, 0, 44)
    cranium.curveTo(22, 44, 40, 32, 40, 6)
    cranium.curveTo(40, -14, 24, -20, 24, -30)
    cranium.lineTo(24, -44)
    cranium.curveTo(24, -47, 22, -48, 19, -48)
    cranium.lineTo(-19, -48)
    cranium.curveTo(-22, -48, -24, -47, -24, -44)
    cranium.close()
    _fill_stroke(c, cranium, ink, None)
    for sx in (-1, 1):
        _ellipse(c, sx * 15, 2, 10.5, 11.5, fill=paper)
    _poly(c, [(0, -9), (-5.5, -20), (5.5, -20)], fill=paper)
    for x in (-12, 0, 12):
        _line(c, [(x, -35), (x, -49)], paper, 4.5)


def _icon_dragon(c, ink: float, paper: float) -> None:
    # A dragon's head in profile, looking right, with a horn swept back and a spiny neck.
    head = c.beginPath()
    head.moveTo(-34, -48)
    head.curveTo(-34, -24, -30, -6, -22, 8)
    head.lineTo(-40, 20)                        # neck spine
    head.lineTo(-20, 18)
    head.lineTo(-44, 46)                        # the horn
    head.lineTo(-8, 28)
    head.curveTo(2, 32, 14, 30, 24, 24)
    head.lineTo(44, 18)                         # the snout
    head.curveTo(49, 16, 49, 8, 44, 7)
    head.lineTo(18, 2)                          # the open jaw
    head.lineTo(42, -8)
    head.curveTo(44, -12, 40, -17, 36, -16)
    head.curveTo(20, -14, 6, -16, -2, -22)
    head.curveTo(-6, -30, -6, -40, -2, -48)
    head.close()
    _fill_stroke(c, head, ink, None)
    _ellipse(c, 4, 16, 6.5, 5.5, fill=paper)
    _circle(c, 6, 15.5, 2.6, fill=ink)
    _poly(c, [(-36, -12), (-48, -8), (-35, -2)], fill=ink)   # spines down the neck
    _poly(c, [(-35, -30), (-47, -28), (-35, -20)], fill=ink)


def _icon_moon(c, ink: float, paper: float) -> None:
    # A crescent: the part of a disc of radius 44 outside a disc of radius 36 moved up and right.
    big, small, (ox, oy) = 44.0, 36.0, (20.0, 12.0)
    d = math.hypot(ox, oy)
    base = math.atan2(oy, ox)
    # Where the two circles cross, as angles on each circle.
    a = (big ** 2 - small ** 2 + d ** 2) / (2 * d)
    half_big = math.acos(a / big)
    half_small = math.acos((d - a) / small)
    points = []
    steps = 40
    for i in range(steps + 1):             # the outer edge, the long way round
        t = base + half_big + (2 * math.pi - 2 * half_big) * i / steps
        points.append((big * math.cos(t) - 4, big * math.sin(t) - 2))
    for i in range(steps + 1):             # the inner edge, back
        t = base + math.pi + half_small - 2 * half_small * i / steps
        points.append((ox + small * math.cos(t) - 4, oy + small * math.sin(t) - 2))
    _poly(c, points, fill=ink)


_ICONS = {"sun": _icon_sun, "dragon": _icon_dragon, "moon": _icon_moon}
_GLYPHS_V1 = {**_ICONS, "sun": _icon_skull_v1}      # design 1 drew the sun's faces and doors as a skull


def draw_die_icon(c, icon: str, cx: float, cy: float, size: float, *, ink=0.3, paper=1.0, design: int = 2) -> None:
    """One of the die's icons (``sun``, ``dragon``, ``moon``), centred on (cx, cy), ``size`` points
    across; ``paper`` is the grey of what it stands on (its eyes and gaps)."""
    if icon not in _ICONS:
        raise ValueError(f"unknown die icon {icon!r} (one of: {', '.join(_ICONS)})")
    _placed(c, cx, cy, size)
    (_ICONS if design > 1 else _GLYPHS_V1)[icon](c, float(ink), float(paper))
    c.restoreState()


# --------------------------------------------------------------------------
# Rune Gate glyphs: single strokes, so a filled-in gate hides them
# --------------------------------------------------------------------------

def _glyph_fork(c, ink: float, width: float) -> None:
    _line(c, [(0, -40), (0, 2)], ink, width)
    _line(c, [(-26, 40), (-26, 18), (0, 2), (26, 18), (26, 40)], ink, width)
    _line(c, [(0, 2), (0, 40)], ink, width)


def _glyph_eye(c, ink: float, width: float) -> None:
    lid = c.beginPath()
    lid.moveTo(-42, 0)
    lid.curveTo(-20, 30, 20, 30, 42, 0)
    lid.curveTo(20, -30, -20, -30, -42, 0)
    lid.close()
    _fill_stroke(c, lid, None, ink, width)
    _circle(c, 0, 0, 10, fill=ink)


def _glyph_wave(c, ink: float, width: float) -> None:
    for dy in (13, -13):
        points = [(x, dy + 11 * math.sin(x / 40 * 2 * math.pi)) for x in range(-40, 41, 2)]
        _line(c, points, ink, width)


def _glyph_spiral(c, ink: float, width: float) -> None:
    points = []
    turns, outer = 2.4, 40.0
    steps = 120
    for i in range(steps + 1):
        t = i / steps
        angle = 2 * math.pi * turns * t
        radius = 3 + (outer - 3) * t
        points.append((radius * math.cos(angle + 1.2), radius * math.sin(angle + 1.2)))
    _line(c, points, ink, width)


_GLYPHS = {"fork": _glyph_fork, "eye": _glyph_eye, "wave": _glyph_wave, "spiral": _glyph_spiral}


def draw_glyph(c, glyph: str, cx: float, cy: float, size: float, *, ink=0.72, width=9.0) -> None:
    """One of the Rune Gate glyphs (``fork``, ``eye``, ``wave``, ``spiral``), ``size`` points across,
    stroked ``width`` grid units wide."""
    if glyph not in _GLYPHS:
        raise ValueError(f"unknown rune glyph {glyph!r} (one of: {', '.join(_GLYPHS)})")
    _placed(c, cx, cy, size)
    _GLYPHS[glyph](c, float(ink), width)
    c.restoreState()


# --------------------------------------------------------------------------
# the gems players cross out: light lines, near-white inside, the number big
# --------------------------------------------------------------------------

def draw_diamond(c, number: int | None, cx: float, cy: float, size: float, *, ink=0.55, facet=0.72,
                 fill=0.97) -> None:
    """A brilliant-cut Diamond seen from the side (table up, point down), with its number over it."""
    _placed(c, cx, cy, size)
    table, girdle, point = 34.0, 15.0, -49.0
    outline = [(-26, table), (26, table), (49, girdle), (0, point), (-49, girdle)]
    _poly(c, outline, fill=fill, line=None)
    facet_width = _LW * 1.1
    _line(c, [(-49, girdle), (49, girdle)], facet, facet_width)
    for x_table, x_girdle in ((-26, -17), (0, -17), (0, 17), (26, 17)):
        _line(c, [(x_table, table), (x_girdle, girdle)], facet, facet_width)
    for x_girdle in (-17, 17):
        _line(c, [(x_girdle, girdle), (0, point)], facet, facet_width)
    _poly(c, outline, fill=None, line=ink, lw=_LW * 1.6)
    if number is not None:
        _haloed_number(c, str(number), 0, 3, 64, ink, halo=fill)
    c.restoreState()


def draw_emerald(c, number: int | None, cx: float, cy: float, size: float, *, ink=0.55, facet=0.72,
                 fill=0.97, step=0.9) -> None:
    """An Emerald, step cut, seen from above: nested octagons, its number on the table."""
    _placed(c, cx, cy, size)

    def octagon(half_w, half_h, cut):
        return [(-half_w + cut, half_h), (half_w - cut, half_h), (half_w, half_h - cut), (half_w, -half_h + cut),
                (half_w - cut, -half_h), (-half_w + cut, -half_h), (-half_w, -half_h + cut), (-half_w, half_h - cut)]

    outer, middle, inner = octagon(49, 41, 16), octagon(38, 30, 11.5), octagon(29, 21, 8)
    _poly(c, outer, fill=step, line=None)
    _poly(c, middle, fill=fill, line=facet, lw=_LW * 1.0)
    _poly(c, inner, fill=fill, line=facet, lw=_LW * 1.0)
    for a, b in zip(outer, inner):
        _line(c, [a, b], facet, _LW * 1.0)
    _poly(c, outer, fill=None, line=ink, lw=_LW * 1.6)
    if number is not None:
        _haloed_number(c, str(number), 0, 0, 56, ink, halo=fill)
    c.restoreState()


# --------------------------------------------------------------------------
# Magic Doors and cave mouths
# --------------------------------------------------------------------------

def draw_door(c, icon: str, cx: float, cy: float, size: float, *, ink=0.55, plank=0.75, fill=0.985,
              rotate: float = 0.0, icon_ink=0.55, design: int = 2) -> None:
    """A Magic Door inside a circle ``size`` points across: an arched plank door with its die ``icon`` on a
    round plaque in its middle. ``rotate`` (degrees) turns the door, never the icon: it stays upright."""
    _placed(c, cx, cy, size, rotate)
    half_w, bottom, spring = 31.0, -40.0, 19.0          # the arch springs at ``spring`` and peaks at 50
    door = c.beginPath()
    door.moveTo(-half_w, bottom)
    door.lineTo(-half_w, spring)
    door.curveTo(-half_w, spring + 0.55 * half_w, -0.55 * half_w, 50, 0, 50)
    door.curveTo(0.55 * half_w, 50, half_w, spring + 0.55 * half_w, half_w, spring)
    door.lineTo(half_w, bottom)
    door.close()
    _fill_stroke(c, door, fill, None)
    for x in (-15.5, 0.0, 15.5):                 # the planks' seams
        _line(c, [(x, bottom + 3), (x, 44 if x == 0 else 38)], plank, _LW * 1.0)
    for y in (-30, 34):                          # iron bands
        _line(c, [(-half_w + 2, y), (half_w - 2, y)], plank, _LW * 1.4)
    _fill_stroke(c, door, None, ink, _LW * 1.8)
    _line(c, [(-half_w - 6, bottom), (half_w + 6, bottom)], ink, _LW * 1.8)      # the threshold
    c.saveState()
    c.translate(0, 3)
    if rotate:
        c.rotate(-rotate)
    _circle(c, 0, 0, 25, fill=1.0, line=ink, lw=_LW * 1.0)
    c.scale(0.4, 0.4)
    (_ICONS if design > 1 else _GLYPHS_V1)[icon](c, float(icon_ink), 1.0)
    c.restoreState()
    c.restoreState()


def draw_cave_mouth(c, cx: float, cy: float, size: float, *, rotate: float = 0.0, ink=0.15, rock=0.8,
                    dark=0.45) -> None:
    """A cave mouth, ``size`` points wide: a rocky arch standing on a wall (its foot on y = 0 of the grid,
    rising up; ``rotate`` turns it to face the room beyond)."""
    _placed(c, cx, cy, size, rotate)
    rim = c.beginPath()
    rim.moveTo(-50, 0)
    rim.curveTo(-50, 22, -42, 34, -30, 40)
    rim.lineTo(-22, 38)
    rim.curveTo(-12, 46, 4, 47, 12, 42)
    rim.lineTo(20, 44)
    rim.curveTo(36, 38, 48, 24, 50, 0)
    rim.close()
    _fill_stroke(c, rim, rock, ink, _LW * 1.3)
    hole = c.beginPath()
    hole.moveTo(-36, 0)
    hole.curveTo(-36, 21, -20, 34, 0, 34)
    hole.curveTo(20, 34, 36, 21, 36, 0)
    hole.close()
    _fill_stroke(c, hole, dark, ink, _LW * 1.0)
    for x0, y0, x1, y1 in ((-44, 12, -37, 20), (38, 14, 44, 22), (-6, 38, 4, 40)):
        _line(c, [(x0, y0), (x1, y1)], ink, _LW * 0.8)
    c.restoreState()
