"""Standbys, resignation and takeover; and a person's games (STATUS without a GAME line).

A seat is offered to the standby pool of its game system by the GM (`pbem replace GAME SEAT
--standby`), by a resignation in a game set so, or by itself once its holder has missed the
game's `missed_limit` turns in a row. Every person in the pool gets a mail; the first TAKEOVER
claims the offer in one statement (of two at once, one gets it), and the seat is handed over by
`pbem replace`'s own rules: a new secret, the story so far, the deadline moved.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import func, update
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, select

from pbem.club import people
from pbem.club.rows import ClubGameRow, ObserverRow, OfferRow, OpenGameRow, PersonRow, SignupRow, StandbyRow, TenureRow
from pbem.errors import PbemError
from pbem.games import find_game
from pbem.mail.kinds import MailKind
from pbem.reports import when
from pbem.store import GameRow, PlayerRow, TurnRow

if TYPE_CHECKING:
    from pbem.moderator import Moderator


def settings(session: Session, game: GameRow) -> ClubGameRow:
    """The club's settings of a game (the defaults when the GM set none)."""
    return session.get(ClubGameRow, game.id) or ClubGameRow(game_id=game.id or 0)


def seat_in(session: Session, person: PersonRow, name: str) -> people.Seat:
    """The person's seat in the running game `name`."""
    mine = [s for s in people.seats_of(session, person) if s.game.name.lower() == name.lower()]
    if not mine:
        raise PbemError(f"you hold no seat in a running game called {name!r}; STATUS lists your games")
    return mine[0]


def resign_note(session: Session, seat: people.Seat) -> str:
    how = settings(session, seat.game).on_resign
    if how.startswith("computer:"):
        return f"A computer player ({how.partition(':')[2]}) takes the seat over."
    return "The seat is offered to the standby pool; a computer player keeps it until somebody takes it over."


def offer(m: Moderator, session: Session, game: GameRow, player: PlayerRow) -> OfferRow:
    """Offer the seat to the pool of its game system: one mail to each person in it (not
    to those who play the game already)."""
    row = OfferRow(game_id=game.id or 0, seat=player.seat, turn=game.turn, created_at=m.now())
    session.add(row)
    session.flush()
    engine = find_game(game.game)
    from pbem.club.mail import Member

    for person in pool(session, game):
        for address in people.addresses(session, person)[:1]:
            m.mailer.queue(session, game, game.turn, m.mailer.answer(
                game, Member(person.name, address), command=f"seat {player.name} offered",
                opening=f"the seat {player.name} of {game.name} ({engine.info.title}, turn {game.turn}) needs a player.",
                lines=("The first to reply with this line takes it over:", "", f"  TAKEOVER {game.name} {player.name}",
                       "", "You get a new secret, the story so far and time before the deadline."),
                key=f"offer-{row.id}", kind=MailKind.NOTICE))
    return row


def pool(session: Session, game: GameRow) -> list[PersonRow]:
    """The people an offer of a seat of `game` goes to: its system's pool, but for those who play it."""
    playing = {s.person_id for s in session.exec(select(TenureRow).where(TenureRow.game_id == game.id,
                                                                         col(TenureRow.to_turn).is_(None)))}
    rows = session.exec(select(StandbyRow, PersonRow).join(PersonRow, col(PersonRow.id) == col(StandbyRow.person_id))
                        .where(StandbyRow.game_system == find_game(game.game).info.name)
                        .order_by(col(StandbyRow.id))).all()
    return [person for _, person in rows if person.id not in playing]


def offer_seat(m: Moderator, name: str, seat: str) -> int:
    """`pbem replace GAME SEAT --standby`: how many in the pool were told (an offer with nobody
    told stays open for whoever joins the pool and asks)."""
    with m.store.session() as session:
        game = m.store.game(session, name)
        if game.over:
            raise PbemError(f"{name} is over; there is no seat to offer")
        player = _player(m, session, game, seat)
        if session.exec(select(OfferRow).where(OfferRow.game_id == game.id, OfferRow.seat == player.seat,
                                               OfferRow.taken == False)).first() is not None:  # noqa: E712
            raise PbemError(f"{player.name} of {game.name} is offered to the standby pool already; the first "
                            "TAKEOVER by mail gets it (or hand it on with --email or --bot)")
        told = len(pool(session, game))
        offer(m, session, game, player)
    m.deliver()
    return told


def _player(m: Moderator, session: Session, game: GameRow, seat: str) -> PlayerRow:
    players = m.store.players(session, game.id or 0)
    row = next((p for p in players if p.name.lower() == seat.lower()), None)
    if row is None:
        raise PbemError(f"{game.name} has no seat {seat!r}; its seats: {', '.join(p.name for p in players)}")
    return row


def claim_offer(session: Session, person: PersonRow, name: str, seat: str) -> OfferRow:
    """TAKEOVER GAME SEAT: the open offer of that seat, claimed for `person` in one statement."""
    found = session.exec(select(GameRow).where(func.lower(GameRow.name) == name.lower(),
                                               GameRow.over == False)).first()  # noqa: E712
    if found is None:
        raise PbemError(f"no running game is called {name!r}")
    system = find_game(found.game).info.name
    if session.exec(select(StandbyRow).where(StandbyRow.person_id == person.id,
                                             StandbyRow.game_system == system)).first() is None:
        raise PbemError(f"you are not in the standby pool of {system} (STANDBY {system} puts you there)")
    if any(s.game.id == found.id for s in people.seats_of(session, person)):
        raise PbemError(f"you play {found.name} already")
    players = {p.seat: p for p in session.exec(select(PlayerRow).where(PlayerRow.game_id == found.id))}
    offers = session.exec(select(OfferRow).where(OfferRow.game_id == found.id, OfferRow.taken == False)).all()  # noqa: E712
    row = next((o for o in offers if players[o.seat].name.lower() == seat.lower()), None)
    if row is None:
        raise PbemError(f"no seat {seat!r} of {found.name} is offered now (taken already, or never offered)")
    claimed = session.connection().execute(update(OfferRow).where(col(OfferRow.id) == row.id, col(OfferRow.taken) == False)  # noqa: E712
                                           .values(taken=True))
    assert isinstance(claimed, CursorResult)
    if claimed.rowcount != 1:
        raise PbemError(f"{seat} of {found.name} was taken over by somebody else a moment ago")
    return row


def hand_over(m: Moderator, game_id: int, seat: int, *, address: str = "", bot: str = "",
              ended: str = "replaced") -> None:
    """The seat to `address` (or a computer player of level `bot`) by `pbem replace`'s rules;
    the tenure that ends says why."""
    with m.store.session() as session:
        game = session.get(GameRow, game_id)
        player = session.exec(select(PlayerRow).where(PlayerRow.game_id == game_id, PlayerRow.seat == seat)).one()
        assert game is not None
        name, seat_name, turn = game.name, player.name, game.turn
        for tenure in session.exec(select(TenureRow).where(TenureRow.player_id == player.id,
                                                           col(TenureRow.to_turn).is_(None))):
            tenure.to_turn, tenure.ended = turn, ended
            session.add(tenure)
    m.replace_player(name, seat_name, email=address or None, bot=bot or None)
    with m.store.session() as session:
        people.sync(session, m.now())


def resign(m: Moderator, game_id: int, seat: int) -> None:
    """A confirmed RESIGN: the seat to a computer player (of the game's level, or its default
    while the pool is asked), offered to the pool unless the game is set to a computer."""
    with m.store.session() as session:
        game = session.get(GameRow, game_id)
        assert game is not None
        how = settings(session, game).on_resign
    engine = find_game(game.game)
    level = how.partition(":")[2] if how.startswith("computer:") else (engine.info.bot_levels or ("",))[-1]
    hand_over(m, game_id, seat, bot=level, ended="resigned")
    if not how.startswith("computer:"):
        with m.store.session() as session:
            fresh = session.get(GameRow, game_id)
            assert fresh is not None
            player = session.exec(select(PlayerRow).where(PlayerRow.game_id == game_id, PlayerRow.seat == seat)).one()
            offer(m, session, fresh, player)
        m.deliver()


def quiet_seats(m: Moderator, name: str) -> list[OfferRow]:
    """Seats whose holder missed the game's `missed_limit` turns in a row, offered to the pool
    (once: not while an offer of the seat is open)."""
    offered = []
    with m.store.session() as session:
        game = m.store.find_game(session, name)
        if game is None or game.over or game.id is None:
            return []
        limit = settings(session, game).missed_limit
        if limit <= 0 or game.turn <= limit:
            return []
        turns = session.exec(select(TurnRow).where(TurnRow.game_id == game.id, TurnRow.turn >= game.turn - limit)
                             .order_by(col(TurnRow.turn))).all()
        open_offers = {o.seat for o in session.exec(select(OfferRow).where(OfferRow.game_id == game.id,
                                                                           OfferRow.taken == False))}  # noqa: E712
        for player in m.store.players(session, game.id):
            if player.bot or player.seat in open_offers or player.since_turn > game.turn - limit:
                continue
            if _missed_all(turns, player):
                offered.append(offer(m, session, game, player))
    if offered:
        m.deliver()
    return offered


def _missed_all(turns: Sequence[TurnRow], player: PlayerRow) -> bool:
    from pbem import commands

    sheets = [json.loads(t.sheets) for t in turns]
    return bool(sheets) and all(player.name in s and s[player.name] is None for s in sheets) and not any(
        commands.is_away(player, t.resolved_at) for t in turns)


def my_games(session: Session, person: PersonRow) -> list[str]:
    """STATUS without a GAME line: every game the person plays or watches, what is due, each
    deadline (in their time zone), their sign-ups, pools and record."""
    from pbem.store import SheetRow

    lines: list[str] = []
    for seat in people.seats_of(session, person):
        game, player = seat.game, seat.player
        engine = find_game(game.game)
        state = engine.load_state(json.loads(game.state))
        sent = session.exec(select(SheetRow.id).where(SheetRow.game_id == game.id, SheetRow.player_id == player.id,
                                                      SheetRow.turn == game.turn, SheetRow.current == True)).first()  # noqa: E712
        due = ("no move this turn" if player.seat not in engine.to_move(state)
               else "your orders are in" if sent is not None else "your orders are due")
        deadline = "paused" if game.paused else when(game.deadline, person.timezone) if game.deadline else "none"
        lines.append(f"  {game.name}: {engine.info.title}, you play {player.name}, turn {game.turn}: {due}; "
                     f"deadline {deadline}")
    if not lines:
        lines.append("  You hold no seat in a running game.")
    watched = session.exec(select(ObserverRow).where(col(ObserverRow.person_id) == person.id)).all()
    if watched:
        lines += ["", "You watch:", *(f"  {w.game_name}" for w in watched)]
    joined = session.exec(select(SignupRow).where(SignupRow.person_id == person.id)).all()
    waiting = [session.get(OpenGameRow, s.open_game_id) for s in joined]
    waiting_names = [w.name for w in waiting if w is not None and w.status == "open"]
    if waiting_names:
        lines += ["", "Signed up, waiting for the start:", *(f"  {n}" for n in waiting_names)]
    pools = session.exec(select(StandbyRow.game_system).where(StandbyRow.person_id == person.id)).all()
    if pools:
        lines += ["", f"On standby for: {', '.join(pools)}"]
    lines += ["", f"Your record: {people.reliability(session, person).line()}."]
    return lines


def set_game(m: Moderator, name: str, *, rated: bool | None = None, missed_limit: int | None = None,
             on_resign: str | None = None) -> ClubGameRow:
    """`pbem club-game`: the club's settings of a game, each left as it was unless given."""
    with m.store.session() as session:
        game = m.store.game(session, name)
        row = session.get(ClubGameRow, game.id) or ClubGameRow(game_id=game.id or 0)
        if on_resign is not None:
            level = on_resign.partition(":")[2]
            if on_resign != "standby" and not (on_resign.startswith("computer:") and level):
                raise PbemError(f"--on-resign takes standby or computer:LEVEL, not {on_resign!r}")
            if level and find_game(game.game).bot(level) is None:
                levels = ", ".join(find_game(game.game).info.bot_levels) or "none"
                raise PbemError(f"{game.game} has no computer player of level {level!r}; its levels: {levels}")
            row.on_resign = on_resign
        row.rated = row.rated if rated is None else rated
        row.missed_limit = row.missed_limit if missed_limit is None else missed_limit
        session.add(row)
        session.flush()
        session.expunge(row)
    return row
