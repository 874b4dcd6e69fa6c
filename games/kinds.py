"""What the rules make of each kind of sheet's scan: one table, keyed like ``sheets.kinds``.

A scan document (``scrawl.scan/1``) lists each kind's entries under a key of
its own; ``score`` turns the document into that kind's scored entries. The
service both front doors use (``scrawl.service``) scores a game through this
table and nothing else, so a new kind of sheet is one row here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class KindRules:
    entries: str                        # the scan document's list of this kind's entries
    named: bool                         # whether its entries carry their player's name
    score: Callable[[dict], object]     # the unscored scan document -> this kind's scored entries


def _maps(document: dict):
    """``(results, errors)``: every game's map sheets scored together (``games.game.score_document``)."""
    from games.game import score_document

    others = {rules.entries for rules in SCORERS.values()} - {"sheets"}
    return score_document({key: value for key, value in document.items() if key not in others})


def _rosters(document: dict) -> list[dict]:
    """The monster rosters as read: a battle is played between two of them (``scrawl battle``,
    ``games.battle``), not scored one by one."""
    return list(document.get("rosters", []))


def _dungeons(document: dict) -> list[dict]:
    from games.game import score_dungeons

    return score_dungeons(document.get("dungeons", []))


# kind of sheet (``sheets.kinds``) -> how its scan is scored
SCORERS = {
    "map": KindRules("sheets", True, _maps),
    "monster": KindRules("rosters", False, _rosters),
    "maker": KindRules("dungeons", True, _dungeons),
}
