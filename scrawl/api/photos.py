"""Photos of a game's sheets: an upload read and kept (size and type checked, at most ``SCANS_AT_ONCE``
read at once), a photo forgotten, and a sheet's overlay picture."""
from __future__ import annotations

import io
import json
import logging
import re
import threading
from typing import Annotated, Optional

from fastapi import APIRouter, Depends, File, HTTPException, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from scrawl.api.common import (MAX_GAME_BYTES, MAX_PHOTO, NOT_AN_IMAGE, TOO_LARGE, StoreDep, errors, game_or_404,
                               scans_of)
from scrawl.scoring import current_readings, game_document, readings_json, scored_game

router = APIRouter(tags=["photos"])
log = logging.getLogger("scrawl.serve")


@router.post("/api/games/{gid}/photos", status_code=201, responses=errors(403, 404, 413, 415, 422))
async def upload(gid: str, request: Request, store: StoreDep,
                 scans: Annotated[threading.BoundedSemaphore, Depends(scans_of)],
                 photo: UploadFile = File(description="A photo of one or more sheets of this game."),
                 replaces: Optional[str] = Query(None, description="A retake: the sheet the new photo's sheet of "
                                                                   "the same player takes the place of."),
                 corrections: str = Query("keep", pattern="^(keep|drop)$",
                                          description='A retake: "keep" the hand corrections of the sheet it '
                                                      'replaces (where they still differ from the new reading), '
                                                      'or "drop" them.')) -> dict:
    """Read the sheets in a photo and add them to the game. A photo in which no sheet can be read is
    refused (422, the reason as detail) and not kept; so is a sheet of another game, or of another map
    (saying which game it is from). A retake (``replaces``) answers with ``undo``, the token that puts the
    old sheet back; a retake of a sheet another phone sent needs that phone or the host."""
    game = await run_in_threadpool(game_or_404, store, gid)
    data = await photo.read(MAX_PHOTO + 1)
    if len(data) > MAX_PHOTO:
        raise HTTPException(413, TOO_LARGE)
    if data and not is_image(data):
        raise HTTPException(415, NOT_AN_IMAGE)
    if replaces:
        await run_in_threadpool(_may_take_out, request, store, gid, None, replaces)
    kept = await run_in_threadpool(store.kept_bytes, gid)
    if kept + len(data) > MAX_GAME_BYTES:
        raise HTTPException(413, f"this game keeps {kept // 2 ** 20} MB of photos, and at most "
                                 f"{MAX_GAME_BYTES // 2 ** 20} MB: remove photos it no longer needs, or start a "
                                 f"new game")
    name = display_name(photo.filename)
    outcome = await run_in_threadpool(_scan, scans, data, name, game["map"] if game["kind"] == "map" else None)
    wrong = wrong_kind(outcome, game)
    if wrong:
        raise HTTPException(422, wrong)
    if any(sheet["player"] == 0 for sheet in outcome.sheets):      # read by the game's map, its QR unread
        from scanner.batch import number_unidentified

        stored = await run_in_threadpool(store.sheets, gid)
        number_unidentified(outcome.sheets, {sheet["sheet"].get("player") for sheet in stored})
    error = "; ".join(entry["error"] for entry in outcome.errors) or None
    sheets = [(read.entry, readings_json(*read.readings) if read.kind == "map" else read.readings or {}, read.page)
              for read in outcome.reads if read.kind == game["kind"]]
    if not sheets:          # refused, and nothing of it kept: a stranger's junk cannot fill the disk
        raise HTTPException(422, error or "no sheet found in this photo")
    _, added = await run_in_threadpool(store.add_photo, gid, name, data, error, sheets,
                                       getattr(request.state, "device", None))
    undo = await run_in_threadpool(_retake, store, gid, replaces, dict(zip(added, sheets)), corrections == "keep")
    document = await run_in_threadpool(game_document, store, store.game(gid))
    return dict(document, added=added, undo=undo)


@router.delete("/api/games/{gid}/photos/{pid}", responses=errors(403, 404))
def delete_photo(gid: str, pid: str, request: Request, store: StoreDep) -> dict:
    """Take a photo and its sheets out of the game (their corrections with them). The answer's ``undo`` is
    the token that puts them back (``POST /api/games/{gid}/undo/{token}``). Only the phone that sent the
    photo, or the host, may (under ``scrawl serve``'s join code)."""
    game = game_or_404(store, gid)
    _may_take_out(request, store, gid, pid, None)
    token = store.remove_photo(gid, pid)
    if token is None:
        raise HTTPException(404, "no such photo")
    return dict(game_document(store, game), undo=token)


@router.post("/api/games/{gid}/undo/{token}", responses=errors(404))
def undo(gid: str, token: str, store: StoreDep) -> dict:
    """Undo a photo's removal, or a retake (the old sheet and its corrections back, the new one out)."""
    game = game_or_404(store, gid)
    if not store.restore(gid, token):
        raise HTTPException(404, "nothing to undo: it was undone already, or it is not of this game")
    return game_document(store, game)


def _may_take_out(request: Request, store, gid: str, photo_id: str | None, sheet_id: str | None) -> None:
    """403 unless this phone sent the photo (or the sheet's photo), or is the host's, or the server asks no
    join code (then phones are not told apart)."""
    state = request.state
    if not getattr(state, "owned", False) or getattr(state, "host", False):
        return
    sender = store.sender(gid, photo_id=photo_id, sheet_id=sheet_id)
    if sender is not None and sender != getattr(state, "device", None):
        raise HTTPException(403, "another phone sent this photo: only that phone, or the host, can take it out")


def wrong_kind(outcome, game: dict) -> str | None:
    """Why the sheets read from a photo cannot go into ``game``, in one line that says what to do: a sheet of
    another kind of game (a map sheet in a monster battle, a monster record sheet in a map game, ...), a
    monster record sheet of neither player of the battle, a Dungeon Maker sheet of another loot seed or
    beyond the game's players, or a map sheet of another game or map (as ``other_game`` says). None when
    they can."""
    kinds = {read.kind for read in outcome.reads}
    if game["kind"] not in kinds and kinds:
        return _other_kind(sorted(kinds - {game["kind"]})[0], game)
    if game["kind"] == "monster":
        for entry in outcome.rosters:
            if entry.get("player") not in (1, 2):
                return (f"this is player {entry.get('player')}'s monster record sheet, and a battle is between "
                        f"players 1 and 2: print this game's sheets from its print link")
        return None
    if game["kind"] == "maker":
        return other_loot(outcome.dungeons, game)
    return other_game(outcome.sheets, game)


_GAME_NAMES = {"map": "a dungeon map game", "monster": "a monster battle", "maker": "a Dungeon Maker game"}
_SHEET_NAMES = {"map": "a dungeon map sheet", "monster": "a monster record sheet", "maker": "a Dungeon Maker sheet"}
_GOES = {"map": "score map sheets in a dungeon map game", "monster": "start a monster battle for it",
         "maker": "start a Dungeon Maker game for it"}


def _other_kind(kind: str, game: dict) -> str:
    """A sheet of another kind of game than ``game``: what it is, and where it goes."""
    return (f"this is {_SHEET_NAMES[kind]}, and game {game['code']} is {_GAME_NAMES[game['kind']]}: photograph "
            f"each player's {_SHEET_NAMES[game['kind']][2:]} here, and {_GOES[kind]} on the first screen")


def other_loot(entries: list[dict], game: dict) -> str | None:
    """Why Dungeon Maker sheets read from a photo are not this game's (another loot seed, a page beyond the
    game's players), or None when they are."""
    players = len(game["players"])
    for entry in entries:
        if entry.get("seed") != game.get("seed"):
            return (f"this Dungeon Maker sheet has loot seed {entry.get('seed')}, and game {game['code']}'s sheets "
                    f"have seed {game.get('seed')}: print this game's sheets from its print link, or upload it to "
                    f"its own game")
        if not isinstance(entry.get("player"), int) or not 1 <= entry["player"] <= players:
            return (f"this is page {entry.get('player')} of loot seed {game.get('seed')}, and game {game['code']} "
                    f"has {players} players: give page N to player N")
    return None


def other_game(sheets: list[dict], game: dict) -> str | None:
    """Why the sheets read from a photo do not belong to ``game`` (another game's code, or another map), in
    a line that says where to send them; None when they do. A sheet printed before game codes carries
    none: it belongs when its map is the game's."""
    from scrawl.scoring import dungeon_of

    ours = dungeon_of(json.dumps(game["map"], sort_keys=True))
    this = f"this is game {game['code']} ({ours.name})"
    for sheet in sheets:
        theirs = dungeon_of(json.dumps(sheet["map"], sort_keys=True))
        code = sheet.get("game")
        if code and code != game["code"]:
            return f"this sheet is from game {code} ({theirs.name}); {this}: upload it to its own game"
        if theirs != ours:
            return f"this sheet is of another map ({theirs.name}); {this}: upload it to its own game"
    return None


def _retake(store, gid: str, old: str | None, added: dict, keep: bool) -> str | None:
    """A retake: the new sheet of the old sheet's player takes its place, with the old sheet's corrections
    where they still differ from the new reading (``keep``). The undo token, or None when the photo holds
    no sheet of that player (then it was only added)."""
    previous = next((sheet for sheet in store.sheets(gid) if sheet["id"] == old), None) if old else None
    if previous is None:
        return None
    player = previous["sheet"].get("player")
    new = next((sid for sid, (sheet, _, _) in added.items() if sheet.get("player") == player), None)
    if new is None:
        return None
    carried = None
    if keep and added[new][0].get("dungeon") is not None:
        from scrawl.api.dungeons import carried_corrections as carried_dungeon

        carried = carried_dungeon(previous["corrections"], added[new][0])
    elif keep and added[new][0].get("roster") is not None:
        from scrawl.api.rosters import carried_corrections as carried_roster

        carried = carried_roster(previous["corrections"], added[new][1])
    elif keep:
        carried = carried_corrections(previous["corrections"], added[new][1])
    return store.retake(gid, old, new, carried)


def carried_corrections(corrections: dict, readings: dict) -> dict:
    """A sheet's corrections, for its retake: a room's only where the new photo reads it otherwise."""
    from scrawl.scoring import normal_reading

    now = {name: "X" if room["trap"] else normal_reading(room["exits"]) for name, room in readings["rooms"].items()}
    kept = {name: reading for name, reading in corrections["rooms"].items() if now.get(name, "") != reading}
    return dict(corrections, rooms=kept)


@router.get("/api/games/{gid}/sheets/{sid}/overlay.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}}, **errors(404)})
def overlay(gid: str, sid: str, store: StoreDep) -> Response:
    """What was read (corrections included) drawn over the sheet, with what needs a look ringed."""
    from scanner.overlay import overlay_picture

    game = game_or_404(store, gid)
    page = store.page(gid, sid)
    if page is None:
        raise HTTPException(404, "no such sheet")
    if game["kind"] in ("monster", "maker"):
        picture = (_roster_overlay if game["kind"] == "monster" else _maker_overlay)(store, game, sid, page)
        return Response(_small_png(picture), media_type="image/png", headers={"Cache-Control": "no-store"})
    scored = scored_game(store, game)
    stored = next((sheet for sheet in scored.stored if sheet["id"] == sid), None)
    if stored is None:
        raise HTTPException(404, "no such sheet")
    rooms, tally = current_readings(stored["readings"], stored["corrections"])
    sheet = scored.by_id.get(sid) or scored.unscored[sid]
    picture = overlay_picture(page, sheet, rooms, tally, sheet)
    return Response(_small_png(picture), media_type="image/png", headers={"Cache-Control": "no-store"})


def _roster_overlay(store, game: dict, sid: str, page: bytes):
    """A monster record sheet's overlay picture, its corrections applied."""
    from scanner.roster_overlay import roster_overlay_picture
    from scrawl.api.rosters import corrected_entry, corrected_readings
    from scrawl.scoring import player_name

    stored = next((sheet for sheet in store.sheets(game["id"]) if sheet["id"] == sid), None)
    if stored is None:
        raise HTTPException(404, "no such sheet")
    entry = corrected_entry(stored["sheet"], stored["readings"], stored["corrections"])
    title = f"{player_name(game['players'], entry.get('player'))} (player {entry.get('player')})"
    return roster_overlay_picture(page, entry, corrected_readings(stored["readings"], stored["corrections"]), title)


def _maker_overlay(store, game: dict, sid: str, page: bytes):
    """A Dungeon Maker sheet's overlay picture, its corrections applied and scored, with the score the page
    shows: after a hero phase played (or left out) on the page, the final one."""
    from scanner.maker_overlay import maker_overlay_picture
    from scrawl.api.dungeons import hero_view, scored_entries

    stored, scored = scored_entries(store, game)
    if sid not in scored:
        raise HTTPException(404, "no such sheet")
    entry = scored[sid]
    seed = next(sheet["corrections"].get("heroes") for sheet in stored if sheet["id"] == sid)
    heroes = hero_view(entry, seed)
    if heroes["state"] == "played":
        entry = {**entry, "score": {**entry["score"], **heroes["final"], "heroes_on_page": seed}}
    elif heroes["state"] == "skipped":
        entry = {**entry, "score": {**entry["score"], "heroes_on_page": "skipped"}}
    return maker_overlay_picture(page, entry)


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


def _scan(scans: threading.BoundedSemaphore, data: bytes, name: str, map_reference: dict | None):
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


def _small_png(picture) -> bytes:
    """An RGB picture as a PNG of 128 colours: the overlay is a faded photo under a few flat colours,
    so this looks the same at an eighth of the bytes (about 200 KB instead of 1.6 MB), which matters
    when every phone at the table fetches it again after each correction."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(picture).quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG")
    return buffer.getvalue()
