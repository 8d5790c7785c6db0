"""Random playthroughs of Hare & Tortoise in every ruleset and every combination of options the
game accepts (RULESETS.md), with the invariants each option keeps."""

from __future__ import annotations

import itertools
import random

import pytest

from pbem.errors import PbemError
from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.rules import RULESETS, find_ruleset
from pbem.games.hare_tortoise.state import State
from tests.test_playthrough import Reader, _check_resolutions, _check_state

GAME = find_game("hare-tortoise")
NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay"]
SEEDS = 6
#: seats each option allows (the others take 2 to 6)
SEATS = {"two-player": {2}, "partnership": {4, 6}, "carrots-95": {5, 6}}
#: options that cannot be combined (RULESETS.md, "Which options fit which ruleset")
EXCLUDED = ({"two-player", "partnership"}, {"two-player", "carrots-95"})


def combinations() -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for name, cls in RULESETS.items():
        for k in range(len(cls.options) + 1):
            for combo in itertools.combinations(cls.options, k):
                if not any(pair <= set(combo) for pair in EXCLUDED):
                    out.append((name, combo))
    return out


COMBOS = combinations()


def _seats(options: tuple[str, ...], rng: random.Random) -> int:
    allowed = set(range(2, 7))
    for o in options:
        allowed &= SEATS.get(o, allowed)
    return rng.choice(sorted(allowed))


def _setup(ruleset: str, options: tuple[str, ...], count: int, rng: random.Random) -> Setup:
    teams: list[str | None] = [None] * count
    if "partnership" in options:
        size = 2 if count == 4 else rng.choice([2, 3])
        groups = count // size
        teams = [f"T{i % groups}" for i in range(count)]
    return Setup(ruleset, tuple(SeatSpec(NAMES[i], teams[i]) for i in range(count)), options)


def _invariants(state: State) -> None:
    squares = [r.square for r in state.runners if r.square not in (START, HOME)]
    assert len(squares) == len(set(squares)), f"two runners share a square: {state}"
    two = state.per_seat > 1
    for r in state.runners:
        assert r.carrots >= 0 and 0 <= r.lettuces <= (5 if two else 3), r
        assert (r.place is not None) == (r.home or (state.over and not state.teams and not two)), r
    if two:
        # one supply per player: both runners carry it, and the game ends when one player is all HOME
        for a, b in zip(state.runners[::2], state.runners[1::2], strict=True):
            assert (a.carrots, a.lettuces, a.skip) == (b.carrots, b.lettuces, b.skip)
        assert state.over == any(state.seat_done(k) for k in range(2))
        if state.over:
            assert len(GAME.result(state).winners) == 1
    if state.over and state.teams:
        assert any(all(state.runners[j].home for j in seats) for _, seats in state.teams)
        assert len(GAME.result(state).winners) == 1
    rules = find_ruleset(state.ruleset, state.options)
    if rules.deck is not None:
        assert sorted(state.deck + state.used) == sorted(rules.deck.codes) or (
            rules.deck.recycle and sorted(state.deck) == sorted(rules.deck.codes)), state.deck


@pytest.mark.parametrize(("ruleset", "options"), COMBOS, ids=[f"{r}:{'+'.join(o) or 'plain'}" for r, o in COMBOS])
def test_every_combination_plays_to_the_end(ruleset: str, options: tuple[str, ...]) -> None:
    reader = Reader(GAME)
    for seed in range(SEEDS):
        rng = random.Random(f"{ruleset}/{options}/{seed}")
        setup = _setup(ruleset, options, _seats(options, rng), rng)
        state = GAME.new_state(setup, LegacyChance(seed, 0))
        turns = 0
        while not GAME.is_over(state):
            assert turns < GAME.max_random_turns, f"{ruleset} {options} game {seed} did not end"
            orders = {}
            for seat in GAME.to_move(state):
                if rng.random() < 0.9:
                    orders[seat] = reader.read(state, seat, GAME.random_sheet(state, seat, rng)).orders
            outcome = GAME.resolve(state, orders, LegacyChance(seed, GAME.turn(state)))
            _check_resolutions(GAME, outcome.resolutions)
            _check_state(GAME, outcome.state)
            _invariants(outcome.state)
            state = outcome.state
            turns += 1


@pytest.mark.parametrize(("ruleset", "options", "seats", "message"), [
    ("variable-pig", ("carrots-95",), 4, "option carrots-95 needs 5 or 6 seats, not 4"),
    ("variable-pig", ("partnership",), 5, "option partnership needs 4 or 6 seats, not 5"),
    ("hase-igel-sam", ("carrots-95",), 5, "option carrots-95 does not fit the ruleset hase-igel-sam"),
    ("parlett-2010", ("two-player",), 3, "option two-player needs 2 seats, not 3"),
    ("variable-pig", ("two-player", "partnership"), 2, "options two-player and partnership cannot be combined"),
    ("variable-pig", ("carrots-95", "two-player"), 2, "options carrots-95 and two-player cannot be combined"),
    ("parlett-2010", ("face-to-face", "face-to-face"), 2, "option face-to-face is given twice"),
])
def test_combinations_refused_with_the_allowed_ones(ruleset: str, options: tuple[str, ...], seats: int,
                                                    message: str) -> None:
    teams = ["X", "Y"] * 3 if "partnership" in options else [None] * 6
    setup = Setup(ruleset, tuple(SeatSpec(NAMES[i], teams[i]) for i in range(seats)), options)
    with pytest.raises(PbemError, match=message):
        GAME.new_state(setup, LegacyChance(1, 0))


def test_partnership_refuses_partners_side_by_side() -> None:
    setup = Setup("variable-pig", tuple(SeatSpec(n, t) for n, t in zip(NAMES, "XXYY", strict=False)),
                  ("partnership",))
    with pytest.raises(PbemError, match="partners Ann and Bob sit next to each other"):
        GAME.new_state(setup, LegacyChance(1, 0))


def test_partnership_refuses_a_team_named_like_a_seat() -> None:
    setup = Setup("variable-pig", tuple(SeatSpec(n, t) for n, t in zip(NAMES, ["Ann", "Z", "Ann", "Z"], strict=False)),
                  ("partnership",))
    with pytest.raises(PbemError, match="also a seat name"):
        GAME.new_state(setup, LegacyChance(1, 0))


def test_deck_is_shuffled_from_the_games_chance_and_recorded() -> None:
    chance = LegacyChance(7, 0)
    state = GAME.new_state(Setup("parlett-2010", (SeatSpec("Ann"), SeatSpec("Bob"))), chance)
    assert sorted(state.deck) == sorted(find_ruleset("parlett-2010").deck.codes)  # type: ignore[union-attr]
    assert [d.kind for d in chance.drawn] == ["shuffle"]
    again = GAME.new_state(Setup("parlett-2010", (SeatSpec("Ann"), SeatSpec("Bob"))), LegacyChance(7, 0))
    assert again.deck == state.deck
