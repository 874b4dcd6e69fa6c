"""Which drawing each kind of sheet (``sheets.kinds``) gets: one table, keyed like every layer's.

``BLANKS`` is what the scanner compares photos with: a kind's blank page as a
greyscale image, drawn by the same renderer as the printed PDF.
"""
from __future__ import annotations

import io
from functools import partial

from generator.maker_sheet import render_maker_sheets
from generator.monster_sheet import render_monster_sheets
from generator.sheet import render_sheets

# kind -> draw one page of a layout into a PDF file (or file-like object)
DRAW_PAGE = {
    "map": lambda layout, out: render_sheets(layout, 1, out),
    "monster": lambda layout, out: render_monster_sheets([layout], out),
    "maker": lambda layout, out: render_maker_sheets([layout], out),
}


def blank_image(kind: str, layout, px_per_mm: float):
    """The blank printed page of a ``kind`` of sheet as a greyscale image (numpy ``uint8``, 255 white) at
    ``px_per_mm``: what the scanner compares a photo with to tell the players' ink from the print."""
    import numpy as np
    import pypdfium2 as pdfium

    buffer = io.BytesIO()
    DRAW_PAGE[kind](layout, buffer)
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        bitmap = document[0].render(scale=px_per_mm * 25.4 / 72, grayscale=True)
        return np.array(bitmap.to_pil().convert("L"))
    finally:
        document.close()


# kind -> its blank page renderer, for the kinds the scanner reads (each picklable, for its workers)
BLANKS = {kind: partial(blank_image, kind) for kind in ("map", "monster", "maker")}
