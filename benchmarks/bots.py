"""Computer-player benchmark: the strong player's win share against baselines, and its time per sheet.

Hare & Tortoise: a fixed, seeded series of 6-player `variable-pig` games, one strong seat
against five baselines, the strong seat rotated through the six seats, every player as it takes
seats (the strong player has no budget to set). Every sheet is written from the seat's own view
and read by the game's parser, as the moderator does. Printed: the strong player's win share
with its 95% confidence interval (Wilson), the baseline's share per seat in the same series;
then a series for each other ruleset; then the strong player against five copies of itself (it
should take about the fair share); then the mean and the largest time to write one sheet, over
50 positions from those games, on one core, the first sheet building the value table as a new
process does. A game is stopped once its winner is HOME.

Usage: python benchmarks/bots.py [--games 600] [--ruleset-games 120] [--self-games 300]
       [--workers 2] [--positions 50]
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from multiprocessing import Pool

from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise import GAME
from pbem.games.hare_tortoise.bots import bot, slots_to_home
from pbem.games.hare_tortoise.state import State
from pbem.games.sheet import read_sheet

PLAYERS = ("Ann", "Bob", "Cyd", "Dot", "Eve", "Fay")
MAX_TURNS = 300
RULESET = "variable-pig"
#: the options played in series of their own, as (options, seats): `two-player` is two seats of
#: two runners (its baseline writes Sam's sheet); `partnership` is left out, its win being a team's
OPTIONS = ((("carrots-95",), 6), (("face-to-face",), 6), (("two-player",), 2))
#: the seat counts played beside six, with the default ruleset
SEAT_COUNTS = (4, 3)


def play(seed: int, strong_seat: int, keep: list[State] | None = None, *, ruleset: str = RULESET,
         others: str = "baseline", options: tuple[str, ...] = (), seats: int = 6) -> tuple[list[int], int]:
    """One game; returns (the winning seats, turns played). `others`: the other seats' level."""
    setup = Setup(ruleset, tuple(SeatSpec(n) for n in PLAYERS[:seats]), options)
    state = GAME.new_state(setup, LegacyChance(seed, 0))
    players = [bot("strong" if i == strong_seat else others) for i in range(seats)]
    turns = 0
    # the race is decided once a seat has every runner HOME: the rest is not played out
    while not state.over and turns < MAX_TURNS and not _winners(state):
        if keep is not None:
            keep.append(state)
        orders = {}
        for seat in GAME.to_move(state):
            player = players[seat]
            assert player is not None
            text = player.write(GAME.view(state, Viewer(seat)), LegacyChance(f"{seed}/bot/{seat}", state.turn))
            orders[seat] = GAME.parse(state, read_sheet(text), seat).orders
        state = GAME.resolve(state, orders, LegacyChance(seed, state.turn)).state
        turns += 1
    return _winners(state), turns


def _winners(state: State) -> list[int]:
    """The winning seats: the first HOME (a shared first place is split by the series), or with
    two runners a seat, the seat with both HOME (the game ends there)."""
    if state.per_seat == 1:
        return [seat for seat, r in enumerate(state.runners) if r.place == 1]
    pairs = [state.runners[k:k + 2] for k in range(0, len(state.runners), 2)]
    return [seat for seat, pair in enumerate(pairs) if all(r.place is not None for r in pair)]


def _one(args: tuple[int, str, str, tuple[str, ...], int]) -> tuple[int, list[int], int]:
    n, ruleset, others, options, seats = args
    strong = n % seats
    winners, turns = play(1000 + n, strong, ruleset=ruleset, others=others, options=options, seats=seats)
    return strong, winners, turns


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def series(games: int, workers: int, ruleset: str = RULESET, others: str = "baseline",
           options: tuple[str, ...] = (), seats: int = 6) -> None:
    started = time.perf_counter()
    with Pool(workers) as pool:
        results = pool.map(_one, [(n, ruleset, others, options, seats) for n in range(games)], chunksize=1)
    strong_wins = 0.0
    baseline_wins = 0.0
    turns = 0
    for strong, winners, t in results:
        turns += t
        share = 1 / len(winners) if winners else 0.0  # a shared first place is split
        for w in winners:
            if w == strong:
                strong_wins += share
            else:
                baseline_wins += share
    low, high = wilson(strong_wins, games)
    spent = time.perf_counter() - started
    print(f"hare-tortoise: {games} {seats}-player {ruleset}{''.join(f' {o}' for o in options)} games, strong vs "
          f"{seats - 1} {others}, seats rotated; mean {turns / games:.1f} turns; {spent:.0f} s on {workers} workers")
    print(f"  strong win share: {strong_wins / games:.1%} (95% CI {low:.1%} to {high:.1%}); "
          f"fair share {1 / seats:.1%}")
    print(f"  {others} win share per seat: {baseline_wins / games / (seats - 1):.1%}")


def timing(positions: int) -> None:
    """Time to write one sheet, over positions from the series' games; the value table is built
    afresh by the first, as in a new process."""
    states: list[State] = []
    seed = 1000
    while len(states) < positions * 3:
        play(seed, seed % 6, keep=states)
        seed += 1
    picked: Sequence[State] = states[:: max(1, len(states) // positions)][:positions]
    player = bot("strong")
    assert player is not None
    slots_to_home.cache_clear()
    times = []
    for k, state in enumerate(picked):
        seat = GAME.to_move(state)[0] if GAME.to_move(state) else 0
        started = time.perf_counter()
        player.write(GAME.view(state, Viewer(seat)), LegacyChance(f"t/{k}", state.turn))
        times.append(time.perf_counter() - started)
    print(f"  time per sheet, {len(times)} positions, one core: mean {sum(times) / len(times):.3f} s, "
          f"largest {max(times):.3f} s (the first, which builds the value table); without the first: "
          f"mean {sum(times[1:]) / max(1, len(times) - 1):.4f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600, help="games of the main series (default 600)")
    ap.add_argument("--ruleset-games", type=int, default=120,
                    help="games for each other ruleset (default 120; 0: none)")
    ap.add_argument("--self-games", type=int, default=300,
                    help="games against five copies of itself (default 300; 0: none)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--positions", type=int, default=50)
    args = ap.parse_args()
    series(args.games, args.workers)
    if args.ruleset_games:
        for ruleset in (r.name for r in GAME.info.rulesets if r.name != RULESET):
            series(args.ruleset_games, args.workers, ruleset)
        for options, seats in OPTIONS:
            series(args.ruleset_games, args.workers, options=options, seats=seats)
        for seats in SEAT_COUNTS:
            series(args.ruleset_games, args.workers, seats=seats)
    if args.self_games:
        series(args.self_games, args.workers, others="strong")
    timing(args.positions)


if __name__ == "__main__":
    main()
