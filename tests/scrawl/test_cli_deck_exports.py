"""`scrawl deck` for print-on-demand services and fussy printers: card images, one page a card face, crop
marks to the paper's edge, backs moved for a drifting duplex, and a file name per variant."""
import pypdfium2 as pdfium
import pytest
from PIL import Image

from games.cards import load_deck
from generator.deck import POD_BLEED, deck_pages
from tests_support import run_cli as run


def test_png_writes_an_image_per_card_and_one_back_at_poker_size_with_bleed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "deck", "traps", "--format", "png")
    assert (code, err) == (0, "")
    folder = tmp_path / "output" / "deck-traps-png"
    images = sorted(folder.glob("*.png"))
    cards = load_deck("traps").physical_cards()
    assert len(images) == len(cards) + 1 and (folder / "back.png").is_file()
    assert {Image.open(path).size for path in images} == {(825, 1125)}      # 2.75 x 3.75 in at 300 dpi
    assert f"Wrote {len(cards) + 1} images to output/deck-traps-png/" in out


def test_dtc_is_one_page_a_face_back_then_front(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "deck", "--format", "dtc")
    assert (code, err) == (0, "")
    pdf = pdfium.PdfDocument(tmp_path / "output" / "deck-doodles-dtc.pdf")
    cards = load_deck("doodles").physical_cards()
    assert len(pdf) == 2 * len(cards)
    width, height = pdf[0].get_size()
    assert (width / 72 * 25.4, height / 72 * 25.4) == pytest.approx((63.5 + 2 * POD_BLEED, 88.9 + 2 * POD_BLEED))
    texts = [pdf[index].get_textpage().get_text_range() for index in range(4)]
    assert "Dungeon Deck" in texts[0] and "Dungeon Deck" in texts[2]           # a back ...
    assert cards[0].title.upper() in texts[1].upper() and cards[1].title.upper() in texts[3].upper()   # ... then its front


def test_full_crop_marks_reach_the_paper_edge_and_backs_move_by_the_offset():
    deck = load_deck("doodles")
    short = deck_pages(deck, "a4")
    full = deck_pages(deck, "a4", crop_marks="full", back_offset=(1.5, -0.5))
    assert max(mark[3] for mark in short[0].cut_marks) < short[0].height - 5
    ends = [min(mark[1], mark[3]) for mark in full[0].cut_marks if mark[0] == mark[2]]
    assert min(ends) <= 0.5                                                      # up to the top edge
    for before, after in zip(short[1].placements, full[1].placements):          # page 2: the backs
        assert (after.rect.x - before.rect.x, after.rect.y - before.rect.y) == pytest.approx((1.5, -0.5))
    assert [p.rect for p in short[0].placements] == [p.rect for p in full[0].placements]   # fronts stay


def test_each_variant_gets_its_own_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for args in ([], ["--backs", "fold"], ["--low-ink"], ["--bleed", "2"], ["--crop-marks", "full"],
                 ["--back-offset", "1,1"]):
        assert run(capsys, "deck", *args)[0] == 0
    names = sorted(path.name for path in (tmp_path / "output").glob("*.pdf"))
    assert names == sorted(["deck-doodles-a4.pdf", "deck-doodles-a4-fold.pdf", "deck-doodles-a4-low-ink.pdf",
                            "deck-doodles-a4-bleed2mm.pdf", "deck-doodles-a4-full-marks.pdf",
                            "deck-doodles-a4-offset.pdf"])


@pytest.mark.parametrize("value, message", [
    ("x", "--back-offset x: give two numbers of mm, right then down, like 1.5,-0.5"),
    ("20,0", "--back-offset 20,0: at most 10 mm either way"),
])
def test_a_bad_back_offset_is_one_line(tmp_path, monkeypatch, capsys, value, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "deck", "--back-offset", value)
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "output").exists()
