"""A deadline as an iCalendar event (RFC 5545), attached to every mail that states one."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timezone


@dataclass(frozen=True)
class Deadline:
    """A deadline to put in the reader's calendar: what is due, when, and where to send it."""

    game: str
    turn: int
    due: datetime
    moderator: str
    #: the moment the mail was written (DTSTAMP): the same mail gives the same bytes
    stamp: datetime

    @property
    def filename(self) -> str:
        return f"{self.game}-turn-{self.turn}-deadline.ics"


def _utc(moment: datetime) -> str:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)
    return aware.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def ics(deadline: Deadline) -> str:
    """The event: one VEVENT at the deadline, with an alarm a day before. Its UID is stable for
    (game, turn), so a calendar program updates the event when a new deadline comes."""
    uid = hashlib.sha256(f"{deadline.game}/{deadline.turn}".encode()).hexdigest()[:24]
    domain = deadline.moderator.partition("@")[2] or "pbem.invalid"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//pbem//deadline//EN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        f"UID:{uid}@{domain}",
        f"DTSTAMP:{_utc(deadline.stamp)}",
        f"DTSTART:{_utc(deadline.due)}",
        f"DTEND:{_utc(deadline.due)}",
        f"SUMMARY:{_escape(f'{deadline.game}: turn {deadline.turn} orders due')}",
        f"DESCRIPTION:{_escape(f'Send your orders for turn {deadline.turn} to {deadline.moderator}.')}",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-P1D",
        f"DESCRIPTION:{_escape(f'{deadline.game}: orders due in a day')}",
        "END:VALARM",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "\r\n".join(lines) + "\r\n"
