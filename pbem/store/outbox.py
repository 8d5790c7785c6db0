"""The outgoing mail queue: mails queued in the transaction that caused them, then claimed by a
sender, sent, retried or failed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import and_, bindparam, case, insert, or_, update
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, select

from pbem.mail.kinds import MailKind
from pbem.store.base import Insert, StoreBase
from pbem.store.rows import MailBodyRow, MailRow, MailStatus

#: the mails that answer a mail, so that whoever writes it can make more: counted in the replies' hourly limit
REPLY_KINDS = (MailKind.ACK, MailKind.REFUSAL, MailKind.ANSWER, MailKind.SECRET, MailKind.SUGGESTION)


def _utc(moment: datetime) -> datetime:
    """An aware UTC moment; a naive one is taken to be UTC already."""
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)



_mail_exists = select(MailRow.id).where(MailRow.message_id == bindparam("message_id"))
_insert_mail = Insert(MailRow)
_INSERT_BODY = insert(MailBodyRow.__table__)  # type: ignore[attr-defined]


class Outbox(StoreBase):
    """The queue of outgoing mail, from queueing to sent (or failed for good)."""

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

    def mails(self, session: Session, status: str | None = None) -> list[MailRow]:
        """Every queued mail in order (those in `status` only, if given)."""
        q = select(MailRow).order_by(MailRow.id)  # type: ignore[arg-type]
        if status is not None:
            q = q.where(MailRow.status == status)
        return list(session.exec(q))

    def mail_exists(self, session: Session, message_id: str) -> bool:
        return session.exec(_mail_exists, params={"message_id": message_id}).first() is not None

    def mail_by_message_id(self, session: Session, message_id: str) -> MailRow | None:
        return session.exec(select(MailRow).where(MailRow.message_id == message_id)).first()

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

    def mark_sent(self, mail_id: int, worker: str, now: datetime) -> bool:
        """The claimed mail went out: status 'sent', sent_at=now. False, changing nothing, when
        `worker` no longer holds the claim (the lease ran out and another worker took it over);
        mails written to a folder are marked with `mark_written`."""
        return self._finish(mail_id, worker, status=MailStatus.SENT, sent_at=_utc(now), error="")

    def mark_retry(self, mail_id: int, worker: str, error: str, next_attempt_at: datetime | None) -> bool:
        """Sending failed for now: back to 'queued', unclaimed, held until next_attempt_at (None:
        at once), with the error kept. False when `worker` no longer holds the claim."""
        return self._finish(mail_id, worker, status=MailStatus.QUEUED, error=error, claimed_by="", claimed_at=None,
                            next_attempt_at=_utc(next_attempt_at) if next_attempt_at is not None else None)

    def mark_failed(self, mail_id: int, worker: str, error: str) -> bool:
        """Sending failed for good: status 'failed' with the error. False when `worker` no longer
        holds the claim."""
        return self._finish(mail_id, worker, status=MailStatus.FAILED, error=error)
