"""Goofspiel's order lines, read once: `BID <card> [IF PRIZE <compare> <number>]`."""

from __future__ import annotations

from collections.abc import Sequence

from goofspiel.rules import CARDS, COMPARE, Bid, Bids, Condition
from pbem.games.sheet import Accepted, Echo, Ignored, Line, Rejected, Rejection
from pbem.orders import did_you_mean, misspelt_line_word

FORM = "write BID and a card (1 to 13, HIGHEST, LOWEST or PRIZE), then perhaps IF PRIZE >= 10"
WORDS = ("HIGHEST", "LOWEST", "PRIZE")


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() and int(word) in CARDS else None


def read_line(line: Line, hand: tuple[int, ...]) -> Bid | Rejected:
    """One line as a bid, or rejected with the column of the first word that does not fit."""
    text = line.text
    words: list[tuple[int, str]] = []  # (column, word)
    column = 1
    for word in text.split(" "):
        if word:
            words.append((column, word.upper()))
        column += len(word) + 1

    def reject(at: int, reason: str, kind: Rejection = Rejection.INVALID) -> Rejected:
        column = words[at][0] if at < len(words) else len(text) + 1
        return Rejected(line.number, column, line.raw, reason, kind)

    if not words or words[0][1] != "BID":
        return reject(0, f"a line starts with BID: {FORM}")
    if len(words) < 2:
        return reject(1, f"BID needs a card: {FORM}")
    target = words[1][1]
    if target not in WORDS and _number(target) is None:
        return reject(1, f"{words[1][1]!r} is not a card: a card is 1 to 13, HIGHEST, LOWEST or PRIZE"
                         f"{did_you_mean(target, WORDS)}")
    condition = None
    if len(words) > 2:
        shape = [w for _, w in words[2:]]
        if shape[:2] != ["IF", "PRIZE"]:
            at = 2 if shape[0] != "IF" else 3
            near = did_you_mean(shape[at - 2], ("IF",) if at == 2 else ("PRIZE",)) if len(shape) > at - 2 else ""
            return reject(at if near else 2, f"after the card comes nothing, or IF PRIZE and a comparison: {FORM}"
                                             f"{near}")
        if len(shape) < 3 or shape[2] not in COMPARE:
            return reject(4, "IF PRIZE takes a comparison: = != < <= > >=")
        if len(shape) < 4 or _number(shape[3]) is None:
            return reject(5, "IF PRIZE compares with a prize's value, 1 to 13")
        if len(shape) > 4:
            return reject(6, "the line ends after the comparison")
        condition = Condition(shape[2], int(shape[3]))
    if target.isdigit() and int(target) not in hand:
        held = " ".join(map(str, hand)) or "nothing"
        return reject(1, f"you no longer hold the {target} (you hold {held})", Rejection.ILLEGAL)
    return Bid(str(int(target)) if target.isdigit() else target, condition)


def parse_lines(lines: Sequence[Line], hand: tuple[int, ...]) -> tuple[Bids, tuple[Echo, ...]]:
    """A sheet's lines: the bids accepted, tried in order, and the answer to every line."""
    bids: list[Bid] = []
    echo: list[Echo] = []
    for line in lines:
        if line.text.split(" ", 1)[0].upper() != "BID":
            misspelt = misspelt_line_word(line.text, ("BID",), lambda fixed: _reads(fixed, hand))
            if misspelt is not None:  # BDI 5: a bid with its first word misspelt
                echo.append(Rejected(line.number, misspelt.column, line.raw, misspelt.reason()))
                continue
            # no order at all (a greeting, a sign-off): a mail of such lines is no sheet
            echo.append(Ignored(line.number, line.raw))
            continue
        read = read_line(line, hand)
        if isinstance(read, Rejected):
            echo.append(read)
        else:
            bids.append(read)
            echo.append(Accepted(line.number, line.raw, read.canonical))
    return Bids(tuple(bids)), tuple(echo)


def _reads(text: str, hand: tuple[int, ...]) -> bool:
    """Whether `text` reads as a bid (allowed now or not)."""
    read = read_line(Line(0, text, text), hand)
    return not isinstance(read, Rejected) or read.kind is not Rejection.INVALID
