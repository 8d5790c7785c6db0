"""Where the club joins the moderator's work: after a club mail (the chores its transaction
could not do), after a resolved turn (observers' reports, quiet seats, a tournament's next
round), and in each round of `pbem run` (open games whose date has come).

Each chore is claimed in one statement before it is done, so of two workers one does it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from sqlalchemy import update
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, select

from pbem import clock
from pbem.club import signup, standby, tournament
from pbem.club.rows import ObserverRow, PendingRow, PersonRow
from pbem.errors import PbemError
from pbem.games.base import Viewer
from pbem.mail.kinds import MailKind
from pbem.turn_record import TurnRecord

if TYPE_CHECKING:
    from pbem.moderator import Moderator

log = logging.getLogger(__name__)


def after_mail(m: Moderator) -> None:
    """Do the chores club mails left: games to start, seats to hand over."""
    with m.store.session() as session:
        chores = session.exec(select(PendingRow).where(PendingRow.address == "", PendingRow.done == False)  # noqa: E712
                              .order_by(col(PendingRow.id))).all()
        session.expunge_all()
    for chore in chores:
        if not _claim(m, chore.id or 0):
            continue
        try:
            _do(m, chore)
        except PbemError as err:  # the game or seat changed meanwhile: the GM hears of it
            log.warning("club chore %s %s not done: %s", chore.action, chore.argument, err)
            with m.store.session() as session:
                m.mailer.queue(session, None, None, m.mailer.gm_alert(
                    key=("club-chore", chore.id), subject=f"club: {chore.action} {chore.argument} was not done",
                    text=f"pbem could not do {chore.action} {chore.argument}: {err}"))
            m.deliver()


def _claim(m: Moderator, chore: int) -> bool:
    with m.store.session() as session:
        result = session.connection().execute(update(PendingRow).where(col(PendingRow.id) == chore,
                                                                       col(PendingRow.done) == False)  # noqa: E712
                                              .values(done=True))
        assert isinstance(result, CursorResult)
        return result.rowcount == 1


def _do(m: Moderator, chore: PendingRow) -> None:
    words = chore.argument.split()
    if chore.action == "START":
        signup.start(m, chore.argument)
    elif chore.action == "HANDOVER":
        standby.hand_over(m, int(words[0]), int(words[1]), address=words[2])
    elif chore.action == "RESIGN":
        standby.resign(m, int(words[0]), int(words[1]))


def after_turn(m: Moderator, name: str) -> None:
    """A turn of `name` was resolved: its observers get the public report, quiet seats are
    offered, and a tournament whose round this game ends goes on."""
    observe(m, name)
    standby.quiet_seats(m, name)
    tournament.advance(m, name)


def after_round(m: Moderator) -> None:
    """`pbem run`'s round: open games whose date has come start; left-over chores are done."""
    signup.start_due(m)
    after_mail(m)


def observe(m: Moderator, name: str) -> int:
    """The public account of the game's last resolved turn to each observer, once each: what
    happened and the position as anyone may see them (`Viewer.public()`, as the archive shows)."""
    from pbem.club.mail import Member

    with m.store.session() as session:
        game = m.store.find_game(session, name)
        if game is None or game.id is None or game.turn <= 1:
            return 0
        watchers = session.exec(select(ObserverRow).where(ObserverRow.game_name == game.name)).all()
        if not watchers:
            return 0
        record = m.store.turn(session, game.id, game.turn - 1)
        assert record is not None
        engine = m.engine(game)
        public = Viewer.public()
        told = TurnRecord.from_row(engine, record)
        lines: list[str] = []
        for r in told.seen_by(public):  # every line of each, as the archive's page of the turn tells it
            first, *more = engine.presenter.resolution_lines(r, private=False) or [""]
            lines += [f"  {first}", *(f"    {x.strip()}" for x in more)]
        position = engine.presenter.position_lines(engine.view(told.after, public))
        due = [f"Turn {game.turn} is due {clock.show_utc(game.deadline)}.", ""] if game.deadline is not None else []
        body = ["What happened:", *lines, "", "The position:", *(f"  {x}" for x in position),
                "", *due, f"UNOBSERVE {game.name} in a mail to pbem stops these reports."]
        count = 0
        for w in watchers:
            mail = m.mailer.answer(game, Member(_name(session, w), w.address), command=f"turn {record.turn}",
                                   opening=f"turn {record.turn} of {game.name} ({engine.info.title}) is resolved.",
                                   lines=body, key=f"observe-{record.turn}-{record.correction}",
                                   kind=MailKind.NOTICE)  # no "orders due" calendar: an observer sends none
            if not m.store.mail_exists(session, mail.msg_id):
                m.mailer.queue(session, game, record.turn, mail)
                count += 1
    if count:
        m.deliver()
    return count


def _name(session: Session, watcher: ObserverRow) -> str:
    person = session.get(PersonRow, watcher.person_id)
    return person.name if person is not None else watcher.address
