"""The overlay picture: the rectified sheet, faded, with what the scanner read drawn over it.

Paths read are thick green lines from each room's middle to the sides they
link to, Traps red crosses, round numbers read in blue beside their circle,
tally strokes ticked, on expansion maps the marks read (Diamonds and Emeralds
crossed out, Curse Track halves and Rune Gates filled) in purple, and every
place in ``needs_review`` ringed in orange with its number, listed under the
sheet. A person checks a scan by looking,
not by reading JSON.
"""
from __future__ import annotations

import cv2
import numpy as np

from games.review import Rule
from scanner.read import RoomReading, TallyReading

GREEN, RED, BLUE, ORANGE, INK = (20, 150, 60), (210, 40, 40), (40, 80, 200), (240, 130, 0), (30, 30, 30)
PURPLE = (150, 40, 170)
FONT = cv2.FONT_HERSHEY_DUPLEX


def draw_overlay(page: np.ndarray, layout, px_per_mm: float, rooms: list[RoomReading], tally: TallyReading,
                 sheet: dict) -> np.ndarray:
    """An RGB picture of the sheet with the readings of ``rooms`` and ``tally`` and the scored ``sheet``
    (a scan-format dict with ``score`` and ``needs_review``) drawn over it."""
    review = sheet.get("needs_review", [])
    faded, canvas = faded_canvas(page, 16 + 5 * min(len(review), 7), px_per_mm)

    def px(x, y):
        return int(round(x * px_per_mm)), int(round(y * px_per_mm))

    cells = {cell.room.name: cell for cell in layout.rooms}
    for reading in rooms:
        cell = cells[reading.room]
        centre = px(*cell.rect.centre)
        for side in reading.exits:
            cv2.line(canvas, centre, px(*cell.side_midpoint(side)), GREEN, max(2, int(1.2 * px_per_mm)), cv2.LINE_AA)
        if len(reading.exits) == 1:
            cv2.circle(canvas, centre, int(1.3 * px_per_mm), GREEN, -1, cv2.LINE_AA)
        if reading.trap:
            r = int(0.25 * cell.rect.w * px_per_mm)
            for sx in (-1, 1):
                cv2.line(canvas, (centre[0] - r, centre[1] - sx * r), (centre[0] + r, centre[1] + sx * r), RED,
                         max(2, int(1.0 * px_per_mm)), cv2.LINE_AA)
        if reading.round is not None:
            cx, cy, radius = cell.round_box
            _text(canvas, str(reading.round), px(cx + radius + 0.6, cy + radius * 0.6), BLUE, 0.5 * px_per_mm / 5)
    for x_mm, kind in tally.strokes:
        box = layout.unusable_tally
        x, y = px(box.x + 0.6 + x_mm, box.y - 0.4)
        cv2.drawMarker(canvas, (x, y), GREEN if kind == 1 else BLUE, cv2.MARKER_TRIANGLE_DOWN,
                       int(1.6 * px_per_mm), 2)
    box = layout.unusable_tally
    _text(canvas, f"read: {tally.count}", px(box.x, box.bottom + 3.2), GREEN, 0.45 * px_per_mm / 5)
    if "marks" in sheet:
        _draw_marks(canvas, layout, sheet["marks"], px_per_mm)

    for number, entry in enumerate(review, start=1):
        where = _where(entry.get("where", ""), layout, mark=entry.get("rule") == Rule.UNSURE_MARK)
        if where is None:
            continue
        (x, y), radius = where
        cv2.circle(canvas, px(x, y), int(radius * px_per_mm), ORANGE, max(2, int(0.7 * px_per_mm)), cv2.LINE_AA)
        _text(canvas, str(number), px(x + radius * 0.7, y - radius * 0.7), ORANGE, 0.6 * px_per_mm / 5, bold=True)
    _legend(canvas, sheet, review, px_per_mm, page.shape[0])
    return canvas


def _draw_marks(canvas: np.ndarray, layout, marks: dict, px_per_mm: float) -> None:
    """The expansion marks read (a sheet's ``marks``): a cross over each Diamond and Emerald read as crossed
    out, each Curse Track half and Rune Gate read as filled shaded, the others outlined thinly."""
    def px(x, y):
        return int(round(x * px_per_mm)), int(round(y * px_per_mm))

    thick, thin = max(2, int(0.6 * px_per_mm)), 1
    for cell in layout.rooms:
        if cell.mark is None:
            continue
        kind, number = cell.items[0].split(":")
        box = cell.mark
        if int(number) in marks.get("diamonds" if kind == "diamond" else "emeralds", []):
            cv2.line(canvas, px(box.x, box.y), px(box.right, box.bottom), PURPLE, thick, cv2.LINE_AA)
            cv2.line(canvas, px(box.x, box.bottom), px(box.right, box.y), PURPLE, thick, cv2.LINE_AA)
        else:
            cv2.rectangle(canvas, px(box.x, box.y), px(box.right, box.bottom), PURPLE, thin, cv2.LINE_AA)
    track = marks.get("curse_track", {})
    for space in layout.curse:
        for half, rect in (("top", space.top), ("bottom", space.bottom)):
            filled = track.get(half, [])
            if space.number <= len(filled) and filled[space.number - 1]:
                _shade(canvas, px(rect.x, rect.y), px(rect.right, rect.bottom))
            cv2.rectangle(canvas, px(rect.x, rect.y), px(rect.right, rect.bottom), PURPLE, thin, cv2.LINE_AA)
    for gate in layout.gates():
        centre, radius = px(*gate.centre), int(round(gate.radius * px_per_mm))
        if gate.name in marks.get("gates", []):
            cv2.circle(canvas, centre, radius, PURPLE, -1, cv2.LINE_AA)
        else:
            cv2.circle(canvas, centre, radius, PURPLE, thin, cv2.LINE_AA)


def _shade(canvas: np.ndarray, corner: tuple[int, int], other: tuple[int, int]) -> None:
    (x0, y0), (x1, y1) = corner, other
    region = canvas[y0:y1, x0:x1]
    region[:] = (region.astype(np.float32) * 0.4 + np.array(PURPLE, np.float32) * 0.6).astype(np.uint8)


def _where(where: str, layout, mark: bool = False) -> tuple[tuple[float, float], float] | None:
    """Where a needs_review entry points on the sheet: a room (its Diamond or Emerald when ``mark``), a
    mark, the tally, or nowhere in particular."""
    for cell in layout.rooms:
        if cell.room.name == where:
            if mark and cell.mark is not None:
                return cell.mark.centre, cell.mark.w * 0.9
            return cell.rect.centre, cell.rect.w * 0.62
    for gate in layout.gates():
        if gate.name == where:
            return gate.centre, gate.radius + 1.5
    for space in layout.curse:
        for half, rect in (("top", space.top), ("bottom", space.bottom)):
            if where == f"curse track space {space.number} ({half})":
                return rect.centre, rect.w * 0.62
    if where == "curse track" and layout.curse_box is not None:
        return layout.curse_box.centre, layout.curse_box.w * 0.55
    if where.startswith("tally") or where == "unusable":
        box = layout.unusable_tally
        return box.centre, box.w * 0.55
    return None


def _legend(canvas: np.ndarray, sheet: dict, review: list[dict], px_per_mm: float, top: int) -> None:
    score = sheet.get("score", {})
    who = f"player {sheet.get('player')}" if sheet.get("player") else ""
    if sheet.get("name"):
        who = f"{sheet['name']} ({who})" if who else sheet["name"]
    game = f"game {sheet['game']}  " if sheet.get("game") else ""
    title = f"{who}  {game}score {score.get('total', '?')}    {sheet.get('source', '')}"
    scale = 0.55 * px_per_mm / 5
    y = top + int(7 * px_per_mm)
    _text(canvas, title, (int(8 * px_per_mm), y), INK, scale * 1.2, bold=True)
    y += int(6 * px_per_mm)
    if not review:
        _text(canvas, "Nothing to review: every reading is sure and legal.", (int(8 * px_per_mm), y), GREEN, scale)
        return
    for number, entry in enumerate(review[:6], start=1):
        line = f"{number}. {entry.get('where', '')}: {entry.get('why', '')}"
        _text(canvas, line[:110], (int(8 * px_per_mm), y), ORANGE, scale)
        y += int(5 * px_per_mm)
    if len(review) > 6:
        _text(canvas, f"... and {len(review) - 6} more (see the JSON)", (int(8 * px_per_mm), y), ORANGE, scale)


def faded_canvas(page: np.ndarray, legend_mm: float, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """A page faded to let what is drawn over it stand out, and the canvas: the faded page with
    ``legend_mm`` of white below it for the legend."""
    faded = (page.astype(np.float32) * 0.45 + 255 * 0.55).astype(np.uint8)
    return faded, cv2.copyMakeBorder(faded, 0, int(legend_mm * px_per_mm), 0, 0, cv2.BORDER_CONSTANT,
                                     value=(255, 255, 255))


def _text(canvas, text, origin, colour, scale, bold=False) -> None:
    import unicodedata

    # OpenCV's fonts draw ASCII only: "Zoë" is drawn "Zoe", not "Zo??".
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    cv2.putText(canvas, text, origin, FONT, scale, (255, 255, 255), 4 if bold else 3, cv2.LINE_AA)
    cv2.putText(canvas, text, origin, FONT, scale, colour, 2 if bold else 1, cv2.LINE_AA)


def overlay_picture(page: bytes, sheet: dict, rooms: list[RoomReading], tally: TallyReading,
                    scored: dict):
    """The overlay picture (RGB) of one sheet: its rectified page (the image file ``PhotoOutcome.pages``
    holds, JPEG) with ``rooms`` and ``tally`` read and the ``scored`` sheet (``game_json``'s) drawn over it."""
    from scanner.scan import PX_PER_MM

    page = cv2.cvtColor(cv2.imdecode(np.frombuffer(page, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return draw_overlay(page, layout_of(sheet), PX_PER_MM, rooms, tally, scored)


def layout_of(sheet: dict):
    """The sheet layout a scanned sheet was read against (from its map reference, paper and design)."""
    from games.mapfile import map_from_reference
    from sheets.dungeon import DESIGN, sheet_layout

    return sheet_layout(map_from_reference(sheet["map"]), sheet.get("paper", "a4"), sheet.get("design", DESIGN))
