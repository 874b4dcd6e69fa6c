"""How ``scrawl serve`` runs the app: a connection that idles is closed, and the database is checked first.

uvicorn closes a kept-alive connection that stays quiet, but waits forever for
a request's headers or body to finish arriving: a hundred connections that
never finish their headers stay open. ``GuardedH11Protocol`` gives every
request ``HEADER_SECONDS`` to send its headers and ``BODY_SECONDS`` for its
body (a 25 MB photo over a slow hall's Wi-Fi), and closes the connection
otherwise. ``check_database`` opens ``scrawl.db`` before serving: a damaged
or read-only database is one line at start, not a 500 later.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 15.0
BODY_SECONDS = 180.0
CONNECTIONS_AT_ONCE = 200       # more get "503 Service Unavailable" at once, not a wait


class GuardedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with deadlines for a request's headers and body."""

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline = None
        self._watched = None
        self._arm(HEADER_SECONDS, self._headers_late)

    def connection_lost(self, exc) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        cycle = self.cycle
        if cycle is not None and cycle is not self._watched and not cycle.response_complete:
            self._watched = cycle           # a request's headers arrived: its body has its own time
            self._arm(BODY_SECONDS, self._body_late)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():        # the next request's headers, after the keep-alive pause
            self._arm(HEADER_SECONDS + self.timeout_keep_alive, self._headers_late)

    def _arm(self, seconds: float, callback) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(seconds, callback)

    def _headers_late(self) -> None:
        if self.cycle is None or self.cycle.response_complete:      # no request under way: its headers late
            self.transport.close()

    def _body_late(self) -> None:
        if self.cycle is self._watched and self.cycle is not None and self.cycle.more_body:
            self.transport.close()


def check_database(folder: Path) -> None:
    """Open ``folder/scrawl.db`` as the server will and check it can be read and written. Raises ``OSError``
    or ``sqlite3.Error`` with a message saying what is wrong."""
    path = folder / "scrawl.db"
    if not path.exists():
        return          # a new game night: the store makes it
    try:
        db = sqlite3.connect(path, timeout=5)
    except sqlite3.Error as exc:
        raise sqlite3.DatabaseError(f"{path} cannot be opened ({exc})") from None
    try:
        verdict = db.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"{path} is damaged ({verdict[:80]}): move it away to start afresh, "
                                        f"or restore a copy")
        db.execute("BEGIN IMMEDIATE")
        db.execute("CREATE TABLE scrawl_write_probe (x)")      # a real write, taken back: a read-only file fails
        db.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "read-only" in str(exc) or "permission" in str(exc).lower():
            raise sqlite3.OperationalError(f"{path} cannot be written ({exc}): check its permissions, or choose "
                                           f"another folder with --data") from None
        raise sqlite3.DatabaseError(f"{path} cannot be used ({exc}): is another program using it?") from None
    except sqlite3.DatabaseError as exc:
        if "is damaged" in str(exc):
            raise
        raise sqlite3.DatabaseError(f"{path} is damaged or not a database ({exc}): move it away to start "
                                    f"afresh") from None
    finally:
        db.close()
