"""The expansion maps' die (``templates/die.toml``) and what its rolls do: Diamonds, doors, the Curse Track.

A roll is the number on the face that came up (1-6); its icon comes from the
die's data. ``curse_track`` fills the track from a list of rolls as RULES.md
section 2 says, with our die's sun where the rules roll a skull (the one skull on our sheets is the Skull):
a sun fills the bottom half of the next space from the right, a dragon the top half of the next space from the left, a moon nothing, and a
full half-row takes no more. ``marks_from_rolls`` is what the rolls mark on a
map, and ``round_instructions`` says it in words, round by round, for the deal.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import templates
from games.board import Marks
from games.datafile import parse_toml, take
from games.errors import ScrawlError, TemplateError
from games.maps import ICONS, DungeonMap

DIE_VERSION = 1


@dataclass(frozen=True)
class Die:
    name: str
    faces: tuple[tuple[int, str], ...]     # (number, icon), in face order

    def icon(self, number: int) -> str:
        """The icon on the face with ``number``."""
        return dict(self.faces)[number]

    def roll(self, rng: random.Random) -> int:
        return rng.choice(self.faces)[0]


def parse_die(data: dict, source: str) -> Die:
    """A die from parsed TOML. Raises ``TemplateError`` listing every problem."""
    problems: list[tuple[str, str]] = []
    name = take(problems, data, "name", str, "name")
    take(problems, data, "id", str, "id")
    faces = []
    for i, face in enumerate(take(problems, data, "faces", list, "faces", [])):
        path = f"faces[{i}]"
        if not isinstance(face, dict):
            problems.append((path, f"should be a table like {{number = 1, icon = \"sun\"}}, not {face!r}"))
            continue
        number = take(problems, face, "number", int, f"{path}.number")
        icon = take(problems, face, "icon", str, f"{path}.icon")
        if isinstance(icon, str) and icon not in ICONS:
            problems.append((f"{path}.icon", f"unknown icon {icon!r} (one of: {', '.join(ICONS)})"))
        faces.append((number, icon))
    numbers = [number for number, _ in faces]
    if not problems and sorted(numbers) != [1, 2, 3, 4, 5, 6]:
        problems.append(("faces", f"the faces are numbered {numbers}; the die has the numbers 1-6, each once"))
    if problems:
        raise TemplateError(source, problems)
    return Die(name=name, faces=tuple(faces))


@lru_cache(maxsize=None)
def load_die() -> Die:
    """The project's die, ``templates/die.toml``."""
    source = "die.toml"
    raw = templates.text(source)
    return parse_die(parse_toml(raw, source), source)


def roll_rounds(seed: int, rounds: int, die: Die | None = None) -> tuple[int, ...]:
    """The die rolled once a round for ``rounds`` rounds, seeded: the same seed gives the same rolls."""
    die = die or load_die()
    rng = random.Random(f"dungeon-scrawl/die/v{DIE_VERSION}/{seed}")
    return tuple(die.roll(rng) for _ in range(rounds))


def parse_rolls(text: str, rounds: int | None = None) -> tuple[int, ...]:
    """``"3,5,1"`` as rolls. Raises ``ScrawlError`` with a line saying how to write them."""
    parts = [part.strip() for part in str(text).replace(" ", ",").split(",") if part.strip()]
    if not parts or any(not part.isdigit() or not 1 <= int(part) <= 6 for part in parts):
        raise ScrawlError(f"rolls should be the die's numbers 1-6 in round order, like 3,5,1,6,2,2,4; not {text!r}")
    if rounds is not None and len(parts) > rounds:
        raise ScrawlError(f"{len(parts)} rolls given, but a game has {rounds} rounds: give one roll a round")
    return tuple(int(part) for part in parts)


@dataclass(frozen=True)
class CurseTrack:
    """Which halves of each Curse Track space are filled, spaces left to right."""

    top: tuple[bool, ...]
    bottom: tuple[bool, ...]

    def cursed(self) -> tuple[int, ...]:
        """The spaces (numbered from 1, left to right) with both halves filled: their Emeralds are cursed."""
        return tuple(i + 1 for i, (t, b) in enumerate(zip(self.top, self.bottom)) if t and b)


def curse_track(rolls, spaces: int, die: Die | None = None) -> CurseTrack:
    """The Curse Track after these rolls (RULES.md section 2)."""
    die = die or load_die()
    dragons = sum(1 for roll in rolls if die.icon(roll) == "dragon")
    suns = sum(1 for roll in rolls if die.icon(roll) == "sun")
    top = tuple(i < dragons for i in range(spaces))                 # from the left
    bottom = tuple(spaces - 1 - i < suns for i in range(spaces))  # from the right
    return CurseTrack(top, bottom)


def marks_from_rolls(dungeon: DungeonMap, rolls, die: Die | None = None) -> Marks:
    """The marks these rolls make on ``dungeon`` (no Rune Gates: those follow the path): the Diamonds rolled
    crossed out, the Curse Track filled, and the Emeralds of its full spaces crossed out. Unknown rolls
    (``None``) mark nothing."""
    die = die or load_die()
    known = [roll for roll in rolls if roll is not None]
    diamonds = {item.number for _, item in dungeon.rooms_with("diamond")}
    track = curse_track(known, dungeon.curse_spaces, die)
    emeralds = {item.number for _, item in dungeon.rooms_with("emerald")}
    return Marks(diamonds=frozenset(diamonds & set(known)), emeralds=frozenset(emeralds & set(track.cursed())),
                 curse_top=track.top, curse_bottom=track.bottom)


def round_instructions(dungeon: DungeonMap, rolls, die: Die | None = None) -> list[list[str]]:
    """What each round's roll tells a player to do on ``dungeon``, one list of plain lines a round: the roll,
    the Diamond to cross out, which Magic Doors are open, the Curse Track half to fill and the Emerald it
    curses. Only the lines for the elements this map has; an unknown roll (``None``) says so."""
    die = die or load_die()
    diamonds = {item.number: room for room, item in dungeon.rooms_with("diamond")}
    emeralds = {item.number: room for room, item in dungeon.rooms_with("emerald")}
    door_icons = {icon for _, icon in dungeon.doors}
    spaces = dungeon.curse_spaces
    crossed: set[int] = set()
    known: list[int] = []
    out = []
    for roll in rolls:
        if roll is None:
            out.append(["Roll not known: nothing to cross out or fill in"])
            continue
        icon = die.icon(roll)
        lines = [f"Roll {roll} ({icon})"]
        if roll in diamonds:
            lines.append(f"Diamond {roll} is already crossed out" if roll in crossed else
                         f"Cross out Diamond {roll} (room {diamonds[roll].name})")
            crossed.add(roll)
        if door_icons:
            lines.append(f"Magic Doors with the {icon} are open this round" if icon in door_icons else
                         f"No Magic Door shows the {icon}: every door stays closed this round")
        before = curse_track(known, spaces, die)
        known.append(roll)
        if spaces:
            # What this roll filled: the track after it, against the track before it.
            after = curse_track(known, spaces, die)
            top = [k + 1 for k in range(spaces) if after.top[k] and not before.top[k]]
            bottom = [k + 1 for k in range(spaces) if after.bottom[k] and not before.bottom[k]]
            if icon == "moon":
                lines.append("Moon: the Curse Track rests")
            elif top:
                lines.append(f"Curse Track: fill the top half of space {top[0]} (from the left)")
            elif bottom:
                lines.append(f"Curse Track: fill the bottom half of space {bottom[0]} (from the right)")
            else:
                lines.append(f"Curse Track: the {'top' if icon == 'dragon' else 'bottom'} row is full, nothing to fill")
            for space in sorted(set(after.cursed()) - set(before.cursed())):
                room = emeralds.get(space)
                lines.append(f"Space {space} is full: cross out Emerald {space}"
                             + (f" (room {room.name})" if room else "") + "; it is cursed")
        out.append(lines)
    return out
