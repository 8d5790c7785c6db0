"""Build outgoing mails as bytes: text and HTML, pictures shown inline, stable and safe headers."""

from __future__ import annotations

import base64
import functools
import hashlib
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import base64mime
from email.charset import QP, Charset
from email.header import Header
from email.message import Message
from email.policy import compat32
from email.utils import format_datetime, formataddr
from typing import Final

from pbem.mail.headers import clean_text, decoded, is_msg_id

MAX_SUBJECT: Final = 200
MAX_NAME: Final = 100


@dataclass(frozen=True)
class Picture:
    filename: str
    cid: str
    png: bytes


def message_id(*parts: object, domain: str) -> str:
    """A Message-ID made from what the mail is (game, turn, kind, reader): the same mail twice has
    the same ID, which is what keeps a mail from being queued or sent twice."""
    # Each part's dots (and backslashes) are escaped before the parts are joined, so the key names
    # its parts unambiguously: game 'a.b' turn 1 and game 'a' turn 'b.1' never share a digest. A part
    # without either character is unchanged, so the IDs of such mails are what they always were.
    key = ".".join(str(p).replace("\\", "\\\\").replace(".", "\\.") for p in parts)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    safe = "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in key).lstrip("-.")[:60].rstrip(".")
    return f"<{safe}.{digest}@{domain}>"


# Text parts in quoted-printable UTF-8: readable in the raw .eml, safe over any SMTP server.
_UTF8_QP = Charset("utf-8")
_UTF8_QP.body_encoding = QP
_UTF8_QP.header_encoding = QP


def safe_header_text(value: str, limit: int = MAX_SUBJECT) -> str:
    """Text from an incoming mail made fit for an outgoing header: encoded words decoded
    (so one that decodes to a line break cannot hide it), every control character and
    line break a space, one line of at most `limit` characters."""
    return clean_text(decoded(value) if "=?" in value else value, limit=limit)


def _header(value: str) -> str | Header:
    # Literal "=?" in ASCII text would be read as an encoded word by the reader's
    # program; encoding the whole value keeps it literal.
    return value if value.isascii() and "=?" not in value else Header(value, "utf-8")


def _address(address: str) -> str:
    """An address pbem writes: one bare 'local@domain', or a ValueError (a bug upstream)."""
    if (
        address.count("@") != 1
        or not address.isascii()
        or not address.isprintable()
        or any(ch in address for ch in '<>()[]\\,;:" ')
    ):
        raise ValueError(f"not one plain address: {address!r}")
    return address


#: a header value written as it is: printable ASCII words, one space apart
_PLAIN_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*")
#: a file name written as a quoted parameter as it is
_PLAIN_FILENAME = re.compile(r"[A-Za-z0-9._+-]+")
#: how the email package folds a header value that is not plain (folding off: one line)
_FOLDING = compat32.clone(linesep="\n", max_line_length=0)
_NEWLINES = re.compile(r"\r\n|\r|\n")


def _field(name: str, value: str | Header) -> str:
    if isinstance(value, str) and value.isascii() and _PLAIN_VALUE.fullmatch(value):
        return f"{name}: {value}\n"
    return _FOLDING.fold_binary(name, value).decode("ascii", "surrogateescape")  # type: ignore[arg-type]


def _disposition(kind: str, filename: str) -> str:
    """A Content-Disposition value with a file name, as the email package writes it."""
    if _PLAIN_FILENAME.fullmatch(filename):
        return f'{kind}; filename="{filename}"'
    probe = Message()
    probe.add_header("Content-Disposition", kind, filename=filename)
    return str(probe["Content-Disposition"])


@dataclass
class _Part:
    """One MIME part as it is written: its header fields and its body (LF line ends), or its
    parts under a multipart type."""

    fields: list[tuple[str, str | Header]]
    body: str = ""
    parts: list[_Part] | None = None


def _text(body: str, subtype: str) -> _Part:
    """Text in quoted-printable UTF-8: readable in the raw .eml, safe over any SMTP server."""
    return _Part([("Content-Type", f'text/{subtype}; charset="utf-8"'), ("MIME-Version", "1.0"),
                  ("Content-Transfer-Encoding", "quoted-printable")], _UTF8_QP.body_encode(body.encode("utf-8")) or "")


def _multipart(subtype: str, parts: list[_Part]) -> _Part:
    return _Part([("Content-Type", f"multipart/{subtype}"), ("MIME-Version", "1.0")], parts=parts)


def _image(png: bytes, filename: str, cid: str | None) -> _Part:
    fields: list[tuple[str, str | Header]] = [
        ("Content-Type", "image/png"), ("MIME-Version", "1.0"), ("Content-Transfer-Encoding", "base64")]
    if cid is not None:
        fields.append(("Content-ID", f"<{cid}>"))
    fields.append(("Content-Disposition", _disposition("inline", filename)))
    return _Part(fields, _base64_lines(png))


def _calendar(filename: str, ical: str) -> _Part:
    return _Part([("MIME-Version", "1.0"), ("Content-Transfer-Encoding", "base64"),
                  ("Content-Type", 'text/calendar; charset="utf-8"; method="PUBLISH"'),
                  ("Content-Disposition", _disposition("attachment", filename))],
                 base64mime.body_encode(ical.encode("utf-8")) or "")


def _write(part: _Part, out: list[str], boundaries: Iterator[str], extra: Sequence[tuple[str, str | Header]] = ()) -> None:
    """`part` as the email package's generator writes it (no folding, LF line ends)."""
    fields = part.fields
    if part.parts is not None:
        boundary = next(boundaries)
        fields = [(name, f'{value}; boundary="{boundary}"' if name == "Content-Type" else value)
                  for name, value in fields]
    out.extend(_field(name, value) for name, value in (*fields, *extra))
    out.append("\n")
    if part.parts is None:
        out.append(_NEWLINES.sub("\n", part.body) if "\r" in part.body else part.body)
        return
    for n, sub in enumerate(part.parts):
        out.append(f"--{boundary}\n" if n == 0 else f"\n--{boundary}\n")
        _write(sub, out, boundaries)
    out.append(f"\n--{boundary}--\n")


def compose(
    *,
    sender: str,
    sender_name: str,
    to: str,
    to_name: str = "",
    subject: str,
    text: str,
    html: str | None = None,
    pictures: Sequence[Picture] = (),
    date: datetime,
    msg_id: str,
    in_reply_to: str | None = None,
    auto_submitted: str = "auto-generated",
    calendar: tuple[str, str] | None = None,
) -> bytes:
    """The mail as bytes (LF line ends). Boundaries are derived from the Message-ID, so the same
    inputs always give the same bytes.

    Header values may come from an incoming mail (the subject, the reader's name, the id
    replied to), so all are made safe here: see safe_header_text(); the subject is cut at
    MAX_SUBJECT characters and names at MAX_NAME; In-Reply-To and References are written
    only for a valid msg-id; `sender`, `to` and `msg_id` must be valid (ValueError).

    The parts are written straight out, byte for byte as the email package's `email.mime`
    classes and generator write them (a test holds the two side by side), at a fraction of the
    cost: a wave of reports spent most of its composing time building and walking Message objects.
    Each picture's base64 text is encoded once and cached: every player's report of a turn
    carries the same picture.
    """
    body = _text(text, "plain")
    if html is not None:
        html_part = _text(html, "html")
        if pictures:
            # One part per picture: shown inline by the HTML (cid:) and, with its filename,
            # offered for saving too; a second attached copy only doubled the mail's size.
            html_part = _multipart("related", [html_part, *(_image(p.png, p.filename, p.cid) for p in pictures)])
        body = _multipart("alternative", [body, html_part])
    elif pictures:
        body = _multipart("mixed", [body, *(_image(p.png, p.filename, None) for p in pictures)])
    if calendar is not None:  # (filename, iCalendar text): the deadline for the reader's calendar
        event = _calendar(*calendar)
        if body.parts is not None and body.fields[0][1] == "multipart/mixed":
            body.parts.append(event)
        else:
            body = _multipart("mixed", [body, event])
    if not is_msg_id(msg_id):
        raise ValueError(f"not a valid Message-ID: {msg_id!r}")
    to_name = safe_header_text(to_name, MAX_NAME)
    fields: list[tuple[str, str | Header]] = [
        ("From", formataddr((safe_header_text(sender_name, MAX_NAME), _address(sender)))),
        ("To", formataddr((to_name, _address(to))) if to_name else _address(to)),
        ("Subject", _header(safe_header_text(subject, MAX_SUBJECT))),
        ("Date", format_datetime(date)),
        ("Message-ID", msg_id),
        ("Auto-Submitted", safe_header_text(auto_submitted, 40)),
        ("X-Auto-Response-Suppress", "All"),
    ]
    in_reply_to = in_reply_to.strip() if in_reply_to else None
    if in_reply_to and is_msg_id(in_reply_to):  # anything else is dropped, never echoed
        fields += [("In-Reply-To", in_reply_to), ("References", in_reply_to)]
    seed = hashlib.sha256(msg_id.encode()).hexdigest()[:20]
    out: list[str] = []
    _write(body, out, (f"=_pbem_{seed}_{n}" for n in itertools.count()), fields)
    return "".join(out).encode("ascii", "surrogateescape")


@functools.lru_cache(maxsize=8)
def _base64_lines(data: bytes) -> str:
    """Base64 in 76-character lines, each ending in a newline."""
    return base64.encodebytes(data).decode("ascii")
