"""Engine benchmark: complete 6-player variable-pig games on one core, a fixed standard workload.

Every player's sheet is one DEFAULT line (parsed once per game); dice come from a seeded
source; each game runs until it is over or 400 turns. The last line printed is
`engine: <S> slots/s, <G> games/s`, comparable across versions.

Usage: python benchmarks/engine.py [--games N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.rules import find_ruleset

SHEET = (
    "DEFAULT: HOME ELSE IF LETTUCES > 0 AND CARROTS > 30 THEN NEXT LETTUCE "
    "ELSE IF CARROTS < 20 THEN BACK ELSE IF CARROTS > 80 THEN ADVANCE 6 ELSE ADVANCE 3"
)
PLAYERS = ("Ann", "Bob", "Cyd", "Dot", "Eve", "Fay")
MAX_TURNS = 400


class _Chance:
    """A seeded die for the whole game (one stream, so the workload is fixed)."""

    def __init__(self, seed: int) -> None:
        self._chance = LegacyChance(seed)

    def die(self, sides: int) -> int:
        return self._chance.die(sides)


def play_game(seed: int) -> tuple[int, int]:
    """One complete game; returns (slots, turns)."""
    rules = find_ruleset("variable-pig")
    state = engine.new_state(rules, PLAYERS)
    sheet = parse_sheet(SHEET, PLAYERS)
    sheets = [sheet] * len(PLAYERS)
    chance = LegacyChance(seed)
    slots = turns = 0
    while not state.over and turns < MAX_TURNS:
        result = engine.resolve_turn(rules, state, sheets, chance)
        state = result.state
        slots += len(result.slots)
        turns += 1
    return slots, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    play_game(0)  # warm up: grammar, tables
    if args.profile:
        cProfile.run(f"[play_game(s) for s in range({args.games})]", "/tmp/engine.prof")
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(15)
    start = time.process_time()
    total_slots = total_turns = finished = 0
    for seed in range(args.games):
        slots, turns = play_game(seed)
        total_slots += slots
        total_turns += turns
        finished += turns < MAX_TURNS
    elapsed = time.process_time() - start
    print(f"{args.games} games ({finished} finished), {total_turns} turns, {total_slots} slots in {elapsed:.2f} s")
    print(f"mean {total_turns / args.games:.0f} turns and {total_slots / args.games:.0f} slots per game")
    print(f"engine: {total_slots / elapsed:,.0f} slots/s, {args.games / elapsed:,.1f} games/s")


if __name__ == "__main__":
    main()
