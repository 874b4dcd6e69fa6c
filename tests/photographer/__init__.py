"""The synthetic photographer: realistic phone photos of finished sheets, with the truth of what is drawn.

A test and benchmark tool, not part of the product. It plays a dealt game,
draws each player's sheet by hand (``hand``), photographs it on a table
(``camera``) or scans it (``scan``) and writes the file a phone would, with the
sheet as the scan format says it should be read::

    import photographer
    for shot in photographer.make_game_shots(7, players=3, difficulty="hard"):
        shot.data, shot.suffix, shot.truth["rooms"]

Everything is seeded: the same arguments give the same bytes.
"""
from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from games.mapfile import load_map
from games.randommap import random_map
from games.scoring import resolve_traps
from generator.layout import SheetLayout, sheet_layout
from photographer.camera import (DIFFICULTIES, Camera, PhotoMapping, camera_for, encode, photograph,
                                 place_camera, with_megapixels)
from photographer.hand import HandStyle, hand_for, hand_style, ink_sheet
from photographer.paper import PX_PER_MM, blank_sheet, play_game, truth_sheet
from photographer.scan import Scan, scan_for, scan_like

__all__ = ["Shot", "make_game_shots", "write_shots", "blank_sheet", "play_game", "truth_sheet", "ink_sheet",
           "HandStyle", "hand_style", "hand_for", "Camera", "camera_for", "photograph", "encode", "place_camera",
           "PhotoMapping", "with_megapixels", "Scan", "scan_for", "scan_like", "DIFFICULTIES", "PX_PER_MM",
           "rng_for"]


@dataclass(frozen=True)
class Shot:
    """One photo file of one player's sheet, and the truth of what the sheet holds.

    ``truth`` is a sheet of the scan format (CONTRACTS.md section 3, without
    ``score``) plus ``difficulty``, ``camera``, ``hand``, ``written`` (what else the
    player wrote) and ``photo`` (its size, the sheet's share of it, whether a shadow
    fell, and where the corners of each marker landed, in pixels of the upright photo).
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
                    paper: str = "a4", megapixels: float | None = None, keep_photos: bool = False) -> list[Shot]:
    """One photo per player of one game dealt and played from ``seed``.

    ``map_id`` is ``classic`` or ``random`` (the random map of ``seed``);
    ``difficulty`` is one of ``easy``, ``medium``, ``hard``, or ``scan`` for flatbed scans;
    ``megapixels`` fixes the size of every photo (same framing otherwise).
    """
    if difficulty not in DIFFICULTIES + ("scan",):
        raise ValueError(f"unknown difficulty {difficulty!r} (one of: {', '.join(DIFFICULTIES)}, scan)")
    dungeon = random_map(seed) if map_id == "random" else load_map(map_id)
    layout = sheet_layout(dungeon, paper)
    boards = play_game(dungeon, seed, players)
    hits = [len(h) for h in resolve_traps(boards)]
    shots = []
    for player, (board, trap_hits) in enumerate(zip(boards, hits), start=1):
        stream = f"{map_id}/{paper}/{difficulty}"
        hand_rng, camera_rng = rng_for(seed, player, "hand/" + stream), rng_for(seed, player, "camera/" + stream)
        page, written, style = _drawn_page(layout, player, board, trap_hits, difficulty, hand_rng)
        photo, mapping, camera, kind = _take(page, layout, difficulty, camera_rng, megapixels)
        data, suffix = encode(photo, camera)
        name = f"game{seed}-{map_id}-p{player}-{difficulty}"
        truth = truth_sheet(dungeon, board, player, name + suffix)
        truth.update(difficulty=difficulty, camera={"kind": kind, **camera.as_dict()}, hand=style.as_dict(),
                     written=written, photo=_photo_truth(photo, mapping, layout))
        shots.append(Shot(data, suffix, truth, photo if keep_photos else None))
    return shots


def _drawn_page(layout: SheetLayout, player: int, board, trap_hits: int, difficulty: str,
                rng: np.random.Generator) -> tuple[np.ndarray, dict, HandStyle]:
    """The player's page inked by a hand fitting the difficulty, and what else they wrote on it."""
    style = hand_for(difficulty, rng)
    written = {"trap_tally": trap_hits if trap_hits and rng.random() < 0.6 else 0,
               "scores": bool(rng.random() < 0.5), "name": bool(rng.random() < 0.8), "trap_hits": trap_hits}
    page = ink_sheet(blank_sheet(layout, player, PX_PER_MM), layout, board, PX_PER_MM, style, rng,
                     trap_hits=written["trap_tally"], write_scores=written["scores"], name=written["name"])
    return page, written, style


def _take(page: np.ndarray, layout: SheetLayout, difficulty: str, rng: np.random.Generator,
          megapixels: float | None):
    """Photograph (or scan) the page: the image, its mapping, the settings and their kind."""
    if difficulty == "scan":
        scan = scan_for(rng)
        image, mapping = scan_like(page, PX_PER_MM, scan.dpi, rng, scan=scan, return_mapping=True)
        return image, mapping, scan, "scan"
    camera = camera_for(difficulty, rng, (layout.width, layout.height))
    if megapixels:
        camera = with_megapixels(camera, megapixels)
    image, mapping = photograph(page, PX_PER_MM, camera, rng, layout=layout, return_mapping=True)
    return image, mapping, camera, "phone"


def _photo_truth(photo: np.ndarray, mapping: PhotoMapping, layout: SheetLayout) -> dict:
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
