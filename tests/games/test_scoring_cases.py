"""The hand-worked cases of tests/cases/scoring/*.toml, run through the scan-result document path."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.state import read_game, score_game

CASES_DIR = Path(__file__).parent.parent / "cases"


def _cases():
    for path in sorted((CASES_DIR / "scoring").glob("*.toml")):
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["cases"]:
            yield pytest.param(case, id=f"{path.stem}: {case['name']}")


def _map_ref(name: str):
    if name == "classic" or name.startswith("map"):
        return {"id": name}
    from games.mapcode import encode_map
    from games.mapfile import load_map

    dungeon = load_map(CASES_DIR / "maps" / f"{name}.toml")
    return {"id": dungeon.id, "code": encode_map(dungeon)}


def room_entry(text: str) -> dict:
    """A case's room text (``NS``, ``X``, ``NS/EW``, ``NS+X``, ``N@2``) as a scan-result room."""
    body, _, round_text = text.partition("@")
    parts = [part for part in body.split("+") if part]
    trap = "X" in parts
    segments = [s for part in parts if part != "X" for s in part.split("/")]
    entry = {"exits": "".join(sorted(set("".join(segments)), key="NESW".index)), "trap": trap,
             "round": int(round_text) if round_text else None}
    if len(segments) > 1:
        entry["segments"] = segments
    return entry


def _document(case) -> dict:
    document = {"format": "scrawl.scan/1", "sheets": [
        {"source": f"player {i + 1}", "map": _map_ref(case["map"]), "player": i + 1,
         "rooms": {room: room_entry(text) for room, text in sheet["rooms"].items()},
         "unusable": sheet.get("unusable", 0), **({"marks": sheet["marks"]} if "marks" in sheet else {})}
        for i, sheet in enumerate(case["sheets"])]}
    if "rolls" in case:
        document["rolls"] = case["rolls"]
    return document


@pytest.mark.parametrize("case", list(_cases()))
def test_scoring_case(case):
    sheets, errors = read_game(_document(case))
    assert errors == []
    results = score_game(sheets)
    for expected, result in zip(case["sheets"], results, strict=True):
        # The case must add up, or it was worked out wrong.
        assert sum(expected["points"]) == expected["total"]
        assert [line.item for line in result.score.lines] == list(range(1, len(expected["counts"]) + 1))
        assert [line.count for line in result.score.lines] == expected["counts"]
        assert [line.points for line in result.score.lines] == expected["points"]
        assert result.score.total == expected["total"]
        found = sorted(f"{p.rule}@{p.where}" for p in result.problems)
        assert found == sorted(expected.get("problems", []))


def test_there_are_enough_cases_and_they_cover_every_item_and_rule():
    cases = [param.values[0] for param in _cases()]
    assert len(cases) >= 25
    sheets = [sheet for case in cases for sheet in case["sheets"]]
    for item in range(7):
        assert any(sheet["counts"][item] > 0 for sheet in sheets), f"no case scores item {item + 1}"
    rules = {p.split("@")[0] for sheet in sheets for p in sheet.get("problems", [])}
    assert rules >= {"wall_end", "second_segment", "trap_on_item", "trap_with_segment", "unlinked",
                     "round_range", "too_many_traps", "too_many_in_round", "nothing_drawn"}


def test_the_expansion_cases_cover_items_8_to_10_and_the_die_rules():
    sheets = [sheet for param in _cases() for sheet in param.values[0]["sheets"]]
    for item in (7, 8, 9):
        assert any(len(sheet["counts"]) > item and sheet["points"][item] > 0 for sheet in sheets), item + 1
    assert any(len(sheet["counts"]) == 10 and sheet["points"][9] < 0 for sheet in sheets)
    rules = {p.split("@")[0] for sheet in sheets for p in sheet.get("problems", [])}
    assert rules >= {"diamond_roll", "curse_roll", "curse_order", "emerald_mark", "door_closed",
                     "gate_not_closed", "gate_crossed_closed", "gate_filled_early"}
