"""The card race's strong player in `apprentice`: what its sheet gives to whom, from its view alone."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.card_race.bots import Strong
from pbem.games.card_race.state import State
from pbem.games.card_race.view import vary_hidden
from pbem.games.chance import LegacyChance
from pbem.games.sheet import Accepted, read_sheet

GAME = find_game("card-race")
NAMES = ("Ann", "Bob", "Cyd", "Dot")


def apprentice_race(seed: int = 3) -> State:
    _, chosen = GAME.info.check_setup("apprentice", (), len(NAMES))
    state: State = GAME.new_state(Setup("apprentice", tuple(SeatSpec(n) for n in NAMES), chosen),
                                  LegacyChance(seed, 0))
    return state


def late_position() -> State:
    """Ann backs the tortoise (tile 3; its turbo token on tile 4) and holds none; the hare stands
    one step from the line, the wolf three."""
    state = apprentice_race()
    return replace(state, turbo=(0, 1, 2, 3, 4), pawns=(11, 3, 9, 2, 0),
                   starts=(("T",), ("H",), ("W",), ("F",)),
                   hands=(("H", "W", "F", "L", "L"), *state.hands[1:]))


def test_apprentice_sheet_feeds_rivals_near_the_line_last_and_keeps_every_card_for_later_turns() -> None:
    state = late_position()
    text = Strong(apprentice_rollouts=0).write(GAME.view(state, Viewer(0)), LegacyChance(1, 1))
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert lines == [
        # the lamb and the fox are furthest back; a wolf card only while it cannot carry the
        # wolf over the line; the hare's card, which always would, last
        "PLAY 1 LAMB ELSE PLAY 1 FOX ELSE IF TABLE WOLF <= 1 THEN PLAY 1 WOLF ELSE PLAY 1 WOLF ELSE PLAY 1 HARE",
        # a tortoise drawn meanwhile is played, first the one that lands it on its turbo token
        "DEFAULT: IF TABLE TORTOISE = 0 THEN PLAY 1 TORTOISE ELSE PLAY 4 TORTOISE ELSE PLAY 3 TORTOISE "
        "ELSE PLAY 2 TORTOISE ELSE PLAY 1 TORTOISE ELSE PLAY 1 LAMB ELSE PLAY 1 FOX "
        "ELSE IF TABLE WOLF <= 1 THEN PLAY 1 WOLF ELSE PLAY 1 WOLF ELSE PLAY 1 HARE",
        "RACE TORTOISE HARE WOLF FOX LAMB",
    ]
    comments = [line for line in text.splitlines() if line.startswith("#  ")]
    assert "#  3. IF TABLE WOLF <= 1 THEN PLAY 1 WOLF: the wolf is no bet of yours; with more than 1 of its " \
           "cards on the table, one more would carry it over the finish line" in comments
    parsed = GAME.parse(state, read_sheet(text), 0)
    assert all(isinstance(echo, Accepted) for echo in parsed.echo)


@pytest.mark.parametrize("other", [1, 2, 3])
def test_apprentice_search_reads_only_its_view(other: int) -> None:
    state = late_position()
    player = Strong(apprentice_rollouts=40)
    varied, _ = vary_hidden(state, (), other, 7)
    assert varied.hands[other] != state.hands[other]
    mine = player.write(GAME.view(state, Viewer(0)), LegacyChance(2, 1))
    assert "won" in mine.splitlines()[0]  # the plans were played out
    assert player.write(GAME.view(varied, Viewer(0)), LegacyChance(2, 1)) == mine
