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
    """The address of one game's page, and its QR code as SVG: a phone that scans it opens that game. It is
    the server's address for phones with the game's page after ``#``: behind ``scrawl serve``'s join link
    (``/join/CODE``, which sets the join code and redirects), the browser keeps the ``#`` part."""
    game_or_404(store, gid)
    address = f"{request.app.state.url or request.base_url}#/game/{gid}"
    return {"url": address, "qr_svg": qr_svg(address)}


@router.get("/api/maps")
def maps() -> dict:
    """The maps a game can be played on, and the paper sizes sheets print on."""
    from games.mapfile import DESIGNED_MAPS, load_map

    def label(name: str) -> str:
        title = load_map(name).name
        return f"Map {name[3:]}: {title}" if name.startswith("map") else title

    notes, before = {}, frozenset()
    for name in DESIGNED_MAPS:      # each expansion map adds an element to the one before it
        dungeon = load_map(name)
        notes[name] = map_note(dungeon, before)
        before = dungeon.expansion_features() if name.startswith("map") else before
    return {"maps": [{"id": name, "name": label(name), "note": notes[name]} for name in DESIGNED_MAPS]
            + [{"id": "random", "name": "A random map", "note": "new every seed"}], "papers": list(PAPERS)}


_FEATURE_WORDS = {"caves": "caves", "diamonds": "Diamonds", "doors": "Magic Doors", "skull": "the Skull",
                  "emeralds": "Emeralds", "runes": "Rune Gates"}


def map_note(dungeon, before: frozenset = frozenset()) -> str:
    """What a map adds to a map with the features ``before``, in a few words: "adds Emeralds; with the die"."""
    if dungeon.id == "classic":
        return "the classic map"
    features = dungeon.expansion_features()
    if not features:
        return "a plain map"
    new = [word for name, word in _FEATURE_WORDS.items() if name in features - before]
    die = " (with the die)" if dungeon.needs_die else ""
    return f"adds {', '.join(new)}{die}" if new else f"the same elements, another dungeon{die}"


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
