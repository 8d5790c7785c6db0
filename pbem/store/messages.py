"""Inbound messages: stored raw before anything else happens to them, then what intake decided."""

from __future__ import annotations

import os
from datetime import datetime

from sqlalchemy import bindparam, event, exists, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, col, create_engine, select

from pbem.store.base import Insert, StoreBase
from pbem.store.engine import postgres_session
from pbem.store.rows import MessageRow, MessageStatus

#: every column of a message but its number
_MESSAGE_COLUMNS = tuple(c.name for c in MessageRow.__table__.columns if c.name != "id")  # type: ignore[attr-defined]
#: what intake writes on a stored message (`Store.save_message`); the rest is as it came in
_MESSAGE_OUTCOME = ("sender", "subject", "status", "step", "reason", "traceback", "game_id", "player_id", "stranger")


class _Q:
    """The statements of the busiest questions, built once: building a statement costs about as
    much as running it (taking in a mail asks six of them; resolving a turn, a dozen). Their
    values come as parameters."""

    save_message = (update(MessageRow.__table__)  # type: ignore[attr-defined]
                    .where(col(MessageRow.id) == bindparam("message"), col(MessageRow.status) == bindparam("was"))
                    .values({name: bindparam(name) for name in _MESSAGE_OUTCOME}))
    pending_messages = select(col(MessageRow.id)).where(MessageRow.status == MessageStatus.NEW).order_by(col(MessageRow.id))
    insert_message_unless_known = (
        postgresql.insert(MessageRow.__table__)  # type: ignore[attr-defined]
        .from_select(_MESSAGE_COLUMNS, select(*(bindparam(c.name, type_=c.type) for c in MessageRow.__table__.columns  # type: ignore[attr-defined]
                                                if c.name in _MESSAGE_COLUMNS))
                     .where(~exists().where(col(MessageRow.message_id) == bindparam("message_id"))))
        .on_conflict_do_nothing(index_elements=["message_id"])
        .returning(col(MessageRow.id))
    )


_insert_message = Insert(MessageRow)


class Messages(StoreBase):
    """Storing an inbound message once, recording what became of it, and counting them."""

    _relaxed: tuple[int, Engine] | None = None  # (its process, the engine): see _relaxed_engine

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
            event.listen(engine, "connect", postgres_session)
            self._relaxed = (os.getpid(), engine)
        return self._relaxed[1]

    def messages(self, session: Session, status: str | None = None) -> list[MessageRow]:
        q = select(MessageRow).order_by(MessageRow.id)  # type: ignore[arg-type]
        if status is not None:
            q = q.where(MessageRow.status == status)
        return list(session.exec(q))

    def pending_messages(self, session: Session) -> int:
        """Messages stored but not yet taken in (their pipeline has not finished)."""
        return len(self.pending_message_ids(session))

    def pending_message_ids(self, session: Session) -> list[int]:
        """The ids of the messages stored but not yet taken in, oldest first."""
        return [message for message in session.exec(_Q.pending_messages) if message is not None]

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
