"""People across games: who holds which seat, by which address, and how reliably.

A person is found by any of their addresses. A seat given by the GM (`pbem new-game`, `pbem
replace`) names an address only; the club gives it its person the first time it looks
(`sync`), so every seat held by an address has a tenure, whichever way the seat was filled.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_
from sqlmodel import Session, col, select

from pbem import commands
from pbem.club.rows import AddressRow, PersonRow, TenureRow
from pbem.store import GameRow, PlayerRow, TurnRow

#: the longest name a person may sign with
MAX_NAME = 24


def person_of(session: Session, address: str) -> PersonRow | None:
    """The person an address belongs to, if any."""
    row = session.exec(select(AddressRow).where(AddressRow.address == address.lower())).first()
    return session.get(PersonRow, row.person_id) if row is not None else None


def clean_name(name: str, address: str) -> str:
    """A name to sign a seat with: letters, digits, '-' and '_' of the display name (else of
    the address's local part), at most MAX_NAME characters."""
    for candidate in (name, address.partition("@")[0]):
        plain = unicodedata.normalize("NFKD", candidate[:MAX_NAME * 4])  # "José" keeps its e, without the accent
        kept = "".join(ch for ch in plain.replace(" ", "-") if ch.isascii() and (ch.isalnum() or ch in "-_"))
        kept = kept.strip("-_")[:MAX_NAME]
        if kept:
            return kept
    return "Player"


def ensure_person(session: Session, address: str, name: str, at: datetime, zone: str = "UTC") -> PersonRow:
    """The person of `address`, made (with that one address) when there is none yet."""
    found = person_of(session, address)
    if found is not None:
        return found
    person = PersonRow(name=clean_name(name, address), timezone=zone, created_at=at)
    session.add(person)
    session.flush()
    assert person.id is not None
    session.add(AddressRow(person_id=person.id, address=address.lower(), created_at=at))
    session.flush()
    return person


def addresses(session: Session, person: PersonRow) -> list[str]:
    return list(session.exec(select(AddressRow.address).where(AddressRow.person_id == person.id)
                             .order_by(col(AddressRow.id))))


def add_address(session: Session, person: PersonRow, address: str, at: datetime) -> None:
    session.add(AddressRow(person_id=person.id or 0, address=address.lower(), created_at=at))


def sync(session: Session, at: datetime) -> None:
    """Every seat held by an address gets its holder's tenure: the seats the GM filled by hand
    since the club last looked (a new game, a replacement), one query when there are none."""
    _close_stale(session)
    session.flush()
    open_tenure = and_(col(TenureRow.player_id) == col(PlayerRow.id), col(TenureRow.to_turn).is_(None))
    rows = session.exec(select(PlayerRow).outerjoin(TenureRow, open_tenure)
                        .where(PlayerRow.email != "", col(TenureRow.id).is_(None))).all()
    for player in rows:
        person = ensure_person(session, player.email, player.name, at, player.timezone)
        session.add(TenureRow(player_id=player.id or 0, person_id=person.id or 0, game_id=player.game_id,
                              from_turn=player.since_turn))
    session.flush()


def _close_stale(session: Session) -> None:
    """A tenure whose seat is now held by another address (or a computer) ended when the seat
    changed hands: `pbem replace` by hand says nothing to the club."""
    rows = session.exec(select(TenureRow, PlayerRow, AddressRow)
                        .join(PlayerRow, col(PlayerRow.id) == col(TenureRow.player_id))
                        .outerjoin(AddressRow, and_(col(AddressRow.person_id) == col(TenureRow.person_id),
                                                    col(AddressRow.address) == col(PlayerRow.email)))
                        .where(col(TenureRow.to_turn).is_(None), col(AddressRow.id).is_(None))).all()
    for tenure, player, _ in rows:
        tenure.to_turn, tenure.ended = player.since_turn, tenure.ended or "replaced"
        session.add(tenure)


@dataclass(frozen=True)
class Seat:
    """A seat a person holds now."""

    game: GameRow
    player: PlayerRow
    tenure: TenureRow


def seats_of(session: Session, person: PersonRow, *, running: bool = True) -> list[Seat]:
    """The seats the person holds now (of games not over, unless `running` is False)."""
    query = (select(TenureRow, PlayerRow, GameRow).join(PlayerRow, col(PlayerRow.id) == col(TenureRow.player_id))
             .join(GameRow, col(GameRow.id) == col(TenureRow.game_id))
             .where(TenureRow.person_id == person.id, col(TenureRow.to_turn).is_(None)).order_by(col(GameRow.name)))
    if running:
        query = query.where(GameRow.over == False)  # noqa: E712
    return [Seat(game, player, tenure) for tenure, player, game in session.exec(query).all()]


@dataclass(frozen=True)
class Reliability:
    """A person's record: turns due and missed (vacations excused), games finished, resigned, replaced."""

    due: int = 0
    missed: int = 0
    finished: int = 0
    resigned: int = 0
    replaced: int = 0

    @property
    def kept(self) -> int:
        """Percent of the turns due that were kept (100 with none due yet)."""
        return 100 if not self.due else round(100 * (self.due - self.missed) / self.due)

    def line(self) -> str:
        return (f"{self.kept}% of turns kept ({self.missed} missed of {self.due}), {self.finished} games finished, "
                f"{self.resigned} resigned, {self.replaced} replaced")


def reliability(session: Session, person: PersonRow) -> Reliability:
    """Counted over every tenure: the turns resolved while the person held the seat and the seat
    was due (a sheet stood in its turn record), those without the person's sheet that fell on no
    vacation of theirs."""
    rows = session.exec(select(TenureRow, PlayerRow, GameRow).join(PlayerRow, col(PlayerRow.id) == col(TenureRow.player_id))
                        .join(GameRow, col(GameRow.id) == col(TenureRow.game_id))
                        .where(TenureRow.person_id == person.id)).all()
    due = missed = finished = resigned = replaced = 0
    for tenure, player, game in rows:
        turns = session.exec(select(TurnRow).where(TurnRow.game_id == game.id, TurnRow.turn >= tenure.from_turn)).all()
        for t in turns:
            if tenure.to_turn is not None and t.turn >= tenure.to_turn:
                continue
            sheets = json.loads(t.sheets)
            if player.name not in sheets:
                continue
            due += 1
            if sheets[player.name] is None and (tenure.to_turn is not None or not commands.is_away(player, t.resolved_at)):
                missed += 1
        resigned += tenure.ended == "resigned"
        replaced += tenure.ended == "replaced"
        finished += game.over and tenure.to_turn is None
    return Reliability(due, missed, finished, resigned, replaced)


def holders(session: Session, game_ids: Sequence[int]) -> dict[tuple[int, int], PersonRow]:
    """Who held each (game, seat) at its end: the tenure still open (a person), by seat."""
    if not game_ids:
        return {}
    rows = session.exec(select(TenureRow, PlayerRow, PersonRow).join(PlayerRow, col(PlayerRow.id) == col(TenureRow.player_id))
                        .join(PersonRow, col(PersonRow.id) == col(TenureRow.person_id))
                        .where(col(TenureRow.game_id).in_(list(game_ids)), col(TenureRow.to_turn).is_(None))).all()
    return {(player.game_id, player.seat): person for _, player, person in rows}
