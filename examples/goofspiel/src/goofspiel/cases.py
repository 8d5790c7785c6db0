"""Goofspiel's rule-case keys: the table before a turn, and what the turn must give.

    HAND <seat> <cards>       the seat's cards left (default: 1 to 13)
    SCORE <seat> <n>          the seat's score before the turn (default: 0)
    PRIZE <n>                 the prize turned up (default: 13)
    DECK <cards>|-            the prizes face down, top first (default: the others in order of value)
    EXPECT-BID <seat> <card>  the card the seat bids
    EXPECT-TAKER <seat>|none  who takes the prize (none: discarded)
    EXPECT-SCORE <seat> <n>   the seat's score after the turn
    EXPECT-PRIZE <n>|none     the prize turned up next
    EXPECT-REJECTED <seat> <n>  lines of the seat's sheet rejected (default: none may be)
    EXPECT-WINNERS <seats>    the seats that share the win, once the game is over
"""

from __future__ import annotations

from dataclasses import dataclass

from goofspiel.orders import parse_lines
from goofspiel.rules import CARDS, Bids, Kind, State, resolve
from goofspiel.view import view, winners
from pbem.errors import CaseFormatError, PbemError
from pbem.games.base import Viewer
from pbem.games.codec import CaseCodec, CaseRun, CaseText, case_int
from pbem.games.sheet import Rejected, read_sheet

#: each expectation and the words it takes: "seat", "card" (a number, or none), "n", or "seats"
EXPECTS = {"EXPECT-BID": ("seat", "n"), "EXPECT-TAKER": ("seat",), "EXPECT-SCORE": ("seat", "n"),
           "EXPECT-PRIZE": ("card",), "EXPECT-REJECTED": ("seat", "n"), "EXPECT-WINNERS": ("seats",)}


@dataclass(frozen=True)
class Prepared:
    state: State
    expect: tuple[tuple[int, str, list[str]], ...]  # (line, key, words)


def _cards(words: list[str], path: str, line: int) -> tuple[int, ...]:
    if words == ["-"]:
        return ()
    values = tuple(case_int(w, "a card", path, line) for w in words)
    if any(v not in CARDS for v in values) or len(set(values)) != len(values):
        raise CaseFormatError(path, line, "cards are 1 to 13, each once")
    return tuple(sorted(values))


class GoofspielCases(CaseCodec):
    keys = frozenset({"HAND", "SCORE", "PRIZE", "DECK", *EXPECTS})

    def prepare(self, case: CaseText) -> Prepared:
        path = case.path
        seats = tuple(case.seats)
        if not 2 <= len(seats) <= 4:
            raise CaseFormatError(path, case.seats_line or case.line, "SEATS names 2 to 4 players")
        if case.first is not None:
            raise CaseFormatError(path, case.first_line, "Goofspiel has no first player: every seat bids at once")
        hands = {s: CARDS for s in seats}
        scores = {s: 0 for s in seats}
        prize, deck = 13, None
        expect: list[tuple[int, str, list[str]]] = []

        def seat_of(word: str, line: int) -> str:
            if word not in seats:
                raise CaseFormatError(path, line, f"{word!r} is not in SEATS")
            return word

        for line, key, rest in case.keys:
            words = rest.split()
            if key in EXPECTS:
                self._check_expect(key, words, seats, path, line)
                expect.append((line, key, words))
            elif key == "HAND":
                hands[seat_of(words[0] if words else "", line)] = _cards(words[1:], path, line)
            elif key == "SCORE":
                scores[seat_of(words[0] if words else "", line)] = case_int(words[1] if len(words) > 1 else "",
                                                                             "a score", path, line)
            elif key == "PRIZE":
                if len(words) != 1:
                    raise CaseFormatError(path, line, "PRIZE takes one card")
                prize = _cards(words, path, line)[0]
            elif key == "DECK":
                deck = _cards(words, path, line)
        if deck is None:
            deck = tuple(c for c in CARDS if c != prize)
        if prize in deck:
            raise CaseFormatError(path, case.line, f"the prize {prize} is also in DECK")
        sizes = {len(h) for h in hands.values()}
        if sizes != {len(deck) + 1}:
            raise CaseFormatError(path, case.line, f"every hand holds one card more than DECK ({len(deck)} face down)")
        state = State(seats, tuple(hands[s] for s in seats), prize, deck, tuple(scores[s] for s in seats),
                      turn=case.turn)
        return Prepared(state, tuple(expect))

    @staticmethod
    def _check_expect(key: str, words: list[str], seats: tuple[str, ...], path: str, line: int) -> None:
        shape = EXPECTS[key]
        if shape == ("seats",):
            if not words or any(w not in seats for w in words):
                raise CaseFormatError(path, line, f"{key} names seats from SEATS")
            return
        if len(words) != len(shape):
            raise CaseFormatError(path, line, f"{key} takes {' and '.join(shape)}")
        for word, kind in zip(words, shape, strict=True):
            if kind == "seat" and word not in seats and not (key == "EXPECT-TAKER" and word == "none"):
                raise CaseFormatError(path, line, f"{word!r} is not in SEATS")
            if kind == "n" or (kind == "card" and word != "none"):
                case_int(word, key, path, line)

    def run(self, case: CaseText, prepared: object) -> CaseRun:
        assert isinstance(prepared, Prepared)
        from goofspiel import GAME

        state = prepared.state
        seats = state.seats
        before = tuple(GAME.presenter.position_lines(view(state, Viewer.gm())))
        orders: dict[int, Bids] = {}
        rejected: dict[str, int] = {}
        for name, lines in case.orders.items():
            seat = seats.index(name)
            bids, echo = parse_lines(read_sheet("\n".join(lines)).lines, state.hands[seat])
            orders[seat] = bids
            rejected[name] = sum(isinstance(e, Rejected) for e in echo)
        try:
            after, events = resolve(state, orders)
        except PbemError as err:
            return CaseRun((str(err),), before)
        told = tuple(line for e in events for line in GAME.presenter.resolution_lines(e, private=True))
        cards = {e.seat: e.card for e in events if e.kind is Kind.BID}
        prize = next(e for e in events if e.kind is Kind.PRIZE)
        problems: list[str] = []
        for line, key, words in prepared.expect:
            got, want = self._compare(key, words, seats, cards, prize.winner, after, rejected)
            if got != want:
                problems.append(f"line {line}: {key} {' '.join(words)}: got {got}")
        problems += [f"{name}: {n} line(s) rejected, and no EXPECT-REJECTED says so" for name, n in rejected.items()
                     if n and not any(k == "EXPECT-REJECTED" and w[:1] == [name] for _, k, w in prepared.expect)]
        after_lines = tuple(GAME.presenter.position_lines(view(after, Viewer.gm())))
        return CaseRun(tuple(problems), before, after_lines, told, "chance: none (the prizes lie as DECK says)",
                       f"turn {state.turn}, prize {state.prize}", after.over)

    @staticmethod
    def _compare(key: str, words: list[str], seats: tuple[str, ...], bids: dict[int | None, int], taker: int | None,
                 after: State, rejected: dict[str, int]) -> tuple[str, str]:
        """What the turn gave for one expectation, and what the case wants, as words."""
        if key == "EXPECT-BID":
            return str(bids.get(seats.index(words[0]) if words[0] in seats else None)), words[1]
        if key == "EXPECT-TAKER":
            return ("none" if taker is None else seats[taker]), words[0]
        if key == "EXPECT-SCORE":
            return (str(after.scores[seats.index(words[0])]) if words[0] in seats else "?"), words[1]
        if key == "EXPECT-PRIZE":
            return ("none" if after.prize is None else str(after.prize)), words[0]
        if key == "EXPECT-REJECTED":
            return str(rejected.get(words[0], 0)), words[1]
        return " ".join(seats[s] for s in winners(after)) or "none", " ".join(words)
