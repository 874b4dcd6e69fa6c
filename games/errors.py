"""The one exception type the front doors turn into a one-line message and exit code 2."""
from __future__ import annotations


class ScrawlError(Exception):
    """A problem the user can fix: bad input, a broken template, an unknown name."""


class MapError(ScrawlError, ValueError):
    """A map file or map code that does not describe a valid map.

    Carries *every* problem found, each as ``(path, message)`` where path names the
    field (``rooms.C4.items[0]``), so a map designer can fix them all in one go.
    """

    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = source
        self.problems = list(problems)
        parts = [f"{path}: {message}" if path else message for path, message in self.problems]
        super().__init__(f"{source}: " + f"; {source}: ".join(parts))
