"""Sam, the computer player: sheets through the ordinary parser, from its own view, and games of
Sam seats that end in every ruleset and option combination."""

from __future__ import annotations

import random

import pytest

from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.sheet import Rejected
from tests.test_playthrough import Reader
from tests.test_playthrough_rulesets import COMBOS, _seats, _setup

GAME = find_game("hare-tortoise")
#: Sam's sheets are read like anyone's; the readings are cached by text and what reading depends on
READER = Reader(GAME)


def _play(setup: Setup, seed: int, sam_seats: set[int], max_turns: int = 200) -> object:
    sam = GAME.bot("sam")
    assert sam is not None
    state = GAME.new_state(setup, LegacyChance(seed, 0))
    for _ in range(max_turns):
        if GAME.is_over(state):
            return state
        orders = {}
        for seat in GAME.to_move(state):
            if seat in sam_seats:
                text = sam.write(GAME.view(state, Viewer(seat)), LegacyChance(f"{seed}/sam/{seat}", GAME.turn(state)))
                parsed = READER.read(state, seat, text)
                assert not any(isinstance(e, Rejected) for e in parsed.echo), text
                orders[seat] = parsed.orders
        state = GAME.resolve(state, orders, LegacyChance(seed, GAME.turn(state))).state
    raise AssertionError(f"{setup.ruleset} {setup.options}: Sam's game {seed} did not end in {max_turns} turns")


@pytest.mark.parametrize(("ruleset", "options"), COMBOS, ids=[f"{r}:{'+'.join(o) or 'plain'}" for r, o in COMBOS])
def test_games_of_sam_seats_end_within_200_turns(ruleset: str, options: tuple[str, ...]) -> None:
    for seed in range(2):
        rng = random.Random(f"sam/{ruleset}/{options}/{seed}")
        setup = _setup(ruleset, options, _seats(options, rng), rng)
        _play(setup, seed, set(range(len(setup.seats))))


@pytest.mark.parametrize("ruleset", ["variable-pig", "parlett-2010", "parlett-classic", "intellect-1974", "hase-igel-sam"])
def test_sam_beats_a_seat_that_sends_nothing(ruleset: str) -> None:
    for seed in range(3):
        state = _play(Setup(ruleset, (SeatSpec("Sam"), SeatSpec("Bob"))), seed, {0})
        assert GAME.result(state).winners == ("Sam",)  # type: ignore[arg-type]


def test_sam_writes_the_same_sheet_for_the_same_view() -> None:
    sam = GAME.bot("sam")
    assert sam is not None and GAME.bot("nobody") is None
    state = GAME.new_state(Setup("hase-igel-sam", (SeatSpec("Sam"), SeatSpec("Bob"))), LegacyChance(3, 0))
    first = sam.write(GAME.view(state, Viewer(0)), LegacyChance(1, 1))
    assert first == sam.write(GAME.view(state, Viewer(0)), LegacyChance(2, 1))
    assert first.count("MOVE") == 2 and "HARE: IF CARROTS >= 40 THEN GIVE ELSE TAKE" in first
