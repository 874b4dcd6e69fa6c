"""Reading TOML data files (maps, decks) field by field, collecting every problem instead of stopping at one."""
from __future__ import annotations

import tomllib

from games.errors import TemplateError, kind_name


def parse_toml(raw: str, source: str, error: type[TemplateError] = TemplateError) -> dict:
    """The parsed table of a TOML text. Raises ``error`` naming ``source`` if it is not valid TOML."""
    try:
        return tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        raise error(source, [("", f"not valid TOML: {exc}")]) from None


def take(problems: list, table: dict, key: str, kind: type, path: str, default=None):
    """``table[key]`` if it is a ``kind``; otherwise note the problem under ``path`` and give ``default``.

    A missing key is a problem only when there is no default.
    """
    if key not in table:
        if default is None:
            problems.append((path, "missing"))
        return default
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        problems.append((path, f"should be {kind_name(kind)}, not {value!r}"))
        return default
    return value
