"""A mail's structure, read without trusting it: parsing, headers, content types, parts and their bytes."""

from __future__ import annotations

import binascii
import email
import email.policy
import re
from email.message import EmailMessage, Message

from pbem.mail.guard import MAX_BYTES, check_limits, header_block
from pbem.mail.headers import raw_header


def parse_message(raw: bytes, *, max_bytes: int = MAX_BYTES) -> EmailMessage:
    """Parse raw RFC 5322 bytes; never raises and never hangs, whatever the bytes are.

    A mail that breaks a limit of :func:`pbem.mail.guard.check_limits` is not parsed
    whole: only its top header block is, when that is within the limits itself (so that
    the sender can still be told why), else nothing.  The stdlib parser registers defects
    instead of raising on almost everything; the fallback only exists so that a parser
    bug cannot lose a mail.
    """
    if check_limits(raw, max_bytes=max_bytes) is not None:
        head = header_block(raw)
        raw = head + b"\n\n" if check_limits(head + b"\n\n") is None else b""
    try:
        msg = email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)
        if isinstance(msg, EmailMessage):
            return msg
    except Exception:  # a parser bug must not lose the mail
        pass
    fallback = EmailMessage(policy=email.policy.default)
    fallback.set_payload(raw.decode("ascii", "surrogateescape"))
    return fallback


def content_type(part: Message) -> str:
    """'maintype/subtype' in lower case; text/plain when missing or broken (RFC 2045)."""
    value = raw_header(part, "content-type") or ""
    if not value:
        return "text/plain"
    ctype = value.split(";", 1)[0].strip().strip("\"'").lower()
    if ctype.count("/") != 1 or " " in ctype:
        return "text/plain"
    return ctype


_PARAM_RE = re.compile(r';\s*([\w.*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)')


def content_type_param(part: Message, param: str) -> str:
    """A Content-Type parameter (lower-cased name lookup, quotes removed)."""
    for match in _PARAM_RE.finditer(raw_header(part, "content-type") or ""):
        name = match.group(1).lower().split("*", 1)[0]
        if name == param:
            value = match.group(2)
            if value.startswith('"') and value.endswith('"') and len(value) >= 2:
                value = value[1:-1]
            if "''" in value:  # RFC 2231: charset'lang'value
                value = value.split("''", 1)[1]
            return value.strip()
    return ""


def children(part: Message) -> list[Message]:
    try:
        payload = part.get_payload()
    except Exception:  # never raise on odd input
        return []
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, Message)]
    return []


def walk(msg: Message, *, into_messages: bool = True) -> list[Message]:
    """All parts, depth first, without recursion (nesting depth is attacker-chosen)."""
    out: list[Message] = []
    stack: list[Message] = [msg]
    while stack:
        part = stack.pop()
        out.append(part)
        if not into_messages and part is not msg and content_type(part).startswith("message/"):
            continue
        stack.extend(reversed(children(part)))
    return out


def payload_bytes(part: Message) -> bytes:
    """The decoded body of one leaf part, tolerating bogus transfer encodings."""
    # The raw payload, not get_payload(): for 8-bit bodies that re-decodes the bytes with
    # the declared charset and *replaces* what does not fit (a UTF-8 body labelled
    # ISO-2022-JP would come out as U+FFFD), and it only knows the exact CTE spellings.
    payload = getattr(part, "_payload", None)
    if not isinstance(payload, str):
        return b""
    data = payload.encode("utf-8", "surrogateescape")
    cte = (raw_header(part, "content-transfer-encoding") or "").lower().split(";", 1)[0].strip(" \"'")
    if "base64" in cte:
        return _b64decode(data)
    if "quoted-printable" in cte or cte in {"qp", "quoted printable"}:
        try:
            return binascii.a2b_qp(data)
        except (binascii.Error, ValueError):
            return data
    if "uu" in cte:
        try:
            decoded = part.get_payload(decode=True)
        except Exception:  # never raise on odd input
            return data
        return decoded if isinstance(decoded, bytes) else data
    return data


def _b64decode(data: bytes) -> bytes:
    try:
        return binascii.a2b_base64(data)
    except (binascii.Error, ValueError):
        pass
    cleaned = re.sub(rb"[^A-Za-z0-9+/]", b"", data)
    cleaned = cleaned[: len(cleaned) - len(cleaned) % 4] if len(cleaned) % 4 == 1 else cleaned
    cleaned += b"=" * (-len(cleaned) % 4)
    try:
        return binascii.a2b_base64(cleaned)
    except (binascii.Error, ValueError):
        return data


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
