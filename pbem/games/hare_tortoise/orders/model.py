"""Typed orders: what a parsed sheet holds, each value printable in canonical form.

The comparison (`Cmp`) and the NOT / AND / OR tree are the order toolkit's; the game adds its atoms.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from pbem.orders import And, Cmp, ErrorKind, Not, Or, condition_text


class ActionKind(enum.Enum):
    TO = "TO"
    HOME = "HOME"
    ADVANCE = "ADVANCE"
    NEXT = "NEXT"
    BACK = "BACK"
    STAY = "STAY"
    EAT = "EAT"


class NextKind(enum.Enum):
    """The square kinds `NEXT <kind>` can name."""

    CARROT = "CARROT"
    LETTUCE = "LETTUCE"
    HARE = "HARE"
    NUMBER = "NUMBER"


class HareChoice(enum.Enum):
    TAKE = "TAKE"
    GIVE = "GIVE"
    KEEP = "KEEP"
    REFUSE = "REFUSE"
    NONE = "NONE"


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    square: int | None = None  # TO
    distance: int | None = None  # ADVANCE
    next_kind: NextKind | None = None  # NEXT <kind>
    number: int | None = None  # NEXT NUMBER <d>
    give: bool = False  # STAY GIVE

    def __str__(self) -> str:
        k = self.kind
        if k is ActionKind.TO:
            return f"TO {self.square}"
        if k is ActionKind.ADVANCE:
            return f"ADVANCE {self.distance}"
        if k is ActionKind.NEXT:
            if self.next_kind is None:
                return "NEXT"
            if self.number is not None:
                return f"NEXT NUMBER {self.number}"
            return f"NEXT {self.next_kind.value}"
        if k is ActionKind.STAY:
            return "STAY GIVE" if self.give else "STAY"
        if k is ActionKind.BACK and self.distance is not None:
            return f"BACK {self.distance}"
        return str(k.value)


class Quantity(enum.Enum):
    """What a comparison atom reads about the player's own runner."""

    RANK = "RANK"
    CARROTS = "CARROTS"
    LETTUCES = "LETTUCES"
    MY_SQUARE = "MY SQUARE"


class RunnerTest(enum.Enum):
    """What `<player> IS ...` asks about another runner."""

    ON = "ON"
    AHEAD = "AHEAD"
    BEHIND = "BEHIND"
    HOME = "HOME"


@dataclass(frozen=True)
class SquareIs:
    """`SQUARE <n> IS [NOT] FREE|OCCUPIED`; stored as 'is free' with a negation flag."""

    square: int
    free: bool

    def __str__(self) -> str:
        return f"SQUARE {self.square} IS {'FREE' if self.free else 'OCCUPIED'}"


@dataclass(frozen=True)
class PlayerIs:
    """`<player> IS [NOT] ON <n> | AHEAD | BEHIND | HOME`."""

    seat: int
    name: str
    test: RunnerTest
    negated: bool = False
    square: int | None = None

    def __str__(self) -> str:
        neg = "NOT " if self.negated else ""
        tail = f"ON {self.square}" if self.test is RunnerTest.ON else self.test.value
        return f"{self.name} IS {neg}{tail}"


@dataclass(frozen=True)
class IAm:
    """`I AM [NOT] FIRST|LAST`."""

    last: bool
    negated: bool = False

    def __str__(self) -> str:
        return f"I AM {'NOT ' if self.negated else ''}{'LAST' if self.last else 'FIRST'}"


@dataclass(frozen=True)
class Compare:
    """`RANK|CARROTS|LETTUCES|MY SQUARE <cmp> <n>`."""

    quantity: Quantity
    cmp: Cmp
    value: int

    def __str__(self) -> str:
        return f"{self.quantity.value} {self.cmp.value} {self.value}"


#: a test of the position, the game's own words (`SQUARE 5 IS FREE`, `RANK = 1`)
Atom = SquareIs | PlayerIs | IAm | Compare
#: a condition: an atom, or the toolkit's NOT, AND and OR over conditions
Condition = Atom | Not[Atom] | And[Atom] | Or[Atom]


def condition_str(cond: Condition) -> str:
    """A condition in canonical words, with brackets only where precedence needs them."""
    return condition_text(cond, str)


@dataclass(frozen=True)
class Alternative:
    condition: Condition | None
    action: Action
    #: two-player: the acting runner, by its index among the game's runners, and its name
    runner: int | None = None
    runner_name: str | None = None

    def __str__(self) -> str:
        act = str(self.action) if self.runner_name is None else f"{self.runner_name} {self.action}"
        if self.condition is None:
            return act
        return f"IF {condition_str(self.condition)} THEN {act}"


@dataclass(frozen=True)
class Chain:
    """Alternatives tried left to right at the slot; `compiled` is the engine's cache."""

    alternatives: tuple[Alternative, ...]
    compiled: list[Any] = field(default_factory=list, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return " ELSE ".join(str(a) for a in self.alternatives)


@dataclass(frozen=True)
class HareAlternative:
    """One alternative of a HARE chain: a condition (or none) and the choice word it gives."""

    condition: Condition | None
    choice: HareChoice

    def __str__(self) -> str:
        if self.condition is None:
            return self.choice.value
        return f"IF {condition_str(self.condition)} THEN {self.choice.value}"


def hare_text(chain: tuple[HareAlternative, ...]) -> str:
    return " ELSE ".join(str(a) for a in chain)


#: why an order line was rejected: the toolkit's three kinds of order error
RejectionKind = ErrorKind


@dataclass(frozen=True)
class RejectedLine:
    """A line that looked like an order but did not parse, with where and why."""

    line: int  # 1-based, in the sheet as sent
    column: int  # 1-based
    text: str
    reason: str
    context: str  # the line with a caret under the column
    kind: RejectionKind = RejectionKind.INVALID

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.reason}"


@dataclass(frozen=True)
class SheetLine:
    """An accepted line: its number in the sheet, the text as sent and its canonical form."""

    line: int
    text: str
    canonical: str


@dataclass(frozen=True)
class MoveOrder:
    """One `MOVE` line: the chain, or None when the line was rejected (the slot gets the default move)."""

    chain: Chain | None
    line: int
    text: str


@dataclass(frozen=True)
class OrderSheet:
    """One player's orders for one turn, and what became of every line."""

    moves: tuple[MoveOrder, ...] = ()
    default: Chain | None = None
    default_line: int | None = None
    hare: HareChoice = HareChoice.TAKE
    #: the HARE line as a chain of (condition or None, choice word); empty: no HARE line
    hare_chain: tuple[HareAlternative, ...] = ()
    game: str | None = None
    turn: int | None = None
    secret: str | None = None
    accepted: tuple[SheetLine, ...] = ()
    rejected: tuple[RejectedLine, ...] = ()
    ignored: tuple[SheetLine, ...] = ()
    #: the engine's cache of this sheet's compiled chains
    compiled: list[Any] = field(default_factory=list, compare=False, hash=False, repr=False)

    @classmethod
    def empty(cls) -> OrderSheet:
        return cls()
