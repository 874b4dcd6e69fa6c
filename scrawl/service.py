"""The service both front doors use: the photos of a game scanned, scored together, and drawn over.

``scrawl scan`` (``scrawl.cli``) and the game-night page (``scrawl.web``,
``scrawl.scoring``) read their input, call these, and show what comes back;
neither wires the scanner, the rules and the generator together itself.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable


@dataclass
class ScannedGame:
    """The photos of one game, read and scored: each file's outcome (``scanner.batch.PhotoOutcome``), the
    unscored scan document, the scored sheets (``games.state.SheetResult``), the files not read, and the
    monster rosters."""

    outcomes: list
    document: dict
    results: list
    errors: list[dict]
    rosters: list[dict]
    dungeons: list[dict] = field(default_factory=list)     # Dungeon Maker sheets, scored

    @property
    def read_nothing(self) -> bool:
        return not self.results and not self.rosters and not self.dungeons

    @property
    def needs_review(self) -> bool:
        """Whether a person should look: a file not read, or an entry in some sheet's or roster's list."""
        return bool(self.errors) or any(result.review for result in self.results) \
            or any(entry["needs_review"] for entry in self.rosters + self.dungeons)

    @cached_property
    def scored(self) -> dict:
        """The scan document with every sheet scored (CONTRACTS.md section 3), and the rosters read."""
        from games.state import game_json

        scored = game_json(self.results, self.errors)
        extra = {**({"rosters": self.rosters} if self.rosters else {}),
                 **({"dungeons": self.dungeons} if self.dungeons else {})}
        return {"format": scored["format"], "sheets": scored["sheets"], **extra, "errors": scored["errors"]}

    def overlays(self) -> list[tuple[str, object]]:
        """Each sheet's overlay picture (RGB), with a file name unique among them (``overlay_name``), for the
        sheets whose pages were kept (the game scanned with ``overlays=True``): map sheets
        (``scanner.overlay``), monster record sheets (``scanner.roster_overlay``), Dungeon Maker sheets
        (``scanner.maker_overlay``), in the order of their files."""
        from scanner.overlays import OVERLAYS

        # The kinds scored after reading, their entries in the order of their reads; the others as read.
        scored = {"map": iter(self.scored["sheets"]), "maker": iter(self.dungeons)}
        taken: set[str] = set()
        pictures = []
        for outcome in self.outcomes:
            for read in outcome.reads:
                entry = next(scored[read.kind]) if read.kind in scored else read.entry
                if read.page is not None:
                    pictures.append((overlay_name(read.entry["source"], taken), OVERLAYS[read.kind](read, entry)))
        return pictures


def scan_game(sources: list[str], *, overlays: bool = False, jobs: int | None = None,
              progress: Callable[[int, int], None] | None = None, map_hint=None,
              rolls: tuple[int, ...] | None = None, names: tuple[str, ...] = ()) -> ScannedGame:
    """Read the photos (or PDFs) of one game, every kind of sheet we print, and score them together:
    Traps resolved between the sheets, each sheet told what the others' doubts could change. ``map_hint``
    (a ``games.maps.DungeonMap``) reads a sheet whose QR code cannot be read; ``rolls`` are the die's,
    round 1 first, which the expansion marks are checked against; ``overlays`` keeps what the overlay
    pictures need. The photos may hold several games: each game code's sheets are scored together
    (``games_of``). Players are named by ``names`` (player 1 first) or else by the game book."""
    from games.kinds import SCORERS
    from scanner.batch import game_document, scan_files
    from scrawl.blanks import cached_blanks

    outcomes = scan_files(sources, cached_blanks(), want_pages=overlays, jobs=jobs, progress=progress, map_hint=map_hint)
    document = game_document(outcomes)
    if rolls is not None:
        document["rolls"] = list(rolls)
    for rules in SCORERS.values():
        if rules.named:
            name_players(document.get(rules.entries, []), names)
    scored = {kind: rules.score(document) for kind, rules in SCORERS.items()}
    for kind, rules in SCORERS.items():
        if kind != "map":
            document.pop(rules.entries, None)
    results, errors = scored["map"]
    return ScannedGame(outcomes, document, results, errors, scored["monster"], scored["maker"])


def scan_upload(data: bytes, name: str, map_reference: dict | None = None):
    """One photo sent to a game on the page (``scanner.batch.PhotoOutcome``): every kind of sheet we print
    (the caller refuses the kinds its game does not play), a map sheet whose QR code cannot be read read as
    one of ``map_reference``'s map when given, every sheet with its rectified page (and a monster record
    sheet with what was read on each row, ``scanner.roster_overlay.row_readings``); PDF work one call at a
    time (several uploads are read at once)."""
    from games.mapfile import map_from_reference
    from scanner.batch import one_at_a_time, scan_bytes
    from scrawl.blanks import cached_blanks

    blanks = one_at_a_time(cached_blanks())
    hint = map_from_reference(map_reference) if map_reference else None
    return scan_bytes(data, name, blanks, want_pages=True, hint=hint)


def name_players(sheets: list[dict], names: tuple[str, ...] = ()) -> None:
    """Give each scanned sheet its player's ``name``: from ``names`` (player 1 first) when given, else from the
    game book (``scrawl.gamebook``) by the sheet's game code; None where neither knows it."""
    from scrawl.gamebook import read_book

    book = read_book() if not names and any(sheet.get("game") for sheet in sheets) else {}
    for sheet in sheets:
        player = sheet.get("player")
        if names:
            sheet["name"] = names[player - 1] if player and player <= len(names) else None
        else:
            printed = book.get(sheet.get("game"))
            sheet["name"] = printed.name_of(player) if printed else None


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
