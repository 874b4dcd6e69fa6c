"""Test data and helpers shared by several test files."""
from collections import deque
from pathlib import Path


def reachable(dungeon, starts):
    """Rooms reachable from ``starts`` through passages: the tests' own search, not the model's."""
    seen, queue = set(starts), deque(starts)
    while queue:
        room = queue.popleft()
        for side in "NESW":
            other = room.neighbour(side)
            if dungeon.side_kind(room, side) == "passage" and other not in seen:
                seen.add(other)
                queue.append(other)
    return seen


# A small valid 5x5 map file, also used by the scoring cases (tests/cases/maps/tiny.toml).
TINY_MAP = (Path(__file__).parent / "cases" / "maps" / "tiny.toml").read_text(encoding="utf-8")


def run_cli(capsys, *args):
    """Run ``scrawl ARGS...`` in-process: (exit code, stdout, stderr)."""
    from scrawl.cli import main

    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


def pdf_fonts(path) -> list[tuple[str, bool]]:
    """(font name without its subset prefix, embedded?) for every font any page of a PDF uses."""
    from pypdf import PdfReader

    found = []
    for page in PdfReader(path).pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            descriptors = [font.get("/FontDescriptor")]
            descriptors += [d.get_object().get("/FontDescriptor") for d in font.get("/DescendantFonts", [])]
            descriptors = [d.get_object() for d in descriptors if d is not None]
            embedded = any(key in d for d in descriptors for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.append((str(font["/BaseFont"]).lstrip("/").split("+")[-1], embedded))
    return found


class MakerSheet:
    """A printed Dungeon Maker page (player ``player`` of loot seed ``seed``) at 10 px/mm, and a plain pen:
    clean ticks and straight path lines at known places, so a test knows what was drawn apart from any
    camera (the photographer's hand and camera are measured by ``benchmarks/maker_accuracy.py``)."""

    PX = 10.0
    INK = (30, 40, 150)

    def __init__(self, seed: int = 5, paper: str = "a4", player: int = 1):
        import io

        import numpy as np
        import pypdfium2 as pdfium

        from games.maker import roll_loot
        from generator.maker_sheet import render_maker_sheets
        from sheets.maker import maker_layout

        self.layout = maker_layout(roll_loot(seed, player), paper)
        buffer = io.BytesIO()
        render_maker_sheets([self.layout], buffer)
        page = pdfium.PdfDocument(buffer.getvalue())[0]
        self.image = np.array(page.render(scale=self.PX * 25.4 / 72).to_pil().convert("RGB"))

    def _p(self, x, y):
        return int(round(x * self.PX)), int(round(y * self.PX))

    def tick(self, box):
        import cv2

        corner = self._p(box.x + box.w * 0.4, box.bottom - 0.6)
        cv2.line(self.image, self._p(box.x + 0.6, box.y + box.h * 0.55), corner, self.INK, 5)
        cv2.line(self.image, corner, self._p(box.right - 0.4, box.y + 0.5), self.INK, 5)

    def build(self, tile: str, *items: str):
        for item in items:
            self.tick(self.layout.tile(tile).mark(item))

    def link(self, one: str, other: str):
        import cv2

        cv2.line(self.image, self._p(*self.layout.tile(one).rect.centre),
                 self._p(*self.layout.tile(other).rect.centre), self.INK, 5)

    def out(self, tile: str, side: str):
        """The entrance: a line from a tile's middle out through its ``side``, past the grid's edge."""
        import cv2

        rect = self.layout.tile(tile).rect
        x, y = rect.centre
        end = {"N": (x, rect.y - 3), "S": (x, rect.bottom + 3), "W": (rect.x - 3, y), "E": (rect.right + 3, y)}[side]
        cv2.line(self.image, self._p(x, y), self._p(*end), self.INK, 5)

    def boxes(self, *names: str):
        for name in names:
            self.tick(self.layout.boxes[name])

    def encoded(self, suffix: str = ".png") -> bytes:
        import cv2

        ok, data = cv2.imencode(suffix, cv2.cvtColor(self.image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
        return data.tobytes()


class DiesInAWorker:
    """A blank-sheet renderer (``scanner.scan.Blanks``' values) that ends the process it runs in when that is
    a worker of the scan's pool, as a photo that makes a worker run out of memory would; in the main process
    it takes ``pause`` seconds first, so the worker surely claims a photo before this process has read them
    all."""

    def __init__(self, blank, pause: float = 1.0):
        self.blank, self.pause = blank, pause

    def __call__(self, layout, px_per_mm: float):
        import multiprocessing
        import os
        import time

        if multiprocessing.parent_process() is not None:
            os._exit(3)
        time.sleep(self.pause)
        return self.blank(layout, px_per_mm)
