"""The game registry and protocol: finding games, new states, views, standings, JSON."""

from __future__ import annotations

import json

import pytest

from pbem.errors import PbemError, UnknownGameError
from pbem.games import GAMES, find_game
from pbem.games.chance import ScriptedChance, SeededChance
from pbem.games.hare_tortoise.rules import find_ruleset


def test_find_game_by_name_and_alias() -> None:
    assert find_game("Hare-Tortoise").name == "hare-tortoise"
    assert find_game("ht").name == "hare-tortoise"


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="no game called 'chess'; known games: hare-tortoise"):
        find_game("chess")


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="known rulesets: variable-pig"):
        find_ruleset("1979-deluxe")


def test_every_game_has_metadata() -> None:
    for cls in GAMES:
        assert cls.name and cls.title and cls.rulesets
        assert cls.default_ruleset in cls.rulesets
        assert 1 <= cls.min_players <= cls.max_players


def test_new_state() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(["Ann", "Bob", "Cyd"], seed=4)
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
        find_game("hare-tortoise").new_state(players)


def test_player_view_hides_other_runners_carrots() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(["Ann", "Bob"])
    view = game.player_view(state, "bob")
    assert [r["carrots"] for r in view["runners"]] == [None, 65]
    assert [r["carrots"] for r in game.player_view(state, None)["runners"]] == [65, 65]


def test_a_turn_through_the_protocol_and_json() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(["Ann", "Bob"])
    orders = {"ann": game.parse_orders(state, "MOVE: TO 5\nMOVE: ADVANCE 3"),
              "Bob": game.parse_orders(state, "MOVE: TO 5 ELSE TO 4")}
    outcome = game.resolve_turn(state, orders, ScriptedChance([]))
    after = outcome.state
    assert [(r.square, r.carrots) for r in after.runners] == [(8, 44), (4, 55)]
    assert [(s.name, s.order, s.outcome.value) for s in outcome.resolutions] == [
        ("Ann", "MOVE 1", "forward"), ("Bob", "MOVE 1", "forward"), ("Ann", "MOVE 2", "forward")
    ]
    assert [t.outcome for t in outcome.resolutions[1].tried] == ["illegal", "taken"]
    assert outcome.resolutions[1].tried[0].reason == "square 5 is occupied"
    assert (after.turn, after.first) == (2, 1)
    data = json.loads(json.dumps(game.state_to_json(after)))
    assert game.state_from_json(data) == after
    assert [(s.name, s.position, s.detail) for s in game.standings(after)] == [("Ann", 1, "8"), ("Bob", 2, "4")]


def test_resolving_a_finished_game_is_refused() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(["Ann", "Bob"])
    state = state.with_runner(0, square=59, carrots=25, lettuces=0)
    outcome = game.resolve_turn(state, {"Ann": game.parse_orders(state, "MOVE: HOME")}, SeededChance(1, 1))
    assert outcome.state.over
    assert [(r.name, r.place) for r in outcome.state.runners] == [("Ann", 1), ("Bob", 2)]
    with pytest.raises(PbemError, match="the game is over"):
        game.resolve_turn(outcome.state, {}, SeededChance(1, 2))


def test_seeded_chance_replays_exactly() -> None:
    a, b = SeededChance(7, 3), SeededChance(7, 3)
    assert [a.die(6) for _ in range(50)] == [b.die(6) for _ in range(50)]
    assert set(a.drawn) == {1, 2, 3, 4, 5, 6}
