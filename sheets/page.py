"""The page toolkit every printed sheet shares: paper sizes, the margin, the four
corner markers and the QR code that say which sheet a photo shows, rectangles in
millimetres, and the envelope of the ``FILE.layout.json`` document.

Pure: no reportlab, no OpenCV. ``generator`` draws the sheets laid out with it;
``scanner`` reads photos against the same layouts. Coordinates are millimetres
from the page's top-left corner, x to the right, y downwards: the way a person
reads the sheet.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from games.maps import FEATURES, DungeonMap
from games.mapcode import decode_map, encode_map, map_check
from games.mapfile import DESIGNED_MAPS, load_map
from games.randommap import random_map

FORMAT = "scrawl.sheet-layout/1"
LAYOUT_VERSION = 1
MAP_DESIGN = 2          # a dungeon map sheet's design, its QR code's layout version (``sheets.dungeon.DESIGN``)
GAME = "doodles"
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}

MARGIN = 8.0          # nothing is printed closer to the paper's edge
MARKER_SIZE = 14.0    # ArUco DICT_4X4_50, ids 0-3 clockwise from the top-left
MARKER_DICTIONARY = "DICT_4X4_50"
MARKER_IDS = {"doodles": (0, 1, 2, 3)}
QR_SIZE = 24.0
PX_PER_MM = 5.0       # a sheet as the scanner reads it: a 0.4 mm ballpoint line is two pixels wide


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in millimetres: top-left corner, width, height."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def corners(self) -> list[tuple[float, float]]:
        """Clockwise from the top-left, as an ArUco marker's corners are found."""
        return [(self.x, self.y), (self.right, self.y), (self.right, self.bottom), (self.x, self.bottom)]

    def contains(self, other: "Rect", tolerance: float = 1e-6) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.bottom <= self.bottom + tolerance)

    def overlaps(self, other: "Rect") -> bool:
        """True when the two share area (touching edges do not count)."""
        return (min(self.right, other.right) - max(self.x, other.x) > 1e-6
                and min(self.bottom, other.bottom) - max(self.y, other.y) > 1e-6)

    def grown(self, by: float) -> "Rect":
        return Rect(self.x - by, self.y - by, self.w + 2 * by, self.h + 2 * by)

    def to_json(self) -> dict:
        return {"x_mm": round_mm(self.x), "y_mm": round_mm(self.y), "w_mm": round_mm(self.w), "h_mm": round_mm(self.h)}




@dataclass(frozen=True)
class Marker:
    id: int
    rect: Rect



def corner_markers(paper: str) -> tuple[Marker, ...]:
    """The four ArUco markers every sheet prints, ids 0-3 clockwise from the top-left corner."""
    width, height = PAPERS[paper]
    far_x, far_y = width - MARGIN - MARKER_SIZE, height - MARGIN - MARKER_SIZE
    return tuple(Marker(i, Rect(x, y, MARKER_SIZE, MARKER_SIZE))
                 for i, (x, y) in enumerate([(MARGIN, MARGIN), (far_x, MARGIN), (far_x, far_y), (MARGIN, far_y)]))


def qr_rect(paper: str) -> Rect:
    """Where a map sheet prints its QR code: left of the top-right marker, at the same place on every paper
    relative to that marker."""
    inner_left = MARGIN + MARKER_SIZE + 4.0
    return Rect(PAPERS[paper][0] - inner_left - QR_SIZE, MARGIN + 1.0, QR_SIZE, QR_SIZE)


def qr_rect_below_marker(paper: str) -> Rect:
    """Where a Dungeon Maker sheet prints its QR code: under the top-right marker, right-aligned with it (its
    header runs between the top markers), at the same place on every paper relative to that marker."""
    return Rect(PAPERS[paper][0] - MARGIN - QR_SIZE, MARGIN + MARKER_SIZE + 3.0, QR_SIZE, QR_SIZE)


def qr_rects(paper: str) -> tuple[Rect, ...]:
    """Every place one of our sheets prints its QR code, the most common first (``scanner.locate`` looks
    at each)."""
    return qr_rect(paper), qr_rect_below_marker(paper)



# -- the QR code: which sheet this is -------------------------------------------

_QR_PREFIX = "DS"

# A game's code: four letters and digits a person can read out and type (no 0/O, 1/I/L, 8/B), all in the
# QR code's alphanumeric mode. 28^4 = 614,656 codes: two of ten games printed for one evening share a code
# by chance about once in 14,000 such evenings.
GAME_CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXYZ2345679"
GAME_CODE_LENGTH = 4


def new_game_code(length: int = GAME_CODE_LENGTH) -> str:
    """A new random game code, printed on every sheet of one game (``SheetId.code``); other lengths for other
    codes people read out (``scrawl serve``'s join code)."""
    import secrets

    return "".join(secrets.choice(GAME_CODE_LETTERS) for _ in range(length))


def game_code(text: str) -> str:
    """``text`` as a game code (upper case, spaces and dashes dropped). Raises ``ValueError`` saying what a
    game code looks like."""
    code = re.sub(r"[\s-]", "", str(text)).upper()
    if not re.fullmatch(rf"[{GAME_CODE_LETTERS}]{{{GAME_CODE_LENGTH}}}", code):
        raise ValueError(f"{text!r} is not a game code: a code is {GAME_CODE_LENGTH} of the letters and digits "
                         f"{GAME_CODE_LETTERS}, as printed beside the player number")
    return code
FEATURE_LETTERS = {"diamonds": "D", "caves": "C", "doors": "O", "skull": "K", "emeralds": "E", "runes": "R"}


@dataclass(frozen=True)
class SheetId:
    """What a sheet's QR code says: game, paper, player, layout version, and the map.

    The map travels by name where it can be rebuilt (a designed map's id, a
    random map's generator version and seed) and whole, as a map code, where it
    cannot (a map file of the player's own). A four-character check of the map
    catches a sheet whose map differs from the one rebuilt. The text uses only
    characters of the QR alphanumeric mode, and stays short so the printed
    modules are big enough for a phone photo::

        DS/L1/DOODLES/A4/P1/CLASSIC/K7Q2
        DS/L1/DOODLES/LETTER/P2/RANDOM.1.42/Q2VN
        DS/L1/DOODLES/A4/P1/RANDOM.1.42.DCOKER/X3PA     (a random expansion map: its feature letters)
        DS/L1/DOODLES/A4/P1/MY-MAP/Z4XA/C54BCC...
        DS/L1/DOODLES/A4/P1.K7QX/CLASSIC/K7Q2          (sheet 1 of game K7QX)

    Sheets printed for a game carry its code (``new_game_code``) after the player
    number; sheets printed before codes have none, and still read.
    """

    game: str
    paper: str
    player: int
    map_id: str
    seed: int | None
    map_version: int | None
    check: str
    map_code: str | None = None
    layout_version: int = LAYOUT_VERSION
    features: frozenset[str] = frozenset()
    code: str | None = None         # the game's code (``new_game_code``), printed on all its sheets

    def qr_text(self) -> str:
        token = self.map_id.upper()
        if self.seed is not None:
            token += f".{self.map_version}.{self.seed}"
            if self.features:
                token += "." + "".join(FEATURE_LETTERS[name] for name in FEATURES if name in self.features)
        parts = [_QR_PREFIX, f"L{self.layout_version}", self.game.upper(), self.paper.upper(),
                 f"P{self.player}" + (f".{self.code}" if self.code else ""), token, self.check]
        return "/".join(parts + ([self.map_code] if self.map_code else []))

    @classmethod
    def parse(cls, text: str) -> "SheetId":
        """Read a QR text. Raises ``ValueError`` saying why a code is not one of our sheets."""
        parts = str(text).strip().split("/")
        if len(parts) not in (7, 8) or parts[0] != _QR_PREFIX:
            raise ValueError(f"not a dungeon-scrawl sheet code: {text[:40]!r}")
        layout, game, paper, player, token, check = parts[1:7]
        match = re.fullmatch(r"([A-Z][A-Z0-9-]*)(?:\.(\d+)\.(\d+)(?:\.([DCOKER]+))?)?", token)
        player_code = re.fullmatch(rf"P(\d+)(?:\.([{GAME_CODE_LETTERS}]{{{GAME_CODE_LENGTH}}}))?", player)
        if not (re.fullmatch(r"L\d+", layout) and player_code and match
                and re.fullmatch(r"[A-Z2-7]{4}", check)):
            raise ValueError(f"damaged dungeon-scrawl sheet code: {text[:40]!r}")
        if paper.lower() not in PAPERS:
            raise ValueError(f"sheet code names an unknown paper {paper!r}")
        map_id, version, seed, letters = match.groups()
        features = frozenset(name for name, letter in FEATURE_LETTERS.items() if letter in (letters or ""))
        return cls(game=game.lower(), paper=paper.lower(), player=int(player_code[1]), map_id=map_id.lower(),
                   seed=int(seed) if seed else None, map_version=int(version) if version else None,
                   check=check, map_code=parts[7] if len(parts) == 8 else None, layout_version=int(layout[1:]),
                   features=features, code=player_code[2])

    @classmethod
    def for_sheet(cls, dungeon: DungeonMap, paper: str, player: int, code: str | None = None,
                  layout_version: int = MAP_DESIGN) -> "SheetId":
        """The code printed on a sheet of ``dungeon`` for ``player`` of the game ``code`` (None: a sheet of
        no game), in the sheet design ``layout_version``; the whole map goes in only if it cannot be
        rebuilt."""
        rebuilt = _rebuild(dungeon.id, dungeon.seed, dungeon.version, dungeon.features)
        whole = None if rebuilt is not None and rebuilt == dungeon else encode_map(dungeon)
        return cls(game=GAME, paper=paper, player=player, map_id=dungeon.id, seed=dungeon.seed,
                   map_version=dungeon.version, check=map_check(dungeon), map_code=whole,
                   features=dungeon.features if dungeon.seed is not None else frozenset(), code=code,
                   layout_version=layout_version)

    def dungeon(self) -> DungeonMap:
        """The map this sheet was printed with. Raises ``ValueError`` if this release cannot rebuild it."""
        if self.map_code:
            dungeon = decode_map(self.map_code, map_id=self.map_id, name=self.map_id)
        else:
            dungeon = _rebuild(self.map_id, self.seed, self.map_version, self.features)
            if dungeon is None:
                raise ValueError(f"this sheet's map {self.map_id!r} is not one this release knows")
        if map_check(dungeon) != self.check:
            raise ValueError(f"this sheet was printed from a different map {self.map_id!r} than this release has")
        return dungeon


def _rebuild(map_id: str, seed: int | None, version: int | None, features=frozenset()) -> DungeonMap | None:
    """A designed map by id, or a random map by seed, version and features; None if neither applies."""
    if seed is not None:
        try:
            return random_map(seed, version, features)
        except ValueError:
            return None
    return load_map(map_id) if map_id in DESIGNED_MAPS else None


def layout_document(game: str, layout_version: int, described: dict, first, pages: list[dict]) -> dict:
    """The ``scrawl.sheet-layout/1`` document (CONTRACTS.md section 2) of any kind of sheet: ``described``
    is the block saying what the sheet is (``{"map": ...}``, ``{"roster": ...}``, ``{"loot": ...}``),
    ``first`` a layout with the page's ``paper``, ``width`` and ``height``, ``pages`` each page's part."""
    return {
        "format": FORMAT,
        "game": game,
        "layout_version": layout_version,
        **described,
        "page": {"paper": first.paper, "width_mm": first.width, "height_mm": first.height},
        "marker_dictionary": MARKER_DICTIONARY,
        "pages": pages,
    }


def printed_codes(markers, qr: Rect) -> dict[str, Rect]:
    """The corner markers and the QR code of a page, with its quiet zone, as parts of the page that must
    keep clear of everything else printed (by name, for the layouts' ``printed()``)."""
    things = {f"marker {m.id}": m.rect for m in markers}
    things["qr"] = qr.grown(2.0)      # its quiet zone belongs to it
    return things


def printed_codes_json(markers, qr: Rect) -> dict:
    """The corner markers and the QR code of a page, as every layout JSON lists them (mm)."""
    return {"markers": [{"id": m.id, "x_mm": round_mm(m.rect.x), "y_mm": round_mm(m.rect.y), "size_mm": round_mm(m.rect.w)}
                        for m in markers],
            "qr": {"x_mm": round_mm(qr.x), "y_mm": round_mm(qr.y), "size_mm": round_mm(qr.w)}}


def round_mm(value: float) -> float:
    """A length as the layout JSON writes it: millimetres to two decimals."""
    return round(float(value), 2)
