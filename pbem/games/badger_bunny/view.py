"""What one reader may see of a position, and of each event; and the same position with one
seat's hidden values changed, for the tests of hidden information."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from pbem.games.badger_bunny.events import Event, Kind
from pbem.games.badger_bunny.state import State
from pbem.games.base import Viewer

T = TypeVar("T")


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    role: str
    hand: tuple[str, ...] | None  # None: hidden from the reader
    hand_count: int
    deck_count: int
    course: tuple[str, ...]
    total: int
    score: int


@dataclass(frozen=True)
class View:
    seats: tuple[SeatView, SeatView]
    extended: bool
    excuse: bool
    tournament: bool
    turn: int
    race: int
    act: int
    drawn: bool
    series: str  # "" when none is open, else e.g. "single, final rank 8"
    last: str
    race_over: bool
    winner: int | None
    over: bool
    champion: int | None
    aside: tuple[str, ...] | None  # shown once the race is over


def view(state: State, viewer: Viewer) -> View:
    race = state.race
    seats = []
    for s in (0, 1):
        seen = viewer.may_see(s) and viewer.seat != -1 or race.over
        seats.append(SeatView(
            s, state.seats[s], race.role(s), tuple(c.token for c in sorted(race.hands[s])) if seen else None,
            len(race.hands[s]), len(race.decks[s]), tuple(c.token for c in race.courses[s]), state.totals[s],
            race.scores[s],
        ))
    series = "" if race.series is None else f"{race.series.kind.value}, final rank {race.series.rank.word}"
    return View(
        (seats[0], seats[1]), state.deck.extended, state.deck.excuse, state.tournament, state.turn, race.number,
        race.act, race.drawn, series, race.last.value, race.over, race.winner, state.over, state.champion,
        tuple(c.token for c in race.aside) if race.over or viewer.is_gm else None,
    )


def redact(event: Event, viewer: Viewer) -> Event:
    if event.seat is None or (viewer.may_see(event.seat) and viewer.seat != -1):
        return event
    return event.redacted()


def vary_hidden(state: State, events: Sequence[Event], seat: int, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The hand of `seat` swapped in part with unseen cards (decks, the cards set aside), and
    her private event details changed; everything public stays as it was."""
    rng = random.Random(seed)  # noqa: S311 - test variation, not secrecy
    race = state.race
    if not race.over:
        hand = list(race.hands[seat])
        pool: list[tuple[str, int, int]] = [("aside", -1, i) for i in range(len(race.aside))]
        for s in (0, 1):
            pool += [("deck", s, i) for i in range(len(race.decks[s]))]
        aside = list(race.aside)
        decks = [list(race.decks[0]), list(race.decks[1])]
        for i in range(len(hand)):
            if not pool or rng.random() < 0.3:
                continue
            where, s, j = pool.pop(rng.randrange(len(pool)))
            if where == "aside":
                hand[i], aside[j] = aside[j], hand[i]
            else:
                hand[i], decks[s][j] = decks[s][j], hand[i]
        race = race.with_seat(seat, hand=tuple(hand))
        race = replace(race, aside=tuple(aside), decks=(tuple(decks[0]), tuple(decks[1])))
    marker = f"(variant {seed})"
    varied = []
    for e in events:
        if e.seat == seat and e.kind in (Kind.SHEET, Kind.PASS, Kind.PLAY, Kind.DRAW, Kind.SETUP):
            e = replace(e, notes=(*e.notes, marker), tried=tuple(_shuffled(rng, list(e.tried))),
                        drawn=tuple(_shuffled(rng, list(e.drawn))))
        varied.append(e)
    if not any(e.seat == seat for e in events):
        varied.append(Event(Kind.SHEET, seat, state.seats[seat], notes=(marker,)))
    return replace(state, race=race), tuple(varied)


def _shuffled(rng: random.Random, items: list[T]) -> list[T]:
    rng.shuffle(items)
    return items
