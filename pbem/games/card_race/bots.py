"""Computer players of the card race: they write sheets in the order language from their own view.

`baseline` sends an empty sheet, so every card turn gets the default play and the second bet the
default bet. `strong` backs its own animals: it bets again on a starting bet it can match, and at
every card turn plays as many cards as the table allows of the animal it backed most, and keeps
the hare out of a nap.
"""

from __future__ import annotations

from pbem.games.base import Bot
from pbem.games.card_race.cards import ANIMALS, APPRENTICE, HARE, animal_of, counts
from pbem.games.card_race.view import View
from pbem.games.chance import Chance

LEVELS = ("baseline", "strong")


class Baseline(Bot[View]):
    def write(self, view: View, chance: Chance) -> str:
        return ""


class Strong(Bot[View]):
    def write(self, view: View, chance: Chance) -> str:
        me = next((p for p in view.players if p.hand is not None and p.racing), None)
        if me is None or me.hand is None:
            return ""
        hand = me.hand
        backed = [animal_of(c) for c in (*(me.starts or ()), *((me.bet,) if me.bet else ()))]
        held = counts(hand)
        lines = []
        if view.betting and view.ruleset != APPRENTICE:
            match = [a for a in backed if held[a]]
            lines.append(f"BET {ANIMALS[max(match or range(5), key=lambda a: held[a])].upper()}")
            backed.append(match[0] if match else max(range(5), key=lambda a: held[a]))
        weight = [backed.count(a) for a in range(5)]
        placed = {a for a, _ in view.podium}
        leader = max((view.pawns[a] for a in range(5) if a not in placed), default=0)
        order = sorted((a for a in range(5) if a not in placed and weight[a]), key=lambda a: (-weight[a], a))
        alts: list[str] = []
        for a in order:
            word = ANIMALS[a].upper()
            # four hares in front make the hare nap: hold it to three while it leads
            top = 3 if a == HARE and view.pawns[HARE] >= leader and view.pawns[HARE] > 0 else 4
            alts += [f"PLAY {k} {word}" for k in range(top, 0, -1)]
        # cards of animals it did not back go out one at a time, the laggards' first
        spare = sorted((a for a in range(5) if not weight[a]), key=lambda a: (view.pawns[a], a))
        alts += [f"PLAY 1 {ANIMALS[a].upper()}" for a in spare]
        chain = " ELSE ".join(alts) if alts else "PLAY 1 TORTOISE"
        lines += [chain] * 4 + [f"DEFAULT {chain}"]
        if view.ruleset == APPRENTICE:
            lines.append("RACE " + " ".join(ANIMALS[a].upper() for a in order or range(5)))
        return "\n".join(lines)
