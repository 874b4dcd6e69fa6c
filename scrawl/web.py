"""``scrawl serve``: the game-night page and the HTTP API it uses (FastAPI; the API is documented at /docs).

A game is its players, its map and the photos of its sheets, kept by
``scrawl.store``; ``scrawl.scoring`` scores them each time a game is asked for.
This module is the HTTP side: routes, uploads (size, type, at most two scans at
once), the overlay picture, the print links and the server's address.

Errors are ``{"detail": "one line a person can act on"}``; bad input never
gets a traceback or a 500.
"""
from __future__ import annotations

import io
import json
import logging
import re
import secrets
import tempfile
import threading
from functools import lru_cache
from pathlib import Path
from typing import Optional

from fastapi import FastAPI, File, HTTPException, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator

from games.errors import ScrawlError
from scrawl.scoring import (current_readings, dungeon_of, game_document, normal_reading, readings_json,
                            room_options, scored_game)
from scrawl.store import Store

PAGE_DIR = Path(__file__).with_name("page")
MAX_PHOTO = 25 * 1024 * 1024            # bytes; a phone's photo is 2-12 MB
MAX_BODY = MAX_PHOTO + 64 * 1024        # ... and the multipart wrapping around it
SCANS_AT_ONCE = 2                       # both cores; more would only make every phone wait longer
MAX_PLAYERS, MAX_NAME = 6, 24
MAX_SEED = 2 ** 53                      # the page's JavaScript numbers hold integers exactly up to here
PAPERS = ("a4", "letter")
TOO_LARGE = f"the photo is larger than {MAX_PHOTO // (1024 * 1024)} MB: send the phone's own photo, not a scan " \
            f"or a panorama"
NOT_AN_IMAGE = "not a photo: send a JPEG, PNG, WebP, HEIC or PDF of the sheet"

log = logging.getLogger("scrawl.serve")


# -- request bodies ------------------------------------------------------------------------------------
class NewGame(BaseModel):
    players: list[str] = Field(description="The players' names, in the order of their sheets (Player 1 first).")
    map: str = Field("classic", description='"classic" or "random".')
    seed: Optional[int] = Field(None, ge=0, le=MAX_SEED, description="A random map's seed; left out, one is chosen.")
    paper: str = Field("a4", description='"a4" or "letter".')

    @field_validator("players")
    @classmethod
    def _names(cls, players: list[str]) -> list[str]:
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"a game has 1 to {MAX_PLAYERS} players, not {len(players)}")
        names = [" ".join(name.split()) for name in players]
        for number, name in enumerate(names, start=1):
            if not name:
                raise ValueError(f"player {number} has no name")
            if len(name) > MAX_NAME:
                raise ValueError(f"player {number}'s name is {len(name)} characters long; at most {MAX_NAME}")
            if not name.isprintable():
                raise ValueError(f"player {number}'s name has a character that cannot be shown")
        twice = sorted({name for name in names if [n.casefold() for n in names].count(name.casefold()) > 1})
        if twice:
            raise ValueError(f"two players are called {twice[0]}: give them names the scoreboard can tell apart")
        return names

    @field_validator("map")
    @classmethod
    def _map(cls, name: str) -> str:
        return valid_map(name)

    @field_validator("paper")
    @classmethod
    def _paper(cls, paper: str) -> str:
        return valid_paper(paper)


def valid_map(name: str) -> str:
    """A map a game may be played on: a designed map's id, or random. Raises ``ValueError`` (never a path:
    ``choose_map`` would also read a map file)."""
    from games.mapfile import DESIGNED_MAPS

    if name not in DESIGNED_MAPS + ("random",):
        raise ValueError(f"unknown map {name!r}: choose {', '.join(DESIGNED_MAPS)} or random")
    return name


def valid_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}: choose a4 or letter")
    return paper


class RoomReadingBody(BaseModel):
    reading: str = Field(description='The sides the segment links to, like "NS" (any case or order); "X" for a '
                                     'Trap; "" for nothing drawn. One of the room\'s options.')


class TallyBody(BaseModel):
    count: int = Field(ge=0, le=40, description="The tally beside scoring item 6 (unusable cards).")


# -- the app ---------------------------------------------------------------------------------------------
def create_app(data_dir: Path, *, url: str | None = None) -> FastAPI:
    """The app, keeping its games in ``data_dir``. ``url`` is the address phones should open (shown on the
    page with its QR code); without it, the address the page was opened at."""
    store = Store(data_dir)
    scans = threading.BoundedSemaphore(SCANS_AT_ONCE)
    app = FastAPI(title="scrawl serve", version=_version(),
                  description="Game night in the browser: start a game, photograph each player's sheet, "
                              "correct a reading by tapping a room, and see the scoreboard with traps resolved "
                              "between players. Errors are `{\"detail\": \"one line\"}`.")
    app.state.store = store
    app.add_middleware(_UploadLimit)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(exc.errors())}, status_code=422)

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception) -> JSONResponse:
        # A bug, not bad input (that is answered above): the page still gets a line to show.
        return JSONResponse({"detail": f"the server failed ({type(exc).__name__}); its log says more"},
                            status_code=500)

    def game_or_404(gid: str) -> dict:
        game = store.game(gid)
        if game is None:
            raise HTTPException(404, "no such game")
        return game

    # -- the page -----------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        index = PAGE_DIR / "index.html"
        if not index.is_file():
            raise HTTPException(404, "the page is missing from this installation (scrawl/page/index.html)")
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/page", StaticFiles(directory=PAGE_DIR, check_dir=False), name="page")

    # -- the server and what can be played ------------------------------------------
    @app.get("/api/server", tags=["server"])
    def server(request: Request) -> dict:
        """The address phones should open, and its QR code as SVG."""
        address = url or str(request.base_url)
        return {"url": address, "qr_svg": qr_svg(address)}

    @app.get("/api/maps", tags=["server"])
    def maps() -> dict:
        """The maps a game can be played on, and the paper sizes sheets print on."""
        from games.mapfile import DESIGNED_MAPS, load_map

        def label(name: str) -> str:
            title = load_map(name).name
            return f"Map {name[3:]}: {title}" if name.startswith("map") else title

        return {"maps": [{"id": name, "name": label(name)} for name in DESIGNED_MAPS]
                + [{"id": "random", "name": "A random map"}], "papers": list(PAPERS)}

    # -- games ------------------------------------------------------------------
    @app.post("/api/games", status_code=201, tags=["games"], responses=_errors(422))
    def new_game(body: NewGame) -> dict:
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

    @app.get("/api/games", tags=["games"])
    def list_games() -> dict:
        """Every game, newest first."""
        return {"games": [{key: game[key] for key in ("id", "created", "players", "map", "sheets")}
                          for game in store.games()]}

    @app.get("/api/games/{gid}", tags=["games"], responses=_errors(404))
    def get_game(gid: str) -> dict:
        """A game: its photos, every sheet scored with what needs a look, and the scoreboard."""
        return game_document(store, game_or_404(gid))

    @app.get("/api/games/{gid}/export", tags=["games"], responses=_errors(404))
    def export(gid: str) -> JSONResponse:
        """The game as ``scrawl scan --json`` prints it (CONTRACTS.md section 3), corrections applied."""
        scored = scored_game(store, game_or_404(gid))
        return JSONResponse(scored.document, headers={"Content-Disposition": f'attachment; filename="game-{gid}.json"'})

    # -- photos -------------------------------------------------------------------
    @app.post("/api/games/{gid}/photos", status_code=201, tags=["photos"], responses=_errors(404, 413, 415, 422))
    async def upload(gid: str, photo: UploadFile = File(description="A photo of one or more sheets of this game.")
                     ) -> dict:
        """Read the sheets in a photo and add them to the game. A photo that cannot be read is kept with its
        error (422, the reason as detail), so the game shows it."""
        game = await run_in_threadpool(game_or_404, gid)
        data = await photo.read(MAX_PHOTO + 1)
        if len(data) > MAX_PHOTO:
            raise HTTPException(413, TOO_LARGE)
        if data and not is_image(data):
            raise HTTPException(415, NOT_AN_IMAGE)
        name = display_name(photo.filename)
        outcome = await run_in_threadpool(_scan, scans, data, name, game["map"])
        if any(sheet["player"] == 0 for sheet in outcome.sheets):      # read by the game's map, its QR unread
            from scanner.batch import number_unidentified

            stored = await run_in_threadpool(store.sheets, gid)
            number_unidentified(outcome.sheets, {sheet["sheet"].get("player") for sheet in stored})
        error = "; ".join(entry["error"] for entry in outcome.errors) or None
        sheets = [(sheet, readings_json(rooms, tally), page)
                  for sheet, (rooms, tally), page in zip(outcome.sheets, outcome.readings, outcome.pages)]
        _, added = await run_in_threadpool(store.add_photo, gid, name, data, error, sheets)
        if not added:
            raise HTTPException(422, error or "no sheet found in this photo")
        document = await run_in_threadpool(game_document, store, store.game(gid))
        return dict(document, added=added)

    @app.delete("/api/games/{gid}/photos/{pid}", tags=["photos"], responses=_errors(404))
    def delete_photo(gid: str, pid: str) -> dict:
        """Forget a photo and its sheets (before a retake)."""
        game = game_or_404(gid)
        if not store.delete_photo(gid, pid):
            raise HTTPException(404, "no such photo")
        return game_document(store, game)

    # -- corrections --------------------------------------------------------------
    def sheet_or_404(gid: str, sid: str) -> tuple[dict, dict]:
        game = game_or_404(gid)
        for sheet in store.sheets(gid):
            if sheet["id"] == sid:
                return game, sheet
        raise HTTPException(404, "no such sheet")

    def room_or_404(sheet: dict, room_name: str) -> tuple[str, list[str]]:
        from games.maps import Room

        dungeon = dungeon_of(json.dumps(sheet["sheet"]["map"], sort_keys=True))
        try:
            room = Room.parse(room_name)
        except ValueError:
            room = None
        if room is None or not dungeon.contains(room):
            raise HTTPException(404, f"no room {room_name} on this sheet's map")
        return room.name, room_options(dungeon, room)

    @app.put("/api/games/{gid}/sheets/{sid}/rooms/{room}", tags=["corrections"], responses=_errors(400, 404, 422))
    def correct_room(gid: str, sid: str, room: str, body: RoomReadingBody) -> dict:
        """Replace what was read in a room with what a person sees: one of the room's ``options``."""
        game, sheet = sheet_or_404(gid, sid)
        name, options = room_or_404(sheet, room)
        reading = normal_reading(body.reading)
        if reading not in options:
            shown = ", ".join(f'"{option}"' for option in options)
            raise HTTPException(400, f'"{body.reading}" cannot be drawn in {name}: it is one of {shown}')
        store.correct(gid, sid, lambda corrections: corrections["rooms"].update({name: reading}))
        return game_document(store, game)

    @app.delete("/api/games/{gid}/sheets/{sid}/rooms/{room}", tags=["corrections"], responses=_errors(404))
    def reset_room(gid: str, sid: str, room: str) -> dict:
        """Put back what the scanner read in a room."""
        game, sheet = sheet_or_404(gid, sid)
        name, _ = room_or_404(sheet, room)
        store.correct(gid, sid, lambda corrections: corrections["rooms"].pop(name, None))
        return game_document(store, game)

    @app.put("/api/games/{gid}/sheets/{sid}/tally", tags=["corrections"], responses=_errors(404, 422))
    def correct_tally(gid: str, sid: str, body: TallyBody) -> dict:
        """Replace the tally read beside scoring item 6 (unusable cards)."""
        game, _ = sheet_or_404(gid, sid)
        store.correct(gid, sid, lambda corrections: corrections.update(unusable=body.count))
        return game_document(store, game)

    @app.delete("/api/games/{gid}/sheets/{sid}/tally", tags=["corrections"], responses=_errors(404))
    def reset_tally(gid: str, sid: str) -> dict:
        """Put back the tally the scanner read."""
        game, _ = sheet_or_404(gid, sid)
        store.correct(gid, sid, lambda corrections: corrections.update(unusable=None))
        return game_document(store, game)

    @app.get("/api/games/{gid}/sheets/{sid}/overlay.png", tags=["photos"], response_class=Response,
             responses={200: {"content": {"image/png": {}}}, **_errors(404)})
    def overlay(gid: str, sid: str) -> Response:
        """What was read (corrections included) drawn over the sheet, with what needs a look ringed."""
        from scanner.overlay import overlay_picture

        game = game_or_404(gid)
        page_png = store.page(gid, sid)
        if page_png is None:
            raise HTTPException(404, "no such sheet")
        scored = scored_game(store, game)
        stored = next((sheet for sheet in scored.stored if sheet["id"] == sid), None)
        if stored is None:
            raise HTTPException(404, "no such sheet")
        rooms, tally = current_readings(stored["readings"], stored["corrections"])
        sheet = scored.by_id.get(sid) or scored.unscored[sid]
        picture = overlay_picture(page_png, sheet, rooms, tally, sheet)
        return Response(_small_png(picture), media_type="image/png", headers={"Cache-Control": "no-store"})

    # -- printing -----------------------------------------------------------------
    @app.get("/print/sheets.pdf", tags=["print"], response_class=Response,
             responses={200: {"content": {"application/pdf": {}}}, **_errors(422)})
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

    @app.get("/print/deck/{name}.pdf", tags=["print"], response_class=Response,
             responses={200: {"content": {"application/pdf": {}}}, **_errors(404, 422)})
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

    return app


# -- uploads ---------------------------------------------------------------------------------------------
class _UploadLimit:
    """Refuse a photo upload over ``MAX_BODY`` bytes with 413, before or while it arrives: a phone or a
    script on the shared network cannot fill the disk."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].endswith("/photos"):
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"")
        if length.isdigit() and int(length) > MAX_BODY:
            await JSONResponse({"detail": TOO_LARGE}, status_code=413)(scope, receive, send)
            return
        received = 0

        async def limited():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > MAX_BODY:
                raise HTTPException(413, TOO_LARGE)    # raised inside the form parsing, answered as any 413
            return message

        await self.app(scope, limited, send)


def is_image(data: bytes) -> bool:
    """Whether a file's first bytes are those of a JPEG, PNG, WebP, HEIC/HEIF or PDF."""
    return (data[:3] == b"\xff\xd8\xff" or data[:8] == b"\x89PNG\r\n\x1a\n"
            or (data[:4] == b"RIFF" and data[8:12] == b"WEBP") or data[:5] == b"%PDF-"
            or (data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS))


_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"hevm", b"hevs", b"mif1", b"msf1"}


def display_name(filename: str | None) -> str:
    """A client's file name, for display only: its last part, printable characters, at most 80."""
    last = re.split(r"[\\/]", filename or "")[-1]
    return "".join(ch for ch in last if ch.isprintable()).strip()[:80] or "photo"


def _scan(scans: threading.BoundedSemaphore, data: bytes, name: str, map_reference: dict):
    """Read one upload, ``SCANS_AT_ONCE`` at most at a time, a sheet whose QR code cannot be read as one of
    the game's map; a crash in the scanner becomes the photo's error."""
    from scanner.batch import PhotoOutcome
    from scrawl.service import scan_upload

    with scans:
        try:
            return scan_upload(data, name, map_reference)
        except Exception as exc:  # a bug must not cost the photo: it is kept, with this as its error
            log.exception("the scanner failed on %s", name)
            return PhotoOutcome(name, errors=[{"source": name, "error": f"the scanner failed on this photo "
                                                                      f"({type(exc).__name__}); please report it "
                                                                      f"with the photo"}])


# -- printing ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _sheets_pdf(map_name: str, seed: int | None, players: int, paper: str) -> tuple[bytes, str]:
    from games.mapfile import choose_map
    from sheets.dungeon import sheet_layout
    from generator.sheet import render_sheets
    from scanner.batch import PDF_LOCK

    dungeon = choose_map(map_name, seed)
    buffer = io.BytesIO()
    with PDF_LOCK:
        render_sheets(sheet_layout(dungeon, paper), players, buffer)
    name = f"random-{dungeon.seed}" if dungeon.seed is not None else dungeon.id
    return buffer.getvalue(), f"sheet-{name}-{paper}.pdf"


@lru_cache(maxsize=8)
def _deck_pdf(name: str, paper: str) -> bytes:
    from games.cards import load_deck
    from generator.deck import render_deck
    from scanner.batch import PDF_LOCK

    with tempfile.TemporaryDirectory() as folder, PDF_LOCK:
        path = Path(folder) / "deck.pdf"
        render_deck(load_deck(name), path, paper=paper)
        return path.read_bytes()


# -- the address and its QR code -------------------------------------------------------------------------
def server_url(host: str, port: int) -> str:
    """The address phones should open: this computer's address on the network when serving on every
    interface, else the host given."""
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def lan_address() -> str:
    """This computer's address on the local network (no packet is sent), or 127.0.0.1 without one."""
    import socket

    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))     # picks the interface a LAN packet would leave by
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


@lru_cache(maxsize=8)
def qr_svg(text: str) -> str:
    """``text`` as a QR code: an SVG of dark squares (runs of modules) on white, with a quiet zone."""
    from generator.sheet import qr_runs

    (count, dark), quiet = qr_runs(text), 4
    runs = [f"M{start + quiet} {row + quiet}h{end - start}v1h-{end - start}z" for row, start, end in dark]
    size = count + 2 * quiet
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges" '
            f'role="img" aria-label="QR code: {_xml(text)}"><rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>')


def _small_png(picture) -> bytes:
    """An RGB picture as a PNG of 128 colours: the overlay is a faded photo under a few flat colours,
    so this looks the same at an eighth of the bytes (about 200 KB instead of 1.6 MB), which matters
    when every phone at the table fetches it again after each correction."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(picture).quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG")
    return buffer.getvalue()


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# -- small helpers ----------------------------------------------------------------------------------------
def _one_line(errors) -> str:
    """Pydantic's validation errors as one line: ``players: a game has 1 to 6 players, not 7``."""
    parts = []
    for error in errors:
        where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body", "query", "path"))
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        if error.get("type") == "json_invalid":
            where, message = "", "the body is not valid JSON"
        elif error.get("type") == "missing":
            message = "missing"
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts) or "invalid request"


_STATUS_WORDS = {400: "A reading that cannot be drawn there", 404: "No such game, sheet, photo or room",
                 413: "The photo is over 25 MB", 415: "Not an image", 422: "Invalid input, or a photo that cannot be read"}


def _errors(*codes: int) -> dict:
    """OpenAPI documentation of the error answers a route gives."""
    return {code: {"description": _STATUS_WORDS[code], "content": {"application/json": {
        "example": {"detail": "one line a person can act on"}}}} for code in codes}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dungeon-scrawl")
    except PackageNotFoundError:
        return "dev"
