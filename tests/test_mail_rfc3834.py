"""RFC 3834: the mails pbem never answers (and never reads as orders)."""

from __future__ import annotations

import pytest

from pbem.mail.text import classify, parse_message

PLAIN = b"From: Ann <ann@example.org>\nTo: pbem@pbem.example\nSubject: orders\nMessage-ID: <1@example.org>\n"


def verdict(extra: bytes, own: tuple[str, ...] = ("pbem@pbem.example",), body: bytes = b"\nGAME race\n") -> str | None:
    return classify(parse_message(extra + PLAIN + body), own_addresses=own)


def test_a_player_mail_may_be_answered() -> None:
    assert verdict(b"") is None
    assert verdict(b"Return-Path: <ann@example.org>\nAuto-Submitted: no\n") is None
    assert verdict(b"Auto-Submitted: No (a person wrote this)\n") is None


@pytest.mark.parametrize("extra, reason", [
    (b"Return-Path: <>\n", "null sender"),
    (b"Return-Path: < >\n", "null sender"),
    (b"Auto-Submitted: auto-replied\n", "auto-reply"),
    (b"Auto-Submitted: auto-generated\n", "auto-reply"),
    (b"Auto-Submitted: auto-notified; owner-email=x@y\n", "auto-reply"),
    (b"Auto-Submitted: nope\n", "auto-reply"),  # only the exact keyword 'no' may be answered
    (b"Precedence: bulk\n", "list mail"),
    (b"Precedence: list\n", "list mail"),
    (b"Precedence: junk\n", "list mail"),
    (b"List-Id: <race.lists.example.org>\n", "list mail"),
    (b"List-Unsubscribe: <mailto:leave@example.org>\n", "list mail"),
    (b"Sender: PBEM <pbem@pbem.example>\n", "own mail"),
    (b"Return-Path: <PBEM@pbem.example>\n", "own mail"),
])
def test_never_answered(extra: bytes, reason: str) -> None:
    assert verdict(extra) == reason


def test_mail_from_our_own_address_is_never_answered() -> None:
    raw = PLAIN.replace(b"Ann <ann@example.org>", b"Moderator <pbem@pbem.example>") + b"\nGAME race\n"
    assert classify(parse_message(raw), own_addresses=["pbem@pbem.example"]) == "own mail"
    assert classify(parse_message(raw)) is None  # without the parameter: the old behaviour


def report(kind: bytes, part: bytes) -> bytes:
    return (b"Content-Type: multipart/report; report-type=" + kind + b"; boundary=r\nMIME-Version: 1.0\n"
            + PLAIN + b"\n--r\nContent-Type: text/plain\n\nA report.\n--r\nContent-Type: " + part
            + b"\n\nX: y\n--r--\n")


@pytest.mark.parametrize("kind, part, reason", [
    (b"delivery-status", b"message/delivery-status", "bounce"),
    (b"disposition-notification", b"message/disposition-notification", "read receipt"),
    (b"feedback-report", b"message/feedback-report", "complaint"),
    (b"x-something-else", b"text/plain", "report"),
])
def test_reports_are_never_answered(kind: bytes, part: bytes, reason: str) -> None:
    assert classify(parse_message(report(kind, part))) == reason
