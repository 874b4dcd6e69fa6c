"""The overlay picture: the rectified sheet, faded, with what the scanner read drawn over it.

Paths read are thick green lines from each room's middle to the sides they
link to, Traps red crosses, round numbers read in blue beside their circle,
tally strokes ticked, and every place in ``needs_review`` ringed in orange
with its number, listed under the sheet. A person checks a scan by looking,
not by reading JSON.
"""
from __future__ import annotations

import cv2
import numpy as np

from scanner.read import RoomReading, TallyReading

GREEN, RED, BLUE, ORANGE, INK = (20, 150, 60), (210, 40, 40), (40, 80, 200), (240, 130, 0), (30, 30, 30)
FONT = cv2.FONT_HERSHEY_DUPLEX


def draw_overlay(page: np.ndarray, layout, px_per_mm: float, rooms: list[RoomReading], tally: TallyReading,
                 sheet: dict) -> np.ndarray:
    """An RGB picture of the sheet with the readings of ``rooms`` and ``tally`` and the scored ``sheet``
    (a scan-format dict with ``score`` and ``needs_review``) drawn over it."""
    faded = (page.astype(np.float32) * 0.45 + 255 * 0.55).astype(np.uint8)
    review = sheet.get("needs_review", [])
    legend_mm = 16 + 5 * min(len(review), 7)
    canvas = cv2.copyMakeBorder(faded, 0, int(legend_mm * px_per_mm), 0, 0, cv2.BORDER_CONSTANT,
                                value=(255, 255, 255))

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
        box = layout.score_lines[5].tally
        x, y = px(box.x + 0.6 + x_mm, box.y - 0.4)
        cv2.drawMarker(canvas, (x, y), GREEN if kind == 1 else BLUE, cv2.MARKER_TRIANGLE_DOWN,
                       int(1.6 * px_per_mm), 2)
    box = layout.score_lines[5].tally
    _text(canvas, f"read: {tally.count}", px(box.x, box.bottom + 3.2), GREEN, 0.45 * px_per_mm / 5)

    for number, entry in enumerate(review, start=1):
        where = _where(entry.get("where", ""), layout)
        if where is None:
            continue
        (x, y), radius = where
        cv2.circle(canvas, px(x, y), int(radius * px_per_mm), ORANGE, max(2, int(0.7 * px_per_mm)), cv2.LINE_AA)
        _text(canvas, str(number), px(x + radius * 0.7, y - radius * 0.7), ORANGE, 0.6 * px_per_mm / 5, bold=True)
    _legend(canvas, sheet, review, px_per_mm, page.shape[0])
    return canvas


def _where(where: str, layout) -> tuple[tuple[float, float], float] | None:
    """Where a needs_review entry points on the sheet: a room, the tally, or nowhere in particular."""
    for cell in layout.rooms:
        if cell.room.name == where:
            return cell.rect.centre, cell.rect.w * 0.62
    if where.startswith("tally") or where == "unusable":
        box = layout.score_lines[5].tally
        return box.centre, box.w * 0.55
    return None


def _legend(canvas: np.ndarray, sheet: dict, review: list[dict], px_per_mm: float, top: int) -> None:
    score = sheet.get("score", {})
    who = f"player {sheet.get('player')}" if sheet.get("player") else ""
    title = f"{sheet.get('source', '')}  {who}  score {score.get('total', '?')}"
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


def _text(canvas, text, origin, colour, scale, bold=False) -> None:
    cv2.putText(canvas, text, origin, FONT, scale, (255, 255, 255), 4 if bold else 3, cv2.LINE_AA)
    cv2.putText(canvas, text, origin, FONT, scale, colour, 2 if bold else 1, cv2.LINE_AA)
