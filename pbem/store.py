"""The store: every table pbem keeps, and every query it makes (sqlmodel over SQLite or PostgreSQL)."""

from __future__ import annotations

import enum
import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    LargeBinary,
    Text,
    UniqueConstraint,
    and_,
    bindparam,
    case,
    event,
    exists,
    insert,
    or_,
    update,
)
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection, CursorResult, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from pbem import migrations

try:
    import fcntl
except ImportError:  # not POSIX: SQLite's own busy handler alone
    fcntl = None  # type: ignore[assignment]
from pbem.errors import PbemError
from pbem.mail.kinds import MailKind


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


#: the mails that answer a mail, so that whoever writes it can make more: counted in the replies' hourly limit
REPLY_KINDS = (MailKind.ACK, MailKind.REFUSAL, MailKind.ANSWER, MailKind.SECRET, MailKind.SUGGESTION)


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
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


def message_key(message_id: str | None, raw: bytes) -> str:
    """The dedupe key of an inbound message: its Message-ID, or a digest of the bytes."""
    if message_id and message_id.strip():
        return message_id.strip()
    return "sha256:" + hashlib.sha256(raw).hexdigest()


def _utc(moment: datetime) -> datetime:
    """An aware UTC moment; a naive one is taken to be UTC already."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)


#: seconds a SQLite statement waits for another process's write lock before "database is locked"
SQLITE_BUSY_TIMEOUT = 10.0


def sqlite_busy_timeout(url: str) -> float:
    """The SQLite busy timeout in seconds: the URL's `timeout` query parameter (the name the
    sqlite3 driver gives it: sqlite:///pbem.sqlite?timeout=2), else SQLITE_BUSY_TIMEOUT."""
    value = make_url(url).query.get("timeout")
    if isinstance(value, tuple):
        value = value[-1]
    try:
        return float(value) if value is not None else SQLITE_BUSY_TIMEOUT
    except ValueError:
        raise PbemError(f"database url {url!r}: timeout={value!r} is not a number of seconds") from None


def _sqlite_pragmas(busy_timeout: float) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        cursor.execute("PRAGMA synchronous=FULL")  # every commit flushed to disk (Store.add_message relaxes one)
        cursor.close()

    return on_connect


def _postgres_session(dbapi_connection: Any, _record: Any) -> None:
    """Large values (the mails' and messages' raw bytes) compressed with LZ4 where the server
    has it (PostgreSQL 14 and later, built with lz4), not its default pglz: a report mail is
    mostly a base64 picture that pglz tries hard on and gives up, at 1.3 ms of the server's time
    per 60 kB; LZ4 takes a fifth of that and keeps more. Values already stored stay readable."""
    try:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SET default_toast_compression = 'lz4'")
        dbapi_connection.commit()
    except Exception:  # noqa: BLE001 - an older server, or one without lz4: its default then
        dbapi_connection.rollback()


_WRITES = ("insert", "update", "delete", "replace")


class _WriterTurns:
    """Writers of one SQLite file take turns on a file lock beside it (`<file>.lock`).

    SQLite lets one transaction write at a time; a second writer's busy handler sleeps in steps
    of up to 100 ms, so two workers sharing a store spent much of a wave asleep while the lock
    was long free. Here a connection takes the file lock (blocking, woken the moment it is
    free) before its first write, and lets it go when its transaction ends: the workers queue
    on it instead of polling. Taken only for writing: readers never wait, and a turn's picture
    and reports are drawn before its first write. Within one process the lock is shared by
    count (another connection of the same process waits on SQLite as before)."""

    def __init__(self, path: str) -> None:
        self.path = path + ".lock"
        self.fd: int | None = None
        self.pid = 0
        self.held: set[int] = set()  # ids of the DBAPI connections holding it

    def take(self, dbapi_connection: Any) -> None:
        key = id(getattr(dbapi_connection, "dbapi_connection", dbapi_connection))
        if key in self.held:
            return
        if self.pid != os.getpid():  # a forked worker opens its own descriptor
            self.fd, self.pid, self.held = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), os.getpid(), set()
        if not self.held:
            assert self.fd is not None
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        self.held.add(key)

    def give(self, dbapi_connection: Any) -> None:
        if self.pid != os.getpid():
            return
        key = id(getattr(dbapi_connection, "dbapi_connection", dbapi_connection))
        if key in self.held:
            self.held.discard(key)
            if not self.held and self.fd is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)


def _take_turns(engine: Engine, path: str) -> None:
    """Install `_WriterTurns` on a SQLite engine: taken before the first write statement of a
    transaction, given back once the DBAPI commit or rollback has returned."""
    turns = _WriterTurns(path)

    @event.listens_for(engine, "before_cursor_execute")
    def before(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        if statement.lstrip()[:7].lower().startswith(_WRITES):
            turns.take(conn.connection.dbapi_connection)

    dialect = engine.dialect
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def do_commit(dbapi_connection: Any) -> None:
        try:
            commit(dbapi_connection)
        finally:
            turns.give(dbapi_connection)

    def do_rollback(dbapi_connection: Any) -> None:
        try:
            rollback(dbapi_connection)
        finally:
            turns.give(dbapi_connection)

    dialect.do_commit = do_commit  # type: ignore[method-assign]
    dialect.do_rollback = do_rollback  # type: ignore[method-assign]

    @event.listens_for(engine, "close")
    def closed(dbapi_connection: Any, _record: Any) -> None:  # a connection closed mid-transaction
        turns.give(dbapi_connection)


def open_engine(url: str) -> Engine:
    """The engine for `url`; a PostgreSQL URL without its driver installed says how to install it."""
    try:
        return create_engine(url)
    except ImportError as err:
        if not url.startswith("postgres"):
            raise
        raise PbemError(
            f"the database URL needs a PostgreSQL driver that is not installed ({err}): "
            "pip install 'pbem[postgres]', and write the URL as postgresql+psycopg://user:password@host/dbname"
        ) from None


#: every column of a message but its number
_MESSAGE_COLUMNS = tuple(c.name for c in MessageRow.__table__.columns if c.name != "id")  # type: ignore[attr-defined]
#: what intake writes on a stored message (`Store.save_message`); the rest is as it came in
_MESSAGE_OUTCOME = ("sender", "subject", "status", "step", "reason", "traceback", "game_id", "player_id", "stranger")


class _Q:
    """The statements of the busiest questions, built once: building a statement costs about as
    much as running it (taking in a mail asks six of them; resolving a turn, a dozen). Their
    values come as parameters."""

    game = select(GameRow).where(GameRow.name == bindparam("name"))
    lock_game = game.execution_options(populate_existing=True)
    lock_game_for_update = lock_game.with_for_update()
    players = select(PlayerRow).where(PlayerRow.game_id == bindparam("game_id")).order_by(col(PlayerRow.seat))
    game_and_players = (select(GameRow, PlayerRow).join(PlayerRow, col(PlayerRow.game_id) == col(GameRow.id))
                        .where(GameRow.name == bindparam("name")).order_by(col(PlayerRow.seat)))
    current_sheets = select(SheetRow).where(SheetRow.game_id == bindparam("game_id"), SheetRow.turn == bindparam("turn"),
                                            SheetRow.current == True)  # noqa: E712
    current_sheet = (select(SheetRow.id, SheetRow.message_id)
                     .where(SheetRow.game_id == bindparam("game_id"), SheetRow.player_id == bindparam("player_id"),
                            SheetRow.turn == bindparam("turn"), SheetRow.current == True))  # noqa: E712
    retire_sheets = (update(SheetRow.__table__).where(col(SheetRow.id).in_(bindparam("ids", expanding=True)))  # type: ignore[attr-defined]
                     .values(current=False))
    current_sheet_message = select(SheetRow.message_id).where(
        SheetRow.game_id == bindparam("game_id"), SheetRow.player_id == bindparam("player_id"),
        SheetRow.turn == bindparam("turn"), SheetRow.current == True)  # noqa: E712
    # the turn it found is written back: a write (it takes the lock) that changes nothing
    claim_turn = update(GameRow).where(col(GameRow.id) == bindparam("game_id"), col(GameRow.turn) == bindparam("open"),
                                       col(GameRow.over) == sa_false()).values(turn=bindparam("open"))
    save_message = (update(MessageRow.__table__)  # type: ignore[attr-defined]
                    .where(col(MessageRow.id) == bindparam("message"), col(MessageRow.status) == bindparam("was"))
                    .values({name: bindparam(name) for name in _MESSAGE_OUTCOME}))
    pending_messages = select(col(MessageRow.id)).where(MessageRow.status == MessageStatus.NEW).order_by(col(MessageRow.id))
    sheets_in_force = select(col(SheetRow.id)).where(SheetRow.game_id == bindparam("game_id"), SheetRow.turn == bindparam("turn"),
                                                SheetRow.current == True)  # noqa: E712
    # the position is compared too: a resolution drawn from a position edited meanwhile is not written
    advance_turn = (update(GameRow.__table__)  # type: ignore[attr-defined]
                    .where(col(GameRow.id) == bindparam("game_id"), col(GameRow.turn) == bindparam("open"),
                           col(GameRow.over) == sa_false(), col(GameRow.state) == bindparam("before"))
                    .values(turn=col(GameRow.turn) + 1, state=bindparam("after"), over=bindparam("over"),
                            deadline=bindparam("deadline")))
    turn = select(TurnRow).where(TurnRow.game_id == bindparam("game_id"), TurnRow.turn == bindparam("turn"))
    insert_message_unless_known = (
        postgresql.insert(MessageRow.__table__)  # type: ignore[attr-defined]
        .from_select(_MESSAGE_COLUMNS, select(*(bindparam(c.name, type_=c.type) for c in MessageRow.__table__.columns  # type: ignore[attr-defined]
                                                if c.name in _MESSAGE_COLUMNS))
                     .where(~exists().where(col(MessageRow.message_id) == bindparam("message_id"))))
        .on_conflict_do_nothing(index_elements=["message_id"])
        .returning(col(MessageRow.id))
    )
    corrections = select(UndoneTurnRow.id).where(UndoneTurnRow.game_id == bindparam("game_id"),
                                                 UndoneTurnRow.turn == bindparam("turn"))
    sheets_since = select(SheetRow.id).where(SheetRow.game_id == bindparam("game_id"), SheetRow.turn == bindparam("turn"),
                                             SheetRow.received_at >= bindparam("since"))
    standing_sheet = (
        select(SheetRow).where(SheetRow.player_id == bindparam("player_id"), SheetRow.current == True,  # noqa: E712
                               SheetRow.turn < bindparam("before"), SheetRow.turn >= bindparam("since"))
        .order_by(col(SheetRow.turn).desc(), col(SheetRow.message_id).desc())
    )
    mail_exists = select(MailRow.id).where(MailRow.message_id == bindparam("message_id"))
    events = select(EventRow).where(EventRow.game_id == bindparam("game_id")).order_by(col(EventRow.id))
    events_of_kinds = (select(EventRow).where(EventRow.game_id == bindparam("game_id"),
                                              col(EventRow.kind).in_(bindparam("kinds", expanding=True)))
                       .order_by(col(EventRow.id)))


class _Insert:
    """One INSERT of a new row, at once, without the ORM's unit of work (taking in a mail writes
    three rows, resolving a turn eight: the unit of work cost more than the statements). The row
    comes back detached with its id, as if it had been loaded: a session it is added to later
    writes only what changes."""

    def __init__(self, model: type[SQLModel]) -> None:
        self.statement = insert(model.__table__)  # type: ignore[attr-defined]
        self.columns = tuple(c.name for c in model.__table__.columns if c.name != "id")  # type: ignore[attr-defined]
        self.many = self.statement.returning(model.__table__.c.id, sort_by_parameter_order=True)  # type: ignore[attr-defined]

    def __call__(self, bind: Session | Connection, row: Any) -> None:
        values = {name: getattr(row, name) for name in self.columns}
        result = (bind.connection() if isinstance(bind, Session) else bind).execute(self.statement, values)
        assert isinstance(result, CursorResult)
        row.id = result.inserted_primary_key[0]  # type: ignore[index]
        make_transient_to_detached(row)

    def all(self, session: Session, rows: Sequence[Any]) -> None:
        """Several rows in one statement (a turn's reports: one round trip to the server, not
        seven), their ids read back in order."""
        values = [{name: getattr(row, name) for name in self.columns} for row in rows]
        for row, (row_id,) in zip(rows, session.connection().execute(self.many, values), strict=True):
            row.id = row_id
            make_transient_to_detached(row)


_insert_message = _Insert(MessageRow)
_insert_sheet = _Insert(SheetRow)
_insert_mail = _Insert(MailRow)
_INSERT_BODY = insert(MailBodyRow.__table__)  # type: ignore[attr-defined]


class Store:
    """Opens the database and answers every question the moderator asks of it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = open_engine(url)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas(sqlite_busy_timeout(url)))
            database = self.engine.url.database
            if fcntl is not None and database and database != ":memory:" and not database.startswith("file:"):
                _take_turns(self.engine, database)
        elif self.engine.dialect.name == "postgresql":
            event.listen(self.engine, "connect", _postgres_session)
        self._relaxed: tuple[int, Engine] | None = None  # (its process, the engine): see _relaxed_engine

    def create(self) -> None:
        """Bring the database to the newest schema (alembic upgrade to head, see pbem.migrations):
        creates the tables of an empty one, stamps one made by pbem 0.1's create_all, and costs one
        query when it is up to date already."""
        migrations.upgrade(self.engine)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One transaction: committed at the end of the block, rolled back on error."""
        with Session(self.engine, expire_on_commit=False) as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    # games and players ---------------------------------------------------------------------
    def game(self, session: Session, name: str) -> GameRow:
        row = session.exec(_Q.game, params={"name": name}).first()
        if row is None:
            raise self._no_game(session, name)
        return row

    def _no_game(self, session: Session, name: str) -> PbemError:
        names = self.game_names(session)
        known = f"; games: {', '.join(names)}" if names else "; there are no games yet (pbem new-game)"
        return PbemError(f"no game called {name!r}{known}")

    def lock_game(self, session: Session, name: str) -> GameRow:
        """The game, locked until the session's transaction ends, for resolving a turn.

        PostgreSQL: SELECT ... FOR UPDATE, so a second worker resolving the same game waits here
        and then reads the turn the first one wrote. SQLite: a plain select (SQLite has no row
        locks; one writer at a time, and turn's unique (game_id, turn) refuses a second
        resolution). The row is read afresh even if the session had it already."""
        q = _Q.lock_game_for_update if session.get_bind().dialect.name == "postgresql" else _Q.lock_game
        row = session.exec(q, params={"name": name}).first()
        if row is None:
            raise self._no_game(session, name)
        return row

    def find_game(self, session: Session, name: str) -> GameRow | None:
        return session.exec(_Q.game, params={"name": name}).first()

    def game_and_players(self, session: Session, name: str) -> tuple[GameRow | None, list[PlayerRow]]:
        """The game called `name` and its players by seat, in one query; (None, []) if there is
        none (or it has no players yet: then `find_game` and `players`)."""
        rows = session.exec(_Q.game_and_players, params={"name": name}).all()
        return (rows[0][0] if rows else None), [player for _, player in rows]

    def game_names(self, session: Session) -> list[str]:
        return list(session.exec(select(GameRow.name).order_by(GameRow.name)))

    def games(self, session: Session) -> list[GameRow]:
        return list(session.exec(select(GameRow).order_by(GameRow.name)))

    def players(self, session: Session, game_id: int) -> list[PlayerRow]:
        return list(session.exec(_Q.players, params={"game_id": game_id}))

    def games_of_address(self, session: Session, address: str) -> list[GameRow]:
        rows = session.exec(
            select(GameRow)
            .join(PlayerRow, col(PlayerRow.game_id) == GameRow.id)
            .where(PlayerRow.email == address.lower())
        )
        return list(rows)

    def players_with_address(self, session: Session, address: str) -> list[PlayerRow]:
        return list(session.exec(select(PlayerRow).where(PlayerRow.email == address.lower())))

    # messages ------------------------------------------------------------------------------
    def message_seen(self, session: Session, key: str) -> MessageRow | None:
        return session.exec(select(MessageRow).where(MessageRow.message_id == key)).first()

    def add_message(self, row: MessageRow, *, flushed_later: bool = False) -> MessageRow | None:
        """Store a raw message in its own transaction; None if its Message-ID is already stored.

        `flushed_later`: the caller commits a durable transaction after this one before it
        answers anyone (intake's pipeline always does, quarantine included), so this commit need
        not wait for the disk: the log is written in order, and the later commit's flush makes
        this one durable with it (SQLite in WAL mode: synchronous=NORMAL for this transaction;
        PostgreSQL: synchronous_commit off for it). A crash of the process loses nothing; a crash
        of the machine before the later commit may lose the message, which then was never
        acknowledged and is fetched again. One flush per mail instead of two."""
        sqlite = flushed_later and self.engine.dialect.name == "sqlite"
        postgres = flushed_later and self.engine.dialect.name == "postgresql"
        with self.engine.connect() as conn:  # one connection throughout: the setting is the connection's
            if sqlite:
                conn.exec_driver_sql("PRAGMA synchronous=NORMAL")  # no write yet: outside any transaction
                conn.commit()
            try:
                with conn.begin():
                    if postgres:
                        conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
                    _insert_message(conn, row)
                return row
            except IntegrityError:
                return None
            finally:
                if sqlite:
                    conn.exec_driver_sql("PRAGMA synchronous=FULL")
                    conn.commit()

    def save_message(self, session: Session, row: MessageRow, was: str) -> bool:
        """Write what intake decided about a stored message (its reading, outcome and links) in
        the session's transaction: one UPDATE, without the unit of work. Only while its status is
        still `was`: False, writing nothing, when another run finished the message meanwhile (the
        caller then rolls its transaction back, so a message has its effects once)."""
        result = session.connection().execute(_Q.save_message, {"message": row.id, "was": was, **{
            name: getattr(row, name) for name in _MESSAGE_OUTCOME}})
        assert isinstance(result, CursorResult)
        return result.rowcount == 1

    def add_message_unless_known(self, row: MessageRow) -> tuple[MessageRow | None, MessageRow | None]:
        """PostgreSQL's `add_message(row, flushed_later=True)`, in one statement: the mail is
        inserted unless its Message-ID is stored already (looked up in the same statement: a
        refused insert would use up a message number, and the numbers go into the replies'
        Message-IDs), on a connection of its own whose statements commit as they run, without
        waiting for the disk (synchronous_commit off; see add_message). One round trip to the
        server for a new mail, where a transaction of its own took five. Returns (the stored
        row, None), or (None, the row already stored under its Message-ID); (None, None) only
        if that row is gone again by the time it is looked up."""
        values = {name: getattr(row, name) for name in _insert_message.columns}
        with self._relaxed_engine().connect() as conn:
            stored = conn.execute(_Q.insert_message_unless_known, values).scalar()
        if stored is not None:
            row.id = stored
            make_transient_to_detached(row)
            return row, None
        with self.session() as session:
            known = self.message_seen(session, row.message_id)
            if known is not None:
                session.expunge(known)
        return None, known

    def _relaxed_engine(self) -> Engine:
        """PostgreSQL: an engine whose connections commit each statement at once and without
        waiting for the disk (made in each process that asks: a forked worker makes its own)."""
        if self._relaxed is None or self._relaxed[0] != os.getpid():
            engine = create_engine(self.url, isolation_level="AUTOCOMMIT", pool_size=1,
                                   connect_args={"options": "-c synchronous_commit=off"})
            event.listen(engine, "connect", _postgres_session)
            self._relaxed = (os.getpid(), engine)
        return self._relaxed[1]

    def messages(self, session: Session, status: str | None = None) -> list[MessageRow]:
        q = select(MessageRow).order_by(MessageRow.id)  # type: ignore[arg-type]
        if status is not None:
            q = q.where(MessageRow.status == status)
        return list(session.exec(q))

    # sheets ----------------------------------------------------------------------------------
    def current_sheets(self, session: Session, game_id: int, turn: int) -> dict[int, SheetRow]:
        rows = session.exec(_Q.current_sheets, params={"game_id": game_id, "turn": turn})
        return {r.player_id: r for r in rows}

    def current_sheet_message(self, session: Session, game_id: int, player_id: int, turn: int) -> int | None:
        """The stored message of the player's sheet in force for `turn`, if any (one column of
        one row, where `current_sheets` loads every seat's sheet whole)."""
        return session.exec(_Q.current_sheet_message,
                            params={"game_id": game_id, "player_id": player_id, "turn": turn}).first()

    def replace_sheet(self, session: Session, sheet: SheetRow) -> str:
        """Store the sheet; the one in force is the latest by arrival (the message's place in the
        store), never by the order in which messages were processed. Returns "new", "replaced"
        (it replaced an earlier sheet) or "superseded" (a sheet that arrived later is in force)."""
        conn = session.connection()  # the sheets only: no SheetRow objects in the session to keep in step
        current = conn.execute(_Q.current_sheet, {"game_id": sheet.game_id, "player_id": sheet.player_id,
                                                  "turn": sheet.turn}).all()
        if any(message > sheet.message_id for _, message in current):
            sheet.current = False
            _insert_sheet(session, sheet)
            return "superseded"
        if current:
            conn.execute(_Q.retire_sheets, {"ids": [sheet_id for sheet_id, _ in current]})
        _insert_sheet(session, sheet)
        return "replaced" if current else "new"

    def claim_turn(self, session: Session, game_id: int, turn: int) -> bool:
        """Take the game's write lock and check that `turn` is still open, in one statement: a
        sheet stored while a resolution commits either waits for it and then sees the new turn,
        or commits first and counts."""
        # straight on the connection: it sets the turn it found, the session has nothing to sync
        return bool(session.connection().execute(_Q.claim_turn, {"game_id": game_id, "open": turn}).rowcount)

    def corrections(self, session: Session, game_id: int, turn: int) -> int:
        """How often `turn` was resolved and rolled back before."""
        return len(list(session.exec(_Q.corrections, params={"game_id": game_id, "turn": turn})))

    def retire_sheets(self, session: Session, player_id: int, from_turn: int) -> None:
        """The seat's sheets in force from `from_turn` on stop counting (the seat changed hands)."""
        rows = session.exec(select(SheetRow).where(SheetRow.player_id == player_id, SheetRow.turn >= from_turn,
                                                   SheetRow.current == True))  # noqa: E712
        for sheet in rows:
            sheet.current = False
            session.add(sheet)

    def pending_messages(self, session: Session) -> int:
        """Messages stored but not yet taken in (their pipeline has not finished)."""
        return len(self.pending_message_ids(session))

    def pending_message_ids(self, session: Session) -> list[int]:
        """The ids of the messages stored but not yet taken in, oldest first."""
        return [message for message in session.exec(_Q.pending_messages) if message is not None]

    def sheets_in_force(self, session: Session, game_id: int, turn: int) -> set[int]:
        """The ids of the sheets in force for `turn` (what `current_sheets` reads, by id only)."""
        rows = session.exec(_Q.sheets_in_force, params={"game_id": game_id, "turn": turn})
        return {sheet for sheet in rows if sheet is not None}

    def advance_turn(self, session: Session, game: GameRow, *, after: str, over: bool,
                     deadline: datetime | None) -> bool:
        """Move the game past its turn `game.turn`, in one statement, only if it still stands as
        `game` was read (that turn open, not over, the same position): False, writing nothing,
        otherwise. On SQLite this is a resolution's first write: it takes the write lock."""
        result = session.connection().execute(_Q.advance_turn, {
            "game_id": game.id, "open": game.turn, "before": game.state, "after": after, "over": over,
            "deadline": deadline})
        assert isinstance(result, CursorResult)
        return result.rowcount == 1

    def strangers_since(self, session: Session, since: datetime) -> int:
        rows = session.exec(select(MessageRow.id).where(MessageRow.stranger == True,  # noqa: E712
                                                         MessageRow.received_at >= since))
        return len(list(rows))

    def refusals_for(self, session: Session, player_id: int, step: str, since: datetime, *,
                     reason_prefix: str = "") -> int:
        query = select(MessageRow.id).where(MessageRow.player_id == player_id, MessageRow.step == step,
                                            MessageRow.status == MessageStatus.REFUSED, MessageRow.received_at >= since)
        if reason_prefix:
            query = query.where(col(MessageRow.reason).startswith(reason_prefix, autoescape=True))
        return len(list(session.exec(query)))

    def mail_by_message_id(self, session: Session, message_id: str) -> MailRow | None:
        return session.exec(select(MailRow).where(MailRow.message_id == message_id)).first()

    def sheets_since(self, session: Session, game_id: int, turn: int, since: datetime) -> int:
        return len(list(session.exec(_Q.sheets_since, params={"game_id": game_id, "turn": turn, "since": since})))

    # turns -----------------------------------------------------------------------------------
    def turn(self, session: Session, game_id: int, turn: int) -> TurnRow | None:
        return session.exec(_Q.turn, params={"game_id": game_id, "turn": turn}).first()

    def turns(self, session: Session, game_id: int) -> list[TurnRow]:
        return list(session.exec(select(TurnRow).where(TurnRow.game_id == game_id).order_by(TurnRow.turn)))  # type: ignore[arg-type]

    def events(self, session: Session, game_id: int, kinds: Sequence[str] = ()) -> list[EventRow]:
        if kinds:
            return list(session.exec(_Q.events_of_kinds, params={"game_id": game_id, "kinds": list(kinds)}))
        return list(session.exec(_Q.events, params={"game_id": game_id}))

    def events_since(self, session: Session, game_id: int, kind: str, seat: int, since: datetime) -> int:
        rows = session.exec(select(EventRow.id).where(EventRow.game_id == game_id, EventRow.kind == kind,
                                                      EventRow.seat == seat, EventRow.created_at >= since))
        return len(list(rows))

    def standing_sheet(self, session: Session, player: PlayerRow, before_turn: int) -> SheetRow | None:
        """The player's latest sheet in force from an earlier turn of their tenure, when it is a
        STANDING one (a later plain sheet ends standing orders)."""
        latest = session.exec(_Q.standing_sheet, params={"player_id": player.id, "before": before_turn,
                                                          "since": player.since_turn}).first()
        return latest if latest is not None and latest.standing else None

    # mail ------------------------------------------------------------------------------------
    def queue_mails(self, session: Session, mails: Sequence[tuple[MailRow, bytes]]) -> None:
        """Queue each (mail, its bytes) in the session's transaction, all of them in two
        statements: written at once, they are sent once that commits."""
        if mails:
            _insert_mail.all(session, [mail for mail, _ in mails])
            session.connection().execute(_INSERT_BODY, [{"mail_id": mail.id, "raw": raw} for mail, raw in mails])

    def mail_bodies(self, mail_ids: Sequence[int]) -> dict[int, bytes]:
        """The bytes of the mails `mail_ids`, by id (in a transaction of their own)."""
        if not mail_ids:
            return {}
        with self.session() as session:
            rows = session.exec(select(MailBodyRow).where(col(MailBodyRow.mail_id).in_(list(mail_ids))))
            return {row.mail_id: row.raw for row in rows}

    def mail_body(self, mail_id: int) -> bytes:
        """The bytes of one mail."""
        return self.mail_bodies([mail_id])[mail_id]

    def mails(self, session: Session, status: str | None = None, game_id: int | None = None) -> list[MailRow]:
        q = select(MailRow).order_by(MailRow.id)  # type: ignore[arg-type]
        if status is not None:
            q = q.where(MailRow.status == status)
        if game_id is not None:
            q = q.where(MailRow.game_id == game_id)
        return list(session.exec(q))

    def mails_for_turn(self, session: Session, game_id: int, turn: int, kinds: Sequence[str]) -> list[MailRow]:
        q = select(MailRow).where(MailRow.game_id == game_id, MailRow.turn == turn, MailRow.kind.in_(kinds))  # type: ignore[attr-defined]
        return list(session.exec(q.order_by(MailRow.id)))  # type: ignore[arg-type]

    def mail_exists(self, session: Session, message_id: str) -> bool:
        return session.exec(_Q.mail_exists, params={"message_id": message_id}).first() is not None

    def replies_since(self, session: Session, address: str, since: datetime) -> int:
        """Automatic replies (acknowledgements, refusals, answers, secrets, suggestions) queued to
    `address` since `since`."""
        rows = session.exec(
            select(MailRow.id).where(MailRow.recipient == address.lower(), MailRow.created_at >= since,
                                     MailRow.kind.in_(REPLY_KINDS))  # type: ignore[attr-defined]
        )
        return len(list(rows))

    def claim_mails(self, worker: str, now: datetime, limit: int = 10, lease_seconds: float = 300) -> list[MailRow]:
        """Claim up to `limit` mails for `worker` to send, oldest first, in one transaction of its own.

        Claimable: 'queued' with next_attempt_at unset or <= now, and 'sending' whose claim is
        older than `lease_seconds` (its worker died). Each becomes 'sending', claimed_by=worker,
        claimed_at=now, attempts+1, and is returned (detached, ordered by id). Two workers never
        get the same mail: PostgreSQL picks rows with SELECT ... FOR UPDATE SKIP LOCKED; SQLite
        claims with a single UPDATE ... WHERE id IN (SELECT ...) RETURNING, which holds the
        database's write lock from start to end. Finish each with mark_sent, mark_retry or
        mark_failed."""
        if not worker:
            raise ValueError("a worker needs a name to claim mail")
        if limit <= 0:
            return []
        now = _utc(now)
        stale = now - timedelta(seconds=lease_seconds)
        claimable = or_(
            and_(col(MailRow.status) == MailStatus.QUEUED,
                 or_(col(MailRow.next_attempt_at).is_(None), col(MailRow.next_attempt_at) <= now)),
            and_(col(MailRow.status) == MailStatus.SENDING,
                 or_(col(MailRow.claimed_at).is_(None), col(MailRow.claimed_at) <= stale)),
        )
        pick = select(MailRow.id).where(claimable).order_by(col(MailRow.id)).limit(limit)
        claim = update(MailRow).values(status=MailStatus.SENDING, claimed_by=worker, claimed_at=now,
                                       attempts=col(MailRow.attempts) + 1)
        with self.session() as session:
            if session.get_bind().dialect.name == "postgresql":
                ids = list(session.exec(pick.with_for_update(skip_locked=True)))
                if not ids:
                    return []
                claim = claim.where(col(MailRow.id).in_(ids))
            else:
                claim = claim.where(col(MailRow.id).in_(pick.scalar_subquery()))
            rows = list(session.scalars(claim.returning(MailRow), execution_options={"synchronize_session": False}))
            for row in rows:
                session.expunge(row)
        return sorted(rows, key=lambda r: r.id or 0)

    def mark_written(self, written: Sequence[tuple[int, str]], worker: str, now: datetime) -> int:
        """Claimed mails written to the outbox folder, as (id, path): all marked sent in one
        transaction, each only while `worker` still holds its claim. Returns how many."""
        if not written:
            return 0
        paths = dict(written)
        # one statement for the batch, each row's path picked by its id
        q = update(MailRow).where(
            col(MailRow.id).in_(list(paths)), col(MailRow.status) == MailStatus.SENDING, col(MailRow.claimed_by) == worker
        ).values(status=MailStatus.SENT, sent_at=_utc(now), error="", path=case(paths, value=col(MailRow.id)))
        with self.session() as session:
            result = session.execute(q, execution_options={"synchronize_session": False})
            assert isinstance(result, CursorResult)
            return result.rowcount

    def _finish(self, mail_id: int, worker: str, **values: Any) -> bool:
        """Update a mail only while `worker` still holds its claim; True when it did."""
        q = update(MailRow).where(
            col(MailRow.id) == mail_id, col(MailRow.status) == MailStatus.SENDING, col(MailRow.claimed_by) == worker
        ).values(**values)
        with self.session() as session:
            result = session.execute(q, execution_options={"synchronize_session": False})
            assert isinstance(result, CursorResult)
            return result.rowcount == 1

    def mark_sent(self, mail_id: int, worker: str, now: datetime, *, path: str | None = None) -> bool:
        """The claimed mail went out: status 'sent', sent_at=now (and where it was written, if
        given). False, changing nothing, when `worker` no longer holds the claim (the lease ran
        out and another worker took it over)."""
        values: dict[str, Any] = {"status": MailStatus.SENT, "sent_at": _utc(now), "error": ""}
        if path is not None:
            values["path"] = path
        return self._finish(mail_id, worker, **values)

    def mark_retry(self, mail_id: int, worker: str, error: str, next_attempt_at: datetime | None) -> bool:
        """Sending failed for now: back to 'queued', unclaimed, held until next_attempt_at (None:
        at once), with the error kept. False when `worker` no longer holds the claim."""
        return self._finish(mail_id, worker, status=MailStatus.QUEUED, error=error, claimed_by="", claimed_at=None,
                            next_attempt_at=_utc(next_attempt_at) if next_attempt_at is not None else None)

    def mark_failed(self, mail_id: int, worker: str, error: str) -> bool:
        """Sending failed for good: status 'failed' with the error. False when `worker` no longer
        holds the claim."""
        return self._finish(mail_id, worker, status=MailStatus.FAILED, error=error)

    # IMAP cursors ----------------------------------------------------------------------------
    def imap_cursor(self, account: str, folder: str) -> tuple[int, int] | None:
        """(UIDVALIDITY, highest UID taken in) of an IMAP folder; None before its first message."""
        with self.session() as session:
            row = session.get(ImapCursorRow, (account, folder))
            return (row.uidvalidity, row.last_uid) if row is not None else None

    def advance_imap_cursor(self, account: str, folder: str, uidvalidity: int, last_uid: int) -> None:
        """Record that every message of the folder up to `last_uid` is taken in. Within one
        UIDVALIDITY the cursor only moves forward (another worker may be ahead); a new
        UIDVALIDITY replaces the old cursor, whatever its UID."""
        moved = update(ImapCursorRow).where(
            col(ImapCursorRow.account) == account, col(ImapCursorRow.folder) == folder,
            or_(col(ImapCursorRow.uidvalidity) != uidvalidity, col(ImapCursorRow.last_uid) < last_uid),
        ).values(uidvalidity=uidvalidity, last_uid=last_uid, updated_at=utcnow())
        for _ in range(2):
            with self.session() as session:
                result = session.execute(moved, execution_options={"synchronize_session": False})
                assert isinstance(result, CursorResult)
                if result.rowcount or session.get(ImapCursorRow, (account, folder)) is not None:
                    return  # moved, or already at or past last_uid
            try:
                with self.session() as session:
                    session.add(ImapCursorRow(account=account, folder=folder, uidvalidity=uidvalidity,
                                              last_uid=last_uid))
                return
            except IntegrityError:
                continue  # another worker made the row first: move it instead


# the club's tables (people, open games, tournaments) join the metadata with the store's own
from pbem.club import rows as _club_rows  # noqa: E402,F401
