"""What every printed sheet is drawn with: its inks, a reportlab canvas addressed in layout millimetres
(``Page``), and the corner markers and QR code the scanner finds and identifies a sheet by."""
from __future__ import annotations

from reportlab.graphics.barcode import qrencoder
from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator import fonts
from sheets.page import MARKER_DICTIONARY

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


def _marker_cells(marker_id: int):
    import cv2  # heavy: only when a sheet is drawn

    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, MARKER_DICTIONARY))
    bits = dictionary.generateImageMarker(marker_id, 6, borderBits=1)
    return bits


def draw_markers(page: Page, layout) -> None:
    """The four corner markers (``layout.markers``) the scanner finds a sheet by."""
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


def draw_qr(page: Page, layout, sheet_id) -> None:
    """A sheet's QR code (``sheet_id``'s text: ``sheets.page.SheetId``), from reportlab's encoder, as filled
    runs of dark modules, at ``layout.qr``."""
    count, runs = qr_runs(sheet_id.qr_text())
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
