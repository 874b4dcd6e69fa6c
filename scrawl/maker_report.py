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
