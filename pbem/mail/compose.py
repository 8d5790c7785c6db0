"""Build outgoing mails as bytes: text and HTML, pictures shown inline, stable and safe headers."""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.charset import QP, Charset
from email.generator import BytesGenerator
from email.header import Header
from email.message import Message
from email.mime.base import MIMEBase
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
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
    key = ".".join(str(p) for p in parts)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    safe = "".join(ch if ch.isalnum() or ch in "-." else "-" for ch in key)[:60]
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


#: a header value the email package writes as it is: printable ASCII words, one space apart
_PLAIN_VALUE = re.compile(r"[!-~]+(?: [!-~]+)*")


class _Generator(BytesGenerator):
    """The email package's generator, writing a plain header value (`_PLAIN_VALUE`) straight
    out: the same bytes as its folding machinery gives for one with folding off (maxheaderlen=0),
    without building a Header object per field of every part."""

    def _write_headers(self, msg: Message) -> None:
        nl = self._NL  # type: ignore[attr-defined]
        for name, value in msg.raw_items():
            if isinstance(value, str) and value.isascii() and _PLAIN_VALUE.fullmatch(value):
                self._fp.write(f"{name}: {value}{nl}".encode("ascii"))  # type: ignore[attr-defined]
            else:
                self._fp.write(self.policy.fold_binary(name, value))  # type: ignore[attr-defined,union-attr]
        self.write(nl)


def _text(body: str, subtype: str) -> MIMEText:
    return MIMEText(body, subtype, _UTF8_QP)  # type: ignore[arg-type]


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

    Built with the `email.mime` classes: the modern `EmailMessage` API parses every header it is
    given back into objects, five times the cost, for the same bytes in the end.
    """
    # Each picture goes in as a short placeholder and its base64 text (encoded once, cached) is
    # put in place afterwards: every player's report carries the same picture twice, and the
    # email package would encode it line by line each time.
    placeholders = [f"pbem-picture-{n}-{hashlib.sha256(p.png).hexdigest()[:16]}".encode()
                    for n, p in enumerate(pictures)]
    body: MIMEBase = _text(text, "plain")
    if html is not None:
        html_part: MIMEBase = _text(html, "html")
        if pictures:
            # One part per picture: shown inline by the HTML (cid:) and, with its filename,
            # offered for saving too; a second attached copy only doubled the mail's size.
            related = MIMEMultipart("related")
            related.attach(html_part)
            for pic, holder in zip(pictures, placeholders, strict=True):
                image = MIMEImage(holder, "png")
                image["Content-ID"] = f"<{pic.cid}>"
                image.add_header("Content-Disposition", "inline", filename=pic.filename)
                related.attach(image)
            html_part = related
        alternative = MIMEMultipart("alternative")
        alternative.attach(body)
        alternative.attach(html_part)
        body = alternative
    elif pictures:
        mixed = MIMEMultipart("mixed")
        mixed.attach(body)
        for pic, holder in zip(pictures, placeholders, strict=True):
            image = MIMEImage(holder, "png")
            image.add_header("Content-Disposition", "inline", filename=pic.filename)
            mixed.attach(image)
        body = mixed
    if calendar is not None:  # (filename, iCalendar text): the deadline for the reader's calendar
        filename, ical = calendar
        event = MIMEText(ical, "calendar", "utf-8")
        event.set_param("method", "PUBLISH")
        event.add_header("Content-Disposition", "attachment", filename=filename)
        if body.get_content_type() != "multipart/mixed":
            mixed = MIMEMultipart("mixed")
            mixed.attach(body)
            body = mixed
        body.attach(event)
    msg = body
    if not is_msg_id(msg_id):
        raise ValueError(f"not a valid Message-ID: {msg_id!r}")
    msg["From"] = formataddr((safe_header_text(sender_name, MAX_NAME), _address(sender)))
    to_name = safe_header_text(to_name, MAX_NAME)
    msg["To"] = formataddr((to_name, _address(to))) if to_name else _address(to)
    msg["Subject"] = _header(safe_header_text(subject, MAX_SUBJECT))  # type: ignore[assignment]
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = msg_id
    msg["Auto-Submitted"] = safe_header_text(auto_submitted, 40)
    msg["X-Auto-Response-Suppress"] = "All"
    in_reply_to = in_reply_to.strip() if in_reply_to else None
    if in_reply_to and is_msg_id(in_reply_to):  # anything else is dropped, never echoed
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    if "MIME-Version" not in msg:
        msg["MIME-Version"] = "1.0"
    seed = hashlib.sha256(msg_id.encode()).hexdigest()[:20]
    for n, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{seed}_{n}")
    out = io.BytesIO()
    # no folding: Message-IDs and In-Reply-To stay on one line, as mail programs write them
    _Generator(out, mangle_from_=False, maxheaderlen=0).flatten(msg)
    raw = out.getvalue()
    for pic, holder in zip(pictures, placeholders, strict=True):
        raw = raw.replace(base64.b64encode(holder), _base64_lines(pic.png))
    return raw


@functools.lru_cache(maxsize=8)
def _base64_lines(data: bytes) -> bytes:
    """Base64 in 76-character lines, without the final newline (the generator adds it)."""
    return base64.encodebytes(data).rstrip(b"\n")
