"""The climbing race, resolved: set-up, sets and connection, draws, the postal run and scoring.

`run` resolves one mail turn in named stages (draw, choose, play or pass, hare's draw, end)
and records an event for each; it does no I/O and draws nothing by chance. `deal` sets a race
up from a shuffled deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from pbem.games.badger_bunny.cards import EXCUSE, Card, Deck
from pbem.games.badger_bunny.events import Event, Kind, LineKind, Refusal, Tried, Used, Why
from pbem.games.badger_bunny.orders import (
    PASS_CHAIN,
    Action,
    BadgerOrders,
    Chain,
    Condition,
    Count,
    Hold,
    LastRank,
    Lead,
    OpponentPassed,
    Pass,
    PlayLowest,
    SeriesIs,
    SetType,
    action_text,
)
from pbem.games.badger_bunny.state import Last, Race, Series, State
from pbem.orders import evaluate_chain
from pbem.orders import holds as condition_holds

# set-up ------------------------------------------------------------------------------------


def hare_of(race_number: int) -> int:
    """Seat A is the hare in every odd race, seat B in every even one."""
    return 0 if race_number % 2 == 1 else 1


def deal(order: Sequence[Card], deck: Deck, number: int, hare: int) -> Race:
    """A race set up from the shuffled deck, top card first ("Set-up of a race")."""
    cards = tuple(order)
    k = deck.aside
    aside, hare_start, tortoise_start = cards[:k], cards[k], cards[k + 1]
    rest = cards[k + 2:]
    hare_deck, tortoise_deck = rest[:deck.share], rest[deck.share:]
    hand, hare_deck = hare_deck[:deck.hand], hare_deck[deck.hand:]
    t = 1 - hare
    hands: list[tuple[Card, ...]] = [(), ()]
    decks: list[tuple[Card, ...]] = [(), ()]
    courses: list[tuple[Card, ...]] = [(), ()]
    hands[hare], decks[hare], courses[hare] = hand, hare_deck, (hare_start,)
    decks[t], courses[t] = tortoise_deck, (tortoise_start,)
    return Race(number, hare, (hands[0], hands[1]), (decks[0], decks[1]), (courses[0], courses[1]), aside, hare)


def setup_event(race: Race, names: Sequence[str], deck: Deck) -> Event:
    h, t = race.hare, race.tortoise
    text = (f"Race {race.number} is dealt: {names[h]} is the hare and starts his course with "
            f"{describe(race.courses[h][0])}; {names[t]} is the tortoise and starts hers with "
            f"{describe(race.courses[t][0])}. {deck.aside} cards are set aside unseen. {names[h]} holds "
            f"{len(race.hands[h])} cards with {len(race.decks[h])} in his deck; {names[t]} holds none with "
            f"{len(race.decks[t])} in hers.")
    return Event(Kind.SETUP, h, names[h], text, cards=(race.courses[0][0].token, race.courses[1][0].token),
                 count=len(race.hands[h]), drawn=tuple(c.token for c in race.hands[h]))


def describe(c: Card) -> str:
    return "the Excuse" if c is EXCUSE else f"{c.token} ({c.name})"


# sets and connection ---------------------------------------------------------------------


def connection(top: Card, first: Card, deck: Deck) -> str | None:
    """How `first` connects to `top`, in words; None when it does not."""
    if top is EXCUSE:
        return "any card goes onto the Excuse"
    if first is EXCUSE:
        return "the Excuse goes onto any card"
    shared = [s for s in first.suits if s in top.suits]
    if shared:
        return f"shares {shared[0].capitalize()} with {top.token}"
    if first.rank is top.rank:
        return f"same rank as {top.token}"
    if deck.value(first) == deck.value(top) + 1:
        return f"one rank higher than {top.token}"
    return None


@dataclass(frozen=True)
class Set:
    cards: tuple[Card, ...]  # in the order they go onto the course
    kind: SetType
    connects: str

    @property
    def final(self) -> Card:
        return self.cards[-1]


def check_set(race: Race, deck: Deck, seat: int, cards: Sequence[Card]) -> Set | Refusal:
    """The set `cards` as `seat` may play it now, or why it is illegal."""
    hand = race.hands[seat]
    missing = [c.token for c in cards if c not in hand]
    if missing:
        return Refusal(Why.MISSING, tuple(missing))
    if EXCUSE in cards and len(cards) > 1:
        return Refusal(Why.EXCUSE_ALONE)
    if len(cards) == 1:
        kind, ordered = SetType.SINGLE, tuple(cards)
    elif len({c.rank for c in cards}) == 1:
        kind, ordered = SetType.MULTIPLE, tuple(cards)
    else:
        ordered = tuple(sorted(cards, key=deck.value))
        values = [deck.value(c) for c in ordered]
        if any(b != a + 1 for a, b in zip(values, values[1:], strict=False)):
            return Refusal(Why.NO_SET)
        kind = SetType.STRAIGHT
    if seat == race.tortoise and len(cards) > 2:
        return Refusal(Why.TORTOISE_TWO)
    if race.series is not None:
        if ordered[0] is EXCUSE:
            return Refusal(Why.EXCUSE_LEAD)
        if kind is not race.series.kind:
            return Refusal(Why.WRONG_KIND, words=(race.series.kind.value, kind.value))
        if deck.value(ordered[-1]) < race.series.rank.value_in(deck.extended):
            return Refusal(Why.TOO_LOW, words=(ordered[-1].rank.word, race.series.rank.word))
    how = connection(race.top(seat), ordered[0], deck)
    if how is None:
        return Refusal(Why.NO_CONNECTION, (ordered[0].token, race.top(seat).token))
    return Set(ordered, kind, how)


def has_legal_set(race: Race, deck: Deck, seat: int) -> bool:
    """Whether `seat` has any legal set now (without it, her turn is a forced pass)."""
    hand = race.hands[seat]
    top = race.top(seat)
    ok = [c for c in hand if connection(top, c, deck) is not None]
    series = race.series
    if series is None:
        return bool(ok)
    need = series.rank.value_in(deck.extended)
    plain = [c for c in hand if c is not EXCUSE]
    if series.kind is SetType.SINGLE:
        return any(deck.value(c) >= need for c in ok if c is not EXCUSE)
    by_value: dict[int, list[Card]] = {}
    for c in plain:
        by_value.setdefault(deck.value(c), []).append(c)
    if series.kind is SetType.MULTIPLE:
        return any(v >= need and len(cs) >= 2 and any(c in ok for c in cs) for v, cs in by_value.items())
    longest = 2 if seat == race.tortoise else len(by_value)
    for low, cs in by_value.items():
        if not any(c in ok for c in cs):
            continue
        high = low
        while high + 1 in by_value and high + 1 - low + 1 <= longest:
            high += 1
        if high > low and high >= need:
            return True
    return False


def lowest_single(race: Race, deck: Deck, seat: int) -> Set | Refusal:
    if race.series is not None and race.series.kind is not SetType.SINGLE:
        return Refusal(Why.LOWEST_NOT_SINGLE, words=(race.series.kind.value,))
    for c in sorted(race.hands[seat], key=lambda c: (deck.value(c), c.index)):
        if c is EXCUSE:
            continue
        s = check_set(race, deck, seat, (c,))
        if isinstance(s, Set):
            return s
    return Refusal(Why.NO_SINGLE)


def atom_holds(race: Race, deck: Deck, seat: int, atom: object) -> bool:
    """Whether one of the badger's tests holds for `seat` now (typed `object`: mypy reads the
    condition tree's atom type as such)."""
    if isinstance(atom, Lead):
        return race.series is None
    if isinstance(atom, OpponentPassed):
        return race.last in (Last.PASS, Last.DEAD)
    if isinstance(atom, SeriesIs):
        is_it = race.series is not None and race.series.kind is atom.kind
        return is_it != atom.negated
    if isinstance(atom, LastRank):
        return race.series is not None and atom.cmp.holds(race.series.rank.value_in(deck.extended),
                                                          atom.rank.value_in(deck.extended))
    if isinstance(atom, Count):
        who = 1 - seat if atom.opponent else seat
        n = len(race.hands[who]) if atom.what == "hand" else len(race.decks[who])
        return atom.cmp.holds(n, atom.n)
    assert isinstance(atom, Hold)
    return atom.card in race.hands[seat]


def holds(race: Race, deck: Deck, seat: int, cond: Condition) -> bool:
    return condition_holds(cond, lambda atom: atom_holds(race, deck, seat, atom))


def _attempt(race: Race, deck: Deck, seat: int, action: Action) -> Set | Refusal | None:
    """The set an action makes now, why it may not be made, or None for PASS (always allowed)."""
    if isinstance(action, Pass):
        return None
    if isinstance(action, PlayLowest):
        return lowest_single(race, deck, seat)
    return check_set(race, deck, seat, action.cards)


def choose(race: Race, deck: Deck, seat: int, chain: Chain) -> tuple[Set | None, tuple[Tried, ...]]:
    """The first alternative that is true and legal (None: pass), and a record of each one tried."""
    result = evaluate_chain(
        chain.alternatives,
        holds=lambda alt: alt.condition is None or holds(race, deck, seat, alt.condition),
        refusal=lambda alt: got if isinstance(got := _attempt(race, deck, seat, alt.action), Refusal) else None,
    )
    tried = tuple(Tried(action_text(a.alternative.action), a.outcome, a.reason) for a in result.tried)
    made = None if result.taken is None else _attempt(race, deck, seat, result.taken.action)
    return (made if isinstance(made, Set) else None), tried


# the run ---------------------------------------------------------------------------------


@dataclass
class _Lines:
    """A seat's sheet as the run uses it up."""

    orders: BadgerOrders | None
    used: int = 0

    def next(self) -> tuple[Chain | None, Used] | None:
        """The chain of the next turn line (None for a rejected line), else DEFAULT, else None."""
        if self.orders is None:
            return None
        if self.used < len(self.orders.turns):
            line = self.orders.turns[self.used]
            self.used += 1
            if line.chain is None:
                return None, Used(LineKind.REJECTED, self.used, line.line)
            return line.chain, Used(LineKind.TURN_LINE, self.used, line.line)
        if self.orders.default is not None:
            return self.orders.default, Used(LineKind.DEFAULT)
        return None


def _draw(race: Race, seat: int, n: int) -> tuple[Race, tuple[Card, ...]]:
    deck = race.decks[seat]
    got, rest = deck[:n], deck[n:]
    return race.with_seat(seat, hand=race.hands[seat] + got, deck=rest), got


def _draw_event(race: Race, seat: int, names: Sequence[str], got: tuple[Card, ...], why: str) -> Event:
    n = len(got)
    text = f"{names[seat]} draws {n} card{'' if n == 1 else 's'}{why}"
    return Event(Kind.DRAW, seat, names[seat], text, count=n, drawn=tuple(c.token for c in got))


def _end(race: Race, names: Sequence[str], blocked: bool, winner: int | None) -> tuple[Race, Event]:
    scores = [0, 0]
    if winner is not None:
        other = 1 - winner
        scores[winner] = len(race.hands[other]) - (len(race.hands[winner]) if blocked else 0)
    race = replace(race, over=True, winner=winner, scores=(scores[0], scores[1]), blocked=blocked)
    how = "both players are blocked" if blocked else "a player has played all her cards"
    if winner is None:
        text = f"Race {race.number} is over ({how}): a draw, no points."
    else:
        text = f"Race {race.number} is over ({how}): {names[winner]} wins and scores {scores[winner]}."
    shown = []
    for s in (0, 1):
        shown.append(f"{names[s]} hand: {' '.join(c.token for c in race.hands[s]) or '-'}")
        shown.append(f"{names[s]} deck: {' '.join(c.token for c in race.decks[s]) or '-'}")
    shown.append(f"set aside: {' '.join(c.token for c in race.aside) or '-'}")
    return race, Event(Kind.END, None, "", text, cards=tuple(shown))


def _pass(race: Race, deck: Deck, seat: int, names: Sequence[str], events: list[Event], *, forced: bool,
          used: Used, tried: tuple[Tried, ...]) -> Race:
    dead = race.series is None and not race.decks[0] and not race.decks[1]
    was_dead = race.last is Last.DEAD
    events.append(Event(Kind.PASS, seat, names[seat], f"{names[seat]} passes", forced=forced, tried=tried,
                        used=used))
    race = replace(race, series=None, last=Last.DEAD if dead else Last.PASS, act=1 - seat, drawn=False)
    h = race.hare
    if not race.decks[race.tortoise]:
        n, why = len(race.decks[h]), " (the tortoise's deck is empty: the rest of his deck)"
    elif seat == h:
        n, why = (1, "") if race.hands[h] else (len(race.decks[h]), " (his hand is empty: the rest of his deck)")
    else:
        n, why = 0, ""
    if n and race.decks[h]:
        race, got = _draw(race, h, n)
        events.append(_draw_event(race, h, names, got, why))
    if dead and was_dead:
        left = [len(race.hands[0]), len(race.hands[1])]
        winner = None if left[0] == left[1] else (0 if left[0] < left[1] else 1)
        race, end = _end(race, names, True, winner)
        events.append(end)
    return race


def _play(race: Race, seat: int, s: Set, names: Sequence[str], events: list[Event], *, used: Used,
          tried: tuple[Tried, ...]) -> Race:
    hand = list(race.hands[seat])
    for c in s.cards:
        hand.remove(c)
    race = race.with_seat(seat, hand=tuple(hand), course=race.courses[seat] + s.cards)
    race = replace(race, series=Series(s.kind, s.final.rank), last=Last.PLAY, act=1 - seat, drawn=False)
    tokens = " ".join(c.token for c in s.cards)
    events.append(Event(Kind.PLAY, seat, names[seat], f"{names[seat]} plays a {s.kind.value} {tokens} "
                        f"(rank {s.final.rank.word}; {s.cards[0].token} {s.connects})",
                        cards=tuple(c.token for c in s.cards), tried=tried, used=used))
    if not race.hands[seat] and not race.decks[seat]:
        race, end = _end(race, names, False, seat)
        events.append(end)
    return race


def run(state: State, sheets: Sequence[BadgerOrders | None], *, max_turns: int | None = None) -> tuple[State, list[Event]]:
    """One mail turn: the race run on while the sheets last ("The postal turn").

    The race's points are added to the totals when it ends, and the champion named; the next
    race of a tournament is dealt by the caller.
    """
    race, deck, names = state.race, state.deck, state.seats
    lines = [_Lines(sheets[0]), _Lines(sheets[1])]
    events: list[Event] = []
    for seat in (0, 1):
        orders = sheets[seat]
        if orders is not None and orders.notes:
            events.append(Event(Kind.SHEET, seat, names[seat], notes=orders.notes))
    turns = 0
    stopped = ""
    while not race.over:
        if max_turns is not None and turns >= max_turns:
            stopped = "the case's TURNS"
            break
        p = race.act
        if p == race.tortoise and not race.drawn:
            n = min(2, len(race.decks[p]))
            race, got = _draw(race, p, n)
            race = replace(race, drawn=True)
            if got:  # an empty deck draws nothing, and the report says nothing of it
                events.append(_draw_event(race, p, names, got, ""))
        if not has_legal_set(race, deck, p):
            race = _pass(race, deck, p, names, events, forced=True, used=Used(LineKind.FORCED), tried=())
        else:
            got_line = lines[p].next()
            if got_line is None:
                if turns > 0:
                    break
                got_line = PASS_CHAIN, Used(LineKind.NO_LINE)
            chain, which = got_line
            if chain is None:
                chain = PASS_CHAIN
            chosen, tried = choose(race, deck, p, chain)
            if chosen is None:
                race = _pass(race, deck, p, names, events, forced=False, used=which, tried=tried)
            else:
                race = _play(race, p, chosen, names, events, used=which, tried=tried)
        turns += 1
    for seat in (0, 1):
        orders = sheets[seat]
        left = len(orders.turns) - lines[seat].used if orders is not None else 0
        if left > 0:
            events.append(Event(Kind.SHEET, seat, names[seat],
                                notes=(f"{left} of your turn lines were not used and lapse",)))
    state = replace(state, race=race)
    if race.over:
        state = _score(state)
    else:
        who = names[race.act]
        why = f" ({stopped})" if stopped else ""
        events.append(Event(Kind.STOP, None, "", f"The run stops at {who}'s turn{why}: the next mail turn waits for "
                                                  f"{who}'s sheet."))
    return state, events


def _score(state: State) -> State:
    race = state.race
    totals = (state.totals[0] + race.scores[0], state.totals[1] + race.scores[1])
    champion: int | None = None
    over = True
    if state.tournament:
        over = False
        if race.number == 4 and totals[0] != totals[1]:
            champion = 0 if totals[0] > totals[1] else 1
        elif race.number > 4 and race.winner is not None:
            champion = race.winner
        over = champion is not None
    return replace(state, totals=totals, champion=champion, over=over)


def next_race(state: State, order: Sequence[Card], names: Sequence[str]) -> tuple[State, Event]:
    number = state.race.number + 1
    race = deal(order, state.deck, number, hare_of(number))
    return replace(state, race=race), setup_event(race, names, state.deck)


__all__ = ["check_set", "deal", "has_legal_set", "next_race", "run"]
