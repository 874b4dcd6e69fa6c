"""Printable card decks: poker cards, nine to a page, with cut marks, bleed and backs.

Two steps, as for the map sheet: ``deck_pages`` lays every page out as plain
data (which card goes where, the cut marks, the footer and the ruler, in
millimetres from the page's top-left corner), and ``render_deck`` draws those
pages; the card faces themselves come from ``generator.cardart``.

Backs:

- ``duplex``: every page of fronts is followed by a page of backs for the same
  cards, mirrored left to right (x becomes page width - x - card width), so each
  back lands on its front when the sheet is printed double-sided and flipped on
  the long edge.
- ``fold``: gutter fold on a landscape page: four fronts (2x2) on the left half,
  their backs mirrored across a dashed fold line on the right half. Fold the
  sheet on the line, glue or sleeve, then cut. Landscape gives four cards a
  page where a portrait page folded across holds only three, and its fold is
  one straight line down the middle that never crosses a card.
- ``none``: fronts only.

Cut marks are short lines in the page margin, in line with every card's trim
edges; none is ever drawn on a card or its bleed. With ``bleed`` > 0 each card's
background reaches that far beyond its trim and cards stand 2 x bleed apart,
so no card's bleed covers a neighbour; a bleed that would leave less than
MIN_MARGIN of paper around the cards is refused, naming the largest that fits.
The footer and the 50 mm ruler sit in the wider pair of margins (below and
above the cards on A4, beside them on Letter), never across a cut mark.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from games.cards import CardSpec, Deck
from games.errors import ScrawlError
from generator import cardart, fonts
from sheets.page import PAPERS, Rect
from generator.page import TEXT_GREY, Page

BACKS = ("duplex", "fold", "none")
CARD_W, CARD_H = cardart.CARD_W, cardart.CARD_H   # mm, poker size

MIN_MARGIN = 3.0      # paper left beyond the outermost bleed, for the cut marks
MARK_GAP = 1.0        # a cut mark starts this far from the cards' bleed...
MARK_LENGTH = 5.0     # ...and is at most this long
FOLD_GAP = 4.0        # between the fold line and the nearest card's bleed
FURNITURE_GAP = 1.5   # between the cards' bleed and the footer or the ruler
FURNITURE_DEPTH = 8.0
MARK_CLEARANCE = 2.5  # between a cut mark and the footer or the ruler
RULER_LENGTH = 50.0
LEADING = 1.16 * 25.4 / 72     # mm between footer lines, per point of type
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}


@dataclass(frozen=True)
class Placement:
    """One printed card face: the trimmed card's rectangle on the page, in mm."""

    card: CardSpec
    face: str          # "front" or "back"
    rect: Rect


@dataclass(frozen=True)
class DeckPage:
    """One page of a deck, everything in mm from the page's top-left corner."""

    number: int
    side: str                                   # "front", "back" or "fold" (both faces)
    placements: tuple[Placement, ...]
    paper: str
    width: float
    height: float
    bleed: float
    cut_marks: tuple[tuple[float, float, float, float], ...]   # x1, y1, x2, y2
    footer: Rect
    ruler: Rect
    along_side: bool                            # footer and ruler run up the side margins
    fold_x: float | None = None                 # the fold line of a gutter-fold page

    def bleed_rects(self) -> list[Rect]:
        """Every card's printed area: its trim grown by the bleed."""
        return [placement.rect.grown(self.bleed) for placement in self.placements]


@dataclass(frozen=True)
class _Grid:
    """Where the fronts of one full page go, and what the page looks like around them."""

    paper: str
    width: float
    height: float
    bleed: float
    slots: tuple[Rect, ...]
    extent: Rect                 # all cards of a full page, front and back, with their bleed
    fold_x: float | None


CROP_MARKS = ("short", "full")


def deck_pages(deck: Deck, paper: str, *, bleed: float = 0.0, backs: str = "duplex", crop_marks: str = "short",
               back_offset: tuple[float, float] = (0.0, 0.0)) -> list[DeckPage]:
    """Pure layout (no reportlab): which card goes where on which page, in mm from the page's top-left.
    ``crop_marks`` ``full`` runs each cut mark from the cards' bleed to the paper's edge (they survive the
    first cut); ``back_offset`` (mm, x right and y down) moves every back, for a printer whose duplex drifts.

    Raises ``ScrawlError`` for an unknown paper or backs, or a bleed that does not fit the paper.
    """
    if crop_marks not in CROP_MARKS:
        raise ScrawlError(f"unknown crop marks {crop_marks!r} (one of: {', '.join(CROP_MARKS)})")
    grid = _grid(paper, bleed, backs)
    cards = deck.physical_cards()
    per_page = len(grid.slots)
    faces = []
    for start in range(0, len(cards), per_page):
        chunk = cards[start:start + per_page]
        fronts = tuple(Placement(card, "front", slot) for card, slot in zip(chunk, grid.slots))
        mirrored = tuple(Placement(p.card, "back", _moved(_mirrored(p.rect, grid.width), back_offset))
                         for p in fronts)
        if backs == "fold":
            faces.append(("fold", fronts + mirrored))
        else:
            faces.append(("front", fronts))
            if backs == "duplex":
                faces.append(("back", mirrored))
    return [_page(grid, number, side, placements, crop_marks)
            for number, (side, placements) in enumerate(faces, start=1)]


def _moved(rect: Rect, offset: tuple[float, float]) -> Rect:
    return Rect(rect.x + offset[0], rect.y + offset[1], rect.w, rect.h)


def _grid(paper: str, bleed: float, backs: str) -> _Grid:
    if paper not in PAPERS:
        raise ScrawlError(f"unknown paper {paper!r} (papers: {', '.join(PAPERS)})")
    if backs not in BACKS:
        raise ScrawlError(f"unknown backs {backs!r} (backs: {', '.join(BACKS)})")
    if not bleed >= 0:
        raise ScrawlError(f"--bleed {bleed:g}: a bleed cannot be negative; use 0 for none")
    fold = backs == "fold"
    width, height = PAPERS[paper][::-1] if fold else PAPERS[paper]
    cols, rows = (2, 2) if fold else (3, 3)
    blocks, gutter = (2, 2 * FOLD_GAP) if fold else (1, 0.0)
    # Extent of the cards with their bleed: base + per_mm * bleed, across and down.
    across = (blocks * cols * CARD_W + gutter, blocks * cols * 2)
    down = (rows * CARD_H, rows * 2)
    most = min((width - 2 * MIN_MARGIN - across[0]) / across[1], (height - 2 * MIN_MARGIN - down[0]) / down[1])
    if bleed > most + 1e-9:
        what = (f"{cols}x{rows} folded card pairs on {PAPER_NAMES[paper]} landscape" if fold
                else f"{cols}x{rows} cards on {PAPER_NAMES[paper]}")
        most = math.floor(most * 10 + 1e-6) / 10      # a tenth of a millimetre, rounded down
        raise ScrawlError(f"--bleed {bleed:g} does not fit {what}: use at most {most:g} mm")
    extent_w, extent_h = across[0] + across[1] * bleed, down[0] + down[1] * bleed
    extent = Rect((width - extent_w) / 2, (height - extent_h) / 2, extent_w, extent_h)
    pitch_x, pitch_y = CARD_W + 2 * bleed, CARD_H + 2 * bleed
    slots = tuple(Rect(extent.x + bleed + col * pitch_x, extent.y + bleed + row * pitch_y, CARD_W, CARD_H)
                  for row in range(rows) for col in range(cols))
    return _Grid(paper, width, height, float(bleed), slots, extent, width / 2 if fold else None)


def _mirrored(rect: Rect, page_width: float) -> Rect:
    """Where a card's back goes: mirrored left to right, so it lands on its front (long-edge flip or fold)."""
    return Rect(page_width - rect.x - rect.w, rect.y, rect.w, rect.h)


def _page(grid: _Grid, number: int, side: str, placements: tuple[Placement, ...],
          crop_marks: str = "short") -> DeckPage:
    footer, ruler, along_side = _furniture(grid)
    marks = _cut_marks(grid, placements, full=crop_marks == "full")
    if crop_marks == "full":
        marks = tuple(kept for mark in marks if (kept := _short_of(mark, (footer, ruler))) is not None)
    return DeckPage(number=number, side=side, placements=placements, paper=grid.paper, width=grid.width,
                    height=grid.height, bleed=grid.bleed, cut_marks=marks,
                    footer=footer, ruler=ruler, along_side=along_side, fold_x=grid.fold_x)


def _short_of(mark: tuple[float, float, float, float], things: tuple[Rect, ...]):
    """A cut mark running out from the cards (its first point the nearer one), stopped MARK_CLEARANCE short
    of the first of ``things`` it would cross; None when nothing of it is left."""
    x1, y1, x2, y2 = mark
    for thing in things:
        grown = thing.grown(MARK_CLEARANCE)
        if x1 == x2 and grown.x <= x1 <= grown.right:
            ends = sorted((y1, y2))
            if grown.y < ends[1] and grown.bottom > ends[0]:
                y2 = grown.bottom if y2 < y1 else grown.y
        elif y1 == y2 and grown.y <= y1 <= grown.bottom:
            ends = sorted((x1, x2))
            if grown.x < ends[1] and grown.right > ends[0]:
                x2 = grown.right if x2 < x1 else grown.x
    if abs(x2 - x1) + abs(y2 - y1) < 1.0 or (x2 - x1) * (mark[2] - mark[0]) < 0 or (y2 - y1) * (mark[3] - mark[1]) < 0:
        return None
    return (x1, y1, x2, y2)


def _cut_marks(grid: _Grid, placements, full: bool = False) -> tuple[tuple[float, float, float, float], ...]:
    """Lines in the margins, in line with each trim edge, starting just outside all the bleed: short ones,
    or (``full``) running on to the paper's edge. Each runs out from the cards (its first point nearer)."""
    e = grid.extent
    xs = sorted({round(v, 4) for p in placements for v in (p.rect.x, p.rect.right)})
    ys = sorted({round(v, 4) for p in placements for v in (p.rect.y, p.rect.bottom)})
    reach_y = e.y - MARK_GAP if full else min(MARK_LENGTH, e.y - MARK_GAP)
    reach_x = e.x - MARK_GAP if full else min(MARK_LENGTH, e.x - MARK_GAP)
    marks = []
    for x in xs:
        marks.append((x, e.y - MARK_GAP, x, e.y - MARK_GAP - reach_y))
        marks.append((x, e.bottom + MARK_GAP, x, e.bottom + MARK_GAP + reach_y))
    for y in ys:
        marks.append((e.x - MARK_GAP, y, e.x - MARK_GAP - reach_x, y))
        marks.append((e.right + MARK_GAP, y, e.right + MARK_GAP + reach_x, y))
    return tuple(marks)


def _furniture(grid: _Grid) -> tuple[Rect, Rect, bool]:
    """The footer and the ruler, in the wider pair of margins, each beside one column (or row) of cards.

    Beside a card the margin holds no cut mark, so neither ever crosses one.
    The footer goes below the cards (or left of them), the ruler above (or right).
    """
    e = grid.extent
    along_side = e.x > e.y
    cards = grid.slots + tuple(_mirrored(slot, grid.width) for slot in grid.slots)
    if along_side:
        spans = sorted({(round(r.y, 4), round(r.bottom, 4)) for r in cards})
    else:
        spans = sorted({(round(r.x, 4), round(r.right, 4)) for r in cards})
    first, second = spans[(len(spans) - 1) // 2], spans[len(spans) // 2]
    depth = min(FURNITURE_DEPTH, (e.x if along_side else e.y) - FURNITURE_GAP - 1.0)

    def along(span, start):
        lo, hi = span[0] + MARK_CLEARANCE, span[1] - MARK_CLEARANCE
        return Rect(start, lo, depth, hi - lo) if along_side else Rect(lo, start, hi - lo, depth)

    if along_side:
        return (along(first, e.x - FURNITURE_GAP - depth), along(second, e.right + FURNITURE_GAP), True)
    return (along(first, e.bottom + FURNITURE_GAP), along(second, e.y - FURNITURE_GAP - depth), False)


# -- drawing --------------------------------------------------------------------------

def render_deck(deck: Deck, path, *, paper: str = "a4", bleed: float = 0.0, backs: str = "duplex",
                low_ink: bool = False, crop_marks: str = "short",
                back_offset: tuple[float, float] = (0.0, 0.0)) -> list[DeckPage]:
    """Write the deck's PDF to ``path``; same arguments give identical bytes. Returns the pages.

    Raises ``ScrawlError`` (and writes nothing) for a bleed that does not fit or a card
    whose text does not fit on it.
    """
    pages = deck_pages(deck, paper, bleed=bleed, backs=backs, crop_marks=crop_marks, back_offset=back_offset)
    style = cardart.CardStyle.for_deck(deck, low_ink=low_ink)
    fonts.register_fonts()
    canvas = Canvas(str(Path(path)), pagesize=(pages[0].width * mm, pages[0].height * mm), invariant=1,
                    initialFontName=fonts.BODY, pageCompression=1)
    canvas.setTitle(f"Dungeon Scrawl: {deck.name}")
    canvas.setAuthor("dungeon-scrawl")
    canvas.setSubject(f"{deck.name}, {deck.size()} cards, {PAPER_NAMES[paper]}, bleed {bleed:g} mm, "
                      f"backs: {backs}" + (", low ink" if low_ink else ""))
    canvas.setCreator("dungeon-scrawl")
    faces: set[str] = set()
    for page in pages:
        sheet = Page(canvas, page.height)
        for placement in page.placements:
            _draw_card(sheet, placement, page.bleed, style, faces)
        _draw_cut_marks(sheet, page)
        if page.fold_x is not None:
            _draw_fold_line(sheet, page)
        _draw_footer(sheet, page, deck, len(pages), backs)
        _draw_ruler(sheet, page)
        canvas.showPage()
    canvas.save()
    return pages


def _draw_card(sheet: Page, placement: Placement, bleed: float, style: cardart.CardStyle, faces: set[str]) -> None:
    """One card face. Each face is drawn once, as a form clipped to its bleed, and placed as often as printed."""
    c, rect = sheet.c, placement.rect
    name = "back" if placement.face == "back" else f"front-{placement.card.id}"
    if name not in faces:
        faces.add(name)
        c.beginForm(name, -bleed * mm, -bleed * mm, (CARD_W + bleed) * mm, (CARD_H + bleed) * mm)
        card = Page(c, CARD_H)       # the card's own millimetres, from the top-left corner of its trim
        if placement.face == "front":
            cardart.draw_front(card, placement.card, style, bleed=bleed)
        else:
            cardart.draw_back(card, style, bleed=bleed)
        c.endForm()
    c.saveState()
    c.translate(*sheet.pt(rect.x, rect.bottom))
    c.doForm(name)
    c.restoreState()


def _draw_cut_marks(sheet: Page, page: DeckPage) -> None:
    sheet.c.setStrokeGray(0)
    sheet.c.setLineWidth(0.25)
    for mark in page.cut_marks:
        sheet.line(*mark)


def _draw_fold_line(sheet: Page, page: DeckPage) -> None:
    """A dashed line down the middle of the gutter, and the words "fold here" beside it."""
    c, x = sheet.c, page.fold_x
    c.saveState()
    c.setStrokeGray(0.35)
    c.setLineWidth(0.4)
    c.setDash(4, 3)
    sheet.line(x, 0, x, page.height)
    c.restoreState()
    c.saveState()
    c.translate(*sheet.pt(x - 1.2, page.height / 2))
    c.rotate(90)
    c.setFillGray(0.35)
    c.setFont(fonts.ITALIC, 6.5)
    for offset in (-40, 0, 40):
        c.drawCentredString(offset * mm, 0, "fold here")
    c.restoreState()


def _frame(sheet: Page, rect: Rect, page: DeckPage) -> tuple[Page, float, float, bool]:
    """A page addressed in the rect's own mm, turned a quarter to read upwards in a side margin.

    Returns the page, its length (along the text), its depth, and whether its top
    (rather than its bottom) faces the cards. Pair with restoreState().
    """
    c = sheet.c
    c.saveState()
    if page.along_side:
        c.translate(*sheet.pt(rect.right, rect.bottom))
        c.rotate(90)
        return Page(c, rect.w), rect.h, rect.w, rect.x > page.width / 2
    c.translate(*sheet.pt(rect.x, rect.bottom))
    return Page(c, rect.h), rect.w, rect.h, rect.y > page.height / 2


def _draw_footer(sheet: Page, page: DeckPage, deck: Deck, pages: int, backs: str) -> None:
    """Which deck, page, side, paper and bleed this is, and how to print it: up to three short lines."""
    side = {"front": "fronts", "back": "backs", "fold": "fronts and backs"}[page.side]
    paper = PAPER_NAMES[page.paper] + (" landscape" if page.fold_x is not None else "")
    how = {"duplex": "print double-sided, flip on long edge", "fold": "fold on the dashed line, then cut"}
    lines = [(f"{deck.name}  \u00b7  page {page.number} of {pages}", fonts.BOLD),
             (f"{side}  \u00b7  {paper}  \u00b7  bleed {page.bleed:g} mm", fonts.BODY)]
    if backs in how:
        lines.append((how[backs], fonts.ITALIC))
    frame, length, depth, top_near = _frame(sheet, page.footer, page)
    frame.c.setFillGray(TEXT_GREY)
    size = _fitting_size(frame, lines, length, depth, 6.5)
    leading = size * LEADING
    top = 0.0 if top_near else depth - len(lines) * leading      # close to the cards, away from the paper's edge
    for i, (text, font) in enumerate(lines):
        frame.text(length / 2, top + (i + 0.75) * leading, text, font=font, size=size, align="centre")
    frame.c.restoreState()


def _draw_ruler(sheet: Page, page: DeckPage) -> None:
    """A 5 cm bar with millimetre ticks next to the cards, then its caption, to check the printer's scale."""
    frame, length, depth, top_near = _frame(sheet, page.ruler, page)
    c = frame.c
    out = 1 if top_near else -1                   # from the cards towards the paper's edge
    bar = 0.4 if top_near else depth - 0.4
    end_label = "50 mm"
    left = (length - RULER_LENGTH - 1.0 - frame.text_width(end_label, fonts.BODY, 5.5)) / 2
    c.setStrokeGray(TEXT_GREY)
    c.setFillGray(TEXT_GREY)
    c.setLineWidth(0.5)
    frame.line(left, bar, left + RULER_LENGTH, bar)
    c.setLineWidth(0.3)
    for i in range(int(RULER_LENGTH) + 1):
        tick = 2.4 if i % 10 == 0 else (1.6 if i % 5 == 0 else 0.9)
        frame.line(left + i, bar, left + i, bar + out * tick)
    frame.text(left + RULER_LENGTH + 1.0, bar + (2.0 if top_near else 0.0), end_label, font=fonts.BODY, size=5.5)
    label = "this bar should measure 50 mm: print at 100% / actual size"
    size = _fitting_size(frame, [(label, fonts.ITALIC)], length, depth, 6.0)
    frame.text(length / 2, bar + (5.0 if top_near else -3.2), label, font=fonts.ITALIC, size=size, align="centre")
    c.restoreState()


def _fitting_size(frame: Page, lines, length: float, depth: float, largest: float) -> float:
    """The largest size up to ``largest`` (down to 5 pt) at which the lines, (text, font) each, fill the frame."""
    size = largest
    while size > 5.0 and (len(lines) * size * LEADING > depth
                          or max(frame.text_width(text, font, size) for text, font in lines) > length):
        size -= 0.25
    return size


# -- one card a page, for print-on-demand services ----------------------------------------------------------

POD_TRIM = (63.5, 88.9)          # mm: poker size (2.5 x 3.5 in), as print-on-demand services cut it
POD_BLEED = 25.4 / 8             # mm: their 1/8 in of bleed on every side
POD_DPI = 300                    # card images: 825 x 1125 pixels


def card_faces(deck: Deck) -> list[tuple[str, CardSpec]]:
    """Every face of every card of the deck as services that print one page per face want them: each card's
    back, then its front."""
    return [(face, card) for card in deck.physical_cards() for face in ("back", "front")]


def render_card_faces(deck: Deck, path, *, low_ink: bool = False, faces=None) -> int:
    """A PDF of one page per card face (``card_faces``, or ``faces``), each page the poker card and 1/8 in of
    bleed (2.75 x 3.75 in): our 63 x 88 mm card in its middle, its art running on to the page's edge. Same
    arguments, same bytes. Returns the number of pages."""
    faces = card_faces(deck) if faces is None else faces
    style = cardart.CardStyle.for_deck(deck, low_ink=low_ink)
    fonts.register_fonts()
    width, height = (side + 2 * POD_BLEED for side in POD_TRIM)
    left, top = (width - CARD_W) / 2, (height - CARD_H) / 2
    canvas = Canvas(path if hasattr(path, "write") else str(Path(path)), pagesize=(width * mm, height * mm),
                    invariant=1, initialFontName=fonts.BODY, pageCompression=1)
    canvas.setTitle(f"Dungeon Scrawl: {deck.name}, one card face a page")
    canvas.setAuthor("dungeon-scrawl")
    canvas.setCreator("dungeon-scrawl")
    for face, card in faces:
        canvas.saveState()
        canvas.translate(left * mm, top * mm)
        page = Page(canvas, CARD_H)             # the card's own millimetres, from its trim's top-left corner
        if face == "front":
            cardart.draw_front(page, card, style, bleed=max(left, top))
        else:
            cardart.draw_back(page, style, bleed=max(left, top))
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return len(faces)


def write_card_images(deck: Deck, folder, *, low_ink: bool = False) -> list[Path]:
    """One PNG per card front (``NNN-ID.png``, in deck order, a copy per copy of the card) and one of the back
    (``back.png``), each 825 x 1125 pixels: poker size with 1/8 in of bleed at 300 dpi, as card printing
    services take them. Returns the files written."""
    import io

    import pypdfium2 as pdfium

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cards = deck.physical_cards()
    faces = [("back", cards[0])] + [("front", card) for card in cards]
    names = ["back.png"] + [f"{number:03d}-{card.id}.png" for number, card in enumerate(cards, start=1)]
    buffer = io.BytesIO()
    render_card_faces(deck, buffer, low_ink=low_ink, faces=faces)
    document = pdfium.PdfDocument(buffer.getvalue())
    written = []
    try:
        for index, name in enumerate(names):
            image = document[index].render(scale=POD_DPI / 72).to_pil().convert("RGB")
            size = (round((POD_TRIM[0] + 2 * POD_BLEED) / 25.4 * POD_DPI),
                    round((POD_TRIM[1] + 2 * POD_BLEED) / 25.4 * POD_DPI))
            if image.size != size:          # a pixel lost to rounding
                image = image.resize(size)
            image.save(folder / name, dpi=(POD_DPI, POD_DPI), optimize=True)
            written.append(folder / name)
    finally:
        document.close()
    return written
