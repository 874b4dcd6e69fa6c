"""A Dungeon Maker game on the game-night page: each player's Dungeon Maker sheet read (``scanner.maker``),
with the corrections people made in place of what was read, scored by its Scoring chart
(``games.heroes.score_entry``), the hero phase played for a sheet whose Souls and hearts were not ticked at
the table, and the standings.

Nothing scored or played is stored but a sheet's hero-phase seed: each time a game is asked for, every
sheet is rebuilt from what was read and its corrections, scored, and its heroes sent through again from
the seed. So a correction or a retake never leaves a stale score or a stale hero phase behind.

A sheet's corrections (beside the keys every sheet has) are ``{"tiles": {"C3": {"path": "NS", "on":
"spikes"}, "D4": {}}, "places": {"entrance": "A1:N", "stairs": None}, "record": {"souls": 2}, "heroes":
1234}``: a tile said to hold that (``{}``: nothing), the entrance or stairs said to be there (None: none),
record counts said to be these, and the seed of the hero phase played on the page.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from games.maker import SIZE
from games.maps import Room
from scrawl.store import Store

TILE_KEYS = ("path", "bridge", "acid", "room", "on")
RECORD_KEYS = ("gems", "potions", "spells_got", "spells_cast", "rounds", "souls", "hearts")
# Where the scanner's doubts about each record count point (``scanner.maker``): settled when it is corrected.
RECORD_WHERE = {"gems": ("Gems",), "potions": ("Potions",), "souls": ("Souls",), "hearts": ("dungeon HP",),
                "rounds": ("round",), "spells_got": (" got",), "spells_cast": (" cast",)}


def tile_names() -> list[str]:
    """Every tile of the grid in reading order: A1, B1, ... F6."""
    return [Room(col, row).name for row in range(1, SIZE + 1) for col in range(1, SIZE + 1)]


# -- a sheet read, with its corrections ---------------------------------------------------------------------
def corrected_entry(entry: dict, corrections: dict) -> dict:
    """A Dungeon Maker sheet's ``dungeons`` entry (unscored) with a person's corrections in place of what was
    read: tiles, entrance and stairs, record counts; loot still lying on built tiles worked out again, and
    the scanner's doubts about what a person corrected dropped (a person looked)."""
    out = json.loads(json.dumps(entry))
    dungeon = out.setdefault("dungeon", {"format": "scrawl.dungeon/1", "tiles": {}})
    tiles = {name: {key: value for key, value in spec.items() if key != "loot"}
             for name, spec in dungeon.get("tiles", {}).items()}
    fixed = corrections.get("tiles", {})
    for name, spec in fixed.items():
        tiles[name] = dict(spec)
    places = corrections.get("places", {})
    for key in ("entrance", "stairs"):
        if key in places:
            if places[key]:
                dungeon[key] = places[key]
            else:
                dungeon.pop(key, None)
    said = corrections.get("record", {})
    out["record"] = dict(out.get("record", {}), **said)
    dungeon["tiles"] = {name: spec for name, spec in tiles.items() if spec}
    _loot_left(dungeon["tiles"], out["record"], out.get("seed"), out.get("player"))
    out["needs_review"] = [doubt for doubt in out.get("needs_review", [])
                           if not _settled(doubt, set(fixed), places, said)]
    return out


def _loot_left(tiles: dict, record: dict, seed, player) -> None:
    """Loot still lying on built tiles, as the scanner works it out (``games.heroes.mark_loot_left``)."""
    from games.heroes import mark_loot_left
    from games.maker import roll_loot

    if isinstance(seed, int) and isinstance(player, int):
        mark_loot_left(tiles, roll_loot(seed, player), int(record.get("gems", 0) or 0),
                       int(record.get("potions", 0) or 0))


def _settled(doubt: dict, tiles: set[str], places: dict, record: dict) -> bool:
    """Whether a person's correction settles one of the scanner's doubts."""
    where, why = doubt.get("where", ""), doubt.get("why", "")
    if where in tiles and "which is the entrance" not in why and "Exit stairs ticked" not in why:
        return True
    if "entrance" in places and "which is the entrance" in why:
        return True
    if "stairs" in places and "Exit stairs ticked" in why:
        return True
    for key in record:
        for word in RECORD_WHERE[key]:
            if where.startswith(word) or where.endswith(word) or (key.startswith("spells") and where.startswith(
                    "Spells:") and (" cast" in where) == (key == "spells_cast")):
                return True
    return False


def carried_corrections(corrections: dict, entry: dict) -> dict:
    """A Dungeon Maker sheet's corrections, for its retake: a tile's, a place's or a count's only where the
    new photo reads it otherwise; the hero phase's seed kept."""
    dungeon, record = entry.get("dungeon", {}), entry.get("record", {})
    now = {name: {key: value for key, value in spec.items() if key != "loot"}
           for name, spec in dungeon.get("tiles", {}).items()}
    tiles = {name: spec for name, spec in corrections.get("tiles", {}).items() if now.get(name, {}) != spec}
    places = {key: value for key, value in corrections.get("places", {}).items() if dungeon.get(key) != value}
    counts = {key: value for key, value in corrections.get("record", {}).items() if record.get(key) != value}
    return dict(corrections, tiles=tiles, places=places, record=counts)


def correction_count(corrections: dict) -> int:
    return (len(corrections.get("tiles", {})) + len(corrections.get("places", {}))
            + len(corrections.get("record", {})))


# -- the game ------------------------------------------------------------------------------------------------
def scored_entries(store: Store, game: dict) -> tuple[list[dict], dict]:
    """The game's stored Dungeon Maker sheets and each one's scored entry by sheet id (corrections applied,
    named as the game names its player, its source the photo's label)."""
    from games.heroes import score_entry
    from games.maker import load_maker
    from scrawl.scoring import _labels, player_name

    labels = _labels(store.photos(game["id"]))
    stored = store.sheets(game["id"])
    scored = {}
    for sheet in stored:
        entry = corrected_entry(sheet["sheet"], sheet["corrections"])
        entry["source"] = labels.get(sheet["photo_id"], entry.get("source", "photo"))
        entry["name"] = player_name(game["players"], entry.get("player"))
        scored[sheet["id"]] = score_entry(entry, load_maker())
    return stored, scored


def maker_document(store: Store, game: dict) -> dict:
    """A Dungeon Maker game as the page shows it: its photos, each sheet read (corrected) with its score,
    what needs a look and its hero phase, and the standings with the winner once every score is final."""
    from scrawl.scoring import _labels, player_name

    stored, scored = scored_entries(store, game)
    photos = store.photos(game["id"])
    labels = _labels(photos)
    ids: dict[str, list[str]] = {}
    for sheet in stored:
        ids.setdefault(sheet["photo_id"], []).append(sheet["id"])
    sheets = [sheet_view(game, sheet, scored[sheet["id"]]) for sheet in stored]
    first: dict = {}
    for sheet in sheets:
        if sheet["player"] in first:
            sheet["duplicate_of"] = first[sheet["player"]]
        else:
            first[sheet["player"]] = sheet["id"]
    board = standings(sheets)
    waiting = [player_name(game["players"], n) for n in range(1, len(game["players"]) + 1) if n not in first]
    return {"id": game["id"], "kind": "maker", "code": game.get("code"), "created": game["created"],
            "players": game["players"], "paper": game["paper"], "map": None, "seed": game.get("seed"),
            "print": {"sheets": f"/print/games/{game['id']}/sheets.pdf", "decks": {}},
            "photos": [{"id": photo["id"], "name": labels[photo["id"]], "uploaded": photo["uploaded"],
                        "error": photo["error"], "sheets": ids.get(photo["id"], [])} for photo in photos],
            "sheets": sheets, "scoreboard": board, "winner": winner_line(board, waiting), "die": None,
            "market": market_view(), "waiting": waiting,
            "errors": [{"source": labels[p["id"]], "error": p["error"]} for p in photos if p["error"]],
            "needs_review": sum(bool(sheet["needs_review"]) for sheet in sheets)}


def export_document(store: Store, game: dict) -> dict:
    """The game as ``scrawl scan --json`` prints Dungeon Maker sheets (scored ``dungeons``), corrections
    applied."""
    from games.state import FORMAT
    from scrawl.scoring import _labels

    _, scored = scored_entries(store, game)
    photos = store.photos(game["id"])
    labels = _labels(photos)
    return {"format": FORMAT, "sheets": [], "dungeons": list(scored.values()),
            "errors": [{"source": labels[p["id"]], "error": p["error"]} for p in photos if p["error"]]}


def sheet_view(game: dict, stored: dict, entry: dict) -> dict:
    """One Dungeon Maker sheet as the page shows it: every tile read (corrected), the entrance and stairs,
    the record, the Scoring chart, what needs a look (numbered as on the picture) and the hero phase."""
    corrections = stored["corrections"]
    dungeon, review = entry["dungeon"], entry["needs_review"]
    heroes = hero_view(entry, corrections.get("heroes"))
    final = heroes["final"]["total"] if heroes["state"] == "played" else entry["score"]["total"]
    version = hashlib.sha1(json.dumps([entry, corrections], sort_keys=True).encode()).hexdigest()[:12]
    return {"id": stored["id"], "photo_id": stored["photo_id"], "kind": "maker", "source": entry["source"],
            "player": entry.get("player"), "name": entry["name"], "seed": entry.get("seed"),
            "overlay": f"/api/games/{game['id']}/sheets/{stored['id']}/overlay.png?v={version}",
            "tiles": tiles_view(dungeon, corrections, review), "entrance": dungeon.get("entrance"),
            "stairs": dungeon.get("stairs"), "places_corrected": sorted(corrections.get("places", {})),
            "record": entry["record"], "record_corrected": sorted(corrections.get("record", {})),
            "score": entry["score"], "total": final, "final": heroes["state"] in FINAL_STATES,
            "heroes": heroes, "corrections": correction_count(corrections),
            "needs_review": [dict(doubt, number=number) for number, doubt in enumerate(review, start=1)]}


def tiles_view(dungeon: dict, corrections: dict, review: list[dict]) -> list[dict]:
    """The 36 tiles in reading order, each as read (corrected) with the numbers of the doubts about it."""
    tiles, fixed = dungeon.get("tiles", {}), corrections.get("tiles", {})
    entrance = dungeon.get("entrance", "").split(":") if dungeon.get("entrance") else None
    out = []
    for name in tile_names():
        spec = tiles.get(name, {})
        out.append({"tile": name, "path": spec.get("path") or spec.get("bridge") or "", "bridge": "bridge" in spec,
                    "acid": bool(spec.get("acid")), "room": spec.get("room"), "on": spec.get("on"),
                    "loot": spec.get("loot"), "stairs": dungeon.get("stairs") == name,
                    "entrance": entrance[1] if entrance and entrance[0] == name else None,
                    "corrected": name in fixed,
                    "review": [n for n, doubt in enumerate(review, start=1) if doubt.get("where") == name]})
    return out


@lru_cache(maxsize=1)
def market_view() -> dict:
    """What a tile or the record may be said to hold, for the page's editors."""
    from games.maker import load_maker

    maker = load_maker()
    items = [item for item in maker.market if item.id != "stairs"]
    return {"rooms": [{"id": i.id, "name": i.name, "letter": i.letter} for i in items if i.on == "beside-path"],
            "on_path": [{"id": i.id, "name": i.name, "letter": i.letter} for i in items if i.on == "path"],
            "spells": [{"id": s["id"], "name": s["name"]} for s in maker.spells],
            "limits": record_limits()}


def record_limits() -> dict:
    """The most each record count may be: what one game can hold."""
    from games.maker import load_maker

    maker = load_maker()
    return {"gems": maker.loot.get("gems", 0), "potions": maker.loot.get("potions", 0), "rounds": maker.rounds,
            "souls": maker.heroes, "hearts": maker.dungeon_hp}


# -- the hero phase ------------------------------------------------------------------------------------------
SKIPPED = "skipped"         # the corrections' ``heroes``: the table scores the sheet without a hero phase
FINAL_STATES = ("played", "on_sheet", SKIPPED)


def hero_view(entry: dict, seed) -> dict:
    """The hero phase of a scored sheet: ticked at the table (``on_sheet``), not possible yet and why
    (``blocked``), waiting for its button (``ready``), played from ``seed`` (``played``: each hero's walk and
    the final score), or left out by the table's choice (``skipped``: the building score is final)."""
    from games.maker import load_maker

    if entry["score"]["heroes_played"]:
        return {"state": "on_sheet", "why": "Souls or crossed hearts are ticked on the sheet: the heroes came "
                                            "at the table, and the sheet's score is final."}
    if seed == SKIPPED:
        return {"state": SKIPPED, "why": "Scored without a hero phase, as the table chose: no Souls, no dungeon "
                                         "HP lost. The building score is final."}
    blocked = why_not_walkable(entry, load_maker())
    if blocked:
        return {"state": "blocked", "why": blocked}
    if not isinstance(seed, int):
        return {"state": "ready", "why": "No Souls or crossed hearts on the sheet: play the hero phase here."}
    return {"state": "played", **_walk(json.dumps(entry["dungeon"], sort_keys=True), seed)}


def why_not_walkable(entry: dict, maker) -> str | None:
    """Why heroes cannot walk a sheet's dungeon (no entrance, no stairs, a building rule broken), or None."""
    from games.errors import TemplateError
    from games.heroes import problems, read_dungeon

    try:
        dungeon = read_dungeon(entry["dungeon"], maker, entry.get("source", "sheet"), partial=True)
    except TemplateError as exc:
        return f"the heroes cannot walk this dungeon: {exc}".splitlines()[0]
    if dungeon.entrance is None:
        return "The heroes cannot come in: no entrance is read. Set the entrance (a corner tile's outer side)."
    if dungeon.stairs is None:
        return "The heroes have nowhere to go: no Exit stairs are read. Set the stairs on a path tile."
    broken = problems(dungeon, maker)
    if broken:
        return f"The heroes cannot walk this dungeon until it keeps the building rules: {broken[0].where}: " \
               f"{broken[0].why}."
    return None


@lru_cache(maxsize=128)
def _walk(document: str, seed: int) -> dict:
    """The hero phase of a dungeon from ``seed``: each hero's walk in lines, and the final score."""
    from games.heroes import entry_dungeon, final_score, route, run_heroes, seeded_dice
    from games.maker import load_maker

    maker = load_maker()
    dungeon = entry_dungeon({"dungeon": json.loads(document)}, maker)
    phase = run_heroes(dungeon, maker, seeded_dice(seed))
    short = {stat.id: stat.short for stat in maker.stats}
    heroes = []
    for hero in phase.heroes:
        steps = [f"{step.room} {', '.join(step.threats)}: {short[step.stat]} {step.need}, rolled "
                 f"{step.roll[0]}+{step.roll[1]}+{step.total - sum(step.roll)} = {step.total}, "
                 + ("passed" if step.passed else f"failed, \u2212{step.damage} HP \u2192 {step.hp}")
                 for step in hero.steps]
        end = (f"died in {hero.where}: +1 Soul" if hero.fate == "died"
               else f"escaped by the stairs in {hero.where}: one dungeon HP crossed off")
        heroes.append({"number": hero.number, "kind": hero.kind, "hp": hero.hp, "fate": hero.fate,
                       "title": f"Hero {hero.number}: {hero.kind}, {hero.hp} HP (rolled X{hero.rolled[0]} "
                                f"Y{hero.rolled[1]}), " + " ".join(f"{short[s]} {v}" for s, v in hero.stats.items()),
                       "steps": steps, "end": end})
    return {"seed": seed, "route": [room.name for room in route(dungeon)], "heroes": heroes,
            "fallen": phase.fallen, "final": final_score(dungeon, maker, phase)}


# -- the standings ------------------------------------------------------------------------------------------
def standings(sheets: list[dict]) -> list[dict]:
    """Each player's first sheet by total, places shared on ties; ``final`` once the heroes have come."""
    ranked = sorted((s for s in sheets if not s.get("duplicate_of")), key=lambda s: (-s["total"], s["player"] or 0))
    return [{"place": 1 + sum(other["total"] > s["total"] for other in ranked), "name": s["name"],
             "player": s["player"], "total": s["total"], "sheet": s["id"], "final": s["final"]} for s in ranked]


def winner_line(board: list[dict], waiting: list[str]) -> dict:
    """Who wins, once every player's sheet is in and every score is final; else what the game waits for."""
    if waiting:
        return {"done": False, "line": f"Waiting for {_names(waiting)}'s sheet."}
    unfinished = [row["name"] for row in board if not row["final"]]
    if unfinished:
        return {"done": False, "line": f"Play the heroes for {_names(unfinished)} to finish the game."}
    first = [row for row in board if row["place"] == 1]
    points = f"{first[0]['total']} point{'s' if abs(first[0]['total']) != 1 else ''}" if first else ""
    if len(first) == 1:
        return {"done": True, "line": f"{first[0]['name']} wins with {points}!", "winners": [first[0]["name"]]}
    return {"done": True, "line": f"A tie: {_names([row['name'] for row in first])} share first place with {points}.",
            "winners": [row["name"] for row in first]}


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
