"""The inbound pipeline: each order mail goes through named single-purpose steps.

The raw message is stored first, in its own transaction, so nothing is ever lost. Every later
step either lets the message go on, stops it with a status and a reason (and perhaps a polite
reply), or crashes — and then the message is quarantined with the step's name and traceback
while the run goes on with the next message.

Every step before `store-sheet` only reads the database; the reading of mail text (parsing,
extraction, the sheet, the acknowledgement) is done before the one write transaction of a
message begins, so no mail, however large or strange, holds the database's write lock while
it is read. Every input is bounded before it is read (`pbem.mail.guard`).
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import Message
from typing import Any

from sqlmodel import Session

from pbem import commands
from pbem.errors import PbemError
from pbem.faults import checkpoint
from pbem.games import AnyGame
from pbem.games.base import Parsed, Viewer
from pbem.games.chance import game_chance
from pbem.games.present import Reader
from pbem.games.sheet import Accepted, Echo, Ignored, Rejected, Sheet, holds_orders, merge, read_sheet
from pbem.mail.dsn import parse_dsn
from pbem.mail.guard import MAX_BYTES, check_limits, header_block, header_fields
from pbem.mail.headers import message_key, read_message_id, read_subject
from pbem.mail.sender import Refusal, Sender, read_sender
from pbem.mail.text import BOUNCE, classify, extract_orders_text, parse_message
from pbem.mailer import Answer, Mailer, Outgoing, ReportParts, sheet_template
from pbem.store import (
    EventKind,
    EventRow,
    GameRow,
    MailStatus,
    MessageRow,
    MessageStatus,
    PlayerRow,
    SheetRow,
    Store,
)
from pbem.tokens import Proof, identify, new_secret, reply_token
from pbem.turn_record import TurnRecord

#: wrong secrets for one player within a day before the GM is told
WRONG_SECRETS_ALERT = 3
#: reports one mail may ask to have sent again (a RESEND line beyond is answered: ask in another mail)
MAX_RESENDS = 1


@dataclass(frozen=True)
class Policy:
    """How intake treats the public: limits, strangers, and which mail authentication to trust."""

    address: str = ""  # the moderator's own address: mail from it is never answered
    max_bytes: int = MAX_BYTES
    reply_to_strangers: bool = False
    strangers_per_hour: int = 20
    authserv_id: str | None = None  # refuse dmarc=fail in this server's Authentication-Results
    vacation_days: int = 14  # VACATION days a player may take in one game
    press_per_day: int = 5  # PRESS messages a player may send in one game a day
    suggest_per_day: int = 5  # SUGGEST answers (a search each) a player may have in one game a day
    preview_per_day: int = 20  # PREVIEW answers a player may have in one game a day


@dataclass(frozen=True)
class Deps:
    """What the intake steps use: the store, the clock, the registry of games, the mailer."""

    store: Store
    now: Callable[[], datetime]
    find_game: Callable[[str], AnyGame]
    mailer: Mailer[Session]
    deliver: Callable[[], int]
    policy: Policy = field(default_factory=Policy)

    def engine(self, game: GameRow) -> AnyGame:
        return self.find_game(game.game)


class Stop(Exception):
    """A step's verdict that ends the pipeline for this message."""

    def __init__(self, status: str, reason: str, *, fix: str = "", reply: bool = False) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.fix = fix
        self.reply = reply


@dataclass
class Intake:
    """One message on its way through the pipeline."""

    row: MessageRow
    msg: Message | None = None
    sender: str = ""
    sender_name: str = ""
    refused_sender: Refusal | None = None
    limit_problem: str | None = None
    text: str = ""
    sheet: Sheet = field(default_factory=Sheet)
    game: GameRow | None = None
    player: PlayerRow | None = None
    players: list[PlayerRow] = field(default_factory=list)
    state: Any = None
    parsed: Parsed[Any] | None = None
    echo: tuple[Echo, ...] = ()
    timezone: str | None = None
    ack: Outgoing | None = None
    replaced: str = "new"
    alerts: list[Outgoing] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    standing: bool = False
    #: what the mail's commands are answered, in one mail (`answer_mail`)
    answers: list[Answer] = field(default_factory=list)
    #: the report a RESEND asked for, its text and picture, for the answer
    report: ReportParts | None = None
    #: the turns RESEND lines asked for, in order (the first is sent, the others are answered why not)
    resent: list[int] = field(default_factory=list)
    #: what plays for the player, told in the answer to a mail without orders (which changes none)
    orders_note: tuple[str, ...] = ()
    #: the answer goes out beyond the replies' rate limit (it carries a new secret)
    must_answer: bool = False
    #: the answer states the deadline (and carries it as an .ics)
    tell_deadline: bool = False
    proof: Proof = Proof.NONE  # what the SECRET line proved (find-player)


@dataclass(frozen=True)
class IntakeResult:
    message: int | None  # the stored message's id (None for a duplicate)
    status: str  # accepted, answered (a command), refused, ignored, duplicate, pending, quarantined
    reason: str
    step: str
    game: str | None = None
    player: str | None = None
    #: a game that resolves on receipt: the turn this mail's sheet resolved, and the reports written
    resolved: int | None = None
    reports: int = 0


Step = Callable[[Deps, Session, Intake], None]


#: the fields read from a mail beyond the limits, so its sender can be told why it was refused
_ENVELOPE_FIELDS = ("from", "sender", "reply-to", "subject", "message-id", "date", "return-path", "auto-submitted",
                    "precedence", "list-id", "list-unsubscribe", "x-autoreply", "x-autorespond")


def _envelope_only(raw: bytes) -> Message:
    """A mail with only the few fields intake reads, from the first 64 kB of the header block."""
    msg = Message()
    for name, value in header_fields(header_block(raw, limit=65536)):
        if name in _ENVELOPE_FIELDS and name not in msg:
            msg[name] = value[:2000]
    return msg


def read_headers(m: Deps, session: Session, it: Intake) -> None:
    """Parse the stored bytes (within the limits; beyond them only the envelope fields, so the
    sender can be told why) and read the sender: exactly one address."""
    it.limit_problem = check_limits(it.row.raw, max_bytes=m.policy.max_bytes)
    if it.limit_problem is None:
        it.msg = parse_message(it.row.raw, max_bytes=m.policy.max_bytes)
    else:
        it.msg = _envelope_only(it.row.raw)
    found = read_sender(it.msg, authserv_id=m.policy.authserv_id)
    if isinstance(found, Sender):
        it.sender, it.sender_name = found.address.lower(), found.name
    else:
        it.refused_sender = found
    it.row.sender = it.sender
    it.row.subject = read_subject(it.msg)


def skip_automatic(m: Deps, session: Session, it: Intake) -> None:
    """Auto-replies, bounces, list mail and our own mail are never read as orders, and never
    answered (RFC 3834). A bounce of our own mail is news: the GM hears of it."""
    assert it.msg is not None
    reason = classify(it.msg, own_addresses=(m.policy.address,) if m.policy.address else ())
    if reason is None:
        return
    if reason == BOUNCE:
        note_bounce(m, session, it)
    raise Stop(MessageStatus.IGNORED, reason)


def check_sender(m: Deps, session: Session, it: Intake) -> None:
    """A mail whose From is not one plain address (or whose domain fails DMARC) is not answered."""
    if it.refused_sender is not None:
        raise Stop(MessageStatus.REFUSED, it.refused_sender.reason, fix=it.refused_sender.fix)


def check_limits_step(m: Deps, session: Session, it: Intake) -> None:
    """Mail beyond the size, header and MIME limits is refused with the limit and how to fix it."""
    if it.limit_problem is not None:
        raise Stop(MessageStatus.REFUSED, it.limit_problem,
                   fix="Send your orders as a short plain-text mail, without attachments.",
                   reply=True)


def take_text(m: Deps, session: Session, it: Intake) -> None:
    """The player's own text: text/plain preferred, HTML converted, quotes and signature dropped."""
    extracted = extract_orders_text(it.row.raw, it.msg)
    if extracted.text is None:
        raise Stop(MessageStatus.REFUSED, f"the mail has {extracted.reason or 'no text'} that pbem can read",
                   fix="Send your orders as the text of the mail (plain text is best).", reply=True)
    it.text = extracted.text
    it.sheet = read_sheet(extracted.text)


def club(m: Deps, session: Session, it: Intake) -> None:
    """A mail without GAME and SECRET lines holding the club's commands (LIST, JOIN, STATUS of
    every game, ...) is answered by the club (pbem/club/mail.py) and goes no further."""
    from pbem.club import mail

    mail.take(m, session, it)


def find_game(m: Deps, session: Session, it: Intake) -> None:
    """The GAME line, else a game named in the Subject, else the sender's only game."""
    wanted = it.sheet.game
    game: GameRow | None = None
    if wanted:
        game, it.players = m.store.game_and_players(session, wanted)
        game = game or next(
            (m.store.find_game(session, n) for n in m.store.game_names(session)
             if n.lower() == wanted.lower()), None)
        if game is None:
            raise Stop(MessageStatus.REFUSED, f"there is no game called {wanted!r}",
                       fix=_games_hint(m, session, it.sender), reply=True)
    else:
        names = m.store.game_names(session)
        subject = it.row.subject.lower()
        in_subject = [n for n in names if _names_word(subject, n.lower())]
        if len(in_subject) == 1:
            game = m.store.find_game(session, in_subject[0])
        else:
            mine = m.store.games_of_address(session, it.sender)
            if len(mine) == 1:
                game = mine[0]
    if game is None:
        raise Stop(MessageStatus.REFUSED, "the mail does not say which game it is for",
                   fix="Put a line 'GAME <name>' at the top of your orders. " + _games_hint(m, session, it.sender),
                   reply=True)
    it.game = game
    it.row.game_id = game.id
    if game.over:
        raise Stop(MessageStatus.REFUSED, f"the game {game.name} is over: no more orders are taken",
                   fix="Thank you for playing!", reply=True)


def _names_word(text: str, word: str) -> bool:
    """Whether `word` stands in `text` as a word of its own (not inside a longer name)."""
    start = text.find(word)
    while start >= 0:
        before = text[start - 1] if start else " "
        end = start + len(word)
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            return True
        start = text.find(word, start + 1)
    return False


def _games_hint(m: Deps, session: Session, sender: str) -> str:
    mine = m.store.games_of_address(session, sender)
    if mine:
        return "Your games: " + ", ".join(g.name for g in mine) + "."
    # most often a reply to one of the club's answers that left its CONFIRM (or JOIN) line in the quote only
    return ("Lines for the club (LIST, JOIN, CONFIRM, ...; HELP lists them) go at the top of a mail without GAME "
            "and SECRET lines: a line in the quoted text does not count.")


def find_player(m: Deps, session: Session, it: Intake) -> None:
    """The From address must be a player's, and the SECRET line theirs (the master secret, or
    the reply token of the current turn that their report's template carries). Which of the two
    it was is kept: a token opens its own turn's sheet only (`needs_master`). A token of hers for
    an earlier turn gets a plain answer and is no sign of an attack."""
    assert it.game is not None and it.game.id is not None
    if not it.players or it.players[0].game_id != it.game.id:  # find-game may have read them with the game
        it.players = m.store.players(session, it.game.id)
    player = next((p for p in it.players if p.email and p.email.lower() == it.sender), None)
    if player is None:
        raise Stop(MessageStatus.REFUSED, f"{it.sender or 'the sender'} is not a player of {it.game.name}",
                   fix="Send your orders from the address you joined the game with.", reply=True)
    it.player = player
    it.row.player_id = player.id
    if "SEND SECRET" in it.sheet.commands:
        # only ever to the player's own address, so asking in their name gains nobody anything; but a
        # forged From could ask a hundred times, so it counts in the replies' hourly limit
        if not m.mailer.may_reply(session, player.email):
            tell_gm_of_flood(m, session, it, "SEND SECRET")
            raise Stop(MessageStatus.REFUSED, f"SEND SECRET was not answered: more than "
                       f"{m.mailer.config.max_replies_per_hour} replies went to {player.email} in the last hour")
        it.alerts.append(m.mailer.secret_mail(it.game, player, why="you asked for it", message=it.row.id or 0))
        raise Stop(MessageStatus.ANSWERED, "the player's secret was sent to their address")
    secret = it.sheet.secret
    identity = identify(secret, player.secret, it.game.name, it.game.turn) if secret is not None else None
    it.proof = identity.kind if identity is not None else Proof.NONE
    if "HELP" in it.sheet.commands and it.proof not in (Proof.MASTER, Proof.TOKEN):
        # like SEND SECRET: the answer goes to the player's own address only
        _answer_help(m, session, it)
        raise Stop(MessageStatus.ANSWERED, "HELP was answered")
    if secret is None:
        raise Stop(MessageStatus.REFUSED, "the orders have no SECRET line",
                   fix="Add the line 'SECRET <your secret>' from your welcome mail or last report.", reply=True)
    if identity is not None and identity.kind is Proof.STALE:
        raise Stop(MessageStatus.REFUSED,
                   f"{secret.strip()[:40]!r} is your reply token for turn {identity.turn} of {it.game.name}, which is "
                   f"over: the current turn is {it.game.turn}",
                   fix=f"Your latest report carries the token for turn {it.game.turn} in its SECRET line; your "
                       "secret from the welcome mail works in every turn (a mail with the line SEND SECRET "
                       "sends it to you again).", reply=True)
    if it.proof not in (Proof.MASTER, Proof.TOKEN):
        raise Stop(MessageStatus.REFUSED, f"{WRONG_SECRET} {secret[:40]!r} is not yours",
                   fix="Copy the SECRET line from your welcome mail or your last turn report.", reply=True)


#: how the refusal of a wrong secret begins: only these count towards the GM's alert
WRONG_SECRET = "the SECRET"  # noqa: S105 - the words of a refusal, not a secret
#: the commands whose effect outlives the turn (or reaches others): a reply token, which anyone
#: the report was forwarded to holds, cannot give them
MASTER_ONLY = ("STANDING", "VACATION", "SITTER", "PRESS", "NEW SECRET", "TIMEZONE")
#: the commands that cost a search or a simulation, with the Policy field of their daily budget
COSTLY = {"SUGGEST": "suggest_per_day", "PREVIEW": "preview_per_day"}


def needs_master(m: Deps, session: Session, it: Intake) -> None:
    """A reply token opens its turn's sheet only: STANDING, VACATION, PRESS, NEW SECRET and
    TIMEZONE need the master secret. SUGGEST and PREVIEW are within the player's daily budget and
    the replies' hourly limit (the search is not run for an answer that could not be sent)."""
    assert it.game is not None and it.player is not None and it.game.id is not None
    words = {c if c.startswith("NEW ") else c.split()[0] for c in it.sheet.commands}
    if it.sheet.timezone is not None:
        words.add("TIMEZONE")
    if it.proof is not Proof.MASTER:
        wanted = [w for w in MASTER_ONLY if w in words]
        if wanted:
            raise Stop(MessageStatus.REFUSED,
                       f"{' and '.join(wanted)} need{'s' if len(wanted) == 1 else ''} your secret: the SECRET line "
                       f"holds the reply token of turn {it.game.turn}, which is good for this turn's orders only",
                       fix="Write the line 'SECRET <your secret>' from your welcome mail instead of the token (a "
                           "mail with the line SEND SECRET sends your secret to you again).", reply=True)
    for word, budget_field in COSTLY.items():
        if word not in words:
            continue
        budget: int = getattr(m.policy, budget_field)
        kind = EventKind.SUGGEST if word == "SUGGEST" else EventKind.PREVIEW
        used = m.store.events_since(session, it.game.id, kind, it.player.seat, m.now() - timedelta(days=1))
        if used >= budget:
            raise Stop(MessageStatus.REFUSED, f"{word} was not answered: a player may ask for {budget} a day in a "
                       f"game, and you have asked for {used} since this time yesterday",
                       fix=f"Try again tomorrow; a mail without {word} is taken as usual.", reply=True)
        if not m.mailer.may_reply(session, it.player.email):
            tell_gm_of_flood(m, session, it, word)
            raise Stop(MessageStatus.REFUSED, f"{word} was not answered: more than "
                       f"{m.mailer.config.max_replies_per_hour} replies went to {it.player.email} in the last hour")
        it.events.append(EventRow(game_id=it.game.id, turn=it.game.turn, kind=kind, seat=it.player.seat,
                                  text=f"{it.player.name} asked for {word}", created_at=m.now()))


def tell_gm_of_flood(m: Deps, session: Session, it: Intake, what: str) -> None:
    """Replies to a player were held back by the hourly limit: the GM hears of it once a day."""
    assert it.game is not None and it.player is not None
    alert = m.mailer.gm_alert(
        key=("flood", it.game.name, it.player.name, m.now().strftime("%Y-%m-%d")),
        subject=f"{it.game.name}: more mail in {it.player.name}'s name than pbem answers",
        text=(f"More than {m.mailer.config.max_replies_per_hour} replies went to {it.player.email} "
              f"({it.player.name} in {it.game.name}) in the last hour; pbem answers no more of them this hour "
              f"(the latest asked for {what}). If the player did not send them, someone is sending mail in "
              "their name. This mail comes once a day."))
    if not m.store.mail_exists(session, alert.msg_id) and all(a.msg_id != alert.msg_id for a in it.alerts):
        it.alerts.append(alert)


def player_settings(m: Deps, session: Session, it: Intake) -> None:
    """A `TIMEZONE <zone>` line (checked by the sheet reader) sets the player's zone for deadlines;
    a `NEW SECRET` line gives the player a new secret, told in the answer; `STANDING` marks the
    mail's sheet (or, in a mail without orders, the sheet in force) as standing orders."""
    needs_master(m, session, it)
    assert it.player is not None and it.game is not None
    if "NEW SECRET" in it.sheet.commands:
        it.player.secret = new_secret()
        it.must_answer = True  # the player must learn it: only they (with the secret) can ask
        _answer(m, session, it, "NEW SECRET", f"you asked for a new one: your secret for {it.game.name} is now", [
            f"  {it.player.secret}", "",
            "The old one no longer works. Reports carry a reply token in their SECRET line instead, valid for "
            "one turn; this secret is valid for every turn. Keep it to yourself."])
    if it.sheet.timezone is not None:
        it.timezone = it.sheet.timezone
        it.player.timezone = it.sheet.timezone  # written with the sheet, in the one write transaction
    it.standing = "STANDING" in it.sheet.commands
    vacation = next((c for c in it.sheet.commands if c.startswith("VACATION ")), None)
    if vacation is not None:  # one a mail: a second would only contradict the first
        _vacation(m, session, it, vacation)
    sitter = next((c for c in reversed(it.sheet.commands) if c.startswith("SITTER ")), None)
    if sitter is not None:  # the last one a mail holds counts
        _sitter(m, session, it, sitter)
    session.add(it.player)


def _sitter(m: Deps, session: Session, it: Intake, command: str) -> None:
    """`SITTER <level>` / `SITTER OFF`: a setting of the seat (it never replaces the sheet in
    force); the sitter writes the player's sheet while she is away or once a deadline passes
    without it."""
    assert it.player is not None and it.game is not None
    try:
        level = commands.read_sitter_level(command, m.engine(it.game))
    except PbemError as err:
        _answer(m, session, it, command, "not done:", [f"{err}.", "Write it like: SITTER strong (or SITTER off)"])
        return
    it.player.sitter = level
    it.events.append(EventRow(game_id=it.game.id or 0, turn=it.game.turn, kind=EventKind.SITTER_SET,
                              seat=it.player.seat, text=f"{it.player.name}'s computer sitter: {level or 'none'}",
                              created_at=m.now()))
    if level:
        _answer(m, session, it, command, f"your computer sitter ({level}) is named:", [
            "While you are on VACATION, and in any turn whose deadline passes without your sheet, it writes "
            "your sheet from what your own report shows, instead of the default moves; your report then says "
            "so and shows its sheet. Your own sheets and standing orders always come first.",
            "SITTER off sends it away."])
    else:
        _answer(m, session, it, command, "you have no computer sitter now:", [
            "Turns you miss get your standing orders or the default moves."])


def _vacation(m: Deps, session: Session, it: Intake, command: str) -> None:
    """`VACATION <from> <to>`: within the game's budget of days, the player is away; the GM is told."""
    assert it.player is not None and it.game is not None
    try:
        wanted = commands.read_vacation(command, m.now().date())
    except PbemError as err:
        _answer(m, session, it, command, "not done:", [f"{err}.", "Write it like: VACATION 2026-12-24 2027-01-02"])
        return
    left = m.policy.vacation_days - it.player.vacation_days
    cost = commands.new_days(it.player, wanted)
    if cost > left:
        _answer(m, session, it, command, "not done:", [
            f"{command} is {cost} days more; {left} of the game's {m.policy.vacation_days} vacation days "
            "are left to you.", "Ask for fewer days, or ask the GM."])
        return
    commands.add_vacation(it.player, wanted)
    text = (f"{it.player.name} is away from {wanted.start} to {wanted.end} ({cost} days; "
            f"{it.player.vacation_days} of {m.policy.vacation_days} used)")
    it.events.append(EventRow(game_id=it.game.id or 0, turn=it.game.turn, kind=EventKind.VACATION, seat=it.player.seat,
                              text=text, created_at=m.now()))
    it.alerts.append(m.mailer.gm_alert(key=("vacation", it.game.name, it.player.name, it.row.id or 0),
                                       subject=f"{it.game.name}: {it.player.name} is on vacation", text=text + (
                                           ".\n\nTheir standing orders (or the default moves) play meanwhile; no "
                                           "reminders go to them, and the turns are not counted as missed.")))
    _answer(m, session, it, command, f"you are away from {wanted.start} to {wanted.end}:",
            ["Your standing orders (a sheet sent with STANDING) play for you meanwhile, else the default moves;",
             "you get no reminders, and these turns do not count as missed.",
             f"Your vacations: {', '.join(f'{v.start} to {v.end}' for v in commands.vacations(it.player))}.",
             f"Vacation days used in {it.game.name}: {it.player.vacation_days} of {m.policy.vacation_days}."])


def _answer(m: Deps, session: Session, it: Intake, command: str, opening: str, lines: list[str],
            deadline: bool = False) -> None:
    """Add a command's answer to the mail's one answer (`answer_mail` sends it)."""
    it.answers.append(Answer(command, opening, tuple(lines)))
    it.tell_deadline = it.tell_deadline or deadline


def answer_mail(m: Deps, session: Session, it: Intake) -> None:
    """The one answer to one mail, whatever it asked: to the player's own address, within the
    replies' rate limit (unless it carries a new secret)."""
    if not (it.answers or it.orders_note) or it.game is None or it.player is None or not it.player.email.isascii():
        return
    if not (it.must_answer or m.mailer.may_reply(session, it.player.email)):
        return
    original = read_message_id(it.msg) if it.msg is not None else ""
    deadline = it.game.deadline if it.tell_deadline and not it.game.paused else None
    written = [c.split()[0] for c in it.sheet.commands]
    # in the order the mail has them (a setting without a command word after them)
    ordered = sorted(it.answers, key=lambda a: written.index(w) if (w := a.command.split()[0]) in written else
                     len(written))
    it.alerts.append(m.mailer.answers(it.game, it.player, ordered, key=it.row.id or 0, original=original or None,
                                      deadline=deadline, report=it.report,
                                      orders=it.orders_note))


def _answer_help(m: Deps, session: Session, it: Intake) -> None:
    assert it.game is not None and it.player is not None
    state = m.engine(it.game).load_state(json.loads(it.game.state))
    _answer(m, session, it, "HELP", "here is how to play by mail.",
            commands.help_lines(m.engine(it.game), it.game, it.player, state))


def answer_commands(m: Deps, session: Session, it: Intake) -> None:
    """HELP, STATUS, HISTORY, RESEND and PRESS are answered to the sender's own address, each
    once however often written; a command that cannot be done is answered with the reason, and
    the rest of the mail goes on."""
    assert it.game is not None and it.player is not None and it.game.id is not None
    engine = m.engine(it.game)
    state = engine.load_state(json.loads(it.game.state))
    for command in dict.fromkeys(it.sheet.commands):
        word = command.split()[0]
        if word == "HELP":
            _answer_help(m, session, it)
        elif word == "STATUS":
            sent = commands.sent_seats(m.store, session, it.game, it.players)
            standing = commands.standing_seats(m.store, session, it.game, it.players)
            _answer(m, session, it, "STATUS", "where the game stands:",
                    commands.status_lines(engine, it.game, it.player, it.players, state, sent, standing),
                    deadline=True)
        elif word == "HISTORY":
            turns = m.store.turns(session, it.game.id)
            _answer(m, session, it, "HISTORY", f"the turns of {it.game.name} so far:",
                    commands.history_lines(engine, it.players, turns, it.player.seat))
        elif word == "RESEND":
            _resend(m, session, it, command)
        elif word == "PRESS":
            _press(m, session, it)


def _resend(m: Deps, session: Session, it: Intake, command: str) -> None:
    """RESEND [turn]: the player's report of a resolved turn as it was sent, GM's notes and all."""
    assert it.game is not None and it.player is not None and it.game.id is not None
    try:
        turn = commands.read_resend(command, it.game)
    except PbemError as err:
        _answer(m, session, it, command, "there is no report to send again:", [f"{err}."])
        return
    if turn in it.resent:
        return  # RESEND 1 and RESEND 01 ask for one report
    it.resent.append(turn)
    if len(it.resent) > MAX_RESENDS:
        _answer(m, session, it, command, "not done in this mail:", [
            f"One report is sent again a mail (turn {it.resent[0]} is in this one); ask for turn {turn} in "
            "another mail."])
        return
    record = m.store.turn(session, it.game.id, turn)
    if record is None:
        _answer(m, session, it, command, "there is no report to send again:",
                [f"turn {turn} of {it.game.name} has no record."])
        return
    told = TurnRecord.from_row(m.engine(it.game), record)
    notes = commands.gm_notes(m.store, session, it.game, record.turn)
    common: dict[str, Any] = dict(turn=told.turn, resolved=told.resolved_at, deadline=told.deadline,
                                  correction=told.correction, notes=notes, again=it.row.id or 0, only=it.player.seat,
                                  sheets=told.sheets)
    parts: list[ReportParts] = []
    m.mailer.reports(it.game, told.game, it.players, told.after, told.resolutions, parts=parts, **common)
    if not parts:
        return  # no report for this seat (a computer player's)
    it.report = parts[0]
    _answer(m, session, it, command, f"your report of turn {record.turn} again, as it was sent "
            f"({parts[0].subject}):", ["", *parts[0].text.splitlines()])


def _press(m: Deps, session: Session, it: Intake) -> None:
    """PRESS: relayed to the game's other players (never to anyone else), within a daily limit."""
    assert it.game is not None and it.player is not None and it.game.id is not None
    text = (it.sheet.press or "").strip()
    if not it.game.press:
        _answer(m, session, it, "PRESS", "your PRESS was not relayed:", ["The GM has switched press off in this game."])
        return
    if not text:
        _answer(m, session, it, "PRESS", "your PRESS was not relayed:", ["It had no text after the PRESS word."])
        return
    sent = m.store.events_since(session, it.game.id, EventKind.PRESS, it.player.seat, m.now() - timedelta(days=1))
    if sent >= m.policy.press_per_day:
        _answer(m, session, it, "PRESS", "your PRESS was not relayed:",
                [f"A player may send {m.policy.press_per_day} PRESS messages a day in a game; try again tomorrow."])
        return
    readers = [p for p in it.players if p.email and p.id != it.player.id]
    for reader in readers:
        it.alerts.append(m.mailer.press(it.game, it.player, reader, text, it.row.id or 0))
    it.events.append(EventRow(game_id=it.game.id, turn=it.game.turn, kind=EventKind.PRESS, seat=it.player.seat,
                              text=text, created_at=m.now()))
    _answer(m, session, it, "PRESS", "your message was relayed:",
            [f"to {', '.join(p.name for p in readers) or 'nobody (no other player reads mail)'}."])


def preview(m: Deps, session: Session, it: Intake) -> None:
    """PREVIEW: the sheet is read and told order by order, on the current position, and not stored."""
    if "PREVIEW" not in it.sheet.commands:
        return
    assert it.game is not None and it.player is not None and it.parsed is not None
    body = commands.preview_lines(m.engine(it.game), it.state, it.parsed.orders, it.echo, it.player.seat)
    _answer(m, session, it, "PREVIEW", f"this is what your sheet would do in turn {it.game.turn} if the other "
            "players did not move:", body)
    raise Stop(MessageStatus.ANSWERED, "PREVIEW was answered; nothing was stored")


def suggest(m: Deps, session: Session, it: Intake) -> None:
    """A `SUGGEST` line is answered with the strong computer player's sheet for the sender's own
    seat, written from the sender's own view, as a template ready to edit (nothing is stored for
    the player; orders in the same mail are taken as usual)."""
    if "SUGGEST" not in it.sheet.commands:
        return
    assert it.game is not None and it.player is not None
    game = m.engine(it.game)
    state = game.load_state(json.loads(it.game.state))
    advisor = game.bot("strong")
    if advisor is None:
        _answer(m, session, it, "SUGGEST", "pbem has no suggestion for you:", [
            f"{game.info.title} has no computer player to suggest orders; your last report has the template."])
        return
    if it.player.seat not in game.may_send(state):
        _answer(m, session, it, "SUGGEST", "pbem has no suggestion for you:", [
            f"{it.player.name} has no move in turn {it.game.turn} of {it.game.name}: your next report says when "
            "you move again."])
        return
    chance = game_chance(it.game, it.game.turn, f"suggest/{it.player.seat}")
    text = commands.suggested_sheet(game, advisor, state, it.player.seat, chance)
    it.answers.append(commands.suggestion(it.game, it.player, text))


def parse_orders(m: Deps, session: Session, it: Intake) -> None:
    """The game reads the order lines, knowing who wrote them; the echo joins the header lines'."""
    assert it.game is not None and it.player is not None
    game = m.engine(it.game)
    it.state = game.load_state(json.loads(it.game.state))
    it.parsed = game.read(it.state, it.sheet, it.player.seat)  # order lines the mail program wrapped, whole
    it.echo = merge(it.sheet.echo, it.parsed.echo)


def only_orders(m: Deps, session: Session, it: Intake) -> None:
    """Only orders replace orders: a mail in which the game read no line as an order (commands,
    settings, press, greetings, sign-offs only) is no sheet. Its commands are answered and its
    settings applied, and the answer says that the sheet in force is unchanged."""
    if "PREVIEW" in it.sheet.commands:
        return  # PREVIEW reads the sheet, and stores nothing whatever it holds
    assert it.game is not None and it.player is not None and it.parsed is not None
    assert it.game.id is not None and it.player.id is not None
    if holds_orders(it.parsed.echo):
        return
    if it.timezone is not None:
        _answer(m, session, it, f"TIMEZONE {it.timezone}", "your time zone is set:",
                [f"Deadlines are told in {it.timezone} as well as in UTC."])
    current = m.store.current_sheets(session, it.game.id, it.game.turn).get(it.player.id)
    if it.standing:
        if current is not None:
            current.standing = True
            session.add(current)
            _answer(m, session, it, "STANDING", "your sheet in force is now standing orders:", [
                "It stays in force for later turns until you send another sheet."])
        else:
            _answer(m, session, it, "STANDING", "not done:", [
                f"You have no sheet in force for turn {it.game.turn} to keep standing: send STANDING with "
                "your orders."])
    lines = [f"  line {e.line}: {e.text}" for e in it.echo if isinstance(e, Ignored)]
    if lines:
        lines = [f"These lines are no orders of {m.engine(it.game).info.title}, so they were passed over:",
                 *lines, *_club_lines(it), ""]
    lines.append(_in_force(m, session, it, current is not None))
    lines.append("A mail replaces your orders only when at least one of its lines is an order.")
    it.orders_note = tuple(lines)
    raise Stop(MessageStatus.ANSWERED, _answered(it, "no orders, so the sheet in force is unchanged"))


def _in_force(m: Deps, session: Session, it: Intake, sent: bool) -> str:
    """What plays for the player this turn, in a sentence."""
    assert it.game is not None and it.player is not None
    turn = it.game.turn
    if it.player.seat not in m.engine(it.game).may_send(it.state):
        return f"You have no move in turn {turn}."
    if sent:
        return f"The sheet you sent for turn {turn} stays in force" + (
            " as standing orders." if it.standing else ".")
    if m.store.standing_sheet(session, it.player, turn) is not None:
        return f"Your standing orders stay in force for turn {turn}."
    return f"You have sent no orders for turn {turn} yet: send them before the deadline."


def _answered(it: Intake, outcome: str) -> str:
    words = dict.fromkeys(a.command.split()[0] for a in it.answers)
    return (f"answered: {', '.join(words)}; " if words else "") + outcome


def check_turn(m: Deps, session: Session, it: Intake) -> None:
    """Orders for another turn than the current one are refused, naming the current turn."""
    assert it.game is not None
    turn = it.sheet.turn
    if turn is not None and turn != it.game.turn:
        when = "already resolved" if turn < it.game.turn else "not open yet"
        fix = _late_fix(m, session, it, turn) if turn < it.game.turn and it.player is not None and it.player.email else \
            f"Send your orders with the line 'TURN {it.game.turn}'."
        raise Stop(MessageStatus.REFUSED,
                   f"these orders are for turn {turn}, which is {when}; the current turn is {it.game.turn}",
                   fix=fix, reply=True)


def _late_fix(m: Deps, session: Session, it: Intake, turn: int) -> str:
    """What a player whose sheet came after its turn was resolved is told: what happened since
    (in a game that resolves on receipt, another seat's sheet may have moved it on) and what is
    asked of her now, with a sheet for the current turn ready to edit."""
    assert it.game is not None and it.game.id is not None and it.player is not None
    engine = m.engine(it.game)
    now = it.game.turn
    span = f"turn {turn} was" if now - turn == 1 else f"turns {turn} to {now - 1} were"
    how = ""
    record = m.store.turn(session, it.game.id, turn) if now - turn == 1 else None
    if engine.info.resolve_on_receipt and record is not None:
        movers = set(engine.to_move(engine.load_state(json.loads(record.before))))
        names = [p.name for p in it.players if p.seat in movers and p.seat != it.player.seat]
        if names:
            how = f" as soon as {' and '.join(names)}'s sheet{'s' if len(names) > 1 else ''} arrived"
    told = (f"What happened: {span} resolved{how}.\nYour report of turn {now - 1} tells it; a mail with "
            f"the line RESEND {now - 1} sends it again.")
    if it.player.seat not in engine.may_send(it.state):
        return f"{told}\n\nWhat is asked of you now: nothing in turn {now}; your next report says when you move again."
    reader = Reader(Viewer(it.player.seat), it.player.name, (it.player.seat,))
    lines = engine.presenter.order_lines(engine.view(it.state, reader.viewer), reader)
    sheet = sheet_template(it.game.name, now, reply_token(it.player.secret, it.game.name, now), lines)
    return (f"{told}\n\nWhat is asked of you now: your orders for turn {now}, which is open.\n"
            f"Send them with the line 'TURN {now}'; this sheet is ready to edit:\n\n{sheet}")


def check_on_move(m: Deps, session: Session, it: Intake) -> None:
    """Orders from a seat that has no move this turn (finished, or waiting for another seat)."""
    assert it.game is not None and it.player is not None
    if it.player.seat not in m.engine(it.game).may_send(it.state):
        raise Stop(MessageStatus.REFUSED, f"{it.player.name} has no move in turn {it.game.turn} of {it.game.name}",
                   fix="Nothing to send this turn: your next report says when you move again.", reply=True)


def acknowledge(m: Deps, session: Session, it: Intake) -> None:
    """The acknowledgement, written before anything is stored: every accepted sheet gets one
    (acknowledgements are never rate-limited away; only the sheet's own player can cause one)."""
    assert it.game is not None and it.player is not None and it.parsed is not None and it.row.id is not None
    assert it.game.id is not None and it.player.id is not None
    current = m.store.current_sheet_message(session, it.game.id, it.player.id, it.game.turn)
    if current is None:
        it.replaced = "new"
    else:
        it.replaced = "superseded" if current > it.row.id else "replaced"
    if not it.player.email or not it.player.email.isascii():
        return  # a computer player reads no mail
    original = read_message_id(it.msg) if it.msg is not None else ""
    engine = m.engine(it.game)
    warnings = [*engine.lint(it.state, it.parsed.orders, it.player.seat), *_club_lines(it)]
    it.ack = m.mailer.acknowledgement(it.game, engine, it.state, it.player, it.parsed, it.echo,
                                      replaced=it.replaced, message=it.row.id, original=original or None,
                                      warnings=warnings, standing=it.standing,
                                      resolves=_completes_turn(m, session, it, engine))


def _club_lines(it: Intake) -> list[str]:
    """The club's lines (JOIN, RESIGN, ...) a game's mail passed over, and where they go."""
    from pbem.club import mail

    found = [c.text for c in mail.read_commands("\n".join(e.text for e in it.echo if isinstance(e, Ignored)))
             if c.word not in ("STATUS", "HELP")]  # the game's own commands too
    if not found:
        return []
    return [f"{', '.join(found)}: lines for the club go in a mail of their own, without GAME and SECRET lines."]


def _completes_turn(m: Deps, session: Session, it: Intake, engine: AnyGame) -> bool:
    """Whether this sheet is the last one a game that resolves on receipt waited for: the turn is
    resolved with it at once, so its acknowledgement offers no correction."""
    assert it.game is not None and it.game.id is not None and it.player is not None
    if not engine.info.resolve_on_receipt or it.replaced == "superseded":
        return False
    waiting = set(engine.to_move(it.state)) - {p.seat for p in it.players if p.bot}
    seats = {p.id: p.seat for p in it.players}
    sent = {seats.get(pid) for pid in m.store.current_sheets(session, it.game.id, it.game.turn)}
    return it.player.seat in waiting and waiting <= sent | {it.player.seat}


def store_sheet(m: Deps, session: Session, it: Intake) -> None:
    """The one write: the game's turn is claimed (still open?), the sheet stored in arrival
    order, the acknowledgement queued. A sheet that missed the turn is answered as such."""
    assert it.game is not None and it.player is not None and it.game.id and it.player.id and it.row.id
    checkpoint("before-store-sheet")
    if not m.store.claim_turn(session, it.game.id, it.game.turn):  # it matched no row: nothing written
        raise Stop(MessageStatus.REFUSED,
                   f"turn {it.game.turn} of {it.game.name} was resolved while these orders were on their way",
                   fix=f"Send your orders for the next turn, with the line 'TURN {it.game.turn + 1}'; "
                       "your turn report has the template.", reply=True)
    sheet = SheetRow(game_id=it.game.id, player_id=it.player.id, turn=it.game.turn, message_id=it.row.id,
                     text=it.text, received_at=m.now(), standing=it.standing)
    it.replaced = m.store.replace_sheet(session, sheet)
    for event in it.events:
        session.add(event)
    if it.timezone is not None:
        session.add(it.player)
    if it.ack is not None:
        m.mailer.queue(session, it.game, it.game.turn, it.ack)
    answer_mail(m, session, it)
    for mail in it.alerts:
        m.mailer.queue(session, it.game, it.game.turn, mail)


PIPELINE: tuple[tuple[str, Step], ...] = (
    ("read-headers", read_headers),
    ("skip-automatic", skip_automatic),
    ("check-sender", check_sender),
    ("check-limits", check_limits_step),
    ("take-text", take_text),
    ("club", club),
    ("find-game", find_game),
    ("find-player", find_player),
    ("player-settings", player_settings),
    ("answer-commands", answer_commands),
    ("suggest", suggest),
    ("parse-orders", parse_orders),
    ("only-orders", only_orders),
    ("check-turn", check_turn),
    ("check-on-move", check_on_move),
    ("preview", preview),
    ("acknowledge", acknowledge),
    ("store-sheet", store_sheet),
)


def take_computer_sheet(m: Deps, session: Session, it: Intake) -> None:
    """A computer player's sheet, stored as a message of its own (`pbem.bots`): its game and
    seat are on the row; the seat must still be a computer player's."""
    game = session.get(GameRow, it.row.game_id) if it.row.game_id is not None else None
    player = session.get(PlayerRow, it.row.player_id) if it.row.player_id is not None else None
    if game is None or player is None or (it.row.source == COMPUTER_SOURCE and not player.bot):
        raise Stop(MessageStatus.REFUSED, "the seat is no longer a computer player's")
    it.game, it.player = game, player
    assert game.id is not None
    it.players = m.store.players(session, game.id)
    it.sender = ""
    it.text = it.row.raw.decode("utf-8")
    it.sheet = read_sheet(it.text)


#: the source of a stored message that holds a computer player's sheet
COMPUTER_SOURCE = "computer-player"
#: the source of a sheet the GM entered for a seat (`pbem sheet`): it goes the computer players' way
GM_SOURCE = "gm-sheet"
#: a computer player's sheet goes through the same reading, checks, acknowledgement bookkeeping
#: and store as a person's; only how its text and seat are found differs
COMPUTER_PIPELINE: tuple[tuple[str, Step], ...] = (
    ("take-computer-sheet", take_computer_sheet),
    ("parse-orders", parse_orders),
    ("check-turn", check_turn),
    ("check-on-move", check_on_move),
    ("acknowledge", acknowledge),
    ("store-sheet", store_sheet),
)


# replies and news ------------------------------------------------------------------------------

def refuse(m: Deps, session: Session, it: Intake, stop: Stop) -> None:
    """A polite refusal with the reason and how to fix it: rate-limited per address; to an address
    that plays no game here only when the GM asked for it, and then within a global hourly limit."""
    if "@" not in it.sender:
        return
    known = bool(m.store.games_of_address(session, it.sender))
    if not known:
        it.row.stranger = True
        if not m.policy.reply_to_strangers:
            return
        if m.store.strangers_since(session, m.now() - timedelta(hours=1)) >= m.policy.strangers_per_hour:
            return
    if not m.mailer.may_reply(session, it.sender):
        return
    original = read_message_id(it.msg) if it.msg is not None else ""
    mail = m.mailer.refusal(to=it.sender, to_name=it.sender_name, reader=it.player.name if it.player else it.sender_name,
                            subject=it.row.subject, reason=stop.reason, fix=stop.fix, message=it.row.id or 0,
                            original=original or None)
    m.mailer.queue(session, it.game, it.game.turn if it.game else None, mail)


def warn_wrong_secrets(m: Deps, session: Session, it: Intake) -> None:
    """After repeated wrong secrets in a player's name the GM is told (once a day). Only a secret
    that is nobody's counts: a missing SECRET line, or her own token of an earlier turn, is a
    slip of the player's, not someone trying her secret."""
    if it.player is None or it.player.id is None or it.game is None or not it.row.reason.startswith(WRONG_SECRET):
        return
    since = m.now() - timedelta(days=1)
    count = m.store.refusals_for(session, it.player.id, "find-player", since, reason_prefix=WRONG_SECRET) + 1
    if count >= WRONG_SECRETS_ALERT:
        alert = m.mailer.gm_alert(
            key=("wrong-secret", it.game.name, it.player.name, m.now().strftime("%Y-%m-%d")),
            subject=f"{it.game.name}: {count} mails with a wrong secret in {it.player.name}'s name",
            text=(f"{count} mails in the last day came from {it.player.email} in {it.player.name}'s name in "
                  f"{it.game.name} with a wrong SECRET (the last: {it.row.subject!r}).\n\n"
                  "If they are not the player's, someone is trying their secret; `pbem secret "
                  f"{it.game.name} {it.player.name}` gives the player a new one."))
        if not m.store.mail_exists(session, alert.msg_id):
            m.mailer.queue(session, it.game, it.game.turn, alert)


def note_bounce(m: Deps, session: Session, it: Intake) -> None:
    """A delivery status notification is news only when it quotes the Message-ID of a mail pbem
    sent, and then only for that mail's own recipient: the mail is marked failed, the players of its
    game at that address bouncing, and the GM is told (once a day for each player). Anyone can
    write a report naming any address, so one that quotes no mail of ours changes nothing."""
    assert it.msg is not None
    bounce = parse_dsn(it.msg)
    if bounce is None or not bounce.original_message_id:
        return
    mail = m.store.mail_by_message_id(session, bounce.original_message_id)
    if mail is None:
        return
    recipient = mail.recipient.lower()
    failed = next((f for f in bounce.recipients if f.permanent and recipient in (f.address, f.original_address)), None)
    if failed is None:
        return  # a delay, or another recipient than the mail's: nothing to do
    why = f"{failed.status} {failed.diagnostic}".strip()[:300] or "the mail came back"
    mail.status, mail.error = MailStatus.FAILED, f"bounced: {why}"
    session.add(mail)
    day = m.now().strftime("%Y-%m-%d")
    for player in m.store.players_with_address(session, recipient):
        if mail.game_id is not None and player.game_id != mail.game_id:
            continue  # the address may work for another game's mail; that game hears of its own
        player.bouncing = why
        session.add(player)
        game = session.get(GameRow, player.game_id)
        alert = m.mailer.bounce_alert(player, recipient, why, day, game=game.name if game else "")
        if not m.store.mail_exists(session, alert.msg_id):
            m.mailer.queue(session, None, None, alert)


# the run ---------------------------------------------------------------------------------------

def store_raw(m: Deps, raw: bytes, source: str) -> tuple[MessageRow | None, MessageRow | None]:
    """Step one, in its own transaction: keep the bytes. Returns (the new row, None), or (None,
    the row already stored) for a duplicate: the same Message-ID and the same body. A known
    Message-ID with another body is another mail, stored under a key of its own."""
    key = message_key(raw)
    # The mail is stored first and looked up only when its Message-ID is taken: a new
    # mail costs one statement, not two. PostgreSQL looks first: a refused insert there would
    # use up a message number, and the numbers go into the replies' Message-IDs.
    look_first = m.store.engine.dialect.name == "postgresql"
    for candidate in (key.id, f"{key.id[:900]} {key.digest}"):
        # the pipeline's own transaction (or the quarantine's) is the durable one, and comes
        # before anything is acknowledged: see Store.add_message
        fresh = MessageRow(message_id=candidate, raw=raw, source=source, received_at=m.now(), digest=key.digest)
        known = None
        if look_first:
            row, known = m.store.add_message_unless_known(fresh)
        else:
            row = m.store.add_message(fresh, flushed_later=True)
        if row is not None:
            checkpoint("after-store-raw")
            return row, None
        if known is None:
            with m.store.session() as session:
                known = m.store.message_seen(session, candidate)
        if known is None:
            continue  # not to be: the key was taken, and it is gone again
        if known.digest in (key.digest, ""):
            return None, known
        # the same Message-ID, another body: another mail
    return None, None


def run_pipeline(m: Deps, row: MessageRow, *, deliver: bool = True) -> IntakeResult:
    """Run the steps after store-raw on a stored message; record the outcome on its row."""
    steps = COMPUTER_PIPELINE if row.source in (COMPUTER_SOURCE, GM_SOURCE) else PIPELINE
    it = Intake(row=row)
    row_id, was = row.id, row.status
    step_name = steps[0][0]
    try:
        with m.store.session() as session, session.no_autoflush:
            try:
                for step_name, step in steps:  # noqa: B007 - the except clauses name the step
                    step(m, session, it)
                echo = it.parsed.echo if it.parsed is not None else ()
                row.status, row.step, row.reason = MessageStatus.ACCEPTED, steps[-1][0], _accepted(it.replaced, echo)
            except Stop as stop:
                row.status, row.step, row.reason = stop.status, step_name, stop.reason
                if step_name == "find-player" and it.player is not None and stop.status == MessageStatus.REFUSED:
                    warn_wrong_secrets(m, session, it)
                answer_mail(m, session, it)
                for mail in it.alerts:
                    m.mailer.queue(session, it.game, it.game.turn if it.game else None, mail)
                for event in it.events:  # what a command did to the player is kept (as TIMEZONE is)
                    session.add(event)
                if stop.reply and it.sender:
                    refuse(m, session, it, stop)
            row.traceback = ""
            if not m.store.save_message(session, row, was):
                raise _FinishedElsewhere
        checkpoint("after-intake")
    except _FinishedElsewhere:  # another run took it in first: its effects stand, this run's are rolled back
        return _finished_elsewhere(m, row_id, deliver=deliver)
    except Exception:  # noqa: BLE001 - a crash in any step quarantines the message, the run goes on
        tb = traceback.format_exc()
        with m.store.session() as session:
            fresh = session.get(MessageRow, row_id)
            assert fresh is not None
            if fresh.status != was:  # another run took it in meanwhile: that outcome stands
                session.expunge(fresh)
                return _finished_elsewhere(m, row_id, deliver=deliver)
            fresh.status, fresh.step, fresh.traceback = MessageStatus.QUARANTINED, step_name, tb
            fresh.reason = tb.strip().splitlines()[-1][:500]
            fresh.sender = fresh.sender or it.sender
            session.add(fresh)
            row = fresh
    if deliver:
        m.deliver()
    game = it.game.name if it.game and row.status != MessageStatus.QUARANTINED else None
    player = it.player.name if it.player and row.status != MessageStatus.QUARANTINED else None
    return IntakeResult(row_id, row.status, row.reason, row.step, game, player)


class _FinishedElsewhere(Exception):
    """The message was taken in by another run while this one read it."""


def _finished_elsewhere(m: Deps, row_id: int | None, *, deliver: bool) -> IntakeResult:
    if deliver:
        m.deliver()
    return IntakeResult(row_id, "duplicate", "taken in by another run at the same time", "store-raw")


def _accepted(replaced: str, echo: tuple[Echo, ...]) -> str:
    """The console's word on an accepted sheet, with how many of its lines were rejected."""
    rejected = sum(1 for e in echo if isinstance(e, Rejected))
    taken = sum(1 for e in echo if isinstance(e, Accepted))
    note = "" if not rejected else (f"; every order line rejected ({rejected})" if not taken
                                    else f"; {rejected} line{'' if rejected == 1 else 's'} rejected")
    if replaced == "superseded":
        return "kept, but a sheet that arrived later is in force" + note
    return "orders in force" + note


def ingest(m: Deps, raw: bytes, source: str = "", *, deliver: bool = True) -> IntakeResult:
    """Take in one message; `deliver=False` leaves the replies queued for one delivery later."""
    row, known = store_raw(m, raw, source)
    if row is not None:
        return run_pipeline(m, row, deliver=deliver)
    if known is not None and known.status == MessageStatus.NEW:
        # stored, but its pipeline has not finished: its worker died, or is at it now. Finished
        # here either way: the pipeline's one write holds only if the message is still new, so of
        # two runs at once one takes it in, and the other changes nothing.
        return run_pipeline(m, known, deliver=deliver)
    return IntakeResult(None, "duplicate", "this mail (the same Message-ID and text) was taken in before", "store-raw")


def recover(m: Deps) -> list[IntakeResult]:
    """Finish every stored message whose pipeline has not finished (the process died right after
    storing it, or another worker is at it now), whether or not the mail server offers it again:
    every mail stored raw is taken in before a turn is resolved. Of two runs of one message's
    pipeline, the first to write takes it in; the other changes nothing (`run_pipeline`)."""
    with m.store.session() as session:
        pending = m.store.pending_message_ids(session)
    results = []
    for message in pending:
        with m.store.session() as session:  # one at a time: a message may be megabytes
            row = session.get(MessageRow, message)
            if row is None or row.status != MessageStatus.NEW:
                continue  # finished meanwhile
            session.expunge(row)
        results.append(run_pipeline(m, row, deliver=False))
    return results
