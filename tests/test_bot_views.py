"""A computer player (and a sitter, which is one) writes from its seat's view alone.

For every registered game and every level of its computer players: positions reached by random
sheets, and one other seat's hidden values changed by the game's own `vary_hidden`; the sheet
the player writes for its seat, as a computer player and as a person's sitter, is the same text
in both positions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import bots
from pbem.games import AnyGame, games
from pbem.games.base import SeatSpec, Setup
from pbem.games.chance import Generator, LegacyChance, Seeding
from pbem.games.sheet import read_sheet

NAMES = ("Ann", "Bob", "Cyd", "Dot")
PLAYED = [(g, level) for g in games() for level in g.info.bot_levels]


def position(engine: AnyGame, seats: int, turns: int, seed: int) -> Any:
    """The first ruleset's game after `turns` turns of random sheets (or its end)."""
    ruleset = engine.info.rulesets[0]
    _, chosen = engine.info.check_setup(ruleset.name, (), seats)
    state = engine.new_state(Setup(ruleset.name, tuple(SeatSpec(n) for n in NAMES[:seats]), chosen),
                             LegacyChance(seed, 0))
    rng = random.Random(seed)
    for _ in range(turns):
        if engine.is_over(state):
            break
        orders = {s: engine.parse(state, read_sheet(engine.random_sheet(state, s, rng)), s).orders
                  for s in engine.may_send(state)}
        state = engine.resolve(state, orders, LegacyChance(seed, engine.turn(state))).state
    return state


@pytest.mark.parametrize(("engine", "level"), PLAYED, ids=lambda x: x if isinstance(x, str) else x.info.name)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(turns=st.integers(0, 4), seed=st.integers(0, 10_000), pick=st.integers(0, 3), vary=st.integers(0, 99))
def test_a_computer_players_sheet_reads_only_its_view(engine: AnyGame, level: str, turns: int, seed: int, pick: int,
                                                     vary: int) -> None:
    ruleset = engine.info.rulesets[0]
    seats = max(ruleset.min_players, min(len(NAMES), ruleset.max_players))
    state = position(engine, seats, turns, seed)
    moving = list(engine.may_send(state)) or [0]
    seat = moving[pick % len(moving)]
    other = next(s for s in ((seat + k) % seats for k in range(1, seats)))
    varied, _ = engine.vary_hidden(state, (), other, vary)
    game = Seeding(f"s{seed}", Generator.KEYED)
    assert bots.write_sheet(engine, varied, seat, level, game) == bots.write_sheet(engine, state, seat, level, game)
