"""The dungeon map sheet as a PDF, drawn from the sheet layout.

Everything a player draws over (grid, passages, round boxes, item icons, score
boxes) is printed in mid-grey so pen strokes stand out to the scanner; walls
and text are dark, so the sheet reads well in greyscale too. Beside the title,
the "how to draw" key (``generator.key_art``) shows the strokes in pen blue.
"""
from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Sequence

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from games.board import side_name
from games.die import load_die
from games.maps import FEATURES, SIDES, STEP
from generator import art, expansion_art, fonts, key_art
from generator.page import ACCENT, LIGHT_GREY, PRINT_GREY, TEXT_GREY, WALL_GREY, Page, draw_markers, draw_qr
from sheets.dungeon import PASSAGE_HALF, EntryArrow, RoomCell, SheetLayout


def render_sheets(layout: SheetLayout, players: int, path: Path | BinaryIO, code: str | None = None,
                  names: Sequence[str] = ()) -> None:
    """Write a PDF (to a path or a binary file) with one numbered page per player, each with the game's
    ``code`` (``sheets.page.new_game_code``; None: sheets of no game) and the player's name from ``names``
    when given. Same input, same bytes."""
    fonts.register_fonts()
    dungeon = layout.dungeon
    canvas = Canvas(path if hasattr(path, "write") else str(path), pagesize=(layout.width * mm, layout.height * mm),
                    invariant=1, initialFontName=fonts.BODY, pageCompression=1)
    canvas.setTitle(f"Dungeon Scrawl: {dungeon.name}")
    canvas.setAuthor("dungeon-scrawl")
    canvas.setSubject(f"Map sheet, {dungeon.name}, {layout.paper.upper()}, {players} player(s)")
    canvas.setCreator("dungeon-scrawl")
    for player in range(1, players + 1):
        page = Page(canvas, layout.height)
        _draw_header(page, layout, player, players, code, names[player - 1] if player <= len(names) else None)
        _draw_map(page, layout)
        if layout.die_legend is not None:
            _draw_die_legend(page, layout)
        if layout.curse_box is not None:
            _draw_curse_track(page, layout)
        _draw_scoring(page, layout)
        _draw_ruler(page, layout)
        draw_markers(page, layout)
        draw_qr(page, layout, layout.sheet_id(player, code))
        if layout.draw_key is not None:
            _draw_key(page, layout)
        if layout.symbol_key is not None:
            _draw_symbol_key(page, layout)
        canvas.showPage()
    canvas.save()


# -- header -------------------------------------------------------------------

def _draw_header(page: Page, layout: SheetLayout, player: int, players: int, code: str | None = None,
                 name: str | None = None) -> None:
    c, box, dungeon = page.c, layout.header, layout.dungeon
    c.setFillColor(ACCENT)
    page.text(box.x, box.y + 9.5, "Dungeon Scrawl", font=fonts.TITLE, size=27)
    c.setFillGray(TEXT_GREY)
    features = [name for name in FEATURES if name in dungeon.features]
    if dungeon.seed is None and dungeon.id.startswith("map") and dungeon.id[3:].isdigit():
        subtitle = f"{dungeon.name}  \u00b7  expansion map {dungeon.id[3:]}"
    elif dungeon.seed is None:
        subtitle = f"{dungeon.name}  \u00b7  {dungeon.id} map"
    elif features:
        subtitle = (f"Random expansion map #{dungeon.seed}  \u00b7  {', '.join(features)}  \u00b7  "
                    f"generator v{dungeon.version}")
    else:
        subtitle = f"Random dungeon  \u00b7  seed {dungeon.seed}  \u00b7  generator v{dungeon.version}"
    lines, size = _subtitle_lines(page, subtitle, box.w)
    if len(lines) == 1:
        page.text(box.x, box.y + 15.5, subtitle, font=fonts.ITALIC, size=size)
    else:       # two lines between the title and the name row
        step = size * 0.4
        for i, text in enumerate(lines):
            page.text(box.x, box.y + 14.8 + i * step, text, font=fonts.ITALIC, size=size)
    line, row = layout.name_line, layout.name_row
    page.text(row.x, line.bottom - 0.8, "Adventurer", font=fonts.BOLD, size=9)
    c.setStrokeGray(PRINT_GREY)
    c.setLineWidth(0.3 * mm)
    page.line(line.x, line.bottom, line.right, line.bottom)
    if name:
        c.setFillGray(0)
        page.text(line.x + 1.5, line.bottom - 1.0, _fitted(page, name, fonts.BOLD, 11, line.w - 3.0),
                  font=fonts.BOLD, size=11)
        c.setFillGray(TEXT_GREY)
    who = f"Player {player} of {players}"
    page.text(row.right, line.bottom - 0.8, who, font=fonts.BOLD, size=9, align="right")
    if code:        # the game's code, as in the QR code: the sheets of one game are scored together
        left = row.right - page.text_width(who, fonts.BOLD, 9) - 2.5
        page.text(left, line.bottom - 0.8, f"Game {code}  \u00b7", font=fonts.BODY, size=9, align="right")


def _fitted(page: Page, text: str, font: str, size: float, width: float) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` mm at ``size``."""
    if page.text_width(text, font, size) <= width:
        return text
    while text and page.text_width(text + "\u2026", font, size) > width:
        text = text[:-1]
    return text + "\u2026"


def _subtitle_lines(page: Page, subtitle: str, width: float) -> tuple[list[str], float]:
    """What the map is, under the title, ``width`` mm wide: one line if it fits at 8 pt or more (up to
    9.5 pt), else two lines split at a space, at the largest size that fits (at least 6.5 pt)."""
    size = 9.5
    while page.text_width(subtitle, fonts.ITALIC, size) > width and size > 8.0:
        size -= 0.25
    if page.text_width(subtitle, fonts.ITALIC, size) <= width:
        return [subtitle], size
    words = subtitle.split(" ")
    splits = [(" ".join(words[:i]).rstrip(" \u00b7"), " ".join(words[i:]).lstrip(" \u00b7"))
              for i in range(1, len(words)) if words[i]]
    if not splits:
        return [subtitle], size

    def longer(pair, size):
        return max(page.text_width(part, fonts.ITALIC, size) for part in pair)

    size = 9.0
    while size > 6.5 and all(longer(pair, size) > width for pair in splits):
        size -= 0.25
    return list(min(splits, key=lambda pair: longer(pair, size))), size


# -- the "how to draw" key ---------------------------------------------------------

def _draw_key(page: Page, layout: SheetLayout) -> None:
    key_art.draw_key(page, layout.draw_key)


# -- the symbol key of the expansion elements ----------------------------------------

KEY_ICON = 6.5          # mm: a symbol in the key
KEY_CAPTION = 7.0       # pt
KEY_STEP = 2.9          # mm between caption lines


def _key_entries(layout: SheetLayout) -> list[tuple[str, tuple[str, ...]]]:
    """What the key shows for this map, in the order of ``FEATURES``: (symbol, caption lines)."""
    dungeon = layout.dungeon
    features = dungeon.expansion_features()
    entries = []
    if "diamonds" in features:
        entries.append(("diamond", ("Diamond",)))
    if "caves" in features:
        entries.append(("cave", ("cave", "entrance")))
    if "doors" in features:
        entries.append(("door", ("Magic Door", "open on its", "die icon")))
    if "skull" in features:
        entries += [("skull", ("the Skull",)), ("skull_coin", ("Skull Coin",))]
    if "emeralds" in features:
        entries.append(("emerald", ("Emerald",)))
    if "runes" in features:
        entries.append(("gate", ("Rune Gate", "cross one:", "fill its twin")))
    return entries


def _by_side(mark: tuple) -> tuple[str, str]:
    """A Magic Door's or Rune Gate's (side, icon) in a fixed order: the side's name, then the icon. (Sides are
    frozensets, which sort by subset only: sorting the pairs themselves left the order to the set's
    iteration, which changes with the process's string hashing, so two runs printed different icons in the
    key, and the scanner's blank could differ from the printed sheet.)"""
    return side_name(mark[0]), mark[1]


def _draw_symbol_key(page: Page, layout: SheetLayout) -> None:
    """Beside the map, top down: each expansion element's symbol as the map prints it, and its name."""
    c, box = page.c, layout.symbol_key
    cx = box.centre[0]
    c.setFillGray(TEXT_GREY)
    page.text(cx, box.y + 3.6, "Key", font=fonts.TITLE, size=12, align="centre")
    y = box.y + 7.0
    dungeon = layout.dungeon
    for symbol, captions in _key_entries(layout):
        middle = page.pt(cx, y + KEY_ICON / 2)
        size = KEY_ICON * mm
        if symbol == "diamond":
            expansion_art.draw_diamond(c, 3, *middle, size, ink=PRINT_GREY, facet=LIGHT_GREY)
        elif symbol == "emerald":
            expansion_art.draw_emerald(c, 1, *middle, size, ink=PRINT_GREY, facet=LIGHT_GREY)
        elif symbol == "cave":
            expansion_art.draw_cave_mouth(c, middle[0], middle[1] - size * 0.3, size, ink=WALL_GREY, rock=0.85,
                                          dark=0.4)
        elif symbol == "door":
            icon = min(dungeon.doors, key=_by_side)[1] if dungeon.doors else "sun"
            expansion_art.draw_door(c, icon, *middle, size, ink=PRINT_GREY, plank=LIGHT_GREY, icon_ink=PRINT_GREY)
        elif symbol == "gate":
            glyph = min(dungeon.gates, key=_by_side)[1]
            c.setStrokeGray(PRINT_GREY)
            c.setLineWidth(0.3 * mm)
            c.setFillGray(1)
            page.circle(cx, y + KEY_ICON / 2, KEY_ICON * 0.4, fill=1)
            expansion_art.draw_glyph(c, glyph, *middle, 0.58 * size, ink=GLYPH_GREY, width=11.0)
        else:
            art.draw_item(c, symbol, *middle, size, ink=PRINT_GREY)
        y += KEY_ICON + 3.0
        c.setFillGray(TEXT_GREY)
        for i, line in enumerate(captions):
            page.text(cx, y + i * KEY_STEP, line, font=fonts.BOLD if i == 0 else fonts.BODY, size=KEY_CAPTION,
                      align="centre")
        y += (len(captions) - 1) * KEY_STEP + 3.6


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
            kind = dungeon.side_kind(cell.room, side)
            # A cave entrance is a wall seen from the room beyond it: drawn as one.
            if kind == "wall" or (kind == "entry" and dungeon.contains(cell.room.neighbour(side))):
                if side in "NW" and dungeon.contains(cell.room.neighbour(side)):
                    continue  # an interior wall is drawn once, from its room to the E or S
                page.line(*cell.side_ends(side))
    # Passages: a small diamond on each side shared by two rooms.
    half = PASSAGE_HALF * room
    c.setLineWidth(0.3 * mm)
    c.setStrokeGray(PRINT_GREY)
    c.setFillGray(0.93)
    for cell in layout.rooms:
        for side in ("E", "S"):
            if dungeon.side_kind(cell.room, side) == "passage":
                if dungeon.door_at(cell.room, side) or dungeon.gate_at(cell.room, side):
                    continue   # a Magic Door or a Rune Gate stands there instead
                x, y = cell.side_midpoint(side)
                page.polygon([(x, y - half), (x + half, y), (x, y + half), (x - half, y)])
    if layout.side_marks:
        _draw_side_marks(page, layout)
    for cell in layout.rooms:
        # The round box for the round number, upper-left.
        cx, cy, r = cell.round_box
        c.setFillGray(1)
        page.circle(cx, cy, r, fill=1)
        if cell.icon:
            art.draw_item(c, cell.items[0], *page.pt(*cell.icon.centre), cell.icon.w * mm, ink=PRINT_GREY,
                          design=layout.design)
        if cell.mark:
            _draw_mark(page, cell)
    _draw_arrows(page, layout)
    c.setFillGray(0.3)
    for text, x, y in layout.col_labels + layout.row_labels:
        page.text(x, y + 1.3, text, font=fonts.BOLD, size=10, align="centre")


def _draw_arrows(page: Page, layout: SheetLayout) -> None:
    for arrow in layout.arrows:
        if arrow.mouth is not None:
            _draw_cave_mouth(page, arrow)
    page.c.setFillColor(ACCENT)
    page.c.setStrokeColor(ACCENT)
    page.c.setLineWidth(0.2 * mm)
    page.c.setLineJoin(1)
    for arrow in layout.arrows:
        (tx, ty), (bx, by) = arrow.tip, arrow.tail
        dc, dr = STEP[arrow.side]          # pointing out of the room; the arrow points in
        px, py = -dr, dc                   # across the arrow
        head, shaft = arrow.head, 0.75
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


# -- the expansion maps' elements ---------------------------------------------------

DIE_INK = 0.25        # the die's icons where nobody draws: the legend and the Curse Track's arrows
GLYPH_GREY = 0.7      # a Rune Gate's glyph: light, so a filled-in gate reads as filled


def _draw_side_marks(page: Page, layout: SheetLayout) -> None:
    """Magic Doors (an arched door with its die icon) and Rune Gates (a circle players fill in, its glyph
    light), centred on their sides. Paths cross both through the middle, so both stay light there."""
    c = page.c
    for mark in layout.side_marks:
        x, y = page.pt(*mark.centre)
        if mark.kind == "magic_door":
            expansion_art.draw_door(c, mark.what, x, y, 2 * mark.radius * mm, ink=PRINT_GREY, plank=LIGHT_GREY,
                                    icon_ink=PRINT_GREY, rotate=0.0 if mark.across == "x" else 90.0,
                                    design=layout.design)
        else:
            c.setStrokeGray(PRINT_GREY)
            c.setLineWidth(0.3 * mm)
            c.setFillGray(1)
            page.circle(*mark.centre, mark.radius, fill=1)
            expansion_art.draw_glyph(c, mark.what, x, y, 1.45 * mark.radius * mm, ink=GLYPH_GREY, width=11.0)


def _draw_mark(page: Page, cell: RoomCell) -> None:
    """A Diamond or an Emerald with its number, in its box: light, so a pen's cross stands out on it."""
    kind, _, number = cell.items[0].partition(":")
    draw = expansion_art.draw_diamond if kind == "diamond" else expansion_art.draw_emerald
    draw(page.c, int(number), *page.pt(*cell.mark.centre), cell.mark.w * mm, ink=PRINT_GREY, facet=LIGHT_GREY)


def _draw_cave_mouth(page: Page, arrow: EntryArrow) -> None:
    """A rocky arch on the wall under a cave entrance's arrow, opening towards the arrow's room."""
    dc, dr = STEP[arrow.side]
    mouth = arrow.mouth
    # The arch's foot is the wall: the mouth's edge nearest the cave room.
    foot = {(0, -1): (mouth.centre[0], mouth.bottom), (0, 1): (mouth.centre[0], mouth.y),
            (1, 0): (mouth.x, mouth.centre[1]), (-1, 0): (mouth.right, mouth.centre[1])}[(dc, dr)]
    rotate = {(0, -1): 0.0, (0, 1): 180.0, (1, 0): -90.0, (-1, 0): 90.0}[(dc, dr)]
    width = max(mouth.w, mouth.h)      # along the wall
    expansion_art.draw_cave_mouth(page.c, *page.pt(*foot), width * mm, rotate=rotate, ink=WALL_GREY,
                                  rock=0.85, dark=0.4)


def _legend_lines(layout: SheetLayout) -> list[list[tuple[str, str]]]:
    """What a roll does on this map, as lines of (``text`` or ``icon``, value) pieces. (Which way each icon
    fills the Curse Track, its arrows show.)"""
    features = layout.dungeon.expansion_features()
    lines = [[("text", "Number: cross out that Diamond." if "diamonds" in features
               else "Number: nothing on this map.")]]
    if "doors" in features:
        lines.append([("text", "Icon: Magic Doors with it are open.")])
    elif not layout.curse:
        lines.append([("text", "Icon: nothing on this map.")])
    if layout.curse:
        lines.append([("icon", "sun"), ("text", " fills a bottom half from the right,  "), ("icon", "dragon"),
                      ("text", " a top half from the left,  "), ("icon", "moon"), ("text", " nothing")])
    return lines


LEGEND_SIZE = 7.0       # pt: what a roll does, beside or under the die's faces


def _line_width(page: Page, line, size: float) -> float:
    return sum(page.text_width(value, fonts.BODY, size) if kind == "text" else size * 0.5 for kind, value in line)


def _draw_line(page: Page, line, x: float, baseline: float, size: float) -> None:
    c = page.c
    for kind, value in line:
        if kind == "text":
            c.setFillGray(TEXT_GREY)
            page.text(x, baseline, value, font=fonts.BODY, size=size)
            x += page.text_width(value, fonts.BODY, size)
        else:
            icon = size * 0.5           # mm: half as tall again as the capitals around it
            expansion_art.draw_die_icon(page.c, value, *page.pt(x + icon / 2, baseline - icon * 0.36), icon * mm,
                                        ink=DIE_INK)
            x += icon


def _draw_die_legend(page: Page, layout: SheetLayout) -> None:
    """The die's six faces, and what a roll does on this map: beside the faces where there is room, else
    under them (the text lines joined where they fit the width, one per row where not)."""
    c, box = page.c, layout.die_legend
    face, gap = 7.0, 1.4
    c.setFillGray(TEXT_GREY)
    page.text(box.x, box.y + 4.3, "The Die", font=fonts.TITLE, size=13)
    c.setFillGray(0.35)
    page.text(box.x, box.y + 7.3, "roll it each round", font=fonts.ITALIC, size=LEGEND_SIZE)
    faces_x = box.x + max(page.text_width("The Die", fonts.TITLE, 13),
                          page.text_width("roll it each round", fonts.ITALIC, LEGEND_SIZE)) + 2.5
    for i, (number, icon) in enumerate(load_die().faces):
        x = faces_x + i * (face + gap)
        c.setStrokeGray(0.35)
        c.setLineWidth(0.3 * mm)
        c.setFillGray(1)
        page.rect(x, box.y, face, face, radius=1.4)
        c.setFillGray(TEXT_GREY)
        page.text(x + face * 0.3, box.y + face / 2 + 1.35, str(number), font=fonts.BOLD, size=10, align="centre")
        expansion_art.draw_die_icon(c, icon, *page.pt(x + face * 0.7, box.y + face / 2), 3.4 * mm, ink=DIE_INK,
                                    design=layout.design)
    faces_right = faces_x + 6 * face + 5 * gap
    lines, size = _legend_lines(layout), LEGEND_SIZE
    beside = box.right - faces_right - 5.0
    step = size * 0.43                  # mm between baselines
    if box.h < face + 5.0 and all(_line_width(page, line, size) <= beside for line in lines):
        first = box.y + face / 2 - (len(lines) - 1) * step / 2 + 1.2
        for i, line in enumerate(lines):
            _draw_line(page, line, faces_right + 5.0, first + i * step, size)
        return
    texts = [line for line in lines if line[0][0] == "text"]
    joined = [piece for i, line in enumerate(texts) for piece in ([("text", "   ")] if i else []) + line]
    rows = ([joined] if texts and _line_width(page, joined, size) <= box.w else texts)
    for line in lines:
        if line[0][0] == "icon":        # the Curse Track's line: in two, at its second icon, if too long
            rows += [line] if _line_width(page, line, size) <= box.w else [line[:2], line[2:]]
    for i, row in enumerate(rows):
        _draw_line(page, row, box.x, box.y + face + 3.2 + i * step, size)


def _draw_curse_track(page: Page, layout: SheetLayout) -> None:
    """The Curse Track: its spaces' halves, white for the players to fill in, the dragon's arrow into the
    top row from the left, the sun's into the bottom row from the right, and under each space its
    number with the Emerald it curses."""
    c, box = page.c, layout.curse_box
    c.setFillGray(TEXT_GREY)
    page.text(box.x, box.y + 3.6, "Curse Track", font=fonts.TITLE, size=10.5)
    c.setFillGray(0.35)
    page.text(box.right, box.y + 3.3, "both halves: cursed", font=fonts.ITALIC, size=7.0, align="right")
    c.setStrokeGray(PRINT_GREY)
    c.setLineWidth(0.3 * mm)
    c.setFillGray(1)
    for space in layout.curse:
        for half in (space.top, space.bottom):
            page.rect(half.x, half.y, half.w, half.h, radius=0.6)
    first, last = layout.curse[0], layout.curse[-1]
    top_y, bottom_y = first.top.centre[1], first.bottom.centre[1]
    _lead_arrow(page, "dragon", first.top.x - 0.8, top_y, box.x, +1, layout.design)
    _lead_arrow(page, "sun", last.bottom.right + 0.8, bottom_y, box.right, -1, layout.design)
    below = box.bottom - first.bottom.bottom
    for space in layout.curse:
        # The same Emerald, with the same number, as in its room.
        centre = page.pt(space.bottom.centre[0], space.bottom.bottom + below / 2)
        expansion_art.draw_emerald(c, space.number, *centre, min(4.4, below * 1.15) * mm, ink=PRINT_GREY,
                                   facet=LIGHT_GREY)


def _lead_arrow(page: Page, icon: str, tip_x: float, y: float, outer_x: float, direction: int,
                design: int = 2) -> None:
    """A die icon at ``outer_x`` and an arrow from it to ``tip_x``, pointing ``direction`` (+1 right)."""
    c = page.c
    icon_size = 3.6
    icon_x = outer_x + direction * icon_size / 2
    expansion_art.draw_die_icon(c, icon, *page.pt(icon_x, y), icon_size * mm, ink=DIE_INK, design=design)
    start = icon_x + direction * (icon_size / 2 + 0.4)
    c.setStrokeGray(DIE_INK)
    c.setFillGray(DIE_INK)
    c.setLineWidth(0.35 * mm)
    page.line(start, y, tip_x - direction * 1.2, y)
    page.polygon([(tip_x, y), (tip_x - direction * 1.4, y - 0.9), (tip_x - direction * 1.4, y + 0.9)], stroke=0)

# -- scoring --------------------------------------------------------------------

def _draw_scoring(page: Page, layout: SheetLayout) -> None:
    c, area = page.c, layout.score_area
    first = layout.score_line(1)
    c.setFillGray(TEXT_GREY)
    page.text(area.x, area.y + 3.6, "Scoring", font=fonts.TITLE, size=14)
    c.setFillGray(0.35)
    page.text(first.count.centre[0], area.y + 4.0, "count", font=fonts.ITALIC, size=7.0, align="centre")
    page.text(first.points.centre[0], area.y + 4.0, "points", font=fonts.ITALIC, size=7.0, align="centre")
    # Just above the tally boxes, where sheets printed before read it too (the tally reader looks 1 mm
    # above a box): item 5's rule stays short enough to end before it.
    tally = layout.unusable_tally
    page.text(tally.centre[0], layout.score_line(6).row.y - 0.3, "tally marks", font=fonts.ITALIC, size=7.0,
              align="centre")
    for line in layout.score_lines:
        size, rule_size = _score_line_sizes(page, line)
        baseline = line.badge.centre[1] + size * 0.13
        c.setFillGray(0.3)
        page.circle(*line.badge.centre, line.badge.h / 2, stroke=0, fill=1)
        c.setFillGray(1)
        page.text(line.badge.centre[0], baseline, str(line.item), font=fonts.BOLD, size=size, align="centre")
        c.setFillGray(TEXT_GREY)
        page.text(line.text.x, baseline, line.label, font=fonts.BOLD, size=size)
        offset = page.text_width(line.label, fonts.BOLD, size) + 2.0
        c.setFillGray(0.3)
        room = line.text.w - offset
        if page.text_width(line.rule, fonts.BODY, rule_size) <= room:
            page.text(line.text.x + offset, baseline, line.rule, font=fonts.BODY, size=rule_size)
        else:
            _draw_rule_in_two_lines(page, line.rule, line.text.x + offset, line.badge.centre[1], room, line.text.h,
                                    rule_size)
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


SCORE_LABEL_MOST = 8.0     # pt: a scoring line's label where its row is tall enough ...
SCORE_RULE_LEAST = 7.0     # ... and the least its rule is printed at (the label half a point larger)


def _score_line_sizes(page: Page, line) -> tuple[float, float]:
    """The sizes (pt) of a scoring line's label and rule: as large as its row allows, up to
    ``SCORE_LABEL_MOST``, and smaller (not under ``SCORE_RULE_LEAST``) until both fit its width on one line."""
    size = max(min(SCORE_LABEL_MOST, line.row.h * 1.45), SCORE_RULE_LEAST + 0.5)

    def width(label_size: float) -> float:
        return (page.text_width(line.label, fonts.BOLD, label_size) + 2.0
                + page.text_width(line.rule, fonts.BODY, label_size - 0.5))

    while width(size) > line.text.w and size - 0.5 > SCORE_RULE_LEAST:
        size = max(size - 0.25, SCORE_RULE_LEAST + 0.5)
    return size, size - 0.5


def _draw_rule_in_two_lines(page: Page, rule: str, x: float, middle: float, width: float, height: float,
                            size: float) -> None:
    """A scoring rule too long for one line, in two, centred on ``middle``: split at the word that evens
    the lines, at the largest size that fits ``width`` and ``height``."""
    words = rule.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    first, second = min(splits, key=lambda pair: max(page.text_width(part, fonts.BODY, size) for part in pair))
    spacing = lambda s: s * 0.36   # noqa: E731 - mm between the baselines at s points
    while size > SCORE_RULE_LEAST and (max(page.text_width(part, fonts.BODY, size) for part in (first, second)) > width
                          or spacing(size) + size * 0.3 > height):
        size -= 0.1
    cap = size * 0.26                   # mm: half the height of a capital at ``size`` points, roughly
    page.text(x, middle - spacing(size) / 2 + cap / 2 + 0.1, first, font=fonts.BODY, size=size)
    page.text(x, middle + spacing(size) / 2 + cap / 2 + 0.1, second, font=fonts.BODY, size=size)


# -- print furniture: ruler, markers, QR --------------------------------------------

FOOTER_SIZE = 6.0       # pt: the release and paper, the one text under 7 pt

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
        page.text(ruler.x + 10 * i, ruler.bottom + 0.4, str(i), font=fonts.BODY, size=7.0, align="centre")
    page.text(ruler.right + 1.6, ruler.bottom + 0.4, "cm", font=fonts.BODY, size=7.0)
    page.text(ruler.right + 7.0, ruler.y + 2.2, "Print at 100% (no \u2018fit to page\u2019):",
              font=fonts.ITALIC, size=7.0)
    page.text(ruler.right + 7.0, ruler.y + 5.2, "this bar must measure 5 cm.", font=fonts.ITALIC, size=7.0)
    # The footer in the margin left of the ruler, in two lines so that "LETTER" stays clear of the ruler's 0.
    c.setFillGray(0.45)
    left = layout.markers[3].rect.right + 4.0
    page.text(left, ruler.y + 2.2, f"dungeon-scrawl  \u00b7  layout v{layout.design}", font=fonts.BODY,
              size=FOOTER_SIZE)
    page.text(left, ruler.y + 4.8, layout.paper.upper(), font=fonts.BODY, size=FOOTER_SIZE)
