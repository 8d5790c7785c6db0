"""The card race's rules engine: set-up, one cycle of card play and its racing phase, scoring.

Pure: a state, each seat's orders and a chance source in; a new state and the events out. One
call of `resolve_cycle` is one mail turn (RULES-CARD-RACE.md, "The postal turn"), in named
stages: second bets, card turns until the trigger, the racing phase, the end of the race.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from pbem.games.card_race.cards import (
    ANIMALS,
    APPRENTICE,
    CHAMPIONSHIP,
    DEAL,
    FINISHED,
    FOX,
    HAND,
    HARE,
    HOWL,
    LAMB,
    LETTERS,
    POINTS,
    ROUNDS,
    STANDARD,
    TILES,
    TORTOISE,
    TURBO_TILES,
    WOLF,
    animal_of,
    counts,
    describe,
    full_deck,
    ordinal,
    remove,
    sort_cards,
)
from pbem.games.card_race.orders import KIND_HOWL, Chain, Orders, Play, condition_holds, condition_words, kind_word
from pbem.games.card_race.resolution import Event, Kind, LineUsed, NotAllowed, Refusal, Source, Tried
from pbem.games.card_race.state import State
from pbem.games.chance import Chance
from pbem.orders import evaluate_chain

MAX_TABLE = 8
MAX_ANIMAL = 4


# --- set-up --------------------------------------------------------------------------------------


def new_game(ruleset: str, mode: str, seats: Sequence[str], chance: Chance) -> State:
    """The game before mail turn 1: the first race laid out and dealt; seat A holds the token."""
    n = len(seats)
    blank = State(ruleset, mode, tuple(seats), tuple(range(n)), 1, 1, 0, (), (), (0,) * 5, (), ((),) * n,
                  ((),) * n, ("",) * n, (), (), (), False, (), (0,) * n)
    return deal_race(blank, tuple(range(n)), 0, 1, chance)


def deal_race(state: State, racers: tuple[int, ...], first: int, round_: int, chance: Chance) -> State:
    """A new race for `racers`: track, turbo tokens, starting bets, deck and hands, in that order
    of chance (RULES, "Chance")."""
    ruleset = state.ruleset
    tiles = chance.shuffle(list(range(TILES)))  # tiles 0 and 1 are the streams
    streams = tuple(sorted(i + 1 for i, t in enumerate(tiles) if t < 2))
    turbo = tuple(chance.shuffle(list(range(5)))) if ruleset == APPRENTICE else ()
    bet_cards = chance.shuffle(list(LETTERS))
    per = 2 if len(racers) == 2 else 1
    deck = list(chance.shuffle(list(full_deck(ruleset))))
    n = len(state.seats)
    starts: list[tuple[str, ...]] = [()] * n
    hands: list[tuple[str, ...]] = [()] * n
    for k in range(per):
        for j, seat in enumerate(racers):
            starts[seat] = (*starts[seat], bet_cards[k * len(racers) + j])
    aside = tuple(bet_cards[per * len(racers):])
    for _ in range(DEAL[ruleset]):
        for seat in racers:
            hands[seat] = (*hands[seat], deck.pop(0))
    return replace(
        state, racers=racers, round=round_, first=first, streams=streams, turbo=turbo, pawns=(0,) * 5, podium=(),
        hands=tuple(sort_cards(h) for h in hands), starts=tuple(sort_cards(s) for s in starts), bets=("",) * n,
        deck=tuple(deck), discard=(), table=(), betting=ruleset == STANDARD, aside=aside, race_over=False,
        winners=(), plays=(), picks=(),
    )


# --- the working position of one cycle -----------------------------------------------------------


@dataclass
class _Work:
    """The mutable position while a cycle is resolved; frozen again at the end."""

    hands: list[tuple[str, ...]]
    deck: list[str]
    discard: list[str]
    table: list[str]
    pawns: list[int]
    podium: list[tuple[int, int]]
    bets: list[str]
    plays: list[tuple[int, str]]
    picks: list[tuple[int, str, str]]
    events: list[Event] = field(default_factory=list)


def _draw(w: _Work, seat: int, size: int, chance: Chance) -> tuple[list[str], int]:
    """Refill `seat`'s hand to `size`: the cards drawn and how many reshuffles it took. The deck
    is never left empty while the discard pile holds cards (RULES, "Card play", Decision)."""
    drawn: list[str] = []
    shuffles = 0
    while len(w.hands[seat]) + len(drawn) < size:
        if not w.deck and w.discard:
            w.deck, w.discard = list(chance.shuffle(list(w.discard))), []
            shuffles += 1
        if not w.deck:
            break  # cannot arise in play: the hand stays short
        drawn.append(w.deck.pop(0))
        if not w.deck and w.discard:
            w.deck, w.discard = list(chance.shuffle(list(w.discard))), []
            shuffles += 1
    w.hands[seat] = sort_cards((*w.hands[seat], *drawn))
    return drawn, shuffles


def illegal(play: Play, hand: Sequence[str], table: Sequence[str]) -> NotAllowed | None:
    """Why `play` may not be made now (None: it may)."""
    need = play.cards()
    name = ANIMALS[play.animal]
    for letter in set(need):
        has = sum(1 for c in hand if c == letter)
        want = sum(1 for c in need if c == letter)
        if has < want:
            what = "howl" if letter == HOWL else ("plain wolf" if letter == "W" and any(c == HOWL for c in hand)
                                                  else name)
            return NotAllowed(Refusal.SHORT, has, want, what)
    if len(table) + play.n > MAX_TABLE:
        return NotAllowed(Refusal.TABLE_FULL, len(table) + play.n)
    on_table = counts(table)[play.animal]
    if on_table + play.n > MAX_ANIMAL:
        return NotAllowed(Refusal.ANIMAL_FULL, on_table + play.n, what=name)
    return None


def default_play(hand: Sequence[str]) -> Play | None:
    """One tortoise card; else one of hare, plain wolf, fox, lamb; a howl card last (Decision)."""
    for letter in "THWFL":
        if letter in hand:
            return Play(1, animal_of(letter))
    if HOWL in hand:
        return Play(1, WOLF, 1)
    return None


def choose(chain: Chain, hand: Sequence[str], table: Sequence[str]) -> tuple[Play | None, tuple[Tried, ...]]:
    """The first alternative that is true and legal, and a record of every alternative tried."""
    hand_t, table_t = tuple(hand), tuple(table)
    result = evaluate_chain(
        chain.alternatives,
        holds=lambda alt: alt.condition is None or condition_holds(alt.condition, hand_t, table_t),
        refusal=lambda alt: illegal(alt.play, hand, table),
    )
    tried = tuple(Tried(a.alternative.text(), a.outcome,
                        "" if a.alternative.condition is None else condition_words(a.alternative.condition), a.reason)
                  for a in result.tried)
    return (None if result.taken is None else result.taken.play), tried


def default_bet(hand: Sequence[str]) -> str:
    """One card of the animal she holds most of; ties by the animal order; plain wolf first."""
    c = counts(hand)
    best = max(range(5), key=lambda a: (c[a], -a))
    if best == WOLF:
        return "W" if "W" in hand else HOWL
    return LETTERS[best]


def bet_card(kind: int, hand: Sequence[str]) -> str | None:
    """The card a BET line sets aside, or None when she holds no such card."""
    if kind == KIND_HOWL:
        return HOWL if HOWL in hand else None
    if kind == WOLF:
        return "W" if "W" in hand else HOWL if HOWL in hand else None
    letter = LETTERS[kind]
    return letter if letter in hand else None


# --- the cycle -----------------------------------------------------------------------------------


def resolve_cycle(state: State, orders: Mapping[int, Orders], chance: Chance, *,
                  plays: int | None = None) -> tuple[State, tuple[Event, ...]]:
    """One mail turn: second bets, card turns from the token holder until the trigger, the racing
    phase and, if the race ended, its scores. `plays` stops after so many card turns (cases)."""
    w = _Work(list(state.hands), list(state.deck), list(state.discard), list(state.table), list(state.pawns),
              list(state.podium), list(state.bets), list(state.plays), list(state.picks))
    if state.betting:
        _second_bets(state, w, orders)
    triggered = _card_play(state, w, orders, chance, plays)
    if not triggered:
        return _frozen(state, w, betting=False), tuple(w.events)
    over = _racing_phase(state, w, orders)
    w.discard.extend(w.table)
    w.table = []
    holder = state.next_racer(state.first)
    after = replace(_frozen(state, w, betting=False), first=holder, turn=state.turn + 1)
    if over:
        after = _end_of_race(after, w)
    return after, tuple(w.events)


def _frozen(state: State, w: _Work, *, betting: bool) -> State:
    return replace(state, hands=tuple(w.hands), deck=tuple(w.deck), discard=sort_cards(w.discard),
                   table=tuple(w.table), pawns=tuple(w.pawns), podium=tuple(w.podium), bets=tuple(w.bets),
                   betting=betting, plays=tuple(w.plays), picks=tuple(w.picks))


def _second_bets(state: State, w: _Work, orders: Mapping[int, Orders]) -> None:
    for seat in state.racers:
        hand = w.hands[seat]
        sheet = orders.get(seat)
        card: str | None = None
        note = ""
        if sheet is not None and sheet.bet is not None:
            card = bet_card(sheet.bet, hand)
            if card is None:
                note = f"{kind_word(sheet.bet)}: you hold no such card, so you get the default bet"
        if card is None:
            card = default_bet(hand) if hand else None
            how = "the default bet (the animal you hold most cards of)"
        else:
            how = "your BET line"
        if card is None:
            continue
        w.hands[seat] = remove(hand, (card,))
        w.bets[seat] = card
        private = ([note] if note else []) + [f"you set aside {describe((card,))} card as your second bet, by {how}"]
        w.events.append(Event(Kind.BET, seat, f"{state.seats[seat]} sets aside a second bet", (), tuple(private)))


def _chain_for(sheet: Orders | None, k: int) -> tuple[Chain | None, Source]:
    """The chain for a player's k-th card turn (0-based), and which line it is."""
    if sheet is None:
        return None, Source(LineUsed.NO_SHEET)
    if k < len(sheet.plays):
        line = sheet.plays[k]
        if line.chain is None:
            return None, Source(LineUsed.REJECTED, line.line)
        return line.chain, Source(LineUsed.PLAY_LINE, line.line, k + 1)
    if sheet.default is not None:
        return sheet.default, Source(LineUsed.DEFAULT, sheet.default_line)
    return None, Source(LineUsed.NONE_LEFT)


def _card_play(state: State, w: _Work, orders: Mapping[int, Orders], chance: Chance, limit: int | None) -> bool:
    """Card turns from the token holder to the left until the trigger; whether it came."""
    size = HAND[state.ruleset]
    seat = state.first
    used = dict.fromkeys(state.racers, 0)
    number = 0
    passes = 0
    while limit is None or number < limit:
        number += 1
        k = used[seat]
        used[seat] = k + 1
        chain, source = _chain_for(orders.get(seat), k)
        hand = w.hands[seat]
        tried: tuple[Tried, ...] = ()
        play: Play | None = None
        if chain is not None:
            play, tried = choose(chain, hand, w.table)
            if play is None:
                source = replace(source, fell_back=True)
        if play is None:
            play = default_play(hand)
            if play is not None and illegal(play, hand, w.table) is not None:
                play = None  # only where the position cannot arise in play
        name = state.seats[seat]
        if play is None:
            passes += 1
            w.events.append(Event(Kind.CARD_TURN, seat, f"{name} has no card to play and passes",
                                  table=tuple(w.table), number=number, source=source))
            if passes >= len(state.racers):
                return True
            seat = state.next_racer(seat)
            continue
        passes = 0
        cards = play.cards()
        w.hands[seat] = remove(hand, cards)
        w.table.extend(cards)
        w.plays.append((seat, "".join(cards)))
        drawn, shuffles = _draw(w, seat, size, chance)
        details = []
        if shuffles:
            details.append("the discard pile is shuffled to form a new deck"
                           + ("" if shuffles == 1 else f" ({shuffles} times)"))
        private = (f"you draw {describe(drawn)}; your hand: {describe(w.hands[seat])}",)
        w.events.append(Event(Kind.CARD_TURN, seat, f"{name} plays {describe(cards)} and draws {len(drawn)}",
                              tuple(details), private, tuple(cards), tuple(w.table), number, source, tried))
        c = counts(w.table)
        if len(w.table) >= MAX_TABLE or max(c) >= MAX_ANIMAL:
            break
        seat = state.next_racer(seat)
    else:
        _lapsed(state, w, orders, used)
        return False
    _lapsed(state, w, orders, used)
    return True


def _lapsed(state: State, w: _Work, orders: Mapping[int, Orders], used: Mapping[int, int]) -> None:
    for seat in state.racers:
        sheet = orders.get(seat)
        if sheet is None:
            continue
        left = sheet.plays[used[seat]:]
        if left:
            lines = ", ".join(str(p.line) for p in left)
            w.events.append(Event(Kind.NOTE, seat, "", private=(f"play lines not used (no card turn for them), "
                                                                f"line {lines}",)))


# --- the racing phase ----------------------------------------------------------------------------


def _standard_steps(animal: int, n: int) -> int:
    if animal == HARE:
        return 2 if n else 0
    if animal == TORTOISE:
        return 2 if n == 4 else 1
    if animal == WOLF:
        return 0 if n == 0 else 1 if n <= 2 else n - 1
    if animal == FOX:
        return n
    return n + 1 if n else 0


def _move(state: State, w: _Work, animal: int, steps: int, lines: list[str], *, streams: bool) -> bool:
    """Move an animal step by step; whether it crossed the finish line."""
    start = w.pawns[animal]
    name = ANIMALS[animal]
    for _ in range(steps):
        w.pawns[animal] += 1
        if w.pawns[animal] > TILES:
            w.pawns[animal] = FINISHED
            return True
        if streams and animal == LAMB and w.pawns[animal] in state.streams:
            lines.append(f"the lamb goes from {_where(start)} to tile {w.pawns[animal]} and stops at the stream")
            return False
    lines.append(f"the {name} moves {steps} from {_where(start)} to tile {w.pawns[animal]}")
    return False


def _where(pos: int) -> str:
    return "the start line" if pos == 0 else f"tile {pos}"


def _racing_phase(state: State, w: _Work, orders: Mapping[int, Orders]) -> bool:
    """The racing phase after the trigger; whether the race is over."""
    lines: list[str] = [f"on the table: {describe(w.table)}"]
    if state.ruleset == APPRENTICE:
        over = _apprentice_phase(state, w, orders, lines)
    else:
        over = _standard_phase(state, w, lines)
    w.events.append(Event(Kind.PHASE, None, "the racing phase", tuple(lines), table=tuple(w.table)))
    return over


def _cross(w: _Work, animal: int, lines: list[str]) -> None:
    place = len(w.podium) + 1
    w.podium.append((animal, place))
    lines.append(f"the {ANIMALS[animal]} crosses the finish line and takes {ordinal(place)} place")


def _standard_phase(state: State, w: _Work, lines: list[str]) -> bool:
    n = counts(w.table)
    if HOWL in w.table:
        lines.append("a howl card is on the table: only the wolf moves")
        if state.on_podium(WOLF):
            lines.append("the wolf is on the podium, so no animal moves")
        elif _move(state, w, WOLF, _standard_steps(WOLF, n[WOLF]), lines, streams=True):
            _cross(w, WOLF, lines)
        return len(w.podium) >= 3
    for animal in range(5):
        if state.on_podium(animal):
            continue
        steps = _standard_steps(animal, n[animal])
        if animal == HARE and n[HARE] == 4 and w.pawns[HARE] > 0:
            others = [w.pawns[a] for a in range(5) if a != HARE and not any(p == a for p, _ in w.podium)]
            if all(p <= w.pawns[HARE] for p in others):
                lines.append("the hare has 4 cards and leads on the track: it naps")
                continue
        if animal == TORTOISE and n[TORTOISE] == 0:
            lines.append("the tortoise has no cards and moves 1 all the same")
        if steps == 0:
            continue
        if _move(state, w, animal, steps, lines, streams=True):
            _cross(w, animal, lines)
            if len(w.podium) >= 3:
                lines.append("three animals are on the podium: the race is over")
                return True
    return False


def race_list(sheet: Orders | None, starts: Sequence[str]) -> tuple[int, ...]:
    """The order in which a player picks animals: her RACE line, or her starting bets first."""
    if sheet is not None and sheet.race is not None:
        return sheet.race
    backed = sorted({animal_of(c) for c in starts})
    return (*backed, *(a for a in range(5) if a not in backed))


def _apprentice_phase(state: State, w: _Work, orders: Mapping[int, Orders], lines: list[str]) -> bool:
    n = counts(w.table)
    to_move = [a for a in range(5) if n[a] > 0]
    seat = state.first
    crossed: list[int] = []
    while to_move:
        wanted = race_list(orders.get(seat), state.starts[seat])
        animal = next((a for a in wanted if a in to_move), to_move[0])
        w.picks.append((seat, LETTERS[animal], "".join(LETTERS[a] for a in to_move)))
        to_move.remove(animal)
        lines.append(f"{state.seats[seat]} picks the {ANIMALS[animal]}")
        if _move(state, w, animal, n[animal], lines, streams=False):
            crossed.append(animal)
            lines.append(f"the {ANIMALS[animal]} crosses the finish line")
        else:
            pos = w.pawns[animal]
            if pos in TURBO_TILES and state.turbo and state.turbo[TURBO_TILES.index(pos)] == animal:
                lines.append(f"the {ANIMALS[animal]} ends on its own turbo token: 2 more steps")
                if _move(state, w, animal, 2, lines, streams=False):
                    crossed.append(animal)
                    lines.append(f"the {ANIMALS[animal]} crosses the finish line")
        seat = state.next_racer(seat)
    if not crossed:
        return False
    places: list[tuple[int, int]] = [(a, i + 1) for i, a in enumerate(crossed[:3])]
    taken = len(places)
    track = [a for a in range(5) if a not in crossed]
    for a in sorted(track, key=lambda b: (-w.pawns[b], b)):
        place = taken + 1 + sum(1 for b in track if w.pawns[b] > w.pawns[a])
        if place <= 3:
            places.append((a, place))
    w.podium = places
    for a, place in places:
        lines.append(f"the {ANIMALS[a]} takes {ordinal(place)} place")
    lines.append("an animal crossed the finish line: the race is over")
    return True


# --- the end of a race ---------------------------------------------------------------------------


def bets_of(state: State, seat: int) -> tuple[str, ...]:
    return (*state.starts[seat], *((state.bets[seat],) if state.bets[seat] else ()))


def scores(state: State) -> tuple[int, ...]:
    """Each seat's points from this race's podium (0 for a seat out of the race)."""
    place = dict(state.podium)
    return tuple(sum(POINTS.get(place.get(animal_of(c), 0), 0) for c in bets_of(state, s)) if s in state.racers
                 else 0 for s in range(len(state.seats)))


def best_place(state: State, seat: int) -> int:
    place = dict(state.podium)
    return min((place[animal_of(c)] for c in bets_of(state, seat) if animal_of(c) in place), default=99)


def race_winners(state: State, points: Sequence[int]) -> tuple[int, ...]:
    """The winner of a race (one seat), or the players of the tie-break race (several)."""
    top = max(points[s] for s in state.racers)
    tied = [s for s in state.racers if points[s] == top]
    if len(tied) > 1:
        best = min(best_place(state, s) for s in tied)
        tied = [s for s in tied if best_place(state, s) == best]
    return tuple(tied)


def _end_of_race(state: State, w: _Work) -> State:
    """Scores, totals, and the winner or the players of the next race; `first` becomes the
    starter of the game's next race."""
    points = scores(state)
    # a tie-break race (round 0) and a single race leave the championship totals alone
    counted = state.mode == CHAMPIONSHIP and state.round >= 1
    totals = tuple(t + p for t, p in zip(state.totals, points, strict=True)) if counted else state.totals
    bets = tuple(bets_of(state, s) for s in range(len(state.seats)))
    lines = [f"{state.seats[s]} bet on {describe(bets[s])} and scores {points[s]}" for s in state.racers]
    if state.mode == CHAMPIONSHIP and 1 <= state.round < ROUNDS:
        outcome: tuple[int, ...] = ()
        lines.append(f"round {state.round} of {ROUNDS} is over")
    elif state.mode == CHAMPIONSHIP and state.round == ROUNDS:
        top = max(totals)
        outcome = tuple(s for s in range(len(state.seats)) if totals[s] == top)
    else:
        outcome = race_winners(state, points)
    first = state.first
    if len(outcome) > 1:
        while first not in outcome:
            first = (first + 1) % len(state.seats)
        lines.append("a tie: " + ", ".join(state.seats[s] for s in outcome) + " play a tie-break race")
    elif outcome:
        lines.append(f"{state.seats[outcome[0]]} wins the game")
    if state.mode == CHAMPIONSHIP:
        lines += [f"{state.seats[s]}: {totals[s]} points in all" for s in range(len(state.seats))]
    w.events.append(Event(Kind.RACE_END, None, "the race is over", tuple(lines)))
    return replace(state, race_over=True, over=len(outcome) == 1, winners=outcome, first=first, totals=totals,
                   last_bets=bets, last_scores=points)


def next_race(state: State, chance: Chance) -> tuple[State, tuple[Event, ...]]:
    """After a race that ended without a winner: the next round, or the tie-break race."""
    if len(state.winners) > 1:
        racers, round_ = state.winners, 0
    else:
        racers, round_ = tuple(range(len(state.seats))), state.round + 1
    dealt = deal_race(state, racers, state.first, round_, chance)
    what = f"round {round_}" if round_ else "the tie-break race"
    text = f"{what} begins: " + ", ".join(state.seats[s] for s in racers) + f"; {state.seats[state.first]} starts"
    return dealt, (Event(Kind.SETUP, None, text, (f"the streams are on tiles {dealt.streams[0]} and "
                                                  f"{dealt.streams[1]}",)),)
