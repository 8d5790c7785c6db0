"""What happened in a mail turn, one event at a time: public facts, and the owner's private ones.

A card turn keeps, as data, which line it used and every alternative of that line it tried
(`Tried`: the alternative in canonical order words, the outcome, and why the rules refused it);
the presenter tells them in words.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from pbem.orders import Outcome


class Kind(enum.Enum):
    BET = "bet"  # a second bet set aside
    CARD_TURN = "card turn"
    PHASE = "racing phase"
    RACE_END = "race end"
    SETUP = "set-up"  # a new race dealt
    NOTE = "note"  # the player's lines that lapsed, were rejected or were ignored


class Refusal(enum.Enum):
    """Why a play whose condition held may not be made now."""

    SHORT = "short"  # too few cards of a sort in hand (`what`: the sort, `count` held, `need` wanted)
    TABLE_FULL = "table full"  # the table would hold `count` cards
    ANIMAL_FULL = "animal full"  # the table would hold `count` cards of the animal `what`


@dataclass(frozen=True)
class NotAllowed:
    refusal: Refusal
    count: int
    need: int = 0
    what: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"refusal": self.refusal.value, "count": self.count, "need": self.need, "what": self.what}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NotAllowed:
        return cls(Refusal(data["refusal"]), int(data["count"]), int(data["need"]), str(data["what"]))


@dataclass(frozen=True)
class Tried:
    """One alternative of a play line as the card turn tried it: the alternative and its
    condition in canonical order words, the outcome, and the reason it was not allowed."""

    order: str
    outcome: Outcome
    condition: str = ""
    why: NotAllowed | None = None

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order, "outcome": self.outcome.value, "condition": self.condition,
                "why": None if self.why is None else self.why.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tried:
        why = data.get("why")
        return cls(str(data["order"]), Outcome(data["outcome"]), str(data.get("condition", "")),
                   None if why is None else NotAllowed.from_json(why))


class LineUsed(enum.Enum):
    """Which of her lines a card turn used."""

    NO_SHEET = "no sheet"  # she sent none: the default play
    REJECTED = "rejected"  # its play line was rejected: the default play
    PLAY_LINE = "play line"
    DEFAULT = "default"  # her DEFAULT line
    NONE_LEFT = "none left"  # no play line left and no DEFAULT line: the default play


@dataclass(frozen=True)
class Source:
    """The line a card turn used: which (`index`: the play line's place, 1 for the first), on which
    sheet line, and whether none of its alternatives was true and legal (the default play then)."""

    used: LineUsed
    line: int = 0
    index: int = 0
    fell_back: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"used": self.used.value, "line": self.line, "index": self.index, "fell_back": self.fell_back}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Source:
        return cls(LineUsed(data["used"]), int(data["line"]), int(data["index"]), bool(data["fell_back"]))


@dataclass(frozen=True)
class Event:
    """One event of a mail turn. `seat` owns `private`, `source` and `tried` (None: nobody); the
    rest is public. `played` and `table` are the cards of a card turn, for the report's picture
    and tables; `source` says which of the seat's lines the card turn used, `tried` what it tried.
    A turn stored before `source` and `tried` were kept apart has them in `private`, as words."""

    kind: Kind
    seat: int | None
    text: str
    details: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    table: tuple[str, ...] = ()
    number: int = 0  # the card turn's number in the cycle
    source: Source | None = None
    tried: tuple[Tried, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind.value, "seat": self.seat, "text": self.text, "details": list(self.details),
            "private": list(self.private), "played": "".join(self.played), "table": "".join(self.table),
            "number": self.number,
        }
        if self.source is not None:
            data["source"] = self.source.to_json()
            data["tried"] = [t.to_json() for t in self.tried]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(Kind(data["kind"]), data["seat"], data["text"], tuple(data["details"]), tuple(data["private"]),
                   tuple(data["played"]), tuple(data["table"]), int(data["number"]),
                   None if data.get("source") is None else Source.from_json(data["source"]),
                   tuple(Tried.from_json(t) for t in data.get("tried", ())))
