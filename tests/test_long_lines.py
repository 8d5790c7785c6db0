"""Long order lines read whole: a line that a mail program wrapped is the line its player wrote.

Every registered game's longest lines, sent as real mail programs send them — Thunderbird's
format=flowed, Apple Mail's format=flowed with DelSp=yes, Gmail's plain text broken at 76 and 78
characters, Outlook's quoted-printable with soft breaks and with hard ones — and broken at several
places (before a connective, after one, after the first word, anywhere in narrow lines), go
through the moderator's intake: the sheet in force reads as the unwrapped sheet, the
acknowledgement shows each line whole, and the turn plays the whole chain, its fallbacks too.
"""

from __future__ import annotations

import email
import email.policy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config
from pbem.games import find_game, games
from pbem.games.base import Viewer
from pbem.games.chance import LegacyChance
from pbem.games.sheet import (
    CONNECTIVES,
    JOIN_BUDGET,
    MAX_JOINED,
    MAX_LINES,
    Accepted,
    Ignored,
    Reading,
    Rejected,
    join_wrapped,
    read_sheet,
)
from pbem.mail.body import body_text
from pbem.mail.text import extract_orders_text
from pbem.moderator import Moderator, PlayerSpec

NAMES = ("Ann", "Bob", "Cyd", "Dot")
SIGN_OFF = ("Thanks, see you next turn!", "-- ", "Ann Example")

Pieces = list[str]  # a line cut into the pieces a mail program sends as lines of their own


# where a mail program breaks a line -----------------------------------------------------------

def _words(line: str) -> list[str]:
    return line.split(" ")


def _cut(line: str, breaks: set[int]) -> Pieces:
    """The line cut before each word index in `breaks` (each piece keeps its words' spaces but
    the one at the break)."""
    pieces: list[str] = []
    current: list[str] = []
    for i, word in enumerate(_words(line)):
        if i in breaks and current:
            pieces.append(" ".join(current))
            current = []
        current.append(word)
    return [*pieces, " ".join(current)]


def at_width(width: int) -> Callable[[str], Pieces]:
    """Greedy wrapping at `width` characters, as Gmail and Outlook break plain text."""
    def cut(line: str) -> Pieces:
        breaks, size = set(), 0
        for i, word in enumerate(_words(line)):
            if size and size + 1 + len(word) > width:
                breaks.add(i)
                size = len(word)
            else:
                size += (1 if size else 0) + len(word)
        return _cut(line, breaks)
    return cut


def before_connectives(line: str) -> Pieces:
    return _cut(line, {i for i, w in enumerate(_words(line)) if i and w.upper() in CONNECTIVES})


def after_connectives(line: str) -> Pieces:
    words = _words(line)
    return _cut(line, {i + 1 for i, w in enumerate(words) if i + 1 < len(words) and w.upper() in CONNECTIVES})


def after_first_word(line: str) -> Pieces:
    return _cut(line, {1})


def narrow(line: str) -> Pieces:
    """Broken in three or more, but at 12 to 40 characters."""
    return at_width(min(40, max(12, len(line) // 3)))(line)


BREAKS: dict[str, Callable[[str], Pieces]] = {
    "width": at_width(76), "narrow": narrow, "before-connective": before_connectives,
    "after-connective": after_connectives, "after-first-word": after_first_word,
}


# how each mail program sends the pieces ---------------------------------------------------------

def _qp(text: str) -> str:
    """Quoted-printable of one line of ASCII text, without soft breaks."""
    return "".join(f"={ord(ch):02X}" if ch == "=" or not 32 <= ord(ch) < 127 else ch for ch in text)


def _stuffed(line: str) -> str:
    """RFC 3676 space-stuffing of one line sent flowed."""
    return " " + line if line.startswith((" ", ">", "From ")) else line


def thunderbird(lines: list[Pieces]) -> tuple[str, str, str]:
    """format=flowed (DelSp=no): each soft line ends with the space it was broken at."""
    out = [_stuffed(piece + " ") if i < len(pieces) - 1 else _stuffed(piece)
           for pieces in lines for i, piece in enumerate(pieces)]
    return "text/plain; charset=UTF-8; format=flowed", "7bit", "\r\n".join(out)


def apple_mail(lines: list[Pieces]) -> tuple[str, str, str]:
    """format=flowed; DelSp=yes: the mail program adds the space at each soft break (the space
    the line was broken at stays on the line), so it may break inside a word too: the first
    piece of every long line is broken so."""
    out = []
    for pieces in lines:
        first = pieces[0]
        if len(first) > 12 and " " not in first[6:8]:
            out.append(_stuffed(first[:7] + " "))  # inside a word: DelSp takes the space away again
            pieces = [first[7:], *pieces[1:]]
        out += [_stuffed(p + "  ") for p in pieces[:-1]] + [_stuffed(pieces[-1])]
    return "text/plain; charset=utf-8; format=flowed; delsp=yes", "7bit", "\r\n".join(out)


def hard(lines: list[Pieces]) -> tuple[str, str, str]:
    """Plain text broken hard where the pieces end, as Gmail sends it."""
    return 'text/plain; charset="UTF-8"', "7bit", "\r\n".join(p for pieces in lines for p in pieces)


def outlook_soft(lines: list[Pieces]) -> tuple[str, str, str]:
    """quoted-printable whose soft breaks (`=` at the end of a line) fall where the pieces end,
    and wherever an encoded line would pass 76 characters; the text itself is not wrapped."""
    out = []
    for pieces in lines:
        encoded = [_qp(p + " ") if i < len(pieces) - 1 else _qp(p) for i, p in enumerate(pieces)]
        rows: list[str] = []
        for chunk in encoded:
            while len(chunk) > 72:
                cut = 72 - (2 if "=" in chunk[70:72] else 0)
                rows.append(chunk[:cut] + "=")
                chunk = chunk[cut:]
            rows.append(chunk + "=")
        rows[-1] = rows[-1][:-1]
        out += rows
    return 'text/plain; charset="us-ascii"', "quoted-printable", "\r\n".join(out)


def outlook_hard(lines: list[Pieces]) -> tuple[str, str, str]:
    """quoted-printable of text broken hard (CRLF) at the pieces."""
    return 'text/plain; charset="us-ascii"', "quoted-printable", "\r\n".join(
        _qp(p) for pieces in lines for p in pieces)


CLIENTS: dict[str, Callable[[list[Pieces]], tuple[str, str, str]]] = {
    "thunderbird": thunderbird, "apple-mail": apple_mail, "gmail-76": hard, "gmail-78": hard,
    "outlook-soft": outlook_soft, "outlook-hard": outlook_hard,
}
#: the break each client makes by itself, where the break plan asks for its natural width
WIDTHS = {"thunderbird": 72, "apple-mail": 72, "gmail-76": 76, "gmail-78": 78, "outlook-soft": 76, "outlook-hard": 76}


def raw_mail(sender: str, mid: str, header: list[str], orders: list[Pieces], client: str, *,
             sign_off: bool = True) -> bytes:
    """The mail `client` sends: the header lines, the order lines cut into `orders`' pieces, a
    sign-off (unless not `sign_off`) and a signature."""
    lines = [[h] for h in header] + orders + [[s] for s in SIGN_OFF[0 if sign_off else 1:]]
    content_type, encoding, body = CLIENTS[client](lines)
    head = (f"From: Ann Example <{sender}>\r\nTo: gm@pbem.example\r\nSubject: my orders\r\n"
            f"Message-ID: <{mid}>\r\nDate: Fri, 20 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: {content_type}\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n")
    return (head + body + "\r\n").encode("ascii")


def wrapped(lines: list[str], plan: str, client: str) -> list[Pieces]:
    cut = at_width(WIDTHS[client]) if plan == "width" else BREAKS[plan]
    return [cut(line) for line in lines]


# the games ----------------------------------------------------------------------------------

@dataclass
class Seat:
    m: Moderator
    name: str  # the game's
    seat: int
    address: str
    secret: str

    def engine_state(self) -> tuple[Any, Any]:
        game, _, state = self.m.game_state(self.name)
        return self.m.engine(game), state


@pytest.fixture
def moderator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Moderator:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    result = CliRunner().invoke(main, ["init", ".", "--address", "gm@pbem.example"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    config = tmp_path / "pbem.toml"  # one player sends many mails here
    config.write_text(config.read_text(encoding="utf-8").replace("max_replies_per_hour = 20", "max_replies_per_hour = 500"),
                      encoding="utf-8")
    # every turn waits for the GM, also in a game that resolves on receipt
    monkeypatch.setattr(Moderator, "resolve_on_receipt", lambda self, name: None)
    return Moderator(load_config(tmp_path / "pbem.toml"))


def new_game(m: Moderator, name: str, kind: str, options: tuple[str, ...] = ()) -> Seat:
    """A game of `kind` with people in its fewest seats (at least two), seed 11; the seat on move."""
    ruleset = find_game(kind).info.rulesets[0]
    seats = NAMES[:max(ruleset.min_players, 2)]
    m.new_game(name, game=kind, rules=ruleset.name, seed="11", deadline="7d", options=options,
               players=[PlayerSpec(n, f"{n.lower()}@example.org", f"{n[0] * 3}-{111 * (i + 1)}")
                        for i, n in enumerate(seats)])
    game, players, state = m.game_state(name)
    seat = m.engine(game).to_move(state)[0]
    player = next(p for p in players if p.seat == seat)
    return Seat(m, name, seat, player.email, player.secret)


def long_lines(seat: Seat) -> list[str]:
    """The order lines of the sheet, among the computer player's and a few random ones, that
    holds the longest line the game accepts: only accepted lines, in their order."""
    engine, state = seat.engine_state()
    rng = random.Random(7)
    texts = [engine.random_sheet(state, seat.seat, rng) for _ in range(12)]
    for level in engine.info.bot_levels:
        bot = engine.bot(level)
        if bot is not None:
            texts.append(bot.write(engine.view(state, Viewer(seat.seat)), LegacyChance("sheet", 1)))
    best: list[str] = []
    for text in texts:
        sheet = read_sheet(text)
        taken = {e.line for e in engine.parse(state, sheet, seat.seat).echo if isinstance(e, Accepted)}
        lines = [line.text for line in sheet.lines if line.number in taken]
        if max(map(len, lines), default=0) > max(map(len, best), default=0):
            best = lines
    return best


def in_force(seat: Seat) -> tuple[list[str], Any]:
    """The canonical lines and the orders of the seat's sheet in force, read as the turn reads it."""
    engine, state = seat.engine_state()
    with seat.m.store.session() as session:
        game = seat.m.store.game(session, seat.name)
        players = {p.seat: p for p in seat.m.store.players(session, game.id or 0)}
        sheet = seat.m.store.current_sheets(session, game.id or 0, game.turn)[players[seat.seat].id or 0]
    parsed = engine.read(state, read_sheet(sheet.text), seat.seat)
    assert not [e for e in parsed.echo if isinstance(e, Rejected)], parsed.echo
    return [e.canonical for e in parsed.echo if isinstance(e, Accepted)], parsed.orders


def last_ack(seat: Seat) -> str:
    with seat.m.store.session() as session:
        acks = [r for r in seat.m.store.mails(session) if r.kind == "ack" and r.recipient == seat.address]
    raw = seat.m.store.mail_bodies([acks[-1].id or 0])[acks[-1].id or 0]
    part = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def after_turn(engine: Any, state: Any, seat: int, orders: Any) -> str:
    """The position after the turn played with these orders for the seat (and none for the others)."""
    outcome = engine.resolve(state, {seat: orders}, LegacyChance("turn", 1))
    return json.dumps(engine.dump_state(outcome.state), sort_keys=True)


# every game, every mail program, every break ------------------------------------------------------

GAMES = [g.info.name for g in games()]


@pytest.mark.parametrize("kind", GAMES)
def test_a_wrapped_sheet_is_the_sheet_its_player_wrote(moderator: Moderator, kind: str) -> None:
    seat = new_game(moderator, "g", kind)
    engine, state = seat.engine_state()
    lines = long_lines(seat)
    assert lines, f"{kind}: no accepted line to wrap"
    sheet = engine.parse(state, read_sheet("\n".join(lines)), seat.seat)
    want = [e.canonical for e in sheet.echo if isinstance(e, Accepted)]
    want_after = after_turn(engine, state, seat.seat, sheet.orders)
    header = ["GAME g", f"SECRET {seat.secret}"]
    broken = 0
    for client in CLIENTS:
        for plan in BREAKS:
            orders = wrapped(lines, plan, client)
            broken += sum(len(p) > 1 for p in orders)
            mid = f"{client}-{plan}@example.org"
            result = moderator.ingest(raw_mail(seat.address, mid, header, orders, client), mid)
            assert (result.status, result.step) == ("accepted", "store-sheet"), (client, plan, result)
            got, got_orders = in_force(seat)
            assert got == want, (client, plan)
            assert after_turn(engine, state, seat.seat, got_orders) == want_after, (client, plan)
            ack = last_ack(seat)
            shown = [line.split(": ", 1)[1] for line in ack.splitlines() if line.startswith("  line ")]
            assert all(canonical in shown for canonical in want), (client, plan, ack)
            assert "REJECTED" not in ack, (client, plan, ack)
            ignored = ack.split("\nIGNORED\n", 1)[1].split("\n\n", 1)[0].splitlines() if "\nIGNORED\n" in ack else []
            assert [i.split(": ", 1)[1] for i in ignored] == [SIGN_OFF[0]], (client, plan, ack)
    assert broken, f"{kind}: no line was long enough to break"


# the fallback after ELSE is played ----------------------------------------------------------------

#: a long chain per built-in game whose first alternative cannot be played, and the option it needs
CHAINS = {
    "hare-tortoise": ("MOVE: TO 64 ELSE TO 63 ELSE IF CARROTS > 500 THEN NEXT CARROT ELSE IF SQUARE 0 IS FREE "
                      "THEN NEXT LETTUCE ELSE ADVANCE 3", ()),
    "card-race": ("PLAY 4 HARE ELSE PLAY 4 FOX ELSE PLAY 4 WOLF ELSE PLAY 4 LAMB ELSE PLAY 4 TORTOISE ELSE "
                  "PLAY 1 LAMB ELSE PLAY 1 FOX ELSE PLAY 1 WOLF ELSE PLAY 1 TORTOISE ELSE PLAY 1 HARE", ()),
    "badger-bunny": ("IF OPPONENT PASSED THEN PLAY LOWEST ELSE IF SERIES IS SINGLE AND LAST RANK <= 8 THEN "
                     "PASS ELSE PLAY LOWEST", ()),
}


def turn_of(m: Moderator, name: str) -> tuple[Any, str]:
    m.resolve(name, force=True)
    record = m.turn_record(name, 1)[2]
    return json.loads(record.after), record.resolutions


@pytest.mark.parametrize("kind", sorted(CHAINS))
def test_a_wrapped_chain_plays_its_fallback(moderator: Moderator, kind: str) -> None:
    """The same game three times over: the chain sent whole, the chain wrapped by each mail
    program before an ELSE and at its width, and its first alternative alone (what a reader
    that does not join lines takes). The first alternative cannot be played, so the wrapped
    chain must play as the whole one and not as its first part."""
    chain, options = CHAINS[kind]
    assert len(chain) > 80
    games_sent = {"whole": [[chain]], "cut": [[chain.split(" ELSE ")[0]]]}
    for client in CLIENTS:
        games_sent[f"{client}-else"] = wrapped([chain], "before-connective", client)
        games_sent[f"{client}-width"] = wrapped([chain], "width", client)
    turns = {}
    for name, orders in games_sent.items():
        seat = new_game(moderator, name, kind, options)
        client = name.rsplit("-", 1)[0] if name not in ("whole", "cut") else "gmail-78"
        mid = f"{name}@example.org"
        # no sign-off: a line after the chain would be numbered differently once the chain is wrapped
        result = moderator.ingest(raw_mail(seat.address, mid, [f"GAME {name}", f"SECRET {seat.secret}"], orders,
                                           client, sign_off=False), mid)
        assert result.status == "accepted", (name, result)
        turns[name] = turn_of(moderator, name)
    assert turns["cut"] != turns["whole"]  # the fallback matters
    for name, turn in turns.items():
        if name != "cut":
            assert turn == turns["whole"], name


def test_the_two_player_suggestion_is_read_whole_from_gmail(moderator: Moderator) -> None:
    """The two-player Hare & Tortoise computer player writes lines more than three times as long
    as Gmail's 78 columns: what SUGGEST answers, sent back from Gmail, is in force as written."""
    seat = new_game(moderator, "two", "hare-tortoise", ("two-player",))
    engine, state = seat.engine_state()
    bot = engine.bot("strong")
    assert bot is not None
    lines = bot.write(engine.view(state, Viewer(seat.seat)), LegacyChance("x", 1)).splitlines()
    assert max(map(len, lines)) > 3 * 78
    want = [e.canonical for e in engine.parse(state, read_sheet("\n".join(lines)), seat.seat).echo
            if isinstance(e, Accepted)]
    result = moderator.ingest(raw_mail(seat.address, "s@x", ["GAME two", f"SECRET {seat.secret}"],
                                       wrapped(lines, "width", "gmail-78"), "gmail-78"), "s@x")
    assert result.status == "accepted"
    assert in_force(seat)[0] == want


# the pieces ------------------------------------------------------------------------------------

def test_flowed_text_is_unwrapped_with_its_quotes_and_signature() -> None:
    body = ("MOVE: IF SQUARE 23 IS FREE THEN TO 23 \r\nELSE NEXT CARROT\r\n > 3 is stuffed\r\n"
            "> quoted and \r\n> flowed\r\n>> deeper \r\n> shallower\r\n-- \r\nAnn \r\nExample\r\n")
    raw = (b"From: ann@example.org\r\nTo: gm@pbem.example\r\nMessage-ID: <f@x>\r\nSubject: x\r\n"
           b"Content-Type: text/plain; charset=utf-8; format=flowed\r\n\r\n" + body.encode())
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert body_text(msg) == ("MOVE: IF SQUARE 23 IS FREE THEN TO 23 ELSE NEXT CARROT\n> 3 is stuffed\n"
                              "> quoted and flowed\n>> deeper \n> shallower\n-- \nAnn Example\n")
    assert extract_orders_text(raw).text == "MOVE: IF SQUARE 23 IS FREE THEN TO 23 ELSE NEXT CARROT\n> 3 is stuffed"


def test_delsp_deletes_the_space_the_mail_program_added() -> None:
    raw = (b"From: ann@example.org\r\nMessage-ID: <d@x>\r\nContent-Type: text/plain; format=flowed; delsp=yes\r\n\r\n"
           b"IF CARROTS > 40 THEN STAY GI \r\nVE ELSE  \r\nNEXT\r\n")
    assert extract_orders_text(raw).text == "IF CARROTS > 40 THEN STAY GIVE ELSE NEXT"


@pytest.mark.parametrize("kind", GAMES)
def test_lines_that_are_orders_of_their_own_stay_apart(moderator: Moderator, kind: str) -> None:
    """Every game's accepted lines, one after another and followed by prose that starts with a
    connective, are read line by line as before: nothing joins two orders, nor an order and a
    sign-off."""
    seat = new_game(moderator, "g", kind)
    engine, state = seat.engine_state()
    lines = long_lines(seat)
    text = "\n".join([*lines, "And thanks for the game!", "Or so I hope."])
    plain = engine.parse(state, read_sheet(text), seat.seat).echo
    read = engine.read(state, read_sheet(text), seat.seat).echo
    assert read == plain
    assert [e.text for e in read if isinstance(e, Ignored)] == ["And thanks for the game!", "Or so I hope."]


def _words_reader(calls: list[str]) -> Callable[[str], Reading]:
    """A small order language: `DO a`, `DO a ELSE b OR c` (a letter, then a connective and a letter
    as often as one likes) are orders; any other line starting with DO is an order that cannot be
    read (cut short, or mistyped); anything else is no order."""
    def read(text: str) -> Reading:
        calls.append(text)
        words = text.split()
        if words[0] != "DO":
            return Reading.OTHER
        rest = words[1:]
        letters, joins = rest[::2], rest[1::2]
        readable = len(rest) % 2 == 1 and all(len(w) == 1 and w.islower() for w in letters) and all(
            w in CONNECTIVES for w in joins)
        return Reading.ORDER if readable else Reading.BROKEN
    return read


def test_a_command_line_or_a_blank_line_ends_an_order_line() -> None:
    calls: list[str] = []
    sheet = read_sheet("DO a ELSE\nSTATUS\nb\nDO c ELSE\n\nd\nDO e ELSE\nf\nAnd thanks!\nDO g\nOR h\n")
    joined = join_wrapped(sheet, _words_reader(calls))
    assert [(line.number, line.text) for line in joined.lines] == [
        (1, "DO a ELSE"), (3, "b"), (4, "DO c ELSE"), (6, "d"), (7, "DO e ELSE f"), (9, "And thanks!"),
        (10, "DO g OR h")]


def test_joining_reads_a_bounded_number_of_characters() -> None:
    """A sheet of unreadable order lines and tails, every one tied to the next: the reader is
    asked about no more than JOIN_BUDGET times the sheet's characters, and no word is lost."""
    calls: list[str] = []
    text = "\n".join("DO X AND" if i % 2 else "tail OR" for i in range(MAX_LINES))
    sheet = read_sheet(text)
    joined = join_wrapped(sheet, _words_reader(calls))
    size = sum(len(line.text) for line in sheet.lines)
    assert sum(map(len, calls)) <= JOIN_BUDGET * size + MAX_JOINED
    assert " ".join(line.text for line in joined.lines) == " ".join(line.text for line in sheet.lines)
    assert all(len(line.text) <= MAX_JOINED for line in joined.lines)
