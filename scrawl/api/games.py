"""Games: start one, list them, show one scored (and, as server-sent events, each time it changes), export
it, and roll the die of a map played with it."""
from __future__ import annotations

import secrets

import asyncio
import random

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, StreamingResponse

from games.errors import ScrawlError
from scrawl.api.common import NewGame, RollsBody, StoreDep, errors, game_or_404
from scrawl.scoring import die_view, game_document, scored_game

router = APIRouter(tags=["games"])


@router.post("/api/games", status_code=201, responses=errors(422))
def new_game(body: NewGame, store: StoreDep) -> dict:
    """Start a game: the dungeon map game (``kind`` "map"), a monster battle ("monster", two players) or a
    Dungeon Maker game ("maker", 2 to 6 players, ``seed`` the loot seed of its sheets); 1 to 6 players, a map (a random map without a seed gets one), a paper size, and the game
    code of sheets printed already (else a new code, printed on the sheets the game's print link makes)."""
    from games.mapfile import choose_map, map_reference

    if body.kind == "monster":      # no map: the battle's seed is its dice
        game = store.add_game(body.players, {}, body.paper, body.code, kind="monster",
                              seed=secrets.randbelow(1_000_000))
        return game_document(store, game)
    if body.kind == "maker":        # no map: the seed is the sheets' loot layouts, one page per player
        seed = body.seed if body.seed is not None else secrets.randbelow(1_000_000)
        game = store.add_game(body.players, {}, body.paper, body.code, kind="maker", seed=seed)
        return game_document(store, game)
    seed = body.seed if body.map == "random" else None     # a designed map is always the same
    if body.map == "random" and seed is None:
        seed = secrets.randbelow(1_000_000)
    try:
        dungeon = choose_map(body.map, seed)
    except (ScrawlError, ValueError) as exc:
        raise HTTPException(422, str(exc)) from None
    game = store.add_game(body.players, map_reference(dungeon), body.paper, body.code)
    return game_document(store, game)


@router.get("/api/games")
def list_games(store: StoreDep) -> dict:
    """Every game, newest first."""
    return {"games": [{key: game[key] for key in ("id", "created", "players", "map", "sheets", "kind")}
                      for game in store.games()]}


@router.get("/api/games/{gid}", responses=errors(404))
def get_game(gid: str, store: StoreDep) -> dict:
    """A game: its photos, every sheet scored with what needs a look, and the scoreboard."""
    return game_document(store, game_or_404(store, gid))


@router.get("/api/games/{gid}/export", responses=errors(404))
def export(gid: str, store: StoreDep) -> JSONResponse:
    """The game as ``scrawl scan --json`` prints it (CONTRACTS.md section 3), corrections applied: a monster
    battle's rosters under ``rosters``, for ``scrawl battle``."""
    game = game_or_404(store, gid)
    if game["kind"] == "monster":
        from scrawl.api.rosters import export_document

        document = export_document(store, game)
    elif game["kind"] == "maker":
        from scrawl.api.dungeons import export_document as dungeons_export

        document = dungeons_export(store, game)
    else:
        document = scored_game(store, game).document
    return JSONResponse(document, headers={"Content-Disposition": f'attachment; filename="game-{gid}.json"'})


EVENTS_FOR = 300.0          # seconds an event stream stays open; the browser's EventSource then opens another
EVENT_CHECK = 0.25          # seconds between looks at the game's change count
KEEP_ALIVE = 15.0           # seconds between comments that keep a quiet stream open through proxies


@router.get("/api/games/{gid}/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}}}, **errors(404)})
async def events(gid: str, request: Request, store: StoreDep) -> StreamingResponse:
    """Server-sent events: a ``change`` event each time the game changes (a photo, a correction, a roll),
    so the page fetches it again at once instead of polling."""
    game_or_404(store, gid)

    async def stream():
        seen, quiet, opened = store.version(gid), 0.0, asyncio.get_running_loop().time()
        yield f"retry: 2000\nevent: hello\ndata: {seen}\n\n"
        while asyncio.get_running_loop().time() - opened < EVENTS_FOR and not await request.is_disconnected():
            await asyncio.sleep(EVENT_CHECK)
            now = store.version(gid)
            if now != seen:
                seen, quiet = now, 0.0
                yield f"event: change\ndata: {now}\n\n"
            else:
                quiet += EVENT_CHECK
                if quiet >= KEEP_ALIVE:
                    quiet = 0.0
                    yield ": still here\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.post("/api/games/{gid}/rolls", responses=errors(404, 409))
def roll(gid: str, store: StoreDep) -> dict:
    """Roll the die for the next round (maps 2-6): the answer's ``die`` says what each roll does."""
    game = _die_game(store, gid)
    rounds = die_view(game)["rounds"]
    if len(game["rolls"]) >= rounds:
        raise HTTPException(409, f"all {rounds} rounds are rolled: take the last roll back to roll it again")
    die = {face["number"] for face in die_view(game)["faces"]}
    store.set_rolls(gid, lambda rolls: rolls + [random.SystemRandom().choice(sorted(die))])
    return game_document(store, store.game(gid))


@router.put("/api/games/{gid}/rolls", responses=errors(404, 422))
def set_rolls(gid: str, body: RollsBody, store: StoreDep) -> dict:
    """The rolls of a die rolled at the table, one a round, in round order (replacing those kept)."""
    _die_game(store, gid)
    store.set_rolls(gid, lambda rolls: list(body.rolls))
    return game_document(store, store.game(gid))


@router.delete("/api/games/{gid}/rolls/last", responses=errors(404))
def unroll(gid: str, store: StoreDep) -> dict:
    """Take the last roll back."""
    _die_game(store, gid)
    store.set_rolls(gid, lambda rolls: rolls[:-1])
    return game_document(store, store.game(gid))


def _die_game(store, gid: str) -> dict:
    game = game_or_404(store, gid)
    if game["kind"] == "monster":
        raise HTTPException(404, "a monster battle rolls its dice itself: the die is for maps 2-6")
    if game["kind"] == "maker":
        raise HTTPException(404, "Dungeon Maker is played with two dice at the table: the die is for maps 2-6")
    if die_view(game) is None:
        raise HTTPException(404, "this game's map is played without the die (maps 2-6 use it)")
    return game
