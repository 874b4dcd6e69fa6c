"""The synthetic photographer: realistic phone photos of finished sheets, with the truth of what is drawn.

A test and benchmark tool, not part of the product. It plays a dealt game,
draws each player's sheet by hand (``hand``), photographs it on a table
(``camera``) or scans it (``scan``) and writes the file a phone would, with the
sheet as the scan format says it should be read::

    import photographer
    for shot in photographer.make_game_shots(7, players=3, difficulty="hard"):
        shot.data, shot.suffix, shot.truth["rooms"]

It also fills in monster record sheets (``monsters``: bubbles filled full,
sloppy or half, two in a group, life boxes crossed) and photographs them with
the same camera, the truth being the roster the sheet should read as::

    for shot in photographer.make_monster_shots(3, players=2, faults=2):
        shot.truth["roster"], shot.truth["faults"]

And it plays Dungeon Maker sheets (``maker``: a random legal builder, the hero phase, ticks in the tiles'
boxes and path lines through their sides), the truth being what the sheet records and the score it gives::

    for shot in photographer.make_maker_shots(5, players=2, condition="glare"):
        shot.truth["dungeon"], shot.truth["souls"], shot.truth["score"]

Instead of a difficulty, a game can be photographed in one of the named
``CONDITIONS`` (``photographer.conditions``: messaging-app copies, steep angles,
curled or folded paper, glare, shadows, dim light, light pencil, a messy hand, a
pen or a thumb on the sheet), each drawing its own numbers::

    for shot in photographer.make_game_shots(7, condition="glare"):
        shot.truth["condition"], shot.truth["hidden"], shot.truth["touched"]

Everything is seeded: the same arguments give the same bytes.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from games.mapfile import load_map
from games.maps import FEATURES
from games.randommap import random_map
from games.scoring import resolve_traps
from sheets.dungeon import SheetLayout, sheet_layout
from photographer.camera import (DIFFICULTIES, Camera, PhotoMapping, camera_for, encode, photograph,
                                 place_camera, with_megapixels)
from photographer.conditions import CONDITIONS, STRESS_CONDITIONS, Condition, condition_for
from photographer.hand import HandStyle, hand_for, hand_style, ink_sheet
from photographer.monsters import (blank_monster_sheet, choose_faults, expected_roster, ink_monster_sheet,
                                   random_sheet)
from photographer.maker import blank_maker_sheet, fill_maker_sheet, play_maker
from photographer.paper import PX_PER_MM, blank_sheet, game_rolls, play_game, truth_sheet
from photographer.scan import Scan, scan_for, scan_like

__all__ = ["Shot", "make_game_shots", "write_shots", "blank_sheet", "play_game", "truth_sheet", "ink_sheet",
           "HandStyle", "hand_style", "hand_for", "Camera", "camera_for", "photograph", "encode", "place_camera",
           "PhotoMapping", "with_megapixels", "Scan", "scan_for", "scan_like", "DIFFICULTIES", "PX_PER_MM",
           "rng_for", "make_monster_shots", "blank_monster_sheet", "random_sheet", "ink_monster_sheet",
           "expected_roster", "CONDITIONS", "STRESS_CONDITIONS", "make_maker_shots", "play_maker",
           "fill_maker_sheet", "blank_maker_sheet"]


@dataclass(frozen=True)
class Shot:
    """One photo file of one player's sheet, and the truth of what the sheet holds.

    ``truth`` is a sheet of the scan format (CONTRACTS.md section 3, without
    ``score``) plus ``difficulty``, ``camera``, ``hand``, ``written`` (what else the
    player wrote) and ``photo`` (its size, the sheet's share of it, whether a shadow
    fell, and where the corners of each marker landed, in pixels of the upright photo).
    A shot taken in a named condition also has ``condition`` (its name and the numbers
    drawn), ``hidden`` and ``touched`` (rooms a quarter or more hidden, and rooms with
    anything hidden, by glare, a pen or a thumb; see ``photographer.conditions``).
    ``photo`` is the upright image itself, if kept.
    """

    data: bytes
    suffix: str
    truth: dict
    photo: np.ndarray | None = None

    @property
    def name(self) -> str:
        return Path(self.truth["source"]).stem


def rng_for(seed: int, player: int, stream: str) -> np.random.Generator:
    """An independent random stream per game, player and purpose (the same every run)."""
    return np.random.default_rng([seed, player, zlib.crc32(stream.encode())])


def make_game_shots(seed: int, *, players: int = 3, map_id: str = "classic", difficulty: str = "medium",
                    paper: str = "a4", megapixels: float | None = None, keep_photos: bool = False,
                    condition: str | None = None, code: str | None = None, straight_corners: bool = False,
                    large_numbers: bool = False) -> list[Shot]:
    """One photo per player of one game dealt and played from ``seed``, on sheets printed with the game code
    ``code`` when given (else as sheets printed before codes).

    ``map_id`` is ``classic``, ``map1`` .. ``map6``, ``random`` (the random map of ``seed``) or
    ``random-expansion`` (the random map of ``seed`` with every expansion feature); on a map that needs
    the die the truth holds the game's ``rolls`` and each sheet's ``marks``, and ``drawn_marks`` says how
    each mark was drawn;
    ``difficulty`` is one of ``easy``, ``medium``, ``hard``, or ``scan`` for flatbed scans;
    ``megapixels`` fixes the size of every photo (same framing otherwise; a messaging-app copy is then
    scaled down from it, never up);
    ``condition``, one of ``CONDITIONS`` (or ``STRESS_CONDITIONS``), photographs the sheets in that
    condition instead (``difficulty`` is then ignored, and the truth's ``difficulty`` and the file names
    hold the condition's name);
    ``straight_corners`` has every hand draw its corners as straight lines from one side's middle to the
    other's, ``large_numbers`` write its round numbers 1.25-1.6 times the round box's size (the photos
    otherwise the same).
    """
    if condition is not None:
        if condition not in CONDITIONS + STRESS_CONDITIONS:
            raise ValueError(f"unknown condition {condition!r} (one of: {', '.join(CONDITIONS + STRESS_CONDITIONS)})")
        difficulty = condition
    elif difficulty not in DIFFICULTIES + ("scan",):
        raise ValueError(f"unknown difficulty {difficulty!r} (one of: {', '.join(DIFFICULTIES)}, scan)")
    dungeon = _dungeon(map_id, seed)
    layout = sheet_layout(dungeon, paper)
    boards = play_game(dungeon, seed, players)
    rolls = game_rolls(dungeon, seed, players)
    hits = [len(h) for h in resolve_traps(boards)]
    shots = []
    for player, (board, trap_hits) in enumerate(zip(boards, hits), start=1):
        stream = f"{map_id}/{paper}/{difficulty}"
        hand_rng, camera_rng = rng_for(seed, player, "hand/" + stream), rng_for(seed, player, "camera/" + stream)
        setting = None if condition is None else condition_for(condition, rng_for(seed, player, "condition/" + stream),
                                                                layout)
        page, written, style = _drawn_page(layout, player, board, trap_hits, difficulty, hand_rng,
                                           rng_for(seed, player, "marks/" + stream), setting, code,
                                           straight_corners, large_numbers)
        if setting is None:
            photo, mapping, camera, kind = _take(page, layout, difficulty, camera_rng, megapixels)
        else:
            photo, mapping, camera, kind = _take_in(setting, page, layout, camera_rng, megapixels)
        data, suffix = encode(photo, camera)
        name = f"game{seed}-{map_id}-p{player}-{difficulty}"
        truth = truth_sheet(dungeon, board, player, name + suffix)
        if code is not None:
            truth["game"] = code
        truth.update(difficulty=difficulty, camera={"kind": kind, **camera.as_dict()}, hand=style.as_dict(),
                     written=written, photo=_photo_truth(photo, mapping, layout))
        if setting is not None:
            truth.update(setting.truth())
        if rolls is not None:
            truth["rolls"] = list(rolls)
        shots.append(Shot(data, suffix, truth, photo if keep_photos else None))
    return shots


def make_monster_shots(seed: int, *, players: int = 2, difficulty: str = "medium", paper: str = "a4",
                       faults: int = 0, monsters: int | None = None, pen: str | None = None,
                       megapixels: float | None = None, keep_photos: bool = False,
                       condition: str | None = None) -> list[Shot]:
    """One photo per player of a monster record sheet filled in by hand from ``seed``.

    Each sheet holds a random roster (``monsters`` fixes how many monsters, 0 for
    a blank sheet); ``faults`` bubbles per sheet are a second bubble filled in a
    group or a half-filled one; ``pen`` fixes the pen (``black``, ``blue``, ``red``,
    ``green``, ``pencil``). ``truth`` holds ``roster`` (what the sheet should read
    as), ``faults`` (the ``needs_review`` entries a scan must give: where, rule),
    ``marks`` (each bubble filled and how), ``rows`` (per card, the parts drawn by row: 0 the core), the
    camera and the hand.
    """
    from sheets.roster import monster_layout

    difficulty = _difficulty(condition, difficulty)
    shots = []
    for player in range(1, players + 1):
        layout = monster_layout(paper, player)
        stream = f"monsters/{paper}/{difficulty}/{faults}/{pen}"
        sheet_rng, hand_rng = rng_for(seed, player, "sheet/" + stream), rng_for(seed, player, "hand/" + stream)
        sheet = random_sheet(layout, sheet_rng, monsters=monsters)
        chosen = choose_faults(layout, sheet, sheet_rng, faults)
        setting = None if condition is None else condition_for(condition, rng_for(seed, player, "condition/" + stream),
                                                                _RowSheet(layout))
        style = (hand_style(hand_rng, pen) if pen is not None else hand_for(difficulty, hand_rng) if setting is None
                 else setting.hand(hand_rng))
        sloppy = setting.sloppy if setting else {"easy": 0.1, "medium": 0.3}.get(difficulty, 0.5)
        page, marks = ink_monster_sheet(blank_monster_sheet(layout, PX_PER_MM), layout, sheet, PX_PER_MM, style,
                                        hand_rng, faults=chosen, sloppy=sloppy)
        camera_rng = rng_for(seed, player, "camera/" + stream)
        if setting is None:
            photo, mapping, camera, kind = _take(page, None, difficulty, camera_rng, megapixels,
                                                 paper_mm=(layout.width, layout.height))
        else:
            page = setting.after_ink(page, _RowBoard(sheet, layout), style)
            photo, mapping, camera, kind = _take_in(setting, page, _RowSheet(layout), camera_rng, megapixels)
        data, suffix = encode(photo, camera)
        name = f"monsters{seed}-p{player}-{difficulty}"
        truth = {"source": name + suffix, "player": player, "page": 1, "paper": paper,
                 "roster": expected_roster(sheet, player), "faults": chosen, "marks": marks,
                 "rows": [None if card is None else {str(row): part for row, part in card.items()}
                          for card in sheet["cards"]],
                 "difficulty": difficulty, "camera": {"kind": kind, **camera.as_dict()}, "hand": style.as_dict(),
                 "photo": _photo_truth(photo, mapping, layout)}
        if setting is not None:
            truth.update(setting.truth())
        shots.append(Shot(data, suffix, truth, photo if keep_photos else None))
    return shots


def make_maker_shots(seed: int, *, players: int = 2, difficulty: str = "medium", paper: str = "a4",
                     condition: str | None = None, megapixels: float | None = None,
                     keep_photos: bool = False, code: str | None = None) -> list[Shot]:
    """One photo per player of a Dungeon Maker sheet (loot seed ``seed`` >= 1, page N for player N) played by a
    random legal builder (``photographer.maker.play_maker``) and filled in by hand.

    ``difficulty`` (``easy``, ``medium``, ``hard``, ``scan``) or ``condition`` (one of ``CONDITIONS`` or
    ``STRESS_CONDITIONS``) as for ``make_game_shots``; the game played is the same whatever the photo.
    ``truth`` holds ``dungeon`` (``scrawl.dungeon/1``), ``souls``, ``hearts``, ``spells_got``,
    ``spells_cast``, ``gems``, ``potions``, ``rounds``, ``score`` and how the game went (``collected``,
    ``heroes``, ``log``, ``coin_trail``, ``hero_seed``), ``source``, ``player``, ``page``, ``paper``, ``seed``,
    ``drawn`` (how each box was marked), the camera, the hand and the photo; in a condition also
    ``condition``, ``hidden`` and ``touched`` (tiles, as for map rooms). ``code`` prints the game code on the
    sheets (and ``truth["game"]``), as ``scrawl loot`` does.
    """
    from games.maker import roll_loot
    from sheets.maker import maker_layout

    if seed < 1:
        raise ValueError(f"loot seeds start at 1 (a sheet of loot seed {seed} is refused by the scanner)")
    difficulty = _difficulty(condition, difficulty)
    shots = []
    for player in range(1, players + 1):
        layout = maker_layout(roll_loot(seed, player), paper)
        stream = f"maker/{paper}/{difficulty}"
        truth = play_maker(layout.loot, rng_for(seed, player, "maker/build"))
        hand_rng = rng_for(seed, player, "hand/" + stream)
        setting = None if condition is None else condition_for(condition, rng_for(seed, player, "condition/" + stream),
                                                                _TileSheet(layout))
        style = hand_for(difficulty, hand_rng) if setting is None else setting.hand(hand_rng)
        drawn: dict = {}
        page = fill_maker_sheet(layout, truth, hand_rng, style=style, px_per_mm=PX_PER_MM,
                                page=blank_maker_sheet(layout, PX_PER_MM, code), drawn=drawn,
                                sloppy=setting.sloppy if setting else {"easy": 0.1, "medium": 0.3}.get(difficulty, 0.5))
        camera_rng = rng_for(seed, player, "camera/" + stream)
        if setting is None:
            photo, mapping, camera, kind = _take(page, layout, difficulty, camera_rng, megapixels)
        else:
            page = setting.after_ink(page, _TileBoard(truth["dungeon"]), style)
            photo, mapping, camera, kind = _take_in(setting, page, layout, camera_rng, megapixels)
        data, suffix = encode(photo, camera)
        truth.update(source=f"maker{seed}-p{player}-{difficulty}{suffix}", player=player, page=player, paper=paper,
                     seed=seed, drawn=drawn, difficulty=difficulty, camera={"kind": kind, **camera.as_dict()},
                     hand=style.as_dict(), photo=_photo_truth(photo, mapping, layout))
        if code is not None:
            truth["game"] = code
        if setting is not None:
            truth.update(setting.truth())
        shots.append(Shot(data, suffix, truth, photo if keep_photos else None))
    return shots


def _difficulty(condition: str | None, difficulty: str) -> str:
    """The name a shot is taken under: the condition's, else the difficulty's (each checked)."""
    if condition is not None:
        if condition not in CONDITIONS + STRESS_CONDITIONS:
            raise ValueError(f"unknown condition {condition!r} (one of: {', '.join(CONDITIONS + STRESS_CONDITIONS)})")
        return condition
    if difficulty not in DIFFICULTIES + ("scan",):
        raise ValueError(f"unknown difficulty {difficulty!r} (one of: {', '.join(DIFFICULTIES)}, scan)")
    return difficulty


class _TileSheet:
    """A Dungeon Maker layout as the conditions see a sheet: its tiles are the rooms they hide or touch."""

    def __init__(self, layout):
        self._layout = layout
        self.rooms = layout.tiles

    def __getattr__(self, name):
        return getattr(self._layout, name)


class _RowSheet:
    """A monster record sheet's layout as the conditions see a sheet: the places its marks are read
    (``sheets.roster.MonsterLayout.places``: bubble groups, life tracks, pool rows) are the rooms they hide or
    touch, the cards and pools together the grid they lie over."""

    def __init__(self, layout):
        from types import SimpleNamespace

        self._layout = layout
        self.rooms = [SimpleNamespace(room=SimpleNamespace(name=name), rect=rect)
                      for name, rect in layout.places().items()]
        self.grid = layout.reading_area()

    def __getattr__(self, name):
        return getattr(self._layout, name)


class _RowBoard:
    """A monster record sheet as the conditions see a board: the places of part rows that hold no part are
    empty (a pool never is: its bubbles are the player's to fill)."""

    def __init__(self, sheet: dict, layout):
        drawn = {(number, row) for number, card in enumerate(sheet["cards"], start=1) if card for row in card}
        self._empty = {row.where for row in layout.rows() if (row.monster, row.part) not in drawn}

    def at(self, room):
        from types import SimpleNamespace

        return SimpleNamespace(empty=room.name.rsplit(" ", 1)[0] in self._empty)


class _TileBoard:
    """A Dungeon Maker dungeon as the conditions see a board: which tiles are empty (no loot, nothing built)."""

    def __init__(self, dungeon: dict):
        self._tiles = dungeon["tiles"]

    def at(self, room):
        from types import SimpleNamespace

        return SimpleNamespace(empty=room.name not in self._tiles)


def _dungeon(map_id: str, seed: int):
    if map_id == "random":
        return random_map(seed)
    if map_id == "random-expansion":
        return random_map(seed, features=FEATURES)
    return load_map(map_id)


def _drawn_page(layout: SheetLayout, player: int, board, trap_hits: int, difficulty: str,
                rng: np.random.Generator, marks_rng: np.random.Generator, setting: Condition | None = None,
                code: str | None = None, straight_corners: bool = False, large_numbers: bool = False
                ) -> tuple[np.ndarray, dict, HandStyle]:
    """The player's page inked by a hand fitting the difficulty (or the condition ``setting``), and what
    else they wrote on it (and, on an expansion map, how each mark was drawn)."""
    style = hand_for(difficulty, rng) if setting is None else setting.hand(rng)
    if straight_corners:
        style = replace(style, corner_straight=1.0)
    if large_numbers:
        style = replace(style, numbers_large=True)
    written = {"trap_tally": trap_hits if trap_hits and rng.random() < 0.6 else 0,
               "scores": bool(rng.random() < 0.5), "name": bool(rng.random() < 0.8), "trap_hits": trap_hits}
    drawn: dict = {}
    sloppy = {"easy": 0.1, "medium": 0.3}.get(difficulty, 0.5) if setting is None else setting.sloppy
    extra = {} if setting is None else {"dead_end_depth": setting.dead_end_depth}
    page = ink_sheet(blank_sheet(layout, player, PX_PER_MM, code), layout, board, PX_PER_MM, style, rng,
                     trap_hits=written["trap_tally"], write_scores=written["scores"], name=written["name"],
                     marks_rng=marks_rng, sloppy=sloppy, drawn_marks=drawn, **extra)
    if setting is not None:
        page = setting.after_ink(page, board, style)
    if drawn:
        written["marks"] = drawn
    return page, written, style


def _take(page: np.ndarray, layout: SheetLayout | None, difficulty: str, rng: np.random.Generator,
          megapixels: float | None, paper_mm: tuple[float, float] | None = None):
    """Photograph (or scan) the page: the image, its mapping, the settings and their kind. Without a map
    sheet's ``layout`` (a monster sheet: ``paper_mm``), a shadow keeps to the margins."""
    if difficulty == "scan":
        scan = scan_for(rng)
        image, mapping = scan_like(page, PX_PER_MM, scan.dpi, rng, scan=scan, return_mapping=True)
        return image, mapping, scan, "scan"
    camera = camera_for(difficulty, rng, paper_mm or (layout.width, layout.height))
    if megapixels:
        camera = with_megapixels(camera, megapixels)
    image, mapping = photograph(page, PX_PER_MM, camera, rng, layout=layout, return_mapping=True)
    return image, mapping, camera, "phone"


def _take_in(setting: Condition, page: np.ndarray, layout: SheetLayout, rng: np.random.Generator,
             megapixels: float | None):
    """Photograph the page in a named condition: the image, its mapping, the settings and their kind."""
    camera = setting.camera(rng, (layout.width, layout.height))
    if megapixels:
        camera = with_megapixels(camera, megapixels)
    image, mapping = photograph(page, PX_PER_MM, camera, rng, layout=layout, return_mapping=True,
                                extras=setting.extras())
    image, mapping, camera = setting.finish(image, mapping, camera)
    return image, mapping, camera, "phone"


def _photo_truth(photo: np.ndarray, mapping: PhotoMapping, layout) -> dict:
    """The upright photo's size, the sheet's share of it, and each corner marker's corners in it."""
    markers = {}
    for marker in layout.markers:
        r = marker.rect
        corners = mapping([(r.x, r.y), (r.right, r.y), (r.right, r.bottom), (r.x, r.bottom)])
        markers[str(marker.id)] = np.round(corners, 2).tolist()
    return {"width": int(photo.shape[1]), "height": int(photo.shape[0]), "fill": round(float(mapping.fill), 4),
            "shadow": mapping.shadow, "markers": markers}


def write_shots(shots: list[Shot], folder) -> list[Path]:
    """Write each shot as ``<name><suffix>`` with ``<name>.truth.json`` beside it; the photo paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for shot in shots:
        path = folder / f"{shot.name}{shot.suffix}"
        path.write_bytes(shot.data)
        (folder / f"{shot.name}.truth.json").write_text(json.dumps(shot.truth, indent=1) + "\n")
        paths.append(path)
    return paths
