"""Build outgoing mails as bytes: text and HTML, inline and attached pictures, stable headers."""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import default as default_policy
from email.utils import format_datetime
from typing import cast


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


def _address(text: str, name: str = "") -> Address:
    user, _, domain = text.partition("@")
    return Address(display_name=name, username=user, domain=domain)


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
) -> bytes:
    """The mail as bytes (LF line ends). Boundaries are derived from the Message-ID, so the same
    inputs always give the same bytes."""
    msg = EmailMessage()
    msg["From"] = _address(sender, sender_name)
    msg["To"] = _address(to, to_name)
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = msg_id
    msg["Auto-Submitted"] = auto_submitted
    msg["X-Auto-Response-Suppress"] = "All"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(text)
    # The email package writes base64 one line at a time, ~10 ms for a board picture; every
    # player's report carries the same picture twice. So each picture goes in as a short
    # placeholder and its base64 text (encoded once, cached) is put in place afterwards.
    placeholders = [f"pbem-picture-{n}-{hashlib.sha256(p.png).hexdigest()[:16]}".encode() for n, p in enumerate(pictures)]
    if html is not None:
        msg.add_alternative(html, subtype="html")
        if pictures:
            html_part = cast(EmailMessage, msg.get_payload()[1])  # type: ignore[index]
            for pic, holder in zip(pictures, placeholders):
                html_part.add_related(holder, maintype="image", subtype="png", cid=f"<{pic.cid}>",
                                      filename=pic.filename, disposition="inline", cte="base64")
    for pic, holder in zip(pictures, placeholders):
        msg.add_attachment(holder, maintype="image", subtype="png", filename=pic.filename, cte="base64")
    seed = hashlib.sha256(msg_id.encode()).hexdigest()[:20]
    for n, part in enumerate(p for p in msg.walk() if p.is_multipart()):
        part.set_boundary(f"=_pbem_{seed}_{n}")
    raw = msg.as_bytes(policy=default_policy)
    for pic, holder in zip(pictures, placeholders):
        raw = raw.replace(base64.b64encode(holder), _base64_lines(pic.png))
    return raw


@functools.lru_cache(maxsize=8)
def _base64_lines(data: bytes) -> bytes:
    """Base64 in 76-character lines, without the final newline (the generator adds it)."""
    return base64.encodebytes(data).rstrip(b"\n")
