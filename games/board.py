"""A player's sheet as drawn: the segment in each room, traps, round numbers and the tally.

A segment is written as the sides of its room it links to (``"NS"``, ``"E"`` for a
dead end), letters from ``NESW`` in that order. A room normally holds at most one
drawing; ``segments`` can hold more so that a sheet breaking the one-segment rule
can still be described (and flagged) instead of being silently merged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Mapping

from games.cards import exits_text
from games.maps import OPPOSITE, DungeonMap, Room


@dataclass(frozen=True)
class Drawing:
    """What one room of one sheet holds: its segments, a Trap ``X``, the round number written."""

    segments: tuple[str, ...] = ()
    trap: bool = False
    round: int | None = None

    @classmethod
    def segment(cls, exits: str, round: int | None = None) -> "Drawing":
        return cls(segments=(exits_text(exits),), round=round)

    @classmethod
    def trap_x(cls, round: int | None = None) -> "Drawing":
        return cls(trap=True, round=round)

    @property
    def exits(self) -> str:
        """Every side any segment in the room links to."""
        return _exits_of(self.segments)

    @property
    def entered(self) -> bool:
        """A room is entered when a segment is drawn inside it; linking to its side is not enough."""
        return bool(self.segments)

    @property
    def empty(self) -> bool:
        return not self.segments and not self.trap


@lru_cache(maxsize=256)     # a few dozen segment tuples; asked tens of thousands of times when a game is scored
def _exits_of(segments: tuple[str, ...]) -> str:
    return exits_text("".join(segments))


@dataclass(frozen=True)
class Marks:
    """What a player marks on an expansion map besides paths (RULES.md section 2): Diamonds and Emeralds
    crossed out (by number), the halves of the Curse Track filled in (per space, left to right), and the
    Rune Gates filled in (closed), each named by its side."""

    diamonds: frozenset[int] = frozenset()
    emeralds: frozenset[int] = frozenset()
    curse_top: tuple[bool, ...] = ()
    curse_bottom: tuple[bool, ...] = ()
    gates: frozenset[frozenset[Room]] = frozenset()

    @property
    def empty(self) -> bool:
        return not (self.diamonds or self.emeralds or any(self.curse_top) or any(self.curse_bottom) or self.gates)

    def to_json(self) -> dict:
        """The ``marks`` object of a scan-result sheet: ``{"diamonds": [1, 3], "emeralds": [], "curse_track":
        {"top": [true, false], "bottom": [false, false]}, "gates": ["C4-D4"]}``."""
        return {"diamonds": sorted(self.diamonds), "emeralds": sorted(self.emeralds),
                "curse_track": {"top": list(self.curse_top), "bottom": list(self.curse_bottom)},
                "gates": sorted(side_name(side) for side in self.gates)}


def side_name(side: frozenset[Room]) -> str:
    """A side between two rooms as text, the room nearer the top-left first: ``"C4-D4"``."""
    return "-".join(room.name for room in sorted(side, key=lambda r: (r.row, r.col)))


@dataclass(frozen=True)
class Board:
    """One player's sheet. ``unusable`` is the tally beside scoring item 6; ``marks`` the expansion marks."""

    drawings: Mapping[Room, Drawing] = field(default_factory=dict)
    unusable: int = 0
    marks: Marks = Marks()

    def __iter__(self) -> Iterator[tuple[Room, Drawing]]:
        return iter(sorted(self.drawings.items()))

    def at(self, room: Room) -> Drawing:
        return self.drawings.get(room, Drawing())

    def entered_rooms(self) -> list[Room]:
        return sorted(room for room, drawing in self.drawings.items() if drawing.entered)

    def trap_rooms(self) -> list[Room]:
        return sorted(room for room, drawing in self.drawings.items() if drawing.trap)

    def links(self, dungeon: DungeonMap, room: Room) -> list[Room]:
        """Neighbouring rooms whose segment joins this room's segment through a passage."""
        here = self.at(room).exits
        found = []
        for side in here:
            other = room.neighbour(side)
            if dungeon.side_kind(room, side) == "passage" and OPPOSITE[side] in self.at(other).exits:
                found.append(other)
        return found

    def linked_entries(self, dungeon: DungeonMap) -> set[tuple[Room, str]]:
        """Entryways some segment links to (the segment's exit is the entry's side)."""
        return {(room, side) for room, side in dungeon.entries if side in self.at(room).exits}

    def with_drawing(self, room: Room, drawing: Drawing) -> "Board":
        return Board({**self.drawings, room: drawing}, self.unusable, self.marks)

    def with_tally(self) -> "Board":
        return Board(dict(self.drawings), self.unusable + 1, self.marks)

    def with_marks(self, marks: Marks) -> "Board":
        return Board(dict(self.drawings), self.unusable, marks)

    def rooms_json(self) -> dict:
        """The ``rooms`` object of the scan format (CONTRACTS.md section 3)."""
        out = {}
        for room, drawing in self:
            entry = {"exits": drawing.exits, "trap": drawing.trap, "round": drawing.round}
            if len(drawing.segments) > 1:
                entry["segments"] = list(drawing.segments)
            out[room.name] = entry
        return out

    def ascii(self, dungeon: DungeonMap) -> str:
        """The drawing as text, one character per room: box-drawing lines, ``X`` traps, ``.`` empty."""
        def cell(room: Room) -> str:
            drawing = self.at(room)
            return glyph(drawing.exits) if drawing.entered else "X" if drawing.trap else "."

        return "\n".join("".join(cell(Room(col, row)) for col in range(1, dungeon.cols + 1))
                         for row in range(1, dungeon.rows + 1))


_GLYPHS = {
    "N": "╵", "E": "╶", "S": "╷", "W": "╴",
    "NS": "│", "EW": "─", "NE": "└", "ES": "┌", "SW": "┐", "NW": "┘",
    "NES": "├", "NSW": "┤", "ESW": "┬", "NEW": "┴", "NESW": "┼",
}


def glyph(exits: str) -> str:
    """One box-drawing character for a segment: ``"NE"`` is ``└``."""
    return _GLYPHS[exits_text(exits)]
