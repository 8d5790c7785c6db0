"""What happened in a mail turn: one event per step, with the private details kept apart.

A turn's choice is kept as data: every alternative tried (`Tried`: the action in canonical order
words, the outcome, and the rules' reason for refusing it); the presenter tells them in words.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

from pbem.orders import Outcome


class Kind(enum.Enum):
    SETUP = "setup"  # a race dealt: start cards public, the hare's hand private to him
    SHEET = "sheet"  # a seat's sheet: rejected and ignored lines, lapsed lines (private)
    DRAW = "draw"  # cards drawn: how many is public, which is private
    PLAY = "play"
    PASS = "pass"  # noqa: S105 - a turn, not a password
    STOP = "stop"  # where the run stopped and whose sheet the next mail turn waits for
    END = "end"  # a race over: both hands, both decks, the cards set aside, the scores


class Why(enum.Enum):
    """Why the rules refuse a set now; the cards and words it names are in `Refusal`."""

    MISSING = "missing"  # cards: those not in the hand
    EXCUSE_ALONE = "excuse alone"
    NO_SET = "no set"
    TORTOISE_TWO = "tortoise two"
    EXCUSE_LEAD = "excuse lead"
    WRONG_KIND = "wrong kind"  # words: the open series' kind, the set's kind
    TOO_LOW = "too low"  # words: the set's final rank, the series' rank
    NO_CONNECTION = "no connection"  # cards: the set's first card, the course's top card
    LOWEST_NOT_SINGLE = "lowest not single"  # words: the open series' kind
    NO_SINGLE = "no single"


@dataclass(frozen=True)
class Refusal:
    why: Why
    cards: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tried:
    """One alternative of a line as the turn tried it."""

    action: str  # canonical: PLAY 5M 6M, PLAY LOWEST, PASS
    outcome: Outcome
    reason: Refusal | None = None

    def to_json(self) -> dict[str, Any]:
        reason = None if self.reason is None else {"why": self.reason.why.value, "cards": list(self.reason.cards),
                                                   "words": list(self.reason.words)}
        return {"action": self.action, "outcome": self.outcome.value, "reason": reason}

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> Tried | str:
        """A stored record; a turn stored before these were data keeps its words (a str)."""
        if isinstance(data, str):
            return data
        r = data["reason"]
        reason = None if r is None else Refusal(Why(r["why"]), tuple(r["cards"]), tuple(r["words"]))
        return cls(str(data["action"]), Outcome(data["outcome"]), reason)


class LineKind(enum.Enum):
    """Which of her lines a turn used."""

    TURN_LINE = "turn line"
    REJECTED = "rejected"  # a turn line that was rejected: the turn passes
    DEFAULT = "default"
    NO_LINE = "no line"  # none left for the run's first turn: PASS
    FORCED = "forced"  # a forced pass: no legal set, no line used


@dataclass(frozen=True)
class Used:
    """The line a turn used: its kind, its place among the turn lines (1 for the first) and its
    line on the sheet."""

    kind: LineKind
    index: int = 0
    line: int = 0


@dataclass(frozen=True)
class Event:
    kind: Kind
    seat: int | None  # the seat that acts, and whose private details this holds
    name: str = ""
    text: str = ""  # the public account in words
    cards: tuple[str, ...] = ()  # public cards: a set played, or everything shown at a race's end
    count: int = 0  # cards drawn
    # private to `seat` -------------------------------------------------------------------
    drawn: tuple[str, ...] = ()  # the cards drawn, or the hare's hand at set-up
    forced: bool | None = None
    line: str = ""  # which of her lines the turn used, in words (turns stored before `used`)
    tried: tuple[Tried | str, ...] = ()  # every alternative tried (words, in turns stored before records)
    notes: tuple[str, ...] = ()
    used: Used | None = None  # which of her lines the turn used

    def redacted(self) -> Event:
        return replace(self, drawn=(), forced=None, line="", tried=(), notes=(), used=None)

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["kind"] = self.kind.value
        for key in ("cards", "drawn", "notes"):
            data[key] = list(data[key])
        data["tried"] = [t if isinstance(t, str) else t.to_json() for t in self.tried]
        if self.used is None:
            del data["used"]  # the shape of a turn stored before `used`
        else:
            data["used"] = {"kind": self.used.kind.value, "index": self.used.index, "line": self.used.line}
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        values = dict(data)
        values["kind"] = Kind(values["kind"])
        for key in ("cards", "drawn", "notes"):
            values[key] = tuple(values[key])
        values["tried"] = tuple(Tried.from_json(t) for t in values["tried"])
        used = values.get("used")
        values["used"] = None if used is None else Used(LineKind(used["kind"]), int(used["index"]), int(used["line"]))
        return cls(**values)
