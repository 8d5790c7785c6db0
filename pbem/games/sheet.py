"""The order sheet, read once for every game: header lines, quotes, signature, limits, the echo.

Every game's orders arrive as the text of a mail. This reader takes what all games share —
the `GAME`, `TURN`, `SECRET` and `TIMEZONE` header lines, quoted text, the signature, comments,
what mail programs do to text, long lines they broke (`join_wrapped`, with the game's reading of
each line) — and hands the game the remaining lines, numbered as sent. The
game answers each line (accepted in canonical form, rejected with column and reason, or
ignored); the acknowledgement is the echo of both. Every step is a plain scan of the text:
no pattern here can take more than linear time, whatever a mail holds.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.orders import ErrorKind

#: limits on what one sheet may hold; a line beyond them is rejected with a reason
MAX_LINES = 200
MAX_SHOWN = 300  # characters of a line echoed back; the game still reads (and limits) all of it
MAX_TEXT = 200_000  # characters read at all; the rest of a longer text is ignored
MAX_ZONE_LENGTH = 64

HEADER_WORDS = ("GAME", "TURN", "SECRET", "TIMEZONE")
#: lines that ask the moderator for something rather than give orders
COMMANDS = ("NEW SECRET", "SEND SECRET", "HELP", "STATUS", "HISTORY", "PREVIEW", "STANDING", "SUGGEST")
#: commands that take words after them: `RESEND [turn]`, `VACATION <from> <to>` (dates),
#: `SITTER <level>` (a computer player's level, or OFF)
ARGUMENT_COMMANDS = {"RESEND": (0, 1), "VACATION": (2, 2), "SITTER": (1, 1)}
#: what the words of each such command are made of (at most 16 characters each)
_ARGUMENT_CHARS = {"RESEND": frozenset("0123456789-"), "VACATION": frozenset("0123456789-"),
                   "SITTER": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")}
#: `PRESS` takes the rest of the mail (up to the signature) as the message to relay
PRESS = "PRESS"
MAX_PRESS = 4000  # characters of a PRESS message; the rest is cut

#: words that tie the halves of an order line a mail program wrapped (any case): a line that
#: ends with one, or a line that starts with one, is not where the order ends
CONNECTIVES = frozenset({"ELSE", "OTHERWISE", "AND", "OR", "THEN"})
#: a wrapped order line is joined from at most this many lines, into at most this many characters
MAX_PIECES = 64
MAX_JOINED = 2000
#: the characters the game may be asked to read while wrapped lines are joined, per character of
#: the sheet's lines: each line is read once alone, and a run of lines that may be one whole,
#: then shorter until it reads
JOIN_BUDGET = 8

_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2032": "'",
        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\t": " ", "\u00a0": " ",
        "\u2264": "<=", "\u2265": ">=", "\u2260": "!=",
    }
)
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_ZONE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+-/")


#: why a line was rejected: not understood, understood but not allowed now, or unclear (the
#: toolkit's kinds of order error)
Rejection = ErrorKind


@dataclass(frozen=True)
class Line:
    """A line of the sheet for the game: its number in the mail, the text as sent, normalised."""

    number: int
    raw: str
    text: str


@dataclass(frozen=True)
class Accepted:
    line: int
    text: str
    canonical: str


@dataclass(frozen=True)
class Rejected:
    line: int
    column: int
    text: str
    reason: str
    kind: Rejection = Rejection.INVALID

    @property
    def context(self) -> str:
        """The line with a caret under the column."""
        shown = normalise(self.text)
        return f"{shown}\n{' ' * (max(self.column, 1) - 1)}^"


@dataclass(frozen=True)
class Ignored:
    line: int
    text: str


Echo = Accepted | Rejected | Ignored


@dataclass(frozen=True)
class Sheet:
    """A sheet's headers and the lines left for the game."""

    game: str | None = None
    turn: int | None = None
    secret: str | None = None
    timezone: str | None = None
    commands: tuple[str, ...] = ()
    #: the text after a PRESS line, None when the mail has none
    press: str | None = None
    lines: tuple[Line, ...] = ()
    #: the echo of the header lines (and of lines past the limits)
    echo: tuple[Echo, ...] = ()


class Reading(enum.Enum):
    """What a game makes of one line on its own, for joining the lines a mail program wrapped."""

    ORDER = "order"  # an order it understands: taken, or understood but not allowed now
    BROKEN = "broken"  # an order it cannot read: incomplete, or mistyped
    OTHER = "other"  # no order at all: a greeting, a sign-off, or the tail of a wrapped line


def reading_of(echo: Sequence[Echo]) -> Reading:
    """What the game's echo of a one-line sheet says of its line."""
    return readings_of(echo).get(echo[0].line, Reading.OTHER) if echo else Reading.OTHER


def readings_of(echo: Sequence[Echo]) -> dict[int, Reading]:
    """What the game's echo of a sheet says of each of its lines, by line number."""
    found: dict[int, Reading] = {}
    for e in echo:
        if isinstance(e, Accepted):
            found.setdefault(e.line, Reading.ORDER)
        elif isinstance(e, Rejected):
            found.setdefault(e.line, Reading.BROKEN if e.kind is Rejection.INVALID else Reading.ORDER)
        else:
            found.setdefault(e.line, Reading.OTHER)
    return found


def join_wrapped(sheet: Sheet, read: Callable[[str], Reading], connectives: frozenset[str] = CONNECTIVES,
                 readings: Mapping[int, Reading] | None = None) -> Sheet:
    """The sheet with each order line that a mail program broke in several joined again.

    Gmail's plain text and many other programs break a long line at about 78 characters and
    mark nothing; read as they come, the first half of a chain is a complete order and its
    fallbacks are lost. The lines that follow an order line directly (no blank, header or
    command line between) may continue it: a line that is no order of its own (the game reads
    nothing in it), a line tied to the one above by a connective (it starts with one, or the
    line above ends with one), and a line after an order line the game cannot read alone (it is
    incomplete). Of such a run, the longest that the game reads as an order is joined into one
    line, numbered as its first. When none reads, an unreadable order line keeps only the pieces
    tied to it by connectives, so that one rejection shows the whole line; a line that is an
    order of its own is never joined to the line above without a connective, nor is any line to
    a header, command or PRESS line. `read` is the game's reading of one line, and `readings`
    (if given) what it made of each line in the sheet, by number; `read` is asked for at most
    `JOIN_BUDGET` times the sheet's characters, so joining stays linear whatever a mail holds.
    The sheet itself comes back when nothing is joined.
    """
    lines = sheet.lines
    if len(lines) < 2:
        return sheet
    budget = JOIN_BUDGET * sum(len(line.text) for line in lines) + MAX_JOINED
    known: dict[str, Reading] = {}

    def reading(text: str) -> Reading | None:
        nonlocal budget
        found = known.get(text)
        if found is None and len(text) <= budget:
            budget -= len(text)
            found = known[text] = read(text)
        return found  # None: the budget is spent, nothing more is joined

    alone = [readings.get(line.number, Reading.OTHER) if readings is not None else reading(line.text)
             for line in lines]
    joined: list[Line] = []
    i = 0
    while i < len(lines):
        take = _take(lines, alone, i, reading, connectives)
        joined.append(_joined(lines[i:i + take]))
        i += take
    return sheet if len(joined) == len(lines) else replace(sheet, lines=tuple(joined))


def _take(lines: Sequence[Line], alone: Sequence[Reading | None], start: int,
          reading: Callable[[str], Reading | None], connectives: frozenset[str]) -> int:
    """How many lines from `start` make one order line (see `join_wrapped`). The run of lines
    that may continue it is read whole first, then shorter: a wrapped line costs one reading."""
    if alone[start] not in (Reading.ORDER, Reading.BROKEN):
        return 1
    so_far: Reading | None = alone[start]  # the reading of the run so far; None: not read yet
    text, end = lines[start].text, start + 1
    while end < len(lines) and end - start < MAX_PIECES:
        above, line, kind = lines[end - 1], lines[end], alone[end]
        if line.number != above.number + 1 or len(text) + 1 + len(line.text) > MAX_JOINED or kind is None:
            break
        if kind is not Reading.OTHER and not _tied(above, line, connectives):
            # an order of its own, untied, continues only an order line that is incomplete so far
            so_far = so_far or reading(text)
            if so_far is not Reading.BROKEN or kind is Reading.ORDER and end > start + 1:
                break
        text, so_far, end = f"{text} {line.text}", None, end + 1
    for take in range(end - start, 1, -1):  # the longest run that reads as an order
        found = reading(" ".join(line.text for line in lines[start:start + take]))
        if found is None:
            return 1
        if found is Reading.ORDER:
            return take
    take = 1
    if alone[start] is Reading.BROKEN:
        while (start + take < end and alone[start + take] is not Reading.ORDER
               and _tied(lines[start + take - 1], lines[start + take], connectives)):
            take += 1
    return take


def _tied(above: Line, line: Line, connectives: frozenset[str]) -> bool:
    """Whether a connective ends the line above or starts the line."""
    last, first = above.text.rsplit(None, 1)[-1:], line.text.split(None, 1)[:1]
    return any(word.strip(",;:").upper() in connectives for word in (*last, *first))


def _joined(pieces: Sequence[Line]) -> Line:
    if len(pieces) == 1:
        return pieces[0]
    raw = " ".join(piece.raw for piece in pieces)
    shown = raw if len(raw) <= MAX_SHOWN else raw[:MAX_SHOWN - 1] + "…"
    return Line(pieces[0].number, shown, " ".join(piece.text for piece in pieces))


def normalise(line: str) -> str:
    """Undo what mail does to text: compatibility forms, smart quotes, tabs, comments, trailing dots."""
    line = unicodedata.normalize("NFKC", line).translate(_TYPOGRAPHY)
    cut = line.find("#")
    if cut >= 0:
        line = line[:cut]
    return line.rstrip().rstrip(".").rstrip()


def _is_signature(stripped: str) -> bool:
    return stripped.startswith("--") and not stripped[2:].strip()


def _wrapped_comparison(stripped: str) -> bool:
    """A line that starts like a quote but is the rest of the game line just above, which a mail
    program broke before a comparison ("IF SCORE" / "> 40 THEN ..."): `>` or `>=`, a number."""
    rest = stripped[2:] if stripped.startswith(">=") else stripped[1:]
    return rest.lstrip(" ")[:1].isdigit()


def _header(text: str) -> tuple[str, str] | None:
    """('GAME', value) for a line `GAME value` or `Game: value`; None when it is not a header.

    `TIME ZONE` may be written in two words. A header line holds one value and nothing else,
    so a greeting that starts with the same word ("Game on!") is not one.
    """
    words = text.replace(":", " : ", 1).split()
    if not words:
        return None
    key = words[0].upper()
    rest = words[1:]
    if key == "TIME" and rest and rest[0].upper() == "ZONE":
        key, rest = "TIMEZONE", rest[1:]
    if key not in HEADER_WORDS:
        return None
    if rest and rest[0] == ":":
        rest = rest[1:]
    if len(rest) != 1:
        return None
    value = rest[0]
    if key != "TIMEZONE" and not (value[:1].isalnum() and set(value) <= _TOKEN_CHARS):
        return None  # "Game on!" is a greeting
    if key == "TURN" and not value.isdigit():
        return None
    return key, value


def _zone_problem(value: str) -> str | None:
    """Why `value` is not a time zone pbem can use; None when it is one."""
    if len(value) > MAX_ZONE_LENGTH or not set(value) <= _ZONE_CHARS or value.startswith("/") or ".." in value:
        return f"{value[:40]!r} is not a time zone name (write it like Europe/London or America/New_York)"
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, OSError, IsADirectoryError):
        return (f"there is no time zone called {value!r} (write it like Europe/London or America/New_York; "
                "the list is at https://en.wikipedia.org/wiki/List_of_tz_database_time_zones)")
    return None


def _argument_command(command: str) -> str | None:
    """`RESEND 3`, `VACATION 2026-12-01 2026-12-14` or `SITTER STRONG`, as written (one space
    apart); else None."""
    word, *args = command.split()
    counts = ARGUMENT_COMMANDS.get(word)
    if counts is None or not counts[0] <= len(args) <= counts[1]:
        return None
    if not all(len(a) <= 16 and set(a) <= _ARGUMENT_CHARS[word] for a in args):
        return None
    return " ".join([word, *args])


def read_sheet(text: str) -> Sheet:
    """Read the headers and the game's lines of a sheet.

    Quoted lines (`>`) are skipped, except a line right after a game line that goes on with a
    comparison (`> 40 THEN ...`: a mail program broke the line there); everything after a
    signature line (`--`) is dropped, blank and comment-only lines are passed over. Lines past
    `MAX_LINES` are rejected with the limit in the reason; a game limits the length of its own
    lines (a rejected order line may still take its place), and the echo shows at most
    `MAX_SHOWN` characters of a line.
    """
    headers: dict[str, str] = {}
    commands: list[str] = []
    echo: list[Echo] = []
    lines: list[Line] = []
    press: list[str] | None = None
    counted = 0
    for number, raw in enumerate(text[:MAX_TEXT].splitlines(), start=1):
        if press is not None:  # everything after a PRESS line is the message, up to the signature
            if _is_signature(raw.strip()):
                break
            if not raw.lstrip().startswith(">"):
                press.append(raw.rstrip())
            continue
        stripped = raw.replace("\u00a0", " ").strip()
        if stripped.startswith(">") and not (lines and lines[-1].number == number - 1 and _wrapped_comparison(stripped)):
            continue
        if _is_signature(stripped):
            break
        if not stripped:
            continue
        shown = stripped if len(stripped) <= MAX_SHOWN else stripped[:MAX_SHOWN - 1] + "…"
        line = normalise(raw).strip()
        if not line:
            continue
        counted += 1
        if counted > MAX_LINES:
            echo.append(Rejected(number, 1, shown, f"a sheet may hold {MAX_LINES} lines; this and every later line "
                                                   "is left out"))
            break
        command = " ".join(line.upper().split())
        if command in COMMANDS:
            commands.append(command)
            echo.append(Accepted(number, stripped, command))
            continue
        argument = _argument_command(command)
        if argument is not None:
            commands.append(argument)
            echo.append(Accepted(number, stripped, argument))
            continue
        if command == PRESS or command.startswith(PRESS + " "):
            commands.append(PRESS)
            echo.append(Accepted(number, "PRESS ...", "PRESS (the rest of the mail is the message)"))
            press = [stripped[len(PRESS):].strip()] if command != PRESS else []
            continue
        found = _header(line)
        if found is not None:
            key, value = found
            problem = _header_problem(key, value)
            if problem is None:
                headers[key] = value
                # the secret is never repeated back: a forwarded acknowledgement must not carry it
                canonical = "SECRET (checked; not repeated here)" if key == "SECRET" else f"{key} {value}"
                echo.append(Accepted(number, "SECRET ..." if key == "SECRET" else stripped, canonical))
            else:
                echo.append(Rejected(number, line.upper().find(value.upper()[:1]) + 1 or 1, stripped, problem))
            continue
        lines.append(Line(number, shown, line))
    turn = headers.get("TURN")
    return Sheet(
        game=headers.get("GAME"),
        turn=int(turn) if turn is not None else None,
        secret=headers.get("SECRET"),
        timezone=headers.get("TIMEZONE"),
        commands=tuple(commands),
        press=words_only("\n".join(press)).strip()[:MAX_PRESS] if press is not None else None,
        lines=tuple(lines),
        echo=tuple(echo),
    )


def _header_problem(key: str, value: str) -> str | None:
    if key == "TIMEZONE":
        return _zone_problem(value)
    if key == "TURN" and len(value) > 6:
        return f"TURN takes a turn number, not {value[:20]!r}"
    if len(value) > 64:
        return f"{key} takes a word of at most 64 characters, not {value[:40]!r}..."
    return None


def words_only(text: str) -> str:
    """Text as it may reach other readers: letters, digits, punctuation, symbols, spaces and line
    breaks. Terminal escape sequences go whole (not just their ESC, which would leave `[31m`
    behind); every other control or format character (BEL, bidirectional overrides, zero-width
    characters, private-use and unassigned code points) goes alone. One pass, linear time."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch in "\x1b\x9b":
            i = _escape_end(text, i, csi=ch == "\x9b")
            continue
        if ch in "\n\u2028\u2029":
            out.append("\n")
        elif ch == "\t":
            out.append(" ")
        elif unicodedata.category(ch)[0] != "C":
            out.append(ch)
    return "".join(out)


def _escape_end(text: str, i: int, *, csi: bool) -> int:
    """Where the terminal escape sequence whose introducer ends at `i` ends: a CSI (`ESC [`) at its
    final byte, an OSC, DCS, APC or PM string (`ESC ]`, `P`, `_`, `^`) at BEL or ST, any other at
    its next character."""
    n = len(text)
    if not csi:
        if i >= n:
            return i
        kind = text[i]
        i += 1
        if kind in "]P_^":
            while i < n and text[i] not in "\x07\x9c":
                if text[i] == "\x1b":
                    return i + 2 if i + 1 < n and text[i + 1] == "\\" else i + 1
                i += 1
            return i + 1
        if kind != "[":
            return i
    while i < n and not "\x40" <= text[i] <= "\x7e":
        i += 1
    return i + 1


def holds_orders(echo: tuple[Echo, ...]) -> bool:
    """Whether the game read at least one line of a mail as an order: accepted, or rejected (an
    order it could not take: misspelt, or not allowed now). A line the game does not take for an
    order at all — a greeting, a sign-off, a remark — is `Ignored`, and a mail of such lines,
    headers and commands is no sheet: it never replaces the sheet in force."""
    return any(isinstance(e, Accepted | Rejected) for e in echo)


def merge(*echoes: tuple[Echo, ...]) -> tuple[Echo, ...]:
    """The echoes of the reader and the game, in line order."""
    return tuple(sorted((e for group in echoes for e in group), key=lambda e: e.line))
