"""The order toolkit every game's order language is built from; it names no game.

Stable API (a game imports these names from `pbem.orders`):

- Errors: `OrderError(column, reason, kind=ErrorKind.INVALID, *, line=None)`, a `PbemError`;
  `str(err)` is the reason, `err.located()` adds line and column, `err.caret(text)` points at
  the column; `ErrorKind` is INVALID, ILLEGAL or AMBIGUOUS; `caret(text, column)`.
- Tokens: `tokenize(text, lexicon=DEFAULT_LEXICON) -> list[Token]`, one linear scan; a `Token`
  has `text` (upper case), `column` (1-based) and `kind` (`TokenKind`); a game's `Lexicon` says
  which characters join words, which signs exist, which are refused and whether stray
  characters are errors.
- Conditions: `Cmp` (=, !=, <, <=, >, >=; `Cmp.of(sign)`, `cmp.holds(a, b)`); the tree
  `Not(inner)`, `And(parts)`, `Or(parts)` over a game's own atoms (`Condition[A]`);
  `holds(condition, test)` with the game's test of one atom; `all_of`, `any_of` to build;
  `condition_text(condition, atom, brackets=Brackets.NEEDED)` to write it back.
- Chains: `evaluate_chain(alternatives, holds=..., refusal=...) -> ChainResult` with `taken`,
  `index` and `tried`, a tuple of `Attempt(index, alternative, outcome, reason)`; `Outcome` is
  TAKEN, CONDITION_FALSE or NOT_ALLOWED (with the game's reason value).
- Grammar: `Grammar(rules)` of `Rule(name, shape, note="")` in EBNF, a game's language written
  down once: `keywords()`, `first_words(rule)`, `alternatives(rule)` and `text()` derive the
  reader's vocabulary, its line words and dispatch, and the guide's grammar from it.
- Did you mean: `suggest(word, vocabulary)` (nearest word within two edits, or None),
  `did_you_mean(word, vocabulary)` (" — did you mean X?" or ""), `meant(words)` (that format for
  a fix found otherwise), `distance(a, b)`; a game's
  table of typical mistakes is a tuple of `Mistake(pattern, hint)` read by `known_mistake`;
  `misspelt_line_word(text, line_words, reads)` finds a line whose first word is a misspelt line
  word (`Misspelt(column, word, meant)` with its `reason()`).
"""

from __future__ import annotations

from pbem.orders.chain import Attempt, ChainResult, Outcome, evaluate_chain
from pbem.orders.conditions import SIGNS, And, Brackets, Cmp, Condition, Not, Or, all_of, any_of, condition_text, holds
from pbem.orders.errors import ErrorKind, OrderError, caret
from pbem.orders.grammar import Grammar, Rule
from pbem.orders.suggest import (
    Misspelt,
    Mistake,
    did_you_mean,
    distance,
    known_mistake,
    meant,
    misspelt_line_word,
    suggest,
)
from pbem.orders.tokens import DEFAULT_LEXICON, Lexicon, Token, TokenKind, tokenize

__all__ = [
    "DEFAULT_LEXICON",
    "SIGNS",
    "And",
    "Attempt",
    "Brackets",
    "ChainResult",
    "Cmp",
    "Condition",
    "ErrorKind",
    "Grammar",
    "Lexicon",
    "Misspelt",
    "Mistake",
    "Not",
    "Or",
    "OrderError",
    "Outcome",
    "Rule",
    "Token",
    "TokenKind",
    "all_of",
    "any_of",
    "caret",
    "condition_text",
    "did_you_mean",
    "distance",
    "evaluate_chain",
    "holds",
    "known_mistake",
    "meant",
    "misspelt_line_word",
    "suggest",
    "tokenize",
]
