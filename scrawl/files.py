"""Reading the files users give the commands, with errors as one line a person can act on.

Only regular files of a sane size are read (a FIFO would hang, ``/dev/zero`` would fill the memory), and
JSON only as deep and with numbers as long as our documents ever need.
"""
from __future__ import annotations

import json
from pathlib import Path

from games.errors import ScrawlError

MOST_JSON_BYTES = 20_000_000        # a scan of a 1000-sheet tournament is about 5 MB
MOST_DEPTH = 40                     # our documents nest about 8 deep
MOST_DIGITS = 15                    # no count, seed or score of ours is longer


def read_json(path: Path | str):
    """A JSON file's content; ``ScrawlError`` for a missing, unreadable, oversized or malformed file."""
    from templates import NotAFile, read_bounded

    try:
        text = read_bounded(path, MOST_JSON_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise ScrawlError(f"{path}: no such file") from None
    except NotAFile as exc:
        raise ScrawlError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise ScrawlError(f"{path}: not a JSON document (a photo?): photos of sheets are read by "
                          f"'scrawl scan PHOTO...'") from None
    except OSError as exc:
        raise ScrawlError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_json(text, str(path))


def parse_json(text: str, name: str):
    """JSON text (a file's or a request body's), bounded in depth and in the length of its numbers."""
    try:
        document = json.loads(text, parse_int=_number(int), parse_float=_number(float), parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ScrawlError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise ScrawlError(f"{name}: nested more than {MOST_DEPTH} deep: not a document of ours") from None
    except ValueError as exc:
        raise ScrawlError(f"{name}: {exc}") from None
    if _depth(document) > MOST_DEPTH:
        raise ScrawlError(f"{name}: nested more than {MOST_DEPTH} deep: not a document of ours")
    return document


def _number(kind):
    def parse(text: str):
        if len(text.lstrip("-").split(".")[0].split("e")[0].split("E")[0]) > MOST_DIGITS:
            raise ValueError(f"the number {text[:12]}... is far larger than any in a game: check the file")
        return kind(text)
    return parse


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a game has: check the file")


def _depth(document) -> int:
    """How deep lists and objects nest in ``document`` (counted without recursion)."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            if depth <= MOST_DEPTH:
                stack.extend((child, depth + 1) for child in (value.values() if isinstance(value, dict) else value))
    return deepest
