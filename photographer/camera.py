"""Stage 4, the camera: a phone photo of a finished sheet lying on a table, and its file.

``photograph`` builds, for every photo pixel, the paper point seen there (a
pinhole camera over a slightly curled sheet, ``geometry``), samples the inked
page through that mapping with one dense ``cv2.remap``, puts the table around
it, lights the whole frame (white balance, a brightness gradient, vignetting,
sometimes the shadow of a hand or a phone) and adds lens blur and sensor
noise. ``encode`` writes the file the phone would: JPEG, PNG, WebP or HEIC,
with an EXIF orientation tag where the phone was held sideways.
"""
from __future__ import annotations

import io
import math
from dataclasses import asdict, dataclass, replace
from typing import Callable, Sequence

import cv2
import numpy as np
from PIL import Image

from sheets.dungeon import SheetLayout
from sheets.page import MARGIN, MARKER_SIZE, Rect
from photographer import scene
from photographer.geometry import CURL_SIDES, Curl, Pinhole, frame_sheet

CELL = 8                   # photo pixels per cell of the coarse grids
LIGHT_SCALE = 200          # light is stored as uint8 with 200 meaning 1.0
DIFFICULTIES = ("easy", "medium", "hard")
FORMATS = {"jpeg": ".jpg", "png": ".png", "webp": ".webp", "heic": ".heic"}
EXIF_ORIENTATION = 0x0112
# How the stored pixels are turned from the upright photo so that a viewer applying the tag shows it upright.
_STORED = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


@dataclass(frozen=True)
class Camera:
    """Everything about one photo except the random details of the table and of a shadow's shape."""

    width: int = 4000                 # pixels of the upright photo
    height: int = 3000
    fill: float = 0.7                 # area of the sheet's corner quad over the frame's area
    rotation_deg: float = 0.0         # the sheet turned in its own plane
    tilt_deg: float = 0.0             # the sheet tipped away from facing the camera
    tilt_axis_deg: float = 0.0
    focal_factor: float = 0.6         # focal length over the frame diagonal (0.6 is a phone's 26 mm equivalent)
    place_x: float = 0.5              # where the sheet sits in the free room of the frame, 0-1
    place_y: float = 0.5
    curl_mm: float = 0.0              # how far the paper lifts off the table
    curl_side: str = "N"              # N, E, S, W: that edge lifts; V, H: the middle bows up
    curl_width_mm: float = 60.0       # how far an edge's bend reaches into the sheet
    warmth: float = 0.0               # white balance: -1 cold (blue) to 1 warm (yellow)
    exposure: float = 0.9
    gradient: float = 0.0             # the frame's dark side gets 1 - gradient of the light
    gradient_deg: float = 0.0
    vignette: float = 0.1
    shadow: bool = False
    shadow_over: str = "margin"       # margin: off the grid and markers; grid: off the markers; anywhere
    shadow_strength: float = 0.45     # how much light the shadow takes away
    table: str = "wood"               # wood, dark-cloth, grey-desk, white-desk
    blur_px: float = 0.0              # Gaussian lens blur, sigma in photo pixels
    noise: float = 0.0                # sensor noise, standard deviation of 255
    jpeg_quality: int = 90            # also the quality of WebP and HEIC
    fmt: str = "jpeg"                 # jpeg, png, webp, heic
    exif_orientation: int = 1         # 1 upright; 3, 6, 8: stored turned, tagged to be shown upright

    def as_dict(self) -> dict:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}

    @property
    def curl(self) -> Curl:
        return Curl(self.curl_mm, self.curl_side, self.curl_width_mm)


@dataclass(frozen=True)
class Extras:
    """What a named condition (``photographer.conditions``) adds to one photo; every part is optional.

    The hooks get the photo and the ``_CoarseGrid`` (the paper point seen at every
    cell, its scale, and ``pinhole``); ``over_paper`` draws in place on the photo
    once the paper is laid (before the light, which then falls on what it drew),
    ``after_light`` returns the lit photo changed (before lens blur and noise).
    """

    over_paper: Callable | None = None
    after_light: Callable | None = None
    keep_clear: tuple[Rect, ...] = ()          # more parts of the sheet a shadow must keep off
    shadow_across: Rect | None = None           # a shadow must cover some of this part of the sheet
    shadow_tries: int = 60


class PhotoMapping:
    """Where paper millimetres land in the upright photo, in OpenCV pixel coordinates (N x 2).

    ``fill`` is the share of the frame the sheet's corner quad covers (1.0 for a
    scan); ``pinhole`` is the camera of a phone photo, None for a scan; ``shadow``
    says whether a shadow was cast (a camera asking for one may find no place
    for it that keeps clear of what it must).
    """

    def __init__(self, to_photo: Callable[[np.ndarray], np.ndarray], fill: float, pinhole: Pinhole | None = None,
                 shadow: bool = False):
        self.to_photo = to_photo
        self.fill = fill
        self.pinhole = pinhole
        self.shadow = shadow

    def __call__(self, points_mm) -> np.ndarray:
        return self.to_photo(np.asarray(points_mm, np.float64).reshape(-1, 2))


def place_camera(camera: Camera, paper_mm: tuple[float, float]) -> tuple[Pinhole, float]:
    """The camera placed over a sheet of ``paper_mm``, and the fill it really gets (see ``frame_sheet``)."""
    return frame_sheet((camera.width, camera.height), paper_mm, fill=camera.fill, rotation_deg=camera.rotation_deg,
                       tilt_deg=camera.tilt_deg, tilt_axis_deg=camera.tilt_axis_deg,
                       focal_factor=camera.focal_factor, place=(camera.place_x, camera.place_y), curl=camera.curl)


# -- choosing a camera ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Range:
    """What ``camera_for`` draws from at one difficulty."""

    megapixels: tuple[float, float]
    fill: tuple[float, float]
    tilt: float
    aligned: float            # chance the sheet is turned to suit the frame (within ``wander`` degrees)
    wander: float
    curl: float
    warmth: float
    gradient: tuple[float, float]
    shadow: float
    shadow_over: str
    blur: float
    noise: float
    quality: int
    tables: tuple[str, ...]


_RANGES = {
    "easy": _Range((6, 12), (0.6, 0.95), 10, 1.0, 8, 3, 0.4, (0.0, 0.15), 0.0, "margin", 0.5, 2, 85,
                   ("wood", "dark-cloth", "grey-desk")),
    "medium": _Range((3, 12), (0.45, 0.9), 25, 0.75, 15, 6, 1.0, (0.1, 0.35), 0.3, "margin", 1.0, 4, 75,
                     ("wood", "dark-cloth", "grey-desk")),
    "hard": _Range((2, 12), (0.35, 0.95), 35, 0.5, 20, 8, 1.0, (0.15, 0.45), 0.6, "grid", 1.5, 6, 60,
                   ("wood", "dark-cloth", "grey-desk", "white-desk")),
}


def camera_for(difficulty: str, rng: np.random.Generator, paper_mm: tuple[float, float] = (210.0, 297.0)) -> Camera:
    """A random phone photo of one of ``DIFFICULTIES``.

    - easy: 6-12 MP, fill 0.6-0.95, sheet turned to suit the frame (either way up,
      within about 8 degrees), tilt up to 10 degrees, curl up to 3 mm, mild light
      gradient, no shadow, blur up to 0.5 px, noise up to 2, JPEG quality 85-95;
    - medium: 3-12 MP, fill 0.45-0.9, a quarter of the sheets at any turn, tilt up
      to 25, curl up to 6 mm, gradient to 65%, a shadow off the grid and markers
      30% of the time, blur up to 1 px, noise up to 4, quality 75-95;
    - hard: 2-12 MP, fill 0.35-0.95, half at any turn, tilt up to 35, curl up to
      8 mm, gradient to 55%, a shadow that may cross the grid (never the markers)
      60% of the time, a white desk too, blur up to 1.5 px, noise up to 6, quality 60-95.

    At every level: 4:3 or 16:9, landscape or portrait; mostly JPEG with a few PNG,
    WebP and HEIC; a quarter tagged with a sideways or upside-down EXIF orientation;
    the curl lowered until it moves no point by more than 3 mm of paper. The turn
    is drawn first and the fill kept to what fits in the frame at that turn (a sheet
    at 45 degrees cannot fill 90% of a frame; upright A4 in a 4:3 frame tops out near 0.89).
    """
    if difficulty not in _RANGES:
        raise ValueError(f"unknown difficulty {difficulty!r} (one of: {', '.join(DIFFICULTIES)})")
    r = _RANGES[difficulty]
    width, height = _frame_size(rng, r.megapixels)
    camera = Camera(
        width=width, height=height, tilt_deg=float(rng.uniform(0, r.tilt)), tilt_axis_deg=float(rng.uniform(0, 360)),
        focal_factor=float(rng.uniform(0.55, 0.8)), place_x=float(rng.random()), place_y=float(rng.random()),
        curl_mm=float(rng.uniform(0, r.curl)), curl_side=str(rng.choice(CURL_SIDES)),
        curl_width_mm=float(rng.uniform(30, 90)), warmth=float(rng.uniform(-r.warmth, r.warmth)),
        exposure=float(rng.uniform(0.82, 0.97)), gradient=float(rng.uniform(*r.gradient)),
        gradient_deg=float(rng.uniform(0, 360)), vignette=float(rng.uniform(0.03, 0.15)),
        shadow=bool(rng.random() < r.shadow), shadow_over=r.shadow_over,
        shadow_strength=float(rng.uniform(0.3, 0.6)), table=str(rng.choice(r.tables)),
        blur_px=float(rng.uniform(0, r.blur)), noise=float(rng.uniform(0, r.noise)),
        jpeg_quality=int(rng.integers(r.quality, 96)), fmt=str(rng.choice(list(FORMATS), p=[0.82, 0.06, 0.06, 0.06])))
    camera = replace(camera, exif_orientation=int(rng.choice([3, 6, 8])) if rng.random() < 0.25 else 1)
    camera = _turn_and_fill(camera, r, rng, paper_mm)
    return _tame_curl(camera, paper_mm)


def with_megapixels(camera: Camera, megapixels: float) -> Camera:
    """The same photo taken with a sensor of ``megapixels`` (same shape of frame, sides in multiples of 8)."""
    scale = math.sqrt(megapixels * 1e6 / (camera.width * camera.height))
    return replace(camera, width=max(8, int(camera.width * scale) // 8 * 8),
                   height=max(8, int(camera.height * scale) // 8 * 8))


def _frame_size(rng: np.random.Generator, megapixels: tuple[float, float]) -> tuple[int, int]:
    """A phone's frame: 4:3 or 16:9, landscape or portrait, sides in multiples of 8 pixels."""
    pixels = rng.uniform(*megapixels) * 1e6
    aspect = 4 / 3 if rng.random() < 0.75 else 16 / 9
    long_side = int(math.sqrt(pixels * aspect) // 8 * 8)
    short_side = int(long_side / aspect // 8 * 8)
    return (long_side, short_side) if rng.random() < 0.5 else (short_side, long_side)


def _turn_and_fill(camera: Camera, r: _Range, rng: np.random.Generator, paper_mm) -> Camera:
    """Turn the sheet in the frame and pick a fill that fits at that turn."""
    portrait_sheet = paper_mm[1] > paper_mm[0]
    portrait_frame = camera.height > camera.width
    suits = 0.0 if portrait_sheet == portrait_frame else 90.0
    for _ in range(50):
        if rng.random() < r.aligned:
            turn = suits + 180 * rng.integers(2) + rng.normal(0, r.wander / 2)
        else:
            turn = rng.uniform(0, 360)
        trial = replace(camera, rotation_deg=float(turn % 360), fill=1.0)
        _, most = place_camera(trial, paper_mm)
        if most >= r.fill[0]:
            break
    return replace(trial, fill=float(min(rng.uniform(*r.fill), 0.999 * most)))


def _tame_curl(camera: Camera, paper_mm, most_mm: float = 3.0) -> Camera:
    """Lower the curl so that it moves no point of the sheet by more than ``most_mm`` of paper."""
    pinhole, _ = place_camera(camera, paper_mm)
    shift = pinhole.curl_shift_mm()
    if shift <= most_mm:
        return camera
    return replace(camera, curl_mm=camera.curl_mm * most_mm / shift * 0.98)


# -- taking the photo --------------------------------------------------------------------------------------

def photograph(sheet_rgb: np.ndarray, px_per_mm: float, camera: Camera, rng: np.random.Generator, *,
               layout: SheetLayout | None = None, return_mapping: bool = False, extras: Extras | None = None):
    """The upright photo (height x width x 3 uint8 RGB) of a sheet image of ``px_per_mm``.

    ``layout`` tells where the grid is, for a shadow that must keep off it; without
    it only the corner markers are kept clear. With ``return_mapping`` the answer is
    ``(photo, PhotoMapping)``: the function from paper millimetres to photo pixels.
    ``extras`` are a condition's additions (objects on the sheet, glare, a shadow
    that must cross the map).
    """
    paper = (sheet_rgb.shape[1] / px_per_mm, sheet_rgb.shape[0] / px_per_mm)
    pinhole, fill = place_camera(camera, paper)
    grid = _CoarseGrid(camera, pinhole)
    photo = _table_around(grid, camera, rng)
    _lay_paper(photo, sheet_rgb, px_per_mm, grid)
    extras = extras or Extras()
    if extras.over_paper is not None:
        extras.over_paper(photo, grid)
    light, shadow = _light(grid, camera, _keep_clear(camera, paper, layout) + list(extras.keep_clear), rng,
                           across=extras.shadow_across, tries=extras.shadow_tries)
    photo = cv2.multiply(photo, grid.full(light), scale=1 / LIGHT_SCALE)
    if extras.after_light is not None:
        photo = extras.after_light(photo, grid)
    if camera.blur_px >= 0.1:
        photo = cv2.GaussianBlur(photo, (0, 0), camera.blur_px)
    if camera.noise > 0:
        photo = _sensor_noise(photo, camera.noise, rng)
    return (photo, PhotoMapping(pinhole.to_photo, fill, pinhole, shadow)) if return_mapping else photo


class _CoarseGrid:
    """Cells of ``CELL`` photo pixels, each with the paper point seen at its centre and the local scale."""

    def __init__(self, camera: Camera, pinhole: Pinhole):
        self.camera, self.pinhole = camera, pinhole
        self.shape = (math.ceil(camera.height / CELL), math.ceil(camera.width / CELL))
        v, u = np.mgrid[0:self.shape[0], 0:self.shape[1]].astype(np.float64) * CELL + (CELL - 1) / 2
        # A curl beyond what ``camera_for`` gives (a ``curled`` condition) needs more steps to land within
        # a hundredth of a millimetre.
        self.x, self.y = pinhole.to_paper(u, v) if camera.curl_mm <= 8 else pinhole.to_paper(u, v, steps=10)
        dxu, dxv = np.gradient(self.x, axis=1), np.gradient(self.x, axis=0)
        dyu, dyv = np.gradient(self.y, axis=1), np.gradient(self.y, axis=0)
        self.px_per_mm = CELL / np.sqrt(np.abs(dxu * dyv - dxv * dyu))    # photo pixels per paper mm
        self.inside = scene.paper_inside(self.x, self.y, pinhole.paper, self.px_per_mm / CELL)

    def full(self, coarse: np.ndarray) -> np.ndarray:
        """A coarse (or ``half``) array scaled up to the photo, cell centres staying on cell centres."""
        rows, cols = self.shape
        big = cv2.resize(coarse, (cols * CELL, rows * CELL), interpolation=cv2.INTER_LINEAR)
        return np.ascontiguousarray(big[:self.camera.height, :self.camera.width])

    def half(self, coarse: np.ndarray) -> np.ndarray:
        """A coarse array at twice the resolution (cells of ``CELL / 2`` pixels)."""
        return cv2.resize(coarse, (self.shape[1] * 2, self.shape[0] * 2), interpolation=cv2.INTER_LINEAR)


def _table_around(grid: _CoarseGrid, camera: Camera, rng: np.random.Generator) -> np.ndarray:
    """The photo of the bare table (with the sheet's drop shadow), at full size."""
    x, y = grid.half(grid.x.astype(np.float32)), grid.half(grid.y.astype(np.float32))
    scale = grid.half(grid.px_per_mm.astype(np.float32)) / (CELL / 2)
    background = scene.table(camera.table, x, y, rng)
    inside = scene.paper_inside(x, y, grid.pinhole.paper, scale)
    background = scene.drop_shadow(background, inside, float(np.median(scale)), camera.curl_mm, rng)
    return grid.full(np.clip(background, 0, 255).astype(np.uint8))


def _lay_paper(photo: np.ndarray, sheet: np.ndarray, px_per_mm: float, grid: _CoarseGrid) -> None:
    """Sample the sheet into the photo through the mapping, with anti-aliased edges."""
    most = float(grid.px_per_mm[grid.inside > 0].max()) if (grid.inside > 0).any() else px_per_mm
    source, source_ppm = sheet, px_per_mm
    if px_per_mm > 1.6 * most:        # shrink the page first so thin lines do not alias
        size = (max(1, round(sheet.shape[1] * 1.6 * most / px_per_mm)),
                max(1, round(sheet.shape[0] * 1.6 * most / px_per_mm)))
        source = cv2.resize(sheet, size, interpolation=cv2.INTER_AREA)
        source_ppm = px_per_mm * size[0] / sheet.shape[1]
    map_x = grid.full((grid.x * source_ppm - 0.5).astype(np.float32))
    map_y = grid.full((grid.y * source_ppm - 0.5).astype(np.float32))
    rows, cols = _edge_pixels(grid)
    table = photo[rows, cols].astype(np.float32)
    cv2.remap(source, map_x, map_y, cv2.INTER_LINEAR, dst=photo, borderMode=cv2.BORDER_TRANSPARENT)
    if len(rows):
        mx, my = map_x[rows, cols], map_y[rows, cols]
        paper = _sample(source, mx, my)
        scale = grid.px_per_mm[rows // CELL, cols // CELL]
        alpha = scene.paper_inside((mx + 0.5) / source_ppm, (my + 0.5) / source_ppm, grid.pinhole.paper, scale)
        photo[rows, cols] = np.round(table + (paper - table) * alpha[:, None]).astype(np.uint8)


def _sample(image: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``image`` read (bilinear, edge colours beyond it) at many points: N x 3 float."""
    width = 1024                       # remap wants fewer than 32767 rows
    count = len(x)
    padded = -(-count // width) * width
    shape = (padded // width, width)
    grid_x = np.resize(x.astype(np.float32), padded).reshape(shape)
    grid_y = np.resize(y.astype(np.float32), padded).reshape(shape)
    values = cv2.remap(image, grid_x, grid_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return values.reshape(-1, 3)[:count].astype(np.float32)


def _edge_pixels(grid: _CoarseGrid) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the photo pixels within a cell and a half of the paper's edge."""
    x, y, (w, h) = grid.x, grid.y, grid.pinhole.paper
    distance = np.minimum(np.minimum(x, w - x), np.minimum(y, h - y)) * grid.px_per_mm
    cells = np.argwhere(np.abs(distance) < 1.5 * CELL)
    offsets = np.argwhere(np.ones((CELL, CELL), bool))
    pixels = (cells[:, None, :] * CELL + offsets[None, :, :]).reshape(-1, 2)
    keep = (pixels[:, 0] < grid.camera.height) & (pixels[:, 1] < grid.camera.width)
    return pixels[keep, 0], pixels[keep, 1]


def _keep_clear(camera: Camera, paper: tuple[float, float], layout: SheetLayout | None) -> list[Rect]:
    """The parts of the sheet a shadow must not touch."""
    if camera.shadow_over == "anywhere":
        return []
    w, h = paper
    corners = [(MARGIN, MARGIN), (w - MARGIN - MARKER_SIZE, MARGIN),
               (w - MARGIN - MARKER_SIZE, h - MARGIN - MARKER_SIZE), (MARGIN, h - MARGIN - MARKER_SIZE)]
    clear = [Rect(x, y, MARKER_SIZE, MARKER_SIZE).grown(3.0) for x, y in corners]
    if camera.shadow_over == "margin":
        grid = layout.grid.grown(2.0) if layout else Rect(30.0, 40.0, w - 60.0, h - 80.0)
        clear.append(grid)
    return clear


def _light(grid: _CoarseGrid, camera: Camera, keep_clear: Sequence[Rect], rng: np.random.Generator, *,
           across: Rect | None = None, tries: int = 60) -> tuple[np.ndarray, bool]:
    """The light over the frame, coarse, uint8 with ``LIGHT_SCALE`` meaning unchanged; and whether a
    shadow falls in it (one that covers some of ``across``, if given)."""
    light = scene.light_field(grid.shape, exposure=camera.exposure, warmth=camera.warmth, gradient=camera.gradient,
                              gradient_deg=camera.gradient_deg, vignette=camera.vignette)
    shading = scene.curl_shading(grid.x, grid.y, grid.pinhole, rng)
    light *= (1 + (shading - 1) * grid.inside)[..., None].astype(np.float32)
    mask = None
    if camera.shadow:
        forbidden = _forbidden(grid, keep_clear)
        wanted = None if across is None else _forbidden(grid, [across]) * grid.inside
        mask = scene.shadow_mask(grid.shape, CELL, grid.pinhole, forbidden, grid.inside, rng, tries=tries,
                                 across=wanted)
        if mask is not None:
            tint = np.array([1.0, 0.96, 0.86], np.float32)     # shade is lit by the bluer sky light
            light *= 1 - camera.shadow_strength * mask[..., None] * tint
    return np.clip(light * LIGHT_SCALE, 0, 255).astype(np.uint8), mask is not None


def _forbidden(grid: _CoarseGrid, keep_clear: Sequence[Rect]) -> np.ndarray:
    """The coarse cells covering any of the rectangles (paper millimetres)."""
    mask = np.zeros(grid.shape, np.float32)
    for rect in keep_clear:
        edge = np.linspace(0, 1, 9)[:-1]
        outline = np.vstack([np.column_stack([rect.x + edge * rect.w, rect.y + 0 * edge]),
                             np.column_stack([rect.right + 0 * edge, rect.y + edge * rect.h]),
                             np.column_stack([rect.right - edge * rect.w, rect.bottom + 0 * edge]),
                             np.column_stack([rect.x + 0 * edge, rect.bottom - edge * rect.h])])
        cells = (grid.pinhole.to_photo(outline) - (CELL - 1) / 2) / CELL
        cv2.fillPoly(mask, [np.round(cells * 16).astype(np.int32)], 1.0, cv2.LINE_8, 4)
    return cv2.dilate(mask, np.ones((3, 3), np.uint8))


def _sensor_noise(photo: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Add uniform noise of standard deviation ``sigma`` (fast, and to the eye the same as Gaussian)."""
    noise = np.frombuffer(rng.bytes(photo.size), np.uint8).reshape(photo.shape)
    k = sigma / (256 / math.sqrt(12))
    return cv2.addWeighted(photo, 1.0, noise, k, -127.5 * k)


# -- the file ----------------------------------------------------------------------------------------------

def encode(photo: np.ndarray, camera) -> tuple[bytes, str]:
    """The photo as the file bytes a phone would write, and the file suffix.

    ``camera`` needs ``fmt``, ``jpeg_quality`` and ``exif_orientation``. With an
    orientation other than 1 the pixels are stored turned and tagged, so a viewer
    that honours EXIF (``PIL.ImageOps.exif_transpose``) shows ``photo`` upright.
    """
    image = Image.fromarray(photo)
    exif = Image.Exif()
    exif[0x010F] = "dungeon-scrawl"            # Make
    exif[0x0110] = "synthetic photographer"    # Model
    if camera.exif_orientation != 1:
        image = image.transpose(_STORED[camera.exif_orientation])
        exif[EXIF_ORIENTATION] = camera.exif_orientation
    buffer = io.BytesIO()
    quality = int(camera.jpeg_quality)
    if camera.fmt == "jpeg":
        image.save(buffer, "JPEG", quality=quality, exif=exif.tobytes())
    elif camera.fmt == "png":
        image.save(buffer, "PNG", exif=exif.tobytes(), compress_level=3)
    elif camera.fmt == "webp":
        image.save(buffer, "WEBP", quality=quality, exif=exif.tobytes(), method=2)
    elif camera.fmt == "heic":
        import pillow_heif

        pillow_heif.register_heif_opener()
        image.save(buffer, "HEIF", quality=quality, exif=exif.tobytes(), enc_params={"preset": "ultrafast"})
    else:
        raise ValueError(f"unknown image format {camera.fmt!r} (one of: {', '.join(FORMATS)})")
    return buffer.getvalue(), FORMATS[camera.fmt]
