"""Computer players of the card race: they write sheets in the order language from their own view.

`baseline` sends an empty sheet, so every card turn gets the default play and the second bet the
default bet.

`strong` plays for its own bets with what its view tells it: its hand and bets, the table, the
pawns, the podium, the discard pile (by animal) and the size of every hand and of the deck. It
draws the cards it cannot see (the other hands, their bets, the deck) from the cards not yet
seen, many times over, and plays each candidate plan for the cycle out to the end of the race
on every draw (the other players either play the default or push the animal they hold most
of, at random): the plan (and, in the first mail turn of a `standard` race, the bet) that wins
the most of those races is the sheet, every alternative with a comment that says why it ranks
there.

The race's public record (every card turn and every pick, as the reports show them) narrows
those draws. A player picks her own animal whenever it has to move, so a deal of the starting
bets that a pick does not explain is far less likely. A player who plays one card at a time is
taken to play the default, so the cards she kept since her last card turn hold none of the
animals the default play would have taken first. A player seen playing several cards at once
pushes her bets. Against players who send no orders the record lifted the win share in
`apprentice` from 46.8% to 50.7% over the benchmark's 400 races (docs/development.md).

In `apprentice` (one bet each, the first animal over the line ends the race) it starts from one
plan: push its own animal, landing it on its turbo token when it can, and otherwise give single
cards to the rivals that threaten least (where they stand, and how hard typical play pushes
them: the default play feeds the tortoise first), never one that would carry a rival over the
line while another card will do. Other plans for the cycle are played out against it, with
the other players drawn as default players or as players like itself, and replace it only
when they win clearly more of the races.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.base import Bot
from pbem.games.card_race.cards import (
    ANIMALS,
    APPRENTICE,
    DECKS,
    FINISHED,
    HAND,
    HARE,
    LAMB,
    LETTERS,
    POINTS,
    TILES,
    TORTOISE,
    TURBO_TILES,
    WOLF,
)
from pbem.games.card_race.view import View
from pbem.games.chance import Chance

LEVELS = ("baseline", "strong")
#: races played out for each candidate plan (the same draws for every plan)
ROLLOUTS = 24
#: races played out for each `apprentice` plan, and the lead in share of the races won that a
#: plan needs over the first (`apprentice_plan`) to replace it
APPRENTICE_ROLLOUTS = 200
CHALLENGE = 0.015
#: card indices in the simulation: the five animals, then the howl card (a wolf card)
HOWL_CARD = 5
_INDEX = {"H": 0, "T": 1, "W": 2, "F": 3, "L": 4, "X": HOWL_CARD}
_DEFAULT_ORDER = (1, 0, 2, 3, 4, HOWL_CARD)  # the default play: a tortoise, else hare, wolf, fox, lamb, howl
MAX_TABLE, MAX_ANIMAL = 8, 4
#: how hard typical play pushes each animal in `apprentice`, in steps of lead: the default play
#: (a player who sends no orders) gives the tortoise a card first, then the hare, wolf, fox, lamb
PACE = (3, 4, 2, 1, 0)
#: the share of the other players the simulation lets push their own bets (the rest play the
#: default), for a player not yet seen playing twice
PUSHERS = 0.25
#: how much less likely a deal of the starting bets becomes for each pick of the race that it
#: does not explain
MISFIT = 0.05

#: a play as the simulation and the sheet know it: (cards, animal, howl cards among them, the
#: animal's cards the table must hold for it: -1 for any number, -2 - t for at most t)
PlayT = tuple[int, int, int, int]


def at_most(t: int) -> int:
    """The guard of a play made only while the table holds at most `t` cards of its animal."""
    return -2 - t


def _guard_holds(on_table: int, needs: int) -> bool:
    return needs == -1 or (on_table == needs if needs >= 0 else on_table <= -2 - needs)


class Baseline(Bot[View]):
    def write(self, view: View, chance: Chance) -> str:
        return ""


# the simulation -------------------------------------------------------------------------------------

def _animal(card: int) -> int:
    return WOLF if card == HOWL_CARD else card


class Race:
    """A race in plain lists, fast to play out: hands as counts of the six cards, the table as
    counts of the five animals (and its howl cards), the deck in draw order (last first)."""

    __slots__ = ("apprentice", "racers", "first", "streams", "turbo", "pawns", "podium", "hands", "bets",
                 "deck", "discard", "table", "howls", "total", "size", "rng", "over", "kinds", "picks")

    def __init__(self, view: View, hands: list[list[int]], bets: list[list[int]], deck: list[int],
                 discard: list[int], kinds: list[int], rng: random.Random) -> None:
        self.apprentice = view.ruleset == APPRENTICE
        self.racers = [p.seat for p in view.players if p.racing]
        self.first = view.first
        self.streams = frozenset(view.streams)
        self.turbo = view.turbo
        self.pawns = list(view.pawns)
        self.podium = [(a, place) for a, place in view.podium]
        self.hands, self.bets, self.deck, self.discard = hands, bets, deck, discard
        self.table = [0] * 5
        self.howls = 0
        self.total = 0
        for c in view.table:
            self.table[_animal(_INDEX[c])] += 1
            self.howls += c == "X"
            self.total += 1
        self.size = HAND[view.ruleset]
        self.rng = rng
        self.over = False
        self.kinds = kinds  # per seat: 0 plays the default, 1 pushes its bets
        #: per seat, the order it picks animals to move in (`apprentice`): its bets first, as a
        #: RACE line or the default list puts them
        self.picks = [_race_order(b) for b in bets]

    def placed(self, animal: int) -> bool:
        return any(a == animal for a, _ in self.podium)

    def legal(self, hand: list[int], play: PlayT) -> bool:
        n, a, howl, needs = play
        if not _guard_holds(self.table[a], needs):
            return False
        if self.total + n > MAX_TABLE or self.table[a] + n > MAX_ANIMAL:
            return False
        if a == WOLF:
            return hand[WOLF] >= n - howl and hand[HOWL_CARD] >= howl
        return hand[a] >= n

    def push_plan(self, seat: int) -> list[PlayT]:
        """A pusher's plan: as many cards as it may of the bet animal it holds most of, a laggard
        card otherwise."""
        hand = self.hands[seat]
        mine = sorted({a for a in self.bets[seat] if not self.placed(a)}, key=lambda a: (-hand[a], a))
        if self.apprentice:
            return self._apprentice_plan(mine)
        plan = [(k, a, 0, -1) for a in mine for k in (4, 3, 2, 1) if not (a == HARE and k == 4)]
        placed = [a for a in range(5) if self.placed(a)]
        free = [] if self.apprentice or TORTOISE in mine or TORTOISE in placed else [TORTOISE]
        rest = sorted((a for a in range(5) if a not in mine and a not in placed and a not in free),
                      key=lambda a: (self.pawns[a], a))
        return plan + [(1, a, 0, -1) for a in (*placed, *free, *rest)]

    def _apprentice_plan(self, mine: list[int]) -> list[PlayT]:
        """The strong player's own `apprentice` plan (see `apprentice_plan`) on the simulated
        track: its animals first, each landing on its turbo token when it can, then single
        cards of the least threatening rivals, none that would carry a rival over the line
        before the last resort."""
        plan: list[PlayT] = []
        for a in mine:
            plan += [*_onto_turbo(self.pawns[a], self.turbo, a), *((k, a, 0, -1) for k in (4, 3, 2, 1))]
        rest = sorted((a for a in range(5) if a not in mine), key=lambda a: (self.pawns[a] + PACE[a], a))
        late = []
        for a in rest:
            t = _safe(self.pawns[a], self.turbo, a)
            if t >= 0:
                plan.append((1, a, 0, -1 if t >= MAX_ANIMAL - 1 else at_most(t)))
            if t < MAX_ANIMAL - 1:
                late.append((1, a, 0, -1))
        return plan + late

    def card_turn(self, seat: int, plan: Sequence[PlayT]) -> bool:
        """One card turn; whether the table triggers the racing phase."""
        hand = self.hands[seat]
        chosen = next((p for p in plan if self.legal(hand, p)), None)
        if chosen is None:
            card = next((c for c in _DEFAULT_ORDER if hand[c]), None)
            if card is None:
                return False
            chosen = (1, _animal(card), 1 if card == HOWL_CARD else 0, -1)
        n, a, howl, _needs = chosen
        if a == WOLF:
            hand[WOLF] -= n - howl
            hand[HOWL_CARD] -= howl
            self.howls += howl
        else:
            hand[a] -= n
        self.table[a] += n
        self.total += n
        self.discard.extend([a] * (n - howl) + [HOWL_CARD] * howl)  # to the pile after the phase
        self._draw(hand)
        return self.total >= MAX_TABLE or self.table[a] >= MAX_ANIMAL

    def _draw(self, hand: list[int]) -> None:
        while sum(hand) < self.size:
            if not self.deck:
                if not self.discard:
                    return
                self.deck = self.discard
                self.discard = []
                self.rng.shuffle(self.deck)
            hand[self.deck.pop()] += 1

    def phase(self) -> None:
        """The racing phase of the table; then the table is cleared and the token passes on."""
        if self.apprentice:
            self._apprentice_phase()
        else:
            self._standard_phase()
        self.table = [0] * 5
        self.howls = self.total = 0
        i = self.racers.index(self.first) if self.first in self.racers else 0
        self.first = self.racers[(i + 1) % len(self.racers)]

    def _step(self, animal: int, steps: int, streams: bool) -> bool:
        for _ in range(steps):
            self.pawns[animal] += 1
            if self.pawns[animal] > TILES:
                self.pawns[animal] = FINISHED
                return True
            if streams and animal == LAMB and self.pawns[animal] in self.streams:
                return False
        return False

    def _cross(self, animal: int) -> None:
        self.podium.append((animal, len(self.podium) + 1))
        self.over = len(self.podium) >= 3

    def _standard_phase(self) -> None:
        n = self.table
        if self.howls:
            if not self.placed(WOLF) and self._step(WOLF, _wolf(n[WOLF]), True):
                self._cross(WOLF)
            return
        for a in range(5):
            if self.placed(a):
                continue
            if a == HARE:
                steps = 2 if n[a] else 0
                if n[a] == 4 and self.pawns[a] > 0 and all(
                        self.pawns[b] <= self.pawns[a] for b in range(5) if b != a and not self.placed(b)):
                    steps = 0
            elif a == TORTOISE:
                steps = 2 if n[a] == 4 else 1
            elif a == WOLF:
                steps = _wolf(n[a])
            elif a == LAMB:
                steps = n[a] + 1 if n[a] else 0
            else:
                steps = n[a]
            if steps and self._step(a, steps, True):
                self._cross(a)
                if self.over:
                    return

    def _apprentice_phase(self) -> None:
        """Each seat in turn from the token holder picks the next animal to move; animals that
        cross take the podium in the order they moved."""
        crossed = []
        to_move = [a for a in range(5) if self.table[a]]
        seat = self.first
        while to_move:
            a = next((x for x in self.picks[seat] if x in to_move), to_move[0])
            to_move.remove(a)
            if self._step(a, self.table[a], False):
                crossed.append(a)
            elif self.pawns[a] in TURBO_TILES and self.turbo and self.turbo[TURBO_TILES.index(self.pawns[a])] == a \
                    and self._step(a, 2, False):
                crossed.append(a)
            i = self.racers.index(seat) if seat in self.racers else 0
            seat = self.racers[(i + 1) % len(self.racers)]
        if not crossed:
            return
        places = [(a, i + 1) for i, a in enumerate(crossed[:3])]
        taken = len(places)
        track = [a for a in range(5) if a not in crossed]
        for a in track:
            place = taken + 1 + sum(1 for b in track if self.pawns[b] > self.pawns[a])
            if place <= 3:
                places.append((a, place))
        self.podium = places
        self.over = True

    def cycle(self, plans: dict[int, list[Sequence[PlayT]]]) -> None:
        """Card turns from the token holder until the trigger, then the racing phase. `plans`:
        for a seat, its plan for each of its card turns (the last one for any further turn)."""
        seat = self.first
        used = dict.fromkeys(self.racers, 0)
        pushed: dict[int, Sequence[PlayT]] = {}  # `apprentice`: the pawns stand still until the phase
        for _ in range(40):
            fixed = plans.get(seat)
            if fixed is not None:
                plan = fixed[min(used[seat], len(fixed) - 1)]
            elif self.kinds[seat]:
                plan = (pushed.get(seat) or pushed.setdefault(seat, self.push_plan(seat)) if self.apprentice
                        else self.push_plan(seat))
            else:
                plan = ()
            used[seat] += 1
            if self.card_turn(seat, plan):
                break
            i = self.racers.index(seat)
            seat = self.racers[(i + 1) % len(self.racers)]
        self.phase()

    def share(self, me: int) -> float:
        """My share of the win when the race is over (a tie the podium does not break is shared)."""
        place = dict(self.podium)
        points = {s: sum(POINTS.get(place.get(a, 0), 0) for a in self.bets[s]) for s in self.racers}
        top = max(points.values())
        tied = [s for s in self.racers if points[s] == top]
        if len(tied) > 1:
            best = {s: min((place[a] for a in self.bets[s] if a in place), default=99) for s in tied}
            low = min(best.values())
            tied = [s for s in tied if best[s] == low]
        return (1 / len(tied) if me in tied else 0.0) + 0.01 * points[me]


def _race_order(bets: Sequence[int]) -> tuple[int, ...]:
    """The animals in the order a player picks them: her bets (most backed first), then the rest
    in the order hare, tortoise, wolf, fox, lamb (the default list when she writes no RACE line)."""
    return tuple(sorted(range(5), key=lambda a: (-list(bets).count(a), a)))


def _wolf(n: int) -> int:
    return 0 if n == 0 else 1 if n <= 2 else n - 1


# drawing what the view hides --------------------------------------------------------------------

@dataclass(frozen=True)
class Unseen:
    """What the seat cannot see, to be drawn: the cards not seen, and who holds how many."""

    pool: tuple[int, ...]
    sizes: tuple[int, ...]  # hand size per seat
    second: tuple[int, ...]  # second-bet cards per seat still hidden (0 or 1)
    starts: tuple[int, ...]  # starting bet animals not mine
    per_seat: int  # starting bets per seat
    deals: tuple[tuple[tuple[int, ...], float], ...]  # the other racers' starting bets, each deal weighed
    kept: tuple[tuple[int, frozenset[int]], ...]  # per seat: cards kept since its last play, the cards they may be
    pushers: tuple[bool | None, ...]  # per seat: plays several cards at once; None: not seen twice yet


def unseen(view: View, me: int) -> Unseen:
    """The racing cards the seat has not seen (the full deck less its hand, its bet, the table
    and the discard pile), with the discard pile's wolves taken as plain ones first."""
    left = dict.fromkeys(range(6), 0)
    left.update({_INDEX[c]: n for c, n in DECKS[view.ruleset].items()})
    mine = view.players[me]
    for c in (*(mine.hand or ()), *((mine.bet,) if mine.bet else ()), *view.table):
        left[_INDEX[c]] -= 1
    for a, n in enumerate(view.discard):
        if a == WOLF:
            plain = min(n, left[WOLF])
            left[WOLF] -= plain
            left[HOWL_CARD] -= n - plain
        else:
            left[a] -= n
    pool = tuple(c for c, n in sorted(left.items()) for _ in range(max(0, n)))
    per_seat = len(mine.starts or ())
    second = tuple(0 if s == me or not p.racing else max(0, p.bet_count - per_seat) for s, p in enumerate(view.players))
    sizes = tuple(p.hand_size for p in view.players)
    backed = {_INDEX[c] for c in mine.starts or ()}
    starts = tuple(a for a in range(5) if a not in backed)
    pushers = _pushers(view)
    return Unseen(pool, sizes, second, starts, per_seat, _deals(view, me, starts, per_seat), _kept(view, me, pushers),
                  pushers)


def _deals(view: View, me: int, starts: tuple[int, ...], per_seat: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every deal of the other racers' starting bets (one each), weighed by the race's picks. A
    player picks her own animal whenever it still has to move, and otherwise the first of the
    others in the order hare, tortoise, wolf, fox, lamb: that is the default list, and the strong
    player's RACE line. Each pick a deal does not explain makes it MISFIT times less likely (a
    player may write a RACE line of her own)."""
    others = [s for s, p in enumerate(view.players) if s != me and p.racing]
    if per_seat != 1 or not view.picks or len(others) > len(starts):
        return ()
    deals = []
    for deal in itertools.permutations(starts, len(others)):
        bet = dict(zip(others, deal, strict=True))
        weight = 1.0
        for seat, picked, left in view.picks:
            if seat in bet:
                animal, moving = LETTERS.index(picked), [LETTERS.index(c) for c in left]
                if animal != bet[seat] and (bet[seat] in moving or animal != min(moving)):
                    weight *= MISFIT
        deals.append((deal, weight))
    return tuple(deals)


def _pushers(view: View) -> tuple[bool | None, ...]:
    """Per seat: whether it plays several cards at once, as its card turns in this race show; None
    until it has played twice."""
    plays = [0] * len(view.players)
    several = [False] * len(view.players)
    for seat, cards in view.plays:
        plays[seat] += 1
        several[seat] = several[seat] or len(cards) > 1
    return tuple(True if several[s] else None if plays[s] < 2 else False for s in range(len(view.players)))


def _kept(view: View, me: int, pushers: tuple[bool | None, ...]) -> tuple[tuple[int, frozenset[int]], ...]:
    """Per seat, the cards it kept since its last card turn, and what they may be. A player who
    plays one card at a time is taken to play the default: she held no card that comes before the
    one she played in the order tortoise, hare, wolf, fox, lamb, howl, and the cards she kept
    still hold none."""
    last = {seat: cards for seat, cards in view.plays}
    out = []
    for s, p in enumerate(view.players):
        cards = last.get(s)
        if s == me or cards is None or pushers[s] or not p.racing:
            out.append((0, frozenset(range(6))))
            continue
        played = _DEFAULT_ORDER.index(_INDEX[cards[0]])
        out.append((max(0, p.hand_size - len(cards)), frozenset(_DEFAULT_ORDER[played:])))
    return tuple(out)


def draw_race(view: View, me: int, hidden: Unseen, my_bets: list[int], rng: random.Random) -> Race:
    """One race as it may stand: the hidden cards dealt at random, the other players' kinds drawn."""
    pool = list(hidden.pool)
    rng.shuffle(pool)
    starts = list(hidden.starts)
    rng.shuffle(starts)
    dealt: dict[int, int] = {}
    if hidden.deals:
        deal = rng.choices([d for d, _ in hidden.deals], weights=[w for _, w in hidden.deals])[0]
        dealt = dict(zip((s for s, p in enumerate(view.players) if s != me and p.racing), deal, strict=False))
    kept = {s: _take(pool, k, cards) for s, (k, cards) in enumerate(hidden.kept) if k}
    hands: list[list[int]] = []
    bets: list[list[int]] = []
    for s, p in enumerate(view.players):
        hand = [0] * 6
        if s == me:
            for c in p.hand or ():
                hand[_INDEX[c]] += 1
            hands.append(hand)
            bets.append(list(my_bets))
            continue
        for card in kept.get(s, ()):
            hand[card] += 1
        for _ in range(hidden.sizes[s] - len(kept.get(s, ())) if p.racing else 0):
            if pool:
                hand[pool.pop()] += 1
        hands.append(hand)
        if s in dealt:
            seat_bets = [dealt[s]]
        else:
            seat_bets = [starts.pop() for _ in range(hidden.per_seat) if starts] if p.racing else []
        for _ in range(hidden.second[s]):
            if pool:
                seat_bets.append(_animal(pool.pop()))
        bets.append(seat_bets)
    kinds = [rng.random() < PUSHERS if known is None else known for known in hidden.pushers]
    return Race(view, hands, bets, pool, discarded(view, me, hidden), [int(k) for k in kinds], rng)


def discarded(view: View, me: int, hidden: Unseen) -> list[int]:
    """The discard pile as it stands (public by animal), to be shuffled into the next deck when
    the deck runs out: its howl cards are those neither unseen nor in view."""
    mine = view.players[me]
    seen = (*(mine.hand or ()), *((mine.bet,) if mine.bet else ()), *view.table)
    howls = DECKS[view.ruleset].get("X", 0) - hidden.pool.count(HOWL_CARD) - seen.count("X")
    pile = [a for a in range(5) for _ in range(view.discard[a])]
    for _ in range(max(0, howls)):
        if WOLF in pile:
            pile.remove(WOLF)
            pile.append(HOWL_CARD)
    return pile


def _take(pool: list[int], k: int, cards: frozenset[int]) -> list[int]:
    """Up to `k` cards of the kinds `cards`, taken from the end of the (shuffled) pool."""
    got: list[int] = []
    for i in range(len(pool) - 1, -1, -1):
        if len(got) == k:
            break
        if pool[i] in cards:
            got.append(pool.pop(i))
    return got


def _second_bets(race: Race, me: int, bet: int | None) -> None:
    """The first mail turn's second bets: mine as planned, the others' by the default bet."""
    for s in race.racers:
        hand = race.hands[s]
        if s == me:
            if bet is None:
                continue
            card = bet if hand[bet] or bet != WOLF else HOWL_CARD
        else:
            counted = [hand[a] + (hand[HOWL_CARD] if a == WOLF else 0) for a in range(5)]
            a = max(range(5), key=lambda x: (counted[x], -x))
            card = a if hand[a] or a != WOLF else HOWL_CARD
        if hand[card]:
            hand[card] -= 1
            race.bets[s].append(_animal(card))


# plans --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """A candidate for the cycle: the bet (first mail turn of a standard race), the first card
    turn's alternatives and every later card turn's, and what the plan is, in words."""

    bet: int | None
    first: tuple[PlayT, ...]
    rest: tuple[PlayT, ...]
    idea: str


def _spell(play: PlayT) -> str:
    n, a, howl, needs = play
    word = ANIMALS[a].upper()
    guard = (f"IF TABLE {word} = {needs} THEN " if needs >= 0
             else f"IF TABLE {word} <= {-2 - needs} THEN " if needs < -1 else "")
    if howl:
        return guard + (f"PLAY {n} {word} WITH {howl} HOWL" if howl > 1 else f"PLAY {n} {word} WITH HOWL")
    return f"{guard}PLAY {n} {word}"


def _held(hand: list[int], play: PlayT) -> bool:
    n, a, howl, _needs = play
    if a == WOLF:
        return hand[WOLF] >= n - howl and hand[HOWL_CARD] >= howl
    return hand[a] >= n


def _push(view: View, a: int) -> tuple[PlayT, ...]:
    """As many cards of `a` as the table allows; in `apprentice` first the number that ends its
    move on its own turbo token (2 steps more), for each count of its cards the table may hold."""
    if a == HARE and view.ruleset != APPRENTICE:
        return ((1, HARE, 0, -1),)  # it moves 2 with 1 to 3 cards, and naps in front with 4
    most = tuple((k, a, 0, -1) for k in (4, 3, 2, 1))
    if view.ruleset != APPRENTICE:
        return most
    return (*_onto_turbo(view.pawns[a], view.turbo, a), *most)


def _onto_turbo(pos: int, turbo: Sequence[int], a: int) -> tuple[PlayT, ...]:
    """`apprentice`: for each count of `a`'s cards the table may hold, the cards that end its move
    on its own turbo token ahead (2 steps more); none when the token is behind it or it stands
    within 4 of the line."""
    if a not in turbo:
        return ()
    gap = TURBO_TILES[turbo.index(a)] - pos
    if gap <= 0 or pos + 4 > TILES:
        return ()
    return tuple((gap - t, a, 0, t) for t in range(4) if 1 <= gap - t <= 4)


def plans(view: View, me: int, hand: list[int], placed: set[int], backed: list[int]) -> list[Plan]:
    """The candidates: push each animal it may bet on (hardest, or one card at a time), hold
    back, or howl."""
    betting = view.betting and view.ruleset != APPRENTICE
    bets: list[int | None] = [None]
    if betting:
        bets = [a for a in range(5) if hand[a] or (a == WOLF and hand[HOWL_CARD])]
    out: list[Plan] = []
    for bet in bets:
        mine = [*backed, *((bet,) if bet is not None else ())]
        targets = sorted({a for a in mine if a not in placed}, key=lambda a: (-mine.count(a), -hand[a], a))
        filler = _filler(view, hand, placed, set(mine))
        for a in targets:
            out.append(Plan(bet, (*_push(view, a), *filler), (*_push(view, a), *filler), f"push the {ANIMALS[a]}"))
            out.append(Plan(bet, ((1, a, 0, -1), *filler), ((1, a, 0, -1), *filler), f"one {ANIMALS[a]} card a turn"))
        if not betting:
            out.append(Plan(bet, filler, filler, "hold back: cards that move no rival"))
            for a in range(5):
                if a not in targets and a not in placed and hand[a] >= 2:
                    dump = (*_push(view, a), *filler)
                    out.append(Plan(bet, dump, dump, f"end the cycle soon with {ANIMALS[a]} cards"))
            if hand[HOWL_CARD] and WOLF not in placed:
                push = _push(view, targets[0]) if targets else ()
                out.append(Plan(bet, ((1, WOLF, 1, -1), *push, *filler), (*push, *filler), "howl: only the wolf moves"))
    return out


def apprentice_plan(view: View, hand: list[int], backed: list[int]) -> Plan:
    """The `apprentice` plan: push the animals it backs, and when it cannot, play single cards
    of the other animals, the least threatening first, and none that would carry a rival over
    the finish line while another card will do. (Ending the cycle early with a rival's cards,
    or playing several of them to draw more, lost to this in every series measured.)"""
    targets = sorted(set(backed), key=lambda a: (-backed.count(a), -hand[a], a))
    push = tuple(p for a in targets for p in _push(view, a))
    filler = _filler(view, hand, set(), set(backed))
    what = " and the ".join(ANIMALS[a] for a in targets)
    return Plan(None, (*push, *filler), (*push, *filler), f"push the {what}")


def apprentice_challengers(view: View, hand: list[int], backed: list[int], first: Plan) -> list[Plan]:
    """Other plans for this cycle, to be played out against the first: another rival's card
    first when it cannot play its own, one card of its own a turn, or holding its own cards."""
    targets = set(backed)
    push = tuple(p for p in first.first if p[1] in targets)
    filler = tuple(p for p in first.first if p[1] not in targets)
    out = []
    seen = {filler[0][1]} if filler else set()
    for lead in filler:
        if hand[lead[1]] and lead[1] not in seen:
            seen.add(lead[1])
            order = (*push, lead, *(p for p in filler if p != lead))
            out.append(Plan(None, order, order, f"{first.idea}, else give the {ANIMALS[lead[1]]} a card first"))
    for a in dict.fromkeys(p[1] for p in filler):
        if hand[a] >= 2 and view.pawns[a] + MAX_ANIMAL + 2 <= TILES:
            order = (*push, *((k, a, 0, -1) for k in range(hand[a], 1, -1)), *filler)
            out.append(Plan(None, order, order, f"{first.idea}, else several {ANIMALS[a]} cards to draw more"))
    if any(hand[a] for a in targets):
        one = tuple(p for p in push if p[0] == 1 and p[3] == -1)
        out.append(Plan(None, (*one, *filler), (*one, *filler), f"{first.idea} one card a turn"))
        out.append(Plan(None, filler, (*push, *filler), f"{first.idea} from the second card turn on"))
        out.append(Plan(None, filler, filler, "hold back its own cards this cycle"))
    return out


def _filler(view: View, hand: list[int], placed: set[int], mine: set[int]) -> tuple[PlayT, ...]:
    """Single cards that help no rival: an animal on the podium, in `standard` the tortoise (it
    moves 1 anyway with up to 3 cards), then the animals furthest behind."""
    order = [a for a in range(5) if a in placed]
    if TORTOISE not in mine and TORTOISE not in placed and view.ruleset != APPRENTICE:
        order.append(TORTOISE)
    rest = [a for a in range(5) if a not in placed and a not in order and a not in mine]
    if view.ruleset != APPRENTICE:
        order += sorted(rest, key=lambda a: (view.pawns[a], a))
        return tuple((1, a, 0, -1) for a in order)
    # in `apprentice` an animal's threat is where it stands and how hard players push it; a
    # card that would carry a rival over the line (the first over ends the race) waits for
    # the last resort
    order += sorted(rest, key=lambda a: (view.pawns[a] + PACE[a], a))
    safe = [(a, _safe(view.pawns[a], view.turbo, a)) for a in order]
    return (*((1, a, 0, -1 if t >= MAX_ANIMAL - 1 else at_most(t)) for a, t in safe if t >= 0),
            *((1, a, 0, -1) for a, t in safe if t < MAX_ANIMAL - 1))


def _safe(pos: int, turbo: Sequence[int], a: int) -> int:
    """The most cards of `a` (at `pos`) the table may hold for one more of them not to carry it
    over the finish line (`apprentice`: its own turbo token counts); -1 when even a lone card does."""
    safe = -1
    for t in range(MAX_ANIMAL):
        if _landing(pos, turbo, a, t + 1) > TILES:
            break
        safe = t
    return safe


def _landing(pos: int, turbo: Sequence[int], a: int, steps: int) -> int:
    pos += steps
    if pos in TURBO_TILES and turbo and turbo[TURBO_TILES.index(pos)] == a:
        pos += 2
    return pos


# the strong player -----------------------------------------------------------------------------------

class Strong(Bot[View]):
    """Plays every candidate plan out on the same draws of what it cannot see (see the module)."""

    def __init__(self, rollouts: int = ROLLOUTS, apprentice_rollouts: int = APPRENTICE_ROLLOUTS) -> None:
        self.rollouts = rollouts
        self.apprentice_rollouts = apprentice_rollouts

    def write(self, view: View, chance: Chance) -> str:
        me = view.viewer.seat
        if me is None or me < 0 or view.over:
            return ""
        mine = view.players[me]
        if mine.hand is None or not mine.racing:
            return ""
        hand = [0] * 6
        for c in mine.hand:
            hand[_INDEX[c]] += 1
        placed = {a for a, _ in view.podium}
        backed = [_animal(_INDEX[c]) for c in (*(mine.starts or ()), *((mine.bet,) if mine.bet else ()))]
        if view.ruleset == APPRENTICE:
            first = apprentice_plan(view, hand, backed)
            challengers = apprentice_challengers(view, hand, backed, first)
            if not self.apprentice_rollouts or not challengers:
                return _sheet(view, hand, [(-1.0, first)], backed)
            rng0 = random.Random(chance.uniform(2**31))  # noqa: S311 - a search's draws, seeded by the chance source
            ranked = self._rank(view, me, backed, [first, *challengers], rng0, self.apprentice_rollouts)
            base = next(sh for sh, p in ranked if p is first)
            if ranked[0][0] - base < CHALLENGE:
                ranked = [(base, first), *((sh, p) for sh, p in ranked if p is not first)]
            return _sheet(view, hand, ranked, backed)
        candidates = plans(view, me, hand, placed, backed)
        rng = random.Random(chance.uniform(2**31))  # noqa: S311 - a search's draws, seeded by the chance source
        ranked = self._rank(view, me, backed, candidates, rng) if len(candidates) > 1 else [(-1.0, c) for c in candidates]
        return _sheet(view, hand, ranked, backed)

    def _rank(self, view: View, me: int, backed: list[int], candidates: list[Plan],
              rng: random.Random, rollouts: int = 0) -> list[tuple[float, Plan]]:
        hidden = unseen(view, me)
        seeds = [rng.getrandbits(32) for _ in range(rollouts or self.rollouts)]
        totals = []
        for plan in candidates:
            won = 0.0
            for sd in seeds:
                won += _play_out(view, me, hidden, backed, plan, random.Random(sd))  # noqa: S311
            totals.append(won / len(seeds))
        order = sorted(range(len(candidates)), key=lambda i: (-totals[i], i))
        return [(totals[i], candidates[i]) for i in order]


def _play_out(view: View, me: int, hidden: Unseen, backed: list[int], plan: Plan, rng: random.Random) -> float:
    race = draw_race(view, me, hidden, backed, rng)
    if view.betting and not race.apprentice:
        _second_bets(race, me, plan.bet)
    race.cycle({me: [plan.first, plan.rest]})
    for _ in range(60):
        if race.over:
            break
        race.kinds[me] = 1
        race.cycle({})
    return race.share(me)


def _sheet(view: View, hand: list[int], ranked: list[tuple[float, Plan]], backed: list[int]) -> str:
    """The best plan as a sheet: the BET line, the play lines and the RACE line, each
    alternative with a comment that says why it ranks where it does."""
    if not ranked:
        return ""
    share, best = ranked[0]
    lines = []
    runner_up = next((f"{s:.0%} for {p.idea}" + (f" betting on the {ANIMALS[p.bet]}" if p.bet is not None else "")
                      for s, p in ranked[1:] if (p.idea, p.bet) != (best.idea, best.bet)), "")
    if share >= 0:
        lines.append(f"# the plan: {best.idea}; it won {share:.0%} of the races played out from here"
                     + (f" (next best: {runner_up})" if runner_up else ""))
    else:
        lines.append(f"# the plan: {best.idea}")
    mine = [*backed, *((best.bet,) if best.bet is not None else ())]
    if best.bet is not None:
        lines.append(f"# BET {ANIMALS[best.bet].upper()}: of the bets you can make, the one that won most often")
        lines.append(f"BET {ANIMALS[best.bet].upper()}")
    first = _chain(view, hand, best.first, mine)
    # later card turns come after refills: in `apprentice` they keep every alternative, so that
    # a card drawn meanwhile is never left to the default play (a tortoise first)
    rest = _chain(view, [MAX_ANIMAL] * 6 if view.ruleset == APPRENTICE else hand, best.rest, mine)
    if first and first != rest:
        lines += _commented(first, view, mine, "your first card turn")
        lines.append(" ELSE ".join(play for play, _ in first))
    if rest:
        lines += _commented(rest, view, mine, "every card turn" if first == rest else "your later card turns")
        lines.append("DEFAULT: " + " ELSE ".join(play for play, _ in rest))
    if view.ruleset == APPRENTICE:
        order = _race_order(mine)
        lines.append("# RACE: your own animals move first when two could cross in one phase")
        lines.append("RACE " + " ".join(ANIMALS[a].upper() for a in order))
    return "\n".join(lines) + "\n"


def _chain(view: View, hand: list[int], plays: Sequence[PlayT], mine: list[int]) -> list[tuple[str, PlayT]]:
    """The plan's alternatives it can make from its hand, each once."""
    out: list[tuple[str, PlayT]] = []
    for p in plays:
        text = _spell(p)
        if _held(hand, p) and all(text != t for t, _ in out):
            out.append((text, p))
    return out


def _commented(chain: list[tuple[str, PlayT]], view: View, mine: list[int], which: str) -> list[str]:
    lines = [f"# {which}, tried left to right until one is legal:"]
    for k, (text, (n, a, howl, needs)) in enumerate(chain, start=1):
        why = _why(view, mine, n, a, howl)
        if needs < -1:
            why = (f"the {ANIMALS[a]} is no bet of yours; with more than {-2 - needs} of its cards on the table, "
                   "one more would carry it over the finish line")
        elif needs >= 0:
            cards = f"{needs} {ANIMALS[a]} card{'s' if needs != 1 else ''}"
            why = (f"with {cards} on the table, {n} more end its move on its turbo token: "
                   "2 steps more")
        lines.append(f"#  {k}. {text}: {why}")
    return lines


def _why(view: View, mine: list[int], n: int, a: int, howl: int) -> str:
    name = ANIMALS[a]
    placed = {x for x, _ in view.podium}
    if howl:
        return "a howl card: only the wolf moves in this phase, every rival stands still"
    if a in mine and a not in placed:
        bets = mine.count(a)
        reason = f"the {name} carries {bets} of your bet{'s' if bets != 1 else ''}"
        if a == HARE and view.ruleset != APPRENTICE:
            return reason + "; it moves 2 with 1 to 3 cards, so one is enough (with 4 in front it naps)"
        if n >= 2:
            return reason + f"; {n} cards move it furthest (4 of one animal start the racing phase at once)"
        return reason + "; one card when the table has no room for more"
    if a in placed:
        return f"the {name} is on the podium: its card moves nothing"
    if a == TORTOISE and view.ruleset != APPRENTICE:
        return "the tortoise moves 1 with up to 3 cards anyway: this card helps no rival"
    return f"the {name} is no bet of yours and stands at tile {view.pawns[a]}, far back: its card helps a rival least"
