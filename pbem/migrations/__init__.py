"""Schema migrations of the store (alembic), run from code: no alembic.ini at run time.

`upgrade(engine)` brings any database to HEAD and is what `Store.create()` does:

* at HEAD already: one `SELECT version_num FROM alembic_version`, nothing else (every CLI
  command calls it, so alembic itself is not even imported then);
* empty: the revisions create every table;
* made by pbem 0.1's `SQLModel.metadata.create_all` (tables, no alembic_version): stamped at the
  revision its tables match, then upgraded from there; nothing is recreated;
* several processes at once: on PostgreSQL they queue on an advisory lock, on SQLite on the
  write lock (BEGIN IMMEDIATE); the first one upgrades, the others find HEAD and return.

Each upgrade runs in one transaction (PostgreSQL and SQLite both have transactional DDL), so a
failed migration leaves the database as it was.

A new revision: write pbem/migrations/versions/NNNN_what.py (`python -m pbem.migrations
--url sqlite:///scratch.sqlite revision --autogenerate -m what` drafts one from the models),
then set HEAD below to its revision id; tests/test_migrations.py checks the two agree.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from pbem.errors import PbemError

if TYPE_CHECKING:
    from alembic.config import Config

HEAD = "0014"
"""The newest revision in versions/: the fast path of `upgrade` compares against it."""

FOLDER = Path(__file__).resolve().parent
VERSION_TABLE = "alembic_version"
TABLES = ("game", "player", "message", "sheet", "turn", "mail")
_LOCK_KEY = int.from_bytes(b"pbem-mig", "big")  # the pg_advisory_xact_lock key (a bigint)


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An alembic Config made in code, its scripts in this package."""
    from alembic.config import Config

    cfg = Config(stdout=sys.stdout)  # the current one (alembic's default is bound at import)
    cfg.set_main_option("script_location", str(FOLDER).replace("%", "%%"))
    if url is not None:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def current_revision(engine: Engine) -> str | None:
    """The database's revision, cheaply (one query); None when it has no alembic_version table."""
    try:
        with engine.connect() as conn:
            return _read_version(conn)
    except DBAPIError:
        return None


def _read_version(conn: Connection) -> str | None:
    rows = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars().all()  # noqa: S608 - a constant
    if len(rows) > 1:
        raise PbemError(f"the database has {len(rows)} alembic revisions ({', '.join(rows)}); pbem expects one")
    return rows[0] if rows else None


def _version_in(conn: Connection) -> str | None:
    """Like _read_version, inside the migration transaction (no failed statement on PostgreSQL)."""
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    return _read_version(conn)


def _legacy_revision(conn: Connection) -> str | None:
    """The revision a database made by create_all matches; None for an empty database."""
    present = set(inspect(conn).get_table_names()) & set(TABLES)
    if not present:
        return None
    if present != set(TABLES):
        raise PbemError(
            f"the database has some of pbem's tables ({', '.join(sorted(present))}) but not all, and no "
            f"{VERSION_TABLE} table: pbem can't tell what it is. Restore it from a backup, or start a new one."
        )
    columns = {c["name"] for c in inspect(conn).get_columns("mail")}
    game_columns = {c["name"] for c in inspect(conn).get_columns("game")}
    if "digest" in {c["name"] for c in inspect(conn).get_columns("message")}:
        return "0007" if "imap_cursor" in inspect(conn).get_table_names() else "0006"
    if "options" in game_columns:
        return "0005"
    if "schedule" in game_columns:
        indexes = {i["name"] for i in inspect(conn).get_indexes("mail")}
        return "0004" if "ix_mail_recipient" in indexes else "0003"
    return "0002" if "claimed_by" in columns else "0001"


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to `revision` (default HEAD): idempotent, and cheap when it's there."""
    if revision in ("head", HEAD) and current_revision(engine) == HEAD:
        return
    from alembic import command

    with _migrating(engine) as (conn, cfg):
        version = _version_in(conn)
        if version is None:
            legacy = _legacy_revision(conn)
            if legacy is not None:
                command.stamp(cfg, legacy)
        if not (revision in ("head", HEAD) and version == HEAD):
            _run(command.upgrade, cfg, revision, version)


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database back to `revision` ("base": no tables). For tests and emergencies; an
    older pbem does not do this by itself."""
    from alembic import command

    with _migrating(engine) as (conn, cfg):
        _run(command.downgrade, cfg, revision, _version_in(conn))


def _run(step: Callable[[Config, str], None], cfg: Config, revision: str, version: str | None) -> None:
    from alembic.util.exc import CommandError

    try:
        step(cfg, revision)
    except CommandError as err:
        raise PbemError(
            f"can't migrate the database (at revision {version}) to {revision}: {err}. "
            "A revision this pbem doesn't know means the database was upgraded by a newer pbem."
        ) from None


@contextmanager
def _migrating(engine: Engine) -> Iterator[tuple[Connection, Config]]:
    """One connection in one transaction, holding the migration lock, committed at the end."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:
            # PRAGMA foreign_keys is ignored inside a transaction: turn it off before, so that a
            # batch migration may recreate a referenced table; checked before the commit.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            if sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock: one migrator at a time
            else:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
            yield conn, alembic_config(conn)
            if sqlite:
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise PbemError(f"the migration broke {len(broken)} foreign keys, e.g. {tuple(broken[0])}")
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


def stamp(engine: Engine, revision: str) -> None:
    """Record `revision` as the database's, changing nothing else (alembic stamp)."""
    from alembic import command

    with engine.begin() as conn:
        command.stamp(alembic_config(conn), revision)


def script_head() -> str | None:
    """The head as the scripts in versions/ say (loads them all; tests compare it with HEAD)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()
