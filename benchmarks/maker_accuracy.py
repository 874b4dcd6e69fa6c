"""How often the scanner reads a photographed Dungeon Maker sheet right, and whether it names what it gets wrong.

    python benchmarks/maker_accuracy.py [--sheets 5] [--conditions all] [--seed 1] [--show 10]
    python benchmarks/maker_accuracy.py --conditions good,dim --degrade motion:9   (photographer/degrade.py)

The synthetic photographer builds legal dungeons with its random builder (20 rounds, the Market, loot and
spells; then the hero phase), fills the sheet like a hand (ticks in the tiles' boxes, path lines through the
sides, loot, spells, rounds, Souls and hearts; scribbles the scanner must ignore) and photographs it like a
phone, in good light and each named condition (``photographer.CONDITIONS``), ``--sheets`` sheets each, every
third on Letter. Each photo is read as ``scrawl scan`` reads it and scored (``games.heroes.score_entry``):

- tiles right: all 36 tiles of every sheet read, a tile right when what it holds (path sides, bridge, pond,
  room, what is on the path) is as built; the entrance and the stairs count as one more place each;
- seen right: the same over the tiles the photo shows (a pen, a thumb or glare hides a quarter or more of
  the others: those cannot be read, only named, and the photographer says which they are);
- WRONG UNNAMED: tiles (and entrance, stairs, and the record's fields: Gems, Potions, spells, Souls, hearts) read
  wrong that no ``needs_review`` entry names (must be 0);
- record right: loot, spells got and cast, Souls and crossed hearts as ticked;
- exact score: the final score equals the truth's (the building phase from the dungeon, Coin left worked
  out from the builds, and the hero phase from the Souls and hearts); WRONG UNFLAGGED: a wrong score with
  nothing in ``needs_review`` (must be 0);
- exact clear: the exact score over the sheets whose photo hides no part of any tile (the photographer's
  ``touched`` is empty), and how many they are: the reading's own loss, without the ticks a pen, a thumb or
  glare hides from any reader (those tiles can only be named);
- right flagged: sheets read right in full that still ask a person to look (keep it low).
"""
from __future__ import annotations

import argparse
import re
import time
from collections import Counter

import numpy as np

from games.heroes import SheetRecord, read_dungeon, score_entry, sheet_score
from games.maker import load_maker
from games.maps import SIDES, Room
from photographer.degrade import HELP as DEGRADE_HELP, degrade_shot, spec_argument

PLACES = ("entrance", "stairs")


def tile_of(spec: dict) -> tuple:
    """What a tile holds, in one comparable shape (loot left lying on an unbuilt tile is not built)."""
    sides = spec.get("path") or spec.get("bridge") or ""
    return ("".join(side for side in SIDES if side in sides), "bridge" in spec, bool(spec.get("acid")),
            spec.get("room", ""), spec.get("on", ""))


SIDE_ASKED = re.compile(r"through ([A-F][1-6])-([A-F][1-6])\b")


def _side_asked(name: str, got: tuple, meant: tuple, asked: set) -> bool:
    """Whether a tile read wrong only in sides the review asks about as shared sides (``asked``: pairs of
    tiles): the question names both tiles, so the tile whose ``where`` it is not is named too."""
    if got[1:] != meant[1:]:
        return False
    room = Room.parse(name)
    differ = set(got[0]) ^ set(meant[0])
    return bool(differ) and all(frozenset((name, room.neighbour(side).name)) in asked for side in differ)


def truth_score(truth: dict, maker) -> int:
    """The final score the truth's sheet should give, by the same rules the scan is scored by."""
    record = SheetRecord(**{key: tuple(truth[key]) if isinstance(truth[key], list) else truth[key]
                            for key in SheetRecord.__dataclass_fields__ if key in truth})
    return sheet_score(read_dungeon(truth["dungeon"], maker), record, maker)["total"]


# A record's field -> the start of the ``where`` of the review entries about its boxes (``scanner.maker``): a
# doubt about a box ("Souls"), a box the photo does not show ("Souls box 2"), or a rule the record breaks
# (``games.heroes.record_problems``: "Loot", "Spells", "Scoring").
RECORD_PLACES = {
    "gems": lambda maker: ("Gems", "Loot"), "potions": lambda maker: ("Potions", "Loot"),
    "souls": lambda maker: ("Souls", "Scoring"), "hearts": lambda maker: ("dungeon HP", "Scoring"),
    "spells_got": lambda maker: tuple(f"{spell['name']} got" for spell in maker.spells) + ("Spells",),
    "spells_cast": lambda maker: tuple(f"{spell['name']} cast" for spell in maker.spells) + ("Spells",),
}


def compare(entry: dict, truth: dict, maker, counts: Counter, wrong: list[str]) -> None:
    """Count one scanned sheet against its truth."""
    named = {doubt.get("where") for doubt in entry["needs_review"]}
    # A side between two tiles is one question ("is there a path line through D1-E1?"), put on one of them.
    asked = {frozenset(pair) for doubt in entry["needs_review"] for pair in SIDE_ASKED.findall(doubt.get("why", ""))}
    read, built = entry["dungeon"], truth["dungeon"]
    sheet_right = True
    for row in range(1, 7):
        for col in "ABCDEF":
            name = f"{col}{row}"
            counts["tiles"] += 1
            seen = name not in truth.get("hidden", ())
            counts["tiles seen"] += seen
            got, meant = tile_of(read["tiles"].get(name, {})), tile_of(built["tiles"].get(name, {}))
            if got == meant:
                counts["tiles right"] += 1
                counts["tiles seen right"] += seen
                continue
            sheet_right = False
            if name in named or _side_asked(name, got, meant, asked):
                counts["tiles wrong named"] += 1
            else:
                counts["WRONG UNNAMED"] += 1
                wrong.append(f"{truth['source']} {name}: read {got}, built {meant} ({truth.get('condition', '')})")
    for place in PLACES:
        counts["places"] += 1
        if read.get(place) == built.get(place):
            counts["places right"] += 1
            continue
        sheet_right = False
        where = (read.get(place) or built.get(place) or "").split(":")[0]
        if place in named or where in named or any(d["rule"] in ("no_entrance", "no_stairs")
                                                   for d in entry["needs_review"]):
            counts["places wrong named"] += 1
        else:
            counts["WRONG UNNAMED"] += 1
            wrong.append(f"{truth['source']} {place}: read {read.get(place)}, built {built.get(place)}")
    record = entry["record"]
    counts["records"] += 1
    fields = ("gems", "potions", "spells_got", "spells_cast", "souls", "hearts")
    if all(_same(record.get(key), truth.get(key)) for key in fields):
        counts["records right"] += 1
    else:
        sheet_right = False
        off = [f"{key} {record.get(key)} not {truth.get(key)}" for key in fields
               if not _same(record.get(key), truth.get(key))]
        wrong.append(f"{truth['source']} record: {', '.join(off)}"
                     + ("" if entry["needs_review"] else " (nothing flagged)"))
        for key in fields:       # a record read wrong is named when an entry points at its boxes
            if not _same(record.get(key), truth.get(key)) and not _record_named(key, record.get(key),
                                                                                truth.get(key), named, maker):
                counts["WRONG UNNAMED"] += 1
                wrong.append(f"{truth['source']} record {key}: read {record.get(key)}, made {truth.get(key)}, "
                             f"not named ({truth.get('condition', '')})")
    expected = truth_score(truth, maker)
    clear = not truth.get("touched")
    counts["clear"] += clear
    if entry["score"]["total"] == expected:
        counts["exact score"] += 1
        counts["clear exact"] += clear
    elif entry["needs_review"]:
        counts["wrong score flagged"] += 1
    else:
        counts["WRONG UNFLAGGED"] += 1
        wrong.append(f"{truth['source']}: score {entry['score']['total']}, should be {expected}, nothing flagged")
    if sheet_right and entry["needs_review"]:
        counts["right flagged"] += 1
        wrong.append(f"{truth['source']} flagged though right: "
                     + "; ".join(f"{d.get('where')}: {d.get('rule')}" for d in entry["needs_review"][:3]))
    counts["right"] += sheet_right


def _record_named(key: str, read, made, named: set, maker) -> bool:
    """Whether a record field read wrong is named: an entry at its row (``RECORD_PLACES``); for the spells,
    an entry at each spell read wrong (its own box: "Mend got", "Spells: mend cast" where the photo does
    not show it) or at the whole Spells panel ("Spells": a row off its print, a spell rule broken). A
    question about one spell's box names no other spell read wrong beside it."""
    if not key.startswith("spells_"):
        return any(str(where).startswith(RECORD_PLACES[key](maker)) for where in named)
    if "Spells" in named:
        return True
    names = {spell["id"]: spell["name"] for spell in maker.spells}
    suffix = "got" if key == "spells_got" else "cast"
    wrong = set(read or []) ^ set(made or [])
    return all(f"{names.get(spell, spell)} {suffix}" in named
               or f"Spells: {spell}{'' if suffix == 'got' else ' cast'}" in named for spell in wrong)


def _same(one, other) -> bool:
    if isinstance(one, (list, tuple)) or isinstance(other, (list, tuple)):
        return sorted(one or []) == sorted(other or [])
    return one == other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=5, help="sheets per condition")
    parser.add_argument("--conditions", default="all", help="all, or a comma list of photographer.CONDITIONS")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=12, help="list this many misreadings")
    parser.add_argument("--degrade", default="", type=spec_argument, help=DEGRADE_HELP)
    args = parser.parse_args()

    from generator.kinds import BLANKS
    from photographer import CONDITIONS, make_maker_shots
    from scanner.load import load_photo_bytes
    from scanner.scan import scan_photo

    maker = load_maker()
    conditions = ["good"] + [c for c in CONDITIONS if c != "good"] if args.conditions == "all" \
        else [c for c in args.conditions.split(",") if c]
    total: Counter = Counter()
    wrong: list[str] = []
    started = time.perf_counter()
    print(f"{'condition':<11}{'sheets':>7}{'read':>6}{'tiles right':>13}{'seen right':>12}{'WRONG UNNAMED':>15}"
          f"{'records':>9}"
          f"{'exact score':>13}{'exact clear':>17}{'WRONG UNFLAGGED':>17}{'right flagged':>15}")
    for index, condition in enumerate(conditions):
        counts: Counter = Counter()
        for n in range(args.sheets):
            seed = args.seed * 10_000 + index * 100 + n
            paper = "letter" if n % 3 == 2 else "a4"
            shots = make_maker_shots(seed, players=1, paper=paper, condition=condition)
            if args.degrade:
                rng = np.random.default_rng(seed)
                shots = [degrade_shot(shot, args.degrade, rng) for shot in shots]
            for shot in shots:
                counts["sheets"] += 1
                truth = shot.truth
                scans, problems = scan_photo(load_photo_bytes(shot.data, truth["source"])[0], BLANKS)
                if len(scans) != 1:
                    wrong.append(f"{truth['source']}: not read: {'; '.join(problems)}")
                    continue
                counts["read"] += 1
                compare(score_entry(scans[0].to_json(), maker), {**truth, "condition": condition}, maker,
                        counts, wrong)
        _row(condition, counts)
        total.update(counts)
    _row("all", total)
    print(f"\n{total['sheets']} sheets in {time.perf_counter() - started:.0f} s")
    for line in wrong[:args.show]:
        print("  " + line)
    if len(wrong) > args.show:
        print(f"  ... and {len(wrong) - args.show} more")


def _row(name: str, c: Counter) -> None:
    def share(part: str, whole: str) -> str:
        return f"{100 * c[part] / c[whole]:.2f}%" if c[whole] else "-"
    clear = f"{share('clear exact', 'clear')} ({c['clear']})"
    print(f"{name:<11}{c['sheets']:>7}{c['read']:>6}{share('tiles right', 'tiles'):>13}"
          f"{share('tiles seen right', 'tiles seen'):>12}{c['WRONG UNNAMED']:>15}"
          f"{share('records right', 'records'):>9}{share('exact score', 'read'):>13}"
          f"{clear:>17}"
          f"{c['WRONG UNFLAGGED']:>17}{c['right flagged']:>15}")


if __name__ == "__main__":
    main()
