"""Cards: path-segment shapes, and decks as data (``templates/decks/NAME.toml``).

A path segment is written as the sides of the room it links to, letters from
``NESW`` in that order: ``"NS"`` is a straight, ``"NE"`` a corner, ``"E"`` a dead
end whose stub points east. Cards may be turned any way, so a shape stands for
all its rotations.

A deck file looks like::

    id = "doodles"
    name = "Dungeon Deck"
    game = "doodles"
    about = "one line saying what the deck is for"
    [[cards]]
    id = "straight"
    kind = "segment"
    title = "Straight"
    shape = "straight"
    copies = 7
    text = "..."

Loading checks every field of every card and reports all problems at once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import templates
from games.datafile import parse_toml, take as take_field
from games.errors import TemplateError
from games.maps import SIDES

# Each shape as drawn on its card: the sides it links to when not turned.
SHAPES = {
    "straight": "NS",
    "corner": "ES",
    "t": "ESW",
    "cross": "NESW",
    "dead_end": "S",
}
SHAPE_NAMES = {"straight": "straight", "corner": "corner", "t": "T", "cross": "cross", "dead_end": "dead end"}


def exits_text(sides) -> str:
    """Sides as the canonical text: letters from ``NESW`` in that order, each once."""
    wanted = set(sides)
    return "".join(side for side in SIDES if side in wanted)


def rotate(exits: str, quarter_turns: int = 1) -> str:
    """The exits after turning the segment clockwise by quarter turns."""
    return exits_text(SIDES[(SIDES.index(side) + quarter_turns) % 4] for side in exits)


@lru_cache(maxsize=None)
def orientations(shape: str) -> tuple[str, ...]:
    """Every distinct way a shape can be drawn in a room, as exits: 2 for a straight, 4 for a corner."""
    base = SHAPES[shape]
    return tuple(sorted({rotate(base, turn) for turn in range(4)}))


def shape_of(exits: str) -> str | None:
    """Which card shape drew these exits (``"NS"`` -> ``straight``), or None if none could."""
    return _shape_of(exits_text(exits))


@lru_cache(maxsize=None)        # 16 sets of sides at most; asked thousands of times when a game is scored
def _shape_of(exits: str) -> str | None:
    for shape in SHAPES:
        if exits in orientations(shape):
            return shape
    return None


# What each kind of card must carry besides id, kind, title and copies.
CARD_FIELDS: dict[str, dict[str, type]] = {
    # the dungeon deck (RULES.md section 1)
    "segment": {"shape": str},
    "trap": {},
    "draw2": {},
    # the trap deck (RULES.md section 4)
    "dungeon-trap": {"set": str, "dodge": str, "effect": str, "helps": str},
    # the monster-dice reference deck (RULES.md section 5)
    "part": {},
    "colour": {"swatch": str},
    "order": {"steps": list},
}
OPTIONAL_FIELDS = {"text": str, "flavour": str}
DECKS = ("doodles", "traps", "monsters-reference")


@dataclass(frozen=True)
class CardSpec:
    """One card design of a deck, printed ``copies`` times."""

    id: str
    kind: str
    title: str
    copies: int = 1
    text: str = ""
    fields: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def shape(self) -> str | None:
        return self.fields.get("shape")

    @property
    def exits(self) -> str:
        """For a path segment: the sides it links to as printed on the card."""
        return SHAPES[self.shape] if self.kind == "segment" else ""


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    game: str
    about: str
    cards: tuple[CardSpec, ...]

    def size(self) -> int:
        return sum(card.copies for card in self.cards)

    def physical_cards(self) -> list[CardSpec]:
        """Every printed card, copies included, in the order of the file."""
        return [card for card in self.cards for _ in range(card.copies)]

    def card(self, card_id: str) -> CardSpec:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


def load_deck(name: str) -> Deck:
    """A deck from ``templates/decks/NAME.toml``. Raises ``TemplateError`` listing every problem."""
    if name not in DECKS:
        raise TemplateError(f"decks/{name}.toml", [("", f"no such deck (decks: {', '.join(DECKS)})")])
    source = f"decks/{name}.toml"
    raw = templates.text(source)
    return parse_deck(parse_toml(raw, source), source)


def parse_deck(data: dict, source: str) -> Deck:
    """Build a deck from parsed TOML, checking every field. Raises ``TemplateError`` listing all problems."""
    problems: list[tuple[str, str]] = []

    def take(table: dict, key: str, kind: type, path: str, default=None):
        return take_field(problems, table, key, kind, path, default)

    deck_id = take(data, "id", str, "id")
    name = take(data, "name", str, "name")
    game = take(data, "game", str, "game")
    about = take(data, "about", str, "about", "")
    for key in sorted(set(data) - {"id", "name", "game", "about", "cards"}):
        problems.append((key, "unknown field (fields: id, name, game, about, cards)"))

    cards, seen = [], set()
    for i, table in enumerate(take(data, "cards", list, "cards", [])):
        base = f"cards[{i}]"
        if not isinstance(table, dict):
            problems.append((base, "should be a table ([[cards]])"))
            continue
        card_id = take(table, "id", str, f"{base}.id")
        kind = take(table, "kind", str, f"{base}.kind")
        title = take(table, "title", str, f"{base}.title")
        copies = take(table, "copies", int, f"{base}.copies", 1)
        if isinstance(card_id, str):
            if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", card_id):
                problems.append((f"{base}.id", f"{card_id!r} should be lowercase letters, digits and '-'"))
            if card_id in seen:
                problems.append((f"{base}.id", f"{card_id!r} is used by an earlier card"))
            seen.add(card_id)
        if isinstance(copies, int) and not 1 <= copies <= 20:
            problems.append((f"{base}.copies", f"{copies} copies; a card is printed 1 to 20 times"))
        if kind is not None and kind not in CARD_FIELDS:
            problems.append((f"{base}.kind", f"unknown kind {kind!r} (kinds: {', '.join(CARD_FIELDS)})"))
            continue
        wanted = {**CARD_FIELDS.get(kind, {}), **OPTIONAL_FIELDS}
        fields = {}
        for key, key_kind in wanted.items():
            value = take(table, key, key_kind, f"{base}.{key}", "" if key in OPTIONAL_FIELDS else None)
            if value is not None:
                fields[key] = value
        for key in sorted(set(table) - set(wanted) - {"id", "kind", "title", "copies"}):
            problems.append((f"{base}.{key}", f"unknown field for a {kind} card"))
        if kind == "segment" and fields.get("shape") not in SHAPES:
            if "shape" in fields:
                problems.append((f"{base}.shape", f"unknown shape {fields['shape']!r} (shapes: {', '.join(SHAPES)})"))
        if kind == "colour" and "swatch" in fields and not re.fullmatch(r"#[0-9a-fA-F]{6}", fields["swatch"]):
            problems.append((f"{base}.swatch", f"{fields['swatch']!r} should be a colour like '#c0392b'"))
        if kind == "order" and not all(isinstance(step, str) for step in fields.get("steps", [])):
            problems.append((f"{base}.steps", "should be a list of text lines"))
        text = fields.pop("text", "")
        if not fields.get("flavour"):
            fields.pop("flavour", None)
        cards.append(CardSpec(id=card_id, kind=kind, title=title, copies=copies, text=text, fields=fields))

    if not cards and "cards" in data:
        problems.append(("cards", "a deck needs at least one card"))
    if problems:
        raise TemplateError(source, problems)
    return Deck(id=deck_id, name=name, game=game, about=about, cards=tuple(cards))
