"""Random playthroughs: many seeded games with random order sheets all end and keep the invariants."""

from __future__ import annotations

import functools
import json
import random

import pytest

from pbem.games import find_game
from pbem.games.chance import SeededChance
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.resolution import Outcome
from pbem.games.hare_tortoise.state import State

GAMES = 500
MAX_TURNS = 400
NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay"]


def _atom(rng: random.Random, players: list[str]) -> str:
    cmp = rng.choice(["=", "!=", "<", "<=", ">", ">="])
    return rng.choice([
        f"SQUARE {rng.randint(0, 64)} IS {rng.choice(['FREE', 'OCCUPIED', 'NOT FREE'])}",
        f"{rng.choice(players)} IS {rng.choice(['', 'NOT '])}ON {rng.randint(0, 64)}",
        f"{rng.choice(players)} IS {rng.choice(['AHEAD', 'BEHIND', 'HOME', 'NOT HOME'])}",
        f"I AM {rng.choice(['FIRST', 'LAST', 'NOT LAST'])}",
        f"RANK {cmp} {rng.randint(1, 6)}",
        f"CARROTS {cmp} {rng.randint(0, 120)}",
        f"LETTUCES {cmp} {rng.randint(0, 3)}",
        f"MY SQUARE {cmp} {rng.randint(0, 63)}",
    ])


def _condition(rng: random.Random, players: list[str], depth: int = 0) -> str:
    roll = rng.random()
    if depth < 2 and roll < 0.2:
        return f"({_condition(rng, players, depth + 1)} OR {_condition(rng, players, depth + 1)})"
    if depth < 2 and roll < 0.4:
        return f"{_condition(rng, players, depth + 1)} AND {_condition(rng, players, depth + 1)}"
    if roll < 0.5:
        return f"NOT {_atom(rng, players)}"
    return _atom(rng, players)


def _action(rng: random.Random) -> str:
    return rng.choice([
        f"TO {rng.randint(0, 64)}", "HOME", "TO HOME", f"ADVANCE {rng.randint(0, 12)}", "NEXT",
        f"NEXT {rng.choice(['CARROT', 'LETTUCE', 'HARE', 'NUMBER'])}", f"NEXT NUMBER {rng.randint(1, 6)}",
        "BACK", "STAY", "STAY GIVE", "STAY -10", "STAY +10", "EAT",
    ])


def _chain(rng: random.Random, players: list[str]) -> str:
    alts = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.6:
            alts.append(f"IF {_condition(rng, players)} THEN {_action(rng)}")
        else:
            alts.append(_action(rng))
    return " ELSE ".join(alts)


_MALFORMED = [
    "MOVE: IF CARROTS > 5 TO 5", "MOVE: TO 99", "MOVE 9: NEXT", "MOVE: NEXT NUMBER 8", "MOVE: STAY +30",
    "MOVE: IF Zed IS HOME THEN BACK", "MOVE: JUMP", "DEFAULT: ", "HARE: MAYBE", "MOVE: IF (CARROTS > 3 THEN BACK",
    "move: to 12.", "Move 1 : advance 2", "Hello from me!", "> MOVE: TO 5", "MOVE: IF ≥ THEN", "MOVE:\u00a0NEXT",
]


# A sheet that brings a runner home: random sheets alone can loop for ever (staying, falling
# back), so after RANDOM_TURNS every player switches to it and the game must then end.
FINISHER = (
    "DEFAULT: HOME ELSE IF LETTUCES > 0 AND CARROTS > 20 THEN NEXT LETTUCE ELSE IF CARROTS < 15 THEN BACK "
    "ELSE IF LETTUCES = 0 AND MY SQUARE > 50 AND CARROTS > 10 THEN STAY GIVE ELSE IF CARROTS > 100 THEN "
    "ADVANCE 7 ELSE IF CARROTS > 60 THEN ADVANCE 5 ELSE ADVANCE 3 ELSE ADVANCE 2 ELSE ADVANCE 1 ELSE BACK"
)
RANDOM_TURNS = 40


def random_sheet(rng: random.Random, players: list[str]) -> str:
    lines = []
    for _ in range(rng.randint(0, 4)):
        lines.append(f"MOVE: {_chain(rng, players)}")
    if rng.random() < 0.7:
        lines.append(f"DEFAULT: {_chain(rng, players)}")
    if rng.random() < 0.3:
        lines.append(f"HARE: {rng.choice(['TAKE', 'GIVE'])}")
    if rng.random() < 0.4:
        lines.insert(rng.randint(0, len(lines)), rng.choice(_MALFORMED))
    return "\n".join(lines)


def _check_invariants(state: State, before: State, slots: tuple[object, ...]) -> None:
    squares = [r.square for r in state.runners if r.square not in (START, HOME)]
    assert len(squares) == len(set(squares)), f"two runners share a square: {state}"
    for r in state.runners:
        assert r.carrots >= 0, f"negative carrots: {r}"
        assert 0 <= r.lettuces <= 3, f"lettuces out of range: {r}"
        assert (r.place is not None) == (r.home or state.over), r
    places = [r.place for r in state.runners if r.place is not None]
    assert len(places) == len(set(places)), f"places not distinct: {places}"
    if state.over:
        assert sorted(places) == list(range(1, len(state.runners) + 1))
    racing_before = [r for r in before.runners if not r.home]
    if not state.over:
        # every racing runner had at least one slot, the first mover two (unless it got home)
        seats_seen = {getattr(s, "seat") for s in slots}  # noqa: B009 - slots are typed object
        assert seats_seen == {before.seat_of(r.name) for r in racing_before}
    for s in slots:
        assert isinstance(getattr(s, "outcome"), Outcome)  # noqa: B009


POOL = 400


@functools.cache
def sheet_pool(players: tuple[str, ...]) -> tuple[OrderSheet, ...]:
    """Random sheets for these seats, parsed once: parsing every sheet of every turn is slow."""
    rng = random.Random(len(players))
    game = find_game("hare-tortoise")
    state = game.new_state(players)
    return tuple(game.parse_orders(state, random_sheet(rng, list(players))) for _ in range(POOL))


def test_random_sheets_cover_accepted_rejected_and_ignored_lines() -> None:
    pool = sheet_pool(tuple(NAMES))
    assert sum(1 for s in pool if s.rejected) > POOL // 10
    assert sum(1 for s in pool if s.ignored) > POOL // 50
    assert sum(len(s.moves) for s in pool) > POOL
    assert sum(1 for s in pool if s.default is not None) > POOL // 2


@pytest.mark.parametrize("block", range(10))
def test_random_games_terminate_and_keep_invariants(block: int) -> None:
    game = find_game("hare-tortoise")
    for seed in range(block * GAMES // 10, (block + 1) * GAMES // 10):
        rng = random.Random(seed)
        players = NAMES[: rng.randint(2, 6)]
        state: State = game.new_state(players, seed=seed)
        finisher = game.parse_orders(state, FINISHER)
        turns = 0
        while not game.is_over(state):
            assert turns < MAX_TURNS, f"game {seed} did not end in {MAX_TURNS} turns"
            if state.turn <= RANDOM_TURNS:
                pool = sheet_pool(tuple(players))
                sheets = {p: rng.choice(pool) for p in players if rng.random() < 0.9}
            else:
                sheets = {p: finisher for p in players}
            outcome = game.resolve_turn(state, sheets, SeededChance(seed, state.turn))
            _check_invariants(outcome.state, state, outcome.resolutions)
            round_trip = game.state_from_json(json.loads(json.dumps(game.state_to_json(outcome.state))))
            assert round_trip == outcome.state
            state = round_trip
            turns += 1
