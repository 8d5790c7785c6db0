"""The tables pbem keeps: one SQLModel row class per table, and the states their rows go through.

Every column added after the first release says which migration brought it (pbem/migrations)."""

from __future__ import annotations

import enum
from datetime import datetime, timezone

from sqlalchemy import BigInteger, Column, LargeBinary, Text, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlmodel import Field, SQLModel

from pbem.store_peek import GAME_TABLE


class MessageStatus(enum.StrEnum):
    """Where an inbound message stands: stored, or what its pipeline decided."""

    NEW = "new"  # stored; its pipeline has not finished
    ACCEPTED = "accepted"
    ANSWERED = "answered"  # a command (SEND SECRET) was answered
    REFUSED = "refused"
    IGNORED = "ignored"  # automatic mail: never answered
    QUARANTINED = "quarantined"  # a step crashed; kept with its traceback


class MailStatus(enum.StrEnum):
    QUEUED = "queued"
    SENDING = "sending"  # claimed by a sender
    SENT = "sent"
    FAILED = "failed"  # for good: a 5xx answer, a bounce, or days of temporary failures


def utcnow() -> datetime:
    """Now, in UTC, to the second: what every row's time stamps hold."""
    return datetime.now(timezone.utc).replace(microsecond=0)


class GameRow(SQLModel, table=True):
    __tablename__ = GAME_TABLE
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    game: str
    rules: str
    # Since migration 0010 the seed is text (64 hex digits for a new game, the decimal number of an
    # older one) and `generator` names the chance source it keys: "legacy" for the games that
    # predate it, so they replay as they were (pbem/games/chance.py, `game_chance`).
    seed: str
    generator: str = Field(default="hmac-sha256", sa_column_kwargs={"server_default": "legacy"})
    state: str = Field(sa_column=Column(Text, nullable=False))  # JSON of the position before `turn`
    turn: int = 1
    over: bool = False
    deadline: datetime | None = None  # of the current turn, UTC
    interval_seconds: int | None = None  # unused since `schedule` (0003); kept so older databases still match
    schedule: str = Field(default="", sa_column_kwargs={"server_default": ""})  # the deadline rule
    # resolve once all orders are in
    early: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    created_at: datetime = Field(default_factory=utcnow)
    # Since migration 0005: the game's options (JSON list) and the draws made at set-up (JSON).
    options: str = Field(default="[]", sa_column_kwargs={"server_default": "[]"})
    setup_chance: str = Field(default="[]", sa_column_kwargs={"server_default": "[]"})
    # Since migration 0008: deadlines stopped by `pbem pause`; whether PRESS is relayed; the GM's
    # declared result of a game ended by `pbem end` ("" until then).
    paused: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    press: bool = Field(default=True, sa_column_kwargs={"server_default": sa_true()})
    result: str = Field(default="", sa_column_kwargs={"server_default": ""})


class PlayerRow(SQLModel, table=True):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: int
    name: str
    email: str = Field(index=True)
    secret: str
    timezone: str = "UTC"
    # Since migration 0005: the seat's team ("" for none) and a computer player's level ("" for a person,
    # who then has an email address; a computer player has none).
    team: str = Field(default="", sa_column_kwargs={"server_default": ""})
    bot: str = Field(default="", sa_column_kwargs={"server_default": ""})
    # Since migration 0006: why mail to this address bounced ("" while it does not).
    bouncing: str = Field(default="", sa_column_kwargs={"server_default": ""})
    # Since migration 0008: the turn the seat's present holder took it over (1: from the start;
    # missed turns are charged per tenure), and the VACATION days used.
    since_turn: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    vacation_days: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # Since migration 0010: every VACATION span, JSON [["2026-12-01", "2026-12-05"], ...] (first and
    # last day); `pbem.commands` reads and writes it.
    away: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))
    # Since migration 0013: the level of the computer sitter a person named for the seat ("" for
    # none): it writes her sheet while she is away and when a deadline passes without it.
    sitter: str = Field(default="", sa_column_kwargs={"server_default": ""})


class MessageRow(SQLModel, table=True):
    """An inbound message, stored raw before anything else happens to it."""

    __tablename__ = "message"
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)  # the Message-ID, or a digest when it has none
    received_at: datetime = Field(default_factory=utcnow)
    source: str = ""
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    sender: str = ""
    subject: str = ""
    status: str = Field(default=MessageStatus.NEW, index=True)  # a MessageStatus
    step: str = ""  # the pipeline step that decided (or crashed)
    reason: str = ""
    traceback: str = ""
    game_id: int | None = Field(default=None, foreign_key="game.id")
    player_id: int | None = Field(default=None, foreign_key="player.id")
    # Since migration 0006: a digest of the body (a known Message-ID with another body is another
    # mail), and whether the sender plays no game here (not answered unless the GM asks for it).
    digest: str = Field(default="", sa_column_kwargs={"server_default": ""})
    stranger: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})


class SheetRow(SQLModel, table=True):
    """A player's order sheet for a turn; the latest for (game, player, turn) is in force."""

    __tablename__ = "sheet"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    player_id: int = Field(foreign_key="player.id")
    turn: int
    message_id: int = Field(foreign_key="message.id")
    text: str = Field(sa_column=Column(Text, nullable=False))
    received_at: datetime = Field(default_factory=utcnow)
    current: bool = True
    # Since migration 0008: a STANDING sheet stays in force for later turns until another comes.
    standing: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})


class TurnRow(SQLModel, table=True):
    """A resolved turn: everything the reports are rendered from."""

    __tablename__ = "turn"
    __table_args__ = (UniqueConstraint("game_id", "turn"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    turn: int
    resolved_at: datetime
    deadline: datetime | None = None  # of the next turn
    before: str = Field(sa_column=Column(Text, nullable=False))
    after: str = Field(sa_column=Column(Text, nullable=False))
    resolutions: str = Field(sa_column=Column(Text, nullable=False))
    sheets: str = Field(sa_column=Column(Text, nullable=False))  # JSON {player: sheet text or null}
    dice: str = Field(sa_column=Column(Text, nullable=False))
    # Since migration 0008: 0 for a turn resolved once; n for the n-th resolution after rollbacks.
    correction: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class UndoneTurnRow(SQLModel, table=True):
    """A resolved turn that `pbem rollback` undid: kept whole, never deleted (since 0008)."""

    __tablename__ = "undone_turn"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    turn: int
    correction: int
    resolved_at: datetime
    undone_at: datetime
    deadline: datetime | None = None
    before: str = Field(sa_column=Column(Text, nullable=False))
    after: str = Field(sa_column=Column(Text, nullable=False))
    resolutions: str = Field(sa_column=Column(Text, nullable=False))
    sheets: str = Field(sa_column=Column(Text, nullable=False))
    dice: str = Field(sa_column=Column(Text, nullable=False))


class EventKind(enum.StrEnum):
    """What the GM (or a player's command) did to a game besides orders."""

    REPLACE = "replace"
    PAUSE = "pause"
    RESUME = "resume"
    DEADLINE = "deadline"
    ROLLBACK = "rollback"
    EDIT = "edit"
    END = "end"
    VACATION = "vacation"
    PRESS = "press"
    PRESS_SWITCH = "press-switch"
    SUGGEST = "suggest"  # a player's SUGGEST, counted against the daily budget
    PREVIEW = "preview"  # a player's PREVIEW, likewise
    SITTER = "sitter"  # a computer sitter wrote a person's sheet (text: the level, then the sheet)
    SITTER_SET = "sitter-set"  # a person (or the GM) named a sitter for the seat, or none


class EventRow(SQLModel, table=True):
    """One recorded action on a game, shown in `pbem history` and, for edits, the next report."""

    __tablename__ = "game_event"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    turn: int  # the game's open turn when it happened
    kind: str  # an EventKind
    seat: int | None = None
    text: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = Field(default_factory=utcnow)


class MailRow(SQLModel, table=True):
    """An outgoing mail: queued in the same transaction as what caused it, sent afterwards."""

    __tablename__ = "mail"
    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True)
    game_id: int | None = Field(default=None, foreign_key="game.id")
    turn: int | None = None
    kind: str  # a MailKind
    recipient: str = Field(index=True)
    subject: str
    created_at: datetime = Field(default_factory=utcnow)
    status: str = Field(default=MailStatus.QUEUED, index=True)  # a MailStatus
    attempts: int = 0  # claims (Store.claim_mails) and deliveries so far
    error: str = ""
    sent_at: datetime | None = None
    path: str = ""  # where the embedded transport wrote it
    # Since migration 0002: a sender claims a mail before sending it (see Store.claim_mails).
    claimed_by: str = Field(default="", sa_column_kwargs={"server_default": ""})  # "" when nobody has it
    claimed_at: datetime | None = None
    next_attempt_at: datetime | None = None  # a queued mail waits until then (after a failed attempt)


class MailBodyRow(SQLModel, table=True):
    """An outgoing mail's bytes (since migration 0009), apart from its delivery state: SQLite
    writes a row whole when one of its values changes size, and a report is 60 kB."""

    __tablename__ = "mail_body"
    mail_id: int = Field(foreign_key="mail.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))


class ImapCursorRow(SQLModel, table=True):
    """How far an IMAP folder has been read: every message up to `last_uid` is taken in, as long
    as the folder's UIDVALIDITY is still `uidvalidity` (since migration 0006)."""

    __tablename__ = "imap_cursor"
    account: str = Field(primary_key=True)  # user@host
    folder: str = Field(primary_key=True)
    # UIDs and UIDVALIDITY are unsigned 32-bit numbers: more than a PostgreSQL integer holds
    uidvalidity: int = Field(sa_column=Column(BigInteger, nullable=False))
    last_uid: int = Field(sa_column=Column(BigInteger, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)

