"""pbem against real mail servers: Postfix takes the players' orders, Dovecot holds the mailboxes.

Players mail their orders with swaks, a command-line mail client, through Postfix to the GM's
mailbox; `pbem run --once` fetches them over IMAP and sends acknowledgements and turn reports
over SMTP; the tests read what arrived in the players' own IMAP mailboxes.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import MailStack, require  # type: ignore[attr-defined]
from pbem.config import load_config
from pbem.moderator import Moderator

PLAYERS = ("alice", "bob", "carol")
SECRETS = {"alice": "AAA-111", "bob": "BBB-222", "carol": "CCC-333"}


def _toml_table(name: str, table: dict[str, Any]) -> str:
    lines = [f"[{name}]"]
    for k, v in table.items():
        lines.append(f"{k} = {v}" if isinstance(v, int) else f'{k} = "{v}"')
    return "\n".join(lines) + "\n"


def setup_gm(root: Path, stack: MailStack, *, database_url: str | None = None, reminders: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    url = database_url or f"sqlite:///{root / 'pbem.sqlite'}"
    config = root / "pbem.toml"
    config.write_text(
        f'[moderator]\naddress = "{stack.address("gm")}"\nname = "pbem"\n\n'
        f'[database]\nurl = "{url}"\n\n[outbox]\nfolder = "outbox"\n\n[reminders]\nbefore = [{reminders}]\n\n'
        + _toml_table("imap", stack.imap_config("gm")) + "\n" + _toml_table("smtp", stack.smtp_config("gm")),
        encoding="utf-8",
    )
    return config


def pbem(config: Path, *args: str, crash_at: str | None = None, check: bool = True,
         now: str = "2026-11-20T10:00:00Z") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PBEM_CONFIG=str(config), PBEM_NOW=now)
    env.pop("PBEM_CRASH_AT", None)
    if crash_at:
        env["PBEM_CRASH_AT"] = crash_at
    result = subprocess.run([sys.executable, "-m", "pbem", *args], env=env, capture_output=True, text=True,
                            timeout=120)
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def new_game(config: Path, stack: MailStack, *extra: str) -> None:
    args = ["new-game", "race", "--seed", "5", "--deadline", "2026-11-20 12:00"]
    for p in PLAYERS:
        args += ["--player", f"{p.title()}={stack.address(p)}", "--secret", f"{p.title()}={SECRETS[p]}"]
    pbem(config, *args, *extra)


def swaks(stack: MailStack, player: str, body: str, subject: str = "race orders") -> None:
    """Mail orders the way a player on a shell account would (skips the test where swaks is missing)."""
    subprocess.run(
        [require("swaks"), "--silent", "2", "--server", f"{stack.host}:{stack.smtp_port}",
         "--from", stack.address(player), "--to", stack.address("gm"),
         "--header", f"Subject: {subject}", "--body", body],
        check=True, capture_output=True, timeout=60,
    )


def orders(player: str, *moves: str) -> str:
    return "\n".join(["GAME race", "TURN 1", f"SECRET {SECRETS[player]}", *(f"MOVE: {m}" for m in moves)]) + "\n"


def subjects(stack: MailStack, user: str) -> list[str]:
    return sorted(str(m["Subject"]) for m in stack.messages(user))


def test_orders_by_mail_to_reports_in_the_mailboxes(clean_mailstack: MailStack, tmp_path: Path) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack)
    new_game(config, stack)
    out = pbem(config, "run", "--once").stdout
    assert "3 sent" in out
    for p in PLAYERS:
        [welcome] = stack.wait_for_messages(p, 1)
        assert "SECRET " + SECRETS[p] in welcome.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    swaks(stack, "alice", orders("alice", "TO 5", "NEXT"))
    swaks(stack, "bob", orders("bob", "TO 4"))
    swaks(stack, "carol", orders("carol", "IF CARROTS > 40 TO 7"))  # missing THEN: rejected
    stack.wait_for_messages("gm", 3)
    out = pbem(config, "run", "--once", now="2026-11-20T12:30:00Z").stdout
    assert "3 fetched; 3 accepted" in out and "1 turn resolved (race turn 1: 4 reports)" in out
    for p in PLAYERS:
        got = stack.wait_for_messages(p, 3)
        assert subjects(stack, p) == sorted([
            "Welcome to race: Hare & Tortoise, turn 1 orders", "Orders received: race turn 1", "race: turn 1 report"])
        ack = next(m for m in got if str(m["Subject"]).startswith("Orders received"))
        assert ack["Auto-Submitted"] == "auto-replied" and ack["In-Reply-To"]
        report = next(m for m in got if "report" in str(m["Subject"]))
        assert report["Auto-Submitted"] == "auto-generated" and report["Message-ID"] and report["Date"]
        assert [p.get_content_type() for p in report.walk()].count("image/png") == 1  # one picture, inline and a file
    carol_ack = next(m for m in stack.messages("carol") if str(m["Subject"]).startswith("Orders received"))
    assert "missing THEN before 'TO'" in carol_ack.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    alice_report = next(m for m in stack.messages("alice") if "report" in str(m["Subject"]))
    text = alice_report.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "1. Alice moves from START to square 5" in text
    # the GM report went to the moderator's own mailbox: the next round reads it, sees pbem's
    # own Auto-Submitted mail and ignores it without a reply, so no loop can start
    out = pbem(config, "run", "--once", now="2026-11-20T12:31:00Z").stdout
    assert out.strip() == ("pbem run: 1 fetched; 0 accepted, 0 refused, 1 ignored, 0 quarantined; "
                           "0 turns resolved; 0 reminders; 0 sent")
    assert "0 sent" in pbem(config, "run", "--once", now="2026-11-20T12:32:00Z").stdout


def test_postfix_down_while_sending_retries_later_and_loses_nothing(clean_mailstack: MailStack, tmp_path: Path) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack)
    with stack.smtp_down():
        new_game(config, stack)
        out = pbem(config, "run", "--once").stdout
        assert "0 sent, 3 to retry" in out
    # not yet: the retry waits for its back-off
    assert "0 sent" in pbem(config, "run", "--once", now="2026-11-20T10:00:30Z").stdout
    out = pbem(config, "run", "--once", now="2026-11-20T10:05:00Z").stdout
    assert "3 sent" in out
    for p in PLAYERS:
        assert len(stack.wait_for_messages(p, 1)) == 1
    assert "0 sent" in pbem(config, "run", "--once", now="2026-11-20T10:10:00Z").stdout
    for p in PLAYERS:
        assert len(stack.messages(p)) == 1


def test_a_permanent_failure_is_recorded_for_the_gm(clean_mailstack: MailStack, tmp_path: Path) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack)
    args = ["new-game", "race", "--player", f"Alice={stack.address('alice')}", "--player", "Zed=zed@example.test"]
    pbem(config, *args)
    result = pbem(config, "run", "--once", check=False)
    assert result.returncode == 1 and "1 sent" in result.stdout and "1 failed for good" in result.stdout
    assert "see pbem outbox --failed" in result.stderr
    failed = pbem(config, "outbox", "--failed").stdout
    assert "zed@example.test" in failed and "550" in failed
    status = pbem(config, "status", "race").stdout
    assert "mail to Zed <zed@example.test> bounces:" in status and "User unknown" in status
    m = Moderator(load_config(config))
    with m.store.session() as session:
        alerts = [r.subject for r in m.store.mails(session) if r.kind == "gm-alert"]
    assert alerts == ["Mail to Zed (zed@example.test) bounced"]


def test_imap_connection_cut_mid_fetch(clean_mailstack: MailStack, tmp_path: Path) -> None:
    """The connection drops after the first message is kept and before the batch is flagged seen:
    each message kept moved the cursor past it, so the reconnect takes nothing twice."""
    from pbem.mail.imap import ImapInbox, ImapSettings

    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack)
    new_game(config, stack)
    for p in PLAYERS:
        swaks(stack, p, orders(p, "NEXT"))
    stack.wait_for_messages("gm", 3)
    m = Moderator(load_config(config))
    inbox = ImapInbox(ImapSettings.from_config(m.config.imap))
    seen: list[str] = []
    cut = [False]

    def keep(uid: int, raw: bytes) -> None:
        seen.append(m.ingest(raw, f"imap/{uid}").status)
        if not cut[0]:
            cut[0] = True
            assert inbox._client is not None
            inbox._client.socket().shutdown(socket.SHUT_RDWR)  # the line goes dead under imapclient's feet

    assert inbox.fetch_new(keep) == 3
    assert sorted(seen) == ["accepted"] * 3
    assert inbox.fetch_new(keep) == 0
    inbox.close()
    assert "3 of 3 sheets in" in pbem(config, "status", "race").stdout


@pytest.mark.parametrize("point", ["after-store-raw", "after-intake", "before-resolve-commit",
                                   "after-resolve-commit", "after-claim"])
def test_killed_at_each_step_a_rerun_completes(clean_mailstack: MailStack, tmp_path: Path, point: str) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack)
    new_game(config, stack)
    pbem(config, "run", "--once")
    for p in PLAYERS:
        stack.wait_for_messages(p, 1)
        swaks(stack, p, orders(p, "NEXT", "NEXT"))
    stack.wait_for_messages("gm", 3)
    crashed = pbem(config, "run", "--once", crash_at=point, check=False, now="2026-11-20T12:30:00Z")
    assert crashed.returncode == 86, crashed.stdout + crashed.stderr
    # a claim left behind by the dead worker is taken over once its lease runs out
    pbem(config, "run", "--once", now="2026-11-20T12:50:00Z")
    pbem(config, "run", "--once", now="2026-11-20T13:10:00Z")
    for p in PLAYERS:
        got = stack.wait_for_messages(p, 3)
        assert subjects(stack, p) == sorted([
            "Welcome to race: Hare & Tortoise, turn 1 orders", "Orders received: race turn 1", "race: turn 1 report"])
        assert len(got) == 3
    status = pbem(config, "show", "race", "--json").stdout
    assert '"turn": 2' in status
    m = Moderator(load_config(config))
    with m.store.session() as session:
        kept = [(r.sender, r.status) for r in m.store.messages(session)]
        # the players' three sheets, each taken in once; and pbem's own GM report, read back from
        # the moderator's mailbox and ignored
        assert sorted(s for a, s in kept if a != stack.address("gm")) == ["accepted"] * 3
        assert {s for a, s in kept if a == stack.address("gm")} <= {"ignored"}
        assert {r.status for r in m.store.mails(session)} == {"sent"}


def test_reminders_go_to_players_without_orders_once(clean_mailstack: MailStack, tmp_path: Path) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack, reminders='"90m", "30m"')
    new_game(config, stack)  # at 10:00, deadline 2026-11-20 12:00 UTC
    swaks(stack, "alice", orders("alice", "NEXT"))
    stack.wait_for_messages("gm", 1)
    assert "0 reminders" in pbem(config, "run", "--once", now="2026-11-20T10:20:00Z").stdout
    assert "2 reminders" in pbem(config, "run", "--once", now="2026-11-20T10:45:00Z").stdout
    assert "0 reminders" in pbem(config, "run", "--once", now="2026-11-20T11:00:00Z").stdout
    assert "2 reminders" in pbem(config, "run", "--once", now="2026-11-20T11:35:00Z").stdout
    for p, count in (("alice", 2), ("bob", 3), ("carol", 3)):
        got = stack.wait_for_messages(p, count)
        assert len(got) == count
    reminder = next(m for m in stack.messages("bob") if str(m["Subject"]).startswith("Reminder"))
    text = reminder.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    from pbem.tokens import reply_token

    assert "Fri 20 Nov 2026 12:00 UTC" in text and f"SECRET {reply_token('BBB-222', 'race', 1)}" in text
    assert "BBB-222" not in text


def test_imap_idle_wakes_up_when_mail_arrives(clean_mailstack: MailStack, tmp_path: Path) -> None:
    """Between rounds `pbem run` waits with IMAP IDLE (Dovecot offers it): new mail ends the wait
    long before its time-out."""
    import threading

    from pbem.mail.imap import ImapInbox, ImapSettings

    stack = clean_mailstack
    inbox = ImapInbox(ImapSettings.from_config(stack.imap_config("gm")))
    assert b"IDLE" in inbox.connect().capabilities()
    done = threading.Event()
    waiter = threading.Thread(target=lambda: (inbox.wait(120), done.set()))
    waiter.start()
    try:
        swaks(stack, "alice", orders("alice", "NEXT"))
        assert done.wait(60), "IDLE did not wake up on new mail"
    finally:
        waiter.join(130)
        inbox.close()
    got: list[bytes] = []
    inbox.fetch_new(lambda uid, raw: got.append(raw))
    inbox.close()
    assert len(got) == 1 and b"SECRET AAA-111" in got[0]
