"""The store as the mailer's queue: each mail becomes a row and its bytes in the caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session

from pbem.mailer import Outgoing
from pbem.store import MailRow, Store


class Postbox:
    """A `MailQueue` over the store: every mail of one call is written in two statements, however many."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def put(self, tx: Session, game_id: int | None, turn: int | None, mails: Sequence[Outgoing], at: datetime) -> None:
        self.store.queue_mails(tx, [(MailRow(message_id=mail.msg_id, game_id=game_id, turn=turn, kind=mail.kind,
                                             recipient=mail.to, subject=mail.subject, created_at=at), mail.raw)
                                    for mail in mails])

    def replies_since(self, tx: Session, address: str, since: datetime) -> int:
        return self.store.replies_since(tx, address, since)
