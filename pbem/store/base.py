"""What every part of the store stands on: the engine, one transaction at a time, the schema, and
a quick INSERT of new rows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import insert
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, SQLModel

from pbem import migrations
from pbem.store.engine import store_engine


class Insert:
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



class StoreBase:
    """The database a store opens; each part of the `Store` (games, messages, sheets, turns,
    outgoing mail, IMAP cursors) builds its questions on it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = store_engine(url)

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
