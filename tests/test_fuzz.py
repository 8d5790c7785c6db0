"""Fuzzing the public address: intake and the sheet reader never raise, and stay linear.

Random mails go through the whole intake and must end accepted, refused, ignored or answered —
never quarantined (a crash) — and the sheet reader reads any text. Linearity is shown by
counting the Python calls the sheet reader makes as its input grows tenfold (a count, not a
time: the same on any machine).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.config import load_config
from pbem.games.sheet import read_sheet
from pbem.moderator import Moderator

PIECES = ["GAME race", "Game: race", "TURN 1", "SECRET AAA-111", "TIMEZONE ", "MOVE: ", "TO 5", "NEXT", " ", "\t",
          "\n", "\r\n", ">", "--", "#", ":", "IF", " ELSE ", "(", ")", "NOT ", "é", "\u00a0", "\u2028", "\x00", "9" * 30,
          "Europe/", "America", "time zone", "NEW SECRET", "SEND SECRET"]
text = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=40).map("".join)
header_value = st.one_of(st.text(max_size=40), st.sampled_from(["<@;b@x>", "=?utf-8?q?a=0Ab?=", "<>", "", "\x00"]))


@settings(max_examples=300, deadline=None, database=None)
@given(body=text)
def test_the_sheet_reader_reads_any_text(body: str) -> None:
    sheet = read_sheet(body)
    assert all(line.number >= 1 for line in sheet.lines)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sender=st.sampled_from(["ann@example.org", "Ann <ann@example.org>", "eve@evil.example", "", "a, b", "<>"]),
       subject=header_value, mid=header_value, body=text, ctype=st.sampled_from(
           ["text/plain", "text/html", "multipart/mixed; boundary=x", "text/plain; charset=bogus", "application/zip"]))
def test_no_mail_crashes_intake(gm: Path, sender: str, subject: str, mid: str, body: str, ctype: str) -> None:
    m = Moderator(load_config(gm / "pbem.toml"))
    head = f"From: {sender}\nSubject: {subject}\nMessage-ID: {mid}\nContent-Type: {ctype}\n\n"
    raw = (head + body).encode("utf-8", "surrogatepass")
    result = m.ingest(raw, "fuzz", deliver=False)
    assert result.status in ("accepted", "refused", "ignored", "answered", "duplicate"), (result, raw[:300])


def calls(fn: Callable[[], object]) -> int:
    """How many Python-level calls `fn` makes."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


def test_the_sheet_reader_is_linear_in_its_input() -> None:
    line = "MOVE: IF SQUARE 5 IS FREE THEN TO 5 ELSE NEXT   # a comment\n> quoted\nhello\n"
    for shape in (lambda n: line * n, lambda n: "game" + " " * (1000 * n) + "!", lambda n: "\n" * (1000 * n)):
        small, large = calls(lambda s=shape: read_sheet(s(20))), calls(lambda s=shape: read_sheet(s(200)))
        assert large <= 12 * max(small, 1), (small, large)
