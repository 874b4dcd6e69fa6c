"""How fast the rules engine deals, plays, checks and scores, and what random games look like.

    python benchmarks/rules_bench.py

Prints the time to deal a game, to play one sheet with the random legal player,
to check a sheet against every drawing rule, and to score it; then, over many
random games on the classic map, the spread of scores and tallies, so a change
to the player or the rules shows up as a change in these numbers.
"""
from __future__ import annotations

import statistics

from bench_support import timed
from games.cards import load_deck
from games.deal import deal
from games.mapfile import load_map
from games.player import play
from games.rules import problems
from games.scoring import resolve_traps, score

GAMES = 300


def main() -> None:
    classic, deck = load_map("classic"), load_deck("doodles")
    game = deal(deck, 1)
    board = play(classic, game, 1)
    print("speed")
    print(f"  deal a game                 {1000 * timed(lambda: deal(deck, 2), 200):7.2f} ms")
    print(f"  play one sheet (7 rounds)   {1000 * timed(lambda: play(classic, game, 3), 30):7.2f} ms")
    print(f"  check every drawing rule    {1000 * timed(lambda: problems(classic, board), 200):7.2f} ms")
    print(f"  score a sheet               {1000 * timed(lambda: score(classic, board), 200):7.2f} ms")

    totals, tallies, broken, hits = [], [], 0, []
    for seed in range(GAMES):
        game = deal(deck, seed)
        boards = [play(classic, game, seed * 10 + p) for p in range(4)]
        broken += sum(bool(problems(classic, b)) for b in boards)
        for b, h in zip(boards, resolve_traps(boards)):
            totals.append(score(classic, b, len(h)).total)
            tallies.append(b.unusable)
            hits.append(len(h))
    print(f"\n{GAMES} four-player games on the classic map, random legal player (greed 2)")
    print(f"  sheets breaking a rule      {broken} of {len(totals)}")
    print(f"  score                       mean {statistics.mean(totals):.1f}, sd {statistics.stdev(totals):.1f}, "
          f"min {min(totals)}, max {max(totals)}")
    print(f"  tallies (item 6) a sheet    mean {statistics.mean(tallies):.2f}, max {max(tallies)}")
    print(f"  trap hits (item 7) a sheet  mean {statistics.mean(hits):.2f}, max {max(hits)}")


if __name__ == "__main__":
    main()
