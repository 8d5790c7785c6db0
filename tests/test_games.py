"""The game registry and protocol: finding games, new states, views, standings, JSON."""

from __future__ import annotations

import json

import pytest

from pbem.errors import PbemError, UnknownGameError
from pbem.games import find_game, games
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import ScriptedChance, SeededChance
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import State
from pbem.games.sheet import read_sheet


def _new(players: list[str]) -> State:
    state: State = find_game("hare-tortoise").new_state(
        Setup("variable-pig", tuple(SeatSpec(p) for p in players)), SeededChance(4, 0))
    return state


def test_find_game_by_name_and_alias() -> None:
    assert find_game("Hare-Tortoise").info.name == "hare-tortoise"
    assert find_game("ht").info.name == "hare-tortoise"


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="no game called 'chess'; known games: hare-tortoise"):
        find_game("chess")


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="known rulesets: variable-pig"):
        find_ruleset("1979-deluxe")


def test_every_game_has_metadata() -> None:
    for game in games():
        info = game.info
        assert info.name and info.title and info.rulesets
        assert info.default_ruleset in info.rulesets
        assert 1 <= info.min_players <= info.max_players


def test_new_state() -> None:
    game = find_game("hare-tortoise")
    state = _new(["Ann", "Bob", "Cyd"])
    assert [(r.name, r.square, r.carrots, r.lettuces) for r in state.runners] == [
        ("Ann", 0, 65, 3), ("Bob", 0, 65, 3), ("Cyd", 0, 65, 3)
    ]
    assert (game.turn(state), state.first, game.is_over(state)) == (1, 0, False)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann"], "takes 2 to 6 players, not 1"),
        (["A", "B", "C", "D", "E", "F", "G"], "takes 2 to 6 players, not 7"),
        (["Ann", "ann"], "two players are called 'ann'"),
        (["Ann", "Next"], "'Next' is a word of the order language"),
        (["Ann", "Bob Smith"], "letters and digits only"),
    ],
)
def test_bad_player_lists(players: list[str], message: str) -> None:
    with pytest.raises(PbemError, match=message):
        _new(players)


def test_player_view_hides_other_runners_carrots() -> None:
    game = find_game("hare-tortoise")
    state = _new(["Ann", "Bob"])
    assert [r.carrots for r in game.view(state, Viewer(1)).runners] == [None, 65]
    assert [r.carrots for r in game.view(state, Viewer.gm()).runners] == [65, 65]


def test_a_turn_through_the_protocol_and_json() -> None:
    game = find_game("hare-tortoise")
    state = _new(["Ann", "Bob"])
    orders = {0: game.parse(state, read_sheet("MOVE: TO 5\nMOVE: ADVANCE 3"), 0).orders,
              1: game.parse(state, read_sheet("MOVE: TO 5 ELSE TO 4"), 1).orders}
    outcome = game.resolve(state, orders, ScriptedChance([]))
    after = outcome.state
    assert [(r.square, r.carrots) for r in after.runners] == [(8, 44), (4, 55)]
    assert [(s.name, s.order, s.outcome.value) for s in outcome.resolutions] == [
        ("Ann", "MOVE 1", "forward"), ("Bob", "MOVE 1", "forward"), ("Ann", "MOVE 2", "forward")
    ]
    assert [t.outcome for t in outcome.resolutions[1].tried] == ["illegal", "taken"]
    assert outcome.resolutions[1].tried[0].reason == "square 5 is occupied"
    assert (after.turn, after.first) == (2, 1)
    data = json.loads(json.dumps(game.dump_state(after)))
    assert game.load_state(data) == after
    assert [(p.name, p.place, p.detail) for p in game.result(after).places] == [("Ann", None, "8"), ("Bob", None, "4")]


def test_resolving_a_finished_game_is_refused() -> None:
    game = find_game("hare-tortoise")
    state = _new(["Ann", "Bob"]).with_runner(0, square=59, carrots=25, lettuces=0)
    outcome = game.resolve(state, {0: game.parse(state, read_sheet("MOVE: HOME"), 0).orders}, SeededChance(1, 1))
    assert outcome.state.over
    assert [(r.name, r.place) for r in outcome.state.runners] == [("Ann", 1), ("Bob", 2)]
    assert game.result(outcome.state).winners == ("Ann",)
    with pytest.raises(PbemError, match="the game is over"):
        game.resolve(outcome.state, {}, SeededChance(1, 2))


def test_seeded_chance_replays_exactly() -> None:
    a, b = SeededChance(7, 3), SeededChance(7, 3)
    assert [a.die(6) for _ in range(50)] == [b.die(6) for _ in range(50)]
    assert set(a.dice) == {1, 2, 3, 4, 5, 6}
