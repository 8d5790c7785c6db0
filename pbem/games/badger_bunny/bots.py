"""Computer players: a baseline (PLAY LOWEST else pass) and a greedy player that sheds big sets first."""

from __future__ import annotations

from typing import Any

from pbem.games.badger_bunny.cards import EXCUSE, Card, Deck, card
from pbem.games.badger_bunny.orders import MAX_LINE
from pbem.games.badger_bunny.state import State
from pbem.games.base import Bot
from pbem.games.chance import Chance

BASELINE = "DEFAULT: PLAY LOWEST ELSE PASS"


class Baseline(Bot[State]):
    def write(self, view: Any, chance: Chance) -> str:
        return BASELINE


def sets_of(hand: tuple[Card, ...], deck: Deck, most: int) -> list[tuple[Card, ...]]:
    """Multiples and straights in the hand, the lowest final rank first (at most `most` cards each)."""
    by_value: dict[int, list[Card]] = {}
    for c in sorted(hand):
        if c is not EXCUSE:
            by_value.setdefault(deck.value(c), []).append(c)
    out: list[tuple[Card, ...]] = []
    for cs in by_value.values():
        if len(cs) >= 2:
            out.append(tuple(cs[:most]))
    for low in sorted(by_value):
        run = [by_value[low][0]]
        while deck.value(run[-1]) + 1 in by_value and len(run) < most:
            run.append(by_value[deck.value(run[-1]) + 1][0])
        if len(run) >= 2:
            out.append(tuple(run))
    return sorted(out, key=lambda s: (deck.value(s[-1]), -len(s)))


class Greedy(Bot[State]):
    """Plays its lowest single where one is legal, else the lowest multiple or straight it holds
    (leading or following), and the Excuse as a last lead; illegal sets are simply skipped."""

    def write(self, view: Any, chance: Chance) -> str:
        me = next(s for s in view.seats if s.hand is not None)
        deck = Deck(view.extended, view.excuse)
        hand = tuple(card(t) for t in me.hand)
        most = 2 if me.role == "tortoise" else 99
        plays = [" ".join(c.token for c in s) for s in sets_of(hand, deck, most)][:8]
        tail = ["IF I LEAD THEN PLAY EXCUSE", "PASS"] if EXCUSE in hand else ["PASS"]
        # as many of its sets as one order line holds: a longer line would be rejected whole
        for count in range(len(plays), -1, -1):
            alts = ["PLAY LOWEST", *(f"IF I LEAD THEN PLAY {p}" for p in plays[:count]),
                    *(f"PLAY {p}" for p in plays[:count]), *tail]
            line = "DEFAULT: " + " ELSE ".join(alts)
            if len(line) <= MAX_LINE:
                return line
        return "DEFAULT: PLAY LOWEST ELSE PASS"


def find_bot(level: str) -> Bot[State] | None:
    return {"baseline": Baseline(), "easy": Baseline(), "greedy": Greedy(), "normal": Greedy()}.get(level)
