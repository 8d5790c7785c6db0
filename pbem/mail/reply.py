"""A reply's own new text: quoted mail, quote headers, forwarded mail and signatures cut off, in one linear pass."""

from __future__ import annotations

import functools
import re
from typing import Final

from pbem.mail import mime

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


# A long line of own text that a mail program broke right before a comparison ("... SCORE" /
# "> 40 THEN ..."): the piece starts like a quote, but a quote follows no own text directly
_WRAPPED_COMPARISON_RE = re.compile(r">=?[ \t]*\d")


def _wraps_own_text(line: str, kept: list[str], dropped: bool) -> bool:
    return bool(kept) and not dropped and not _is_blank(kept[-1]) and _WRAPPED_COMPARISON_RE.match(line) is not None


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


def split_reply(text: str, depth: int = 0) -> tuple[str, bool]:
    """(own text, came from a forwarded mail) - see reply_text()."""
    lines = mime.normalise_newlines(text).split("\n")
    kept: list[str] = []
    forward_body: int | None = None
    i = 0
    n = len(lines)
    dropped = False  # lines were dropped since the last kept line
    own = False  # a non-blank line was kept
    while i < n:
        line = lines[i]
        if _is_quoted(line) and not _wraps_own_text(line, kept, dropped):
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
        inner, _ = split_reply("\n".join(lines[forward_body:]), depth + 1)
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
    return split_reply(text)[0]
