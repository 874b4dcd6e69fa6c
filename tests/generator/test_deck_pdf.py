"""Printed card decks as a player and a printer see them: pages, card positions, cut marks, bleed, fonts, ink."""
import itertools
from collections import Counter

import numpy as np
import pypdfium2 as pdfium
import pytest

from tests_support import pdf_fonts
from pypdf import PdfReader

from games.cards import load_deck, parse_deck
from games.errors import ScrawlError
from generator import cardart
from generator.deck import BACKS, CARD_H, CARD_W, deck_pages, render_deck
from sheets.page import PAPERS, Rect

PT_PER_MM = 72 / 25.4
DECKS = ("doodles", "traps", "monsters-reference")
STANDARD_FONTS = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


@pytest.fixture(scope="module")
def decks():
    return {name: load_deck(name) for name in DECKS}


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory, decks):
    """Each deck rendered once per case the tests read: (deck, paper, bleed, backs, low_ink) -> path."""
    folder = tmp_path_factory.mktemp("decks")
    made = {}

    def pdf(name, paper="a4", bleed=0.0, backs="duplex", low_ink=False):
        key = (name, paper, bleed, backs, low_ink)
        if key not in made:
            made[key] = folder / f"{name}-{paper}-{bleed:g}-{backs}-{int(low_ink)}.pdf"
            render_deck(decks[name], made[key], paper=paper, bleed=bleed, backs=backs, low_ink=low_ink)
        return made[key]
    return pdf


def every_layout(decks):
    for name, paper, bleed, backs in itertools.product(DECKS, PAPERS, (0.0, 1.5), BACKS):
        yield f"{name}-{paper}-{bleed:g}-{backs}", deck_pages(decks[name], paper, bleed=bleed, backs=backs)


def segment_rect(x1, y1, x2, y2) -> Rect:
    return Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))


def touches(segment: Rect, area: Rect) -> bool:
    """An axis-aligned line (zero width or height) that meets the area, edges included."""
    return (segment.x <= area.right and segment.right >= area.x
            and segment.y <= area.bottom and segment.bottom >= area.y)


# -- pages ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name,backs,expected", [
    ("doodles", "duplex", 8), ("doodles", "none", 4), ("doodles", "fold", 9),       # 36 cards
    ("traps", "duplex", 6), ("traps", "none", 3), ("traps", "fold", 5),             # 20 cards
    ("monsters-reference", "duplex", 6), ("monsters-reference", "none", 3),        # 19 cards
    ("monsters-reference", "fold", 5),
])
def test_page_counts(decks, name, backs, expected):
    pages = deck_pages(decks[name], "a4", backs=backs)
    assert len(pages) == expected
    assert [page.number for page in pages] == list(range(1, expected + 1))
    if backs == "duplex":
        assert [page.side for page in pages] == ["front", "back"] * (expected // 2)
    else:
        assert {page.side for page in pages} == {"front" if backs == "none" else "fold"}


def test_the_pdf_has_one_page_per_laid_out_page(pdfs):
    assert len(PdfReader(pdfs("doodles")).pages) == 8
    assert len(PdfReader(pdfs("doodles", backs="none")).pages) == 4
    assert len(PdfReader(pdfs("doodles", backs="fold")).pages) == 9


@pytest.mark.parametrize("backs", BACKS)
def test_every_copy_of_every_card_is_printed_once(decks, backs):
    for name, deck in decks.items():
        fronts = Counter(p.card.id for page in deck_pages(deck, "letter", backs=backs)
                         for p in page.placements if p.face == "front")
        assert fronts == Counter({card.id: card.copies for card in deck.cards}), name


@pytest.mark.parametrize("paper,backs", list(itertools.product(PAPERS, ("duplex", "fold"))))
def test_every_page_is_the_paper_size(pdfs, paper, backs):
    width, height = PAPERS[paper] if backs == "duplex" else PAPERS[paper][::-1]   # fold: landscape
    reader = PdfReader(pdfs("traps", paper=paper, backs=backs))
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(width * PT_PER_MM, abs=0.05)
        assert float(page.mediabox.height) == pytest.approx(height * PT_PER_MM, abs=0.05)


def test_a4_and_letter_in_points(pdfs):
    a4 = PdfReader(pdfs("doodles")).pages[0].mediabox
    letter = PdfReader(pdfs("doodles", paper="letter")).pages[0].mediabox
    assert (float(a4.width), float(a4.height)) == pytest.approx((595.28, 841.89), abs=0.01)
    assert (float(letter.width), float(letter.height)) == pytest.approx((612, 792), abs=0.01)


# -- where the cards go -------------------------------------------------------------------------

def test_cards_are_poker_size_on_the_page_and_never_overlap(decks):
    for case, pages in every_layout(decks):
        for page in pages:
            sheet = Rect(0, 0, page.width, page.height)
            for placement, printed in zip(page.placements, page.bleed_rects()):
                assert (placement.rect.w, placement.rect.h) == (CARD_W, CARD_H), case
                assert sheet.contains(printed), case
            for a, b in itertools.combinations(page.bleed_rects(), 2):
                assert not a.overlaps(b), f"{case} page {page.number}: {a} overlaps {b}"


@pytest.mark.parametrize("paper", PAPERS)
def test_fronts_form_a_centred_three_by_three_grid(decks, paper):
    page = deck_pages(decks["doodles"], paper)[0]
    rects = [p.rect for p in page.placements]
    assert len(rects) == 9
    xs, ys = sorted({r.x for r in rects}), sorted({r.y for r in rects})
    assert len(xs) == 3 and len(ys) == 3
    assert [r.x for r in rects] == xs * 3 and [r.y for r in rects] == [y for y in ys for _ in range(3)]
    assert xs[0] == pytest.approx(page.width - (xs[-1] + CARD_W))
    assert ys[0] == pytest.approx(page.height - (ys[-1] + CARD_H))


@pytest.mark.parametrize("paper,bleed", list(itertools.product(PAPERS, (0.0, 1.5))))
def test_each_back_is_mirrored_onto_its_front_for_a_long_edge_flip(decks, paper, bleed):
    pages = deck_pages(decks["traps"], paper, bleed=bleed, backs="duplex")
    for front, back in zip(pages[::2], pages[1::2]):
        assert len(front.placements) == len(back.placements)
        for f, b in zip(front.placements, back.placements):
            assert (f.face, b.face) == ("front", "back")
            assert b.card == f.card
            assert b.rect.x == pytest.approx(front.width - f.rect.x - f.rect.w)
            assert b.rect.y == pytest.approx(f.rect.y)
    # A full page: the back of the card in column c sits in column 2 - c.
    first, back = pages[0], pages[1]
    columns = sorted({p.rect.x for p in first.placements})
    for f, b in zip(first.placements, back.placements):
        assert columns.index(pytest.approx(b.rect.x)) == 2 - columns.index(f.rect.x)


@pytest.mark.parametrize("paper", PAPERS)
def test_fold_pages_put_each_back_across_the_fold_from_its_front(decks, paper):
    for page in deck_pages(decks["doodles"], paper, bleed=1.0, backs="fold"):
        assert page.width > page.height and page.fold_x == pytest.approx(page.width / 2)
        fronts = [p for p in page.placements if p.face == "front"]
        backs = [p for p in page.placements if p.face == "back"]
        assert len(fronts) == len(backs) and len(fronts) <= 4
        for f, b in zip(fronts, backs):
            assert b.card == f.card and b.rect.y == f.rect.y
            assert f.rect.right + page.bleed < page.fold_x < b.rect.x - page.bleed
            assert b.rect.right - page.fold_x == pytest.approx(page.fold_x - f.rect.x)


# -- cut marks, footer, ruler -----------------------------------------------------------------------

def test_cut_marks_stay_in_the_margin_in_line_with_every_trim_edge(decks):
    for case, pages in every_layout(decks):
        for page in pages:
            sheet = Rect(0, 0, page.width, page.height)
            marks = [segment_rect(*mark) for mark in page.cut_marks]
            for mark in marks:
                assert sheet.contains(mark), case
                for printed in page.bleed_rects():
                    assert not touches(mark, printed), f"{case}: cut mark {mark} on a card"
            vertical = {round(m.x, 3) for m in marks if m.w == 0}
            horizontal = {round(m.y, 3) for m in marks if m.h == 0}
            for p in page.placements:
                assert {round(p.rect.x, 3), round(p.rect.right, 3)} <= vertical, case
                assert {round(p.rect.y, 3), round(p.rect.bottom, 3)} <= horizontal, case


def test_footer_and_ruler_sit_in_the_margin_clear_of_cards_and_marks(decks):
    for case, pages in every_layout(decks):
        for page in pages:
            sheet = Rect(0, 0, page.width, page.height)
            for thing in (page.footer, page.ruler):
                assert Rect(0.5, 0.5, page.width - 1, page.height - 1).contains(thing), case
                assert all(not thing.overlaps(printed) for printed in page.bleed_rects()), case
                assert all(not touches(segment_rect(*mark), thing) for mark in page.cut_marks), case
            long_side = page.footer.h if page.along_side else page.footer.w
            assert long_side > 50 and sheet.contains(page.ruler)


def longest_run(flags) -> int:
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


def test_the_calibration_bar_prints_50_mm_long(pdfs, decks):
    page = deck_pages(decks["doodles"], "a4")[0]
    dpi = 300
    image = np.asarray(pdfium.PdfDocument(pdfs("doodles"))[0].render(scale=dpi / 72, grayscale=True)
                       .to_pil().convert("L")).astype(int)
    px = lambda v: int(round(v * dpi / 25.4))  # noqa: E731 - millimetres to pixels
    area = image[px(page.ruler.y):px(page.ruler.bottom), px(page.ruler.x):px(page.ruler.right)] < 128
    bar = max(longest_run(row) for row in area)      # the bar is the one long unbroken line
    assert bar * 25.4 / dpi == pytest.approx(50.0, abs=0.3)
    assert "should measure 50 mm" in PdfReader(pdfs("doodles")).pages[0].extract_text()


# -- bleed --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper,bleed,most", [("a4", 3.0, "2.5"), ("letter", 2.0, "1.5"), ("letter", 4.0, "1.5")])
def test_a_bleed_too_big_for_the_paper_says_the_largest_that_fits(decks, paper, bleed, most):
    with pytest.raises(ScrawlError) as error:
        deck_pages(decks["doodles"], paper, bleed=bleed)
    message = str(error.value)
    assert "\n" not in message
    assert f"--bleed {bleed:g} does not fit" in message and f"use at most {most} mm" in message
    assert deck_pages(decks["doodles"], paper, bleed=float(most))       # the stated bleed does fit


def test_a_bleed_too_big_for_a_fold_is_refused_too(decks):
    with pytest.raises(ScrawlError, match=r"at most \d+(\.\d)? mm"):
        deck_pages(decks["doodles"], "letter", bleed=3.0, backs="fold")


def test_a_negative_bleed_is_refused(decks):
    with pytest.raises(ScrawlError, match="negative"):
        deck_pages(decks["doodles"], "a4", bleed=-1.0)


def test_unknown_paper_or_backs_are_refused(decks):
    with pytest.raises(ScrawlError, match="paper"):
        deck_pages(decks["doodles"], "a3")
    with pytest.raises(ScrawlError, match="backs"):
        deck_pages(decks["doodles"], "a4", backs="simplex")


def test_bleed_2_on_a4_spaces_the_cards_4_mm_apart(decks, pdfs):
    page = deck_pages(decks["doodles"], "a4", bleed=2.0)[0]
    rects = [p.rect for p in page.placements]
    assert rects[1].x - rects[0].right == pytest.approx(4.0)
    assert rects[3].y - rects[0].bottom == pytest.approx(4.0)
    assert len(PdfReader(pdfs("doodles", bleed=2.0)).pages) == 8


# -- what is printed ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,low_ink", [(name, False) for name in DECKS] + [("monsters-reference", True)])
def test_every_font_is_embedded_and_none_is_a_standard_font(pdfs, name, low_ink):
    fonts = pdf_fonts(pdfs(name, low_ink=low_ink))
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert not [font for font, _ in fonts if any(std in font for std in STANDARD_FONTS)]


def test_same_arguments_give_identical_bytes(tmp_path, decks):
    first, second = tmp_path / "one.pdf", tmp_path / "two.pdf"
    render_deck(decks["traps"], first, paper="letter", bleed=1.0, backs="fold", low_ink=True)
    render_deck(decks["traps"], second, paper="letter", bleed=1.0, backs="fold", low_ink=True)
    assert first.read_bytes() == second.read_bytes()


def darkness(path, index):
    page = pdfium.PdfDocument(path)[index]
    return 255 - np.asarray(page.render(scale=0.5, grayscale=True).to_pil().convert("L")).mean()


@pytest.mark.parametrize("name", DECKS)
def test_low_ink_prints_far_less_ink(pdfs, name):
    full, low = pdfs(name), pdfs(name, low_ink=True)
    assert darkness(low, 1) < darkness(full, 1) / 4      # the backs: no solid pattern
    assert darkness(low, 0) < darkness(full, 0) * 0.6    # the fronts: text stays, bands and backgrounds go


def test_every_card_title_and_the_footer_are_on_their_page(pdfs, decks):
    for name in DECKS:
        path = pdfs(name)
        pages = deck_pages(decks[name], "a4")
        reader = PdfReader(path)
        for page, printed in zip(pages, reader.pages):
            text = printed.extract_text()
            assert f"page {page.number} of {len(pages)}" in text and "A4" in text and "bleed 0 mm" in text
            assert ("fronts" if page.side == "front" else "backs") in text
            for placement in page.placements:
                expected = placement.card.title if placement.face == "front" else decks[name].name
                assert expected in text, f"{name} page {page.number} lacks {expected!r}"


def test_the_trap_cards_print_their_labelled_sections(pdfs, decks):
    text = PdfReader(pdfs("traps")).pages[0].extract_text()
    for label in ("DODGE", "EFFECT", "HELPS"):
        assert text.count(label) == 9
    trapdoor = decks["traps"].card("trapdoor")
    assert trapdoor.fields["dodge"] in text


def test_path_segment_cards_show_the_pen_stroke_to_their_exits(pdfs, decks):
    """On each segment card, the pen stroke reaches exactly the card's exit sides."""
    dpi = 150
    pages = deck_pages(decks["doodles"], "a4")
    document = pdfium.PdfDocument(pdfs("doodles"))
    seen = set()
    for page_index, page in enumerate(pages):
        if page.side != "front":
            continue
        image = np.asarray(document[page_index].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
        px = lambda v: int(round(v * dpi / 25.4))  # noqa: E731 - millimetres to pixels
        for placement in page.placements:
            card = placement.card
            if card.kind != "segment" or card.id in seen:
                continue
            seen.add(card.id)
            room = cardart.ART.grown(-2.5)
            cx, cy = placement.rect.x + room.centre[0], placement.rect.y + room.centre[1]
            for side, (dx, dy) in {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}.items():
                x, y = cx + dx * room.w * 0.35, cy + dy * room.h * 0.35
                r, g, b = image[px(y), px(x)]
                inked = b - r > 60          # the pen's blue
                assert inked == (side in card.exits), f"{card.id}: side {side}"
    assert seen == {"straight", "corner", "t", "cross", "dead-end"}


def test_a_card_whose_text_cannot_fit_is_refused_and_nothing_is_written(tmp_path):
    deck = parse_deck({"id": "long", "name": "Long", "game": "doodles", "cards": [
        {"id": "wordy", "kind": "trap", "title": "Wordy", "text": "far too many words " * 80}]}, "test")
    path = tmp_path / "long.pdf"
    with pytest.raises(ScrawlError, match="'wordy'.*does not fit"):
        render_deck(deck, path)
    assert not path.exists()


# -- the deck files --------------------------------------------------------------------------------------

def test_the_trap_deck_has_a_dozen_original_traps_with_every_section(decks):
    deck = decks["traps"]
    assert deck.game == "dungeon-tiles"
    assert len(deck.cards) >= 12
    for card in deck.cards:
        assert card.kind == "dungeon-trap"
        assert all(card.fields[key].strip() for key in ("set", "dodge", "effect", "helps")), card.id
    dodges = [card.fields["dodge"] for card in deck.cards]
    assert any(d.startswith("Cannot be dodged") for d in dodges)
    assert any("Roll a die" in d for d in dodges)


def test_the_monster_reference_has_every_part_colour_and_the_order(decks):
    deck = decks["monsters-reference"]
    by_kind = {kind: [card for card in deck.cards if card.kind == kind] for kind in ("part", "colour", "order")}
    assert {card.title for card in by_kind["part"]} == {"Core", "Weapon", "Shield", "Combo", "Nullifier"}
    assert len(by_kind["colour"]) == 12
    assert len({card.fields["swatch"].lower() for card in by_kind["colour"]}) == 12
    assert all(card.text for card in by_kind["part"] + by_kind["colour"])
    after_attack = deck.card("after-an-attack")
    assert after_attack.kind == "order" and len(after_attack.fields["steps"]) == 7
