"""The ``scrawl`` command: thin wrappers that turn options into calls and errors into one line.

Heavy libraries (reportlab, OpenCV) are imported inside the commands, so
``scrawl --help`` starts at once.
"""
from __future__ import annotations

import secrets
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from games.errors import ScrawlError

EXAMPLES = """\
[bold]Examples[/bold]

  scrawl sheet                          the classic map, one A4 page
  scrawl sheet --players 4 --paper letter
  scrawl sheet --map random --seed 1234
  scrawl sheet --map my-map.toml -o keep.pdf

Files go to output/ unless you give -o. Each sheet has FILE.layout.json beside
it: where everything sits on the page, for the scanner and your own scripts.
"""

app = typer.Typer(
    name="scrawl",
    help="Print dungeon map sheets for pen-and-paper dungeon crawls.",
    epilog=EXAMPLES,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
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
    """Print dungeon map sheets for pen-and-paper dungeon crawls."""


SHEET_EXAMPLES = """\
[bold]Examples[/bold]

  scrawl sheet                          classic map, A4, one player
  scrawl sheet --players 4              four pages, Player 1 to 4
  scrawl sheet --map random             a new random dungeon; its seed is printed
  scrawl sheet --map random --seed 1234 --paper letter
  scrawl sheet --map my-map.toml -o output/my-map.pdf
"""


@app.command(epilog=SHEET_EXAMPLES)
def sheet(
    map_name: Annotated[str, typer.Option(
        "--map", "-m", metavar="classic|random|FILE.toml",
        help="Which map: the classic map, a random one, or a map file of your own.")] = "classic",
    seed: Annotated[Optional[int], typer.Option(
        min=0, help="Seed of a random map. Leave it out for a new map; the seed is printed on the sheet.")] = None,
    paper: Annotated[Paper, typer.Option(case_sensitive=False, help="Paper size.")] = Paper.a4,
    players: Annotated[int, typer.Option(
        "--players", "-p", min=1, max=20, help="Pages to print, one per player, numbered.")] = 1,
    output: Annotated[Optional[Path], typer.Option(
        "--output", "-o", metavar="FILE.pdf", help="Where to write the PDF. Default: output/sheet-MAP-PAPER.pdf")
    ] = None,
) -> None:
    """Make dungeon map sheets (PDF), one page per player, with FILE.layout.json beside it."""
    from games.mapfile import choose_map
    from generator.layout import sheet_layout
    from generator.sheet import render_sheets

    if map_name == "random" and seed is None:
        seed = secrets.randbelow(1_000_000)
    dungeon = choose_map(map_name, seed)
    name = f"random-{dungeon.seed}" if dungeon.seed is not None else dungeon.id
    stem = f"sheet-{name}-{paper.value}"

    pdf_path = output if output is not None else Path("output") / f"{stem}.pdf"
    if pdf_path.suffix.lower() != ".pdf":
        raise ScrawlError(f"-o {pdf_path}: the sheet is a PDF, so name it FILE.pdf")
    layout_path = pdf_path.with_suffix(".layout.json")
    layout = sheet_layout(dungeon, paper.value)
    try:
        pdf_path.parent.mkdir(parents=True, exist_ok=True)
        render_sheets(layout, players, pdf_path)
        _write_json(layout_path, layout.to_json(players))
    except OSError as exc:
        raise ScrawlError(f"cannot write {pdf_path}: {exc.strerror or exc}; choose another place with -o") from None

    pages = f"{players} page{'s' if players > 1 else ''}"
    typer.echo(f"Wrote {pdf_path} ({pages}, {paper.value.upper()}, {dungeon.name})")
    typer.echo(f"Layout {layout_path}")
    if dungeon.seed is not None:
        typer.echo(f"Seed {dungeon.seed}: run with --seed {dungeon.seed} to print this dungeon again")


def _write_json(path: Path, document: dict) -> None:
    import json

    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Run ``scrawl``; returns the exit code. Errors become one line on stderr and exit code 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    command = typer.main.get_command(app)
    try:
        command.main(args=args or ["--help"], prog_name="scrawl", standalone_mode=False)
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
    return 0


def _fail(message: str) -> None:
    line = " ".join(str(message).split())
    sys.stderr.write(f"scrawl: error: {line}\n")


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
