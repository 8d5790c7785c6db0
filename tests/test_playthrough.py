"""Random playthroughs: for every registered game and ruleset, many seeded games with random order
sheets all end and keep the protocol's invariants (and each game's own)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pytest

from pbem.games import AnyGame, find_game, games
from pbem.games.base import Parsed, SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.resolution import Outcome, Slot
from pbem.games.hare_tortoise.state import State
from pbem.games.sheet import Accepted, Ignored, Rejected, read_sheet

GAMES = 300  # per game and ruleset
BLOCKS = 10
NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay", "Gil", "Hal"]
#: one cached reading in so many is read again and compared, to hold the game's `sheet_key` to its word
RECHECK = 250


PLAYS = [(g, r) for g in games() for r in g.info.rulesets]


class Reader:
    """Reads sheets through the generic reader and the game, caching the readings by the text
    and the game's `sheet_key` (reading costs far more than resolving)."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.cache: dict[tuple[str, Hashable], Parsed[Any]] = {}
        self.hits = 0

    def read(self, state: Any, seat: int, text: str) -> Parsed[Any]:
        reading = self.game.sheet_key(state, seat)
        if reading is None:
            return self._read(state, seat, text)
        key = (text, reading)
        parsed = self.cache.get(key)
        if parsed is None:
            parsed = self.cache[key] = self._read(state, seat, text)
        else:
            self.hits += 1
            if self.hits % RECHECK == 0:
                assert self._read(state, seat, text) == parsed, "sheet_key leaves out what the reading depends on"
        return parsed

    def _read(self, state: Any, seat: int, text: str) -> Parsed[Any]:
        sheet = read_sheet(text)
        parsed = self.game.parse(state, sheet, seat)
        numbers = {line.number for line in sheet.lines}
        echoed = {e.line for e in parsed.echo}
        assert echoed == numbers, f"lines without an answer {numbers - echoed}, answers without a line {echoed - numbers}"
        return parsed


def _check_state(game: AnyGame, state: Any) -> None:
    data = json.loads(json.dumps(game.dump_state(state)))
    assert game.load_state(data) == state
    seats = game.seats(state)
    for viewer in (*(Viewer(s) for s in range(len(seats))), Viewer.gm()):
        game.view(state, viewer)
    assert set(game.to_move(state)) <= set(range(len(seats)))
    result = game.result(state)
    assert result.over == game.is_over(state)
    assert sorted(p.seat for p in result.places) == list(range(len(seats)))


def _check_resolutions(game: AnyGame, resolutions: Sequence[Any]) -> None:
    stored = json.loads(json.dumps([game.resolution_to_json(r) for r in resolutions]))
    assert [game.resolution_from_json(data) for data in stored] == list(resolutions)
    gm = Viewer.gm()
    for r in resolutions:
        assert game.redact(r, gm) == r
        seat = game.owner(r)
        if seat is not None:
            assert game.redact(r, Viewer(seat)) == r, "the owner of a resolution sees it all"


def play(game: AnyGame, ruleset: str, seed: int, *, on_turn: Callable[[Any, Any, Sequence[Any]], None] | None = None,
         reader: Reader | None = None) -> Any:
    """One seeded game of random sheets to its end; every state and resolution checked."""
    reader = reader or Reader(game)
    max_turns = game.max_random_turns
    rules = game.info.ruleset(ruleset)
    rng = random.Random(f"{game.info.name}/{ruleset}/{seed}")
    count = rng.randint(rules.min_players, min(rules.max_players, len(NAMES)))
    state = game.new_state(Setup(rules.name, tuple(SeatSpec(n) for n in NAMES[:count])), LegacyChance(seed, 0))
    _check_state(game, state)
    turns = 0
    while not game.is_over(state):
        assert turns < max_turns, f"{game.info.name} game {seed} did not end in {max_turns} turns"
        orders = {}
        for seat in game.to_move(state):
            if rng.random() < 0.9:  # now and then a seat sends nothing
                orders[seat] = reader.read(state, seat, game.random_sheet(state, seat, rng)).orders
        outcome = game.resolve(state, orders, LegacyChance(seed, game.turn(state)))
        _check_resolutions(game, outcome.resolutions)
        _check_state(game, outcome.state)
        if on_turn is not None:
            on_turn(state, outcome.state, outcome.resolutions)
        state = outcome.state
        turns += 1
    assert game.to_move(state) == ()
    assert game.result(state).over
    return state


# --- Hare & Tortoise's own invariants -------------------------------------------------------


def _hare_tortoise_turn(before: State, state: State, slots: Sequence[Slot]) -> None:
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
    else:
        # every racing runner had at least one slot
        assert {s.seat for s in slots} == {i for i, r in enumerate(before.runners) if not r.home}
    for s in slots:
        assert isinstance(s.outcome, Outcome)


#: each game's own checks of a turn: (state before, state after, resolutions)
TURN_CHECKS: dict[str, Callable[[Any, Any, Sequence[Any]], None]] = {"hare-tortoise": _hare_tortoise_turn}

_READERS: dict[str, Reader] = {}


@pytest.mark.parametrize("block", range(BLOCKS))
@pytest.mark.parametrize(("game", "ruleset"), [(g, r.name) for g, r in PLAYS],
                         ids=[f"{g.info.name}:{r.name}" for g, r in PLAYS])
def test_random_games_end_and_keep_the_invariants(game: AnyGame, ruleset: str, block: int) -> None:
    reader = _READERS.setdefault(game.info.name, Reader(game))
    for seed in range(block * GAMES // BLOCKS, (block + 1) * GAMES // BLOCKS):
        play(game, ruleset, seed, on_turn=TURN_CHECKS.get(game.info.name), reader=reader)


def test_hare_tortoise_random_sheets_mix_accepted_rejected_and_ignored_lines() -> None:
    from pbem.games.hare_tortoise import testing

    game = find_game("hare-tortoise")
    state = game.new_state(Setup("variable-pig", tuple(SeatSpec(n) for n in NAMES[:6])), LegacyChance(1, 0))
    pool = testing.sheet_pool(state.seats)
    echoes = [game.parse(state, read_sheet(text), 0).echo for text in pool]
    n = len(pool)
    assert sum(1 for e in echoes if any(isinstance(x, Rejected) for x in e)) > n // 10
    assert sum(1 for e in echoes if any(isinstance(x, Ignored) for x in e)) > n // 50
    assert sum(1 for e in echoes for x in e if isinstance(x, Accepted) and x.canonical.startswith("MOVE")) > n
    assert sum(1 for e in echoes if any(isinstance(x, Accepted) and x.canonical.startswith("DEFAULT") for x in e)) > n // 2
