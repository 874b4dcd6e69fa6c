"""Reading the files users give the commands, with errors as one line a person can act on."""
from __future__ import annotations

import json
from pathlib import Path

from games.errors import ScrawlError


def read_json(path: Path | str):
    """A JSON file's content; ``ScrawlError`` for a missing, unreadable or malformed file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScrawlError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScrawlError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScrawlError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
