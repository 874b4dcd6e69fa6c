"""The seven scoring items of a dungeon-doodles sheet, as printed and as scored.

Each entry: item number, short label, and the rule as printed on the sheet
(our own wording of RULES.md section 1, "Scoring").
"""
from __future__ import annotations

SCORE_ITEMS: tuple[tuple[int, str, str], ...] = (
    (1, "Loot", "+2 for each loot room you entered; doubled if you entered the dragon's room"),
    (2, "Weapons", "+1 for each weapon room you entered"),
    (3, "Monsters slain", "+4 for each monster you entered whose weapon you scored in 2"),
    (4, "Monsters unmatched", "-2 for each monster you entered without its weapon"),
    (5, "Untouched entries", "+1 for each entry arrow your path never links to"),
    (6, "Lost segments", "-2 per tally: a segment you could not draw"),
    (7, "Traps sprung", "-3 per tally: a trap that caught you"),
)
