"""Turn one raw incoming mail into the player's own new text, or the reason it has none.

Pure functions: bytes in, values out, no I/O.  The pipeline is

    parse_message(raw) -> classify(msg) -> body_text(msg) -> reply_text(body)

and :func:`extract_orders_text` runs all four.  Every step is written to survive real,
broken mail (see ``tests/corpus/``): nothing here raises on odd input, and everything
that scans text is linear in its length, because a mail is attacker-controlled input.
"""

from __future__ import annotations

import binascii
import codecs
import email
import email.header
import email.policy
import functools
import re
from collections.abc import Collection
from dataclasses import dataclass
from email.message import EmailMessage, Message
from html.parser import HTMLParser
from typing import Final

from pbem.mail.guard import MAX_BYTES, check_limits, header_block

__all__ = [
    "Extracted",
    "body_text",
    "classify",
    "extract_orders_text",
    "html_to_text",
    "parse_message",
    "reply_text",
]

# Reasons returned by classify() and extract_orders_text().
AUTO_REPLY: Final = "auto-reply"
BOUNCE: Final = "bounce"
LIST_MAIL: Final = "list mail"
COMPLAINT: Final = "complaint"
READ_RECEIPT: Final = "read receipt"
NOT_MAIL: Final = "not mail"
OWN_MAIL: Final = "own mail"  # from pbem's own address: answering it would loop
NULL_SENDER: Final = "null sender"  # Return-Path: <> (RFC 3834 2: never answered)
REPORT: Final = "report"  # any other multipart/report
NO_TEXT: Final = "no text"  # no readable text part at all
NO_NEW_TEXT: Final = "no new text"  # only quoted text, a signature or nothing


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


# ---------------------------------------------------------------------------------------
# Parsing


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


def _raw_headers(msg: Message) -> list[tuple[str, str]]:
    """All header fields as (lower-case name, unfolded raw value), without parsing them.

    Parsing a malformed header with ``policy.default`` can raise; reading the raw value
    cannot.
    """
    out: list[tuple[str, str]] = []
    try:
        for name, value in msg.raw_items():
            out.append((str(name).strip().lower(), " ".join(str(value).split())))
    except Exception:  # never raise on odd input
        pass
    return out


def _header(msg: Message, name: str) -> str:
    for key, value in _raw_headers(msg):
        if key == name:
            return value
    return ""


def _decoded(value: str) -> str:
    """An RFC 2047 header value as text, best effort."""
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except Exception:  # undecodable encoded words: keep the raw text
        return value


def _content_type(part: Message) -> str:
    """'maintype/subtype' in lower case; text/plain when missing or broken (RFC 2045)."""
    value = _header(part, "content-type")
    if not value:
        return "text/plain"
    ctype = value.split(";", 1)[0].strip().strip("\"'").lower()
    if ctype.count("/") != 1 or " " in ctype:
        return "text/plain"
    return ctype


_PARAM_RE = re.compile(r';\s*([\w.*-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)')


def _ctype_param(part: Message, param: str) -> str:
    """A Content-Type parameter (lower-cased name lookup, quotes removed)."""
    for match in _PARAM_RE.finditer(_header(part, "content-type")):
        name = match.group(1).lower().split("*", 1)[0]
        if name == param:
            value = match.group(2)
            if value.startswith('"') and value.endswith('"') and len(value) >= 2:
                value = value[1:-1]
            if "''" in value:  # RFC 2231: charset'lang'value
                value = value.split("''", 1)[1]
            return value.strip()
    return ""


def _children(part: Message) -> list[Message]:
    try:
        payload = part.get_payload()
    except Exception:  # never raise on odd input
        return []
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, Message)]
    return []


def _walk(msg: Message, *, into_messages: bool = True) -> list[Message]:
    """All parts, depth first, without recursion (nesting depth is attacker-chosen)."""
    out: list[Message] = []
    stack: list[Message] = [msg]
    while stack:
        part = stack.pop()
        out.append(part)
        if not into_messages and part is not msg and _content_type(part).startswith("message/"):
            continue
        stack.extend(reversed(_children(part)))
    return out


# ---------------------------------------------------------------------------------------
# Classification

_MAIL_HEADERS: Final = frozenset(
    "from to cc subject date message-id received mime-version"
    " content-type return-path sender reply-to delivered-to in-reply-to".split()
)
_LIST_HEADERS: Final = frozenset(
    "list-id list-unsubscribe list-post list-subscribe list-help list-owner"
    " list-archive mailing-list x-mailing-list x-ml-name x-mlserver".split()
)
_DAEMON_RE = re.compile(
    r"(?:^|[<\s\"])(?:mailer-daemon|mailer_daemon|mail-daemon|mailerdaemon|postmaster)"
    r"(?:@|>|\s|$)",
    re.I,
)
_AUTO_HEADERS: Final = frozenset(
    "x-autoreply x-autorespond x-autoresponder x-autoreply-from x-mail-autoreply".split()
)
# Nobody sends orders from an address that takes no replies.
_NOREPLY_RE = re.compile(r"(?:^|[<\s\"])(?:no-?reply|do-?not-?reply|donotreply)[\w.+-]*@", re.I)
# Subjects are the weakest hint (a player may write anything), so only the fixed
# phrasings of mail servers and vacation programs count, mostly with their colon.
_BOUNCE_SUBJECT_RE = re.compile(
    r"^\s*(?:undeliverable(?: mail| message)?\s*:|undelivered mail returned to sender"
    r"|delivery status notification|mail delivery (?:failed|failure|system)|returned mail\s*:"
    r"|failure notice$|delivery failure\s*:|mail system error|unzustellbar\s*:|non remis\s*:)",
    re.I,
)
_AUTO_SUBJECT_RE = re.compile(
    r"^\s*(?:auto(?:matic)?[ _-]?(?:reply|response|respons|antwort)|auto"
    r"|out of (?:the )?office(?: reply| autoreply)?|abwesenheitsnotiz|automatische antwort"
    r"|réponse automatique|risposta automatica|respuesta automática|automatisch antwoord"
    r"|automatisk svar|autosvar|automaattinen vastaus|odpowiedź automatyczna|автоответ"
    r"|fuera de la oficina)\s*:",
    re.I,
)


def _addresses_in(value: str) -> list[str]:
    """Addresses in a raw field value, lower case: each '<...>', else the bare words with '@'."""
    out: list[str] = []
    pos = 0
    while True:
        start = value.find("<", pos)
        end = value.find(">", start + 1) if start >= 0 else -1
        if start < 0 or end < 0:
            break
        out.append(value[start + 1 : end].strip().lower())
        pos = end + 1
    if not out:
        out = [w.strip("\"'(),;").lower() for w in value.split() if "@" in w]
    return out


def classify(msg: Message, *, own_addresses: Collection[str] = ()) -> str | None:
    """Why this mail must never be read as orders nor answered, or None if it may be.

    Checked in order: not mail at all, mail from one of `own_addresses` (From, Sender or
    Return-Path: answering it would loop), delivery reports (bounces), abuse reports
    (complaints), read receipts, other reports, a null Return-Path ('<>', RFC 3834 2),
    auto-replies (Auto-Submitted other than 'no', RFC 3834, and common vacation habits)
    and list or bulk mail (List-* fields, Precedence bulk, list or junk).
    """
    headers = _raw_headers(msg)
    names = {name for name, _ in headers}
    if not names & _MAIL_HEADERS:
        return NOT_MAIL
    own = {a.strip().lower() for a in own_addresses if a.strip()}
    if own:
        for name, val in headers:
            if name in ("from", "sender", "return-path") and own & set(_addresses_in(val)):
                return OWN_MAIL

    def value(name: str) -> str:
        for key, val in headers:
            if key == name:
                return val
        return ""

    parts = _walk(msg, into_messages=False)  # a forwarded bounce is not a bounce
    report_types = {
        _ctype_param(p, "report-type").lower()
        for p in parts
        if _content_type(p) == "multipart/report"
    }
    ctypes = {_content_type(p) for p in parts}
    if (
        "delivery-status" in report_types
        or ctypes & {"message/delivery-status", "message/global-delivery-status"}
        or "x-failed-recipients" in names
    ):
        return BOUNCE
    if "feedback-report" in report_types or "message/feedback-report" in ctypes:
        return COMPLAINT
    if "disposition-notification" in report_types or ctypes & {
        "message/disposition-notification",
        "message/global-disposition-notification",
    }:
        return READ_RECEIPT
    if report_types:
        return REPORT
    sender = " ".join((value("from"), value("sender"), value("return-path")))
    subject = _decoded(value("subject"))
    if _DAEMON_RE.search(sender) or _BOUNCE_SUBJECT_RE.search(subject):
        return BOUNCE
    paths = [val for name, val in headers if name == "return-path"]
    if paths and paths[0].replace(" ", "") == "<>":
        return NULL_SENDER
    auto = value("auto-submitted").lower().split(";", 1)[0].split("(", 1)[0].strip()
    if auto and auto != "no":
        return AUTO_REPLY
    if names & _AUTO_HEADERS:
        return AUTO_REPLY
    if _NOREPLY_RE.search(value("from")):
        return AUTO_REPLY
    if _AUTO_SUBJECT_RE.search(subject) or value("x-precedence").lower() == "auto_reply":
        return AUTO_REPLY
    if names & _LIST_HEADERS:
        return LIST_MAIL
    if value("precedence").lower().strip() in {"bulk", "junk", "list"}:
        return LIST_MAIL
    return None


# ---------------------------------------------------------------------------------------
# Body


def _payload_bytes(part: Message) -> bytes:
    """The decoded body of one leaf part, tolerating bogus transfer encodings."""
    # The raw payload, not get_payload(): for 8-bit bodies that re-decodes the bytes with
    # the declared charset and *replaces* what does not fit (a UTF-8 body labelled
    # ISO-2022-JP would come out as U+FFFD), and it only knows the exact CTE spellings.
    payload = getattr(part, "_payload", None)
    if not isinstance(payload, str):
        return b""
    data = payload.encode("utf-8", "surrogateescape")
    cte = _header(part, "content-transfer-encoding").lower().split(";", 1)[0].strip(" \"'")
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
    data = _payload_bytes(part)
    declared = _ctype_param(part, "charset")
    if not declared and _content_type(part) == "text/html":
        meta = _META_CHARSET_RE.search(data[:4096])
        if meta:
            declared = meta.group(1).decode("ascii", "replace")
    return _decode(data, declared)


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def _is_attachment(part: Message) -> bool:
    disposition = _header(part, "content-disposition").lower()
    return disposition.startswith("attachment")


# Only the first few text parts are ever decoded: a mail of a thousand empty text parts
# must not cost a thousand decodings, and attachments are never decoded at all.
_MAX_TEXT_PARTS: Final = 4


def _body(msg: Message) -> tuple[str, str | None, bool]:
    """(text, charset, from_html) of the best text part; text/plain preferred."""
    plain: list[Message] = []
    html: list[Message] = []
    for part in _walk(msg, into_messages=False):
        if _children(part) or _is_attachment(part):
            continue
        ctype = _content_type(part)
        if ctype == "text/plain" and len(plain) < _MAX_TEXT_PARTS:
            plain.append(part)
        elif ctype == "text/html" and len(html) < _MAX_TEXT_PARTS:
            html.append(part)
    for part in plain:
        text, charset = _part_text(part)
        text = _normalise_newlines(text)
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
    return _body(msg)[0]


# ---------------------------------------------------------------------------------------
# HTML to text

_VOID_TAGS: Final = frozenset(
    "area base basefont br col embed frame hr img input keygen link meta param source track"
    " wbr".split()
)
_BLOCK_TAGS: Final = frozenset(
    "address article aside blockquote body caption center dd div dl dt fieldset figcaption"
    " figure footer form h1 h2 h3 h4 h5 h6 header hr html li main nav ol p pre section table"
    " tbody tfoot thead tr ul".split()
)
_CELL_TAGS: Final = frozenset({"td", "th"})
# Containers that hold the whole quoted mail.  Not Outlook's "divRplyFwdMsg": it holds
# only the From:/Sent: lines, and the quoted body follows outside it, where the header
# block rule of reply_text() cuts it off.
_QUOTE_MARKERS: Final = (
    "gmail_quote", "yahoo_quoted", "olk_src_body_section", "protonmail_quote", "zmail_extra",
)  # fmt: skip
_WS_RE = re.compile(r"\s+")
_QUOTE_FLAG: Final = 1
_PRE_FLAG: Final = 2
_SKIP_FLAG: Final = 4


class _HtmlText(HTMLParser):
    """Collects the text of an HTML document, one output line per rendered line.

    Iterative by construction (html.parser is a state machine and the open elements live
    in a list), so arbitrarily deep nesting cannot overflow the stack.  Text inside
    <blockquote> and known quote containers is prefixed with '> ' per level, so that
    reply_text() drops it like plain-text quoting.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._cur: list[str] = []
        self._cur_depth = 0
        self._depth = 0
        self._pre = 0
        self._skip = 0
        self._title = False
        self._stack: list[tuple[str, int]] = []
        self._open: dict[str, int] = {}

    def _flush(self, *, blank: bool = False) -> None:
        line = "".join(self._cur)
        if not self._pre:
            line = line.strip()
        if line.strip():
            self.lines.append("> " * self._cur_depth + line)
        elif blank:
            self.lines.append("")
        self._cur = []
        self._cur_depth = self._depth

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._title = True
            return
        if tag == "body":
            self._title = False
        if tag == "br":
            self._flush(blank=not self._cur)
            return
        if tag in _CELL_TAGS and self._cur:
            self._cur.append(" ")
        if tag in _BLOCK_TAGS:
            self._flush()
        if tag == "hr":
            self.lines.append("> " * self._depth + "_" * 32)
        if tag in _VOID_TAGS:
            return
        flags = 0
        marker = " ".join(v.lower() for k, v in attrs if k in ("class", "id") and v)
        if tag == "blockquote" or (marker and any(m in marker for m in _QUOTE_MARKERS)):
            flags |= _QUOTE_FLAG
            self._flush()
            self._depth += 1
            self._cur_depth = self._depth
        if tag in ("pre", "textarea", "listing", "plaintext", "xmp"):
            flags |= _PRE_FLAG
            self._pre += 1
        if tag in ("script", "style", "template"):
            flags |= _SKIP_FLAG
            self._skip += 1
        self._stack.append((tag, flags))
        self._open[tag] = self._open.get(tag, 0) + 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("title", "head"):
            self._title = False
        if tag in _BLOCK_TAGS or tag == "br":
            self._flush(blank=tag == "br" and not self._cur)
        if not self._open.get(tag):
            return
        while self._stack:  # implicitly close what was left open inside
            open_tag, flags = self._stack.pop()
            self._open[open_tag] -= 1
            if flags & _QUOTE_FLAG:
                self._flush()
                self._depth -= 1
                self._cur_depth = self._depth
            if flags & _PRE_FLAG:
                self._pre -= 1
            if flags & _SKIP_FLAG:
                self._skip -= 1
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._title or self._skip:
            return
        if self._pre:
            pieces = _normalise_newlines(data).split("\n")
            for index, piece in enumerate(pieces):
                if index:
                    self._flush(blank=True)
                if piece:
                    if not self._cur:
                        self._cur_depth = self._depth
                    self._cur.append(piece)
            return
        text = _WS_RE.sub(" ", data)
        if not self._cur:
            text = text.lstrip()
            if not text:
                return
            self._cur_depth = self._depth
        self._cur.append(text)

    def text(self) -> str:
        self._flush()
        out: list[str] = []
        for line in self.lines:
            if line or (out and out[-1]):
                out.append(line.rstrip())
        return "\n".join(out).strip("\n")


def html_to_text(source: str) -> str:
    """Render an HTML body as plain text lines; quoted blocks come out as '> ' lines."""
    parser = _HtmlText()
    try:
        parser.feed(source)
        parser.close()
    except Exception:  # html.parser is lenient; keep what was read
        pass
    return parser.text()


# ---------------------------------------------------------------------------------------
# Reply extraction
#
# One pass over the lines, top to bottom.  Every test looks at one line, or at most three
# joined lines of bounded length, so the whole pass is linear in the size of the text.

_MAX_HEADER_LINE: Final = 400

# '>' quoting, and usenet "supercite" quoting with the writer's initials ("JD> ...").
_QUOTED_RE = re.compile(r"^[ \t]*(?:>|[A-Za-z]{1,3}>(?:[ \t]|$))")
_SIG_RE = re.compile(r"^--[ \t]*$")
_DEVICE: Final = r"[\w][\w .'®™&+()-]{0,40}"
_MOBILE_SIG_RE = re.compile(
    r"^\s*[(<]*(?:"
    r"(?:sent|posted) (?:from|via|with|using|by|on) (?:my |the |a )?"
    + _DEVICE
    + r"|(?:sent|posted) from \[[^\]]{1,40}\]\([^)\s]{1,200}\)[\w .-]{0,30}"
    r"|get (?:outlook|\[outlook) for [\w\]\[() ./:?=-]{0,120}"
    r"|envoy[ée] (?:de|depuis|à partir de|avec) (?:mon|ma|mes|l'application)? ?"
    + _DEVICE
    + r"|enviado (?:desde|do|de|a partir do|con) (?:mi|meu|o meu|minha|el|o)? ?"
    + _DEVICE
    + r"|inviato (?:da|dal|dal mio|dalla mia|con) "
    + _DEVICE
    + r"|(?:verzonden|verstuurd) (?:vanaf|met|van|via) (?:mijn )?"
    + _DEVICE
    + r"|von meinem "
    + _DEVICE
    + r" gesendet"
    r"|gesendet (?:von|mit|vom) (?:meinem |der |dem )?"
    + _DEVICE
    + r"|diese nachricht wurde von meinem [\w .'®-]{1,60} gesendet"
    r"|(?:skickat|sendt|sendt) fr[åa] (?:min|mit) "
    + _DEVICE
    + r"|wysłane z (?:mojego |mojej )?"
    + _DEVICE
    + r"|отправлено (?:с|из) "
    + _DEVICE
    + r"|发自我的\s?\w{1,20}|從我的\s?\w{1,20}\s?傳送|\w{1,20}から送信"
    r")[)>]*\s*(?:<[^>\s]{1,300}>)?\s*[.!]?\s*$",
    re.I,
)
_FORWARD_RE = re.compile(
    r"^[\s>]*[-_=*~]*\s*(?:"
    r"begin forwarded message|forwarded message|original message|forwarded e-?mail"
    r"|weitergeleitete nachricht|ursprüngliche nachricht|originalnachricht"
    r"|anfang der weitergeleiteten nachricht"
    r"|message d'origine|message transféré|message original"
    r"|début du message (?:réexpédié|transféré)"
    r"|mensaje original|mensaje reenviado|inicio del mensaje reenviado"
    r"|messaggio originale|messaggio inoltrato|inizio messaggio inoltrato"
    r"|oorspronkelijk bericht|doorgestuurd bericht|origineel bericht"
    r"|oprindelig (?:meddelelse|besked)|videresendt (?:meddelelse|besked|melding)"
    r"|opprinnelig melding|ursprungligt meddelande|vidarebefordrat meddelande"
    r"|wiadomość oryginalna|oryginalna wiadomość|przekazana wiadomość"
    r"|исходное сообщение|пересылаемое сообщение|пересланное сообщение|переслане повідомлення"
    r"|mensagem original|mensagem encaminhada|původní zpráva|přeposlaná zpráva"
    r"|alkuperäinen viesti|välitetty viesti|eredeti üzenet|továbbított üzenet"
    r"|转发的邮件|原始邮件|転送されたメッセージ"
    r")\s*[:：]?\s*[-_=*~]*\s*$",
    re.I,
)
# "----- Any Title -----": a separator when a header block follows it.
_DASHED_TITLE_RE = re.compile(r"^\s*-{2,}\s*\S[^-]{0,60}?\s*-{2,}\s*$")
_FROM_KEYS: Final = (
    "from|de|von|van|da|fra|från|od|от кого|от|від|lähettäjä|feladó|gönderen|kimden|mittente"
    "|remetente|afzender|avsändare|absender|发件人|寄件者|差出人|보낸 사람|보낸사람"
)
_OTHER_KEYS: Final = (
    "sent|date|to|subject|cc|bcc|reply-to|envoyé|à|objet|gesendet|datum|an|betreff|kopie"
    "|verzonden|aan|onderwerp|inviato|data|a|oggetto|enviado|fecha|para|asunto|assunto"
    "|sendt|til|emne|skickat|till|ämne|kopia|wysłane|wysłano|do|temat|отправлено|дата|кому"
    "|тема|копия|надіслано|lähetetty|vastaanottaja|aihe|elküldve|címzett|tárgy|tarih"
    "|konu|gönderildi|kime|dato|message du"
    "|发送时间|收件人|主题|日期|送信日時|宛先|件名|날짜|받는 사람|제목"
)
_FROM_NAMES: Final = frozenset(_FROM_KEYS.split("|"))
_FIELD_NAMES: Final = _FROM_NAMES | frozenset(_OTHER_KEYS.split("|"))
# "From:", "*Von:*", "De :", "От кого:" - a field name of at most 16 characters.
_FIELD_NAME_RE = re.compile(r"^[ \t]*[*_]{0,2}([^\W\d_][\w -]{0,15}?)[*_]{0,2}[ \t]*[:：]")
_ADDRESS_RE = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+|\[mailto:")
_UNDERSCORES_RE = re.compile(r"^[ \t]*_{2,}[ \t]*$")
_SEPARATOR_RE = re.compile(r"^[\s\-_=*~#+.\u1427]*$")
_LIST_FOOTER_RE = re.compile(r"mailing list|listinfo|unsubscribe|https?://", re.I)

# "On <date>, <name> wrote:" in many languages.  The verb ends the header, or sits before
# the name ("Am ... schrieb Name:").  Candidates are at most _MAX_HEADER_LINE characters,
# which bounds the backtracking of the lazy gaps.
_WROTE: Final = (
    r"wrote|writes|has written|schrieb|schreibt|hat geschrieben|a écrit|a ecrit|escribió|escribio"
    r"|ha escrito|ha escrit|escreveu|napisał\(a\)|napisał|napisała|napisal|pisze|skrev"
    r"|schreef|scrisse|ha scritto|kirjoitti|írta|napsal\(a\)|napsal|napísal|написал\(а\)"
    r"|написала|написал|пишет|написав|yazdı|έγραψε|a scris|rašė|rakstīja"
    r"|je napisao|je napisala|je napisal|kirjutas|skrifaði"
)
_HEADER_VERB_RE = re.compile(r"\b(?:" + _WROTE + r")\b", re.I)
# Plain-string forms of the verbs, for cheap tests before any regex runs.
_VERBS: Final = tuple(v.replace("\\(", "(").replace("\\)", ")") for v in _WROTE.split("|"))
_HEADER_CJK_RE = re.compile(
    r"(?:写道|寫道|작성|のメッセージ|さんは書きました|書きました)\s*[:：]\s*$"
)
# A date or time and an address, ending in a colon: "2014-03-20 8:48 GMT+01:00 Name <a@b>:",
# "Wednesday, 17 November 2021, 3:32 PM +0300 from a@b <a@b>:".
_HEADER_DATE_ADDRESS_RE = re.compile(
    r"^(?=.{0,300}(?:\d{1,2}[:.]\d\d|\d{4}))(?=.{0,400}@).{0,400}[:：]\s*$"
)
# Headers with neither a verb nor a final colon: Gmail's "2016-03-03 17:21 GMT+01:00 Name",
# "2013/7/20 Name <a@b>", and "On Thu, 31 Mar 2016 at 11:16 Name".
_HEADER_BARE_RE = re.compile(
    r"^\d{4}-\d\d-\d\d \d{1,2}:\d\d GMT[+-]\d{1,2}:\d\d \S"
    r"|^\d{4}/\d{1,2}/\d{1,2} [^<>]{1,100}<[^<>@\s]+@[^<>\s]+>:?$"
    r"|^On (?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,? "
    r"(?:\d{1,2} [a-z]{3,9}|[a-z]{3,9} \d{1,2}),? \d{4}\b[^.!?]{0,20}\d{1,2}:\d\d",
    re.I,
)
_HEADER_EVIDENCE_RE = re.compile(r"\d|@")
_HEADER_START_RE = re.compile(
    r"^[\s\-*]*(?:\d|on\b|le\b|el\b|am\b|op\b|il\b|em\b|w dniu\b|dnia\b|den\b|på\b|dne\b"
    r"|dňa\b|в\b|у\b|στις\b|在|于|於)",
    re.I,
)
_CONTINUATION_QUOTE_RE = re.compile(r"^\s*>\s*(?:[:：]|(?:" + _WROTE + r")\s*[:：]?)\s*$", re.I)


def _is_quoted(line: str) -> bool:
    return _QUOTED_RE.match(line) is not None


def _is_blank(line: str) -> bool:
    return not line.strip()


def _header_match(candidate: str) -> tuple[bool, bool]:
    """(is a quote header, certain) for one joined candidate line."""
    if _HEADER_BARE_RE.match(candidate):
        return True, True
    if not _could_end_header(candidate):
        return False, False
    end = len(candidate)
    if _HEADER_CJK_RE.search(candidate, max(0, end - 30)) or _HEADER_DATE_ADDRESS_RE.match(
        candidate
    ):
        return True, True
    # The verb ends the header ("... wrote:", "... wrote ----"), or is followed by at most
    # a name and an address ("Am ... schrieb Name <a@b>:"), so only the tail is searched.
    lowered = candidate.lower()
    if lowered.rstrip(" \t:：-").endswith(_VERBS) or (
        candidate[-1] in ":：" and _HEADER_VERB_RE.search(candidate, max(0, end - 230))
    ):
        return True, _HEADER_EVIDENCE_RE.search(candidate) is not None
    return False, False


def _could_end_header(line: str) -> bool:
    """Cheap test: can a quote header end with this line?"""
    tail = line.rstrip()[-12:].lower()
    if tail.endswith((":", "：")):
        return True
    return tail.rstrip(" -").endswith("wrote")


def _quote_header(lines: list[str], i: int) -> tuple[int, bool]:
    """(number of lines, certain) of an 'On ... wrote:' header starting at line i.

    ``certain`` is False for a bare 'Someone wrote:' without a date or an address: that
    counts as a header only when a quoted block follows it.  A header wrapped over two or
    three lines must start like one (a date, an address, 'On', 'Le', 'Am' ...) so that the
    own line above a header is never taken into it.
    """
    first = lines[i]
    if len(first) > _MAX_HEADER_LINE:
        return 0, False
    if not _HEADER_BARE_RE.match(first) and not any(
        _could_end_header(line) for line in lines[i : i + 3]
    ):
        return 0, False  # the common case, decided cheaply
    starts_like_header = _HEADER_START_RE.match(first) is not None
    may_wrap = starts_like_header or _HEADER_EVIDENCE_RE.search(first) is not None
    parts: list[str] = []
    size = 0
    for k in range(3):
        if i + k >= len(lines) or (k and not may_wrap):
            break
        line = lines[i + k]
        if k and _CONTINUATION_QUOTE_RE.match(line):
            # "... <a@b.example" / ">:" - a wrapped header whose tail looks quoted
            line = line.replace(">", "", 1)
        elif _is_blank(line) or _is_quoted(line):
            break
        size += len(line)
        if size > _MAX_HEADER_LINE:
            break
        parts.append(line.strip())
        found, certain = _header_match(" ".join(parts))
        if found:
            if (
                k
                and not starts_like_header
                and first.rstrip().endswith((".", "!", "?", ":"))
                and _header_match(" ".join(parts[1:]))[1]
            ):
                return 0, False  # the header starts on the next line; this one is own text
            return k + 1, certain
    return 0, False


_NO_FIELD: Final = 0
_FIELD: Final = 1
_FROM_FIELD: Final = 2


def _field(line: str) -> int:
    """Is the line a header field of a quoted mail ('Sent: ...'), a From-like one, or not?"""
    if len(line) > _MAX_HEADER_LINE:
        return _NO_FIELD
    return _field_of(line)


@functools.lru_cache(maxsize=4096)  # header blocks look at each line up to eight times
def _field_of(line: str) -> int:
    match = _FIELD_NAME_RE.match(line)
    if match is None:
        return _NO_FIELD
    name = match.group(1).strip().lower()
    if name in _FROM_NAMES:
        return _FROM_FIELD
    return _FIELD if name in _FIELD_NAMES else _NO_FIELD


def _header_keys(lines: list[str], i: int) -> tuple[int, bool]:
    """(header fields, one of them is From-like) in the block starting at line i."""
    keys = 0
    saw_from = False
    for j in range(i, min(len(lines), i + 8)):
        line = lines[j]
        if _is_blank(line):
            continue
        kind = _field(line)
        if kind:
            keys += 1
            saw_from = saw_from or kind == _FROM_FIELD
        elif keys == 0:
            break
    return keys, saw_from


def _header_block(lines: list[str], i: int) -> int:
    """Size class of an Outlook-style 'From: / Sent: / To: / Subject:' block at line i.

    2: a full block (two or more fields, one of them From-like); 1: a lone 'From:' line
    with an address; 0: none.
    """
    line = lines[i]
    kind = _field(line)
    if not kind:
        return 0
    keys, saw_from = _header_keys(lines, i)
    if keys >= 2 and saw_from:
        return 2
    if kind == _FROM_FIELD and _ADDRESS_RE.search(line):
        return 1
    return 0


def _next_nonblank(lines: list[str], i: int, limit: int = 4) -> int:
    j = i
    while j < len(lines) and j < i + limit and _is_blank(lines[j]):
        j += 1
    return j


def _skip_headers(lines: list[str], i: int) -> int:
    """Index of the first body line after the header block of a forwarded mail at i."""
    j = _next_nonblank(lines, i)
    if j >= len(lines) or not _field(lines[j]):
        return j
    while j < len(lines) and not _is_blank(lines[j]):
        j += 1
    return j


_FIELD_RE = re.compile(r"^\s*\w+(?:\s+\d+)?\s*:")


def _wrapped_quote_tail(lines: list[str], i: int) -> int:
    """Lines at i that are the tail of a quoted line a mail program re-wrapped.

    '> ... a long quoted line that got cut in the mid' / 'dle of a word' / '> ...': the
    middle line lost its '>'.  Only a short lower-case run sandwiched between quoted
    lines qualifies, and never one that starts like a field ("move: ..."), so an own
    answer written inline is never taken for one.
    """
    if i == 0 or not _is_quoted(lines[i - 1]) or len(lines[i - 1].strip()) < 50:
        return 0
    for run in (1, 2):
        if i + run >= len(lines):
            return 0
        tail = lines[i + run - 1]
        if _is_blank(tail) or _is_quoted(tail) or not tail.lstrip()[:1].islower():
            return 0
        if _FIELD_RE.match(tail):
            return 0
        if _is_quoted(lines[i + run]):
            return run
    return 0


def _forward_marker(lines: list[str], i: int) -> bool:
    """Does a '---- Forwarded message ----' / '-----Original Message-----' line start at i?

    A bare phrase ('Original message' as own words) counts only with a header block
    right under it.
    """
    line = lines[i]
    phrase = _FORWARD_RE.match(line) is not None
    if phrase and any(c in line for c in "-_=*~:：>"):
        return True
    if not phrase and _DASHED_TITLE_RE.match(line) is None:
        return False
    j = _next_nonblank(lines, i + 1)
    return j < len(lines) and _header_block(lines, j) == 2


def _split_reply(text: str, depth: int = 0) -> tuple[str, bool]:
    """(own text, came from a forwarded mail) - see reply_text()."""
    lines = _normalise_newlines(text).split("\n")
    kept: list[str] = []
    forward_body: int | None = None
    i = 0
    n = len(lines)
    dropped = False  # lines were dropped since the last kept line
    own = False  # a non-blank line was kept
    while i < n:
        line = lines[i]
        if _is_quoted(line):
            dropped = True
            i += 1
            continue
        if _is_blank(line):
            if not (dropped and kept and _is_blank(kept[-1])):  # one blank for a removed quote
                kept.append(line)
            i += 1
            continue
        if _SIG_RE.match(line) or (len(line) <= 300 and _MOBILE_SIG_RE.match(line)):
            break
        wrapped = _wrapped_quote_tail(lines, i)
        if wrapped:
            dropped = True
            i += wrapped
            continue
        size, certain = _quote_header(lines, i)
        if size:
            j = _next_nonblank(lines, i + size)
            if j < n and _is_quoted(lines[j]):
                dropped = True
                i = j  # the header introduces a '>' block; own text may follow it
                continue
            if certain:
                if own:
                    break
                i += size  # a header on top of everything: what follows is the text
                continue
        if len(line) <= _MAX_HEADER_LINE and _forward_marker(lines, i):
            forward_body = _skip_headers(lines, i + 1)
            break
        block = _header_block(lines, i)
        if block == 2 and not own:
            forward_body = _skip_headers(lines, i)
            break
        if block:
            break
        if _UNDERSCORES_RE.match(line):
            j = _next_nonblank(lines, i + 1)
            if j >= n or _field(lines[j]) or _LIST_FOOTER_RE.search(lines[j]):
                break
        kept.append(line)
        dropped = False
        own = True
        i += 1
    while kept and _SEPARATOR_RE.match(kept[-1]):
        kept.pop()
    first = 0
    while first < len(kept) and _is_blank(kept[first]):
        first += 1
    reply = "\n".join(line.rstrip() for line in kept[first:])
    if not reply and forward_body is not None and depth < 3:
        inner, _ = _split_reply("\n".join(lines[forward_body:]), depth + 1)
        return inner, bool(inner)
    return reply, False


def reply_text(text: str) -> str:
    """The sender's own new text in a mail body.

    Drops '>'-quoted lines, 'On ... wrote:' headers (many languages, wrapped over up to
    three lines), Outlook 'From: / Sent:' blocks and '-----Original Message-----'
    separators with everything after them, and cuts at a signature line ('--' and
    optional spaces) or a 'Sent from my iPhone'-style line.  Own text between quoted
    blocks (inline replies) is kept.  A mail that only forwards another mail yields the
    forwarded mail's own text.  Linear in the length of the text.
    """
    return _split_reply(text)[0]


# ---------------------------------------------------------------------------------------


def extract_orders_text(raw: bytes, msg: Message | None = None) -> Extracted:
    """The player's own text in one raw mail (parsed already as `msg`, if given), or the reason
    there is none."""
    if msg is None:
        msg = parse_message(raw)
    reason = classify(msg)
    if reason is not None:
        return Extracted(text=None, reason=reason)
    body, charset, from_html = _body(msg)
    if not body.strip():
        return Extracted(text=None, reason=NO_TEXT, charset=charset, from_html=from_html)
    reply, forwarded = _split_reply(body)
    if not reply.strip():
        return Extracted(text=None, reason=NO_NEW_TEXT, charset=charset, from_html=from_html)
    return Extracted(
        text=reply, reason=None, charset=charset, from_html=from_html, forwarded=forwarded
    )
