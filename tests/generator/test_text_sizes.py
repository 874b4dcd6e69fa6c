"""Every sheet we print is read at arm's length: no letter under 7 pt but the footer's, and that at 6 pt or
more (issue 22). Measured from the PDFs the commands write, on both papers, the way a reader would: every
character pdfium finds on the page, with its font size."""
from __future__ import annotations

import pytest

from tests_support import run_cli

MAPS = ["classic", "1", "2", "3", "4", "5", "6"]
PAPERS = ["a4", "letter"]
SHEETS = [(["sheet", "--map", name], f"map {name}") for name in MAPS] + [
    (["sheet", "--map", "random", "--seed", "7", "--features", "diamonds,caves,doors,skull,emeralds,runes"],
     "random map, every feature"),
    (["sheet", "--map", "random", "--seed", "7"], "random map"),
    (["monsters"], "monster record"),
    (["loot", "--seed", "1234"], "Dungeon Maker"),
]


def characters(pdf_path, page: int = 0) -> list[tuple[str, float, float]]:
    """Every printed character of a page but spaces: (character, size in pt, baseline height in pt)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(pdf_path)
    try:
        text = document[page].get_textpage()
        found = []
        for i in range(text.count_chars()):
            character = chr(raw.FPDFText_GetUnicode(text.raw, i))
            if not character.isspace():
                found.append((character, raw.FPDFText_GetFontSize(text.raw, i), text.get_charbox(i)[1]))
        return found
    finally:
        document.close()


def footer_line(found: list[tuple[str, float, float]]) -> set[int]:
    """The indices of the footer's characters: from "dungeon-scrawl" on (the release, layout and paper, in
    one line or two), the only text allowed under 7 pt; within 4 mm of that word. None on a sheet without
    one (the Dungeon Maker sheet's foot is its Coin track)."""
    text = "".join(ch for ch, _, _ in found)
    if "dungeon-scrawl" not in text:
        return set()
    start = text.rindex("dungeon-scrawl")
    baseline = found[start][2]
    return {i for i, (_, size, y) in enumerate(found) if i >= start and size < 6.95 and abs(y - baseline) < 11.5}


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("arguments, sheet", SHEETS, ids=[sheet for _, sheet in SHEETS])
def test_no_letter_under_7_pt_but_the_footer_at_6_or_more(tmp_path, capsys, arguments, sheet, paper):
    pdf = tmp_path / "sheet.pdf"
    code, _, err = run_cli(capsys, *arguments, "--paper", paper, "-o", pdf)
    assert code == 0, err
    found = characters(pdf)
    footer = footer_line(found)
    small = "".join(ch for i, (ch, size, _) in enumerate(found) if size < 6.95 and i not in footer)
    assert small == "", f"{sheet} on {paper}: {len(small)} letters under 7 pt, e.g. {small[:60]!r}"
    assert min((found[i][1] for i in footer), default=6.0) >= 5.95, f"{sheet} on {paper}: the footer is under 6 pt"
