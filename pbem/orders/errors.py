"""The one order error every game raises: its kind, where it is (line, column) and a caret."""

from __future__ import annotations

import enum

from pbem.errors import PbemError


class ErrorKind(enum.StrEnum):
    """The project's three kinds of order error."""

    INVALID = "invalid"  # not understood: syntax, an unknown word, a value outside the language
    ILLEGAL = "illegal"  # understood but not allowed now: the position or the rules forbid it
    AMBIGUOUS = "ambiguous"  # understood more than one way: a name two seats answer to


class OrderError(PbemError):
    """An order line, or a part of one, that cannot be taken: why in plain words and where.

    `str(err)` is the reason alone, as the player's acknowledgement quotes it beside the line;
    `located()` adds the line and column, and `caret(text)` points at the column under the text.
    """

    def __init__(self, column: int, reason: str, kind: ErrorKind = ErrorKind.INVALID, *,
                 line: int | None = None) -> None:
        super().__init__(reason)
        self.column = max(1, column)
        self.reason = reason
        self.kind = kind
        self.line = line

    @property
    def illegal(self) -> bool:
        return self.kind is ErrorKind.ILLEGAL

    def at_line(self, line: int) -> OrderError:
        """The same error, told on sheet line `line`."""
        return OrderError(self.column, self.reason, self.kind, line=line)

    def located(self) -> str:
        where = f"column {self.column}" if self.line is None else f"line {self.line}, column {self.column}"
        return f"{where}: {self.reason}"

    def caret(self, text: str) -> str:
        """The text with a caret under the column the error points at."""
        return caret(text, self.column)


def caret(text: str, column: int) -> str:
    """`text` and, below it, a caret under the 1-based `column`."""
    return f"{text}\n{' ' * (max(1, column) - 1)}^"
