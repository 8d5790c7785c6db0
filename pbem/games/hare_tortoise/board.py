"""The Hare & Tortoise tracks: START (0), squares 1 to 63 and HOME (64), each of one kind."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cached_property

START = 0
HOME = 64


class Kind(enum.IntEnum):
    """What a square is."""

    START = 0
    CARROT = 1
    HARE = 2
    LETTUCE = 3
    TORTOISE = 4
    NUMBER = 5
    HOME = 6

    @property
    def word(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Square:
    """One square of a track; `numbers` holds the positions a number square counts for."""

    kind: Kind
    numbers: frozenset[int] = frozenset()

    @property
    def label(self) -> str:
        if self.kind is Kind.NUMBER:
            return "".join(str(n) for n in sorted(self.numbers))
        return self.kind.word


@dataclass(frozen=True)
class Board:
    """A named track of 65 squares, with the look-up tables the engine uses precomputed."""

    name: str
    squares: tuple[Square, ...]

    def __post_init__(self) -> None:
        if len(self.squares) != HOME + 1:
            raise ValueError(f"a board has {HOME + 1} squares, not {len(self.squares)}")

    def kind(self, square: int) -> Kind:
        return self.squares[square].kind

    def squares_of(self, kind: Kind) -> tuple[int, ...]:
        return tuple(i for i, sq in enumerate(self.squares) if sq.kind is kind)

    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """Square kinds as plain ints, indexed by square: the engine's hot path reads these."""
        return tuple(int(sq.kind) for sq in self.squares)

    @cached_property
    def number_bonus(self) -> tuple[frozenset[int], ...]:
        return tuple(sq.numbers for sq in self.squares)

    @cached_property
    def tortoise_behind(self) -> tuple[int, ...]:
        """For each square, the nearest tortoise square behind it, or -1."""
        out: list[int] = []
        last = -1
        for i, sq in enumerate(self.squares):
            out.append(last)
            if sq.kind is Kind.TORTOISE:
                last = i
        return tuple(out)

    def ahead_of_kind(self, kind: Kind, number: int | None = None) -> tuple[tuple[int, ...], ...]:
        """For each square, the squares of `kind` ahead of it (counting for `number`), nearest first."""
        matches = [
            i
            for i, sq in enumerate(self.squares)
            if sq.kind is kind and (number is None or number in sq.numbers)
        ]
        return tuple(tuple(m for m in matches if m > i) for i in range(HOME + 1))



def parse_board(name: str, spec: str) -> Board:
    """Read a board from `square kind` pairs, e.g. ``"0 start 1 hare 2 carrot 4 3 7 156"``."""
    words = spec.split()
    if len(words) % 2:
        raise ValueError(f"board {name!r}: odd number of words")
    table: dict[int, Square] = {}
    for number, label in zip(words[::2], words[1::2], strict=True):
        if label.isdigit():
            square = Square(Kind.NUMBER, frozenset(int(c) for c in label))
        else:
            square = Square(Kind[label.upper()])
        table[int(number)] = square
    return Board(name, tuple(table[i] for i in range(HOME + 1)))


_GIBSONS_1987 = """
 0 start    1 hare      2 carrot    3 hare      4 3         5 carrot    6 hare      7 156
 8 2        9 4        10 lettuce  11 tortoise 12 3        13 carrot   14 hare     15 tortoise
16 156     17 2        18 4        19 tortoise 20 3        21 carrot   22 lettuce  23 2
24 tortoise 25 hare    26 carrot   27 4        28 3        29 2        30 tortoise 31 hare
32 156     33 carrot   34 hare     35 2        36 3        37 tortoise 38 carrot   39 hare
40 carrot  41 2        42 lettuce  43 tortoise 44 3        45 4        46 hare     47 2
48 156     49 carrot   50 tortoise 51 hare     52 3        53 2        54 4        55 carrot
56 tortoise 57 lettuce 58 hare     59 carrot   60 156      61 carrot   62 hare     63 carrot
64 home
"""

GIBSONS_1987 = parse_board("gibsons-1987", _GIBSONS_1987)

# The Ravensburger 1978/79 track differs from the 1987 one at squares 7-10 and 60-63.
RAVENSBURGER_1978 = parse_board(
    "ravensburger-1978",
    _GIBSONS_1987 + " 7 lettuce 8 tortoise 9 4 10 2 60 2 61 hare 62 lettuce 63 hare",
)
