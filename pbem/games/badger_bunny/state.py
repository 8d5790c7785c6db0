"""The position of a race and of a tournament, as frozen values, and their JSON."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from pbem.games.badger_bunny.cards import Card, Deck, Rank, card
from pbem.games.badger_bunny.orders import SetType

Cards = tuple[Card, ...]


class Last(enum.Enum):
    """The previous turn of the race."""

    NONE = "none"
    PLAY = "play"
    PASS = "pass"  # noqa: S105 - a turn, not a password
    DEAD = "dead-pass"


@dataclass(frozen=True)
class Series:
    """The open series: the type of its sets and the final rank of the last set."""

    kind: SetType
    rank: Rank


@dataclass(frozen=True)
class Race:
    number: int
    hare: int  # the hare's seat; the other seat is the tortoise
    hands: tuple[Cards, Cards]
    decks: tuple[Cards, Cards]  # top card first
    courses: tuple[Cards, Cards]  # start card first
    aside: Cards
    act: int
    drawn: bool = False  # the tortoise to act has drawn for this turn
    series: Series | None = None
    last: Last = Last.NONE
    over: bool = False
    winner: int | None = None  # None when over: a draw
    scores: tuple[int, int] = (0, 0)
    blocked: bool = False

    @property
    def tortoise(self) -> int:
        return 1 - self.hare

    def role(self, seat: int) -> str:
        return "hare" if seat == self.hare else "tortoise"

    def top(self, seat: int) -> Card:
        return self.courses[seat][-1]

    def with_seat(self, seat: int, *, hand: Cards | None = None, deck: Cards | None = None,
                  course: Cards | None = None) -> Race:
        def put(pair: tuple[Cards, Cards], value: Cards | None) -> tuple[Cards, Cards]:
            if value is None:
                return pair
            return (value, pair[1]) if seat == 0 else (pair[0], value)

        return replace(self, hands=put(self.hands, hand), decks=put(self.decks, deck),
                       courses=put(self.courses, course))


@dataclass(frozen=True)
class State:
    seats: tuple[str, str]
    deck: Deck
    tournament: bool
    turn: int  # the mail turn to resolve next
    race: Race
    totals: tuple[int, int] = (0, 0)
    champion: int | None = None
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        r = self.race
        return {
            "seats": list(self.seats), "extended": self.deck.extended, "excuse": self.deck.excuse,
            "tournament": self.tournament, "turn": self.turn, "totals": list(self.totals),
            "champion": self.champion, "over": self.over,
            "race": {
                "number": r.number, "hare": r.hare, "hands": [_tokens(h) for h in r.hands],
                "decks": [_tokens(d) for d in r.decks], "courses": [_tokens(c) for c in r.courses],
                "aside": _tokens(r.aside), "act": r.act, "drawn": r.drawn,
                "series": None if r.series is None else [r.series.kind.value, r.series.rank.value],
                "last": r.last.value, "over": r.over, "winner": r.winner, "scores": list(r.scores),
                "blocked": r.blocked,
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        r = data["race"]
        series = None if r["series"] is None else Series(SetType(r["series"][0]), Rank(r["series"][1]))
        race = Race(
            r["number"], r["hare"], _pair(r["hands"]), _pair(r["decks"]), _pair(r["courses"]), _cards(r["aside"]),
            r["act"], r["drawn"], series, Last(r["last"]), r["over"], r["winner"],
            (r["scores"][0], r["scores"][1]), r["blocked"],
        )
        return cls((data["seats"][0], data["seats"][1]), Deck(data["extended"], data["excuse"]), data["tournament"],
                   data["turn"], race, (data["totals"][0], data["totals"][1]), data["champion"], data["over"])


def _tokens(cards: Cards) -> list[str]:
    return [c.token for c in cards]


def _cards(tokens: list[str]) -> Cards:
    return tuple(card(t) for t in tokens)


def _pair(values: list[list[str]]) -> tuple[Cards, Cards]:
    return _cards(values[0]), _cards(values[1])
