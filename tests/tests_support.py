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
