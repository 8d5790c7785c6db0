"""What each reader sees of Goofspiel: every hand and score, never the face-down prizes' order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from goofspiel.rules import Event, Kind, State
from pbem.games.base import Viewer


@dataclass(frozen=True)
class SeatView:
    name: str
    hand: tuple[int, ...]  # public: every bid is shown once resolved, so everyone can count
    score: int


@dataclass(frozen=True)
class View:
    turn: int
    over: bool
    reader: int | None  # the reader's seat (None: the GM or someone who holds no seat)
    seats: tuple[SeatView, ...]
    prize: int | None
    #: the prizes still face down, in order of value: which they are is public, their order is not
    prizes_left: tuple[int, ...]
    discarded: tuple[int, ...]
    #: the face-down prizes top first: the GM's alone (empty for everyone else)
    deck: tuple[int, ...]
    winners: tuple[str, ...]


def winners(state: State) -> tuple[int, ...]:
    """The seats level at the top once the game is over."""
    if not state.over:
        return ()
    best = max(state.scores)
    return tuple(s for s, score in enumerate(state.scores) if score == best)


def view(state: State, viewer: Viewer) -> View:
    seats = tuple(SeatView(name, state.hands[s], state.scores[s]) for s, name in enumerate(state.seats))
    reader = viewer.seat if viewer.seat is not None and 0 <= viewer.seat < len(state.seats) else None
    return View(state.turn, state.over, reader, seats, state.prize, tuple(sorted(state.deck)), state.discarded,
                state.deck if viewer.is_gm else (), tuple(state.seats[s] for s in winners(state)))


def redact(event: Event, viewer: Viewer) -> Event:
    """A bid as `viewer` may see it: the card is public once resolved, the sheet's lines are not."""
    if event.kind is Kind.BID and not viewer.may_see(event.seat):
        return replace(event, line="", passed=())
    return event


def vary_hidden(state: State, events: Sequence[Event], seat: int, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The face-down prizes in another order (hidden from every player) and the lines of `seat`'s
    sheet changed; everything public stays as it was."""
    rng = random.Random(seed)  # noqa: S311 - a test's variation, not a secret
    deck = list(state.deck)
    rng.shuffle(deck)
    marker = f"(variant {seed})"
    varied = tuple(replace(e, line=f"{e.line} {marker}", passed=(*e.passed, marker))
                   if e.kind is Kind.BID and e.seat == seat else e for e in events)
    return replace(state, deck=tuple(deck)), varied
