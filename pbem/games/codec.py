"""What a game's rule-case codec gives the generic case driver (`pbem check-cases`).

The driver reads the case format's common keys (CASE, TITLE, GAME, RULES, OPTIONS, SEATS, TURN,
FIRST, ORDERS, EXPECT-OVER, END) and hands every other key to the codec of the case's game, as
that game's contract addendum defines them. GAME, when given, is the first key of a case; a case
without it is the default game's (`pbem.games.default_game`). The codec then builds the position, resolves the turn with
scripted chance and compares the expectations; the driver compares EXPECT-OVER with
`CaseRun.over`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from pbem.errors import CaseFormatError


@dataclass
class CaseText:
    """A case as the driver read it: the common keys, and the game's own lines in order."""

    path: str
    line: int
    id: str
    game: str = ""
    title: str = ""
    game_line: int = 0
    rules: str | None = None  # the ruleset's own name (an alias is read as it); None: the default
    rules_line: int = 0
    options: list[str] = field(default_factory=list)
    options_line: int = 0
    seats: list[str] = field(default_factory=list)
    seats_line: int = 0
    turn: int = 1
    turn_given: bool = False
    first: str | None = None
    first_line: int = 0
    orders: dict[str, list[str]] = field(default_factory=dict)
    orders_lines: dict[str, int] = field(default_factory=dict)
    expect_over: bool | None = None
    expect_over_line: int = 0
    #: the game's own keys: (line number, keyword, the rest of the line)
    keys: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class CaseRun:
    """What a case's resolution gave: the problems (none: it passed), and an account of it."""

    problems: tuple[str, ...]
    before: tuple[str, ...] = ()  # the position before, in console lines
    after: tuple[str, ...] = ()  # empty when the resolution stopped with an error
    resolutions: tuple[str, ...] = ()
    chance: str = ""  # the scripted chance, as given (lines such as "dice: 3 4")
    #: what the position before is, shown after "before", e.g. "turn 3, first mover Ann"
    heading: str = ""
    #: whether the game is over after the resolution (None: it stopped with an error); the
    #: driver compares it with EXPECT-OVER
    over: bool | None = None


def case_int(value: str, what: str, path: str, line: int) -> int:
    """A whole number of a case line, not negative; CaseFormatError (with the line) otherwise."""
    try:
        n = int(value)
    except ValueError:
        raise CaseFormatError(path, line, f"{what} must be a whole number, not {value!r}") from None
    if n < 0:
        raise CaseFormatError(path, line, f"{what} must not be negative")
    return n


class CaseCodec(ABC):
    """A game's own case keys: read, checked and run."""

    #: the keywords this game adds to the common ones
    keys: frozenset[str] = frozenset()

    @abstractmethod
    def prepare(self, case: CaseText) -> object:
        """Check the case and build what `run` needs; raise CaseFormatError (with the line) when
        the case is malformed."""

    @abstractmethod
    def run(self, case: CaseText, prepared: object) -> CaseRun:
        """Resolve the case's turn with scripted chance and compare every expectation."""
