"""The moderator: games, order intake, turn resolution and outgoing mail, over one store."""

from __future__ import annotations

import json
import os
import secrets as secrets_module
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from pbem import bots, clock, commands
from pbem.config import Config
from pbem.errors import PbemError
from pbem.faults import checkpoint
from pbem.games import AnyGame, find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import SeededChance
from pbem.games.sheet import read_sheet
from pbem.intake import Deps, IntakeResult, Policy, ingest, run_pipeline
from pbem.mail.outbox import eml_name, write_emls
from pbem.mail.sender import validate_address
from pbem.mailer import GmNote, Mailer, Outgoing
from pbem.store import (
    EventKind,
    EventRow,
    GameRow,
    MailKind,
    MessageRow,
    MessageStatus,
    PlayerRow,
    Store,
    TurnRow,
    UndoneTurnRow,
)
from pbem.tokens import check_secret, new_secret

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


@dataclass(frozen=True)
class TurnSummary:
    game: str
    turn: int
    resolved_at: datetime
    state: Any
    slots: tuple[Any, ...]
    mails: int
    preview: bool
    engine: AnyGame
    delivery_problem: str = ""  # the turn is resolved, but its mail is still queued (why)


class DeliveryError(PbemError):
    """Queued mail could not be delivered now; it stays queued."""


class Moderator:
    """Everything the CLI (and `pbem run`) does, as methods over a store and a config."""

    def __init__(self, config: Config, store: Store | None = None, *, now: Callable[[], datetime] = clock.now) -> None:
        self.config = config
        self.store = store or Store(config.database_url)
        # Every moment pbem keeps is UTC: a database column may drop the zone (SQLite does).
        self._clock = now
        self.mailer = Mailer(config, self.store, self.now)
        policy = Policy(address=config.address, max_bytes=config.max_mail_bytes,
                        reply_to_strangers=config.reply_to_strangers, strangers_per_hour=config.strangers_per_hour,
                        authserv_id=config.authserv_id, vacation_days=config.vacation_days,
                        press_per_day=config.press_per_day)
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
    def new_game(self, name: str, *, game: str, rules: str | None, players: Sequence[PlayerSpec], seed: int | None,
                 deadline: str | None, early: bool = False, options: Sequence[str] = ()) -> GameRow:
        if not name or not name.isascii() or not name[0].isalnum() or not all(ch.isalnum() or ch in "-_." for ch in name):
            raise PbemError(f"game name {name!r}: use letters, digits, '-', '_' and '.', starting with a letter or digit")
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
        seed = secrets_module.randbelow(2**31) if seed is None else seed
        chance = SeededChance(seed, 0)
        setup = Setup(ruleset.name, tuple(SeatSpec(p.name, p.team, p.bot) for p in players), chosen)
        state = engine.new_state(setup, chance)
        start = self.now()
        schedule = clock.Schedule(deadline) if deadline else None
        due = schedule.first(start) if schedule else None
        with self.store.session() as session:
            if self.store.find_game(session, name) is not None:
                raise PbemError(f"a game called {name!r} exists already; choose another name")
            row = GameRow(name=name, game=engine.info.name, rules=ruleset.name, seed=seed,
                          state=self.dumps(engine.dump_state(state)), deadline=due,
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
                    self.mailer.queue(session, row, 1, self.mailer.welcome(row, engine, state, player, start))
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

    def status(self, name: str) -> dict[str, Any]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            sheets = self.store.current_sheets(session, game.id, game.turn)
            due = set(self.engine(game).to_move(self.state(game)))
            return {
                "game": game.name,
                "turn": game.turn,
                "over": game.over,
                "deadline": game.deadline,
                "paused": game.paused,
                "players": [
                    {"name": p.name, "email": p.email, "bot": p.bot or None, "to_move": p.seat in due,
                     "bouncing": p.bouncing, "orders": sheets[p.id].received_at if p.id in sheets else None,
                     "standing": p.id not in sheets and self.store.standing_sheet(session, p, game.turn) is not None,
                     "away": commands.is_away(p, self.now())}
                    for p in players
                ],
                "pending": self.store.pending_messages(session),
                "strangers": self.store.strangers_since(session, self.now() - timedelta(days=7)),
            }

    # intake ----------------------------------------------------------------------------------
    def ingest(self, raw: bytes, source: str = "", *, deliver: bool = True) -> IntakeResult:
        result = ingest(self.intake, raw, source, deliver=deliver)
        if result.status == MessageStatus.ACCEPTED and result.game is not None:
            self.resolve_on_receipt(result.game)
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
        assert game.id is not None
        waiting = set(self.engine(game).to_move(self.state(game)))
        players = {p.id: p for p in self.store.players(session, game.id)}
        waiting -= {p.seat for p in players.values() if p.bot}
        sent = {players[pid].seat for pid in self.store.current_sheets(session, game.id, game.turn)}
        return waiting <= sent

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
        """Resolve the current turn once: position, resolutions, turn record and mail in one transaction.
        `deliver=False` leaves the reports queued, for one delivery after many turns."""
        at = self.now()
        if not preview:
            with self.store.session() as session:
                game = self.store.game(session, name)
                self._check_resolvable(session, game, at, force=force, turn=turn)
                computers = any(p.bot for p in self.store.players(session, game.id or 0))
            # the computer players write their sheets now, from the position at the start of the
            # turn, each through intake in a transaction of its own (before the turn's one)
            if computers:
                bots.take_sheets(self.intake, name)
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            self._check_resolvable(session, game, at, force=force or preview, turn=turn)
            players = self.store.players(session, game.id)
            engine = self.engine(game)
            before = self.state(game)
            sheet_rows = self.store.current_sheets(session, game.id, game.turn)
            texts = {p.name: sheet_rows[p.id].text if p.id in sheet_rows else None for p in players}
            for p in players:  # a STANDING sheet of an earlier turn plays for a player who sent none
                if texts[p.name] is None and not p.bot:
                    standing = self.store.standing_sheet(session, p, game.turn)
                    texts[p.name] = standing.text if standing is not None else None
            if preview:  # what the computer players would write; nothing is stored
                for p in bots.due_seats(engine, before, players, set(sheet_rows)):
                    texts[p.name] = bots.write_sheet(engine, before, p.seat, p.bot, game.seed)
            orders = {}
            for p in players:
                text = texts[p.name]
                if text is not None:
                    orders[p.seat] = engine.parse(before, read_sheet(text), p.seat).orders
                else:
                    default = engine.default_orders(before, p.seat)
                    if default is not None:
                        orders[p.seat] = default
            chance = SeededChance(game.seed, game.turn)
            outcome = engine.resolve(before, orders, chance)
            after = outcome.state
            if preview:
                session.rollback()
                return TurnSummary(name, game.turn, at, after, outcome.resolutions, 0, True, engine)
            schedule = clock.Schedule(game.schedule) if game.schedule else None
            next_deadline = None if engine.is_over(after) or schedule is None else schedule.next_after(at)
            correction = self.store.corrections(session, game.id, game.turn)
            record = TurnRow(game_id=game.id, turn=game.turn, resolved_at=at, deadline=next_deadline,
                             before=game.state, after=self.dumps(engine.dump_state(after)),
                             resolutions=self.dumps([engine.resolution_to_json(r) for r in outcome.resolutions]),
                             sheets=self.dumps(texts), dice=self.dumps([d.to_json() for d in chance.drawn]),
                             correction=correction)
            # Render before the first write: on SQLite a write takes the database's one write lock,
            # and drawing the board must not hold it.
            rendered = self.render_turn(game, players, record, self._notes(session, game, record.turn))
            session.add(record)
            try:
                session.flush()
            except IntegrityError:
                raise PbemError(f"turn {game.turn} of {name} was resolved by another worker; nothing was changed") from None
            self.mailer.queue(session, game, record.turn, *rendered)
            mails = len(rendered)
            game.state = record.after
            game.turn += 1
            game.over = engine.is_over(after)
            game.deadline = next_deadline
            session.add(game)
            resolved = TurnSummary(name, record.turn, at, after, outcome.resolutions, mails, False, engine)
            checkpoint("before-resolve-commit")
        checkpoint("after-resolve-commit")
        if not deliver:
            return resolved
        try:
            self.deliver()
        except DeliveryError as err:
            return replace(resolved, delivery_problem=str(err))
        return resolved

    def _check_resolvable(self, session: Session, game: GameRow, at: datetime, *, force: bool,
                          turn: int | None) -> None:
        """Raise PbemError when the game's turn may not be resolved now: another turn asked for,
        the game over, or (without `force`) no orders in since the last turn, before the deadline."""
        name = game.name
        assert game.id is not None
        if turn is not None and turn != game.turn:
            if turn < game.turn:
                raise PbemError(f"turn {turn} of {name} is already resolved; nothing was changed "
                                f"(the current turn is {game.turn})")
            raise PbemError(f"turn {turn} of {name} is not open yet; the current turn is {game.turn}")
        if game.over:
            raise PbemError(f"{name} is over; the last turn was {game.turn - 1}")
        previous = self.store.turn(session, game.id, game.turn - 1) if game.turn > 1 else None
        if previous is not None and not force:
            due = game.deadline is not None and _aware(game.deadline) <= at
            if not due and self.store.sheets_since(session, game.id, game.turn, previous.resolved_at) == 0:
                raise PbemError(
                    f"turn {game.turn - 1} of {name} is already resolved, and no orders for turn {game.turn} "
                    f"have come in yet (deadline: {_show(game.deadline)}); nothing was changed. "
                    f"To resolve turn {game.turn} now with default moves, add --force."
                )

    def render_turn(self, game: GameRow, players: Sequence[PlayerRow], record: TurnRow,
                    notes: Sequence[GmNote] | None = None) -> list[Outgoing]:
        """Every mail of a stored turn: the same bytes each time."""
        engine = self.engine(game)
        after = self.state(game, record.after)
        slots = [engine.resolution_from_json(d) for d in json.loads(record.resolutions)]
        if notes is None:
            with self.store.session() as session:
                notes = self._notes(session, game, record.turn)
        return self.mailer.reports(game, engine, players, after, slots, turn=record.turn,
                                   resolved=_aware(record.resolved_at), deadline=record.deadline,
                                   correction=record.correction, notes=notes)

    def _notes(self, session: Session, game: GameRow, turn: int) -> list[GmNote]:
        """The GM's edits and replacements made while `turn` was open, for its reports."""
        return commands.gm_notes(self.store, session, game, turn)

    def history(self, name: str) -> tuple[GameRow, list[PlayerRow], list[TurnRow]]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            return game, self.store.players(session, game.id), self.store.turns(session, game.id)

    def enter_sheet(self, name: str, seat: str, text: str) -> IntakeResult:
        """The GM enters a sheet for a seat (after a rollback, or for a player who sent it another
        way): it goes through the same parsing, checks and acknowledgement as a mailed sheet, and
        replaces the seat's sheet in force."""
        from pbem.intake import GM_SOURCE

        if len(text) > 200_000:
            raise PbemError("a sheet of more than 200,000 characters is no sheet; check the file")
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            row = next((p for p in players if p.name.lower() == seat.lower()), None)
            if row is None:
                raise PbemError(f"{name} has no seat {seat!r}; its seats: {', '.join(p.name for p in players)}")
            stamp = self.now().strftime("%Y%m%d%H%M%S%f")
            message = MessageRow(message_id=f"<gm.{game.name}.{game.turn}.{row.seat}.{stamp}@pbem.invalid>",
                                 raw=f"GAME {game.name}\nTURN {game.turn}\n{text}".encode(), source=GM_SOURCE,
                                 received_at=self.now(), sender="", subject=f"{row.name} (entered by the GM)",
                                 game_id=game.id, player_id=row.id)
        stored = self.store.add_message(message)
        if stored is None:
            raise PbemError("that sheet was entered a moment ago; try again")
        return run_pipeline(self.intake, stored)

    def change_secret(self, name: str, player: str, secret: str | None = None) -> PlayerRow:
        """Give a player a new secret (or the one given) and mail it to them."""
        problem = check_secret(secret) if secret is not None else None
        if problem is not None:
            raise PbemError(f"{problem}; leave --set out for a random one")
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            row = next((p for p in players if p.name.lower() == player.lower()), None)
            if row is None:
                raise PbemError(f"{name} has no player {player!r}; its players: {', '.join(p.name for p in players)}")
            if not row.email:
                raise PbemError(f"{row.name} is a computer player: it has no secret to change")
            row.secret = secret or new_secret()
            session.add(row)
            self.mailer.queue(session, game, game.turn, self.mailer.secret_mail(
                game, row, why="the GM gave you a new one", message=_once(self.now())))
            session.flush()
            session.expunge(row)
        self.deliver()
        return row

    def turn_record(self, name: str, turn: int) -> tuple[GameRow, list[PlayerRow], TurnRow]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            record = self.store.turn(session, game.id, turn)
            if record is None:
                raise PbemError(f"turn {turn} of {name} has not been resolved")
            return game, self.store.players(session, game.id), record

    # the GM's toolbox --------------------------------------------------------------------------
    def games(self) -> list[dict[str, Any]]:
        """Every game: what is played, the turn, the deadline, and whose orders are missing."""
        out = []
        with self.store.session() as session:
            for game in self.store.games(session):
                assert game.id is not None
                players = self.store.players(session, game.id)
                engine = self.engine(game)
                state = self.state(game)
                sent = commands.sent_seats(self.store, session, game, players)
                due = set(engine.to_move(state)) if not game.over else set()
                missing = [p.name for p in players if p.seat in due and p.seat not in sent and not p.bot]
                out.append({"game": game.name, "plays": engine.info.name, "ruleset": game.rules, "turn": game.turn,
                            "deadline": game.deadline, "paused": game.paused, "over": game.over,
                            "result": game.result, "missing": missing})
        return out

    def _seat(self, players: Sequence[PlayerRow], game: GameRow, seat: str) -> PlayerRow:
        row = next((p for p in players if p.name.lower() == seat.lower()), None)
        if row is None:
            raise PbemError(f"{game.name} has no seat {seat!r}; its seats: {', '.join(p.name for p in players)}")
        return row

    def _event(self, session: Session, game: GameRow, kind: EventKind, text: str, seat: int | None = None) -> int:
        """Record a GM's action; its id tells apart the mails the action sends (two actions in one
        turn, or in one second, are two sets of mail)."""
        assert game.id is not None
        row = EventRow(game_id=game.id, turn=game.turn, kind=kind, seat=seat, text=text, created_at=self.now())
        session.add(row)
        session.flush()
        assert row.id is not None
        return row.id

    def _tell(self, session: Session, game: GameRow, players: Sequence[PlayerRow], what: str, opening: str,
              lines: Sequence[str], *, event: int, deadline: bool = False) -> int:
        """A notice from the GM (of the action recorded as `event`) to every player who reads mail
        (with the deadline as .ics)."""
        key = f"{what}-e{event}"
        count = 0
        for p in players:
            if not p.email:
                continue
            self.mailer.queue(session, game, game.turn, self.mailer.answer(
                game, p, command=what, opening=opening, lines=lines, key=key, kind=MailKind.NOTICE,
                deadline=game.deadline if deadline else None))
            count += 1
        return count

    def replace_player(self, name: str, seat: str, *, email: str | None = None, bot: str | None = None,
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
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if game.over:
                raise PbemError(f"{name} is over; there is no seat to take over")
            if bot is not None:
                bots.check_level(self.engine(game), bot)
            players = self.store.players(session, game.id)
            row = self._seat(players, game, seat)
            if address and any(p.email == address.lower() for p in players if p.id != row.id):
                raise PbemError(f"{address} already plays another seat of {name}")
            before = f"{row.email or 'a computer player'}"
            row.email, row.bot = address.lower(), bot or ""
            row.secret, row.since_turn, row.timezone = secret or new_secret(), game.turn, "UTC"
            row.bouncing, row.away, row.vacation_days = "", "", 0
            assert row.id is not None
            self.store.retire_sheets(session, row.id, game.turn)  # the earlier player's orders are not the newcomer's
            session.add(row)
            who = f"<{address}>" if address else f"a computer player ({bot})"
            text = f"{row.name} is now played by a new player, from turn {game.turn}"
            event = self._event(session, game, EventKind.REPLACE, f"{row.name} ({before}) handed to {who} from turn {game.turn}"
                        f"\n{text}", row.seat)
            minimum = self.now() + clock.require_span(self.config.takeover, "takeover")
            extended = not game.paused and game.deadline is not None and _aware(game.deadline) < minimum
            if extended:
                game.deadline = minimum
                session.add(game)
            engine = self.engine(game)
            state = self.state(game)
            if address:
                self.mailer.queue(session, game, game.turn,
                                  self.mailer.welcome(game, engine, state, row, self.now(), key=f"e{event}"))
                turns = self.store.turns(session, game.id)
                story = commands.history_lines(engine, players, turns, row.seat)
                story += ["", "The position now:", *(f"  {x}" for x in engine.presenter.position_lines(
                    engine.view(state, Viewer(row.seat))))]
                self.mailer.queue(session, game, game.turn, self.mailer.answer(
                    game, row, command="the story so far", opening=f"welcome to {game.name}: this is what happened "
                    "before you took over.", lines=story, key=f"e{event}", kind=MailKind.NOTICE))
            others = [p for p in players if p.id != row.id]
            lines = [text + "."]
            if extended:
                lines.append(f"The deadline is extended so the newcomer has time: {_show(game.deadline)}.")
            self._tell(session, game, others, "a new player", f"news of {game.name}:", lines, deadline=extended, event=event)
            session.flush()
            session.expunge(row)
        self.deliver()
        return row

    def pause(self, name: str) -> GameRow:
        """Stop the game's deadlines (no turn is due, no reminder goes out); players are told."""
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            if game.over or game.paused:
                raise PbemError(f"{name} is {'over' if game.over else 'paused already'}; nothing was changed")
            game.paused = True
            session.add(game)
            event = self._event(session, game, EventKind.PAUSE, f"paused; the deadline was {_show(game.deadline)}")
            assert game.id is not None
            self._tell(session, game, self.store.players(session, game.id), "paused",
                       f"the GM has paused {game.name}.",
                       ["The deadline is stopped; you will be told when the game goes on, with the new deadline.",
                        "Orders are still taken meanwhile."], event=event)
        self.deliver()
        return game

    def resume(self, name: str) -> GameRow:
        """Start the deadlines again: the current deadline moves on by the time the game was paused."""
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if not game.paused:
                raise PbemError(f"{name} is not paused; nothing was changed")
            paused = self.store.events(session, game.id, (EventKind.PAUSE,))
            since = _aware(paused[-1].created_at) if paused else self.now()
            if game.deadline is not None:
                game.deadline = _aware(game.deadline) + (self.now() - since)
            game.paused = False
            session.add(game)
            event = self._event(session, game, EventKind.RESUME, f"resumed; the deadline is {_show(game.deadline)}")
            self._tell(session, game, self.store.players(session, game.id), "resumed",
                       f"{game.name} goes on.", [f"Deadline for turn {game.turn}: {_show(game.deadline)}."],
                       deadline=True, event=event)
        self.deliver()
        return game

    def move_deadline(self, name: str, when: str) -> GameRow:
        """Set the current turn's deadline: a moment (2026-12-01 18:00 Europe/London) or a span from now (3d)."""
        span = clock.parse_span(when)
        moment = self.now() + span if span is not None else clock.parse_moment(when)
        if moment <= self.now():
            raise PbemError(f"{when!r} is in the past; give a later moment, or a span such as 2d")
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if game.over:
                raise PbemError(f"{name} is over; it has no deadline")
            game.deadline = moment
            session.add(game)
            event = self._event(session, game, EventKind.DEADLINE, f"deadline moved to {_show(moment)}")
            self._tell(session, game, self.store.players(session, game.id), "new deadline",
                       f"the GM has moved the deadline of {game.name} turn {game.turn}.",
                       [f"New deadline: {_show(moment)}."], deadline=True, event=event)
        self.deliver()
        return game

    def rollback(self, name: str) -> int:
        """Undo the last resolved turn: the position before it comes back, its sheets are in force
        again; the undone turn is kept whole (undone_turn), and its redo's reports say correction."""
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if game.turn <= 1:
                raise PbemError(f"{name} has no resolved turn to undo")
            record = self.store.turn(session, game.id, game.turn - 1)
            assert record is not None
            session.add(UndoneTurnRow(game_id=game.id, turn=record.turn, correction=record.correction,
                                      resolved_at=record.resolved_at, undone_at=self.now(), deadline=record.deadline,
                                      before=record.before, after=record.after, resolutions=record.resolutions,
                                      sheets=record.sheets, dice=record.dice))
            session.delete(record)  # moved whole to undone_turn above: the turn number is free to resolve again
            previous = self.store.turn(session, game.id, record.turn - 1)
            game.state, game.turn, game.over = record.before, record.turn, False
            game.deadline = previous.deadline if previous is not None else game.deadline
            session.add(game)
            self._event(session, game, EventKind.ROLLBACK, f"turn {record.turn} undone (resolved "
                        f"{_show(record.resolved_at)}); its sheets are in force again")
        return record.turn

    def edit(self, name: str, seat: str, changes: Sequence[str], reason: str) -> Any:
        """Set values of a seat (KEY=VALUE, as the game takes them), with a reason; every edit is
        recorded, shown in the history and told in the next report."""
        if not reason.strip():
            raise PbemError("give a --reason: every edit is shown to the players")
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            engine = self.engine(game)
            row = self._seat(self.store.players(session, game.id), game, seat)
            state = self.state(game)
            for change in changes:
                key, sep, value = change.partition("=")
                if not sep or not key.strip():
                    raise PbemError(f"{change!r}: write KEY=VALUE with a key the game takes (pbem edit --help)")
                state = engine.edit(state, row.seat, key.strip(), value.strip())
                self._event(session, game, EventKind.EDIT,
                            f"the GM set {row.name}'s {key.strip()} to {value.strip()} ({reason.strip()})"
                            f"\nthe GM changed {row.name}'s {key.strip()} ({reason.strip()})", row.seat)
            game.state = self.dumps(engine.dump_state(state))
            session.add(game)
        return state

    def end(self, name: str, result: str | None) -> GameRow:
        """End a game: the GM's result, or abandoned; players are told."""
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if game.over:
                raise PbemError(f"{name} is over already; nothing was changed")
            game.over, game.deadline, game.paused = True, None, False
            game.result = (result or "abandoned").strip()[:500]
            session.add(game)
            event = self._event(session, game, EventKind.END, f"ended by the GM: {game.result}")
            self._tell(session, game, self.store.players(session, game.id), "the end",
                       f"the GM has ended {game.name}.", [f"Result: {game.result}.", "No more orders are taken."], event=event)
        self.deliver()
        return game

    def resend(self, name: str, seat: str, turn: int | None = None) -> str:
        """Send a player's report of a turn again (default: the last resolved)."""
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            players = self.store.players(session, game.id)
            row = self._seat(players, game, seat)
            if not row.email:
                raise PbemError(f"{row.name} is a computer player: it reads no mail")
            wanted = game.turn - 1 if turn is None else turn
            record = self.store.turn(session, game.id, wanted)
            if record is None:
                raise PbemError(f"turn {wanted} of {name} has not been resolved")
            engine = self.engine(game)
            mails = self.mailer.reports(game, engine, players, self.state(game, record.after),
                                        [engine.resolution_from_json(d) for d in json.loads(record.resolutions)],
                                        turn=record.turn, resolved=_aware(record.resolved_at), deadline=record.deadline,
                                        correction=record.correction, notes=self._notes(session, game, record.turn),
                                        again=_once(self.now()), only=row.seat)
            for mail in mails:
                self.mailer.queue(session, game, game.turn, mail)
        self.deliver()
        return row.email

    def set_press(self, name: str, on: bool) -> GameRow:
        """Let PRESS be relayed in a game, or not; players are told."""
        with self.store.session() as session:
            game = self.store.lock_game(session, name)
            assert game.id is not None
            if game.press == on:
                raise PbemError(f"press is {'on' if on else 'off'} in {name} already; nothing was changed")
            game.press = on
            session.add(game)
            event = self._event(session, game, EventKind.PRESS_SWITCH, f"press switched {'on' if on else 'off'}")
            self._tell(session, game, self.store.players(session, game.id), f"press {'on' if on else 'off'}",
                       f"news of {game.name}:", ["PRESS messages are relayed to every player again." if on else
                                                 "The GM has switched press off: PRESS messages are not relayed."], event=event)
        self.deliver()
        return game

    def events(self, name: str) -> list[EventRow]:
        with self.store.session() as session:
            game = self.store.game(session, name)
            assert game.id is not None
            return self.store.events(session, game.id)

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

    def queue_reminders(self, spans: Sequence[timedelta]) -> int:
        """Remind players without orders, once per (turn, span), `span` before the deadline."""
        at = self.now()
        count = 0
        with self.store.session() as session:
            for game in self.store.games(session):
                if game.over or game.deadline is None or game.id is None or game.paused:
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
        self.deliver()
        return count

    # outgoing mail ---------------------------------------------------------------------------
    def note_undeliverable(self, address: str, why: str) -> None:
        """Mail to `address` failed for good: its players are marked bouncing and the GM is told."""
        with self.store.session() as session:
            for player in self.store.players_with_address(session, address):
                player.bouncing = why[:300]
                session.add(player)
                self.mailer.queue(session, None, None, self.mailer.bounce_alert(player, address, why))

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


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _show(moment: datetime | None) -> str:
    return "none set" if moment is None else _aware(moment).strftime("%Y-%m-%d %H:%M UTC")


def _once(moment: datetime) -> str:
    """A key for a mail the GM asks for by hand: the moment and a random part, so that the same
    command twice in one second gives two mails, never a clash of Message-IDs."""
    return f"gm-{int(moment.timestamp())}-{secrets_module.token_hex(4)}"
