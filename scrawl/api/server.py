"""The server's address for phones (with its QR code), and what can be played."""
from __future__ import annotations

from functools import lru_cache

from fastapi import APIRouter, Request

from scrawl.api.common import PAPERS, StoreDep, errors, game_or_404

router = APIRouter(tags=["server"])


@router.get("/api/server")
def server(request: Request) -> dict:
    """The address phones should open, and its QR code as SVG."""
    address = request.app.state.url or str(request.base_url)
    return {"url": address, "qr_svg": qr_svg(address)}


@router.get("/api/games/{gid}/join", responses=errors(404))
def join(gid: str, request: Request, store: StoreDep) -> dict:
    """The address of one game's page, and its QR code as SVG: a phone that scans it opens that game."""
    game_or_404(store, gid)
    address = (request.app.state.url or str(request.base_url)).rstrip("/") + f"/#/game/{gid}"
    return {"url": address, "qr_svg": qr_svg(address)}


@router.get("/api/maps")
def maps() -> dict:
    """The maps a game can be played on, and the paper sizes sheets print on."""
    from games.mapfile import DESIGNED_MAPS, load_map

    def label(name: str) -> str:
        title = load_map(name).name
        return f"Map {name[3:]}: {title}" if name.startswith("map") else title

    return {"maps": [{"id": name, "name": label(name)} for name in DESIGNED_MAPS]
            + [{"id": "random", "name": "A random map"}], "papers": list(PAPERS)}


@lru_cache(maxsize=8)
def qr_svg(text: str) -> str:
    """``text`` as a QR code: an SVG of dark squares (runs of modules) on white, with a quiet zone."""
    from generator.page import qr_runs

    (count, dark), quiet = qr_runs(text), 4
    runs = [f"M{start + quiet} {row + quiet}h{end - start}v1h-{end - start}z" for row, start, end in dark]
    size = count + 2 * quiet
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges" '
            f'role="img" aria-label="QR code: {_xml(text)}"><rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>')


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
