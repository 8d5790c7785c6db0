"""'Did you mean': the nearest words of a game's vocabulary to an unknown word, and the labelled
typical mistakes a game knows by heart."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

MAX_WORD = 40  # characters of a word compared: longer words are cut, so a suggestion costs O(1) per entry
MAX_DISTANCE = 2


def distance(a: str, b: str, limit: int = MAX_DISTANCE) -> int:
    """The edit distance (insert, delete, replace, swap of neighbours) between `a` and `b`, or
    `limit + 1` once it is known to exceed `limit` (the band keeps it O(len · limit))."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [limit + 1] * len(b)
        lo, hi = max(1, i - limit), min(len(b), i + limit)
        for j in range(lo, hi + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, prev2[j - 2] + 1)
            row[j] = best
        if min(row[lo - 1:hi + 1]) > limit:
            return limit + 1
        prev2, prev = prev, row
    return min(prev[len(b)], limit + 1)


def suggest(word: str, vocabulary: Iterable[str], *, limit: int = MAX_DISTANCE, loose: bool = True) -> str | None:
    """The vocabulary's word nearest to `word` (case ignored): within `limit` edits and closer than
    half the word (ties go to the vocabulary's first), else (when `loose`) the closest by
    difflib's ratio of at least 0.6 (a word misspelt in more places, or a short form). None when
    nothing is near."""
    key = word[:MAX_WORD].upper()
    if not key:
        return None
    words = list(vocabulary)
    upper = [known[:MAX_WORD].upper() for known in words]
    if key in upper:
        return None  # a known word needs no suggestion
    best: tuple[int, str] | None = None
    for known, up in zip(words, upper, strict=True):
        d = distance(key, up, limit)
        if d <= limit and 2 * d < max(len(key), len(up)) and (best is None or d < best[0]):
            best = (d, known)
    if best is not None or not loose:
        return None if best is None else best[1]
    close = difflib.get_close_matches(key, upper, n=1, cutoff=0.6)
    return words[upper.index(close[0])] if close else None


def did_you_mean(word: str, vocabulary: Iterable[str], *, limit: int = MAX_DISTANCE) -> str:
    """' — did you mean X?' for the nearest word, or '' when none is near."""
    found = suggest(word, vocabulary, limit=limit)
    return meant(found) if found else ""


def meant(words: str) -> str:
    """The one way every game offers a fix: ' — did you mean X?' (X a word, or `A or B`)."""
    return f" — did you mean {words}?"


@dataclass(frozen=True)
class Mistake:
    """A typical mistake: the words it is spotted by (upper case, side by side in the line:
    `("NEXT", "WORD", "#")`, `#` standing for any number) and the hint that tells the fix."""

    pattern: tuple[str, ...]
    hint: str


def _matches(pattern: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the pattern's words occur side by side somewhere in `words` (`#` any number)."""
    n = len(pattern)
    for i in range(len(words) - n + 1):
        if all(p == w or (p == "#" and w.isdigit()) for p, w in zip(pattern, words[i:i + n], strict=True)):
            return True
    return False


def known_mistake(words: Sequence[str], mistakes: Iterable[Mistake]) -> str | None:
    """The hint of the first typical mistake the line's words (upper case) show, or None."""
    return next((m.hint for m in mistakes if _matches(m.pattern, words)), None)


@dataclass(frozen=True)
class Misspelt:
    """A line's first word misspelt: where it starts, as written, and the line word it stands for."""

    column: int
    word: str
    meant: str

    def reason(self) -> str:
        return f"unknown word {self.word!r}{meant(self.meant)}"


def misspelt_line_word(text: str, line_words: Sequence[str], reads: Callable[[str], bool]) -> Misspelt | None:
    """When a line starts with a word that is no line word (`SNED 5` for SEND) but near one, and
    the line `reads` as an order with that word spelt right: the misspelling. A greeting near a
    line word (`Sent from my phone` near SEND) does not read as an order, and stays a greeting."""
    start = len(text) - len(text.lstrip(" "))
    end = start
    while end < len(text) and end - start <= MAX_WORD and text[end].isalpha():
        end += 1
    word = text[start:end]
    if not word or word.upper() in line_words:
        return None
    # A word alone on its line, or a short one, is taken for a line word only one edit away, and
    # never by likeness alone; a word alone written as a name is a signature ("Alice", "Grace"),
    # never a misspelt order.
    alone = not text[end:].strip(" .,;:!?-")
    if alone and word[0].isupper() and word[1:].islower():
        return None
    meant = suggest(word, line_words, limit=1 if alone or len(word) <= 4 else MAX_DISTANCE, loose=False)
    if meant is None or not reads(text[:start] + meant + text[end:]):
        return None
    return Misspelt(start + 1, word, meant)
