"""How often the scanner reads a filled monster record sheet right, and whether it flags what it gets wrong.

    python benchmarks/monster_accuracy.py [--sheets 30] [--difficulty medium] [--faults 2] [--seed 1]
    python benchmarks/monster_accuracy.py --conditions all [--sheets 20] [--faults 0]
    python benchmarks/monster_accuracy.py --conditions good,dim --degrade jpeg:30   (photographer/degrade.py)

The synthetic photographer fills monster record sheets by hand (random
rosters; bubbles filled full or sloppy, a few half-filled or with a second
bubble filled on purpose; any pen; life boxes crossed) and photographs them
like a phone at the given difficulty. Each photo is scanned as ``scrawl scan``
does and compared with the truth:

- bubbles: every bubble of the page (462) read as marked or empty as drawn;
- groups: every bubble group of every card (die sides, colour, type of each
  part, 318 a page) read as the value the player meant, or as nothing; a group
  is *flagged* when a ``needs_review`` entry points at it or its part (or,
  on the whole card, lists it), or says its monster is left out (parts marked, no core die: the roster then
  holds nothing of that monster);
- wrong and unflagged: groups read wrong with no entry about them (the number
  that must stay at zero); faults caught: the two_bubbles / half_filled put on
  purpose that the scan lists with that rule; needless flags: entries about
  groups drawn cleanly;
- life tracks: damage read right on the parts present; pool dice right;
- sheets: the whole roster right (flagged or not), and right without any flag
  but the faults put on purpose;
- with ``--conditions``, the same figures for the sheets photographed in each of issue 9's conditions: where
  a pen, a thumb or glare lies over a bubble group, a life track or a pool's row of dice (the photographer
  says which), the scan must name it (``cannot_see``); that entry is not a needless flag;
- the game-night page: each photo sent as an upload (``scrawl.service.scan_upload``)
  must give the same entry as ``scrawl scan`` does, so every figure above holds
  for the page's monster battles too.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from photographer import CONDITIONS, STRESS_CONDITIONS, make_monster_shots
from photographer.degrade import HELP as DEGRADE_HELP, degrade_shot, spec_argument


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=30, help="photos to make and read (two players a seed)")
    parser.add_argument("--difficulty", default="medium", choices=("easy", "medium", "hard"))
    parser.add_argument("--faults", type=int, default=2, help="bubbles per sheet half-filled or doubled on purpose")
    parser.add_argument("--paper", default="both", choices=("a4", "letter", "both"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=10, help="list this many wrong readings")
    parser.add_argument("--verbose", action="store_true", help="list needless flags too")
    parser.add_argument("--degrade", default="", type=spec_argument, help=DEGRADE_HELP)
    parser.add_argument("--conditions", default="",
                        help="all, or a comma list of photographer.CONDITIONS: the sheets photographed in each "
                             "(instead of --difficulty), a block of figures each")
    args = parser.parse_args()
    if not args.conditions:
        _measure(args, None)
        return
    conditions = list(CONDITIONS) if args.conditions == "all" else [c for c in args.conditions.split(",") if c]
    unknown = [c for c in conditions if c not in CONDITIONS + STRESS_CONDITIONS]
    if unknown:
        parser.error(f"unknown condition(s) {', '.join(unknown)} (one of: {', '.join(CONDITIONS)})")
    for condition in conditions:
        _measure(args, condition)


def _measure(args, condition: str | None) -> None:
    """Read ``args.sheets`` photos (in ``condition``, else at ``args.difficulty``) and print the figures."""
    from generator.kinds import BLANKS
    from scanner.load import load_photo_bytes
    from scanner.monsters import MARKED, choose
    from scanner.scan import scan_photo
    from scrawl.service import scan_upload

    counts: Counter = Counter()
    wrong: list[str] = []
    needless: Counter = Counter()
    pens: Counter = Counter()
    started = time.perf_counter()
    seed = args.seed * 1000
    while counts["photos"] < args.sheets:
        paper = args.paper if args.paper != "both" else ("letter" if seed % 3 == 2 else "a4")
        shots = make_monster_shots(seed, players=2, difficulty=args.difficulty, paper=paper, faults=args.faults,
                                   condition=condition)
        if args.degrade:
            rng = np.random.default_rng(seed)
            shots = [degrade_shot(shot, args.degrade, rng) for shot in shots]
        for shot in shots:
            if counts["photos"] >= args.sheets:
                break
            counts["photos"] += 1
            truth = shot.truth
            pens[f"{truth['hand']['tool']} {truth['hand']['pen']}"] += 1
            photo = load_photo_bytes(shot.data, truth["source"])[0]
            scans, problems = scan_photo(photo, BLANKS, None)
            if len(scans) != 1:
                counts["not read"] += 1
                wrong.append(f"{truth['source']}: not read: {'; '.join(problems)}")
                continue
            scan = scans[0]
            entry = scan.to_json()
            marks, layout = scan.marks, scan.layout
            drawn = {tuple(key.split("|")): how for key, how in truth["marks"].items()}
            faults = {(f["where"], f["rule"]) for f in truth["faults"]}
            fault_groups = {where for where, _ in faults}
            review = entry["needs_review"]
            flagged_at = {d["where"] for d in review}
            # An entry on a monster's whole card or a whole pool (a curl along it) names the places its
            # words list.
            cards = {f"monster {card.number}" for card in layout.cards} | {pool.key for pool in layout.pools}
            flagged_at |= {place for d in review if d["where"] in cards for place in layout.places()
                           if place.startswith(d["where"] + " ") and place in d["why"]}
            # Bubbles.
            for key, fill in marks.fills.items():
                counts["bubbles"] += 1
                counts["bubbles right"] += (fill >= MARKED) == (key in drawn)
            # Groups.
            meant = _meant(truth, layout)
            for name, bubbles in layout.groups().items():
                counts["groups"] += 1
                value, _ = choose(name, marks.group(name))
                part = name.rsplit(" ", 1)[0]
                # A group of a monster the scan leaves out, saying so ("parts are marked but no core die"), is
                # named: the roster holds nothing of that monster.
                monster = " ".join(name.split()[:2])
                flagged = name in flagged_at or part in flagged_at or any(
                    d["rule"] == "missing" and d["where"] == f"{monster} core" for d in review)
                right = value == meant.get(name)
                counts["groups right"] += right
                counts["groups flagged"] += flagged
                if not right and not flagged:
                    counts["wrong unflagged"] += 1
                    wrong.append(f"{truth['source']} {name}: read {value}, drawn {meant.get(name)} "
                                 f"({truth['hand']['tool']} {truth['hand']['pen']}, "
                                 f"{ {b.value: round(marks.fills[(b.group, b.value)], 2) for b in bubbles} })")
                elif not right:
                    counts["wrong flagged"] += 1
            for where, rule in faults:
                counts["faults"] += 1
                caught = any(d["where"] == where and d["rule"] == rule for d in review)
                counts["faults caught"] += caught
                if not caught:
                    fills = {b.value: round(marks.fills[(b.group, b.value)], 2) for b in layout.groups()[where]}
                    said = [d["rule"] for d in review if d["where"] == where] or "nothing"
                    wrong.append(f"{truth['source']} {where}: {rule} put on purpose, the scan says {said} "
                                 f"({truth['hand']['tool']} {truth['hand']['pen']}, "
                                 f"{ {v: f for v, f in fills.items() if f > 0.05} })")
            touched = set(truth.get("touched", []))      # what a thumb, a pen or glare lies over may be named
            for d in review:
                # (An unseen core's or part's whole row, ``MonsterScan._unseen``, covers the groups on it.)
                # (An entry on a core's or part's whole row, one naming a monster left out, names the faults
                # on its groups.)
                if d["where"] not in fault_groups and not any(group.startswith(d["where"] + " ")
                                                              for group in fault_groups) \
                        and not (d["rule"] == "cannot_see" and (
                        d["where"] in touched or any(place.startswith(d["where"] + " ") for place in touched))):
                    counts["needless flags"] += 1
                    needless[d["rule"]] += 1
                    if args.verbose:
                        wrong.append(f"{truth['source']} needless {d['where']}: {d['rule']}, {d['why']} "
                                     f"({truth['hand']['tool']} {truth['hand']['pen']})")
            # Life tracks of the parts present, and the pools.
            for name, hurt in _damage(truth, layout).items():
                counts["tracks"] += 1
                read, _ = marks.damage(name)
                counts["tracks right"] += read == hurt
                part = name.rsplit(" ", 1)[0]
                if read != hurt and not any(w.startswith(name) or w == part for w in flagged_at):
                    counts["tracks wrong unflagged"] += 1
                if read != hurt:
                    wrong.append(f"{truth['source']} {name}: read {read}, crossed {hurt} "
                                 f"({truth['hand']['tool']} {truth['hand']['pen']}, "
                                 f"{[round(f, 2) for f in marks.life[name]]})")
            player = entry["roster"]["players"][0]
            expected = truth["roster"]["players"][0]
            for key in ("reserve", "active"):
                counts["pool dice"] += len(set(player[key]) | set(expected[key]))
                counts["pool dice right"] += len(set(player[key]) & set(expected[key]))
                for die in set(player[key]) ^ set(expected[key]):
                    flagged = f"{key} {die}" in flagged_at or f"{key} {die.split()[0]}" in flagged_at
                    counts["pool dice wrong, NOT flagged"] += not flagged
                    fill = marks.fills[(key, die)]
                    wrong.append(f"{truth['source']} {key} {die}: read {'in' if die in player[key] else 'out'}, "
                                 f"fill {fill:.2f}, {'flagged' if flagged else 'NOT flagged'} "
                                 f"({truth['hand']['tool']} {truth['hand']['pen']})")
            right = player == expected
            counts["sheets right"] += right
            # The game-night page's path (an upload read by scrawl.service.scan_upload) must read the same.
            page = scan_upload(shot.data, truth["source"])
            counts["page reads the same"] += [read.entry for read in page.reads] == [entry]
            counts["sheets right, only the faults flagged"] += right and flagged_at <= fault_groups
        seed += 1
    seconds = time.perf_counter() - started

    def share(part: str, whole: str) -> str:
        return f"{counts[part]}/{counts[whole]} ({100 * counts[part] / max(counts[whole], 1):.2f}%)"

    print(f"{counts['photos']} photos, {condition or args.difficulty} camera, {args.faults} faults a sheet, "
          f"pens: {', '.join(f'{k} {v}' for k, v in pens.most_common())}")
    print(f"  bubbles read as drawn       {share('bubbles right', 'bubbles')}")
    print(f"  groups read right           {share('groups right', 'groups')}")
    print(f"  groups flagged              {share('groups flagged', 'groups')}")
    print(f"  wrong, flagged              {counts['wrong flagged']}")
    print(f"  wrong, NOT flagged          {counts['wrong unflagged']}")
    print(f"  faults caught (same rule)   {share('faults caught', 'faults')}")
    print(f"  needless flags              {counts['needless flags']} {dict(needless)}")
    print(f"  life tracks right           {share('tracks right', 'tracks')}")
    print(f"  life tracks wrong, NOT flagged {counts['tracks wrong unflagged']}")
    print(f"  pool dice right             {share('pool dice right', 'pool dice')}")
    print(f"  pool dice wrong, NOT flagged {counts['pool dice wrong, NOT flagged']}")
    print(f"  sheets right                {share('sheets right', 'photos')}")
    print(f"  ... with no needless flag   {share('sheets right, only the faults flagged', 'photos')}")
    print(f"  photos not read             {counts['not read']}")
    print(f"  the page's upload reads the same {share('page reads the same', 'photos')}")
    print(f"  {seconds:.0f} s (making the photos included)")
    for line in wrong[:args.show]:
        print("  " + line)


def _meant(truth: dict, layout) -> dict[str, str]:
    """Group name -> the value the player meant, for the parts on the sheet."""
    meant = {}
    for card, rows in zip(layout.cards, truth["rows"]):
        if rows is None:
            continue
        for row in card.parts:
            part = rows.get(str(row.part))
            if part is None:
                continue
            size, colour = part["die"].split()
            meant[f"{row.where} size"] = size
            meant[f"{row.where} colour"] = colour
            if row.part:
                meant[f"{row.where} type"] = part["type"]
    return meant


def _damage(truth: dict, layout) -> dict[str, int]:
    hurt = {}
    for card, rows in zip(layout.cards, truth["rows"]):
        for row in card.parts:
            if rows is not None and str(row.part) in rows:
                hurt[f"{row.where} life"] = rows[str(row.part)]["damage"]
    return hurt


if __name__ == "__main__":
    main()
