"""The fonts every printed page uses, all embedded in the PDF.

reportlab ships Bitstream Vera (TrueType) and DarkGarden (Type 1); both are
registered as embedded faces, so no page depends on the printer's own fonts.
Vera's licence allows embedding; DarkGarden is GPL with a font exception that
keeps documents embedding it free of the GPL.
"""
from __future__ import annotations

import os

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

BODY = "Vera"
BOLD = "Vera-Bold"
ITALIC = "Vera-Italic"
TITLE = "DarkGardenMK"

_FONT_DIR = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
_registered = False


def register_fonts() -> None:
    """Register the embedded faces once per process."""
    global _registered
    if _registered:
        return
    for name, filename in ((BODY, "Vera.ttf"), (BOLD, "VeraBd.ttf"),
                           (ITALIC, "VeraIt.ttf"), ("Vera-BoldItalic", "VeraBI.ttf")):
        pdfmetrics.registerFont(TTFont(name, os.path.join(_FONT_DIR, filename)))
    face = pdfmetrics.EmbeddedType1Face(os.path.join(_FONT_DIR, "DarkGardenMK.afm"),
                                        os.path.join(_FONT_DIR, "DarkGardenMK.pfb"))
    pdfmetrics.registerTypeFace(face)
    pdfmetrics.registerFont(pdfmetrics.Font(TITLE, face.name, "WinAnsiEncoding"))
    _registered = True
