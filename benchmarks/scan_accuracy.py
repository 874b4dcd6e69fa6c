"""How often the scanner reads a photographed sheet right, and whether it flags what it gets wrong.

    python benchmarks/scan_accuracy.py [--games 40] [--players 3] [--seed 1] [--maps 5,6]
    python benchmarks/scan_accuracy.py --conditions all [--games 10] [--seed 1]
    python benchmarks/scan_accuracy.py --conditions good,dim,steep --degrade blur:2

With ``--degrade``, every photo is degraded after it is taken in a way the
photographer does not make (out of focus, shaken, recompressed, a colour cast:
``photographer/degrade.py``), to see how the scanner fares beyond the photos
it was tuned on.

The synthetic photographer plays games with the random legal player, draws
them like a hand would and photographs them (easy, medium and hard cameras,
classic and random maps, A4 and Letter). Each game's photos are scanned in one
call, as ``scrawl scan`` does, and compared with the truth:

- rooms: a room is right when its exits and trap match (every room of the map
  counts, empty ones too);
- exact score: the sheet's total equals the truth's total (traps resolved
  between the truth sheets of the game);
- wrong but flagged / wrong and unflagged: sheets with a wrong total that do /
  do not list anything in ``needs_review`` (the second must be zero);
- flagged but right: sheets a person is asked to look at needlessly;
- tallies and round numbers read, and photos not read at all;
- on expansion maps (``--maps 1,2,..,6``, ``random-expansion``; played with the
  die, the game's rolls given to the scan as ``scrawl scan --rolls`` does): each
  kind of mark (Diamonds, Emeralds, Curse Track halves, Rune Gates) read right,
  read wrong but flagged, and read WRONG and unflagged (a half is flagged by an
  entry about it, or by one about the whole track that names it in its words:
  "the filled bottom halves (spaces 1, 3, 4) are not one run from the right").

With ``--conditions`` (``all`` or names from ``photographer.CONDITIONS``) the
games are photographed in named conditions instead (messaging-app copies,
steep angles, curled or folded paper, glare, shadows, dim light, light pencil,
a messy hand, a pen or a thumb on the sheet), ``--games`` games each (default
10) on the maps classic, random, map5, random-expansion, map6, map2 in turn
(or ``--maps``), every 4th on Letter, and one row is printed per condition:

- read: photos with a sheet read; rooms right and exact score as above (exact
  score of the sheets read that carry a score);
- exact clear: the exact score over the sheets whose photo hides no part of
  any room (the photographer's ``touched`` is empty), and how many they are:
  the reading's own loss, without the strokes a pen, a thumb or glare hides
  from any reader (those rooms can only be named);
- wrong rooms, and WRONG UNNAMED: rooms read wrong whose name is not the
  ``where`` of any of that sheet's own ``needs_review`` entries (entries of rule
  ``other_sheet_unsure`` do not count: they are another sheet's doubt);
- WRONG UNFLAGGED: sheets with a wrong total and nothing in ``needs_review``
  (another sheet's unnamed mistake can make a sheet's score wrong);
- hidden: rooms the truth says are hidden (glare, pen, thumb: a quarter of the
  room or more) on the sheets read, and hidden named: those that are the
  ``where`` of any ``needs_review`` entry of the sheet;
- right flagged: sheets with the right total that list anything in
  ``needs_review`` (count and share of the right sheets);
- no score: sheets read whose result carries no score (neither exact nor wrong).
"""
from __future__ import annotations

import argparse
import re
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from photographer import CONDITIONS, STRESS_CONDITIONS, make_game_shots, write_shots
from photographer.degrade import HELP as DEGRADE_HELP, degrade_shot, spec_argument

DIFFICULTIES = ("easy", "medium", "hard")
CONDITION_MAPS = ("classic", "random", "map5", "random-expansion", "map6", "map2")


def truth_totals(truths: list[dict]) -> list[int]:
    """The true score of each sheet of one game."""
    from games.state import FORMAT, read_game, score_game

    sheets, errors = read_game({"format": FORMAT, "sheets": truths}, "truth")
    assert not errors, errors
    return [result.score.total for result in score_game(sheets)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games per difficulty (default 40) or per condition (default 10)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=8, help="list this many wrong sheets")
    parser.add_argument("--maps", default="", help="maps to play, in turn: 1-6 (expansion maps 1-6), classic, "
                                                   "random, random-expansion; default classic and random")
    parser.add_argument("--difficulties", default=",".join(DIFFICULTIES))
    parser.add_argument("--degrade", default="", type=spec_argument, help=DEGRADE_HELP)
    parser.add_argument("--conditions", default="",
                        help="photograph in these named conditions instead of the difficulties: all, or a comma "
                             "list of " + ", ".join(CONDITIONS + STRESS_CONDITIONS)
                             + " (faint: a pencil fainter than the issue's range, not in all)")
    args = parser.parse_args()
    maps = [f"map{m}" if m.isdigit() else m for m in args.maps.split(",") if m]
    if args.conditions:
        conditions = list(CONDITIONS) if args.conditions == "all" else [c for c in args.conditions.split(",") if c]
        known = CONDITIONS + STRESS_CONDITIONS
        unknown = [c for c in conditions if c not in known]
        if unknown:
            parser.error(f"unknown condition(s) {', '.join(unknown)} (one of: {', '.join(known)})")
        games = 10 if args.games is None else args.games
        # (row label, seed, make_game_shots arguments) of every game to play
        plan = [(condition, args.seed * 100_000 + 50_000 + known.index(condition) * 1_000 + game,
                 {"condition": condition, "map_id": (maps or CONDITION_MAPS)[game % len(maps or CONDITION_MAPS)],
                  "paper": "letter" if game % 4 == 3 else "a4"})
                for condition in conditions for game in range(games)]
    else:
        difficulties = [d for d in args.difficulties.split(",") if d]
        games = 40 if args.games is None else args.games
        plan = [(difficulty, args.seed * 100_000 + DIFFICULTIES.index(difficulty) * 10_000 + game,
                 {"difficulty": difficulty,
                  "map_id": maps[game % len(maps)] if maps else "random" if game % 3 == 2 else "classic",
                  "paper": "letter" if game % 4 == 3 else "a4"})
                for difficulty in difficulties for game in range(games)]

    stats: dict[str, dict] = defaultdict(lambda: defaultdict(int))
    wrong_sheets: list = []
    needless: Counter = Counter()      # why sheets with a right score were flagged
    started = time.perf_counter()
    folder = Path(tempfile.mkdtemp(prefix="scan-accuracy-"))
    marks: dict[str, Counter] = defaultdict(Counter)
    played: Counter = Counter()
    for label, seed, how in plan:
        shots = make_game_shots(seed, players=args.players, **how)
        if args.degrade:
            rng = np.random.default_rng(seed)
            shots = [degrade_shot(shot, args.degrade, rng) for shot in shots]
        _score_game(shots, folder / f"{label}-{played[label]}", stats[label], label, wrong_sheets, needless, marks)
        played[label] += 1
    if args.conditions:
        _print_conditions(stats, time.perf_counter() - started)
    else:
        _print(stats, time.perf_counter() - started)
    if marks:
        print(f"{'marks':14}{'read':>7}{'right':>9}{'wrong,flag':>11}{'WRONG,UNFLAG':>13}{'right,flag':>11}")
        for kind in ("diamond", "emerald", "curse half", "gate"):
            m = marks[kind]
            if m["read"]:
                print(f"{kind:14}{m['read']:>7}{_pct(m['right'], m['read']):>9}{m['wrong, flagged']:>11}"
                      f"{m['WRONG, UNFLAGGED']:>13}{m['right, flagged']:>11}")
    if needless:
        print("why sheets with the right score were flagged (a sheet may have several reasons):")
        for reason, count in needless.most_common(12):
            print(f"  {count:4}  {reason}")
    for difficulty, photo, what, details in wrong_sheets[:args.show]:
        print(f"  {difficulty:<6} {photo}: {what}: {'; '.join(map(str, details))[:200]}")
    print(f"(photos and truth files kept in {folder})")


def _score_game(shots: list, folder: Path, s: dict, label: str, wrong_sheets: list, needless: Counter,
                marks: dict) -> None:
    """Scan one game's photos in one call, as ``scrawl scan`` does, score them together and add how each sheet
    compares with its truth to the row ``s``."""
    from games.game import score_document
    from games.state import game_json
    from generator.kinds import BLANKS
    from scanner.batch import game_document, scan_files

    paths = write_shots(shots, folder)
    photos = [str(p) for p in paths if not p.name.endswith(".json")]
    outcomes = scan_files(photos, BLANKS, rolls=shots[0].truth.get("rolls"))
    truths = [shot.truth for shot in shots]
    expected = truth_totals(truths)
    document = game_document(outcomes)
    results, errors = score_document(document)      # as scrawl scan scores a game
    scored = {s["source"]: s for s in game_json(results, errors)["sheets"]} if results else {}
    for photo, truth, total in zip(photos, truths, expected):
        s["sheets"] += 1
        sheet = scored.get(photo)
        if sheet is None:
            s["not read"] += 1
            wrong_sheets.append((label, photo, "not read",
                                 [e["error"] for e in document["errors"] if e["source"] == photo]))
            continue
        wrong = _compare_rooms(s, sheet, truth)
        if "marks" in truth:
            _compare_marks(marks, sheet, truth, wrong_sheets, label, photo)
        review = sheet["needs_review"]
        named = {entry.get("where") for entry in review}
        own = {entry.get("where") for entry in review if entry.get("rule") != "other_sheet_unsure"}
        s["wrong rooms"] += len(wrong)
        s["WRONG ROOMS UNNAMED"] += sum(room not in own for room in wrong)
        hidden = truth.get("hidden", [])
        s["hidden rooms"] += len(hidden)
        s["hidden named"] += sum(room in named for room in hidden)
        s["tally right"] += sheet["unusable"] == truth["unusable"]
        flagged = bool(review)
        s["flagged"] += flagged
        if sheet.get("score") is None:
            s["no score"] += 1
            continue
        right = sheet["score"]["total"] == total
        s["exact score"] += right
        clear = not truth.get("touched")
        s["clear"] += clear
        s["clear exact"] += right and clear
        if not right:
            s["wrong, flagged" if flagged else "WRONG, UNFLAGGED"] += 1
            wrong_sheets.append((label, photo, f"{sheet['score']['total']} for {total}",
                                 _differences(sheet, truth) + [e["why"] for e in review][:3]))
        elif flagged:
            s["right, flagged"] += 1
            for reason in {_reason(entry) for entry in review}:
                needless[reason] += 1


def _compare_rooms(s: dict, sheet: dict, truth: dict) -> list[str]:
    """Count the sheet's rooms (right, round numbers read) into ``s``; the names of the rooms read wrong."""
    from games.mapfile import map_from_reference

    dungeon = map_from_reference(sheet["map"])
    wrong = []
    for room in dungeon.rooms():
        read = sheet["rooms"].get(room.name, {"exits": "", "trap": False, "round": None})
        true = truth["rooms"].get(room.name, {"exits": "", "trap": False, "round": None})
        s["rooms"] += 1
        s["rooms right"] += (read["exits"], read["trap"]) == (true["exits"], true["trap"])
        if (read["exits"], read["trap"]) != (true["exits"], true["trap"]):
            wrong.append(room.name)
        if true["round"] is not None and (read["exits"], read["trap"]) == (true["exits"], true["trap"]):
            s["rounds written"] += 1
            if read["round"] is not None:
                s["rounds read"] += 1
                s["rounds wrong"] += read["round"] != true["round"]
    return wrong


def _compare_marks(marks: dict, sheet: dict, truth: dict, wrong_sheets: list, difficulty: str, photo: str) -> None:
    """Each Diamond, Emerald, Curse Track half and Rune Gate of the map: read right, or wrong and flagged
    (a ``needs_review`` entry names the place: an ``unsure_mark``, or a rule it breaks, such as a Rune Gate
    filled in early) or not."""
    from games.mapfile import map_from_reference

    dungeon = map_from_reference(sheet["map"])
    read, true = sheet.get("marks", {}), truth["marks"]
    flagged = {entry["where"] for entry in sheet["needs_review"]} | _curse_halves_named(sheet["needs_review"])
    found = []
    for kind, key in (("diamond", "diamonds"), ("emerald", "emeralds")):
        for room, item in dungeon.rooms_with(kind):
            found.append((kind, room.name, item.number in read.get(key, []), item.number in true[key]))
    for half in ("top", "bottom"):
        for k, value in enumerate(true["curse_track"][half], start=1):
            got = read.get("curse_track", {}).get(half, [])
            found.append(("curse half", f"curse track space {k} ({half})", k <= len(got) and got[k - 1], value))
    from games.board import side_name

    for side, _ in dungeon.gates:
        name = side_name(side)
        found.append(("gate", name, name in read.get("gates", []), name in true["gates"]))
    for kind, where, got, want in found:
        m = marks[kind]
        m["read"] += 1
        if got == want:
            m["right"] += 1
            m["right, flagged"] += where in flagged
        elif where in flagged:
            m["wrong, flagged"] += 1
        else:
            m["WRONG, UNFLAGGED"] += 1
            wrong_sheets.append((difficulty, photo, f"{kind} {where} read {got} is {want}", []))


def _curse_halves_named(review: list[dict]) -> set[str]:
    """The Curse Track halves (as ``_compare_marks`` names them) that an entry about the whole track names in its
    words: the rules check the track as a whole ("the filled bottom halves (spaces 1, 3, 4) are not one run
    from the right", "the bottom half of space 1 is filled, the rolls leave it empty", "the bottom half of
    Curse Track space 1 is filled in here")."""
    named = set()
    for entry in review:
        if entry.get("where") != "curse track":
            continue
        why = re.sub(r"(dragons|suns) fill the \w+ halves from space \d+ on", "", entry.get("why", ""))   # the rule
        for row, numbers in re.findall(r"\b(top|bottom) hal(?:f|ves)\b[^;:]*?\bspaces? (\d+(?:, \d+)*)", why):
            named |= {f"curse track space {number} ({row})" for number in numbers.split(", ")}
    return named


def _reason(entry: dict) -> str:
    """A needs_review entry's kind: its rule and the gist of its reason, without names and numbers."""
    why = re.sub(r"\S*\.(jpg|png|webp|heic)\S*", "PHOTO", entry.get("why", ""))
    why = re.sub(r"\b[A-Z]\d+\b", "ROOM", why.split(";")[0])
    why = re.sub(r"\d+(\.\d+)?", "N", why)
    return f"{entry.get('rule')}: {why[:70]}"


def _differences(sheet: dict, truth: dict) -> list[str]:
    out = []
    for name in sorted(set(sheet["rooms"]) | set(truth["rooms"])):
        read = sheet["rooms"].get(name, {"exits": "", "trap": False})
        true = truth["rooms"].get(name, {"exits": "", "trap": False})
        if (read["exits"], read["trap"]) != (true["exits"], true["trap"]):
            out.append(f"{name} read {read['exits'] or ('X' if read['trap'] else '-')} "
                       f"is {true['exits'] or ('X' if true['trap'] else '-')}")
    if sheet["unusable"] != truth["unusable"]:
        out.append(f"tally read {sheet['unusable']} is {truth['unusable']}")
    return out


def _with_total(stats: dict) -> tuple[list, dict]:
    """The rows of ``stats`` and a last row "all" summing them, and that sum."""
    rows = list(stats.items())
    total = defaultdict(int)
    for _, row in rows:
        for key, value in row.items():
            total[key] += value
    rows.append(("all", total))
    return rows, total


def _print(stats: dict, seconds: float) -> None:
    rows, total = _with_total(stats)
    print(f"{'':8}{'sheets':>7}{'rooms right':>14}{'exact score':>13}{'wrong,flag':>11}{'WRONG,UNFLAG':>13}"
          f"{'right,flag':>11}{'tally':>8}{'rounds read/wrong':>19}{'not read':>9}")
    for name, s in rows:
        sheets = max(1, s["sheets"] - s["not read"])
        print(f"{name:8}{s['sheets']:>7}{_pct(s['rooms right'], s['rooms']):>14}{_pct(s['exact score'], sheets):>13}"
              f"{s['wrong, flagged']:>11}{s['WRONG, UNFLAGGED']:>13}{s['right, flagged']:>11}"
              f"{_pct(s['tally right'], sheets):>8}"
              f"{_pct(s['rounds read'], s['rounds written']):>11}/{s['rounds wrong']:<7}{s['not read']:>9}")
    print(f"({seconds:.0f} s; rooms right counts every room of every sheet read, "
          f"{total['rooms']} rooms in all)")


def _print_conditions(stats: dict, seconds: float) -> None:
    """One row per condition and one for all: see the module's docstring for the columns."""
    rows, total = _with_total(stats)
    print(f"{'':10}{'sheets':>7}{'read':>9}{'rooms right':>13}{'exact score':>13}{'exact clear':>17}{'wrong rooms':>13}"
          f"{'WRONG UNNAMED':>15}{'WRONG UNFLAGGED':>17}{'hidden':>8}{'hidden named':>14}{'right flagged':>18}"
          f"{'no score':>10}")
    for name, s in rows:
        read = s["sheets"] - s["not read"]
        right = s["exact score"]
        flagged = f"{s['right, flagged']} ({_pct(s['right, flagged'], right)})" if right else "0"
        clear = f"{_pct(s['clear exact'], s['clear'])} ({s['clear']})"
        print(f"{name:10}{s['sheets']:>7}{_pct(read, s['sheets']):>9}{_pct(s['rooms right'], s['rooms']):>13}"
              f"{_pct(right, read - s['no score']):>13}{clear:>17}{s['wrong rooms']:>13}{s['WRONG ROOMS UNNAMED']:>15}"
              f"{s['WRONG, UNFLAGGED']:>17}{s['hidden rooms']:>8}{s['hidden named']:>14}{flagged:>18}"
              f"{s['no score']:>10}")
    print(f"({seconds:.0f} s; rooms right counts every room of every sheet read, {total['rooms']} rooms in all)")


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}%" if whole else "-"


if __name__ == "__main__":
    main()
