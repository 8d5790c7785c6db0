"""Opening the database: the engine for a URL, SQLite's settings and its writers' turns, and
PostgreSQL's session settings."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import create_engine

from pbem.errors import PbemError

try:
    import fcntl
except ImportError:  # not POSIX: SQLite's own busy handler alone
    fcntl = None  # type: ignore[assignment]


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


def postgres_session(dbapi_connection: Any, _record: Any) -> None:
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



def store_engine(url: str) -> Engine:
    """The engine the store works through: `open_engine`'s, set up for its database (SQLite's
    pragmas and writers' turns on a file; PostgreSQL's session settings)."""
    engine = open_engine(url)
    if url.startswith("sqlite"):
        event.listen(engine, "connect", _sqlite_pragmas(sqlite_busy_timeout(url)))
        database = engine.url.database
        if fcntl is not None and database and database != ":memory:" and not database.startswith("file:"):
            _take_turns(engine, database)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "connect", postgres_session)
    return engine
