"""How far each IMAP folder has been read."""

from __future__ import annotations

from sqlalchemy import or_, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from pbem.store.base import StoreBase
from pbem.store.rows import ImapCursorRow, utcnow


class ImapCursors(StoreBase):
    """An IMAP folder's cursor: read, and moved forward by whichever worker got further."""

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
