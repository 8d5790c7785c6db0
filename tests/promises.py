"""A state machine that hunts for broken promises: random mail, crashes, races and the GM's tools
against a small model of what must be true.

pbem promises everyone who mails it three things: nothing acknowledged is lost, nobody sees what
is hidden from them, and a stranger cannot disturb a game. `PromiseMachine` plays one game of a
registered kind in-process (a `Moderator` over a SQLite store, replies written to an outbox folder)
through random sequences of: order sheets written by the game's computer players from the seat's
own view, sheets with lines the game rejects, mails of commands and settings alone, mails that must
be refused (a stranger, a wrong secret, a stale or another seat's reply token, a wrong turn), the
same bytes again, crashes at every checkpoint of `pbem.faults` followed by a restart (a new
moderator on the same store, whose first `pbem run` round recovers and is offered the unseen mail
again), the GM's early resolution and rollback, a deadline passing, a mail and a resolution
racing each other, a computer sitter named and sent away, a VACATION (so that a sitter writes a
seat's sheet at a forced resolution), and a stranger who asks to OBSERVE the game and confirms it
(pbem answers strangers in some games, not in others). After every step it checks the invariants named in `checks`:

in-force    the sheet in force for each seat is the last one acknowledged as in force, and the
            model's: the last accepted mail *with orders* (commands, settings and greetings never
            replace it; a mail that must be refused is never taken); a resolved turn's record
            holds exactly those sheets (or a seat's standing sheet of an earlier turn, or - for a
            seat with neither - the sheet its computer sitter wrote: a sitter never replaces a
            sheet the player sent, and SITTER and VACATION are settings, never a sheet)
taken-in    no turn is resolved while a stored mail is still waiting to be taken in
hidden      no mail to a player depends on another seat's hidden values: every welcome,
            acknowledgement, report, reminder and STATUS answer is rendered again with each other
            seat's hidden values changed (`Game.vary_hidden`), and the note of that seat's computer
            sitter with another sheet, and must be the same bytes; so is each observer's account
            of a turn
answerable  every mail about a turn in which its reader has a move (welcome, acknowledgement -
            which asks for a corrected sheet -, report, reminder) carries the reply template in its
            text part and in its HTML part, read as pbem reads a reply: the GAME and TURN lines and
            a SECRET line that opens that turn; any other mail with a template has it in every part
bounded     one incoming mail causes at most MAX_ANSWERS mails to its sender and nothing else but
            the reports of a turn it completed; the same bytes again and a stranger's mail cause
            none (a stranger's club mail: none, or - where pbem answers strangers - answers to the
            stranger alone); no report goes out twice, and an observer gets one account of a turn
            (a restart's answers to the mails stored before an earlier crash are counted as theirs)

Whatever the checks, every mail queued in a step must have been delivered by its end. Each
invariant is a test of its own (tests/test_promises_harness.py), so that one broken promise does
not hide another.
"""

from __future__ import annotations

import dataclasses
import email
import email.policy
import functools
import json
import os
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import select

import pbem.club.hooks
import pbem.commands
import pbem.render.png
from pbem import faults
from pbem.config import load_config, write_config
from pbem.errors import PbemError
from pbem.games import AnyGame
from pbem.games.base import Viewer
from pbem.games.chance import KeyedChance
from pbem.games.sheet import read_sheet
from pbem.mail.kinds import MailKind
from pbem.mail.text import html_to_text
from pbem.mailer import GmNote, Mailer, Outgoing
from pbem.moderator import Moderator, PlayerSpec
from pbem.runner import Runner
from pbem.store import MailRow, MessageRow, MessageStatus, PlayerRow, SheetRow, TurnRow
from pbem.tokens import reply_token, secret_matches
from tests.mailcheck import differing_parts

INVARIANTS = ("in-force", "taken-in", "hidden", "answerable", "bounded")

#: the crash points an intake step passes (the last two when the mail completes a turn that
#: resolves on receipt), and those the GM's resolution passes
INTAKE_POINTS = ("after-store-raw", "before-store-sheet", "after-intake", "after-gather", "after-first-write",
                 "before-resolve-commit", "after-resolve-commit")
RESOLVE_POINTS = ("after-gather", "after-first-write", "before-resolve-commit", "after-resolve-commit")
#: crash points the harness cannot reach in-process, and why
UNREACHED_POINTS = {"after-claim": "passed only by `pbem run` sending over SMTP; the harness delivers to the outbox folder"}

#: Mails to one sender caused by one incoming mail, besides the report of a turn it completes:
#: one acknowledgement or refusal, and one answer to each command it holds. The harness writes
#: at most two commands a mail (NEW SECRET's answer is the mail with the new secret), so 3 is the
#: most a mail may cause; a mail loop or an answer sent twice goes beyond it.
MAX_ANSWERS = 3
#: the kinds of mail about a turn in which the reader has a move: each must carry the reply template
ABOUT_A_TURN = frozenset({MailKind.WELCOME, MailKind.ACK, MailKind.REPORT, MailKind.REMINDER})
#: what an acknowledgement says of a sheet that is now in force (the acknowledgement template's words)
IN_FORCE = ("is now in force", "replaces the one you sent before")
STANDING_SAID = "this sheet stays in force for later turns"

NAME = "hunt"
GM = "gm@pbem.example"
STRANGER = "eve@stranger.example"
SEATS = (("Ann", "ann@example.org"), ("Bob", "bob@example.net"), ("Cyd", "cyd@example.com"))
START = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
#: how long each step takes on the moderator's clock (replies are rate-limited per hour)
STEP = timedelta(minutes=7)

#: lines with no orders in them: commands, settings and a sign-off
COMMANDS = ("STATUS", "HISTORY", "HELP", "TIMEZONE Europe/Paris", "STANDING", "NEW SECRET", "Thanks!")
#: order lines no game takes
BAD_LINES = ("MOVE: TO 99", "PLAY ZZ", "FLY TO THE MOON", "MOVE: IF CARROTS >= 9999 THEN TO -1", "BET 99999")
#: how many days ahead a VACATION starts, and how many days it lasts
VACATION_START = (0, 1, 3)
VACATION_DAYS = (1, 3, 8)
#: a confirmation the club asks for, in its answer's text
CONFIRM_LINE = re.compile(r"^\s*CONFIRM (\S+)\s*$", re.M)
#: mails that must be refused, whoever sends them
REFUSED = ("stranger", "wrong-secret", "stale-token", "other-seat-token", "wrong-turn")

#: where the games' folders go: memory where the machine has it, since every commit and every mail
#: written waits for the disk (the hunt is after the moderator's logic, not the disk's)
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() and os.access("/dev/shm", os.W_OK) else None

#: what the harness saw over a run: steps, games, crash points passed (read by the long run)
STATS: Counter[str] = Counter()


class BrokenPromise(AssertionError):
    """A promise found broken after a step: which one, and every instance of it."""

    def __init__(self, invariant: str, problems: list[str]) -> None:
        super().__init__(f"{invariant}: " + "\n  ".join(problems))
        self.invariant = invariant
        self.problems = problems


class Crash(BaseException):
    """The process killed at a checkpoint: a BaseException, so that no `except Exception` in pbem
    (the quarantine, a runner's round) takes it for a failed step and goes on."""


@dataclass(frozen=True)
class Sent:
    """A mail the harness sent, and what the model knows of it."""

    message_id: str
    raw: bytes
    sender: str
    seat: int | None  # the seat it writes for (None: a stranger)
    orders: bool  # it holds order lines
    commands: tuple[str, ...]
    refuse: str  # why pbem must refuse it ("" when it may take it)


@dataclass(frozen=True)
class Ack:
    """An acknowledgement in the outbox: the mail it answers and what it said."""

    mail: int
    seat: int
    turn: int
    answers: str  # the Message-ID of the mail it answers
    in_force: bool
    standing: bool


@dataclass
class StepRecord:
    """What the last rule did, for the checks that follow it."""

    what: str
    mail: Sent | None = None
    duplicate_of_taken: bool = False  # the same bytes as a mail pbem had taken in already
    crashed: str = ""


@dataclass
class Snapshot:
    """The store as the checks read it after a step."""

    turn: int
    over: bool
    state: Any
    players: list[PlayerRow]
    messages: dict[int, MessageRow]
    sheets: list[SheetRow]
    turns: list[TurnRow]
    mails: list[MailRow]
    by_key: dict[str, MessageRow] = field(default_factory=dict)


def mail_parts(raw: bytes) -> list[tuple[str, str]]:
    """The text parts of a mail as a reader sees them: (content type, text), HTML read as text."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    out = []
    for part in msg.walk():
        kind = part.get_content_type()
        if kind in ("text/plain", "text/html") and not part.is_attachment():
            text = str(part.get_content())
            out.append((kind, html_to_text(text) if kind == "text/html" else text))
    return out


def reply_header(text: str) -> tuple[str | None, int | None, str | None] | None:
    """The GAME, TURN and SECRET of the reply template in a part's text, as pbem reads them
    (None when the part holds no template: no GAME line followed by TURN and SECRET lines)."""
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines):
        if line.upper().startswith("GAME ") and i + 2 < len(lines):
            block = lines[i:i + 3]
            if block[1].upper().startswith("TURN ") and block[2].upper().startswith("SECRET "):
                sheet = read_sheet("\n".join(block))
                return sheet.game, sheet.turn, sheet.secret
    return None


class PromiseMachine(RuleBasedStateMachine):
    """One game of `game` with `seats` players who read mail; the checks named in `checks`."""

    game: ClassVar[AnyGame]
    seats: ClassVar[int]
    checks: ClassVar[frozenset[str]]
    #: rules left out (to hunt one kind of breach at a time)
    without: ClassVar[frozenset[str]] = frozenset()

    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="pbem-promises-", dir=SCRATCH))
        self.config = load_config(write_config(self.root, address=GM))
        self.clock_moment = START
        self.ready = False
        self.count = 0
        self.sent: list[Sent] = []
        self.by_id: dict[str, Sent] = {}
        self.acks: list[Ack] = []
        self.checked_mail = 0
        self.known_turns: set[tuple[int, int]] = set()
        self.highest_turn = 1
        self.step = StepRecord("set-up")
        self.secrets_before: dict[int, str] = {}
        self.pending_before: set[str] = set()  # harness mails stored before a crash, not yet taken in
        self.leaks: list[str] = []
        self.harness_errors: list[str] = []
        self.armed: str | None = None
        self.strangers = False  # whether pbem answers strangers (drawn with the game)
        self.confirm: str | None = None  # the token the club last asked the stranger to confirm
        self._unpatch: list[Callable[[], None]] = []
        shutil.copyfile(empty_store(), self.root / "pbem.sqlite")
        self._patch_checkpoints()
        self._remember_pictures()
        if "hidden" in self.checks:
            self._watch_status_lines()
            self._watch_observers()
        self.m = self._moderator()
        STATS["games"] += 1

    def allowed(self, rule: str) -> bool:
        return rule not in self.without

    # the moderator and its process ----------------------------------------------------------
    def now(self) -> datetime:
        return self.clock_moment

    def _moderator(self) -> Moderator:
        m = Moderator(self.config, now=self.now)
        if self.strangers:
            m.intake = dataclasses.replace(m.intake, policy=dataclasses.replace(m.intake.policy,
                                                                                reply_to_strangers=True))
        if "hidden" in self.checks:
            self._watch_mailer(m.mailer)
        return m

    def _patch_checkpoints(self) -> None:
        """Every module's `checkpoint` raises Crash at the armed point (the real one exits the process)."""
        def checkpoint(name: str) -> None:
            STATS[f"passed {name}"] += 1
            if name == self.armed:
                self.armed = None
                raise Crash(name)

        self._replace_everywhere("checkpoint", faults.checkpoint, checkpoint)

    def _replace_everywhere(self, name: str, honest: Callable[..., Any], stand_in: Callable[..., Any]) -> None:
        """`name` in every module that imported `honest` under it becomes `stand_in` until teardown."""
        spaces = [vars(module) for module in list(sys.modules.values()) if getattr(module, name, None) is honest]
        for space in spaces:
            space[name] = stand_in

        def undo() -> None:
            for space in spaces:
                space[name] = honest

        self._unpatch.append(undo)

    def _remember_pictures(self) -> None:
        """Rasterising is a pure function of the SVG: the same SVG drawn again (every re-rendering
        of the hidden-information check draws the public picture again) is taken from a cache."""
        assert self.game.presenter is not None  # its modules imported, so that their names can be found
        honest = pbem.render.png.svg_to_png
        self._replace_everywhere("svg_to_png", honest, functools.lru_cache(maxsize=64)(honest))

    @contextmanager
    def crash_at(self, point: str | None) -> Iterator[None]:
        self.armed = point
        try:
            yield
        finally:
            self.armed = None

    def restart(self, point: str, delay: int, offered_again: bytes | None) -> None:
        """The process died at `point`; `delay` seconds later `pbem run` starts on the same store:
        its first round recovers stored mail, is offered the mail that was not marked seen, resolves
        due turns, reminds and sends."""
        STATS[f"crash at {point}"] += 1
        self.step.crashed = point
        self.m.store.engine.dispose()
        self.clock_moment += timedelta(seconds=delay)
        self.m = self._moderator()
        if offered_again is not None:
            self.count += 1
            (self.config.maildir / "new" / f"{self.count}.harness").write_bytes(offered_again)
        Runner(self.m, worker="restarted").round()

    def teardown(self) -> None:
        for undo in reversed(self._unpatch):
            undo()
        self.m.store.engine.dispose()
        shutil.rmtree(self.root, ignore_errors=True)

    # hidden information ----------------------------------------------------------------------
    def _vary(self) -> int:
        return self.count + 1

    def _watch_mailer(self, mailer: Mailer[Any]) -> None:
        """Each mail rendered from a state is rendered again with every other seat's hidden values
        changed; a reader whose bytes differ is told something hidden from her (kept in `leaks`)."""
        for name in ("welcome", "acknowledgement", "reminder"):
            setattr(mailer, name, self._one_reader(name, getattr(mailer, name)))
        honest_reports = mailer.reports

        def reports(game: Any, engine: AnyGame, players: list[PlayerRow], after: Any, resolutions: Any,
                    **kw: Any) -> list[Outgoing]:
            out = honest_reports(game, engine, players, after, resolutions, **kw)
            plain = {o.to: o.raw for o in out}
            for other in players:
                try:
                    state, events = engine.vary_hidden(after, tuple(resolutions), other.seat, self._vary())
                    notes = tuple(_other_sheet(n, self._vary()) if n.sheet and n.seat == other.seat else n
                                  for n in kw.get("notes", ()))
                    varied = {o.to: o.raw for o in honest_reports(game, engine, players, state, events,
                                                                  **{**kw, "notes": notes})}
                except Exception as err:  # noqa: BLE001 - told by the check, not raised inside pbem's intake
                    self.harness_errors.append(f"vary_hidden for {other.name}: {err!r}")
                    continue
                for p in players:
                    if p.email and p.seat != other.seat and p.email in plain and varied.get(p.email) != plain[p.email]:
                        where = ", ".join(differing_parts(plain[p.email], varied.get(p.email, b""))) or "headers"
                        self.leaks.append(f"turn {kw.get('turn')} report: {p.name}'s mail shows {other.name}'s "
                                          f"hidden values ({where})")
            return out

        mailer.reports = reports  # type: ignore[method-assign, assignment]

    def _one_reader(self, what: str, honest: Callable[..., Outgoing]) -> Callable[..., Outgoing]:
        def watched(game: Any, engine: AnyGame, state: Any, player: PlayerRow, *args: Any, **kw: Any) -> Outgoing:
            out = honest(game, engine, state, player, *args, **kw)
            for other in range(len(engine.seats(state))):
                if other == player.seat:
                    continue
                try:
                    varied, _ = engine.vary_hidden(state, (), other, self._vary())
                    again = honest(game, engine, varied, player, *args, **kw)
                except Exception as err:  # noqa: BLE001 - told by the check, not raised inside pbem's intake
                    self.harness_errors.append(f"{what} with seat {other} varied: {err!r}")
                    continue
                if again.raw != out.raw:
                    where = ", ".join(differing_parts(out.raw, again.raw)) or "headers"
                    self.leaks.append(f"{what} to {player.name}: shows seat {other}'s hidden values ({where})")
            return out

        return watched

    def _watch_status_lines(self) -> None:
        honest = pbem.commands.status_lines

        def status_lines(engine: AnyGame, game: Any, player: PlayerRow, players: Any, state: Any,
                         *args: Any) -> list[str]:
            out = honest(engine, game, player, players, state, *args)
            for other in range(len(engine.seats(state))):
                if other != player.seat:
                    varied, _ = engine.vary_hidden(state, (), other, self._vary())
                    if honest(engine, game, player, players, varied, *args) != out:
                        self.leaks.append(f"STATUS answer to {player.name}: shows seat {other}'s hidden values")
            return out

        pbem.commands.status_lines = status_lines  # type: ignore[assignment]
        self._unpatch.append(lambda: setattr(pbem.commands, "status_lines", honest))

    def _watch_observers(self) -> None:
        """Each observer's account of a turn is drawn again, without being sent, from the turn with
        every seat's hidden values changed in turn: the bytes must be the same."""
        honest = pbem.club.hooks.observe

        def observe(m: Moderator, name: str) -> int:
            plain = self._observed(m, name, honest, None)
            for seat in range(self.seats):
                try:
                    varied = self._observed(m, name, honest, seat)
                except Exception as err:  # noqa: BLE001 - told by the check, not raised inside pbem
                    self.harness_errors.append(f"the observers' account with seat {seat} varied: {err!r}")
                    continue
                self.leaks += [f"the observers' account to {to} shows seat {seat}'s hidden values ("
                               f"{', '.join(differing_parts(raw, varied.get(to, b''))) or 'headers'})"
                               for to, raw in plain.items() if varied.get(to) != raw]
            return honest(m, name)

        pbem.club.hooks.observe = observe  # type: ignore[assignment]
        self._unpatch.append(lambda: setattr(pbem.club.hooks, "observe", honest))

    def _observed(self, m: Moderator, name: str, honest: Callable[[Moderator, str], int],
                  seat: int | None) -> dict[str, bytes]:
        """The observers' accounts of the last turn, drawn and not sent, from the turn as stored
        or (`seat`) with that seat's hidden values changed."""
        sent: list[Outgoing] = []
        record = pbem.club.hooks.TurnRecord

        def from_row(engine: AnyGame, row: TurnRow) -> Any:
            told = record.from_row(engine, row)
            if seat is None:
                return told
            after, events = engine.vary_hidden(told.after, told.resolutions, seat, self._vary())
            return dataclasses.replace(told, stored_after=engine.dump_state(after), resolutions=tuple(events))

        m.mailer.queue = lambda session, game, turn, *mails: sent.extend(mails)  # type: ignore[method-assign]
        m.store.mail_exists = lambda session, key: False  # type: ignore[method-assign]
        m.deliver = lambda: 0  # type: ignore[method-assign]
        pbem.club.hooks.TurnRecord = type("Varied", (), {"from_row": staticmethod(from_row)})  # type: ignore[misc]
        try:
            honest(m, name)
        finally:
            pbem.club.hooks.TurnRecord = record  # type: ignore[misc]
            del m.mailer.queue, m.store.mail_exists, m.deliver
        return {o.to: o.raw for o in sent}

    # mail ------------------------------------------------------------------------------------
    def _snapshot(self) -> Snapshot:
        m = self.m
        with m.store.session() as session:
            game = m.store.game(session, NAME)
            assert game.id is not None
            snap = Snapshot(
                turn=game.turn, over=game.over, state=m.state(game), players=m.store.players(session, game.id),
                messages={r.id or 0: r for r in m.store.messages(session)},
                sheets=list(session.exec(_sheets(game.id))), turns=m.store.turns(session, game.id),
                mails=m.store.mails(session))
            session.expunge_all()
        snap.by_key = {r.message_id: r for r in snap.messages.values()}
        return snap

    def _secret(self, seat: int) -> str:
        with self.m.store.session() as session:
            game = self.m.store.game(session, NAME)
            return self.m.store.players(session, game.id or 0)[seat].secret

    def _mail(self, sender: str, body: str, *, seat: int | None, orders: bool, commands: tuple[str, ...] = (),
              refuse: str = "") -> Sent:
        self.count += 1
        key = f"<h{self.count}.{NAME}@harness.example>"
        raw = (f"From: {sender}\nTo: {GM}\nSubject: {NAME}\nMessage-ID: {key}\n"
               f"Date: {self.now():%a, %d %b %Y %H:%M:%S +0000}\nContent-Type: text/plain; charset=utf-8\n\n{body}\n")
        return Sent(key, raw.encode(), sender, seat, orders, commands, refuse)

    def _credential(self, seat: int, kind: str, turn: int) -> str:
        secret = self._secret(seat)
        return secret if kind == "secret" else reply_token(secret, NAME, turn)

    def _sheet_lines(self, seat: int, level: int) -> tuple[int, list[str], str]:
        """The seat to write for (the one asked for, or another on move), its computer player's
        lines from that seat's own view, and why pbem must refuse the sheet ("" when it may take it)."""
        snap_game, _, state = self.m.game_state(NAME)
        engine = self.game
        if snap_game.over:
            return seat, list(BAD_LINES[:1]), "the game is over"
        moving = engine.may_send(state)
        if seat not in moving:
            seat = moving[seat % len(moving)] if moving else seat
        # The default level is the strongest and the slowest (seconds a sheet in Hare & Tortoise):
        # it writes only when the others write nothing (a computer player may leave a turn to the
        # default moves, and a mail without order lines is no sheet).
        others = engine.info.bot_levels[1:]
        start = level % len(others) if others else 0
        lines: list[str] = []
        for name in [*others[start:], *others[:start], engine.info.bot_levels[0]]:
            bot = engine.bot(name)
            assert bot is not None
            view = engine.view(state, Viewer(seat))
            text = bot.write(view, KeyedChance(f"harness/{self.count}/{seat}", snap_game.turn, "computer"))
            lines = [line for line in text.splitlines() if line.strip()]
            if lines:
                break
        return seat, lines, "" if seat in moving else "the seat has no move"

    def _orders(self, seat: int, level: int, credential: str, turn_line: bool, extras: tuple[str, ...]) -> Sent:
        seat, lines, refuse = self._sheet_lines(seat, level)
        turn = self.m.game_state(NAME)[0].turn
        head = [f"GAME {NAME}", *([f"TURN {turn}"] if turn_line else []),
                f"SECRET {self._credential(seat, credential, turn)}"]
        return self._mail(SEATS[seat][1], "\n".join([*head, *lines, *extras]), seat=seat, orders=bool(lines),
                          commands=extras, refuse=refuse)

    def deliver(self, mail: Sent, *, crash: str | None = None, delay: int = 0, what: str = "mail") -> None:
        """The mail arrives and is taken in; a crash at `crash` kills the process, which restarts."""
        self.step = StepRecord(what, mail, duplicate_of_taken=False)
        known = self._message(mail.message_id)
        self.step.duplicate_of_taken = known is not None and known.status != MessageStatus.NEW
        if mail.message_id not in self.by_id:
            self.sent.append(mail)
            self.by_id[mail.message_id] = mail
        try:
            with self.crash_at(crash):
                self.m.ingest(mail.raw, "harness")
        except Crash as crashed:
            self.restart(str(crashed), delay, mail.raw)

    def _message(self, key: str) -> MessageRow | None:
        with self.m.store.session() as session:
            row = self.m.store.message_seen(session, key)
            if row is not None:
                session.expunge(row)
            return row

    # the rules -------------------------------------------------------------------------------
    @initialize(seed=st.integers(0, 2**16), strangers=st.booleans())
    def new_game(self, seed: int, strangers: bool = False) -> None:
        """The game starts; `strangers`: pbem answers strangers (the GM's reply_to_strangers)."""
        if strangers:
            self.strangers = True
            self.m.store.engine.dispose()
            self.m = self._moderator()
        self.m.new_game(NAME, game=self.game.info.name, rules=None, seed=seed, deadline="7d",
                        players=[PlayerSpec(n, a, f"{n.upper()}-{i}{i}{i}") for i, (n, a) in enumerate(SEATS[:self.seats])])
        self.ready = True

    def _begin(self) -> None:
        self.clock_moment += STEP
        snap = self._snapshot()
        self.secrets_before = {p.seat: p.secret for p in snap.players}
        self.pending_before = {m.message_id for m in snap.messages.values()
                               if m.status == MessageStatus.NEW and m.message_id in self.by_id}
        STATS["steps"] += 1

    @precondition(lambda self: self.allowed("orders"))
    @rule(seat=st.integers(0, 2), level=st.integers(0, 9), credential=st.sampled_from(("secret", "token")),
          turn_line=st.booleans(), extras=st.lists(st.sampled_from(COMMANDS), max_size=2, unique=True).map(tuple))
    def orders(self, seat: int, level: int, credential: str, turn_line: bool, extras: tuple[str, ...]) -> None:
        """A player sends the sheet her seat's computer player would write, perhaps with commands."""
        self._begin()
        self.deliver(self._orders(seat % self.seats, level, credential, turn_line, extras))

    @precondition(lambda self: self.allowed("orders_the_game_rejects"))
    @rule(seat=st.integers(0, 2), lines=st.lists(st.sampled_from(BAD_LINES), min_size=1, max_size=3),
          credential=st.sampled_from(("secret", "token")))
    def orders_the_game_rejects(self, seat: int, lines: list[str], credential: str) -> None:
        """A sheet whose order lines the game rejects: still a sheet (each rejected line takes its default)."""
        self._begin()
        seat, _, refuse = self._sheet_lines(seat % self.seats, 0)
        turn = self.m.game_state(NAME)[0].turn
        body = "\n".join([f"GAME {NAME}", f"SECRET {self._credential(seat, credential, turn)}", *lines])
        self.deliver(self._mail(SEATS[seat][1], body, seat=seat, orders=True, refuse=refuse))

    @precondition(lambda self: self.allowed("commands_alone"))
    @rule(seat=st.integers(0, 2), commands=st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=2, unique=True),
          credential=st.sampled_from(("secret", "token")))
    def commands_alone(self, seat: int, commands: list[str], credential: str) -> None:
        """A mail of commands, settings or a greeting, without orders."""
        self._begin()
        seat %= self.seats
        turn = self.m.game_state(NAME)[0].turn
        body = "\n".join([f"GAME {NAME}", f"SECRET {self._credential(seat, credential, turn)}", *commands])
        self.deliver(self._mail(SEATS[seat][1], body, seat=seat, orders=False, commands=tuple(commands)))

    @precondition(lambda self: self.allowed("sitter") and bool(self.game.info.bot_levels))
    @rule(seat=st.integers(0, 2), level=st.integers(-1, 9), credential=st.sampled_from(("secret", "token")),
          extras=st.lists(st.sampled_from(COMMANDS), max_size=1).map(tuple))
    def sitter(self, seat: int, level: int, credential: str, extras: tuple[str, ...]) -> None:
        """A player names a computer sitter of one of the game's levels, or sends hers away (-1):
        a setting, never a sheet."""
        self._begin()
        seat %= self.seats
        levels = self.game.info.bot_levels
        command = "SITTER OFF" if level < 0 else f"SITTER {levels[level % len(levels)]}"
        turn = self.m.game_state(NAME)[0].turn
        body = "\n".join([f"GAME {NAME}", f"SECRET {self._credential(seat, credential, turn)}", command, *extras])
        self.deliver(self._mail(SEATS[seat][1], body, seat=seat, orders=False, commands=(command, *extras)))

    @precondition(lambda self: self.allowed("vacation"))
    @rule(seat=st.integers(0, 2), start=st.sampled_from(VACATION_START), days=st.sampled_from(VACATION_DAYS),
          credential=st.sampled_from(("secret", "token")))
    def vacation(self, seat: int, start: int, days: int, credential: str) -> None:
        """A player goes away for a few days (VACATION): a setting, never a sheet; while she is
        away her sitter (if she named one) writes her sheet."""
        self._begin()
        seat %= self.seats
        first = self.now().date() + timedelta(days=start)
        command = f"VACATION {first.isoformat()} {(first + timedelta(days=days - 1)).isoformat()}"
        turn = self.m.game_state(NAME)[0].turn
        body = "\n".join([f"GAME {NAME}", f"SECRET {self._credential(seat, credential, turn)}", command])
        self.deliver(self._mail(SEATS[seat][1], body, seat=seat, orders=False, commands=(command,)))

    @precondition(lambda self: self.allowed("a_stranger_observes"))
    @rule(confirm=st.booleans())
    def a_stranger_observes(self, confirm: bool) -> None:
        """A stranger asks to OBSERVE the game, or confirms the last request (when pbem answered
        it with a token to confirm): then each turn's public account comes to her."""
        self._begin()
        body = f"CONFIRM {self.confirm}" if confirm and self.confirm else f"OBSERVE {NAME}"
        self.deliver(self._mail(STRANGER, body, seat=None, orders=False, commands=(body.split()[0],)))
        self.confirm = self._confirmation() or self.confirm

    def _confirmation(self) -> str | None:
        """The token in the last answer to the stranger, if it asks for a confirmation."""
        with self.m.store.session() as session:
            mails = [r for r in self.m.store.mails(session) if r.recipient == STRANGER and r.path]
        if not mails:
            return None
        text = "\n".join(t for _, t in mail_parts(Path(mails[-1].path).read_bytes()))
        found = CONFIRM_LINE.search(text)
        return found.group(1) if found else None

    @precondition(lambda self: self.allowed("mail_that_must_be_refused"))
    @rule(seat=st.integers(0, 2), how=st.sampled_from(REFUSED), back=st.integers(1, 3))
    def mail_that_must_be_refused(self, seat: int, how: str, back: int) -> None:
        """A stranger with a forwarded report, a wrong secret, a reply token of another turn or of
        another seat, a sheet for another turn: refused, and nothing changes."""
        self._begin()
        seat %= self.seats
        seat, lines, _ = self._sheet_lines(seat, 0)
        turn = self.m.game_state(NAME)[0].turn
        secret = self._secret(seat)
        sender, secret_line, turn_line = SEATS[seat][1], reply_token(secret, NAME, turn), turn
        if how == "stranger":
            sender = STRANGER
        elif how == "wrong-secret":
            secret_line = "WRONG-999"
        elif how == "stale-token":
            others = [t for t in range(1, self.highest_turn + 2) if t != turn]
            secret_line = reply_token(secret, NAME, others[back % len(others)])
        elif how == "other-seat-token":
            secret_line = reply_token(self._secret((seat + 1) % self.seats), NAME, turn)
        else:
            turn_line = turn + (1 if back % 2 else -1)
        body = "\n".join([f"GAME {NAME}", f"TURN {turn_line}", f"SECRET {secret_line}", *lines])
        self.deliver(self._mail(sender, body, seat=None if how == "stranger" else seat, orders=True, refuse=how))

    @precondition(lambda self: self.allowed("the_same_mail_again") and bool(self.sent))
    @rule(pick=st.integers(0, 10**6))
    def the_same_mail_again(self, pick: int) -> None:
        """A mail arrives a second time, byte for byte."""
        self._begin()
        self.deliver(self.sent[pick % len(self.sent)], what="duplicate")

    @precondition(lambda self: self.allowed("orders_and_a_crash"))
    @rule(seat=st.integers(0, 2), level=st.integers(0, 9), point=st.sampled_from(INTAKE_POINTS),
          delay=st.sampled_from((0, 600)))
    def orders_and_a_crash(self, seat: int, level: int, point: str, delay: int) -> None:
        """The process dies at a checkpoint while it takes in a sheet, and restarts `delay` s later."""
        self._begin()
        self.deliver(self._orders(seat % self.seats, level, "token", True, ()), crash=point, delay=delay)

    @precondition(lambda self: self.allowed("gm_resolves_early"))
    @rule(point=st.sampled_from((None, *RESOLVE_POINTS)), delay=st.sampled_from((0, 600)))
    def gm_resolves_early(self, point: str | None, delay: int) -> None:
        """The GM resolves the turn now (`resolve-turn --force`); the process may die on the way."""
        self._begin()
        self.step = StepRecord("resolve")
        try:
            with self.crash_at(point):
                self.m.resolve(NAME, force=True)
        except Crash as crashed:
            self.restart(str(crashed), delay, None)
        except PbemError:
            pass  # the game is over

    @precondition(lambda self: self.allowed("a_sheet_arrives_while_the_gm_resolves"))
    @rule(seat=st.integers(0, 2), level=st.integers(0, 9))
    def a_sheet_arrives_while_the_gm_resolves(self, seat: int, level: int) -> None:
        """A second worker takes in a sheet after the GM's resolution has read the sheets and before
        it writes the turn."""
        self._begin()
        mail = self._orders(seat % self.seats, level, "token", False, ())
        self.step = StepRecord("race", mail)
        self.sent.append(mail)
        self.by_id[mail.message_id] = mail
        resolver = self._moderator()
        honest = resolver.render_turn
        worker = self.m
        arrived: list[bool] = []

        def render_turn(*args: Any, **kw: Any) -> Any:
            if not arrived:
                arrived.append(True)
                worker.ingest(mail.raw, "second worker")
            return honest(*args, **kw)

        resolver.render_turn = render_turn  # type: ignore[method-assign]
        try:
            resolver.resolve(NAME, force=True)
        except (PbemError, SQLAlchemyError):
            # the game is over, or the sheet completed the turn and the worker resolved it first
            # (which resolve() means to say with a PbemError, but on SQLite it reads the expired
            # game row after the failed flush and raises PendingRollbackError)
            pass
        finally:
            resolver.store.engine.dispose()
        if not arrived:
            worker.ingest(mail.raw, "second worker")

    @precondition(lambda self: self.allowed("the_gm_resolves_while_a_sheet_is_taken_in"))
    @rule(seat=st.integers(0, 2), level=st.integers(0, 9))
    def the_gm_resolves_while_a_sheet_is_taken_in(self, seat: int, level: int) -> None:
        """The GM's resolution commits after intake has read the game and before it stores the sheet."""
        self._begin()
        mail = self._orders(seat % self.seats, level, "token", False, ())
        resolver = self._moderator()
        honest = self.m.mailer.acknowledgement

        def acknowledgement(*args: Any, **kw: Any) -> Outgoing:
            try:
                resolver.resolve(NAME, force=True)
            except (PbemError, SQLAlchemyError):
                pass  # the game is over
            return honest(*args, **kw)

        self.m.mailer.acknowledgement = acknowledgement  # type: ignore[method-assign]
        try:
            self.deliver(mail, what="race")
        finally:
            self.m.mailer.acknowledgement = honest  # type: ignore[method-assign]
            resolver.store.engine.dispose()

    @precondition(lambda self: self.allowed("the_deadline_passes"))
    @rule()
    def the_deadline_passes(self) -> None:
        """The clock reaches the deadline and a `pbem run` round resolves what is due."""
        self._begin()
        self.step = StepRecord("deadline")
        game = self.m.game_state(NAME)[0]
        if game.deadline is not None:
            deadline = game.deadline if game.deadline.tzinfo else game.deadline.replace(tzinfo=timezone.utc)
            self.clock_moment = max(self.clock_moment, deadline + timedelta(minutes=1))
        Runner(self.m, worker="cron").round()

    @precondition(lambda self: self.allowed("gm_rolls_back") and self.highest_turn > 1)
    @rule()
    def gm_rolls_back(self) -> None:
        """The GM undoes the last resolved turn."""
        self._begin()
        self.step = StepRecord("rollback")
        try:
            self.m.rollback(NAME)
        except PbemError:
            pass

    # the checks ------------------------------------------------------------------------------
    @invariant()
    def promises_hold(self) -> None:
        if not self.ready:
            return
        snap = self._snapshot()
        new_mail = [r for r in snap.mails if (r.id or 0) > self.checked_mail]
        problems = [f"mail {r.id} ({r.kind} to {r.recipient}) is still {r.status}" for r in new_mail if r.status != "sent"]
        bodies = {r.id or 0: Path(r.path).read_bytes() for r in new_mail if r.path}
        self._read_acks(snap, new_mail, bodies)
        new_turns = [t for t in snap.turns if (t.turn, t.correction) not in self.known_turns]
        self.highest_turn = max(self.highest_turn, snap.turn)
        STATS["turns resolved"] += len(new_turns)
        STATS["sheets a sitter wrote"] += sum(1 for t in new_turns for text in json.loads(t.sheets).values()
                                              if text is not None and text.startswith(pbem.commands.SITTER_MARK))
        STATS["accounts to an observer"] += sum(1 for r in new_mail if r.kind == MailKind.NOTICE and r.recipient == STRANGER)
        try:
            if problems:
                raise BrokenPromise("delivered", problems)
            if self.harness_errors:
                raise AssertionError("the harness could not vary hidden values: " + "; ".join(self.harness_errors))
            for name in INVARIANTS:
                if name in self.checks:
                    found = getattr(self, "check_" + name.replace("-", "_"))(snap, new_mail, bodies, new_turns)
                    if found:
                        raise BrokenPromise(name, found)
        finally:
            self.checked_mail = max([self.checked_mail, *(r.id or 0 for r in new_mail)])
            self.known_turns |= {(t.turn, t.correction) for t in new_turns}
            self.leaks.clear()

    def _read_acks(self, snap: Snapshot, new_mail: list[MailRow], bodies: dict[int, bytes]) -> None:
        seats = {p.email: p.seat for p in snap.players}
        for row in new_mail:
            if row.kind != MailKind.ACK or row.id not in bodies:
                continue
            msg = email.message_from_bytes(bodies[row.id], policy=email.policy.default)
            text = "\n".join(t for kind, t in mail_parts(bodies[row.id]) if kind == "text/plain")
            said = " ".join(text.split())
            self.acks.append(Ack(row.id, seats[row.recipient], row.turn or 0, str(msg["In-Reply-To"] or ""),
                                 any(p in said for p in IN_FORCE), STANDING_SAID in said))

    def _acked(self, seat: int, turn: int) -> Ack | None:
        told = [a for a in self.acks if a.seat == seat and a.turn == turn and a.in_force]
        return told[-1] if told else None

    def _model_in_force(self, snap: Snapshot, player: PlayerRow, turn: int) -> SheetRow | None:
        """The model's sheet in force: the seat's last-arrived stored sheet of `turn` that came in a
        mail with orders."""
        mine = [s for s in snap.sheets if s.player_id == player.id and s.turn == turn
                and self._sent_of(snap, s) is not None and self._sent_of(snap, s).orders]  # type: ignore[union-attr]
        return max(mine, key=lambda s: s.message_id) if mine else None

    def _sent_of(self, snap: Snapshot, sheet: SheetRow) -> Sent | None:
        return self.by_id.get(snap.messages[sheet.message_id].message_id)

    def check_in_force(self, snap: Snapshot, new_mail: list[MailRow], bodies: dict[int, bytes],
                       new_turns: list[TurnRow]) -> list[str]:
        problems = []
        current = {s.player_id: s for s in snap.sheets if s.turn == snap.turn and s.current}
        for p in snap.players:
            told = self._acked(p.seat, snap.turn)
            stored = current.get(p.id or 0)
            stored_key = snap.messages[stored.message_id].message_id if stored else None
            if (told.answers if told else None) != stored_key:
                problems.append(f"turn {snap.turn}: {p.name} was last told {told.answers if told else 'nothing'} is in "
                                f"force; the store holds {stored_key}")
            model = self._model_in_force(snap, p, snap.turn)
            model_key = snap.messages[model.message_id].message_id if model else None
            if stored_key != model_key:
                why = self.by_id.get(stored_key or "")
                what = f"a mail without orders ({', '.join(why.commands)})" if why and not why.orders else stored_key
                problems.append(f"turn {snap.turn}: {p.name}'s sheet in force is {what}; the last sheet of orders "
                                f"taken is {model_key}")
        for s in snap.sheets:
            sent = self._sent_of(snap, s)
            if sent is not None and sent.refuse:
                problems.append(f"{sent.message_id} ({sent.refuse}) was taken as a sheet for turn {s.turn}")
        for record in new_turns:
            problems += self._turn_record(snap, record)
        return problems

    def _turn_record(self, snap: Snapshot, record: TurnRow) -> list[str]:
        """A resolved turn holds, for each seat, the sheet last acknowledged in force for it, and the
        model's: its last sheet of orders; for a seat that sent none, its standing sheet of an
        earlier turn, or nothing."""
        problems = []
        played = json.loads(record.sheets)
        for p in snap.players:
            told = self._acked(p.seat, record.turn)
            acked: list[str | None] = [None] if told is None else [next(
                (s.text for s in snap.sheets if s.turn == record.turn
                 and snap.messages[s.message_id].message_id == told.answers), f"(no stored sheet for {told.answers})")]
            model = self._model_in_force(snap, p, record.turn)
            expected = [model.text] if model is not None else self._standing(snap, p, record.turn)
            if told is None:
                acked = self._standing(snap, p, record.turn)
            sheet = played.get(p.name)
            if sheet is not None and sheet.startswith(pbem.commands.SITTER_MARK):
                # a computer sitter wrote it: only for a seat with no sheet of its own to play
                if None not in acked or None not in expected:
                    problems.append(f"turn {record.turn} (correction {record.correction}) was resolved with the "
                                    f"sheet {p.name}'s computer sitter wrote; acknowledged: {acked[-1]!r:.60}, "
                                    f"sent as orders: {expected[-1]!r:.60}")
                continue
            for what, allowed in (("acknowledged", acked), ("sent as orders", expected)):
                if sheet not in allowed:
                    shown = [a if a is None else a[:60] for a in allowed]
                    problems.append(f"turn {record.turn} (correction {record.correction}) was resolved with "
                                    f"{(sheet or 'no sheet')[:60]!r} for {p.name}; {what}: {shown}")
        return problems

    def _standing(self, snap: Snapshot, p: PlayerRow, turn: int) -> list[str | None]:
        """What may play for a seat without a sheet in `turn`: its last sheet of orders of an
        earlier turn when it was acknowledged as standing (or - what STANDING alone does to a sheet
        in force is not settled - when STANDING alone came after it), or nothing."""
        earlier = [s for s in snap.sheets if s.player_id == p.id and s.turn < turn and (sent := self._sent_of(snap, s))
                   and sent.orders and not sent.refuse]
        if not earlier:
            return [None]
        last_turn = max(s.turn for s in earlier)
        sheet = self._model_in_force(snap, p, last_turn)
        assert sheet is not None
        sent = self._sent_of(snap, sheet)
        assert sent is not None
        if any(a.answers == sent.message_id and a.standing for a in self.acks):
            return [sheet.text]
        later = [m for m in self.sent if m.seat == p.seat and not m.orders and "STANDING" in m.commands
                 and (row := snap.by_key.get(m.message_id)) is not None and (row.id or 0) > sheet.message_id]
        return [None, sheet.text] if later else [None]

    def check_taken_in(self, snap: Snapshot, new_mail: list[MailRow], bodies: dict[int, bytes],
                       new_turns: list[TurnRow]) -> list[str]:
        if not new_turns:
            return []
        waiting = [m for m in snap.messages.values() if m.status == MessageStatus.NEW]
        return [f"turn {t.turn} was resolved while {m.message_id} (stored {m.received_at:%H:%M}) waited to be taken in"
                for t in new_turns for m in waiting]

    def check_hidden(self, snap: Snapshot, new_mail: list[MailRow], bodies: dict[int, bytes],
                     new_turns: list[TurnRow]) -> list[str]:
        return list(dict.fromkeys(self.leaks))

    def check_answerable(self, snap: Snapshot, new_mail: list[MailRow], bodies: dict[int, bytes],
                         new_turns: list[TurnRow]) -> list[str]:
        problems = []
        players = {p.email: p for p in snap.players}
        # an acknowledgement of the sheet that resolved its turn at once (a game that resolves on
        # receipt) offers no correction of a closed turn: the report that follows opens the next
        closed = {t.turn for t in new_turns}
        for row in new_mail:
            player = players.get(row.recipient)
            if player is None or row.id not in bodies or row.turn is None:
                continue
            due = row.turn + 1 if row.kind == MailKind.REPORT else row.turn
            templates = {kind: reply_header(text) for kind, text in mail_parts(bodies[row.id])}
            must = row.kind in ABOUT_A_TURN and self._has_move(snap, player.seat, due) and not (
                row.kind == MailKind.ACK and due in closed and self.game.info.resolve_on_receipt)
            if not must and not any(templates.values()):
                continue
            secrets = {player.secret, self.secrets_before.get(player.seat, player.secret)}
            for kind, found in templates.items():
                what = f"{row.kind} mail {row.id} to {player.name} (turn {due}): its {kind} part"
                if found is None:
                    problems.append(f"{what} has no reply template (GAME, TURN and SECRET lines)")
                    continue
                game, turn, secret = found
                if (game or "").lower() != NAME or turn != due or secret is None or not any(
                        secret_matches(secret, s, NAME, due) for s in secrets):
                    problems.append(f"{what} has a template that does not open turn {due}: {found}")
        return problems

    def _has_move(self, snap: Snapshot, seat: int, turn: int) -> bool:
        """Whether `seat` has a move in `turn` of the game (False when that turn is not known)."""
        engine = self.game
        if turn == snap.turn:
            state = snap.state
        else:
            record = next((t for t in snap.turns if t.turn == turn), None)
            if record is None:
                return False
            state = engine.load_state(json.loads(record.before))
        return not engine.is_over(state) and seat in engine.may_send(state)

    def check_bounded(self, snap: Snapshot, new_mail: list[MailRow], bodies: dict[int, bytes],
                      new_turns: list[TurnRow]) -> list[str]:
        problems = []
        caused = [r for r in new_mail if r.kind != MailKind.REMINDER]  # reminders come with the clock
        reports = Counter((r.recipient, r.turn, r.kind) for r in caused if r.kind in (MailKind.REPORT, MailKind.GM_REPORT))
        problems += [f"{n} reports of turn {turn} to {to}" for (to, turn, _), n in reports.items() if n > 1]
        resolved = len({(t.turn, t.correction) for t in new_turns})
        if sum(reports.values()) > resolved * (self.seats + 1):
            problems.append(f"{sum(reports.values())} reports for {resolved} resolved turns")
        # an observer's account of a turn comes with the turn, once a turn resolved
        accounts = [r for r in caused if r.kind == MailKind.NOTICE and r.recipient == STRANGER]
        if len(accounts) > resolved:
            problems.append(f"{len(accounts)} accounts of turns to the observer for {resolved} resolved turns")
        caused = [r for r in caused if r not in accounts]
        mail = self.step.mail
        if mail is None or self.step.what == "race":
            return problems
        # A restart takes in the mails stored before an earlier crash too: their answers are theirs.
        groups: dict[str, list[MailRow]] = {}
        for r in caused:
            if r.kind in (MailKind.REPORT, MailKind.GM_REPORT, MailKind.GM_ALERT):
                continue
            replied = _in_reply_to(bodies.get(r.id or 0, b""))
            cause = self.by_id.get(replied) if replied in self.pending_before else None
            if cause is None and (r.recipient != mail.sender or r.kind == MailKind.SECRET):
                # an answer without In-Reply-To (the new secret): to the sender of a mail taken in late
                cause = next((self.by_id[k] for k in self.pending_before if self.by_id[k].sender == r.recipient
                              and (r.kind != MailKind.SECRET or "NEW SECRET" in self.by_id[k].commands)), None)
            groups.setdefault((cause or mail).message_id, []).append(r)
        mine = groups.get(mail.message_id, [])
        if self.step.duplicate_of_taken and mine:
            problems.append(f"the same bytes again ({mail.message_id}) caused {len(mine)} mails: {[r.kind for r in mine]}")
        elif (mail.refuse == "stranger" or (mail.seat is None and not self.strangers)) and mine:
            problems.append(f"a stranger's mail caused {len(mine)} mails: {[(r.kind, r.recipient) for r in mine]}")
        for key, answers in groups.items():
            sender = self.by_id[key].sender
            to_sender = [r for r in answers if r.recipient == sender]
            if len(to_sender) > MAX_ANSWERS:
                problems.append(f"{key} caused {len(to_sender)} answers to its sender: {[r.kind for r in to_sender]}")
            others = [(r.kind, r.recipient) for r in answers if r.recipient != sender]
            if others:
                problems.append(f"{key} caused mail to others: {others}")
        return problems


def _other_sheet(note: GmNote, key: int) -> GmNote:
    """A computer sitter's note with another sheet in it (what the sitter of a seat whose hidden
    values were others would have written)."""
    return dataclasses.replace(note, sheet=(*note.sheet, f"# another sheet {key}"), full=f"{note.full} ({key})")


def _in_reply_to(raw: bytes) -> str:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return str(msg["In-Reply-To"] or "")


_EMPTY: list[Path] = []


def empty_store() -> Path:
    """A store with every migration applied, made once a process and copied for each game
    (migrating takes a second; a game's steps take milliseconds)."""
    if not _EMPTY:
        folder = Path(tempfile.mkdtemp(prefix="pbem-promises-empty-", dir=SCRATCH))
        config = load_config(write_config(folder, address=GM))
        m = Moderator(config)
        m.store.create()
        m.store.engine.dispose()  # the last connection closed: the write-ahead log is in the file
        _EMPTY.append(Path(config.database_url.removeprefix("sqlite:///")))
    return _EMPTY[0]


def _sheets(game_id: int) -> Any:
    return select(SheetRow).where(SheetRow.game_id == game_id).order_by(SheetRow.id)  # type: ignore[arg-type]


def machine(game: AnyGame, checks: frozenset[str], *, seats: int | None = None,
            without: frozenset[str] = frozenset()) -> type[PromiseMachine]:
    """The state machine for `game` (its default ruleset, 2 or 3 seats) checking `checks`,
    without the rules named in `without`."""
    ruleset = game.info.default_ruleset
    count = seats or min(3, ruleset.max_players)
    name = f"Promises_{game.info.name.replace('-', '_')}_{'_'.join(sorted(c.replace('-', '_') for c in checks))}"
    return type(name, (PromiseMachine,), {"game": game, "seats": max(count, ruleset.min_players), "checks": checks,
                                            "without": without})


def faults_points() -> tuple[str, ...]:
    return faults.POINTS
