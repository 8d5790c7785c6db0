"""The store: every table pbem keeps, and every query it makes (sqlmodel over SQLite or PostgreSQL).

By job: `rows` (the tables), `engine` (opening the database), and the parts of the `Store` —
`games` (games, players, events), `messages` (inbound mail), `sheets` (orders in force), `turns`,
`outbox` (the outgoing mail queue) and `cursors` (how far each IMAP folder is read)."""

from __future__ import annotations

from pbem.mail.kinds import MailKind
from pbem.store.cursors import ImapCursors
from pbem.store.engine import SQLITE_BUSY_TIMEOUT, open_engine, sqlite_busy_timeout
from pbem.store.games import Games
from pbem.store.messages import Messages
from pbem.store.outbox import REPLY_KINDS, Outbox
from pbem.store.rows import (
    EventKind,
    EventRow,
    GameRow,
    ImapCursorRow,
    MailBodyRow,
    MailRow,
    MailStatus,
    MessageRow,
    MessageStatus,
    PlayerRow,
    SheetRow,
    TurnRow,
    UndoneTurnRow,
    utcnow,
)
from pbem.store.sheets import Sheets
from pbem.store.turns import Turns

__all__ = [
    "REPLY_KINDS", "SQLITE_BUSY_TIMEOUT", "EventKind", "EventRow", "GameRow", "ImapCursorRow", "MailBodyRow",
    "MailKind", "MailRow", "MailStatus", "MessageRow", "MessageStatus", "PlayerRow", "SheetRow", "Store", "TurnRow",
    "UndoneTurnRow", "open_engine", "sqlite_busy_timeout", "utcnow",
]


class Store(Games, Messages, Sheets, Turns, Outbox, ImapCursors):
    """Opens the database and answers every question the moderator asks of it."""


# the club's tables (people, open games, tournaments) join the metadata with the store's own
from pbem.club import rows as _club_rows  # noqa: E402,F401
