"""Delivery status notifications (RFC 3464) name the recipients and the mail that bounced."""

from __future__ import annotations

import csv
from pathlib import Path

from pbem.mail.dsn import Bounce, FailedRecipient, parse_dsn
from pbem.mail.text import classify, parse_message

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"


def dsn(name: str) -> Bounce | None:
    return parse_dsn(parse_message((HERE / "dsn" / name).read_bytes()))


def test_a_postfix_bounce() -> None:
    assert dsn("postfix-failed.eml") == Bounce(
        recipients=(FailedRecipient(
            address="bruno@example.net", action="failed", status="5.1.1",
            diagnostic="550 5.1.1 <bruno@example.net>: Recipient address rejected: User unknown in virtual mailbox table",
            original_address="bruno@example.net"),),
        original_message_id="<sample-race.report.1.Bruno.3f2a9c1b7d4e@pbem.example>",
        reporting_mta="mx.pbem.example",
    )
    bounce = dsn("postfix-failed.eml")
    assert bounce is not None and bounce.recipients[0].permanent


def test_a_postfix_delay_warning_with_headers_only() -> None:
    bounce = dsn("postfix-delayed.eml")
    assert bounce is not None
    (rcpt,) = bounce.recipients
    assert (rcpt.address, rcpt.action, rcpt.status, rcpt.permanent) == ("chandra@example.com", "delayed", "4.4.1", False)
    assert rcpt.diagnostic == "connect to mx.example.com[192.0.2.80]:25: Connection timed out"
    assert bounce.original_message_id == "<sample-race.report.1.Chandra.9b8e1f0a2c3d@pbem.example>"


def test_both_are_bounces_never_answered() -> None:
    for name in ("postfix-failed.eml", "postfix-delayed.eml"):
        assert classify(parse_message((HERE / "dsn" / name).read_bytes())) == "bounce"


def test_not_a_dsn() -> None:
    assert parse_dsn(parse_message(b"From: ann@example.org\nSubject: orders\n\nGAME race\n")) is None
    delivered = (HERE / "dsn" / "postfix-failed.eml").read_bytes().replace(b"Action: failed", b"Action: delivered")
    assert parse_dsn(parse_message(delivered)) is None  # a success report names no failure
    broken = (HERE / "dsn" / "postfix-failed.eml").read_bytes().replace(b"message/delivery-status", b"text/plain")
    assert parse_dsn(parse_message(broken)) is None


def test_real_dsns_of_the_corpus() -> None:
    with open(CORPUS / "INDEX.csv", newline="", encoding="utf-8") as fh:
        paths = [r["path"] for r in csv.DictReader(fh) if r["kind"] == "message"]
    found = {}
    for path in paths:
        raw = (CORPUS / path).read_bytes()
        bounce = parse_dsn(parse_message(raw))
        if bounce is not None:
            found[path] = bounce
            assert classify(parse_message(raw)) == "bounce", path
            assert all("@" in r.address and r.action in ("failed", "delayed") for r in bounce.recipients)
    assert len(found) >= 30
    assert sum(1 for b in found.values() if b.original_message_id) >= 21
    amazon = found["sisimai__set-of-emails/maildir/bsd/lhost-amazonses-01.eml"]
    assert amazon.recipients[0].address == "shironeko@example.co.jp" and amazon.recipients[0].status == "5.0.0"
    two = found["mikel__mail/spec/fixtures/emails/multipart_report_emails/multi_address_bounce1.eml"]
    assert len(two.recipients) == 5
