"""The sample phone photos of finished Dungeon Maker sheets (samples/photos/maker-22.jpg, of this release's
design, and maker-21.jpg, of design 2, printed by an earlier release; made by the synthetic photographer: a
legal 20-round build, its hero phase, a hand and a medium phone camera) read by ``scrawl scan`` to the
dungeon that was built and the score it was played to."""
import json
from pathlib import Path

import pytest

from tests_support import run_cli

PHOTOS = Path(__file__).resolve().parent.parent.parent / "samples" / "photos"


def _built(tiles: dict) -> dict:
    """What each tile holds, without loot still lying on an unbuilt tile (not something built)."""
    return {name: {key: value for key, value in spec.items() if key != "loot"} for name, spec in tiles.items()
            if set(spec) - {"loot"}}


@pytest.mark.parametrize("seed, design", [(22, None), (21, 2)])
def test_the_sample_sheet_reads_to_the_dungeon_built_and_its_score(capsys, seed, design):
    expected = json.loads((PHOTOS / f"maker-{seed}.expected.json").read_text())
    code, out, err = run_cli(capsys, "scan", PHOTOS / f"maker-{seed}.jpg", "--json")
    entry = json.loads(out)["dungeons"][0]
    assert entry.get("design") == design            # only a sheet of an earlier design says which
    assert _built(entry["dungeon"]["tiles"]) == _built(expected["dungeon"]["tiles"])
    assert (entry["dungeon"]["entrance"], entry["dungeon"]["stairs"]) == (expected["dungeon"]["entrance"],
                                                                          expected["dungeon"]["stairs"])
    assert entry["record"] == expected["record"]
    assert entry["score"]["total"] == expected["score"]
    assert entry["score"]["coins"] == expected["dungeon"]["coins"]
    # What the scanner doubts is named by tile, and nothing else is asked of a person.
    assert code == (1 if entry["needs_review"] else 0)
    assert all(doubt["rule"] in ("unsure_mark", "unsure_link") for doubt in entry["needs_review"])
