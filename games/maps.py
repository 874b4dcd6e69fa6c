"""The dungeon map: rooms on a grid, the sides between them, and the items in them.

Columns are letters from A, left to right; rows are numbers from 1, top to
bottom; a room is named column + row (``C4``). ``N`` is the top of the page.
Every side between two neighbouring rooms is a passage unless the map lists it
as a wall; every side on the map's outer edge is a wall unless it is an entry.
"""
from __future__ import annotations

import string
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Iterator

SIDES = "NESW"
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
# (column step, row step) per side, rows growing downwards.
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

LETTERS = "ABCDEF"
MAX_SIZE = 12
ENTRY_COUNT = 6          # entryways on the map's outer edge; cave entrances come on top of these
LOOT_COUNT = 4

# The expansion maps (RULES.md section 2).
ICONS = ("sun", "dragon", "moon")                # the die's icons; a Magic Door opens on one of them
OLD_ICONS = {"skull": "sun"}                    # the sun's name in map files of earlier releases
GLYPHS = ("fork", "eye", "wave", "spiral")       # Rune Gate glyphs; each on exactly two gates
FEATURES = ("diamonds", "caves", "doors", "skull", "emeralds", "runes")
DIAMOND_COUNT = 6        # Diamonds 1-6, one for each face of the die
MAX_CAVES = 4
SKULL_COINS = (2, 6)     # fewest and most Skull Coins on a map with the Skull
CURSE_SPACES = (2, 6)    # fewest and most Curse Track spaces (one Emerald each)


@dataclass(frozen=True, order=True)
class Room:
    """One room of the grid, by 1-based column and row."""

    col: int
    row: int

    @classmethod
    def parse(cls, name: str) -> "Room":
        """``Room.parse("C4")`` is column 3, row 4. Raises ``ValueError`` quoting the bad name."""
        text = str(name).strip().upper()
        if len(text) < 2 or text[0] not in string.ascii_uppercase or not text[1:].isdigit():
            raise ValueError(f"not a room name: {name!r} (write column letter + row number, like 'C4')")
        row = int(text[1:])
        if row < 1:
            raise ValueError(f"not a room name: {name!r} (rows count from 1)")
        return cls(string.ascii_uppercase.index(text[0]) + 1, row)

    @property
    def name(self) -> str:
        return f"{string.ascii_uppercase[self.col - 1]}{self.row}"

    def steps_to(self, other: "Room") -> int:
        """Rooms walked side to side, ignoring walls: 1 for neighbours."""
        return abs(self.col - other.col) + abs(self.row - other.row)

    def neighbour(self, side: str) -> "Room":
        dc, dr = STEP[side]
        return Room(self.col + dc, self.row + dr)

    def __repr__(self) -> str:
        return f"Room.parse({self.name!r})"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, order=True)
class Item:
    """An item printed in a room: ``loot``, ``dragon``, ``weapon:A`` .. ``monster:F``, and on expansion maps
    ``diamond:1`` .. ``diamond:6``, ``skull``, ``skull_coin`` and ``emerald:1`` .. ``emerald:6`` (an Emerald's
    number is its Curse Track space). ``letter`` holds the letter or the number."""

    kind: str
    letter: str = ""

    KINDS = ("loot", "dragon", "weapon", "monster", "diamond", "skull", "skull_coin", "emerald")
    # Items a player crosses out on the map (the scanner reads these marks).
    CROSSABLE = ("diamond", "emerald")

    @classmethod
    def parse(cls, text: str) -> "Item":
        raw = str(text).strip()
        kind, _, letter = raw.partition(":")
        if kind in ("loot", "dragon", "skull", "skull_coin") and not letter:
            return cls(kind)
        if kind in ("weapon", "monster") and letter in LETTERS and letter:
            return cls(kind, letter)
        if kind in ("diamond", "emerald") and letter in "123456" and len(letter) == 1:
            return cls(kind, letter)
        raise ValueError(f"unknown item {text!r} (one of: loot, dragon, weapon:A..F, monster:A..F, "
                         f"diamond:1..6, skull, skull_coin, emerald:1..6)")

    @property
    def number(self) -> int | None:
        """A Diamond's or an Emerald's number."""
        return int(self.letter) if self.kind in ("diamond", "emerald") else None

    @property
    def name(self) -> str:
        return f"{self.kind}:{self.letter}" if self.letter else self.kind

    def __repr__(self) -> str:
        return f"Item.parse({self.name!r})"

    def __str__(self) -> str:
        return self.name


def standard_items() -> Counter:
    """The items every dungeon-doodles map holds: 4 loot, the dragon, weapons and monsters A-F."""
    wanted = Counter({Item("loot"): LOOT_COUNT, Item("dragon"): 1})
    for letter in LETTERS:
        wanted[Item("weapon", letter)] = 1
        wanted[Item("monster", letter)] = 1
    return wanted


def interior_side(a: Room, b: Room) -> frozenset[Room]:
    """The side shared by two neighbouring rooms, the same whichever room names it first."""
    return frozenset((a, b))


@dataclass(frozen=True)
class DungeonMap:
    """A map: its grid, walls, entryways and items. Build it, then ask ``problems()``."""

    id: str
    name: str
    rows: int
    cols: int
    walls: frozenset[frozenset[Room]] = frozenset()
    entries: frozenset[tuple[Room, str]] = frozenset()
    items: tuple[tuple[Room, Item], ...] = ()
    seed: int | None = None
    version: int | None = None  # random-map algorithm version, None for a designed map
    # Expansion elements (RULES.md section 2). Cave entrances are ``entries`` on an interior wall.
    doors: frozenset[tuple[frozenset[Room], str]] = frozenset()   # Magic Doors: (side, die icon)
    gates: frozenset[tuple[frozenset[Room], str]] = frozenset()   # Rune Gates: (side, glyph)
    curse_spaces: int = 0                                          # Curse Track spaces, 0 for none
    features: frozenset[str] = frozenset()   # the feature set a random expansion map was asked for
    _item_at: dict = field(default=None, init=False, repr=False, compare=False, hash=False)
    _door_at: dict = field(default=None, init=False, repr=False, compare=False, hash=False)
    _gate_at: dict = field(default=None, init=False, repr=False, compare=False, hash=False)
    _side_kinds: dict = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(sorted(self.items)))
        object.__setattr__(self, "_item_at", dict(self.items))
        object.__setattr__(self, "_door_at", dict(self.doors))
        object.__setattr__(self, "_gate_at", dict(self.gates))
        object.__setattr__(self, "_side_kinds", {})

    # -- the grid ---------------------------------------------------------
    def rooms(self) -> Iterator[Room]:
        """Every room, row by row from the top-left."""
        for row in range(1, self.rows + 1):
            for col in range(1, self.cols + 1):
                yield Room(col, row)

    def contains(self, room: Room) -> bool:
        return 1 <= room.col <= self.cols and 1 <= room.row <= self.rows

    def interior_sides(self) -> list[frozenset[Room]]:
        """Every side between two neighbouring rooms, in a fixed order."""
        sides = []
        for room in self.rooms():
            for side in "ES":
                other = room.neighbour(side)
                if self.contains(other):
                    sides.append(interior_side(room, other))
        return sides

    def border_sides(self) -> list[tuple[Room, str]]:
        """Every side on the map's outer edge, in a fixed order."""
        return [(room, side) for room in self.rooms() for side in SIDES
                if not self.contains(room.neighbour(side))]

    def side_kind(self, room: Room, side: str) -> str:
        """``passage``, ``wall`` or ``entry`` for one side of one room. Magic Doors and Rune Gates stand on
        passages (``door_at``, ``gate_at``); a cave entrance is an ``entry`` on a wall inside the map, and a
        wall seen from the room on its other side."""
        known = self._side_kinds.get((room, side))     # asked tens of thousands of times when a game is scored
        if known is None:
            known = self._side_kinds[room, side] = self._find_side_kind(room, side)
        return known

    def _find_side_kind(self, room: Room, side: str) -> str:
        if (room, side) in self.entries:
            return "entry"
        other = room.neighbour(side)
        if not self.contains(other):
            return "wall"
        return "wall" if interior_side(room, other) in self.walls else "passage"

    def item_at(self, room: Room) -> Item | None:
        return self._item_at.get(room)

    def door_at(self, room: Room, side: str) -> str | None:
        """The die icon of the Magic Door on this side of this room, or None."""
        return self._door_at.get(interior_side(room, room.neighbour(side)))

    def gate_at(self, room: Room, side: str) -> str | None:
        """The glyph of the Rune Gate on this side of this room, or None."""
        return self._gate_at.get(interior_side(room, room.neighbour(side)))

    def outer_entries(self) -> list[tuple[Room, str]]:
        return sorted((room, side) for room, side in self.entries if not self.contains(room.neighbour(side)))

    def cave_entries(self) -> list[tuple[Room, str]]:
        """Cave entrances: entryways on a wall inside the map."""
        return sorted((room, side) for room, side in self.entries if self.contains(room.neighbour(side)))

    def rooms_with(self, kind: str) -> list[tuple[Room, Item]]:
        """The rooms holding items of one kind, with the items, in item order."""
        return sorted(((room, item) for room, item in self.items if item.kind == kind), key=lambda p: (p[1], p[0]))

    def gate_partner(self, side: frozenset[Room]) -> frozenset[Room]:
        """The other Rune Gate with the same glyph as the gate on ``side``."""
        glyph = self._gate_at[side]
        return next(other for other, g in self.gates if g == glyph and other != side)

    def expansion_features(self) -> frozenset[str]:
        """Which expansion elements this map has (names from ``FEATURES``)."""
        kinds = {item.kind for _, item in self.items}
        have = {"diamonds": "diamond" in kinds, "caves": bool(self.cave_entries()), "doors": bool(self.doors),
                "skull": "skull" in kinds, "emeralds": self.curse_spaces > 0, "runes": bool(self.gates)}
        return frozenset(name for name, present in have.items() if present)

    @property
    def needs_die(self) -> bool:
        """Maps with Diamonds, Magic Doors or the Curse Track are played with the die."""
        return bool(self.expansion_features() & {"diamonds", "doors", "emeralds"})

    def passage_neighbours(self, room: Room) -> list[Room]:
        return [room.neighbour(side) for side in SIDES if self.side_kind(room, side) == "passage"]

    def reachable_rooms(self) -> set[Room]:
        """Rooms a path can reach from some entryway through passages."""
        seen = {room for room, _ in self.entries if self.contains(room)}
        queue = deque(seen)
        while queue:
            for other in self.passage_neighbours(queue.popleft()):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        return seen

    # -- the rules a map must keep ------------------------------------------
    def problems(self) -> list[tuple[str, str]]:
        """Every way this map breaks the rules of a dungeon map, as ``(path, message)``."""
        found: list[tuple[str, str]] = []
        if not (2 <= self.rows <= MAX_SIZE and 2 <= self.cols <= MAX_SIZE):
            return [("rows", f"a map is 2 to {MAX_SIZE} rooms each way, not {self.cols}x{self.rows}")]
        for wall in sorted(self.walls, key=sorted):
            rooms = sorted(wall)
            if not (len(rooms) == 2 and all(map(self.contains, rooms)) and rooms[0].steps_to(rooms[1]) == 1):
                name = "-".join(room.name for room in rooms)
                found.append(("walls", f"{name} is not a side between two neighbouring rooms of the map"))
        # Exactly six entryways on the outer edge, cave entrances only on walls inside, never two in one room.
        outer = [(room, side) for room, side in self.entries if not self.contains(room.neighbour(side))]
        if len(outer) != ENTRY_COUNT:
            found.append(("entries", f"{len(outer)} entryways on the outer edge; a map has exactly {ENTRY_COUNT}"))
        caves = [(room, side) for room, side in self.entries if self.contains(room.neighbour(side))]
        if len(caves) > MAX_CAVES:
            found.append(("caves", f"{len(caves)} cave entrances; a map has at most {MAX_CAVES}"))
        per_room = Counter(room for room, _ in self.entries)
        for room, side in sorted(self.entries):
            if not self.contains(room):
                found.append(("entries", f"{room.name}:{side} is outside the {self.cols}x{self.rows} map"))
            elif (room, side) in caves and interior_side(room, room.neighbour(side)) not in self.walls:
                found.append(("caves", f"{room.name}:{side} is a passage; a cave entrance stands on a wall "
                                       f"inside the map"))
        for room, count in sorted(per_room.items()):
            if count > 1:
                found.append(("entries", f"{room.name} has {count} entryways; a room has at most one"))
        # At most one item per room, and exactly the standard set of items.
        per_item_room = Counter(room for room, _ in self.items)
        for room, count in sorted(per_item_room.items()):
            if not self.contains(room):
                found.append((f"rooms.{room.name}", f"outside the {self.cols}x{self.rows} map"))
            if count > 1:
                found.append((f"rooms.{room.name}.items", f"{count} items; a room holds at most one"))
        have = Counter(item for _, item in self.items)
        wanted = self._wanted_items(have)
        for item, count in sorted(wanted.items()):
            if have[item] != count:
                found.append(("rooms", f"the map has {have[item]} {item.name}, it needs {count}"))
        for item in sorted(set(have) - set(wanted)):
            found.append(("rooms", f"the map has {have[item]} {item.name}, it needs none"))
        found += self._door_and_gate_problems()
        # Every room can be reached from an entryway through passages.
        if not found:
            reachable = self.reachable_rooms()
            unreachable = [room.name for room in self.rooms() if room not in reachable]
            if unreachable:
                found.append(("walls", "no passage leads from any entryway to " + ", ".join(unreachable)))
        return found

    def _wanted_items(self, have: Counter) -> Counter:
        """The items this map must hold: the standard set, all six Diamonds if it has any, the Skull and
        its coins together, one Emerald per Curse Track space."""
        wanted = standard_items()
        kinds = Counter()
        for item, count in have.items():
            kinds[item.kind] += count
        if kinds["diamond"]:
            for number in range(1, DIAMOND_COUNT + 1):
                wanted[Item("diamond", str(number))] = 1
        if kinds["skull"] or kinds["skull_coin"]:
            wanted[Item("skull")] = 1
            low, high = SKULL_COINS
            wanted[Item("skull_coin")] = min(max(kinds["skull_coin"], low), high)
        for number in range(1, self.curse_spaces + 1):
            wanted[Item("emerald", str(number))] = 1
        return wanted

    def _door_and_gate_problems(self) -> list[tuple[str, str]]:
        found = []
        if self.curse_spaces and not CURSE_SPACES[0] <= self.curse_spaces <= CURSE_SPACES[1]:
            found.append(("curse_spaces", f"a Curse Track has {CURSE_SPACES[0]} to {CURSE_SPACES[1]} spaces, "
                                          f"not {self.curse_spaces}"))
        on_sides = Counter()
        for what, marks, names in (("doors", self.doors, ICONS), ("gates", self.gates, GLYPHS)):
            for side, mark in sorted(marks, key=lambda pair: (sorted(pair[0]), pair[1])):
                rooms = sorted(side)
                name = "-".join(room.name for room in rooms)
                on_sides[side] += 1
                if not (len(rooms) == 2 and all(map(self.contains, rooms)) and rooms[0].steps_to(rooms[1]) == 1):
                    found.append((what, f"{name} is not a side between two neighbouring rooms of the map"))
                elif side in self.walls:
                    found.append((what, f"{name} is a wall; doors and gates stand on passages"))
                if mark not in names:
                    found.append((what, f"{name}: unknown {'icon' if what == 'doors' else 'glyph'} {mark!r} "
                                        f"(one of: {', '.join(names)})"))
        for side, count in on_sides.items():
            if count > 1:
                found.append(("gates", f"{'-'.join(r.name for r in sorted(side))} holds more than one door or gate"))
        glyphs = Counter(glyph for _, glyph in self.gates)
        for glyph, count in sorted(glyphs.items()):
            if count != 2:
                found.append(("gates", f"glyph {glyph!r} is on {count} gates; every glyph is on exactly two"))
        return found

    def ascii(self) -> str:
        """A text picture of the map: ``#`` walls, ``v>^<`` entryways, item initials."""
        glyph = {"loot": "$", "dragon": "D", "skull": "K", "skull_coin": "c", "diamond": "*"}
        lines = []
        for row in range(1, self.rows + 1):
            top, mid = "+", "|"
            for col in range(1, self.cols + 1):
                room = Room(col, row)
                n = self.side_kind(room, "N")
                top += {"entry": " v ", "wall": "---", "passage": "   "}[n] + "+"
                item = self.item_at(room)
                text = " . " if item is None else f" {glyph.get(item.kind, item.kind[0].upper())}{item.letter or ' '}"
                mid = mid[:-1] + {"entry": ">", "wall": "|", "passage": " "}[self.side_kind(room, "W")] if col == 1 else mid
                mid += text + {"entry": "<", "wall": "|", "passage": " "}[self.side_kind(room, "E")]
            lines += [top, mid]
        bottom = "+" + "".join({"entry": " ^ ", "wall": "---"}[self.side_kind(Room(c, self.rows), "S")] + "+"
                               for c in range(1, self.cols + 1))
        return "\n".join(lines + [bottom])
