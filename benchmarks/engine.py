"""Engine benchmark: complete 6-player variable-pig games on one core, a fixed standard workload,
played by the engine and by the plain reference model of the rules (tests/ht_reference.py).

Every player's sheet is one DEFAULT line (parsed once per game); dice come from a seeded
source, the same stream for both, so both play the same games; each game runs until it is over
or 400 turns. The reference is written for reading (lists, one method per rule, no caching, no
records); the engine also writes the record of every slot. The engine must be at least as fast:
the last line reads `engine: <S> slots/s, <G> games/s, <R>x the reference (floor 1.0x)`, and the
script exits with status 1 below the floor. Engine and reference take turns for --rounds rounds
and each keeps its best round, so a machine shared with other work times both alike.

Usage: python benchmarks/engine.py [--games N] [--rounds N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import Must, Runner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the reference lives with the tests
from tests.ht_reference import Reference  # noqa: E402

SHEET = (
    "DEFAULT: HOME ELSE IF LETTUCES > 0 AND CARROTS > 30 THEN NEXT LETTUCE "
    "ELSE IF CARROTS < 20 THEN BACK ELSE IF CARROTS > 80 THEN ADVANCE 6 ELSE ADVANCE 3"
)
PLAYERS = ("Ann", "Bob", "Cyd", "Dot", "Eve", "Fay")
RULESET = "variable-pig"
MAX_TURNS = 400
#: the engine's speed as a multiple of the reference's, at least
FLOOR = 1.0


def play_game(seed: int) -> tuple[int, int]:
    """One complete game by the engine; returns (slots, turns)."""
    rules = find_ruleset(RULESET)
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


def play_reference_game(seed: int) -> tuple[int, int]:
    """The same game by the reference model, turn by turn from the position the last one left."""
    rules = find_ruleset(RULESET)
    runners = engine.new_state(rules, PLAYERS).runners
    sheet = parse_sheet(SHEET, PLAYERS)
    sheets = [sheet] * len(PLAYERS)
    chance = LegacyChance(seed)
    first = slots = turns = 0
    over = False
    while not over and turns < MAX_TURNS:
        model = Reference(RULESET, (), runners, first, (), (), (), (), chance)
        slots += model.turn(sheets)
        over = model.over
        runners = tuple(Runner(name=r.name, square=model.sq[j], carrots=model.car[j], lettuces=model.let[j],
                               place=model.place[j], must=Must(model.must[j]), skip=model.skip[j])
                        for j, r in enumerate(runners))
        if not over:
            first = model.next_first()
        turns += 1
    return slots, turns


def _timed(play: Callable[[int], tuple[int, int]], games: int) -> tuple[float, int, int, int]:
    """(CPU seconds, slots, turns, games finished) for `games` seeded games."""
    start = time.process_time()
    total_slots = total_turns = finished = 0
    for seed in range(games):
        slots, turns = play(seed)
        total_slots += slots
        total_turns += turns
        finished += turns < MAX_TURNS
    return time.process_time() - start, total_slots, total_turns, finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    play_game(0)  # warm up: grammar, tables
    play_reference_game(0)
    if args.profile:
        cProfile.run(f"[play_game(s) for s in range({args.games})]", "/tmp/engine.prof")
        pstats.Stats("/tmp/engine.prof").sort_stats("tottime").print_stats(15)
    engine_rounds, reference_rounds = [], []
    for _ in range(args.rounds):
        engine_rounds.append(_timed(play_game, args.games))
        reference_rounds.append(_timed(play_reference_game, args.games))
    elapsed, total_slots, total_turns, finished = min(engine_rounds)
    reference, reference_slots, _, _ = min(reference_rounds)
    if reference_slots != total_slots:
        raise SystemExit(f"the engine played {total_slots} slots and the reference {reference_slots}: they disagree")
    ratio = reference / elapsed
    print(f"{args.games} games ({finished} finished), {total_turns} turns, {total_slots} slots in {elapsed:.2f} s")
    print(f"mean {total_turns / args.games:.0f} turns and {total_slots / args.games:.0f} slots per game")
    print(f"reference: {total_slots / reference:,.0f} slots/s in {reference:.2f} s")
    print(f"engine: {total_slots / elapsed:,.0f} slots/s, {args.games / elapsed:,.1f} games/s, "
          f"{ratio:.2f}x the reference (floor {FLOOR:.1f}x)")
    if ratio < FLOOR:
        sys.exit(1)


if __name__ == "__main__":
    main()
