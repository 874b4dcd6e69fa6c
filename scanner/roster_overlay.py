"""The overlay picture of a monster record sheet: the rectified page, faded, with what was read drawn over it.

For every part read, the bubbles chosen (die sides, colour, type) are ringed
in green and its life boxes read as crossed off are ticked; the dice read in
the reserve and active pools are ringed in blue; a part or a monster whose
whole life is crossed off (it has left play) is struck through in red; every
place in ``needs_review`` is ringed in orange with its number, listed under
the sheet. A person checks a scan by looking, not by reading JSON.

The page is the one the scanner read the marks on, registered to the layout
(``scanner.monsters.MonsterScan.record`` keeps it when pages are asked for);
``row_readings`` is what the picture (and the game-night page's corrections)
need of a scan, as JSON.
"""
from __future__ import annotations

import cv2
import numpy as np

from scanner.monsters import choose
from sheets.page import PX_PER_MM, Rect
from sheets.roster import around

GREEN, RED, BLUE, ORANGE, INK = (20, 150, 60), (210, 40, 40), (40, 80, 200), (240, 130, 0), (30, 30, 30)
FONT = cv2.FONT_HERSHEY_DUPLEX
MOST_LISTED = 8         # review entries listed under the picture


# -- what was read ---------------------------------------------------------------------------------------
def row_readings(marks) -> dict:
    """What was read on each part row and in each pool of one page (``scanner.monsters.SheetMarks``), as JSON:
    ``{"rows": {"monster 1 core": {"size": "d8", "colour": "red", "type": None, "damage": 2}, ...},
    "reserve": ["d6 red"], "active": []}``; a row with nothing marked is left out."""
    rows = {}
    for row in marks.layout.rows():
        values = {key: choose(f"{row.where} {key}", marks.group(f"{row.where} {key}"))[0]
                  for key in ("size", "colour") + (("type",) if row.part else ())}
        if not any(values.values()):
            continue
        lost = marks.damage(f"{row.where} life")[0]
        rows[row.where] = {"size": values["size"], "colour": values["colour"], "type": values.get("type"),
                           "damage": lost}
    pools = {pool.key: [b.value for b in pool.bubbles if marks.fills[(b.group, b.value)] >= 0.2]
             for pool in marks.layout.pools}
    return {"rows": rows, **pools}


def layout_of(entry: dict):
    """The monster record sheet layout a ``rosters`` entry was read against (its paper, player and page)."""
    from sheets.roster import monster_layout

    page = int(entry.get("page") or 1)
    return monster_layout(entry.get("paper", "a4"), int(entry.get("player") or 1), page, page)


# -- the picture -----------------------------------------------------------------------------------------
def roster_overlay_picture(page: bytes | np.ndarray, entry: dict, readings: dict, title: str | None = None):
    """The overlay picture (RGB) of one monster record sheet: its page (a JPEG's bytes, or RGB) with
    ``readings`` (``row_readings``, corrections applied) and the ``entry``'s review drawn over it."""
    if isinstance(page, (bytes, bytearray)):
        page = cv2.cvtColor(cv2.imdecode(np.frombuffer(page, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return draw_roster_overlay(page, layout_of(entry), readings, entry, title=title)


def draw_roster_overlay(page: np.ndarray, layout, readings: dict, entry: dict, *, px_per_mm: float = PX_PER_MM,
                        title: str | None = None) -> np.ndarray:
    """An RGB picture of the page with what was read, the parts that left play and the review drawn over it."""
    review = entry.get("needs_review", [])
    faded = (page.astype(np.float32) * 0.45 + 255 * 0.55).astype(np.uint8)
    legend_mm = 16 + 5 * min(len(review) + 1, MOST_LISTED + 1)
    canvas = cv2.copyMakeBorder(faded, 0, int(legend_mm * px_per_mm), 0, 0, cv2.BORDER_CONSTANT,
                                value=(255, 255, 255))
    pen = _Pen(canvas, px_per_mm)
    rows = readings.get("rows", {})
    for row in layout.rows():
        if row.where in rows:
            _draw_row(pen, row, rows[row.where])
    for pool in layout.pools:
        for die in readings.get(pool.key, []):
            bubble = next((b for b in pool.bubbles if b.value == die), None)
            if bubble is not None:
                pen.ring((bubble.cx, bubble.cy), bubble.r + 0.5, BLUE, 0.45)
    for gone in entry.get("left_out", []):
        _strike(pen, layout, gone.get("where", ""))
    for number, item in enumerate(review, start=1):
        where = place_of(layout, item.get("where", ""))
        if where is not None:
            pen.box(where, ORANGE, 0.6)
            pen.text(str(number), (where.right + 0.6, where.y + 2.2), ORANGE, 3.2, bold=True)
    _legend(pen, layout, entry, review, page.shape[0], title)
    return canvas


def _draw_row(pen: _Pen, row, read: dict) -> None:
    """One part row read: its chosen bubbles ringed, its crossed life boxes ticked, and what it reads as."""
    for key, bubbles in (("size", row.sizes), ("colour", row.colours), ("type", row.types)):
        chosen = next((b for b in bubbles if b.value == read.get(key)), None)
        if chosen is not None:
            pen.ring((chosen.cx, chosen.cy), chosen.r + 0.55, GREEN, 0.5)
    for box in row.life[:read.get("damage", 0)]:
        pen.line((box.x + 0.3, box.bottom - 0.3), (box.right - 0.3, box.y + 0.3), GREEN, 0.45)
    die = " ".join(value for value in (read.get("size"), read.get("colour")) if value) or "no die"
    words = f"{die}{' ' + read['type'] if read.get('type') else ''}, {read.get('damage', 0)} damage"
    pen.text(words, (row.name.right - 1.0, row.name.y + row.name.h * 0.8), GREEN, 2.4, right=True)


def _strike(pen: _Pen, layout, where: str) -> None:
    """A part (``monster 1 part 2``) or a whole monster (``monster 1``) that has left play, struck through."""
    for card in layout.cards:
        if where == f"monster {card.number}":
            rect = card.rect
            pen.line((rect.x, rect.y), (rect.right, rect.bottom), RED, 0.6)
            pen.line((rect.x, rect.bottom), (rect.right, rect.y), RED, 0.6)
        for row in card.parts:
            if where == row.where:
                y = row.row.y + row.row.h / 2
                pen.line((row.row.x, y), (row.row.right, y), RED, 0.6)


def place_of(layout, where: str) -> Rect | None:
    """Where a ``needs_review`` entry of a monster record sheet points, as a rectangle on the page (mm): a
    group of bubbles (``monster 1 core size``), a life box or track, a part row, a pool's die (``reserve d6
    red``), row of dice (``reserve d6``) or whole pool (``reserve``), a monster; None for the photo as a whole."""
    groups = layout.groups()
    if where in groups:
        return _span([b.rect for b in groups[where]], 0.8)
    tracks = layout.life_tracks()
    head, _, number = where.rpartition(" box ")
    if head in tracks and number.isdigit() and 1 <= int(number) <= len(tracks[head]):
        return _span([tracks[head][int(number) - 1]], 0.8)
    if where in tracks:
        return _span(list(tracks[where]), 0.8)
    for row in layout.rows():
        if where == row.where:
            return _span([row.row], 0.5)
    for pool in layout.pools:
        for bubble in pool.bubbles:
            if where == f"{pool.key} {bubble.value}":
                return _span([bubble.rect], 0.9)
    for card in layout.cards:
        if where == f"monster {card.number}":
            return _span([card.rect], 0.5)
    for pool in layout.pools:
        if where == pool.key:                   # a curl under a whole pool (``reserve``)
            return _span([b.rect for b in pool.bubbles], 0.8)
    place = layout.places().get(where)          # a pool's row of one die size, hidden (``reserve d6``)
    return None if place is None else _span([place], 0.8)


def _span(rects: list[Rect], margin: float) -> Rect:
    """The rectangle around ``rects``, ``margin`` mm wider on every side."""
    return around(rects).grown(margin)


def _legend(pen: _Pen, layout, entry: dict, review: list[dict], top: int, title: str | None) -> None:
    roster = (entry.get("roster") or {}).get("players") or [{}]
    monsters = len(roster[0].get("monsters", []))
    heading = title or f"player {entry.get('player')}"
    source = entry.get("source", "")
    line = f"{heading}  monster record sheet {layout.page}: {monsters} monster{'' if monsters == 1 else 's'}    {source}"
    y = top / pen.px_per_mm + 7
    pen.text(line, (8, y), INK, 3.4, bold=True)
    y += 6
    if not review:
        pen.text("Nothing to review: every bubble and life box reads clearly.", (8, y), GREEN, 2.9)
        return
    for number, item in enumerate(review[:MOST_LISTED], start=1):
        said = f"{number}. {item.get('where', '')}: {item.get('why', '')}"
        pen.text(said if len(said) <= 105 else said[:102] + "...", (8, y), ORANGE, 2.9)     # within the page
        y += 5
    if len(review) > MOST_LISTED:
        pen.text(f"... and {len(review) - MOST_LISTED} more (see the JSON)", (8, y), ORANGE, 2.9)


class _Pen:
    """Drawing on the picture in paper millimetres."""

    def __init__(self, canvas: np.ndarray, px_per_mm: float):
        self.canvas, self.px_per_mm = canvas, px_per_mm

    def px(self, point) -> tuple[int, int]:
        return int(round(point[0] * self.px_per_mm)), int(round(point[1] * self.px_per_mm))

    def ring(self, centre, radius_mm: float, colour, width_mm: float) -> None:
        cv2.circle(self.canvas, self.px(centre), int(round(radius_mm * self.px_per_mm)), colour,
                   max(2, int(round(width_mm * self.px_per_mm))), cv2.LINE_AA)

    def box(self, rect: Rect, colour, width_mm: float) -> None:
        cv2.rectangle(self.canvas, self.px((rect.x, rect.y)), self.px((rect.right, rect.bottom)), colour,
                      max(2, int(round(width_mm * self.px_per_mm))), cv2.LINE_AA)

    def line(self, start, end, colour, width_mm: float) -> None:
        cv2.line(self.canvas, self.px(start), self.px(end), colour, max(2, int(round(width_mm * self.px_per_mm))),
                 cv2.LINE_AA)

    def text(self, text: str, origin, colour, size_mm: float, *, bold: bool = False, right: bool = False) -> None:
        import unicodedata

        # OpenCV's fonts draw ASCII only: "Zoë" is drawn "Zoe", not "Zo??".
        text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
        scale = size_mm * self.px_per_mm / 22
        x, y = self.px(origin)
        if right:
            x -= cv2.getTextSize(text, FONT, scale, 1)[0][0]
        cv2.putText(self.canvas, text, (x, y), FONT, scale, (255, 255, 255), 4 if bold else 3, cv2.LINE_AA)
        cv2.putText(self.canvas, text, (x, y), FONT, scale, colour, 2 if bold else 1, cv2.LINE_AA)
