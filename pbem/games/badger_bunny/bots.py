"""Computer players: a baseline (PLAY LOWEST else pass) and a strong player that searches.

The strong player sees only its seat's view: its own hand, both courses, the counts of the other
hand and of both decks, the open series. For each of its legal plays (and the pass) it deals the
unseen cards again and again in ways consistent with that view (the other hand, both decks, the
cards set aside), plays the race out from each deal with a simple policy for both seats, and
writes the play that did best on average: the points of the race, or, from the fourth race of a
tournament on, whether the totals end ahead. It draws only from its own seeded stream, so the
same view and seed give the same sheet.

Its sheet holds one turn line and no DEFAULT: the run then stops at its next choice, and it
writes again from the position as it is then. Waiting for the other player it writes nothing,
for the same reason.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from pbem.games.badger_bunny import playout
from pbem.games.badger_bunny.cards import Rank, card
from pbem.games.badger_bunny.orders import MAX_LINE
from pbem.games.badger_bunny.view import View
from pbem.games.base import Bot
from pbem.games.chance import Chance

BASELINE = "DEFAULT: PLAY LOWEST ELSE PASS"
#: playouts per sheet at the default setting, shared among the candidate plays
DEFAULT_PLAYOUTS = 480
#: deals of the unseen cards per candidate at least (fewer candidates get more); with more
#: candidates than that allows, a first round keeps the best FINALISTS
MIN_DEALS = 12
FINALISTS = 8
_KINDS = {"single": playout.SINGLE, "multiple": playout.MULTIPLE, "straight": playout.STRAIGHT}
_LAST = {"none": playout.NONE, "play": playout.PLAY, "pass": playout.PASS, "dead-pass": playout.DEAD}
WAITING = "# the other player is to act: this seat writes its line when its own turn comes"
#: the strong player's sheet where it has no choice to weigh, each alternative explained
PLAIN = ("#  1. PLAY LOWEST: your lowest card that may be played, keeping the higher ones for later\n"
         "#  2. PASS: when no card of yours may be played\n" + BASELINE)


class Baseline(Bot[View]):
    def write(self, view: View, chance: Chance) -> str:
        return BASELINE


def position(view: Any) -> tuple[playout.Table, playout.Race, int, list[int], list[int]]:
    """The view as a playout race with the unseen cards not yet placed: (table, race, my seat,
    the unseen cards, the sizes of the piles they go to: other hand, other deck, my deck, aside)."""
    t = playout.table(view.extended, view.excuse)
    me = next(s for s in view.seats if s.hand is not None)
    other = view.seats[1 - me.seat]
    seen = {card(x) for x in me.hand}
    for s in view.seats:
        seen.update(card(x) for x in s.course)
    unseen = [i for i, c in enumerate(t.cards) if c not in seen]
    counts = [other.hand_count, other.deck_count, me.deck_count]
    counts.append(len(unseen) - sum(counts))
    hare = next(s.seat for s in view.seats if s.role == "hare")
    kind, need = playout.NO_SERIES, -1
    if view.series:
        word, _, rank = view.series.partition(", final rank ")
        kind, need = _KINDS[word], Rank(rank.upper()).value_in(view.extended)
    hands: list[list[int]] = [[], []]
    hands[me.seat] = [t.index[card(x)] for x in me.hand]
    tops = [t.index[card(s.course[-1])] for s in view.seats]
    race = playout.Race(hands, [[], []], tops, hare, view.act, view.drawn, kind, need, _LAST[view.last])
    return t, race, me.seat, unseen, counts


def utility(view: Any, race: playout.Race, me: int) -> float:
    """What a finished playout is worth to seat `me`: the race's points for and against, or from
    the fourth race of a tournament on (and in a single race) whether it ends ahead."""
    diff = race.scores[me] - race.scores[1 - me]
    if not race.over:
        diff = len(race.hands[1 - me]) - len(race.hands[me])
    if view.tournament and view.race < 4:
        return float(diff)
    ahead = diff
    if view.tournament and view.race == 4:
        ahead += view.seats[me].total - view.seats[1 - me].total
    elif race.over:
        ahead = 0 if race.winner < 0 else 1 if race.winner == me else -1
    return (ahead > 0) - (ahead < 0) + diff / 100


def choose(view: Any, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS) -> playout.Set | None:
    """The play (None: pass) that did best over deals of the unseen cards, each played out."""
    return weigh(view, rng, playouts).chosen


class Weighed(NamedTuple):
    """The play chosen (None: pass), how it did on average, and over how many candidates and deals."""

    chosen: playout.Set | None
    mean: float
    candidates: int
    deals: int


def weigh(view: Any, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS) -> Weighed:
    """The play (None: pass) that did best over deals of the unseen cards, each played out.

    Every candidate is played out from the same deals (so that luck falls alike on all). With
    more candidates than the budget gives `MIN_DEALS` each, half the budget (at least two deals
    each) sorts them, and the other half goes to the best `FINALISTS`: a sheet never costs much
    more than `playouts` + 2 x candidates playouts.
    """
    t, race, me, unseen, counts = position(view)
    candidates: list[playout.Set | None] = [*playout.sets(t, race, me, full=True), None]
    if len(candidates) == 1:
        return Weighed(None, 0.0, 1, 0)
    totals = [0.0] * len(candidates)
    runs = [0] * len(candidates)
    order = list(range(len(unseen)))

    def sample(which: list[int], deals: int) -> None:
        for _ in range(deals):
            rng.shuffle(order)
            other_hand, other_deck, my_deck, _aside = playout.deal_unseen(unseen, counts, order)
            base = race.copy()
            base.hands[1 - me] = other_hand
            base.decks[1 - me] = other_deck
            base.decks[me] = my_deck
            for i in which:
                r = base.copy()
                playout.play(t, r, me, candidates[i])
                playout.run_out(t, r)
                totals[i] += utility(view, r, me)
                runs[i] += 1

    everyone = list(range(len(candidates)))
    if playouts // len(candidates) >= MIN_DEALS:
        sample(everyone, playouts // len(candidates))
    else:
        sample(everyone, max(2, playouts // 2 // len(candidates)))
        finalists = sorted(everyone, key=lambda i: (-totals[i] / runs[i], i))[:FINALISTS]
        sample(finalists, playouts // 2 // FINALISTS)
        everyone = finalists
    best = max(everyone, key=lambda i: (totals[i] / runs[i], -i))
    return Weighed(candidates[best], totals[best] / runs[best], len(candidates), runs[best])


class Strong(Bot[View]):
    """Searches its own legal plays by playing the race out over deals of the unseen cards."""

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self.playouts = playouts

    def write(self, view: View, chance: Chance) -> str:
        me = next((s for s in view.seats if s.hand is not None), None)
        if me is None or view.over or view.race_over:
            return PLAIN
        if view.act != me.seat:
            return WAITING
        if me.role == "tortoise" and not view.drawn:
            return PLAIN  # her hand is not known until her draw: the run makes it first
        rng = random.Random(chance.uniform(2**31))  # noqa: S311 - a search's samples, seeded by the chance source
        weighed = weigh(view, rng, self.playouts)
        if weighed.candidates == 1:
            return "# PASS: no card of yours may be played\nPASS"
        why = (f"it did best of your {weighed.candidates} choices (the pass included) over {weighed.deals} deals of "
               f"the cards you cannot see, each race played out (mean result {weighed.mean:+.2f})")
        if weighed.chosen is None:
            return f"# PASS: {why}\nPASS"
        t = playout.table(view.extended, view.excuse)
        line = "PLAY " + " ".join(t.cards[c].token for c in weighed.chosen)
        return f"# {line}: {why}\n{line}" if len(line) <= MAX_LINE else PLAIN


def find_bot(level: str) -> Bot[View] | None:
    return {"baseline": Baseline(), "easy": Baseline(), "strong": Strong(), "greedy": Strong(),
            "normal": Strong()}.get(level)
