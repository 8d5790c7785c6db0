"""Computer players of the card games: the stronger player's win share against baselines.

For each game other than Hare & Tortoise (whose series is benchmarks/bots.py), plays a seeded
series through the game protocol alone — views, sheets in the game's own language, parse,
resolve — with one stronger seat against baselines, seats rotated, and prints the stronger
player's win share with its 95% confidence interval and a seat's fair share.

Usage: python benchmarks/bots_games.py [--games N]
"""

from __future__ import annotations

import argparse
import math
import time

from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import SeededChance
from pbem.games.sheet import read_sheet

NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve"]
#: (game, ruleset, options, seats, the stronger level, the baseline level)
SERIES = [
    ("card-race", "standard", (), 4, "strong", "baseline"),
    ("card-race", "apprentice", (), 4, "strong", "baseline"),
    ("badger-bunny", "basic", ("tournament",), 2, "greedy", "baseline"),
    ("badger-bunny", "extended", ("tournament",), 2, "greedy", "baseline"),
]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(game_name: str, ruleset: str, options: tuple[str, ...], seats: int, levels: list[str], seed: int) -> list[str]:
    game = find_game(game_name)
    _, chosen = game.info.check_setup(ruleset, options, seats)
    state = game.new_state(Setup(ruleset, tuple(SeatSpec(n) for n in NAMES[:seats]), chosen), SeededChance(seed, 0))
    bots = [game.bot(level) for level in levels]
    for _ in range(2000):
        if game.is_over(state):
            break
        orders = {}
        for seat in game.to_move(state):
            bot = bots[seat]
            assert bot is not None
            text = bot.write(game.view(state, Viewer(seat)), SeededChance(f"{seed}/{seat}", game.turn(state)))
            orders[seat] = game.parse(state, read_sheet(text), seat).orders
        state = game.resolve(state, orders, SeededChance(seed, game.turn(state))).state
    return list(game.result(state).winners)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per series (default 200)")
    args = ap.parse_args()
    for game, ruleset, options, seats, strong, baseline in SERIES:
        started = time.process_time()
        won = 0.0
        for seed in range(args.games):
            strong_seat = seed % seats
            levels = [strong if i == strong_seat else baseline for i in range(seats)]
            winners = play(game, ruleset, options, seats, levels, seed)
            if NAMES[strong_seat] in winners:
                won += 1 / len(winners)
        low, high = wilson(won, args.games)
        print(f"{game} ({ruleset}{', ' + ', '.join(options) if options else ''}): {seats} seats, {strong} vs "
              f"{baseline}, seats rotated, {args.games} games, {time.process_time() - started:.0f} s CPU: "
              f"{strong} wins {won / args.games:.1%} (95% CI {low:.1%} to {high:.1%}); fair share {1 / seats:.1%}")


if __name__ == "__main__":
    main()
