"""Turn one raw incoming mail into the player's own new text, or the reason it has none.

Pure functions: bytes in, values out, no I/O.  The pipeline is

    parse_message(raw) -> classify(msg) -> body_text(msg) -> reply_text(body)

and :func:`extract_orders_text` runs all four.  Every step is written to survive real,
broken mail (see ``tests/corpus/``): nothing here raises on odd input, and everything
that scans text is linear in its length, because a mail is attacker-controlled input.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message

from pbem.mail.body import body_text, read_body
from pbem.mail.classify import (
    AUTO_REPLY,
    BOUNCE,
    COMPLAINT,
    LIST_MAIL,
    NO_NEW_TEXT,
    NO_TEXT,
    NOT_MAIL,
    NULL_SENDER,
    OWN_MAIL,
    READ_RECEIPT,
    REPORT,
    classify,
)
from pbem.mail.htmltext import html_to_text
from pbem.mail.mime import parse_message
from pbem.mail.reply import reply_text, split_reply

# The steps live in modules of their own (mime, classify, body, htmltext, reply); this one runs
# them, and its names stay the pipeline's one place to import from.
__all__ = [
    "AUTO_REPLY",
    "BOUNCE",
    "COMPLAINT",
    "LIST_MAIL",
    "NOT_MAIL",
    "NO_NEW_TEXT",
    "NO_TEXT",
    "NULL_SENDER",
    "OWN_MAIL",
    "READ_RECEIPT",
    "REPORT",
    "Extracted",
    "body_text",
    "classify",
    "extract_orders_text",
    "html_to_text",
    "parse_message",
    "reply_text",
]


@dataclass(frozen=True)
class Extracted:
    """The player's own text of one mail, or the reason it must not be read as orders.

    Exactly one of ``text`` and ``reason`` is set.  ``charset`` is the charset the text
    was decoded with; ``from_html`` says it came from an HTML part; ``forwarded`` says the
    mail had no text of its own and ``text`` is the body of a mail it forwards.
    """

    text: str | None
    reason: str | None
    charset: str | None = None
    from_html: bool = False
    forwarded: bool = False


def extract_orders_text(raw: bytes, msg: Message | None = None) -> Extracted:
    """The player's own text in one raw mail (parsed already as `msg`, if given), or the reason
    there is none."""
    if msg is None:
        msg = parse_message(raw)
    reason = classify(msg)
    if reason is not None:
        return Extracted(text=None, reason=reason)
    body, charset, from_html = read_body(msg)
    if not body.strip():
        return Extracted(text=None, reason=NO_TEXT, charset=charset, from_html=from_html)
    reply, forwarded = split_reply(body)
    if not reply.strip():
        return Extracted(text=None, reason=NO_NEW_TEXT, charset=charset, from_html=from_html)
    return Extracted(
        text=reply, reason=None, charset=charset, from_html=from_html, forwarded=forwarded
    )
