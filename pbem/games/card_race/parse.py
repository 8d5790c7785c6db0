"""A card-race sheet's order lines, read into `Orders` with the echo of every line."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.card_race.cards import APPRENTICE
from pbem.games.card_race.orders import (
    LINE_FORMS,
    LINE_WORDS,
    MAX_LINE,
    Chain,
    Orders,
    PlayLine,
    bet_text,
    first_word,
    race_text,
    read_bet,
    read_chain,
    read_race,
)
from pbem.games.sheet import Accepted, Echo, Ignored, Line, Rejected
from pbem.orders import ErrorKind, OrderError, misspelt_line_word


def parse_lines(lines: Sequence[Line], *, ruleset: str, betting: bool) -> tuple[Orders, tuple[Echo, ...]]:
    """Every order line of a sheet; a line starting with another word is ignored."""
    apprentice = ruleset == APPRENTICE
    echo: list[Echo] = []
    bet: int | None = None
    bet_line = 0
    plays: list[PlayLine] = []
    default: Chain | None = None
    default_line = 0
    race: tuple[int, ...] | None = None
    for line in lines:
        text = line.text
        word = first_word(text)
        if word not in LINE_WORDS:
            misspelt = misspelt_line_word(text, LINE_WORDS, lambda fixed: _reads(fixed, ruleset, betting))
            if misspelt is None:
                echo.append(Ignored(line.number, line.raw))
                continue
            if LINE_FORMS[misspelt.meant] == "play":
                plays.append(PlayLine(line.number, None))  # it still takes its card turn
            echo.append(Rejected(line.number, misspelt.column, line.raw, misspelt.reason()))
            continue
        try:
            if len(text) > MAX_LINE:
                raise OrderError(MAX_LINE, f"an order line may hold at most {MAX_LINE} characters")
            form = LINE_FORMS[word]
            if form == "bet":
                if apprentice or not betting:
                    why = ("the apprentice race has no second bet" if apprentice else
                           "bets are made in the first mail turn of a race")
                    raise OrderError(1, why, ErrorKind.ILLEGAL)
                bet, bet_line = read_bet(text, apprentice=apprentice), line.number
                echo.append(Accepted(line.number, line.raw, bet_text(bet)))
            elif form == "race":
                if not apprentice:
                    raise OrderError(1, "RACE lines belong to the apprentice race only", ErrorKind.ILLEGAL)
                race = read_race(text)
                echo.append(Accepted(line.number, line.raw, race_text(race)))
            elif form == "default":
                default, default_line = read_chain(text, apprentice=apprentice, skip_first=True), line.number
                echo.append(Accepted(line.number, line.raw, f"DEFAULT {default.text()}"))
            else:
                chain = read_chain(text, apprentice=apprentice, skip_first=False)
                plays.append(PlayLine(line.number, chain))
                echo.append(Accepted(line.number, line.raw, chain.text()))
        except OrderError as err:
            if LINE_FORMS[word] == "play":
                plays.append(PlayLine(line.number, None))  # it still takes its card turn
            echo.append(Rejected(line.number, err.column, line.raw, err.reason, err.kind))
    orders = Orders(bet, tuple(plays), default, race, bet_line, default_line)
    return orders, tuple(echo)


def _reads(text: str, ruleset: str, betting: bool) -> bool:
    """Whether `text` reads as an order line (allowed now or not)."""
    (echo,) = parse_lines((Line(0, text, text),), ruleset=ruleset, betting=betting)[1]
    return isinstance(echo, Accepted) or (isinstance(echo, Rejected) and echo.kind is not ErrorKind.INVALID)
