"""Chance sources: every die, uniform draw and shuffle of a game comes from one, and is recorded.

A game never calls `random` itself. In play the source is keyed by the game's secret seed, the
turn and the draw's purpose, so a stored turn replays exactly and no number of draws seen tells
the seed; in rule cases it is scripted (dice and deck orders given in order). Every draw is kept
with its turn (set-up draws are turn 0) for the turn record.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import random
import secrets
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


class Generator(enum.StrEnum):
    """Which chance source a game draws from: recorded with the game, so it replays as it was."""

    LEGACY = "legacy"  # LegacyChance: the games made before migration 0010
    KEYED = "hmac-sha256"  # KeyedChance


SEED_BYTES = 32
"""A new game's seed: 256 random bits, written as 64 hex digits."""


def new_seed() -> str:
    """A fresh random seed for a new game: nobody can guess it or search for it."""
    return secrets.token_hex(SEED_BYTES)


class KeyedChance:
    """Draws from HMAC-SHA256 keyed by the game's seed, over (turn, purpose, block counter).

    Each (seed, turn, purpose) is a stream of its own: the game's dice ("turn", "setup") never
    share one with a SUGGEST or a computer player's search ("suggest/2", "computer/2"). Without
    the key, the stream tells nothing of the key nor of its other draws (HMAC is a PRF), so no
    number of public dice or dealt hands narrows the seed. Integers are drawn by rejection, so
    every value is exactly as likely; shuffles are Fisher-Yates over such integers.
    """

    _DOMAIN = b"pbem-chance-v1"  # changing the stream's layout needs a new Generator, not a new domain

    def __init__(self, seed: str, turn: int = 0, purpose: str = "turn") -> None:
        if not seed:
            raise ValueError("a keyed chance source needs a seed")
        self._key = seed.encode()
        self._prefix = b"\0".join((self._DOMAIN, str(turn).encode(), purpose.encode())) + b"\0"
        self._block = 0
        self._buffer = b""
        self.turn = turn
        self.drawn: list[Draw] = []

    def _bytes(self, n: int) -> bytes:
        while len(self._buffer) < n:
            message = self._prefix + self._block.to_bytes(8, "big")
            self._buffer += hmac.digest(self._key, message, hashlib.sha256)
            self._block += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def _below(self, n: int) -> int:
        """A value from 0 to n - 1, each exactly as likely: draw as many bits as n - 1 has and
        draw again when the value is n or more (less than half the time)."""
        if n < 1:
            raise ValueError(f"can't draw from {n} values")
        bits = (n - 1).bit_length()
        while True:
            value = int.from_bytes(self._bytes((bits + 7) // 8), "big") & ((1 << bits) - 1)
            if value < n:
                return value

    def die(self, sides: int) -> int:
        value = 1 + self._below(sides)
        self.drawn.append(Draw(self.turn, "die", value))
        return value

    def uniform(self, n: int) -> int:
        value = self._below(n)
        self.drawn.append(Draw(self.turn, "uniform", value))
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        order = list(range(len(items)))
        for i in range(len(order) - 1, 0, -1):
            j = self._below(i + 1)
            order[i], order[j] = order[j], order[i]
        self.drawn.append(Draw(self.turn, "shuffle", order))
        return [items[i] for i in order]

    @property
    def dice(self) -> list[int]:
        return [d.value for d in self.drawn if d.kind == "die"]


class LegacyChance:
    """Draws from a Mersenne Twister seeded by the text "seed/turn": the generator of the games
    made before migration 0010, kept unchanged so that they replay exactly.

    Its seeds were 31-bit numbers, and a game's dice or a player's dealt hand are enough to find
    one by trying them all; a new game never uses it (see `KeyedChance`)."""

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


class SeedRecord(Protocol):
    """What a stored game keeps of its chance (the store's GameRow has both)."""

    @property
    def seed(self) -> str: ...

    @property
    def generator(self) -> str: ...


@dataclass(frozen=True)
class Seeding:
    """A seed and its generator, before the game is stored."""

    seed: str
    generator: str


def game_chance(game: SeedRecord, turn: int, purpose: str = "turn") -> Chance:
    """The chance source of a stored game for `turn` and `purpose`, from the generator the game
    was made with. Purposes: "setup" (turn 0), "turn" (a turn's resolution), "suggest/SEAT" (a
    SUGGEST answer), "computer/SEAT" (a computer player's sheet)."""
    if game.generator == Generator.KEYED:
        return KeyedChance(game.seed, turn, purpose)
    if game.generator == Generator.LEGACY:
        # as before 0010: the game's dice (set-up and turns) from the seed itself, the others
        # from "seed/purpose"
        return LegacyChance(game.seed if purpose in ("setup", "turn") else f"{game.seed}/{purpose}", turn)
    raise ValueError(f"unknown chance generator {game.generator!r}")


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
