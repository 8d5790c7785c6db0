"""The position of a Hare & Tortoise game between turns, and its JSON form."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from pbem.games.hare_tortoise.board import HOME, START


class Must(enum.Enum):
    """What a lettuce obliges the runner to do at its next slot."""

    NONE = "none"
    EAT = "eat"
    LEAVE = "leave"


class Runner(NamedTuple):
    """One player's runner: where it is and what it holds (a tuple: the engine makes many)."""

    name: str
    square: int  # 0 = START, 1..63, 64 = HOME
    carrots: int
    lettuces: int
    place: int | None = None
    must: Must = Must.NONE
    skip: bool = False

    @property
    def home(self) -> bool:
        return self.square == HOME

    @property
    def square_label(self) -> str:
        return "start" if self.square == START else "home" if self.square == HOME else str(self.square)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "square": self.square,
            "carrots": self.carrots,
            "lettuces": self.lettuces,
            "place": self.place,
            "must": self.must.value,
            "skip": self.skip,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Runner:
        return cls(
            name=str(data["name"]),
            square=int(data["square"]),
            carrots=int(data["carrots"]),
            lettuces=int(data["lettuces"]),
            place=None if data.get("place") is None else int(data["place"]),
            must=Must(data.get("must", "none")),
            skip=bool(data.get("skip", False)),
        )


@dataclass(frozen=True)
class State:
    """A game between turns: `turn` is the next turn to resolve, `first` its first mover's seat."""

    ruleset: str
    runners: tuple[Runner, ...]
    turn: int = 1
    first: int = 0
    over: bool = False
    #: the game's options, as named at set-up
    options: tuple[str, ...] = ()
    #: partnership: each team's name and its seats
    teams: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: a hare deck's draw pile, top first, and its used pile (card rulesets only)
    deck: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    #: seats whose runner stands on an inert square (reached by a backward move)
    inert: tuple[int, ...] = ()

    @property
    def per_seat(self) -> int:
        """Runners each player moves: 2 with two-player (sharing one supply), else 1."""
        return 2 if "two-player" in self.options else 1

    @property
    def seats(self) -> tuple[str, ...]:
        if "two-player" in self.options:
            return tuple(r.name[:-1] for r in self.runners[::2])
        return tuple(r.name for r in self.runners)

    def seat_runners(self, seat: int) -> tuple[int, ...]:
        """The runner indices of a seat (two with two-player)."""
        per = self.per_seat
        return tuple(range(seat * per, seat * per + per))

    def owner(self, runner: int) -> int:
        """The seat that moves a runner."""
        return runner // self.per_seat

    def seat_done(self, seat: int) -> bool:
        """Every runner of the seat is HOME."""
        return all(self.runners[j].home for j in self.seat_runners(seat))

    def runner(self, name: str) -> Runner:
        for r in self.runners:
            if r.name.lower() == name.lower():
                return r
        raise KeyError(name)

    def position(self, seat: int) -> int:
        """1 + the runners strictly ahead (HOME runners by their place)."""
        me = self.runners[seat]
        if me.home:
            return me.place or 1
        return 1 + sum(1 for j, r in enumerate(self.runners) if j != seat and r.square > me.square)

    def with_runner(self, seat: int, **changes: Any) -> State:
        runners = list(self.runners)
        runners[seat] = runners[seat]._replace(**changes)
        return replace(self, runners=tuple(runners))

    def team_of(self, seat: int) -> str | None:
        return next((name for name, seats in self.teams if seat in seats), None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "ruleset": self.ruleset,
            "turn": self.turn,
            "first": self.first,
            "over": self.over,
            "runners": [r.to_json() for r in self.runners],
        }
        # the newer keys only when they hold something, so older games store as they did
        if self.options:
            data["options"] = list(self.options)
        if self.teams:
            data["teams"] = [[name, list(seats)] for name, seats in self.teams]
        if self.deck or self.used:
            data["deck"] = list(self.deck)
            data["used"] = list(self.used)
        if self.inert:
            data["inert"] = list(self.inert)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        return cls(
            ruleset=str(data["ruleset"]),
            runners=tuple(Runner.from_json(r) for r in data["runners"]),
            turn=int(data["turn"]),
            first=int(data["first"]),
            over=bool(data["over"]),
            options=tuple(str(o) for o in data.get("options", ())),
            teams=tuple((str(n), tuple(int(x) for x in seats)) for n, seats in data.get("teams", ())),
            deck=tuple(str(c) for c in data.get("deck", ())),
            used=tuple(str(c) for c in data.get("used", ())),
            inert=tuple(int(x) for x in data.get("inert", ())),
        )
