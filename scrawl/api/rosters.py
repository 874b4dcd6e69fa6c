"""A monster battle on the game-night page: the rosters read from the two players' monster record sheets, with
the corrections people made in place of what was read, and the battle between them (``games.battle``).

Nothing played is stored but the battle's seed: each time a game is asked for,
every sheet's rows are read back with their corrections, each player's pages
merged into one roster (``scanner.monsters.merge_entries``), and, once both
rosters can be played, the battle is played from the seed and each side's
odds counted over ``ODDS_TRIALS`` battles. So a correction or a retake never
leaves a stale battle behind.

A sheet's corrections are ``{"parts": {"monster 1 part 2": {"size": "d8",
"colour": "red", "type": "weapon", "damage": 3} or None}, "pools":
{"reserve": ["d6 red"]}}``: a part row said to hold that (None: nothing), a
pool said to hold those dice.
"""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache

from games.review import Rule
from scrawl.store import Store

ODDS_TRIALS = 100               # battles played for each side's odds (about a tenth of a second)
ODDS_SEED = 1                   # the odds are the rosters', whatever the battle's own seed
POOLS = ("reserve", "active")
ROW_KEY = re.compile(r"monster-([1-9][0-9]?)-(core|part-[1-4])")


# -- a row's name in a path ---------------------------------------------------------------------------------
def row_key(where: str) -> str:
    """A part row as a path names it: ``monster 1 part 2`` -> ``monster-1-part-2``."""
    return where.replace(" ", "-")


def row_where(key: str) -> str | None:
    """A path's part row as the sheet names it (``monster-1-core`` -> ``monster 1 core``), None if it is none."""
    return key.replace("-", " ") if ROW_KEY.fullmatch(key) else None


# -- a sheet read, with its corrections ---------------------------------------------------------------------
def corrected_readings(readings: dict, corrections: dict) -> dict:
    """A sheet's ``row_readings`` with a person's corrections in place of what was read."""
    rows = dict(readings.get("rows", {}))
    for where, fixed in corrections.get("parts", {}).items():
        if fixed is None:
            rows.pop(where, None)
        else:
            rows[where] = fixed
    said = corrections.get("pools", {})
    pools = {key: list(said[key]) if said.get(key) is not None else list(readings.get(key, [])) for key in POOLS}
    return {"rows": rows, **pools}


def corrected_entry(sheet: dict, readings: dict, corrections: dict) -> dict:
    """A monster record sheet's ``rosters`` entry rebuilt from its rows with a person's corrections: its
    roster, what left play, and the scanner's doubts about what nobody corrected."""
    from scanner.roster_overlay import layout_of

    layout = layout_of(sheet)
    read = corrected_readings(readings, corrections)
    fixed = set(corrections.get("parts", {})) | {key for key, dice in corrections.get("pools", {}).items()
                                                  if dice is not None}
    review = [entry for entry in sheet.get("needs_review", [])
              if not any(entry.get("where", "") == where or entry.get("where", "").startswith(where + " ")
                         for where in fixed)]
    monsters, left_out = [], []
    for card in layout.cards:
        core = _part(read["rows"].get(card.core.where), core=True)
        parts = [(row, _part(read["rows"].get(row.where))) for row in card.parts[1:]]
        parts = [(row, part) for row, part in parts if part is not None]
        if core is None:
            if parts and card.core.where in fixed:
                review.append({"where": card.core.where, "rule": Rule.MISSING, "confidence": 0.3,
                               "why": f"parts are marked but no core die: monster {card.number} is left out"})
            continue
        if _gone(core):
            left_out.append({"where": f"monster {card.number}", "die": core["die"],
                             "why": f"all {core['damage']} life of its core crossed off: the monster has left play"})
            continue
        left_out += [{"where": row.where, "die": part["die"], "why": f"all {part['damage']} life crossed off: the "
                                                                    f"part has left play"}
                     for row, part in parts if _gone(part)]
        monsters.append({"name": None, "core": core, "parts": [part for _, part in parts if not _gone(part)]})
    player = {"name": f"Player {sheet.get('player')}", "reserve": read["reserve"], "active": read["active"],
              "monsters": monsters}
    return dict(sheet, roster={"format": "scrawl.roster/1", "players": [player], "needs_review": review},
                needs_review=review, left_out=left_out)


def _part(row: dict | None, core: bool = False) -> dict | None:
    """A part row as the roster has it (None: nothing marked)."""
    if row is None:
        return None
    die = f"{row['size']} {row['colour']}" if row.get("size") and row.get("colour") else None
    if core:
        return {"die": die, "damage": int(row.get("damage") or 0)}
    return {"name": None, "type": row.get("type"), "die": die, "damage": int(row.get("damage") or 0)}


def _gone(part: dict) -> bool:
    """Whether a part's damage reaches its die's sides: its life is all crossed off."""
    return part["die"] is not None and part["damage"] >= int(part["die"].split()[0][1:])


# -- the game ------------------------------------------------------------------------------------------------
def player_rosters(store: Store, game: dict) -> tuple[list[dict], list[dict], dict]:
    """The game's stored monster sheets (with their labels), the rosters entry of each player (pages merged,
    named as the game names them), and each sheet's corrected entry by id."""
    from scanner.monsters import merge_entries
    from scrawl.scoring import _labels, player_name

    photos = store.photos(game["id"])
    labels = _labels(photos)
    stored = store.sheets(game["id"])
    entries = {}
    for sheet in stored:
        entry = corrected_entry(sheet["sheet"], sheet["readings"], sheet["corrections"])
        entry["source"] = labels.get(sheet["photo_id"], entry.get("source", "photo"))
        entries[sheet["id"]] = entry
    merged = merge_entries([json.loads(json.dumps(entry)) for entry in entries.values()])
    for entry in merged:
        name = player_name(game["players"], entry["player"])
        entry["roster"]["players"][0]["name"] = name
        entry["name"] = name
    return stored, sorted(merged, key=lambda entry: entry["player"]), entries


def battle_document(store: Store, game: dict) -> dict:
    """A monster battle as the page shows it: its photos, each sheet's rows read (corrected), each player's
    roster and what stops it being played, the battle round by round and each side's odds."""
    from scrawl.scoring import _labels, player_name

    stored, merged, entries = player_rosters(store, game)
    photos = store.photos(game["id"])
    labels = _labels(photos)
    ids: dict[str, list[str]] = {}
    for sheet in stored:
        ids.setdefault(sheet["photo_id"], []).append(sheet["id"])
    sheets = [_sheet_view(game, sheet, entries[sheet["id"]]) for sheet in stored]
    rosters = [_roster_view(game, entry, [s["id"] for s in sheets if s["player"] == entry["player"]])
               for entry in merged]
    return {"id": game["id"], "kind": "monster", "code": game.get("code"), "created": game["created"],
            "players": game["players"], "paper": game["paper"], "map": None, "seed": game.get("seed"),
            "print": {"sheets": f"/print/games/{game['id']}/sheets.pdf",
                      "decks": {"monsters-reference": f"/print/deck/monsters-reference.pdf?paper={game['paper']}"}},
            "photos": [{"id": photo["id"], "name": labels[photo["id"]], "uploaded": photo["uploaded"],
                        "error": photo["error"], "sheets": ids.get(photo["id"], [])} for photo in photos],
            "sheets": sheets, "rosters": rosters, "battle": battle_view(game, rosters, merged),
            "scoreboard": [], "die": None,
            "errors": [{"source": labels[p["id"]], "error": p["error"]} for p in photos if p["error"]],
            "needs_review": sum(bool(sheet["needs_review"]) for sheet in sheets),
            "waiting": [player_name(game["players"], n) for n in (1, 2) if n not in {e["player"] for e in merged}]}


def export_document(store: Store, game: dict) -> dict:
    """The game as ``scrawl scan --json`` prints monster sheets (their ``rosters``), corrections applied:
    ``scrawl battle`` plays it."""
    from games.state import FORMAT
    from scrawl.scoring import _labels

    _, merged, _ = player_rosters(store, game)
    photos = store.photos(game["id"])
    labels = _labels(photos)
    return {"format": FORMAT, "sheets": [], "rosters": merged,
            "errors": [{"source": labels[p["id"]], "error": p["error"]} for p in photos if p["error"]]}


def _sheet_view(game: dict, stored: dict, entry: dict) -> dict:
    """One monster record sheet as the page shows it: every row of its cards read (corrected), its pools,
    what left play and what needs a look."""
    from scanner.roster_overlay import layout_of
    from scrawl.scoring import player_name

    corrections = stored["corrections"]
    read = corrected_readings(stored["readings"], corrections)
    gone = {item["where"] for item in entry["left_out"]}
    cards = []
    for card in layout_of(stored["sheet"]).cards:
        rows = []
        for row in card.parts:
            value = read["rows"].get(row.where) or {}
            rows.append({"where": row.where, "key": row_key(row.where), "label": row.label, "part": row.part,
                         "size": value.get("size"), "colour": value.get("colour"), "type": value.get("type"),
                         "damage": value.get("damage", 0) if value else None,
                         "corrected": row.where in corrections.get("parts", {}),
                         "left": row.where in gone or f"monster {card.number}" in gone})
        cards.append({"number": card.number, "rows": rows})
    version = hashlib.sha1(json.dumps([entry, corrections], sort_keys=True).encode()).hexdigest()[:12]
    fixed_pools = {key: corrections.get("pools", {}).get(key) is not None for key in POOLS}
    return {"id": stored["id"], "photo_id": stored["photo_id"], "kind": "monster", "source": entry["source"],
            "player": entry.get("player"), "name": player_name(game["players"], entry.get("player")),
            "page": entry.get("page", 1), "overlay": f"/api/games/{game['id']}/sheets/{stored['id']}/overlay.png?v={version}",
            "cards": cards, "reserve": read["reserve"], "active": read["active"], "pools_corrected": fixed_pools,
            "needs_review": entry["needs_review"], "left_out": entry["left_out"],
            "corrections": len(corrections.get("parts", {})) + sum(fixed_pools.values())}


def _roster_view(game: dict, entry: dict, sheet_ids: list[str]) -> dict:
    """One player's roster as read (pages merged, corrections applied) and every problem that stops it
    being played."""
    from games.monsters import read_roster

    player = entry["roster"]["players"][0]
    _, problems = read_roster({"format": "scrawl.roster/1", "players": [player]}, "the sheet")
    return {"player": entry["player"], "name": player["name"], "sheets": sheet_ids, "monsters": player["monsters"],
            "reserve": player["reserve"], "active": player["active"], "left_out": entry.get("left_out", []),
            "problems": [_problem_line(problem) for problem in problems],
            "needs_review": len(entry["needs_review"])}


def _problem_line(problem) -> str:
    """A roster problem as the page says it: ``monster 2 part 1: ...`` (counting monsters as the roster does)."""
    where = re.sub(r"players\[0\]\.?", "", problem.where)
    where = re.sub(r"monsters\[(\d+)\]", lambda m: f"monster {int(m[1]) + 1} in play", where)
    where = re.sub(r"parts\[(\d+)\]", lambda m: f"part {int(m[1]) + 1}", where).replace(".", " ")
    return f"{where}: {problem.why}" if where else problem.why


# -- the battle ------------------------------------------------------------------------------------------------
def battle_view(game: dict, rosters: list[dict], merged: list[dict]) -> dict:
    """The battle between the two players' rosters from the game's seed, round by round, and each side's
    odds; or, until it can be played, why not (``waiting``)."""
    names = [roster["name"] for roster in rosters]
    if len(rosters) < 2:
        from scrawl.scoring import player_name

        missing = [player_name(game["players"], n) for n in (1, 2) if n not in {r["player"] for r in rosters}]
        return {"ready": False, "seed": game.get("seed"),
                "waiting": f"Photograph {' and '.join(missing)}'s monster record sheet to play the battle."}
    stuck = [roster for roster in rosters if roster["problems"]]
    if stuck:
        return {"ready": False, "seed": game.get("seed"),
                "waiting": f"Correct {' and '.join(r['name'] for r in stuck)}'s sheet first: "
                           f"{stuck[0]['problems'][0]}."}
    document = json.dumps({"format": "scrawl.roster/1",
                           "players": [entry["roster"]["players"][0] for entry in merged[:2]]}, sort_keys=True)
    played = _played(document, int(game.get("seed") or 0))
    return {"ready": True, "players": names, **played, "odds": _odds(document)}


@lru_cache(maxsize=64)
def _played(document: str, seed: int) -> dict:
    from games.battle import play_battle, seeded_rng
    from games.monsters import read_roster
    from scrawl.battle_report import event_line, outcome_line

    roster, _ = read_roster(json.loads(document))
    battle = play_battle(roster, seeded_rng(seed))
    rounds: list[dict] = []
    for event in battle.log:
        line = event_line(event)
        if line is None:
            continue
        if not rounds or rounds[-1]["round"] != event["round"]:
            rounds.append({"round": event["round"], "lines": []})
        rounds[-1]["lines"].append(line.strip() if not line.startswith("    ") else "\u2003" + line.strip())
    return {"seed": seed, "winner": battle.winner, "rounds_played": battle.rounds, "outcome": outcome_line(battle),
            "rounds": rounds, "left": battle.left}


@lru_cache(maxsize=64)
def _odds(document: str) -> dict:
    from games.battle import battle_odds
    from games.monsters import read_roster

    roster, _ = read_roster(json.loads(document))
    odds = battle_odds(roster, ODDS_SEED, ODDS_TRIALS)
    return {"trials": odds.trials, "draws": odds.draws,
            "chances": [{"name": name, "wins": wins, "percent": round(100 * wins / odds.trials)}
                        for name, wins in zip(odds.players, odds.wins)]}


def carried_corrections(corrections: dict, readings: dict) -> dict:
    """A monster sheet's corrections, for its retake: a row's or a pool's only where the new photo reads it
    otherwise."""
    rows = readings.get("rows", {})
    parts = {where: fixed for where, fixed in corrections.get("parts", {}).items() if rows.get(where) != fixed}
    pools = {key: dice for key, dice in corrections.get("pools", {}).items()
             if dice is not None and sorted(dice) != sorted(readings.get(key, []))}
    return dict(corrections, parts=parts, pools=pools)
