"""What happened in a mail turn, one event at a time: public facts, and the owner's private ones."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Kind(enum.Enum):
    BET = "bet"  # a second bet set aside
    CARD_TURN = "card turn"
    PHASE = "racing phase"
    RACE_END = "race end"
    SETUP = "set-up"  # a new race dealt
    NOTE = "note"  # the player's lines that lapsed, were rejected or were ignored


@dataclass(frozen=True)
class Event:
    """One event of a mail turn. `seat` owns `private` (None: nobody); the rest is public.
    `played` and `table` are the cards of a card turn, for the report's picture and tables."""

    kind: Kind
    seat: int | None
    text: str
    details: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    played: tuple[str, ...] = ()
    table: tuple[str, ...] = ()
    number: int = 0  # the card turn's number in the cycle

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat, "text": self.text, "details": list(self.details),
                "private": list(self.private), "played": "".join(self.played), "table": "".join(self.table),
                "number": self.number}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        return cls(Kind(data["kind"]), data["seat"], data["text"], tuple(data["details"]), tuple(data["private"]),
                   tuple(data["played"]), tuple(data["table"]), int(data["number"]))
