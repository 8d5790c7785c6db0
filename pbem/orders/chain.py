"""One chain evaluator: the first alternative whose condition holds and that is allowed now, and
a typed record of every alternative tried on the way."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Alt = TypeVar("Alt")
Why = TypeVar("Why")


class Outcome(enum.StrEnum):
    """What became of one alternative of a chain."""

    TAKEN = "taken"  # its condition held and it was allowed: the chain stops here
    CONDITION_FALSE = "condition false"  # skipped: its condition did not hold
    NOT_ALLOWED = "not allowed"  # skipped: its condition held but the rules refuse it now (see the reason)


@dataclass(frozen=True)
class Attempt(Generic[Alt, Why]):
    """One alternative tried: which (its index in the chain and itself), what became of it, and,
    when it was not allowed, the game's reason value."""

    index: int
    alternative: Alt
    outcome: Outcome
    reason: Why | None = None


@dataclass(frozen=True)
class ChainResult(Generic[Alt, Why]):
    """The alternative taken (None: none was true and allowed) and every attempt, in order."""

    taken: Alt | None
    tried: tuple[Attempt[Alt, Why], ...]

    @property
    def index(self) -> int | None:
        """The taken alternative's index in the chain."""
        last = self.tried[-1] if self.tried else None
        return last.index if last is not None and last.outcome is Outcome.TAKEN else None


def evaluate_chain(alternatives: Sequence[Alt], *, holds: Callable[[Alt], bool],
                   refusal: Callable[[Alt], Why | None]) -> ChainResult[Alt, Why]:
    """Try each alternative in turn: `holds` tells whether its condition holds (an alternative with
    no condition holds), `refusal` why the rules do not allow it now (None: they do). The first
    that holds and is allowed is taken; the attempts after it are not made."""
    tried: list[Attempt[Alt, Why]] = []
    for i, alt in enumerate(alternatives):
        if not holds(alt):
            tried.append(Attempt(i, alt, Outcome.CONDITION_FALSE))
            continue
        why = refusal(alt)
        if why is not None:
            tried.append(Attempt(i, alt, Outcome.NOT_ALLOWED, why))
            continue
        tried.append(Attempt(i, alt, Outcome.TAKEN))
        return ChainResult(alt, tuple(tried))
    return ChainResult(None, tuple(tried))
