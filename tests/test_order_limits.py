"""The order parser's bounds: limits rejected in plain words, typed rejections, linear-time line classifiers."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games.hare_tortoise.orders import parser
from pbem.games.hare_tortoise.orders.model import Chain, RejectionKind
from pbem.games.hare_tortoise.orders.parser import (
    LIMITS,
    MAX_ALTERNATIVES,
    MAX_CONDITION_DEPTH,
    MAX_CONDITION_TESTS,
    MAX_LINE_LENGTH,
    MAX_NUMBER_DIGITS,
    OrderLineError,
    parse_order_line,
    parse_sheet,
)

PLAYERS = ["Ann", "Bob", "Cyd"]
LONG_LINES = replace(LIMITS, line_length=10**7)


def rejection(line: str, players: list[str] = PLAYERS, limits: parser.OrderLimits = LIMITS) -> OrderLineError:
    with pytest.raises(OrderLineError) as caught:
        parse_order_line(line, players, limits)
    return caught.value


def accepted(line: str) -> str:
    return str(parse_order_line(line, PLAYERS).value)


# -- limits ------------------------------------------------------------------------------

def test_the_limits_are_the_documented_ones() -> None:
    assert (MAX_LINE_LENGTH, MAX_ALTERNATIVES, MAX_CONDITION_DEPTH, MAX_CONDITION_TESTS, MAX_NUMBER_DIGITS) == (
        500, 16, 12, 32, 4)


def test_line_length() -> None:
    line = "MOVE: NEXT" + " " * (MAX_LINE_LENGTH - 20) + " ELSE BACK"
    assert len(line) == MAX_LINE_LENGTH and accepted(line) == "NEXT ELSE BACK"
    err = rejection(line + "!")
    assert (err.column, err.kind) == (MAX_LINE_LENGTH + 1, RejectionKind.INVALID)
    assert err.reason == f"the line is {MAX_LINE_LENGTH + 1} characters long; an order line may have at most 500"


def test_alternatives_per_chain() -> None:
    assert accepted("MOVE: " + " ELSE ".join(["NEXT"] * MAX_ALTERNATIVES)).count("NEXT") == MAX_ALTERNATIVES
    err = rejection("MOVE: " + " ELSE ".join(["NEXT"] * 16 + ["BACK"]))
    assert err.column == len("MOVE: " + "NEXT ELSE " * 16) + 1
    assert err.reason == "the chain has more than 16 alternatives (IF … THEN … ELSE …); at most 16 are allowed"


@pytest.mark.parametrize(
    ("condition", "levels"),
    [
        ("NOT " * 12 + "RANK = 1", 12),
        ("(" * 12 + "RANK = 1" + ")" * 12, 12),
        ("NOT (" * 6 + "RANK = 1" + ")" * 6, 12),
        (" OR ".join(["RANK = 1"] * 30), 1),  # a run of ORs is one level
        ("RANK = 1 AND RANK = 2 OR RANK = 3 AND RANK = 4", 2),
        ("NOT (RANK = 1 AND (RANK = 2 OR NOT RANK = 3))", 6),
    ],
)
def test_condition_depth_counts_not_brackets_and_runs_of_and_or(condition: str, levels: int) -> None:
    line = f"MOVE: IF {condition} THEN NEXT"
    assert parse_order_line(line, PLAYERS, replace(LIMITS, condition_depth=levels))
    err = rejection(line, limits=replace(LIMITS, condition_depth=levels - 1))
    assert err.reason == f"the condition nests more than {levels - 1} levels of NOT, AND, OR and brackets"


def test_too_deep_a_condition_is_rejected_where_it_gets_too_deep() -> None:
    err = rejection("MOVE: IF " + "NOT " * 13 + "RANK = 1 THEN NEXT")
    assert err.column == len("MOVE: IF " + "NOT " * 12) + 1
    assert err.reason == "the condition nests more than 12 levels of NOT, AND, OR and brackets"
    assert err.kind is RejectionKind.INVALID


def test_tests_per_condition_are_counted_per_alternative() -> None:
    many = " OR ".join(["RANK=1"] * MAX_CONDITION_TESTS)
    both = parse_order_line(f"MOVE: IF {many} THEN NEXT ELSE IF {many} THEN BACK", PLAYERS, LONG_LINES)
    assert str(both.value).count("RANK") == 2 * MAX_CONDITION_TESTS
    err = rejection(f"MOVE: IF {many} OR I AM LAST THEN NEXT")
    assert err.column == len(f"MOVE: IF {many} OR ") + 1
    assert err.reason == "the condition has more than 32 tests (SQUARE … IS FREE, RANK = …); split it over alternatives"


def test_numbers_have_at_most_four_digits() -> None:
    assert accepted("MOVE: ADVANCE 9999 ELSE TO 0064") == "ADVANCE 9999 ELSE HOME"
    err = rejection("MOVE: ADVANCE 12345")
    assert (err.column, err.reason, err.kind) == (
        15, "the number 12345 is too long: numbers in orders have at most 4 digits", RejectionKind.INVALID)
    err = rejection("MOVE: ADVANCE " + "7" * 5000, limits=LONG_LINES)
    assert err.reason == "the number 77777777… is too long: numbers in orders have at most 4 digits"
    sheet = parse_sheet("MOVE: IF CARROTS > " + "1" * 5000 + " THEN NEXT", PLAYERS)  # once a ValueError at intake
    assert len(sheet.rejected) == 1 and sheet.moves[0].chain is None


@pytest.mark.parametrize(
    "condition",
    [
        "NOT " * 250 + "RANK = 1",
        "NOT " * 1000 + "RANK = 1",
        "(" * 1000 + "RANK = 1" + ")" * 1000,
        "NOT (RANK = 1 AND " * 1000 + "CARROTS > 5" + ")" * 1000,
        "(I AM FIRST OR " * 1000 + "I AM LAST" + ")" * 1000,
        " AND ".join(["RANK = 1"] * 1000),
    ],
    ids=["250 NOT", "1000 NOT", "1000 brackets", "1000 NOT-AND", "1000 OR", "1000 AND"],
)
def test_deep_and_wide_conditions_are_rejected_never_a_recursion_error(condition: str) -> None:
    line = f"MOVE: IF {condition} THEN NEXT"
    sheet = parse_sheet(line, PLAYERS)
    assert len(sheet.rejected) == 1 and sheet.moves[0].chain is None
    # each limit holds on its own: without the line-length limit, depth or tests still reject
    err = rejection(line, limits=LONG_LINES)
    assert err.reason.startswith(("the condition nests more than 12", "the condition has more than 32"))


# -- kinds of rejection ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("MOVE: IF CARROTS > 5 TO 5", RejectionKind.INVALID),
        ("MOVE: SQAURE 5 IS FREE", RejectionKind.INVALID),
        ("MOVE: TO 5 $", RejectionKind.INVALID),
        ("MOVE: IF I AM FIRST THEN", RejectionKind.INVALID),
        ("MOVE: IF Zed IS HOME THEN BACK", RejectionKind.INVALID),
        ("MOVE: NEXT CARROT 3", RejectionKind.INVALID),
        ("MOVE: TO 70", RejectionKind.ILLEGAL),
        ("MOVE: IF MY SQUARE > 65 THEN BACK", RejectionKind.ILLEGAL),
        ("MOVE: NEXT NUMBER 7", RejectionKind.ILLEGAL),
        ("MOVE: STAY +20", RejectionKind.ILLEGAL),
    ],
)
def test_every_rejection_has_a_kind(line: str, kind: RejectionKind) -> None:
    err = rejection(line)
    assert err.kind is kind
    assert [(r.column, r.reason) for r in parse_sheet(line, PLAYERS).rejected] == [(err.column, err.reason)]


def test_a_name_two_seats_answer_to_is_ambiguous() -> None:
    err = rejection("MOVE: IF ann IS ON 5 THEN NEXT", ["Ann", "ANN", "Bob"])
    assert (err.column, err.kind, err.reason) == (10, RejectionKind.AMBIGUOUS, "Ann could mean the seat Ann or ANN")


def test_rejection_kinds_read_as_words() -> None:
    assert [str(k) for k in RejectionKind] == ["invalid", "illegal", "ambiguous"]


# -- line classifiers: linear, and the same answers as before ----------------------------------

# The patterns the classifiers replaced: `\s*:?\s*` cost n² steps on `game` + n spaces + `!`.
OLD = {
    "_ORDER_WORD": re.compile(r"\s*(move|default|hare)(?![a-z])", re.IGNORECASE),
    "_MOVE_NUMBER": re.compile(r"\s*move\s*(\d+)", re.IGNORECASE),
}
pieces = st.sampled_from([" ", "  ", "\t", "\n", ":", "-", "--", ".", "_", "!", "move", "MOVE", "game", "Turn", "secret",
                          "default", "hare", "x", "7", "12", "race-7", "#", "é", "\u00a0"])


def test_no_classifier_can_backtrack_over_whitespace() -> None:
    for name in OLD:
        pattern = getattr(parser, name).pattern
        assert not re.search(r"\\s[*+](?![+])", pattern), f"{name}: every whitespace run must be possessive"


@settings(max_examples=500, database=None, deadline=None)
@given(text=st.lists(pieces, max_size=10).map("".join))
def test_the_linear_classifiers_answer_as_the_old_patterns(text: str) -> None:
    for name, old in OLD.items():
        new = getattr(parser, name)
        for method in ("match", "fullmatch"):
            a, b = getattr(old, method)(text), getattr(new, method)(text)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), (name, method, text)


@pytest.mark.parametrize(
    "line",
    ["move{}!", "game{}x!", "turn{}:{}7!", "secret{}", "--{}", "default{}:{}next{}~", "hare{}", "x{}"],
)
def test_a_million_spaces_anywhere_is_just_a_long_line(line: str) -> None:
    """Each of these once took hours (n² regex steps); now it is one pass over the line."""
    body = line.replace("{}", " " * 1_000_000)
    sheet = parse_sheet(body, PLAYERS)
    assert len(sheet.rejected) + len(sheet.ignored) + len(sheet.accepted) <= 1
    for r in sheet.rejected:
        assert isinstance(r.kind, RejectionKind)


def test_accepted_chains_are_chains() -> None:
    assert isinstance(parse_order_line("DEFAULT: IF (RANK = 1) THEN NEXT", PLAYERS).value, Chain)
