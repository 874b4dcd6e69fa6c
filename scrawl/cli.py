"""The ``scrawl`` command: thin wrappers that turn options into calls and errors into one line.

Heavy libraries (reportlab, OpenCV) are imported inside the commands, so
``scrawl --help`` starts at once.
"""
from __future__ import annotations

import secrets
import sys
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from games.errors import ScrawlError
from scrawl.files import read_json

EXAMPLES = """\
Examples:

  scrawl sheet                          the classic map, one A4 page
  scrawl sheet --players 4 --paper letter
  scrawl sheet --map random --seed 1234
  scrawl deck                           the 36-card dungeon deck to print and cut
  scrawl deal                           no printer? a shuffled deck, round by round
  scrawl sight --map 3 C4 F7            line of sight: does C4 see F7?
  scrawl scan photos/*.jpg              score a game from phone photos of the sheets
  scrawl score game.json                score sheets typed in by hand
  scrawl loot --count 4                 Dungeon Maker sheets with random loot
  scrawl heroes dungeon.json            the Dungeon Maker hero phase, played and scored
  scrawl monsters --count 2             monster record sheets for two players
  scrawl battle roster.json             a monster dice battle, resolved
  scrawl serve --host 0.0.0.0           score game night from phones' photos

Files go to output/ unless you give -o. Each sheet has FILE.layout.json beside
it: where everything sits on the page, for the scanner and your own scripts.
"""

app = typer.Typer(
    name="scrawl",
    help="Print dungeon map sheets, card decks and Dungeon Maker sheets; deal the cards; score the games.",
    epilog=EXAMPLES,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,      # click's plain help: no rich to import (--help in about 0.1 s), and lines
                                # broken between words at any width
    context_settings={"help_option_names": ["-h", "--help"]},
)


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"dungeon-scrawl {version('dungeon-scrawl')}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """Print dungeon map sheets, card decks and Dungeon Maker sheets; deal the cards; score the games."""


SHEET_EXAMPLES = """\
Examples:

  scrawl sheet                          classic map, A4, one player
  scrawl sheet --players 4              four pages, Player 1 to 4, one game code on all
  scrawl sheet --names "Ann,Bo,Cy"      three pages, each with its player's name
  scrawl sheet --game K7QX --players 4  game K7QX's sheets again (a lost or spoilt sheet)
  scrawl sheet --map random             a new random dungeon; its seed is printed
  scrawl sheet --map random --seed 1234 --paper letter
  scrawl sheet --map 5 --players 3      expansion map 5 (Diamonds, doors, the Skull, Emeralds)
  scrawl sheet --map random --features diamonds,caves,doors
  scrawl sheet --map my-map.toml -o output/my-map.pdf

Expansion maps: 1 is plain; 2 adds cave entrances and Diamonds; 3 and 4 add
Magic Doors and the Skull with its coins; 5 adds Cursed Emeralds and the Curse
Track; 6 adds Rune Gates. Maps 2-6 are played with the die: 'scrawl deal --map N'
rolls it for you.

Every run prints a new game code on its pages (and in their QR codes), so that
'scrawl scan' scores each game's sheets together even when the photos of
several tables are scanned at once. The code and the names are kept in a game
book in your data folder, where 'scrawl scan' finds the names again.
"""


@app.command(epilog=SHEET_EXAMPLES)
def sheet(
    map_name: Annotated[str, typer.Option(
        "--map", "-m", metavar="classic|1..6|random|FILE.toml",
        help="Which map: the classic map, expansion map 1-6, a random one, or a map file of your own.")
    ] = "classic",
    seed: Annotated[Optional[int], typer.Option(
        min=0, help="Seed of a random map. Leave it out for a new map; the seed is printed on the sheet.")] = None,
    features: Annotated[Optional[str], typer.Option(
        metavar="diamonds,caves,doors,skull,emeralds,runes",
        help="With --map random: the expansion elements the random map has (any of them, comma-separated).")
    ] = None,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.a4,
    players: Annotated[Optional[int], typer.Option(
        "--players", "-p", min=1, max=20, show_default="1, or one per name",
        help="Pages to print, one per player, numbered.")] = None,
    names: Annotated[Optional[str], typer.Option(
        metavar='"Ann,Bo,Cy"', help="The players' names, printed on their pages (one page each).")] = None,
    game_code: Annotated[Optional[str], typer.Option(
        "--game", metavar="CODE", show_default="a new code",
        help="The game code to print (as on a sheet already printed): to reprint a game's sheets.")] = None,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="FILE.pdf", help="Where to write the PDF. Default: output/sheet-MAP-PAPER.pdf")
    ] = None,
) -> None:
    """Make dungeon map sheets (PDF), one page per player, with FILE.layout.json beside it."""
    from games.mapfile import choose_map
    from games.maps import FEATURES
    from sheets.dungeon import sheet_layout
    from scrawl.blanks import keep_blank
    from generator.sheet import render_sheets

    printed = _printed_game(names, players, game_code)
    players, code = printed.players, printed.code
    if map_name == "random" and seed is None:
        seed = secrets.randbelow(1_000_000)
    dungeon = choose_map(map_name, seed, features)
    name = f"random-{dungeon.seed}" if dungeon.seed is not None else dungeon.id
    if dungeon.seed is not None and dungeon.features:
        name += "-" + "-".join(f for f in FEATURES if f in dungeon.features)
    stem = f"sheet-{name}-{paper.value}"

    pdf_path = _pdf_path(output, stem)
    layout_path = pdf_path.with_suffix(".layout.json")
    layout = sheet_layout(dungeon, paper.value)
    with _writing(pdf_path):
        render_sheets(layout, players, pdf_path, code, printed.names)
        _write_json(layout_path, layout.to_json(players, code, printed.names))
    keep_blank("map", layout)        # the sheets' photos are then read without drawing it again
    problem = _record_game(printed, dungeon, paper.value)

    pages = f"{players} page{'s' if players > 1 else ''}"
    typer.echo(f"Wrote {pdf_path} ({pages}, {paper.value.upper()}, {dungeon.name}), game {code}")
    typer.echo(f"Layout {layout_path}")
    if problem:
        typer.echo(f"Warning: {problem}", err=True)
    if dungeon.seed is not None:
        again = f"--map random --seed {dungeon.seed}" + (f" --features {features}" if dungeon.features else "") \
            + (f" --paper {paper.value}" if paper.value != "a4" else "")
        typer.echo(f"Seed {dungeon.seed}: run with {again} to print this dungeon again")


def _printed_game(names: str | None, players: int | None, code: str | None):
    """The game ``scrawl sheet`` prints (``scrawl.gamebook.PrintedGame``): its code, player count and names."""
    from sheets.page import game_code as as_game_code, new_game_code
    from scrawl.gamebook import PrintedGame, parse_names

    listed = ()
    if names is not None:
        try:
            listed = parse_names(names)
        except ValueError as exc:
            raise ScrawlError(f"--names: {exc}") from None
        if players is not None and players != len(listed):
            raise ScrawlError(f"--names gives {len(listed)} names but --players is {players}: give one name per "
                              f"player, or leave --players out")
    try:
        code = as_game_code(code) if code is not None else new_game_code()
    except ValueError as exc:
        raise ScrawlError(f"--game: {exc}") from None
    if names is None:       # a game printed again keeps the names the book has for it
        from scrawl.gamebook import read_book

        listed = read_book().get(code, PrintedGame(code)).names
        listed = listed[:players] if players else listed
    return PrintedGame(code, players=players or len(listed) or 1, names=listed)


def _record_game(printed, dungeon, paper: str) -> str | None:
    """Keep the printed game in the game book, so that its sheets' photos are named when scanned."""
    from games.mapfile import map_reference
    from scrawl.gamebook import PrintedGame, record_game

    return record_game(PrintedGame(printed.code, map_reference(dungeon), paper, printed.players, printed.names))


class DeckName(str, Enum):
    doodles = "doodles"
    traps = "traps"
    monsters_reference = "monsters-reference"


class Backs(str, Enum):
    duplex = "duplex"
    fold = "fold"
    none = "none"


DECK_EXAMPLES = """\
Examples:

  scrawl deck                           the dungeon deck, A4, backs for double-sided printing
  scrawl deck traps --paper letter
  scrawl deck doodles --backs fold      print one-sided, fold each page in half, glue
  scrawl deck doodles --bleed 2         2 mm of bleed for a print shop
  scrawl deck monsters-reference --low-ink
  scrawl deck --crop-marks full --back-offset 1.5,-0.5   a duplex that drifts
  scrawl deck --format png              one 825 x 1125 image a card, for a card printer
  scrawl deck --format dtc              one page a card face, back then front

Print at 100% ("actual size"): each page has a 50 mm calibration ruler.
Duplex back pages are mirrored for flipping on the long edge. Each variant
gets its own default file name (deck-doodles-a4-fold.pdf, ...). png and dtc
are poker size (2.5 x 3.5 in) with 1/8 in of bleed, as print-on-demand
services ask: png for those that take an image a card (The Game Crafter,
MakePlayingCards), dtc for those that take a PDF a card (DriveThruCards).
"""


class DeckFormat(str, Enum):
    pdf = "pdf"
    png = "png"
    dtc = "dtc"


class CropMarks(str, Enum):
    short = "short"
    full = "full"


@app.command(epilog=DECK_EXAMPLES)
def deck(
    name: Annotated[DeckName, typer.Argument(
        metavar="DECK",
        help="doodles: the 36 cards the dungeon map game is played with (one flipped a round); traps: trap "
             "cards for a dungeon-tile adventure game, shuffled into its monster deck (line of sight: scrawl "
             "sight); monsters-reference: the monster dice game's part types, core colours and order of play, "
             "one rule a card.")] = DeckName.doodles,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.a4,
    bleed: Annotated[float, typer.Option(
        metavar="MM", help="Art beyond each card's cut line, in mm (0 for home printing).")] = 0.0,
    backs: Annotated[Backs, typer.Option(
        case_sensitive=False, help="duplex: a mirrored back page after each front page; "
                                   "fold: fronts and backs on one page to fold; none: fronts only.")] = Backs.duplex,
    low_ink: Annotated[bool, typer.Option("--low-ink", help="Outlines instead of filled areas.")] = False,
    crop_marks: Annotated[CropMarks, typer.Option(
        "--crop-marks", case_sensitive=False,
        help="short: marks beside the cards; full: marks run on to the paper's edge, so they are still there "
             "after the first cut.")] = CropMarks.short,
    back_offset: Annotated[Optional[str], typer.Option(
        "--back-offset", metavar="X,Y",
        help="Move every back this many mm right and down (negative: left, up), for a printer whose duplex "
             "lands the backs off their fronts.")] = None,
    deck_format: Annotated[DeckFormat, typer.Option(
        "--format", case_sensitive=False,
        help="pdf: sheets of 9 cards to print and cut; png: a folder of card images; dtc: one PDF page a card "
             "face.")] = DeckFormat.pdf,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="PATH",
        help="Where to write. Default: output/deck-NAME-PAPER.pdf with the variant added (-fold, -fronts, "
             "-low-ink, -bleed2mm, -full-marks, -offset); output/deck-NAME-dtc.pdf; the folder "
             "output/deck-NAME-png/.")] = None,
) -> None:
    """Make a printable card deck (PDF): poker-size cards, 3x3 a page, with cut marks; or the cards one by
    one for a print-on-demand service."""
    from games.cards import load_deck

    cards = load_deck(name.value)
    offset = _offset_option(back_offset)
    ink = "-low-ink" if low_ink else ""
    if deck_format is DeckFormat.png:
        _deck_images(cards, output or Path("output") / f"deck-{name.value}-png{ink}", low_ink)
        return
    if deck_format is DeckFormat.dtc:
        from generator.deck import render_card_faces

        pdf_path = _pdf_path(output, f"deck-{name.value}-dtc{ink}")
        with _writing(pdf_path):
            count = render_card_faces(cards, pdf_path, low_ink=low_ink)
        typer.echo(f"Wrote {pdf_path} ({cards.name}: {count} pages, each card's back then its front, "
                   f"2.75 x 3.75 in: poker size with 1/8 in bleed)")
        return
    _deck_sheets(cards, name.value, paper.value, bleed, backs.value, low_ink, crop_marks.value, offset, output)


def _offset_option(text: str | None) -> tuple[float, float]:
    """``--back-offset X,Y`` in mm; a line saying what is wrong otherwise."""
    if text is None:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise ScrawlError(f"--back-offset {text}: give two numbers of mm, right then down, like 1.5,-0.5") \
            from None
    if abs(x) > 10 or abs(y) > 10:
        raise ScrawlError(f"--back-offset {text}: at most 10 mm either way (a duplex drifts by a few mm)")
    return (x, y)


def _deck_sheets(cards, name: str, paper: str, bleed: float, backs: str, low_ink: bool, crop_marks: str,
                 offset: tuple[float, float], output: Optional[Path]) -> None:
    """``scrawl deck`` as sheets of cards to print and cut, named by their variant unless ``-o`` names them."""
    from generator.deck import deck_pages, render_deck

    variant = ({"fold": "-fold", "none": "-fronts"}.get(backs, "") + ("-low-ink" if low_ink else "")
               + (f"-bleed{bleed:g}mm" if bleed else "") + ("-full-marks" if crop_marks == "full" else "")
               + ("-offset" if offset != (0.0, 0.0) else ""))
    pdf_path = _pdf_path(output, f"deck-{name}-{paper}{variant}")
    # a bleed that does not fit fails here, before anything is written
    deck_pages(cards, paper, bleed=bleed, backs=backs, crop_marks=crop_marks, back_offset=offset)
    with _writing(pdf_path):
        pages = render_deck(cards, pdf_path, paper=paper, bleed=bleed, backs=backs, low_ink=low_ink,
                            crop_marks=crop_marks, back_offset=offset)
    typer.echo(f"Wrote {pdf_path} ({cards.name}: {cards.size()} cards on {len(pages)} pages, "
               f"{paper.upper()}, backs {backs})")
    typer.echo("Print at 100% (actual size); the ruler on each page should measure 50 mm.")


def _deck_images(cards, folder: Path, low_ink: bool) -> None:
    """``scrawl deck --format png``: a folder of card images."""
    from generator.deck import write_card_images

    if folder.exists() and not folder.is_dir():
        raise ScrawlError(f"-o {folder}: this is a file; name a folder for the card images (it is made if missing)")
    try:
        written = write_card_images(cards, folder, low_ink=low_ink)
    except OSError as exc:
        raise ScrawlError(f"cannot write {folder}: {exc.strerror or exc}") from None
    typer.echo(f"Wrote {len(written)} images to {folder}/ ({cards.name}: {len(written) - 1} card fronts and "
               f"back.png, 825 x 1125 pixels: poker size with 1/8 in bleed at 300 dpi)")


DEAL_EXAMPLES = """\
Examples:

  scrawl deal                           a new shuffle; its seed is printed
  scrawl deal --seed 1234               the same deal again, for everyone at the table
  scrawl deal --solo                    a solo game: the Trap cards are taken out
  scrawl deal --seed 1234 --json        the deal as JSON, for scripts
  scrawl deal --map 5                   expansion map 5: also rolls the die each round and says
                                        which Diamond to cross out, which doors are open and
                                        what to fill in on the Curse Track
"""


@app.command(epilog=DEAL_EXAMPLES)
def deal(
    seed: Annotated[Optional[int], typer.Option(
        min=0, help="Seed of the shuffle. Leave it out for a new one; it is printed so the deal can be replayed.")
    ] = None,
    solo: Annotated[bool, typer.Option("--solo", help="One player: take the Trap cards out.")] = False,
    map_name: Annotated[Optional[str], typer.Option(
        "--map", "-m", metavar="1..6|classic|FILE.toml",
        help="The map being played. On expansion maps 2-6 the die is rolled each round too.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the deal as one JSON document.")] = False,
) -> None:
    """Shuffle the dungeon deck and deal the seven rounds: the cards everyone draws, round by round (and on
    expansion maps, the die's roll and what it makes everyone cross out and fill in)."""
    import json

    from games.cards import load_deck
    from games.deal import deal as deal_cards
    from games.mapfile import choose_map
    from scrawl.report import deal_table

    if map_name == "random":
        raise ScrawlError("scrawl deal --map takes a map that is the same for everyone: classic, 1..6 or a map "
                          "file (a random map's die needs its seed: use --map FILE.toml)")
    dungeon = choose_map(map_name) if map_name else None
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    game = deal_cards(load_deck("doodles"), seed, solo=solo, dungeon=dungeon)
    if as_json:
        typer.echo(json.dumps(game.to_json(), indent=1))
    else:
        replay = f"scrawl deal --seed {seed}{' --solo' if solo else ''}{f' --map {map_name}' if map_name else ''}"
        typer.echo(deal_table(game, replay=replay))


SIGHT_EXAMPLES = """\
Examples:

  scrawl sight C4 F7                    does C4 see F7 on the classic map? why (not)?
  scrawl sight C4                       every room C4 sees, marked on a picture of the map
  scrawl sight --map random --seed 1234 B2 G7
  scrawl sight --map 3 C4 --json        the answer as JSON, for scripts

The line runs from the centre of one room to the centre of the other. Only
walls and Magic Doors block it; Rune Gates are bars you see through; a cave
entrance is drawn on a wall, and the wall still blocks.

A line that passes exactly through a corner where sides meet sees past it if
it could slip by on one side or the other without crossing a wall or door:
two walls meeting on one side of the corner do not block it, walls on both
sides do.
"""


@app.command(epilog=SIGHT_EXAMPLES)
def sight(
    rooms: Annotated[list[str], typer.Argument(
        metavar="ROOM", help="One room: every room it sees. Two rooms: does the first see the second?")],
    map_name: Annotated[str, typer.Option(
        "--map", "-m", metavar="classic|random|1..6|FILE.toml",
        help="Which map: the classic map, a random one (with --seed), an expansion map or a map file.")
    ] = "classic",
    seed: Annotated[Optional[int], typer.Option(min=0, help="Seed of a random map, as printed on its sheet.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as one JSON document.")] = False,
) -> None:
    """Line of sight between rooms of a map: only walls and doors block it."""
    import json

    from games import sight as los
    from games.mapfile import choose_map, map_reference

    if len(rooms) > 2:
        raise ScrawlError(f"give one room or two, not {len(rooms)} ({' '.join(rooms)})")
    if map_name == "random" and seed is None:
        raise ScrawlError("--map random needs --seed N, the seed printed on the sheet")
    dungeon = choose_map(map_name, seed)
    origin, *target = (los.parse_room(dungeon, name) for name in rooms)
    if target:
        seen = los.sight(dungeon, origin, target[0])
        if as_json:
            blocked = seen.blocked_by and dict(zip(("where", "what"), seen.blocked_by))
            typer.echo(json.dumps({"format": "scrawl.sight/1", "map": map_reference(dungeon), "from": origin.name,
                                   "to": seen.b.name, "sees": seen.clear, "blocked_by": blocked,
                                   "crossed": list(seen.crossed), "rooms": [room.name for room in seen.rooms]},
                                  indent=1))
            return
        marks = {room: "*" for room in seen.rooms}
        marks.update({seen.b: "o" if seen.clear else "x", origin: "@"})
        key = [("@", origin.name), ("o" if seen.clear else "x", f"{seen.b.name} ({'' if seen.clear else 'not '}seen)"),
               ("*", "rooms on the line")]
        typer.echo(los.describe(dungeon, seen))
    else:
        visible = los.visible_from(dungeon, origin)
        if as_json:
            typer.echo(json.dumps({"format": "scrawl.sight/1", "map": map_reference(dungeon), "from": origin.name,
                                   "visible": [room.name for room in visible]}, indent=1))
            return
        marks = {**{room: "o" for room in visible}, origin: "@"}
        key = [("@", origin.name), ("o", "seen"), (".", "not seen")]
        listed = ", ".join(room.name for room in visible)
        count = f"{len(visible)} other room{'s' if len(visible) != 1 else ''}"
        typer.echo(f"{origin.name} sees {count} of {dungeon.name}: {listed}" if visible else
                   f"{origin.name} sees no other room of {dungeon.name}")
    typer.echo("")
    typer.echo(los.picture(dungeon, marks))
    typer.echo(los.legend(dungeon, key))


SCORE_EXAMPLES = """\
Examples:

  scrawl score game.json                the breakdown of every sheet, traps resolved
  scrawl score game.json --json         the same document with scores filled in

A sheet written by hand (rooms hold the sides each segment links to, letters
from NESW; a Trap is "trap": true):

  {"format": "scrawl.scan/1", "sheets": [
    {"source": "anna", "map": {"id": "classic"}, "player": 1, "unusable": 1,
     "rooms": {"C1": {"exits": "NS", "round": 1},
               "C2": {"exits": "NE", "round": 2},
               "A1": {"trap": true, "round": 3}}}]}

Exit code 1 when a sheet breaks a drawing rule (listed under needs_review).
"""


@app.command(epilog=SCORE_EXAMPLES)
def score(
    state: Annotated[Path, typer.Argument(metavar="STATE.json", help="Sheets of one game: scrawl.scan/1 JSON, typed by hand or written by the scanner.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the document with scores filled in.")] = False,
) -> None:
    """Check and score the sheets of one game: every rule, every scoring item, traps between players."""
    import json

    from games.state import game_json, read_game
    from scrawl.report import score_report
    from games.game import score_document

    document = read_json(state)
    sheets, errors = read_game(document, str(state))
    if not sheets:
        reasons = "; ".join(entry.get("error", "") for entry in errors) or "it lists no sheets"
        raise ScrawlError(f"{state}: no sheet could be scored: {reasons}")
    results, errors = score_document(document, scanned=False)
    if as_json:
        typer.echo(json.dumps(game_json(results, errors), indent=1, ensure_ascii=False))
    else:
        typer.echo(score_report(results, errors))
    if errors or any(result.review for result in results):
        raise typer.Exit(1)


SCAN_EXAMPLES = """\
Examples:

  scrawl scan anna.jpg bo.jpg chidi.heic        score three players' sheets of one game
  scrawl scan photos/*.jpg --overlay output/    and write what was read over each sheet
  scrawl scan game.pdf --json > game.json       a PDF of scanned sheets; the JSON for scripts
  scrawl scan map5/*.jpg --rolls 3,5,1,6,2,2,4  an expansion map: check the marks against the rolls
  scrawl scan smudged-qr.jpg --map 5            a sheet whose QR code is unreadable: name its map
  scrawl scan tables/*/*.jpg                    several games at once: each game code scored apart
  scrawl scan old/*.jpg --names "Ann,Bo,Cy"     name the players (player 1 first)

Photograph the whole sheet from above with all four black corner squares in
the frame. Traps are resolved between the sheets of one game (one game code),
so give every player's photo of a game together; a photo given twice, or two
sheets of one player, are flagged duplicate_sheet. Monster record sheets (scrawl monsters)
are read too: their rosters go under "rosters" in the JSON, one per player, for
scrawl battle. So are Dungeon Maker sheets (scrawl loot): each dungeon and its
score go under "dungeons". Exit code 1: a sheet needs a person's look (listed under NEEDS
REVIEW, ringed in the overlay); 2: nothing could be read.
"""


@app.command(epilog=SCAN_EXAMPLES)
def scan(
    photos: Annotated[list[Path], typer.Argument(
        metavar="PHOTO...", help="Photos of the finished sheets: JPEG, PNG, WebP, HEIC, or a PDF of scans.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scan document (scrawl.scan/1) instead of the table.")] = False,
    overlay: Annotated[Optional[Path], typer.Option(
        "--overlay", metavar="DIR", help="Write, per sheet, a PNG of what was read drawn over the sheet.")] = None,
    jobs: Annotated[Optional[int], typer.Option(
        min=1, max=64, show_default="one per core",
        help="Photos read at once: this process and JOBS - 1 more (from 3 photos on).")] = None,
    rolls: Annotated[Optional[str], typer.Option(
        metavar="3,5,1,...",
        help="Expansion maps: the die's rolls, round 1 first. Crossed-out Diamonds and Emeralds, the Curse "
             "Track and the Magic Doors crossed are checked against them; disagreements are listed for review.")
    ] = None,
    map_name: Annotated[Optional[str], typer.Option(
        "--map", "-m", metavar="classic|1..6|random|FILE.toml",
        help="The game's map, for a sheet whose QR code cannot be read (otherwise the map of the other sheets "
             "is used). With random, give --seed too.")] = None,
    seed: Annotated[Optional[int], typer.Option(min=0, help="With --map random: the seed printed on the sheet.")
    ] = None,
    names: Annotated[Optional[str], typer.Option(
        metavar='"Ann,Bo,Cy"', help="The players' names, player 1 first (instead of those 'scrawl sheet' "
                                    "kept in the game book).")] = None,
) -> None:
    """Read photographed sheets of one game and score them: paths, traps, tallies, round numbers, and on
    expansion maps the crossed-out Diamonds and Emeralds, the Curse Track and the Rune Gates; and the
    monsters, dice and damage of monster record sheets."""
    import json

    from games.die import parse_rolls
    from games.rules import ROUNDS
    from scrawl.service import scan_game

    rolled = parse_rolls(rolls, ROUNDS) if rolls is not None else None
    listed = _names_option(names)
    if overlay is not None:
        _overlay_folder(overlay)
    if map_name == "random" and seed is None:
        raise ScrawlError("scrawl scan --map random needs the seed printed on the sheet: add --seed N")
    hint = None
    if map_name is not None:
        from games.mapfile import choose_map

        hint = choose_map(map_name, seed, None)
    sources = [str(path) for path in photos]
    game = scan_game(sources, overlays=overlay is not None, jobs=jobs, map_hint=hint, rolls=rolled, names=listed,
                     progress=_progress_bar("scanning", "photos") if len(sources) > 3 else None)
    if game.read_nothing:
        if as_json:
            typer.echo(json.dumps(game.document, indent=1, ensure_ascii=False))
        reasons = "; ".join(f"{entry['source']}: {entry['error']}" for entry in game.errors)
        raise ScrawlError(f"no sheet could be read: {reasons}")
    if overlay is not None and (game.results or game.dungeons or game.rosters):
        _write_overlays(overlay, game.overlays())
    if as_json:
        typer.echo(json.dumps(game.scored, indent=1, ensure_ascii=False))
    else:
        typer.echo(_scan_report(game, overlay))
    if game.needs_review:
        raise typer.Exit(1)


def _names_option(names: str | None) -> tuple[str, ...]:
    from scrawl.gamebook import parse_names

    try:
        return parse_names(names) if names is not None else ()
    except ValueError as exc:
        raise ScrawlError(f"--names: {exc}") from None


def _scan_report(game, overlay: Optional[Path]) -> str:
    """What ``scrawl scan`` prints of a scanned game (``scrawl.service.ScannedGame``): the score table, the
    files not read, each monster record sheet's roster, and where the overlays went."""
    from scrawl.report import score_report

    parts = []
    if game.results:
        parts.append(score_report(game.results, game.errors))
    elif game.errors:
        parts.append("\n".join(f"NOT READ {entry.get('source', '?')}: {entry.get('error', '')}"
                               for entry in game.errors))
    for entry in game.rosters:
        parts.append(("\n" if game.results or game.errors or entry is not game.rosters[0] else "")
                     + _roster_table(entry))
    if game.dungeons:
        from games.maker import load_maker
        from scrawl.maker_report import dungeon_report

        for entry in game.dungeons:
            parts.append(("\n" if parts else "") + dungeon_report(entry, load_maker()))
    if overlay is not None and (game.results or game.dungeons or game.rosters):
        parts.append(f"\nOverlays: {overlay}/")
    return "\n".join(parts)


def _roster_table(entry: dict) -> str:
    """A scanned monster record sheet as people read it: each monster's parts with die and damage, the
    pools, and what needs a look."""
    player = entry["roster"]["players"][0]
    sources = ", ".join(entry.get("sources", [entry["source"]]))
    monsters = player["monsters"]
    lines = [f"{sources} (player {entry['player']}), monster record sheet: "
             f"{len(monsters)} monster{'s' if len(monsters) != 1 else ''}"]
    for number, monster in enumerate(monsters, start=1):
        parts = [("core", monster["core"])] + [(part.get("type") or "?", part) for part in monster["parts"]]
        for index, (kind, part) in enumerate(parts):
            label = f"monster {number}" if index == 0 else ""
            die = part.get("die") or "?"
            sides = die.split()[0][1:] if die != "?" else "?"
            lines.append(f"  {label:<11}{kind:<10}{die:<16}damage {part.get('damage', 0)} of {sides}")
    for pool in ("reserve", "active"):
        lines.append(f"  {pool + ':':<11}{', '.join(player[pool]) or '-'}")
    for gone in entry.get("left_out", []):
        lines.append(f"  LEFT OUT {gone['where']} ({gone['die']}): {gone['why']}")
    for doubt in entry["needs_review"]:
        lines.append(f"  NEEDS REVIEW {doubt.get('where', '?')}: {doubt.get('why', '')}")
    return "\n".join(lines)


def _overlay_folder(folder: Path) -> None:
    """Make sure overlay pictures can go into ``folder`` before any photo is read (so no finished scan is
    thrown away for a wrong --overlay)."""
    if folder.exists() and not folder.is_dir():
        raise ScrawlError(f"--overlay {folder}: this is a file; name a folder for the pictures (it is made if "
                          f"missing)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ScrawlError(f"--overlay {folder}: cannot make this folder ({exc.strerror or exc})") from None


def _write_overlays(folder: Path, pictures: list) -> None:
    """Write each overlay picture (name, RGB) into ``folder``: through Python's own file IO, so that any file
    name the system allows is written (OpenCV's writer crashes on names that are not UTF-8). A picture that
    cannot be written is a warning; the scores are still printed."""
    import cv2

    for name, picture in pictures:
        ok, data = cv2.imencode(".png", cv2.cvtColor(picture, cv2.COLOR_RGB2BGR))
        try:
            (folder / name).write_bytes(data.tobytes())
        except OSError as exc:
            typer.echo(f"Warning: overlay {_shown(folder / name)} not written: {exc.strerror or exc}", err=True)


def _shown(path) -> str:
    """A path as it can be printed, whatever bytes its name holds."""
    return str(path).encode("utf-8", "replace").decode("utf-8")


def _progress_bar(verb: str, things: str):
    """A progress bar on stderr: ``scanning [#####-----] 5/10 photos``."""
    def show(done: int, total: int) -> None:
        filled = int(24 * done / total)
        sys.stderr.write(f"\r{verb} [{'#' * filled}{'-' * (24 - filled)}] {done}/{total} {things}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


LOOT_EXAMPLES = """\
Examples:

  scrawl loot                           one Dungeon Maker sheet with a new loot layout
  scrawl loot --count 4                 four sheets, each with its own layout
  scrawl loot --seed 1234 --count 4     the same four sheets again
  scrawl loot --paper letter -o output/maker.pdf

Each page holds the whole game: the grid with its Gems and Potions, the
Market, the hero tables, the Scoring chart. Play it, then: scrawl heroes.
"""


@app.command(epilog=LOOT_EXAMPLES)
def loot(
    seed: Annotated[Optional[int], typer.Option(
        min=0, help="Seed of the loot layouts. Leave it out for new ones; it is printed on each sheet.")] = None,
    count: Annotated[int, typer.Option("--count", "-k", min=1, max=40, help="Pages, each with its own layout.")] = 1,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.a4,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="FILE.pdf", help="Where to write the PDF. Default: output/loot-SEED-PAPER.pdf")
    ] = None,
    names: Annotated[Optional[str], typer.Option(
        metavar='"Ann,Bo,Cy"', help="The players' names, printed as each page's keeper (one page each).")] = None,
    game: Annotated[Optional[str], typer.Option(
        "--game", metavar="CODE", show_default="a new code",
        help="The game code to print (as on a sheet already printed): with --seed, to reprint a game's sheets.")
    ] = None,
) -> None:
    """Make Dungeon Maker sheets (PDF) with random loot layouts, and FILE.layout.json beside it."""
    from games.maker import roll_loot
    from sheets.maker import layouts_json, maker_layout
    from generator.maker_sheet import render_maker_sheets

    printed = _printed_game(names, None, game)
    listed, code = printed.names, printed.code
    count = len(listed) or count
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    pdf_path = _pdf_path(output, f"loot-{seed}-{paper.value}")
    layouts = [maker_layout(roll_loot(seed, page), paper.value) for page in range(1, count + 1)]
    with _writing(pdf_path):
        render_maker_sheets(layouts, pdf_path, code, listed)
        _write_json(pdf_path.with_suffix(".layout.json"), layouts_json(layouts))
    from scrawl.gamebook import PrintedGame, record_game

    problem = record_game(PrintedGame(code, {"id": "loot", "seed": seed}, paper.value, count, listed))
    typer.echo(f"Wrote {pdf_path} ({count} page{'s' if count > 1 else ''}, {paper.value.upper()}, loot seed {seed}, "
               f"game {code})")
    if problem:
        typer.echo(f"Warning: {problem}", err=True)
    typer.echo(f"Layout {pdf_path.with_suffix('.layout.json')}")
    typer.echo(f"Seed {seed}: run with --seed {seed} --game {code} to print these sheets again")


MONSTERS_EXAMPLES = """\
Examples:

  scrawl monsters                       a record sheet for each of two players, A4
  scrawl monsters --count 4 --paper letter
  scrawl monsters --pages 2             two sheets a player: monsters 1-3 and 4-6
  scrawl monsters -o output/battle.pdf

Each sheet holds three monster cards (a sketch area, the core and four more
parts: die sides, colour and part type as bubbles, a 20-box life track) and
the player's reserve and active dice. Fill one bubble per group, photograph
the sheets and read them with scrawl scan; scrawl battle resolves the fight.
"""


@app.command(epilog=MONSTERS_EXAMPLES)
def monsters(
    count: Annotated[int, typer.Option(
        "--count", "-k", min=1, max=20, help="Players: a record sheet each, numbered Player 1, 2, ...")] = 2,
    pages: Annotated[int, typer.Option(
        "--pages", min=1, max=10, help="Sheets a player, three monsters each (numbered on: 4-6, 7-9...).")] = 1,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.a4,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="FILE.pdf", help="Where to write the PDF. Default: output/monsters-PAPER.pdf")
    ] = None,
) -> None:
    """Make monster record sheets (PDF) for the monster dice game, with FILE.layout.json beside it."""
    from sheets.roster import MONSTERS_PER_PAGE, layouts_json, monster_layout
    from generator.monster_sheet import render_monster_sheets

    pdf_path = _pdf_path(output, f"monsters-{paper.value}")
    layouts = [monster_layout(paper.value, player, page, pages)
               for player in range(1, count + 1) for page in range(1, pages + 1)]
    with _writing(pdf_path):
        render_monster_sheets(layouts, pdf_path)
        _write_json(pdf_path.with_suffix(".layout.json"), layouts_json(layouts))
    sheets = len(layouts)
    typer.echo(f"Wrote {pdf_path} ({sheets} page{'s' if sheets > 1 else ''}, {paper.value.upper()}, "
               f"{count} player{'s' if count > 1 else ''}, {MONSTERS_PER_PAGE * pages} monsters each)")
    typer.echo(f"Layout {pdf_path.with_suffix('.layout.json')}")


BATTLE_EXAMPLES = """\
Examples:

  scrawl battle samples/monster-roster.json   the battle round by round; its seed is printed
  scrawl battle ann.json bob.json --seed 7    two rosters (or scans): the same battle again
  scrawl battle roster.json --trials 1000     each side's chance to win

A roster (scrawl.roster/1; scrawl scan --json gives one per monster sheet):

  {"format": "scrawl.roster/1", "players": [
    {"name": "Ann", "reserve": ["d6 red", "d20 blue"], "active": ["d4 green"],
     "monsters": [{"name": "Mossback", "core": {"die": "d8 red", "damage": 0},
                   "parts": [{"name": "Stinger", "type": "weapon",
                              "die": "d6 blue", "damage": 2}]}]}]}

Later rounds gather up to 5 dice and sketch them into new monsters; where the
rules leave a choice each player follows one simple policy (games/battle.py).
After 100 rounds it is a draw. A roster with an impossible monster is refused
with every problem listed; readings a scan was unsure of are printed (exit 1).
"""


@app.command(epilog=BATTLE_EXAMPLES)
def battle(
    rosters: Annotated[list[Path], typer.Argument(
        metavar="ROSTER.json", help="One roster with two players, or two rosters or scan results with one each.")],
    seed: Annotated[Optional[int], typer.Option(
        min=0, help="Seed of the dice. Leave it out for new rolls; it is printed so the battle can be replayed.")
    ] = None,
    trials: Annotated[Optional[int], typer.Option(
        min=1, max=100_000, help="Play this many battles (seeds SEED, SEED+1, ...) and print each side's chance "
                                 "to win.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON document.")] = False,
) -> None:
    """Resolve a monster dice battle between two players' rosters, round by round, and say who wins."""
    from scrawl.battle_report import battle_command

    code = battle_command(rosters, seed, trials, as_json)
    if code:
        raise typer.Exit(code)


HEROES_EXAMPLES = """\
Examples:

  scrawl heroes dungeon.json            five heroes walk your dungeon; each roll is shown
  scrawl heroes dungeon.jpg --seed 7    a photo of a finished Dungeon Maker sheet
  scrawl heroes dungeon.json --trials 1000   the expected score and its spread

A built dungeon (tiles A1..F6: column = X die, row = Y die):

  {"format": "scrawl.dungeon/1", "entrance": "A1:N", "stairs": "B3",
   "coins": 4, "spells": 1,
   "tiles": {"A1": {"path": "NS"}, "A2": {"path": "NE", "on": "spikes"},
             "B2": {"path": "SW"}, "B3": {"path": "N"},
             "A3": {"room": "slime"}, "C2": {"acid": true}}}

See the README for every field. A dungeon that breaks a building rule is
refused with every problem listed.
"""


@app.command(epilog=HEROES_EXAMPLES)
def heroes(
    dungeon_file: Annotated[Path, typer.Argument(
        metavar="DUNGEON", help="The built dungeon: a photo of the Dungeon Maker sheet, or scrawl.dungeon/1 JSON.")],
    seed: Annotated[Optional[int], typer.Option(
        min=0, help="Seed of the dice. Leave it out for new rolls; it is printed so the phase can be replayed.")
    ] = None,
    trials: Annotated[Optional[int], typer.Option(
        min=1, max=100_000, help="Run this many hero phases and print the expected score and its spread.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON document.")] = False,
) -> None:
    """Run the Dungeon Maker hero phase on a built dungeon and score it."""
    import json

    from games.heroes import final_score, problems, read_dungeon, run_heroes, seeded_dice as dice
    from games.maker import load_maker
    from scrawl.maker_report import phase_report, trials_report

    from scanner.load import PHOTO_SUFFIXES

    maker = load_maker()
    if dungeon_file.suffix.lower() in PHOTO_SUFFIXES:
        dungeon = _photographed_dungeon(dungeon_file, maker)
    else:
        dungeon = read_dungeon(read_json(dungeon_file), maker, str(dungeon_file))
    broken = problems(dungeon, maker)
    if broken:
        raise ScrawlError(f"{dungeon_file}: " + "; ".join(f"{p.where}: {p.why}" for p in broken))
    if seed is None:
        seed = secrets.randbelow(1_000_000)

    if trials:
        phases = [run_heroes(dungeon, maker, dice(seed + i)) for i in range(trials)]
        totals = [final_score(dungeon, maker, phase)["total"] for phase in phases]
        if as_json:
            typer.echo(json.dumps({"format": "scrawl.heroes-trials/1", "seed": seed, "trials": trials,
                                   "totals": totals}))
        else:
            typer.echo(trials_report(totals, [p.souls for p in phases], [len(p.heroes) for p in phases], seed))
        return
    phase = run_heroes(dungeon, maker, dice(seed))
    if as_json:
        from dataclasses import asdict

        typer.echo(json.dumps({"format": "scrawl.heroes/1", "seed": seed,
                               "heroes": [asdict(hero) for hero in phase.heroes],
                               "score": final_score(dungeon, maker, phase)}, indent=1))
    else:
        typer.echo(phase_report(dungeon, maker, phase, seed))


def _photographed_dungeon(photo: Path, maker):
    """The dungeon on a photographed Dungeon Maker sheet, for the hero phase; what the scanner doubts is
    printed first (on stderr), and a sheet whose dungeon cannot be walked is refused saying why."""
    from games.heroes import entry_dungeon
    from scrawl.service import scan_game

    game = scan_game([str(photo)])
    if not game.dungeons:
        reasons = "; ".join(entry["error"] for entry in game.errors) or "it holds no Dungeon Maker sheet"
        raise ScrawlError(f"{photo}: no Dungeon Maker sheet could be read: {reasons}")
    entry = game.dungeons[0]
    for doubt in entry["needs_review"]:
        typer.echo(f"NEEDS REVIEW {doubt.get('where', '?')}: {doubt.get('why', '')}", err=True)
    missing = [key for key in ("entrance", "stairs") if key not in entry["dungeon"]]
    if missing:
        raise ScrawlError(f"{photo}: no {' and no '.join(missing)} read on the sheet, so no hero can walk it: "
                          f"check the sheet (scrawl scan {photo} --overlay DIR shows what was read)")
    return entry_dungeon(entry, maker)


SERVE_EXAMPLES = """\
Examples:

  scrawl serve --host 0.0.0.0           game night: the phones on the network join
  scrawl serve                          this computer only (127.0.0.1:8000)
  scrawl serve --host 0.0.0.0 --port 8080 --data output/game-night
  scrawl serve --host 0.0.0.0 --code DRAGON7   a join code of your own

Each start makes a new join code: the address it prints (and the page's QR
code) carries it, and a phone without it sees nothing and changes nothing.
The host link, printed only here, also lets its browser delete games. Games,
photos and corrections are kept in DIR/scrawl.db, so a restart loses nothing;
each request is logged in DIR/access.log. The HTTP API is described at
/openapi.json.
"""


@app.command(epilog=SERVE_EXAMPLES)
def serve(
    host: Annotated[str, typer.Option(
        help="Address to listen on: 0.0.0.0 for every phone on the network, 127.0.0.1 for this computer only.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    data: Annotated[Path, typer.Option(
        "--data", metavar="DIR", help="Where games, photos and readings are kept (an SQLite file).")
    ] = Path("output/serve"),
    code: Annotated[Optional[str], typer.Option(
        "--code", metavar="CODE", show_default="a new random code",
        help="The join code phones need (letters and digits, 4 to 32).")] = None,
) -> None:
    """Serve the game-night page: each player photographs their sheet with a phone and sees the scores."""
    import errno
    import re
    import secrets
    import socket
    import sqlite3

    import uvicorn

    from scrawl.guard import GuardSettings, new_join_code
    from scrawl.serving import CONNECTIONS_AT_ONCE, GuardedH11Protocol, check_database
    from scrawl.web import create_app, server_url

    if code is not None and not re.fullmatch(r"[A-Za-z0-9]{4,32}", code):
        raise ScrawlError(f"--code {code!r}: a join code is 4 to 32 letters and digits")
    code = (code or new_join_code()).upper()
    host_token = secrets.token_urlsafe(12)
    url = server_url(host, port)
    join = f"{url}join/{code}"
    try:
        check_database(data)
        web_app = create_app(data, url=join, guard=GuardSettings(code=code, host_token=host_token,
                                                                 log=data / "access.log"))
    except (OSError, sqlite3.Error) as exc:
        raise ScrawlError(f"cannot keep games in {data}: {getattr(exc, 'strerror', None) or exc}; "
                          f"choose another folder with --data") from None
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as exc:
        in_use = getattr(exc, "errno", None) == errno.EADDRINUSE
        hint = "another program (another scrawl serve?) listens there; choose another --port" if in_use \
            else "check --host"
        raise ScrawlError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}; {hint}") from None
    if host in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"Open {join} in this computer's browser. Phones cannot reach it: to let them join, "
                   f"run scrawl serve --host 0.0.0.0")
    else:
        typer.echo(f"Open {join} on every phone (the page shows it as a QR code). Join code: {code}")
    typer.echo(f"Host link (keep it to yourself: it can delete games): {join}?host={host_token}")
    typer.echo(f"Games are kept in {data / 'scrawl.db'}. Ctrl+C stops the server.")
    server = uvicorn.Server(uvicorn.Config(web_app, log_level="warning", http=GuardedH11Protocol,
                                           timeout_keep_alive=5, limit_concurrency=CONNECTIONS_AT_ONCE))
    server.run(sockets=[listener])


@contextmanager
def _writing(pdf_path: Path):
    """Writing a PDF (and the files beside it): its folder made first, and any failure to write made the
    one-line error that says where it failed and what to do."""
    try:
        pdf_path.parent.mkdir(parents=True, exist_ok=True)
        yield
    except OSError as exc:
        raise ScrawlError(f"cannot write {pdf_path}: {exc.strerror or exc}; choose another place with -o") from None


def _pdf_path(output: Optional[Path], stem: str) -> Path:
    path = output if output is not None else Path("output") / f"{stem}.pdf"
    if path.suffix.lower() != ".pdf":
        raise ScrawlError(f"-o {path}: this is a PDF, so name it FILE.pdf")
    return path


def _write_json(path: Path, document: dict) -> None:
    import json

    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def _plain(text: str | None) -> str | None:
    """An epilog for click's plain help: each paragraph of indented lines (examples, JSON) kept as written
    (click's ``\\b`` marker), the others wrapped to the terminal."""
    if not text:
        return text
    paragraphs = text.strip("\n").split("\n\n")
    return "\n\n".join("\b\n" + _fit_examples(part) if any(line.startswith("  ") for line in part.splitlines())
                       else part for part in paragraphs)


HELP_WIDTH = 78         # an example line, as click prints it (2 more spaces in), fits 80 columns


def _fit_examples(part: str) -> str:
    """Example lines (``  scrawl ...   what it does``) too long for 80 columns, with what they do on the next
    line, indented under the command; the lines that carried on what it does follow it there."""
    import re

    out: list[str] = []
    moved = False           # the last example's description went to a line of its own
    for line in part.splitlines():
        example = re.match(r"^(\s+scrawl .*?\S)\s{2,}(\S.*)$", line)
        if example and len(line) > HELP_WIDTH:
            out += [example.group(1), "      " + example.group(2)]
            moved = True
        elif moved and line.startswith(" " * 12) and not line.strip().startswith("scrawl "):
            out.append("      " + line.strip())
        else:
            out.append(line)
            moved = False
    return "\n".join(out)


SHORT_HELP = {      # what 'scrawl --help' lists, whole at 80 columns
    "sheet": "dungeon map sheets to print (PDF)",
    "deck": "card decks to print and cut (PDF)",
    "deal": "the deck shuffled and dealt, round by round",
    "sight": "line of sight between rooms of a map",
    "score": "score sheets typed in (scan JSON)",
    "scan": "score games from photos of their sheets",
    "loot": "Dungeon Maker sheets to print (PDF)",
    "monsters": "monster record sheets to print (PDF)",
    "battle": "a monster dice battle, played out",
    "heroes": "the Dungeon Maker hero phase, played out",
    "serve": "the game-night page for the phones",
}
app.info.epilog = _plain(app.info.epilog)
for _command in app.registered_commands:
    _command.epilog = _plain(_command.epilog)
    _command.short_help = SHORT_HELP.get(_command.callback.__name__.rstrip("_"))


def _plain_metavars(command):
    """Help that names values as people do: ``--seed N``, ``--paper a4|letter``, an argument by its name alone,
    not typer's ``<int range>``, ``<list[Path]>``. Walks every subcommand; returns ``command``."""
    for param in getattr(command, "params", []):
        if param.param_type_name == "argument":
            param.display_type_rich = lambda ctx: None           # the argument's name (its metavar) says it
        elif param.param_type_name == "option" and param.metavar is None and not param.is_flag:
            param.metavar = _plain_type(param.type)
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub)
    return command


def _plain_type(kind) -> str:
    """An option's value as people name it: a number ``N``, a choice ``a4|letter``, ``PATH``, else ``TEXT``."""
    name = getattr(kind, "name", "")
    if name.startswith(("int", "float")):
        return "N"
    if getattr(kind, "choices", None):
        return "|".join(str(choice) for choice in kind.choices)
    return "PATH" if name == "path" else "TEXT"


def main(argv: list[str] | None = None) -> int:
    """Run ``scrawl``; returns the exit code. Errors become one line on stderr and exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = _plain_metavars(typer.main.get_command(app))
    try:
        # Outside standalone mode, a command's typer.Exit comes back as the return value.
        code = command.main(args=args or ["--help"], prog_name="scrawl", standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        _fail("aborted")
        return 1
    except ScrawlError as exc:
        _fail(str(exc))
        return 2
    except typer.TyperException as exc:
        # A usage error found by the option parser: say what, and where the help is.
        ctx = getattr(exc, "ctx", None)
        where = f"scrawl {ctx.info_name}" if ctx is not None and ctx.parent is not None else "scrawl"
        message = exc.format_message().replace("Value error, ", "")
        _fail(f"{message} (see '{where} --help')")
        return 2
    return code if isinstance(code, int) else 0


MOST_ERROR_CHARS = 2000     # an error line is read by a person: a hostile file must not make it megabytes


def _fail(message: str) -> None:
    line = " ".join(str(message).split())
    if len(line) > MOST_ERROR_CHARS:
        line = line[:MOST_ERROR_CHARS] + f"... ({len(line) - MOST_ERROR_CHARS} more characters)"
    sys.stderr.write(f"scrawl: error: {line}\n")


def run() -> None:
    # A file name that is not UTF-8 (a camera card's "caf\xe9.jpg") is printed with a backslash escape rather
    # than ending the command, and its results, with an encoding error.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    sys.exit(main())


if __name__ == "__main__":
    run()
