"""Mail intake: every corpus mail yields the player's own text or a reason, accurately."""

from __future__ import annotations

import csv
import json
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.mail.text import (
    AUTO_REPLY,
    BOUNCE,
    LIST_MAIL,
    NO_NEW_TEXT,
    NOT_MAIL,
    READ_RECEIPT,
    Extracted,
    body_text,
    classify,
    extract_orders_text,
    html_to_text,
    parse_message,
    reply_text,
)

CORPUS = Path(__file__).parent / "corpus"
PER_FILE_SECONDS = 5

# ---------------------------------------------------------------------------------------
# Corpus access


def corpus_rows() -> list[dict[str, str]]:
    with (CORPUS / "INDEX.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def read_text(path: Path) -> str:
    """A bare body file as text (the bodies carry no charset label)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail a single step that hangs, without making the suite flaky on slow machines."""

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"took longer than {seconds} s")

    if not hasattr(signal, "SIGALRM"):  # pragma: no cover - Windows
        yield
        return
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_input(path: Path, kind: str) -> tuple[str, str | None]:
    """Feed one corpus file the way its kind says; return (reply text, reason)."""
    if kind == "message" or kind.startswith("message") or kind == "not_mail":
        got: Extracted = extract_orders_text(path.read_bytes())
        return got.text or "", got.reason
    text = read_text(path)
    if kind in ("html_body", "html body"):
        text = html_to_text(text)
    return reply_text(text), None


# ---------------------------------------------------------------------------------------
# (a) Robustness: every file goes through, quickly, and says something.

ROWS = corpus_rows()
FED = [r for r in ROWS if r["kind"] in ("message", "body", "html_body", "not_mail")]
MUST_BE_REFUSED = ("bounce", "auto-reply", "complaint (ARF)", "read-receipt (MDN)", "not-mail")


@pytest.mark.parametrize("row", FED, ids=[r["path"] for r in FED])
def test_every_corpus_file_yields_text_or_reason(row: dict[str, str]) -> None:
    with time_limit(PER_FILE_SECONDS):
        text, reason = run_input(CORPUS / row["path"], row["kind"])
    if row["kind"] in ("body", "html_body"):
        return  # a bare body may legitimately be all quote; reply_text returns "" then
    assert (text.strip() != "") != (reason is not None), (text[:200], reason)


REFUSED = [r for r in FED if r["class"].startswith(MUST_BE_REFUSED)]


@pytest.mark.parametrize("row", REFUSED, ids=[r["path"] for r in REFUSED])
def test_bounces_complaints_and_auto_replies_are_never_orders(row: dict[str, str]) -> None:
    got = extract_orders_text((CORPUS / row["path"]).read_bytes())
    assert got.text is None
    assert got.reason is not None


def test_refused_mail_is_a_real_share_of_the_corpus() -> None:
    # Guards the two tests above against an INDEX.csv that lost its class column.
    assert len(REFUSED) >= 60


# ---------------------------------------------------------------------------------------
# (b) Accuracy against expected_replies.json


def norm(text: str) -> str:
    return " ".join(text.split())


def squash(text: str) -> str:
    return "".join(text.split())


def unquoted(text: str) -> str:
    """Expected text without '>' lines: pbem ignores quoted lines by rule (ORDERS.md),
    while some sources (discourse) keep a quote that has no header above it."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(">"))


def expected_file_text(name: str) -> str:
    path = CORPUS / name
    text = read_text(path)
    if path.suffix == ".html":
        text = html_to_text(text)
    return text


@dataclass(frozen=True)
class Outcome:
    source: str
    file: str
    problems: tuple[str, ...]  # hard failures: quoted text leaked or own text lost
    soft: tuple[str, ...]  # differences only in what counts as a signature

    @property
    def strict(self) -> bool:
        return not self.problems and not self.soft

    @property
    def ok(self) -> bool:
        return not self.problems


# How a signature or sign-off starts, in the sources' own data.  The sources disagree on
# signatures (the caveat in expected_replies.json), so a reply that differs from the
# expectation only by such a block at its end is a soft difference, not a failure.
SIGN_OFF = re.compile(
    r"^(?:--|__|-\w|/\w|sent (?:from|with|via)|get outlook|(?:best |kind |warm )?regards"
    r"|thanks|thank you|cheers|best|pozdrawiam|z powa|med venlig|kh\b|mvh|hälsningar"
    r"|cordialement|saludos|gr(?:ü|ue)(?:ß|ss)e|с уважением)",
    re.I,
)
QUOTE_SIGNS = re.compile(r"wrote:|schrieb|from:|sent:|^>|\s>", re.I)


def _tail_is_signature(tail: str, *, dropped: bool) -> bool:
    """Is `tail` (normalised) a signature block the sources may keep or drop?"""
    tail = tail.strip()
    if not tail or len(tail) > 200:
        return False
    if dropped:  # we dropped it: it must start like a signature, or own text was lost
        return SIGN_OFF.match(tail) is not None
    return QUOTE_SIGNS.search(tail) is None  # we kept it: it must not be quoted text


def _compare(got: str, want: str, what: str, hard: list[str], soft: list[str]) -> None:
    if got == want:
        return
    if want and got.startswith(want) and _tail_is_signature(got[len(want) :], dropped=False):
        soft.append(f"{what}: kept a signature the source drops")
    elif got and want.startswith(got) and _tail_is_signature(want[len(got) :], dropped=True):
        soft.append(f"{what}: dropped a signature the source keeps")
    else:
        hard.append(what)


def _quote_head(source_text: str, starts_with: str) -> str | None:
    """The first line(s), at least 25 characters, of the quote that starts with
    `starts_with` in the input."""
    lines = [line for line in source_text.splitlines() if line.strip()]
    target = norm(starts_with)
    for index in range(len(lines)):
        window = norm(" ".join(lines[index : index + 4]))
        if window.startswith(target) and norm(lines[index]).startswith(target[:10]):
            head = norm(lines[index])
            extra = index + 1
            while len(head) < 25 and extra < len(lines):
                head = norm(head + " " + lines[extra])
                extra += 1
            return head
    return None


def check_entry(
    entry: dict[str, Any], reply: str, source_text: str
) -> tuple[list[str], list[str]]:
    """(hard problems, soft differences) of one reply against one expectation."""
    problems: list[str] = []
    soft: list[str] = []
    got = norm(reply)
    if "reply_equals" in entry:
        _compare(got, norm(unquoted(entry["reply_equals"])), "reply differs", problems, soft)
    if "reply_equals_file" in entry:
        want = norm(unquoted(expected_file_text(entry["reply_equals_file"])))
        _compare(got, want, "reply differs from file", problems, soft)
    if "reply_equals_ignoring_whitespace" in entry:
        want = norm(entry["reply_equals_ignoring_whitespace"])
        if squash(got) != squash(want):
            _compare(got, want, "reply differs (whitespace ignored)", problems, soft)
    if "reply_starts_with" in entry and not got.startswith(norm(entry["reply_starts_with"])):
        problems.append("reply starts differently")
    for piece in entry.get("reply_contains", []):
        if norm(piece) not in got:
            problems.append(f"own text lost: {piece[:40]!r}")
    for piece in entry.get("reply_not_contains", []):
        if norm(piece) in got:
            if got.endswith(norm(piece)) and _tail_is_signature(norm(piece), dropped=False):
                soft.append(f"kept sign-off {piece[:40]!r}")
            else:
                problems.append(f"kept: {piece[:40]!r}")
    if entry.get("whole_body_is_reply"):
        whole = norm(unquoted(source_text))
        if not got or not whole.startswith(got):
            problems.append("whole body was not kept")
        elif got != whole:
            if _tail_is_signature(whole[len(got) :], dropped=True):
                soft.append("dropped a signature")
            else:
                problems.append("own text lost at the end")
    if "quote_starts_with" in entry:
        head = _quote_head(source_text, entry["quote_starts_with"])
        if head is not None and head in got:
            problems.append(f"quote leaked: {head[:40]!r}")
    for piece in entry.get("quote_contains", []):
        if norm(piece) in got:
            problems.append(f"quote leaked: {piece[:40]!r}")
    if "quoted_equals_file" in entry:
        quoted = expected_file_text(entry["quoted_equals_file"])
        first = next((line for line in quoted.splitlines() if line.strip()), "")
        if norm(quoted) in got or (norm(first) and norm(first) in got):
            problems.append("quoted part leaked")
    if "forward" in entry:
        sender = norm(entry["forward"]["from"])
        if sender and sender in got:
            problems.append("forward header leaked")
    if "signature_equals_file" in entry:
        # "reply = body minus the signature"; keeping the signature is allowed too
        signature = read_text(CORPUS / entry["signature_equals_file"]).strip()
        cut = source_text.rfind(signature) if signature else -1
        own = norm(source_text[:cut]) if cut >= 0 else norm(source_text)
        if got == own:
            pass
        elif got == norm(source_text):
            soft.append("kept the signature")
        else:
            problems.append("reply is neither the body nor the body less its signature")
    if "signature_starts_with" in entry and not any(
        key.startswith(("reply_", "whole_body")) for key in entry
    ):
        start = source_text.find(entry["signature_starts_with"])
        own = norm(unquoted(source_text[:start])) if start >= 0 else ""
        if own and not got.startswith(own):
            problems.append("own text before the signature lost")
    return problems, soft


# Transcription errors in expected_replies.json, corrected here (the corpus stays byte for
# byte), each with its evidence.
ERRATA: dict[str, dict[str, Any]] = {
    # Upstream (crisp-oss test/test.js, text_email_reply_header) tests the first fragment
    # with /^On the other hand/m, a multi-line regex: a line of the reply starts with it,
    # not the reply itself.
    "crisp-oss__email-reply-parser/test/fixtures/email_reply_header.txt": {
        "drop": ["reply_starts_with"],
        "add": {"reply_contains": ["\nOn the other hand", "This is the latest reply."]},
    },
}


def corrected(entry: dict[str, Any]) -> dict[str, Any]:
    fix = ERRATA.get(entry["file"])
    if fix is None:
        return entry
    entry = {k: v for k, v in entry.items() if k not in fix["drop"]}
    entry.update(fix["add"])
    return entry


CHECK_KEYS = ("reply_", "quote", "signature", "whole_body", "template", "max_seconds")


def run_entry(entry: dict[str, Any]) -> Outcome:
    source = entry["file"].split("/", 1)[0]
    path = CORPUS / entry["file"]
    kind = entry["input"]
    problems: list[str] = []
    soft: list[str] = []
    if "template" in entry:
        template = entry["template"]
        raw = read_text(path)
        for value in template["values"]:
            body = raw.replace(template["placeholder"], value)
            sub = dict(template)
            if "quote_equals" in sub:  # no line of the quoted part may stay
                quote = sub.pop("quote_equals").format(value=value)
                sub["quote_contains"] = [line for line in quote.splitlines() if line.strip()]
            hard, differ = check_entry(sub, reply_text(body), body)
            problems += [f"{value[:30]!r}: {problem}" for problem in hard]
            soft += [f"{value[:30]!r}: {problem}" for problem in differ]
        return Outcome(source, entry["file"], tuple(problems), tuple(soft))
    started = time.perf_counter()
    reply, reason = run_input(path, kind)
    elapsed = time.perf_counter() - started
    if "max_seconds" in entry and elapsed > entry["max_seconds"]:
        problems.append(f"took {elapsed:.2f} s")
    if kind.startswith("message"):
        source_text = body_text(parse_message(path.read_bytes()))
        if reason is not None:
            problems.append(f"refused: {reason}")
    else:
        source_text = read_text(path)
        if kind == "html body":
            source_text = html_to_text(source_text)
    hard, differ = check_entry(entry, reply, source_text)
    return Outcome(source, entry["file"], tuple(problems + hard), tuple(differ))


def accuracy() -> list[Outcome]:
    """Run every expectation that checks something (a few only say 'must not crash';
    those run in the robustness test)."""
    entries = json.loads((CORPUS / "expected_replies.json").read_text(encoding="utf-8"))
    return [
        run_entry(corrected(entry))
        for entry in entries["entries"]
        if any(key.startswith(CHECK_KEYS) for key in entry)
    ]


@dataclass(frozen=True)
class Rate:
    strict: int  # exactly as the source expects
    passed: int  # strict, or differing only in signature handling
    total: int


def rate_table(outcomes: list[Outcome]) -> dict[str, Rate]:
    table: dict[str, Rate] = {}
    for outcome in outcomes:
        rate = table.get(outcome.source, Rate(0, 0, 0))
        table[outcome.source] = Rate(
            rate.strict + outcome.strict, rate.passed + outcome.ok, rate.total + 1
        )
    table["all"] = Rate(
        sum(r.strict for r in table.values()),
        sum(r.passed for r in table.values()),
        sum(r.total for r in table.values()),
    )
    return table


def format_table(table: dict[str, Rate]) -> str:
    lines = [f"{'source':32} {'cases':>5} {'exact':>6} {'pass':>5} {'exact %':>8} {'pass %':>7}"]
    for source in sorted(table, key=lambda name: (name == "all", name)):
        rate = table[source]
        lines.append(
            f"{source:32} {rate.total:5} {rate.strict:6} {rate.passed:5}"
            f" {rate.strict / rate.total:8.1%} {rate.passed / rate.total:7.1%}"
        )
    return "\n".join(lines)


def format_failures(outcomes: list[Outcome]) -> str:
    lines = []
    for outcome in outcomes:
        if outcome.problems:
            lines.append(f"FAIL {outcome.file}: {'; '.join(outcome.problems)}")
    for outcome in outcomes:
        if outcome.ok and outcome.soft:
            lines.append(f"soft {outcome.file}: {'; '.join(outcome.soft)}")
    return "\n".join(lines)


# Floors just under the rates measured when this was written (exact %, pass %), set so
# that one more failing case in any source trips them: look into it, then fix the
# extractor or, if the change is right, move the floor with a note why.
# Measured: alfonsrv 11/16 16/16, quotequail 6/9 7/9, crisp 65/66 66/66, discourse
# 64/65 65/65, github 21/22 22/22, talon 22/30 30/30, willdurand 7/7, zapier 4/4,
# all 200/219 217/219.  The two quotequail failures are a policy choice: a mail that
# only forwards another one yields the forwarded text (discourse expects that, quotequail
# expects nothing); see Extracted.forwarded.
FLOORS: dict[str, tuple[float, float]] = {
    "alfonsrv__mail-parser-reply": (0.68, 0.95),
    "closeio__quotequail": (0.66, 0.75),
    "crisp-oss__email-reply-parser": (0.98, 0.99),
    "discourse__email_reply_trimmer": (0.98, 0.99),
    "github__email_reply_parser": (0.95, 0.96),
    "mailgun__talon": (0.73, 0.97),
    "willdurand__EmailReplyParser": (0.95, 0.95),
    "zapier__email-reply-parser": (0.95, 0.95),
    "all": (0.91, 0.99),
}


def test_reply_extraction_accuracy_per_source() -> None:
    outcomes = accuracy()
    table = rate_table(outcomes)
    print()
    print(format_table(table))
    print(format_failures(outcomes))
    assert set(table) == set(FLOORS), "a source came or went: set its floor"
    for source, rate in table.items():
        exact_floor, pass_floor = FLOORS[source]
        assert rate.strict / rate.total >= exact_floor, (
            f"{source}: exact {rate.strict}/{rate.total}"
        )
        assert rate.passed / rate.total >= pass_floor, f"{source}: pass {rate.passed}/{rate.total}"


# ---------------------------------------------------------------------------------------
# (c) The cases the extractor handles on purpose, each with its exact result.

ORDERS = "GAME race-7\nTURN 5\nMOVE: IF CARROTS > 40 THEN TO 23 ELSE NEXT\nDEFAULT: NEXT"
PLAIN = "From: Player <player@example.org>\nTo: moderator@example.org\nSubject: orders"


def mail(headers: str, body: str | bytes) -> bytes:
    data = body if isinstance(body, bytes) else body.encode()
    return headers.strip().encode() + b"\n\n" + data


class TestOrderLinesSurvive:
    def test_a_comparison_inside_an_order_is_not_a_quote(self) -> None:
        assert reply_text(ORDERS + "\n") == ORDERS

    def test_indented_orders_and_blank_lines_are_kept(self) -> None:
        text = "Hi,\n\n  MOVE 1: TO 12\n\n  MOVE 2: NEXT CARROT\nHARE: GIVE\n"
        assert reply_text(text) == "Hi,\n\n  MOVE 1: TO 12\n\n  MOVE 2: NEXT CARROT\nHARE: GIVE"

    def test_orders_answered_inline_between_quotes_are_kept(self) -> None:
        text = "> Your orders for turn 5?\n\nMOVE: TO 23\n\n> Anything else?\n\nHARE: GIVE\n"
        assert reply_text(text) == "MOVE: TO 23\n\nHARE: GIVE"

    def test_lower_case_answer_right_under_a_long_quoted_line_is_kept(self) -> None:
        text = (
            "> You stand on square 12 with 40 carrots and must move first this turn\n"
            "move: to 23\n> Deadline Friday\n"
        )
        assert reply_text(text) == "move: to 23"

    def test_own_words_original_message_are_not_a_separator(self) -> None:
        assert reply_text("Original message\nMOVE: TO 23") == "Original message\nMOVE: TO 23"

    def test_own_line_starting_with_on_is_not_a_quote_header(self) -> None:
        text = "On Friday at 10:00 I am away, so:\nMOVE: TO 23"
        assert reply_text(text) == text


class TestQuotesAreDropped:
    def test_quote_under_an_on_wrote_header(self) -> None:
        text = (
            ORDERS + "\n\nOn Tue, 3 May 2016 at 14:54, Moderator <mod@pbem.example> wrote:\n"
            "> Turn 4\n> MOVE: TO 12\n"
        )
        assert reply_text(text) == ORDERS

    def test_header_wrapped_over_two_lines(self) -> None:
        text = (
            "MOVE: TO 23\n\nOn Thu, Jun 20, 2013 at 4:18 PM, Moderator <\n"
            "mod@pbem.example> wrote:\n\n> Turn 4\n"
        )
        assert reply_text(text) == "MOVE: TO 23"

    def test_header_wrapped_over_three_lines_without_quote_marks(self) -> None:
        text = (
            "MOVE: TO 23\n\nOn Nov 21, 2014,\nat 10:18,\nModerator <mod@pbem.example> wrote:\n\n"
            "Turn 4 report\nMOVE: TO 12\n"
        )
        assert reply_text(text) == "MOVE: TO 23"

    @pytest.mark.parametrize(
        "header",
        [
            "Am 25.06.2015 um 10:55 schrieb Moderator <mod@pbem.example>:",
            "Le 19 mars 2014 10:37, Modérateur <mod@pbem.example> a écrit :",
            "El 19/03/2014 11:34, Moderador <mod@pbem.example> escribió:",
            "W dniu 7 stycznia 2015 15:24 użytkownik Moderator <mod@pbem.example> napisał:",
            "Den 08/06/2015 kl. 21.21 skrev Moderator <mod@pbem.example>:",
            "2014-03-20 8:48 GMT+01:00 Moderator <mod@pbem.example>:",
            "ср, 30 апр. 2025 г. в 15:19, Moderator <mod@pbem.example>:",
            "在 2016年11月8日，下午2:23，Moderator <mod@pbem.example> 写道：",
            "2016/11/08 14:26、Moderator <mod@pbem.example> のメッセージ:",
        ],
    )
    def test_quote_headers_in_many_languages(self, header: str) -> None:
        text = f"MOVE: TO 23\n\n{header}\n\nTurn 4 report, not quoted with '>'\nMOVE: TO 12\n"
        assert reply_text(text) == "MOVE: TO 23"

    def test_outlook_header_block_under_an_underscore_line(self) -> None:
        text = (
            "MOVE: TO 23\n\n________________________________\nFrom: Moderator <mod@pbem.example>\n"
            "Sent: Monday, May 2, 2016 10:00 AM\nTo: Player\nSubject: Turn 5\n\nMOVE: TO 12\n"
        )
        assert reply_text(text) == "MOVE: TO 23"

    def test_outlook_original_message_separator(self) -> None:
        text = (
            "MOVE: TO 23\n\n-----Original Message-----\nFrom: Moderator\nSent: today\n\n"
            "MOVE: TO 12"
        )
        assert reply_text(text) == "MOVE: TO 23"

    def test_bold_outlook_fields_in_another_language(self) -> None:
        text = (
            "MOVE: TO 23\n\n*Von:* Moderator\n*Gesendet:* Montag\n*An:* Spieler\n"
            "*Betreff:* Zug 5\n\nMOVE: TO 12"
        )
        assert reply_text(text) == "MOVE: TO 23"

    def test_quote_line_that_lost_its_mark_when_rewrapped(self) -> None:
        text = (
            "MOVE: TO 23\n\n"
            "> Lorem ipsum dolor sit amet, consectetur adipiscing elit, pharetra d\n"
            "ignissim odio?\n> Next line\n"
        )
        assert reply_text(text) == "MOVE: TO 23"

    def test_mailing_list_footer_after_an_underscore_line(self) -> None:
        text = (
            "MOVE: TO 23\n\n_______________________________________________\nrace mailing list\n"
            "http://lists.example.org/listinfo/race\n"
        )
        assert reply_text(text) == "MOVE: TO 23"

    def test_supercite_initials_are_quotes(self) -> None:
        assert reply_text("MOVE: TO 23\n\nMD> MOVE: TO 12\nMD>\n") == "MOVE: TO 23"

    def test_quote_only_leaves_nothing(self) -> None:
        assert reply_text("> MOVE: TO 12\n>\n> -- \n> Moderator\n") == ""


class TestSignatures:
    @pytest.mark.parametrize("delimiter", ["--", "-- ", "--   "])
    def test_signature_delimiter_cuts(self, delimiter: str) -> None:
        assert reply_text(f"MOVE: TO 23\n{delimiter}\nRick\nMOVE: TO 99\n") == "MOVE: TO 23"

    def test_dashes_inside_a_line_are_not_a_delimiter(self) -> None:
        text = "MOVE: TO 23 -- and then\nDEFAULT: NEXT"
        assert reply_text(text) == text

    @pytest.mark.parametrize(
        "line",
        [
            "Sent from my iPhone",
            "Sent from my BlackBerry® wireless device",
            "Sent from Mail for Windows 10",
            "Get Outlook for iOS<https://aka.ms/o0ukef>",
            "Von meinem iPhone gesendet",
            "Envoyé de mon iPhone",
            "Gesendet von Outlook für Android<https://aka.ms/AAb9ysg>",
        ],
    )
    def test_mobile_signature_cuts(self, line: str) -> None:
        assert reply_text(f"MOVE: TO 23\n\n{line}\n\nOn Mon wrote:\nold") == "MOVE: TO 23"

    def test_sent_from_in_a_sentence_is_own_text(self) -> None:
        text = "MOVE: TO 23\n\nSent from my desk, is much easier then my mobile phone."
        assert reply_text(text) == text


class TestForwards:
    FORWARD = (
        "---------- Forwarded message ---------\nFrom: Player <player@work.example>\n"
        "Date: Tue, Jan 01, 2019 at 12:00 PM\nSubject: orders\nTo: <mod@pbem.example>\n\n"
        "MOVE: TO 23\n"
    )

    def test_text_above_a_forward_is_the_reply(self) -> None:
        assert reply_text("Please use these.\n\n" + self.FORWARD) == "Please use these."

    def test_a_mail_that_only_forwards_yields_the_forwarded_text_flagged(self) -> None:
        got = extract_orders_text(mail(PLAIN, self.FORWARD))
        assert got == Extracted(text="MOVE: TO 23", reason=None, charset="utf-8", forwarded=True)

    def test_a_lone_from_line_with_nothing_above_is_a_quote(self) -> None:
        assert reply_text("\nFrom: mod@pbem.example <mod@pbem.example>\n\nMOVE: TO 12") == ""


class TestBodies:
    def test_plain_text_is_preferred_to_html(self) -> None:
        raw = mail(
            PLAIN + '\nMIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="b"',
            "--b\nContent-Type: text/plain\n\nMOVE: TO 23\n--b\nContent-Type: text/html\n\n"
            "<p>MOVE: TO 99</p>\n--b--\n",
        )
        assert extract_orders_text(raw).text == "MOVE: TO 23"

    def test_html_only_with_a_gmail_quote(self) -> None:
        html = (
            '<div dir="ltr">MOVE: TO 23<div>DEFAULT: NEXT</div></div><div class="gmail_quote">'
            "On Mon, Moderator wrote:<br><blockquote>MOVE: TO 12</blockquote></div>"
        )
        got = extract_orders_text(mail(PLAIN + "\nContent-Type: text/html; charset=utf-8", html))
        assert (got.text, got.from_html) == ("MOVE: TO 23\nDEFAULT: NEXT", True)

    def test_html_quotes_become_quote_marks(self) -> None:
        html = (
            "<p>Hi &amp; bye</p><blockquote>old<blockquote>older</blockquote></blockquote>"
            "<pre>a\n  b</pre>"
        )
        assert html_to_text(html) == "Hi & bye\n> old\n> > older\na\n  b"

    def test_html_without_end_tags_and_with_scripts(self) -> None:
        html = "<style>p {x}</style><script>if (a < b) {}</script><p>one<p>two<br>three"
        assert html_to_text(html) == "one\ntwo\nthree"

    def test_very_deep_html_does_not_overflow_the_stack(self) -> None:
        depth = 100_000
        assert html_to_text("<div>" * depth + "MOVE: TO 23" + "</div>" * depth) == "MOVE: TO 23"

    @pytest.mark.parametrize("newline", [b"\r\n", b"\r"])
    def test_crlf_and_cr_only_line_endings(self, newline: bytes) -> None:
        raw = newline.join(
            [b"From: p@example.org", b"Subject: orders", b"", b"MOVE: TO 23", b"-- ", b"sig", b""]
        )
        assert extract_orders_text(raw).text == "MOVE: TO 23"

    @pytest.mark.parametrize(
        ("charset", "body", "text"),
        [
            ("X-UNKNOWN", "Grüße\nMOVE: TO 23".encode(), "Grüße\nMOVE: TO 23"),
            ("invalid-charset", "Grüße".encode("latin-1"), "Grüße"),
            ("us-ascii", "Grüße".encode(), "Grüße"),  # 8-bit UTF-8 labelled ASCII
            ("iso-8859-1", "“Hi”".encode("cp1252"), "“Hi”"),  # Windows quotes
            ("iso-8859-1", "Grüße".encode(), "Grüße"),  # UTF-8 under a default label
            ("utf-8", b"caf\xe9", "café"),  # not UTF-8 after all
        ],
    )
    def test_unknown_and_wrong_charsets(self, charset: str, body: bytes, text: str) -> None:
        raw = mail(PLAIN + f"\nContent-Type: text/plain; charset={charset}", body)
        assert extract_orders_text(raw).text == text

    @pytest.mark.parametrize(
        ("cte", "payload"),
        [
            ("quoted-printable;", "MOVE: TO =\n23"),
            ("Base64", "TU9WRTogVE8gMjM"),  # missing padding
            ("base64", "TU9W\nRTogVE8g\nMjM=\n"),
            ("7-bit", "MOVE: TO 23"),
        ],
    )
    def test_transfer_encodings_including_bogus_ones(self, cte: str, payload: str) -> None:
        raw = mail(PLAIN + f"\nContent-Transfer-Encoding: {cte}", payload)
        assert extract_orders_text(raw).text == "MOVE: TO 23"

    def test_text_attachments_are_not_the_body(self) -> None:
        raw = mail(
            PLAIN + '\nContent-Type: multipart/mixed; boundary="b"',
            "--b\nContent-Type: text/plain\n\nHello\n--b\nContent-Type: text/plain\n"
            "Content-Disposition: attachment; filename=old.txt\n\nMOVE: TO 12\n--b--\n",
        )
        assert extract_orders_text(raw).text == "Hello"

    def test_an_enclosed_message_is_not_the_body(self) -> None:
        raw = mail(
            PLAIN + '\nContent-Type: multipart/mixed; boundary="b"',
            "--b\nContent-Type: text/plain\n\nSee attached.\n--b\nContent-Type: message/rfc822\n\n"
            "From: x@example.org\n\nMOVE: TO 12\n--b--\n",
        )
        assert extract_orders_text(raw).text == "See attached."


class TestClassify:
    @pytest.mark.parametrize(
        ("header", "reason"),
        [
            ("Auto-Submitted: auto-replied", AUTO_REPLY),
            ("Auto-Submitted: auto-generated", AUTO_REPLY),
            ("X-Autoreply: yes", AUTO_REPLY),
            ("Subject: Automatic reply: orders", AUTO_REPLY),
            ("Subject: Out of Office: orders", AUTO_REPLY),
            ("Subject: Abwesenheitsnotiz: orders", AUTO_REPLY),
            ("Reply-To: x@example.org\nFrom: no-reply@example.org", AUTO_REPLY),
            ("Precedence: bulk", LIST_MAIL),
            ("Precedence: junk", LIST_MAIL),
            ("List-Id: <race.lists.example.org>", LIST_MAIL),
            ("List-Unsubscribe: <mailto:leave@example.org>", LIST_MAIL),
            ("Sender: MAILER-DAEMON@mx.example.org", BOUNCE),
            ("Subject: Undelivered Mail Returned to Sender", BOUNCE),
            ("X-Failed-Recipients: gone@example.org", BOUNCE),
        ],
    )
    def test_header_rules(self, header: str, reason: str) -> None:
        raw = mail(f"{header}\nTo: moderator@example.org", "MOVE: TO 23\n")
        assert classify(parse_message(raw)) == reason
        assert extract_orders_text(raw) == Extracted(text=None, reason=reason)

    def test_auto_submitted_no_is_a_person(self) -> None:
        raw = mail(PLAIN + "\nAuto-Submitted: no", "MOVE: TO 23\n")
        assert classify(parse_message(raw)) is None

    @pytest.mark.parametrize(
        ("report", "part", "reason"),
        [
            ("delivery-status", "message/delivery-status", BOUNCE),
            ("feedback-report", "message/feedback-report", "complaint"),
            ("disposition-notification", "message/disposition-notification", READ_RECEIPT),
        ],
    )
    def test_reports(self, report: str, part: str, reason: str) -> None:
        raw = mail(
            PLAIN + f'\nContent-Type: multipart/report; report-type={report}; boundary="b"',
            f"--b\nContent-Type: text/plain\n\nMOVE: TO 23\n--b\nContent-Type: {part}\n\n"
            "X: y\n--b--\n",
        )
        assert classify(parse_message(raw)) == reason

    def test_binary_that_is_not_mail(self) -> None:
        raw = bytes.fromhex("d0cf11e0a1b11ae1") + bytes(range(256)) * 4
        assert extract_orders_text(raw) == Extracted(text=None, reason=NOT_MAIL)


class TestNeverRaisesAndStaysLinear:
    @pytest.mark.parametrize(
        "raw",
        [
            b"",
            b"\n\n",
            b"\x00" * 100,
            b"From: \xff\xfe\n\n\xff",
            b"From: a@b.example\nContent-Type: multipart/mixed\n\n--\n",
            b"From: a@b.example\nContent-Type: text/plain; charset=base64\n\nMOVE: TO 23",
            b"From: =?utf-8?q?=FF?= <a@b.example>\nSubject: =?x-bogus?b?!!?=\n\nMOVE: TO 23",
        ],
    )
    def test_odd_input(self, raw: bytes) -> None:
        got = extract_orders_text(raw)
        assert (got.text is None) != (got.reason is None)

    def test_only_quoted_text_is_a_reason(self) -> None:
        got = extract_orders_text(mail(PLAIN, "> MOVE: TO 12\n"))
        assert got == Extracted(text=None, reason=NO_NEW_TEXT, charset="utf-8")

    @pytest.mark.parametrize(
        "text",
        [
            ("1" * 399 + ":\n") * 2000,
            ("wrote " * 60 + "\n") * 2000,
            ("On " + "1 " * 150 + "\n") * 2000,
            ("> " + "a" * 60 + "\nb\n") * 20000,
            "x" * 800_000,
        ],
        ids=["digits-colon", "wrote-wrote", "on-digits", "quote-tails", "one-long-line"],
    )
    def test_regex_traps_finish_quickly(self, text: str) -> None:
        with time_limit(3):
            reply_text(text)
