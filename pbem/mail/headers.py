"""Read the header fields intake needs from any mail, however malformed, without raising.

The email package's header objects parse on access, and some values make that raise
(``Message-ID: <@;b@x>``, broken encoded words, stray bytes).  These readers work from the
raw field values instead, clean them (no control characters, no lone surrogates, bounded
length) and return plain values: a reader never raises, whatever the mail holds.
"""

from __future__ import annotations

import email.header
import email.utils
import hashlib
from dataclasses import dataclass
from datetime import datetime
from email.message import Message
from typing import Final

from pbem.mail.guard import header_block, header_end, header_fields, normalise_line_ends

__all__ = [
    "MAX_ID",
    "MessageKey",
    "clean_text",
    "decoded",
    "is_msg_id",
    "message_key",
    "raw_header",
    "raw_headers",
    "read_authentication_results",
    "read_auto_submitted",
    "read_date",
    "read_from",
    "read_in_reply_to",
    "read_message_id",
    "read_references",
    "read_return_path",
    "read_subject",
]

MAX_ID: Final = 990  # a Message-ID as a store key (RFC 5322 lines are at most 998)
_MAX_VALUE: Final = 8 * 1024  # any one field, before it is cleaned
_MAX_REFERENCES: Final = 20


def clean_text(text: str, limit: int = 1000) -> str:
    """One line of printable text: controls and whitespace runs become one space, lone
    surrogates (bytes that were not UTF-8) become U+FFFD, at most `limit` characters."""
    out = "".join(
        " " if (ch < " " or "\x7f" <= ch <= "\x9f" or ch in "\u2028\u2029")
        else "\ufffd" if "\ud800" <= ch <= "\udfff"
        else ch
        for ch in text[: limit * 4]
    )
    return " ".join(out.split())[:limit]


def raw_headers(msg: Message) -> list[tuple[str, str]]:
    """All fields as (lower-case name, unfolded raw value), in order, without parsing them."""
    out: list[tuple[str, str]] = []
    try:
        for name, value in msg.raw_items():
            text = value if isinstance(value, str) else str(value)
            out.append((str(name).strip().lower(), " ".join(text[:_MAX_VALUE].split())))
    except Exception:  # never raise on odd input
        pass
    return out


def raw_header(msg: Message, name: str) -> str | None:
    """The first field called `name` (any case), unfolded and unparsed, or None."""
    wanted = name.lower()
    for key, value in raw_headers(msg):
        if key == wanted:
            return value
    return None


def decoded(value: str) -> str:
    """An RFC 2047 value as text, best effort; the raw text when it cannot be decoded."""
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except Exception:  # undecodable encoded words: keep the raw text
        return value


_ID_SPECIALS: Final = frozenset('<>()[]\\,;:@" ')


def _id_half(text: str) -> bool:
    return (
        bool(text)
        and text.isascii()
        and text.isprintable()
        and not any(ch in _ID_SPECIALS for ch in text)
        and not text.startswith(".")
        and not text.endswith(".")
        and ".." not in text
    )


def is_msg_id(text: str) -> bool:
    """Is `text` one syntactically valid msg-id, '<left@right>' (RFC 5322 3.6.4)?

    The right side may be a domain literal ('[192.0.2.1]'); obsolete quoted forms are not
    accepted, since pbem only ever echoes an id back in In-Reply-To.
    """
    if len(text) > MAX_ID or not (text.startswith("<") and text.endswith(">")):
        return False
    left, at, right = text[1:-1].partition("@")
    if not at or not _id_half(left):
        return False
    if right.startswith("[") and right.endswith("]"):
        inner = right[1:-1]
        return bool(inner) and inner.isascii() and inner.isprintable() and not any(
            ch in "[]\\ " for ch in inner
        )
    return _id_half(right)


def _msg_ids(value: str) -> list[str]:
    """The valid msg-ids in a field value, in order (linear: one pass over '<' and '>')."""
    out: list[str] = []
    pos = 0
    while True:
        start = value.find("<", pos)
        if start < 0:
            return out
        end = value.find(">", start)
        if end < 0:
            return out
        nested = value.rfind("<", start, end)
        candidate = value[nested : end + 1]
        if is_msg_id(candidate):
            out.append(candidate)
        pos = end + 1


def _id_key(value: str) -> str:
    """A field value as an id of at most MAX_ID characters: cleaned, and when longer, its
    start and a digest of the whole value (two long ids with one start stay apart)."""
    text = clean_text(value, limit=MAX_ID + 1)
    if len(text) <= MAX_ID:
        return text
    digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{text[: MAX_ID - len(digest) - 8]}…sha256:{digest}"


def read_message_id(msg: Message) -> str:
    """The Message-ID as sent (its first valid '<...>', else the cleaned value), at most
    MAX_ID characters; "" when there is none."""
    value = raw_header(msg, "message-id")
    if value is None:
        return ""
    ids = _msg_ids(value)
    return ids[0] if ids else _id_key(value)


def read_from(msg: Message) -> str:
    """The From field as text for logs and lists (decoded, cleaned); see read_sender() for
    the address to trust."""
    return clean_text(decoded(raw_header(msg, "from") or ""), limit=500)


def read_subject(msg: Message, limit: int = 500) -> str:
    """The Subject, encoded words decoded, as one clean line of at most `limit` characters."""
    return clean_text(decoded(raw_header(msg, "subject") or ""), limit=limit)


def read_date(msg: Message) -> datetime | None:
    """The Date as a datetime, or None when missing or not a date."""
    value = raw_header(msg, "date")
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(clean_text(value, limit=200))
    except Exception:  # any unreadable date is no date
        return None


def read_return_path(msg: Message) -> str | None:
    """The Return-Path address; "" for the null path '<>'; None when there is no field."""
    value = raw_header(msg, "return-path")
    if value is None:
        return None
    value = clean_text(value, limit=1000)
    start = value.find("<")
    if start >= 0:
        end = value.find(">", start)
        value = value[start + 1 : end if end >= 0 else len(value)]
    return value.strip()


def read_auto_submitted(msg: Message) -> str:
    """The Auto-Submitted keyword in lower case ('no', 'auto-replied' ...); "" when absent."""
    value = raw_header(msg, "auto-submitted") or ""
    return clean_text(value.split(";", 1)[0].split("(", 1)[0], limit=100).lower()


def read_in_reply_to(msg: Message) -> str | None:
    """The first valid msg-id of In-Reply-To, or None."""
    ids = _msg_ids(raw_header(msg, "in-reply-to") or "")
    return ids[0] if ids else None


def read_references(msg: Message) -> tuple[str, ...]:
    """The valid msg-ids of References, the last twenty of them (the nearest ancestors)."""
    return tuple(_msg_ids(raw_header(msg, "references") or "")[-_MAX_REFERENCES:])


def read_authentication_results(msg: Message) -> tuple[str, ...]:
    """Every Authentication-Results value, top first (the topmost was added last, by the
    receiving server), each cleaned to one line."""
    return tuple(
        clean_text(value, limit=_MAX_VALUE)
        for name, value in raw_headers(msg)
        if name == "authentication-results"
    )


@dataclass(frozen=True)
class MessageKey:
    """How an inbound mail is recognised again.

    ``id`` is the Message-ID (at most MAX_ID characters), or ``sha256:`` and a digest of
    the bytes when there is none; ``digest`` is ``sha256:`` and a digest of the body with
    its line ends normalised, so the same mail is recognised when it comes back with a new
    Message-ID or through another server.
    """

    id: str
    digest: str


def message_key(raw: bytes) -> MessageKey:
    """The MessageKey of a raw mail, read from the bytes alone (no parsing, linear)."""
    message_ids = [value for name, value in header_fields(header_block(raw)) if name == "message-id"]
    mid = ""
    if message_ids:
        ids = _msg_ids(message_ids[0])
        mid = ids[0] if ids else _id_key(message_ids[0])
    data = normalise_line_ends(raw)
    body = data[header_end(data) :].lstrip(b"\n").rstrip()
    digest = "sha256:" + hashlib.sha256(body).hexdigest()
    if not mid:
        mid = "sha256:" + hashlib.sha256(raw).hexdigest()
    return MessageKey(id=mid, digest=digest)
