"""What one reader may see of a card-race game: the public position, and her own cards alone.

Hands and bets are hidden (RULES-CARD-RACE.md, "Hidden information and reports"): a view holds
the reader's own hand and bets and, of everyone else, only how many cards they hold. A redacted
event holds none of another player's private lines.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pbem.games.base import Viewer
from pbem.games.card_race.cards import LETTERS, counts, sort_cards
from pbem.games.card_race.resolution import Event, Kind
from pbem.games.card_race.state import State


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    racing: bool
    hand_size: int
    bet_count: int
    total: int
    hand: tuple[str, ...] | None  # None: hidden from this reader
    starts: tuple[str, ...] | None
    bet: str | None


@dataclass(frozen=True)
class View:
    viewer: Viewer
    ruleset: str
    mode: str
    round: int
    turn: int
    first: int
    betting: bool
    streams: tuple[int, ...]
    turbo: tuple[int, ...]
    pawns: tuple[int, ...]
    podium: tuple[tuple[int, int], ...]
    table: tuple[str, ...]
    discard: tuple[int, ...]  # by animal
    deck_size: int
    players: tuple[SeatView, ...]
    over: bool
    winners: tuple[int, ...]
    last_bets: tuple[tuple[str, ...], ...]
    last_scores: tuple[int, ...]
    plays: tuple[tuple[int, str], ...]  # the race's card turns so far: (seat, cards)
    picks: tuple[tuple[int, str, str], ...]  # `apprentice`: (seat, animal picked, animals still to move)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)


def view(state: State, viewer: Viewer) -> View:
    players = tuple(
        SeatView(s, name, s in state.racers, len(state.hands[s]),
                 len(state.starts[s]) + (1 if state.bets[s] else 0), state.totals[s],
                 state.hands[s] if viewer.may_see(s) else None, state.starts[s] if viewer.may_see(s) else None,
                 state.bets[s] if viewer.may_see(s) else None)
        for s, name in enumerate(state.seats))
    return View(viewer, state.ruleset, state.mode, state.round, state.turn, state.first, state.betting,
                state.streams, state.turbo, state.pawns, state.podium, state.table, tuple(counts(state.discard)),
                len(state.deck), players, state.over, state.winners, state.last_bets, state.last_scores,
                state.plays, state.picks)


def redact(event: Event, viewer: Viewer) -> Event:
    if viewer.may_see(event.seat):
        return event
    return replace(event, private=(), source=None, tried=())


def vary_hidden(state: State, events: Sequence[Event], seat: int, seed: int) -> tuple[State, tuple[Event, ...]]:
    """The same public facts with `seat`'s hand, bets and private lines changed (hand sizes kept)."""
    rng = random.Random(seed)  # noqa: S311 - a test's variation, not a secret
    hand = sort_cards(rng.choice("HTWFL") for _ in state.hands[seat])
    if hand == state.hands[seat] and hand:
        hand = sort_cards(("L" if hand[0] != "L" else "H", *hand[1:]))
    starts = tuple(LETTERS[(LETTERS.index(c) + 1 + seed) % 5] for c in state.starts[seat])
    bet = "" if not state.bets[seat] else ("F" if state.bets[seat] != "F" else "H")

    def swap(values: tuple[object, ...], new: object) -> tuple[object, ...]:
        return tuple(new if i == seat else v for i, v in enumerate(values))

    varied = replace(state, hands=swap(state.hands, hand), starts=swap(state.starts, starts),  # type: ignore[arg-type]
                     bets=swap(state.bets, bet))  # type: ignore[arg-type]
    out = tuple(replace(e, private=tuple(f"{line} [{seed}]" for line in e.private) + (f"varied {seed}",),
                        source=None if e.source is None else replace(e.source, line=e.source.line + seed),
                        tried=e.tried[::-1])
                if e.seat == seat else e for e in events)
    # whether her lines lapsed (or were rejected) at all is hers to know: a note comes or goes
    if any(e.kind is Kind.NOTE and e.seat == seat for e in events):
        out = tuple(e for e in out if not (e.kind is Kind.NOTE and e.seat == seat))
    elif events:
        out += (Event(Kind.NOTE, seat, "", private=(f"play lines not used (varied {seed})",)),)
    return varied, out
