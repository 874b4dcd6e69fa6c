"""The game data as TOML (maps, decks, the die, the Dungeon Maker's tables), and the only code that reads
it from disk, with a map file of the player's own: ``games`` parses and checks the text handed to it here,
and opens no file itself."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def text(relative: str) -> str:
    """One of our data files, by its path in this folder (``maps/classic.toml``)."""
    return resources.files(__name__).joinpath(*relative.split("/")).read_text(encoding="utf-8")


class NotAFile(OSError):
    """A path that is not a regular file of a sane size (a folder, a FIFO, a device, a huge file): its
    message says which, in words a person can act on."""


def read_bounded(path: str | Path, most: int) -> bytes:
    """A user's file's bytes, read only if it is a regular file of at most ``most`` bytes (a FIFO would hang,
    ``/dev/zero`` would fill the memory). Raises ``FileNotFoundError``, ``NotAFile`` or ``OSError``."""
    import os
    import stat

    with open(path, "rb", buffering=0, opener=lambda name, flags: os.open(name, flags | getattr(os, "O_NONBLOCK", 0))) as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise NotAFile("a folder, not a file")
        if not stat.S_ISREG(mode):
            raise NotAFile("not a regular file (a pipe or a device): give a file saved on disk")
        data = handle.read(most + 1)
    if len(data) > most:
        raise NotAFile(f"larger than {most // 1_000_000} MB: too large for this")
    return data


def user_file(path: str | Path, most: int = 5_000_000) -> str:
    """A data file of the player's own (a map file), by its path. Raises ``OSError`` (``NotAFile``) or
    ``UnicodeDecodeError`` when it cannot be read as text."""
    return read_bounded(path, most).decode("utf-8")


def is_user_file(name: str | Path) -> bool:
    """Whether ``name`` is a file of the player's own rather than the name of one of ours."""
    return Path(name).is_file()
