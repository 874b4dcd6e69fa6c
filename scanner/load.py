"""Loading photos: JPEG, PNG, WebP, HEIC, TIFF and PDF pages, upright, at the resolution the marks need.

A phone photo is decoded at a reduced size straight from the JPEG data
(libjpeg's DCT scaling, via OpenCV): a sheet only needs a few
pixels per millimetre, and decoding a quarter of the pixels costs a fraction
of decoding them all. The full-size image can still be had for the rare photo
whose QR code needs it.

Images are RGB ``uint8`` arrays. Anything that is not a readable image raises
``PhotoError`` with a reason a person can act on.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from games.errors import ScrawlError

MAX_MEGAPIXELS = 100          # a decompression bomb, or a panorama: refused before decoding
WORKING_MEGAPIXELS = 2.8      # decode big photos down to no less than this
PDF_PX_PER_MM = 6.0           # PDF pages (scans) are rendered at about 150 dpi
MOST_FILE_BYTES = 80_000_000  # a 50 MP phone's RAW-free photo is under 30 MB; a PDF of 24 scans under 80 MB
MOST_PDF_PAGES = 24           # one sheet per page: a game of 20 players, and some to spare
MOST_PAGE_MM = 500            # a sheet's page side (A3 is 420 mm); a larger page is no scan of a sheet
MOST_PDF_MEGAPIXELS = 60      # all of a PDF's pages drawn (24 A4 pages are 54): about 180 MB of pixels
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".tif", ".tiff", ".bmp", ".pdf")


class PhotoError(ScrawlError):
    """A file that cannot be read as a photo of a sheet."""


@dataclass
class Photo:
    """One image to scan: where it came from, its pixels at working size, and how to get the full size."""

    source: str
    image: np.ndarray                 # RGB uint8, upright (EXIF orientation applied)
    scale: float                      # working pixels per full-size pixel (1.0: not reduced)
    full: Callable[[], np.ndarray] | None = None   # the full-size image, decoded on demand

    def full_image(self) -> np.ndarray:
        return self.full() if self.full is not None and self.scale < 1.0 else self.image


def load_photos(path: str | Path, *, source: str | None = None) -> list[Photo]:
    """The images in one file: one for a photo, one per page for a PDF. Raises ``PhotoError``."""
    from templates import NotAFile, read_bounded

    path = Path(path)
    name = source or str(path)
    if path.is_dir():
        raise PhotoError(f"a folder, not a photo: give the photo files inside it (e.g. {name}/*.jpg)")
    try:
        data = read_bounded(path, MOST_FILE_BYTES)
    except FileNotFoundError:
        raise PhotoError("no such file: check the name and the folder") from None
    except NotAFile as exc:
        raise PhotoError(str(exc)) from None
    except OSError as exc:
        raise PhotoError(f"cannot be read: {exc.strerror or exc}") from None
    return load_photo_bytes(data, name)


def load_photo_bytes(data: bytes, name: str) -> list[Photo]:
    """The images in a file's bytes (``name`` names them as sources)."""
    if not data:
        raise PhotoError("empty file (0 bytes): copy the photo again")
    if data[:5] == b"%PDF-":
        return _load_pdf(data, name)
    return [_load_image(data, name)]


def _load_image(data: bytes, name: str) -> Photo:
    import warnings

    from PIL import Image, ImageOps, UnidentifiedImageError

    if data[4:8] == b"ftyp":     # an ISO media file (HEIC/HEIF): pillow-heif's opener, imported only then (5 ms)
        _register_heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)   # our own limit is below
            image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        raise PhotoError(f"claims to be far more than {MAX_MEGAPIXELS} megapixels (a damaged or hostile file): "
                         f"send the phone's own photo") from None
    except UnidentifiedImageError:
        raise PhotoError("not an image this scanner reads: give a JPEG, PNG, WebP, HEIC or PDF") from None
    except Exception as exc:  # a damaged header can raise nearly anything inside Pillow's plugins
        raise PhotoError(f"damaged image ({_short(exc)}): copy the photo again") from None
    megapixels = image.width * image.height / 1e6
    if megapixels > MAX_MEGAPIXELS:
        raise PhotoError(f"{image.width}x{image.height} pixels ({megapixels:.0f} megapixels), more than the "
                         f"{MAX_MEGAPIXELS} this scanner reads: send the phone's own photo, or shrink it")
    factor = _reduction(image.width, image.height)
    orientation = _orientation(image)

    def decode(reduce: int) -> np.ndarray:
        if image.format in ("JPEG", "MPO"):      # MPO: a phone JPEG with a second picture after it
            return _decode_jpeg(data, reduce, orientation)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            picture = Image.open(io.BytesIO(data))
        try:
            picture.load()
        except (OSError, SyntaxError, ValueError) as exc:
            raise PhotoError(f"truncated or damaged image ({_short(exc)}): copy the photo again") from None
        picture = picture.convert("RGB")
        if reduce > 1:
            picture = picture.reduce(reduce)
        if orientation not in (None, 1):
            picture = ImageOps.exif_transpose(picture)
        return np.asarray(picture)

    pixels = decode(factor)
    scale = pixels.shape[1] / (image.height if orientation in (5, 6, 7, 8) else image.width)
    return Photo(name, pixels, min(1.0, scale), (lambda: decode(1)) if factor > 1 else None)


_JPEG_REDUCED = {1: cv2.IMREAD_COLOR_RGB, 2: cv2.IMREAD_REDUCED_GRAYSCALE_2 | cv2.IMREAD_COLOR_RGB,
                 4: cv2.IMREAD_REDUCED_GRAYSCALE_4 | cv2.IMREAD_COLOR_RGB,
                 8: cv2.IMREAD_REDUCED_GRAYSCALE_8 | cv2.IMREAD_COLOR_RGB}
# EXIF orientation -> how to turn the stored pixels upright
_UPRIGHT = {2: lambda a: cv2.flip(a, 1), 3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
            4: lambda a: cv2.flip(a, 0), 5: cv2.transpose,
            6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
            7: lambda a: cv2.rotate(cv2.transpose(a), cv2.ROTATE_180),
            8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE)}


def _decode_jpeg(data: bytes, reduce: int, orientation: int | None) -> np.ndarray:
    """A JPEG decoded by OpenCV at 1/``reduce`` size in libjpeg's DCT (twice as fast as Pillow's route,
    and RGB straight away), turned upright."""
    if _jpeg_truncated(data):
        raise PhotoError("truncated or damaged image (the file ends before the picture does): "
                         "copy the photo again")
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), _JPEG_REDUCED[reduce] | cv2.IMREAD_IGNORE_ORIENTATION)
    if pixels is None:
        raise PhotoError("damaged image (the JPEG data cannot be decoded): copy the photo again")
    return _UPRIGHT[orientation](pixels) if orientation in _UPRIGHT else pixels


def _jpeg_truncated(data: bytes) -> bool:
    """Whether a JPEG stops before its end-of-image marker. libjpeg decodes a cut file without
    complaint, filling the missing part with grey, so this is checked first: the segments are walked to
    the first scan, after which (in a progressive file too) the only end marker is the real one."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return True
        marker = data[at + 1]
        if marker == 0xFF:                       # fill byte
            at += 1
        elif marker == 0x01 or 0xD0 <= marker <= 0xD8:
            at += 2                              # markers without a length
        elif marker == 0xDA:                     # start of scan
            return data.rfind(b"\xff\xd9") < at + 2     # from the end: where the marker nearly always is
        else:
            at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    return True


def _load_pdf(data: bytes, name: str) -> list[Photo]:
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise PhotoError(f"damaged PDF ({_short(exc)}): export it again") from None
    if len(document) == 0:
        raise PhotoError("a PDF with no pages")
    if len(document) > MOST_PDF_PAGES:
        raise PhotoError(f"a PDF of {len(document)} pages: this reads at most {MOST_PDF_PAGES} (one sheet a page); "
                         f"split it")
    megapixels = 0.0
    for index in range(len(document)):      # every page's size is checked before any is drawn
        width_mm, height_mm = (size * 25.4 / 72 for size in document.get_page_size(index))
        if max(width_mm, height_mm) > MOST_PAGE_MM:
            raise PhotoError(f"page {index + 1} is {width_mm:.0f}x{height_mm:.0f} mm: too large for a sheet "
                             f"(at most {MOST_PAGE_MM} mm a side)")
        megapixels += width_mm * height_mm * PDF_PX_PER_MM ** 2 / 1e6
    if megapixels > MOST_PDF_MEGAPIXELS:
        raise PhotoError(f"its {len(document)} pages are too large together for sheets: split the PDF")
    photos = []
    for index in range(len(document)):
        page = document[index]
        bitmap = page.render(scale=PDF_PX_PER_MM * 25.4 / 72, fill_color=(255, 255, 255, 255))
        pixels = np.asarray(bitmap.to_pil().convert("RGB"))
        source = name if len(document) == 1 else f"{name}#page={index + 1}"
        photos.append(Photo(source, pixels, 1.0))
    return photos


def _reduction(width: int, height: int) -> int:
    """The largest JPEG scaling (1, 2, 4 or 8) that keeps at least ``WORKING_MEGAPIXELS``."""
    factor = 1
    while factor < 8 and width * height / (2 * factor) ** 2 / 1e6 >= WORKING_MEGAPIXELS:
        factor *= 2
    return factor


def _orientation(image) -> int | None:
    try:
        return image.getexif().get(0x0112)
    except Exception:  # a broken EXIF block is ignored, as phones' gallery apps do
        return None


def _register_heif() -> None:
    try:
        import pillow_heif
    except ImportError:  # pragma: no cover - declared as a dependency
        return
    pillow_heif.register_heif_opener()


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:80]
