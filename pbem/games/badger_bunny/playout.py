"""A fast, approximate race of If Badger was a Bunny for the computer player's playouts.

The engine (`engine.py`) is the game's law and writes a report of every turn; the strong
computer player instead simulates thousands of turns per sheet, so it plays the same rules on
small integers: cards are indices into the deck in use, hands and decks are lists, and a table
says which card connects to which. Nothing here is used to adjudicate.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pbem.games.badger_bunny.cards import EXCUSE, SUITS, Deck

SINGLE, MULTIPLE, STRAIGHT = 0, 1, 2
NO_SERIES = -1
#: the previous turn
NONE, PLAY, PASS, DEAD = 0, 1, 2, 3
MAX_STEPS = 400  # a playout that runs longer is scored as it stands (it never should)

Set = tuple[int, ...]  # cards in the order they go onto the course


class Table:
    """The deck in use as small integers: each card's rung on the ladder and which card connects to which."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.cards = deck.cards
        self.index = {c: i for i, c in enumerate(self.cards)}
        self.value = [deck.value(c) for c in self.cards]
        self.excuse = self.index.get(EXCUSE, -1)
        masks = [sum(1 << SUITS.index(s) for s in c.suits) for c in self.cards]
        n = len(self.cards)
        self.conn = [[top == self.excuse or c == self.excuse or bool(masks[top] & masks[c])
                      or self.value[c] in (self.value[top], self.value[top] + 1) for c in range(n)] for top in range(n)]


@cache
def table(extended: bool, excuse: bool) -> Table:
    return Table(Deck(extended, excuse))


class Race:
    """A race position: hands, decks (top card first), course tops, the open series, whose turn."""

    __slots__ = ("act", "decks", "drawn", "hands", "hare", "kind", "last", "need", "over", "scores", "tops", "winner")

    def __init__(self, hands: list[list[int]], decks: list[list[int]], tops: list[int], hare: int, act: int,
                 drawn: bool, kind: int, need: int, last: int) -> None:
        self.hands = hands
        self.decks = decks
        self.tops = tops
        self.hare = hare
        self.act = act
        self.drawn = drawn
        self.kind = kind
        self.need = need
        self.last = last
        self.over = False
        self.winner = -1  # -1: a draw, once over
        self.scores = [0, 0]

    def copy(self) -> Race:
        r = Race([self.hands[0][:], self.hands[1][:]], [self.decks[0][:], self.decks[1][:]], self.tops[:],
                 self.hare, self.act, self.drawn, self.kind, self.need, self.last)
        return r


def sets(t: Table, race: Race, p: int, *, full: bool) -> list[Set]:
    """The legal sets of seat `p` now. With `full`, every choice of the connecting first card and
    of the final card is listed (middle cards are taken in table order); without, one of each."""
    hand = race.hands[p]
    conn = t.conn[race.tops[p]]
    value = t.value
    kind, need = race.kind, race.need
    lead = kind == NO_SERIES
    most = 2 if p != race.hare else 99
    out: list[Set] = []
    by: dict[int, list[int]] = {}
    for c in hand:
        if c != t.excuse:
            by.setdefault(value[c], []).append(c)
    if lead or kind == SINGLE:
        for c in hand:
            if conn[c] and (lead or (c != t.excuse and value[c] >= need)):
                out.append((c,))
    if lead or kind == MULTIPLE:
        for v, cs in by.items():
            if len(cs) < 2 or v < need:
                continue
            cs.sort()
            for first in cs:
                if not conn[first]:
                    continue
                rest = [c for c in cs if c != first]
                for last in rest if full else rest[-1:]:
                    out.append((first, last))
                    if most > 2 and len(cs) > 2:
                        out.append((first, *[c for c in rest if c != last], last))
                if not full:
                    break
    if lead or kind == STRAIGHT:
        for lo in sorted(by):
            firsts = [c for c in by[lo] if conn[c]]
            if not firsts:
                continue
            run = [min(by[lo])]
            hi = lo
            while hi + 1 in by and len(run) < most:
                hi += 1
                if hi >= need:
                    lasts = sorted(by[hi]) if full else [min(by[hi])]
                    for first in firsts if full else firsts[:1]:
                        for last in lasts:
                            out.append((first, *run[1:], last))
                run.append(min(by[hi]))
    return out


def heuristic(t: Table, race: Race, p: int) -> Set | None:
    """The playouts' policy for both seats: lead the set that sheds the most cards (the lowest
    final rank among equals); follow with the lowest final rank that will do (more cards among
    equals); pass only without a legal set."""
    options = sets(t, race, p, full=False)
    if not options:
        return None
    value = t.value
    if race.kind == NO_SERIES:
        return max(options, key=lambda s: (len(s), -value[s[-1]]))
    return min(options, key=lambda s: (value[s[-1]], -len(s)))


def _draw(race: Race, seat: int, n: int) -> None:
    deck = race.decks[seat]
    race.hands[seat] += deck[:n]
    del deck[:n]


def play(t: Table, race: Race, p: int, chosen: Set | None) -> None:
    """Seat `p` plays `chosen` (None: passes); the hare's draws and the race's end follow the contract."""
    if chosen is None:
        dead = race.kind == NO_SERIES and not race.decks[0] and not race.decks[1]
        was_dead = race.last == DEAD
        race.kind, race.need, race.last = NO_SERIES, -1, DEAD if dead else PASS
        race.act, race.drawn = 1 - p, False
        h = race.hare
        if not race.decks[1 - h]:
            _draw(race, h, len(race.decks[h]))
        elif p == h:
            _draw(race, h, 1 if race.hands[h] else len(race.decks[h]))
        if dead and was_dead:
            left = [len(race.hands[0]), len(race.hands[1])]
            race.over = True
            if left[0] != left[1]:
                w = 0 if left[0] < left[1] else 1
                race.winner = w
                race.scores[w] = left[1 - w] - left[w]
        return
    hand = race.hands[p]
    for c in chosen:
        hand.remove(c)
    race.tops[p] = chosen[-1]
    if len(chosen) == 1:
        race.kind = SINGLE
    elif t.value[chosen[0]] == t.value[chosen[-1]]:
        race.kind = MULTIPLE
    else:
        race.kind = STRAIGHT
    race.need = t.value[chosen[-1]]
    race.last, race.act, race.drawn = PLAY, 1 - p, False
    if not hand and not race.decks[p]:
        race.over = True
        race.winner = p
        race.scores[p] = len(race.hands[1 - p])


def begin_turn(race: Race) -> None:
    """The tortoise's draw at the start of her turn (once per turn)."""
    p = race.act
    if p != race.hare and not race.drawn:
        _draw(race, p, min(2, len(race.decks[p])))
        race.drawn = True


def run_out(t: Table, race: Race) -> None:
    """The race played to its end by the heuristic for both seats."""
    for _ in range(MAX_STEPS):
        if race.over:
            return
        begin_turn(race)
        p = race.act
        play(t, race, p, heuristic(t, race, p))


def deal_unseen(unseen: Sequence[int], counts: Sequence[int], order: Sequence[int]) -> list[list[int]]:
    """`unseen` cards split, in the order `order` gives, into piles of the sizes `counts`."""
    out = []
    at = 0
    for n in counts:
        out.append([unseen[i] for i in order[at:at + n]])
        at += n
    return out
