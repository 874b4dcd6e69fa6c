"""What ``scrawl heroes`` prints: each hero's walk, the score, and the spread over many trials."""
from __future__ import annotations

import statistics

from games.heroes import Dungeon, HeroPhase, build_score, dungeon_modifiers, final_score, route
from games.maker import Maker


def phase_report(dungeon: Dungeon, maker: Maker, phase: HeroPhase, seed: int) -> str:
    short = {stat.id: stat.short for stat in maker.stats}
    walk = route(dungeon)
    bonus = ", ".join(f"+{n} {short[s]}" for s, n in dungeon_modifiers(dungeon, maker).items() if n) or "none"
    out = [f"Hero phase, seed {seed} (replay it with --seed {seed})",
           f"Route: {' '.join(room.name for room in walk)} ({len(walk)} tiles)",
           f"Modifiers every hero gets: {bonus}", ""]
    for hero in phase.heroes:
        stats = " ".join(f"{short[s]} {v}" for s, v in hero.stats.items())
        out.append(f"Hero {hero.number}: {hero.kind}, {hero.hp} HP (rolled X{hero.rolled[0]} Y{hero.rolled[1]}), {stats}")
        for step in hero.steps:
            verdict = "passed" if step.passed else f"failed, -{step.damage} HP -> {step.hp}"
            out.append(f"  {step.room}  {', '.join(step.threats)}: {short[step.stat]} {step.need}, "
                       f"rolled {step.roll[0]}+{step.roll[1]}+{step.total - sum(step.roll)} = {step.total}, {verdict}")
        out.append(f"  {'died in ' + hero.where + ': +1 Soul' if hero.fate == 'died' else 'escaped by the stairs in ' + hero.where + ': one dungeon HP crossed off'}")
    if phase.fallen:
        out.append(f"\nThe dungeon has fallen ({maker.dungeon_hp} HP lost): no more heroes come.")
    out += ["", score_table(dungeon, maker, phase)]
    return "\n".join(out)


def score_table(dungeon: Dungeon, maker: Maker, phase: HeroPhase) -> str:
    score = final_score(dungeon, maker, phase)
    out = ["Score"]
    for what, count, points in build_score(dungeon, maker):
        out.append(f"  {what:<38}{count:>3} {points:>+5}")
    out.append(f"  {'Souls (+' + str(maker.soul_points) + ' each)':<38}{phase.souls:>3} {score['souls_points']:>+5}")
    out.append(f"  {'Dungeon HP lost (' + str(maker.lost_hp_points) + ' each)':<38}{phase.hp_lost:>3} {score['hp_points']:>+5}")
    out.append(f"  {'Total':<38}    {score['total']:>+5}")
    return "\n".join(out)


def trials_report(totals: list[int], souls: list[int], heroes: list[int], first_seed: int) -> str:
    ordered = sorted(totals)
    tenth, ninetieth = ordered[len(ordered) // 10], ordered[(len(ordered) * 9) // 10]
    return "\n".join([
        f"{len(totals)} hero phases (seeds {first_seed} to {first_seed + len(totals) - 1})",
        f"  expected score   {statistics.mean(totals):.1f} (standard deviation {statistics.pstdev(totals):.1f})",
        f"  80% of games     between {tenth} and {ninetieth} (lowest {ordered[0]}, highest {ordered[-1]})",
        f"  heroes who die   {100 * sum(souls) / max(1, sum(heroes)):.0f}%",
    ])


def dungeon_report(entry: dict, maker: Maker) -> str:
    """A scanned Dungeon Maker sheet as people read it (a scored ``dungeons`` entry, ``games.heroes.score_entry``):
    the dungeon in a line, the Scoring chart worked out, and what needs a look."""
    score, dungeon = entry["score"], entry["dungeon"]
    who = entry.get("name") or f"player {entry.get('player', '?')}"
    tiles = dungeon.get("tiles", {})
    paths = sum(1 for tile in tiles.values() if tile.get("path") or tile.get("bridge"))
    rooms = sum(1 for tile in tiles.values() if tile.get("room"))
    out = [f"{entry['source']} ({who}), Dungeon Maker sheet: {score['total']} points",
           f"  {paths} path tiles, {rooms} monster rooms; entrance {dungeon.get('entrance', '?')}, "
           f"stairs {dungeon.get('stairs', '?')}"]
    for line in score["lines"]:
        out.append(f"  {line['what']:<38}{line['count']:>3} {line['points']:>+5}")
    if score["heroes_played"]:
        out.append(f"  {'Souls (+' + str(maker.soul_points) + ' each)':<38}{score['souls']:>3} "
                   f"{score['souls_points']:>+5}")
        out.append(f"  {'Dungeon HP lost (' + str(maker.lost_hp_points) + ' each)':<38}{score['hp_lost']:>3} "
                   f"{score['hp_points']:>+5}")
    out.append(f"  {'Total':<38}    {score['total']:>+5}")
    if not score["heroes_played"]:
        out.append(f"  No Souls or crossed hearts on the sheet: play the hero phase with "
                   f"'scrawl heroes {entry['source']}'")
    for doubt in entry.get("needs_review", []):
        out.append(f"  NEEDS REVIEW {doubt.get('where', '?')}: {doubt.get('why', '')}")
    return "\n".join(out)
