"""Write the photos of one game and their truth files.

    python -m photographer --seed 7 --players 3 --difficulty hard --out DIR
    python -m photographer --monsters 3 --faults 1 --seed 11 --players 2 --out DIR   (monster record sheets)
    python -m photographer --maker --seed 5 --players 2 --condition glare --out DIR  (Dungeon Maker sheets)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import photographer


def main(argv: list[str] | None = None) -> int:
    """Make and write one game's shots; print the photo paths."""
    parser = argparse.ArgumentParser(prog="photographer", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="deal, play and photograph from this seed")
    parser.add_argument("--players", type=int, default=3, choices=range(1, 5))
    parser.add_argument("--difficulty", default="medium", choices=photographer.DIFFICULTIES + ("scan",))
    parser.add_argument("--map", dest="map_id", default="classic", choices=("classic", "random"))
    parser.add_argument("--paper", default="a4", choices=("a4", "letter"))
    parser.add_argument("--out", type=Path, default=Path("photos"), help="folder to write into")
    parser.add_argument("--monsters", type=int, choices=range(0, 4), default=None, metavar="0-3",
                        help="monster record sheets with this many monsters instead of map sheets")
    parser.add_argument("--faults", type=int, default=0, help="monster sheets: bubbles half-filled or doubled")
    parser.add_argument("--maker", action="store_true", help="Dungeon Maker sheets (loot seed --seed, page N for "
                        "player N) instead of map sheets")
    parser.add_argument("--condition", default=None, choices=photographer.CONDITIONS + photographer.STRESS_CONDITIONS,
                        help="photograph in this condition instead of at a difficulty")
    args = parser.parse_args(argv)
    if args.maker:
        shots = photographer.make_maker_shots(args.seed, players=args.players, difficulty=args.difficulty,
                                              paper=args.paper, condition=args.condition)
    elif args.monsters is not None:
        shots = photographer.make_monster_shots(args.seed, players=args.players, difficulty=args.difficulty,
                                                paper=args.paper, monsters=args.monsters, faults=args.faults)
    else:
        shots = photographer.make_game_shots(args.seed, players=args.players, map_id=args.map_id,
                                             difficulty=args.difficulty, paper=args.paper, condition=args.condition)
    for path in photographer.write_shots(shots, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
