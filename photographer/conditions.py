"""Named conditions a sheet is photographed in, each drawing its own numbers from a seeded stream.

``make_game_shots(seed, condition="glare")`` photographs every sheet of a game in
one condition instead of at a difficulty. A condition is a medium hand and a
medium camera with one thing changed (``good`` is an easy camera):

- ``good``: good light, a careful-ish hand (the easy camera, the medium hand);
- ``messaging``: the photo as a messaging app passes it on: the sheet filling
  80-90% of a 4:3 frame, then scaled down (``INTER_AREA``) to a long side of
  1280-1600 px and saved as JPEG of quality 55-72, upright, without EXIF tag;
- ``steep``: the camera 35-50 degrees off vertical, the near edge of the sheet
  1.5-2 times as long as the far edge, through a wide lens with barrel
  distortion (k1 -0.05 to -0.12 in focal-length units, the frame's corners
  kept where they were);
- ``curled``: one edge lifted 8-18 mm, or the middle bowed up as much, with the
  shading of the bend (the 3 mm cap of ``camera_for`` lifted);
- ``folded``: folded in three: two creases across the sheet near a third and two
  thirds of its height, each a thin line (0.3-0.6 mm, 15-35% darker), the three
  panels lit differently (0.85-1.05) and panels 2 and 3 shifted by up to 0.9 mm
  on the paper (no two neighbours by more than 1 mm);
- ``glare``: one or two bright spots 2-4 cm across on the paper, washing it to
  white in their cores, one of them on the map grid;
- ``shadow``: a hand's or phone's shadow, 40-55% darker, across the map;
- ``dim``: dim tungsten light: exposure 30-45%, warm white balance with an
  orange gain, sensor noise 8-14, then the phone's light denoising blur;
- ``pencil``: a light pencil, lines 0.3-0.5 mm at 35-55% darkness (where drawn
  at full pressure: the pencil's grey, its opacity and the paper tooth's mean
  together; pressure varies along a stroke as for any pencil);
- ``messy``: twice the medium hand's wobble, most ends overshooting into the next
  room, dead ends drawn as stubs 20-30% into their room, and a few faint ghosts
  (8-14% darker) of wiped strokes in empty rooms;
- ``pen``: a pen, 8 mm wide and 12-15 cm long, lying over the map with its soft
  shadow beside it;
- ``thumb``: a thumb (about 20 mm wide) coming in over a side edge of the sheet
  onto the map, the hand beyond the edge, shaded, with its shadow.

Nothing a condition adds comes within 3 mm of a corner marker or the QR code.
``Condition.truth()`` gives the truth's ``condition`` (the name and the numbers
drawn), ``hidden`` (rooms with at least a quarter of their area covered by the
pen or the thumb, or washed to within a few percent of white by glare) and
``touched`` (rooms with any of it hidden); both are empty for the other conditions.
"""
from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from sheets.dungeon import SheetLayout
from sheets.page import Rect
from photographer.camera import CELL, Camera, Extras, PhotoMapping, camera_for, place_camera
from photographer.geometry import CURL_SIDES
from photographer.hand import HandStyle, Pen, hand_for, hand_style
from photographer.pen import InkMask, apply_ink

CONDITIONS = ("good", "messaging", "steep", "curled", "folded", "glare", "shadow", "dim", "pencil", "messy",
              "pen", "thumb")
STRESS_CONDITIONS = ("faint",)
CLEAR_MM = 3.0            # kept between anything a condition adds and the markers and the QR code
HIDDEN_SHARE = 0.25       # a room is hidden when this much of its area is
WASHED = 0.95             # glare this strong leaves the paper within a few percent of white
_SAMPLES = 40             # points along each side of a room when measuring what is hidden


def condition_for(name: str, rng: np.random.Generator, layout: SheetLayout) -> "Condition":
    """The condition ``name`` (one of ``CONDITIONS`` or ``STRESS_CONDITIONS``) for one sheet of ``layout``,
    drawing from ``rng``."""
    if name not in _KINDS:
        raise ValueError(f"unknown condition {name!r} (one of: {', '.join(CONDITIONS + STRESS_CONDITIONS)})")
    return _KINDS[name](rng, layout)


class Condition:
    """One sheet photographed in a condition: a medium hand and camera, with nothing added.

    ``make_game_shots`` calls, in this order: ``hand``, ``after_ink`` (the inked page),
    ``camera``, ``extras`` (hooks into ``photograph``), ``finish`` (the photo, its
    mapping and camera, after ``photograph``) and ``truth``. The condition's own
    numbers come from ``self.rng``; the hand's and the camera's from theirs.
    """

    name = ""
    sloppy = 0.3                                  # how sloppily expansion marks are drawn (the medium hand's)
    dead_end_depth = (0.45, 0.65)

    def __init__(self, rng: np.random.Generator, layout: SheetLayout):
        self.rng, self.layout = rng, layout
        self.params: dict = {"name": self.name}

    def hand(self, rng: np.random.Generator) -> HandStyle:
        return hand_for("medium", rng)

    def after_ink(self, page: np.ndarray, board, style: HandStyle) -> np.ndarray:
        return page

    def camera(self, rng: np.random.Generator, paper_mm: tuple[float, float]) -> Camera:
        return camera_for("medium", rng, paper_mm)

    def extras(self) -> Extras | None:
        return None

    def finish(self, photo: np.ndarray, mapping: PhotoMapping, camera: Camera):
        return photo, mapping, camera

    def hidden_at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
        """Which paper points (mm) are hidden; None when the condition hides nothing."""
        return None

    def truth(self) -> dict:
        """The truth's ``condition``, ``hidden`` and ``touched``."""
        rooms = self.layout.rooms
        t = ((np.arange(_SAMPLES) + 0.5) / _SAMPLES).astype(np.float32)
        x0, y0, w, h = (np.float32([getattr(c.rect, k) for c in rooms])[:, None, None] for k in "xywh")
        covered = self.hidden_at(*np.broadcast_arrays(x0 + w * t, y0 + h * t[:, None]))
        share = np.zeros(len(rooms)) if covered is None else covered.reshape(len(rooms), -1).mean(axis=1)
        names = np.array([c.room.name for c in rooms])
        return {"condition": dict(self.params), "hidden": sorted(names[share >= HIDDEN_SHARE].tolist()),
                "touched": sorted(names[share > 0].tolist())}

    # -- helpers ----------------------------------------------------------------------------------------

    def record(self, **numbers) -> None:
        """Put drawn numbers into ``params``, rounded (lists and tuples too)."""
        for key, value in numbers.items():
            self.params[key] = _rounded(value)

    def keep_clear(self) -> list[Rect]:
        """The markers and the QR code, with ``CLEAR_MM`` round them."""
        return [m.rect.grown(CLEAR_MM) for m in self.layout.markers] + [self.layout.qr.grown(CLEAR_MM)]

    def clear_of_codes(self, reach) -> bool:
        """Whether ``reach(x, y)`` (where the condition changes the photo) is false all over the markers and
        the QR code with their margins."""
        for rect in self.keep_clear():
            xs, ys = np.meshgrid(np.arange(rect.x, rect.right + 0.25, 0.5), np.arange(rect.y, rect.bottom + 0.25, 0.5))
            if np.any(reach(xs, ys)):
                return False
        return True


def _rounded(value):
    if isinstance(value, (float, np.floating)):
        return round(float(value), 3)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


# -- camera and hand ------------------------------------------------------------------------------------

class Good(Condition):
    name = "good"

    def camera(self, rng, paper_mm):
        return camera_for("easy", rng, paper_mm)


GRAIN_MEAN = 0.835        # the mean of the pencil's paper tooth (photographer.pen.grain_tile)


class Pencil(Condition):
    """Light pencil: the line's darkness where drawn at full pressure (pencil grey x opacity x the paper
    tooth's mean) drawn from 35-55%, as the issue gives it."""
    name = "pencil"

    def hand(self, rng):
        style = hand_style(rng, "pencil")
        width, darkness = float(self.rng.uniform(0.3, 0.5)), float(self.rng.uniform(0.35, 0.55))
        grey = 1 - sum(style.colour) / (3 * 255)
        opacity = min(1.0, darkness / (grey * GRAIN_MEAN))
        style = replace(style, width_mm=width, opacity=opacity)
        self.record(width_mm=width, darkness=darkness, opacity=opacity)
        return style


class Faint(Condition):
    """A pencil fainter than the issue's range (stress only): opacity, not darkness, 35-55%."""
    name = "faint"

    def hand(self, rng):
        style = hand_style(rng, "pencil")
        style = replace(style, width_mm=float(self.rng.uniform(0.3, 0.5)), opacity=float(self.rng.uniform(0.35, 0.55)))
        self.record(width_mm=style.width_mm, opacity=style.opacity)
        return style


class Curled(Condition):
    name = "curled"

    def camera(self, rng, paper_mm):
        camera = camera_for("medium", rng, paper_mm)
        lift, side, width = self.rng.uniform(8, 18), str(self.rng.choice(CURL_SIDES)), self.rng.uniform(40, 90)
        self.record(lift_mm=lift, side=side, width_mm=width)
        return replace(camera, curl_mm=float(lift), curl_side=side, curl_width_mm=float(width))


class Shadow(Condition):
    name = "shadow"

    def camera(self, rng, paper_mm):
        camera = camera_for("medium", rng, paper_mm)
        strength = float(self.rng.uniform(0.40, 0.55))
        self.record(strength=strength)
        return replace(camera, shadow=True, shadow_over="grid", shadow_strength=strength)

    def extras(self):
        # The QR code too is kept clear (a "grid" shadow otherwise keeps off the markers only).
        return Extras(keep_clear=(self.layout.qr.grown(CLEAR_MM),), shadow_across=self.layout.grid, shadow_tries=400)


class Dim(Condition):
    name = "dim"

    def camera(self, rng, paper_mm):
        camera = camera_for("medium", rng, paper_mm)
        exposure, noise = self.rng.uniform(0.30, 0.45), self.rng.uniform(8, 14)
        self.gains = (1.0, float(self.rng.uniform(0.84, 0.92)), float(self.rng.uniform(0.58, 0.72)))
        self.denoise = float(self.rng.uniform(0.5, 0.8))
        self.record(exposure=exposure, noise=noise, gains=self.gains, denoise_px=self.denoise)
        return replace(camera, exposure=float(exposure), warmth=1.0, noise=float(noise))

    def extras(self):
        gains = np.diag(self.gains).astype(np.float32)
        return Extras(after_light=lambda photo, grid: cv2.transform(photo, gains))

    def finish(self, photo, mapping, camera):
        return cv2.GaussianBlur(photo, (0, 0), self.denoise), mapping, camera


class Messaging(Condition):
    name = "messaging"

    def camera(self, rng, paper_mm):
        base = camera_for("medium", rng, paper_mm)
        r = self.rng
        pixels = base.width * base.height
        long_side = int(math.sqrt(pixels * 4 / 3) // 8 * 8)
        short_side = int(long_side * 3 / 4 // 8 * 8)
        portrait_frame = r.random() < 0.7
        width, height = (short_side, long_side) if portrait_frame else (long_side, short_side)
        suits = 0.0 if (paper_mm[1] > paper_mm[0]) == portrait_frame else 90.0
        upright = suits + (180.0 if r.random() < 0.15 else 0.0)
        turn, tilt = float(r.normal(0, 1.5)), float(r.uniform(0, 6))
        wanted = float(r.uniform(0.8, 0.9))
        for _ in range(4):          # held squarer over the sheet until it can fill 80% of the frame
            camera = replace(base, width=width, height=height, rotation_deg=(upright + turn) % 360, tilt_deg=tilt,
                             fill=1.0, curl_mm=min(base.curl_mm, 2.0), fmt="jpeg")
            _, most = place_camera(camera, paper_mm)
            if most > 0.8 / 0.999:
                break
            turn, tilt = turn / 2, tilt / 2
        self.long_side, self.quality = int(r.integers(1280, 1601)), int(r.integers(55, 73))
        self.record(fill=min(wanted, 0.999 * most), long_side=self.long_side, quality=self.quality)
        return replace(camera, fill=min(wanted, 0.999 * most))

    def finish(self, photo, mapping, camera):
        height, width = photo.shape[:2]
        scale = min(1.0, self.long_side / max(width, height))
        size = (max(8, round(width * scale)), max(8, round(height * scale)))
        small = cv2.resize(photo, size, interpolation=cv2.INTER_AREA) if scale < 1 else photo
        sx, sy = size[0] / width, size[1] / height
        to_photo = mapping.to_photo

        def scaled(points):
            uv = to_photo(points)
            return np.column_stack([(uv[:, 0] + 0.5) * sx - 0.5, (uv[:, 1] + 0.5) * sy - 0.5])

        self.record(taken=[width, height])
        app = replace(camera, width=size[0], height=size[1], fmt="jpeg", jpeg_quality=self.quality, exif_orientation=1)
        return small, PhotoMapping(scaled, mapping.fill, mapping.pinhole, mapping.shadow), app


class Steep(Condition):
    name = "steep"

    def camera(self, rng, paper_mm):
        base = camera_for("medium", rng, paper_mm)
        r = self.rng
        tilt = float(r.uniform(35, 50))
        axis = base.rotation_deg + 90 * int(r.integers(4)) + r.normal(0, 3)
        camera = replace(base, tilt_deg=tilt, tilt_axis_deg=float(axis % 360), focal_factor=float(r.uniform(0.45, 0.7)),
                         curl_mm=min(base.curl_mm, 2.0))
        wanted = float(np.clip(_near_far(camera, paper_mm), 1.5, 2.0))
        low, high = 0.2, 1.5                   # the focal factor giving that near-to-far ratio (closer: more)
        if abs(_near_far(camera, paper_mm) - wanted) > 1e-3:
            drawn = camera
            for _ in range(30):
                middle = (low + high) / 2
                if _near_far(replace(camera, focal_factor=middle), paper_mm) > wanted:
                    low = middle
                else:
                    high = middle
            camera = replace(camera, focal_factor=(low + high) / 2)
            if camera.focal_factor < 0.2 + 1e-3:
                # The search ran down to its widest lens: at this tilt no lens gives the ratio, and that one
                # framed no sheet at all (maker sheet 9570218, map game 84552002's fourth player: a photo of
                # the table). The lens drawn is kept.
                camera = drawn
        self.k = float(r.uniform(0.05, 0.12))
        self.record(tilt_deg=tilt, focal_factor=camera.focal_factor, near_far=_near_far(camera, paper_mm),
                    k1=-self.k)
        return camera

    def extras(self):
        return Extras(after_light=self._distort)

    def _geometry(self, grid):
        camera = grid.camera
        centre = np.array([(camera.width - 1) / 2, (camera.height - 1) / 2])
        focal = grid.pinhole.focal
        corner = float(np.hypot(*centre)) / focal
        return centre, focal, 1 + self.k * corner ** 2

    def _distort(self, photo, grid):
        """Barrel distortion: each photo pixel shows what the lens would put there, the corners staying."""
        centre, focal, norm = self._geometry(grid)
        self.lens = (centre, focal, norm)
        rows, cols = grid.shape
        v, u = np.mgrid[0:rows, 0:cols].astype(np.float64) * CELL + (CELL - 1) / 2
        du, dv = (u - centre[0]) / focal, (v - centre[1]) / focal
        factor = (1 + self.k * (du * du + dv * dv)) / norm
        map_x = grid.full((centre[0] + du * focal * factor).astype(np.float32))
        map_y = grid.full((centre[1] + dv * focal * factor).astype(np.float32))
        return cv2.remap(photo, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def finish(self, photo, mapping, camera):
        centre, focal, norm = self.lens
        to_photo, k = mapping.to_photo, self.k

        def distorted(points):
            offset = (to_photo(points) - centre) / focal
            wanted = np.hypot(*offset.T) * norm          # r (1 + k r^2) must equal this
            r = wanted.copy()
            for _ in range(8):
                r -= (r * (1 + k * r * r) - wanted) / (1 + 3 * k * r * r)
            scale = np.where(wanted > 0, r * norm / np.maximum(wanted, 1e-12), norm)
            return centre + offset * scale[:, None] * focal

        w, h = mapping.pinhole.paper
        quad = distorted([(0, 0), (w, 0), (w, h), (0, h)])
        fill = abs(np.dot(quad[:, 0], np.roll(quad[:, 1], -1)) - np.dot(quad[:, 1], np.roll(quad[:, 0], -1))) / 2
        self.record(quad=np.round(quad, 1))
        return photo, PhotoMapping(distorted, fill / (camera.width * camera.height), mapping.pinhole,
                                   mapping.shadow), camera


def _near_far(camera: Camera, paper_mm) -> float:
    """How many times longer the sheet's longest edge is in the photo than the edge opposite it."""
    pinhole, _ = place_camera(camera, paper_mm)
    w, h = paper_mm
    quad = pinhole.to_photo([(0, 0), (w, 0), (w, h), (0, h)])
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    return float(max(sides[0] / sides[2], sides[2] / sides[0], sides[1] / sides[3], sides[3] / sides[1]))


# -- the page -------------------------------------------------------------------------------------------

class Folded(Condition):
    name = "folded"

    def after_ink(self, page, board, style):
        r, layout = self.rng, self.layout
        w, h = layout.width, layout.height
        ppm = page.shape[1] / w
        creases = [(y + r.uniform(-1.2, 1.2), y + r.uniform(-1.2, 1.2))          # (y at the left, y at the right)
                   for y in (h / 3 + r.uniform(-6, 6), 2 * h / 3 + r.uniform(-6, 6))]
        while True:
            shifts = [np.zeros(2)] + [_in_disc(r, 0.9) for _ in range(2)]
            if np.hypot(*(shifts[2] - shifts[1])) <= 1.0:
                break
        light = r.uniform(0.85, 1.05, 3)
        widths, darkness = r.uniform(0.3, 0.6, 2), r.uniform(0.15, 0.35, 2)
        self.creases, self.shifts = creases, shifts
        self.record(creases=creases, shifts=shifts, light=light, widths_mm=widths, darkness=darkness)

        rows, cols = page.shape[:2]
        xs = (np.arange(cols, dtype=np.float32) + 0.5) / ppm
        edges = [a + (b - a) * xs / w for a, b in creases]              # each crease's y (mm) in every column

        def shifted(k: int, lo: int, hi: int) -> np.ndarray:
            """Rows ``lo:hi`` of the page moved as panel ``k`` is."""
            if k == 0:
                return page[lo:hi]
            dx, dy = shifts[k] * ppm
            s0, s1 = max(lo - 30, 0), min(hi + 30, rows)
            return cv2.warpAffine(page[s0:s1], np.float32([[1, 0, dx], [0, 1, dy + s0 - lo]]), (cols, hi - lo),
                                  flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

        # Rows a crease (and the change of light across it) can reach are worked pixel by pixel, the rest
        # a panel at a time.
        bands = [(max(0, int((min(a, b) - 3) * ppm)), min(rows, math.ceil((max(a, b) + 3) * ppm)))
                 for a, b in creases]
        out = np.empty_like(page)
        for lo, hi, k in ((0, bands[0][0], 0), (bands[0][1], bands[1][0], 1), (bands[1][1], rows, 2)):
            if hi > lo:
                out[lo:hi] = cv2.convertScaleAbs(shifted(k, lo, hi), alpha=float(light[k]))
        for j, ((lo, hi), (a, b)) in enumerate(zip(bands, creases)):
            below = (np.arange(lo, hi, dtype=np.float32)[:, None] + 0.5) / ppm - edges[j][None, :]
            mixed = np.where((below > 0)[..., None], shifted(j + 1, lo, hi), shifted(j, lo, hi))
            factor = light[j] + (light[j + 1] - light[j]) * np.clip(below / 1.6 + 0.5, 0, 1)
            line = np.zeros((hi - lo, cols), np.uint8)
            ends = np.round(np.array([[-0.5, a * ppm - 0.5 - lo], [cols - 0.5, b * ppm - 0.5 - lo]]) * 16)
            cv2.line(line, tuple(ends[0].astype(int)), tuple(ends[1].astype(int)), 255,
                     max(1, round(widths[j] * ppm)), cv2.LINE_AA, 4)
            factor *= 1 - darkness[j] * line.astype(np.float32) / 255
            out[lo:hi] = np.clip(mixed * factor[..., None] + 0.5, 0, 255).astype(np.uint8)
        return out

    def finish(self, photo, mapping, camera):
        to_photo, creases, shifts, w = mapping.to_photo, self.creases, self.shifts, self.layout.width

        def folded(points):
            points = np.asarray(points, np.float64).reshape(-1, 2)
            panel = sum((points[:, 1] > a + (b - a) * points[:, 0] / w).astype(int) for a, b in creases)
            return to_photo(points + np.array(shifts)[panel])

        return photo, PhotoMapping(folded, mapping.fill, mapping.pinhole, mapping.shadow), camera


def _in_disc(rng: np.random.Generator, radius: float) -> np.ndarray:
    turn, r = rng.uniform(0, 2 * math.pi), radius * math.sqrt(rng.random())
    return _direction(turn) * r


def _direction(turn: float) -> np.ndarray:
    return np.array([math.cos(turn), math.sin(turn)])


class Messy(Condition):
    name = "messy"
    sloppy = 0.5
    dead_end_depth = (0.2, 0.3)

    def hand(self, rng):
        style = hand_for("medium", rng)
        style = replace(style, wobble_mm=2 * style.wobble_mm, overshoot_rate=float(self.rng.uniform(0.5, 0.8)),
                        overshoot_mm=float(self.rng.uniform(1.5, 3.5)))
        self.record(wobble_mm=style.wobble_mm, overshoot_rate=style.overshoot_rate, overshoot_mm=style.overshoot_mm,
                    dead_end_depth=self.dead_end_depth)
        return style

    def after_ink(self, page, board, style):
        """Faint ghosts of wiped strokes in a few rooms the board leaves empty."""
        r = self.rng
        empty = [cell for cell in self.layout.rooms if board.at(cell.room).empty]
        chosen = [empty[i] for i in sorted(r.choice(len(empty), min(len(empty), int(r.integers(2, 6))),
                                                    replace=False))] if empty else []
        darkness = float(r.uniform(0.08, 0.14))
        ink = InkMask(page.shape[:2], page.shape[1] / self.layout.width)
        pen = Pen(ink, style, r)
        for cell in chosen:
            rect = cell.rect.grown(-1.8)
            centre = np.array(rect.centre)
            sides = [np.array(p) for p in ((rect.x + rect.w / 2, rect.y), (rect.right, rect.y + rect.h / 2),
                                           (rect.x + rect.w / 2, rect.bottom), (rect.x, rect.y + rect.h / 2))]
            a, b = r.choice(4, 2, replace=False)
            kind = r.random()
            if kind < 0.4:                       # a wiped path: side to side, through the middle
                path = np.vstack([sides[a], centre + r.normal(0, 0.6, 2), sides[b]])
            elif kind < 0.7:                     # a wiped dead end
                path = np.vstack([sides[a], centre + (centre - sides[a]) * r.uniform(-0.2, 0.1)])
            else:                                # one arm of a wiped X
                half = rect.w * r.uniform(0.2, 0.35) * np.array([1.0, 1.0 if r.random() < 0.5 else -1.0])
                path = np.vstack([centre - half, centre + half])
            pen.stroke(path, wobble=min(style.wobble_mm, 0.6))
        colour_dark = 1 - np.mean(style.colour) / 255
        self.record(ghost_rooms=[cell.room.name for cell in chosen], ghost_darkness=darkness)
        return apply_ink(page, ink, style.colour, min(1.0, darkness / max(colour_dark, 0.1)))


# -- things in the photo --------------------------------------------------------------------------------

def _windows(grid, outline_mm: np.ndarray, near=None, rows: int = 4):
    """The photo round an outline on the paper plane, in pieces: for each band of ``rows`` coarse cells, the
    (rows, cols) slices of the photo pixels the thing may reach and the paper x, y (mm) seen at each of them.

    ``near(x, y)`` (paper mm of the coarse cells' centres) says which cells are worth drawing in (with their
    neighbours); without it, all of the outline's bounding box is.
    """
    height, width = grid.camera.height, grid.camera.width
    uv = (grid.pinhole.to_photo(outline_mm) - (CELL - 1) / 2) / CELL
    c0, r0 = (max(int(v), 0) for v in np.floor(uv.min(axis=0)) - 1)
    c1 = min(int(np.ceil(uv[:, 0].max())) + 2, grid.shape[1])
    r1 = min(int(np.ceil(uv[:, 1].max())) + 2, grid.shape[0])
    if c0 >= c1 or r0 >= r1:
        return
    keep = np.ones((r1 - r0, c1 - c0), bool)
    if near is not None:
        wanted = near(grid.x[r0:r1, c0:c1], grid.y[r0:r1, c0:c1]).astype(np.uint8)
        keep = cv2.dilate(wanted, np.ones((3, 3), np.uint8)) > 0
    for top in range(0, r1 - r0, rows):
        cols = np.nonzero(keep[top:top + rows].any(axis=0))[0]
        if not len(cols):
            continue
        ra, rb, ca, cb = r0 + top, min(r0 + top + rows, r1), c0 + cols[0], c0 + cols[-1] + 1
        # Paper coordinates at every pixel: the coarse ones scaled up as ``_CoarseGrid.full`` does, with a
        # cell to spare on every side.
        pa, pb, qa, qb = max(ra - 1, 0), min(rb + 1, grid.shape[0]), max(ca - 1, 0), min(cb + 1, grid.shape[1])
        size = ((qb - qa) * CELL, (pb - pa) * CELL)
        y_lo, y_hi, x_lo, x_hi = ra * CELL, min(rb * CELL, height), ca * CELL, min(cb * CELL, width)
        inner = (slice(y_lo - pa * CELL, y_hi - pa * CELL), slice(x_lo - qa * CELL, x_hi - qa * CELL))
        x = cv2.resize(grid.x[pa:pb, qa:qb].astype(np.float32), size, interpolation=cv2.INTER_LINEAR)[inner]
        y = cv2.resize(grid.y[pa:pb, qa:qb].astype(np.float32), size, interpolation=cv2.INTER_LINEAR)[inner]
        yield (slice(y_lo, y_hi), slice(x_lo, x_hi)), x, y


def _smooth(t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0, 1)
    return t * t * (3 - 2 * t)


def _rounded_rect(a: np.ndarray, b: np.ndarray, half_length: float, half_width: float, radius: float) -> np.ndarray:
    """Signed distance (mm) to a rounded rectangle centred on the origin, long along ``a``."""
    qa, qb = np.abs(a) - (half_length - radius), np.abs(b) - (half_width - radius)
    return np.hypot(np.maximum(qa, 0), np.maximum(qb, 0)) + np.minimum(np.maximum(qa, qb), 0) - radius


def _ellipse_outline(centre, radii, turn: float, n: int = 48) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    a, b = radii[0] * np.cos(t), radii[1] * np.sin(t)
    c, s = math.cos(turn), math.sin(turn)
    return np.column_stack([centre[0] + a * c - b * s, centre[1] + a * s + b * c])


_SHADE_TINT = np.array([1.0, 0.96, 0.86], np.float32)        # shade is lit by the bluer sky light


class _Thing(Condition):
    """Something on the sheet drawn into the photo before the light: it has a body, shaded, and a soft
    shadow beside it. Subclasses place it (``place``) and say what it covers (``body``, in paper mm) and
    over how many rooms at least it must lie (``rooms``)."""

    rooms = 1

    def __init__(self, rng, layout):
        super().__init__(rng, layout)
        for _ in range(400):
            self.place()
            if self.clear_of_codes(self.reach):
                truth = self.truth()
                if truth["hidden"] and len(truth["touched"]) >= self.rooms:
                    return
        raise RuntimeError(f"no place for the {self.name} found")          # pragma: no cover

    def hidden_at(self, x, y):
        return self.body(x, y) <= 0

    def reach(self, x, y):
        return (self.body(x, y) <= 0.5) | (self.body(x - self.shadow_offset[0], y - self.shadow_offset[1])
                                             <= 2 * self.shadow_soft)

    def extras(self):
        return Extras(over_paper=self._draw)

    def _draw(self, photo, grid):
        ppm = float(grid.pinhole.scale([self.anchor])[0])
        (ox, oy), soft = (float(v) for v in self.shadow_offset), float(self.shadow_soft)

        def near(x, y):
            return np.minimum(self.body(x, y), self.body(x - ox, y - oy) - 2 * soft) < CELL / ppm

        for where, x, y in _windows(grid, self.outline(), near):
            region = photo[where].astype(np.float32)
            shade = _smooth(0.5 - self.body(x - ox, y - oy) / (2 * soft))
            region *= 1 - float(self.shadow_strength) * shade[..., None] * _SHADE_TINT
            sd = self.body(x, y)
            alpha = np.clip(0.5 - sd * ppm, 0, 1)
            on = np.nonzero(alpha > 0)
            if len(on[0]):
                colour = self.colour(x[on], y[on], sd[on])
                region[on] += (colour - region[on]) * alpha[on][:, None]
            photo[where] = np.clip(region + 0.5, 0, 255).astype(np.uint8)


class PenOnSheet(_Thing):
    name = "pen"
    rooms = 3
    COLOURS = {"blue": (34, 46, 118), "black": (26, 26, 30), "silver": (168, 172, 180)}

    def place(self):
        r, grid = self.rng, self.layout.grid
        self.half_length, self.half_width = float(r.uniform(60, 75)), 4.0
        self.centre = (float(r.uniform(grid.x + 10, grid.right - 10)), float(r.uniform(grid.y + 10, grid.bottom - 10)))
        self.anchor = self.centre
        self.turn = float(r.uniform(0, math.pi))
        self.kind = str(r.choice(list(self.COLOURS)))
        self.base = np.array(self.COLOURS[self.kind], np.float32) * np.float32(r.uniform(0.9, 1.1))
        self.cap = float(r.uniform(0.25, 0.4))                   # share of the length under the cap, at one end
        self.shadow_offset = _direction(r.uniform(0, 2 * math.pi)) * r.uniform(2.5, 5.0)
        self.shadow_soft, self.shadow_strength = r.uniform(1.2, 2.5), r.uniform(0.3, 0.45)
        self.record(colour=self.kind, length_mm=2 * self.half_length, width_mm=2 * self.half_width,
                    centre_mm=self.centre, angle_deg=math.degrees(self.turn), shadow_mm=self.shadow_offset)

    def _local(self, x, y):
        c, s = math.cos(self.turn), math.sin(self.turn)
        dx, dy = x - self.centre[0], y - self.centre[1]
        return dx * c + dy * s, -dx * s + dy * c

    def body(self, x, y):
        a, b = self._local(x, y)
        return _rounded_rect(a, b, self.half_length, self.half_width, 2.5)

    def outline(self):
        c, s = math.cos(self.turn), math.sin(self.turn)
        reach = self.half_length + 6 + 2 * self.shadow_soft
        corners = np.array([(-reach, -12), (reach, -12), (reach, 12), (-reach, 12)], np.float64)
        return np.array(self.centre) + corners @ np.array([[c, s], [-s, c]])

    def colour(self, x, y, sd):
        a, b = self._local(x, y)
        t = np.clip(b / self.half_width, -1, 1)
        light = 0.45 + 0.6 * np.sqrt(1 - t * t) * (1 - 0.25 * t)            # a cylinder lit from one side
        capped = a > self.half_length * (1 - 2 * self.cap)
        light = light * np.where(capped & (np.abs(t) < 0.2), np.float32(0.75), np.float32(1.0))   # the clip
        shine = np.exp(-((t + 0.35) / 0.12) ** 2) * (0.55 if self.kind == "silver" else 0.4)
        body = self.base * light[..., None]
        return body + (np.float32(245) - body) * shine[..., None]


class Thumb(_Thing):
    name = "thumb"
    SKIN = [(236, 196, 170), (224, 172, 140), (198, 140, 106), (160, 110, 80), (122, 82, 60), (90, 60, 46)]

    def place(self):
        r, layout = self.rng, self.layout
        grid = layout.grid
        side = str(r.choice(["W", "E"]))
        self.radius_tip, self.radius_base = float(r.uniform(9, 10.5)), float(r.uniform(10.5, 12))
        turn = math.radians(r.uniform(-30, 30))
        inward = np.array([math.cos(turn), math.sin(turn)]) * (1 if side == "W" else -1)
        tip_y = r.uniform(grid.y + 12, grid.bottom - 12)
        reach = r.uniform(9, 18)                                  # how far the tip's end is into the grid
        edge_x = grid.x + reach if side == "W" else grid.right - reach
        self.tip = np.array([edge_x, tip_y]) - inward * self.radius_tip     # the centre of the tip's round end
        self.anchor = tuple(self.tip)
        paper_edge = 0.0 if side == "W" else layout.width
        to_edge = abs((self.tip[0] - paper_edge) / inward[0])
        self.base = self.tip - inward * (to_edge + 25)            # well past the paper's edge
        self.palm = self.base - inward * 30 + np.array([-inward[1], inward[0]]) * r.choice([-1, 1]) * 15
        self.palm_radii = (float(r.uniform(38, 48)), float(r.uniform(28, 36)))
        self.palm_turn = math.atan2(inward[1], inward[0])
        self.skin = np.array(self.SKIN[r.integers(len(self.SKIN))], np.float32) * np.float32(r.uniform(0.93, 1.05))
        self.shadow_offset = _direction(r.uniform(0, 2 * math.pi)) * r.uniform(2.5, 4.5)
        self.shadow_soft, self.shadow_strength = r.uniform(1.8, 3.0), r.uniform(0.3, 0.45)
        self.record(side=side, tip_mm=self.tip, angle_deg=math.degrees(turn), width_mm=2 * self.radius_tip,
                    on_paper_mm=to_edge + self.radius_tip, skin=self.skin, shadow_mm=self.shadow_offset)

    def _along(self, x, y):
        """Where each point lies along the thumb (0 at the tip's centre, 1 at the base), its distance from
        the axis and the thumb's radius there."""
        ax, ay = (float(v) for v in self.base - self.tip)
        length2 = ax * ax + ay * ay
        dx, dy = x - float(self.tip[0]), y - float(self.tip[1])
        h = np.clip((dx * ax + dy * ay) / length2, 0, 1)
        off = np.hypot(dx - h * ax, dy - h * ay)
        return h, off, self.radius_tip + (self.radius_base - self.radius_tip) * h

    def body(self, x, y):
        h, off, radius = self._along(x, y)
        thumb = off - radius
        c, s = math.cos(self.palm_turn), math.sin(self.palm_turn)
        dx, dy = x - float(self.palm[0]), y - float(self.palm[1])
        a, b = (dx * c + dy * s) / self.palm_radii[0], (-dx * s + dy * c) / self.palm_radii[1]
        palm = (np.hypot(a, b) - 1) * min(self.palm_radii)
        return np.minimum(thumb, palm)

    def outline(self):
        ends = np.vstack([_ellipse_outline(self.tip, (20, 20), 0), _ellipse_outline(self.base, (20, 20), 0),
                          _ellipse_outline(self.palm, (self.palm_radii[0] + 10, self.palm_radii[1] + 10),
                                           self.palm_turn)])
        return ends

    def colour(self, x, y, sd):
        h, off, radius = self._along(x, y)
        across = np.clip(off / radius, 0, 1)
        light = 0.62 + 0.42 * np.sqrt(1 - across ** 2) * _smooth(-sd / 2.5 + 0.2)   # round, darker at its rim
        axis = (self.base - self.tip) / np.linalg.norm(self.base - self.tip)
        nail_centre = self.tip + axis * 3.0
        c, s = (float(v) for v in axis)
        dx, dy = x - float(nail_centre[0]), y - float(nail_centre[1])
        nail = _rounded_rect(dx * c + dy * s, -dx * s + dy * c, 6.5, 0.55 * self.radius_tip, 3.0)
        skin = self.skin * light[..., None]
        nail_colour = np.minimum(self.skin * 1.08 + np.float32([14, 10, 12]), 250) * light[..., None]
        in_nail = np.clip(0.5 - nail * 3, 0, 1)[..., None]
        return skin + (nail_colour - skin) * in_nail


class Glare(Condition):
    name = "glare"

    def __init__(self, rng, layout):
        super().__init__(rng, layout)
        for _ in range(400):
            self.place()
            if self.clear_of_codes(self.reach) and self.truth()["hidden"]:
                return
        raise RuntimeError("no place for the glare found")                  # pragma: no cover

    def place(self):
        r, grid = self.rng, self.layout.grid
        count = 1 + int(r.random() < 0.5)
        self.spots = []
        for n in range(count):
            radius = r.uniform(10, 20)                              # half the spot's diameter (where it is half)
            if n == 0:                                              # the first is on the map
                centre = (r.uniform(grid.x + 5, grid.right - 5), r.uniform(grid.y + 5, grid.bottom - 5))
            else:
                centre = (r.uniform(0, self.layout.width), r.uniform(0, self.layout.height))
            self.spots.append(((float(centre[0]), float(centre[1])), float(radius), float(r.uniform(1.0, 1.4)),
                               float(r.uniform(0, math.pi))))
        self.white = np.float32(r.uniform(246, 255))
        self.record(spots=[{"centre_mm": c, "diameter_mm": 2 * radius, "stretch": e, "angle_deg": math.degrees(t)}
                           for c, radius, e, t in self.spots])

    def wash(self, x, y, spots=None):
        """How far each paper point (mm) is washed toward white: 1 in a spot's core, 0 past its edge."""
        kept = np.ones(np.broadcast(x, y).shape, np.float32)
        for centre, radius, stretch, turn in self.spots if spots is None else spots:
            c, s = math.cos(turn), math.sin(turn)
            dx, dy = x - centre[0], y - centre[1]
            rho = np.hypot((dx * c + dy * s) / (radius * stretch), (-dx * s + dy * c) / radius)
            kept *= 1 - _smooth((1.5 - rho) / 0.9)
        return 1 - kept

    def hidden_at(self, x, y):
        return self.wash(x, y) >= WASHED

    def reach(self, x, y):
        return self.wash(x, y) > 0

    def extras(self):
        return Extras(after_light=self._shine)

    def _shine(self, photo, grid):
        for spot in self.spots:             # one after the other: where two meet, what the first left is washed
            centre, radius, stretch, turn = spot
            for where, x, y in _windows(grid, _ellipse_outline(centre, (1.6 * radius * stretch, 1.6 * radius), turn)):
                alpha = self.wash(x, y, [spot])[..., None]
                region = photo[where].astype(np.float32)
                photo[where] = np.clip(region + (self.white - region) * alpha + 0.5, 0, 255).astype(np.uint8)
        return photo


_KINDS = {kind.name: kind for kind in (Good, Messaging, Steep, Curled, Folded, Glare, Shadow, Dim, Pencil, Messy,
                                       PenOnSheet, Thumb, Faint)}
assert tuple(_KINDS) == CONDITIONS + STRESS_CONDITIONS
