"""Computer players of the card games: the stronger player's win share against baselines.

For each game other than Hare & Tortoise (whose series is benchmarks/bots.py), plays a seeded
series through the game protocol alone — views, sheets in the game's own language, parse,
resolve — with one stronger seat against baselines, seats rotated, and prints the stronger
player's win share with its 95% confidence interval (Wilson) and a seat's fair share, then the
mean and the largest time the stronger player took to write one sheet (CPU time of the worker
process, so that games played side by side do not count against each other).

Usage: python benchmarks/bots_games.py [--games N] [--workers 2] [--only badger-bunny]
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool

from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.sheet import read_sheet

NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve"]
#: (game, ruleset, options, seats, the stronger level, the baseline level)
SERIES = [
    ("card-race", "standard", (), 4, "strong", "baseline"),
    ("card-race", "apprentice", (), 4, "strong", "baseline"),
    ("badger-bunny", "basic", ("tournament",), 2, "strong", "baseline"),
    ("badger-bunny", "extended", ("tournament",), 2, "strong", "baseline"),
]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game_name: str, ruleset: str, options: tuple[str, ...], seats: int, levels: list[str], seed: int,
         timed: int = -1) -> tuple[list[str], list[float]]:
    """One game; returns the winners' names and the CPU seconds seat `timed` took for each sheet."""
    game = find_game(game_name)
    _, chosen = game.info.check_setup(ruleset, options, seats)
    state = game.new_state(Setup(ruleset, tuple(SeatSpec(n) for n in NAMES[:seats]), chosen), LegacyChance(seed, 0))
    bots = [game.bot(level) for level in levels]
    times: list[float] = []
    for _ in range(2000):
        if game.is_over(state):
            break
        orders = {}
        for seat in game.to_move(state):
            bot = bots[seat]
            assert bot is not None
            started = time.process_time()
            text = bot.write(game.view(state, Viewer(seat)), LegacyChance(f"{seed}/{seat}", game.turn(state)))
            if seat == timed:
                times.append(time.process_time() - started)
            orders[seat] = game.parse(state, read_sheet(text), seat).orders
        state = game.resolve(state, orders, LegacyChance(seed, game.turn(state))).state
    return list(game.result(state).winners), times


def _one(args: tuple[str, str, tuple[str, ...], int, str, str, int]) -> tuple[float, list[float]]:
    """One game of a series, the stronger player in seat seed % seats: its share of the win and its times."""
    game, ruleset, options, seats, strong, baseline, seed = args
    strong_seat = seed % seats
    levels = [strong if i == strong_seat else baseline for i in range(seats)]
    winners, times = play(game, ruleset, options, seats, levels, seed, strong_seat)
    return (1 / len(winners) if NAMES[strong_seat] in winners else 0.0), times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per series (default 200)")
    ap.add_argument("--workers", type=int, default=1, help="processes playing games side by side (default 1)")
    ap.add_argument("--only", default="", help="only the series of this game (e.g. badger-bunny)")
    args = ap.parse_args()
    for game, ruleset, options, seats, strong, baseline in SERIES:
        if args.only and game != args.only:
            continue
        started = time.time()
        jobs = [(game, ruleset, options, seats, strong, baseline, seed) for seed in range(args.games)]
        if args.workers > 1:
            with Pool(args.workers) as pool:
                results = pool.map(_one, jobs)
        else:
            results = [_one(job) for job in jobs]
        won = sum(share for share, _ in results)
        times = [t for _, ts in results for t in ts]
        low, high = wilson(won, args.games)
        print(f"{game} ({ruleset}{', ' + ', '.join(options) if options else ''}): {seats} seats, {strong} vs "
              f"{baseline}, seats rotated, {args.games} games, {time.time() - started:.0f} s: "
              f"{strong} wins {won / args.games:.1%} (95% CI {low:.1%} to {high:.1%}); fair share {1 / seats:.1%}")
        if times:
            print(f"  time per sheet ({strong}): mean {1000 * sum(times) / len(times):.1f} ms, "
                  f"max {1000 * max(times):.1f} ms over {len(times)} sheets (CPU)")


if __name__ == "__main__":
    main()
