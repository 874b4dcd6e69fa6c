"""A Dungeon Maker game's own routes: correct what was read on a tile, the entrance, the stairs or the record
of a Dungeon Maker sheet, and play the sheet's hero phase (again with new dice, or a seed's to replay it)."""
from __future__ import annotations

import secrets

from fastapi import APIRouter, HTTPException

from scrawl.api.common import (PlaceBody, RecordBody, SeedBody, StoreDep, TileBody, errors, game_or_404,
                               sheet_or_404)
from scrawl.api.dungeons import SKIPPED, hero_view, record_limits, scored_entries, tile_names
from scrawl.scoring import game_document

router = APIRouter(tags=["Dungeon Maker"])
PLACES = ("entrance", "stairs")


@router.put("/api/games/{gid}/sheets/{sid}/tiles/{tile}", responses=errors(404, 422))
def correct_tile(gid: str, sid: str, tile: str, body: TileBody, store: StoreDep) -> dict:
    """Replace what was read on a tile (``C3``) with what a person sees: its path's sides (or a bridge's), an
    Acid Pond, a monster room, what is built on the path; all left out for an empty tile."""
    game, name = _maker_tile(store, gid, sid, tile)
    spec = tile_reading(body)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("tiles", {}).update({name: spec}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/tiles/{tile}", responses=errors(404))
def reset_tile(gid: str, sid: str, tile: str, store: StoreDep) -> dict:
    """Put back what the scanner read on a tile."""
    game, name = _maker_tile(store, gid, sid, tile)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("tiles", {}).pop(name, None))
    return game_document(store, game)


@router.put("/api/games/{gid}/sheets/{sid}/places/{place}", responses=errors(404, 422))
def correct_place(gid: str, sid: str, place: str, body: PlaceBody, store: StoreDep) -> dict:
    """Say where the ``entrance`` (``A1:N``: a corner tile and its outer side) or the ``stairs`` (a tile)
    are; null: the sheet has none."""
    game = _maker_place(store, gid, sid, place)
    at = None if body.at is None or not body.at.strip() else place_reading(place, body.at)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("places", {}).update({place: at}))
    return game_document(store, game)


@router.delete("/api/games/{gid}/sheets/{sid}/places/{place}", responses=errors(404))
def reset_place(gid: str, sid: str, place: str, store: StoreDep) -> dict:
    """Put back the entrance or the stairs the scanner read."""
    game = _maker_place(store, gid, sid, place)
    store.correct(gid, sid, lambda corrections: corrections.setdefault("places", {}).pop(place, None))
    return game_document(store, game)


@router.put("/api/games/{gid}/sheets/{sid}/record", responses=errors(404, 422))
def correct_record(gid: str, sid: str, body: RecordBody, store: StoreDep) -> dict:
    """Replace the counts read in the sheet's record (those given): Gems and Potions collected, rounds crossed
    off, Souls and crossed hearts, the spells got and cast."""
    counts = record_reading(body)
    return _corrected(store, gid, sid, lambda corrections: corrections.setdefault("record", {}).update(counts))


@router.delete("/api/games/{gid}/sheets/{sid}/record", responses=errors(404))
def reset_record(gid: str, sid: str, store: StoreDep) -> dict:
    """Put back every count the scanner read in the record."""
    return _corrected(store, gid, sid, lambda corrections: corrections.pop("record", None))


@router.post("/api/games/{gid}/sheets/{sid}/heroes", responses=errors(404, 422))
def play_heroes(gid: str, sid: str, store: StoreDep, body: SeedBody | None = None) -> dict:
    """Play the sheet's hero phase: with new dice (a new seed), or ``seed``'s to replay one. Refused (422,
    why) when the sheet has its Souls or hearts ticked, or its dungeon cannot be walked."""
    state = _hero_state(store, gid, sid)
    if state["state"] not in ("ready", "played"):
        raise HTTPException(422, state["why"])
    seed = body.seed if body is not None and body.seed is not None else secrets.randbelow(1_000_000)
    return _corrected(store, gid, sid, lambda corrections: corrections.update(heroes=seed))


@router.post("/api/games/{gid}/sheets/{sid}/heroes/skip", responses=errors(404, 422))
def skip_heroes(gid: str, sid: str, store: StoreDep) -> dict:
    """Score the sheet without a hero phase, when the table agrees: a dungeon the heroes cannot walk (no
    entrance, no stairs, a rule broken), or a game night that ran out of time. Its building score becomes
    final. Refused (422) when the sheet has its Souls or hearts ticked: those are its hero phase."""
    state = _hero_state(store, gid, sid)
    if state["state"] == "on_sheet":
        raise HTTPException(422, state["why"])
    return _corrected(store, gid, sid, lambda corrections: corrections.update(heroes=SKIPPED))


@router.delete("/api/games/{gid}/sheets/{sid}/heroes", responses=errors(404))
def reset_heroes(gid: str, sid: str, store: StoreDep) -> dict:
    """Forget the hero phase played (or left out) on the page: the sheet waits for its heroes again."""
    return _corrected(store, gid, sid, lambda corrections: corrections.pop("heroes", None))


def _corrected(store, gid: str, sid: str, change) -> dict:
    """Apply ``change`` to a Dungeon Maker sheet's corrections (404 for another game's or kind's sheet) and
    give the game as the page shows it."""
    game = _maker_game(store, gid)
    sheet_or_404(store, gid, sid, "maker")
    store.correct(gid, sid, change)
    return game_document(store, game)


def _hero_state(store, gid: str, sid: str) -> dict:
    """A Dungeon Maker sheet's hero phase as it stands (``hero_view``), before anything is played."""
    game = _maker_game(store, gid)
    sheet_or_404(store, gid, sid, "maker")
    _, scored = scored_entries(store, game)
    return hero_view(scored[sid], None)


# -- what a path names ----------------------------------------------------------------------------------
def _maker_game(store, gid: str) -> dict:
    game = game_or_404(store, gid)
    if game["kind"] != "maker":
        raise HTTPException(404, f"game {game['code']} is not a Dungeon Maker game")
    return game


def _maker_tile(store, gid: str, sid: str, tile: str) -> tuple[dict, str]:
    game = _maker_game(store, gid)
    sheet_or_404(store, gid, sid, "maker")
    name = tile.strip().upper()
    if name not in tile_names():
        raise HTTPException(404, f"no tile {tile} on a Dungeon Maker sheet: the tiles are A1 to F6")
    return game, name


def _maker_place(store, gid: str, sid: str, place: str) -> dict:
    game = _maker_game(store, gid)
    sheet_or_404(store, gid, sid, "maker")
    if place not in PLACES:
        raise HTTPException(404, f"no {place} on a Dungeon Maker sheet: correct the entrance or the stairs")
    return game


# -- a correction checked ----------------------------------------------------------------------------------
def tile_reading(body: TileBody) -> dict:
    """A tile a person says holds ``body``, as the dungeon document writes it; 422 with one line when it
    cannot be drawn (sides that are not sides, a monster that is not in the Market)."""
    from games.maps import SIDES

    from scrawl.api.dungeons import market_view

    sides = body.path.strip().upper()
    if set(sides) - set(SIDES) or len(set(sides)) != len(sides):
        raise HTTPException(422, f"path: {body.path!r} is not a set of sides: letters from N, E, S, W, like \"NS\"")
    if body.bridge and not sides:
        raise HTTPException(422, "bridge: a bridge path links sides: give them in path, like \"EW\"")
    market = market_view()
    for key, choices, what in (("room", market["rooms"], "a monster room"), ("on", market["on_path"],
                                                                             "built on a path")):
        value = getattr(body, key)
        if value is not None and value not in [item["id"] for item in choices]:
            raise HTTPException(422, f"{key}: {value!r} is not {what}: choose "
                                     f"{', '.join(item['id'] for item in choices)}")
    spec: dict = {}
    if sides:
        spec["bridge" if body.bridge else "path"] = "".join(side for side in SIDES if side in sides)
    if body.acid:
        spec["acid"] = True
    spec.update({key: getattr(body, key) for key in ("room", "on") if getattr(body, key)})
    return spec


def place_reading(place: str, text: str) -> str:
    """The entrance (``A1:N``) or the stairs' tile (``C4``) as a person wrote it, checked; 422 otherwise."""
    from games.heroes import CORNERS

    said = text.strip().upper().replace(" ", "")
    if place == "stairs":
        if said not in tile_names():
            raise HTTPException(422, f"stairs: {text!r} is not a tile: A1 to F6")
        return said
    choices = [f"{room.name}:{side}" for room, corner in sorted(CORNERS.items()) for side in corner]
    if said not in choices:
        raise HTTPException(422, f"entrance: {text!r} is not a way in: the entrance comes in from outside at a "
                                 f"corner, {', '.join(choices)}")
    return said


def record_reading(body: RecordBody) -> dict:
    """The record counts a person gives, checked against what one game can hold; 422 with one line otherwise."""
    from scrawl.api.dungeons import market_view

    counts = {key: value for key, value in body.model_dump().items() if value is not None}
    if not counts:
        raise HTTPException(422, "give at least one count to correct: gems, potions, rounds, souls, hearts, "
                                 "spells_got or spells_cast")
    for key, most in record_limits().items():
        if counts.get(key, 0) > most:
            raise HTTPException(422, f"{key}: {counts[key]} is more than the sheet has boxes for (at most {most})")
    spells = [spell["id"] for spell in market_view()["spells"]]
    for key in ("spells_got", "spells_cast"):
        if key in counts:
            unknown = [name for name in counts[key] if name not in spells]
            if unknown:
                raise HTTPException(422, f"{key}: {unknown[0]!r} is not a spell: choose {', '.join(spells)}")
            counts[key] = [name for name in spells if name in counts[key]]
    return counts
