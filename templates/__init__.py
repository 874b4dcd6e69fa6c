"""The game data as TOML (maps, decks, the die, the Dungeon Maker's tables), and the only code that reads
it from disk, with a map file of the player's own: ``games`` parses and checks the text handed to it here,
and opens no file itself."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def text(relative: str) -> str:
    """One of our data files, by its path in this folder (``maps/classic.toml``)."""
    return resources.files(__name__).joinpath(*relative.split("/")).read_text(encoding="utf-8")


def user_file(path: str | Path) -> str:
    """A data file of the player's own (a map file), by its path. Raises ``OSError`` or
    ``UnicodeDecodeError`` when it cannot be read as text."""
    return Path(path).read_text(encoding="utf-8")


def is_user_file(name: str | Path) -> bool:
    """Whether ``name`` is a file of the player's own rather than the name of one of ours."""
    return Path(name).is_file()
