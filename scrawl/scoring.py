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

from games.review import READING_DOUBTS, Rule
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

    rooms, rounds = [], corrections.get("rounds", {})
    for name, read in readings["rooms"].items():
        number = rounds.get(name, read["round"])
        if name in corrections["rooms"]:
            reading = corrections["rooms"][name]
            rooms.append(RoomReading(name, "" if reading == "X" else reading, reading == "X", number))
        else:
            rooms.append(RoomReading(name, read["exits"], read["trap"], number, read["confidence"],
                                     tuple(read["doubts"])))
    tally, count = readings["tally"], corrections["unusable"]
    strokes = tuple((x, kind) for x, kind in tally["strokes"])
    if count is None:
        return rooms, TallyReading(tally["count"], tally["confidence"], strokes, tuple(tally["doubts"]))
    return rooms, TallyReading(count, 1.0, strokes)


def corrected_sheet(sheet: dict, readings: dict, corrections: dict) -> dict:
    """A scanned sheet (scan format, unscored) with a person's corrections in place of what was read: rooms,
    round numbers, the tally and the expansion marks. The scanner's doubts about what a person corrected
    are dropped (a person looked), and its confidence is that of the readings left."""
    out = json.loads(json.dumps(sheet))
    fixed = corrections["rooms"]
    for name, reading in fixed.items():
        out["rooms"].pop(name, None)
        if reading:
            out["rooms"][name] = {"exits": "" if reading == "X" else reading, "trap": reading == "X",
                                  "round": readings["rooms"].get(name, {}).get("round")}
    for name, number in corrections.get("rounds", {}).items():
        if name in out["rooms"]:
            out["rooms"][name]["round"] = number
    settled = {where for where in fixed}
    if corrections.get("marks"):
        out["marks"], marks_settled = corrected_marks(out.get("marks") or {}, corrections["marks"], sheet["map"])
        settled |= marks_settled
    review = [entry for entry in out.get("needs_review", [])
              if not (entry.get("where") in settled and entry.get("rule") in READING_DOUBTS + (Rule.UNSURE_MARK,))]
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


# -- the expansion marks -----------------------------------------------------------------------------------
def mark_list(reference: dict) -> list[dict]:
    """Every mark a player makes on a sheet of this map besides paths, as the page offers them: its key
    (``diamond-3``, ``emerald-2``, ``curse-top-1``, ``curse-bottom-4``, ``gate-C4-D4``), what people call
    it, and where a ``needs_review`` entry about it points."""
    return _marks_of(json.dumps(reference, sort_keys=True))


@lru_cache(maxsize=32)
def _marks_of(reference: str) -> list[dict]:
    dungeon = dungeon_of(reference)
    marks = []
    for kind, label in (("diamond", "Diamond"), ("emerald", "Emerald")):
        for room, item in sorted(dungeon.rooms_with(kind), key=lambda pair: pair[1].number):
            marks.append({"mark": f"{kind}-{item.number}", "kind": kind, "label": f"{label} {item.number}",
                          "where": room.name, "room": room.name})
    for half in ("top", "bottom"):
        for space in range(1, dungeon.curse_spaces + 1):
            marks.append({"mark": f"curse-{half}-{space}", "kind": f"curse_{half}", "label": f"Curse {space} {half}",
                          "where": f"curse track space {space} ({half})", "room": None})
    from games.board import side_name

    for side, glyph in sorted(dungeon.gates, key=lambda gate: side_name(gate[0])):
        name = side_name(side)
        marks.append({"mark": f"gate-{name}", "kind": "gate", "label": f"Rune Gate {name}", "where": name,
                      "room": None, "glyph": glyph})
    return marks


def marks_state(marks: dict | None, reference: dict) -> dict[str, bool]:
    """Which of the map's marks (``mark_list``) a scan-format ``marks`` dict has marked, by key."""
    marks = marks or {}
    track = marks.get("curse_track") or {}
    gates = {frozenset(str(gate).split("-")) for gate in marks.get("gates") or []}
    state = {}
    for mark in mark_list(reference):
        kind, key = mark["kind"], mark["mark"]
        if kind in ("diamond", "emerald"):
            state[key] = int(key.rsplit("-", 1)[1]) in (marks.get(f"{kind}s") or [])
        elif kind.startswith("curse_"):
            row, space = track.get(kind[6:]) or [], int(key.rsplit("-", 1)[1])
            state[key] = bool(row[space - 1]) if space <= len(row) else False
        else:
            state[key] = frozenset(mark["where"].split("-")) in gates
    return state


def corrected_marks(marks: dict, fixed: dict[str, bool], reference: dict) -> tuple[dict, set[str]]:
    """A scan-format ``marks`` dict with a person's marks (``{key: marked}``) in place of those read, and
    where the ``needs_review`` entries about the corrected marks point."""
    listed = {mark["mark"]: mark for mark in mark_list(reference)}
    state = marks_state(marks, reference)
    state.update({key: bool(value) for key, value in fixed.items() if key in listed})
    out = {"diamonds": [], "emeralds": [], "gates": []}
    spaces = sum(mark["kind"] == "curse_top" for mark in listed.values())
    track = {"top": [False] * spaces, "bottom": [False] * spaces}
    for key, marked in state.items():
        mark = listed[key]
        if not marked:
            continue
        if mark["kind"] in ("diamond", "emerald"):
            out[mark["kind"] + "s"].append(int(key.rsplit("-", 1)[1]))
        elif mark["kind"].startswith("curse_"):
            track[mark["kind"][6:]][int(key.rsplit("-", 1)[1]) - 1] = True
        else:
            out["gates"].append(mark["where"])
    if spaces:
        out["curse_track"] = track
    return out, {listed[key]["where"] for key in fixed if key in listed}


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
    duplicate_of: dict          # sheet id -> the sheet id of the same player's first sheet (a second sheet)


def scored_game(store: Store, game: dict) -> Scored:
    """Every sheet of the game with its corrections, and every photo's error, scored together (the marks
    checked against the die roller's rolls, when it was used)."""
    from games.state import FORMAT, game_json
    from games.game import score_document

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
        raw["game"] = game.get("code")      # a sheet printed before codes is of this game too: it was sent here
        raw["name"] = game_name(game["players"], raw.get("player"))
        unscored[sheet["id"]] = raw
    errors = [{"source": labels[photo["id"]], "error": photo["error"]} for photo in photos if photo["error"]]
    results, errors = score_document({"format": FORMAT, "sheets": list(unscored.values()), "errors": errors},
                                     rolls=_known_rolls(game))
    document = game_json(results, errors)
    by_source = {sheet["source"]: sheet for sheet in document["sheets"]}
    by_id = {sid: by_source[raw["source"]] for sid, raw in unscored.items() if raw["source"] in by_source}
    sid_of = {raw["source"]: sid for sid, raw in unscored.items()}
    duplicate_of = {sid_of[result.sheet.source]: sid_of[results[result.duplicate_of].sheet.source]
                    for result in results if result.duplicate_of is not None}
    return Scored(photos, stored, labels, unscored, by_id, document, duplicate_of)


def _known_rolls(game: dict) -> list | None:
    """The die's rolls the page's die roller made, one a round, the rounds not rolled yet unknown (None); None
    when the roller was not used (a die at the table): the marks are then checked against no rolls."""
    from games.deal import ROUNDS

    rolls = game.get("rolls") or []
    return rolls + [None] * (ROUNDS - len(rolls)) if rolls else None


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
    rooms are on the overlay picture, and the scoreboard. A monster battle's is ``scrawl.api.rosters``', a
    Dungeon Maker game's ``scrawl.api.dungeons``'."""
    if game.get("kind") == "monster":
        from scrawl.api.rosters import battle_document

        return battle_document(store, game)
    if game.get("kind") == "maker":
        from scrawl.api.dungeons import maker_document

        return maker_document(store, game)
    scored = scored_game(store, game)
    gid, players = game["id"], game["players"]
    sheet_ids: dict[str, list[str]] = {}
    for sheet in scored.stored:
        sheet_ids.setdefault(sheet["photo_id"], []).append(sheet["id"])
    photos = [{"id": photo["id"], "name": scored.labels[photo["id"]], "uploaded": photo["uploaded"],
               "error": photo["error"], "sheets": sheet_ids.get(photo["id"], [])} for photo in scored.photos]
    sheets = [_sheet_view(game, scored, stored) for stored in scored.stored if stored["id"] in scored.by_id]
    # A sheet the rules cannot read at all is in "errors", with the reason.
    return {"id": gid, "code": game.get("code"), "created": game["created"], "players": players,
            "map": game["map"], "paper": game["paper"], "print": print_links(game), "photos": photos,
            "sheets": sheets, "scoreboard": scoreboard(sheets), "errors": scored.document["errors"],
            "needs_review": sum(bool(s["needs_review"]) for s in sheets), "die": die_view(game), "kind": "map"}


def die_view(game: dict) -> dict | None:
    """The die roller of a game on a map played with the die (None on others): the die's faces, the game's
    rounds, and each roll so far with what it makes every player do this round (``round_instructions``)."""
    from games.deal import ROUNDS
    from games.die import load_die, round_instructions

    if game.get("kind") in ("monster", "maker"):
        return None
    dungeon = dungeon_of(json.dumps(game["map"], sort_keys=True))
    if not dungeon.needs_die:
        return None
    die, rolls = load_die(), game.get("rolls") or []
    todo = round_instructions(dungeon, rolls, die)
    return {"faces": [{"number": number, "icon": icon} for number, icon in die.faces], "rounds": ROUNDS,
            "rolls": [{"round": index + 1, "roll": roll, "icon": die.icon(roll), "lines": lines[1:]}
                      for index, (roll, lines) in enumerate(zip(rolls, todo))]}


def _sheet_view(game: dict, scored: Scored, stored: dict) -> dict:
    """One scored sheet as the page shows it (``game_document``)."""
    gid, players = game["id"], game["players"]
    sid, corrections = stored["id"], stored["corrections"]
    sheet = scored.by_id[sid]
    sid_of_source = {raw["source"]: other for other, raw in scored.unscored.items()}
    name_of_source = {raw["source"]: player_name(players, raw.get("player")) for raw in scored.unscored.values()}
    rooms = {name: dict(room, corrected=name in corrections["rooms"],
                        round_corrected=name in corrections["rounds"]) for name, room in sheet["rooms"].items()}
    for name, reading in corrections["rooms"].items():
        if not reading:
            rooms[name] = {"exits": "", "trap": False, "round": None, "corrected": True, "round_corrected": False}
    review = [dict(entry, sheet=sid_of_source.get(entry.get("from"), sid),
                   player_name=name_of_source.get(entry.get("from"), player_name(players, sheet.get("player"))))
              for entry in sheet["needs_review"]]
    marked = marks_state(sheet.get("marks"), sheet["map"])
    marks = [dict(mark, marked=marked[mark["mark"]], corrected=mark["mark"] in corrections["marks"])
             for mark in mark_list(sheet["map"])]
    version = hashlib.sha1(json.dumps([sheet, corrections], sort_keys=True).encode()).hexdigest()[:12]
    return {
        "id": sid, "photo_id": stored["photo_id"], "source": sheet["source"], "player": sheet.get("player"),
        "name": player_name(players, sheet.get("player")), "game": stored["sheet"].get("game"),
        "overlay": f"/api/games/{gid}/sheets/{sid}/overlay.png?v={version}",
        "total": sheet["score"]["total"], "score": sheet["score"], "needs_review": review,
        "trap_hits": [dict(hit, name=name_of_source.get(hit["by"], hit["by"])) for hit in sheet["trap_hits"]],
        "rooms": dict(sorted(rooms.items(), key=lambda item: _reading_order(item[0]))),
        "unusable": sheet["unusable"], "unusable_corrected": corrections["unusable"] is not None,
        "marks": marks, "confidence": sheet.get("confidence"),
        "duplicate": any(entry.get("rule") == Rule.DUPLICATE_SHEET for entry in sheet["needs_review"]),
        "duplicate_of": scored.duplicate_of.get(sid),
        "corrections": sum(map(len, (corrections["rooms"], corrections["rounds"], corrections["marks"])))
        + (corrections["unusable"] is not None),
        "geometry": geometry(json.dumps(sheet["map"], sort_keys=True), sheet.get("paper", "a4"), sheet.get("design")),
    }


def scoreboard(sheets: list[dict]) -> list[dict]:
    """Highest total first; equal totals share a place (1, 1, 3), in player order. A second sheet of one
    player is not ranked (it is scored in that player's place, to compare)."""
    sheets = [sheet for sheet in sheets if not sheet.get("duplicate_of")]
    ranked = sorted(sheets, key=lambda s: (-s["total"], s["player"] or 0))
    return [{"place": 1 + sum(other["total"] > s["total"] for other in sheets), "name": s["name"],
             "player": s["player"], "total": s["total"], "sheet": s["id"]} for s in ranked]


def game_name(players: list[str], player) -> str | None:
    """The name the game gives a player number, or None beyond its players."""
    return players[player - 1] if isinstance(player, int) and 1 <= player <= len(players) else None


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
    """Where the page's print links point: the game's sheets, one per player with its name and the game's
    code, and the decks."""
    from games.cards import DECKS

    return {"sheets": f"/print/games/{game['id']}/sheets.pdf",
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
def geometry(reference: str, paper: str, design: int | None = None) -> dict:
    """Where each room of a sheet is on its overlay picture, in mm, and what may be drawn in it (``design``:
    a sheet printed by an earlier release; None: the current design)."""
    from sheets.dungeon import DESIGN, sheet_layout
    from scanner.scan import PX_PER_MM

    dungeon = dungeon_of(reference)
    layout = sheet_layout(dungeon, paper, design or DESIGN)
    return {"px_per_mm": PX_PER_MM, "width": int(round(layout.width * PX_PER_MM)),
            "height": int(round(layout.height * PX_PER_MM)),
            "rooms": [{"room": cell.room.name, "x": cell.rect.x, "y": cell.rect.y, "w": cell.rect.w,
                       "h": cell.rect.h, "options": room_options(dungeon, cell.room)} for cell in layout.rooms]}
