"""What the benchmark scripts share."""
from __future__ import annotations

import time


def timed(function, repeat: int) -> float:
    """Mean seconds per call of ``function`` over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat


def with_grain(data: bytes, suffix: str, seed: int) -> bytes:
    """A photographer's photo (JPEG, HEIC or WebP) as a real phone's JPEG: a sensor's grain added and
    saved at quality 92, which makes the file, and its decoding, as heavy as a phone's (about 2.5 MB at
    12 MP, against the photographer's 1.3 MB)."""
    import cv2
    import numpy as np

    from scanner.load import load_photo_bytes

    image = cv2.cvtColor(load_photo_bytes(data, "shot" + suffix)[0].full_image(), cv2.COLOR_RGB2BGR)
    grain = np.random.default_rng(seed).normal(0, 4.0, image.shape)
    ok, encoded = cv2.imencode(".jpg", np.clip(image + grain, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return encoded.tobytes()
