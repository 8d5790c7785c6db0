"""The game registry and protocol: finding games, set-up, views, redaction, JSON, chance."""

from __future__ import annotations

import pytest

from pbem import games as registry
from pbem.errors import ChanceExhaustedError, PbemError, UnknownGameError
from pbem.games import default_game, find_game, games
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import Draw, LegacyChance, ScriptedChance
from pbem.games.sheet import read_sheet


def setup(*names: str, ruleset: str = "variable-pig") -> Setup:
    return Setup(ruleset, tuple(SeatSpec(n) for n in names))


def test_find_game_by_name_and_alias() -> None:
    assert find_game("Hare-Tortoise").info.name == "hare-tortoise"
    assert find_game("ht").info.name == "hare-tortoise"


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="known games: .*hare-tortoise"):
        find_game("chess")


def test_the_default_game_is_the_one_that_says_so_or_the_only_one(monkeypatch: pytest.MonkeyPatch) -> None:
    every = games()
    assert [g.info.name for g in every if g.info.default] == [default_game().info.name]
    others = tuple(g for g in every if not g.info.default)
    monkeypatch.setattr(registry, "games", lambda: others[:1])
    assert default_game() is others[0]
    monkeypatch.setattr(registry, "games", lambda: others)  # several, none the default: name one
    with pytest.raises(UnknownGameError, match="name the game to play; known games: "):
        default_game()


def test_unknown_ruleset_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGameError, match="known rulesets: variable-pig"):
        find_game("hare-tortoise").info.ruleset("1979-deluxe")


def test_every_game_has_metadata() -> None:
    assert games(), "no game registered"
    for game in games():
        info = game.info
        assert info.name and info.title and info.summary and info.rulesets
        assert info.min_players <= info.max_players
        for r in info.rulesets:
            assert set(r.options) <= {o.name for o in info.options}
        assert game.presenter is not None and game.cases is not None


def test_setup_is_checked_against_the_metadata() -> None:
    info = find_game("hare-tortoise").info
    assert info.check_setup(None, [], 3)[0].name == "variable-pig"
    with pytest.raises(PbemError, match="has no option 'turbo'"):
        info.check_setup(None, ["turbo"], 3)
    with pytest.raises(PbemError, match="takes 2 to 6 players, not 7"):
        info.check_setup("vp", [], 7)


def test_new_state() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(setup("Ann", "Bob", "Cyd"), LegacyChance(4, 0))
    assert [(r.name, r.square, r.carrots, r.lettuces) for r in state.runners] == [
        ("Ann", 0, 65, 3), ("Bob", 0, 65, 3), ("Cyd", 0, 65, 3)
    ]
    assert (game.turn(state), state.first, game.is_over(state)) == (1, 0, False)
    assert game.to_move(state) == (0, 1, 2)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Ann"], "takes 2 to 6 players, not 1"),
        (["Ann", "ann"], "two players are called 'ann'"),
        (["Ann", "Next"], "'Next' is a word of the order language"),
        (["Ann", "Bob Smith"], "letters and digits only"),
    ],
)
def test_bad_player_lists(players: list[str], message: str) -> None:
    with pytest.raises(PbemError, match=message):
        find_game("hare-tortoise").new_state(setup(*players), LegacyChance(1, 0))


def test_a_view_hides_other_runners_carrots() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(setup("Ann", "Bob"), LegacyChance(1, 0)).with_runner(0, carrots=47)
    assert [r.carrots for r in game.view(state, Viewer(1)).runners] == [None, 65]
    assert [r.carrots for r in game.view(state, Viewer(0)).runners] == [47, None]
    assert [r.carrots for r in game.view(state, Viewer.gm()).runners] == [47, 65]
    assert [r.carrots for r in game.view(state, Viewer.public()).runners] == [None, None]


def _turn_one() -> tuple[object, tuple[object, ...]]:
    game = find_game("hare-tortoise")
    state = game.new_state(setup("Ann", "Bob"), LegacyChance(1, 0))
    orders = {
        0: game.parse(state, read_sheet("MOVE: TO 5\nMOVE: ADVANCE 3"), 0).orders,
        1: game.parse(state, read_sheet("MOVE: IF ANN IS ON 5 THEN TO 4 ELSE TO 5"), 1).orders,
    }
    outcome = game.resolve(state, orders, ScriptedChance([]))
    return outcome.state, outcome.resolutions


def test_a_turn_through_the_protocol_and_json() -> None:
    game = find_game("hare-tortoise")
    after, slots = _turn_one()
    assert [(s.name, s.from_square, s.to_square) for s in slots] == [("Ann", 0, 5), ("Bob", 0, 4), ("Ann", 5, 8)]
    assert game.load_state(game.dump_state(after)) == after
    assert [game.resolution_from_json(game.resolution_to_json(s)) for s in slots] == list(slots)
    result = game.result(after)
    assert [(p.name, p.detail) for p in result.places] == [("Ann", "8"), ("Bob", "4")]
    assert not result.over and result.winners == ()


def test_redaction_removes_another_players_private_details() -> None:
    game = find_game("hare-tortoise")
    _, slots = _turn_one()
    ann_slot = slots[0]
    assert game.redact(ann_slot, Viewer(0)) == ann_slot
    assert game.redact(ann_slot, Viewer.gm()) == ann_slot
    seen_by_bob = game.redact(ann_slot, Viewer(1))
    assert (seen_by_bob.carrots_before, seen_by_bob.carrots_after, seen_by_bob.order, seen_by_bob.tried) == (
        None, None, "", ())
    assert (seen_by_bob.from_square, seen_by_bob.to_square, seen_by_bob.paid) == (0, 5, 15)


def test_a_stored_state_of_an_older_version_is_upgraded_or_refused() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(setup("Ann", "Bob"), LegacyChance(1, 0))
    data = game.dump_state(state)
    assert data["schema"] == game.schema_version
    legacy = {k: v for k, v in data.items() if k != "schema"}  # stored before states had a version
    assert game.load_state(legacy) == state
    with pytest.raises(PbemError, match="newer than this pbem"):
        game.load_state({**data, "schema": game.schema_version + 1})


def test_resolving_a_finished_game_is_refused() -> None:
    game = find_game("hare-tortoise")
    state = game.new_state(setup("Ann", "Bob"), LegacyChance(1, 0))
    state = state.with_runner(0, square=59, carrots=25, lettuces=0)
    outcome = game.resolve(state, {0: game.parse(state, read_sheet("MOVE: HOME"), 0).orders}, LegacyChance(1, 1))
    assert game.is_over(outcome.state)
    assert game.result(outcome.state).winners == ("Ann",)
    assert game.to_move(outcome.state) == ()
    with pytest.raises(PbemError, match="the game is over"):
        game.resolve(outcome.state, {}, LegacyChance(1, 2))


def test_seeded_chance_replays_exactly_and_records_every_draw() -> None:
    a, b = LegacyChance(7, 3), LegacyChance(7, 3)
    assert [a.die(6) for _ in range(50)] == [b.die(6) for _ in range(50)]
    assert {d.value for d in a.drawn} == {1, 2, 3, 4, 5, 6}
    assert all(d.turn == 3 and d.kind == "die" for d in a.drawn)
    assert a.shuffle(list("abcdef")) == b.shuffle(list("abcdef"))
    assert a.uniform(10) == b.uniform(10)
    assert [d.kind for d in a.drawn[-2:]] == ["shuffle", "uniform"]
    assert sorted(a.shuffle(list(range(20)))) == list(range(20))


def test_scripted_chance_deals_the_given_decks_in_order() -> None:
    chance = ScriptedChance([3], decks=[["b", "a", "c"]])
    assert chance.die(6) == 3
    assert chance.shuffle(["a", "b", "c"]) == ["b", "a", "c"]
    assert chance.drawn == [Draw(1, "die", 3), Draw(1, "shuffle", ["'b'", "'a'", "'c'"])]
    with pytest.raises(ChanceExhaustedError, match="more than the 1 times scripted"):
        chance.shuffle(["a", "b", "c"])
    with pytest.raises(ChanceExhaustedError, match="does not hold exactly"):
        ScriptedChance(decks=[["a", "a"]]).shuffle(["a", "b"])


def test_a_game_with_secrets_must_say_what_each_reader_sees() -> None:
    """Redaction and the variation of hidden values have defaults only for perfect information:
    a game of imperfect information that forgets them is refused as its class is made."""
    from typing import Any

    from pbem.games.base import Game, GameInfo, Information, RulesetInfo

    rules = (RulesetInfo("standard", "Standard"),)
    with pytest.raises(TypeError, match="imperfect information defines redact and vary_hidden"):
        class Secretive(Game[Any, Any, Any, Any]):
            info = GameInfo("secretive", "Secretive", "hides things", rules)

    class Open(Game[Any, Any, Any, Any]):
        info = GameInfo("open", "Open", "hides nothing", rules, information=Information.PERFECT)

    assert Open.redact is Game.redact and Open.vary_hidden is Game.vary_hidden


def test_every_game_reads_its_state_and_resolution_types_from_its_type_arguments() -> None:
    for game in games():
        state = game.new_state(Setup(game.info.default_ruleset.name,
                                     tuple(SeatSpec(n) for n in ("Ann", "Bob", "Cyd")[:max(2, game.info.min_players)])),
                               LegacyChance(3, 0))
        assert isinstance(state, game.state_type) and game.load_state(game.dump_state(state)) == state
        assert (game.turn(state), game.seats(state), game.is_over(state)) == (state.turn, state.seats, False)
        assert isinstance(game.resolution_type, type), game.info.name
