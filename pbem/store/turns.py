"""Resolved turns: claiming the open turn, moving the game past it, and reading what was resolved."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, update
from sqlalchemy import false as sa_false
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, select

from pbem.store.base import StoreBase
from pbem.store.rows import GameRow, TurnRow, UndoneTurnRow


class _Q:
    """The statements of the busiest questions, built once: building a statement costs about as
    much as running it (taking in a mail asks six of them; resolving a turn, a dozen). Their
    values come as parameters."""

    # the turn it found is written back: a write (it takes the lock) that changes nothing
    claim_turn = update(GameRow).where(col(GameRow.id) == bindparam("game_id"), col(GameRow.turn) == bindparam("open"),
                                       col(GameRow.over) == sa_false()).values(turn=bindparam("open"))
    # the position is compared too: a resolution drawn from a position edited meanwhile is not written
    advance_turn = (update(GameRow.__table__)  # type: ignore[attr-defined]
                    .where(col(GameRow.id) == bindparam("game_id"), col(GameRow.turn) == bindparam("open"),
                           col(GameRow.over) == sa_false(), col(GameRow.state) == bindparam("before"))
                    .values(turn=col(GameRow.turn) + 1, state=bindparam("after"), over=bindparam("over"),
                            deadline=bindparam("deadline")))
    turn = select(TurnRow).where(TurnRow.game_id == bindparam("game_id"), TurnRow.turn == bindparam("turn"))
    corrections = select(UndoneTurnRow.id).where(UndoneTurnRow.game_id == bindparam("game_id"),
                                                 UndoneTurnRow.turn == bindparam("turn"))


class Turns(StoreBase):
    """The open turn claimed and closed in one statement each, and the turns resolved so far."""

    def claim_turn(self, session: Session, game_id: int, turn: int) -> bool:
        """Take the game's write lock and check that `turn` is still open, in one statement: a
        sheet stored while a resolution commits either waits for it and then sees the new turn,
        or commits first and counts."""
        # straight on the connection: it sets the turn it found, the session has nothing to sync
        return bool(session.connection().execute(_Q.claim_turn, {"game_id": game_id, "open": turn}).rowcount)

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

    def corrections(self, session: Session, game_id: int, turn: int) -> int:
        """How often `turn` was resolved and rolled back before."""
        return len(list(session.exec(_Q.corrections, params={"game_id": game_id, "turn": turn})))

    def turn(self, session: Session, game_id: int, turn: int) -> TurnRow | None:
        return session.exec(_Q.turn, params={"game_id": game_id, "turn": turn}).first()

    def turns(self, session: Session, game_id: int) -> list[TurnRow]:
        return list(session.exec(select(TurnRow).where(TurnRow.game_id == game_id).order_by(TurnRow.turn)))  # type: ignore[arg-type]
