"""Computer players of the card games: the stronger player's win share against baselines.

For each game other than Hare & Tortoise (whose series is benchmarks/bots.py), plays a seeded
series through the game protocol alone — views, sheets in the game's own language, parse,
resolve — with one stronger seat against baselines, seats rotated, one series per ruleset, and
prints the stronger player's win share with its 95% confidence interval (Wilson), a seat's fair
share and the baseline's own share per seat, then the mean and the largest time the stronger
player took to write one sheet (CPU time of the worker process, so that games played side by
side do not count against each other). A shorter series per game then plays the stronger
player against copies of itself: the rotated seat should take about the fair share.

Usage: python benchmarks/bots_games.py [--games N] [--self-games N] [--workers 2] [--only badger-bunny]
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
#: the stronger player against copies of itself (played with --self-games games)
SELF_PLAY = [
    ("card-race", "standard", (), 4, "strong", "strong"),
    ("card-race", "apprentice", (), 4, "strong", "strong"),
    ("badger-bunny", "basic", ("tournament",), 2, "strong", "strong"),
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


def _one(args: tuple[str, str, tuple[str, ...], int, str, str, int]) -> tuple[float, float, list[float]]:
    """One game of a series, the stronger player in seat seed % seats: its share of the win, the
    other seats' shares together, and its times."""
    game, ruleset, options, seats, strong, baseline, seed = args
    strong_seat = seed % seats
    levels = [strong if i == strong_seat else baseline for i in range(seats)]
    winners, times = play(game, ruleset, options, seats, levels, seed, strong_seat)
    mine = 1 / len(winners) if NAMES[strong_seat] in winners else 0.0
    rest = (len(winners) - (NAMES[strong_seat] in winners)) / len(winners) if winners else 0.0
    return mine, rest, times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per series (default 200)")
    ap.add_argument("--workers", type=int, default=1, help="processes playing games side by side (default 1)")
    ap.add_argument("--self-games", type=int, default=40, help="games per series against copies of itself "
                    "(default 40; 0: none)")
    ap.add_argument("--only", default="", help="only the series of this game (e.g. badger-bunny)")
    args = ap.parse_args()
    for series, games in ((SERIES, args.games), (SELF_PLAY, args.self_games)):
        for game, ruleset, options, seats, strong, baseline in series:
            if games and (not args.only or game == args.only):
                run(game, ruleset, options, seats, strong, baseline, games, args.workers)


def run(game: str, ruleset: str, options: tuple[str, ...], seats: int, strong: str, baseline: str, games: int,
        workers: int) -> None:
    """One series, printed."""
    started = time.time()
    jobs = [(game, ruleset, options, seats, strong, baseline, seed) for seed in range(games)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(_one, jobs)
    else:
        results = [_one(job) for job in jobs]
    won = sum(share for share, _, _ in results)
    others = sum(share for _, share, _ in results)
    times = [t for _, _, ts in results for t in ts]
    low, high = wilson(won, games)
    print(f"{game} ({ruleset}{', ' + ', '.join(options) if options else ''}): {seats} seats, {strong} vs "
          f"{baseline}, seats rotated, {games} games, {time.time() - started:.0f} s: "
          f"{strong} wins {won / games:.1%} (95% CI {low:.1%} to {high:.1%}); fair share {1 / seats:.1%}; "
          f"{baseline} per seat {others / games / (seats - 1):.1%}")
    if times:
        print(f"  time per sheet ({strong}): mean {1000 * sum(times) / len(times):.1f} ms, "
              f"max {1000 * max(times):.1f} ms over {len(times)} sheets (CPU)")


if __name__ == "__main__":
    main()
