"""Header readers never raise, whatever a field holds; message keys stay bounded."""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.mail.headers import (
    MAX_ID,
    is_msg_id,
    message_key,
    read_authentication_results,
    read_auto_submitted,
    read_date,
    read_from,
    read_in_reply_to,
    read_message_id,
    read_references,
    read_return_path,
    read_subject,
)
from pbem.mail.sender import Refusal, Sender, read_sender
from pbem.mail.text import parse_message

FIELDS = ("Message-ID", "From", "Subject", "Date", "Return-Path", "Auto-Submitted", "In-Reply-To",
          "References", "Authentication-Results")
NASTY = [b"<@;b@x>", b"=?utf-8?q?hi=0A=0ADate:_x?=", b"=?utf-8?b?////?=", b"a\x00b", b"a\rb\nc",
         b"\xed\xa0\x80 lone surrogate as bytes", b"=?x-unknown?q?a?=", b"<" * 500, b"(((((", b'"', b"\\",
         b"=?utf-8?q?ann@example.org?= <eve@evil>", b"Mon, 99 Foo 99999 99:99:99 +9999", b"", b" ", b"<>"]

values = st.one_of(
    st.binary(max_size=120),
    st.text(max_size=80).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.lists(st.sampled_from(NASTY + [b"<a@b>", b"ann@example.org", b";", b",", b"=?", b"?=", b"\n ", b"\r\n\t"]),
             max_size=8).map(b"".join),
)


def _read_all(raw: bytes) -> None:
    msg = parse_message(raw)
    assert isinstance(read_message_id(msg), str) and len(read_message_id(msg)) <= MAX_ID
    for text in (read_from(msg), read_subject(msg), read_auto_submitted(msg)):
        assert isinstance(text, str)
        assert not any(ch in text for ch in "\r\n\x00")
    date = read_date(msg)
    assert date is None or isinstance(date, datetime)
    path = read_return_path(msg)
    assert path is None or "\n" not in path
    reply = read_in_reply_to(msg)
    assert reply is None or is_msg_id(reply)
    assert all(is_msg_id(r) for r in read_references(msg))
    assert all("\n" not in a for a in read_authentication_results(msg))
    assert isinstance(read_sender(msg), (Sender, Refusal))
    assert isinstance(read_sender(msg, authserv_id="mx.example.net"), (Sender, Refusal))
    key = message_key(raw)
    assert len(key.id) <= MAX_ID and key.digest.startswith("sha256:")


# 9 fields a mail x 2,300 mails = 20,700 random values, plus the named ones.
@settings(max_examples=2300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(values, min_size=len(FIELDS), max_size=len(FIELDS)))
@example([v for v in NASTY[: len(FIELDS)]])
@example([NASTY[1]] * len(FIELDS))
@example([NASTY[0]] * len(FIELDS))
def test_readers_never_raise_on_any_field_value(fields: list[bytes]) -> None:
    raw = b"".join(f"{name}: ".encode() + value + b"\n" for name, value in zip(FIELDS, fields, strict=True))
    _read_all(raw + b"\nbody\n")


def test_the_named_hard_cases_one_by_one() -> None:
    for value in NASTY:
        for name in FIELDS:
            _read_all(name.encode() + b": " + value + b"\nFrom: a@example.org\n\nx\n")


def test_readers_read_a_normal_mail() -> None:
    msg = parse_message(
        b"From: =?utf-8?q?Ann_M=C3=BCller?= <ann@example.org>\nSubject: =?utf-8?q?Z=C3=BCge?= turn 3\n"
        b"Date: Tue, 01 Dec 2026 18:00:00 +0000\nMessage-ID: <abc@example.org>\nReturn-Path: <>\n"
        b"Auto-Submitted: Auto-Replied; owner=x\nIn-Reply-To: junk <r1@pbem.example>\n"
        b"References: <r0@pbem.example> <bad id@x> <r1@pbem.example>\n"
        b"Authentication-Results: mx.example.net; dmarc=pass\nAuthentication-Results: forged; dmarc=pass\n\nhi\n")
    assert read_from(msg) == "Ann Müller <ann@example.org>"
    assert read_subject(msg) == "Züge turn 3"
    assert read_date(msg) == datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
    assert read_message_id(msg) == "<abc@example.org>"
    assert read_return_path(msg) == ""
    assert read_auto_submitted(msg) == "auto-replied"
    assert read_in_reply_to(msg) == "<r1@pbem.example>"
    assert read_references(msg) == ("<r0@pbem.example>", "<r1@pbem.example>")
    assert read_authentication_results(msg) == ("mx.example.net; dmarc=pass", "forged; dmarc=pass")
    empty = parse_message(b"X: y\n\n")
    assert (read_message_id(empty), read_return_path(empty), read_date(empty), read_in_reply_to(empty)) == ("", None, None, None)


def test_an_encoded_word_with_line_breaks_comes_out_as_one_line() -> None:
    msg = parse_message(b"Subject: =?utf-8?q?hi=0D=0A=0D=0ADate:_x?=\n\n")
    assert read_subject(msg) == "hi Date: x"


def test_msg_id_syntax() -> None:
    assert is_msg_id("<a.b-c@example.org>") and is_msg_id("<x@[192.0.2.1]>")
    for bad in ("a@b", "<a>", "<a@b@c>", "<a b@c>", "<a@b>\r\n", "<@b>", "<a@>", "<a@b\n.c>", "<a..b@c>", "<é@c>"):
        assert not is_msg_id(bad), bad


def test_message_key_is_bounded_and_carries_a_body_digest() -> None:
    long_id = b"<" + b"x" * 5000 + b"@example.org>"
    key = message_key(b"Message-ID: " + long_id + b"\n\nGAME race\n")
    assert len(key.id) <= MAX_ID and "sha256:" in key.id
    other = message_key(b"Message-ID: <" + b"x" * 5000 + b"y@example.org>\n\nGAME race\n")
    assert other.id != key.id  # same 990-character start, different ids
    # the same body through another server, with CRLF and a new Message-ID: same digest
    again = message_key(b"Message-ID: <other@example.org>\r\nReceived: x\r\n\r\nGAME race\r\n")
    assert again.digest == key.digest and again.id == "<other@example.org>"
    assert message_key(b"Message-ID: <a@b.c>\n\nGAME hare\n").digest != key.digest
    no_id = message_key(b"From: a@example.org\n\nx\n")
    assert no_id.id.startswith("sha256:") and len(no_id.id) == 71
    assert message_key(b"Message-ID:   <a@b.c>  (comment)\n\nx").id == "<a@b.c>"
