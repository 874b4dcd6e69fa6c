"""The service both front doors use: the photos of a game scanned, scored together, and drawn over.

``scrawl scan`` (``scrawl.cli``) and the game-night page (``scrawl.web``,
``scrawl.scoring``) read their input, call these, and show what comes back;
neither wires the scanner, the rules and the generator together itself.
"""
from __future__ import annotations

from dataclasses import dataclass
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

    @property
    def read_nothing(self) -> bool:
        return not self.results and not self.rosters

    @property
    def needs_review(self) -> bool:
        """Whether a person should look: a file not read, or an entry in some sheet's or roster's list."""
        return bool(self.errors) or any(result.review for result in self.results) \
            or any(entry["needs_review"] for entry in self.rosters)

    @cached_property
    def scored(self) -> dict:
        """The scan document with every sheet scored (CONTRACTS.md section 3), and the rosters read."""
        from games.state import game_json

        scored = game_json(self.results, self.errors)
        if self.rosters:
            scored = {"format": scored["format"], "sheets": scored["sheets"], "rosters": self.rosters,
                      "errors": scored["errors"]}
        return scored

    def overlays(self) -> list[tuple[str, object]]:
        """Each map sheet's overlay picture (RGB), with a file name unique among them (``overlay_name``);
        only when the game was scanned with ``overlays=True``."""
        from scanner.overlay import overlay_picture

        scored = iter(self.scored["sheets"])
        taken: set[str] = set()
        return [(overlay_name(raw["source"], taken), overlay_picture(png, raw, rooms, tally, next(scored)))
                for outcome in self.outcomes
                for raw, (rooms, tally), png in zip(outcome.sheets, outcome.readings, outcome.pages)]


def scan_game(sources: list[str], *, overlays: bool = False, jobs: int | None = None,
              progress: Callable[[int, int], None] | None = None, map_hint=None,
              rolls: tuple[int, ...] | None = None) -> ScannedGame:
    """Read the photos (or PDFs) of one game, every kind of sheet we print, and score them together:
    Traps resolved between the sheets, each sheet told what the others' doubts could change. ``map_hint``
    (a ``games.maps.DungeonMap``) reads a sheet whose QR code cannot be read; ``rolls`` are the die's,
    round 1 first, which the expansion marks are checked against; ``overlays`` keeps what the overlay
    pictures need."""
    from scanner.batch import game_document, scan_files
    from scrawl.blanks import cached_blanks

    outcomes = scan_files(sources, cached_blanks(), want_pages=overlays, jobs=jobs, progress=progress, map_hint=map_hint)
    document = game_document(outcomes)
    if rolls is not None:
        document["rolls"] = list(rolls)
    rosters = document.pop("rosters", [])
    results, errors = score_document(document)
    return ScannedGame(outcomes, document, results, errors, rosters)


def scan_upload(data: bytes, name: str, map_reference: dict):
    """One photo sent to a game on the page (``scanner.batch.PhotoOutcome``): dungeon map sheets only
    (another kind is refused with a reason), a sheet whose QR code cannot be read read as one of the game's
    map, PDF work one call at a time (several uploads are read at once)."""
    from games.mapfile import map_from_reference
    from scanner.batch import one_at_a_time, scan_bytes
    from scrawl.blanks import cached_blanks

    blanks = one_at_a_time(cached_blanks(("map",)))
    return scan_bytes(data, name, blanks, want_pages=True, hint=map_from_reference(map_reference))


def score_document(document: dict, rolls: tuple[int, ...] | list[int] | None = None) -> tuple[list, list[dict]]:
    """Score an unscored scan document as ``scrawl scan`` does: every sheet checked and scored, traps
    resolved between the sheets, and each sheet flagged for the other sheets' doubts that could change
    its score. ``rolls``, when given, replace the document's ``rolls`` (the marks are checked against
    them). Returns the results (``games.state.SheetResult``) and the errors; ``game_json`` writes them."""
    from games.state import read_game, score_game
    from scanner.review import flag_shared_doubts, weigh_review

    if rolls is not None:
        document = {**document, "rolls": list(rolls)}
    sheets, errors = read_game(document, "scan")
    results = score_game(sheets)
    flag_shared_doubts(results, errors)
    weigh_review(results, document.get("rolls"))
    return results, errors


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
