"""The kinds of sheet we print, each named once: what its QR code's game id is, what people call it, which
command prints it, and how a sheet's code becomes its layout.

Every other layer keeps one table keyed by ``SheetKind.key``: ``generator.kinds`` (the renderers),
``scanner.scan.READERS`` (the readers) and the front doors that put them together. A new kind of sheet
is one row here and one in each of those tables.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sheets.dungeon import DESIGNS, sheet_layout
from sheets.page import GAME, SheetId

# The game ids the QR codes of the other kinds carry (``sheets.roster.GAME``, ``sheets.maker.GAME``; a test
# holds them equal). Named here so that telling kinds apart imports neither layout: a map sheet's scan
# never needs them.
MONSTER_GAME = "monsters"
MAKER_GAME = "dungeon-maker"


@dataclass(frozen=True)
class SheetKind:
    key: str                # the tables' key: "map", "monster", "maker"
    game: str               # the game id its QR code carries
    name: str               # what a person calls one ("dungeon map sheet")
    plural: str
    command: str            # what prints it
    layout: Callable[[SheetId], object] | None = None   # the layout a sheet's code names (None: not read back)
    unreadable: Callable[[SheetId], str | None] = lambda sheet_id: None   # why this release cannot read it


def _map_unreadable(sheet_id: SheetId) -> str | None:
    if sheet_id.layout_version not in DESIGNS:
        return (f"this sheet was printed by a newer release (layout v{sheet_id.layout_version}): "
                f"update dungeon-scrawl")
    return None


def _monster_unreadable(sheet_id: SheetId) -> str | None:
    from sheets import roster

    if sheet_id.layout_version > 1 or sheet_id.map_id != roster.MAP_ID.lower() \
            or sheet_id.map_version not in roster.DESIGNS:
        return "this monster record sheet was printed by a newer release: update dungeon-scrawl"
    if sheet_id.check != roster.design_check(sheet_id.paper, sheet_id.map_version) or not sheet_id.seed:
        return "this monster record sheet's code does not match this release's sheet: print new sheets with " \
               "'scrawl monsters'"
    return None


MAP = SheetKind("map", GAME, "dungeon map sheet", "dungeon map sheets", "scrawl sheet",
                layout=lambda sheet_id: sheet_layout(sheet_id.dungeon(), sheet_id.paper, sheet_id.layout_version),
                unreadable=_map_unreadable)
def _monster_layout(sheet_id: SheetId):
    from sheets import roster

    return roster.monster_layout(sheet_id.paper, sheet_id.player, sheet_id.seed, sheet_id.seed,
                                 design=sheet_id.map_version)


MONSTER = SheetKind("monster", MONSTER_GAME, "monster record sheet", "monster record sheets", "scrawl monsters",
                    layout=_monster_layout, unreadable=_monster_unreadable)
def _maker_layout(sheet_id: SheetId):
    from games.maker import roll_loot
    from sheets.maker import maker_layout

    return maker_layout(roll_loot(sheet_id.seed, sheet_id.player), sheet_id.paper, design=sheet_id.layout_version)


def _maker_unreadable(sheet_id: SheetId) -> str | None:
    from games.maker import LOOT_VERSION, roll_loot
    from sheets import maker

    if sheet_id.layout_version > maker.LAYOUT_VERSION or sheet_id.map_version > LOOT_VERSION:
        return "this Dungeon Maker sheet was printed by a newer release: update dungeon-scrawl"
    if sheet_id.layout_version < min(maker.DESIGNS):
        return ("this Dungeon Maker sheet has no boxes to tick in its tiles, so a camera cannot read it: print new "
                "sheets with 'scrawl loot', or type the dungeon for 'scrawl heroes'")
    if sheet_id.seed is None or sheet_id.map_version != LOOT_VERSION \
            or roll_loot(sheet_id.seed, sheet_id.player).check() != sheet_id.check:
        return "this Dungeon Maker sheet's code does not match its loot: print new sheets with 'scrawl loot'"
    return None


MAKER = SheetKind("maker", MAKER_GAME, "Dungeon Maker sheet", "Dungeon Maker sheets", "scrawl loot",
                  layout=_maker_layout, unreadable=_maker_unreadable)

KINDS: dict[str, SheetKind] = {kind.key: kind for kind in (MAP, MONSTER, MAKER)}


def kind_of(sheet_id: SheetId) -> SheetKind | None:
    """The kind of sheet a QR code names, or None for a game id no release of ours printed."""
    return next((kind for kind in KINDS.values() if kind.game == sheet_id.game), None)
