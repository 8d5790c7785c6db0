"""Chance sources: every random draw of a game comes from one of these, so turns replay exactly."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from pbem.errors import ChanceExhaustedError


class ChanceSource(Protocol):
    def die(self, sides: int) -> int:
        """A value from 1 to `sides`."""
        ...


class SeededChance:
    """Draws from a PRNG seeded by (game seed, turn): a stored turn can be re-run exactly."""

    def __init__(self, seed: int | str, turn: int = 0) -> None:
        self._random = random.Random(f"{seed}/{turn}")
        self.drawn: list[int] = []

    def die(self, sides: int) -> int:
        # random() rather than randint(): a third of the cost, and just as uniform for a die
        value = 1 + int(self._random.random() * sides)
        self.drawn.append(value)
        return value


class ScriptedChance:
    """Hands out given values in order (rule cases, tests); running out is an error."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self.used = 0

    def die(self, sides: int) -> int:
        if self.used >= len(self._values):
            raise ChanceExhaustedError(f"the resolution needs more than the {len(self._values)} dice given")
        value = self._values[self.used]
        self.used += 1
        if not 1 <= value <= sides:
            raise ChanceExhaustedError(f"die value {value} is not between 1 and {sides}")
        return value

    @property
    def left(self) -> int:
        return len(self._values) - self.used
