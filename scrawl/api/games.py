"""Games: start one, list them, show one scored, export it."""
from __future__ import annotations

import secrets

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse

from games.errors import ScrawlError
from scrawl.api.common import NewGame, StoreDep, errors, game_or_404
from scrawl.scoring import game_document, scored_game

router = APIRouter(tags=["games"])


@router.post("/api/games", status_code=201, responses=errors(422))
def new_game(body: NewGame, store: StoreDep) -> dict:
    """Start a game: 1 to 6 players, a map (a random map without a seed gets one) and a paper size."""
    from games.mapfile import choose_map, map_reference

    seed = body.seed if body.map == "random" else None     # a designed map is always the same
    if body.map == "random" and seed is None:
        seed = secrets.randbelow(1_000_000)
    try:
        dungeon = choose_map(body.map, seed)
    except (ScrawlError, ValueError) as exc:
        raise HTTPException(422, str(exc)) from None
    game = store.add_game(body.players, map_reference(dungeon), body.paper)
    return game_document(store, game)


@router.get("/api/games")
def list_games(store: StoreDep) -> dict:
    """Every game, newest first."""
    return {"games": [{key: game[key] for key in ("id", "created", "players", "map", "sheets")}
                      for game in store.games()]}


@router.get("/api/games/{gid}", responses=errors(404))
def get_game(gid: str, store: StoreDep) -> dict:
    """A game: its photos, every sheet scored with what needs a look, and the scoreboard."""
    return game_document(store, game_or_404(store, gid))


@router.get("/api/games/{gid}/export", responses=errors(404))
def export(gid: str, store: StoreDep) -> JSONResponse:
    """The game as ``scrawl scan --json`` prints it (CONTRACTS.md section 3), corrections applied."""
    scored = scored_game(store, game_or_404(store, gid))
    return JSONResponse(scored.document, headers={"Content-Disposition": f'attachment; filename="game-{gid}.json"'})
