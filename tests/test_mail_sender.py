"""The sender is the one address the header registry reads from From without a defect."""

from __future__ import annotations

import pytest

from pbem.errors import PbemError
from pbem.mail.sender import Refusal, Sender, read_sender, validate_address
from pbem.mail.text import parse_message


def sender(from_value: bytes, extra: bytes = b"", **kw: str) -> Sender | Refusal:
    return read_sender(parse_message(extra + b"From: " + from_value + b"\nSubject: orders\n\nGAME race\n"), **kw)


def test_a_plain_sender() -> None:
    assert sender(b"Ann Smith <Ann@Example.ORG>") == Sender("ann@example.org", "Ann Smith")
    assert sender(b"ann@example.org") == Sender("ann@example.org", "")
    assert sender(b"=?utf-8?q?Ann_M=C3=BCller?= <ann@example.org>") == Sender("ann@example.org", "Ann Müller")


def test_a_name_that_looks_like_an_address_is_not_the_address() -> None:
    assert isinstance(sender(b"bob@example.net <ann@example.org>"), Refusal)  # the registry finds defects
    spoof = sender(b"=?utf-8?q?ann@example.org?= <eve@evil.example>")
    assert spoof == Sender("eve@evil.example", "")  # the angle-addr, and the fake name dropped
    assert sender(b'"ann@example.org" <eve@evil.example>') == Sender("eve@evil.example", "")


@pytest.mark.parametrize("value, words", [
    (b"ann@example.org, eve@example.org", "holds 2 addresses"),
    (b"friends: ann@example.org;", "is a group"),
    (b"undisclosed-recipients:;", "holds 0 addresses"),
    (b"<@;b@x>", "not a well-formed address"),
    (b"ann", "not a well-formed address"),
    (b'"eve ann"@example.org', "not one pbem can answer"),
    (b"ann@localhost", "not one pbem can answer"),
    (b"=?utf-8?q?Ann=0D=0ASubject:_x?= <ann@example.org>", "cannot read"),
])
def test_refused_senders(value: bytes, words: str) -> None:
    got = sender(value)
    assert isinstance(got, Refusal) and words in got.reason, got
    assert got.fix


def test_no_from_and_two_froms() -> None:
    assert read_sender(parse_message(b"Subject: x\n\nhi\n")) == Refusal(
        "the mail has no From address", "Send your orders from your own mail program, with just your address in From.")
    got = sender(b"ann@example.org", extra=b"From: eve@example.org\n")
    assert isinstance(got, Refusal) and "more than one From" in got.reason


AR_FAIL = (b"Authentication-Results: mx.pbem.example; spf=pass smtp.mailfrom=evil.example;\n"
           b" dmarc=fail (p=reject) header.from=example.org\n")
AR_PASS = b"Authentication-Results: mx.pbem.example; dmarc=pass header.from=example.org\n"


def test_dmarc_fail_from_our_own_server_is_refused_when_asked() -> None:
    assert sender(b"ann@example.org", AR_FAIL) == Sender("ann@example.org", "")  # not asked
    got = sender(b"ann@example.org", AR_FAIL, authserv_id="mx.pbem.example")
    assert isinstance(got, Refusal) and "DMARC check failed" in got.reason
    assert sender(b"ann@example.org", AR_PASS, authserv_id="mx.pbem.example") == Sender("ann@example.org", "")


def test_only_the_topmost_results_of_our_server_count() -> None:
    forged_below = AR_PASS + AR_FAIL.replace(b"mx.pbem", b"other")
    assert sender(b"ann@example.org", forged_below, authserv_id="mx.pbem.example") == Sender("ann@example.org", "")
    # a fail header the sender wrote below ours is not read
    assert sender(b"ann@example.org", AR_PASS + AR_FAIL, authserv_id="mx.pbem.example") == Sender("ann@example.org", "")
    # a fail from a server that is not ours is not trusted either way
    other = AR_FAIL.replace(b"mx.pbem.example", b"mx.evil.example")
    assert sender(b"ann@example.org", other, authserv_id="mx.pbem.example") == Sender("ann@example.org", "")
    # "dmarc=fail" inside a comment is no result
    comment = b"Authentication-Results: mx.pbem.example; dmarc=pass (not dmarc=fail)\n"
    assert sender(b"ann@example.org", comment, authserv_id="mx.pbem.example") == Sender("ann@example.org", "")


def test_validate_address() -> None:
    assert validate_address("  Ann@Example.org ") == "ann@example.org"
    cases = {
        "<ann@example.org>": "angle brackets",
        "Ann Smith <ann@example.org>": "angle brackets",
        "ann@example.org, bob@example.org": "more than one address",
        "ann@example.org bob@example.org": "more than one address",
        "ann smith@example.org": "spaces",
        "ann": "no domain",
        "ann@": "no domain",
        "ann@localhost": "no full domain",
        "": "no address",
        "ann@exämple.org": "plain ASCII",
        "ann@@example.org": "more than one address",
        "ann@example..org": "plain ASCII",
    }
    for typed, words in cases.items():
        with pytest.raises(PbemError, match=words):
            validate_address(typed)
