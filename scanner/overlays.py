"""Each kind of sheet's overlay picture, one row per kind (``sheets.kinds``): drawn from a sheet as read
(``scanner.batch.SheetRead``: its rectified page and its readings) and its entry as scored."""
from __future__ import annotations

from sheets.kinds import MAKER, MAP, MONSTER


def _map(read, scored: dict):
    from scanner.overlay import overlay_picture

    rooms, tally = read.readings
    return overlay_picture(read.page, read.entry, rooms, tally, scored)


def _maker(read, scored: dict):
    from scanner.maker_overlay import maker_overlay_picture

    return maker_overlay_picture(read.page, scored)


def _monster(read, scored: dict):
    from scanner.roster_overlay import roster_overlay_picture

    return roster_overlay_picture(read.page, scored, read.readings)


# kind of sheet -> its overlay picture (RGB) from (a sheet read with its page kept, its scored entry)
OVERLAYS = {MAP.key: _map, MAKER.key: _maker, MONSTER.key: _monster}
