"""``scrawl serve``: the game-night page and the HTTP API it uses (FastAPI; the API is described at /openapi.json).

A game is its players, its map and the photos of its sheets, kept by
``scrawl.store``; ``scrawl.scoring`` scores them each time a game is asked for.
This module makes the app: the page, the routers of ``scrawl.api`` (the
server, games, photos, corrections, printing, results), the guard in front of
them (``scrawl.guard``: join code, bounded bodies, headers, access log) and the
error answers; and the server's address for phones. The API is described at
``/openapi.json``.

Errors are ``{"detail": "one line a person can act on"}``; bad input never
gets a traceback or a 500.
"""
from __future__ import annotations

import threading
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from scrawl.api import battles, corrections, games, makers, photos, printing, results, server
from scrawl.api.common import SCANS_AT_ONCE
from scrawl.guard import Guard, GuardSettings
from scrawl.store import Store

PAGE_DIR = Path(__file__).with_name("page")


def create_app(data_dir: Path, *, url: str | None = None, guard: GuardSettings | None = None) -> FastAPI:
    """The app, keeping its games in ``data_dir``. ``url`` is the address phones should open (shown on the
    page with its QR code); without it, the address the page was opened at. ``guard`` says how it is
    guarded (``scrawl.guard``: the join code, the host's token, the access log); without it, bodies are
    bounded and nothing else is asked (a server for this computer's tests)."""
    app = FastAPI(title="scrawl serve", version=_version(), docs_url=None, redoc_url=None,   # /docs needs a CDN
                  description="Game night in the browser: start a game, photograph each player's sheet, "
                              "correct a reading by tapping a room, and see the scoreboard with traps resolved "
                              "between players. Errors are `{\"detail\": \"one line\"}`.")
    app.state.store = Store(data_dir)
    app.state.scans = threading.BoundedSemaphore(SCANS_AT_ONCE)
    app.state.url = url
    app.add_middleware(Guard, settings=guard or GuardSettings(any_host=True))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(exc.errors())}, status_code=422)

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception) -> JSONResponse:
        # A bug, not bad input (that is answered above): the page still gets a line to show.
        return JSONResponse({"detail": f"the server failed ({type(exc).__name__}); its log says more"},
                            status_code=500)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        index = PAGE_DIR / "index.html"
        if not index.is_file():
            raise HTTPException(404, "the page is missing from this installation (scrawl/page/index.html)")
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/page", StaticFiles(directory=PAGE_DIR, check_dir=False), name="page")
    for part in (server, games, photos, corrections, battles, makers, printing, results):
        app.include_router(part.router)
    return app


# -- the address -----------------------------------------------------------------------------------------
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


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dungeon-scrawl")
    except PackageNotFoundError:
        return "dev"
