"""Monster record sheets filled in by hand: a random roster, its bubbles filled the way people fill them,
life boxes crossed off, a monster sketched and named, and the roster the sheet should read as.

A bubble is filled ``full`` (a careful scribble inside the ring), ``sloppy``
(off-centre, past the ring, with gaps), ``half`` (half of it hatched, a dot or
a tick: the scanner must flag it) or not at all. Faults put on purpose are a
second bubble filled in one group (``two_bubbles``) and a half-filled one
(``half_filled``); the truth lists them, as the ``needs_review`` entries a
scan must give.

Everything is in paper millimetres and every random choice comes from the
``rng`` passed in.
"""
from __future__ import annotations

import io

import numpy as np

from sheets.page import Rect
from sheets.roster import COLOURS, PART_TYPES, SIZES, Bubble, MonsterLayout
from photographer.hand import HandStyle, Pen, scribble_name
from photographer.pen import InkMask, apply_ink, grain_tile

FILLS = ("full", "sloppy", "half")
FAULTS = ("two_bubbles", "half_filled")


def blank_monster_sheet(layout: MonsterLayout, px_per_mm: float) -> np.ndarray:
    """The printed page as an RGB image (H x W x 3 uint8), rasterised from the project's own PDF."""
    from generator.monster_sheet import render_monster_sheets
    from photographer.paper import rasterised

    buffer = io.BytesIO()
    render_monster_sheets([layout], buffer)
    return rasterised(buffer.getvalue(), px_per_mm)


# -- what is on the sheet ----------------------------------------------------------------------------------

def random_sheet(layout: MonsterLayout, rng: np.random.Generator, *, monsters: int | None = None) -> dict:
    """What a player records on one page: monsters (each row of each card, or None), reserve and active dice.

    Every die is a different size and colour, so the sheet can hold them all
    once. Damage stays below the part's life (a part at 0 life has left play).
    """
    dice = [f"d{s} {c}" for s in SIZES for c in COLOURS]
    order = list(rng.permutation(len(dice)))
    def take() -> str:
        return dice[order.pop()]
    count = int(rng.choice([0, 1, 2, 3], p=[0.05, 0.3, 0.35, 0.3])) if monsters is None else monsters
    cards = []
    for index in range(len(layout.cards)):
        if index >= count:
            cards.append(None)
            continue
        parts = int(rng.choice([0, 1, 2, 3, 4], p=[0.1, 0.25, 0.3, 0.2, 0.15]))
        rows = sorted(rng.choice(4, parts, replace=False) + 1) if rng.random() < 0.25 else list(range(1, parts + 1))
        card = {0: _part(take(), None, rng)}
        for row in rows:
            card[int(row)] = _part(take(), str(rng.choice(PART_TYPES)), rng)
        cards.append(card)
    reserve = sorted((take() for _ in range(int(rng.integers(0, 7)))), key=dice.index)
    active = sorted((take() for _ in range(int(rng.integers(0, 4)))), key=dice.index)
    return {"cards": cards, "reserve": reserve, "active": active}


def _part(die: str, kind: str | None, rng: np.random.Generator) -> dict:
    sides = int(die.split()[0][1:])
    hurt = rng.random() < 0.45
    damage = int(rng.integers(1, sides)) if hurt and sides > 1 else 0
    return {"die": die, "type": kind, "damage": damage}


def expected_roster(sheet: dict, player: int) -> dict:
    """The one-player ``scrawl.roster/1`` document the sheet should read as (names are not read)."""
    monsters = []
    for card in sheet["cards"]:
        if card is None:
            continue
        core = card[0]
        parts = [{"name": None, "type": card[row]["type"], "die": card[row]["die"], "damage": card[row]["damage"]}
                 for row in sorted(card) if row]
        monsters.append({"name": None, "core": {"die": core["die"], "damage": core["damage"]}, "parts": parts})
    return {"format": "scrawl.roster/1", "players": [{"name": f"Player {player}", "reserve": list(sheet["reserve"]),
                                                      "active": list(sheet["active"]), "monsters": monsters}]}


def choose_faults(layout: MonsterLayout, sheet: dict, rng: np.random.Generator, count: int) -> list[dict]:
    """``count`` faults on groups the sheet marks: a second bubble filled, or the bubble half-filled."""
    groups = []
    for card, marks in zip(layout.cards, sheet["cards"]):
        for row in card.parts:
            if marks is not None and row.part in marks:
                groups += list(row.groups())
    faults = []
    for group in rng.permutation(groups)[:count]:
        faults.append({"where": str(group), "rule": str(rng.choice(FAULTS))})
    return faults


def marked_bubbles(layout: MonsterLayout, sheet: dict) -> dict[tuple[str, str], str]:
    """Every bubble the sheet's marks fill: (group, value) -> how (before faults)."""
    marked = {}
    for card, marks in zip(layout.cards, sheet["cards"]):
        if marks is None:
            continue
        for row in card.parts:
            if row.part not in marks:
                continue
            size, colour = marks[row.part]["die"].split()
            marked[(f"{row.where} size", size)] = "full"
            marked[(f"{row.where} colour", colour)] = "full"
            if row.part:
                marked[(f"{row.where} type", marks[row.part]["type"])] = "full"
    for pool in layout.pools:
        for die in sheet[pool.key]:
            marked[(pool.key, die)] = "full"
    return marked


# -- the hand ----------------------------------------------------------------------------------------------

def ink_monster_sheet(page_rgb: np.ndarray, layout: MonsterLayout, sheet: dict, px_per_mm: float, style: HandStyle,
                      rng: np.random.Generator, *, faults: list[dict] = (), sloppy: float = 0.3,
                      names: bool = True, sketches: bool = True) -> tuple[np.ndarray, dict]:
    """The page with ``sheet`` marked on it by hand (a new array), and how each bubble was filled.

    ``sloppy`` is the share of bubbles filled in a hurry; ``faults`` add a second
    filled bubble to a group or leave its bubble half-filled.
    """
    pen = Pen(InkMask(page_rgb.shape[:2], px_per_mm), style, rng)
    marked = marked_bubbles(layout, sheet)
    for key in marked:
        marked[key] = "sloppy" if rng.random() < sloppy else "full"
    bubbles = {(b.group, b.value): b for b in layout.bubbles()}
    groups = layout.groups()
    for fault in faults:
        chosen = [key for key in marked if key[0] == fault["where"]]
        if fault["rule"] == "half_filled":
            marked[chosen[0]] = "half"
        else:
            others = [b for b in groups[fault["where"]] if (b.group, b.value) not in marked]
            other = others[int(rng.integers(len(others)))]
            marked[(other.group, other.value)] = "full"
    for key, how in marked.items():
        marked[key] = fill_bubble(pen, bubbles[key], how)
    for card, marks in zip(layout.cards, sheet["cards"]):
        if marks is None:
            continue
        for row in card.parts:
            if row.part in marks:
                cross_boxes(pen, row.life, marks[row.part]["damage"])
                if names and rng.random() < 0.7:
                    scribble_name(pen, _shorter(row.name, rng))
        if sketches:
            sketch_monster(pen, card.sketch)
    if names and rng.random() < 0.8:
        scribble_name(pen, layout.name_line)
    grain = grain_tile(rng, px_per_mm) if style.tool == "pencil" else None
    return apply_ink(page_rgb, pen.ink, style.colour, style.opacity, grain), \
        {f"{group}|{value}": how for (group, value), how in marked.items()}


def _shorter(line: Rect, rng: np.random.Generator) -> Rect:
    """A name line, as far as a short name reaches along it."""
    return Rect(line.x, line.y, min(line.w, rng.uniform(14.0, 26.0)), line.h)


def fill_bubble(pen: Pen, bubble: Bubble, how: str) -> str:
    """Fill a bubble the way a hand does: back-and-forth strokes across it, at some slant. ``how`` is
    ``full``, ``sloppy`` or ``half``; says what was drawn (``half`` is ``half:hatch``, ``half:dot`` or
    ``half:tick``)."""
    rng, width = pen.rng, pen.style.width_mm
    r = bubble.r
    centre = np.array([bubble.cx, bubble.cy])
    if how == "half":
        kind = rng.choice(["half", "dot", "tick"], p=[0.5, 0.25, 0.25])
        if kind == "dot":
            pen.blob(centre + rng.normal(0, 0.15, 2), rng.uniform(0.55, 0.75))
            return "half:dot"
        if kind == "tick":
            size = r * rng.uniform(1.0, 1.3)
            start = centre + np.array([-0.8, 0.0]) * size
            low = centre + np.array([-0.2, 0.7]) * size
            end = centre + np.array([0.9, -1.0]) * size
            pen.stroke(np.vstack([start, low, end]), wobble=0.05)
            return "half:tick"
        # Hatched up to about the middle: the ink's edge (half a pen's width past the last stroke) near the centre.
        reach = r * 0.95
        edge = (rng.uniform(-0.15, 0.25) - width / 2) / reach
        _hatch(pen, centre, reach, rng.uniform(0, 2 * np.pi), max(0.3, width * 0.8), keep=(-1.0, edge))
        return "half:hatch"
    if how == "sloppy":
        centre = centre + np.clip(rng.normal(0, 0.3, 2), -0.4, 0.4)
        reach = r * rng.uniform(1.0, 1.3)
        spacing = max(0.4, width * rng.uniform(1.0, 1.6))
    else:
        reach = r * rng.uniform(0.82, 0.98)
        spacing = max(0.25, width * rng.uniform(0.6, 0.85))
    _hatch(pen, centre, reach, rng.normal(np.pi / 4, 0.5), spacing)
    if how == "full" and rng.random() < 0.5:        # some go round the edge as well
        t = np.linspace(0, 2 * np.pi * rng.uniform(1.0, 1.2), 40) + rng.uniform(0, 2 * np.pi)
        ring = centre + (reach - width / 2) * np.column_stack([np.cos(t), np.sin(t)])
        pen.stroke(ring, wobble=0.03)
    return how


def _hatch(pen: Pen, centre: np.ndarray, reach: float, angle: float, spacing: float,
           keep: tuple[float, float] = (-1.0, 1.0)) -> None:
    """One zig-zag stroke of chords across a disc, ``spacing`` apart, over the part of it from ``keep[0]`` to
    ``keep[1]`` (fractions of the radius across the chords)."""
    along = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-along[1], along[0]])
    offsets = np.arange(keep[0] * reach + spacing / 2, keep[1] * reach, spacing)
    points = []
    for i, offset in enumerate(offsets):
        half = np.sqrt(max(reach ** 2 - offset ** 2, 0.0))
        ends = [centre + across * offset - along * half, centre + across * offset + along * half]
        points += ends if i % 2 == 0 else ends[::-1]
    if len(points) >= 2:
        pen.stroke(np.array(points), wobble=0.04)


def cross_boxes(pen: Pen, boxes: tuple[Rect, ...], damage: int) -> None:
    """Cross off the first ``damage`` life boxes: a slash or an X each, or one line through them all."""
    if damage <= 0:
        return
    rng = pen.rng
    if damage >= 3 and rng.random() < 0.2:
        first, last = boxes[0], boxes[damage - 1]
        y = first.centre[1] + rng.normal(0, 0.2)
        pen.stroke(np.array([[first.x + 0.2, y], [last.right - 0.15, y + rng.normal(0, 0.15)]]), wobble=0.05)
        return
    cross = rng.random() < 0.35
    for box in boxes[:damage]:
        lean = rng.normal(0, 0.15, 4)
        pen.stroke(np.array([[box.x + 0.25 + lean[0], box.bottom - 0.25 + lean[1]],
                             [box.right - 0.25 + lean[2], box.y + 0.25 + lean[3]]]), wobble=0.02)
        if cross:
            pen.stroke(np.array([[box.x + 0.25, box.y + 0.25], [box.right - 0.25, box.bottom - 0.25]])
                       + rng.normal(0, 0.15, (2, 2)), wobble=0.02)


def sketch_monster(pen: Pen, area: Rect) -> None:
    """A quick doodle in the sketch area: a lumpy body, eyes, a mouth, some legs."""
    rng = pen.rng
    cx, cy = area.centre
    rx, ry = area.w * rng.uniform(0.25, 0.38), area.h * rng.uniform(0.22, 0.34)
    t = np.linspace(0, 2 * np.pi, 80)
    lumps = 1 + 0.12 * np.sin(t * int(rng.integers(3, 7)) + rng.uniform(0, 6))
    pen.stroke(np.column_stack([cx + rx * lumps * np.cos(t), cy + ry * lumps * np.sin(t)]))
    for side in (-1, 1):
        eye = np.array([cx + side * rx * 0.35, cy - ry * 0.3])
        pen.stroke(eye + rng.uniform(1.0, 2.0) * np.column_stack([np.cos(t[::4]), np.sin(t[::4])]), wobble=0.05)
        pen.stroke(np.array([[cx + side * rx * 0.6, cy + ry * 0.9], [cx + side * rx * 0.75, cy + ry * 1.35]]))
    mouth = np.column_stack([np.linspace(cx - rx * 0.4, cx + rx * 0.4, 7),
                             cy + ry * 0.35 + np.tile([0.0, 1.2], 4)[:7]])
    pen.stroke(mouth, wobble=0.05)
