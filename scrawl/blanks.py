"""The blank pages the scanner compares photos with, kept on disk.

Drawing a blank page means importing reportlab, drawing the sheet's PDF and
rasterising it with pdfium: about 0.3 s, most of a one-photo scan. So each
blank page is kept as a PNG in the user's cache folder, named by a hash of its
layout, the resolution and the drawing code (our generator's source and the
versions of reportlab and pypdfium2), and a sheet is drawn once per machine
and release. A scan that finds its blank pages there imports neither
reportlab nor pdfium.

``SCRAWL_CACHE`` names another folder. A folder that cannot be written only
costs the time; a damaged file is drawn again. The folder keeps the
``MOST_KEPT`` pages used last (about 30 MB), so a tournament of random maps
does not fill the disk.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

MOST_KEPT = 200         # blank pages kept; a map sheet's is about 160 KB

@dataclass(frozen=True)
class CachedBlank:
    """One kind's blank page renderer (``generator.kinds.BLANKS``), through the cache in ``folder``
    (None: no cache). Picklable, for the scanner's worker processes."""

    kind: str
    folder: str | None

    def __call__(self, layout, px_per_mm: float):
        import cv2

        path = self.path(layout, px_per_mm)
        if path is not None and path.is_file():
            image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
            if image is not None:
                _touch(path)
                return image
        return self.draw(layout, px_per_mm, path)

    def draw(self, layout, px_per_mm: float, path: Path | None):
        """Draw the blank page (with reportlab and pdfium) and keep it at ``path`` (None: not kept)."""
        from generator.kinds import blank_image

        image = blank_image(self.kind, layout, px_per_mm)
        if path is not None:
            _keep(path, image)
        return image

    def path(self, layout, px_per_mm: float) -> Path | None:
        """Where this blank page is kept, or None without a cache folder."""
        if self.folder is None:
            return None
        text = json.dumps([self.kind, layout.to_json(), round(float(px_per_mm), 4), drawing_version()],
                          sort_keys=True)
        return Path(self.folder) / f"{self.kind}-{hashlib.sha256(text.encode()).hexdigest()[:32]}.png"


def keep_blank(kind: str, layout) -> None:
    """Draw a sheet's blank page into the cache now, at the scanner's resolution, unless it is there: called
    where the sheet is printed (reportlab is loaded already), so that its photos are read without it."""
    from sheets.page import PX_PER_MM

    folder = cache_folder()
    blank = CachedBlank(kind, None if folder is None else str(folder))
    path = blank.path(layout, PX_PER_MM)
    if path is not None and not path.is_file():
        blank.draw(layout, PX_PER_MM, path)


def cached_blanks(kinds=None) -> dict[str, CachedBlank]:
    """A blank page renderer per kind, each through the cache (``scanner.scan.Blanks``): for ``kinds``, or
    every kind the scanner reads (``scanner.scan.READERS``)."""
    if kinds is None:
        from scanner.scan import READERS

        kinds = tuple(READERS)
    folder = cache_folder()
    return {kind: CachedBlank(kind, None if folder is None else str(folder)) for kind in kinds}


def cache_folder() -> Path | None:
    """``$SCRAWL_CACHE``, else ``dungeon-scrawl/blanks`` in the user's cache folder (``$XDG_CACHE_HOME`` or
    ``~/.cache``); None when there is no home to keep it in."""
    if os.environ.get("SCRAWL_CACHE"):
        return Path(os.environ["SCRAWL_CACHE"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "dungeon-scrawl" / "blanks"
    try:
        return Path.home() / ".cache" / "dungeon-scrawl" / "blanks"
    except RuntimeError:        # no home directory to be found
        return None


@lru_cache(maxsize=1)
def drawing_version() -> str:
    """What the blank pages' pixels depend on besides the layout: our drawing code, and the PDF library and
    rasteriser that turn it into pixels."""
    from importlib.util import find_spec

    digest = hashlib.sha256()
    for folder in find_spec("generator").submodule_search_locations:
        for item in sorted(Path(folder).iterdir(), key=lambda entry: entry.name):
            if item.name.endswith(".py"):
                digest.update(item.name.encode() + item.read_bytes())
    for package in ("reportlab", "pypdfium2"):
        version = _installed_version(package)
        digest.update((package if version is None else f"{package} {version}").encode())
    return digest.hexdigest()[:16]


def _installed_version(package: str) -> str | None:
    """A package's installed version as its ``.dist-info`` folder beside it names it (what
    ``importlib.metadata.version`` answers), found without importing the package or
    ``importlib.metadata``, whose imports (email, zipfile, ...) cost a scan about 7 ms; None if not found."""
    from importlib.util import find_spec

    spec = find_spec(package)
    prefix = package.replace("-", "_").lower() + "-"
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        try:
            names = os.listdir(Path(location).parent)
        except OSError:
            continue
        found = sorted(name for name in names if name.lower().startswith(prefix) and name.endswith(".dist-info"))
        if found:
            return found[-1][len(prefix):-len(".dist-info")]
    return None


def _keep(path: Path, image) -> None:
    """Write a blank page into the cache, whole or not at all (another process may be reading it)."""
    import io

    from PIL import Image

    data = io.BytesIO()
    Image.fromarray(image).save(data, "PNG")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
    except OSError:
        return      # a cache we cannot write only costs the drawing time
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data.getvalue())
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
        return
    _forget_oldest(path.parent)


def _touch(path: Path) -> None:
    """Mark a kept page as used now, so that it is among the last to go."""
    try:
        os.utime(path)
    except OSError:
        pass


def _forget_oldest(folder: Path) -> None:
    """Delete the pages used longest ago beyond ``MOST_KEPT``."""
    try:
        kept = sorted(folder.glob("*.png"), key=lambda page: page.stat().st_mtime, reverse=True)
        for page in kept[MOST_KEPT:]:
            page.unlink(missing_ok=True)
    except OSError:
        pass        # another process tidied at the same moment
