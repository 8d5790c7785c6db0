"""What happened in a mail turn: one event per step, with the private details kept apart."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any


class Kind(enum.Enum):
    SETUP = "setup"  # a race dealt: start cards public, the hare's hand private to him
    SHEET = "sheet"  # a seat's sheet: rejected and ignored lines, lapsed lines (private)
    DRAW = "draw"  # cards drawn: how many is public, which is private
    PLAY = "play"
    PASS = "pass"  # noqa: S105 - a turn, not a password
    STOP = "stop"  # where the run stopped and whose sheet the next mail turn waits for
    END = "end"  # a race over: both hands, both decks, the cards set aside, the scores


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
    line: str = ""  # which of her lines the turn used
    tried: tuple[str, ...] = ()  # every alternative tried, and why it was skipped
    notes: tuple[str, ...] = ()

    def redacted(self) -> Event:
        return replace(self, drawn=(), forced=None, line="", tried=(), notes=())

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["kind"] = self.kind.value
        for key in ("cards", "drawn", "tried", "notes"):
            data[key] = list(data[key])
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        values = dict(data)
        values["kind"] = Kind(values["kind"])
        for key in ("cards", "drawn", "tried", "notes"):
            values[key] = tuple(values[key])
        return cls(**values)
