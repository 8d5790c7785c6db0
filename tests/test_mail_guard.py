"""Hostile sizes are refused on the raw bytes, fast, before the email package parses them."""

from __future__ import annotations

import csv
import time
from pathlib import Path

from pbem.mail.guard import check_limits, header_block, header_fields
from pbem.mail.text import extract_orders_text, parse_message

CORPUS = Path(__file__).parent / "corpus"
HEAD = b"From: Ann <ann@example.org>\nTo: pbem@example.net\nSubject: orders\nMessage-ID: <1@example.org>\n"


def _timed(raw: bytes) -> tuple[str | None, float]:
    start = time.perf_counter()
    reason = check_limits(raw)
    return reason, time.perf_counter() - start


def test_the_one_megabyte_parameter_bomb_is_refused_at_once() -> None:
    bomb = HEAD + b"Content-Type: text/plain" + b"; a" * 330_000 + b"\n\nGAME race\n"
    assert len(bomb) > 990_000
    reason, seconds = _timed(bomb)
    assert reason is not None and "header" in reason and "256 kB" in reason
    assert seconds < 0.5
    start = time.perf_counter()
    msg = parse_message(bomb)  # parse_message guards itself too
    assert time.perf_counter() - start < 0.5
    assert extract_orders_text(bomb, msg).text is None


def test_a_parameter_bomb_small_enough_to_pass_the_header_limit_is_refused() -> None:
    bomb = HEAD + b"Content-Type: text/plain" + b"; a" * 60_000 + b"\n\nGAME race\n"
    reason, seconds = _timed(bomb)
    assert reason is not None and "longer than 8 kB" in reason
    assert seconds < 0.5
    short = HEAD + b"Content-Type: text/plain" + b"; a" * 1000 + b"\n\nGAME race\n"
    assert check_limits(short) == (
        "a Content- header of the mail has 1000 parameters, more than the 64 pbem accepts. "
        "Send your orders as a short plain-text mail, without attachments."
    )


def test_a_parameter_bomb_inside_a_mime_part_is_refused() -> None:
    part = b"--b\nContent-Type: text/plain;\n" + b" a=1;\n" * 70_000 + b"\nhi\n--b--\n"
    raw = HEAD + b"Content-Type: multipart/mixed; boundary=b\n\n" + part
    reason, seconds = _timed(raw)
    assert reason is not None and "Content- header" in reason
    assert seconds < 0.5
    start = time.perf_counter()
    parse_message(raw)
    assert time.perf_counter() - start < 0.5


def test_a_seventy_megabyte_body_is_refused_by_size_and_its_headers_still_read() -> None:
    raw = HEAD + b"\n" + b"carrots " * (70 * 1024 * 1024 // 8)
    reason, seconds = _timed(raw)
    assert reason == (
        "the mail is 70.0 MB, more than the 5.0 MB pbem accepts. "
        "Send your orders as a short plain-text mail, without attachments."
    )
    assert seconds < 0.05
    msg = parse_message(raw)
    assert str(msg["From"]) == "Ann <ann@example.org>"  # so the sender can be told why
    assert msg.get_payload() == ""


def test_the_size_limit_is_a_parameter() -> None:
    raw = HEAD + b"\n" + b"x" * 2000
    assert check_limits(raw) is None
    assert check_limits(raw, max_bytes=1000) is not None
    assert "1000 bytes" in (check_limits(raw, max_bytes=1000) or "")
    assert parse_message(raw, max_bytes=1000).get_payload() == ""
    assert "x" * 2000 in str(parse_message(raw).get_payload())


def test_too_many_header_fields() -> None:
    raw = HEAD + b"X-A: 1\n" * 600 + b"\nhi\n"
    assert "header fields" in (check_limits(raw) or "")
    assert check_limits(HEAD + b"X-A: 1\n" * 400 + b"\nhi\n") is None
    folded = HEAD + b"X-A: 1\n" + b" more\n" * 600 + b"\nhi\n"  # continuation lines are no fields
    assert check_limits(folded) is None


def test_too_many_parts_and_too_deep_nesting() -> None:
    many = HEAD + b"Content-Type: multipart/mixed; boundary=b\n\n" + b"--b\n\nx\n" * 1200 + b"--b--\n"
    assert "MIME parts" in (check_limits(many) or "")
    nested = HEAD + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(2000)
    ) + b"\nhi\n"
    reason, seconds = _timed(nested)
    assert "nests" in (reason or "") and seconds < 0.5
    parse_message(nested)  # would be a RecursionError in the email package


def test_dash_lines_that_are_no_boundaries_are_not_counted() -> None:
    raw = HEAD + b"Content-Type: multipart/mixed; boundary=b\n\n--b\n\n" + b"-- sql comment\n" * 5000 + b"--b--\n"
    assert check_limits(raw) is None


def test_every_corpus_mail_passes_the_limits() -> None:
    with open(CORPUS / "INDEX.csv", newline="", encoding="utf-8") as fh:
        paths = [row["path"] for row in csv.DictReader(fh) if row["kind"] in ("message", "not_mail")]
    refused = {p: check_limits((CORPUS / p).read_bytes()) for p in paths}
    assert {p: r for p, r in refused.items() if r} == {}


def test_header_block_and_fields_read_any_line_ends() -> None:
    raw = b"From: a@example.org\r\nSubject: one\r\n two\rX-Y: z\r\n\r\nbody: no header\r\n"
    assert header_block(raw) == b"From: a@example.org\nSubject: one\n two\nX-Y: z"
    assert header_fields(header_block(raw)) == [("from", "a@example.org"), ("subject", "one two"), ("x-y", "z")]
    assert header_block(b"From: a@example.org\nnot a header line\nX: y\n") == b"From: a@example.org"
