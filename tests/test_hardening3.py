"""Hardening, round three: reply tokens, bounded answers, real bounces, Message-IDs, clear errors.

Each test is one class of issue 22, run through the real pipeline on the embedded default: the mail
as a client sends it goes in, the answer is read from the outbox.
"""

from __future__ import annotations

import ast
import email
import email.policy
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config
from pbem.moderator import Moderator
from pbem.tokens import reply_token
from tests.test_moderator import ok, order_mail, outbox, run, text_of

SECRETS = {"ann@example.org": "AAA-111", "bob@example.net": "BBB-222", "cyd@example.com": "CCC-333"}
REPO = Path(__file__).resolve().parent.parent


def moderator(root: Path) -> Moderator:
    return Moderator(load_config(root / "pbem.toml"))


def configure(root: Path, **keys: int) -> None:
    """Set [moderator] keys in the GM's pbem.toml."""
    path = root / "pbem.toml"
    text = path.read_text()
    for key, value in keys.items():
        text, found = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", text)
        if not found:
            text = text.replace("[moderator]\n", f"[moderator]\n{key} = {value}\n", 1)
    path.write_text(text)


def send(root: Path, sender: str, body: str, mid: str) -> tuple[str, list[Path]]:
    """One mail in, as `pbem ingest` takes it: (what intake said, the mails it wrote)."""
    before = {p.name for p in outbox(root)}
    result = moderator(root).ingest(order_mail(sender, body, mid=mid), mid)
    return f"{result.status}: {result.reason}", [p for p in outbox(root) if p.name not in before]


def kinds(mails: list[Path]) -> list[str]:
    return [p.name.split("-", 1)[1].rsplit("-", 1)[0] if "gm-alert" not in p.name else "gm-alert" for p in mails]


def gm_alerts(root: Path) -> list[str]:
    return [str(email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Subject"])
            for p in outbox(root) if "gm-alert" in p.name]


def token(sender: str, turn: int) -> str:
    return reply_token(SECRETS[sender], "race", turn)


# 1. a reply token opens its own turn only ------------------------------------------------------

LASTING = {
    "STANDING": "STANDING\nMOVE: NEXT CARROT\n",
    "VACATION": "VACATION 2026-11-21 2026-11-30\n",
    "PRESS": "PRESS\nHello from a stranger\n",
    "NEW SECRET": "NEW SECRET\n",
    "TIMEZONE": "TIMEZONE Europe/London\nMOVE: TO 2\n",
}


@pytest.mark.parametrize("command", list(LASTING))
def test_a_reply_token_cannot_set_what_outlives_its_turn(gm: Path, command: str) -> None:
    out, mails = send(gm, "ann@example.org", f"GAME race\nSECRET {token('ann@example.org', 1)}\n{LASTING[command]}",
                      "t1@x")
    assert out.startswith("refused") and "need" in out and "your secret" in out, out
    assert [p.name for p in mails] == [mails[0].name] and "refusal" in mails[0].name  # no press, no secret mail
    assert "SEND SECRET" in text_of(mails[0])
    status = ok(run("status", "race")).output
    assert "standing" not in status and "away" not in status
    # nothing changed: the master secret still works, and with it the same lines are taken
    out, mails = send(gm, "ann@example.org", f"GAME race\nSECRET AAA-111\n{LASTING[command]}", "t2@x")
    assert not out.startswith("refused"), out


def test_a_reply_token_still_carries_its_turns_orders(gm: Path) -> None:
    out, mails = send(gm, "ann@example.org", f"GAME race\nSECRET {token('ann@example.org', 1)}\nMOVE: TO 2\n", "t3@x")
    assert out.startswith("accepted"), out
    assert kinds(mails) == ["ack"]


def test_an_expired_token_sets_nothing_that_plays_later(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))
    out, mails = send(gm, "ann@example.org", f"GAME race\nSECRET {token('ann@example.org', 1)}\nSTANDING\nMOVE: NEXT\n",
                      "e1@x")
    assert out.startswith("refused"), out
    ok(run("resolve-turn", "race", "--force"))
    record = moderator(gm).turn_record("race", 2)[2]
    assert '"Ann": null' in record.sheets or '"Ann":null' in record.sheets


# 2. an honest stale token is not an attack ------------------------------------------------------

def test_a_stale_token_of_hers_gets_a_plain_answer_and_never_alerts_the_gm(gm: Path) -> None:
    ok(run("resolve-turn", "race", "--force"))
    ok(run("resolve-turn", "race", "--force"))
    for n, turn in enumerate((1, 2, 1, 2, 2)):
        out, mails = send(gm, "bob@example.net", f"GAME race\nTURN {turn}\nSECRET {token('bob@example.net', turn)}\n"
                          "MOVE: NEXT\n", f"s{n}@x")
        assert out.startswith("refused"), out
        text = text_of(mails[0])
        assert f"reply token for turn {turn}" in text and "current turn is 3" in text
        assert "latest report" in text and "token for turn 3" in text
        assert "is not yours" not in text
    assert gm_alerts(gm) == []
    # her current token is taken as ever
    out, _ = send(gm, "bob@example.net", f"GAME race\nSECRET {token('bob@example.net', 3)}\nMOVE: NEXT\n", "s9@x")
    assert out.startswith("accepted"), out


def test_wrong_secrets_still_alert_the_gm_with_a_command_that_works(gm: Path) -> None:
    for n in range(3):
        send(gm, "bob@example.net", f"GAME race\nSECRET {token('ann@example.org', 1)}\nMOVE: NEXT\n", f"w{n}@x")
    assert gm_alerts(gm) == ["race: 3 mails with a wrong secret in Bob's name"]
    alert = next(p for p in outbox(gm) if "gm-alert" in p.name)
    command = re.search(r"`(pbem secret [^`]+)`", text_of(alert))
    assert command is not None
    ok(run(*shlex.split(command.group(1))[1:]))


def test_a_missing_secret_is_no_attack_either(gm: Path) -> None:
    for n in range(4):
        send(gm, "bob@example.net", "GAME race\nMOVE: NEXT\n", f"m{n}@x")
    assert gm_alerts(gm) == []


# 3 and 7. answers that cost are bounded -------------------------------------------------------------

def test_send_secret_counts_in_the_reply_limit_and_the_gm_hears_of_a_flood_once(gm: Path) -> None:
    configure(gm, max_replies_per_hour=3)
    sent = []
    for n in range(8):
        _, mails = send(gm, "ann@example.org", "GAME race\nSEND SECRET\n", f"f{n}@x")
        sent += mails
    assert kinds(sent).count("secret") == 3
    assert gm_alerts(gm) == ["race: more mail in Ann's name than pbem answers"]


@pytest.mark.parametrize(("command", "key"), [("SUGGEST", "suggest_per_day"), ("PREVIEW", "preview_per_day")])
def test_costly_commands_have_a_daily_budget(gm: Path, command: str, key: str) -> None:
    configure(gm, **{key: 2})
    answers = []
    for n in range(3):
        out, mails = send(gm, "ann@example.org", f"GAME race\nSECRET AAA-111\n{command}\nMOVE: TO 2\n", f"b{n}@x")
        answers.append((out, mails))
    assert all(not out.startswith("refused") for out, _ in answers[:2]), answers
    out, mails = answers[2]
    assert out.startswith("refused") and "2 a day" in out, out
    assert kinds(mails) == ["refusal"] and "Try again tomorrow" in text_of(mails[0])
    # the budget is the player's own: Bob still has his
    out, _ = send(gm, "bob@example.net", f"GAME race\nSECRET BBB-222\n{command}\nMOVE: TO 2\n", "bb@x")
    assert not out.startswith("refused"), out


@pytest.mark.parametrize("command", ["SUGGEST", "PREVIEW"])
def test_costly_commands_count_in_the_reply_limit(gm: Path, command: str) -> None:
    configure(gm, max_replies_per_hour=2)
    sent = []
    for n in range(5):
        _, mails = send(gm, "ann@example.org", f"GAME race\nSECRET AAA-111\n{command}\nMOVE: TO 2\n", f"r{n}@x")
        sent += mails
    assert len([k for k in kinds(sent) if k != "gm-alert"]) == 2
    assert gm_alerts(gm) == ["race: more mail in Ann's name than pbem answers"]


# 4. only a real bounce is a bounce ----------------------------------------------------------------

def dsn(quoted: str, *addresses: str, action: str = "failed", status: str = "5.1.1") -> bytes:
    blocks = "".join(f"Final-Recipient: rfc822; {a}\nAction: {action}\nStatus: {status}\n"
                     f"Diagnostic-Code: smtp; 550 {status} User unknown\n\n" for a in addresses)
    return (
        "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)\nTo: gm@pbem.example\n"
        f"Subject: Undelivered Mail Returned to Sender\nMessage-ID: <dsn{abs(hash((quoted, addresses)))}@mx>\n"
        "Date: Fri, 20 Nov 2026 10:00:00 +0000\nAuto-Submitted: auto-replied\nMIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="BB"\n\n'
        "--BB\nContent-Type: text/plain\n\nYour mail could not be delivered.\n\n"
        "--BB\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.net\n\n"
        f"{blocks}"
        "--BB\nContent-Type: text/rfc822-headers\n\n"
        f"From: pbem <gm@pbem.example>\nSubject: something\nMessage-ID: {quoted}\n\n--BB--\n"
    ).encode()


def welcome_of(root: Path, address: str) -> str:
    path = next(p for p in outbox(root) if p.name.endswith(f"welcome-{address}.eml"))
    return str(email.message_from_bytes(path.read_bytes(), policy=email.policy.default)["Message-ID"])


@pytest.mark.parametrize("quoted", ["<nothing-we-sent@x>", "", "<race.welcome.Bob.000000000000@pbem.example>"])
def test_a_report_that_quotes_no_mail_of_ours_is_no_news(gm: Path, quoted: str) -> None:
    m = moderator(gm)
    before = len(outbox(gm))
    everyone = ("ann@example.org", "bob@example.net", "cyd@example.com")
    result = m.ingest(dsn(quoted or "<>", *everyone), "dsn")
    assert result.status == "ignored"
    assert len(outbox(gm)) == before
    assert "bounces" not in ok(run("status", "race")).output


def test_a_report_on_our_mail_names_only_that_mails_recipient(gm: Path) -> None:
    m = moderator(gm)
    result = m.ingest(dsn(welcome_of(gm, "bob@example.net"), "ann@example.org", "cyd@example.com"), "dsn")
    assert result.status == "ignored"
    assert gm_alerts(gm) == [] and "bounces" not in ok(run("status", "race")).output


def test_the_same_address_twice_and_many_reports_give_one_true_alert(gm: Path) -> None:
    m = moderator(gm)
    bob = welcome_of(gm, "bob@example.net")
    result = m.ingest(dsn(bob, "bob@example.net", "bob@example.net", "BOB@example.net"), "dsn")
    assert result.status == "ignored", result
    for n in range(5):  # the same mail reported again and again: still one alert today
        m.ingest(dsn(bob, "bob@example.net", f"x{n}@example.org"), f"dsn{n}")
    assert gm_alerts(gm) == ["Mail to Bob (bob@example.net) bounced"]
    alert = next(p for p in outbox(gm) if "gm-alert" in p.name)
    text = text_of(alert)
    assert "still sends" in text and "no reports" not in text
    assert "mail to Bob <bob@example.net> bounces" in ok(run("status", "race")).output
    # and it is true: Bob's next report still goes out
    ok(run("resolve-turn", "race", "--force"))
    assert any(p.name.endswith("report-bob@example.net.eml") for p in outbox(gm))


def test_a_delay_is_no_bounce(gm: Path) -> None:
    m = moderator(gm)
    m.ingest(dsn(welcome_of(gm, "bob@example.net"), "bob@example.net", action="delayed", status="4.4.1"), "dsn")
    assert gm_alerts(gm) == [] and "bounces" not in ok(run("status", "race")).output


# 6. Message-IDs are unique by construction ----------------------------------------------------------

@pytest.mark.parametrize(("game", "seats"), [
    ("race2", ["GM", "Bob"]),
    ("gm", ["GM", "report"]),
    ("a.b", ["GM", "Report"]),
])
def test_no_seat_name_gives_a_mail_the_id_of_another(gm: Path, game: str, seats: list[str]) -> None:
    args = ["new-game", game, "--seed", "3", "--deadline", "7d"]
    for n, seat in enumerate(seats):
        args += ["--player", f"{seat}=p{n}@{game.replace('.', '-')}.example"]
    ok(run(*args))
    for _ in range(3):
        ok(run("resolve-turn", game, "--force"))
    ids = [str(email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Message-ID"])
           for p in outbox(gm)]
    assert len(ids) == len(set(ids))
    subjects = [str(email.message_from_bytes(p.read_bytes(), policy=email.policy.default)["Subject"])
                for p in outbox(gm) if "gm-report" in p.name]
    assert len([s for s in subjects if s.startswith(f"{game}: turn")]) == 3  # every turn resolved, the GM told


# 14. clear errors, not tracebacks --------------------------------------------------------------------

def one_line_error(result: object) -> str:
    output = str(getattr(result, "output", ""))
    assert getattr(result, "exit_code", 0) != 0, output
    assert "Traceback" not in output and getattr(result, "exception", None) is None or isinstance(
        getattr(result, "exception", None), SystemExit), output
    errors = [line for line in output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, output
    return errors[0]


def cli(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("seed", ["9" * 400, "   ", "tab\there"])
def test_a_seed_the_store_cannot_keep_is_one_line(gm: Path, seed: str) -> None:
    line = one_line_error(cli("new-game", "big", "--seed", seed, "--player", "A=a@x.example", "--player",
                              "B=b@x.example"))
    assert "--seed" in line and ("printable" in line or "empty" in line)


@pytest.mark.parametrize("seed", ["12345678901234567890123", "-1", "1e9", "9" * 256])
def test_any_short_text_is_a_seed(gm: Path, seed: str) -> None:
    """A seed is the key of the game's chance, as text: a long number or a word keys it as well."""
    result = cli("new-game", "big", "--seed", seed, "--player", "A=a@x.example", "--player", "B=b@x.example")
    assert getattr(result, "exit_code", 1) == 0, getattr(result, "output", "")


@pytest.mark.parametrize("option", [["show", "race", "--turn"], ["board", "race", "--turn"], ["quarantine", "retry"]])
def test_any_number_option_beyond_the_store_is_one_line(gm: Path, option: list[str]) -> None:
    assert "whole number" in one_line_error(cli(*option, "1" * 30))


@pytest.mark.parametrize(("url", "says"), [
    ("mysql://u:hunter2@db/pbem", "not installed"),
    ("postgresql+pg8000://u:hunter2@db/pbem", "not installed"),
    ("nosuchdb://u:hunter2@db/pbem", "cannot use"),
    ("not a url", "not a database URL"),
    ("hunter2", "not a database URL"),
])
def test_a_database_url_pbem_cannot_open_is_one_line(gm: Path, url: str, says: str) -> None:
    path = gm / "pbem.toml"
    path.write_text(re.sub(r'(?m)^url = .*$', f'url = "{url}"', path.read_text()))
    line = one_line_error(cli("games"))
    assert says in line and "hunter2" not in line and "write it like" in line


def test_config_naming_the_database_is_one_line(gm: Path) -> None:
    line = one_line_error(cli("games", "--config", str(gm / "pbem.sqlite")))
    assert "SQLite database" in line and "pbem.toml" in line
    (gm / "binary").write_bytes(b"\xff\xfe\x00garbage")
    assert "not a text file" in one_line_error(cli("games", "--config", str(gm / "binary")))


# 15. every command pbem tells someone to run exists -------------------------------------------------

#: `pbem` and a command word, then its words: plain, or quoted ('every Friday 18:00'); a sentence's
#: own punctuation (`:`, `,`, `;`, brackets, a tag) ends it
_COMMAND = re.compile(r"(?<![\w/.-])pbem ([a-z][a-z-]*)((?:[ ]+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s`'\"<>;,():%]+))*)")


def _strings(path: Path) -> Iterator[str]:
    """Every string a module holds (f-strings with their fields as X), or a template's text."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        yield re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "X", text)
        return
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value
        elif isinstance(node, ast.JoinedStr):
            yield "".join(str(v.value) if isinstance(v, ast.Constant) else "X" for v in node.values)


def told_commands() -> list[tuple[str, str]]:
    """(where, the command) for each `pbem …` that a message, help text or template names."""
    commands = set(main.commands)
    found = []
    for root in (REPO / "pbem", REPO / "templates"):
        for path in sorted(root.rglob("*")):
            if not path.is_file() or path.suffix not in (".py", ".j2", ".txt", ".html"):
                continue
            for string in _strings(path):
                for match in _COMMAND.finditer(string):
                    quoted = match.start() > 0 and string[match.start() - 1] in "`'\""
                    if match.group(1) in commands or quoted:
                        found.append((str(path.relative_to(REPO)), match.group(0).strip().rstrip(".")))
    return sorted(set(found))


def test_the_messages_name_commands_at_all() -> None:
    told = [c for _, c in told_commands()]
    assert len(told) > 30 and "pbem secret X X" in told  # the wrong-secret alert's, among the rest


@pytest.mark.parametrize(("where", "command"), told_commands())
def test_every_command_pbem_tells_someone_to_run_exists(where: str, command: str) -> None:
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    result = CliRunner().invoke(main, [*words[1:], "--help"])
    assert result.exit_code == 0, f"{where}: `{command}` does not run: {result.output}"


# 11 and 12. the archive: any legal name, memory bounded by a turn, whole pages ------------------------

SITE_NAMES = ["feed.atom", "index.html", "style.css", "Race", "RACE", "game.json"]


def test_any_legal_game_name_has_a_folder_of_its_own(gm: Path) -> None:
    for n, name in enumerate(SITE_NAMES):
        ok(run("new-game", name, "--seed", "3", "--deadline", "7d", "--player", f"Ann=a{n}@example.org",
               "--player", f"Bob=b{n}@example.org"))
        ok(run("resolve-turn", name, "--force"))
    ok(run("resolve-turn", "race", "--force"))
    out = gm / "site"
    result = ok(run("archive", str(out)))
    assert "Traceback" not in result.output
    index = (out / "index.html").read_text()
    assert "Game archive" in index and (out / "feed.atom").read_text().count("<title>Game archive</title>") == 1
    assert (out / "style.css").read_bytes() == (REPO / "templates" / "archive" / "style.css").read_bytes()
    folders = [p.name for p in out.iterdir() if p.is_dir() and p.name != "~rules"]  # ~rules: the games' rules
    assert len(folders) == len(SITE_NAMES) + 1
    assert len({f.casefold() for f in folders}) == len(folders)  # apart where the file system ignores case
    for name in [*SITE_NAMES, "race"]:
        href = re.search(rf'href="([^"]+/index\.html)">{re.escape(name)}<', index)
        assert href is not None, name
        page = (out / href.group(1)).read_text()
        assert f"<h1>{name}" in page or f">{name}<" in page
        assert (out / href.group(1)).parent.joinpath("turn-1.html").is_file()
    again = ok(run("archive", str(out))).output
    assert " 0 written" in again


def long_game(root: Path, turns: int) -> None:
    """The game `long` of `turns` resolved turns (no mail drawn: the archive reads none)."""
    from datetime import datetime, timedelta, timezone

    from pbem.moderator import PlayerSpec

    moment = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    m = Moderator(load_config(root / "pbem.toml"), now=lambda: moment[0])
    m.new_game("long", game="hare-tortoise", rules=None, seed=5, deadline="7d",
               players=[PlayerSpec("Ann", "ann@long.example", "AAA-111"), PlayerSpec("Bob", "bob@long.example", "BBB-222")])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Moderator, "render_turn", lambda *_: [])
        for _ in range(turns):
            moment[0] += timedelta(hours=1)
            m.resolve("long", force=True)


def whole(path: Path) -> bool:
    """Whether a file of the site is whole: it ends as its kind of file ends."""
    data = path.read_bytes()
    if path.suffix == ".json":
        import json

        try:
            json.loads(data)
        except ValueError:
            return False
        return True
    ends = {".html": b"</html>\n", ".atom": b"</feed>\n", ".svg": b"</svg>", ".css": b"}\n"}
    return data.rstrip().endswith(ends[path.suffix].rstrip()) if path.suffix in ends else True


@pytest.fixture
def long_site(gm: Path) -> Path:
    long_game(gm, 55)
    return gm


def test_each_games_feed_keeps_the_latest_fifty_turns(long_site: Path) -> None:
    out = long_site / "site"
    ok(run("archive", str(out)))
    feed = (out / "long" / "feed.atom").read_text()
    assert feed.count("<entry>") == 50 and "turn 55 resolved" in feed and "turn 5 resolved" not in feed
    assert (out / "feed.atom").read_text().count("<entry>") == 50
    import json

    data = json.loads((out / "long" / "game.json").read_text())
    assert [t["turn"] for t in data["turns"]] == list(range(1, 56))
    assert len(list((out / "long").glob("turn-*.html"))) == 55


def test_a_kill_at_any_moment_leaves_every_page_whole(long_site: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    out = long_site / "site"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "pbem", "archive", str(out), "--config", str(long_site / "pbem.toml")]
    subprocess.run(command, env=env, check=True, capture_output=True)
    reference = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    pages = sorted((out / "long").glob("turn-*.html"))
    kills = 0
    # each run rewrites every turn page (orders held back, or shown again); it is killed once it
    # has replaced this many of them, from its first file to its last
    for n, after in enumerate((0, 1, 15, 30, 45, 54)):
        hold = ["--hold-orders", "long"] if n % 2 == 0 else []
        # the site whole in the other state first, so that this run has every turn page to replace
        subprocess.run([*command, *(["--hold-orders", "long"] if not hold else [])], env=env, check=True,
                       capture_output=True)
        before = {p: p.stat().st_mtime_ns for p in pages}
        with subprocess.Popen([*command, *hold], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
            while proc.poll() is None:
                if sum(p.stat().st_mtime_ns != before[p] for p in pages) >= after:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                    break
                time.sleep(0.002)
            proc.wait()
        broken = [p for p in out.rglob("*") if p.is_file() and not p.name.startswith(".tmp-") and not whole(p)]
        assert broken == [], f"killed after {after} pages: {broken[:3]}"
    assert kills >= 5
    for place in (out, out / "long"):  # what a kill between writing a file and renaming it leaves
        (place / ".tmp-abc123.html").write_text("<!doctype html><p>half a pa")
    subprocess.run(command, env=env, check=True, capture_output=True)
    assert list(out.rglob(".tmp-*")) == []  # the leftovers of the killed runs are gone
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == reference


_WATCH: list[list[str]] = []


def _writes(event: str, args: tuple[object, ...]) -> None:
    if _WATCH and event == "open":
        import os

        path, mode, flags = args
        by_mode = isinstance(mode, str) and any(c in mode for c in "wax+")
        by_flags = isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR))
        if by_mode or by_flags:
            _WATCH[-1].append(str(path))


def test_no_page_is_ever_written_under_its_own_name(long_site: Path) -> None:
    """What makes a kill harmless at any moment, not only at the moments the test above tries: every
    file of the site is written under a temporary name and renamed into place whole."""
    import sys

    from pbem.archive import build_archive

    if _writes not in getattr(sys, "_pbem_hooks", []):
        sys.addaudithook(_writes)
        sys._pbem_hooks = [_writes]  # type: ignore[attr-defined]
    out = long_site / "site"
    m = moderator(long_site)
    for settings_run in range(2):  # a first build, and one that rewrites what changed
        _WATCH.append([])
        try:
            if settings_run:
                from pbem.archive import Settings

                build_archive(m, out, settings=Settings(hold_orders=frozenset({"long"})))
            else:
                build_archive(m, out)
        finally:
            opened = _WATCH.pop()
        mine = [p for p in opened if Path(p).resolve().is_relative_to(out.resolve())]
        assert mine and all(Path(p).name.startswith(".tmp-") for p in mine), [p for p in mine if ".tmp-" not in p][:3]
