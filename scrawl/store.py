"""Where ``scrawl serve`` keeps its games: one SQLite file, so a restart in the middle of a game night
loses nothing.

Games, the photos uploaded to them (the bytes themselves, and why a photo could
not be read), and the sheets read from each photo: the unscored scan-format
sheet, the readings behind it, the rectified page for the overlay picture, and
the corrections a person made. Scoring is not stored: it is redone from these.

One connection per operation, so any thread may call any method; the database
is in WAL mode, so readers never wait for a writer. Ids are random and
URL-safe; nothing a client sends is ever used as a path.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, created TEXT NOT NULL, players TEXT NOT NULL, map TEXT NOT NULL, paper TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS photos (
    id TEXT PRIMARY KEY, game_id TEXT NOT NULL REFERENCES games(id), uploaded TEXT NOT NULL, name TEXT NOT NULL,
    data BLOB NOT NULL, error TEXT);
CREATE TABLE IF NOT EXISTS sheets (
    id TEXT PRIMARY KEY, photo_id TEXT NOT NULL REFERENCES photos(id), game_id TEXT NOT NULL REFERENCES games(id),
    sheet TEXT NOT NULL, readings TEXT NOT NULL, page BLOB NOT NULL, corrections TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS photos_of_game ON photos(game_id);
CREATE INDEX IF NOT EXISTS sheets_of_game ON sheets(game_id);
"""

NO_CORRECTIONS = {"rooms": {}, "unusable": None}


def new_id() -> str:
    return secrets.token_urlsafe(6)


def now() -> str:
    return datetime.now().isoformat(timespec="seconds")


class Store:
    """The games of one data folder (``FOLDER/scrawl.db``)."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / "scrawl.db"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")       # kept in the file: every later connection has it
            db.executescript(SCHEMA)
        finally:
            db.close()

    @contextmanager
    def _connect(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection for one operation: committed if it ends well, rolled back if not, then closed.
        ``write`` takes the write lock at once, so a read-modify-write is not interleaved with another."""
        db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        db.row_factory = sqlite3.Row
        try:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()

    # -- games ------------------------------------------------------------
    def add_game(self, players: list[str], map_ref: dict, paper: str) -> dict:
        game = {"id": new_id(), "created": now(), "players": list(players), "map": dict(map_ref), "paper": paper}
        with self._connect(write=True) as db:
            db.execute("INSERT INTO games (id, created, players, map, paper) VALUES (?, ?, ?, ?, ?)",
                       (game["id"], game["created"], json.dumps(game["players"]), json.dumps(game["map"]), paper))
        return game

    def game(self, game_id: str) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game(row) if row is not None else None

    def games(self) -> list[dict]:
        """Every game, newest first, with its number of sheets."""
        with self._connect() as db:
            rows = db.execute("SELECT games.*, (SELECT COUNT(*) FROM sheets WHERE sheets.game_id = games.id) AS n "
                              "FROM games ORDER BY created DESC, rowid DESC").fetchall()
        return [dict(_game(row), sheets=row["n"]) for row in rows]

    # -- photos and their sheets -------------------------------------------
    def add_photo(self, game_id: str, name: str, data: bytes, error: str | None,
                  sheets: list[tuple[dict, dict, bytes]]) -> tuple[str, list[str]]:
        """Keep one uploaded photo and the sheets read from it, as ``(sheet, readings, page PNG)``, all at
        once. Returns the photo's id and the sheets' ids."""
        photo_id = new_id()
        sheet_ids = [new_id() for _ in sheets]
        with self._connect(write=True) as db:
            db.execute("INSERT INTO photos (id, game_id, uploaded, name, data, error) VALUES (?, ?, ?, ?, ?, ?)",
                       (photo_id, game_id, now(), name, data, error))
            db.executemany("INSERT INTO sheets (id, photo_id, game_id, sheet, readings, page, corrections) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(sheet_id, photo_id, game_id, json.dumps(sheet), json.dumps(readings), page,
                             json.dumps(NO_CORRECTIONS)) for sheet_id, (sheet, readings, page) in zip(sheet_ids, sheets)])
        return photo_id, sheet_ids

    def photos(self, game_id: str) -> list[dict]:
        """A game's photos in upload order, without their bytes."""
        with self._connect() as db:
            rows = db.execute("SELECT id, uploaded, name, error FROM photos WHERE game_id = ? ORDER BY rowid",
                              (game_id,)).fetchall()
        return [dict(row) for row in rows]

    def delete_photo(self, game_id: str, photo_id: str) -> bool:
        """Forget a photo and the sheets read from it; False if the game has no such photo."""
        with self._connect(write=True) as db:
            db.execute("DELETE FROM sheets WHERE photo_id = ? AND game_id = ?", (photo_id, game_id))
            gone = db.execute("DELETE FROM photos WHERE id = ? AND game_id = ?", (photo_id, game_id)).rowcount
        return gone > 0

    def sheets(self, game_id: str) -> list[dict]:
        """A game's sheets in upload order (photo by photo), without their pages."""
        with self._connect() as db:
            rows = db.execute("SELECT sheets.id, sheets.photo_id, sheets.sheet, sheets.readings, sheets.corrections "
                              "FROM sheets JOIN photos ON photos.id = sheets.photo_id "
                              "WHERE sheets.game_id = ? ORDER BY photos.rowid, sheets.rowid", (game_id,)).fetchall()
        return [_sheet(row) for row in rows]

    def page(self, game_id: str, sheet_id: str) -> bytes | None:
        """The rectified page (PNG) of one sheet."""
        with self._connect() as db:
            row = db.execute("SELECT page FROM sheets WHERE id = ? AND game_id = ?", (sheet_id, game_id)).fetchone()
        return row["page"] if row is not None else None

    def correct(self, game_id: str, sheet_id: str, change: Callable[[dict], None]) -> bool:
        """Apply ``change`` to one sheet's corrections (a dict it edits in place), with no other writer in
        between. False if the game has no such sheet."""
        with self._connect(write=True) as db:
            row = db.execute("SELECT corrections FROM sheets WHERE id = ? AND game_id = ?",
                             (sheet_id, game_id)).fetchone()
            if row is None:
                return False
            corrections = json.loads(row["corrections"])
            change(corrections)
            db.execute("UPDATE sheets SET corrections = ? WHERE id = ?", (json.dumps(corrections), sheet_id))
        return True


def _game(row: sqlite3.Row) -> dict:
    return {"id": row["id"], "created": row["created"], "players": json.loads(row["players"]),
            "map": json.loads(row["map"]), "paper": row["paper"]}


def _sheet(row: sqlite3.Row) -> dict:
    return {"id": row["id"], "photo_id": row["photo_id"], "sheet": json.loads(row["sheet"]),
            "readings": json.loads(row["readings"]), "corrections": json.loads(row["corrections"])}
