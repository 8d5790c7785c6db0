"""Deadlines: moments, spans and weekly schedules, all kept in UTC."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from pbem.clock import Schedule, parse_moment
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
