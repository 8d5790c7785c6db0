"""Counted words as people write them: '1 turn', '2 turns'."""

from __future__ import annotations


def plural(count: int, word: str, words: str | None = None) -> str:
    """`count` and the word in the number it takes ('1 report', '3 reports', '2 replies')."""
    return f"{count} {word if count == 1 else words or word + 's'}"
