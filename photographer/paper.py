"""Stages 1 and 2: the blank printed page as pixels, a played game, and its truth.

The page is the project's own PDF rasterised with pdfium, so the photographer
photographs exactly what a player prints.
"""
from __future__ import annotations

import tempfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium

from games.board import Board
from games.cards import load_deck
from games.deal import deal
from games.die import roll_rounds
from games.mapcode import encode_map
from games.mapfile import map_reference
from games.maps import DungeonMap
from games.player import play
from sheets.dungeon import SheetLayout
from generator.sheet import render_sheets

PX_PER_MM = 10.0          # the paper's own resolution: every later stage works from this
_CACHE_SIZE = 8           # a 10 px/mm A4 page is 18 MB
_pages: OrderedDict[tuple, np.ndarray] = OrderedDict()


def blank_sheet(layout: SheetLayout, player: int, px_per_mm: float = PX_PER_MM, code: str | None = None
                ) -> np.ndarray:
    """The printed page of ``player`` (of the game ``code``, when given) as an RGB image (H x W x 3 uint8),
    read-only, cached.

    One pixel covers ``1 / px_per_mm`` millimetres of paper, from the page's top-left corner.
    """
    key = (encode_map(layout.dungeon), layout.dungeon.id, layout.dungeon.seed, layout.paper, player,
           float(px_per_mm), code)
    if key not in _pages:
        _pages[key] = _render_page(layout, player, px_per_mm, code)
        while len(_pages) > _CACHE_SIZE:
            _pages.popitem(last=False)
    _pages.move_to_end(key)
    return _pages[key]


def _render_page(layout: SheetLayout, player: int, px_per_mm: float, code: str | None = None) -> np.ndarray:
    """Render the sheet PDF into a temporary file and rasterise page ``player``."""
    with tempfile.TemporaryDirectory(prefix="photographer-") as folder:
        path = Path(folder) / "sheet.pdf"
        render_sheets(layout, player, path, code)
        image = rasterised(path, px_per_mm, player - 1)
    image.setflags(write=False)
    return image


def rasterised(pdf, px_per_mm: float, index: int = 0) -> np.ndarray:
    """Page ``index`` of a PDF (a path or its bytes) as an RGB image (H x W x 3 uint8) at ``px_per_mm``."""
    document = pdfium.PdfDocument(pdf)
    try:
        # pdfium stretches the page over ceil(size * scale) pixels: a hair less scale keeps
        # whole-pixel sizes (A4 and Letter at 10 px/mm) from growing a row and stretching.
        bitmap = document[index].render(scale=px_per_mm * 25.4 / 72 * (1 - 1e-6))
        return np.array(bitmap.to_pil().convert("RGB"))
    finally:
        document.close()


def play_game(dungeon: DungeonMap, seed: int, players: int) -> list[Board]:
    """The finished sheets of one game dealt by ``seed``, played by the random legal player (who also makes
    the expansion marks, from the deal's die rolls: ``game_rolls``)."""
    game = deal(load_deck("doodles"), seed, solo=players == 1)
    return [play(dungeon, game, seed * 10 + n) for n in range(1, players + 1)]


def game_rolls(dungeon: DungeonMap, seed: int, players: int) -> tuple[int, ...] | None:
    """The die rolls of the game ``play_game`` plays (one a round), on a map that needs the die."""
    if not dungeon.needs_die:
        return None
    game = deal(load_deck("doodles"), seed, solo=players == 1)
    return roll_rounds(game.seed, len(game.rounds))


def truth_sheet(dungeon: DungeonMap, board: Board, player: int, source: str) -> dict:
    """What is drawn on one sheet, as a sheet of the scan format (CONTRACTS.md section 3); on an expansion
    map with its ``marks``."""
    marks = {"marks": board.marks.to_json()} if dungeon.expansion_features() else {}
    return {"source": source, "map": map_reference(dungeon), "player": player,
            "rooms": board.rooms_json(), "unusable": board.unusable, **marks}
