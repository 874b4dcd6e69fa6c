"""A stored game scored: what ``scrawl serve`` shows of a game, and what it exports.

Nothing scored is stored. Each time a game is asked for, every sheet read from
its photos, with the corrections people made in place of what the scanner read,
and every photo that could not be read, are scored together as ``scrawl scan``
scores the photos of one call (traps resolved between the sheets). So a retake,
a correction or a restart never leaves a stale score behind.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from urllib.parse import urlencode

from games.review import READING_DOUBTS
from scrawl.store import Store


# -- readings ----------------------------------------------------------------------------------------------
def readings_json(rooms, tally) -> dict:
    """What the overlay picture needs of the scanner's readings (``scanner.read``), as JSON."""
    return {"rooms": {r.room: {"exits": r.exits, "trap": bool(r.trap), "round": None if r.round is None else int(r.round),
                               "confidence": float(r.confidence), "doubts": list(r.doubts)} for r in rooms},
            "tally": {"count": int(tally.count), "confidence": float(tally.confidence),
                      "strokes": [[float(x), int(kind)] for x, kind in tally.strokes], "doubts": list(tally.doubts)}}


def current_readings(readings: dict, corrections: dict):
    """The readings with a person's corrections in place of the scanner's: ``(rooms, tally)`` for
    ``scanner.overlay.draw_overlay``."""
    from scanner.read import RoomReading, TallyReading

    rooms = []
    for name, read in readings["rooms"].items():
        if name in corrections["rooms"]:
            reading = corrections["rooms"][name]
            rooms.append(RoomReading(name, "" if reading == "X" else reading, reading == "X", read["round"]))
        else:
            rooms.append(RoomReading(name, read["exits"], read["trap"], read["round"], read["confidence"],
                                     tuple(read["doubts"])))
    tally, count = readings["tally"], corrections["unusable"]
    strokes = tuple((x, kind) for x, kind in tally["strokes"])
    if count is None:
        return rooms, TallyReading(tally["count"], tally["confidence"], strokes, tuple(tally["doubts"]))
    return rooms, TallyReading(count, 1.0, strokes)


def corrected_sheet(sheet: dict, readings: dict, corrections: dict) -> dict:
    """A scanned sheet (scan format, unscored) with a person's corrections in place of what was read. The
    scanner's doubts about a corrected room or tally are dropped (a person looked), and its confidence is
    that of the readings left."""
    out = json.loads(json.dumps(sheet))
    fixed = corrections["rooms"]
    for name, reading in fixed.items():
        out["rooms"].pop(name, None)
        if reading:
            out["rooms"][name] = {"exits": "" if reading == "X" else reading, "trap": reading == "X",
                                  "round": readings["rooms"].get(name, {}).get("round")}
    review = [entry for entry in out.get("needs_review", [])
              if not (entry.get("where") in fixed and entry.get("rule") in READING_DOUBTS)]
    sure = [read["confidence"] for name, read in readings["rooms"].items() if name not in fixed]
    if corrections["unusable"] is None:
        sure.append(readings["tally"]["confidence"])
    else:
        out["unusable"] = corrections["unusable"]
        review = [entry for entry in review
                  if not (entry.get("where") == "tally 6" and entry.get("rule") in READING_DOUBTS)]
    out["needs_review"] = review
    out["confidence"] = round(min(sure, default=1.0), 3)
    return out


# -- a game scored -----------------------------------------------------------------------------------------
@dataclass
class Scored:
    """A game scored: its photos and stored sheets, each photo's name as shown, each sheet's scan-format
    dict before scoring and as scored (by sheet id), and the whole scan document (the export)."""

    photos: list[dict]
    stored: list[dict]
    labels: dict
    unscored: dict
    by_id: dict
    document: dict


def scored_game(store: Store, game: dict) -> Scored:
    """Every sheet of the game with its corrections, and every photo's error, scored together."""
    from games.state import FORMAT, game_json
    from scrawl.service import score_document

    photos = store.photos(game["id"])
    stored = store.sheets(game["id"])
    labels = _labels(photos)
    names = {photo["id"]: photo["name"] for photo in photos}
    unscored = {}
    for sheet in stored:
        raw = corrected_sheet(sheet["sheet"], sheet["readings"], sheet["corrections"])
        # The scanner named the sheet after the photo's name (plus "#page=2" and the like in a PDF); the
        # photo's label keeps two players' "image.jpg" apart.
        name, source = names[sheet["photo_id"]], raw.get("source", "")
        raw["source"] = labels[sheet["photo_id"]] + (source[len(name):] if source.startswith(name) else "")
        raw.setdefault("name", None)
        unscored[sheet["id"]] = raw
    errors = [{"source": labels[photo["id"]], "error": photo["error"]} for photo in photos if photo["error"]]
    results, errors = score_document({"format": FORMAT, "sheets": list(unscored.values()), "errors": errors})
    document = game_json(results, errors)
    by_source = {sheet["source"]: sheet for sheet in document["sheets"]}
    by_id = {sid: by_source[raw["source"]] for sid, raw in unscored.items() if raw["source"] in by_source}
    return Scored(photos, stored, labels, unscored, by_id, document)


def _labels(photos: list[dict]) -> dict:
    """Each photo's name, made unique in its game (every iPhone calls its photos image.jpg)."""
    labels, taken = {}, set()
    for photo in photos:
        name = photo["name"]
        stem, dot, suffix = name.rpartition(".") if "." in name else (name, "", "")
        label, number = name, 2
        while label in taken:
            label = f"{stem} ({number}){dot}{suffix}"
            number += 1
        taken.add(label)
        labels[photo["id"]] = label
    return labels


def game_document(store: Store, game: dict) -> dict:
    """The game as the page shows it: its photos, each sheet scored with what needs a look and where its
    rooms are on the overlay picture, and the scoreboard."""
    scored = scored_game(store, game)
    gid, players = game["id"], game["players"]
    sheet_ids: dict[str, list[str]] = {}
    for sheet in scored.stored:
        sheet_ids.setdefault(sheet["photo_id"], []).append(sheet["id"])
    photos = [{"id": photo["id"], "name": scored.labels[photo["id"]], "uploaded": photo["uploaded"],
               "error": photo["error"], "sheets": sheet_ids.get(photo["id"], [])} for photo in scored.photos]
    name_of_source = {raw["source"]: player_name(players, raw.get("player")) for raw in scored.unscored.values()}

    sheets = []
    for stored in scored.stored:
        sid, corrections = stored["id"], stored["corrections"]
        sheet = scored.by_id.get(sid)
        if sheet is None:       # a sheet the rules cannot read at all is in "errors", with the reason
            continue
        rooms = {name: dict(room, corrected=name in corrections["rooms"]) for name, room in sheet["rooms"].items()}
        for name, reading in corrections["rooms"].items():
            if not reading:
                rooms[name] = {"exits": "", "trap": False, "round": None, "corrected": True}
        version = hashlib.sha1(json.dumps([sheet, corrections], sort_keys=True).encode()).hexdigest()[:12]
        sheets.append({
            "id": sid, "photo_id": stored["photo_id"], "source": sheet["source"], "player": sheet.get("player"),
            "name": player_name(players, sheet.get("player")),
            "overlay": f"/api/games/{gid}/sheets/{sid}/overlay.png?v={version}",
            "total": sheet["score"]["total"], "score": sheet["score"], "needs_review": sheet["needs_review"],
            "trap_hits": [dict(hit, name=name_of_source.get(hit["by"], hit["by"])) for hit in sheet["trap_hits"]],
            "rooms": dict(sorted(rooms.items(), key=lambda item: _reading_order(item[0]))),
            "unusable": sheet["unusable"], "unusable_corrected": corrections["unusable"] is not None,
            "confidence": sheet.get("confidence"),
            "geometry": geometry(json.dumps(sheet["map"], sort_keys=True), sheet.get("paper", "a4")),
        })
    return {"id": gid, "created": game["created"], "players": players, "map": game["map"], "paper": game["paper"],
            "print": print_links(game), "photos": photos, "sheets": sheets, "scoreboard": scoreboard(sheets),
            "errors": scored.document["errors"], "needs_review": sum(bool(s["needs_review"]) for s in sheets)}


def scoreboard(sheets: list[dict]) -> list[dict]:
    """Highest total first; equal totals share a place (1, 1, 3), in player order."""
    ranked = sorted(sheets, key=lambda s: (-s["total"], s["player"] or 0))
    return [{"place": 1 + sum(other["total"] > s["total"] for other in sheets), "name": s["name"],
             "player": s["player"], "total": s["total"], "sheet": s["id"]} for s in ranked]


def player_name(players: list[str], player) -> str:
    """The name a player number has in this game: ``players[player - 1]``, or "Player 5" beyond them."""
    if isinstance(player, int) and 1 <= player <= len(players):
        return players[player - 1]
    return f"Player {player}" if player else "A player"


def _reading_order(name: str):
    from games.maps import Room

    room = Room.parse(name)
    return room.row, room.col


def print_links(game: dict) -> dict:
    """Where the page's print links point: the game's sheets, one per player, and the decks."""
    from games.cards import DECKS

    ref = game["map"]
    query = urlencode({"map": ref["id"], "seed": "" if ref.get("seed") is None else ref["seed"],
                       "players": len(game["players"]), "paper": game["paper"]})
    return {"sheets": f"/print/sheets.pdf?{query}",
            "decks": {name: f"/print/deck/{name}.pdf?paper={game['paper']}" for name in DECKS}}


# -- where rooms are and what may be drawn in them ---------------------------------------------------------
def room_options(dungeon, room) -> list[str]:
    """What a person may say is drawn in a room, in the order a tap cycles through them: nothing, each set
    of sides a segment may link to (never a wall), then a Trap where there is no item."""
    from games.maps import SIDES
    from games.rules import wall_sides

    links = ["".join(sides) for count in range(1, len(SIDES) + 1) for sides in combinations(SIDES, count)
             if not wall_sides(dungeon, room, "".join(sides))]
    return [""] + links + (["X"] if dungeon.item_at(room) is None else [])


def normal_reading(text: str) -> str:
    """A reading as the options spell it: ``"sn"`` -> ``"NS"`` (sides in NESW order), ``"x"`` -> ``"X"``."""
    from games.maps import SIDES

    upper = text.strip().upper()
    if upper and set(upper) <= set(SIDES) and len(set(upper)) == len(upper):
        return "".join(side for side in SIDES if side in upper)
    return upper


@lru_cache(maxsize=32)
def dungeon_of(reference: str):
    """The map a sheet names (its map reference as sorted JSON, so that it can be cached)."""
    from games.mapfile import map_from_reference

    return map_from_reference(json.loads(reference))


@lru_cache(maxsize=32)
def geometry(reference: str, paper: str) -> dict:
    """Where each room of a sheet is on its overlay picture, in mm, and what may be drawn in it."""
    from sheets.dungeon import sheet_layout
    from scanner.scan import PX_PER_MM

    dungeon = dungeon_of(reference)
    layout = sheet_layout(dungeon, paper)
    return {"px_per_mm": PX_PER_MM, "width": int(round(layout.width * PX_PER_MM)),
            "height": int(round(layout.height * PX_PER_MM)),
            "rooms": [{"room": cell.room.name, "x": cell.rect.x, "y": cell.rect.y, "w": cell.rect.w,
                       "h": cell.rect.h, "options": room_options(dungeon, cell.room)} for cell in layout.rooms]}
