"""The players' mail commands through the real pipeline: only orders replace orders, one mail gets one answer."""

from __future__ import annotations

import email
import email.policy
import json
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.config import load_config
from pbem.games import find_game, games
from pbem.games.base import Viewer
from pbem.games.chance import LegacyChance
from pbem.moderator import Moderator

NAMES = ["Ann", "Bob", "Cyd", "Dot"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def client_mail(sender: str, body: str, *, mid: str, html: bool = False) -> bytes:
    """A mail as a mail program sends it: the player's text, a signature and the quoted report
    below; with `html`, multipart/alternative with an HTML version of the same text."""
    text = (f"{body.rstrip()}\n\n-- \n{sender.split('@')[0].title()} Example\nSent from my phone\n\n"
            "On Fri, 20 Nov 2026 at 09:00, pbem <gm@pbem.example> wrote:\n> Your orders for this turn:\n"
            "> MOVE 1: TO 5\n> SECRET A-B-C\n")
    msg = EmailMessage()
    msg["From"] = f"{sender.split('@')[0].title()} <{sender}>"
    msg["To"] = "gm@pbem.example"
    msg["Subject"] = "Re: your orders"
    msg["Message-ID"] = f"<{mid}>"
    msg["Date"] = "Fri, 20 Nov 2026 10:00:00 +0000"
    msg.set_content(text)
    if html:
        lines = "".join(f"<div>{line}</div>" for line in body.splitlines())
        msg.add_alternative(f"<html><body>{lines}<div>-- <br>Example</div><blockquote>Your orders: MOVE 1: TO 5"
                            "</blockquote></body></html>", subtype="html")
    return msg.as_bytes()


def outbox(root: Path) -> list[Path]:
    return sorted((root / "outbox").glob("*.eml"))


def text_of(path: Path) -> str:
    part = email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def answer_in(mails: list[Path]) -> str:
    """The text of the one answer among `mails`."""
    answers = [p for p in mails if "-answer-" in p.name]
    assert len(answers) == 1, [p.name for p in mails]
    return text_of(answers[0])


def subject_of(path: Path) -> str:
    return str(email.message_from_bytes(path.read_bytes(), policy=email.policy.default)["Subject"])


class Folder:
    """A GM's folder; `send` ingests a mail and returns what it wrote to the outbox."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.m = Moderator(load_config(root / "pbem.toml"))
        self.count = 0

    def send(self, raw: bytes) -> tuple[str, list[Path]]:
        before = {p.name for p in outbox(self.root)}
        self.count += 1
        path = self.root / f"in-{self.count}.eml"
        path.write_bytes(raw)
        out = ok(run("ingest", str(path))).output
        return out, [p for p in outbox(self.root) if p.name not in before]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Folder:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    ok(run("init", ".", "--address", "gm@pbem.example"))
    return Folder(tmp_path)


def new_game(name: str, kind: str) -> list[str]:
    """A game of `kind` with people in every seat (Ann, Bob, ...), seed 11; their addresses."""
    engine = find_game(kind)
    ruleset = engine.info.rulesets[0]
    seats = NAMES[:max(ruleset.min_players, 2)]
    args = ["new-game", name, "--game", kind, "--rules", ruleset.name, "--seed", "11", "--deadline", "7d"]
    for i, n in enumerate(seats, start=1):
        args += ["--player", f"{n}={n.lower()}@example.org", "--secret", f"{n}={n[0].upper() * 3}-{111 * i}"]
    ok(run(*args))
    return [f"{n.lower()}@example.org" for n in seats]


def real_sheet(f: Folder, name: str) -> tuple[str, str, str]:
    """(address, secret, order lines) of a seat on move, written by the game's computer player."""
    game, players, state = f.m.game_state(name)
    engine = f.m.engine(game)
    seat = engine.to_move(state)[0]
    player = next(p for p in players if p.seat == seat)
    bot = engine.bot(engine.info.bot_levels[0])
    assert bot is not None
    return player.email, player.secret, bot.write(engine.view(state, Viewer(seat)), LegacyChance("sheet", 1))


# only orders replace orders ---------------------------------------------------------------------

#: mails that hold no order line: commands, settings, greetings and sign-offs
NO_ORDERS = {
    "status-thanks": "STATUS\nThanks!",
    "history-signoff": "HISTORY\n\nBest regards,\nAnn",
    "timezone": "TIMEZONE Europe/Paris",
    "new-secret": "NEW SECRET",
    "standing": "STANDING",
}
CASES = [(g.info.name, key) for g in games() for key in NO_ORDERS]


@pytest.mark.parametrize(("kind", "variant"), CASES)
def test_a_mail_without_orders_leaves_the_sheet_in_force(folder: Folder, monkeypatch: pytest.MonkeyPatch, kind: str,
                                                         variant: str) -> None:
    """Two games alike (the same seed and seats) get the same real sheet; one then gets a mail
    without orders. Both turns resolve to the same position with the same sheet played."""
    # the turn waits for the GM, also in a game that resolves on receipt (the sheet would end it)
    monkeypatch.setattr(Moderator, "resolve_on_receipt", lambda self, name: None)
    new_game("control", kind)
    new_game("sent", kind)
    address, secret, orders = real_sheet(folder, "control")
    html = CASES.index((kind, variant)) % 2 == 1  # half of the mails come as multipart/alternative
    for name in ("control", "sent"):
        out, _ = folder.send(client_mail(address, f"GAME {name}\nSECRET {secret}\n{orders}", mid=f"{name}@x", html=html))
        assert "accepted" in out, out
    out, mails = folder.send(client_mail(address, f"GAME sent\nSECRET {secret}\n{NO_ORDERS[variant]}", mid="c@x",
                                         html=html))
    assert "answered" in out and "the sheet in force is unchanged" in out, out
    assert [p.name.split("-", 1)[1] for p in mails] == [f"answer-{address}.eml"]  # one mail, one answer
    answer = text_of(mails[0])
    assert "held no orders, so the sheet in force is unchanged" in answer
    assert "The sheet you sent for turn 1 stays in force" in answer
    records = {}
    for name in ("control", "sent"):
        folder.m.resolve(name, force=True)
        records[name] = folder.m.turn_record(name, 1)[2]
    assert json.loads(records["sent"].after) == json.loads(records["control"].after)
    assert records["sent"].resolutions == records["control"].resolutions
    who = next(n for n, text in json.loads(records["sent"].sheets).items() if text)
    played = json.loads(records["sent"].sheets)[who]
    assert played == json.loads(records["control"].sheets)[who].replace("GAME control", "GAME sent")
    assert orders.strip().splitlines()[0] in played


def test_what_a_mail_without_orders_did_is_kept_and_told(folder: Folder) -> None:
    new_game("race", "hare-tortoise")
    address, secret, orders = real_sheet(folder, "race")
    folder.send(client_mail(address, f"GAME race\nSECRET {secret}\n{orders}", mid="o@x"))
    _, mails = folder.send(client_mail(address, f"GAME race\nSECRET {secret}\nTIMEZONE Europe/Paris\nNEW SECRET\n"
                                       "STANDING\nHi GM,\nPLAI 5 please", mid="s@x"))
    assert [p.name.split("-", 1)[1] for p in mails] == [f"answer-{address}.eml"]
    answer = text_of(mails[0])
    _, players, _ = folder.m.game_state("race")
    ann = next(p for p in players if p.email == address)
    assert ann.timezone == "Europe/Paris" and ann.secret != secret and f"  {ann.secret}\n" in answer
    assert "STANDING: your sheet in force is now standing orders:" in answer
    assert "  line 6: Hi GM,\n  line 7: PLAI 5 please\n" in answer  # told line by line, not taken
    assert "The sheet you sent for turn 1 stays in force as standing orders." in answer
    assert folder.m.status("race").players[0].orders is not None


def test_a_sheet_of_mistyped_orders_is_a_sheet_and_each_line_is_rejected(folder: Folder) -> None:
    """A line that starts as an order of the game is an attempt at one: the mail is a sheet, and
    the acknowledgement rejects it line by line, as ever."""
    new_game("race", "hare-tortoise")
    address, secret, _ = real_sheet(folder, "race")
    out, mails = folder.send(client_mail(address, f"GAME race\nSECRET {secret}\nMOVE TO\nMOVE: TO 500\nThanks!",
                                         mid="t@x"))
    assert "accepted" in out and len(mails) == 1
    ack = text_of(mails[0])
    assert "the line ends too early: expected HOME or a number" in ack
    assert "square 500 is off the board (squares run from 0 to 64)" in ack


# RESEND never takes the orders down -------------------------------------------------------------

@pytest.mark.parametrize(("lines", "told"), [
    ("RESEND 1-2", "RESEND takes one turn number, like RESEND 1; not '1-2'."),
    ("RESEND 2026-12-01", "RESEND takes one turn number, like RESEND 1; not '2026-12-01'."),
    ("RESEND 1\nRESEND 01", "your report of turn 1 again"),
    ("RESEND 5\nRESEND 6", "turn 6 is not resolved: race has resolved turns 1 to 1."),
])
def test_a_bad_resend_is_one_answered_line_and_the_orders_are_taken(folder: Folder, lines: str, told: str) -> None:
    new_game("race", "hare-tortoise")
    folder.m.resolve("race", force=True)
    address, secret, orders = real_sheet(folder, "race")
    out, mails = folder.send(client_mail(address, f"GAME race\nSECRET {secret}\n{lines}\n{orders}", mid="r@x"))
    assert "accepted" in out, out
    kinds = sorted(p.name.split("-", 1)[1] for p in mails)
    assert kinds == [f"ack-{address}.eml", f"answer-{address}.eml"]
    answer = text_of(next(p for p in mails if "-answer-" in p.name))
    assert told in answer
    assert answer.count("your report of turn 1 again") <= 1  # RESEND 1 and RESEND 01: one report


def test_the_gm_resends_and_changes_secrets_twice_in_one_second(folder: Folder) -> None:
    new_game("race", "hare-tortoise")
    folder.m.resolve("race", force=True)
    before = len(outbox(folder.root))
    for _ in range(2):
        ok(run("resend", "race", "Ann"))
        ok(run("secret", "race", "Bob"))
    assert len(outbox(folder.root)) == before + 4


def test_a_clash_of_unique_keys_is_not_called_damage(folder: Folder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Should two commands ever make the same key, the GM is told so, not to restore a backup."""
    import pbem.toolbox

    new_game("race", "hare-tortoise")
    folder.m.resolve("race", force=True)
    monkeypatch.setattr(pbem.toolbox, "_once", lambda moment: "the-same")
    ok(run("resend", "race", "Ann"))
    result = CliRunner().invoke(main, ["resend", "race", "Ann"])
    assert result.exit_code == 1 and "damaged" not in result.output
    assert "this was done by another command at the same moment" in result.output


# one mail, one answer ---------------------------------------------------------------------------

def test_one_mail_gets_one_answer(folder: Folder) -> None:
    emails = new_game("race", "hare-tortoise")
    folder.m.resolve("race", force=True)
    folder.m.resolve("race", force=True)
    secret = "AAA-111"
    body = (f"GAME race\nSECRET {secret}\nHELP\nSTATUS\nHISTORY\nRESEND 1\nRESEND 2\nRESEND\nSUGGEST\nNEW SECRET\n"
            "TIMEZONE Europe/Paris\nVACATION 2026-12-01 2026-12-02\nPRESS\nHello all")
    assert len(body.encode()) < 334
    out, mails = folder.send(client_mail(emails[0], body, mid="many@x"))
    assert "answered" in out
    to_ann = [p for p in mails if p.name.endswith(f"-{emails[0]}.eml")]
    assert len(to_ann) == 1 and subject_of(to_ann[0]) == (
        "race: HELP, STATUS, HISTORY, RESEND 1, RESEND 2, SUGGEST, NEW SECRET, VACATION 2026-12-01 2026-12-02, "
        "PRESS, TIMEZONE Europe/Paris")
    answer = text_of(to_ann[0])
    assert answer.count("your report of turn") == 1
    assert "One report is sent again a mail (turn 1 is in this one); ask for turn 2 in another mail." in answer
    assert sorted(p.name.split("-", 1)[1] for p in mails if p not in to_ann) == [
        "gm-alert-gm@pbem.example.eml", f"press-{emails[1]}.eml"]


# two VACATION spans add up, PRESS carries words only ----------------------------------------

def test_two_vacation_spans_add_up(folder: Folder) -> None:
    emails = new_game("race", "hare-tortoise")
    ann = "GAME race\nSECRET AAA-111\n"
    _, mails = folder.send(client_mail(emails[0], ann + "VACATION 2026-11-20 2026-11-21", mid="v1@x"))
    assert "Vacation days used in race: 2 of 14." in answer_in(mails)
    folder.m.resolve("race", force=True)  # on 20 November: Ann is away, Bob is not
    _, mails = folder.send(client_mail(emails[0], ann + "VACATION 2026-11-25 2026-11-27", mid="v2@x"))
    history = ok(run("history", "race")).output  # the turn the first span excused stays excused
    assert "Ann: 0 missed turns\n" in history and "Bob: 1 missed turn (1)\n" in history
    assert "Your vacations: 2026-11-20 to 2026-11-21, 2026-11-25 to 2026-11-27." in answer_in(mails)
    assert "Vacation days used in race: 5 of 14." in answer_in(mails)
    _, mails = folder.send(client_mail(emails[0], ann + "VACATION 2026-11-26 2026-11-28", mid="v3@x"))
    assert "Vacation days used in race: 6 of 14." in answer_in(mails)  # the days already taken cost nothing
    moderator = Moderator(load_config(folder.root / "pbem.toml"), now=lambda: datetime(2026, 11, 21, 12,
                                                                                        tzinfo=timezone.utc))
    moderator.queue_reminders([timedelta(days=6, hours=12)])  # a span shorter than the turn: not beside its report
    reminded = sorted(p.name.split("-", 2)[2] for p in outbox(folder.root) if "-reminder-" in p.name)
    assert reminded == ["bob@example.org.eml"]


def test_press_carries_words_only(folder: Folder) -> None:
    emails = new_game("race", "hare-tortoise")
    secret = "AAA-111"
    hostile = ("Hi \x1b[31mall\x1b[0m\x07, \u202eevil\u202c deal?\x1b]0;owned\x07\nLine two: ça va — 5€ \U0001f642"
               "\u200b\x00\x9b2Jend")
    _, mails = folder.send(client_mail(emails[0], f"GAME race\nSECRET {secret}\nPRESS\n{hostile}", mid="p@x"))
    relayed = text_of(next(p for p in mails if "-press-" in p.name))
    assert "  Hi all, evil deal?\n  Line two: ça va — 5€ \U0001f642end\n" in relayed
    assert not any(ch in relayed for ch in "\x1b\x07\u202e\u202c\u200b\x00\x9b")


# RESEND gives the same report -------------------------------------------------------------------

def test_resend_gives_the_report_as_it_was_sent_with_the_gms_notes(folder: Folder) -> None:
    emails = new_game("race", "hare-tortoise")
    ok(run("edit", "race", "Ann", "carrots=40", "--reason", "a wrong sheet"))
    folder.m.resolve("race", force=True)
    original = text_of(next(p for p in outbox(folder.root) if p.name.endswith(f"report-{emails[0]}.eml")))
    assert "FROM THE GM" in original and "the GM set Ann's carrots to 40 (a wrong sheet)" in original
    _, mails = folder.send(client_mail(emails[0], "GAME race\nSECRET AAA-111\nRESEND 1", mid="again@x"))
    assert len(mails) == 1
    answer = text_of(mails[0])
    assert original.strip() in answer
