"""What the benchmark scripts share."""
from __future__ import annotations

import time


def timed(function, repeat: int) -> float:
    """Mean seconds per call of ``function`` over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat
