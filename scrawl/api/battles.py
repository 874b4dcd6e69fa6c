"""A monster battle's own routes: correct what was read on a part row or in a dice pool of a monster record
sheet, and play the battle again with new dice."""
from __future__ import annotations

import secrets

from fastapi import APIRouter, HTTPException

from scrawl.api.common import PartBody, PoolBody, SeedBody, StoreDep, errors, game_or_404, sheet_or_404
from scrawl.api.rosters import POOLS, row_where
from scrawl.scoring import game_document

router = APIRouter(tags=["monster battles"])


@router.put("/api/games/{gid}/sheets/{sid}/parts/{row}", responses=errors(404, 422))
def correct_part(gid: str, sid: str, row: str, body: PartBody, store: StoreDep) -> dict:
    """Replace what was read on a part row (``monster-1-core``, ``monster-2-part-3``) with what a person sees:
    its die, its type (a part's) and the life boxes crossed off; a null die for a row with nothing on it."""
    game, where = _monster_row(store, gid, sid, row)
    fixed = None if body.die is None else _part_reading(body, where)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("parts", {}).update({where: fixed}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/parts/{row}", responses=errors(404))
def reset_part(gid: str, sid: str, row: str, store: StoreDep) -> dict:
    """Put back what the scanner read on a part row."""
    game, where = _monster_row(store, gid, sid, row)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("parts", {}).pop(where, None))
    return game_document(store, game)


@router.put("/api/games/{gid}/sheets/{sid}/pools/{pool}", responses=errors(404, 422))
def correct_pool(gid: str, sid: str, pool: str, body: PoolBody, store: StoreDep) -> dict:
    """Replace the dice read in the ``reserve`` or ``active`` pool (each die once)."""
    from games.monsters import Die, DieError

    game = _monster_pool(store, gid, sid, pool)
    try:
        dice = [Die.parse(text) for text in body.dice]
    except DieError as exc:
        raise HTTPException(422, f"dice: {exc}") from None
    twice = sorted({die.name for die in dice if dice.count(die) > 1})
    if twice:
        raise HTTPException(422, f"dice: {twice[0]} is given twice; the sheet has one bubble per die")
    store.correct(gid, sid, lambda corrections: corrections.setdefault("pools", {}).update(
        {pool: sorted((die.name for die in dice), key=_pool_order)}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/pools/{pool}", responses=errors(404))
def reset_pool(gid: str, sid: str, pool: str, store: StoreDep) -> dict:
    """Put back the dice the scanner read in a pool."""
    game = _monster_pool(store, gid, sid, pool)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("pools", {}).pop(pool, None))
    return game_document(store, game)


@router.post("/api/games/{gid}/battle", responses=errors(404, 422))
def play_again(gid: str, store: StoreDep, body: SeedBody | None = None) -> dict:
    """Play the battle again: with new dice (a new seed), or with ``seed``'s to replay a battle."""
    game = _battle(store, gid)
    seed = body.seed if body is not None and body.seed is not None else secrets.randbelow(1_000_000)
    store.set_seed(gid, seed)
    return game_document(store, dict(game, seed=seed))


def _battle(store, gid: str) -> dict:
    game = game_or_404(store, gid)
    if game["kind"] != "monster":
        raise HTTPException(404, f"game {game['code']} is a dungeon map game, not a monster battle")
    return game


def _monster_row(store, gid: str, sid: str, row: str) -> tuple[dict, str]:
    game = _battle(store, gid)
    _, sheet = sheet_or_404(store, gid, sid, "monster")
    where = row_where(row)
    if where is None or int(where.split()[1]) not in _card_numbers(sheet):
        raise HTTPException(404, f"no part row {row} on this sheet (like monster-1-core or monster-2-part-3)")
    return game, where


def _monster_pool(store, gid: str, sid: str, pool: str) -> dict:
    game = _battle(store, gid)
    sheet_or_404(store, gid, sid, "monster")
    if pool not in POOLS:
        raise HTTPException(404, f"no pool {pool}: the pools are reserve and active")
    return game


def _card_numbers(sheet: dict) -> set[int]:
    from scanner.roster_overlay import layout_of

    return {card.number for card in layout_of(sheet["sheet"]).cards}


def _part_reading(body: PartBody, where: str) -> dict:
    """A row a person says holds ``body``, checked: a real die, a part's type (none for the core), damage
    no more than the die's life."""
    from games.monsters import PART_TYPES, Die, DieError

    try:
        die = Die.parse(body.die)
    except DieError as exc:
        raise HTTPException(422, f"die: {exc}") from None
    core = where.endswith("core")
    if core and body.type is not None:
        raise HTTPException(422, "type: a core has no type; leave it out")
    if not core and body.type not in PART_TYPES:
        raise HTTPException(422, f"type: {body.type!r} is not a part's type: choose {', '.join(PART_TYPES)}")
    if body.damage > die.sides:
        raise HTTPException(422, f"damage: a {die.name} has {die.sides} life, so at most {die.sides} damage")
    return {"size": f"d{die.sides}", "colour": die.colour, "type": None if core else body.type, "damage": body.damage}


def _pool_order(name: str) -> tuple[int, int]:
    """Dice in the sheet's order: by sides, then by colour as printed."""
    from games.monsters import COLOURS, Die

    die = Die.parse(name)
    return die.sides, COLOURS.index(die.colour)
