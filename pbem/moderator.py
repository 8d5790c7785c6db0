"""The moderator: games, order intake, turn resolution and outgoing mail, over one store."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlmodel import Session

from pbem import bots, clock, commands, toolbox, turns
from pbem.clock import utc as _aware
from pbem.club import hooks as club_hooks
from pbem.config import Config
from pbem.errors import PbemError
from pbem.faults import checkpoint
from pbem.games import AnyGame, find_game
from pbem.games.base import SeatSpec, Setup
from pbem.games.chance import Generator, Seeding, game_chance, new_seed
from pbem.intake import Deps, IntakeResult, Policy, ingest, recover, run_pipeline
from pbem.mail.outbox import eml_name, write_emls
from pbem.mail.sender import validate_address
from pbem.mailer import GmNote, Mailer, Outgoing
from pbem.postbox import Postbox
from pbem.store import (
    EventRow,
    GameRow,
    MessageRow,
    MessageStatus,
    PlayerRow,
    Store,
    TurnRow,
)
from pbem.tokens import new_secret
from pbem.turns import TurnSummary

#: the longest seed a GM may give: a key of 256 bits is 64 hex digits, and the store keeps it as text
MAX_SEED = 256

#: outgoing mails written to the outbox folder per batch (about 60 kB each with a picture)
DELIVER_BATCH = 200


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str  # "" for a computer player
    secret: str | None = None
    timezone: str = "UTC"
    team: str | None = None
    bot: str | None = None  # a computer player's level


class DeliveryError(PbemError):
    """Queued mail could not be delivered now; it stays queued."""


#: the longest game name: the club's mail lines take no longer word
MAX_GAME_NAME = 64


def check_game_name(name: str) -> None:
    """A game's name is a word of mail lines (GAME, JOIN, OBSERVE) and of archive paths."""
    if not name or not name.isascii() or not name[0].isalnum() or not all(ch.isalnum() or ch in "-_." for ch in name):
        raise PbemError(f"game name {name!r}: use letters, digits, '-', '_' and '.', starting with a letter or digit")
    if len(name) > MAX_GAME_NAME:
        raise PbemError(f"game name {name!r} has {len(name)} characters; at most {MAX_GAME_NAME}, please")


class Moderator:
    """Everything the CLI (and `pbem run`) does, as methods over a store and a config."""

    def __init__(self, config: Config, store: Store | None = None, *, now: Callable[[], datetime] = clock.now) -> None:
        self.config = config
        self.store = store or Store(config.database_url)
        # Every moment pbem keeps is UTC: a database column may drop the zone (SQLite does).
        self._clock = now
        self.mailer = Mailer(config, Postbox(self.store), self.now)
        policy = Policy(address=config.address, max_bytes=config.max_mail_bytes,
                        reply_to_strangers=config.reply_to_strangers, strangers_per_hour=config.strangers_per_hour,
                        authserv_id=config.authserv_id, vacation_days=config.vacation_days,
                        press_per_day=config.press_per_day, suggest_per_day=config.suggest_per_day,
                        preview_per_day=config.preview_per_day)
        self.intake = Deps(self.store, self.now, find_game, self.mailer, self.deliver, policy)
        # games known not to resolve on receipt: a game's kind never changes, so after the first
        # mail of such a game, its later mails need no look-up to know it
        self._not_on_receipt: set[str] = set()

    def now(self) -> datetime:
        return self._clock().astimezone(timezone.utc)

    @staticmethod
    def loads(text: str) -> dict[str, Any]:
        data = json.loads(text)
        assert isinstance(data, dict)
        return data

    @staticmethod
    def dumps(data: object) -> str:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def engine(game: GameRow) -> AnyGame:
        return find_game(game.game)

    def state(self, game: GameRow, text: str | None = None) -> Any:
        return self.engine(game).load_state(self.loads(game.state if text is None else text))

    # games -----------------------------------------------------------------------------------
    def new_game(self, name: str, *, game: str, rules: str | None, players: Sequence[PlayerSpec], seed: str | int | None,
                 deadline: str | None, early: bool = False, options: Sequence[str] = (),
                 generator: Generator = Generator.KEYED) -> GameRow:
        """Start a game. `seed` None draws a secret one; a given seed (its text is the key) is for
        games that must come out the same again, e.g. tests: whoever knows or guesses it knows every draw.
        `generator` LEGACY plays the chance of games made before migration 0010 (sample campaigns)."""
        check_game_name(name)
        engine = find_game(game)
        ruleset, chosen = engine.info.check_setup(rules, options, len(players))
        people = [p for p in players if p.bot is None]
        for p in players:
            if p.bot is not None and engine.bot("default") is not None:
                bots.check_level(engine, p.bot)  # a game with computer players: the level must be one
        checked = []
        for p in people:
            try:
                checked.append(replace(p, email=validate_address(p.email)))
            except PbemError as err:
                raise PbemError(f"player {p.name}: {p.email!r} is not an email address pbem can use ({err}); "
                                "write --player NAME=EMAIL, e.g. --player Ann=ann@example.org") from None
        emails = [p.email for p in checked]
        if len(set(emails)) != len(emails):
            raise PbemError("two players have the same email address; each player needs their own")
        by_name = {p.name: p for p in checked}
        players = [by_name.get(p.name, p) if p.bot is None else p for p in players]
        key = new_seed() if seed is None else str(seed).strip()
        if not key:
            raise PbemError("an empty --seed keys nothing; leave it out for a secret random seed")
        if len(key) > MAX_SEED or not key.isprintable():
            raise PbemError(f"--seed takes at most {MAX_SEED} printable characters (this one has {len(key)}); "
                            "give a shorter one, or leave it out for a secret random seed")
        chance = game_chance(Seeding(key, generator), 0, "setup")
        setup = Setup(ruleset.name, tuple(SeatSpec(p.name, p.team, p.bot) for p in players), chosen)
        state = engine.new_state(setup, chance)
        start = self.now()
        schedule = clock.Schedule(deadline) if deadline else None
        due = schedule.first(start) if schedule else None
        with self.store.session() as session:
            if self.store.find_game(session, name) is not None:
                raise PbemError(f"a game called {name!r} exists already; choose another name")
            row = GameRow(name=name, game=engine.info.name, rules=ruleset.name, seed=key,
                          generator=generator, state=self.dumps(engine.dump_state(state)), deadline=due,
                          schedule=schedule.text if schedule else "", early=early, created_at=start,
                          options=self.dumps(list(chosen)), setup_chance=self.dumps([d.to_json() for d in chance.drawn]))
            session.add(row)
            session.flush()
            assert row.id is not None
            rows = [PlayerRow(game_id=row.id, seat=i, name=p.name, email=p.email.lower(),
                              secret=p.secret or new_secret(), timezone=p.timezone, team=p.team or "",
                              bot=p.bot or "") for i, p in enumerate(players)]
            for r in rows:
                session.add(r)
            for player in rows:
                if player.email:
                    self.mailer.queue(session, row, 1, self.mailer.welcome(row, engine, state, player, start, players=rows))
        self.deliver()
        return row

    def game_state(self, name: str, turn: int | None = None) -> tuple[GameRow, list[PlayerRow], Any]:
        """The game, its players and its position before `turn` (default: the current one)."""
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            if turn is None or turn == game.turn:
                return game, players, self.state(game)
            if turn < 1 or turn > game.turn:
                raise PbemError(f"{name} has turns 1 to {game.turn}; there is no turn {turn}")
            record = self.store.turn(session, game.id, turn)
            assert record is not None
            return game, players, self.state(game, record.before)

    # intake ----------------------------------------------------------------------------------
    def ingest(self, raw: bytes, source: str = "", *, deliver: bool = True) -> IntakeResult:
        result = ingest(self.intake, raw, source, deliver=deliver)
        if result.status == MessageStatus.ACCEPTED and result.game is not None:
            summary = self.resolve_on_receipt(result.game)
            if summary is not None:
                result = replace(result, resolved=summary.turn, reports=summary.mails)
        if result.step == "club":
            club_hooks.after_mail(self)  # a game to start, a seat to hand over
        return result

    def resolve_on_receipt(self, name: str) -> TurnSummary | None:
        """In a game that resolves on receipt, the turn is resolved once every seat that must move
        has sent its orders (a computer player's seat never holds it up)."""
        if name in self._not_on_receipt:
            return None
        with self.store.session() as session:
            game = self.store.game(session, name)
            if not self.engine(game).info.resolve_on_receipt:
                self._not_on_receipt.add(name)
                return None
            if game.over or game.id is None:
                return None
            if not self._all_in(session, game):
                return None
        try:
            return self.resolve(name, force=True, turn=game.turn)
        except PbemError:
            return None  # another worker resolved it first

    def _all_in(self, session: Session, game: GameRow) -> bool:
        return turns.all_in(self.intake, session, game)

    def ingest_many(self, items: Iterable[tuple[bytes, str]]) -> Iterator[IntakeResult]:
        """Take in many messages, delivering the replies once at the end (each message is still
        stored and processed in transactions of its own)."""
        try:
            for raw, source in items:
                yield self.ingest(raw, source, deliver=False)
        finally:
            self.deliver()

    def finish_pending(self) -> list[IntakeResult]:
        """Take in every mail stored raw whose intake has not finished (a run died after storing
        it, or another is at it now); the replies are delivered with the next delivery."""
        return recover(self.intake)

    def quarantined(self) -> list[MessageRow]:
        with self.store.session() as session:
            return self.store.messages(session, MessageStatus.QUARANTINED)

    def retry(self, message: int) -> IntakeResult:
        with self.store.session() as session:
            row = session.get(MessageRow, message)
            if row is None:
                raise PbemError(f"no message {message}; `pbem quarantine` lists the quarantined ones")
            if row.status != MessageStatus.QUARANTINED:
                raise PbemError(f"message {message} is not quarantined (it is {row.status})")
            session.expunge(row)
        return run_pipeline(self.intake, row)

    # turns -----------------------------------------------------------------------------------
    def resolve(self, name: str, *, preview: bool = False, force: bool = False, turn: int | None = None,
                deliver: bool = True) -> TurnSummary:
        """Resolve the current turn once (`pbem.turns`): position, resolutions, turn record and mail
        in one transaction. `deliver=False` leaves the reports queued, for one delivery after many turns."""
        resolved = turns.resolve_turn(self.intake, name, at=self.now(), preview=preview, force=force, turn=turn)
        if not preview:
            club_hooks.after_turn(self, name)  # observers' reports, quiet seats, a tournament's next round
        if preview or not deliver:
            return resolved
        try:
            self.deliver()
        except DeliveryError as err:
            return replace(resolved, delivery_problem=str(err))
        return resolved

    def render_turn(self, game: GameRow, players: Sequence[PlayerRow], record: TurnRow,
                    notes: Sequence[GmNote] | None = None) -> list[Outgoing]:
        """Every mail of a stored turn: the same bytes each time."""
        return turns.render_turn(self.intake, game, players, record, notes)

    def _notes(self, session: Session, game: GameRow, turn: int) -> list[GmNote]:
        """The GM's edits and replacements made while `turn` was open, for its reports."""
        return commands.gm_notes(self.store, session, game, turn)

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

    # the GM's toolbox (pbem/toolbox.py) --------------------------------------------------------
    def status(self, name: str) -> toolbox.GameStatus:
        return toolbox.status(self, name)

    def enter_sheet(self, name: str, seat: str, text: str) -> IntakeResult:
        return toolbox.enter_sheet(self, name, seat, text)

    def change_secret(self, name: str, player: str, secret: str | None = None) -> PlayerRow:
        return toolbox.change_secret(self, name, player, secret)

    def games(self) -> list[toolbox.GameListing]:
        return toolbox.games(self)

    def replace_player(self, name: str, seat: str, *, email: str | None = None, bot: str | None = None,
                       secret: str | None = None) -> PlayerRow:
        return toolbox.replace_player(self, name, seat, email=email, bot=bot, secret=secret)

    def pause(self, name: str) -> GameRow:
        return toolbox.pause(self, name)

    def resume(self, name: str) -> GameRow:
        return toolbox.resume(self, name)

    def move_deadline(self, name: str, when: str) -> GameRow:
        return toolbox.move_deadline(self, name, when)

    def rollback(self, name: str) -> int:
        return toolbox.rollback(self, name)

    def edit(self, name: str, seat: str, changes: Sequence[str], reason: str) -> Any:
        return toolbox.edit(self, name, seat, changes, reason)

    def end(self, name: str, result: str | None) -> GameRow:
        return toolbox.end(self, name, result)

    def resend(self, name: str, seat: str, turn: int | None = None) -> str:
        return toolbox.resend(self, name, seat, turn)

    def set_press(self, name: str, on: bool) -> GameRow:
        return toolbox.set_press(self, name, on)

    def set_sitter(self, name: str, seat: str, level: str) -> PlayerRow:
        return toolbox.set_sitter(self, name, seat, level)

    def events(self, name: str) -> list[EventRow]:
        return toolbox.events(self, name)

    # deadlines -------------------------------------------------------------------------------
    def due_games(self) -> list[tuple[str, int]]:
        """Games whose current turn is due: its deadline has passed, or (for games set to resolve
        early) every racing player's orders are in."""
        at = self.now()
        due = []
        with self.store.session() as session:
            for game in self.store.games(session):
                if game.over or game.id is None or game.paused:
                    continue
                if game.deadline is not None and _aware(game.deadline) <= at:
                    due.append((game.name, game.turn))
                elif (game.early or self.engine(game).info.resolve_on_receipt) and self._all_in(session, game):
                    due.append((game.name, game.turn))
        return due

    def queue_reminders(self, spans: Sequence[timedelta], *, deliver: bool = True) -> int:
        """Remind players without orders, once per (turn, span), `span` before the deadline;
        `deliver=False` leaves them queued for the caller's delivery (which counts them)."""
        at = self.now()
        count = 0
        with self.store.session() as session:
            for game in self.store.games(session):
                if game.over or game.deadline is None or game.id is None or game.paused:
                    continue
                deadline = _aware(game.deadline)
                if at >= deadline:
                    continue
                # a span as long as the turn itself would remind beside the report (or welcome)
                # that opened it, which already says the deadline: it is moot
                opened = self._opened(session, game)
                spans_due = [s for s in spans if deadline - s <= at and deadline - s > opened]
                if not spans_due:
                    continue
                span = min(spans_due)  # the latest reminder that is due; earlier ones are moot now
                players = self.store.players(session, game.id)
                sheets = self.store.current_sheets(session, game.id, game.turn)
                engine = self.engine(game)
                state = self.state(game)
                waiting = set(engine.to_move(state))
                for p in players:
                    if p.id in sheets or p.seat not in waiting or not p.email or commands.is_away(p, at):
                        continue
                    mail = self.mailer.reminder(game, engine, state, p, deadline, span)
                    if self.store.mail_exists(session, mail.msg_id):
                        continue
                    self.mailer.queue(session, game, game.turn, mail)
                    count += 1
        if deliver:
            self.deliver()
        return count

    def _opened(self, session: Session, game: GameRow) -> datetime:
        """When the game's current turn opened: the previous turn's resolution, or the game's start."""
        assert game.id is not None
        record = self.store.turn(session, game.id, game.turn - 1) if game.turn > 1 else None
        return _aware(record.resolved_at if record is not None else game.created_at)

    # outgoing mail ---------------------------------------------------------------------------
    def note_undeliverable(self, address: str, why: str) -> None:
        """Mail to `address` failed for good: its players are marked bouncing and the GM is told."""
        with self.store.session() as session:
            for player in self.store.players_with_address(session, address):
                player.bouncing = why[:300]
                session.add(player)
                game = session.get(GameRow, player.game_id)
                alert = self.mailer.bounce_alert(player, address, why[:300], self.now().strftime("%Y-%m-%d"),
                                                 game=game.name if game else "")
                if not self.store.mail_exists(session, alert.msg_id):  # once a day: every failed mail would repeat it
                    self.mailer.queue(session, None, None, alert)

    def deliver(self) -> int:
        """Send every queued mail through the configured transport; on the embedded default each
        becomes an .eml file in the outbox folder. Returns how many were delivered."""
        if self.config.smtp:
            return 0  # sent by `pbem send` / `pbem run` over SMTP
        # Several workers may share this store: each mail is claimed before it is written. The
        # files are written DELIVER_BATCH at a time, made durable together (write_emls): one
        # flush per batch rather than per mail, and never every queued mail in memory at once.
        worker = f"outbox:{os.getpid()}"
        done = 0
        while claimed := self.store.claim_mails(worker, self.now(), DELIVER_BATCH, 600):
            checkpoint("after-claim")
            names = [eml_name(mail.id or 0, mail.kind, mail.recipient) for mail in claimed]
            try:
                bodies = self.store.mail_bodies([mail.id or 0 for mail in claimed])
                paths = write_emls(self.config.outbox, [(n, bodies[m.id or 0]) for n, m in zip(names, claimed, strict=True)])
            except OSError as problem:  # a full disk, a missing or read-only folder: the mails stay queued
                for mail in claimed:
                    self.store.mark_retry(mail.id or 0, worker, f"not written: {problem}", self.now())
                raise DeliveryError(f"{len(claimed)} mails could not be written to {self.config.outbox}/ "
                                    f"({problem.strerror or problem}); they stay queued, and `pbem send` writes "
                                    "them once the problem is fixed") from None
            done += self.store.mark_written([(m.id or 0, str(p)) for m, p in zip(claimed, paths, strict=True)],
                                            worker, self.now())
        return done
