"""How fast sheets and decks are made, and how small a sheet can be in a picture and still be identified.

    python benchmarks/sheet_bench.py

Prints: time to make a random map, to lay out and draw a sheet page; then, for
a rendered sheet at falling resolution (pixels per millimetre of paper) and
with blur, whether all four corner markers and the QR code are read. The
scanner issue uses the last table to choose its working resolution.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium

from bench_support import timed
from games.cards import DECKS, load_deck
from games.mapfile import load_map
from games.randommap import random_map
from generator.deck import render_deck
from sheets.dungeon import sheet_layout
from generator.sheet import render_sheets
from scanner.locate import find_markers, read_sheet_id


def main() -> None:
    classic = load_map("classic")
    folder = Path(tempfile.mkdtemp())
    seeds = iter(range(10_000))
    print("speed")
    print(f"  random map            {1000 * timed(lambda: random_map(next(seeds)), 200):7.1f} ms")
    print(f"  layout, classic A4    {1000 * timed(lambda: sheet_layout(classic, 'a4'), 50):7.1f} ms")
    layout = sheet_layout(classic, "a4")
    one = timed(lambda: render_sheets(layout, 1, folder / "one.pdf"), 5)
    ten = timed(lambda: render_sheets(layout, 10, folder / "ten.pdf"), 2)
    print(f"  PDF, 1 page           {1000 * one:7.1f} ms")
    print(f"  PDF, 10 pages         {1000 * ten:7.1f} ms ({1000 * ten / 10:.1f} ms a page)")
    print(f"  PDF size, 1 page      {(folder / 'one.pdf').stat().st_size / 1024:7.1f} KiB")
    for name in DECKS:
        deck = load_deck(name)
        seconds = timed(lambda: render_deck(deck, folder / f"{name}.pdf"), 3)
        print(f"  deck {name:<18}{1000 * seconds:5.1f} ms ({deck.size()} cards, duplex A4, "
              f"{(folder / f'{name}.pdf').stat().st_size / 1024:.0f} KiB)")

    print("\nidentification: markers found (of 4) / QR read, by resolution and blur")
    page = pdfium.PdfDocument(folder / "one.pdf")[0]
    blurs = (0.0, 1.0, 2.0)
    print("  px/mm  A4 width px  " + "  ".join(f"blur {b:.0f}px" for b in blurs))
    for px_per_mm in (2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0):
        image = np.asarray(page.render(scale=px_per_mm * 25.4 / 72, grayscale=True).to_pil().convert("L"))
        cells = []
        for blur in blurs:
            seen = cv2.GaussianBlur(image, (0, 0), blur) if blur else image
            markers = len(find_markers(seen))
            qr = "QR" if read_sheet_id(seen) else "--"
            cells.append(f"{markers}/4 {qr}   ")
        print(f"  {px_per_mm:5.1f}  {image.shape[1]:11d}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
