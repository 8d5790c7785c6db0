"""One tokenizer for order lines: words, numbers, comparison signs and punctuation, with columns.

One left-to-right scan looks at every character once, so a line of n characters costs O(n);
the caller bounds the line's length before it gets here.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.orders.errors import OrderError


class TokenKind(enum.Enum):
    WORD = "word"
    NUMBER = "number"  # a word of digits only
    SIGN = "sign"  # a comparison sign or other operator
    PUNCT = "punct"  # brackets, commas, colons and any other single character


@dataclass(frozen=True)
class Token:
    """A token in upper case and the 1-based column it starts at."""

    text: str
    column: int
    kind: TokenKind = TokenKind.WORD


@dataclass(frozen=True)
class Lexicon:
    """What one game's tokenizer treats as part of a word, as a sign, and as an error.

    `signs` are matched longest first; `aliases` rewrite a sign (`==` read as `=`); `refused` maps
    a sign to the error it raises (a lone `!`); with `strict`, any other character is an error,
    else a one-character token that the parser will reject in words.
    """

    word_chars: str = "_-'"
    signs: tuple[str, ...] = ("<=", ">=", "!=", "==", "<", ">", "=", "!")
    aliases: Mapping[str, str] = field(default_factory=lambda: {"==": "="})
    refused: Mapping[str, str] = field(default_factory=dict)
    punctuation: str = "(),:;"
    spaces: str = " "
    strict: bool = False


DEFAULT_LEXICON = Lexicon()


def tokenize(text: str, lexicon: Lexicon = DEFAULT_LEXICON) -> list[Token]:
    """The tokens of `text`, in one scan; OrderError (invalid) for a refused sign or character."""
    signs = sorted(lexicon.signs, key=len, reverse=True)
    starts = frozenset(s[0] for s in signs)
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in lexicon.spaces:
            i += 1
        elif ch.isalnum() or ch in lexicon.word_chars:
            j = i
            while j < n and (text[j].isalnum() or text[j] in lexicon.word_chars):
                j += 1
            word = text[i:j].upper()
            out.append(Token(word, i + 1, TokenKind.NUMBER if word.isdigit() else TokenKind.WORD))
            i = j
        elif ch in starts and (sign := next((s for s in signs if text.startswith(s, i)), "")):
            if sign in lexicon.refused:
                raise OrderError(i + 1, lexicon.refused[sign])
            out.append(Token(lexicon.aliases.get(sign, sign), i + 1, TokenKind.SIGN))
            i += len(sign)
        elif ch in lexicon.punctuation or not lexicon.strict:
            out.append(Token(ch, i + 1, TokenKind.PUNCT))
            i += 1
        else:
            raise OrderError(i + 1, f"{ch!r} has no meaning in an order line")
    return out
