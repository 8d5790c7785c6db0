"""The order toolkit on its own: tokens, conditions, the chain evaluator's records, did-you-mean."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pbem.errors import PbemError
from pbem.orders import (
    And,
    Attempt,
    Brackets,
    Cmp,
    ErrorKind,
    Lexicon,
    Misspelt,
    Mistake,
    Not,
    Or,
    OrderError,
    Outcome,
    Token,
    TokenKind,
    condition_text,
    did_you_mean,
    distance,
    evaluate_chain,
    holds,
    known_mistake,
    misspelt_line_word,
    suggest,
    tokenize,
)


def test_order_error_is_a_pbem_error_with_kind_line_column_and_caret() -> None:
    err = OrderError(5, "expected THEN", ErrorKind.INVALID).at_line(3)
    assert isinstance(err, PbemError)
    assert str(err) == "expected THEN"
    assert err.located() == "line 3, column 5: expected THEN"
    assert err.caret("IF X PLAY") == "IF X PLAY\n    ^"
    assert OrderError(1, "too few", ErrorKind.ILLEGAL).illegal


def test_tokens_carry_text_column_and_kind() -> None:
    toks = tokenize("if Hand fox>=2 (x == 3):")
    assert toks == [
        Token("IF", 1, TokenKind.WORD), Token("HAND", 4, TokenKind.WORD), Token("FOX", 9, TokenKind.WORD),
        Token(">=", 12, TokenKind.SIGN), Token("2", 14, TokenKind.NUMBER), Token("(", 16, TokenKind.PUNCT),
        Token("X", 17, TokenKind.WORD), Token("=", 19, TokenKind.SIGN), Token("3", 22, TokenKind.NUMBER),
        Token(")", 23, TokenKind.PUNCT), Token(":", 24, TokenKind.PUNCT),
    ]


def test_a_strict_lexicon_refuses_stray_characters_and_signs_in_words() -> None:
    strict = Lexicon(word_chars="-_", signs=("<=", ">=", "!=", "<", ">", "=", "!"), aliases={},
                     refused={"!": "'!' must be followed by '='"}, strict=True)
    with pytest.raises(OrderError) as err:
        tokenize("PLAY 5 ! 3", strict)
    assert (err.value.column, err.value.reason) == (8, "'!' must be followed by '='")
    with pytest.raises(OrderError) as err:
        tokenize("PLAY 5 & 3", strict)
    assert (err.value.column, err.value.reason) == (8, "'&' has no meaning in an order line")


def test_tokenizing_is_linear_in_the_line() -> None:
    assert len(tokenize("a " * 50_000)) == 50_000
    assert len(tokenize("<" * 50_000)) == 50_000


def test_comparisons() -> None:
    assert [c.holds(2, 3) for c in Cmp] == [False, True, True, True, False, False]
    assert Cmp.of("==") is Cmp.EQ and Cmp.of("<>") is Cmp.NE and Cmp.of("=>") is None


def test_conditions_hold_and_are_written_back() -> None:
    c: And[str] = And((Or(("A", "B")), Not(And(("C", "D")))))
    def true_of(*atoms: str) -> Callable[[str], bool]:
        return lambda atom: atom in atoms

    assert holds(c, true_of("B", "C"))
    assert not holds(c, true_of("C", "D"))
    assert condition_text(c, str) == "(A OR B) AND NOT (C AND D)"
    assert condition_text(Or((And(("A", "B")), "C")), str) == "A AND B OR C"
    assert condition_text(Or((And(("A", "B")), "C")), str, Brackets.NESTED) == "(A AND B) OR C"


def test_the_chain_records_every_alternative_tried() -> None:
    result = evaluate_chain([1, 2, 3, 4], holds=lambda a: a != 1, refusal=lambda a: "odd" if a % 2 else None)
    assert result.taken == 2 and result.index == 1
    assert result.tried == (Attempt(0, 1, Outcome.CONDITION_FALSE), Attempt(1, 2, Outcome.TAKEN))
    none = evaluate_chain([1, 3], holds=lambda a: True, refusal=lambda a: f"{a} is odd")
    assert none.taken is None and none.index is None
    assert none.tried == (Attempt(0, 1, Outcome.NOT_ALLOWED, "1 is odd"), Attempt(1, 3, Outcome.NOT_ALLOWED, "3 is odd"))


def test_did_you_mean_finds_the_nearest_word_within_two_edits() -> None:
    words = ("SQUARE", "IS", "FREE", "TAKE", "GIVE", "CARROT")
    assert suggest("SQAURE", words) == "SQUARE"  # a swap is one edit
    assert suggest("takee", words) == "TAKE"
    assert suggest("CAROT", words) == "CARROT"
    assert suggest("E", words) is None  # half the word or more changed: no guess
    assert suggest("SQUARE", words) is None  # known words need none
    assert suggest("XYZZYQ", words) is None
    assert did_you_mean("GIV", words) == " — did you mean GIVE?"
    assert distance("A" * 10_000, "B" * 10_000) == 3  # cut off early: bounded


def test_typical_mistakes_are_spotted_by_their_words() -> None:
    table = (Mistake(("NEXT", "HARE", "#"), "only NEXT NUMBER takes a number"),)
    assert known_mistake(["MOVE", "NEXT", "HARE", "3"], table) == "only NEXT NUMBER takes a number"
    assert known_mistake(["MOVE", "NEXT", "HARE"], table) is None


def test_a_misspelt_first_word_is_found_when_the_line_reads_as_an_order_spelt_right() -> None:
    def reads(text: str) -> bool:
        return text.split()[1:2] == ["FOX"]

    found = misspelt_line_word("  PALY FOX", ("PLAY", "BET"), reads)
    assert found == Misspelt(3, "PALY", "PLAY")
    assert found.reason() == "unknown word 'PALY' — did you mean PLAY?"
    assert misspelt_line_word("Best regards", ("PLAY", "BET"), reads) is None  # near BET, but no order
    assert misspelt_line_word("PLAY FOX", ("PLAY", "BET"), reads) is None  # a line word already
    assert misspelt_line_word("Hello FOX", ("PLAY", "BET"), reads) is None  # near none
