"""Goofspiel's computer player: bids the prize's own value, or the card just above it."""

from __future__ import annotations

from goofspiel.view import View
from pbem.games.base import Bot
from pbem.games.chance import Chance


class Simple(Bot[View]):
    """Bids the card of the prize's value if it still holds it, else the lowest card above it,
    else its lowest card; one time in four it bids one higher, to be harder to read."""

    def write(self, view: View, chance: Chance) -> str:
        if view.over or view.prize is None or view.reader is None:
            return "BID LOWEST"
        hand = view.seats[view.reader].hand
        above = [c for c in hand if c >= view.prize]
        card = min(above) if above else min(hand)
        if chance.uniform(4) == 0:
            card = next((c for c in hand if c > card), card)
        return f"BID {card}"
