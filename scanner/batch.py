"""Scanning the photos of one game: each file read (on both cores when there are several), and the
unscored scan document of them all (``game_document``; the service layer, ``scrawl.service``, scores it).

A file that cannot be read becomes an ``errors`` entry; the others go on.
Each kind of sheet is read when ``blanks`` (a renderer per kind,
``generator.kinds.BLANKS`` in practice) has its blank page: monster record
sheets become ``rosters`` entries (``scanner.monsters``), one per player, their
pages merged.
"""
from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable

from scanner.load import PhotoError, load_photo_bytes, load_photos
from scanner.read import RoomReading, TallyReading
from scanner.scan import Blanks, scan_photo

PARALLEL_FROM = 3       # fewer photos than this are read in this process: starting workers costs more


@dataclass
class SheetRead:
    """One sheet read from a file: its kind (``sheets.kinds``), its entry in the scan document (a map sheet's
    dict of ``sheets``, a monster record sheet's of ``rosters``, a Dungeon Maker sheet's of ``dungeons``), the
    readings behind it (map and monster record sheets), and its rectified page (JPEG, when asked for)."""

    kind: str
    entry: dict
    readings: object = None     # a map sheet's (rooms, tally); a monster record sheet's row readings (a dict)
    page: bytes | None = None


def page_jpeg(page) -> bytes:
    """A sheet's rectified page (RGB) as JPEG, kept for its overlay picture: 15x faster to write than PNG
    and an eighth of its size."""
    import cv2

    from scanner.scan import PAGE_QUALITY

    ok, data = cv2.imencode(".jpg", cv2.cvtColor(page, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, PAGE_QUALITY])
    return data.tobytes()


@dataclass
class PhotoOutcome:
    """What one file gave: every sheet read from it, in one list (``reads``), and its errors. ``sheets``,
    ``readings``, ``pages`` and ``rosters`` are views of ``reads`` by kind."""

    source: str
    reads: list[SheetRead] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    rolls: tuple[int, ...] | None = None                  # the game's die rolls, when given (scan_files)
    unidentified: bool = False                            # a sheet's QR code was unread and no map known

    @property
    def sheets(self) -> list[dict]:
        """The map sheets, as scan-format dicts (the same dicts: a change to one is a change to the read)."""
        return [read.entry for read in self.reads if read.kind == "map"]

    @property
    def readings(self) -> list[tuple[list[RoomReading], TallyReading]]:
        return [read.readings for read in self.reads if read.kind == "map"]

    @property
    def pages(self) -> list[bytes]:
        """The map sheets' rectified pages, when they were asked for (else empty)."""
        return [read.page for read in self.reads if read.kind == "map" and read.page is not None]

    @property
    def rosters(self) -> list[dict]:
        """The monster record sheets, one entry per sheet (``scanner.monsters``)."""
        return [read.entry for read in self.reads if read.kind == "monster"]

    @property
    def dungeons(self) -> list[dict]:
        """The Dungeon Maker sheets, one entry per sheet (``scanner.maker``)."""
        return [read.entry for read in self.reads if read.kind == "maker"]


def scan_file(path: str, blanks: Blanks, want_pages: bool = False, hint=None) -> PhotoOutcome:
    """Every sheet in one file (a photo, or each page of a PDF) of a kind ``blanks`` renders; a sheet whose
    QR code cannot be read as one of ``hint``'s map (a ``games.maps.DungeonMap``) when given."""
    try:
        photos = load_photos(path)
    except PhotoError as exc:
        return PhotoOutcome(path, errors=[{"source": path, "error": str(exc)}])
    return _scan_photos(path, photos, blanks, want_pages, hint)


def scan_bytes(data: bytes, name: str, blanks: Blanks, want_pages: bool = False, hint=None) -> PhotoOutcome:
    """Every sheet in one file's bytes (an upload), ``name`` naming it as the source; a sheet whose QR
    code cannot be read as one of ``hint``'s map when given (the web game's). Safe to call from
    several threads at once: PDF work, the blanks' rendering included, is done one call at a time when
    ``blanks`` are wrapped by ``one_at_a_time``."""
    try:
        if data[:5] == b"%PDF-":
            with PDF_LOCK:
                photos = load_photo_bytes(data, name)
        else:
            photos = load_photo_bytes(data, name)
    except PhotoError as exc:
        return PhotoOutcome(name, errors=[{"source": name, "error": str(exc)}])
    return _scan_photos(name, photos, blanks, want_pages, hint)


# pdfium may not be entered from two threads at once, nor, to be safe, reportlab's shared font state.
PDF_LOCK = threading.Lock()


def one_at_a_time(blanks: Blanks) -> Blanks:
    """``blanks`` each holding ``PDF_LOCK`` while it renders (it draws the sheet's PDF and rasterises it)."""
    def locked(blank):
        def render(layout, px_per_mm):
            with PDF_LOCK:
                return blank(layout, px_per_mm)
        return render
    return {kind: locked(blank) for kind, blank in blanks.items()}


def _scan_photos(source: str, photos: list, blanks: Blanks, want_pages: bool, hint=None) -> PhotoOutcome:
    from scanner.scan import Unidentified

    outcome = PhotoOutcome(source)
    read_digit = _digit_reader()
    for photo in photos:
        scans, problems = scan_photo(photo, blanks, read_digit, hint)
        outcome.errors += [{"source": photo.source, "error": str(problem)} for problem in problems]
        outcome.unidentified |= any(isinstance(problem, Unidentified) for problem in problems)
        for scan in scans:
            scan.record(outcome, want_pages)
    return outcome


def scan_files(paths: list[str], blanks: Blanks, *, want_pages: bool = False, jobs: int | None = None,
               progress: Callable[[int, int], None] | None = None,
               rolls: tuple[int, ...] | list[int] | None = None, map_hint=None) -> list[PhotoOutcome]:
    """Every file's outcome, in the order given; ``progress(done, total)`` after each file. A kind of sheet
    is read when ``blanks`` renders its blank page, refused otherwise. ``rolls``, the
    game's die rolls (round 1 first) when known, go with the outcomes into ``game_document``, so that
    the marks read are checked against them. A sheet whose QR code cannot be read is read as a sheet of
    ``map_hint`` (a ``games.maps.DungeonMap``, from ``scrawl scan --map``) or else of the one map all
    the other sheets read have, and flagged ``no_qr_code``."""
    outcomes = _scan_files(paths, blanks, want_pages, jobs, progress)
    _identify_by_game(outcomes, blanks, want_pages, map_hint)
    if rolls is not None:
        for outcome in outcomes:
            outcome.rolls = tuple(rolls)
    return outcomes


def _scan_files(paths: list[str], blanks: Blanks, want_pages: bool, jobs: int | None,
                progress: Callable[[int, int], None] | None) -> list[PhotoOutcome]:
    jobs = min(jobs or os.cpu_count() or 1, len(paths))
    outcomes: list[PhotoOutcome | None] = [None] * len(paths)
    done = 0

    def finish(index: int, outcome: PhotoOutcome) -> None:
        nonlocal done
        outcomes[index], done = outcome, done + 1
        if progress:
            progress(done, len(paths))

    if len(paths) >= PARALLEL_FROM:
        keep_freed_memory()
    if jobs <= 1 or len(paths) < PARALLEL_FROM:
        for index, path in enumerate(paths):
            finish(index, _scan_guarded(path, blanks, want_pages))
        return outcomes
    # This process reads photos too, beside jobs - 1 workers: one start-up (imports, about half a second of a
    # core) fewer. Each photo is claimed when its reading starts, from a counter the processes share (the
    # workers from the front, this process from the back), not handed out ahead: no process waits at the end
    # for a photo queued behind another's. spawn, not fork: OpenCV's thread pool does not survive a fork
    # reliably. (Imported here: a scan of one or two photos needs no pool, and the pool's imports cost about
    # 7 ms.)
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from multiprocessing import get_context

    import cv2

    context = get_context("spawn")
    claims = context.Array("i", [0, len(paths)])      # the next photo from the front; one past the last left
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)        # one process per core: OpenCV's own threads would only fight over them
    failure: Exception | None = None
    try:
        with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=context, initializer=_start_worker,
                                 initargs=(claims, paths, blanks, want_pages)) as pool:
            in_flight: set = set()
            broken = False      # a worker died (killed, out of memory): the rest is read here
            while True:
                while not broken and len(in_flight) < 2 * (jobs - 1) and _left(claims):  # a claim queued ahead
                    try:
                        in_flight.add(pool.submit(_claimed_scan))
                    except Exception as exc:  # noqa: BLE001 - the pool is broken
                        broken, failure = True, exc
                index = _claim(claims, from_front=False)
                if index is not None:
                    finish(index, _scan_guarded(paths[index], blanks, want_pages))
                elif not in_flight:
                    break
                ready, _ = wait(in_flight, timeout=0 if index is not None else None, return_when=FIRST_COMPLETED)
                for future in ready:
                    in_flight.discard(future)
                    try:
                        claimed = future.result()
                    except Exception as exc:  # a crash in one worker must not lose the other photos
                        broken, failure = True, failure or exc
                        continue
                    if claimed is not None:
                        finish(*claimed)
    finally:
        cv2.setNumThreads(threads)
    for index, outcome in enumerate(outcomes):
        if outcome is None:         # claimed by a worker that died reading it
            finish(index, _failed(paths[index], failure or RuntimeError("worker lost")))
    return outcomes


def _claim(claims, from_front: bool) -> int | None:
    """The next photo's index from the shared counter (``_scan_files``), from the front or the back, or None
    when every photo is claimed."""
    with claims.get_lock():
        front, back = claims[0], claims[1]
        if front >= back:
            return None
        if from_front:
            claims[0] = front + 1
            return front
        claims[1] = back - 1
        return back - 1


def _left(claims) -> bool:
    with claims.get_lock():
        return claims[0] < claims[1]


_WORK: tuple = ()       # a worker's shared counter, paths, blanks and want_pages (``_start_worker``)


def _start_worker(claims, paths: list[str], blanks: Blanks, want_pages: bool) -> None:
    global _WORK
    _quiet_worker()
    _WORK = (claims, paths, blanks, want_pages)


def _claimed_scan() -> tuple[int, PhotoOutcome] | None:
    """In a worker: the next photo from the front of the shared counter, read; None when none is left."""
    claims, paths, blanks, want_pages = _WORK
    index = _claim(claims, from_front=True)
    if index is None:
        return None
    return index, _scan_guarded(paths[index], blanks, want_pages)


def _scan_guarded(path: str, blanks: Blanks, want_pages: bool) -> PhotoOutcome:
    try:
        return scan_file(path, blanks, want_pages)
    except Exception as exc:  # noqa: BLE001 - one photo's failure must not lose the others
        return _failed(path, exc)


def _failed(path: str, exc: Exception) -> PhotoOutcome:
    return PhotoOutcome(path, errors=[{"source": path, "error": f"the scanner failed on this photo "
                                                               f"({type(exc).__name__}); please report it with the photo"}])


def _identify_by_game(outcomes: list[PhotoOutcome], blanks: Blanks, want_pages: bool, map_hint) -> None:
    """Read again, as sheets of the game's map, the files with a sheet whose QR code could not be read;
    each such sheet takes the lowest player number the game's sheets leave free."""
    from games.mapfile import map_from_reference

    retry = [index for index, outcome in enumerate(outcomes) if outcome.unidentified]
    if not retry:
        return
    if map_hint is None:
        maps = {json.dumps(sheet["map"], sort_keys=True): sheet["map"] for outcome in outcomes
                for sheet in outcome.sheets}      # a random map's reference holds a list of its features
        if len(maps) != 1:
            return                 # no other sheet, or sheets of several maps: nothing to go by
        map_hint = map_from_reference(next(iter(maps.values())))
    taken = {sheet["player"] for outcome in outcomes for sheet in outcome.sheets}
    codes = {sheet.get("game") for outcome in outcomes for sheet in outcome.sheets}
    for index in retry:
        outcomes[index] = scan_file(outcomes[index].source, blanks, want_pages, map_hint)
        number_unidentified(outcomes[index].sheets, taken, next(iter(codes)) if len(codes) == 1 else None)


def number_unidentified(sheets: list[dict], taken: set[int], code: str | None = None) -> None:
    """Give each sheet read without its QR code (player 0) the lowest player number not ``taken``, and the
    game ``code`` of the other sheets (when they all have one)."""
    for sheet in sheets:
        if sheet["player"] == 0:
            sheet["player"] = next(n for n in range(1, len(taken) + 2) if n not in taken)
            sheet["game"] = code
            taken.add(sheet["player"])


def _quiet_worker() -> None:
    import cv2

    cv2.setNumThreads(1)    # one worker per core; OpenCV's own threads would only fight over them
    keep_freed_memory()


# A photo's reading allocates and frees arrays of 1-12 MB, dozens of them. glibc hands memory blocks that
# large straight back to the system when freed (its mmap threshold rises to follow them only up to 32 MB, and
# unevenly), so the next photo's arrays are fresh pages, zeroed by the kernel, one fault each: about 2,000
# faults and 7 ms of system time a photo, 5% of its work. In a batch the freed memory is kept for the next.
# Measured (30 photos read in one process, best of two): 205,000 page faults -> 19,000, system time
# 7.7 -> 1.3 ms a photo, peak memory 164 -> 166 MB.
KEEP_FREED_BELOW = 512 << 20        # blocks under this come from the heap, not from mmap of their own
KEEP_FREE_TOP = 1 << 30             # the heap's free top is given back only beyond this
HEAP_STEP = 64 << 20                # and grows by this much more than asked


def keep_freed_memory() -> None:
    """Keep freed memory in this process for reuse (glibc on Linux; elsewhere nothing is done)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt     # glibc's; absent from musl and other C libraries
    except (OSError, AttributeError):
        return
    mallopt(-3, KEEP_FREED_BELOW)       # M_MMAP_THRESHOLD
    mallopt(-1, KEEP_FREE_TOP)          # M_TRIM_THRESHOLD
    mallopt(-2, HEAP_STEP)              # M_TOP_PAD


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
    dungeons = [entry for o in outcomes for entry in o.dungeons]
    return {"format": FORMAT, "sheets": [sheet for o in outcomes for sheet in o.sheets],
            **({"rosters": rosters} if rosters else {}), **({"dungeons": dungeons} if dungeons else {}), **({"rolls": list(rolls)} if rolls is not None else {}),
            "errors": [error for o in outcomes for error in o.errors]}


def rosters_of(outcomes: list[PhotoOutcome]) -> list[dict]:
    """The monster rosters read from all files, one entry per player (``scanner.monsters.merge_entries``)."""
    entries = [entry for o in outcomes for entry in o.rosters]
    if not entries:
        return []
    from scanner.monsters import merge_entries      # only when monster record sheets were read

    return merge_entries(entries)
