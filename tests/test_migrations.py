"""Schema migrations (pbem/migrations, alembic) on SQLite and PostgreSQL.

The postgres-parametrized tests use the `pg_database_url` fixture of tests/conftest.py (a new,
empty database per test); they are marked `postgres`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import LargeBinary, MetaData, Table, UniqueConstraint, create_engine, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlmodel import SQLModel

from pbem import migrations
from pbem.errors import PbemError
from pbem.store import GameRow, MailRow, Store

NEW_MAIL_COLUMNS = ("claimed_by", "claimed_at", "next_attempt_at")  # added by 0002


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    engine = Store(url).engine  # with the SQLite pragmas pbem uses
    yield engine
    engine.dispose()


def schema(engine: Engine) -> dict[str, Any]:
    """Tables, columns (type, nullability), primary keys, indexes, unique and foreign keys, as the
    database reports them (alembic_version left out)."""
    insp = inspect(engine)
    out: dict[str, Any] = {}
    for table in sorted(set(insp.get_table_names()) - {migrations.VERSION_TABLE}):
        out[table] = {
            "columns": {c["name"]: (type(c["type"]).__name__, c["nullable"]) for c in insp.get_columns(table)},
            "pk": insp.get_pk_constraint(table)["constrained_columns"],
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in insp.get_indexes(table)
                             if not i.get("duplicates_constraint")),  # PostgreSQL: a unique constraint's own index
            "unique": sorted(tuple(u["column_names"]) for u in insp.get_unique_constraints(table)),
            "fks": sorted((tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]))
                          for f in insp.get_foreign_keys(table)),
        }
    return out


def model_schema() -> dict[str, Any]:
    """The same, as the SQLModel tables declare it (names and structure; types are compared by
    create_all vs migrations below and by alembic's compare_metadata)."""
    out: dict[str, Any] = {}
    for table in SQLModel.metadata.sorted_tables:
        out[table.name] = {
            "columns": {c.name: c.nullable for c in table.columns},
            "pk": [c.name for c in table.primary_key.columns],
            "indexes": sorted((i.name, tuple(c.name for c in i.columns), bool(i.unique)) for i in table.indexes),
            "unique": sorted(tuple(c.name for c in u.columns) for u in table.constraints
                             if isinstance(u, UniqueConstraint)),
            "fks": sorted((tuple(f.column_keys), f.referred_table.name, tuple(e.column.name for e in f.elements))
                          for f in table.foreign_key_constraints),
        }
    return out


def _structure(db: dict[str, Any]) -> dict[str, Any]:
    return {t: {**v, "columns": {c: nullable for c, (_type, nullable) in v["columns"].items()}} for t, v in db.items()}


def insert(engine: Engine, table: str, **values: Any) -> None:
    """Insert a row through the table as the database has it (not as the models declare it)."""
    reflected = Table(table, MetaData(), autoload_with=engine)
    with engine.begin() as conn:
        conn.execute(reflected.insert().values(**values))


def legacy_database(engine: Engine, *, with_claims: bool = False) -> None:
    """A database as pbem 0.1 made it: SQLModel.metadata.create_all, no alembic_version; without
    0002's columns unless `with_claims` (create_all by a build that had them)."""
    SQLModel.metadata.create_all(engine)
    with engine.begin() as conn:
        for column in ("schedule", "early", "options", "setup_chance", "paused", "press", "result",  # 0003's, 0005's,
                       "generator"):  # 0008's, 0010's: no create_all database ever had them
            conn.execute(text(f"ALTER TABLE game DROP COLUMN {column}"))
        _number_seeds(conn)  # and its seeds were numbers
        for column in ("team", "bot", "bouncing", "since_turn", "away", "vacation_days", "sitter"):  # 0005-0013
            conn.execute(text(f"ALTER TABLE player DROP COLUMN {column}"))
        for column in ("digest", "stranger"):  # 0006's
            conn.execute(text(f"ALTER TABLE message DROP COLUMN {column}"))
        conn.execute(text("DROP INDEX ix_mail_recipient"))  # nor 0004's
        conn.execute(text("DROP TABLE imap_cursor"))  # nor 0007's
        conn.execute(text("ALTER TABLE sheet DROP COLUMN standing"))  # nor 0008's
        conn.execute(text("ALTER TABLE turn DROP COLUMN correction"))
        conn.execute(text("DROP TABLE undone_turn"))
        conn.execute(text("DROP TABLE game_event"))
        conn.execute(text("DROP TABLE mail_body"))  # nor 0009's: the bytes were the mail's own column
        for table in ("tournament_table", "tournament_entrant", "tournament",  # nor 0014's
                      "club_pending", "seat_offer", "standby", "observer", "signup", "open_game",  # nor 0012's
                      "club_game", "tenure", "person_address", "person"):
            conn.execute(text(f"DROP TABLE {table}"))
        raw = LargeBinary().compile(dialect=engine.dialect)
        conn.execute(text(f"ALTER TABLE mail ADD COLUMN raw {raw}"))
    if not with_claims:
        with engine.begin() as conn:
            for column in NEW_MAIL_COLUMNS:
                conn.execute(text(f"ALTER TABLE mail DROP COLUMN {column}"))


def _number_seeds(conn: Connection) -> None:
    """game.seed as an INTEGER column, as before 0010 (SQLite can't change a column's type)."""
    if conn.dialect.name == "sqlite":
        conn.execute(text("ALTER TABLE game DROP COLUMN seed"))
        conn.execute(text("ALTER TABLE game ADD COLUMN seed INTEGER NOT NULL DEFAULT 0"))
    else:
        conn.execute(text("ALTER TABLE game ALTER COLUMN seed TYPE INTEGER USING seed::integer"))


def test_head_names_the_newest_script() -> None:
    assert migrations.script_head() == migrations.HEAD


def test_an_empty_database_is_migrated_to_the_models(url: str, engine: Engine) -> None:
    Store(url).create()
    assert migrations.current_revision(engine) == migrations.HEAD
    assert _structure(schema(engine)) == model_schema()

    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), SQLModel.metadata)
    assert diff == []


def test_migrations_build_what_create_all_builds(url: str, engine: Engine) -> None:
    Store(url).create()
    migrated = schema(engine)
    migrations.downgrade(engine, "base")  # every downgrade, too
    assert set(inspect(engine).get_table_names()) <= {migrations.VERSION_TABLE}
    with engine.begin() as conn:
        conn.execute(text(f"DROP TABLE {migrations.VERSION_TABLE}"))
    SQLModel.metadata.create_all(engine)
    assert schema(engine) == migrated


def test_create_is_idempotent_and_skips_alembic_at_head(url: str, engine: Engine,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(url)
    store.create()
    with store.session() as session:
        session.add(GameRow(name="g", game="hare-tortoise", rules="r", seed="1", state="{}"))

    import alembic.command

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("alembic was run on a database at head")

    monkeypatch.setattr(alembic.command, "upgrade", refuse)
    monkeypatch.setattr(alembic.command, "stamp", refuse)
    store.create()
    Store(url).create()
    with store.session() as session:
        assert store.game_names(session) == ["g"]
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1


@pytest.mark.parametrize("with_claims", [False, True])
def test_a_create_all_database_is_stamped_not_recreated(url: str, engine: Engine, with_claims: bool) -> None:
    legacy_database(engine, with_claims=with_claims)
    moment = datetime(2026, 11, 20, 9, tzinfo=timezone.utc)
    insert(engine, "game", name="old", game="hare-tortoise", rules="r", seed=7, state='{"x": 1}', turn=3, over=False,
           created_at=moment)
    insert(engine, "mail", message_id="<m@x>", game_id=1, kind="report", recipient="a@x", subject="s", raw=b"bytes",
           created_at=moment, status="queued", attempts=0, error="", path="",
           **({"claimed_by": ""} if with_claims else {}))
    assert migrations.current_revision(engine) is None

    store = Store(url)
    store.create()
    assert migrations.current_revision(engine) == migrations.HEAD
    assert _structure(schema(engine)) == model_schema()
    with store.session() as session:
        game = store.game(session, "old")
        assert (game.turn, game.state, game.created_at) == (3, '{"x": 1}', moment)
        [mail] = store.mails(session)
        assert (mail.status, mail.claimed_by, mail.claimed_at, mail.next_attempt_at) == ("queued", "", None, None)
    assert store.mail_bodies([mail.id or 0]) == {mail.id: b"bytes"}
    [claimed] = store.claim_mails("w", moment, 5, 60)
    assert claimed.message_id == "<m@x>"


def test_an_old_revision_is_upgraded_keeping_rows(url: str, engine: Engine) -> None:
    migrations.upgrade(engine, "0001")
    assert migrations.current_revision(engine) == "0001"
    assert "claimed_by" not in {c["name"] for c in inspect(engine).get_columns("mail")}
    moment = datetime(2026, 11, 20, 9, tzinfo=timezone.utc)
    insert(engine, "mail", message_id="<m@x>", kind="ack", recipient="a@x", subject="s", raw=b"\x00\xff",
           created_at=moment, status="sent", attempts=1, error="", path="p")
    Store(url).create()
    assert migrations.current_revision(engine) == migrations.HEAD
    with engine.connect() as conn:
        row = conn.execute(text("SELECT raw, status, claimed_by, claimed_at FROM mail "
                                "JOIN mail_body ON mail_body.mail_id = mail.id")).one()
    assert (bytes(row[0]), row[1], row[2], row[3]) == (b"\x00\xff", "sent", "", None)


def test_the_mail_bodies_move_back_on_downgrade(url: str, engine: Engine) -> None:
    migrations.upgrade(engine, "0008")
    insert(engine, "mail", message_id="<m@x>", kind="ack", recipient="a@x", subject="s", raw=b"\x00\xff",
           created_at=datetime(2026, 11, 20, 9, tzinfo=timezone.utc), status="queued", attempts=0, error="", path="")
    migrations.upgrade(engine, "0009")
    assert "raw" not in {c["name"] for c in inspect(engine).get_columns("mail")}
    migrations.downgrade(engine, "0008")
    with engine.connect() as conn:
        assert bytes(conn.execute(text("SELECT raw FROM mail")).scalar_one()) == b"\x00\xff"
    assert "mail_body" not in inspect(engine).get_table_names()


def test_a_vacation_span_moves_into_the_list_of_spans_and_back(url: str, engine: Engine) -> None:
    migrations.upgrade(engine, "0010")
    moment = datetime(2026, 11, 20, 9, tzinfo=timezone.utc)
    insert(engine, "game", name="g", game="hare-tortoise", rules="r", seed=7, state="{}", turn=1, over=False,
           created_at=moment)
    insert(engine, "player", game_id=1, seat=0, name="Ann", email="a@x", secret="s", timezone="UTC", vacation_days=5,
           away_from=datetime(2026, 12, 1, tzinfo=timezone.utc), away_to=datetime(2026, 12, 5, 23, 59, 59,
                                                                                   tzinfo=timezone.utc))
    migrations.upgrade(engine, "0011")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT away FROM player")).scalar_one() == '[["2026-12-01", "2026-12-05"]]'
    migrations.downgrade(engine, "0010")
    with engine.connect() as conn:
        start, end = conn.execute(text("SELECT away_from, away_to FROM player")).one()
    assert str(start).startswith("2026-12-01 00:00:00") and str(end).startswith("2026-12-05 23:59:59")


def test_many_workers_creating_at_once_migrate_once(url: str, engine: Engine) -> None:
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def work() -> None:
        store = Store(url)
        try:
            start.wait()
            store.create()
        except BaseException as err:  # noqa: BLE001 - collected for the assertion
            errors.append(err)
        finally:
            store.engine.dispose()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [migrations.HEAD]
    assert _structure(schema(engine)) == model_schema()


def test_a_database_from_a_newer_pbem_is_refused(url: str, engine: Engine) -> None:
    Store(url).create()
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(PbemError, match="newer pbem"):
        Store(url).create()


def test_a_database_with_some_tables_is_refused(url: str, engine: Engine) -> None:
    GameRow.__table__.create(engine)  # type: ignore[attr-defined]
    with pytest.raises(PbemError, match="some of pbem's tables"):
        Store(url).create()
    assert set(inspect(engine).get_table_names()) == {"game"}  # the failed upgrade left nothing behind


def test_in_memory_sqlite() -> None:
    store = Store("sqlite://")
    store.create()
    store.create()
    with store.session() as session:
        store.queue_mails(session, [(MailRow(message_id="<a@x>", kind="ack", recipient="a@x", subject="s"), b"r")])
    assert [m.message_id for m in store.claim_mails("w", datetime.now(timezone.utc), 5, 60)] == ["<a@x>"]


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pbem.migrations.__main__ import main

    url = f"sqlite:///{tmp_path / 'cli.sqlite'}"
    main(["--url", url, "upgrade", "head"])
    engine = create_engine(url)
    try:
        assert migrations.current_revision(engine) == migrations.HEAD
    finally:
        engine.dispose()
    main(["--url", url, "history"])
    out = capsys.readouterr().out
    assert "0013 -> 0014 (head)" in out and "0012 -> 0013" in out and "0011 -> 0012" in out
    assert "0010 -> 0011" in out and "0009 -> 0010" in out and "0008 -> 0009" in out and "0005 -> 0006" in out
    assert "0002 -> 0003" in out and "<base> -> 0001" in out
