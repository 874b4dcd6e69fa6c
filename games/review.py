"""The rules a ``needs_review`` entry can name, as one enum shared by every package.

An entry's ``rule`` says what kind of thing a person should check; the JSON
keeps these strings (``Rule`` is a ``str``), so programs reading the scan
document see no change. ``where`` says where to look and ``why`` says it in a
sentence.
"""
from __future__ import annotations

from enum import StrEnum


class Rule(StrEnum):
    # A dungeon map sheet's drawing rules (games.rules.problems).
    OFF_MAP = "off_map"
    NOTHING_DRAWN = "nothing_drawn"
    SECOND_SEGMENT = "second_segment"
    TRAP_WITH_SEGMENT = "trap_with_segment"
    TRAP_ON_ITEM = "trap_on_item"
    WALL_END = "wall_end"
    ROUND_RANGE = "round_range"
    UNLINKED = "unlinked"
    TOO_MANY_TRAPS = "too_many_traps"
    TOO_MANY_IN_ROUND = "too_many_in_round"
    TALLY_RANGE = "tally_range"
    # The expansion maps' marks, and the die's rolls.
    UNKNOWN_MARK = "unknown_mark"
    CURSE_ORDER = "curse_order"
    EMERALD_MARK = "emerald_mark"
    GATE_NOT_CLOSED = "gate_not_closed"
    GATE_CROSSED_CLOSED = "gate_crossed_closed"
    GATE_FILLED_EARLY = "gate_filled_early"
    TOO_MANY_ROLLS = "too_many_rolls"
    DIAMOND_ROLL = "diamond_roll"
    DOOR_CLOSED = "door_closed"
    CURSE_ROLL = "curse_roll"
    MARKS_DIFFER = "marks_differ"
    # What the scanner doubts on one sheet.
    UNSURE_READING = "unsure_reading"
    UNSURE_LINK = "unsure_link"
    UNSURE_MARK = "unsure_mark"
    CANNOT_SEE = "cannot_see"
    NO_QR_CODE = "no_qr_code"
    LOW_RESOLUTION = "low_resolution"
    # What the sheets of one game tell about each other.
    OTHER_SHEET_UNSURE = "other_sheet_unsure"
    TRAP_COUNT = "trap_count"
    CARD_COUNT = "card_count"
    SHEET_MISSING = "sheet_missing"
    MIXED_MAPS = "mixed_maps"
    # A monster record sheet's bubbles and boxes, as the scanner read them.
    HALF_FILLED = "half_filled"
    TWO_BUBBLES = "two_bubbles"
    MISSING = "missing"
    FAINT_MARK = "faint_mark"
    GAP_IN_TRACK = "gap_in_track"
    BEYOND_LIFE = "beyond_life"
    SAME_PAGE_TWICE = "same_page_twice"
    # A built Dungeon Maker dungeon's building rules (games.heroes).
    PATH_OFF_GRID = "path_off_grid"
    ROOM_FILLS_TILE = "room_fills_tile"
    BUILT_ON_LOOT = "built_on_loot"
    PATH_ON_ACID = "path_on_acid"
    BRIDGE_OFF_ACID = "bridge_off_acid"
    ENTRANCE_CORNER = "entrance_corner"
    ENTRANCE_UNLINKED = "entrance_unlinked"
    STAIRS_OFF_PATH = "stairs_off_path"
    NOT_ON_PATH = "not_on_path"
    NO_ROUTE = "no_route"
