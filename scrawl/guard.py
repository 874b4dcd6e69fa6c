"""What stands between the game-night page and a shared network (a convention hall's Wi-Fi).

``Guard`` is ASGI middleware around the whole app:

- **The join code.** ``scrawl serve`` makes a random code; ``/join/CODE`` sets
  it as a cookie and opens the page. Every ``/api/`` and ``/print/`` request
  needs it, as that cookie or as the header ``X-Join-Code``, else 401. The
  host's token (shown only in the terminal, set by ``/join/CODE?host=TOKEN``)
  is needed besides to delete a game.
- **Bounded bodies**: a photo upload at most ``MOST_UPLOAD`` bytes (``MAX_PHOTO`` and its wrapping), any other
  body at most ``MOST_JSON``; refused with 413 from its declared length, or as
  soon as it grows past the bound.
- **Host check**: only requests addressed to this machine (an IP address,
  ``localhost`` or this computer's name) are served, so that a web page
  elsewhere cannot reach the server through a name it controls (DNS
  rebinding).
- **Headers**: a content security policy that allows only the server's own
  scripts and no framing, ``nosniff``, and no referrer (a join code in an
  address must not leak).
- **An access log** in the data folder, one line per request, the join code
  and the host token never written.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
import secrets
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from fastapi import HTTPException

from scrawl.api.common import MAX_PHOTO, TOO_LARGE

JOIN_COOKIE = "scrawl_join"
HOST_COOKIE = "scrawl_host"
DEVICE_COOKIE = "scrawl_device"   # which phone sent a photo: only it (or the host) takes the photo out
MOST_JSON = 1_000_000             # a game's JSON is a few KB; corrections less
MOST_UPLOAD = MAX_PHOTO + 64 * 1024     # a 50 MP phone photo, or a PDF of a game's scans, and its wrapping
MOST_LOG_BYTES = 10_000_000       # the access log is started again (one old copy kept) beyond this
COOKIE_SECONDS = 2 * 24 * 3600    # a game night, and the morning after

CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
SECURITY_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"), (b"referrer-policy", b"no-referrer")]

NEEDS_CODE = ("this game night needs its join code: open the link the host's screen shows, or scan its QR code")
TOO_LARGE_JSON = f"the request body is over {MOST_JSON // 1_000_000} MB: a game's data is never that large"


def new_join_code() -> str:
    """A join code: 6 letters and digits that read aloud without confusion (about 480 million codes)."""
    from sheets.page import new_game_code

    return new_game_code(6)


@dataclass(frozen=True)
class GuardSettings:
    code: str | None = None             # None: no join code needed (a server for this computer's tests)
    host_token: str | None = None
    log: Path | None = None             # the access log file
    any_host: bool = False              # serve whatever Host a request names (tests)
    most_json: int = MOST_JSON
    most_upload: int = MOST_UPLOAD


class BodyTooLarge(HTTPException):
    def __init__(self, detail: str):
        super().__init__(413, detail)


class Guard:
    """The ASGI middleware (see the module's text)."""

    def __init__(self, app, settings: GuardSettings):
        self.app = app
        self.settings = settings
        self.names = _own_names()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, seen = time.monotonic(), {"status": 0, "bytes": 0}

        async def guarded_send(message):
            if message["type"] == "http.response.start":
                seen["status"] = message["status"]
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            elif message["type"] == "http.response.body":
                seen["bytes"] += len(message.get("body", b""))
            await send(message)

        headers = _headers(scope)
        try:
            answer = self._answer(scope, headers)
            if answer is None:
                scope.setdefault("state", {}).update(
                    device=_cookies(headers).get(DEVICE_COOKIE) or None, host=self._is_host(headers),
                    owned=bool(self.settings.code))     # photos belong to the phone that sent them
            if answer is not None:
                await answer(scope, receive, guarded_send)
            else:
                await self.app(scope, self._bounded(scope, receive), guarded_send)
        finally:
            self._log(scope, seen, time.monotonic() - started)

    # -- what is answered here, before the app ----------------------------------------------------------
    def _answer(self, scope, headers: dict):
        """A response for a request the app must not see (wrong host, no code, too large, a join link), or
        None."""
        from fastapi.responses import JSONResponse

        if not self.settings.any_host and not self._our_host(headers.get("host", "")):
            return JSONResponse({"detail": "this server answers only to its own address: open the address "
                                           "'scrawl serve' printed"}, status_code=400)
        path = scope["path"]
        if path.startswith("/join/"):
            return self._join(scope, headers, path.removeprefix("/join/"))
        code = self.settings.code
        if code and (path.startswith("/api/") or path.startswith("/print/")):
            given = headers.get("x-join-code") or _cookies(headers).get(JOIN_COOKIE, "")
            if not hmac.compare_digest(given.upper().encode(), code.encode()):
                return JSONResponse({"detail": NEEDS_CODE}, status_code=401)
            if scope["method"] == "DELETE" and _deletes_a_game(path) and not self._is_host(headers):
                return JSONResponse({"detail": "only the host can delete a game: use the host link that "
                                               "'scrawl serve' printed in its terminal"}, status_code=403)
        length = headers.get("content-length", "")
        most = self._most(scope)
        if length.isdigit() and int(length) > most:
            return JSONResponse({"detail": self._too_large(scope)}, status_code=413)
        return None

    def _join(self, scope, headers: dict, code: str):
        from fastapi.responses import HTMLResponse, RedirectResponse

        expected = self.settings.code
        if expected and not hmac.compare_digest(code.upper().encode(), expected.encode()):
            return HTMLResponse("<!doctype html><meta name=viewport content='width=device-width'><title>scrawl"
                                "</title><p>This join link is not this game night's. Scan the QR code on the "
                                "host's screen again.</p>", status_code=401)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        to = query.get("to", ["/"])[0]
        if not to.startswith("/") or to.startswith("//"):
            to = "/"            # only an address on this server: the link cannot send a phone elsewhere
        response = RedirectResponse(to, status_code=303)
        if expected:
            response.set_cookie(JOIN_COOKIE, expected, max_age=COOKIE_SECONDS, httponly=True, samesite="lax")
        if not _cookies(headers).get(DEVICE_COOKIE):
            response.set_cookie(DEVICE_COOKIE, secrets.token_urlsafe(12), max_age=30 * 24 * 3600, httponly=True,
                                samesite="lax")
        token = query.get("host", [""])[0]
        if self.settings.host_token and hmac.compare_digest(token.encode(), self.settings.host_token.encode()):
            response.set_cookie(HOST_COOKIE, token, max_age=COOKIE_SECONDS, httponly=True, samesite="strict")
        return response

    def _is_host(self, headers: dict) -> bool:
        token = self.settings.host_token
        given = headers.get("x-host-token") or _cookies(headers).get(HOST_COOKIE, "")
        return bool(token) and hmac.compare_digest(given.encode(), token.encode())

    def _our_host(self, host: str) -> bool:
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        name = name.strip("[]").lower()
        if name in self.names:
            return True
        try:
            ipaddress.ip_address(name)
            return True         # an address, not a name: no other site's name can point here through it
        except ValueError:
            return False

    # -- bodies ----------------------------------------------------------------------------------------
    def _most(self, scope) -> int:
        upload = scope["method"] == "POST" and scope["path"].rstrip("/").endswith("/photos")
        return self.settings.most_upload if upload else self.settings.most_json

    def _too_large(self, scope) -> str:
        return TOO_LARGE if self._most(scope) == self.settings.most_upload else TOO_LARGE_JSON

    def _bounded(self, scope, receive):
        most, received = self._most(scope), 0
        message = self._too_large(scope)

        async def bounded():
            nonlocal received
            event = await receive()
            received += len(event.get("body", b""))
            if received > most:
                raise BodyTooLarge(message)     # raised while the app reads the body: answered as its 413
            return event
        return bounded

    # -- the access log -----------------------------------------------------------------------------------
    def _log(self, scope, seen: dict, seconds: float) -> None:
        path = self.settings.log
        if path is None:
            return
        shown = scope["path"]
        if shown.startswith("/join/"):
            shown = "/join/*"           # the code and the host token are never written down
        client = (scope.get("client") or ("-", 0))[0]
        line = json.dumps({"at": time.strftime("%Y-%m-%dT%H:%M:%S"), "client": client, "method": scope["method"],
                           "path": shown[:300], "status": seen["status"], "bytes": seen["bytes"],
                           "ms": round(seconds * 1000)}) + "\n"
        try:
            if path.exists() and path.stat().st_size > MOST_LOG_BYTES:
                path.replace(path.with_suffix(path.suffix + ".1"))
            with path.open("a", encoding="utf-8") as out:
                out.write(line)
        except OSError:
            pass        # a full disk must not stop the game night; the log is for looking back


def _headers(scope) -> dict[str, str]:
    return {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}


def _cookies(headers: dict) -> dict[str, str]:
    found = {}
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name:
            found[name] = value
    return found


def _deletes_a_game(path: str) -> bool:
    parts = path.strip("/").split("/")
    return len(parts) == 3 and parts[:2] == ["api", "games"]


def _own_names() -> set[str]:
    """The names this computer answers to: localhost, its host name and its name on the local network."""
    names = {"localhost"}
    try:
        host = socket.gethostname().lower()
        names |= {host, f"{host}.local", socket.getfqdn().lower()}
    except OSError:
        pass
    return names
