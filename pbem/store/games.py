"""Games, their players, and what was done to a game besides orders (its events)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from pbem.errors import PbemError
from pbem.store.base import StoreBase
from pbem.store.rows import EventRow, GameRow, PlayerRow


class _Q:
    """The statements of the busiest questions, built once: building a statement costs about as
    much as running it (taking in a mail asks six of them; resolving a turn, a dozen). Their
    values come as parameters."""

    game = select(GameRow).where(GameRow.name == bindparam("name"))
    lock_game = game.execution_options(populate_existing=True)
    lock_game_for_update = lock_game.with_for_update()
    players = select(PlayerRow).where(PlayerRow.game_id == bindparam("game_id")).order_by(col(PlayerRow.seat))
    game_and_players = (select(GameRow, PlayerRow).join(PlayerRow, col(PlayerRow.game_id) == col(GameRow.id))
                        .where(GameRow.name == bindparam("name")).order_by(col(PlayerRow.seat)))
    events = select(EventRow).where(EventRow.game_id == bindparam("game_id")).order_by(col(EventRow.id))
    events_of_kinds = (select(EventRow).where(EventRow.game_id == bindparam("game_id"),
                                              col(EventRow.kind).in_(bindparam("kinds", expanding=True)))
                       .order_by(col(EventRow.id)))


class Games(StoreBase):
    """Finding games and their players, locking a game to resolve its turn, and reading its events."""

    def game(self, session: Session, name: str) -> GameRow:
        row = session.exec(_Q.game, params={"name": name}).first()
        if row is None:
            raise self._no_game(session, name)
        return row

    def _no_game(self, session: Session, name: str) -> PbemError:
        names = self.game_names(session)
        known = f"; games: {', '.join(names)}" if names else "; there are no games yet (pbem new-game)"
        return PbemError(f"no game called {name!r}{known}")

    def lock_game(self, session: Session, name: str) -> GameRow:
        """The game, locked until the session's transaction ends, for resolving a turn.

        PostgreSQL: SELECT ... FOR UPDATE, so a second worker resolving the same game waits here
        and then reads the turn the first one wrote. SQLite: a plain select (SQLite has no row
        locks; one writer at a time, and turn's unique (game_id, turn) refuses a second
        resolution). The row is read afresh even if the session had it already."""
        q = _Q.lock_game_for_update if session.get_bind().dialect.name == "postgresql" else _Q.lock_game
        row = session.exec(q, params={"name": name}).first()
        if row is None:
            raise self._no_game(session, name)
        return row

    def find_game(self, session: Session, name: str) -> GameRow | None:
        return session.exec(_Q.game, params={"name": name}).first()

    def game_and_players(self, session: Session, name: str) -> tuple[GameRow | None, list[PlayerRow]]:
        """The game called `name` and its players by seat, in one query; (None, []) if there is
        none (or it has no players yet: then `find_game` and `players`)."""
        rows = session.exec(_Q.game_and_players, params={"name": name}).all()
        return (rows[0][0] if rows else None), [player for _, player in rows]

    def game_names(self, session: Session) -> list[str]:
        return list(session.exec(select(GameRow.name).order_by(GameRow.name)))

    def games(self, session: Session) -> list[GameRow]:
        return list(session.exec(select(GameRow).order_by(GameRow.name)))

    def players(self, session: Session, game_id: int) -> list[PlayerRow]:
        return list(session.exec(_Q.players, params={"game_id": game_id}))

    def games_of_address(self, session: Session, address: str) -> list[GameRow]:
        rows = session.exec(
            select(GameRow)
            .join(PlayerRow, col(PlayerRow.game_id) == GameRow.id)
            .where(PlayerRow.email == address.lower())
        )
        return list(rows)

    def players_with_address(self, session: Session, address: str) -> list[PlayerRow]:
        return list(session.exec(select(PlayerRow).where(PlayerRow.email == address.lower())))

    def events(self, session: Session, game_id: int, kinds: Sequence[str] = ()) -> list[EventRow]:
        if kinds:
            return list(session.exec(_Q.events_of_kinds, params={"game_id": game_id, "kinds": list(kinds)}))
        return list(session.exec(_Q.events, params={"game_id": game_id}))

    def events_since(self, session: Session, game_id: int, kind: str, seat: int, since: datetime) -> int:
        rows = session.exec(select(EventRow.id).where(EventRow.game_id == game_id, EventRow.kind == kind,
                                                      EventRow.seat == seat, EventRow.created_at >= since))
        return len(list(rows))
