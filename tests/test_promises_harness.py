"""The harness that hunts for broken promises, over every registered game (see tests/promises.py).

Each promise is checked by a run of its own, so that one breach does not hide another. The suite
runs a short hunt; `PBEM_HARNESS_LONG=1` runs a long one (PBEM_HARNESS_EXAMPLES games of
PBEM_HARNESS_STEPS steps each, shrinking a failure to its minimal example) and prints what it
covered; PBEM_HARNESS_WITHOUT=rule,rule leaves rules out, to hunt past a breach already known.

The promises pbem breaks as it stands are marked xfail, and the minimal example of each breach is
a test of its own (xfail where it breaks the promise): the marks go when the fixes are in
(strict=False: a short hunt that happens to miss the breach stays green). The planted breaches
show that each check fails when its promise is broken on purpose.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

import pbem.club.hooks
import pbem.mailer
import pbem.turns
from pbem import faults
from pbem.games import AnyGame, games
from pbem.games.base import Viewer
from pbem.mail.kinds import MailKind
from pbem.mailer import GmNote, Mailer, Outgoing
from pbem.store import SheetRow, Store
from tests.promises import (
    INTAKE_POINTS,
    INVARIANTS,
    NAME,
    RESOLVE_POINTS,
    STATS,
    STRANGER,
    UNREACHED_POINTS,
    BrokenPromise,
    PromiseMachine,
    machine,
)

LONG = os.environ.get("PBEM_HARNESS_LONG") == "1"
HUNT = settings(
    max_examples=int(os.environ.get("PBEM_HARNESS_EXAMPLES", "60")) if LONG else 2,
    stateful_step_count=int(os.environ.get("PBEM_HARNESS_STEPS", "40")) if LONG else 12,
    deadline=None, database=None, report_multiple_bugs=False,
    # the short run is the same every time (a suite that passes or fails by chance helps nobody);
    # the long one draws new sequences at each run
    derandomize=not LONG,
    # the short run looks, it does not shrink: a known breach is marked, and shrinking takes minutes
    phases=tuple(Phase) if LONG else (Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)

#: the promises pbem breaks as it stands, with the minimal example of each breach, by game ("*": every game)
BROKEN: dict[tuple[str, str], str] = {
}


def broken(invariant: str, game: str) -> str | None:
    return BROKEN.get((invariant, game)) or BROKEN.get((invariant, "*"))


def cases() -> Iterator[Any]:
    for game in games():
        for invariant in INVARIANTS:
            why = broken(invariant, game.info.name)
            marks = [pytest.mark.xfail(strict=False, raises=BrokenPromise, reason=why)] if why else []
            yield pytest.param(game, invariant, marks=marks, id=f"{game.info.name}-{invariant}")


@pytest.fixture(autouse=True)
def figures() -> Iterator[None]:
    """What a run covered, printed in the long run (pytest -s shows it)."""
    STATS.clear()
    yield
    if LONG:
        print("\n" + ", ".join(f"{k}: {v}" for k, v in sorted(STATS.items())))


@pytest.mark.parametrize(("game", "invariant"), list(cases()))
def test_the_promise_holds_whatever_the_mail_the_crashes_and_the_gm_do(game: AnyGame, invariant: str) -> None:
    without = frozenset(r for r in os.environ.get("PBEM_HARNESS_WITHOUT", "").split(",") if r)
    run_state_machine_as_test(machine(game, frozenset({invariant}), without=without), settings=HUNT)  # type: ignore[no-untyped-call]


def test_every_crash_point_is_visited_or_said_to_be_out_of_reach() -> None:
    assert set(INTAKE_POINTS) | set(RESOLVE_POINTS) | set(UNREACHED_POINTS) == set(faults.POINTS)
    assert not set(UNREACHED_POINTS) & (set(INTAKE_POINTS) | set(RESOLVE_POINTS))


# the minimal examples of the breaches found -------------------------------------------------------

def every(game: AnyGame) -> bool:
    """A breach of the generic layer: every game."""
    return True


def none(game: AnyGame) -> bool:
    """A promise kept: a guard against its breach."""
    return False


def badger(game: AnyGame) -> bool:
    """Badger's report template (its HTML part has no reply template)."""
    return game.info.name == "badger-bunny"


#: (the breach, the invariant, the steps after new_game(seed=0), the games in which pbem breaks it as it stands)
EXAMPLES: list[tuple[str, str, list[tuple[str, dict[str, Any]]], Callable[[AnyGame], bool]]] = [
    ("a greeting alone replaces the sheet in force", "in-force",
     [("commands_alone", {"seat": 0, "commands": ["Thanks!"], "credential": "secret"})],
     none),
    ("TIMEZONE alone replaces the sheet in force", "in-force",
     [("orders", {"seat": 0, "level": 0, "credential": "secret", "turn_line": True, "extras": ()}),
      ("commands_alone", {"seat": 0, "commands": ["TIMEZONE Europe/Paris"], "credential": "token"})],
     none),
    ("a sheet that arrives while the GM resolves is acknowledged and not resolved", "in-force",
     [("a_sheet_arrives_while_the_gm_resolves", {"seat": 0, "level": 0})],
     none),
    ("a mail stored before a crash waits while the GM resolves", "taken-in",
     [("orders_and_a_crash", {"seat": 0, "level": 0, "point": "after-store-raw", "delay": 0}),
      ("gm_resolves_early", {"point": None, "delay": 0})],
     none),
    ("a turn resolved on receipt while a mail stored before a crash waits", "taken-in",
     [("orders", {"seat": 0, "level": 0, "credential": "secret", "turn_line": True, "extras": ()}),
      ("orders_and_a_crash", {"seat": 0, "level": 0, "point": "after-store-raw", "delay": 0}),
      ("orders", {"seat": 1, "level": 0, "credential": "secret", "turn_line": True, "extras": ()}),
      ("orders", {"seat": 2, "level": 0, "credential": "secret", "turn_line": True, "extras": ()})],
     none),
    ("an acknowledgement carries no reply template", "answerable",
     [("orders", {"seat": 0, "level": 0, "credential": "secret", "turn_line": True, "extras": ()})],
     none),
    ("a report's HTML part carries no reply template", "answerable",
     [("gm_resolves_early", {"point": None, "delay": 0})],
     none),
    ("a stale reply token opens no turn", "in-force",
     [("gm_resolves_early", {"point": None, "delay": 0}),
      ("mail_that_must_be_refused", {"seat": 0, "how": "stale-token", "back": 0})],
     none),
    ("a crash after intake sends the acknowledgement once", "bounded",
     [("orders_and_a_crash", {"seat": 0, "level": 0, "point": "after-intake", "delay": 0}),
      ("the_same_mail_again", {"pick": 0})],
     none),
]


def example_cases() -> Iterator[Any]:
    for breach, invariant, steps, breaks in EXAMPLES:
        for game in games():
            marks = [pytest.mark.xfail(strict=False, raises=BrokenPromise, reason=breach)] \
                if breaks(game) else []
            yield pytest.param(game, invariant, steps, marks=marks, id=f"{game.info.name}-{breach.replace(' ', '-')}")


@pytest.mark.parametrize(("game", "invariant", "steps"), list(example_cases()))
def test_the_minimal_example_keeps_the_promise(game: AnyGame, invariant: str,
                                               steps: list[tuple[str, dict[str, Any]]]) -> None:
    state = machine(game, frozenset({invariant}))()
    try:
        state.new_game(seed=0)
        state.promises_hold()
        for rule, arguments in steps:
            getattr(state, rule)(**arguments)
            state.promises_hold()
    finally:
        state.teardown()


# planted breaches: each check fails when its promise is broken on purpose --------------------------

EVERY_GAME = [pytest.param(g, id=g.info.name) for g in games()]


def started(game: AnyGame, check: str, *, strangers: bool = False) -> PromiseMachine:
    """A machine for `game` checking `check`, its game set up and checked once (`strangers`:
    pbem answers strangers)."""
    state = machine(game, frozenset({check}))()
    state.new_game(seed=1, strangers=strangers)
    state.promises_hold()
    return state


def stop(state: PromiseMachine) -> None:
    state.teardown()


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_catches_mail_that_shows_every_reader_what_the_gm_sees(game: AnyGame,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player's mail written for the GM's eyes: the position and the turn's events as the GM
    sees them (a hand, a holding, a sheet's unplayed lines, the cards face down)."""
    state = started(game, "hidden")
    try:
        honest = pbem.mailer.reader_of
        monkeypatch.setattr(pbem.mailer, "reader_of", lambda player: replace(honest(player), viewer=Viewer.gm()))
        state.orders(seat=0, level=0, credential="secret", turn_line=True, extras=())
        state.gm_resolves_early(point=None, delay=0)
        with pytest.raises(BrokenPromise, match="report: .* shows .* hidden values"):
            state.promises_hold()
    finally:
        stop(state)


def drop_the_secret_from_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = Mailer._compose

    def compose(self: Mailer[Any], **kw: Any) -> bytes:
        kw["text"] = re.sub(r"(?m)^SECRET .*$", "", kw["text"])
        return honest(self, **kw)

    monkeypatch.setattr(Mailer, "_compose", compose)


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_itself_fails_on_a_planted_breach(game: AnyGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through hypothesis: welcome mails without the reply secret fail the first check."""
    drop_the_secret_from_the_text(monkeypatch)
    once = settings(HUNT, max_examples=1, stateful_step_count=1, phases=(Phase.generate,))
    with pytest.raises(BrokenPromise, match="welcome mail .* text/plain part has no reply template"):
        run_state_machine_as_test(machine(game, frozenset({"answerable"})), settings=once)  # type: ignore[no-untyped-call]


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_catches_a_report_without_the_reply_secret(game: AnyGame, monkeypatch: pytest.MonkeyPatch) -> None:
    state = started(game, "answerable")
    try:
        drop_the_secret_from_the_text(monkeypatch)
        state.gm_resolves_early(point=None, delay=0)
        with pytest.raises(BrokenPromise, match="report mail .* text/plain part has no reply template"):
            state.promises_hold()
    finally:
        stop(state)


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_catches_a_sheet_acknowledged_but_not_in_force(game: AnyGame, monkeypatch: pytest.MonkeyPatch) -> None:
    state = started(game, "in-force")
    try:
        honest = Store.replace_sheet

        def replace_sheet(self: Store, session: Any, sheet: SheetRow) -> str:
            told = honest(self, session, sheet)
            session.connection().exec_driver_sql("UPDATE sheet SET current = 0 WHERE id = ?", (sheet.id,))
            return told

        monkeypatch.setattr(Store, "replace_sheet", replace_sheet)
        state.orders(seat=0, level=0, credential="secret", turn_line=True, extras=())
        with pytest.raises(BrokenPromise, match="was last told .* is in force; the store holds None"):
            state.promises_hold()
    finally:
        stop(state)


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_catches_a_mail_that_is_answered_again_and_again(game: AnyGame,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    state = started(game, "bounded")
    try:
        honest = Mailer.queue

        def queue(self: Mailer[Any], session: Any, game_row: Any, turn: int | None, *mails: Outgoing) -> None:
            echoes = [replace(m, msg_id=f"{m.msg_id}.{i}") for m in mails if m.kind == MailKind.ACK for i in range(3)]
            honest(self, session, game_row, turn, *mails, *echoes)

        monkeypatch.setattr(Mailer, "queue", queue)
        state.orders(seat=0, level=0, credential="secret", turn_line=True, extras=())
        with pytest.raises(BrokenPromise, match="caused 4 answers to its sender"):
            state.promises_hold()
    finally:
        stop(state)


def with_a_sitter(game: AnyGame) -> None:
    if not game.info.bot_levels:
        pytest.skip(f"{game.info.name} has no computer player to sit for a seat")


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_catches_a_sitter_that_replaces_a_sheet_the_player_sent(game: AnyGame,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with_a_sitter(game)
    state = started(game, "in-force")
    try:
        honest = pbem.turns.sitters
        monkeypatch.setattr(pbem.turns, "sitters", lambda t, used: honest(t, set()))
        seat = game.may_send(state.m.game_state(NAME)[2])[0]
        state.sitter(seat=seat, level=0, credential="secret", extras=())
        # standing: in a game that resolves on receipt the sheet plays on in the next turn
        state.orders(seat=seat, level=0, credential="secret", turn_line=True, extras=("STANDING",))
        state.the_deadline_passes()
        with pytest.raises(BrokenPromise, match="was resolved with the sheet .*'s computer sitter wrote"):
            state.promises_hold()
    finally:
        stop(state)


@pytest.mark.parametrize("game", EVERY_GAME)
def test_the_hunt_catches_a_sitters_note_shown_to_every_reader(game: AnyGame, monkeypatch: pytest.MonkeyPatch) -> None:
    with_a_sitter(game)
    state = started(game, "hidden")
    try:
        monkeypatch.setattr(GmNote, "sitter_lines", lambda self, seat, gm: (self.full, *self.sheet))
        seat = game.may_send(state.m.game_state(NAME)[2])[0]
        state.sitter(seat=seat, level=0, credential="secret", extras=())
        state.the_deadline_passes()
        with pytest.raises(BrokenPromise, match="report: .* shows .* hidden values"):
            state.promises_hold()
    finally:
        stop(state)


def test_the_hunt_catches_an_observers_account_told_as_the_gm_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """In at least one registered game (in some the GM's account of a turn tells nothing more)."""
    caught = []
    for game in games():
        state = started(game, "hidden", strangers=True)
        try:
            state.a_stranger_observes(confirm=False)
            state.a_stranger_observes(confirm=True)
            state.promises_hold()
            with monkeypatch.context() as mp:
                mp.setattr(pbem.club.hooks, "Viewer", type("Seer", (), {"public": staticmethod(Viewer.gm)}))
                state.gm_resolves_early(point=None, delay=0)
            with pytest.raises(BrokenPromise, match="the observers' account to .* shows seat .* hidden values"):
                state.promises_hold()
            caught.append(game.info.name)
            break
        except pytest.fail.Exception:
            continue
        finally:
            stop(state)
    assert caught


@pytest.mark.parametrize("game", EVERY_GAME)
def test_a_stranger_who_observes_gets_one_account_of_each_turn(game: AnyGame) -> None:
    """Where pbem answers strangers, OBSERVE and CONFIRM make a stranger an observer: one public
    account of each resolved turn, and nothing else comes of it."""
    state = started(game, "bounded", strangers=True)
    try:
        state.a_stranger_observes(confirm=False)
        state.promises_hold()
        assert state.confirm
        state.a_stranger_observes(confirm=True)
        state.promises_hold()
        state.gm_resolves_early(point=None, delay=0)
        state.promises_hold()
        with state.m.store.session() as session:
            accounts = [r for r in state.m.store.mails(session) if r.kind == MailKind.NOTICE and r.recipient == STRANGER]
        assert [r.turn for r in accounts] == [1]
    finally:
        stop(state)
