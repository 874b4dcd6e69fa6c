"""Which sheets' QR codes are read, and how fast: the QR reader of today against the one before zxing-cpp.

    python benchmarks/qr_read.py [--games 24] [--seed 1] [--variants shot,messaging,dim] [--codes]

The synthetic photographer plays games (three players each, hard camera,
classic, random and expansion map 6, A4 and Letter, photos of the camera's
own size and of 3, 2 and 1.5 megapixels) and each photo is read as it was
shot and, made harsher from it, as a messaging app's copy (long side 1280 to
1600 px, JPEG quality 55 to 72) and as a photo in dim light (darkened to 35%,
strong sensor noise, JPEG quality 85). Each photo is decoded as the scanner
decodes it (``scanner.load``), its sheet found from the markers, and the
sheet identified as ``scanner.scan`` does: the working image first, then the
full-size image if that is larger.

Printed per kind of photo and by the QR's own resolution (pixels per
millimetre of paper in its worst direction, at full size): photos, sheets
whose four markers were found, QR codes read right by the old and the new
reader (a wrong sheet is counted apart: it must stay zero), and the median,
95th percentile and largest time of one identification, per reader.
A sheet with 3 px/mm or more at its QR should always be read.
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict

import cv2
import numpy as np

from photographer import make_game_shots
from sheets.page import SheetId, qr_rect
from scanner.load import load_photo_bytes
from scanner.locate import Found, SheetFrame, find_sheets, read_sheet_id

MAPS = ("classic", "random", "map6")
MEGAPIXELS = (None, 3.0, 2.0, 1.5)
BANDS = ((0.0, 3.0, "< 3"), (3.0, 4.0, "3-4"), (4.0, 6.0, "4-6"), (6.0, 1e9, ">= 6"))


# -- the reader before zxing-cpp, kept as it was for the comparison -------------------------------

OLD_PX_PER_MM = 9.0


def _grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)


def old_read_sheet_id(image: np.ndarray, frame: SheetFrame | None = None) -> Found:
    attempts = []
    if frame is not None:
        near = _old_qr_crop(image, frame, "a4", 5.0)
        attempts += [lambda: _old_decode_in_place(near, 5.0), lambda: _old_decode_qr(near),
                     lambda: _old_decode_qr(_old_qr_crop(image, frame, "a4", 9.0))]
    attempts.append(lambda: _old_decode_qr(_grey(image)))
    text = ""
    for attempt in attempts:
        text = attempt()
        if text:
            break
    if not text:
        return Found(None, "no readable QR code: keep the sheet's top-right corner sharp, in focus and in the frame")
    try:
        return Found(SheetId.parse(text))
    except ValueError as exc:
        return Found(None, f"{exc}: this QR code is not one printed by dungeon-scrawl")


def _old_qr_crop(image: np.ndarray, frame: SheetFrame, paper: str, margin: float) -> np.ndarray:
    qr = qr_rect(paper)
    x0, y0, side = qr.x - margin, qr.y - margin, qr.w + 2 * margin
    to_crop = np.array([[OLD_PX_PER_MM, 0, -x0 * OLD_PX_PER_MM], [0, OLD_PX_PER_MM, -y0 * OLD_PX_PER_MM], [0, 0, 1]])
    matrix = frame.homography(paper) @ np.linalg.inv(to_crop)
    size = int(round(side * OLD_PX_PER_MM))
    crop = cv2.warpPerspective(image, matrix, (size, size), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)
    return _grey(crop)


def _old_decode_in_place(crop: np.ndarray, margin: float) -> str:
    start, end = margin * OLD_PX_PER_MM, crop.shape[0] - margin * OLD_PX_PER_MM
    corners = np.float32([[(start, start), (end, start), (end, end), (start, end)]])
    try:
        text, _ = cv2.QRCodeDetector().decode(crop, corners)
    except cv2.error:
        text = ""
    return text or ""


def _old_decode_qr(grey: np.ndarray) -> str:
    variants = [grey]
    if grey.shape[0] * grey.shape[1] < 1_000_000:
        sharp = cv2.addWeighted(grey, 2.0, cv2.GaussianBlur(grey, (0, 0), 2.0), -1.0, 0)
        _, binary = cv2.threshold(cv2.GaussianBlur(grey, (0, 0), 1.0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        variants += [sharp, binary]
    for variant in variants:
        for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
            try:
                text, _, _ = detector.detectAndDecode(variant)
            except cv2.error:
                text = ""
            if text:
                return text
    return ""


# -- photos -----------------------------------------------------------------------------------------

def _jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def messaging_copy(image: np.ndarray, rng: np.random.Generator) -> bytes:
    """What a messaging app sends: the long side cut to 1280-1600 px, JPEG quality 55-72."""
    long_side = int(rng.integers(1280, 1601))
    factor = min(1.0, long_side / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return _jpeg(small, int(rng.integers(55, 73)))


def dim_copy(image: np.ndarray, rng: np.random.Generator) -> bytes:
    """A photo in dim light: 35% of the light, the sensor's noise strong against it."""
    dark = image.astype(np.float32) * 0.35
    noisy = dark + rng.normal(0.0, 7.0, image.shape[:2])[..., None] + rng.normal(0.0, 3.0, image.shape)
    return _jpeg(np.clip(noisy, 0, 255).astype(np.uint8), 85)


# -- measuring --------------------------------------------------------------------------------------

def identify(reader, photo, frame: SheetFrame) -> tuple[Found, float]:
    """The sheet as ``scanner.scan`` identifies it (working image, then full size), and the seconds it took."""
    started = time.perf_counter()
    found = reader(photo.image, frame)
    if not found and photo.scale < 1.0:
        found = reader(photo.full_image(), SheetFrame({k: v / photo.scale for k, v in frame.markers.items()}))
    return found, time.perf_counter() - started


def qr_px_per_mm(frame: SheetFrame, scale: float) -> float:
    """Full-size pixels per paper millimetre at the QR code, in its worst direction (over its four corners)."""
    matrix = frame.homography("a4")
    qr = qr_rect("a4")
    worst = np.inf
    for x, y in ((qr.x, qr.y), (qr.right, qr.y), (qr.right, qr.bottom), (qr.x, qr.bottom)):
        w = matrix[2] @ (x, y, 1.0)
        u, v = (matrix[0] @ (x, y, 1.0)) / w, (matrix[1] @ (x, y, 1.0)) / w
        jacobian = np.array([[matrix[0, 0] - u * matrix[2, 0], matrix[0, 1] - u * matrix[2, 1]],
                             [matrix[1, 0] - v * matrix[2, 0], matrix[1, 1] - v * matrix[2, 1]]]) / w
        worst = min(worst, float(np.linalg.svd(jacobian, compute_uv=False)[-1]))
    return worst / scale


def is_right(found: Found, truth: dict, paper: str) -> bool:
    sheet = found.value
    return (sheet.player, sheet.paper, sheet.map_id, sheet.seed, sheet.code) == \
        (truth["player"], paper, truth["map"]["id"].lower(), truth["map"]["seed"], truth.get("game"))


def code_for(game: int) -> str:
    """A game code for game number ``game`` (``--codes``), the same on every run."""
    from sheets.page import GAME_CODE_LENGTH, GAME_CODE_LETTERS

    rng = np.random.default_rng(game)
    return "".join(GAME_CODE_LETTERS[i] for i in rng.integers(0, len(GAME_CODE_LETTERS), GAME_CODE_LENGTH))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24, help="games of three photos each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", default="shot,messaging,dim")
    parser.add_argument("--show", type=int, default=12, help="list this many photos the new reader misses")
    parser.add_argument("--codes", action="store_true",
                        help="print the sheets with a game code, as 'scrawl sheet' does (a longer QR text)")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    readers = {"old": old_read_sheet_id, "new": read_sheet_id}

    rows: dict = defaultdict(lambda: defaultdict(int))
    times: dict = defaultdict(list)
    ranges: dict = defaultdict(list)
    misses = []
    started = time.perf_counter()
    for game in range(args.games):
        seed = args.seed * 100_000 + game
        map_id, megapixels = MAPS[game % len(MAPS)], MEGAPIXELS[(game // len(MAPS)) % len(MEGAPIXELS)]
        paper = "letter" if game % 4 == 3 else "a4"
        shots = make_game_shots(seed, players=3, map_id=map_id, difficulty="hard", paper=paper, megapixels=megapixels,
                                code=code_for(game) if args.codes else None)
        for shot in shots:
            rng = np.random.default_rng([seed, shot.truth["player"]])
            shot_photo = load_photo_bytes(shot.data, shot.name + shot.suffix)[0]
            for variant in variants:
                if variant == "shot":
                    photo = shot_photo
                else:
                    copy = messaging_copy if variant == "messaging" else dim_copy
                    photo = load_photo_bytes(copy(shot_photo.full_image(), rng), shot.name + ".jpg")[0]
                frames, _ = find_sheets(photo.image)
                row = rows[variant, None]
                row["photos"] += 1
                if len(frames) != 1:
                    continue
                frame, = frames
                resolution = qr_px_per_mm(frame, photo.scale)
                band = next(label for low, high, label in BANDS if low <= resolution < high)
                ranges[variant].append(resolution)
                for key in ((variant, None), (variant, band), ("all", None)):
                    if key != (variant, None):
                        rows[key]["photos"] += 1
                    rows[key]["markers"] += 1
                for name, reader in readers.items():
                    found, seconds = identify(reader, photo, frame)
                    right = bool(found) and is_right(found, shot.truth, paper)
                    for key in ((variant, None), (variant, band), ("all", None)):
                        rows[key][f"{name} read"] += right
                        rows[key][f"{name} WRONG"] += bool(found) and not right
                    times[variant, name].append(seconds)
                    times["all", name].append(seconds)
                    if name == "new" and not right:
                        misses.append((variant, shot.name, f"{resolution:.1f} px/mm", photo.image.shape[:2],
                                       found.reason or f"read as {found.value.qr_text()}"))
    rows["all", None]["photos"] = sum(rows[v, None]["photos"] for v in variants)
    _print(rows, times, ranges, variants, time.perf_counter() - started)
    for miss in misses[:args.show]:
        print("  new reader misses:", *miss)


def _print(rows, times, ranges, variants, seconds: float) -> None:
    print(f"{'photos':22}{'photos':>7}{'markers':>8}{'old read':>10}{'new read':>10}{'WRONG o/n':>10}")
    for variant in variants + ["all"]:
        keys = [(variant, None)] + ([(variant, label) for _, _, label in BANDS] if variant != "all" else [])
        for key in keys:
            row = rows[key]
            if not row["photos"]:
                continue
            label = variant if key[1] is None else f"  {key[1]} px/mm"
            print(f"{label:22}{row['photos']:>7}{row['markers']:>8}{row['old read']:>10}{row['new read']:>10}"
                  f"{row['old WRONG']:>6}/{row['new WRONG']}")
    print()
    for variant in variants:
        if ranges[variant]:
            print(f"QR px/mm, {variant:10} {min(ranges[variant]):5.1f} .. {max(ranges[variant]):5.1f}")
    print()
    print(f"{'time of one identification':28}{'median':>9}{'p95':>9}{'max':>9}")
    for variant in variants + ["all"]:
        for name in ("old", "new"):
            spent = np.array(times[variant, name]) * 1000
            if len(spent):
                print(f"{variant + ', ' + name:28}{np.median(spent):7.1f}ms{np.percentile(spent, 95):7.1f}ms"
                      f"{spent.max():7.1f}ms")
    print(f"\n{seconds:.0f} s in all")


if __name__ == "__main__":
    main()
