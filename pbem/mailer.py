"""Every mail pbem writes: the shared envelope around a game's parts, composed and queued.

The mailer knows no game: it asks the game for a view of the state for the reader, the
resolutions redacted for them, and its presenter for the parts; it adds the envelope (game,
turn, reader, deadline in UTC and the reader's zone, the moderator, the reply template) and
queues the mail in the caller's transaction. It knows no store either: it reads a game and a
player through the small protocols below (the store's rows have their fields) and queues
through a `MailQueue`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Generic, Protocol, TypeVar

from pbem.config import Config
from pbem.games import AnyGame
from pbem.games.base import Parsed, Viewer
from pbem.games.present import Letter, NoNotes, Part, Reader
from pbem.games.sheet import Accepted, Echo, Ignored, Rejected, read_sheet
from pbem.mail.calendar import Deadline, ics
from pbem.mail.compose import Picture, compose, message_id
from pbem.mail.kinds import MailKind
from pbem.reports import EchoLine, Envelope, RejectedLine, render, rules_line, when
from pbem.tokens import reply_token
from pbem.turn_record import picture as public_picture

#: the first part of the Message-IDs of mails that belong to no game. A game's mails begin with its
#: name, and a game name is letters, digits, '-', '_' and '.': these can never be one
ALERT_FAMILY = "@gm"
REFUSAL_FAMILY = "@refusal"


class GameContext(Protocol):
    """What the mailer reads of a game."""

    @property
    def id(self) -> int | None: ...
    @property
    def name(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def deadline(self) -> datetime | None: ...


class PlayerContext(Protocol):
    """What the mailer reads of a player (a seat's holder)."""

    @property
    def game_id(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def email(self) -> str: ...  # "" for a computer player
    @property
    def secret(self) -> str: ...
    @property
    def timezone(self) -> str: ...
    @property
    def bot(self) -> str: ...  # a computer player's level, "" for a person


@dataclass(frozen=True)
class GmNote:
    """A GM's note for a report: told in full to the GM and the seat it concerns (None: to all),
    and as `public` to every other reader (an edit of a hidden value names no value)."""

    seat: int | None
    full: str
    public: str
    #: a computer sitter's note: the sheet it wrote for the seat (`full` tells the seat, `public`
    #: the GM; nobody else hears of it)
    sheet: tuple[str, ...] = ()

    def for_reader(self, seat: int | None, gm: bool) -> str:
        return self.full if gm or self.seat is None or self.seat == seat else self.public

    def sitter_lines(self, seat: int | None, gm: bool) -> tuple[str, ...]:
        """A sitter's note as the reader sees it: the seat and the GM see the sheet, others nothing."""
        if not gm and seat != self.seat:
            return ()
        return (self.public if gm else self.full, *(f"  {line}" for line in self.sheet))


@dataclass(frozen=True)
class Answer:
    """One command's part of the one answer to a mail: the command, an opening, its lines."""

    command: str
    opening: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class ReportParts:
    """One reader's report of a turn before it is a mail: for a report sent again in an answer."""

    subject: str
    text: str
    picture: Picture


@dataclass(frozen=True)
class Outgoing:
    kind: MailKind
    to: str
    msg_id: str
    subject: str
    raw: bytes


#: a transaction of the queue (the store's session): the mailer only hands it on
Tx = TypeVar("Tx")
Tx_contra = TypeVar("Tx_contra", contravariant=True)


class MailQueue(Protocol[Tx_contra]):
    """Where mails wait to be sent, written in the caller's transaction."""

    def put(self, tx: Tx_contra, game_id: int | None, turn: int | None, mails: Sequence[Outgoing], at: datetime) -> None: ...

    def replies_since(self, tx: Tx_contra, address: str, since: datetime) -> int:
        """Automatic replies queued to `address` since `since`."""
        ...


def reader_of(player: PlayerContext | None) -> Reader:
    if player is None:
        return Reader(Viewer.gm(), "GM", ())
    return Reader(Viewer(player.seat), player.name, (player.seat,))


#: the longest comment line a ready-to-edit sheet holds: a mail program breaks longer lines when
#: the player replies (Gmail at 78 columns, quoted replies sooner), and the pieces of a comment
#: would come back as lines the sheet ignores, each listed in the acknowledgement
COMMENT_WIDTH = 72


def sheet_template(game: str, turn: int, secret: str, lines: Sequence[str]) -> str:
    """A ready-to-edit sheet: the header lines, then the game's order lines, their comment lines
    (`#`) folded to `COMMENT_WIDTH` so that a reply brings them back as comments."""
    if not lines:
        return ""
    return "\n".join([f"GAME {game}", f"TURN {turn}", f"SECRET {secret}", *(p for line in lines for p in _fold(line))])


def _fold(line: str) -> list[str]:
    """A comment line as comment lines of at most `COMMENT_WIDTH` characters; any other line as it is."""
    if not line.startswith("#") or len(line) <= COMMENT_WIDTH:
        return [line]
    return textwrap.wrap(line, COMMENT_WIDTH, subsequent_indent="#     ", break_long_words=True) or [line]


class Mailer(Generic[Tx]):
    """Builds and queues every outgoing mail of the moderator."""

    def __init__(self, config: Config, outbox: MailQueue[Tx], now: Callable[[], datetime]) -> None:
        self.config = config
        self.outbox = outbox
        self.now = now
        self.domain = config.address.partition("@")[2] or "pbem.invalid"

    # queueing --------------------------------------------------------------------------------
    def queue(self, session: Tx, game: GameContext | None, turn: int | None, *mails: Outgoing) -> None:
        """Queue `mails` in the session's transaction."""
        self.outbox.put(session, game.id if game else None, turn, mails, self.now())

    def may_reply(self, session: Tx, address: str) -> bool:
        """Automatic replies to one address are rate-limited, so that no mail loop can start. An
        address with non-ASCII characters (RFC 6532) gets none: few servers would carry it."""
        if not address.isascii() or "@" not in address:
            return False
        since = self.now() - timedelta(hours=1)
        return self.outbox.replies_since(session, address, since) < self.config.max_replies_per_hour

    def _compose(self, *, to: str, to_name: str, subject: str, text: str, html: str | None = None,
                 pictures: Sequence[Picture] = (), date: datetime, msg_id: str, in_reply_to: str | None = None,
                 auto_submitted: str = "auto-generated", due: tuple[str, int, datetime | None] | None = None) -> bytes:
        """The mail as bytes; `due` (game, turn, deadline) attaches the deadline as an .ics event."""
        calendar = None
        if due is not None and due[2] is not None:
            event = Deadline(due[0], due[1], due[2], self.config.address, date)
            calendar = (event.filename, ics(event))
        return compose(sender=self.config.address, sender_name=self.config.name, to=to, to_name=to_name,
                       subject=subject, text=text, html=html, pictures=pictures, date=date, msg_id=msg_id,
                       in_reply_to=in_reply_to, auto_submitted=auto_submitted, calendar=calendar)

    def _envelope(self, game: GameContext, engine: AnyGame, turn: int, reader: Reader, player: PlayerContext | None,
                  view: Any, deadline: datetime | None, *, master: bool = False,
                  orders: Sequence[str] | None = None, previous: Sequence[str] = (), **extra: Any) -> Envelope:
        """The envelope; the template carries the reply token of its turn (the master secret only
        in the welcome mail), and `orders` where given (the sheet just acknowledged), else the
        presenter's lines for the reader's next sheet (after `previous`, her last sheet's lines)."""
        tz = player.timezone if player else "UTC"
        lines = (list(orders) if orders else engine.presenter.next_lines(view, reader, previous)
                 if player is not None else [])
        template = ""
        if player is not None:
            due = view_turn(engine, view, turn)
            secret = player.secret if master else reply_token(player.secret, game.name, due)
            template = sheet_template(game.name, due, secret, lines)
        return Envelope(
            game=game.name, title=engine.info.title, turn=turn, reader=reader.name, gm=player is None,
            deadline=when(deadline, tz), moderator=self.config.address, template=template, **extra,
        )

    # the mails -------------------------------------------------------------------------------
    def welcome(self, game: GameContext, engine: AnyGame, state: Any, player: PlayerContext, at: datetime,
                key: object = None, players: Sequence[PlayerContext] = ()) -> Outgoing:
        """The welcome mail with the master secret and the board at the start (the reader's own
        picture where the game draws one); `key` makes a replacement's its own mail; `players`
        (every seat's) names the computer players among them."""
        reader = reader_of(player)
        view = engine.view(state, reader.viewer)
        letter = engine.presenter.welcome(view, reader)
        title, subtitle = f"{game.name} — the start", engine.info.title
        if engine.presenter.private_pictures:
            drawn = engine.presenter.reader_picture(view, (), reader, title=title, subtitle=subtitle)
        else:
            drawn = public_picture(engine, state, (), title=title, subtitle=subtitle)
        picture = Picture(f"{game.name}-start.png", f"board-{game.name}-start", drawn.png)
        env = self._envelope(game, engine, engine.turn(state), reader, player, view, game.deadline, master=True,
                             board_cid=picture.cid, board_alt=drawn.alt, computers=_computers(players),
                             players=tuple(f"{p.name} (a computer player)" if p.bot else p.name for p in players),
                             rules=rules_line(engine.info.rules_page, self.config.archive_url))
        subject = f"Welcome to {game.name}: {engine.info.title}, turn {engine.turn(state)} orders"
        msg_id = message_id(game.name, "welcome", player.name, *((key,) if key is not None else ()),
                            domain=self.domain)
        text, html = _letter(letter, env)
        raw = self._compose(to=player.email, to_name=player.name, subject=subject, text=text, html=html,
                            pictures=[picture], date=at, msg_id=msg_id, due=(game.name, engine.turn(state), game.deadline))
        return Outgoing(MailKind.WELCOME, player.email, msg_id, subject, raw)

    def acknowledgement(self, game: GameContext, engine: AnyGame, state: Any, player: PlayerContext, parsed: Parsed[Any],
                        echo: Sequence[Echo], *, replaced: str, message: int, original: str | None,
                        warnings: Sequence[str] = (), standing: bool = False, resolves: bool = False) -> Outgoing:
        """The acknowledgement of a sheet; `resolves`: the turn is resolved with it at once (a game
        that resolves on receipt got the last sheet it waited for), so no correction is offered."""
        reader = reader_of(player)
        view = engine.view(state, reader.viewer)
        part = engine.presenter.acknowledgement(view, reader, parsed)
        env = self._envelope(
            game, engine, game.turn, reader, player, view, game.deadline,
            received=when(self.now(), player.timezone), replaced=replaced == "replaced",
            superseded=replaced == "superseded",
            accepted=tuple(EchoLine(e.line, e.text, e.canonical) for e in echo if isinstance(e, Accepted)),
            rejected=tuple(RejectedLine(e.line, e.column, e.text, e.reason, e.context)
                           for e in echo if isinstance(e, Rejected)),
            ignored=tuple(EchoLine(e.line, e.text, e.text) for e in echo if isinstance(e, Ignored)),
            warnings=tuple(warnings), standing=standing, resolves=resolves,
            # the template to correct is the sheet in force, not a fresh one: an edit of it changes
            # only what the player means to change
            orders=[e.canonical for e in parsed.echo if isinstance(e, Accepted)] if replaced != "superseded" else None,
        )
        subject = f"Orders received: {game.name} turn {game.turn}"
        msg_id = message_id(game.name, "ack", game.turn, player.name, message, domain=self.domain)
        raw = self._compose(to=player.email, to_name=player.name, subject=subject, text=_part(part, env),
                            date=self.now(), msg_id=msg_id, in_reply_to=original, auto_submitted="auto-replied",
                            due=None if resolves else (game.name, game.turn, game.deadline))
        return Outgoing(MailKind.ACK, player.email, msg_id, subject, raw)

    def refusal(self, *, to: str, to_name: str, reader: str, subject: str, reason: str, fix: str, message: int,
                original: str | None) -> Outgoing:
        ctx = RefusalContext(reader=reader, subject=subject, reason=reason, fix=fix, moderator=self.config.address)
        title = f"Not taken as orders: {subject}"[:200]
        msg_id = message_id(REFUSAL_FAMILY, message, domain=self.domain)
        raw = self._compose(to=to, to_name=to_name, subject=title, text=render("refusal.txt.j2", ctx), date=self.now(),
                            msg_id=msg_id, in_reply_to=original or None, auto_submitted="auto-replied")
        return Outgoing(MailKind.REFUSAL, to, msg_id, title, raw)

    def reports(self, game: GameContext, engine: AnyGame, players: Sequence[PlayerContext], after: Any,
                resolutions: Sequence[Any], *, turn: int, resolved: datetime,
                deadline: datetime | None, correction: int = 0, notes: Sequence[GmNote] = (),
                again: object = None, only: int | None = None,
                parts: list[ReportParts] | None = None,
                sheets: Mapping[str, str | None] | None = None) -> list[Outgoing]:
        """Every report of a resolved turn, one per player and the GM's: the same bytes each time.
        A turn resolved again after a rollback says so in the subject and the body. `again`
        (a key) makes them mails of their own, sent again on request; `only` keeps one seat's;
        `parts` takes each report's text and picture instead of its mail; `sheets` (the turn's, by
        seat name) lets each player's template keep what her sheet chose for later turns."""
        title = f"{game.name} — after turn {turn}"
        drawn = public_picture(engine, after, resolutions, title=title,
                               subtitle=resolved.strftime("Resolved %d %b %Y %H:%M UTC"))
        picture = Picture(f"{game.name}-turn-{turn}.png", f"board-{game.name}-{turn}", drawn.png)
        computers = _computers(players)
        sitters = [n for n in notes if n.sheet]
        notes = [n for n in notes if not n.sheet]
        out = []
        for player in [*players, None]:
            if player is not None and not player.email:
                continue  # a computer player reads no mail
            if only is not None and (player is None or player.seat != only):
                continue
            reader = reader_of(player)
            view = engine.view(after, reader.viewer)
            seen = engine.redact_all(resolutions, reader.viewer)
            letter = engine.presenter.report(view, seen, reader)
            shown, alt = picture, drawn.alt
            if player is not None and engine.presenter.private_pictures:  # a player's own picture, from her view
                own = engine.presenter.reader_picture(view, seen, reader, title=title,
                                                      subtitle=resolved.strftime("Resolved %d %b %Y %H:%M UTC"))
                shown, alt = Picture(picture.filename, picture.cid, own.png), own.alt
            previous = _sent_lines(engine, after, player, (sheets or {}).get(player.name)) if player else ()
            env = self._envelope(game, engine, turn, reader, player, view, deadline, previous=previous,
                                 resolved_at=when(resolved), board_cid=shown.cid, board_alt=alt,
                                 correction=correction,
                                 notes=tuple(n.for_reader(reader.viewer.seat, reader.viewer.is_gm) for n in notes),
                                 sitter=tuple(line for n in sitters
                                              for line in n.sitter_lines(reader.viewer.seat, reader.viewer.is_gm)),
                                 computers=computers)
            who = reader.name
            subject = (f"{game.name}: turn {turn} report" + (f" (correction {correction})" if correction else "")
                       + ("" if player else " (GM)") + (" (sent again)" if again is not None else ""))
            text, html = _letter(letter, env)
            if parts is not None:
                parts.append(ReportParts(subject, text, shown))
                continue
            to = player.email if player else self.config.address
            # a correction is another mail than the report it corrects: its own Message-ID
            # the GM's copy is a kind of its own, so no seat's name (a seat called 'GM') can give its ID
            mine = ("report", turn, who) if player is not None else ("gm-report", turn)
            msg_id = message_id(game.name, *mine, *((f"c{correction}",) if correction else ()),
                                *(("again", again) if again is not None else ()), domain=self.domain)
            raw = self._compose(to=to, to_name=who, subject=subject, text=text,
                                html=html, pictures=[shown],
                                date=resolved, msg_id=msg_id, due=(game.name, turn + 1, deadline))
            kind = MailKind.ANSWER if again is not None else MailKind.REPORT if player else MailKind.GM_REPORT
            out.append(Outgoing(kind, to, msg_id, subject, raw))
        return out

    def secret_mail(self, game: GameContext, player: PlayerContext, *, why: str, message: object) -> Outgoing:
        """The player's master secret, to their own address only."""
        subject = f"Your secret for {game.name}"
        msg_id = message_id(game.name, "secret", player.name, message, domain=self.domain)
        text = (f"{player.name}, {why}: your secret for {game.name} is\n\n  {player.secret}\n\n"
                "Reports carry a reply token in their SECRET line instead, valid for one turn; this secret is "
                "valid for every turn. Keep it to yourself; a line NEW SECRET in an order mail gives you a new "
                f"one.\n\n-- pbem ({self.config.address})\n")
        raw = self._compose(to=player.email, to_name=player.name, subject=subject, text=text, date=self.now(),
                            msg_id=msg_id, auto_submitted="auto-replied")
        return Outgoing(MailKind.SECRET, player.email, msg_id, subject, raw)

    def gm_alert(self, *, key: Sequence[object], subject: str, text: str) -> Outgoing:
        """News for the GM (a bounce, repeated wrong secrets): one mail per `key`."""
        msg_id = message_id(ALERT_FAMILY, *key, domain=self.domain)
        raw = self._compose(to=self.config.address, to_name="GM", subject=subject[:200],
                            text=text + f"\n\n-- pbem ({self.config.address})\n", date=self.now(), msg_id=msg_id)
        return Outgoing(MailKind.GM_ALERT, self.config.address, msg_id, subject[:200], raw)

    def bounce_alert(self, player: PlayerContext, address: str, why: str, key: object = "", *, game: str = "") -> Outgoing:
        """The GM's news that mail to a player came back, saying what pbem does about it (it goes on
        sending: the address may work again, and the player's orders are still taken)."""
        where = f" in {game}" if game else ""
        fix = (f"`pbem replace {game} {player.name} --email NEW-ADDRESS`" if game
               else "`pbem replace GAME PLAYER --email NEW-ADDRESS`")
        return self.gm_alert(
            key=("bounce", player.game_id, player.name, key or why[:40]),
            subject=f"Mail to {player.name} ({address}) bounced",
            text=(f"pbem's mail to {player.name} <{address}>{where} could not be delivered:\n\n  {why}\n\n"
                  "pbem still sends their reports and answers to this address (they may come back too), and "
                  "`pbem status` shows it as bouncing. If the address stays broken, ask the player for a working "
                  f"one and give it to the seat with {fix} (the seat gets a new secret and a welcome mail)."))

    def reminder(self, game: GameContext, engine: AnyGame, state: Any, player: PlayerContext, deadline: datetime,
                 span: timedelta) -> Outgoing:
        reader = reader_of(player)
        view = engine.view(state, reader.viewer)
        part = engine.presenter.reminder(view, reader)
        env = self._envelope(game, engine, game.turn, reader, player, view, deadline)
        msg_id = message_id(game.name, "reminder", game.turn, player.name, int(span.total_seconds()), domain=self.domain)
        subject = f"Reminder: {game.name} turn {game.turn} orders are due {deadline:%a %d %b %H:%M} UTC"
        raw = self._compose(to=player.email, to_name=player.name, subject=subject, text=_part(part, env),
                            date=self.now(), msg_id=msg_id, due=(game.name, game.turn, deadline))
        return Outgoing(MailKind.REMINDER, player.email, msg_id, subject, raw)


    def answer(self, game: GameContext, player: PlayerContext, *, command: str, opening: str, lines: Sequence[str],
               key: object, original: str | None = None, deadline: datetime | None = None,
               kind: MailKind = MailKind.ANSWER, date: datetime | None = None) -> Outgoing:
        """The answer to a player's mail command, or the GM's news to one player (kind NOTICE),
        to the player's own address; a stated deadline comes as an .ics too."""
        ctx = AnswerContext(reader=player.name, opening=opening, lines=tuple(lines), moderator=self.config.address)
        subject = f"{game.name}: {command}"[:200]
        msg_id = message_id(game.name, kind.value, command.split()[0].lower(), player.name, key, domain=self.domain)
        raw = self._compose(to=player.email, to_name=player.name, subject=subject, text=render("mail/answer.txt.j2", ctx),
                            date=date or self.now(), msg_id=msg_id, in_reply_to=original,
                            auto_submitted="auto-replied" if kind is MailKind.ANSWER else "auto-generated",
                            due=(game.name, game.turn, deadline) if deadline is not None else None)
        return Outgoing(kind, player.email, msg_id, subject, raw)

    def answers(self, game: GameContext, player: PlayerContext, answers: Sequence[Answer], *, key: object,
                original: str | None, deadline: datetime | None = None, report: ReportParts | None = None,
                orders: Sequence[str] = ()) -> Outgoing:
        """The one answer to one mail: every command it held answered in turn, a report sent again
        as its text with its picture attached, and for a mail without orders (`orders`: what
        plays for the player) that the sheet in force is unchanged; a stated deadline comes as an
        .ics too."""
        ctx = AnswersContext(reader=player.name, answers=tuple(answers), orders=tuple(orders),
                             moderator=self.config.address)
        words = ", ".join(dict.fromkeys(a.command for a in answers)) or "your mail held no orders"
        subject = f"{game.name}: {words}"[:200]
        # one per mail (`key`); named by its first command, as an answer to one command always was
        first = answers[0].command.split()[0].lower() if answers else "orders"
        msg_id = message_id(game.name, MailKind.ANSWER.value, first, player.name, key, domain=self.domain)
        raw = self._compose(to=player.email, to_name=player.name, subject=subject,
                            text=render("mail/answers.txt.j2", ctx), pictures=[report.picture] if report else (),
                            date=self.now(), msg_id=msg_id, in_reply_to=original, auto_submitted="auto-replied",
                            due=(game.name, game.turn, deadline) if deadline is not None else None)
        return Outgoing(MailKind.ANSWER, player.email, msg_id, subject, raw)

    def press(self, game: GameContext, author: PlayerContext, reader: PlayerContext, text: str, key: object) -> Outgoing:
        """A player's PRESS, relayed to another player of the game (never to anyone else)."""
        ctx = AnswerContext(reader=reader.name, opening=f"a message from {author.name} to every player of {game.name}:",
                            lines=tuple(f"  {line}" for line in text.splitlines()), moderator=self.config.address)
        subject = f"{game.name}: press from {author.name}"
        msg_id = message_id(game.name, "press", author.name, reader.name, key, domain=self.domain)
        raw = self._compose(to=reader.email, to_name=reader.name, subject=subject,
                            text=render("mail/answer.txt.j2", ctx), date=self.now(), msg_id=msg_id)
        return Outgoing(MailKind.PRESS, reader.email, msg_id, subject, raw)


def view_turn(engine: AnyGame, view: Any, fallback: int) -> int:
    turn = getattr(view, "turn", None)
    return turn if isinstance(turn, int) else fallback


def _part(part: Part, envelope: Envelope) -> str:
    return render(part.template, part.context, envelope)


def _letter(letter: Letter, envelope: Envelope) -> tuple[str, str]:
    """Both parts of a letter from one envelope: the HTML part shows the text part whole (the
    game's own HTML template adds its pictures around it), so the two cannot drift apart."""
    text = _part(letter.text, envelope)
    html = letter.html or Part("mail/letter.html.j2", NoNotes())
    return text, _part(html, replace(envelope, text=text))


def _sent_lines(engine: AnyGame, state: Any, player: PlayerContext, text: str | None) -> tuple[str, ...]:
    """The accepted lines of the sheet a player sent, as echoed, read against `state` (the position
    her next sheet is for): () when she sent none."""
    if not text:
        return ()
    parsed = engine.parse(state, read_sheet(text), player.seat)
    return tuple(e.canonical for e in parsed.echo if isinstance(e, Accepted))


def _computers(players: Sequence[PlayerContext]) -> tuple[str, ...]:
    """The seats computer players hold, as "Sam (strong)"."""
    return tuple(f"{p.name} ({p.bot})" for p in players if p.bot)


@dataclass(frozen=True)
class AnswerContext:
    reader: str
    opening: str
    lines: tuple[str, ...]
    moderator: str


@dataclass(frozen=True)
class AnswersContext:
    reader: str
    answers: tuple[Answer, ...]
    orders: tuple[str, ...]
    moderator: str


@dataclass(frozen=True)
class RefusalContext:
    reader: str
    subject: str
    reason: str
    fix: str
    moderator: str
