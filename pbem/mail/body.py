"""The readable text of a mail: its first text part decoded whatever the charset, or its HTML part as text."""

from __future__ import annotations

import codecs
import re
from email.message import Message
from typing import Final

from pbem.mail import mime
from pbem.mail.flowed import unflow
from pbem.mail.headers import raw_header
from pbem.mail.htmltext import html_to_text

# Labels that name a smaller charset than the one mail programs really write.
_SUPERSETS: Final = {
    "us-ascii": "utf-8",
    "ascii": "utf-8",
    "ansi_x3.4-1968": "utf-8",
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "euc-kr": "cp949",
    "ks_c_5601-1987": "cp949",
    "big5": "big5hkscs",
    "iso-8859-8-i": "iso-8859-8",
    "windows-874": "cp874",
    "utf8": "utf-8",
}


_SINGLE_BYTE_WESTERN: Final = frozenset({"cp1252", "iso-8859-15", "iso8859-15", "latin-9"})


def _decode(data: bytes, declared: str) -> tuple[str, str]:
    """Bytes to text with the declared charset if it is known and fits, else a guess.

    Returns the text and the codec used.  Unknown labels (``X-UNKNOWN``,
    ``invalid-charset``) and wrong labels fall back to UTF-8, then Windows-1252, and as
    a last resort the declared codec (or Latin-1) with replacement characters.
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8) :].decode("utf-8", "replace"), "utf-8"
    label = declared.strip().strip("\"'").lower()
    codec = _SUPERSETS.get(label, label)
    if codec in _SINGLE_BYTE_WESTERN and not data.isascii():
        # Valid UTF-8 with multi-byte sequences is almost never Latin-1 text by chance;
        # it is a mail program that labels every mail with its default charset.
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            pass
    known = False
    if codec:
        try:
            return data.decode(codec), codec
        except LookupError:
            pass
        except UnicodeDecodeError:
            known = True
        except Exception:  # exotic codecs can raise anything
            pass
    for guess in ("utf-8", "cp1252"):
        if guess == codec:
            continue
        try:
            return data.decode(guess), guess
        except UnicodeDecodeError:
            pass
    if known:
        return data.decode(codec, "replace"), codec
    return data.decode("latin-1"), "latin-1"


_META_CHARSET_RE = re.compile(rb"""<meta[^>]{0,200}?charset\s*=\s*["']?([\w.:-]{1,40})""", re.I)


def _part_text(part: Message) -> tuple[str, str]:
    data = mime.payload_bytes(part)
    declared = mime.content_type_param(part, "charset")
    if not declared and mime.content_type(part) == "text/html":
        meta = _META_CHARSET_RE.search(data[:4096])
        if meta:
            declared = meta.group(1).decode("ascii", "replace")
    return _decode(data, declared)


def _is_attachment(part: Message) -> bool:
    disposition = (raw_header(part, "content-disposition") or "").lower()
    return disposition.startswith("attachment")


# Only the first few text parts are ever decoded: a mail of a thousand empty text parts
# must not cost a thousand decodings, and attachments are never decoded at all.
_MAX_TEXT_PARTS: Final = 4


def read_body(msg: Message) -> tuple[str, str | None, bool]:
    """(text, charset, from_html) of the best text part; text/plain preferred."""
    plain: list[Message] = []
    html: list[Message] = []
    for part in mime.walk(msg, into_messages=False):
        if mime.children(part) or _is_attachment(part):
            continue
        ctype = mime.content_type(part)
        if ctype == "text/plain" and len(plain) < _MAX_TEXT_PARTS:
            plain.append(part)
        elif ctype == "text/html" and len(html) < _MAX_TEXT_PARTS:
            html.append(part)
    for part in plain:
        text, charset = _part_text(part)
        text = mime.normalise_newlines(text)
        if mime.content_type_param(part, "format").lower() == "flowed":  # soft line breaks (RFC 3676)
            text = unflow(text, delsp=mime.content_type_param(part, "delsp").lower() == "yes")
        if text.strip():
            return text, charset, False
    for part in html:
        source, charset = _part_text(part)
        text = html_to_text(source)
        if text.strip():
            return text, charset, True
    return "", None, False


def body_text(msg: Message) -> str:
    """The text of a message: its first non-empty text/plain part, else its HTML as text.

    Attachments and enclosed messages (message/rfc822) are skipped.  Line endings are
    normalised to ``\\n``.  Returns "" when there is no readable text.
    """
    return read_body(msg)[0]
