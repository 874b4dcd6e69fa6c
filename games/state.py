"""A game's sheets as data: the scan-result document (CONTRACTS.md section 3), read, checked and scored.

The same document comes from ``scrawl scan --json`` or from a person typing
their sheets in. ``read_game`` turns it into sheets (and an error entry for each
sheet that cannot be read); ``score_game`` checks every sheet against the
drawing rules, resolves traps between them and scores them; ``game_json``
writes the document back with scores and ``needs_review`` filled in.

Expansion maps add, per sheet, the ``marks`` a player makes besides paths
(Diamonds and Emeralds crossed out, the Curse Track, Rune Gates filled in), and
the document may carry the game's die ``rolls`` (one a round, ``null`` where
unknown), against which every sheet's marks and Magic Doors are checked. A map
without expansion elements and a document without rolls read and write exactly
as before.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from games.review import Entry, Rule
from games.board import Board, Drawing, Marks
from games.cards import exits_text
from games.errors import ScrawlError, TemplateError
from games.mapfile import map_from_reference, map_reference
from games.maps import SIDES, DungeonMap, Room, interior_side
from games.rules import Problem, problems, shared_mark_problems
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
    rolls: tuple[int | None, ...] | None = None   # the game's die rolls (the document's), if given
    game: str | None = None     # the game code printed on the sheet (None: printed before codes, or typed)
    name: str | None = None     # the player's name, when known

    @property
    def label(self) -> str:
        """The sheet as people call it: its player's name, else "player N", else its source."""
        if self.name:
            return self.name
        return f"player {self.player}" if self.player else self.source


@dataclass
class SheetResult:
    sheet: SheetState
    score: Score
    problems: list[Problem]
    hits: list[TrapHit]
    review: list[Entry]         # what a person should check, written as the sheet's needs_review
    duplicate_of: int | None = None     # a second sheet of one player: the index of the first (not ranked)


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
    rolls = read_rolls(document.get("rolls"), source)
    sheets, errors = [], [dict(e) for e in document.get("errors", []) if isinstance(e, dict)]
    for index, raw in enumerate(sheets_raw):
        path = f"sheets[{index}]"
        name = raw.get("source") if isinstance(raw, dict) and isinstance(raw.get("source"), str) else path
        try:
            sheet = read_sheet(raw, path, name)
        except ScrawlError as exc:
            errors.append({"source": name, "error": str(exc)})
            continue
        sheet.rolls = rolls
        sheets.append(sheet)
    return sheets, errors


def read_rolls(raw, source: str = "STATE.json") -> tuple[int | None, ...] | None:
    """The document's ``rolls``: the die's numbers 1-6 in round order, ``null`` for a roll not known; absent
    is ``None``. Raises ``TemplateError`` naming each bad roll."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise TemplateError(source, [("rolls", f"should be the die's numbers in round order, like [3, 5, 1, 6, 2, 2, 4], "
                                               f"not {raw!r}")])
    found = [(f"rolls[{i}]", f"should be a number the die shows, 1-6 (or null if not known), not {roll!r}")
             for i, roll in enumerate(raw)
             if roll is not None and (not isinstance(roll, int) or isinstance(roll, bool) or not 1 <= roll <= 6)]
    if found:
        raise TemplateError(source, found)
    return tuple(raw)


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
    if player is not None and (not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= 99):
        found.append(("player", f"should be a player number from 1 to 99, not {player!r}"))
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
    marks = read_marks(raw.get("marks"), dungeon, found)
    game, who = raw.get("game"), raw.get("name")
    if game is not None and not (isinstance(game, str) and 0 < len(game) <= 16):
        found.append(("game", f"should be the game code printed on the sheet, like \"K7QX\", or null, not {game!r}"))
    if who is not None and not (isinstance(who, str) and len(who) <= 80):
        found.append(("name", f"should be the player's name (text, at most 80 characters) or null, not {who!r}"))
    if found:
        raise TemplateError(name, found)
    typed = name if isinstance(raw.get("source"), str) and re.fullmatch(r"[^/\\.#]{1,40}", name) else None
    return SheetState(source=name, dungeon=dungeon, board=Board(drawings, unusable, marks), player=player, raw=raw,
                      game=game, name=who or typed)     # a sheet typed as "anna", not a photo's path, is anna's


def read_marks(raw, dungeon: DungeonMap | None, found: list, path: str = "marks") -> Marks:
    """A sheet's ``marks`` (absent: nothing marked), each bad field added to ``found`` with its path.

    The Curse Track's halves are lists of true/false, one per space of the map's track; missing, they are
    all empty. A mark naming something the map lacks is read, and flagged by ``problems`` (``unknown_mark``).
    """
    if raw is None:
        return Marks()
    if not isinstance(raw, dict):
        found.append((path, 'should be like {"diamonds": [1, 3], "emeralds": [2], "curse_track": {"top": [true, '
                            'false], "bottom": [false, false]}, "gates": ["C6-D6"]}, not ' + repr(raw)))
        return Marks()
    for key in sorted(set(raw) - {"diamonds", "emeralds", "curse_track", "gates"}):
        found.append((f"{path}.{key}", "unknown mark (marks are: diamonds, emeralds, curse_track, gates)"))
    numbers = {key: _read_crossed_out(raw, key, what, found, path)
               for key, what in (("diamonds", "Diamond"), ("emeralds", "Emerald"))}
    halves = _read_curse_track(raw, dungeon, found, path)
    gates = _read_gates(raw, found, path)
    return Marks(diamonds=frozenset(numbers["diamonds"]), emeralds=frozenset(numbers["emeralds"]),
                 curse_top=halves["top"], curse_bottom=halves["bottom"], gates=frozenset(gates))


def _read_crossed_out(raw: dict, key: str, what: str, found: list, path: str) -> set[int]:
    """The numbers of the Diamonds or Emeralds (``what``) crossed out, listed under ``key``."""
    listed = raw.get(key, [])
    numbers = set()
    if not isinstance(listed, list):
        found.append((f"{path}.{key}", f"should be the numbers of the {what}s crossed out, like [1, 3], "
                                       f"not {listed!r}"))
        return numbers
    for i, number in enumerate(listed):
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 6:
            found.append((f"{path}.{key}[{i}]", f"should be a {what}'s number 1-6, not {number!r}"))
        else:
            numbers.add(number)
    return numbers


def _read_curse_track(raw: dict, dungeon: DungeonMap | None, found: list, path: str) -> dict[str, tuple]:
    """The Curse Track's ``top`` and ``bottom`` halves filled in, one true/false per space of the map's track."""
    spaces = dungeon.curse_spaces if dungeon is not None else 0
    halves = {"top": (False,) * spaces, "bottom": (False,) * spaces}
    track = raw.get("curse_track", {})
    if not isinstance(track, dict):
        found.append((f"{path}.curse_track", f'should be like {{"top": [true, false], "bottom": [false, false]}}, '
                                              f"not {track!r}"))
        track = {}
    for key in sorted(set(track) - set(halves)):
        found.append((f"{path}.curse_track.{key}", "unknown half (a space has a top and a bottom half)"))
    for key in halves:
        row = track.get(key)
        if row is None:
            continue
        if not isinstance(row, list) or not all(isinstance(half, bool) for half in row):
            found.append((f"{path}.curse_track.{key}", f"should be true or false for each space, left to right, "
                                                       f"not {row!r}"))
        elif dungeon is not None and len(row) != spaces:
            found.append((f"{path}.curse_track.{key}", f"{len(row)} halves, but this map's Curse Track has "
                                                       f"{spaces} spaces"))
        else:
            halves[key] = tuple(row)
    return halves


def _read_gates(raw: dict, found: list, path: str) -> set[frozenset[Room]]:
    """The sides of the Rune Gates filled in."""
    gates = set()
    listed = raw.get("gates", [])
    if not isinstance(listed, list):
        found.append((f"{path}.gates", f'should be the sides of the gates filled in, like ["C6-D6"], not {listed!r}'))
        listed = []
    for i, text in enumerate(listed):
        side = _read_side(text)
        if side is None:
            found.append((f"{path}.gates[{i}]", f"should be a side between two neighbouring rooms, like \"C6-D6\", "
                                                f"not {text!r}"))
        else:
            gates.add(side)
    return gates


def _read_side(text) -> frozenset[Room] | None:
    """``"C6-D6"`` as the side between two neighbouring rooms, or None."""
    if not isinstance(text, str) or text.count("-") != 1:
        return None
    try:
        a, b = (Room.parse(part) for part in text.split("-"))
    except ValueError:
        return None
    return interior_side(a, b) if a.steps_to(b) == 1 else None


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
    between: list[list[Problem]] = [[] for _ in sheets]
    for dungeon, members in groups.items():
        for local, found in enumerate(shared_mark_problems(dungeon, [sheets[i].board for i in members])):
            between[members[local]] = found
    results = []
    for index, sheet in enumerate(sheets):
        broken = problems(sheet.dungeon, sheet.board, rolls=sheet.rolls) + between[index]
        review = [Entry.from_json(entry) for entry in sheet.raw.get("needs_review", []) if isinstance(entry, dict)]
        for problem in broken:
            if not any(old.where == problem.where and old.why == problem.why for old in review):
                review.append(Entry(problem.where, problem.rule, problem.why))
        if not sheet.board.drawings and not sheet.board.unusable and sheet.board.marks.empty:
            review.append(Entry("sheet", Rule.BLANK_SHEET, "nothing is drawn on this sheet: is it the finished "
                                                           "sheet, and the right photo?"))
        if len(groups) > 1:
            review.append(Entry("map", Rule.MIXED_MAPS, "the sheets of this game are not all on one map; traps were "
                                                        "resolved only between sheets on the same map"))
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
            "needs_review": [entry.to_json() for entry in result.review],
        })
        if sheet.dungeon.expansion_features():
            out["marks"] = sheet.board.marks.to_json()
        sheets.append(out)
    document = {"format": FORMAT}
    rolls = next((result.sheet.rolls for result in results if result.sheet.rolls is not None), None)
    if rolls is not None:
        document["rolls"] = list(rolls)
    return {**document, "sheets": sheets, "errors": errors}
