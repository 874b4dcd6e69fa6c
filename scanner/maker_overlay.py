"""The overlay picture of a Dungeon Maker sheet: the rectified sheet, faded, with the dungeon read drawn over it.

Paths read are thick green lines from each tile's middle to the sides they link (the entrance in blue, out
of its corner tile), each tile's ticked boxes ringed in green with what they say written in the tile,
the stairs marked, the loot, spells, Souls and hearts read ringed, and every place in ``needs_review``
ringed in orange with its number, listed under the sheet with the score.
"""
from __future__ import annotations

import cv2
import numpy as np

from games.maps import Room
from scanner.overlay import BLUE, GREEN, INK, ORANGE, _text, faded_canvas
from sheets.maker import MakerLayout

ITEM_WORDS = {"path": "", "bridge": "bridge", "acid": "acid", "spikes": "trap", "gate": "gate", "stairs": "EXIT",
              "slime": "slime", "skeleton": "skeleton", "ghost": "ghost", "giant-bat": "bat",
              "boss-slime": "boss slime", "golem": "golem"}


def draw_maker_overlay(page: np.ndarray, layout: MakerLayout, px_per_mm: float, entry: dict) -> np.ndarray:
    """An RGB picture of the sheet with the scored ``dungeons`` entry (``games.heroes.score_entry``) drawn
    over it."""
    review = entry.get("needs_review", [])
    faded, canvas = faded_canvas(page, 22 + 5 * min(len(review), 7), px_per_mm)

    def px(x, y):
        return int(round(x * px_per_mm)), int(round(y * px_per_mm))

    dungeon = entry["dungeon"]
    entrance = tuple(dungeon["entrance"].split(":")) if dungeon.get("entrance") else None
    thick = max(2, int(1.1 * px_per_mm))
    for name, tile in dungeon.get("tiles", {}).items():
        rect = layout.tile(name).rect
        centre = px(*rect.centre)
        for side in tile.get("path") or tile.get("bridge") or "":
            end = _side_middle(rect, side)
            colour = BLUE if entrance == (name, side) else GREEN
            cv2.line(canvas, centre, px(*end), colour, thick, cv2.LINE_AA)
        words = [ITEM_WORDS.get(tile.get(key), tile.get(key)) for key in ("room", "on") if tile.get(key)]
        words += ["acid"] * bool(tile.get("acid")) + ["EXIT"] * (dungeon.get("stairs") == name)
        words += [f"{tile['loot']} left!"] if tile.get("loot") else []
        for item, box in layout.tile(name).marks:
            if _ticked(tile, item, name, dungeon):
                cv2.rectangle(canvas, px(box.x - 0.3, box.y - 0.3), px(box.right + 0.3, box.bottom + 0.3), GREEN,
                              max(2, int(0.4 * px_per_mm)), cv2.LINE_AA)
        for row, word in enumerate(w for w in words if w):
            _text(canvas, word, px(rect.x + 1.0, rect.y + rect.h * 0.58 + row * 3.6), INK, 0.42 * px_per_mm / 5,
                  bold=True)
    record = entry.get("record", {})
    _ring_boxes(canvas, layout, record, px_per_mm)
    for number, doubt in enumerate(review, start=1):
        spot = _where(doubt.get("where", ""), layout)
        if spot is not None:
            (x, y), radius = spot
            cv2.circle(canvas, px(x, y), int(radius * px_per_mm), ORANGE, max(2, int(0.6 * px_per_mm)), cv2.LINE_AA)
            _text(canvas, str(number), px(x + radius * 0.7, y - radius * 0.7), ORANGE, 0.6 * px_per_mm / 5,
                  bold=True)
    _legend(canvas, entry, review, px_per_mm, faded.shape[0])
    return canvas


def _side_middle(rect, side: str) -> tuple[float, float]:
    cx, cy = rect.centre
    return {"N": (cx, rect.y), "S": (cx, rect.bottom), "W": (rect.x, cy), "E": (rect.right, cy)}[side]


def _ticked(tile: dict, item: str, name: str, dungeon: dict) -> bool:
    """Whether the reading has ``item``'s box of this tile ticked."""
    if item == "path":
        return "path" in tile
    if item == "stairs":
        return dungeon.get("stairs") == name
    return tile.get("room") == item or tile.get("on") == item or (item == "acid" and bool(tile.get("acid"))) \
        or (item == "bridge" and "bridge" in tile)


def _ring_boxes(canvas: np.ndarray, layout: MakerLayout, record: dict, px_per_mm: float) -> None:
    """Ring the record's boxes read as ticked: loot, spells got and cast, Souls and hearts."""
    names = [f"gem_{i}" for i in range(1, record.get("gems", 0) + 1)]
    names += [f"potion_{i}" for i in range(1, record.get("potions", 0) + 1)]
    names += [f"spell_{key}" for key in record.get("spells_got", [])]
    names += [f"spell_{key}_cast" for key in record.get("spells_cast", [])]
    names += [f"soul_{i}" for i in range(1, record.get("souls", 0) + 1)]
    names += [f"dungeon_hp_{i}" for i in range(1, record.get("hearts", 0) + 1)]
    for name in names:
        box = layout.boxes.get(name)
        if box is not None:
            cv2.rectangle(canvas, (int((box.x - 0.5) * px_per_mm), int((box.y - 0.5) * px_per_mm)),
                          (int((box.right + 0.5) * px_per_mm), int((box.bottom + 0.5) * px_per_mm)), GREEN,
                          max(2, int(0.4 * px_per_mm)), cv2.LINE_AA)


def _where(where: str, layout: MakerLayout) -> tuple[tuple[float, float], float] | None:
    """Where on the sheet a review entry's ``where`` is (a tile, or a panel), and a ring's radius in mm."""
    try:
        room = Room.parse(where)
        return layout.tile(room.name).rect.centre, layout.tile_size * 0.6
    except (ValueError, IndexError):
        pass
    if where.endswith(" got") or where.endswith(" cast"):
        where = "Spells"
    if where in ("round", "Rounds"):
        return layout.rounds_label.centre, 6.0
    panels = {"Loot": "loot", "Gems": "loot", "Potions": "loot", "Spells": "spells", "Scoring": "scoring",
              "Souls": "scoring", "dungeon HP": "scoring"}
    key = next((panel for word, panel in panels.items() if where.startswith(word)), None)
    rect = layout.panels[key].rect if key is not None else None
    return (rect.centre, min(rect.w, rect.h) * 0.6) if rect is not None else None


def _legend(canvas: np.ndarray, entry: dict, review: list[dict], px_per_mm: float, top: int) -> None:
    score = entry.get("score", {})
    who = entry.get("name") or f"player {entry.get('player', '?')}"
    on_page = score.get("heroes_on_page")       # the game-night page played the heroes (their dice), or not
    heroes = ("" if score.get("heroes_played") else
              "  (scored without heroes)" if on_page == "skipped" else
              f"  (heroes played on the page, dice {on_page})" if on_page is not None else
              "  (hero phase not on the sheet)")
    title = f"{who}  Dungeon Maker  score {score.get('total', '?')}{heroes}    {entry.get('source', '')}"
    scale = 0.55 * px_per_mm / 5
    x, y = int(8 * px_per_mm), top + int(7 * px_per_mm)
    _text(canvas, title, (x, y), INK, scale * 1.2, bold=True)
    y += int(6 * px_per_mm)
    line = (f"building {score.get('building', '?')}, Coin left {score.get('coins', '?')}, spells unused "
            f"{score.get('spells', '?')}, Souls {score.get('souls', '?')} ({score.get('souls_points', 0):+d}), "
            f"dungeon HP lost {score.get('hp_lost', '?')} ({score.get('hp_points', 0):+d})")
    _text(canvas, line, (x, y), INK, scale)
    y += int(6 * px_per_mm)
    if not review:
        _text(canvas, "Nothing to review: every reading is sure and every building rule kept.", (x, y), GREEN,
              scale)
        return
    for number, doubt in enumerate(review[:6], start=1):
        _text(canvas, f"{number}. {doubt.get('where', '')}: {doubt.get('why', '')}"[:110], (x, y), ORANGE, scale)
        y += int(5 * px_per_mm)
    if len(review) > 6:
        _text(canvas, f"... and {len(review) - 6} more (see the JSON)", (x, y), ORANGE, scale)


def maker_overlay_picture(page: bytes, entry: dict) -> np.ndarray:
    """The overlay picture (RGB) of one Dungeon Maker sheet from its rectified page (JPEG) and scored entry."""
    from games.maker import roll_loot
    from sheets.maker import LAYOUT_VERSION, maker_layout
    from sheets.page import PX_PER_MM

    image = cv2.cvtColor(cv2.imdecode(np.frombuffer(page, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    layout = maker_layout(roll_loot(entry["seed"], entry["player"]), entry.get("paper", "a4"),
                          design=entry.get("design", LAYOUT_VERSION))
    return draw_maker_overlay(image, layout, PX_PER_MM, entry)
