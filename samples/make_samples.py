"""Rebuild the sample sheets in samples/: PDFs and the PNG pictures the README shows.

    python samples/make_samples.py
"""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium

from games.mapfile import load_map
from games.randommap import random_map
from generator.layout import sheet_layout
from generator.sheet import render_sheets

HERE = Path(__file__).resolve().parent
PICTURE_DPI = 110


def make(name: str, dungeon, paper: str, players: int) -> None:
    layout = sheet_layout(dungeon, paper)
    pdf_path = HERE / f"{name}.pdf"
    render_sheets(layout, players, pdf_path)
    pdf_path.with_suffix(".layout.json").write_text(json.dumps(layout.to_json(players), indent=1) + "\n")
    page = pdfium.PdfDocument(pdf_path)[0]
    image = page.render(scale=PICTURE_DPI / 72).to_pil().convert("RGB")
    image.quantize(colors=64).save(HERE / f"{name}.png", optimize=True)
    print(f"wrote {pdf_path.name} and {name}.png")


if __name__ == "__main__":
    make("sheet-classic-a4", load_map("classic"), "a4", 1)
    make("sheet-random-1234-letter", random_map(1234), "letter", 1)
