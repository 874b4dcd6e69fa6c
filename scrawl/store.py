"""Where ``scrawl serve`` keeps its games: one SQLite file, so a restart in the middle of a game night
loses nothing.

Games (with the game code printed on their sheets), the photos uploaded to
them (the bytes themselves, and why a photo could not be read), and the sheets
read from each photo: the unscored scan-format sheet, the readings behind it,
the rectified page for the overlay picture, and the corrections a person made.
Scoring is not stored: it is redone from these.

A photo removed, or a sheet replaced by a retake, is only marked removed, with
a token: ``restore(token)`` undoes that one change (and takes the retake's new
sheet away again). What was removed ``KEEP_REMOVED`` ago is deleted for good
when the store is next opened. A database made before game codes gets a code for each of
its games when it is opened.

One connection per operation, so any thread may call any method; the database
is in WAL mode, so readers never wait for a writer. Ids are random and
URL-safe; nothing a client sends is ever used as a path.
"""
from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timedelta
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
# Columns added since the first release: (table, column, type); added to an older database when it is opened.
ADDED_COLUMNS = (("games", "code", "TEXT"), ("games", "rolls", "TEXT"), ("photos", "removed", "TEXT"),
                 ("sheets", "removed", "TEXT"), ("sheets", "retake_of", "TEXT"), ("photos", "removed_at", "TEXT"),
                 ("sheets", "removed_at", "TEXT"), ("photos", "device", "TEXT"), ("games", "kind", "TEXT"),
                 ("games", "seed", "INTEGER"))
KINDS = ("map", "monster", "maker")     # the games: the dungeon map game, a monster battle, Dungeon Maker (NULL: map)
KEEP_REMOVED = timedelta(days=2)        # a removed photo can be restored this long; then it is deleted for good

NO_CORRECTIONS = {"rooms": {}, "unusable": None, "rounds": {}, "marks": {}}


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
            _migrate(db)
        finally:
            db.close()
        self.changes: dict[str, int] = {}      # game id -> how many times it changed since the server started
        self._changed = threading.Lock()

    def changed(self, game_id: str) -> None:
        """Note that a game changed (the page's event stream tells the phones)."""
        with self._changed:
            self.changes[game_id] = self.changes.get(game_id, 0) + 1

    def version(self, game_id: str) -> int:
        return self.changes.get(game_id, 0)

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
    def add_game(self, players: list[str], map_ref: dict, paper: str, code: str | None = None, *,
                 kind: str = "map", seed: int | None = None) -> dict:
        """A new game of ``kind`` (``KINDS``), with the game ``code`` of its printed sheets (None: a new one,
        ``sheets.page.new_game_code``); a monster battle's ``map`` is empty and its ``seed`` is its dice's, a
        Dungeon Maker game's ``seed`` its sheets' loot seed."""
        from sheets.page import new_game_code

        if kind not in KINDS:
            raise ValueError(f"unknown kind of game {kind!r}")
        game = {"id": new_id(), "created": now(), "players": list(players), "map": dict(map_ref), "paper": paper,
                "code": code or new_game_code(), "rolls": [], "kind": kind, "seed": seed}
        with self._connect(write=True) as db:
            db.execute("INSERT INTO games (id, created, players, map, paper, code, kind, seed) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (game["id"], game["created"], json.dumps(game["players"]), json.dumps(game["map"]), paper,
                        game["code"], kind, seed))
        return game

    def set_seed(self, game_id: str, seed: int) -> bool:
        """A monster battle's new dice (its seed): False if there is no such game. (A Dungeon Maker sheet's
        hero phase keeps its seed with the sheet's corrections: each sheet has its own.)"""
        with self._connect(write=True) as db:
            changed = db.execute("UPDATE games SET seed = ? WHERE id = ?", (seed, game_id)).rowcount
        if changed:
            self.changed(game_id)
        return bool(changed)

    def game(self, game_id: str) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game(row) if row is not None else None

    def set_rolls(self, game_id: str, change: Callable[[list], list]) -> list | None:
        """Change a game's die rolls (one a round, as the page's die roller rolled them): ``change`` gets the
        list and returns the new one. The new rolls, or None if there is no such game."""
        with self._connect(write=True) as db:
            row = db.execute("SELECT rolls FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            rolls = change(json.loads(row["rolls"] or "[]"))
            db.execute("UPDATE games SET rolls = ? WHERE id = ?", (json.dumps(rolls), game_id))
        self.changed(game_id)
        return rolls

    def games(self) -> list[dict]:
        """Every game, newest first, with its number of sheets."""
        with self._connect() as db:
            rows = db.execute("SELECT games.*, (SELECT COUNT(*) FROM sheets WHERE sheets.game_id = games.id "
                              "AND sheets.removed IS NULL) AS n "
                              "FROM games ORDER BY created DESC, rowid DESC").fetchall()
        return [dict(_game(row), sheets=row["n"]) for row in rows]

    # -- photos and their sheets -------------------------------------------
    def add_photo(self, game_id: str, name: str, data: bytes, error: str | None,
                  sheets: list[tuple[dict, dict, bytes]], device: str | None = None) -> tuple[str, list[str]]:
        """Keep one uploaded photo and the sheets read from it, as ``(sheet, readings, page PNG)``, all at
        once, with the phone that sent it (``device``). Returns the photo's id and the sheets' ids."""
        photo_id = new_id()
        sheet_ids = [new_id() for _ in sheets]
        with self._connect(write=True) as db:
            db.execute("INSERT INTO photos (id, game_id, uploaded, name, data, error, device) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", (photo_id, game_id, now(), name, data, error, device))
            db.executemany("INSERT INTO sheets (id, photo_id, game_id, sheet, readings, page, corrections) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(sheet_id, photo_id, game_id, json.dumps(sheet), json.dumps(readings), page,
                             json.dumps(NO_CORRECTIONS)) for sheet_id, (sheet, readings, page) in zip(sheet_ids, sheets)])
        self.changed(game_id)
        return photo_id, sheet_ids

    def photos(self, game_id: str) -> list[dict]:
        """A game's photos in upload order, without their bytes."""
        with self._connect() as db:
            rows = db.execute("SELECT id, uploaded, name, error FROM photos WHERE game_id = ? AND removed IS NULL "
                              "ORDER BY rowid",
                              (game_id,)).fetchall()
        return [dict(row) for row in rows]

    def remove_photo(self, game_id: str, photo_id: str) -> str | None:
        """Take a photo and the sheets read from it out of the game, restorable: the token ``restore`` takes,
        or None if the game has no such photo."""
        token = new_id()
        with self._connect(write=True) as db:
            gone = db.execute("UPDATE photos SET removed = ?, removed_at = ? WHERE id = ? AND game_id = ? "
                              "AND removed IS NULL", (token, now(), photo_id, game_id)).rowcount
            db.execute("UPDATE sheets SET removed = ?, removed_at = ? WHERE photo_id = ? AND game_id = ? "
                       "AND removed IS NULL", (token, now(), photo_id, game_id))
        if gone:
            self.changed(game_id)
        return token if gone else None

    def retake(self, game_id: str, old_id: str, sheet_id: str, corrections: dict | None) -> str | None:
        """The sheet ``sheet_id`` (just added) takes the place of ``old_id``: the old sheet (and its photo, if
        nothing else was read from it) is removed, restorable, and the new sheet gets ``corrections`` (None:
        none). Returns the token ``restore`` takes (which also removes the new sheet), or None if the game
        has no such old sheet."""
        token = new_id()
        with self._connect(write=True) as db:
            row = db.execute("SELECT photo_id FROM sheets WHERE id = ? AND game_id = ? AND removed IS NULL",
                             (old_id, game_id)).fetchone()
            if row is None:
                return None
            db.execute("UPDATE sheets SET removed = ?, removed_at = ? WHERE id = ?", (token, now(), old_id))
            _remove_empty_photo(db, row["photo_id"], token)
            db.execute("UPDATE sheets SET retake_of = ?, corrections = ? WHERE id = ? AND game_id = ?",
                       (token, json.dumps(corrections or NO_CORRECTIONS), sheet_id, game_id))
        self.changed(game_id)
        return token

    def restore(self, game_id: str, token: str) -> bool:
        """Undo one removal or retake (its token): what it removed is back, a retake's new sheet is removed.
        False if the token names nothing removed in this game."""
        with self._connect(write=True) as db:
            back = db.execute("UPDATE sheets SET removed = NULL, removed_at = NULL WHERE removed = ? AND game_id = ?",
                              (token, game_id)).rowcount
            back += db.execute("UPDATE photos SET removed = NULL, removed_at = NULL WHERE removed = ? AND game_id = ?",
                               (token, game_id)).rowcount
            if not back:
                return False
            undone = f"undone-{token}"
            for row in db.execute("SELECT id, photo_id FROM sheets WHERE retake_of = ? AND game_id = ? "
                                  "AND removed IS NULL", (token, game_id)).fetchall():
                db.execute("UPDATE sheets SET removed = ?, removed_at = ?, retake_of = NULL WHERE id = ?",
                           (undone, now(), row["id"]))
                _remove_empty_photo(db, row["photo_id"], undone)
        self.changed(game_id)
        return True

    def sheets(self, game_id: str) -> list[dict]:
        """A game's sheets in upload order (photo by photo), without their pages."""
        with self._connect() as db:
            rows = db.execute("SELECT sheets.id, sheets.photo_id, sheets.sheet, sheets.readings, sheets.corrections "
                              "FROM sheets JOIN photos ON photos.id = sheets.photo_id "
                              "WHERE sheets.game_id = ? AND sheets.removed IS NULL "
                              "ORDER BY photos.rowid, sheets.rowid", (game_id,)).fetchall()
        return [_sheet(row) for row in rows]

    def kept_bytes(self, game_id: str) -> int:
        """What a game keeps on disk: its photos and its sheets' pictures (removed ones too, until purged)."""
        with self._connect() as db:
            photos = db.execute("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM photos WHERE game_id = ?",
                                (game_id,)).fetchone()[0]
            pages = db.execute("SELECT COALESCE(SUM(LENGTH(page)), 0) FROM sheets WHERE game_id = ?",
                               (game_id,)).fetchone()[0]
        return int(photos) + int(pages)

    def sender(self, game_id: str, photo_id: str | None = None, sheet_id: str | None = None) -> str | None:
        """The phone that sent a photo (by the photo's id, or one of its sheets'), None if unknown."""
        with self._connect() as db:
            if sheet_id is not None:
                row = db.execute("SELECT p.device FROM photos p JOIN sheets s ON s.photo_id = p.id "
                                 "WHERE s.id = ? AND s.game_id = ?", (sheet_id, game_id)).fetchone()
            else:
                row = db.execute("SELECT device FROM photos WHERE id = ? AND game_id = ?",
                                 (photo_id, game_id)).fetchone()
        return row[0] if row is not None else None

    def page(self, game_id: str, sheet_id: str) -> bytes | None:
        """The rectified page of one sheet (JPEG; PNG in games kept before it was JPEG)."""
        with self._connect() as db:
            row = db.execute("SELECT page FROM sheets WHERE id = ? AND game_id = ?", (sheet_id, game_id)).fetchone()
        return row["page"] if row is not None else None

    def correct(self, game_id: str, sheet_id: str, change: Callable[[dict], None]) -> bool:
        """Apply ``change`` to one sheet's corrections (a dict it edits in place), with no other writer in
        between. False if the game has no such sheet."""
        with self._connect(write=True) as db:
            row = db.execute("SELECT corrections FROM sheets WHERE id = ? AND game_id = ? AND removed IS NULL",
                             (sheet_id, game_id)).fetchone()
            if row is None:
                return False
            corrections = _corrections(row["corrections"])
            change(corrections)
            db.execute("UPDATE sheets SET corrections = ? WHERE id = ?", (json.dumps(corrections), sheet_id))
        self.changed(game_id)
        return True


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a database made by an older release up to this one: the columns added since, and a game code
    for each game made before codes (its sheets printed then carry none, and are still accepted)."""
    from sheets.page import new_game_code

    for table, column, kind in ADDED_COLUMNS:
        if column not in {row[1] for row in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    for (game_id,) in db.execute("SELECT id FROM games WHERE code IS NULL").fetchall():
        db.execute("UPDATE games SET code = ? WHERE id = ?", (new_game_code(), game_id))
    # What was removed long enough ago to be past any undo is deleted for good (photos are megabytes).
    cutoff = (datetime.now() - KEEP_REMOVED).isoformat(timespec="seconds")
    db.execute("DELETE FROM sheets WHERE removed_at IS NOT NULL AND removed_at < ?", (cutoff,))
    db.execute("DELETE FROM photos WHERE removed_at IS NOT NULL AND removed_at < ? "
               "AND NOT EXISTS (SELECT 1 FROM sheets WHERE sheets.photo_id = photos.id)", (cutoff,))


def _remove_empty_photo(db: sqlite3.Connection, photo_id: str, token: str) -> None:
    """Remove a photo (with ``token``) once none of its sheets is left in the game."""
    left = db.execute("SELECT COUNT(*) FROM sheets WHERE photo_id = ? AND removed IS NULL", (photo_id,)).fetchone()
    if not left[0]:
        db.execute("UPDATE photos SET removed = ?, removed_at = ? WHERE id = ? AND removed IS NULL",
                   (token, now(), photo_id))


def _game(row: sqlite3.Row) -> dict:
    return {"id": row["id"], "created": row["created"], "players": json.loads(row["players"]),
            "map": json.loads(row["map"]), "paper": row["paper"], "code": row["code"],
            "rolls": json.loads(row["rolls"] or "[]"), "kind": row["kind"] or "map", "seed": row["seed"]}


def _sheet(row: sqlite3.Row) -> dict:
    return {"id": row["id"], "photo_id": row["photo_id"], "sheet": json.loads(row["sheet"]),
            "readings": json.loads(row["readings"]),
            "corrections": _corrections(row["corrections"])}


def _corrections(text: str) -> dict:
    """A sheet's stored corrections, with the kinds added since they were stored (empty)."""
    return {**json.loads(json.dumps(NO_CORRECTIONS)), **json.loads(text)}
