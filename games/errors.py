"""The one exception type the front doors turn into a one-line message and exit code 2."""
from __future__ import annotations


class ScrawlError(Exception):
    """A problem the user can fix: bad input, a broken template, an unknown name."""


class TemplateError(ScrawlError, ValueError):
    """A data file (a map, a deck, a board state) that does not describe what it should.

    Carries *every* problem found, each as ``(path, message)`` where path names the
    field (``rooms.C4.items[0]``), so whoever wrote the file can fix them all in one go.
    """

    def __init__(self, source: str, problems: list[tuple[str, str]]):
        self.source = source
        self.problems = list(problems)
        parts = [f"{path}: {message}" if path else message for path, message in self.problems[:MOST_SHOWN]]
        more = len(self.problems) - MOST_SHOWN
        super().__init__(f"{source}: " + f"; {source}: ".join(parts)
                         + (f"; and {more} more problem{'s' if more > 1 else ''} like these" if more > 0 else ""))


MOST_SHOWN = 8      # problems spelled out in the message (all stay in ``problems``)


class MapError(TemplateError):
    """A map file or map code that does not describe a valid map."""


def kind_name(kind: type) -> str:
    """A Python type as a person filling in a data file would call it."""
    return {str: "text", int: "a whole number", list: "a list", dict: "a table", bool: "true or false"}.get(
        kind, kind.__name__)
