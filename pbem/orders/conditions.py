"""One comparison and one condition tree (NOT, AND, OR over atoms); a game adds only its atoms.

A game's atom is any frozen value; the tree around it is generic, and so are evaluating it
(`holds`, given the game's test of one atom) and writing it back as order text (`condition_text`,
given the game's words for one atom).
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

A = TypeVar("A")


class Cmp(enum.Enum):
    """A comparison as written in an order: `HAND FOX >= 2`."""

    EQ = "="
    NE = "!="
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="

    def holds(self, a: int, b: int) -> bool:
        return bool(_OPS[self](a, b))

    @classmethod
    def of(cls, sign: str) -> Cmp | None:
        """The comparison a sign writes (`==` and `<>` as their usual synonyms), or None."""
        return _SIGNS.get(sign)


_OPS: dict[Cmp, Callable[[int, int], bool]] = {
    Cmp.EQ: operator.eq, Cmp.NE: operator.ne, Cmp.LT: operator.lt, Cmp.LE: operator.le, Cmp.GT: operator.gt,
    Cmp.GE: operator.ge,
}
_SIGNS = {**{c.value: c for c in Cmp}, "==": Cmp.EQ, "<>": Cmp.NE}
SIGNS = tuple(c.value for c in Cmp)


@dataclass(frozen=True)
class Not(Generic[A]):
    inner: Condition[A]


@dataclass(frozen=True)
class And(Generic[A]):
    parts: tuple[Condition[A], ...]


@dataclass(frozen=True)
class Or(Generic[A]):
    parts: tuple[Condition[A], ...]


#: a condition: a game's atom, or NOT / AND / OR over conditions (`Condition[MyAtom]` in annotations)
Condition: TypeAlias = "A | Not[A] | And[A] | Or[A]"


def holds(condition: Condition[A], test: Callable[[A], bool]) -> bool:
    """Whether the condition holds, `test` telling whether one atom does (AND and OR stop early)."""
    if isinstance(condition, Not):
        return not holds(condition.inner, test)
    if isinstance(condition, And):
        return all(holds(p, test) for p in condition.parts)
    if isinstance(condition, Or):
        return any(holds(p, test) for p in condition.parts)
    return test(condition)


def all_of(parts: list[Condition[A]]) -> Condition[A]:
    """One part as itself, several as AND (what a parser builds from `a AND b AND c`)."""
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def any_of(parts: list[Condition[A]]) -> Condition[A]:
    return parts[0] if len(parts) == 1 else Or(tuple(parts))


class Brackets(enum.Enum):
    """How a condition is written back: brackets only where precedence needs them (an OR inside
    an AND, anything but an atom or NOT after NOT), or around every nested AND and OR."""

    NEEDED = "needed"
    NESTED = "nested"


def condition_text(condition: Condition[A], atom: Callable[[A], str], brackets: Brackets = Brackets.NEEDED) -> str:
    """The condition in the order language's words, `atom` writing one atom."""
    return _text(condition, atom, brackets, top=True, inside="")


def _text(c: Condition[A], atom: Callable[[A], str], brackets: Brackets, *, top: bool, inside: str) -> str:
    if isinstance(c, Not):
        inner = _text(c.inner, atom, brackets, top=False, inside="NOT")
        if brackets is Brackets.NEEDED and isinstance(c.inner, (And, Or)):
            inner = f"({inner})"
        return f"NOT {inner}"
    if isinstance(c, (And, Or)):
        op = "AND" if isinstance(c, And) else "OR"
        text = f" {op} ".join(_text(p, atom, brackets, top=False, inside=op) for p in c.parts)
        if brackets is Brackets.NESTED:
            return text if top else f"({text})"
        return f"({text})" if op == "OR" and inside == "AND" else text
    return atom(c)
