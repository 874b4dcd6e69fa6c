"""Doodle dice monsters (RULES.md section 5): dice, parts, monsters and the roster, read and checked.

A roster (``scrawl.roster/1``) is what each player has on the table: their dice
in the reserve pool, active dice not used in a monster, and their monsters::

    {"format": "scrawl.roster/1",
     "players": [{"name": "Ann", "reserve": ["d6 red"], "active": ["d4 green"],
                  "monsters": [{"name": "Mossback", "core": {"die": "d8 red", "damage": 0},
                                "parts": [{"name": "Stinger", "type": "weapon", "die": "d6 blue", "damage": 2}]}]}]}

A die is written "dN colour"; ``damage`` is what is already marked on the part's
life track. ``read_roster`` returns the roster and *every* problem at once; a
roster with problems is not to be played. The combat itself is ``games.battle``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from games.rules import Problem

FORMAT = "scrawl.roster/1"
SIDES = (4, 6, 8, 10, 12, 20)
COLOURS = ("red", "blue", "green", "yellow", "black", "white", "brown", "gray",
           "colourless", "purple", "orange", "pink")
SPELLINGS = {"grey": "gray", "metallic": "gray", "colorless": "colourless"}
PART_TYPES = ("weapon", "shield", "combo", "nullifier")
MOST_PARTS = 5                  # the core included


class DieError(ValueError):
    """A die written in a way that is not "dN colour" with a real size and one of the twelve colours."""


@dataclass(frozen=True, order=True)
class Die:
    sides: int
    colour: str

    @classmethod
    def parse(cls, text) -> Die:
        """``Die.parse("d6 red")``; the error quotes the text and says every thing wrong with it."""
        if text is None:
            raise DieError('missing: write a die as "dN colour", like "d6 red"')
        words = text.lower().split() if isinstance(text, str) else []
        if len(words) != 2 or not words[0].startswith("d") or not words[0][1:].isdigit():
            raise DieError(f'{text!r}: write a die as "dN colour", like "d6 red"')
        sides, colour = int(words[0][1:]), SPELLINGS.get(words[1], words[1])
        wrong = []
        if sides not in SIDES:
            wrong.append(f"sides must be one of {', '.join(map(str, SIDES))}")
        if colour not in COLOURS:
            wrong.append(f"colour must be one of {', '.join(COLOURS)}")
        if wrong:
            raise DieError(f"{text!r}: " + " and ".join(wrong))
        return cls(sides, colour)

    @property
    def name(self) -> str:
        return f"d{self.sides} {self.colour}"

    @property
    def n(self) -> int:
        """The strength of a core's colour power: its sides divided by 4, rounded down."""
        return self.sides // 4


@dataclass(frozen=True)
class Part:
    type: str                   # "core" or one of PART_TYPES
    die: Die
    damage: int = 0
    name: str | None = None

    @property
    def life(self) -> int:
        return self.die.sides - self.damage


@dataclass(frozen=True)
class Monster:
    name: str | None
    core: Part
    parts: tuple[Part, ...] = ()

    @property
    def dice(self) -> tuple[Die, ...]:
        return (self.core.die,) + tuple(part.die for part in self.parts)


@dataclass(frozen=True)
class Player:
    name: str
    reserve: tuple[Die, ...] = ()
    active: tuple[Die, ...] = ()
    monsters: tuple[Monster, ...] = ()


@dataclass(frozen=True)
class Roster:
    players: tuple[Player, ...]
    needs_review: tuple = ()    # what a scan was unsure of, passed on as read


def monster_label(player: str, number: int, monster_name: str | None) -> str:
    """How the log names a monster: "Ann's Mossback", or "Ann's monster 2" when no name was written."""
    return f"{player}'s {monster_name or f'monster {number}'}"


def part_label(number: int, part: Part) -> str:
    """How the log names a part after its monster: "core", its written name, or "part 2" (counting from 1)."""
    return "core" if part.type == "core" else part.name or f"part {number}"


# -- reading -------------------------------------------------------------------------------
def read_roster(data, source: str = "ROSTER.json", *, first_player: int = 1) -> tuple[Roster, list[Problem]]:
    """The roster in ``data`` and every problem with it, each with its path (``players[0].monsters[1]``).

    What cannot be read is left out of the roster, so play it only when the problems are none.
    ``source`` names the document in the message when it is not a roster at all. A player whose
    name is null is "Player N", counting from ``first_player`` (a scanned sheet's player number).
    """
    found: list[Problem] = []
    if not isinstance(data, dict):
        found.append(Problem("", "not_a_roster", f'{source} should be a JSON object like '
                                                 f'{{"format": "{FORMAT}", "players": [...]}}'))
        return Roster(()), found
    if data.get("format", FORMAT) != FORMAT:
        found.append(Problem("format", "format",
                             f"{data.get('format')!r} is not a format this release reads ({FORMAT!r})"))
    _unknown_fields(data, "", ("format", "players", "needs_review"), found)
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        found.append(Problem("players", "players",
                             'should be a list of players like [{"name": "Ann", "monsters": [...]}]'))
        raw_players = []
    players = tuple(_player(raw, f"players[{i}]", first_player + i, found) for i, raw in enumerate(raw_players))
    review = data.get("needs_review", [])
    found.sort(key=lambda problem: _reading_order(problem.where))
    return Roster(tuple(p for p in players if p is not None), tuple(review if isinstance(review, list) else ())), found


def _player(raw, path: str, number: int, found: list[Problem]) -> Player | None:
    if not isinstance(raw, dict):
        found.append(Problem(path, "player",
                             f'should be an object like {{"name": "Ann", "monsters": [...]}}, not {raw!r}'))
        return None
    _unknown_fields(raw, path, ("name", "reserve", "active", "monsters"), found)
    name = raw.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        found.append(Problem(f"{path}.name", "name", f"should be text or null, not {name!r}"))
    name = name.strip() if isinstance(name, str) and name.strip() else f"Player {number}"
    places: list[tuple[str, str, Die]] = []         # (kind of place, path of the place, die)
    pools = {}
    for pool in ("reserve", "active"):
        dice = []
        for j, text in enumerate(_list(raw, pool, path, found)):
            die = _die(text, f"{path}.{pool}[{j}]", found)
            if die is not None:
                dice.append(die)
                places.append((pool, f"{path}.{pool}[{j}]", die))
        pools[pool] = tuple(dice)
    monsters = []
    for j, spec in enumerate(_list(raw, "monsters", path, found)):
        monster = _monster(spec, f"{path}.monsters[{j}]", found, places)
        if monster is not None:
            monsters.append(monster)
    _dice_used_twice(places, found)
    return Player(name, pools["reserve"], pools["active"], tuple(monsters))


def _monster(raw, path: str, found: list[Problem], places: list) -> Monster | None:
    if not isinstance(raw, dict):
        found.append(Problem(path, "monster",
                             f'should be an object like {{"name": null, "core": {{"die": "d8 red"}}}}, not {raw!r}'))
        return None
    _unknown_fields(raw, path, ("name", "core", "parts"), found)
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        found.append(Problem(f"{path}.name", "name", f"should be text or null, not {name!r}"))
        name = None
    raw_parts = _list(raw, "parts", path, found)
    # A monster has at most five parts, its core included.
    if len(raw_parts) + 1 > MOST_PARTS:
        found.append(Problem(path, "too_many_parts",
                             f"{len(raw_parts) + 1} parts (at most {MOST_PARTS} with the core)"))
    core = None
    if not isinstance(raw.get("core"), dict):
        found.append(Problem(f"{path}.core", "no_core",
                             'every monster has one core, like {"die": "d8 red", "damage": 0}'))
    else:
        core = _part(raw["core"], f"{path}.core", "core", found, places)
    parts = [_part(spec, f"{path}.parts[{k}]", None, found, places) for k, spec in enumerate(raw_parts)]
    if core is None:
        return None
    return Monster(_written(name), core, tuple(p for p in parts if p is not None))


def _part(raw, path: str, kind: str | None, found: list[Problem], places: list) -> Part | None:
    if not isinstance(raw, dict):
        found.append(Problem(path, "part",
                             f'should be an object like {{"type": "weapon", "die": "d6 red"}}, not {raw!r}'))
        return None
    fields = ("name", "die", "damage") if kind == "core" else ("name", "type", "die", "damage")
    _unknown_fields(raw, path, fields, found)
    ok = True
    if kind is None:
        kind = raw.get("type")
        if kind == "core":
            found.append(Problem(f"{path}.type", "second_core",
                                 f"a monster has exactly one core: a part is one of {', '.join(PART_TYPES)}"))
            ok = False
        elif kind not in PART_TYPES:
            found.append(Problem(f"{path}.type", "unknown_type",
                                 f"{kind!r} is not a part type (types: {', '.join(PART_TYPES)})"))
            ok = False
    die = _die(raw.get("die"), f"{path}.die", found)
    if die is not None:
        places.append(("parts", path, die))
    damage = raw.get("damage", 0)
    if not isinstance(damage, int) or isinstance(damage, bool) or damage < 0:
        found.append(Problem(f"{path}.damage", "damage", f"should be a whole number from 0, not {damage!r}"))
        ok = False
    elif die is not None and damage >= die.sides:
        # A part at life 0 has left play with its die: it is no longer on the monster.
        found.append(Problem(f"{path}.damage", "damage",
                             f"{damage} damage is beyond the life of a {die.name} part ({die.sides - 1} at most: "
                             "at life 0 it has left play)"))
        ok = False
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        found.append(Problem(f"{path}.name", "name", f"should be text or null, not {name!r}"))
        name = None
    if not ok or die is None:
        return None
    return Part(kind, die, damage, _written(name))


def _written(name: str | None) -> str | None:
    """A written name, or None for a blank line."""
    return name.strip() or None if name else None


def _die(text, path: str, found: list[Problem]) -> Die | None:
    try:
        return Die.parse(text)
    except DieError as exc:
        found.append(Problem(path, "die", str(exc)))
        return None


def _dice_used_twice(places: list[tuple[str, str, Die]], found: list[Problem]) -> None:
    """Each die is used once. A player may own two "d6 red" (say one in the reserve, one in a
    monster), but listing one size and colour more often than in distinct places (reserve,
    active, parts) uses a die twice: two monster parts with "d6 red" are one die used twice."""
    first: dict[tuple[str, Die], str] = {}
    for kind, path, die in places:
        if (kind, die) in first:
            where = path if kind in ("reserve", "active") else f"{path}.die"
            found.append(Problem(where, "die_used_twice", f"{die.name} is used twice (also {first[kind, die]})"))
        else:
            first[kind, die] = path


def _reading_order(path: str) -> list:
    """``players[0].monsters[10]`` after ``players[0].monsters[9]``, the reserve before the monsters:
    the order a roster is written in."""
    fields = ("format", "players", "name", "reserve", "active", "monsters", "core", "parts", "type", "die", "damage")
    return [(0, int(word)) if word.isdigit() else (1, fields.index(word) if word in fields else len(fields), word)
            for word in re.split(r"[\[\].]+", path) if word]


def _list(raw: dict, key: str, path: str, found: list[Problem]) -> list:
    value = raw.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        found.append(Problem(f"{path}.{key}" if path else key, key, f"should be a list, not {value!r}"))
        return []
    return value


def _unknown_fields(raw: dict, path: str, known: tuple[str, ...], found: list[Problem]) -> None:
    for key in raw:
        if key not in known:
            found.append(Problem(f"{path}.{key}" if path else str(key), "unknown_field",
                                 f"unknown field (here: {', '.join(known)})"))


# -- writing -------------------------------------------------------------------------------
def roster_json(roster: Roster) -> dict:
    """The roster as a ``scrawl.roster/1`` document: ``read_roster(roster_json(r))[0] == r``."""
    def part(p: Part) -> dict:
        if p.type == "core":
            return {"die": p.die.name, "damage": p.damage}
        return {"name": p.name, "type": p.type, "die": p.die.name, "damage": p.damage}

    document = {"format": FORMAT, "players": [
        {"name": player.name, "reserve": [d.name for d in player.reserve], "active": [d.name for d in player.active],
         "monsters": [{"name": m.name, "core": part(m.core), "parts": [part(p) for p in m.parts]}
                      for m in player.monsters]}
        for player in roster.players]}
    if roster.needs_review:
        document["needs_review"] = list(roster.needs_review)
    return document
