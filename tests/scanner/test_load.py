"""Loading photos: every format a phone or a scanner gives, upright, and a clear reason for anything else."""
import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image, ImageOps

from scanner.load import PhotoError, load_photo_bytes, load_photos


def _jpeg(width, height, **save) -> bytes:
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[: height // 2, : width // 3] = (250, 30, 30)          # a red block top-left, to check orientation
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=90, **save)
    return buffer.getvalue()


def _png_header(width, height) -> bytes:
    """A PNG that only claims its size: what a decompression bomb looks like before decoding."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("data, reason", [
    (b"", "empty file (0 bytes)"),
    (b"hello, this is a text file\n", "not an image this scanner reads: give a JPEG, PNG, WebP, HEIC or PDF"),
    (_png_header(12_000, 9_000), "12000x9000 pixels (108 megapixels), more than the 100 this scanner reads"),
    (_png_header(40_000, 40_000), "claims to be far more than 100 megapixels"),
    (b"%PDF-1.4 garbage", "damaged PDF"),
])
def test_bad_files_say_what_is_wrong(data, reason):
    with pytest.raises(PhotoError) as caught:
        load_photo_bytes(data, "photo")
    assert reason in str(caught.value)


def test_a_truncated_jpeg_is_refused_not_read_as_grey():
    data = _jpeg(1200, 900)
    with pytest.raises(PhotoError, match="truncated or damaged image"):
        load_photo_bytes(data[: len(data) // 2], "half.jpg")


def test_a_truncated_progressive_jpeg_is_refused_too():
    data = _jpeg(1200, 900, progressive=True)
    assert load_photo_bytes(data, "whole.jpg")[0].image.shape == (900, 1200, 3)
    with pytest.raises(PhotoError, match="truncated or damaged image"):
        load_photo_bytes(data[: int(len(data) * 0.8)], "cut.jpg")


def test_a_jpeg_with_data_after_it_still_opens():
    """Phones append things after the picture (a motion photo's video, a second image)."""
    photo, = load_photo_bytes(_jpeg(1200, 900) + b"\x00\x00\x00\x18ftypmp42" + bytes(5000), "motion.jpg")
    assert photo.image.shape == (900, 1200, 3) and photo.image[10, 10, 0] > 200


def test_missing_files_and_folders(tmp_path):
    with pytest.raises(PhotoError, match="no such file"):
        load_photos(tmp_path / "nope.jpg")
    with pytest.raises(PhotoError, match="a folder, not a photo"):
        load_photos(tmp_path)


def test_exif_orientation_is_honoured():
    exif = Image.Exif()
    exif[0x0112] = 6          # the camera was turned: show the stored pixels turned 90 degrees clockwise
    photo, = load_photo_bytes(_jpeg(600, 400, exif=exif.tobytes()), "turned.jpg")
    assert photo.image.shape[:2] == (600, 400)
    assert photo.image[10, -10, 0] > 200 and photo.image[10, 10, 0] < 60   # the red block is now top-right


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_shows_the_picture_as_a_photo_viewer_does(orientation):
    pixels = np.kron(np.random.default_rng(1).integers(0, 255, (30, 40, 3), dtype=np.uint8),
                     np.ones((8, 8, 1), np.uint8))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    upright = np.asarray(ImageOps.exif_transpose(Image.open(io.BytesIO(buffer.getvalue()))).convert("RGB"))
    photo, = load_photo_bytes(buffer.getvalue(), "turned.jpg")
    assert photo.image.shape == upright.shape
    assert np.abs(photo.image.astype(int) - upright).mean() < 1.0


def test_big_jpegs_are_decoded_reduced_and_the_full_size_is_kept_on_demand():
    photo, = load_photo_bytes(_jpeg(4000, 3000), "big.jpg")
    assert photo.image.shape[:2] == (1500, 2000) and photo.scale == 0.5
    assert photo.full_image().shape[:2] == (3000, 4000)
    small, = load_photo_bytes(_jpeg(1600, 1200), "small.jpg")
    assert small.scale == 1.0 and small.image.shape[:2] == (1200, 1600)


@pytest.mark.parametrize("fmt", ["PNG", "WEBP", "HEIF"])
def test_other_formats_open(fmt):
    import pillow_heif

    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.fromarray(np.full((300, 400, 3), 200, np.uint8)).save(buffer, fmt)
    photo, = load_photo_bytes(buffer.getvalue(), f"photo.{fmt.lower()}")
    assert photo.image.shape == (300, 400, 3) and abs(int(photo.image[150, 200, 1]) - 200) < 6


def test_each_page_of_a_pdf_is_an_image(tmp_path, classic):
    from sheets.dungeon import sheet_layout
    from generator.sheet import render_sheets

    path = tmp_path / "scans.pdf"
    render_sheets(sheet_layout(classic, "a4"), 2, path)
    photos = load_photos(path)
    assert [p.source for p in photos] == [f"{path}#page=1", f"{path}#page=2"]
    assert photos[0].image.shape[0] == pytest.approx(297 * 6, abs=2)
