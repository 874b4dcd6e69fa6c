"""A game's sheets as data: the scan-result document (CONTRACTS.md section 3), read, checked and scored.

The same document comes from ``scrawl scan --json`` or from a person typing
their sheets in. ``read_game`` turns it into sheets (and an error entry for each
sheet that cannot be read); ``score_game`` checks every sheet against the
drawing rules, resolves traps between them and scores them; ``game_json``
writes the document back with scores and ``needs_review`` filled in.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from games.board import Board, Drawing
from games.cards import exits_text
from games.errors import ScrawlError, TemplateError
from games.mapfile import map_from_reference, map_reference
from games.maps import SIDES, DungeonMap, Room
from games.rules import Problem, problems
from games.scoring import Score, TrapHit, resolve_traps, score

FORMAT = "scrawl.scan/1"


@dataclass
class SheetState:
    """One sheet of the game: where it came from, its map, the player's drawing."""

    source: str
    dungeon: DungeonMap
    board: Board
    player: int | None = None
    raw: dict = field(default_factory=dict)   # the sheet as given, echoed back with scores filled in


@dataclass
class SheetResult:
    sheet: SheetState
    score: Score
    problems: list[Problem]
    hits: list[TrapHit]
    review: list[dict]


def read_game(document, source: str = "STATE.json") -> tuple[list[SheetState], list[dict]]:
    """The sheets of a scan-result document, and an ``errors`` entry for each sheet that cannot be read.

    Raises ``TemplateError`` if the document as a whole is not a scan result.
    """
    if not isinstance(document, dict):
        raise TemplateError(source, [("", 'should be a JSON object like {"format": "scrawl.scan/1", "sheets": [...]}')])
    fmt = document.get("format", FORMAT)
    if fmt != FORMAT:
        raise TemplateError(source, [("format", f"{fmt!r} is not a format this release reads (it reads {FORMAT!r})")])
    sheets_raw = document.get("sheets")
    if not isinstance(sheets_raw, list):
        raise TemplateError(source, [("sheets", "missing: list the sheets, like \"sheets\": [{\"map\": \"classic\", \"rooms\": {...}}]")])
    sheets, errors = [], [dict(e) for e in document.get("errors", []) if isinstance(e, dict)]
    for index, raw in enumerate(sheets_raw):
        path = f"sheets[{index}]"
        name = raw.get("source") if isinstance(raw, dict) and isinstance(raw.get("source"), str) else path
        try:
            sheets.append(read_sheet(raw, path, name))
        except ScrawlError as exc:
            errors.append({"source": name, "error": str(exc)})
    return sheets, errors


def read_sheet(raw, path: str, name: str) -> SheetState:
    """One sheet of the document. Raises ``TemplateError`` listing every problem in it."""
    if not isinstance(raw, dict):
        raise TemplateError(path, [("", "should be an object with map, rooms and unusable")])
    found: list[tuple[str, str]] = []
    dungeon = None
    try:
        dungeon = map_from_reference(raw.get("map", "classic"))
    except ScrawlError as exc:
        found.append(("map", str(exc)))
    player = raw.get("player")
    if player is not None and (not isinstance(player, int) or isinstance(player, bool) or player < 1):
        found.append(("player", f"should be a player number from 1, not {player!r}"))
    unusable = raw.get("unusable", 0)
    if not isinstance(unusable, int) or isinstance(unusable, bool) or unusable < 0:
        found.append(("unusable", f"should be the tally beside item 6, a whole number from 0, not {unusable!r}"))
    rooms = raw.get("rooms", {})
    drawings = {}
    if not isinstance(rooms, dict):
        found.append(("rooms", 'should be an object like {"B1": {"exits": "NS", "trap": false, "round": 1}}'))
    else:
        for key, entry in rooms.items():
            room_path = f"rooms.{key}"
            try:
                room = Room.parse(key)
            except ValueError as exc:
                found.append((room_path, str(exc)))
                continue
            if dungeon is not None and not dungeon.contains(room):
                found.append((room_path, f"{room.name} is not on the {dungeon.cols}x{dungeon.rows} map"))
                continue
            if room in drawings:
                found.append((room_path, f"{room.name} is listed twice"))
                continue
            drawing = _read_drawing(entry, room_path, found)
            if drawing is not None:
                drawings[room] = drawing
    if found:
        raise TemplateError(name, found)
    return SheetState(source=name, dungeon=dungeon, board=Board(drawings, unusable), player=player, raw=raw)


def _read_drawing(entry, path: str, found: list) -> Drawing | None:
    if not isinstance(entry, dict):
        found.append((path, f'should be like {{"exits": "NS", "trap": false, "round": 1}}, not {entry!r}'))
        return None
    ok = True
    exits = entry.get("exits", "")
    segments = entry.get("segments")
    for key, value in [("exits", exits)] + [(f"segments[{i}]", s) for i, s in enumerate(segments or [])]:
        if not isinstance(value, str) or set(value.upper()) - set(SIDES) or len(set(value.upper())) != len(value):
            found.append((f"{path}.{key}", f"should be sides from NESW, each once, like \"NS\", not {value!r}"))
            ok = False
    if segments is not None and not isinstance(segments, list):
        found.append((f"{path}.segments", f"should be a list of segments like [\"NS\", \"EW\"], not {segments!r}"))
        ok = False
    trap = entry.get("trap", False)
    if not isinstance(trap, bool):
        found.append((f"{path}.trap", f"should be true or false, not {trap!r}"))
        ok = False
    round_number = entry.get("round")
    if round_number is not None and (not isinstance(round_number, int) or isinstance(round_number, bool)):
        found.append((f"{path}.round", f"should be the round number written in the room, or null, not {round_number!r}"))
        ok = False
    if not ok:
        return None
    if segments:
        parts = tuple(exits_text(s.upper()) for s in segments)
    else:
        parts = (exits_text(exits.upper()),) if exits else ()
    return Drawing(segments=parts, trap=trap, round=round_number)


def score_game(sheets: list[SheetState]) -> list[SheetResult]:
    """Check and score every sheet; traps are resolved between sheets on the same map."""
    groups: dict[DungeonMap, list[int]] = defaultdict(list)
    for index, sheet in enumerate(sheets):
        groups[sheet.dungeon].append(index)
    hits: list[list[TrapHit]] = [[] for _ in sheets]
    for members in groups.values():
        for local, found in enumerate(resolve_traps([sheets[i].board for i in members])):
            hits[members[local]] = [TrapHit(h.room, members[h.owner], members[h.victim]) for h in found]
    results = []
    for index, sheet in enumerate(sheets):
        broken = problems(sheet.dungeon, sheet.board)
        review = [entry for entry in sheet.raw.get("needs_review", []) if isinstance(entry, dict)]
        for problem in broken:
            entry = problem.to_json()
            if not any(old.get("where") == entry["where"] and old.get("why") == entry["why"] for old in review):
                review.append(entry)
        if len(groups) > 1:
            review.append({"where": "map", "rule": "mixed_maps",
                           "why": "the sheets of this game are not all on one map; traps were resolved only "
                                  "between sheets on the same map"})
        results.append(SheetResult(sheet, score(sheet.dungeon, sheet.board, len(hits[index])), broken,
                                   hits[index], review))
    return results


def game_json(results: list[SheetResult], errors: list[dict]) -> dict:
    """The scan-result document with every sheet's score, trap hits and needs_review filled in."""
    sheets = []
    for result in results:
        sheet = result.sheet
        out = dict(sheet.raw)
        out.update({
            "source": sheet.source,
            "map": map_reference(sheet.dungeon),
            "player": sheet.player,
            "rooms": sheet.board.rooms_json(),
            "unusable": sheet.board.unusable,
            "score": result.score.to_json(),
            "trap_hits": [{"room": h.room.name, "by": results[h.owner].sheet.source, "shared": h.shared}
                          for h in result.hits],
            "confidence": sheet.raw.get("confidence", 1.0),
            "needs_review": result.review,
        })
        sheets.append(out)
    return {"format": FORMAT, "sheets": sheets, "errors": errors}
