"""Dungeon Maker balance and speed: how the hero phase goes for dungeons of different strength.

    python benchmarks/maker_bench.py

For the sample dungeon (a full 20-round build) and weaker variants of it, runs
2000 seeded hero phases and prints the expected score, its spread, how many
heroes die and how often the dungeon falls; then the time of one hero phase.
A tense game is one where building well visibly pays: the full dungeon should
kill about two heroes in three, a thin one should let most escape.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

from bench_support import timed
from games.heroes import final_score, problems, read_dungeon, run_heroes, seeded_dice as dice
from games.maker import load_maker

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "dungeon-maker-built.json"
TRIALS = 2000


def variants(document: dict) -> dict[str, dict]:
    full = document
    no_boss = json.loads(json.dumps(full))
    no_boss["tiles"]["D4"].pop("on")
    thin = json.loads(json.dumps(no_boss))
    for tile in ("C2", "C4", "E4"):
        thin["tiles"].pop(tile)
    bare = {**thin, "tiles": {k: {"path": v.get("path") or v.get("bridge")} for k, v in thin["tiles"].items()
                              if "path" in v or "bridge" in v}}
    bare["tiles"]["C3"] = {"path": "EW"}
    return {"full build (sample)": full, "without the Giant Bat": no_boss,
            "one Slime, a trap, a gate": thin, "paths only": bare}


def main() -> None:
    maker = load_maker()
    document = json.loads(SAMPLE.read_text())
    print(f"{TRIALS} hero phases each")
    print(f"  {'dungeon':<28}{'score':>7}{'sd':>6}{'heroes die':>12}{'falls':>8}")
    for name, variant in variants(document).items():
        built = read_dungeon(variant, maker)
        assert not problems(built, maker), (name, problems(built, maker))
        phases = [run_heroes(built, maker, dice(seed)) for seed in range(TRIALS)]
        totals = [final_score(built, maker, p)["total"] for p in phases]
        died = sum(p.souls for p in phases) / sum(len(p.heroes) for p in phases)
        falls = sum(p.fallen for p in phases) / TRIALS
        print(f"  {name:<28}{statistics.mean(totals):7.1f}{statistics.pstdev(totals):6.1f}"
              f"{100 * died:11.0f}%{100 * falls:7.0f}%")
    built = read_dungeon(document, maker)
    seeds = iter(range(10_000))
    print(f"\nspeed: one hero phase (5 heroes, sample dungeon) {1000 * timed(lambda: run_heroes(built, maker, dice(next(seeds))), 500):.2f} ms")


if __name__ == "__main__":
    main()
