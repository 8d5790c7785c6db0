"""What happened at each move slot: the records reports are written from."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from pbem.games.hare_tortoise.rules import HareEffect


class Outcome(enum.Enum):
    MISSED = "missed"  # a hare "miss a turn" slot
    ATE = "ate"  # ate a lettuce
    FORWARD = "forward"
    HOME = "home"
    BACK = "back"
    STAY_TAKE = "stay-take"
    STAY_GIVE = "stay-give"
    STUCK = "stuck"  # no legal move: back to START


@dataclass(frozen=True, slots=True)
class Tried:
    """One alternative of the order chain and what became of it."""

    number: int  # 1-based
    text: str  # canonical form
    outcome: str  # "false", "illegal" or "taken"
    reason: str  # why it was skipped; empty when taken


@dataclass(frozen=True, slots=True)
class HareRoll:
    """A hare square's throw or card and what it did."""

    die: int
    position: int
    total: int
    effect: HareEffect
    detail: str  # what the effect did, in plain words
    square: int  # the hare square landed on
    to_square: int  # the square after the effect
    card: str | None = None  # the hare card drawn (card rulesets), by its code


@dataclass(frozen=True, slots=True)
class Slot:
    """One move slot, fully resolved."""

    number: int  # 1-based within the turn
    seat: int
    name: str
    order: str  # the order line used: "MOVE 2", "DEFAULT", "MOVE 2 (rejected)", "no orders" ("" when redacted)
    chain: str | None  # the chain of that line, canonical
    tried: tuple[Tried, ...]
    outcome: Outcome
    rule: str | None  # the rule that forced the move, when not the player's order
    from_square: int
    to_square: int
    paid: int
    drew: int  # carrots drawn by the move itself (back, stay, eating)
    bonus: int  # number-square carrots drawn at the start of the slot
    position: int  # race position at the start of the slot
    carrots_before: int | None  # None when redacted: hidden from the reader
    carrots_after: int | None
    lettuces_before: int
    lettuces_after: int
    hare: HareRoll | None
    place: int | None  # finishing place, when the runner got HOME
    extra: bool  # a slot added by a hare "have another turn"

    def to_json(self) -> dict[str, Any]:
        from pbem.games.hare_tortoise.serialize import slot_to_json  # serialize reads this module

        return slot_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Slot:
        from pbem.games.hare_tortoise.serialize import slot_from_json

        return slot_from_json(data)
