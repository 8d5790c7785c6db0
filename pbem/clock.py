"""The current time, which a GM (or a test, or the demo) can pin with $PBEM_NOW."""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone

from pbem.errors import PbemError


def parse_moment(text: str) -> datetime:
    """An ISO date and time; without a zone it is UTC."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise PbemError(f"{text!r} is not a date and time; write it like 2026-11-27 18:00 or 2026-11-27T18:00+01:00") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
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


def parse_deadline(text: str, start: datetime) -> tuple[datetime, int | None]:
    """A deadline as given to new-game: a span ('7d': every turn gets 7 days) or a moment."""
    span = parse_span(text)
    if span is not None:
        if span.total_seconds() <= 0:
            raise PbemError("a deadline span must be longer than zero")
        return start + span, int(span.total_seconds())
    return parse_moment(text), None
