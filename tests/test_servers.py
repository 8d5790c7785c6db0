"""The real-server test infrastructure works: mail goes in over SMTP and out over IMAP, PostgreSQL answers."""

from __future__ import annotations

import asyncio
import subprocess
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import aiosmtplib
import pytest
import sqlalchemy

from conftest import MailStack, require, unavailable

ORDERS = "GAME race-7\nTURN 3\nSECRET 4f2a9c\nMOVE 12\nIF POSITION > 40 THEN HARE ELSE MOVE 3\n"


def test_aiosmtplib_through_postfix_arrives_over_imap(clean_mailstack: MailStack) -> None:
    stack = clean_mailstack
    message = EmailMessage()
    message["From"] = stack.address("gm")
    message["To"] = stack.address("alice")
    message["Subject"] = "race-7: turn 3 report"
    message["Message-ID"] = make_msgid(domain=stack.domain)
    message.set_content("Your hare reached square 12.\nCarrots left: 54.\n")

    errors, reply = asyncio.run(aiosmtplib.send(message, hostname=stack.host, port=stack.smtp_port,
                                                username="gm", password=stack.password("gm")))
    assert errors == {}
    assert reply.startswith("2.0.0 Ok: queued")

    [received] = stack.wait_for_messages("alice", 1)
    assert received["Subject"] == "race-7: turn 3 report"
    assert received["Message-ID"] == message["Message-ID"]
    assert received["Delivered-To"] == "alice@example.test"
    assert received.get_content() == "Your hare reached square 12.\nCarrots left: 54.\n"
    # reading did not mark it \Seen (BODY.PEEK), so a moderator polling for UNSEEN still sees it
    with stack.imap("alice") as client:
        client.select_folder("INBOX", readonly=True)
        assert client.search(["UNSEEN"]) != []


def test_player_sends_orders_with_swaks(clean_mailstack: MailStack, tmp_path: Path) -> None:
    stack = clean_mailstack
    body = tmp_path / "orders.txt"
    body.write_text(ORDERS)
    subprocess.run(
        [require("swaks"), "--silent", "2", "--server", f"{stack.host}:{stack.smtp_port}",
         "--from", stack.address("bob"), "--to", stack.address("gm"),
         "--auth", "PLAIN", "--auth-user", stack.address("bob"), "--auth-password", stack.password("bob"),
         "--header", "Subject: orders for race-7", "--body", f"@{body}"],
        check=True, capture_output=True, text=True, timeout=30,
    )
    [received] = stack.wait_for_messages("gm", 1)
    assert received["Subject"] == "orders for race-7"
    assert received["From"] == "bob@example.test"
    # swaks ends the DATA with blank lines of its own
    assert received.get_content().rstrip("\n") == ORDERS.rstrip("\n")


def test_player_sends_orders_with_s_nail(clean_mailstack: MailStack) -> None:
    stack = clean_mailstack
    subprocess.run(
        [require("s-nail"), "-:/", "-Sv15-compat", "-Sttycharset=utf-8", "-Ssmtp-auth=plain",
         f"-Smta=smtp://carol:{stack.password('carol')}@{stack.host}:{stack.smtp_port}",
         f"-Sfrom={stack.address('carol')}", "-s", "orders for race-7", stack.address("gm")],
        input=ORDERS, check=True, capture_output=True, text=True, timeout=30,
    )
    [received] = stack.wait_for_messages("gm", 1)
    assert received["Subject"] == "orders for race-7"
    assert received.get_content() == ORDERS


def test_unknown_and_outside_recipients_are_refused(mailstack: MailStack) -> None:
    message = EmailMessage()
    message["From"] = mailstack.address("gm")
    message["Subject"] = "nobody home"
    message.set_content("x\n")
    for recipient in ("nobody@example.test", "someone@outside.invalid"):
        with pytest.raises(aiosmtplib.SMTPRecipientsRefused) as refused:
            asyncio.run(aiosmtplib.send(message, sender=mailstack.address("gm"), recipients=[recipient],
                                        hostname=mailstack.host, port=mailstack.smtp_port))
        assert refused.value.recipients[0].code == 550


def test_postfix_can_be_stopped_and_started_alone(clean_mailstack: MailStack) -> None:
    stack = clean_mailstack
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = stack.address("gm"), stack.address("bob"), "after the outage"
    message.set_content("Back again.\n")

    with stack.smtp_down():
        assert not stack.smtp_running()
        with pytest.raises(aiosmtplib.SMTPConnectError):
            asyncio.run(aiosmtplib.send(message, hostname=stack.host, port=stack.smtp_port, timeout=5))
        assert stack.messages("bob") == []  # IMAP goes on while SMTP is down
    assert stack.smtp_running()

    stack.send(message)
    [received] = stack.wait_for_messages("bob", 1)
    assert received["Subject"] == "after the outage"


def test_a_user_added_while_running_gets_mail(mailstack: MailStack) -> None:
    address = mailstack.add_user("erin", "erinpw")
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = mailstack.address("gm"), address, "welcome to race-7"
    message.set_content("Welcome.\n")
    mailstack.send(message)
    [received] = mailstack.wait_for_messages("erin", 1)
    assert received["To"] == "erin@example.test"


def test_postgres_answers_through_sqlalchemy_and_psycopg3(postgres_url: str) -> None:
    assert postgres_url.startswith("postgresql+psycopg://pbem:pbem@127.0.0.1:")
    engine = sqlalchemy.create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            assert engine.dialect.driver == "psycopg"
            row = conn.execute(sqlalchemy.text("SELECT current_user, current_database(), 6 * 7")).one()
            assert tuple(row) == ("pbem", "pbem", 42)
    finally:
        engine.dispose()


def test_each_test_gets_a_database_of_its_own(pg_database_url: str, postgres_url: str) -> None:
    assert pg_database_url != postgres_url
    engine = sqlalchemy.create_engine(pg_database_url)
    try:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text("CREATE TABLE turn (game text, number int, PRIMARY KEY (game, number))"))
            conn.execute(sqlalchemy.text("INSERT INTO turn VALUES ('race-7', 1), ('race-7', 2)"))
        with engine.connect() as conn:
            assert conn.execute(sqlalchemy.text("SELECT count(*) FROM turn")).scalar_one() == 2
    finally:
        engine.dispose()
    main = sqlalchemy.create_engine(postgres_url)
    try:
        with main.connect() as conn:
            assert conn.execute(sqlalchemy.text("SELECT to_regclass('turn')")).scalar_one() is None
    finally:
        main.dispose()


@pytest.mark.parametrize("ci, outcome", [("true", pytest.fail.Exception), ("", pytest.skip.Exception)])
def test_missing_servers_fail_under_ci_and_skip_elsewhere(monkeypatch: pytest.MonkeyPatch, ci: str,
                                                          outcome: type[BaseException]) -> None:
    monkeypatch.setenv("CI", ci)
    with pytest.raises(outcome, match="install_servers.sh"):
        unavailable("the mail servers", "dovecot not installed")
