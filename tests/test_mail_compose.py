"""Outgoing headers built from incoming text cannot carry a header of their own; one picture part."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timezone

import pytest

from pbem.mail.compose import MAX_SUBJECT, Picture, compose, message_id, safe_header_text
from pbem.mail.headers import read_in_reply_to, read_subject
from pbem.mail.text import parse_message

WHEN = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
INJECTED_SUBJECTS = [
    "=?utf-8?q?hi=0A=0ADate:_x?=",
    "=?utf-8?q?hi=0D=0AMessage-ID:_<evil@x>=0D=0A=0D=0Abody?=",
    "=?utf-8?b?aGkKCkF1dG8tU3VibWl0dGVkOiBubw==?=",  # "hi\n\nAuto-Submitted: no"
    "hi\r\nDate: x",
    "hi\n\nMessage-ID: <evil@x>",
    "hi\x00\x1b[31m\rAuto-Submitted: no",
    "Re: Züge\nDate: x",
    "=?utf-8?q?=E2=80=A8Date:_x?=",
]
INJECTED_IDS = ["<a@b>\r\nDate: x", "<a@b>\n\nbody", "=?utf-8?q?<a@b>=0ADate:_x?=", "<@;b@x>", "<a@b> <c@d>", "x" * 5000]


def refusal(subject: str, in_reply_to: str | None, to_name: str = "Eve") -> bytes:
    return compose(sender="pbem@pbem.example", sender_name="PBEM Moderator", to="eve@example.org", to_name=to_name,
                   subject=f"Not taken as orders: {subject}", text="Sorry.\nDate: in the body is fine\n", date=WHEN,
                   msg_id=message_id("refusal", 7, domain="pbem.example"), in_reply_to=in_reply_to,
                   auto_submitted="auto-replied")


def header_block(raw: bytes) -> list[str]:
    return raw.split(b"\n\n", 1)[0].decode("ascii").split("\n")


@pytest.mark.parametrize("subject", INJECTED_SUBJECTS)
@pytest.mark.parametrize("in_reply_to", INJECTED_IDS)
def test_no_injected_header_survives_a_round_trip(subject: str, in_reply_to: str) -> None:
    raw = refusal(subject, in_reply_to, to_name=subject)
    lines = header_block(raw)
    names = [line.split(":", 1)[0].lower() for line in lines if line[:1] not in (" ", "\t")]
    for name in ("date", "message-id", "auto-submitted", "subject", "from", "to"):
        assert names.count(name) == 1, (name, lines)
    assert "in-reply-to" not in names  # none of them is a valid msg-id
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["Date"] == "Fri, 20 Nov 2026 09:00:00 +0000"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["Message-ID"].startswith("<refusal.7.")
    assert not msg.defects
    body = msg.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert body == "Sorry.\nDate: in the body is fine\n"
    shown = read_subject(parse_message(raw))
    assert "\n" not in str(msg["Subject"]) and "\r" not in str(msg["Subject"])
    assert shown.startswith("Not taken as orders: ")


def test_the_subject_is_kept_readable_and_capped() -> None:
    msg = parse_message(refusal("=?utf-8?q?hi=0A=0ADate:_x?=", None))
    assert read_subject(msg) == "Not taken as orders: hi Date: x"
    long = parse_message(refusal("é" * 1000, None))
    assert len(read_subject(long)) == MAX_SUBJECT
    # an encoded word is decoded once, never passed on for the reader's program to decode
    assert read_subject(parse_message(refusal("please =?utf-8?q?stay?= literal", None))) == (
        "Not taken as orders: please stay literal")
    literal = refusal("a =?b?q?c?= =? d", None)
    assert b"Subject: =?utf-8?" in literal
    assert read_subject(parse_message(literal)) == "Not taken as orders: a =?b?q?c?= =? d"


def test_a_valid_in_reply_to_is_kept() -> None:
    raw = refusal("orders", " <abc.123@example.org> ")
    assert "In-Reply-To: <abc.123@example.org>" in header_block(raw)
    assert "References: <abc.123@example.org>" in header_block(raw)
    assert read_in_reply_to(parse_message(raw)) == "<abc.123@example.org>"


def test_safe_header_text() -> None:
    assert safe_header_text("a\r\n\tb\x00c\x85d\u2028e") == "a b c d e"
    assert safe_header_text("=?utf-8?q?a=0Ab?=") == "a b"
    assert safe_header_text("x" * 500, 10) == "x" * 10
    assert safe_header_text("bad \udcff byte") == "bad \ufffd byte"


def test_bad_addresses_and_ids_of_our_own_are_bugs() -> None:
    with pytest.raises(ValueError):
        compose(sender="pbem@pbem.example", sender_name="M", to="eve@example.org\r\nBcc: x@y", subject="s", text="t",
                date=WHEN, msg_id="<a@b>")
    with pytest.raises(ValueError):
        compose(sender="pbem@pbem.example", sender_name="M", to="eve@example.org", subject="s", text="t",
                date=WHEN, msg_id="<a@b>\nX: y")


PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


def test_one_picture_part_shown_inline_and_saveable() -> None:
    raw = compose(sender="pbem@pbem.example", sender_name="M", to="ann@example.org", subject="Turn 1", text="text",
                  html='<p><img src="cid:board.1@pbem.example"></p>', date=WHEN, msg_id="<r1@pbem.example>",
                  pictures=[Picture("board-turn-1.png", "board.1@pbem.example", PNG)])
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert [p.get_content_type() for p in msg.walk()] == [
        "multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png"]
    (image,) = [p for p in msg.walk() if p.get_content_type() == "image/png"]
    assert image["Content-ID"] == "<board.1@pbem.example>"
    assert image.get_content_disposition() == "inline"
    assert image.get_filename() == "board-turn-1.png"
    assert image.get_content() == PNG
    assert raw.count(b"iVBORw0KGgo") == 1  # the picture's base64 once
    again = compose(sender="pbem@pbem.example", sender_name="M", to="ann@example.org", subject="Turn 1", text="text",
                    html='<p><img src="cid:board.1@pbem.example"></p>', date=WHEN, msg_id="<r1@pbem.example>",
                    pictures=[Picture("board-turn-1.png", "board.1@pbem.example", PNG)])
    assert again == raw


def test_a_picture_without_html_is_one_inline_part_too() -> None:
    raw = compose(sender="pbem@pbem.example", sender_name="M", to="ann@example.org", subject="Turn 1", text="text",
                  date=WHEN, msg_id="<r2@pbem.example>", pictures=[Picture("b.png", "b@pbem.example", PNG)])
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert [p.get_content_type() for p in msg.walk()] == ["multipart/mixed", "text/plain", "image/png"]
    assert raw.count(b"iVBORw0KGgo") == 1
