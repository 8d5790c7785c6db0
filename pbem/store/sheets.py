"""Order sheets: the latest a player sent for a turn is in force, a STANDING one for later turns too."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, update
from sqlmodel import Session, col, select

from pbem.store.base import Insert, StoreBase
from pbem.store.rows import PlayerRow, SheetRow


class _Q:
    """The statements of the busiest questions, built once: building a statement costs about as
    much as running it (taking in a mail asks six of them; resolving a turn, a dozen). Their
    values come as parameters."""

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
    sheets_in_force = select(col(SheetRow.id)).where(SheetRow.game_id == bindparam("game_id"), SheetRow.turn == bindparam("turn"),
                                                SheetRow.current == True)  # noqa: E712
    sheets_since = select(SheetRow.id).where(SheetRow.game_id == bindparam("game_id"), SheetRow.turn == bindparam("turn"),
                                             SheetRow.received_at >= bindparam("since"))
    standing_sheet = (
        select(SheetRow).where(SheetRow.player_id == bindparam("player_id"), SheetRow.current == True,  # noqa: E712
                               SheetRow.turn < bindparam("before"), SheetRow.turn >= bindparam("since"))
        .order_by(col(SheetRow.turn).desc(), col(SheetRow.message_id).desc())
    )


_insert_sheet = Insert(SheetRow)


class Sheets(StoreBase):
    """Storing a sheet so that the latest by arrival is in force, and reading the sheets in force."""

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

    def retire_sheets(self, session: Session, player_id: int, from_turn: int) -> None:
        """The seat's sheets in force from `from_turn` on stop counting (the seat changed hands)."""
        rows = session.exec(select(SheetRow).where(SheetRow.player_id == player_id, SheetRow.turn >= from_turn,
                                                   SheetRow.current == True))  # noqa: E712
        for sheet in rows:
            sheet.current = False
            session.add(sheet)

    def sheets_in_force(self, session: Session, game_id: int, turn: int) -> set[int]:
        """The ids of the sheets in force for `turn` (what `current_sheets` reads, by id only)."""
        rows = session.exec(_Q.sheets_in_force, params={"game_id": game_id, "turn": turn})
        return {sheet for sheet in rows if sheet is not None}

    def sheets_since(self, session: Session, game_id: int, turn: int, since: datetime) -> int:
        return len(list(session.exec(_Q.sheets_since, params={"game_id": game_id, "turn": turn, "since": since})))

    def standing_sheet(self, session: Session, player: PlayerRow, before_turn: int) -> SheetRow | None:
        """The player's latest sheet in force from an earlier turn of their tenure, when it is a
        STANDING one (a later plain sheet ends standing orders)."""
        latest = session.exec(_Q.standing_sheet, params={"player_id": player.id, "before": before_turn,
                                                          "since": player.since_turn}).first()
        return latest if latest is not None and latest.standing else None
