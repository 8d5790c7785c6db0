"""Deadlines: moments, spans and weekly schedules, all kept in UTC."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.clock import Schedule, parse_moment, parse_span, require_span
from pbem.errors import PbemError

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "utc"),
    [
        ("2026-12-01", datetime(2026, 12, 1, 0, 0, tzinfo=UTC)),
        ("2026-12-01 18:00", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("2026-06-01 18:00 Europe/London", datetime(2026, 6, 1, 17, 0, tzinfo=UTC)),
        ("2026-12-01T18:00+01:00", datetime(2026, 12, 1, 17, 0, tzinfo=UTC)),
        ("2026-12-01T18:00:00Z", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
    ],
)
def test_moments(text: str, utc: datetime) -> None:
    assert parse_moment(text) == utc


def test_bad_moments_say_how_to_write_them() -> None:
    with pytest.raises(PbemError, match="write it like 2026-11-27 18:00"):
        parse_moment("next friday")
    with pytest.raises(PbemError, match="unknown time zone 'Mars/Olympus'"):
        parse_moment("2026-12-01 18:00 Mars/Olympus")


def test_schedules() -> None:
    start = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # a Sunday
    weekly = Schedule("every Friday 18:00 Europe/London")
    assert weekly.first(start) == datetime(2026, 11, 27, 18, 0, tzinfo=UTC)
    assert weekly.next_after(datetime(2026, 11, 27, 18, 1, tzinfo=UTC)) == datetime(2026, 12, 4, 18, 0, tzinfo=UTC)
    assert Schedule("every day 20:00").first(start) == datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
    assert Schedule("7d").first(start) == datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert Schedule("36h").next_after(start) == datetime(2026, 11, 24, 0, 0, tzinfo=UTC)
    once = Schedule("2026-12-01 10:00")
    assert once.first(start) == datetime(2026, 12, 1, 10, 0, tzinfo=UTC) and once.next_after(start) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("99999999d", "too long: at most 3650d"),
        ("9999999999999999999999w", "too long"),
        ("every Friday 25:00", "25:00 in 'every Friday 25:00' is not a time of day"),
        ("every Friday 18:61", "18:61 .* is not a time of day: write hours 00-23 and minutes 00-59"),
        ("every Friday 18:00 America", "unknown time zone 'America'"),
        ("every Friday 18:00 Etc", "unknown time zone 'Etc'"),
        ("every Friday 18:00 " + "x" * 300, r"unknown time zone 'x{57}\.\.\.'"),
        ("2026-12-01 18:00 America", "unknown time zone 'America'.*such as Europe/London"),
        ("2026-12-01 18:00 " + "Europe/" * 50, "unknown time zone"),
        ("nan", "not a span pbem takes; write a span as whole weeks"),
        ("-inf", "not a span pbem takes"),
        ("-7d", "not a span pbem takes"),
        ("1.5d", "not a span pbem takes"),
        ("0d", "must be longer than zero"),
        ("9999-12-31 23:00-05:00", "outside the calendar"),
    ],
)
def test_bad_deadlines_are_errors_that_say_how_to_write_them(text: str, message: str) -> None:
    with pytest.raises(PbemError, match=message):
        Schedule(text).first(datetime(2026, 11, 22, 12, 0, tzinfo=UTC))


def test_a_deadline_past_the_year_9999_is_an_error() -> None:
    with pytest.raises(PbemError, match="falls past the year 9999"):
        Schedule("3650d").next_after(datetime(9999, 6, 1, tzinfo=UTC))
    with pytest.raises(PbemError, match="falls past the year 9999"):
        Schedule("every day 18:00").next_after(datetime(9999, 12, 31, 19, 0, tzinfo=UTC))


@pytest.mark.parametrize("text", ["7d", "3d12h", "90m", "1w", "3650d"])
def test_spans_up_to_ten_years_are_taken(text: str) -> None:
    assert require_span(text) > timedelta(0)


@pytest.mark.parametrize(("text", "message"), [("nan", "is not a span"), ("-6h", "is not a span"),
                                               ("0h", "longer than zero"), ("99999999d", "too long")])
def test_require_span_refuses_what_is_not_a_positive_span(text: str, message: str) -> None:
    with pytest.raises(PbemError, match=message):
        require_span(text)
    assert parse_span("6h") == timedelta(hours=6) and parse_span("soon") is None
