"""`scrawl sheet` as a user runs it: files written, exit codes, one-line errors."""
import json
import subprocess
import sys

import pytest
from pypdf import PdfReader

from tests_support import run_cli as run


def test_sheet_writes_pdf_and_layout_into_output_by_default(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "sheet", "--players", "2")
    assert code == 0 and err == ""
    pdf = tmp_path / "output" / "sheet-classic-a4.pdf"
    layout = tmp_path / "output" / "sheet-classic-a4.layout.json"
    assert pdf.is_file() and layout.is_file()
    assert "Wrote output/sheet-classic-a4.pdf (2 pages, A4, The Sunken Keep)" in out
    assert len(PdfReader(pdf).pages) == 2
    document = json.loads(layout.read_text())
    assert document["format"] == "scrawl.sheet-layout/1"
    assert [page["player"] for page in document["pages"]] == [1, 2]


def test_random_map_prints_its_seed_and_repeats_byte_for_byte(tmp_path, capsys):
    code, out, _ = run(capsys, "sheet", "--map", "random", "-o", str(tmp_path / "a.pdf"))
    assert code == 0
    seed = int(out.split("Seed ")[1].split(":")[0])
    game = out.split("), game ")[1].split()[0]
    assert f"--seed {seed}" in out
    code, _, _ = run(capsys, "sheet", "--map", "random", "--seed", str(seed), "--game", game,
                     "-o", str(tmp_path / "b.pdf"))
    assert code == 0
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert (tmp_path / "a.layout.json").read_text() == (tmp_path / "b.layout.json").read_text()
    assert json.loads((tmp_path / "a.layout.json").read_text())["map"]["seed"] == seed


def test_letter_paper_and_output_folder_created(tmp_path, capsys):
    target = tmp_path / "new" / "folder" / "keep.pdf"
    code, out, _ = run(capsys, "sheet", "--paper", "LETTER", "-o", str(target))
    assert code == 0 and target.is_file()
    page = PdfReader(target).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


def test_a_map_file_of_your_own(tmp_path, capsys):
    from tests_support import TINY_MAP

    source = tmp_path / "tiny.toml"
    source.write_text(TINY_MAP)
    code, out, _ = run(capsys, "sheet", "--map", str(source), "-o", str(tmp_path / "tiny.pdf"))
    assert code == 0, out
    document = json.loads((tmp_path / "tiny.layout.json").read_text())
    assert (document["map"]["rows"], document["map"]["cols"]) == (5, 5)


@pytest.mark.parametrize("args,expected", [
    (["sheet", "--paper", "a5"], "Invalid value for '--paper': 'a5' is not one of 'a4', 'letter'"),
    (["sheet", "--players", "0"], "Invalid value for '--players'"),
    (["sheet", "--map", "dungeon9"], "unknown map 'dungeon9': use --map classic, --map 1 to 6, --map random or --map FILE.toml"),
    (["sheet", "--seed", "3"], "--seed only applies to --map random"),
    (["sheet", "--map", "7"], "unknown map '7': use --map classic, --map 1 to 6"),
    (["sheet", "--map", "3", "--features", "caves"], "--features only applies to --map random"),
    (["sheet", "--map", "random", "--seed", "3", "--features", "lava"], "unknown map feature 'lava'"),
    (["scan", "x.jpg", "--rolls", "3,9"], "rolls should be the die's numbers 1-6 in round order"),
    (["sheet", "--map", "random", "--seed", "x"], "Invalid value for '--seed'"),
    (["sheet", "-o", "sheet.png"], "sheet.png: this is a PDF, so name it FILE.pdf"),
    (["sheet", "--map", "missing.toml"], "missing.toml: no such map file"),
    (["sheet", "--colour", "red"], "No such option: --colour"),
    (["shet"], "No such command 'shet'"),
])
def test_bad_arguments_give_one_line_and_exit_2(tmp_path, monkeypatch, capsys, args, expected):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("scrawl: error: "), err
    assert expected in err
    assert "Traceback" not in err + out
    assert not (tmp_path / "output").exists(), "nothing is written on bad input"


def test_a_broken_map_file_names_every_problem_on_one_line(tmp_path, capsys):
    from tests_support import TINY_MAP

    broken = tmp_path / "broken.toml"
    broken.write_text(TINY_MAP.replace('"monster:D"', '"lute"').replace('"E4:E"', '"E4:Q"'))
    code, _, err = run(capsys, "sheet", "--map", str(broken), "-o", str(tmp_path / "x.pdf"))
    assert code == 2 and err.count("\n") == 1
    assert f"{broken}: rooms.C4.items[0]: unknown item 'lute'" in err
    assert "entries[3]: side 'Q' is not one of N, E, S, W" in err


def test_help_shows_examples(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "Examples" in out and "scrawl sheet --map random --seed 1234" in out
    code, out, _ = run(capsys, "sheet", "--help")
    assert code == 0 and "Examples" in out and "--players" in out and "--paper" in out
    code, out, _ = run(capsys)
    assert code == 0 and "sheet" in out


def test_the_installed_command_exits_2_without_a_traceback(tmp_path):
    result = subprocess.run([sys.executable, "-m", "scrawl.cli", "sheet", "--paper", "a3"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("scrawl: error: Invalid value for '--paper'")
    assert "Traceback" not in result.stderr


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("dungeon-scrawl ")


def test_help_starts_without_loading_the_heavy_libraries():
    probe = ("import sys, scrawl.cli; scrawl.cli.main(['sheet', '--help']); "
             "print(sorted(m for m in ('reportlab', 'cv2', 'numpy', 'skimage') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0
    assert result.stdout.strip().splitlines()[-1] == "[]"


def test_the_installed_script_loads_nothing_until_it_runs():
    """The scanner's workers import the program's main script again: from ``scrawl.command`` that brings
    in neither the command line (typer) nor any command's code."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["scrawl"] == "scrawl.command:run"
    probe = "import sys, scrawl.command; print(sorted(m for m in ('typer', 'scrawl.cli', 'cv2') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("command", [["sheet"], ["deck"], ["loot"], ["monsters"]])
def test_a_pdf_that_cannot_be_written_is_one_line_and_exit_2(tmp_path, capsys, command):
    (tmp_path / "file").write_text("not a folder")
    target = tmp_path / "file" / "out.pdf"
    code, out, err = run(capsys, *command, "-o", target)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"scrawl: error: cannot write {target}: ") and err.rstrip().endswith("choose another place with -o")


@pytest.mark.parametrize("command", ["", "sheet", "deck", "deal", "sight", "score", "scan", "loot", "monsters",
                                     "battle", "heroes", "serve"])
def test_help_at_80_columns_names_values_as_people_do(capsys, monkeypatch, command):
    """No typer types in the help (``<int range>``, ``<list[Path]>``, ``<a4|letter>``): ``--seed N``,
    ``--paper a4|letter``, an argument by its name."""
    import re

    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, *([command] if command else []), "--help")
    assert code == 0
    assert not re.search(r"<[a-zA-Z][^>]*>", out), re.findall(r"<[a-zA-Z][^>]*>", out)
    assert "list[" not in out
    assert [line for line in out.splitlines() if len(line) > 80] == []
    if command == "sheet":
        assert re.search(r"--seed N\s", out) and re.search(r"--paper a4\|letter\s", out)
        assert re.search(r"--output FILE\.pdf\s", out)


def test_deck_help_says_what_each_deck_is(capsys):
    code, out, _ = run(capsys, "deck", "--help")
    assert code == 0
    for text in ("doodles: the 36 cards the dungeon map game is played with", "traps: trap",
                 "monsters-reference: the monster dice game"):
        assert text in " ".join(out.split())
