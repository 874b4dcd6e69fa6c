"""The README and docs/ stand on their own: links resolve inside the repository, every docs page is
linked, nothing points at files a user's clone does not have, and every format the code writes is
documented (issue 22)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = ["map-game.md", "dungeon-maker.md", "monster-dice.md", "formats.md", "printing.md", "README.md",
         "architecture.md"]
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|<img[^>]*\ssrc=\"([^\"]+)\"")


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def relative_links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    links = [a or b for a, b in LINK.findall(text)]
    return [link for link in links if not re.match(r"[a-z][a-z0-9+.-]*:", link) and not link.startswith("#")]


def test_every_docs_page_exists():
    missing = [page for page in PAGES if not (DOCS / page).is_file()]
    assert not missing


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name if p.parent == ROOT else f"docs/{p.name}")
def test_relative_links_resolve_inside_the_repository(path):
    broken = []
    for link in relative_links(path):
        target = (path.parent / link.split("#")[0]).resolve()
        if not target.is_relative_to(ROOT) or not target.exists():
            broken.append(link)
    assert not broken, f"{path.name}: links to nothing in the repository: {broken}"


def test_readme_links_each_docs_page():
    linked = {(ROOT / link.split("#")[0]).resolve() for link in relative_links(ROOT / "README.md")}
    unlinked = [page for page in PAGES if (DOCS / page).resolve() not in linked]
    assert not unlinked, f"README.md does not link {unlinked}"


@pytest.mark.parametrize("path", documents(), ids=lambda p: p.name if p.parent == ROOT else f"docs/{p.name}")
def test_nothing_points_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    found = [word for word in ("../shared", "RULES.md", "CONTRACTS.md") if word in text]
    assert not found, f"{path.name} mentions {found}, which a user's clone does not have"


def formats_in_code() -> set[str]:
    pattern = re.compile(r"scrawl\.[a-z-]+/1")
    names = set()
    for package in ("games", "sheets", "scanner", "scrawl"):
        for source in (ROOT / package).rglob("*"):
            if source.is_file() and source.suffix in {".py", ".js", ".html", ".toml", ".json"}:
                names |= set(pattern.findall(source.read_text(encoding="utf-8", errors="replace")))
    try:    # the issue's own check, where grep exists: grep -rhoE "scrawl\.[a-z-]+/1" games sheets scanner scrawl
        grep = subprocess.run(["grep", "-rhoE", r"scrawl\.[a-z-]+/1", "games", "sheets", "scanner", "scrawl"],
                              cwd=ROOT, capture_output=True, text=True)
        names |= set(grep.stdout.split())
    except OSError:
        pass
    return names


def test_every_format_in_the_code_is_documented():
    names = formats_in_code()
    assert "scrawl.scan/1" in names, "the search for format names found nothing"
    documented = (DOCS / "formats.md").read_text(encoding="utf-8")
    missing = sorted(name for name in names if f"`{name}`" not in documented)
    assert not missing, f"docs/formats.md does not document {missing}"
