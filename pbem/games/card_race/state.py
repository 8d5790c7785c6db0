"""The position of a card-race game: the race under way, every hand, bet and pile, and the score."""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class State:
    """A game between mail turns. Seats index `seats`; a seat out of a tie-break race has an empty
    hand and no bets. `pawns` holds each animal's position (12 once it crossed); `podium` holds
    (animal, place) in place order."""

    ruleset: str
    mode: str
    seats: tuple[str, ...]
    racers: tuple[int, ...]
    round: int  # 1-3 in a championship, 1 in a single game; 0 in a tie-break race
    turn: int
    first: int  # the token holder (a seat)
    streams: tuple[int, ...]
    turbo: tuple[int, ...]  # the animal on tiles 2, 4, 6, 8, 10 (apprentice); empty otherwise
    pawns: tuple[int, ...]
    podium: tuple[tuple[int, int], ...]
    hands: tuple[tuple[str, ...], ...]
    starts: tuple[tuple[str, ...], ...]  # starting bet cards, as animal letters
    bets: tuple[str, ...]  # the second bet card ('' for none)
    deck: tuple[str, ...]  # top first
    discard: tuple[str, ...]
    table: tuple[str, ...]
    betting: bool  # the next mail turn starts with the second bets
    aside: tuple[str, ...]  # starting bet cards set aside unseen
    totals: tuple[int, ...]
    race_over: bool = False
    over: bool = False
    winners: tuple[int, ...] = ()
    #: the last race that ended: every seat's bets and scores, public
    last_bets: tuple[tuple[str, ...], ...] = ()
    last_scores: tuple[int, ...] = ()
    #: the race's card turns so far, public: (seat, the cards she played, as letters)
    plays: tuple[tuple[int, str], ...] = ()
    #: `apprentice`: the race's picks so far, public: (seat, the animal she picked, the animals
    #: that still had to move when she picked, all as letters)
    picks: tuple[tuple[int, str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data and f.default is not MISSING:
                continue  # a field added after the game was stored reads as its default
            v = data[f.name]
            if f.name == "podium":
                v = tuple((int(a), int(p)) for a, p in v)
            elif f.name in ("hands", "starts", "last_bets", "plays", "picks"):
                v = tuple(tuple(x) for x in v)
            elif isinstance(v, list):
                v = tuple(v)
            values[f.name] = v
        return cls(**values)

    def on_podium(self, animal: int) -> bool:
        return any(a == animal for a, _ in self.podium)

    def next_racer(self, seat: int) -> int:
        """The racer to the left of `seat` (the next seat of the race, wrapping round)."""
        n = len(self.seats)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s in self.racers:
                return s
        return seat
