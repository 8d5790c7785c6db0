"""A line read once is known again (`parse_order_line` keeps what it read): the reading depends on
everything it is given — the seats, the limits and, in the two-player game, whose runners — so
the same text read for another game or another author is read anew."""

from __future__ import annotations

import pytest

from pbem.games.hare_tortoise.orders.parser import LIMITS, OrderLineError, TwoPlayer, parse_order_line

RUNNERS = ("Ann1", "Ann2", "Bob1", "Bob2")
ANN = TwoPlayer(RUNNERS, (0, 1), ("Ann", "Bob"))
BOB = TwoPlayer(RUNNERS, (2, 3), ("Ann", "Bob"))


def _reason(text: str, players: tuple[str, ...], two: TwoPlayer | None = None) -> str:
    with pytest.raises(OrderLineError) as err:
        parse_order_line(text, players, LIMITS, two)
    return err.value.reason


def test_the_same_line_for_another_author_is_read_anew() -> None:
    line = "MOVE: ANN1 TO 5"
    taken = parse_order_line(line, ("Ann", "Bob"), LIMITS, ANN)
    assert parse_order_line(line, ("Ann", "Bob"), LIMITS, ANN) is taken  # known again
    assert "another player's runner" in _reason(line, ("Ann", "Bob"), BOB)
    assert _reason(line, ("Ann", "Bob"))  # not the two-player game: ANN1 is no action


def test_the_same_line_for_other_seats_is_read_anew() -> None:
    line = "MOVE: IF CYD IS ON 5 THEN TO 7 ELSE NEXT"
    assert parse_order_line(line, ("Ann", "Bob", "Cyd"), LIMITS).kind == "move"
    assert "Cyd" in _reason(line, ("Ann", "Bob")) or "cyd" in _reason(line, ("Ann", "Bob"))


def test_a_rejected_line_is_rejected_again_with_the_same_words() -> None:
    line = "MOVE: TO TO 5"
    first = _reason(line, ("Ann", "Bob"))
    assert _reason(line, ("Ann", "Bob")) == first
