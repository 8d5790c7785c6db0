"""The current time, which a GM (or a test, or the demo) can pin with $PBEM_NOW."""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.errors import PbemError


def parse_moment(text: str) -> datetime:
    """An ISO date and time, optionally followed by a time zone name; without a zone it is UTC."""
    value, _, zone_name = text.strip().rpartition(" ")
    zone: tzinfo = timezone.utc
    if value and ("/" in zone_name or zone_name.upper() == "UTC"):
        try:
            zone = timezone.utc if zone_name.upper() == "UTC" else ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            raise PbemError(f"unknown time zone {zone_name!r} in {text!r} (e.g. Europe/London)") from None
    else:
        value = text.strip()
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise PbemError(
            f"{text!r} is not a date and time; write it like 2026-11-27 18:00, 2026-11-27 18:00 Europe/London "
            "or 2026-11-27T18:00+01:00"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return moment.astimezone(timezone.utc)


def now() -> datetime:
    pinned = os.environ.get("PBEM_NOW")
    if pinned:
        return parse_moment(pinned)
    return datetime.now(timezone.utc).replace(microsecond=0)


_SPAN = re.compile(r"(?:(\d+)\s*w)?\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?", re.IGNORECASE)


def parse_span(text: str) -> timedelta | None:
    """'7d', '72h', '1w', '3d12h' as a time span; None if `text` is not one."""
    m = _SPAN.fullmatch(text.strip())
    if not m or not any(m.groups()):
        return None
    w, d, h, mins = (int(g) if g else 0 for g in m.groups())
    return timedelta(weeks=w, days=d, hours=h, minutes=mins)


_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EVERY = re.compile(
    r"every\s+(day|" + "|".join(_DAYS) + r")\s+(\d{1,2}):(\d{2})(?:\s+(\S+))?", re.IGNORECASE
)


class Schedule:
    """When turns are due: a span after each resolution, a weekly or daily time, or one moment."""

    def __init__(self, text: str) -> None:
        self.text = text.strip()
        self.span = parse_span(self.text)
        self.every = _EVERY.fullmatch(self.text)
        self.moment: datetime | None = None
        if self.span is None and self.every is None:
            self.moment = parse_moment(self.text)
        if self.every is not None and self.every.group(4):
            from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

            try:
                ZoneInfo(self.every.group(4))
            except (ZoneInfoNotFoundError, ValueError):
                raise PbemError(f"unknown time zone {self.every.group(4)!r} in {text!r} (e.g. Europe/London)") from None
        if self.span is not None and self.span.total_seconds() <= 0:
            raise PbemError("a deadline span must be longer than zero")

    def first(self, start: datetime) -> datetime:
        if self.moment is not None:
            return self.moment
        return self.next_after(start)  # type: ignore[return-value]

    def next_after(self, moment: datetime) -> datetime | None:
        """The deadline of the turn that opens at `moment` (None: a one-off deadline has passed)."""
        if self.span is not None:
            return moment + self.span
        if self.every is None:
            return None
        from zoneinfo import ZoneInfo

        day, hour, minute, zone = self.every.groups()
        tz = ZoneInfo(zone) if zone else timezone.utc
        local = moment.astimezone(tz)
        for ahead in range(0, 9):
            date = (local + timedelta(days=ahead)).date()
            if day.lower() != "day" and _DAYS[date.weekday()] != day.lower():
                continue
            candidate = datetime(date.year, date.month, date.day, int(hour), int(minute), tzinfo=tz)
            if candidate > local:
                return candidate.astimezone(timezone.utc)
        raise PbemError(f"cannot place the next deadline of {self.text!r}")  # pragma: no cover
