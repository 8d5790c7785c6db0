"""The card race's strong player in `apprentice`: what its sheet gives to whom, from its view alone."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.card_race import engine
from pbem.games.card_race.bots import HOWL_CARD, MISFIT, Strong, draw_race, unseen
from pbem.games.card_race.cards import FOX, HARE, LAMB, TORTOISE, WOLF
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


def test_a_cycle_keeps_its_card_turns_and_picks_on_the_public_record() -> None:
    state = apprentice_race()
    outcome = GAME.resolve(state, {}, LegacyChance(3, 1))
    after: State = outcome.state
    # every seat plays the default: a tortoise if she holds one, else a hare, a wolf ...
    assert after.plays == ((0, "W"), (1, "H"), (2, "T"), (3, "H"), (0, "H"), (1, "H"))
    # each picks her own animal while it still has to move, else the first in the order hare,
    # tortoise, wolf, fox, lamb: Ann backs the hare, Cyd the wolf, and Bob's fox has no card
    assert after.starts[:3] == (("H",), ("F",), ("W",))
    assert after.picks == ((0, "H", "HTW"), (1, "T", "TW"), (2, "W", "W"))
    turns = [(e.seat, "".join(e.played)) for e in outcome.resolutions if e.kind.value == "card turn"]
    assert turns == list(after.plays)
    for seat in range(len(NAMES)):
        view = GAME.view(after, Viewer(seat))
        assert (view.plays, view.picks) == (after.plays, after.picks)
    # a new race starts a new record; a game stored before the record was kept reads as none
    assert engine.deal_race(after, after.racers, 1, 2, LegacyChance(3, 2)).plays == ()
    stored = after.to_json()
    del stored["plays"], stored["picks"]
    assert State.from_json(stored) == replace(after, plays=(), picks=())


def record_position() -> State:
    """Ann backs the hare. Bob picked the wolf while the hare still had to move; Cyd played two
    single cards, the last a wolf; Dot once played two tortoises. Five cards lie on the discard pile."""
    state = replace(apprentice_race(), starts=(("H",), ("W",), ("F",), ("T",)))
    deck = list(state.deck)
    for card in "TTTHL":  # the discard pile, out of the deck
        deck.remove(card)
    return replace(state, deck=tuple(deck), discard=("H", "L", "T", "T", "T"),
                   plays=((1, "T"), (2, "T"), (3, "TT"), (1, "H"), (2, "W")),
                   picks=((1, "W", "HWF"), (2, "H", "HF"), (3, "F", "F")))


def test_the_strong_player_reads_the_bets_and_hands_the_record_shows() -> None:
    view = GAME.view(record_position(), Viewer(0))
    hidden = unseen(view, 0)
    # Bob's pick of the wolf before the hare means he backs the wolf; Cyd's pick of the hare
    # while the fox still had to move means she backs neither; Dot picked the last animal left
    assert hidden.starts == (TORTOISE, WOLF, FOX, LAMB)
    weights = dict(hidden.deals)
    assert len(weights) == 24
    for (bob, cyd, dot), weight in weights.items():
        misfits = (bob != WOLF) + (cyd == FOX)
        assert weight == pytest.approx(MISFIT ** misfits), (bob, cyd, dot)
    # Dot plays several cards at once; Cyd plays singles by the default play, so the four cards
    # she kept after her wolf hold no tortoise and no hare; those Bob kept after his hare, no tortoise
    assert hidden.pushers == (None, False, False, True)
    assert hidden.kept == ((0, frozenset(range(6))), (4, frozenset({HARE, WOLF, FOX, LAMB, HOWL_CARD})),
                           (4, frozenset({WOLF, FOX, LAMB, HOWL_CARD})), (0, frozenset(range(6))))
    for seed in range(200):
        race = draw_race(view, 0, hidden, [HARE], random.Random(seed))  # noqa: S311 - a test's draws
        assert race.hands[2][HARE] + race.hands[2][TORTOISE] <= 1  # only the card she drew since
        assert race.kinds[1:] == [0, 0, 1]
        # the discard pile is public: it makes the next deck when this one runs out
        assert sorted(race.discard) == [HARE, TORTOISE, TORTOISE, TORTOISE, LAMB]
        assert len(race.deck) == len(record_position().deck)
