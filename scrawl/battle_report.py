"""What ``scrawl battle`` prints: the rosters read from files, the battle round by round, the odds.

``battle_command`` is the whole command; ``scrawl.cli`` only parses its options.
"""
from __future__ import annotations

import json
import secrets
from pathlib import Path

import typer

from games.battle import ROUND_CAP, Battle, Odds, battle_odds, play_battle, seeded_rng
from games.errors import ScrawlError
from games.monsters import Player, Roster, read_roster
from scrawl.files import read_json


def battle_command(rosters: list[Path], seed: int | None, trials: int | None, as_json: bool) -> int:
    """Read the rosters, play the battle (or ``trials`` battles) and print it; the exit code.

    0: done; 1: done, but a scanned roster has readings to check (they are printed too).
    Bad files raise ``ScrawlError`` naming every problem.
    """
    if trials is not None and trials < 1:
        raise ScrawlError(f"--trials {trials}: play at least one battle")
    roster = load_rosters(rosters)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    review = list(roster.needs_review)
    if trials:
        odds = battle_odds(roster, seed, trials)
        if as_json:
            typer.echo(json.dumps(odds_json(odds, review), indent=1, ensure_ascii=False))
        else:
            typer.echo(review_text(review) + odds_text(odds))
    else:
        battle = play_battle(roster, seeded_rng(seed))
        if as_json:
            typer.echo(json.dumps(battle_json(battle, seed, review), indent=1, ensure_ascii=False))
        else:
            typer.echo(review_text(review) + battle_text(battle, roster, seed))
    return 1 if review else 0


# -- reading -----------------------------------------------------------------------------------
def load_rosters(paths: list[Path]) -> Roster:
    """The two players of the battle from one roster with two players, or from several files each with
    one (a roster, or a ``scrawl scan`` result whose ``rosters`` it takes). Every problem is named."""
    if not paths:
        raise ScrawlError("give a roster file with two players, or two roster files")
    players: list[tuple[Player, str]] = []
    review: list[dict] = []
    problems: list[str] = []
    for path in paths:
        document = read_json(path)
        if isinstance(document, dict) and document.get("format") == "scrawl.scan/1" and not document.get("rosters"):
            problems.append(f"{path}: this scan holds no monster record sheet: scan the players' monster "
                            "record sheets ('scrawl monsters' prints them) with 'scrawl scan PHOTO... --json' "
                            "and give that file")
        elif isinstance(document, dict) and "rosters" in document:
            entries = document["rosters"] if isinstance(document["rosters"], list) else []
            if not entries:
                problems.append(f"{path}: rosters: the scan found no monster sheet")
            for k, entry in enumerate(entries):
                if not isinstance(entry, dict):
                    problems.append(f"{path}: rosters[{k}]: should be an object with a roster")
                    continue
                where = f"{path}: rosters[{k}].roster"
                number = entry.get("player") if isinstance(entry.get("player"), int) else 1
                roster, found = read_roster(entry.get("roster"), where, first_player=number)
                problems += [f"{where}.{p.where}: {p.why}" if p.where else f"{where}: {p.why}" for p in found]
                players += [(player, path.name) for player in roster.players]
                source = entry.get("source", path.name)
                review += [{"source": source, **item} for item in entry.get("needs_review") or []
                           if isinstance(item, dict)]
        else:
            roster, found = read_roster(document, str(path))
            problems += [f"{path}: {p.where}: {p.why}" if p.where else f"{path}: {p.why}" for p in found]
            players += [(player, path.name) for player in roster.players]
            review += [{"source": path.name, **item} for item in roster.needs_review if isinstance(item, dict)]
    if problems:
        from games.errors import MOST_SHOWN

        more = len(problems) - MOST_SHOWN
        raise ScrawlError("; ".join(problems[:MOST_SHOWN]) + (f"; and {more} more like these" if more > 0 else ""))
    if len(players) != 2:
        names = ", ".join(player.name for player, _ in players) or "none"
        raise ScrawlError(f"a battle is between two players, and {' '.join(map(str, paths))} give {len(players)} "
                          f"({names}): give one roster with two players, or two rosters with one player each")
    (first, _), (second, source) = players
    if second.name == first.name:
        second = Player(f"{second.name} ({source})" if source != players[0][1] else f"{second.name} (2)",
                        second.reserve, second.active, second.monsters)
    return Roster((first, second), tuple(review))


# -- one battle ----------------------------------------------------------------------------------
def battle_text(battle: Battle, roster: Roster, seed: int) -> str:
    out = [f"Battle of {battle.players[0]} and {battle.players[1]}, seed {seed} (replay it with --seed {seed})"]
    for player in roster.players:
        out.append(f"  {player.name}: {_count(len(player.monsters), 'monster')}, "
                   f"{_count(len(player.active), 'active die', 'active dice')}, "
                   f"{_count(len(player.reserve), 'die', 'dice')} in reserve")
    shown = 0
    for event in battle.log:
        if event["round"] != shown:
            shown = event["round"]
            out += ["", f"Round {shown}"]
        line = event_line(event)
        if line is not None:
            out.append(line)
    out += ["", outcome_line(battle)]
    for name, left in battle.left.items():
        if name == battle.winner or battle.winner is None:
            dice = len(left["active"]) + len(left["reserve"])
            out.append(f"  Left to {name}: {', '.join(left['monsters']) or 'no monsters'}; "
                       f"{_count(dice, 'die', 'dice')} in the pools")
    return "\n".join(out)


def outcome_line(battle: Battle) -> str:
    if battle.winner is None and battle.reason == "round_cap":
        return f"No winner after {battle.rounds} rounds (the round cap): a draw."
    if battle.winner is None:
        return "Neither player has anything to fight with: a draw."
    loser = battle.players[1 - battle.players.index(battle.winner)]
    return f"{battle.winner} wins in round {battle.rounds}: {loser} has no monsters and no dice left."


def event_line(event: dict) -> str | None:
    """One log event as a line of text (attack steps indented under their attack)."""
    kind, e = event["event"], event
    if kind == "initiative":
        return "  Initiative: " + ", ".join(_initiative_entry(entry) for entry in e["order"])
    if kind == "gather":
        if e["by"]:
            return f"  {e['by']} spends an action gathering {', '.join(e['dice'])} (purple)"
        return f"  {e['player']} gathers {', '.join(e['dice'])}"
    if kind == "sketch":
        parts = "".join(f", {p['part']} {p['type']} {p['die']}" for p in e["parts"])
        return f"  {e['player']} sketches {e['monster']}: core {e['core']}{parts}"
    if kind == "attack":
        how = f"struggles ({e['die']} core)" if e["struggle"] else f"attacks with {e['part']} ({e['die']})"
        if e["target"] is None:
            return f"  {e['monster']} {how}: no enemy monster is in play"
        return f"  {e['monster']} {how} at {e['target']} {e['aimed']}"
    if kind == "pink":
        return f"    {e['monster']} (pink) pulls the attack onto its {e['aimed']}"
    if kind == "shield":
        return f"    {e['monster']} {e['part']} (shield) takes the attack instead of the {e['instead_of']}"
    if kind == "nullifier":
        verdict = "the attack is cancelled" if e["cancelled"] else "no effect"
        half = int(e["die"].split()[0][1:]) // 2
        return (f"    {e['monster']} {e['part']} (nullifier {e['die']}) rolls {e['roll']}, "
                f"needs {half} or less: {verdict}")
    if kind == "roll":
        bonus = f" +{e['bonus']} red" if e["bonus"] else ""
        return f"    {e['monster']} {e['part']} rolls {e['roll']}{bonus}"
    if kind == "reroll":
        who = "makes it roll again" if e["colour"] == "black" else "rolls again"
        return f"    {e['monster']} ({e['colour']}) {who}: {e['was']} becomes {e['roll']}"
    if kind == "shield_roll":
        return f"    {e['monster']} {e['part']} rolls its shield die ({e['die']}): {e['roll']}"
    if kind == "damage":
        off = "".join(f", -{amount} {what}" for amount, what in ((e["blocked"], "shield"), (e["reduced"], "blue"))
                      if amount)
        how = f" ({e['dealt']}{off})" if off else ""
        passed = " past the shield (gray)" if e["passed"] else ""
        return f"    {e['monster']} {e['part']} takes {e['amount']}{how}{passed}: {e['life']} life left"
    if kind == "part_falls":
        return f"    {e['monster']} {e['part']} falls: its {e['die']} leaves play"
    if kind == "monster_falls":
        return f"    {e['monster']} falls, and its dice leave play: {', '.join(e['dice'])}"
    if kind == "die_removed":
        return f"    {e['player']} removes a die from the {e['pool']} pool: {e['die']}"
    if kind == "heal":
        if e["by"]:
            return f"  {e['by']} heals {e['monster']} {e['part']} by {e['amount']}: {e['life']} life"
        return f"  {e['monster']} heals its {e['part']} by {e['amount']} (green): {e['life']} life"
    if kind == "disable":
        return f"  {e['monster']} disables {e['target']} {e['part']} ({e['die']}) until the end of the round (orange)"
    if kind == "wait":
        return f"  {e['monster']} waits: nothing it can attack or do"
    if kind == "out":
        return f"  {e['player']} has no monsters and no dice left"
    return None


def _initiative_entry(entry: dict) -> str:
    notes = [entry["core"]] + (["yellow"] if entry["yellow"] else [])
    if entry["rolls"]:
        notes.append("rolled " + " then ".join(map(str, entry["rolls"])))
    return f"{entry['monster']} ({', '.join(notes)})"


def battle_json(battle: Battle, seed: int, review: list[dict]) -> dict:
    return {"format": "scrawl.battle/1", "seed": seed, "players": list(battle.players), "winner": battle.winner,
            "reason": battle.reason, "rounds": battle.rounds, "round_cap": ROUND_CAP, "left": battle.left,
            "log": list(battle.log), "needs_review": review}


# -- many battles --------------------------------------------------------------------------------
def odds_text(odds: Odds) -> str:
    last = odds.first_seed + odds.trials - 1
    ordered = sorted(odds.rounds)
    width = max(len(name) for name in odds.players) + 6
    out = [f"{odds.trials} battles of {odds.players[0]} and {odds.players[1]} "
           f"(seeds {odds.first_seed} to {last}, at most {odds.round_cap} rounds each)"]
    for name, wins in zip(odds.players, odds.wins):
        out.append(f"  {name + ' wins':<{width}}{100 * wins / odds.trials:6.1f}%  ({wins})")
    out.append(f"  {'draws':<{width}}{100 * odds.draws / odds.trials:6.1f}%  ({odds.draws}: the round cap was reached)")
    out.append(f"  {'rounds':<{width}}median {ordered[len(ordered) // 2]}, fewest {ordered[0]}, most {ordered[-1]}")
    return "\n".join(out)


def odds_json(odds: Odds, review: list[dict]) -> dict:
    return {"format": "scrawl.battle-trials/1", "seed": odds.first_seed, "trials": odds.trials,
            "round_cap": odds.round_cap, "players": list(odds.players),
            "wins": dict(zip(odds.players, odds.wins)), "draws": odds.draws,
            "chances": {name: wins / odds.trials for name, wins in zip(odds.players, odds.wins)},
            "rounds": list(odds.rounds), "needs_review": review}


def review_text(review: list[dict]) -> str:
    if not review:
        return ""
    lines = ["Check these readings of the scanned sheets (the battle uses them as read):"]
    for item in review:
        lines.append(f"  {item.get('source', '?')}: {item.get('where', '?')}: {item.get('why', item.get('rule', ''))}")
    return "\n".join(lines) + "\n\n"


def _count(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"
