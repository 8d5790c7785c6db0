"""The order template under every welcome and report, sent back untouched, is taken whole: in
every game and ruleset, at every turn of a seeded game (a template line the game rejects would
teach the player to write it)."""

from __future__ import annotations

import pytest

from pbem.games import find_game, games
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.present import Reader
from pbem.games.sheet import Accepted, read_sheet

NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay"]


@pytest.mark.parametrize(("game_name", "ruleset"), [(g.info.name, r.name) for g in games() for r in g.info.rulesets])
def test_the_order_template_is_taken_whole(game_name: str, ruleset: str) -> None:
    game = find_game(game_name)
    seats = max(game.info.ruleset(ruleset).min_players, 2)
    state = game.new_state(Setup(ruleset, tuple(SeatSpec(n) for n in NAMES[:seats])), LegacyChance(5, 0))
    checked = 0
    for _ in range(40):
        if game.is_over(state):
            break
        for seat in game.to_move(state):
            reader = Reader(Viewer(seat), NAMES[seat], (seat,))
            lines = game.presenter.order_lines(game.view(state, reader.viewer), reader)
            assert lines, (game_name, ruleset, seat)
            parsed = game.parse(state, read_sheet("\n".join(lines)), seat)
            assert [type(e) for e in parsed.echo] == [Accepted] * len(lines), (lines, parsed.echo)
            checked += 1
        state = game.resolve(state, {}, LegacyChance(5, game.turn(state))).state
    assert checked >= 2
