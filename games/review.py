"""The rules a ``needs_review`` entry can name, as one enum shared by every package, and the entry itself.

An entry's ``rule`` says what kind of thing a person should check; the JSON
keeps these strings (``Rule`` is a ``str``), so programs reading the scan
document see no change. ``where`` says where to look and ``why`` says it in a
sentence.
"""
from __future__ import annotations

from dataclasses import dataclass, field
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
    DUPLICATE_SHEET = "duplicate_sheet"     # two photos of one sheet, or two sheets claiming one player
    BLANK_SHEET = "blank_sheet"             # nothing drawn on the sheet at all
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
    # What a Dungeon Maker sheet records besides its dungeon (games.heroes.record_problems).
    NO_ENTRANCE = "no_entrance"
    NO_STAIRS = "no_stairs"
    OVERSPENT = "overspent"
    TOO_MANY_ACTIONS = "too_many_actions"
    POTION_TOOL = "potion_tool"
    SPELL_COUNT = "spell_count"
    HERO_COUNT = "hero_count"


# The scanner's own doubts about what is drawn in a room: a person who looks settles them, and a room that
# read some other way explains them (a broken rule says something is wrong, not what is in that room).
READING_DOUBTS = (Rule.UNSURE_READING, Rule.UNSURE_LINK)


@dataclass
class Entry:
    """One ``needs_review`` entry as scoring works with it, until it is written as JSON (``to_json``): where
    to look, which rule, and why, in words; and what the scanner adds: its ``confidence``, the other reading
    a person might see (``alternative``: ``{"exits": ..., "trap": ...}``), whether the doubt may be about
    a Trap (``could_be_trap``: it then reaches the game's other sheets), the sheet an
    ``other_sheet_unsure`` entry comes from (``source``, written ``from``), and what the other reading
    would score (``if_so``). Keys of other programs are kept as they came (``extra``)."""

    where: str | None
    rule: Rule | str | None
    why: str | None
    confidence: float | None = None
    could_be_trap: bool = False
    alternative: dict | None = None
    source: str | None = None
    if_so: int | None = None
    extra: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, raw: dict) -> "Entry":
        rule = raw.get("rule")
        if isinstance(rule, str) and rule in _RULE_VALUES:
            rule = Rule(rule)
        return cls(where=raw.get("where"), rule=rule, why=raw.get("why"), confidence=raw.get("confidence"), could_be_trap=bool(raw.get("could_be_trap")),
                   alternative=raw.get("alternative"), source=raw.get("from"), if_so=raw.get("if_so"),
                   extra={key: value for key, value in raw.items() if key not in _KEYS})

    def to_json(self) -> dict:
        written = {"where": self.where, "rule": self.rule, "why": self.why, "confidence": self.confidence,
                   "could_be_trap": self.could_be_trap or None, "alternative": self.alternative,
                   "from": self.source, "if_so": self.if_so}
        return {**{key: value for key, value in written.items() if value is not None}, **self.extra}


_KEYS = ("where", "rule", "why", "confidence", "could_be_trap", "alternative", "from", "if_so")
_RULE_VALUES = frozenset(rule.value for rule in Rule)
