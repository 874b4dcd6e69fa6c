"""Stage 3, the hand: what a player draws on the sheet with a pen, in paper coordinates.

Path segments run from the midpoints of a room's exit sides towards its centre,
Traps are an X, the round number is a handwritten digit in the round circle,
and lost segments are tally marks beside scoring item 6. Players also write
things the scanner must ignore: trap-hit tallies beside item 7, scores in the
count, points and total boxes, and their name.

A hand is imperfect: strokes wobble, miss a side's midpoint by a little, stop
short of the side or overshoot it into the next room. ``HandStyle`` holds one
person's habits and pen; every random choice comes from the ``rng`` passed in.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from games.board import Board
from games.maps import STEP
from games.scoring import score
from sheets.dungeon import RoomCell, SheetLayout
from sheets.page import Rect
from photographer.digits import write_text
from photographer.pen import InkMask, apply_ink, grain_tile

PENS = ("black", "blue", "red", "green", "pencil")
TOOLS = ("marker", "ballpoint", "pencil")
INK = {   # RGB of the ink at full coverage
    ("marker", "black"): (30, 30, 34), ("marker", "blue"): (28, 58, 165), ("marker", "red"): (190, 36, 42),
    ("marker", "green"): (28, 118, 62),
    ("ballpoint", "black"): (40, 40, 52), ("ballpoint", "blue"): (32, 48, 150), ("ballpoint", "red"): (178, 42, 52),
    ("ballpoint", "green"): (36, 112, 72),
    ("pencil", "pencil"): (62, 62, 70),
}
WIDTHS = {"marker": (0.6, 1.2), "ballpoint": (0.4, 0.6), "pencil": (0.35, 0.6)}
STEP_MM = 0.3          # spacing of the points of a stroke


@dataclass(frozen=True)
class HandStyle:
    """One person with one pen: the pen, and how carefully they draw."""

    pen: str                  # black, blue, red, green or pencil
    tool: str                 # marker, ballpoint or pencil
    width_mm: float
    colour: tuple[int, int, int]
    opacity: float            # how dark the ink is where it fully covers the paper
    wobble_mm: float          # amplitude of the slow side-to-side drift of a stroke
    miss_mm: float            # furthest a stroke's end lands beside a side's midpoint
    overshoot_mm: float       # longest run past a side into the next room
    overshoot_rate: float
    short_mm: float           # longest stop before reaching a side
    short_rate: float
    corner_arc: float         # chance a corner is drawn as a curve, not a bent line
    dead_end_bar: float       # chance a dead end is finished with a cross bar
    dead_end_blob: float      # chance it is finished with a blob instead
    digit_slop: float         # 0.3 tidy to 1.5 sloppy
    digit_size: float         # usual digit height over the round circle's diameter
    digit_slant: float
    pressure: float           # unevenness of pressure along a stroke, 0 to 1
    corner_straight: float = 0.0   # chance a corner is a straight line from one side's middle to the other's
                                   # (no random hand draws so: ``make_game_shots(straight_corners=True)``)
    numbers_large: bool = False    # round numbers 1.25-1.6 times the round box's size, not 0.6-1.1
                                   # (no random hand writes so: ``make_game_shots(large_numbers=True)``)

    def as_dict(self) -> dict:
        out = asdict(self)
        out["colour"] = list(self.colour)
        return {k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()}


def hand_style(rng: np.random.Generator, pen: str | None = None, *, tool: str | None = None,
               neat: bool = False) -> HandStyle:
    """A random person and pen. ``pen`` and ``tool`` fix those; ``neat`` keeps the hand careful."""
    if pen is None:
        pen = str(rng.choice(PENS, p=[0.32, 0.32, 0.1, 0.1, 0.16]))
    if pen == "pencil":
        tool = "pencil"
    elif tool is None or tool == "pencil":
        tool = str(rng.choice(["marker", "ballpoint"]))
    care = 0.6 if neat else 1.0
    base = np.array(INK[(tool, pen)], np.float64)
    colour = tuple(int(v) for v in np.clip(base + rng.normal(0, 6, 3), 0, 255))
    return HandStyle(
        pen=pen, tool=tool, width_mm=float(rng.uniform(*WIDTHS[tool])), colour=colour,
        opacity=float(rng.uniform(0.82, 0.95) if tool == "ballpoint" else rng.uniform(0.9, 1.0)),
        wobble_mm=float((0.2 + 0.8 * rng.random() ** 1.5) * care), miss_mm=float(rng.uniform(0.3, 1.5) * care),
        overshoot_mm=float(rng.uniform(0.5, 2.5) * care), overshoot_rate=float(rng.uniform(0.05, 0.4) * care),
        short_mm=float(rng.uniform(0.3, 1.5) * care), short_rate=float(rng.uniform(0.05, 0.3) * care),
        corner_arc=float(rng.choice([0.05, 0.5, 0.95])), dead_end_bar=float(rng.uniform(0.1, 0.6)),
        dead_end_blob=float(rng.uniform(0.0, 0.35)), digit_slop=float(rng.uniform(0.3, 1.5) * care),
        digit_size=float(rng.uniform(0.65, 1.0)), digit_slant=float(rng.normal(0.12, 0.1)),
        pressure=float(rng.uniform(0.4, 1.0) if tool == "pencil" else rng.uniform(0.0, 0.4)))


def hand_for(difficulty: str, rng: np.random.Generator) -> HandStyle:
    """The hand of a ``camera_for`` difficulty: easy is a careful hand with a black or blue marker;
    medium any pen, rarely a pencil; hard any pen, pencil included."""
    if difficulty == "easy":
        return hand_style(rng, str(rng.choice(["black", "blue"])), tool="marker", neat=True)
    weights = {"medium": [0.3, 0.3, 0.15, 0.15, 0.1], "hard": [0.25, 0.25, 0.1, 0.1, 0.3]}
    if difficulty not in weights:
        return hand_style(rng)
    return hand_style(rng, str(rng.choice(PENS, p=weights[difficulty])))


def ink_sheet(page_rgb: np.ndarray, layout: SheetLayout, board: Board, px_per_mm: float, style: HandStyle,
              rng: np.random.Generator, *, trap_hits: int = 0, write_scores: bool = False,
              name: bool = True, marks_rng: np.random.Generator | None = None, sloppy: float = 0.3,
              drawn_marks: dict | None = None, dead_end_depth: tuple[float, float] = (0.45, 0.65)) -> np.ndarray:
    """The page with the board drawn on it by hand (a new array; ``page_rgb`` is not changed).

    Every room with a drawing gets its segment or X and its round number; the
    tally beside item 6 counts ``board.unusable``. ``trap_hits`` tallies go beside
    item 7, ``write_scores`` fills the count, points and total boxes, ``name``
    scribbles a name on the name line. On an expansion map ``board.marks`` are drawn too
    (``photographer.marks``) with ``marks_rng``, each mark's way of drawing put into ``drawn_marks``.
    A dead end reaches ``dead_end_depth`` (a range, shares of the room) across its room.
    """
    pen = Pen(InkMask(page_rgb.shape[:2], px_per_mm), style, rng, dead_end_depth)
    habits = {"1": int(rng.integers(3)), "4": int(rng.integers(2)), "7": int(rng.integers(2))}
    for room, drawing in board:
        cell = layout.room_cell(room.name)
        for exits in drawing.segments:
            draw_segment(pen, cell, exits)
        if drawing.trap:
            draw_trap(pen, cell)
        if drawing.round is not None:
            write_round(pen, cell, drawing.round, habits)
    draw_tally(pen, layout.unusable_tally, board.unusable)
    draw_tally(pen, layout.score_line(7).tally, trap_hits)
    if write_scores:
        write_score_boxes(pen, layout, board, trap_hits, habits)
    if name:
        scribble_name(pen, layout.name_line)
    if not board.marks.empty:
        from photographer.marks import draw_marks

        how = draw_marks(Pen(pen.ink, style, marks_rng if marks_rng is not None else rng), layout, board.marks,
                         sloppy=sloppy)
        if drawn_marks is not None:
            drawn_marks.update(how)
    grain = grain_tile(rng, px_per_mm) if style.tool == "pencil" else None
    return apply_ink(page_rgb, pen.ink, style.colour, style.opacity, grain)


class Pen:
    """A hand holding a pen over one page: turns ideal paths into wobbly strokes of ink."""

    def __init__(self, ink: InkMask, style: HandStyle, rng: np.random.Generator,
                 dead_end_depth: tuple[float, float] = (0.45, 0.65)):
        self.ink, self.style, self.rng = ink, style, rng
        self.dead_end_depth = dead_end_depth

    def stroke(self, path_mm: np.ndarray, wobble: float | None = None) -> np.ndarray:
        """Draw a stroke along an ideal path, with the hand's wobble and pressure; returns what was drawn."""
        points = wobbled(densify(path_mm), self.style.wobble_mm if wobble is None else wobble, self.rng)
        self.ink.stroke(points, self.style.width_mm * self.rng.uniform(0.92, 1.08), self.pressure(len(points)))
        return points

    def blob(self, centre_mm, radius_mm: float) -> None:
        """A dot of ink, pressed a little harder than a stroke."""
        self.ink.dot(centre_mm, radius_mm, min(1.0, self.pressure(1)[0] + 0.1))

    def pressure(self, n: int) -> np.ndarray:
        """Pen pressure along a stroke of ``n`` points: steady for a marker, uneven for a pencil."""
        style, rng = self.style, self.rng
        base = {"marker": rng.uniform(0.96, 1.0), "ballpoint": rng.uniform(0.85, 1.0),
                "pencil": rng.uniform(0.7, 1.0)}[style.tool]
        s = np.arange(n) * STEP_MM
        drift = sum(np.sin(2 * np.pi * s / rng.uniform(4, 20) + rng.uniform(0, 2 * np.pi)) for _ in range(2)) / 2
        ends = np.clip(np.minimum(s, s[-1] - s) / 1.5, 0, 1) if n > 1 else np.ones(1)
        fade = 1 - (0.3 if style.tool == "pencil" else 0.12) * style.pressure * (1 - ends)
        return np.clip((base + 0.2 * style.pressure * drift) * fade, 0.3, 1.0)


# -- paths in a room ------------------------------------------------------------------------------------

def draw_segment(pen: Pen, cell: RoomCell, exits: str) -> None:
    """One path segment: a straight, corner, T, cross or dead end, by its exit sides."""
    exits = "".join(sorted(exits, key="NESW".index))
    ends = {side: stroke_end(pen, cell, side) for side in exits}
    straights = [pair for pair in ("NS", "EW") if set(pair) <= set(exits)]
    if len(exits) == 1:
        draw_dead_end(pen, cell, exits, ends[exits])
    elif len(exits) == 2 and not straights:
        draw_corner(pen, cell, exits, ends)
    else:
        lines = [pen.stroke(_oriented(pen.rng, ends[a], ends[b])) for a, b in pen.rng.permutation(straights)]
        for side in exits:
            if side not in "".join(straights):
                draw_stub(pen, side, ends[side], lines[0])


def stroke_end(pen: Pen, cell: RoomCell, side: str) -> np.ndarray:
    """Where a stroke meets ``side``: beside its midpoint, maybe short of the side or past it."""
    style, rng = pen.style, pen.rng
    out = np.array(STEP[side], np.float64)
    across = np.array([-out[1], out[0]])
    lateral = float(np.clip(rng.normal(0, style.miss_mm / 2), -style.miss_mm, style.miss_mm))
    roll = rng.random()
    if roll < style.overshoot_rate:
        reach = rng.uniform(0, style.overshoot_mm)
    elif roll < style.overshoot_rate + style.short_rate:
        reach = -rng.uniform(0, style.short_mm)
    else:
        reach = rng.normal(0, 0.25)
    return np.asarray(cell.side_midpoint(side), np.float64) + across * lateral + out * reach


def draw_corner(pen: Pen, cell: RoomCell, exits: str, ends: dict[str, np.ndarray]) -> None:
    """A corner: a quarter circle about the room's corner, or a line bent near the centre (or, for a hand that
    draws so, a straight line across the corner)."""
    a, b = pen.rng.permutation(list(exits))
    mid_a, mid_b = (np.asarray(cell.side_midpoint(s), np.float64) for s in (a, b))
    centre = np.asarray(cell.rect.centre, np.float64)
    if pen.style.corner_straight and pen.rng.random() < pen.style.corner_straight:
        ideal = mid_a + (mid_b - mid_a) * np.linspace(0, 1, 12)[:, None]
    elif pen.rng.random() < pen.style.corner_arc:
        corner = mid_a + mid_b - centre
        start, stop = (np.arctan2(*(m - corner)[::-1]) for m in (mid_a, mid_b))
        sweep = (stop - start + np.pi) % (2 * np.pi) - np.pi
        radius = cell.rect.w / 2 * (1 + pen.rng.normal(0, 0.04))
        t = np.linspace(0, 1, 40)[:, None]
        angles = start + sweep * t
        ideal = corner + radius * np.hstack([np.cos(angles), np.sin(angles)])
        ideal[0], ideal[-1] = mid_a, mid_b
    else:
        bend = centre + np.clip(pen.rng.normal(0, 0.7, 2), -1.5, 1.5)
        round_off = pen.rng.uniform(0.02, 0.3)
        q1, q2 = bend + (mid_a - bend) * round_off, bend + (mid_b - bend) * round_off
        t = np.linspace(0, 1, 12)[:, None]
        curve = (1 - t) ** 2 * q1 + 2 * t * (1 - t) * bend + t ** 2 * q2
        ideal = np.vstack([mid_a, curve, mid_b])
    pen.stroke(_moved_ends(densify(ideal), ends[a] - mid_a, ends[b] - mid_b))


def draw_stub(pen: Pen, side: str, end: np.ndarray, line: np.ndarray) -> None:
    """The third arm of a T: from its side to the drawn straight, stopping at or just past it."""
    inward = -np.array(STEP[side], np.float64)
    # The point of the drawn straight across from this side's end.
    offsets = line - end
    along = offsets @ inward
    beside = np.abs(offsets @ np.array([-inward[1], inward[0]]))
    meet = line[np.argmin(beside + 100 * (along < 0))]
    stop = meet + inward * pen.rng.normal(0.1, 0.5)
    pen.stroke(_oriented(pen.rng, end, stop))


def draw_dead_end(pen: Pen, cell: RoomCell, side: str, end: np.ndarray) -> None:
    """A dead end: from the side about half-way across (the pen's ``dead_end_depth``), often finished
    with a bar or a blob."""
    inward = -np.array(STEP[side], np.float64)
    across = np.array([-inward[1], inward[0]])
    depth = pen.rng.uniform(*pen.dead_end_depth) * cell.rect.w
    mid = np.asarray(cell.side_midpoint(side), np.float64)
    tip = mid + inward * depth + across * pen.rng.normal(0, 0.4)
    pen.stroke(np.vstack([end, tip]))
    roll = pen.rng.random()
    if roll < pen.style.dead_end_bar:
        half = pen.rng.uniform(1.5, 3.2)
        turn = np.radians(pen.rng.normal(0, 10))
        bar = across * np.cos(turn) + inward * np.sin(turn)
        pen.stroke(_oriented(pen.rng, tip - bar * half, tip + bar * half), wobble=0.15)
    elif roll < pen.style.dead_end_bar + pen.style.dead_end_blob:
        pen.blob(tip, pen.rng.uniform(0.7, 1.4))


def draw_trap(pen: Pen, cell: RoomCell) -> None:
    """A Trap: an X of two diagonal strokes, slightly turned and maybe off-centre."""
    rng = pen.rng
    size = rng.uniform(0.4, 0.75) * cell.rect.w
    centre = np.asarray(cell.rect.centre, np.float64) + np.clip(rng.normal(0, 0.6, 2), -1.5, 1.5)
    turn = np.radians(rng.normal(0, 6))
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    for corner in ((-1, -1), (1, -1)) if rng.random() < 0.5 else ((1, -1), (-1, -1)):
        a = np.array(corner, np.float64) * size / 2 @ rotation.T + centre + rng.normal(0, 0.4, 2)
        b = -np.array(corner, np.float64) * size / 2 @ rotation.T + centre + rng.normal(0, 0.4, 2)
        pen.stroke(np.vstack([a, b]) if rng.random() < 0.8 else np.vstack([b, a]), wobble=pen.style.wobble_mm / 2)


# -- writing ---------------------------------------------------------------------------------------------

def write_round(pen: Pen, cell: RoomCell, number: int, habits: dict[str, int]) -> None:
    """The round number in the room's round circle, sometimes poking out of it by up to 1 mm (by a hand that
    writes large, well beyond it)."""
    style, rng = pen.style, pen.rng
    cx, cy, r = cell.round_box
    if style.numbers_large:
        height = 2 * r * rng.uniform(1.25, 1.6)
        dx, dy = (float(np.clip(rng.normal(0, 0.45), -1.0, 1.0)) for _ in range(2))
        write(pen, str(number), (cx + dx, cy + dy), height, habits)
        return
    height = 2 * r * float(np.clip(rng.normal(style.digit_size, 0.1), 0.6, 1.1))
    room_x = 1 + r - 0.3 * height           # a digit is about 0.6 of its height wide
    room_y = 1 + r - height / 2
    dx = float(np.clip(rng.normal(0, 0.45), -room_x, room_x))
    dy = float(np.clip(rng.normal(0, 0.45), -room_y, room_y))
    write(pen, str(number), (cx + dx, cy + dy), height, habits)


def write(pen: Pen, text: str, centre_mm, height_mm: float, habits: dict[str, int]) -> None:
    """Handwrite digits (and a minus sign) centred near ``centre_mm``."""
    style, rng = pen.style, pen.rng
    strokes = write_text(text, centre_mm, height_mm, rng, slop=style.digit_slop,
                         slant=style.digit_slant + rng.normal(0, 0.05), angle_deg=rng.normal(0, 4 * style.digit_slop),
                         habits=habits)
    for stroke in strokes:
        pen.stroke(stroke, wobble=min(0.12, style.wobble_mm / 4))


def draw_tally(pen: Pen, box: Rect, count: int) -> None:
    """``count`` tally marks in a box: strokes about 2 mm apart, every fifth a gate across four."""
    if count <= 0:
        return
    rng = pen.rng
    spacing = rng.uniform(1.5, 2.1) + 0.8 * pen.style.width_mm     # about 2 mm between marks, more for a fat pen
    gap = rng.uniform(0.8, 1.6)
    needed = (count - count // 5) * spacing + (count // 5) * gap
    squeeze = min(1.0, (box.w - 3.0) / needed) if needed else 1.0
    spacing, gap = spacing * squeeze, gap * squeeze
    height = box.h * rng.uniform(0.55, 0.75)
    top = box.y + (box.h - height) / 2
    lean = rng.normal(0.15, 0.1) * height
    x = box.x + rng.uniform(1.2, 2.5)
    group: list[float] = []
    for _ in range(count):
        if len(group) == 4:
            a = np.array([group[0] - rng.uniform(0.4, 1.0), top + height * rng.uniform(0.75, 0.95)])
            b = np.array([group[-1] + lean + rng.uniform(0.4, 1.0), top + height * rng.uniform(0.05, 0.25)])
            pen.stroke(np.vstack([a, b]), wobble=0.15)
            group, x = [], x + gap
            continue
        a = np.array([x + lean, top + rng.normal(0, 0.2)])
        b = np.array([x + rng.normal(0, 0.15), top + height + rng.normal(0, 0.2)])
        pen.stroke(np.vstack([a, b]), wobble=0.1)
        group.append(x)
        x += spacing * rng.uniform(0.85, 1.15)


def write_score_boxes(pen: Pen, layout: SheetLayout, board: Board, trap_hits: int, habits: dict[str, int]) -> None:
    """The player's own scoring: counts and points in most lines, and the total."""
    result = score(layout.dungeon, board, trap_hits)
    for printed, line in zip(layout.score_lines, result.lines):
        if pen.rng.random() < 0.8:
            for box, value in ((printed.count, line.count), (printed.points, line.points)):
                write_in_box(pen, box, str(value), habits)
    if pen.rng.random() < 0.9:
        write_in_box(pen, layout.total, str(result.total), habits)


def write_in_box(pen: Pen, box: Rect, text: str, habits: dict[str, int]) -> None:
    """A number written in a score box, a little off its centre."""
    height = box.h * pen.rng.uniform(0.55, 0.78)
    width = len(text) * 0.75 * height
    slack = max(0.0, (box.w - width) / 2 - 0.5)
    centre = (box.centre[0] + pen.rng.uniform(-slack, slack) * 0.6, box.centre[1] + pen.rng.normal(0, 0.3))
    write(pen, text, centre, height, habits)


def scribble_name(pen: Pen, line: Rect) -> None:
    """A cursive-looking name on the name line: loops of varied height, a tall first letter."""
    rng = pen.rng
    letter = rng.uniform(2.4, 3.6)
    letters = int(rng.integers(4, 10))
    x_height = rng.uniform(1.8, 2.6)
    start = np.array([line.x + rng.uniform(2, 10), line.bottom - rng.uniform(0.4, 1.0)])
    heights = np.where(rng.random(letters) < 0.25, 1.7, 1.0) * rng.uniform(0.85, 1.15, letters)
    heights[0] = 1.8
    t = np.linspace(0, 2 * np.pi * letters, letters * 28)
    which = np.minimum((t // (2 * np.pi)).astype(int), letters - 1)
    loops = rng.choice([-0.3, -0.18, 0.15, 0.28], letters)   # < 0: loops at the top (l, e); > 0: at the foot
    x = letter * t / (2 * np.pi) - loops[which] * letter * np.sin(t)
    y = -x_height * heights[which] * (1 - np.cos(t)) / 2
    points = start + np.column_stack([x, y + rng.normal(0, 0.03) * x])
    points[:, 0] = np.minimum(points[:, 0], line.right + 3)
    pen.stroke(points, wobble=0.2)


# -- stroke geometry ------------------------------------------------------------------------------------

def densify(points: np.ndarray, step: float = STEP_MM) -> np.ndarray:
    """The polyline re-sampled at ``step`` millimetres along its length."""
    points = np.asarray(points, np.float64)
    length = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    if length[-1] <= 0:
        return points[:1].repeat(2, axis=0)
    s = np.linspace(0, length[-1], max(2, int(np.ceil(length[-1] / step)) + 1))
    return np.column_stack([np.interp(s, length, points[:, 0]), np.interp(s, length, points[:, 1])])


def wobbled(points: np.ndarray, amplitude: float, rng: np.random.Generator) -> np.ndarray:
    """The stroke drifted sideways by smooth low-frequency noise, calm at both ends."""
    if amplitude <= 0 or len(points) < 3:
        return points
    length = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])
    total = length[-1]
    tangent = np.gradient(points, axis=0)
    tangent /= np.maximum(np.hypot(*tangent.T), 1e-9)[:, None]
    normal = np.column_stack([-tangent[:, 1], tangent[:, 0]])
    weights = rng.dirichlet(np.ones(3))
    drift = sum(w * np.sin(2 * np.pi * length / rng.uniform(10, 40) + rng.uniform(0, 2 * np.pi)) for w in weights)
    calm = np.clip(np.minimum(length, total - length) / max(min(3.0, total / 3), 1e-6), 0, 1)
    tremor = rng.normal(0, 0.02, len(points))
    return points + normal * (amplitude * drift * calm + tremor)[:, None]


def _moved_ends(path: np.ndarray, start_shift: np.ndarray, end_shift: np.ndarray) -> np.ndarray:
    """The path bent so that its ends move by the two shifts, the middle in proportion."""
    t = np.linspace(0, 1, len(path))[:, None]
    return path + (1 - t) * start_shift + t * end_shift


def _oriented(rng: np.random.Generator, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A two-point path drawn from either end."""
    return np.vstack([a, b]) if rng.random() < 0.5 else np.vstack([b, a])

