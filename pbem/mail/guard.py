"""Size limits checked on the raw bytes of a mail before the email package parses them.

``email.message_from_bytes`` is quadratic in the number of parameters of a Content-Type
header, recurses once per nesting level and spends time on every MIME part, so a small
hostile mail can hang or crash it.  :func:`check_limits` looks at the bytes with plain
``bytes`` methods, in one linear pass, and says in plain words which limit a mail breaks.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "MAX_BYTES",
    "MAX_CONTAINERS",
    "MAX_FIELD_BYTES",
    "MAX_HEADERS",
    "MAX_HEADER_BYTES",
    "MAX_PARAMS",
    "MAX_PARTS",
    "check_limits",
    "header_block",
    "header_end",
    "header_fields",
    "normalise_line_ends",
]

MAX_BYTES: Final = 5 * 1024 * 1024  # the whole mail
MAX_HEADER_BYTES: Final = 256 * 1024  # the top header block
MAX_HEADERS: Final = 500  # header fields in the top header block
MAX_PARAMS: Final = 64  # parameters of one Content-* field (real mail has at most 5)
MAX_FIELD_BYTES: Final = 8 * 1024  # one Content-* field, unfolded
MAX_PARTS: Final = 1000  # MIME parts (boundary lines) in the whole mail
MAX_CONTAINERS: Final = 64  # multipart/* and message/* parts: bounds the nesting depth

_FIX: Final = "Send your orders as a short plain-text mail, without attachments."


def normalise_line_ends(raw: bytes) -> bytes:
    """CRLF and lone CR to LF, as the email package reads them."""
    return raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")


def _is_field_start(line: bytes) -> bool:
    """A header field line ('Name: value'), as the email package's feed parser sees one."""
    if line.startswith(b"From "):
        return True
    colon = line.find(b":")
    if colon <= 0:
        return False
    name = line[:colon]
    return name.isascii() and all(33 <= c <= 126 for c in name)


def header_end(data: bytes, start: int = 0) -> int:
    """Offset where the header block that starts at `start` ends (LF line ends).

    Like the feed parser: at the first empty line, or at the first line that is neither a
    field nor a continuation.
    """
    pos = start
    n = len(data)
    while pos < n:
        end = data.find(b"\n", pos)
        if end < 0:
            end = n
        line = data[pos:end]
        if not line:
            return pos
        if line[:1] not in (b" ", b"\t") and not _is_field_start(line):
            return pos
        pos = end + 1
    return n


def header_block(raw: bytes, *, limit: int = MAX_HEADER_BYTES) -> bytes:
    """The top header block of a raw mail with LF line ends, at most `limit` bytes of it."""
    head = normalise_line_ends(raw[: limit + 2])
    block = head[: header_end(head)][:limit]
    return block[:-1] if block.endswith(b"\n") else block


def header_fields(block: bytes | str, *, limit: int = MAX_HEADERS) -> list[tuple[str, str]]:
    """(lower-case name, unfolded value) of each field of a header block, at most `limit`.

    Reads bytes as UTF-8 with surrogate escapes, so no byte is lost and nothing raises.
    """
    text = block.decode("utf-8", "surrogateescape") if isinstance(block, bytes) else block
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    fields: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        if line[:1] in (" ", "\t"):
            if fields:
                fields[-1][1].append(line)
            continue
        if len(fields) >= limit:
            break
        name, colon, value = line.partition(":")
        if colon and name and name == name.strip():
            fields.append((name.lower(), [value]))
    return [(name, " ".join(" ".join(parts).split())) for name, parts in fields]


def _boundary(field: bytes) -> bytes | None:
    """The boundary parameter of an unfolded Content-Type field, or None."""
    lowered = field.lower()
    at = lowered.find(b"boundary")
    while at >= 0:
        rest = field[at + len(b"boundary") :].lstrip()
        if rest.startswith(b"="):
            value = rest[1:].lstrip()
            if value.startswith(b'"'):
                close = value.find(b'"', 1)
                return value[1:close] if close > 0 else value[1:]
            return value.split(b";", 1)[0].strip()
        at = lowered.find(b"boundary", at + 1)
    return None


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.0f} kB"
    return f"{n} bytes"


def check_limits(
    raw: bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_header_bytes: int = MAX_HEADER_BYTES,
    max_headers: int = MAX_HEADERS,
    max_params: int = MAX_PARAMS,
    max_field_bytes: int = MAX_FIELD_BYTES,
    max_parts: int = MAX_PARTS,
    max_containers: int = MAX_CONTAINERS,
) -> str | None:
    """Why this raw mail is too big or too complex to parse, or None if it is fine.

    Checked on the bytes, in one linear pass, before any parsing: the whole size, the size
    and the number of fields of the top header block, and for every ``Content-*`` field
    anywhere in the mail its unfolded size and number of ``;`` parameters; then the number
    of MIME parts and of multipart or message parts.  The reason names the limit and says
    how to fix it.
    """
    if len(raw) > max_bytes:
        return (
            f"the mail is {_size(len(raw))}, more than the {_size(max_bytes)} pbem accepts. "
            + _FIX
        )
    data = normalise_line_ends(raw)
    top = header_end(data)
    if top > max_header_bytes:
        return (
            f"the mail's header is {_size(top)}, more than the {_size(max_header_bytes)} pbem"
            " accepts. Send a new mail instead of forwarding or replying to a long thread."
        )
    count = data.count(b"\n", 0, top) + (1 if top and not data[:top].endswith(b"\n") else 0)
    count -= data.count(b"\n ", 0, top) + data.count(b"\n\t", 0, top)
    if count > max_headers:
        return (
            f"the mail has {count} header fields, more than the {max_headers} pbem accepts."
            " Send a new mail instead of forwarding or replying to a long thread."
        )
    boundaries: set[bytes] = set()
    containers = 0
    lowered = data.lower()
    pos = 0
    n = len(data)
    # Every Content-* field at a line start, in the top header block and in every part.
    while pos < n:
        at = lowered.find(b"content-", pos)
        if at < 0:
            break
        if at and data[at - 1] != 0x0A:  # not at a line start
            pos = at + 8
            continue
        end = at
        while True:  # the end of the field, past its continuation lines
            nl = data.find(b"\n", end)
            if nl < 0 or nl + 1 >= n or data[nl + 1] not in (0x20, 0x09):
                end = n if nl < 0 else nl
                break
            end = nl + 1
            if end - at > max_field_bytes:
                break
        pos = max(end, at + 8)
        if lowered.find(b":", at, min(end, at + 80)) < 0:
            continue  # "content-" inside a word of a text line
        if end - at > max_field_bytes:
            return (
                f"a Content- header of the mail is longer than {_size(max_field_bytes)}. "
                + _FIX
            )
        params = data.count(b";", at, end)
        if params > max_params:
            return (
                f"a Content- header of the mail has {params} parameters, more than the"
                f" {max_params} pbem accepts. " + _FIX
            )
        if lowered.startswith(b"content-type:", at):
            kind = lowered[at + 13 : end].lstrip()
            if kind.startswith((b"multipart/", b'"multipart/', b"message/", b'"message/')):
                containers += 1
                if containers > max_containers:
                    return (
                        f"the mail nests more than {max_containers} parts in one another. "
                        + _FIX
                    )
            boundary = _boundary(data[at:end])
            if boundary:
                boundaries.add(boundary)
    if boundaries:
        parts = 0
        at = data.find(b"\n--")
        while at >= 0:
            line_end = data.find(b"\n", at + 1)
            line = data[at + 3 : n if line_end < 0 else line_end].rstrip()
            if line in boundaries or (line.endswith(b"--") and line[:-2] in boundaries):
                parts += 1
                if parts > max_parts:
                    return f"the mail has more than {max_parts} MIME parts. " + _FIX
            at = data.find(b"\n--", at + 3)
    return None
