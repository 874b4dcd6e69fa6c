"""Printing: the map sheets and the card decks as PDF, as ``scrawl sheet`` and ``scrawl deck`` make them."""
from __future__ import annotations

import io
import json
import re
import secrets
import tempfile
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import Response

from scrawl.api.common import StoreDep, errors, game_or_404, valid_map, valid_paper

router = APIRouter(tags=["print"])


@router.get("/print/sheets.pdf", response_class=Response,
            responses={200: {"content": {"application/pdf": {}}}, **errors(422)})
def print_sheets(map_name: str = Query("classic", alias="map", description='"classic" or "random".'),
                 seed: str = Query("", description="A random map's seed; empty for a new one."),
                 players: int = Query(1, ge=1, le=20, description="Pages, one per player."),
                 paper: str = Query("a4", description='"a4" or "letter".')) -> Response:
    """The map sheets to print, one page per player (``scrawl sheet``)."""
    for key, check, value in (("map", valid_map, map_name), ("paper", valid_paper, paper)):
        try:
            check(value)
        except ValueError as exc:
            raise HTTPException(422, f"{key}: {exc}") from None
    number = None
    if map_name == "random":
        if not re.fullmatch(r"\s*\d{0,16}\s*", seed):
            raise HTTPException(422, f"seed: {seed!r} is not a seed: a whole number, or nothing for a new map")
        number = int(seed) if seed.strip() else secrets.randbelow(1_000_000)
    pdf, name = _sheets_pdf(map_name, number, players, paper)
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{name}"'})


@router.get("/print/games/{gid}/sheets.pdf", response_class=Response,
            responses={200: {"content": {"application/pdf": {}}}, **errors(404)})
def print_game_sheets(gid: str, store: StoreDep) -> Response:
    """A game's map sheets, one page per player with the player's name and the game's code (in its QR code
    too), so that a sheet of another game is told apart when it is photographed."""
    game = game_or_404(store, gid)
    if game["kind"] == "maker":
        pdf, name = _maker_pdf(game["paper"], int(game.get("seed") or 0), len(game["players"]))
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{name}"'})
    if game["kind"] == "monster":
        pdf, name = _monster_pdf(game["paper"], len(game["players"]))
        return Response(pdf, media_type="application/pdf",
                        headers={"Content-Disposition": f'inline; filename="{name}"'})
    pdf, name = _game_pdf(json.dumps(game["map"], sort_keys=True), game["paper"], game["code"],
                          tuple(game["players"]))
    return Response(pdf, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})


@router.get("/print/deck/{name}.pdf", response_class=Response,
            responses={200: {"content": {"application/pdf": {}}}, **errors(404, 422)})
def print_deck(name: str, paper: str = Query("a4", description='"a4" or "letter".')) -> Response:
    """A card deck to print and cut: doodles, traps or monsters-reference (``scrawl deck``)."""
    from games.cards import DECKS

    if name not in DECKS:
        raise HTTPException(404, f"no deck {name!r}: the decks are {', '.join(DECKS)}")
    try:
        valid_paper(paper)
    except ValueError as exc:
        raise HTTPException(422, f"paper: {exc}") from None
    return Response(_deck_pdf(name, paper), media_type="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="deck-{name}-{paper}.pdf"'})


@lru_cache(maxsize=16)
def _sheets_pdf(map_name: str, seed: int | None, players: int, paper: str) -> tuple[bytes, str]:
    from games.mapfile import choose_map
    from sheets.dungeon import sheet_layout
    from generator.sheet import render_sheets
    from scanner.batch import PDF_LOCK
    from scrawl.blanks import keep_blank

    dungeon = choose_map(map_name, seed)
    layout = sheet_layout(dungeon, paper)
    buffer = io.BytesIO()
    with PDF_LOCK:
        render_sheets(layout, players, buffer)
        keep_blank("map", layout)       # the game's photos are then read without drawing it again
    name = f"random-{dungeon.seed}" if dungeon.seed is not None else dungeon.id
    return buffer.getvalue(), f"sheet-{name}-{paper}.pdf"


@lru_cache(maxsize=16)
def _game_pdf(reference: str, paper: str, code: str, names: tuple[str, ...]) -> tuple[bytes, str]:
    from sheets.dungeon import sheet_layout
    from generator.sheet import render_sheets
    from scanner.batch import PDF_LOCK
    from scrawl.blanks import keep_blank
    from scrawl.scoring import dungeon_of

    dungeon = dungeon_of(reference)
    layout = sheet_layout(dungeon, paper)
    buffer = io.BytesIO()
    with PDF_LOCK:
        render_sheets(layout, len(names), buffer, code, names)
        keep_blank("map", layout)       # the game's photos are then read without drawing it again
    name = f"random-{dungeon.seed}" if dungeon.seed is not None else dungeon.id
    return buffer.getvalue(), f"sheet-{name}-{paper}-game-{code}.pdf"


@lru_cache(maxsize=4)
def _monster_pdf(paper: str, players: int) -> tuple[bytes, str]:
    """A monster battle's record sheets, one page per player (``scrawl monsters``)."""
    from generator.monster_sheet import render_monster_sheets
    from scanner.batch import PDF_LOCK
    from scrawl.blanks import keep_blank
    from sheets.roster import monster_layout

    layouts = [monster_layout(paper, player) for player in range(1, players + 1)]
    buffer = io.BytesIO()
    with PDF_LOCK:
        render_monster_sheets(layouts, buffer)
        for layout in layouts:      # its photos are then read without drawing it again
            keep_blank("monster", layout)
    return buffer.getvalue(), f"monsters-{paper}.pdf"


@lru_cache(maxsize=4)
def _maker_pdf(paper: str, seed: int, players: int) -> tuple[bytes, str]:
    """A Dungeon Maker game's sheets, one loot layout per player: page N of loot seed ``seed`` is player N's
    (``scrawl loot --seed SEED --count PLAYERS``)."""
    from games.maker import roll_loot
    from generator.maker_sheet import render_maker_sheets
    from scanner.batch import PDF_LOCK
    from scrawl.blanks import keep_blank
    from sheets.maker import maker_layout

    layouts = [maker_layout(roll_loot(seed, page), paper) for page in range(1, players + 1)]
    buffer = io.BytesIO()
    with PDF_LOCK:
        render_maker_sheets(layouts, buffer)
        for layout in layouts:      # its photos are then read without drawing it again
            keep_blank("maker", layout)
    return buffer.getvalue(), f"loot-{seed}-{paper}.pdf"


@lru_cache(maxsize=8)
def _deck_pdf(name: str, paper: str) -> bytes:
    from games.cards import load_deck
    from generator.deck import render_deck
    from scanner.batch import PDF_LOCK

    with tempfile.TemporaryDirectory() as folder, PDF_LOCK:
        path = Path(folder) / "deck.pdf"
        render_deck(load_deck(name), path, paper=paper)
        return path.read_bytes()
