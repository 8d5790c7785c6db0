"""The current time, which a GM (or a test, or the demo) can pin with $PBEM_NOW."""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.errors import PbemError

#: The longest span pbem accepts: anything longer is a typo, and would overflow datetime's range.
MAX_SPAN = timedelta(days=3650)
_SPAN_HELP = "write a span as whole weeks, days, hours and minutes: 7d, 72h, 1w, 3d12h or 90m"


def _short(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters for an error message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def find_zone(name: str, text: str | None = None) -> tzinfo:
    """The time zone called `name` (an IANA name such as Europe/London, or UTC).

    Raises PbemError, never OSError: a folder of the zone database (`America`, `Etc`) and a name
    too long for a file name are unknown zones like any other."""
    if name.upper() == "UTC":
        return timezone.utc
    where = f" in {_short(text)!r}" if text is not None and text != name else ""
    try:
        if len(name) > 64:  # the longest IANA name is 32 characters; the file system's limit is 255
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise PbemError(
            f"unknown time zone {_short(name)!r}{where}: name one from the IANA time zone database, "
            "such as Europe/London, America/New_York or UTC"
        ) from None


def _iso(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def parse_moment(text: str) -> datetime:
    """An ISO date and time, optionally followed by a time zone name; without a zone it is UTC."""
    value, _, zone_name = text.strip().rpartition(" ")
    zone: tzinfo = timezone.utc
    moment = _iso(value) if value and zone_name[:1].isalpha() else None
    if moment is not None:
        zone = find_zone(zone_name, text)
    else:
        moment = _iso(text)
    if moment is None:
        raise PbemError(
            f"{text!r} is not a date and time; write it like 2026-11-27 18:00, 2026-11-27 18:00 Europe/London "
            "or 2026-11-27T18:00+01:00"
        )
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    try:
        return moment.astimezone(timezone.utc)
    except OverflowError:
        raise PbemError(f"{text!r} is outside the calendar pbem can count in (years 1 to 9999)") from None


def utc(moment: datetime) -> datetime:
    """`moment` with its zone: a database column may drop it (SQLite does), and pbem keeps UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def show_utc(moment: datetime | None) -> str:
    """A moment as the GM's tools write it."""
    return "none set" if moment is None else utc(moment).strftime("%Y-%m-%d %H:%M UTC")


def now() -> datetime:
    pinned = os.environ.get("PBEM_NOW")
    if pinned:
        return parse_moment(pinned)
    return datetime.now(timezone.utc).replace(microsecond=0)


_SPAN = re.compile(r"(?:(\d+)\s*w)?\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?", re.IGNORECASE)
# What a span that pbem does not take looks like: signed, fractional, in seconds, nan or inf.
_SPAN_LIKE = re.compile(
    r"[-+]?\s*(?:nan|inf|infinity)"
    r"|-\s*\d*\.?\d+"
    r"|(?:[-+]?\s*\d*\.?\d+\s*(?:weeks?|w|days?|d|hours?|h|minutes?|mins?|m|seconds?|secs?|s)\s*)+",
    re.IGNORECASE,
)


def parse_span(text: str) -> timedelta | None:
    """'7d', '72h', '1w', '3d12h' as a time span; None if `text` is not one.

    Raises PbemError for a span longer than MAX_SPAN (e.g. 99999999d)."""
    m = _SPAN.fullmatch(text.strip())
    if not m or not any(m.groups()):
        return None
    w, d, h, mins = (int(g) if g else 0 for g in m.groups())
    too_long = PbemError(f"the span {text.strip()!r} is too long: at most {MAX_SPAN.days}d (ten years)")
    if max(w, d, h, mins) > 10**9:
        raise too_long
    try:
        span = timedelta(weeks=w, days=d, hours=h, minutes=mins)
    except OverflowError:
        raise too_long from None
    if span > MAX_SPAN:
        raise too_long
    return span


def require_span(text: str, what: str = "a span") -> timedelta:
    """`text` as a span longer than zero, or PbemError saying how to write one."""
    span = parse_span(text)
    if span is None:
        raise PbemError(f"{what} {text.strip()!r} is not a span; {_SPAN_HELP}")
    if span <= timedelta(0):
        raise PbemError(f"{what} {text.strip()!r} must be longer than zero; {_SPAN_HELP}")
    return span


def looks_like_span(text: str) -> bool:
    """True for text meant as a span that is not one pbem takes: '-7d', '1.5d', '30s', 'nan'."""
    return _SPAN_LIKE.fullmatch(text.strip()) is not None


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
        self.zone: tzinfo = timezone.utc
        if self.span is None and self.every is None:
            if looks_like_span(self.text):
                raise PbemError(f"the deadline {self.text!r} is not a span pbem takes; {_SPAN_HELP}")
            self.moment = parse_moment(self.text)
        if self.every is not None:
            hour, minute, zone = int(self.every.group(2)), int(self.every.group(3)), self.every.group(4)
            if hour > 23 or minute > 59:
                raise PbemError(f"{self.every.group(2)}:{self.every.group(3)} in {self.text!r} is not a time of "
                                "day: write hours 00-23 and minutes 00-59, e.g. every Friday 18:00")
            if zone:
                self.zone = find_zone(zone, self.text)
        if self.span is not None and self.span <= timedelta(0):
            raise PbemError(f"a deadline span must be longer than zero, not {self.text!r}; {_SPAN_HELP}")

    def first(self, start: datetime) -> datetime:
        if self.moment is not None:
            return self.moment
        return self.next_after(start)  # type: ignore[return-value]

    def next_after(self, moment: datetime) -> datetime | None:
        """The deadline of the turn that opens at `moment` (None: a one-off deadline has passed)."""
        try:
            return self._next_after(moment)
        except OverflowError:
            raise PbemError(f"the deadline {self.text!r} after {moment:%Y-%m-%d %H:%M} falls past the year 9999; "
                            "give the game a nearer deadline") from None

    def _next_after(self, moment: datetime) -> datetime | None:
        if self.span is not None:
            return moment + self.span
        if self.every is None:
            return None
        day = self.every.group(1).lower()
        hour, minute = int(self.every.group(2)), int(self.every.group(3))
        local = moment.astimezone(self.zone)
        for ahead in range(0, 9):
            date = (local + timedelta(days=ahead)).date()
            if day != "day" and _DAYS[date.weekday()] != day:
                continue
            candidate = datetime(date.year, date.month, date.day, hour, minute, tzinfo=self.zone)
            if candidate > local:
                return candidate.astimezone(timezone.utc)
        raise PbemError(f"cannot place the next deadline of {self.text!r}")  # pragma: no cover
