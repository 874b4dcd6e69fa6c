"""The sample phone photo of a finished Dungeon Maker sheet (samples/photos/maker-21.jpg, made by the
synthetic photographer: a legal 20-round build, its hero phase, a hand and a medium phone camera) read by
``scrawl scan`` to the dungeon that was built and the score it was played to."""
import json
from pathlib import Path

from tests_support import run_cli

ROOT = Path(__file__).resolve().parent.parent.parent
PHOTO = ROOT / "samples" / "photos" / "maker-21.jpg"
EXPECTED = json.loads((ROOT / "samples" / "photos" / "maker-21.expected.json").read_text())


def _built(tiles: dict) -> dict:
    """What each tile holds, without loot still lying on an unbuilt tile (not something built)."""
    return {name: {key: value for key, value in spec.items() if key != "loot"} for name, spec in tiles.items()
            if set(spec) - {"loot"}}


def test_the_sample_sheet_reads_to_the_dungeon_built_and_its_score(capsys):
    code, out, err = run_cli(capsys, "scan", PHOTO, "--json")
    entry = json.loads(out)["dungeons"][0]
    assert _built(entry["dungeon"]["tiles"]) == _built(EXPECTED["dungeon"]["tiles"])
    assert (entry["dungeon"]["entrance"], entry["dungeon"]["stairs"]) == (EXPECTED["dungeon"]["entrance"],
                                                                          EXPECTED["dungeon"]["stairs"])
    assert entry["record"] == EXPECTED["record"]
    assert entry["score"]["total"] == EXPECTED["score"]
    assert entry["score"]["coins"] == EXPECTED["dungeon"]["coins"]
    # What the scanner doubts is named by tile, and nothing else is asked of a person.
    assert code == (1 if entry["needs_review"] else 0)
    assert all(doubt["rule"] in ("unsure_mark", "unsure_link") for doubt in entry["needs_review"])
