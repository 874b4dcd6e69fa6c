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
