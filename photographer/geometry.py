"""The camera's geometry: a pinhole camera looking at a sheet that may curl a little.

Paper coordinates are millimetres from the page's top-left corner (x right,
y down). In 3D the paper lies in the plane z = 0, centred on the origin, z
pointing into the table; a curl lifts part of the sheet towards the camera
(z = -lift). The camera sits at the origin of its own frame looking along +z,
image x to the right and y down; ``to_photo`` and ``to_paper`` are exact
inverses of each other (``to_paper`` casts each pixel's ray at the curled
surface, a few fixed-point steps).

Photo coordinates are OpenCV pixel coordinates: the centre of the top-left
pixel is (0, 0).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CURL_SIDES = ("N", "E", "S", "W", "V", "H")


@dataclass(frozen=True)
class Curl:
    """A smooth bend of the paper: one edge lifted (``N``, ``E``, ``S``, ``W``, bent over ``width_mm``),
    or the middle bowed up along a vertical (``V``) or horizontal (``H``) line, ``lift_mm`` at most."""

    lift_mm: float = 0.0
    side: str = "N"
    width_mm: float = 60.0

    def height(self, x: np.ndarray, y: np.ndarray, paper_w: float, paper_h: float) -> np.ndarray:
        """How far the paper at (x, y) mm is lifted off the table; the edge values continue past the paper."""
        if self.lift_mm <= 0:
            return np.zeros(np.broadcast(x, y).shape)
        x, y = np.clip(x, 0, paper_w), np.clip(y, 0, paper_h)
        if self.side in "NESW":
            distance = {"N": y, "S": paper_h - y, "W": x, "E": paper_w - x}[self.side]
            return self.lift_mm * np.clip(1 - distance / self.width_mm, 0, 1) ** 2
        across = (x - paper_w / 2) / (paper_w / 2) if self.side == "V" else (y - paper_h / 2) / (paper_h / 2)
        return self.lift_mm * (1 - across ** 2)

    def slope(self, x: np.ndarray, y: np.ndarray, paper_w: float, paper_h: float) -> tuple[np.ndarray, np.ndarray]:
        """The rise of the paper per millimetre along x and along y."""
        e = 0.5
        dx = (self.height(x + e, y, paper_w, paper_h) - self.height(x - e, y, paper_w, paper_h)) / (2 * e)
        dy = (self.height(x, y + e, paper_w, paper_h) - self.height(x, y - e, paper_w, paper_h)) / (2 * e)
        return dx, dy


def rotation_matrix(rotation_deg: float, tilt_deg: float, tilt_axis_deg: float) -> np.ndarray:
    """Turn the paper by ``rotation_deg`` in its plane, then tip it by ``tilt_deg`` about an in-plane axis."""
    a = math.radians(rotation_deg)
    spin = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    axis = np.array([math.cos(math.radians(tilt_axis_deg)), math.sin(math.radians(tilt_axis_deg)), 0.0])
    t = math.radians(tilt_deg)
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tip = np.eye(3) * math.cos(t) + math.sin(t) * cross + (1 - math.cos(t)) * np.outer(axis, axis)
    return tip @ spin


class Pinhole:
    """A placed camera: where every paper point lands in the photo, and back."""

    def __init__(self, rotation: np.ndarray, distance_mm: float, focal_px: float, centre_px: tuple[float, float],
                 paper_mm: tuple[float, float], curl: Curl = Curl()):
        self.rotation = rotation
        self.distance = distance_mm
        self.focal = focal_px
        self.centre = centre_px
        self.paper = paper_mm
        self.curl = curl

    def with_centre(self, centre_px: tuple[float, float]) -> "Pinhole":
        return Pinhole(self.rotation, self.distance, self.focal, centre_px, self.paper, self.curl)

    def lift(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """How far the paper at (x, y) mm is off the table."""
        return self.curl.height(x, y, *self.paper)

    def to_photo(self, points_mm) -> np.ndarray:
        """Paper millimetres (N x 2) to photo pixels (N x 2), the curl included."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        x, y = points[:, 0], points[:, 1]
        local = np.column_stack([x - self.paper[0] / 2, y - self.paper[1] / 2, -self.lift(x, y)])
        cam = local @ self.rotation.T + [0.0, 0.0, self.distance]
        return np.column_stack([self.focal * cam[:, 0] / cam[:, 2] + self.centre[0],
                                self.focal * cam[:, 1] / cam[:, 2] + self.centre[1]])

    def to_paper(self, u: np.ndarray, v: np.ndarray, steps: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """Photo pixels to the paper millimetres seen there (on the curled sheet, or the table beyond it)."""
        ray = [(u - self.centre[0]) / self.focal, (v - self.centre[1]) / self.focal]
        r = self.rotation            # a camera-frame direction d is r.T @ d in the paper frame
        dx = r[0, 0] * ray[0] + r[1, 0] * ray[1] + r[2, 0]
        dy = r[0, 1] * ray[0] + r[1, 1] * ray[1] + r[2, 1]
        dz = r[0, 2] * ray[0] + r[1, 2] * ray[1] + r[2, 2]
        origin = -r.T @ np.array([0.0, 0.0, self.distance])
        z = 0.0
        for _ in range(steps if self.curl.lift_mm > 0 else 1):
            t = (z - origin[2]) / dz
            x = origin[0] + t * dx + self.paper[0] / 2
            y = origin[1] + t * dy + self.paper[1] / 2
            z = -self.lift(x, y)
        return x, y

    def scale(self, points_mm) -> np.ndarray:
        """Local photo pixels per paper millimetre at each point."""
        points = np.asarray(points_mm, np.float64).reshape(-1, 2)
        here = self.to_photo(points)
        along_x = self.to_photo(points + [0.5, 0.0]) - here
        along_y = self.to_photo(points + [0.0, 0.5]) - here
        return np.sqrt(np.abs(along_x[:, 0] * along_y[:, 1] - along_x[:, 1] * along_y[:, 0])) / 0.5

    def outline(self, per_side: int = 24) -> np.ndarray:
        """Photo pixels of points around the paper's edge."""
        w, h = self.paper
        t = np.linspace(0, 1, per_side, endpoint=False)
        edge = np.vstack([np.column_stack([t * w, 0 * t]), np.column_stack([w + 0 * t, t * h]),
                          np.column_stack([w - t * w, h + 0 * t]), np.column_stack([0 * t, h - t * h])])
        return self.to_photo(edge)

    def quad_area(self) -> float:
        """Area in pixels of the quadrilateral of the paper's four corners."""
        w, h = self.paper
        quad = self.to_photo([(0, 0), (w, 0), (w, h), (0, h)])
        x, y = quad[:, 0], quad[:, 1]
        return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)

    def curl_shift_mm(self) -> float:
        """How far (in paper millimetres) the curl moves any point of the sheet in the photo."""
        if self.curl.lift_mm <= 0:
            return 0.0
        w, h = self.paper
        grid = np.stack(np.meshgrid(np.linspace(0, w, 15), np.linspace(0, h, 21)), -1).reshape(-1, 2)
        flat = Pinhole(self.rotation, self.distance, self.focal, self.centre, self.paper)
        shift = np.hypot(*(self.to_photo(grid) - flat.to_photo(grid)).T)
        return float(np.max(shift / flat.scale(grid)))


def frame_sheet(frame_px: tuple[int, int], paper_mm: tuple[float, float], *, fill: float, rotation_deg: float,
                tilt_deg: float, tilt_axis_deg: float, focal_factor: float, place: tuple[float, float],
                curl: Curl = Curl(), margin: float = 0.015) -> tuple[Pinhole, float]:
    """Place the sheet in a ``frame_px`` (width, height) photo so its corner quad covers ``fill`` of it.

    The camera moves closer or further until the sheet fills as asked, then the
    sheet is placed (``place`` 0-1 across the free room on each axis) so that all of
    it stays inside the frame with ``margin`` of the shorter side to spare. A fill
    that cannot fit is lowered to the largest that does; the fill used is returned.
    """
    width, height = frame_px
    rotation = rotation_matrix(rotation_deg, tilt_deg, tilt_axis_deg)
    focal = focal_factor * math.hypot(width, height)
    spare = margin * min(width, height)
    room = (width - 2 * spare, height - 2 * spare)
    target = fill * width * height
    camera = Pinhole(rotation, focal * math.sqrt(paper_mm[0] * paper_mm[1] / target), focal, (0.0, 0.0),
                     paper_mm, curl)
    for _ in range(12):
        for _ in range(6):
            camera = Pinhole(rotation, camera.distance * math.sqrt(camera.quad_area() / target), focal, (0.0, 0.0),
                             paper_mm, curl)
        outline = camera.outline()
        size = outline.max(axis=0) - outline.min(axis=0)
        too_big = max(size[0] / room[0], size[1] / room[1])
        if too_big <= 1.0:
            break
        target /= too_big ** 2 * 1.002
    low = outline.min(axis=0)
    centre = (spare - low[0] + place[0] * (room[0] - size[0]), spare - low[1] + place[1] * (room[1] - size[1]))
    placed = camera.with_centre(centre)
    return placed, placed.quad_area() / (width * height)
