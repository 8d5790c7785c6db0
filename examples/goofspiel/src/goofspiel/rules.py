"""Goofspiel's state, its resolutions and its rule: the highest bid nobody matched takes the prize."""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pbem.errors import PbemError

CARDS = tuple(range(1, 14))

#: the `line` of a bid that no line of the sheet gave (the lowest card)
NO_ORDERS = "(no orders)"
NO_LINE = "(no line applied)"

COMPARE: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


@dataclass(frozen=True)
class State:
    """The table between turns. Every bid is shown once resolved, so the hands are public; the
    order of the face-down prizes is hidden from every player."""

    seats: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]  # each seat's cards left, in order of value
    prize: int | None  # the prize turned up, bid for this turn (None once the game is over)
    deck: tuple[int, ...]  # the prizes still face down, top first
    scores: tuple[int, ...]
    discarded: tuple[int, ...] = ()  # the prizes nobody took
    turn: int = 1
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats), "hands": [list(h) for h in self.hands], "prize": self.prize,
                "deck": list(self.deck), "scores": list(self.scores), "discarded": list(self.discarded),
                "turn": self.turn, "over": self.over}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(tuple(data["seats"]), tuple(tuple(h) for h in data["hands"]), data["prize"], tuple(data["deck"]),
                   tuple(data["scores"]), tuple(data["discarded"]), data["turn"], data["over"])


@dataclass(frozen=True)
class Condition:
    compare: str  # one of COMPARE
    value: int

    def holds(self, prize: int) -> bool:
        return COMPARE[self.compare](prize, self.value)


@dataclass(frozen=True)
class Bid:
    """One line of a sheet: a card (a number, or HIGHEST, LOWEST or PRIZE), perhaps a condition."""

    target: str
    condition: Condition | None = None

    @property
    def canonical(self) -> str:
        tail = f" IF PRIZE {self.condition.compare} {self.condition.value}" if self.condition else ""
        return f"BID {self.target}{tail}"

    def card(self, hand: tuple[int, ...], prize: int) -> int | None:
        """The card this line bids from `hand`, None when that card is not there."""
        if self.target == "HIGHEST":
            return max(hand)
        if self.target == "LOWEST":
            return min(hand)
        card = prize if self.target == "PRIZE" else int(self.target)
        return card if card in hand else None


@dataclass(frozen=True)
class Bids:
    """A seat's sheet: its lines, tried in order."""

    lines: tuple[Bid, ...] = ()


class Kind(enum.Enum):
    BID = "bid"
    PRIZE = "prize"


@dataclass(frozen=True)
class Event:
    """A bid (one for every seat, public once resolved) or the prize's fate."""

    kind: Kind
    seat: int | None  # the bidder, whose sheet's lines (`line`, `passed`) are hers alone
    card: int  # the bid, or the prize
    winner: int | None = None  # PRIZE: who took it (None: every bid was matched)
    name: str = ""  # BID: the bidder's name; PRIZE: the taker's ("" when nobody took it)
    line: str = ""  # BID: the line the bid came from ("" when hidden from the reader)
    passed: tuple[str, ...] = ()  # BID: the lines passed over before it, with why

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat, "card": self.card, "winner": self.winner,
                "name": self.name, "line": self.line, "passed": list(self.passed)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(Kind(data["kind"]), data["seat"], data["card"], data["winner"], data["name"], data["line"],
                   tuple(data["passed"]))


def new_state(seats: tuple[str, ...], prizes: list[int]) -> State:
    """The table before turn 1: every hand full, the shuffled prizes' top card turned up."""
    return State(seats, tuple(CARDS for _ in seats), prizes[0], tuple(prizes[1:]), tuple(0 for _ in seats))


def choose(hand: tuple[int, ...], prize: int, bids: Bids | None) -> tuple[int, str, tuple[str, ...]]:
    """The card a sheet bids: its first line whose condition holds and whose card is in hand;
    else the lowest card. With the line it came from and the lines passed over."""
    passed: list[str] = []
    for bid in bids.lines if bids else ():
        if bid.condition is not None and not bid.condition.holds(prize):
            passed.append(f"{bid.canonical}: the prize is {prize}")
            continue
        card = bid.card(hand, prize)
        if card is None:
            passed.append(f"{bid.canonical}: the {prize if bid.target == 'PRIZE' else bid.target} is spent")
            continue
        return card, bid.canonical, tuple(passed)
    return min(hand), NO_ORDERS if not bids or not bids.lines else NO_LINE, tuple(passed)


def resolve(state: State, orders: Mapping[int, Bids]) -> tuple[State, tuple[Event, ...]]:
    """Every seat bids; the highest bid nobody matched takes the prize; the next prize is turned up."""
    if state.over or state.prize is None:
        raise PbemError("the game is over")
    prize = state.prize
    bids: list[int] = []
    events: list[Event] = []
    for seat, hand in enumerate(state.hands):
        card, line, passed = choose(hand, prize, orders.get(seat))
        bids.append(card)
        events.append(Event(Kind.BID, seat, card, name=state.seats[seat], line=line, passed=passed))
    count = Counter(bids)
    unmatched = [(card, seat) for seat, card in enumerate(bids) if count[card] == 1]
    winner = max(unmatched)[1] if unmatched else None
    events.append(Event(Kind.PRIZE, None, prize, winner, "" if winner is None else state.seats[winner]))
    scores = tuple(score + (prize if seat == winner else 0) for seat, score in enumerate(state.scores))
    hands = tuple(tuple(c for c in hand if c != bids[seat]) for seat, hand in enumerate(state.hands))
    after = replace(state, hands=hands, scores=scores, turn=state.turn + 1,
                    prize=state.deck[0] if state.deck else None, deck=state.deck[1:],
                    discarded=state.discarded + (() if winner is not None else (prize,)), over=not state.deck)
    return after, tuple(events)
