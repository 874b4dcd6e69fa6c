"""Corrections: what a person sees in a room (its drawing, its round number), beside scoring item 6, or on an
expansion map's marks (Diamonds, Emeralds, the Curse Track, Rune Gates), in place of what was read."""
from __future__ import annotations

from fastapi import APIRouter, HTTPException

from scrawl.api.common import (MarkBody, RoomReadingBody, RoundBody, StoreDep, TallyBody, errors, room_or_404,
                               sheet_or_404)
from scrawl.scoring import game_document, mark_list, normal_reading

router = APIRouter(tags=["corrections"])


@router.put("/api/games/{gid}/sheets/{sid}/rooms/{room}", responses=errors(400, 404, 422))
def correct_room(gid: str, sid: str, room: str, body: RoomReadingBody, store: StoreDep) -> dict:
    """Replace what was read in a room with what a person sees: one of the room's ``options``."""
    game, sheet = sheet_or_404(store, gid, sid)
    name, options = room_or_404(sheet, room)
    reading = normal_reading(body.reading)
    if reading not in options:
        shown = ", ".join(f'"{option}"' for option in options)
        raise HTTPException(400, f'"{body.reading}" cannot be drawn in {name}: it is one of {shown}')
    store.correct(gid, sid, lambda corrections: corrections["rooms"].update({name: reading}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/rooms/{room}", responses=errors(404))
def reset_room(gid: str, sid: str, room: str, store: StoreDep) -> dict:
    """Put back what the scanner read in a room."""
    game, sheet = sheet_or_404(store, gid, sid)
    name, _ = room_or_404(sheet, room)
    store.correct(gid, sid, lambda corrections: corrections["rooms"].pop(name, None))
    return game_document(store, game)


@router.put("/api/games/{gid}/sheets/{sid}/tally", responses=errors(404, 422))
def correct_tally(gid: str, sid: str, body: TallyBody, store: StoreDep) -> dict:
    """Replace the tally read beside scoring item 6 (unusable cards)."""
    game, _ = sheet_or_404(store, gid, sid)
    store.correct(gid, sid, lambda corrections: corrections.update(unusable=body.count))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/tally", responses=errors(404))
def reset_tally(gid: str, sid: str, store: StoreDep) -> dict:
    """Put back the tally the scanner read."""
    game, _ = sheet_or_404(store, gid, sid)
    store.correct(gid, sid, lambda corrections: corrections.update(unusable=None))
    return game_document(store, game)


@router.put("/api/games/{gid}/sheets/{sid}/rounds/{room}", responses=errors(404, 422))
def correct_round(gid: str, sid: str, room: str, body: RoundBody, store: StoreDep) -> dict:
    """Replace the round number read in a room (null: none written)."""
    game, sheet = sheet_or_404(store, gid, sid)
    name, _ = room_or_404(sheet, room)
    store.correct(gid, sid, lambda corrections: corrections["rounds"].update({name: body.round}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/rounds/{room}", responses=errors(404))
def reset_round(gid: str, sid: str, room: str, store: StoreDep) -> dict:
    """Put back the round number the scanner read in a room."""
    game, sheet = sheet_or_404(store, gid, sid)
    name, _ = room_or_404(sheet, room)
    store.correct(gid, sid, lambda corrections: corrections["rounds"].pop(name, None))
    return game_document(store, game)


@router.put("/api/games/{gid}/sheets/{sid}/marks/{mark}", responses=errors(404, 422))
def correct_mark(gid: str, sid: str, mark: str, body: MarkBody, store: StoreDep) -> dict:
    """Say whether a mark is made: ``diamond-3``, ``emerald-2``, ``curse-top-1``, ``curse-bottom-4``,
    ``gate-C4-D4`` (the sheet's ``marks`` list them)."""
    game, sheet = sheet_or_404(store, gid, sid)
    key = _mark_or_404(sheet, mark)
    store.correct(gid, sid, lambda corrections: corrections["marks"].update({key: body.marked}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/marks/{mark}", responses=errors(404))
def reset_mark(gid: str, sid: str, mark: str, store: StoreDep) -> dict:
    """Put back what the scanner read of a mark."""
    game, sheet = sheet_or_404(store, gid, sid)
    key = _mark_or_404(sheet, mark)
    store.correct(gid, sid, lambda corrections: corrections["marks"].pop(key, None))
    return game_document(store, game)


def _mark_or_404(sheet: dict, mark: str) -> str:
    marks = [listed["mark"] for listed in mark_list(sheet["sheet"]["map"])]
    if mark not in marks:
        some = ", ".join(marks[:4]) if marks else "none: its map has no Diamonds, Emeralds, Curse Track or Rune Gates"
        raise HTTPException(404, f"no mark {mark} on this sheet's map (its marks: {some})")
    return mark
