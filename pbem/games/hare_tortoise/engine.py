"""Resolve one turn of Hare & Tortoise: the rotating sequence of move slots, step by step.

A turn is played on a `Position` (position.py), the turn's working figures by runner. At each of
its slots a seat moves its runner, or, with the two-player option, either of its two runners,
which share one supply (`Seat.shared`); both kinds of seat take the one slot path of `play_slot`,
in the named stages of RULES.md ("A move slot, step by step"), each stage reading the slot's
`SlotContext`. The seat's order line is read on the position by chain.py (the first true and
legal alternative, and a record of each one tried); a hare square is hare.py's. `rehearse` plays
one seat's slots alone, for PREVIEW.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from pbem.errors import PbemError
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import HOME, START, Kind
from pbem.games.hare_tortoise.chain import OrderLine, default_for, first_alternative, seat_orders
from pbem.games.hare_tortoise.hare import hare_square
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.position import Move, Position, Seat
from pbem.games.hare_tortoise.resolution import HareRoll, Outcome, Slot, Tried
from pbem.games.hare_tortoise.rules import Ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State


@dataclass(frozen=True)
class TurnResult:
    """The position after the turn, and the record of every slot played."""

    state: State
    slots: tuple[Slot, ...]


# the slot ---------------------------------------------------------------------------------------

@dataclass(slots=True)
class SlotContext:
    """One slot being played: the position, the seat and its order line, and the runner the slot
    concerns with its figures as the slot found them, from which the slot's record is written."""

    p: Position
    seat: Seat
    line: OrderLine
    chance: Chance
    number: int  # 1-based within the turn
    extra: bool  # a slot added by a hare "have another turn"
    runner: int = -1
    name: str = ""
    from_square: int = START
    carrots: int = 0
    lettuces: int = 0
    position: int = 1
    bonus: int = 0
    tried: list[Tried] = field(default_factory=list)  # the alternatives of its order line tried

    def concern(self, runner: int, name: str | None = None) -> None:
        """The slot is about this runner (named as `name`, else by its own name)."""
        p = self.p
        self.runner = runner
        self.name = name or p.names[runner]
        self.from_square = p.sq[runner]
        self.carrots, self.lettuces = p.car[runner], p.let[runner]
        self.position = p.position_at(self.from_square)

    def record(self, outcome: Outcome, rule: str | None, *, paid: int = 0, drew: int = 0,
               hare: HareRoll | None = None, place: int | None = None) -> Slot:
        p, r = self.p, self.runner
        return Slot(number=self.number, seat=self.seat.index, name=self.name, order=self.line.label,
                    chain=self.line.text, tried=tuple(self.tried), outcome=outcome, rule=rule,
                    from_square=self.from_square, to_square=p.sq[r], paid=paid, drew=drew, bonus=self.bonus,
                    position=self.position, carrots_before=self.carrots, carrots_after=p.car[r],
                    lettuces_before=self.lettuces, lettuces_after=p.let[r], hare=hare, place=place, extra=self.extra)


def play_slot(p: Position, seat: Seat, line: OrderLine, chance: Chance, number: int,
              extra: bool) -> tuple[Slot, bool]:
    """One move slot of a seat, in the named stages of RULES (and, for two runners sharing a
    supply, of RULESETS.md, two-player): a missed slot; the number-square bonus (a seat of one
    runner draws it now, two runners on moving off); eating a lettuce (runner 1 first); the order
    chain, else the default move (for the runner that must leave a lettuce square, else the rear
    runner, then the other), else stuck, and in Parlett's rulesets the move off START; then the
    move and what the square landed on does. Returns the record and whether an extra slot
    follows at once."""
    ctx = SlotContext(p, seat, line, chance, number, extra)
    racing = [j for j in seat.runners if p.sq[j] != HOME]
    rear = racing[0] if len(racing) == 1 else min(racing, key=p.sq.__getitem__)  # on a tie, runner 1
    if p.skip[rear]:
        ctx.concern(rear, seat.name)
        return _stage_missed(ctx), False
    if not seat.shared:
        ctx.concern(rear)
        _stage_number_bonus(ctx)
    eater = p.first_who_must(racing, Must.EAT)
    if eater is not None:
        if ctx.runner != eater:
            ctx.concern(eater)
        return _stage_eat(ctx), False
    move, runner, rule = _stage_orders(ctx, racing)
    if ctx.runner != runner:
        ctx.concern(runner)
    if move is None:
        stuck = _stage_stuck(ctx)
        if not p.rules.moves_off_when_stuck:
            return stuck, False
        return _stage_move_off(ctx)
    return _stage_move(ctx, move, rule)


def _stage_missed(ctx: SlotContext) -> Slot:
    """A hare "miss a turn": the slot passes, its order line is used up."""
    ctx.p.skip[ctx.runner] = False
    return ctx.record(Outcome.MISSED, "missed turn (hare)")


def _stage_number_bonus(ctx: SlotContext) -> None:
    """A number square whose number is the runner's position pays 10 x position first."""
    bonus = ctx.p.bonus_of(ctx.runner)
    ctx.p.car[ctx.runner] += bonus
    ctx.bonus += bonus


def _stage_eat(ctx: SlotContext) -> Slot:
    """The slot after landing on a lettuce is spent eating: 10 x position, one lettuce fewer."""
    p, i = ctx.p, ctx.runner
    if p.let[i] > 0:
        p.let[i] -= 1
    drew = 10 * ctx.position
    p.car[i] += drew
    p.must[i] = Must.LEAVE
    return ctx.record(Outcome.ATE, "eat a lettuce", drew=drew)


def _stage_orders(ctx: SlotContext, racing: Sequence[int]) -> tuple[Move | None, int, str | None]:
    """The order chain's first true and legal alternative, else RULES' default move: (the move,
    the runner it moves, the rule that chose it when not the player's order). The move is None
    when no runner has one: the runner named is the one that is stuck."""
    p, seat = ctx.p, ctx.seat
    if ctx.line.options:
        move, runner = first_alternative(p, seat, ctx.line, ctx.tried)
        if move is not None:
            return move, runner, None
    leaver = p.first_who_must(racing, Must.LEAVE)
    order = [leaver] if leaver is not None else sorted(racing, key=p.sq.__getitem__)  # rear first
    for runner in order:
        move = default_for(p, seat, runner)
        if move is not None:
            return move, runner, "default move"
    return None, order[0], "default move"


def _stage_stuck(ctx: SlotContext) -> Slot:
    """No legal move: back to START with the game's starting carrots."""
    p, i = ctx.p, ctx.runner
    p.occ[p.sq[i]] -= 1
    p.occ[START] += 1
    p.sq[i] = START
    p.car[i] = p.restart
    p.must[i] = Must.NONE
    p.skip[i] = False
    p.inert[i] = False
    return ctx.record(Outcome.STUCK, "stuck: no legal move")


def _stage_move_off(ctx: SlotContext) -> tuple[Slot, bool]:
    """Parlett: a stuck runner, back on START, moves off at once by the same chain (its conditions
    read after the reset; only that runner may move), else by the default move."""
    p, i = ctx.p, ctx.runner
    s0 = ctx.from_square
    ctx.tried = []
    p.only = i
    try:
        move, _, rule = _stage_orders(ctx, [i])
    finally:
        p.only = -1
    assert move is not None  # from START with the starting carrots some square 1-10 is always legal
    why = f"stuck on {'START' if s0 == START else f'square {s0}'}: back to START with {p.car[i]} carrots, moved off at once"
    if rule is not None:
        why += " by the default move"
    ctx.from_square, ctx.position = START, p.position_at(START)
    return _stage_move(ctx, move, why)


def _stage_move(ctx: SlotContext, move: Move, rule: str | None) -> tuple[Slot, bool]:
    """Pay or draw, move, then what the square landed on does: HOME, a lettuce, a hare square."""
    p, i = ctx.p, ctx.runner
    if ctx.seat.shared:
        bonus = p.bonus_of(i)  # drawn on moving off (a seat of one runner drew it at the start)
        p.car[i] += bonus
        ctx.bonus += bonus
    outcome, target, paid, drew = move
    p.car[i] += drew - paid
    s0 = p.sq[i]
    place: int | None = None
    hare: HareRoll | None = None
    again = False
    if target != s0:
        p.occ[s0] -= 1
        p.occ[target] += 1
        p.sq[i] = target
        p.must[i] = Must.NONE
        p.inert[i] = False
        if outcome is Outcome.HOME:
            p.home_count += 1
            place = p.place[i] = p.home_count
        else:
            k = p.kinds[target]
            if k == Kind.LETTUCE:
                p.must[i] = Must.EAT
            elif k == Kind.HARE and outcome is Outcome.FORWARD:
                hare, again = hare_square(p, i, ctx.chance, paid)
                if p.sq[i] == HOME:
                    place = p.place[i]
            elif outcome is Outcome.BACK and p.free_back and k != Kind.TORTOISE:
                p.inert[i] = True  # a hare, carrot or number square reached backwards
    return ctx.record(outcome, rule, paid=paid, drew=drew, hare=hare, place=place), again


# the turn ---------------------------------------------------------------------------------------

def turn_sequence(state: State, postal: bool = True) -> list[int]:
    """The seats in slot order for the state's turn: racing seats from the first mover, then it
    again (the postal rotation); without `postal`, each racing seat once from the first seat."""
    racing = _racing_seats([r.square for r in state.runners], state.per_seat)
    n = len(racing)
    if not postal:
        return [k for k in range(n) if racing[k]]
    first = state.first
    seats = [k for k in (*range(first, n), *range(first)) if racing[k]]
    if seats and seats[0] == first:
        seats.append(first)
    return seats


def _racing_seats(squares: Sequence[int], per: int) -> list[bool]:
    """For each seat of `per` runners, whether it still has one racing (HOME is the top square)."""
    if per == 1:
        return [s != HOME for s in squares]
    return [min(squares[k:k + per]) != HOME for k in range(0, len(squares), per)]


def _next_first_mover(racing: Sequence[bool], first: int) -> int:
    """RULES: the next seat after the previous first mover that still has a runner racing."""
    n = len(racing)
    for k in range(1, n + 1):
        seat = (first + k) % n
        if racing[seat]:
            return seat
    return first


def _finishing_groups(state: State, seats: Sequence[Seat]) -> tuple[tuple[int, ...], ...]:
    """The groups of runners whose arrival HOME ends the game: partnership's teams, the seats of
    two runners; none when the game ends with one runner left racing."""
    if state.teams:
        return tuple(runners for _, runners in state.teams)
    return tuple(seat.runners for seat in seats if seat.shared)


def resolve_turn(
    rules: Ruleset,
    state: State,
    sheets: Sequence[OrderSheet | None],
    chance: Chance,
    *,
    max_slots: int | None = None,
) -> TurnResult:
    """Play the state's turn: every slot in the rotating sequence, each with its resolution."""
    if state.over:
        raise PbemError("the game is over: there is no turn left to resolve")
    if len(sheets) * state.per_seat != len(state.runners):
        raise ValueError("one order sheet (or None) per seat is needed")
    orders = [seat_orders(s) for s in sheets]
    p = Position(rules, state, [o.hare for o in orders])
    used = [0] * len(p.seats)
    queue = turn_sequence(state, rules.postal_rotation)
    extra_slots: list[int] = []  # indices in `queue` of slots added by a hare "have another turn"
    slots: list[Slot] = []
    limit = len(queue) + 1000 if max_slots is None else max_slots
    groups = _finishing_groups(state, p.seats)
    sq = p.sq
    over = False
    k = 0
    while k < len(queue) and len(slots) < limit:
        seat = p.seats[queue[k]]
        k += 1
        if p.seat_done(seat):
            continue
        line = orders[seat.index].line(used[seat.index])
        used[seat.index] += 1
        try:
            slot, again = play_slot(p, seat, line, chance, len(slots) + 1, k - 1 in extra_slots)
        except PbemError as err:
            err.slots = tuple(slots)  # type: ignore[attr-defined]  # what was resolved before it
            raise
        slots.append(slot)
        if again:
            queue.insert(k, seat.index)
            extra_slots = [x + 1 if x >= k else x for x in extra_slots] + [k]
        if slot.place is not None:
            if groups:
                if any(all(sq[j] == HOME for j in group) for group in groups):
                    over = True  # the first group with every runner HOME wins; the rest get no place
                    break
            elif p.racing() <= 1:
                over = True
                for j in range(p.n):
                    if sq[j] != HOME:
                        p.place[j] = p.n
                break
    # in the order of Runner's fields: name, square, carrots, lettuces, place, must, skip
    runners = tuple(Runner(p.names[j], sq[j], p.car[j], p.let[j], p.place[j], p.must[j], bool(p.skip[j]))
                    for j in range(p.n))
    racing = _racing_seats(sq, state.per_seat)
    if over:
        first = state.first
    elif rules.postal_rotation:
        first = _next_first_mover(racing, state.first)
    else:
        first = racing.index(True) if any(racing) else 0
    inert = tuple(j for j in range(p.n) if p.inert[j]) if p.free_back else state.inert
    return TurnResult(State(state.ruleset, runners, state.turn + 1, first, over, state.options, state.teams,
                            tuple(p.deck), tuple(p.used), inert), tuple(slots))


# a rehearsal: one seat's slots alone, no die thrown -------------------------------------------------

class _DrawRefused(Exception):
    """A rehearsal reached a throw of the die or a hare card: it stops there."""


class _NoDice:
    """A chance source that refuses to draw: a rehearsal never uses the game's dice."""

    turn = 0
    drawn: list[Any] = []  # noqa: RUF012 - never appended to: every draw raises first

    def die(self, sides: int) -> NoReturn:
        raise _DrawRefused

    def uniform(self, n: int) -> NoReturn:
        raise _DrawRefused

    def shuffle(self, items: Sequence[Any]) -> NoReturn:
        raise _DrawRefused


@dataclass(frozen=True)
class HareStop:
    """Where a rehearsal stops: a move onto a hare square, whose throw or card it cannot know."""

    number: int  # the slot, 1-based
    label: str  # its order line's label
    name: str  # the runner that moves
    from_square: int
    to_square: int
    tried: tuple[Tried, ...]
    position: int  # the runner's race position on the hare square


@dataclass(frozen=True)
class Rehearsal:
    """A seat's slots played alone on the current position, and where its runners end."""

    slots: tuple[Slot, ...]
    stop: HareStop | None
    squares: tuple[int, ...]  # the seat's runners' squares at the end
    carrots: int
    lettuces: int


def rehearse(rules: Ruleset, state: State, sheet: OrderSheet, seat_index: int, slots: int) -> Rehearsal:
    """The seat's first `slots` slots by its sheet, as if the other runners stood still; no die
    is thrown and the hare deck's order stays hidden, so the rehearsal stops at a hare square."""
    orders = seat_orders(sheet)
    # the other seats have no orders: their runners stand still and choose by the rules' first word
    p = Position(rules, state, [orders.hare if k == seat_index else () for k in range(len(state.seats))])
    p.deck, p.used = [], []  # the deck's order is hidden: an empty pile stops a draw like a die
    seat = p.seats[seat_index]
    played: list[Slot] = []
    stop: HareStop | None = None
    for used in range(slots):
        if p.seat_done(seat):
            break
        line = orders.line(used)
        saved = p.snapshot()
        try:
            slot, _ = play_slot(p, seat, line, _NoDice(), used + 1, False)
        except _DrawRefused:
            p.restore(saved)
            stop = _hare_stop(p, seat, line, used + 1)
            break
        played.append(slot)
    first = seat.runners[0]
    return Rehearsal(tuple(played), stop, tuple(p.sq[j] for j in seat.runners), p.car[first], p.let[first])


def _hare_stop(p: Position, seat: Seat, line: OrderLine, number: int) -> HareStop:
    """The slot that reached a draw, played again up to its choice of move."""
    ctx = SlotContext(p, seat, line, _NoDice(), number, False)
    racing = [j for j in seat.runners if p.sq[j] != HOME]
    if not seat.shared:
        ctx.concern(racing[0])
        _stage_number_bonus(ctx)
    move, runner, _ = _stage_orders(ctx, racing)
    s0 = p.sq[runner]
    target = move[1] if move is not None else s0
    position = 1 + sum(1 for j, x in enumerate(p.sq) if j != runner and x > target)
    return HareStop(number, line.label, p.names[runner], s0, target, tuple(ctx.tried), position)


def new_state(rules: Ruleset, players: Sequence[str], chance: Chance | None = None, options: tuple[str, ...] = (),
              teams: tuple[tuple[str, tuple[int, ...]], ...] = ()) -> State:
    if not rules.min_players <= len(players) <= rules.max_players:
        raise PbemError(
            f"Hare & Tortoise takes {rules.min_players} to {rules.max_players} players, not {len(players)}"
        )
    carrots = rules.starting_carrots(len(players))
    names = [f"{p}{k}" for p in players for k in range(1, rules.runners_per_seat + 1)] if rules.runners_per_seat > 1 \
        else list(players)
    runners = tuple(Runner(p, START, carrots, rules.starting_lettuces()) for p in names)
    deck: tuple[str, ...] = ()
    if rules.deck is not None:
        if chance is None:
            raise PbemError("a game with a hare deck needs a chance source to shuffle it")
        deck = tuple(chance.shuffle(rules.deck.codes))
    return State(rules.name, runners, 1, 0, False, options, teams, deck)
