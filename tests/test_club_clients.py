"""The club as strangers, players and GMs meet it: mails as Gmail, Outlook and an iPhone send
them (quoted-printable, HTML beside the text, the earlier mail quoted below), every answer read
from the outbox; and the GM's club commands refusing what they cannot do."""

from __future__ import annotations

import email
import email.policy
import html
import re
from collections.abc import Callable
from email.message import EmailMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest
from sqlmodel import select

from pbem.club.rows import SignupRow, TournamentRow
from tests.test_club import GAME, Club, club, token  # noqa: F401  (club: the fixture desk uses)
from tests.test_mail_commands import ok, run, text_of


def gmail(sender: str, body: str, quoted: str, *, mid: str) -> bytes:
    """Gmail's reply: multipart/alternative, quoted-printable, the answer quoted below the text
    and in a blockquote of the HTML."""
    msg = MIMEMultipart("alternative")
    msg["From"], msg["To"], msg["Subject"] = f"Ann Example <{sender}>", "gm@pbem.example", "Re: club: JOIN"
    msg["Message-ID"], msg["Date"] = f"<{mid}@mail.gmail.com>", "Fri, 20 Nov 2026 10:00:00 +0000"
    below = "\n".join("> " + line for line in quoted.splitlines())
    text = MIMEText(f"{body}\n\nOn Fri, Nov 20, 2026 at 9:00 AM pbem <gm@pbem.example> wrote:\n{below}\n", "plain",
                    "utf-8")
    lines = "".join(f"<div>{html.escape(line) or '<br>'}</div>" for line in body.splitlines())
    page = MIMEText(f'<div dir="ltr">{lines}</div><blockquote class="gmail_quote">{html.escape(quoted)}</blockquote>',
                    "html", "utf-8")
    msg.attach(text)
    msg.attach(page)
    return msg.as_bytes()


def outlook(sender: str, body: str, quoted: str, *, mid: str) -> bytes:
    """Outlook's reply: the earlier mail below a "From: ... Sent: ..." block, its lines not marked."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"Bob Example <{sender}>", "gm@pbem.example", "RE: club: JOIN"
    msg["Message-ID"], msg["Date"] = f"<{mid}@outlook.com>", "Fri, 20 Nov 2026 10:00:00 +0000"
    msg.set_content(f"{body}\n\n________________________________\nFrom: pbem <gm@pbem.example>\n"
                    f"Sent: Friday, November 20, 2026 9:00 AM\nTo: {sender}\nSubject: club: JOIN\n\n{quoted}\n",
                    cte="quoted-printable")
    return msg.as_bytes()


def iphone(sender: str, body: str, quoted: str, *, mid: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"Cyd <{sender}>", "gm@pbem.example", "Re: club: JOIN"
    msg["Message-ID"], msg["Date"] = f"<{mid}@icloud.com>", "Fri, 20 Nov 2026 10:00:00 +0000"
    below = "\n".join("> " + line for line in quoted.splitlines())
    msg.set_content(f"{body}\n\nSent from my iPhone\n\n> On 20 Nov 2026, at 09:00, pbem <gm@pbem.example> wrote:\n"
                    f"> \n{below}\n", cte="quoted-printable")
    return msg.as_bytes()


@pytest.fixture
def desk(request: pytest.FixtureRequest) -> Club:
    """The club's folder of tests/test_club.py (its fixture `club`)."""
    found = request.getfixturevalue("club")
    assert isinstance(found, Club)
    return found


def send(desk: Club, raw: bytes) -> dict[str, list[Path]]:
    """Ingest a mail as the client wrote it: the new mails of the outbox, by recipient."""
    before = set((desk.root / "outbox").glob("*.eml"))
    result = desk.m.ingest(raw)
    assert result.status != "quarantined", result
    out: dict[str, list[Path]] = {}
    for path in sorted(set((desk.root / "outbox").glob("*.eml")) - before):
        out.setdefault(path.name.split("-", 2)[2].removesuffix(".eml"), []).append(path)
    return out


def parts(path: Path) -> list[str]:
    return [p.get_content_type() for p in email.message_from_bytes(path.read_bytes(), policy=email.policy.default).walk()]


@pytest.mark.parametrize("client", [gmail, outlook, iphone])
def test_a_reply_with_the_confirm_line_in_the_quote_only_confirms_nothing_and_says_where_it_goes(
        desk: Club, client: Callable[..., bytes]) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "3"))
    sender = "someone@example.net"
    asked = desk.answer(sender, "JOIN oak")
    assert "CONFIRM: to go ahead, reply with this line (from this address):\n\n  CONFIRM " in asked
    [refusal] = send(desk, client(sender, "Yes please!", asked, mid="r1"))[sender]
    assert ("Lines for the club (LIST, JOIN, CONFIRM, ...; HELP lists them) go at the top of a mail without GAME "
            "and SECRET lines: a line in the quoted text does not count.") in text_of(refusal)
    with desk.m.store.session() as session:
        assert session.exec(select(SignupRow)).all() == []  # "No thanks" with the quote would hold nothing either
    [done] = send(desk, client(sender, f"CONFIRM {token(asked)}", asked, mid="r2"))[sender]
    assert "you have a seat in oak." in text_of(done) and "1 of 3 seats are taken" in text_of(done)


@pytest.mark.parametrize("kind", ["card-race", "badger-bunny", GAME])
def test_an_observer_gets_every_line_of_the_public_page_of_a_turn_and_no_orders_calendar(desk: Club, kind: str) -> None:
    ok(run("open", "elm", "--game", kind, "--seats", "2", "--deadline", "3d"))
    desk.join("ann@example.org", "elm")
    watch = desk.answer("dot@example.org", "OBSERVE elm")
    desk.send("dot@example.org", f"CONFIRM {token(watch)}")
    desk.join("bob@example.org", "elm")
    before = set((desk.root / "outbox").glob("*.eml"))
    desk.m.resolve("elm", force=True)
    [notice] = [p for p in set((desk.root / "outbox").glob("*.eml")) - before if "dot@example.org" in p.name]
    assert parts(notice) == ["text/plain"]  # an observer sends no orders: no "orders due" in the calendar
    text = text_of(notice)
    game, _, _ = desk.m.game_state("elm")
    assert f"Turn 2 is due {game.deadline:%Y-%m-%d %H:%M} UTC.\n\nUNOBSERVE elm" in text
    happened = text.split("What happened:\n", 1)[1].split("\n\nThe position:", 1)[0].splitlines()
    ok(run("archive", str(desk.root / "site")))
    page = html.unescape(re.sub(r"<[^>]+>", "\n", (desk.root / "site" / "elm" / "turn-1.html").read_text()))
    shown = [line.strip() for line in page.splitlines() if line.strip()]
    assert happened and all(line.strip() in shown for line in happened)
    events = shown[shown.index("What happened") + 1:shown.index("Orders")]
    assert [line.strip() for line in happened] == events  # the page's account whole, and nothing more


def test_a_takeover_welcome_names_the_current_turn_and_a_resigned_seat_its_computer(desk: Club) -> None:
    ok(run("open", "fir", "--game", GAME, "--seats", "2", "--deadline", "7d"))
    desk.join("ann@example.org", "fir")
    desk.join("bob@example.org", "fir")
    desk.m.resolve("fir", force=True)
    out = ok(run("replace", "fir", "Ann", "--standby")).output
    assert out == ("Ann of fir is offered to the standby pool: the first TAKEOVER by mail gets it; nobody is in the "
                   "pool yet (STANDBY by mail puts people there), so nobody was told\n")
    desk.send("cyd@example.org", f"CONFIRM {token(desk.answer('cyd@example.org', f'STANDBY {GAME}'))}")
    taken = desk.send("cyd@example.org", "TAKEOVER fir Ann")
    [welcome] = [t for t in taken["cyd@example.org"] if t.startswith("welcome:")]
    assert "TURN 2\n" in welcome and "Deadline for turn 2: " in welcome and "Deadline for turn 1" not in welcome
    resigned = desk.send("bob@example.org", f"CONFIRM {token(desk.answer('bob@example.org', 'RESIGN fir'))}")
    [news] = resigned["cyd@example.org"]
    assert "Bob is now played by a computer player, from turn 2." in news


def test_join_and_leave_say_why_a_game_takes_no_one(desk: Club) -> None:
    ok(run("open", "ash", "--game", GAME, "--seats", "2"))
    ok(run("open", "elm", "--game", GAME, "--seats", "2"))
    late = desk.answer("cyd@example.org", "JOIN ash")  # asked while a seat was free
    desk.join("ann@example.org", "ash")
    desk.join("bob@example.org", "ash")
    assert "Cyd, not done:\n\nash has started, its seats are all taken; LIST shows the games still open." \
        in desk.answer("cyd@example.org", f"CONFIRM {token(late)}")
    ok(run("sign-up", "elm", "--close"))
    assert "the GM closed the sign-up of elm; LIST shows the games still open" \
        in desk.answer("cyd@example.org", "LEAVE elm")
    watched = desk.answer("cyd@example.org", "OBSERVE nosuch")
    assert "no game called 'nosuch' is running or open for sign-up here; LIST shows the open games" in watched


def test_words_longer_than_a_game_name_are_no_club_lines(desk: Club) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "2"))
    answer = desk.answer("eve@example.net", f"OBSERVE {'x' * 65}\nLIST")
    assert "x" * 65 not in answer and answer.startswith("answer:Eve, the games open for sign-up:")
    refused = run("new-game", "g" * 65, "--game", GAME, "--player", "A=a@x.org", "--player", "B=b@x.org")
    assert refused.exit_code == 1 and f"game name {'g' * 65!r} has 65 characters; at most 64, please" in refused.output


def test_the_gms_typos_are_refused_with_how_to_fix_them_and_nothing_kept(desk: Club) -> None:
    def refused(*args: str) -> str:
        result = run(*args)
        assert result.exit_code == 1, result.output
        return result.output

    assert "game name 'oak tree': use letters, digits" in refused("open", "oak tree", "--game", GAME, "--seats", "2")
    assert ("--start 2026-11-19 09:00: that moment has passed (it is 2026-11-20 09:00 UTC now); give a later one, or "
            "--start when-full") in refused("open", "oak", "--game", GAME, "--seats", "2", "--start", "2026-11-19 09:00")
    assert "no game called 'hare-tortise'; known games:" in refused("open", "oak", "--game", "hare-tortise", "--seats", "2")
    assert "no game called 'oak' is open for sign-up" in refused("sign-up", "oak", "--close")
    ok(run("new-game", "elm", "--game", GAME, "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org"))
    assert "elm has no seat 'Cyd'; its seats: Ann, Bob" in refused("replace", "elm", "Cyd", "--standby")
    entrants = ["--entrant", "A=a@example.org", "--entrant", "B=b@example.org"]
    assert "tournament name 'spring cup': its games are called spring cup-r1-t1" in refused(
        "tournament", "spring cup", "--game", "badger-bunny", "--format", "swiss", *entrants)
    assert "two entrants have the same address; each person enters once" in refused(
        "tournament", "cup", "--game", "badger-bunny", "--format", "swiss", "--entrant", "A=a@example.org",
        "--entrant", "B=A@example.org")
    assert "player name 'A-1': use letters and digits only" in refused(
        "tournament", "cup", "--game", "badger-bunny", "--format", "swiss", "--entrant", "A-1=a@example.org",
        "--entrant", "B=b@example.org")
    assert "'3x' is not a date and time" in refused(
        "tournament", "cup", "--game", "badger-bunny", "--format", "swiss", *entrants, "--deadline", "3x")
    with desk.m.store.session() as session:
        assert session.exec(select(TournamentRow)).all() == []  # a refused tournament leaves nothing behind


def test_club_lines_in_a_games_mail_are_told_where_they_go(desk: Club) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "2"))
    desk.join("ann@example.org", "oak")
    desk.join("bob@example.org", "oak")
    _, players, _ = desk.m.game_state("oak")
    ann = next(p for p in players if p.name == "Ann")
    head = f"GAME oak\nSECRET {ann.secret}\n"
    where = "lines for the club go in a mail of their own, without GAME and SECRET lines."
    acked = desk.answer("ann@example.org", head + "MOVE: NEXT\nRESIGN oak")
    warnings = acked.split("WARNINGS (nothing was rejected for them)\n", 1)[1].split("\n\n", 1)[0]
    assert f"  RESIGN oak: {where}" in warnings.splitlines()
    told = desk.answer("ann@example.org", head + "STATUS\nJOIN elm")  # STATUS: the game's own
    assert f"  line 4: JOIN elm\nJOIN elm: {where}" in told


def test_the_sign_up_of_a_running_game_is_over(desk: Club) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "2"))
    desk.join("ann@example.org", "oak")
    desk.join("bob@example.org", "oak")
    refused = run("sign-up", "oak", "--close")
    assert refused.exit_code == 1 and "oak is running: its sign-up is over" in refused.output


def test_a_name_with_accents_keeps_its_letters(desk: Club) -> None:
    ok(run("open", "oak", "--game", GAME, "--seats", "3"))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "José Núñez <jose@example.es>", "gm@pbem.example", "club"
    msg["Message-ID"], msg["Date"] = "<j1@example.es>", "Fri, 20 Nov 2026 10:00:00 +0000"
    msg.set_content("JOIN oak\n\nSaludos,\nJosé\n", cte="quoted-printable")
    [asked] = send(desk, msg.as_bytes())["jose@example.es"]
    assert text_of(asked).startswith("Jose-Nunez, your mail is answered line by line:\n\nJOIN oak: a seat in oak")
    assert str(email.message_from_bytes(asked.read_bytes(), policy=email.policy.default)["To"]) \
        == "Jose-Nunez <jose@example.es>"
    joined = desk.send("jose@example.es", f"CONFIRM {token(text_of(asked))}")
    assert "You play as JoseNunez; 1 of 3 seats are taken." in joined["jose@example.es"][0]


@pytest.mark.parametrize(("kind", "word"), [("card-race", "Next"), ("badger-bunny", "Pass"), (GAME, "Next")])
def test_display_names_of_two_words_or_a_word_of_the_orders_still_start_the_game(desk: Club, kind: str,
                                                                                  word: str) -> None:
    ok(run("open", "oak", "--game", kind, "--seats", "2"))
    seats, mails = [], {}
    for sender, name in [("ann@example.org", "Ann Example"), ("w@example.org", word)]:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = f"{name} <{sender}>", "gm@pbem.example", "join"
        msg["Message-ID"], msg["Date"] = f"<{sender}>", "Fri, 20 Nov 2026 10:00:00 +0000"
        msg.set_content("JOIN oak\n")
        [asked] = send(desk, msg.as_bytes())[sender]
        mails = desk.send(sender, f"CONFIRM {token(text_of(asked))}")
        seats.append(re.search(r"You play as (\w+)", mails[sender][0]).group(1))  # type: ignore[union-attr]
    assert seats[0] == "AnnExample"
    _, players, _ = desk.m.game_state("oak")  # started: every name is a seat the game takes
    assert sorted(p.name for p in players) == sorted(seats)
    assert all(any(t.startswith("welcome:") for t in mails[a]) for a in ("ann@example.org", "w@example.org"))
