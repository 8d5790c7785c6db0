"""Read RFC 3464 delivery status notifications: which recipients failed, and for which mail."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message
from typing import Final

from pbem.mail import mime
from pbem.mail.guard import header_block, header_fields
from pbem.mail.headers import clean_text, is_msg_id, raw_headers

__all__ = ["Bounce", "FailedRecipient", "parse_dsn"]

_MAX_RECIPIENTS: Final = 100
_STATUS_TYPES: Final = frozenset({"message/delivery-status", "message/global-delivery-status"})
_HEADERS_TYPES: Final = frozenset({"text/rfc822-headers", "message/global-headers"})
_MESSAGE_TYPES: Final = frozenset({"message/rfc822", "message/global"})


@dataclass(frozen=True)
class FailedRecipient:
    """One recipient a mail did not reach (yet): Action 'failed' or 'delayed'.

    ``status`` is the enhanced status code ('5.1.1': 5 is permanent, 4 temporary) and
    ``diagnostic`` the remote server's words, both as reported ("" when missing).
    """

    address: str
    action: str
    status: str
    diagnostic: str
    original_address: str = ""

    @property
    def permanent(self) -> bool:
        return self.action == "failed" and not self.status.startswith("4")


@dataclass(frozen=True)
class Bounce:
    """A delivery status notification: who it failed for, and the Message-ID of the mail
    that bounced (None when the report does not quote it), to find it in the outbox."""

    recipients: tuple[FailedRecipient, ...]
    original_message_id: str | None
    reporting_mta: str = ""


def _value(text: str, limit: int = 1000) -> str:
    """'rfc822; ann@example.org' -> 'ann@example.org' (the type before ';' dropped)."""
    kind, semi, rest = text.partition(";")
    return clean_text(rest if semi else kind, limit=limit)


def _blocks(part: Message) -> list[list[tuple[str, str]]]:
    """The field blocks of a delivery-status part: per-message first, then per-recipient."""
    children = mime.children(part)
    if children:  # the email package parses each block of message/delivery-status
        return [raw_headers(child) for child in children]
    data = mime.payload_bytes(part).replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return [header_fields(block) for block in data.split(b"\n\n") if block.strip()][: _MAX_RECIPIENTS + 1]


def _original_id(part: Message) -> str | None:
    ctype = mime.content_type(part)
    fields: list[tuple[str, str]] = []
    if ctype in _MESSAGE_TYPES:
        inner = mime.children(part)
        fields = raw_headers(inner[0]) if inner else header_fields(header_block(mime.payload_bytes(part)))
    elif ctype in _HEADERS_TYPES:
        fields = header_fields(header_block(mime.payload_bytes(part)))
    for name, value in fields:
        if name == "message-id":
            candidate = clean_text(value, limit=1000)
            start = candidate.find("<")
            end = candidate.find(">", start)
            if start >= 0 and end > start and is_msg_id(candidate[start : end + 1]):
                return candidate[start : end + 1]
            return None
    return None


def parse_dsn(msg: Message) -> Bounce | None:
    """The Bounce in a multipart/report; report-type=delivery-status mail, or None.

    Reads the message/delivery-status part (RFC 3464): for every recipient block with
    Action failed or delayed, Final-Recipient, Original-Recipient, Status and
    Diagnostic-Code; and the Message-ID of the returned mail from its
    text/rfc822-headers or message/rfc822 part.  A report that lists no failed or delayed
    recipient (only 'delivered' or 'relayed') is None too.  Reports forwarded inside
    another mail are not read.  Intake calls it on mails classify() calls bounces and
    marks the outgoing mail with ``original_message_id`` as bounced for those recipients.
    """
    for report in mime.walk(msg, into_messages=False):
        if mime.content_type(report) != "multipart/report":
            continue
        if mime.content_type_param(report, "report-type").lower() != "delivery-status":
            continue
        parts = mime.children(report)
        status = next((p for p in parts if mime.content_type(p) in _STATUS_TYPES), None)
        if status is None:
            continue
        blocks = _blocks(status)
        mta = next((_value(v, 200) for n, v in blocks[0] if n == "reporting-mta"), "") if blocks else ""
        recipients: list[FailedRecipient] = []
        for block in blocks[1 : _MAX_RECIPIENTS + 1]:
            fields: dict[str, str] = {}
            for name, value in block:
                fields.setdefault(name, value)
            action = clean_text(fields.get("action", ""), limit=40).lower().split(" ", 1)[0]
            if action not in ("failed", "delayed"):
                continue
            address = _value(fields.get("final-recipient", "") or fields.get("original-recipient", ""), 300)
            if not address:
                continue
            recipients.append(FailedRecipient(
                address=address.strip("<>").lower(),
                action=action,
                status=clean_text(fields.get("status", ""), limit=40).split(" ", 1)[0],
                diagnostic=_value(fields.get("diagnostic-code", "")),
                original_address=_value(fields.get("original-recipient", ""), 300).strip("<>").lower(),
            ))
        if not recipients:
            return None
        original = next((i for i in map(_original_id, parts) if i), None)
        return Bounce(recipients=tuple(recipients), original_message_id=original, reporting_mta=mta)
    return None
