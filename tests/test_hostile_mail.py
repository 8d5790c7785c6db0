"""Hostile and careless mail through the whole intake: nothing stalls, nothing is lost, no lies.

Each test is one of the reproductions pbem was hardened against, run through the real
pipeline on the embedded default (SQLite, the outbox folder).
"""

from __future__ import annotations

import email
import email.policy
from pathlib import Path

import pytest

from pbem.config import load_config
from pbem.moderator import Moderator
from pbem.store import MessageRow
from tests.test_moderator import ok, order_mail, outbox, run, text_of

ANN = "GAME race\nSECRET AAA-111\nMOVE: TO 5\n"


def moderator(root: Path) -> Moderator:
    return Moderator(load_config(root / "pbem.toml"))


def mail(headers: str, body: str) -> bytes:
    return (headers.strip("\n") + "\n\n" + body).encode("utf-8", "surrogateescape")


def statuses(m: Moderator) -> list[tuple[str, str]]:
    with m.store.session() as session:
        return [(r.status, r.step) for r in m.store.messages(session)]


@pytest.mark.parametrize("body", [
    "game" + " " * 1_000_000 + "!",
    "GAME race" + "\n" * 60_000 + "SECRET AAA-111\nMOVE: TO 5",
    "SECRET" + "\t" * 500_000 + "x\nGAME race",
    "MOVE" + " " * 1_000_000 + ":" + " " * 1_000_000 + "NEXT",
])
def test_whitespace_bombs_are_read_in_one_pass(gm: Path, body: str) -> None:
    m = moderator(gm)
    result = m.ingest(order_mail("ann@example.org", body, mid=f"bomb{len(body)}@x"), "bomb")
    assert result.status in ("accepted", "refused")  # finished: neither hung nor quarantined


def test_a_parameter_bomb_is_refused_before_parsing_and_kept(gm: Path) -> None:
    params = "; a" * 330_000
    raw = mail(f"From: Ann <ann@example.org>\nMessage-ID: <pb@x>\nSubject: orders\nContent-Type: text/plain{params}",
               ANN)
    m = moderator(gm)
    result = m.ingest(raw, "bomb")
    assert result.status == "refused" and "header is 967 kB, more than the 256 kB" in result.reason
    with m.store.session() as session:
        [row] = [r for r in m.store.messages(session) if r.status == "refused"]
        assert row.raw == raw  # kept, for the GM
    assert "could not be taken as orders" in text_of(outbox(gm)[-1])


def test_a_huge_mail_is_refused_with_the_limit(gm: Path) -> None:
    raw = order_mail("ann@example.org", ANN + "x" * 6_000_000, mid="huge@x")
    result = moderator(gm).ingest(raw, "huge")
    assert result.status == "refused" and "MB" in result.reason


@pytest.mark.parametrize("mid", ["<@;b@x>", "<>", "no angle brackets at all", "<a@b> <c@d>", "=?utf-8?q?=0A?=", ""])
def test_a_valid_sheet_with_any_message_id_is_taken_in(gm: Path, mid: str) -> None:
    raw = mail(f"From: Ann <ann@example.org>\nMessage-ID: {mid}\nSubject: orders", ANN)
    assert moderator(gm).ingest(raw, "odd-id").status == "accepted"


@pytest.mark.parametrize(("sender", "why"), [
    ("bob@example.net <ann@example.org>", "address"),
    ("ann@example.org, eve@example.org", "address"),
    ("=?utf-8?q?ann@example.org?= <eve@example.org>", "not a player"),
    ("Ann <ann@example.org>, Eve <eve@example.org>", "address"),
])
def test_who_sent_it_is_read_strictly(gm: Path, sender: str, why: str) -> None:
    m = moderator(gm)
    result = m.ingest(mail(f"From: {sender}\nMessage-ID: <w{len(sender)}@x>\nSubject: orders", ANN), "from")
    assert result.status == "refused" and why in result.reason
    with m.store.session() as session:
        assert m.store.current_sheets(session, 1, 1) == {}


@pytest.mark.parametrize("subject", [
    "=?utf-8?q?hi=0A=0ADate:_Mon,_1_Jan_2001_00:00:00_+0000=0AX-Evil:_1?=",
    "=?utf-8?b?" + "aGkKCkF1dG8tU3VibWl0dGVkOiBubwoKYm9keQ==" + "?=",
])
def test_nothing_from_an_incoming_header_breaks_an_outgoing_one(gm: Path, subject: str) -> None:
    raw = mail(f"From: Ann <ann@example.org>\nMessage-ID: <inj{len(subject)}@x>\nSubject: {subject}",
               "GAME race\nSECRET WRONG-1\n")
    moderator(gm).ingest(raw, "inj")
    reply = email.message_from_bytes(outbox(gm)[-1].read_bytes(), policy=email.policy.default)
    for name in ("Date", "Message-ID", "Auto-Submitted"):
        assert len(reply.get_all(name) or []) == 1, name
    assert reply["X-Evil"] is None
    assert "\n" not in str(reply["Subject"])


@pytest.mark.parametrize("headers", [
    "From: pbem <gm@pbem.example>",
    "From: Ann <ann@example.org>\nReturn-Path: <>",
    "From: Ann <ann@example.org>\nAuto-Submitted: auto-replied",
])
def test_mail_that_rfc_3834_says_never_to_answer_gets_no_answer(gm: Path, headers: str) -> None:
    before = len(outbox(gm))
    result = moderator(gm).ingest(mail(f"{headers}\nMessage-ID: <n{len(headers)}@x>\nSubject: x", "GAME race\n"), "x")
    assert result.status == "ignored"
    assert len(outbox(gm)) == before


def test_a_bounce_marks_the_address_and_tells_the_gm(gm: Path) -> None:
    m = moderator(gm)
    with m.store.session() as session:
        welcome = next(r for r in m.store.mails(session) if r.recipient == "bob@example.net")
    dsn = (Path(__file__).parent / "dsn" / "postfix-failed.eml").read_bytes()
    msg = email.message_from_bytes(dsn, policy=email.policy.compat32)
    for part in msg.walk():
        if part.get_content_type() == "message/delivery-status":
            for block in part.get_payload():
                if block.get("Final-Recipient"):
                    block.replace_header("Final-Recipient", "rfc822; bob@example.net")
                    if block.get("Original-Recipient"):
                        block.replace_header("Original-Recipient", "rfc822; bob@example.net")
        if part.get_content_type() in ("text/rfc822-headers", "message/rfc822"):
            payload = part.get_payload()
            if isinstance(payload, list):
                payload[0].replace_header("Message-ID", welcome.message_id)
            else:
                lines = [f"Message-ID: {welcome.message_id}" if line.lower().startswith("message-id:") else line
                         for line in str(payload).splitlines()]
                part.set_payload("\n".join(lines) + "\n")
    result = m.ingest(msg.as_bytes(), "dsn")
    assert result.status == "ignored"
    status = ok(run("status", "race")).output
    assert "mail to Bob <bob@example.net> bounces" in status
    assert "bounced" in ok(run("outbox", "--failed")).output
    with m.store.session() as session:
        alerts = [r for r in m.store.mails(session) if r.kind == "gm-alert"]
    assert [a.subject for a in alerts] == ["Mail to Bob (bob@example.net) bounced"]


def test_a_crash_keeps_the_sender_in_the_quarantine(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import intake

    def boom(*_: object) -> None:
        raise RuntimeError("a step broke")

    monkeypatch.setattr(intake, "PIPELINE", (*intake.PIPELINE[:3], ("boom", boom)))
    m = moderator(gm)
    assert m.ingest(order_mail("ann@example.org", ANN, mid="crash@x"), "c").status == "quarantined"
    with m.store.session() as session:
        [row] = m.store.messages(session, "quarantined")
        assert isinstance(row, MessageRow) and row.sender == "ann@example.org" and row.step == "boom"
