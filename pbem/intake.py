"""The inbound pipeline: each order mail goes through named single-purpose steps.

The raw message is stored first, in its own transaction, so nothing is ever lost. Every later
step either lets the message go on, stops it with a status and a reason (and perhaps a polite
reply), or crashes — and then the message is quarantined with the step's name and traceback
while the run goes on with the next message.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import compat32
from email.utils import parseaddr
from typing import Any

from sqlmodel import Session

from pbem.faults import checkpoint
from pbem.games import AnyGame
from pbem.games.base import Parsed
from pbem.games.sheet import Echo, Sheet, merge, read_sheet
from pbem.mail.text import classify, extract_orders_text, parse_message
from pbem.mailer import Mailer
from pbem.store import GameRow, MessageRow, PlayerRow, SheetRow, Store, message_key


@dataclass(frozen=True)
class Deps:
    """What the intake steps use: the store, the clock, the registry of games and the mailer."""

    store: Store
    now: Callable[[], datetime]
    find_game: Callable[[str], AnyGame]
    mailer: Mailer
    deliver: Callable[[], int]

    def engine(self, game: GameRow) -> AnyGame:
        return self.find_game(game.game)

    def state(self, game: GameRow) -> Any:
        return self.engine(game).load_state(json.loads(game.state))


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
    msg: EmailMessage | None = None
    sender: str = ""
    sender_name: str = ""
    text: str = ""
    sheet: Sheet = field(default_factory=Sheet)
    game: GameRow | None = None
    player: PlayerRow | None = None
    players: list[PlayerRow] = field(default_factory=list)
    state: Any = None
    parsed: Parsed[Any] | None = None
    echo: tuple[Echo, ...] = ()
    replaced: bool = False


@dataclass(frozen=True)
class IntakeResult:
    message: int | None  # the stored message's id (None for a duplicate)
    status: str  # accepted, refused, ignored, duplicate, quarantined
    reason: str
    step: str
    game: str | None = None
    player: str | None = None


Step = Callable[[Deps, Session, Intake], None]


def read_headers(m: Deps, session: Session, it: Intake) -> None:
    """Parse the stored bytes and note the sender."""
    it.msg = parse_message(it.row.raw)
    name, address = parseaddr(str(it.msg.get("From", "")))
    it.sender, it.sender_name = address.strip().lower(), name
    it.row.sender = it.sender
    it.row.subject = str(it.msg.get("Subject", ""))[:500]


def skip_automatic(m: Deps, session: Session, it: Intake) -> None:
    """Auto-replies, bounces and list mail are never read as orders, and never answered."""
    assert it.msg is not None
    reason = classify(it.msg)
    if reason is not None:
        raise Stop("ignored", reason)


def take_text(m: Deps, session: Session, it: Intake) -> None:
    """The player's own text: text/plain preferred, HTML converted, quotes and signature dropped."""
    extracted = extract_orders_text(it.row.raw, it.msg)
    if extracted.text is None:
        raise Stop("refused", f"the mail has {extracted.reason or 'no text'} that pbem can read",
                   fix="Send your orders as the text of the mail (plain text is best).", reply=True)
    it.text = extracted.text
    it.sheet = read_sheet(extracted.text)


def find_game(m: Deps, session: Session, it: Intake) -> None:
    """The GAME line, else a game named in the Subject, else the sender's only game."""
    wanted = it.sheet.game
    game: GameRow | None = None
    if wanted:
        game = m.store.find_game(session, wanted) or next(
            (m.store.find_game(session, n) for n in m.store.game_names(session)
             if n.lower() == wanted.lower()), None)
        if game is None:
            raise Stop("refused", f"there is no game called {wanted!r}",
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
        raise Stop("refused", "the mail does not say which game it is for",
                   fix="Put a line 'GAME <name>' at the top of your orders. " + _games_hint(m, session, it.sender),
                   reply=True)
    it.game = game
    it.row.game_id = game.id
    if game.over:
        raise Stop("refused", f"the game {game.name} is over: no more orders are taken",
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
    return ""


def find_player(m: Deps, session: Session, it: Intake) -> None:
    """The From address must be a player's, and the SECRET line must be theirs."""
    assert it.game is not None and it.game.id is not None
    it.players = m.store.players(session, it.game.id)
    player = next((p for p in it.players if p.email.lower() == it.sender), None)
    if player is None:
        raise Stop("refused", f"{it.sender or 'the sender'} is not a player of {it.game.name}",
                   fix="Send your orders from the address you joined the game with.", reply=True)
    it.player = player
    it.row.player_id = player.id
    secret = it.sheet.secret
    if secret is None:
        raise Stop("refused", "the orders have no SECRET line",
                   fix="Add the line 'SECRET <your secret>' from your welcome mail or last report.", reply=True)
    if secret.strip().upper() != player.secret.upper():
        raise Stop("refused", f"the SECRET {secret!r} is not yours",
                   fix="Copy the SECRET line from your welcome mail or your last turn report.", reply=True)


def player_settings(m: Deps, session: Session, it: Intake) -> None:
    """A `TIMEZONE <zone>` line sets the player's own time zone for deadlines."""
    assert it.player is not None
    if it.sheet.timezone is None:
        return  # none given, or rejected with its reason by the sheet reader
    it.player.timezone = it.sheet.timezone
    session.add(it.player)


def parse_orders(m: Deps, session: Session, it: Intake) -> None:
    """The game reads the order lines, knowing who wrote them; the echo joins the header lines'."""
    assert it.game is not None and it.player is not None
    game = m.engine(it.game)
    it.state = game.load_state(json.loads(it.game.state))
    it.parsed = game.parse(it.state, it.sheet, it.player.seat)
    it.echo = merge(it.sheet.echo, it.parsed.echo)


def check_on_move(m: Deps, session: Session, it: Intake) -> None:
    """Orders from a seat that has no move this turn (finished, or waiting for another seat)."""
    assert it.game is not None and it.player is not None
    if it.player.seat not in m.engine(it.game).to_move(it.state):
        raise Stop("refused", f"{it.player.name} has no move in turn {it.game.turn} of {it.game.name}",
                   fix="Nothing to send this turn: your next report says when you move again.", reply=True)


def check_turn(m: Deps, session: Session, it: Intake) -> None:
    """Orders for another turn than the current one are refused, naming the current turn."""
    assert it.game is not None
    turn = it.sheet.turn
    if turn is not None and turn != it.game.turn:
        when = "already resolved" if turn < it.game.turn else "not open yet"
        raise Stop("refused", f"these orders are for turn {turn}, which is {when}; the current turn is {it.game.turn}",
                   fix=f"Send your orders with the line 'TURN {it.game.turn}'.", reply=True)


def store_sheet(m: Deps, session: Session, it: Intake) -> None:
    """The sheet is now in force; a later sheet for the same turn replaces it entirely."""
    assert it.game is not None and it.player is not None and it.game.id and it.player.id and it.row.id
    sheet = SheetRow(game_id=it.game.id, player_id=it.player.id, turn=it.game.turn, message_id=it.row.id,
                     text=it.text, received_at=m.now())
    it.replaced = m.store.replace_sheet(session, sheet)


def acknowledge(m: Deps, session: Session, it: Intake) -> None:
    assert it.game is not None and it.player is not None and it.parsed is not None and it.row.id is not None
    if not m.mailer.may_reply(session, it.player.email):
        return
    original = str(it.msg.get("Message-ID", "") or "").strip() if it.msg is not None else ""
    mail = m.mailer.acknowledgement(it.game, m.engine(it.game), it.state, it.player, it.parsed, it.echo,
                                    replaced=it.replaced, message=it.row.id, original=original or None)
    m.mailer.queue(session, it.game, it.game.turn, mail)


def refuse(m: Deps, session: Session, it: Intake, stop: Stop) -> None:
    """A polite refusal with the reason and how to fix it (rate-limited per address)."""
    if "@" not in it.sender or not m.mailer.may_reply(session, it.sender):
        return
    original = str(it.msg.get("Message-ID", "") or "").strip() if it.msg is not None else ""
    mail = m.mailer.refusal(to=it.sender, to_name=it.sender_name, reader=it.player.name if it.player else it.sender_name,
                            subject=it.row.subject, reason=stop.reason, fix=stop.fix, message=it.row.id or 0,
                            original=original or None)
    m.mailer.queue(session, it.game, it.game.turn if it.game else None, mail)


PIPELINE: tuple[tuple[str, Step], ...] = (
    ("read-headers", read_headers),
    ("skip-automatic", skip_automatic),
    ("take-text", take_text),
    ("find-game", find_game),
    ("find-player", find_player),
    ("player-settings", player_settings),
    ("parse-orders", parse_orders),
    ("check-turn", check_turn),
    ("check-on-move", check_on_move),
    ("store-sheet", store_sheet),
    ("acknowledge", acknowledge),
)


def _message_id(raw: bytes) -> str:
    """The Message-ID, read from the header block alone (the body can be large)."""
    try:
        headers = _HEADERS_ONLY.parsebytes(raw, headersonly=True)
        value = headers.get("Message-ID")
        return str(value).strip() if value is not None else ""
    except Exception:  # noqa: BLE001 - any mangled header: the message gets a digest instead
        return ""


_HEADERS_ONLY = BytesParser(policy=compat32)


def store_raw(m: Deps, raw: bytes, source: str) -> tuple[MessageRow | None, str]:
    """Step one, in its own transaction: keep the bytes. (None, key) when the Message-ID is known."""
    key = message_key(_message_id(raw), raw)[:990]
    row = m.store.add_message(MessageRow(message_id=key, raw=raw, source=source, received_at=m.now()))
    checkpoint("after-store-raw")
    return row, key


def run_pipeline(m: Deps, row: MessageRow, *, deliver: bool = True) -> IntakeResult:
    """Run the steps after store-raw on a stored message; record the outcome on its row."""
    it = Intake(row=row)
    row_id = row.id
    step_name = "read-headers"
    try:
        with m.store.session() as session:
            session.add(row)
            try:
                for step_name, step in PIPELINE:
                    step(m, session, it)
                row.status, row.step, row.reason = "accepted", "acknowledge", "orders in force"
            except Stop as stop:
                row.status, row.step, row.reason = stop.status, step_name, stop.reason
                if stop.reply and it.sender:
                    refuse(m, session, it, stop)
            row.traceback = ""
            session.add(row)
        checkpoint("after-intake")
    except Exception:  # noqa: BLE001 - a crash in any step quarantines the message, the run goes on
        tb = traceback.format_exc()
        with m.store.session() as session:
            fresh = session.get(MessageRow, row_id)
            assert fresh is not None
            fresh.status, fresh.step, fresh.reason, fresh.traceback = "quarantined", step_name, tb.strip().splitlines()[-1], tb
            session.add(fresh)
            row = fresh
    if deliver:
        m.deliver()
    game = it.game.name if it.game and row.status != "quarantined" else None
    player = it.player.name if it.player and row.status != "quarantined" else None
    return IntakeResult(row_id, row.status, row.reason, row.step, game, player)


def ingest(m: Deps, raw: bytes, source: str = "", *, deliver: bool = True) -> IntakeResult:
    """Take in one message; `deliver=False` leaves the replies queued for one delivery later."""
    row, key = store_raw(m, raw, source)
    if row is None:
        with m.store.session() as session:
            known = m.store.message_seen(session, key)
        if known is not None and known.status == "new":
            # stored, but the pipeline never finished: if its worker is gone, finish it now
            claimed = m.store.claim_stale_message(known.id or 0, m.now() - STALE_AFTER, m.now())
            if claimed is not None:
                return run_pipeline(m, claimed, deliver=deliver)
        return IntakeResult(None, "duplicate", "a message with this Message-ID was taken in before", "store-raw")
    return run_pipeline(m, row, deliver=deliver)


#: a stored message still 'new' this long after it was stored lost its worker (a live worker runs
#: the pipeline right after storing it, in well under a second)
STALE_AFTER = timedelta(minutes=2)


def recover(m: Deps) -> list[IntakeResult]:
    """Finish every stored message whose pipeline never ran (the process died right after
    storing it), whether or not the mail server offers it again."""
    with m.store.session() as session:
        pending = [r.id or 0 for r in m.store.messages(session, "new")]
    results = []
    for message in pending:
        claimed = m.store.claim_stale_message(message, m.now() - STALE_AFTER, m.now())
        if claimed is not None:
            results.append(run_pipeline(m, claimed, deliver=False))
    return results
