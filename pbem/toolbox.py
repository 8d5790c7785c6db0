"""The GM's toolbox: the games and their status, and every action a GM takes on a running game."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlmodel import Session

from pbem import bots, clock, commands
from pbem.clock import show_utc as _show
from pbem.clock import utc as _aware
from pbem.errors import PbemError
from pbem.games.base import Viewer
from pbem.intake import GM_SOURCE, IntakeResult, run_pipeline
from pbem.mail.kinds import MailKind
from pbem.mail.sender import validate_address
from pbem.store import EventKind, EventRow, GameRow, MessageRow, PlayerRow, UndoneTurnRow
from pbem.tokens import check_secret, new_secret
from pbem.turn_record import TurnRecord

if TYPE_CHECKING:  # the moderator calls the toolbox with itself
    from pbem.moderator import Moderator


@dataclass(frozen=True)
class SeatStatus:
    """A seat in the current turn, as `pbem status` shows it to the GM."""

    name: str
    email: str  # "" for a computer player
    bot: str | None  # a computer player's level
    to_move: bool  # the seat has a move this turn
    bouncing: str  # why mail to the seat bounces, "" if it does not
    orders: datetime | None  # when the sheet in force for this turn came in
    standing: bool  # no sheet for this turn, but a STANDING one plays
    away: bool  # on vacation


@dataclass(frozen=True)
class GameStatus:
    """A game's current turn: whose orders are in, the deadline, and mail waiting to be taken in."""

    name: str
    turn: int
    over: bool
    deadline: datetime | None
    paused: bool
    players: tuple[SeatStatus, ...]
    pending: int  # mails stored but not yet taken in, of any game
    strangers: int  # mails from addresses that play no game, in the last 7 days


def status(m: Moderator, name: str) -> GameStatus:
    """Whose orders are in for the current turn of `name`, the deadline, and mail waiting to be taken in."""
    with m.store.session() as session:
        game = m.store.game(session, name)
        assert game.id is not None
        players = m.store.players(session, game.id)
        sheets = m.store.current_sheets(session, game.id, game.turn)
        due = set(m.engine(game).to_move(m.state(game)))
        return GameStatus(
            name=game.name,
            turn=game.turn,
            over=game.over,
            deadline=game.deadline,
            paused=game.paused,
            players=tuple(
                SeatStatus(name=p.name, email=p.email, bot=p.bot or None, to_move=p.seat in due,
                           bouncing=p.bouncing, orders=sheets[p.id].received_at if p.id in sheets else None,
                           standing=p.id not in sheets and m.store.standing_sheet(session, p, game.turn) is not None,
                           away=commands.is_away(p, m.now()))
                for p in players
            ),
            pending=m.store.pending_messages(session),
            strangers=m.store.strangers_since(session, m.now() - timedelta(days=7)),
        )


def enter_sheet(m: Moderator, name: str, seat: str, text: str) -> IntakeResult:
    """The GM enters a sheet for a seat (after a rollback, or for a player who sent it another
    way): it goes through the same parsing, checks and acknowledgement as a mailed sheet, and
    replaces the seat's sheet in force."""
    if len(text) > 200_000:
        raise PbemError("a sheet of more than 200,000 characters is no sheet; check the file")
    with m.store.session() as session:
        game = m.store.game(session, name)
        assert game.id is not None
        players = m.store.players(session, game.id)
        row = _seat(players, game, seat)
        stamp = m.now().strftime("%Y%m%d%H%M%S%f")
        message = MessageRow(message_id=f"<gm.{game.name}.{game.turn}.{row.seat}.{stamp}@pbem.invalid>",
                             raw=f"GAME {game.name}\nTURN {game.turn}\n{text}".encode(), source=GM_SOURCE,
                             received_at=m.now(), sender="", subject=f"{row.name} (entered by the GM)",
                             game_id=game.id, player_id=row.id)
    stored = m.store.add_message(message)
    if stored is None:
        raise PbemError("that sheet was entered a moment ago; try again")
    return run_pipeline(m.intake, stored)


def change_secret(m: Moderator, name: str, player: str, secret: str | None = None) -> PlayerRow:
    """Give a player a new secret (or the one given) and mail it to them."""
    problem = check_secret(secret) if secret is not None else None
    if problem is not None:
        raise PbemError(f"{problem}; leave --set out for a random one")
    with m.store.session() as session:
        game = m.store.game(session, name)
        assert game.id is not None
        players = m.store.players(session, game.id)
        row = next((p for p in players if p.name.lower() == player.lower()), None)
        if row is None:
            raise PbemError(f"{name} has no player {player!r}; its players: {', '.join(p.name for p in players)}")
        if not row.email:
            raise PbemError(f"{row.name} is a computer player: it has no secret to change")
        row.secret = secret or new_secret()
        session.add(row)
        m.mailer.queue(session, game, game.turn, m.mailer.secret_mail(
            game, row, why="the GM gave you a new one", message=_once(m.now())))
        session.flush()
        session.expunge(row)
    m.deliver()
    return row


@dataclass(frozen=True)
class GameListing:
    """A game in the list of every game: what is played, the turn, the deadline, whose orders are missing."""

    name: str
    kind: str  # the game played
    ruleset: str
    turn: int
    deadline: datetime | None
    paused: bool
    over: bool
    result: str
    missing: tuple[str, ...]  # the players who must move and have sent no orders


def games(m: Moderator) -> list[GameListing]:
    """Every game: what is played, the turn, the deadline, and whose orders are missing."""
    out = []
    with m.store.session() as session:
        for game in m.store.games(session):
            assert game.id is not None
            players = m.store.players(session, game.id)
            engine = m.engine(game)
            state = m.state(game)
            sent = commands.sent_seats(m.store, session, game, players)
            due = set(engine.to_move(state)) if not game.over else set()
            missing = [p.name for p in players if p.seat in due and p.seat not in sent and not p.bot]
            out.append(GameListing(name=game.name, kind=engine.info.name, ruleset=game.rules, turn=game.turn,
                                   deadline=game.deadline, paused=game.paused, over=game.over, result=game.result,
                                   missing=tuple(missing)))
    return out


def _seat(players: Sequence[PlayerRow], game: GameRow, seat: str) -> PlayerRow:
    row = next((p for p in players if p.name.lower() == seat.lower()), None)
    if row is None:
        raise PbemError(f"{game.name} has no seat {seat!r}; its seats: {', '.join(p.name for p in players)}")
    return row


def _event(m: Moderator, session: Session, game: GameRow, kind: EventKind, text: str, seat: int | None = None) -> int:
    """Record a GM's action; its id tells apart the mails the action sends (two actions in one
    turn, or in one second, are two sets of mail)."""
    assert game.id is not None
    row = EventRow(game_id=game.id, turn=game.turn, kind=kind, seat=seat, text=text, created_at=m.now())
    session.add(row)
    session.flush()
    assert row.id is not None
    return row.id


def _tell(m: Moderator, session: Session, game: GameRow, players: Sequence[PlayerRow], what: str, opening: str,
          lines: Sequence[str], *, event: int, deadline: bool = False) -> int:
    """A notice from the GM (of the action recorded as `event`) to every player who reads mail
    (with the deadline as .ics)."""
    key = f"{what}-e{event}"
    count = 0
    for p in players:
        if not p.email:
            continue
        m.mailer.queue(session, game, game.turn, m.mailer.answer(
            game, p, command=what, opening=opening, lines=lines, key=key, kind=MailKind.NOTICE,
            deadline=game.deadline if deadline else None))
        count += 1
    return count


def replace_player(m: Moderator, name: str, seat: str, *, email: str | None = None, bot: str | None = None,
                   secret: str | None = None) -> PlayerRow:
    """A new person (new secret, a welcome with the story so far, the deadline extended to at
    least the takeover span) or a computer player takes over a seat; earlier missed turns stay
    the earlier player's."""
    if (email is None) == (bot is None):
        raise PbemError("give either --email ADDRESS (a new person) or --bot LEVEL (a computer player)")
    address = validate_address(email) if email is not None else ""
    bot = bot.strip().lower() if bot is not None else None
    problem = check_secret(secret) if secret is not None else None
    if problem is not None:
        raise PbemError(f"{problem}; leave --secret out for a random one")
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        if game.over:
            raise PbemError(f"{name} is over; there is no seat to take over")
        if bot is not None:
            bots.check_level(m.engine(game), bot)
        players = m.store.players(session, game.id)
        row = _seat(players, game, seat)
        if address and any(p.email == address.lower() for p in players if p.id != row.id):
            raise PbemError(f"{address} already plays another seat of {name}")
        before = f"{row.email or 'a computer player'}"
        row.email, row.bot = address.lower(), bot or ""
        row.secret, row.since_turn, row.timezone = secret or new_secret(), game.turn, "UTC"
        row.bouncing, row.away, row.vacation_days = "", "", 0
        assert row.id is not None
        m.store.retire_sheets(session, row.id, game.turn)  # the earlier player's orders are not the newcomer's
        session.add(row)
        who = f"<{address}>" if address else f"a computer player ({bot})"
        text = f"{row.name} is now played by {'a computer player' if bot else 'a new player'}, from turn {game.turn}"
        event = _event(m, session, game, EventKind.REPLACE, f"{row.name} ({before}) handed to {who} from turn {game.turn}"
                    f"\n{text}", row.seat)
        minimum = m.now() + clock.require_span(m.config.takeover, "takeover")
        extended = not game.paused and game.deadline is not None and _aware(game.deadline) < minimum
        if extended:
            game.deadline = minimum
            session.add(game)
        engine = m.engine(game)
        state = m.state(game)
        if address:
            m.mailer.queue(session, game, game.turn,
                              m.mailer.welcome(game, engine, state, row, m.now(), key=f"e{event}", players=players))
            turns = m.store.turns(session, game.id)
            story = commands.history_lines(engine, players, turns, row.seat)
            story += ["", "The position now:", *(f"  {x}" for x in engine.presenter.position_lines(
                engine.view(state, Viewer(row.seat))))]
            m.mailer.queue(session, game, game.turn, m.mailer.answer(
                game, row, command="the story so far", opening=f"welcome to {game.name}: this is what happened "
                "before you took over.", lines=story, key=f"e{event}", kind=MailKind.NOTICE))
        others = [p for p in players if p.id != row.id]
        lines = [text + "."]
        if extended:
            lines.append(f"The deadline is extended so the newcomer has time: {_show(game.deadline)}.")
        _tell(m, session, game, others, "a new player", f"news of {game.name}:", lines, deadline=extended, event=event)
        session.flush()
        session.expunge(row)
    m.deliver()
    return row


def pause(m: Moderator, name: str) -> GameRow:
    """Stop the game's deadlines (no turn is due, no reminder goes out); players are told."""
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        if game.over or game.paused:
            raise PbemError(f"{name} is {'over' if game.over else 'paused already'}; nothing was changed")
        game.paused = True
        session.add(game)
        event = _event(m, session, game, EventKind.PAUSE, f"paused; the deadline was {_show(game.deadline)}")
        assert game.id is not None
        _tell(m, session, game, m.store.players(session, game.id), "paused",
                   f"the GM has paused {game.name}.",
                   ["The deadline is stopped; you will be told when the game goes on, with the new deadline.",
                    "Orders are still taken meanwhile."], event=event)
    m.deliver()
    return game


def resume(m: Moderator, name: str) -> GameRow:
    """Start the deadlines again: the current deadline moves on by the time the game was paused."""
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        if not game.paused:
            raise PbemError(f"{name} is not paused; nothing was changed")
        paused = m.store.events(session, game.id, (EventKind.PAUSE,))
        since = _aware(paused[-1].created_at) if paused else m.now()
        if game.deadline is not None:
            game.deadline = _aware(game.deadline) + (m.now() - since)
        game.paused = False
        session.add(game)
        event = _event(m, session, game, EventKind.RESUME, f"resumed; the deadline is {_show(game.deadline)}")
        _tell(m, session, game, m.store.players(session, game.id), "resumed",
                   f"{game.name} goes on.", [f"Deadline for turn {game.turn}: {_show(game.deadline)}."],
                   deadline=True, event=event)
    m.deliver()
    return game


def move_deadline(m: Moderator, name: str, when: str) -> GameRow:
    """Set the current turn's deadline: a moment (2026-12-01 18:00 Europe/London) or a span from now (3d)."""
    span = clock.parse_span(when)
    moment = m.now() + span if span is not None else clock.parse_moment(when)
    if moment <= m.now():
        raise PbemError(f"{when!r} is in the past; give a later moment, or a span such as 2d")
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        if game.over:
            raise PbemError(f"{name} is over; it has no deadline")
        game.deadline = moment
        session.add(game)
        event = _event(m, session, game, EventKind.DEADLINE, f"deadline moved to {_show(moment)}")
        _tell(m, session, game, m.store.players(session, game.id), "new deadline",
                   f"the GM has moved the deadline of {game.name} turn {game.turn}.",
                   [f"New deadline: {_show(moment)}."], deadline=True, event=event)
    m.deliver()
    return game


def rollback(m: Moderator, name: str) -> int:
    """Undo the last resolved turn: the position before it comes back, its sheets are in force
    again; the undone turn is kept whole (undone_turn), and its redo's reports say correction."""
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        if game.turn <= 1:
            raise PbemError(f"{name} has no resolved turn to undo")
        record = m.store.turn(session, game.id, game.turn - 1)
        assert record is not None
        session.add(UndoneTurnRow(game_id=game.id, turn=record.turn, correction=record.correction,
                                  resolved_at=record.resolved_at, undone_at=m.now(), deadline=record.deadline,
                                  before=record.before, after=record.after, resolutions=record.resolutions,
                                  sheets=record.sheets, dice=record.dice))
        session.delete(record)  # moved whole to undone_turn above: the turn number is free to resolve again
        previous = m.store.turn(session, game.id, record.turn - 1)
        game.state, game.turn, game.over = record.before, record.turn, False
        game.deadline = previous.deadline if previous is not None else game.deadline
        session.add(game)
        _event(m, session, game, EventKind.ROLLBACK, f"turn {record.turn} undone (resolved "
                    f"{_show(record.resolved_at)}); its sheets are in force again")
    return record.turn


def edit(m: Moderator, name: str, seat: str, changes: Sequence[str], reason: str) -> Any:
    """Set values of a seat (KEY=VALUE, as the game takes them), with a reason; every edit is
    recorded, shown in the history and told in the next report."""
    if not reason.strip():
        raise PbemError("give a --reason: every edit is shown to the players")
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        engine = m.engine(game)
        row = _seat(m.store.players(session, game.id), game, seat)
        state = m.state(game)
        for change in changes:
            key, sep, value = change.partition("=")
            if not sep or not key.strip():
                raise PbemError(f"{change!r}: write KEY=VALUE with a key the game takes (pbem edit --help)")
            state = engine.edit(state, row.seat, key.strip(), value.strip())
            _event(m, session, game, EventKind.EDIT,
                        f"the GM set {row.name}'s {key.strip()} to {value.strip()} ({reason.strip()})"
                        f"\nthe GM changed {row.name}'s {key.strip()} ({reason.strip()})", row.seat)
        game.state = m.dumps(engine.dump_state(state))
        session.add(game)
    return state


def end(m: Moderator, name: str, result: str | None) -> GameRow:
    """End a game: the GM's result, or abandoned; players are told."""
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        if game.over:
            raise PbemError(f"{name} is over already; nothing was changed")
        game.over, game.deadline, game.paused = True, None, False
        game.result = (result or "abandoned").strip()[:500]
        session.add(game)
        event = _event(m, session, game, EventKind.END, f"ended by the GM: {game.result}")
        _tell(m, session, game, m.store.players(session, game.id), "the end",
                   f"the GM has ended {game.name}.", [f"Result: {game.result}.", "No more orders are taken."], event=event)
    m.deliver()
    return game


def resend(m: Moderator, name: str, seat: str, turn: int | None = None) -> str:
    """Send a player's report of a turn again (default: the last resolved)."""
    with m.store.session() as session:
        game = m.store.game(session, name)
        assert game.id is not None
        players = m.store.players(session, game.id)
        row = _seat(players, game, seat)
        if not row.email:
            raise PbemError(f"{row.name} is a computer player: it reads no mail")
        wanted = game.turn - 1 if turn is None else turn
        record = m.store.turn(session, game.id, wanted)
        if record is None:
            raise PbemError(f"turn {wanted} of {name} has not been resolved")
        told = TurnRecord.from_row(m.engine(game), record)
        mails = m.mailer.reports(game, told.game, players, told.after, told.resolutions,
                                    turn=told.turn, resolved=told.resolved_at, deadline=told.deadline,
                                    correction=told.correction, notes=m._notes(session, game, told.turn),
                                    again=_once(m.now()), only=row.seat, sheets=told.sheets)
        for mail in mails:
            m.mailer.queue(session, game, game.turn, mail)
    m.deliver()
    return row.email


def set_press(m: Moderator, name: str, on: bool) -> GameRow:
    """Let PRESS be relayed in a game, or not; players are told."""
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        if game.press == on:
            raise PbemError(f"press is {'on' if on else 'off'} in {name} already; nothing was changed")
        game.press = on
        session.add(game)
        event = _event(m, session, game, EventKind.PRESS_SWITCH, f"press switched {'on' if on else 'off'}")
        _tell(m, session, game, m.store.players(session, game.id), f"press {'on' if on else 'off'}",
                   f"news of {game.name}:", ["PRESS messages are relayed to every player again." if on else
                                             "The GM has switched press off: PRESS messages are not relayed."], event=event)
    m.deliver()
    return game


def set_sitter(m: Moderator, name: str, seat: str, level: str) -> PlayerRow:
    """Name the computer sitter of a person's seat (`off`: none); the player is told. The sitter
    writes her sheet while she is on vacation and once a deadline passes without it."""
    with m.store.session() as session:
        game = m.store.lock_game(session, name)
        assert game.id is not None
        row = _seat(m.store.players(session, game.id), game, seat)
        if row.bot:
            raise PbemError(f"{row.name} of {name} is a computer player ({row.bot}): only a person's seat has a sitter")
        wanted = commands.read_sitter_level(f"SITTER {level}", m.engine(game))
        if wanted == row.sitter:
            raise PbemError(f"{row.name} of {name} already has " + (f"the computer sitter {wanted}" if wanted else
                            "no computer sitter") + "; nothing was changed and nobody was told")
        row.sitter = wanted
        session.add(row)
        event = _event(m, session, game, EventKind.SITTER_SET,
                       f"{row.name}'s computer sitter: {row.sitter or 'none'} (set by the GM)", seat=row.seat)
        told = (f"The GM named a computer sitter ({row.sitter}) for your seat: while you are on VACATION, and in any "
                "turn whose deadline passes without your sheet, it writes your sheet from what your own report "
                "shows. A mail with SITTER off sends it away." if row.sitter else
                "The GM sent your computer sitter away: turns you miss get your standing orders or the default moves.")
        _tell(m, session, game, [row], "SITTER", f"news of {game.name}:", [told], event=event)
        session.flush()
        session.expunge(row)
    m.deliver()
    return row


def events(m: Moderator, name: str) -> list[EventRow]:
    with m.store.session() as session:
        game = m.store.game(session, name)
        assert game.id is not None
        return m.store.events(session, game.id)


def _once(moment: datetime) -> str:
    """A key for a mail the GM asks for by hand: the moment and a random part, so that the same
    command twice in one second gives two mails, never a clash of Message-IDs."""
    return f"gm-{int(moment.timestamp())}-{secrets.token_hex(4)}"
