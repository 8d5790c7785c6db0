"""The error hierarchy: one root, so the CLI can turn any of them into a clear message."""

from __future__ import annotations


class PbemError(Exception):
    """Root of every error pbem raises on purpose; the message says what and how to fix it."""


class UnknownGameError(PbemError):
    """A game or ruleset name that no registered game answers to."""


class ChanceExhaustedError(PbemError):
    """A scripted chance source ran out of values."""


class CaseFormatError(PbemError):
    """A rule-case file that does not follow the case format."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
