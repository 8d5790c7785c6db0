"""The moderator: games, order intake, turn resolution and outgoing mail, over one store."""

from __future__ import annotations

import json
import os
import secrets as secrets_module
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from pbem import clock
from pbem.config import Config
from pbem.errors import PbemError
from pbem.faults import checkpoint
from pbem.games import find_game
from pbem.games.base import Game
from pbem.games.chance import SeededChance
from pbem.games.hare_tortoise.state import State
from pbem.intake import Intake, IntakeResult, Stop, ingest, run_pipeline
from pbem.mail.compose import Picture, compose, message_id
from pbem.mail.outbox import eml_name, write_eml
from pbem.games.hare_tortoise.engine import turn_sequence
from pbem.reports import render, when
from pbem.games.hare_tortoise.present import (
    RefusalContext,
    ReminderContext,
    Seat,
    ack_context,
    board_picture,
    order_template,
    report_context,
    welcome_context,
)
from pbem.store import GameRow, MailRow, MessageRow, PlayerRow, Store, TurnRow

_SECRET_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_secret() -> str:
    pick = secrets_module.choice
    return "".join(pick(_SECRET_ALPHABET) for _ in range(3)) + "-" + "".join(pick(_SECRET_ALPHABET) for _ in range(3))


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    secret: str | None = None
    timezone: str = "UTC"


@dataclass(frozen=True)
class TurnSummary:
    game: str
    turn: int
    resolved_at: datetime
    state: State
    slots: tuple[Any, ...]
    mails: int
    preview: bool


class Moderator:
    """Everything the CLI (and `pbem run`) does, as methods over a store and a config."""

    def __init__(self, config: Config, store: Store | None = None, *, now: Callable[[], datetime] = clock.now) -> None:
        self.config = config
        self.store = store or Store(config.database_url)
        # Every moment pbem keeps is UTC: a database column may drop the zone (SQLite does).
        self.now = lambda: now().astimezone(timezone.utc)
        self.domain = config.address.partition("@")[2] or "pbem.invalid"

    # helpers ---------------------------------------------------------------------------------
    @staticmethod
    def loads(text: str) -> dict[str, Any]:
        data = json.loads(text)
        assert isinstance(data, dict)
        return data

    @staticmethod
    def dumps(data: object) -> str:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def engine(game: GameRow) -> Game[Any, Any, Any]:
        return find_game(game.game)

    def _seats(self, players: Sequence[PlayerRow]) -> list[Seat]:
        return [Seat(p.seat, p.name, p.email, p.secret, p.timezone) for p in players]

    def _queue(self, session: Session, *, game: GameRow | None, turn: int | None, kind: str, to: str,
               subject: str, raw: bytes, msg_id: str) -> None:
        self.store.queue_mail(session, MailRow(message_id=msg_id, game_id=game.id if game else None, turn=turn,
                                               kind=kind, recipient=to, subject=subject, raw=raw,
                                               created_at=self.now()))

    # games -----------------------------------------------------------------------------------
    def new_game(self, name: str, *, game: str, rules: str | None, players: Sequence[PlayerSpec], seed: int | None,
                 deadline: str | None, early: bool = False) -> GameRow:
        if not name or not name[0].isalnum() or not all(ch.isalnum() or ch in "-_." for ch in name):
            raise PbemError(f"game name {name!r}: use letters, digits, '-', '_' and '.', starting with a letter or digit")
        engine = find_game(game)
        ruleset = rules or engine.default_ruleset
        if not engine.min_players <= len(players) <= engine.max_players:
            raise PbemError(f"{engine.title} takes {engine.min_players} to {engine.max_players} players, "
                            f"not {len(players)}: give one --player NAME=EMAIL per player")
        emails = [p.email.lower() for p in players]
        if len(set(emails)) != len(emails):
            raise PbemError("two players have the same email address; each player needs their own")
        for p in players:
            if "@" not in p.email or p.email.startswith("@") or p.email.endswith("@"):
                raise PbemError(f"player {p.name}: {p.email!r} is not an email address (--player NAME=EMAIL)")
        seed = secrets_module.randbelow(2**31) if seed is None else seed
        state = engine.new_state([p.name for p in players], ruleset=ruleset, seed=seed)
        start = self.now()
        schedule = clock.Schedule(deadline) if deadline else None
        due = schedule.first(start) if schedule else None
        with self.store.session() as session:
            if self.store.find_game(session, name) is not None:
                raise PbemError(f"a game called {name!r} exists already; choose another name")
            row = GameRow(name=name, game=engine.name, rules=getattr(state, "ruleset", ruleset), seed=seed,
                          state=self.dumps(engine.state_to_json(state)), deadline=due,
                          schedule=schedule.text if schedule else "", early=early, created_at=start)
            session.add(row)
            session.flush()
            assert row.id is not None
            rows = [PlayerRow(game_id=row.id, seat=i, name=p.name, email=p.email.lower(),
                              secret=p.secret or new_secret(), timezone=p.timezone) for i, p in enumerate(players)]
            for r in rows:
                session.add(r)
            for seat in self._seats(rows):
                ctx = welcome_context(name, state, seat, deadline=due, moderator=self.config.address)
                subject = f"Welcome to {name}: Hare & Tortoise, turn 1 orders"
                msg_id = message_id(name, "welcome", seat.name, domain=self.domain)
                raw = compose(sender=self.config.address, sender_name=self.config.name, to=seat.email,
                              to_name=seat.name, subject=subject, text=render("hare-tortoise/welcome.txt.j2", ctx),
                              html=render("hare-tortoise/welcome.html.j2", ctx), date=start, msg_id=msg_id)
                self._queue(session, game=row, turn=1, kind="welcome", to=seat.email, subject=subject, raw=raw,
                            msg_id=msg_id)
        self.deliver()
        return row

    def game_state(self, name: str, turn: int | None = None) -> tuple[GameRow, list[PlayerRow], Any]:
        """The game, its players and its position before `turn` (default: the current one)."""
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            engine = self.engine(game)
            if turn is None or turn == game.turn:
                return game, players, engine.state_from_json(self.loads(game.state))
            if turn < 1 or turn > game.turn:
                raise PbemError(f"{name} has turns 1 to {game.turn}; there is no turn {turn}")
            record = self.store.turn(session, game.id, turn)
            assert record is not None
            return game, players, engine.state_from_json(self.loads(record.before))

    def status(self, name: str) -> dict[str, Any]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            sheets = self.store.current_sheets(session, game.id, game.turn)
            return {
                "game": game.name,
                "turn": game.turn,
                "over": game.over,
                "deadline": game.deadline,
                "players": [
                    {"name": p.name, "email": p.email,
                     "orders": sheets[p.id].received_at if p.id in sheets else None}
                    for p in players
                ],
            }

    # intake ----------------------------------------------------------------------------------
    def ingest(self, raw: bytes, source: str = "", *, deliver: bool = True) -> IntakeResult:
        return ingest(self, raw, source, deliver=deliver)

    def ingest_many(self, items: Iterable[tuple[bytes, str]]) -> Iterator[IntakeResult]:
        """Take in many messages, delivering the replies once at the end (each message is still
        stored and processed in transactions of its own)."""
        try:
            for raw, source in items:
                yield self.ingest(raw, source, deliver=False)
        finally:
            self.deliver()

    def quarantined(self) -> list[MessageRow]:
        with self.store.session() as session:
            return self.store.messages(session, "quarantined")

    def retry(self, message: int) -> IntakeResult:
        with self.store.session() as session:
            row = session.get(MessageRow, message)
            if row is None:
                raise PbemError(f"no message {message}; `pbem quarantine` lists the quarantined ones")
            if row.status != "quarantined":
                raise PbemError(f"message {message} is not quarantined (it is {row.status})")
            session.expunge(row)
        return run_pipeline(self, row)

    def queue_ack(self, session: Session, it: Intake) -> None:
        assert it.game is not None and it.player is not None and it.msg is not None
        if not self.may_reply(session, it.player.email):
            return
        seat = Seat(it.player.seat, it.player.name, it.player.email, it.player.secret, it.player.timezone)
        ctx = ack_context(it.game.name, seat, it.state, it.sheet, replaced=it.replaced, received=self.now(),
                          deadline=it.game.deadline, moderator=self.config.address)
        subject = f"Orders received: {it.game.name} turn {it.game.turn}"
        original = str(it.msg.get("Message-ID", "") or "").strip() or None
        msg_id = message_id(it.game.name, "ack", it.game.turn, it.player.name, it.row.id, domain=self.domain)
        raw = compose(sender=self.config.address, sender_name=self.config.name, to=it.player.email,
                      to_name=it.player.name, subject=subject, text=render("hare-tortoise/ack.txt.j2", ctx), date=self.now(),
                      msg_id=msg_id, in_reply_to=original, auto_submitted="auto-replied")
        self._queue(session, game=it.game, turn=it.game.turn, kind="ack", to=it.player.email, subject=subject,
                    raw=raw, msg_id=msg_id)

    def queue_refusal(self, session: Session, it: Intake, stop: Stop) -> None:
        if "@" not in it.sender or not self.may_reply(session, it.sender):
            return
        ctx = RefusalContext(reader=it.player.name if it.player else it.sender_name, subject=it.row.subject,
                             reason=stop.reason, fix=stop.fix, moderator=self.config.address)
        subject = f"Not taken as orders: {it.row.subject}"[:200]
        original = str(it.msg.get("Message-ID", "") or "").strip() if it.msg else ""
        msg_id = message_id("refusal", it.row.id, domain=self.domain)
        raw = compose(sender=self.config.address, sender_name=self.config.name, to=it.sender, to_name=it.sender_name,
                      subject=subject, text=render("refusal.txt.j2", ctx), date=self.now(), msg_id=msg_id,
                      in_reply_to=original or None, auto_submitted="auto-replied")
        self._queue(session, game=it.game, turn=it.game.turn if it.game else None, kind="refusal", to=it.sender,
                    subject=subject, raw=raw, msg_id=msg_id)

    # turns -----------------------------------------------------------------------------------
    def resolve(self, name: str, *, preview: bool = False, force: bool = False, turn: int | None = None) -> TurnSummary:
        """Resolve the current turn once: position, resolutions, turn record and mail in one transaction."""
        at = self.now()
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if turn is not None and turn != game.turn:
                if turn < game.turn:
                    raise PbemError(f"turn {turn} of {name} is already resolved; nothing was changed "
                                    f"(the current turn is {game.turn})")
                raise PbemError(f"turn {turn} of {name} is not open yet; the current turn is {game.turn}")
            if game.over:
                raise PbemError(f"{name} is over; the last turn was {game.turn - 1}")
            previous = self.store.turn(session, game.id, game.turn - 1) if game.turn > 1 else None
            if previous is not None and not force and not preview:
                due = game.deadline is not None and _aware(game.deadline) <= at
                if not due and self.store.sheets_since(session, game.id, game.turn, previous.resolved_at) == 0:
                    raise PbemError(
                        f"turn {game.turn - 1} of {name} is already resolved, and no orders for turn {game.turn} "
                        f"have come in yet (deadline: {_show(game.deadline)}); nothing was changed. "
                        f"To resolve turn {game.turn} now with default moves, add --force."
                    )
            players = self.store.players(session, game.id)
            engine = self.engine(game)
            before = engine.state_from_json(self.loads(game.state))
            sheet_rows = self.store.current_sheets(session, game.id, game.turn)
            texts = {p.name: sheet_rows[p.id].text if p.id in sheet_rows else None for p in players}
            orders = {n: engine.parse_orders(before, t) for n, t in texts.items() if t is not None}
            chance = SeededChance(game.seed, game.turn)
            outcome = engine.resolve_turn(before, orders, chance)
            after = outcome.state
            if preview:
                session.rollback()
                return TurnSummary(name, game.turn, at, after, outcome.resolutions, 0, True)
            schedule = clock.Schedule(game.schedule) if game.schedule else None
            next_deadline = None if engine.is_over(after) or schedule is None else schedule.next_after(at)
            record = TurnRow(game_id=game.id, turn=game.turn, resolved_at=at, deadline=next_deadline,
                             before=game.state, after=self.dumps(engine.state_to_json(after)),
                             resolutions=self.dumps([engine.resolution_to_json(r) for r in outcome.resolutions]),
                             sheets=self.dumps(texts), dice=self.dumps(chance.drawn))
            # Render before the first write: on SQLite a write takes the database's one write lock,
            # and drawing the board must not hold it.
            rendered = self.render_turn(game, players, record)
            session.add(record)
            try:
                session.flush()
            except IntegrityError:
                raise PbemError(f"turn {game.turn} of {name} was resolved by another worker; nothing was changed") from None
            for kind, to, msg_id, raw in rendered:
                self._queue(session, game=game, turn=record.turn, kind=kind, to=to,
                            subject=f"{game.name}: turn {record.turn} report", raw=raw, msg_id=msg_id)
            mails = len(rendered)
            game.state = record.after
            game.turn += 1
            game.over = engine.is_over(after)
            game.deadline = next_deadline
            session.add(game)
            resolved = TurnSummary(name, record.turn, at, after, outcome.resolutions, mails, False)
            checkpoint("before-resolve-commit")
        checkpoint("after-resolve-commit")
        self.deliver()
        return resolved

    def render_turn(self, game: GameRow, players: Sequence[PlayerRow], record: TurnRow) -> list[tuple[str, str, str, bytes]]:
        """Every mail of a stored turn, as (kind, recipient, message-id, bytes): the same bytes each time."""
        engine = self.engine(game)
        after = engine.state_from_json(self.loads(record.after))
        slots = [engine.resolution_from_json(d) for d in json.loads(record.resolutions)]
        resolved = _aware(record.resolved_at)
        title = f"{game.name} — after turn {record.turn}"
        _, png = board_picture(after, slots, title=title, subtitle=resolved.strftime("Resolved %d %b %Y %H:%M UTC"))
        picture = Picture(f"{game.name}-turn-{record.turn}.png", f"board-{game.name}-{record.turn}", png)
        seats = self._seats(players)
        readers: list[Seat | None] = [*seats, None]
        out = []
        for reader in readers:
            ctx = report_context(game.name, seats, reader, after, slots, resolved_at=resolved,
                                 deadline=record.deadline, moderator=self.config.address)
            who = reader.name if reader else "GM"
            subject = f"{game.name}: turn {record.turn} report" + ("" if reader else " (GM)")
            to = reader.email if reader else self.config.address
            msg_id = message_id(game.name, "report", record.turn, who, domain=self.domain)
            raw = compose(sender=self.config.address, sender_name=self.config.name, to=to, to_name=who,
                          subject=subject, text=render("hare-tortoise/report.txt.j2", ctx), html=render("hare-tortoise/report.html.j2", ctx),
                          pictures=[picture], date=resolved, msg_id=msg_id)
            out.append(("report" if reader else "gm-report", to, msg_id, raw))
        return out

    def history(self, name: str) -> tuple[GameRow, list[PlayerRow], list[TurnRow]]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            return game, self.store.players(session, game.id), self.store.turns(session, game.id)

    def turn_record(self, name: str, turn: int) -> tuple[GameRow, list[PlayerRow], TurnRow]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            record = self.store.turn(session, game.id, turn)
            if record is None:
                raise PbemError(f"turn {turn} of {name} has not been resolved")
            return game, self.store.players(session, game.id), record

    # deadlines -------------------------------------------------------------------------------
    def due_games(self) -> list[tuple[str, int]]:
        """Games whose current turn is due: its deadline has passed, or (for games set to resolve
        early) every racing player's orders are in."""
        at = self.now()
        due = []
        with self.store.session() as session:
            for game in self.store.games(session):
                if game.over or game.id is None:
                    continue
                if game.deadline is not None and _aware(game.deadline) <= at:
                    due.append((game.name, game.turn))
                elif game.early:
                    state = self.engine(game).state_from_json(self.loads(game.state))
                    racing = {r.name for r in state.runners if not r.home}
                    players = {p.id: p.name for p in self.store.players(session, game.id)}
                    sent = {players[pid] for pid in self.store.current_sheets(session, game.id, game.turn)}
                    if racing <= sent:
                        due.append((game.name, game.turn))
        return due

    def queue_reminders(self, spans: Sequence[timedelta]) -> int:
        """Remind players without orders, once per (turn, span), `span` before the deadline."""
        at = self.now()
        count = 0
        with self.store.session() as session:
            for game in self.store.games(session):
                if game.over or game.deadline is None or game.id is None:
                    continue
                deadline = _aware(game.deadline)
                if at >= deadline:
                    continue
                spans_due = [s for s in spans if deadline - s <= at]
                if not spans_due:
                    continue
                span = min(spans_due)  # the latest reminder that is due; earlier ones are moot now
                players = self.store.players(session, game.id)
                sheets = self.store.current_sheets(session, game.id, game.turn)
                state = self.engine(game).state_from_json(self.loads(game.state))
                sequence = [state.runners[i].name for i in turn_sequence(state)]
                for p in players:
                    if p.id in sheets or p.name not in sequence:
                        continue
                    msg_id = message_id(game.name, "reminder", game.turn, p.name, int(span.total_seconds()),
                                        domain=self.domain)
                    if self.store.mail_exists(session, msg_id):
                        continue
                    ctx = ReminderContext(reader=p.name, game=game.name, turn=game.turn,
                                          deadline=when(deadline, p.timezone), moderator=self.config.address,
                                          template=order_template(game.name, game.turn, p.secret, sequence.count(p.name)))
                    subject = f"Reminder: {game.name} turn {game.turn} orders are due {deadline:%a %d %b %H:%M} UTC"
                    raw = compose(sender=self.config.address, sender_name=self.config.name, to=p.email, to_name=p.name,
                                  subject=subject, text=render("hare-tortoise/reminder.txt.j2", ctx), date=at, msg_id=msg_id)
                    self._queue(session, game=game, turn=game.turn, kind="reminder", to=p.email, subject=subject,
                                raw=raw, msg_id=msg_id)
                    count += 1
        self.deliver()
        return count

    def may_reply(self, session: Session, address: str) -> bool:
        """Replies to one address are rate-limited, so that no mail loop can start. An address with
        non-ASCII characters (RFC 6532) gets none: few servers would carry it, and no player has one."""
        if not address.isascii():
            return False
        since = self.now() - timedelta(hours=1)
        return self.store.replies_since(session, address, since) < self.config.max_replies_per_hour

    # outgoing mail ---------------------------------------------------------------------------
    def deliver(self) -> int:
        """Send every queued mail through the configured transport; on the embedded default each
        becomes an .eml file in the outbox folder. Returns how many were delivered."""
        if self.config.smtp:
            return 0  # sent by `pbem send` / `pbem run` over SMTP
        # Several workers may share this store: each mail is claimed before it is written.
        worker = f"outbox:{os.getpid()}"
        claimed = self.store.claim_mails(worker, self.now(), 100000, 600)
        written = []
        for mail in claimed:
            assert mail.id is not None
            path = write_eml(self.config.outbox, eml_name(mail.id, mail.kind, mail.recipient), mail.raw)
            written.append((mail.id, str(path)))
        return self.store.mark_written(written, worker, self.now()) if written else 0


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _show(moment: datetime | None) -> str:
    return "none set" if moment is None else _aware(moment).strftime("%Y-%m-%d %H:%M UTC")
