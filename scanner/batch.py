"""Scanning the photos of one game: each file read (on both cores when there are several), then all
sheets scored together so that traps are resolved between them.

A file that cannot be read becomes an ``errors`` entry; the others go on.
Monster record sheets, when their blank renderer is given, become ``rosters``
entries (``scanner.monsters``): one per player, their pages merged.
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Callable

from scanner.load import PhotoError, load_photo_bytes, load_photos
from scanner.read import RoomReading, TallyReading
from scanner.monsters import MonsterScan, merge_entries
from scanner.scan import BlankRenderer, MonsterBlankRenderer, scan_photo

PARALLEL_FROM = 3       # fewer photos than this are read in this process: starting workers costs more


@dataclass
class PhotoOutcome:
    """What one file gave: its sheets as scan-format dicts, the readings behind them, and its errors."""

    source: str
    sheets: list[dict] = field(default_factory=list)
    readings: list[tuple[list[RoomReading], TallyReading]] = field(default_factory=list)
    pages: list[bytes] = field(default_factory=list)      # each sheet rectified, as PNG, when asked for
    errors: list[dict] = field(default_factory=list)
    rosters: list[dict] = field(default_factory=list)     # monster record sheets, one entry per sheet
    rolls: tuple[int, ...] | None = None                  # the game's die rolls, when given (scan_files)


def scan_file(path: str, blank: BlankRenderer, want_pages: bool = False,
              monster_blank: MonsterBlankRenderer | None = None) -> PhotoOutcome:
    """Every sheet in one file (a photo, or each page of a PDF); monster record sheets too when
    ``monster_blank`` renders their blank page."""
    try:
        photos = load_photos(path)
    except PhotoError as exc:
        return PhotoOutcome(path, errors=[{"source": path, "error": str(exc)}])
    return _scan_photos(path, photos, blank, want_pages, monster_blank)


def scan_bytes(data: bytes, name: str, blank: BlankRenderer, want_pages: bool = False,
               monster_blank: MonsterBlankRenderer | None = None) -> PhotoOutcome:
    """Every sheet in one file's bytes (an upload), ``name`` naming it as the source. Safe to call from
    several threads at once: PDF work, the blank's rendering included, is done one call at a time when
    ``blank`` is wrapped by ``one_at_a_time``."""
    try:
        if data[:5] == b"%PDF-":
            with PDF_LOCK:
                photos = load_photo_bytes(data, name)
        else:
            photos = load_photo_bytes(data, name)
    except PhotoError as exc:
        return PhotoOutcome(name, errors=[{"source": name, "error": str(exc)}])
    return _scan_photos(name, photos, blank, want_pages, monster_blank)


# pdfium may not be entered from two threads at once, nor, to be safe, reportlab's shared font state.
PDF_LOCK = threading.Lock()


def one_at_a_time(blank: BlankRenderer) -> BlankRenderer:
    """``blank`` holding ``PDF_LOCK`` while it renders (it draws the sheet's PDF and rasterises it)."""
    def render(layout, px_per_mm):
        with PDF_LOCK:
            return blank(layout, px_per_mm)
    return render


def _scan_photos(source: str, photos: list, blank: BlankRenderer, want_pages: bool,
                 monster_blank: MonsterBlankRenderer | None = None) -> PhotoOutcome:
    import cv2

    outcome = PhotoOutcome(source)
    read_digit = _digit_reader()
    for photo in photos:
        scans, problems = scan_photo(photo, blank, read_digit, monster_blank)
        outcome.errors += [{"source": photo.source, "error": problem} for problem in problems]
        for scan in scans:
            if isinstance(scan, MonsterScan):
                outcome.rosters.append(scan.to_json())
                continue
            outcome.sheets.append(scan.to_json())
            outcome.readings.append((scan.rooms, scan.tally))
            if want_pages:
                ok, data = cv2.imencode(".png", cv2.cvtColor(scan.registered_page(), cv2.COLOR_RGB2BGR))
                outcome.pages.append(data.tobytes())
    return outcome


def scan_files(paths: list[str], blank: BlankRenderer, *, want_pages: bool = False, jobs: int | None = None,
               progress: Callable[[int, int], None] | None = None,
               monster_blank: MonsterBlankRenderer | None = None,
               rolls: tuple[int, ...] | list[int] | None = None) -> list[PhotoOutcome]:
    """Every file's outcome, in the order given; ``progress(done, total)`` after each file. Monster record
    sheets are read when ``monster_blank`` renders their blank page, refused otherwise. ``rolls``, the
    game's die rolls (round 1 first) when known, go with the outcomes into ``game_document``, so that
    the marks read are checked against them."""
    outcomes = _scan_files(paths, blank, want_pages, jobs, progress, monster_blank)
    if rolls is not None:
        for outcome in outcomes:
            outcome.rolls = tuple(rolls)
    return outcomes


def _scan_files(paths: list[str], blank: BlankRenderer, want_pages: bool, jobs: int | None,
                progress: Callable[[int, int], None] | None,
                monster_blank: MonsterBlankRenderer | None) -> list[PhotoOutcome]:
    jobs = min(jobs or os.cpu_count() or 1, 2 if jobs is None else jobs, len(paths))
    outcomes: list[PhotoOutcome | None] = [None] * len(paths)
    if jobs <= 1 or len(paths) < PARALLEL_FROM:
        for index, path in enumerate(paths):
            outcomes[index] = scan_file(path, blank, want_pages, monster_blank)
            if progress:
                progress(index + 1, len(paths))
        return outcomes
    # spawn, not fork: OpenCV's thread pool does not survive a fork reliably.
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                             initializer=_quiet_worker) as pool:
        futures = {pool.submit(scan_file, path, blank, want_pages, monster_blank): index
                   for index, path in enumerate(paths)}
        for done, future in enumerate(as_completed(futures), start=1):
            index = futures[future]
            try:
                outcomes[index] = future.result()
            except Exception as exc:  # a crash in one worker must not lose the other photos
                outcomes[index] = PhotoOutcome(paths[index], errors=[
                    {"source": paths[index], "error": f"the scanner failed on this photo ({type(exc).__name__}); "
                                                      f"please report it with the photo"}])
            if progress:
                progress(done, len(paths))
    return outcomes


def _quiet_worker() -> None:
    import cv2

    cv2.setNumThreads(1)    # one worker per core; OpenCV's own threads would only fight over them


def _digit_reader():
    try:
        from scanner.digits import read_digit
    except ImportError:
        return None
    return read_digit


def game_document(outcomes: list[PhotoOutcome], rolls: tuple[int, ...] | list[int] | None = None) -> dict:
    """The unscored scan document of all files: their sheets, their monster rosters (one per player, when
    monster record sheets were read) and their errors (CONTRACTS.md section 3). ``rolls`` (or the rolls
    given to ``scan_files``) become the document's ``rolls``, which scoring checks the marks against;
    without them the document has no ``rolls``."""
    from games.state import FORMAT

    if rolls is None:
        rolls = next((o.rolls for o in outcomes if o.rolls is not None), None)
    rosters = rosters_of(outcomes)
    return {"format": FORMAT, "sheets": [sheet for o in outcomes for sheet in o.sheets],
            **({"rosters": rosters} if rosters else {}), **({"rolls": list(rolls)} if rolls is not None else {}),
            "errors": [error for o in outcomes for error in o.errors]}


def rosters_of(outcomes: list[PhotoOutcome]) -> list[dict]:
    """The monster rosters read from all files, one entry per player (``scanner.monsters.merge_entries``)."""
    return merge_entries([entry for o in outcomes for entry in o.rosters])


def flag_shared_doubts(results, errors: list[dict]) -> None:
    """Add to each sheet's review what other sheets' doubts could change in its score.

    Traps are resolved between sheets, so a room of one sheet that needs a
    look (an unsure reading, or a broken rule, which is often a misreading) may
    hide a Trap, or show one that is not there, and so change the score of
    every other sheet with a drawing in that room (unless it is surely a path,
    see ``_may_hide_trap``); and a photo that could not be read hides its
    traps from everyone.
    """
    for index, result in enumerate(results):
        doubted = sorted({(entry["where"], room) for entry in result.review
                          if entry.get("rule") not in _OWN_SHEET_ONLY and (room := _room(entry.get("where"))) is not None
                          and _may_hide_trap(result, room)})
        for room_name, room in doubted:
            for other_index, other in enumerate(results):
                if other_index != index and other.sheet.dungeon == result.sheet.dungeon \
                        and not other.sheet.board.at(room).empty:
                    other.review.append({"where": room_name, "rule": "other_sheet_unsure",
                                         "why": f"{result.sheet.source} needs a look at {room_name}; a Trap "
                                                f"there would change this sheet's score"})
    if errors:
        missing = ", ".join(sorted({entry.get("source", "?") for entry in errors}))
        for result in results:
            result.review.append({"where": "game", "rule": "sheet_missing",
                                  "why": f"not read: {missing}; Traps on a sheet not read are not counted"})


# Doubts that cannot change another sheet's score: a Diamond's or Emerald's cross-out is read on its own
# sheet only (no Trap is ever drawn in a room with a printed item), and so are the rules about such marks.
_OWN_SHEET_ONLY = ("other_sheet_unsure", "unsure_mark", "marks_differ", "diamond_roll", "emerald_mark",
                   "unknown_mark", "curse_order", "curse_roll")


def _may_hide_trap(result, room) -> bool:
    """Whether the doubts about a room of one sheet could be wrong about a Trap there. Not when the
    room is read as a segment to two or more sides and the only doubt is whether a stroke reaches some
    other side (``unsure_link``): an ``X`` read as a path leaves ink outside the path read, or breaks a
    drawing rule, and so raises other doubts. Only a Trap changes other sheets' scores."""
    entries = [entry for entry in result.review if _room(entry.get("where")) == room]
    links_only = all(entry.get("rule") == "unsure_link" for entry in entries)
    return not (links_only and len(result.sheet.board.at(room).exits) >= 2)


def _room(where):
    """The room a needs_review entry points at, or None (the tally, the photo, the game)."""
    from games.maps import Room

    try:
        return Room.parse(where)
    except ValueError:
        return None


def score_document(document: dict, rolls: tuple[int, ...] | list[int] | None = None) -> tuple[list, list[dict]]:
    """Score an unscored scan document as ``scrawl scan`` does: every sheet checked and scored, traps
    resolved between the sheets, and each sheet flagged for the other sheets' doubts that could change
    its score. ``rolls``, when given, replace the document's ``rolls`` (the marks are checked against
    them). Returns the results (``games.state.SheetResult``) and the errors; ``game_json`` writes them."""
    from games.state import read_game, score_game

    if rolls is not None:
        document = {**document, "rolls": list(rolls)}
    sheets, errors = read_game(document, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    return results, errors


def overlay_picture(page_png: bytes, sheet: dict, rooms: list[RoomReading], tally: TallyReading,
                    scored: dict):
    """The overlay picture (RGB) of one sheet: its rectified page (PNG, as ``PhotoOutcome.pages`` holds
    it) with ``rooms`` and ``tally`` read and the ``scored`` sheet (``game_json``'s) drawn over it."""
    import cv2
    import numpy as np

    from scanner.overlay import draw_overlay
    from scanner.scan import PX_PER_MM

    page = cv2.cvtColor(cv2.imdecode(np.frombuffer(page_png, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    return draw_overlay(page, layout_of(sheet), PX_PER_MM, rooms, tally, scored)


def layout_of(sheet: dict):
    """The sheet layout a scanned sheet was read against (from its map reference and paper)."""
    from games.mapfile import map_from_reference
    from generator.layout import sheet_layout

    return sheet_layout(map_from_reference(sheet["map"]), sheet.get("paper", "a4"))


def overlay_name(source: str, taken: set[str]) -> str:
    """A file name for a photo's overlay picture: the photo's name, made unique in its folder."""
    stem = Path(source.split("#")[0]).stem or "sheet"
    extra = source.split("#")[1].replace("=", "-") if "#" in source else ""
    name = f"{stem}{'-' + extra if extra else ''}.overlay.png"
    counter = 2
    while name in taken:
        name = f"{stem}{'-' + extra if extra else ''}-{counter}.overlay.png"
        counter += 1
    taken.add(name)
    return name
