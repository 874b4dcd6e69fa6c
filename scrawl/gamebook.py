"""The game book: every game ``scrawl sheet`` printed on this machine, by its code.

A sheet's QR code carries its game's code, not its players' names (they would
make the code too dense to read from a photo). So ``scrawl sheet`` writes
each printed game (code, map, paper, players, names) here, and ``scrawl
scan`` looks the codes it reads up, wherever it runs, to name the players.

The book is one JSON file, ``games.json``, in the user's data folder
(``$SCRAWL_DATA``, else ``$XDG_DATA_HOME/dungeon-scrawl``, else
``~/.local/share/dungeon-scrawl``; on Windows ``%APPDATA%/dungeon-scrawl``).
It keeps the ``MOST_KEPT`` games printed last. A book that cannot be read
or written costs only the names: the scan still scores.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

FORMAT = "scrawl.game-book/1"
MOST_KEPT = 2000        # games; a game is about 150 bytes


@dataclass(frozen=True)
class PrintedGame:
    code: str
    map: dict = field(default_factory=dict)        # the map's reference (``games.mapfile.map_reference``)
    paper: str = ""
    players: int = 0
    names: tuple[str, ...] = ()
    printed: str = ""                               # when, ISO 8601 (UTC)

    def name_of(self, player: int | None) -> str | None:
        return self.names[player - 1] if player and 0 < player <= len(self.names) else None

    def to_json(self) -> dict:
        return {"code": self.code, "map": self.map, "paper": self.paper, "players": self.players,
                "names": list(self.names), "printed": self.printed}


def folder() -> Path:
    """Where the user's data lives (the game book)."""
    if os.environ.get("SCRAWL_DATA"):
        return Path(os.environ["SCRAWL_DATA"])
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "dungeon-scrawl"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "dungeon-scrawl"


def book_path() -> Path:
    return folder() / "games.json"


def read_book() -> dict[str, PrintedGame]:
    """The games printed on this machine, by code; empty when there is no book or it cannot be read."""
    try:
        document = json.loads(book_path().read_text(encoding="utf-8"))
        games = document["games"] if isinstance(document, dict) else []
        return {entry["code"]: PrintedGame(code=str(entry["code"]), map=dict(entry.get("map") or {}),
                                           paper=str(entry.get("paper", "")), players=int(entry.get("players", 0)),
                                           names=tuple(str(name) for name in entry.get("names", [])),
                                           printed=str(entry.get("printed", "")))
                for entry in games if isinstance(entry, dict) and isinstance(entry.get("code"), str)}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def record_game(game: PrintedGame) -> str | None:
    """Write ``game`` into the book (a game of the same code is replaced). Returns None, or a line saying why
    the book could not be written (the sheets are printed all the same)."""
    if not game.printed:
        game = PrintedGame(game.code, game.map, game.paper, game.players, game.names,
                           datetime.now(timezone.utc).isoformat(timespec="seconds"))
    games = read_book()
    games.pop(game.code, None)
    games[game.code] = game
    kept = list(games.values())[-MOST_KEPT:]
    path = book_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, suffix=".tmp",
                                         delete=False) as out:
            json.dump({"format": FORMAT, "games": [entry.to_json() for entry in kept]}, out, ensure_ascii=False,
                      indent=1)
        os.replace(out.name, path)
    except OSError as exc:
        return f"the game book {path} could not be written ({exc.strerror or exc}): names will not be read " \
               f"back by 'scrawl scan'; give them with --names"
    return None


NAME_MAX = 40           # characters of one player's name


def parse_names(text: str, most: int = 20) -> tuple[str, ...]:
    """Players' names given as "Ann,Bo,Cy". Raises ``ValueError`` saying what is wrong with them."""
    names = tuple(" ".join(part.split()) for part in str(text).split(","))
    if not any(names):
        raise ValueError("no names given: write them as --names \"Ann,Bo,Cy\"")
    if not all(names):
        raise ValueError(f"an empty name in {text!r}: write the names as --names \"Ann,Bo,Cy\"")
    if len(names) > most:
        raise ValueError(f"{len(names)} names, but at most {most} players")
    long = next((name for name in names if len(name) > NAME_MAX), None)
    if long:
        raise ValueError(f"the name {long[:20]!r}... is over {NAME_MAX} characters")
    if len({name.casefold() for name in names}) < len(names):
        raise ValueError(f"two players have the same name in {text!r}: give each player a name of their own")
    return names
