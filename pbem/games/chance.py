"""Chance sources: every die, uniform draw and shuffle of a game comes from one, and is recorded.

A game never calls `random` itself. In play the source is seeded by (game seed, turn), so a
stored turn replays exactly; in rule cases it is scripted (dice and deck orders given in
order). Every draw is kept with its turn (set-up draws are turn 0) for the turn record.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from pbem.errors import ChanceExhaustedError

T = TypeVar("T")


@dataclass(frozen=True)
class Draw:
    """One recorded draw: `kind` is die, uniform or shuffle; `value` the result."""

    turn: int
    kind: str
    value: Any

    def to_json(self) -> list[Any]:
        return [self.kind, self.value]


class Chance(Protocol):
    turn: int
    drawn: list[Draw]

    def die(self, sides: int) -> int:
        """A value from 1 to `sides`."""
        ...

    def uniform(self, n: int) -> int:
        """A value from 0 to n - 1."""
        ...

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """The items in a new random order."""
        ...


class SeededChance:
    """Draws from a PRNG seeded by (game seed, turn): a stored turn can be re-run exactly."""

    def __init__(self, seed: int | str, turn: int = 0) -> None:
        self._random = random.Random(f"{seed}/{turn}")
        self.turn = turn
        self.drawn: list[Draw] = []

    def die(self, sides: int) -> int:
        # random() rather than randint(): a third of the cost, and just as uniform for a die
        value = 1 + int(self._random.random() * sides)
        self.drawn.append(Draw(self.turn, "die", value))
        return value

    def uniform(self, n: int) -> int:
        value = self._random.randrange(n)
        self.drawn.append(Draw(self.turn, "uniform", value))
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        order = list(range(len(items)))
        self._random.shuffle(order)
        self.drawn.append(Draw(self.turn, "shuffle", order))
        return [items[i] for i in order]

    @property
    def dice(self) -> list[int]:
        return [d.value for d in self.drawn if d.kind == "die"]


class ScriptedChance:
    """Hands out given values in order (rule cases, tests); running out is an error.

    `decks` are the results of successive shuffles, each the whole pile in its new order (top
    first), as the contracts' case formats give them.
    """

    def __init__(self, values: Iterable[int] = (), *, decks: Iterable[Sequence[Any]] = (), turn: int = 1) -> None:
        self._values = list(values)
        self._decks = [list(d) for d in decks]
        self.used = 0
        self.shuffles = 0
        self.turn = turn
        self.drawn: list[Draw] = []

    def die(self, sides: int) -> int:
        if self.used >= len(self._values):
            raise ChanceExhaustedError(f"the resolution needs more than the {len(self._values)} dice given")
        value = self._values[self.used]
        self.used += 1
        if not 1 <= value <= sides:
            raise ChanceExhaustedError(f"die value {value} is not between 1 and {sides}")
        self.drawn.append(Draw(self.turn, "die", value))
        return value

    def uniform(self, n: int) -> int:
        value = self.die(n) - 1
        self.drawn[-1] = Draw(self.turn, "uniform", value)
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        if self.shuffles >= len(self._decks):
            raise ChanceExhaustedError(f"the resolution shuffles more than the {len(self._decks)} times scripted")
        deck = self._decks[self.shuffles]
        self.shuffles += 1
        if Counter(map(repr, deck)) != Counter(map(repr, items)):
            raise ChanceExhaustedError(
                f"shuffle {self.shuffles}: the scripted order does not hold exactly the items shuffled "
                f"({len(deck)} scripted, {len(items)} shuffled)")
        self.drawn.append(Draw(self.turn, "shuffle", [repr(x) for x in deck]))
        return list(deck)

    @property
    def left(self) -> int:
        return len(self._values) - self.used

    @property
    def decks_left(self) -> int:
        return len(self._decks) - self.shuffles
