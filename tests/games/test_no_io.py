"""The rules open no file: ``games`` parses the text ``templates`` hands it, so every rule can be used, and
tested, on data that never touched a disk."""
import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
READS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "is_file", "exists", "iterdir", "glob",
         "files", "listdir", "scandir"}


def test_no_module_of_games_reads_or_writes_a_file():
    found = []
    for path in sorted(GAMES.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                if name in READS:
                    found.append(f"{path.name}:{node.lineno} {name}()")
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module]
                found += [f"{path.name}:{node.lineno} imports {m}" for m in modules
                          if m and m.split(".")[0] in ("os", "io", "shutil", "tempfile") or m == "importlib.resources"]
    assert found == []


def test_a_map_file_that_cannot_be_read_says_so(tmp_path):
    import pytest

    from games.errors import MapError
    from games.mapfile import load_map

    with pytest.raises(MapError, match="no such map file"):
        load_map(tmp_path / "missing.toml")
    (tmp_path / "latin1.toml").write_bytes(b"name = \"caf\xe9\"")
    with pytest.raises(MapError, match="cannot read the map file"):
        load_map(tmp_path / "latin1.toml")
