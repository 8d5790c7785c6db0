"""A player's orders read on the position: conditions from their parsed tree, actions as the
rules' moves, and a chain's first true and legal alternative with a record of each one tried.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass

from pbem.games.hare_tortoise.board import HOME
from pbem.games.hare_tortoise.orders.model import (
    Action,
    ActionKind,
    Alternative,
    Chain,
    Compare,
    Condition,
    HareAlternative,
    HareChoice,
    IAm,
    OrderSheet,
    PlayerIs,
    Quantity,
    RunnerTest,
    SquareIs,
)
from pbem.games.hare_tortoise.position import Move, MoveOrReason, Position, Seat
from pbem.games.hare_tortoise.resolution import Tried
from pbem.games.hare_tortoise.state import Must
from pbem.orders import And, Cmp, Not, Or

_FALSE = "the condition is false"


@dataclass(frozen=True)
class Option:
    """One alternative of a chain, ready to try: its condition and action from the parsed tree,
    the rule of its action, and its record when the condition is false and when it is taken
    (the same at every slot, so made once)."""

    number: int  # 1-based
    text: str  # canonical
    condition: Condition | None
    action: Action
    runner: int | None  # two-player: the acting runner the alternative names
    rule: Callable[[Position, int, Action], MoveOrReason]
    if_false: Tried
    if_taken: Tried


def _option(number: int, alt: Alternative) -> Option:
    text = str(alt)
    return Option(number, text, alt.condition, alt.action, alt.runner, _ACTIONS[alt.action.kind],
                  Tried(number=number, text=text, outcome="false", reason=_FALSE),
                  Tried(number=number, text=text, outcome="taken", reason=""))


@dataclass(frozen=True)
class OrderLine:
    """The order line a slot uses: its label ("MOVE 2", "DEFAULT", "no orders", ...) and, when it
    has a chain, the chain's canonical text and its alternatives."""

    label: str
    text: str | None = None
    options: tuple[Option, ...] = ()


def _line(label: str, chain: Chain | None) -> OrderLine:
    if chain is None:
        return OrderLine(label)
    return OrderLine(label, str(chain), tuple(_option(n, a) for n, a in enumerate(chain.alternatives, start=1)))


@dataclass(frozen=True)
class SeatOrders:
    """A seat's sheet ready to play: every slot of the seat uses the next MOVE line, the slots
    beyond them the DEFAULT line (or none); the HARE chain chooses at a hare square."""

    lines: tuple[OrderLine, ...] = ()
    beyond: OrderLine = OrderLine("no orders")
    hare: tuple[HareAlternative, ...] = ()

    def line(self, used: int) -> OrderLine:
        """The line of the seat's slot after `used` slots."""
        return self.lines[used] if used < len(self.lines) else self.beyond


_NO_ORDERS = SeatOrders()


class _Memo:
    """Values derived from parsed sheets, kept by the sheet's identity: a sheet plays at every
    slot of its seat, often over many turns, and hashing a tree of frozen dataclasses costs as
    much as deriving the value again. Keeping the sheet keeps its id from being reused; the
    oldest entries go first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.found: dict[int, tuple[OrderSheet, SeatOrders]] = {}

    def get(self, sheet: OrderSheet) -> SeatOrders | None:
        entry = self.found.get(id(sheet))
        return entry[1] if entry is not None and entry[0] is sheet else None

    def put(self, sheet: OrderSheet, orders: SeatOrders) -> None:
        if len(self.found) >= self.size:
            del self.found[next(iter(self.found))]
        self.found[id(sheet)] = (sheet, orders)


_SEAT_ORDERS = _Memo(256)


def seat_orders(sheet: OrderSheet | None) -> SeatOrders:
    """A sheet ready to play (derived once for each sheet)."""
    if sheet is None:
        return _NO_ORDERS
    orders = _SEAT_ORDERS.get(sheet)
    if orders is None:
        lines = tuple(_line(f"MOVE {k}", m.chain) if m.chain is not None else OrderLine(f"MOVE {k} (rejected)")
                      for k, m in enumerate(sheet.moves, start=1))
        beyond = _line("DEFAULT", sheet.default) if sheet.default is not None else OrderLine("no MOVE line")
        orders = SeatOrders(lines, beyond, sheet.hare_chain)
        _SEAT_ORDERS.put(sheet, orders)
    return orders


# conditions, read from their tree -------------------------------------------------------------

# Each comparison's operator, found by the member's identity: an enum member's hash is computed
# in Python, and a condition is read at every slot.
_COMPARE: dict[int, Callable[[int, int], bool]] = {id(cmp): op for cmp, op in (
    (Cmp.EQ, operator.eq), (Cmp.NE, operator.ne), (Cmp.LT, operator.lt), (Cmp.LE, operator.le),
    (Cmp.GT, operator.gt), (Cmp.GE, operator.ge))}
# the quantities a comparison reads, as module globals (a member lookup on an enum class costs more)
_CARROTS, _LETTUCES, _RANK = Quantity.CARROTS, Quantity.LETTUCES, Quantity.RANK


def holds(p: Position, i: int, cond: Condition) -> bool:
    """Whether the condition is true now for runner i (`I`, `MY SQUARE`, `CARROTS` are its)."""
    if isinstance(cond, Compare):
        q = cond.quantity  # what it reads of runner i
        if q is _CARROTS:
            value = p.car[i]
        elif q is _LETTUCES:
            value = p.let[i]
        elif q is _RANK:
            value = p.position(i)
        else:
            value = p.sq[i]  # MY SQUARE
        return _COMPARE[id(cond.cmp)](value, cond.value)
    if isinstance(cond, And):
        for part in cond.parts:
            if not holds(p, i, part):
                return False
        return True
    if isinstance(cond, Or):
        for part in cond.parts:
            if holds(p, i, part):
                return True
        return False
    if isinstance(cond, Not):
        return not holds(p, i, cond.inner)
    if isinstance(cond, SquareIs):
        return (p.occ[cond.square] == 0) == cond.free
    if isinstance(cond, IAm):
        return (p.position(i) == (p.n if cond.last else 1)) != cond.negated
    return _player_is(p, i, cond)


def _player_is(p: Position, i: int, c: PlayerIs) -> bool:
    # The atom means what it says about any runner, the player's own included (ORDERS.md), and
    # IS NOT is its exact negation. ON and HOME read the square, which is right for the own
    # runner as it is (a runner with a slot is not HOME). No runner is ahead of or behind itself.
    j = c.seat
    if c.test is RunnerTest.ON:
        true = p.sq[j] == c.square
    elif c.test is RunnerTest.HOME:
        true = p.sq[j] == HOME
    elif j == i:
        true = False
    elif c.test is RunnerTest.AHEAD:
        true = p.position(j) < p.position(i)
    else:
        true = p.position(j) > p.position(i)
    return true != c.negated


# actions ----------------------------------------------------------------------------------------

def _to(p: Position, i: int, action: Action) -> MoveOrReason:
    n, s = action.square or 0, p.sq[i]
    if n > s:
        return p.forward(i, n)
    if n == s:
        return f"the runner is already on square {n}"
    if p.free_back:
        return p.back_to(i, n)
    m = p.back(i)
    if isinstance(m, str) or m[1] == n:
        return m
    return f"square {n} is behind and is not the nearest tortoise square behind ({m[1]})"


def _home(p: Position, i: int, action: Action) -> MoveOrReason:
    return p.forward(i, HOME)


def _advance(p: Position, i: int, action: Action) -> MoveOrReason:
    d = action.distance or 0
    if d <= 0:
        return "ADVANCE 0 goes nowhere"
    if p.sq[i] + d > HOME:
        return f"{d} squares ahead is past HOME"
    return p.forward(i, p.sq[i] + d)


def _next(p: Position, i: int, action: Action) -> MoveOrReason:
    if action.next_kind is None:
        return p.nearest_forward(i) or "no square ahead is legal to land on"
    ahead = p.tables.ahead[(action.next_kind, action.number)][p.sq[i]]
    return p.nearest_forward(i, ahead) or f"no {str(action)[5:].lower()} square ahead is legal to land on"


def _back(p: Position, i: int, action: Action) -> MoveOrReason:
    d = action.distance
    if d is None:
        return p.back(i)
    if d <= 0:
        return "BACK 0 goes nowhere"
    if p.sq[i] - d < 0:
        return f"{d} squares back is past START"
    return p.back_to(i, p.sq[i] - d)


def _stay(p: Position, i: int, action: Action) -> MoveOrReason:
    return p.stay(i, action.give)


def _eat(p: Position, i: int, action: Action) -> MoveOrReason:
    return "lettuces are eaten by rule at the slot after landing; EAT is never a move"


_ACTIONS: dict[ActionKind, Callable[[Position, int, Action], MoveOrReason]] = {
    ActionKind.TO: _to, ActionKind.HOME: _home, ActionKind.ADVANCE: _advance, ActionKind.NEXT: _next,
    ActionKind.BACK: _back, ActionKind.STAY: _stay, ActionKind.EAT: _eat,
}


# a chain --------------------------------------------------------------------------------------------

def first_alternative(p: Position, seat: Seat, line: OrderLine, tried: list[Tried]) -> tuple[Move | None, int]:
    """The chain's first true and legal alternative, as (its move, its acting runner): the one the
    alternative names (two-player), else the seat's runner. Every alternative looked at is added
    to `tried`. (None, -1) when there is none.

    This is `pbem.orders.evaluate_chain`'s algorithm (condition false: skip; not allowed: skip
    with the reason; else taken and stop), written out because it runs at every slot of every
    game: the toolkit's form, with its calls per alternative (the condition, the refusal, the
    record), made the engine 0.94x the plain reference in benchmarks/engine.py against 1.08x for
    this loop, under its floor of 1.0x. Its records are made once per alternative (`Option`) and
    once per reason (`_illegal`) instead."""
    own = seat.runners[0]
    for option in line.options:
        i = own if option.runner is None else option.runner
        if option.condition is not None and not holds(p, i, option.condition):
            tried.append(option.if_false)
            continue
        m = allowed(p, seat, i, option) if seat.shared else option.rule(p, i, option.action)
        if isinstance(m, str):
            tried.append(_illegal(option.number, option.text, m))
            continue
        tried.append(option.if_taken)
        return m, i
    return None, -1


@functools.lru_cache(maxsize=4096)
def _illegal(number: int, text: str, reason: str) -> Tried:
    """An alternative's record when its action is not allowed, for this reason: the same reasons
    come back from slot to slot, and a record never changes."""
    return Tried(number=number, text=text, outcome="illegal", reason=reason)


def allowed(p: Position, seat: Seat, i: int, option: Option) -> MoveOrReason:
    """Two runners to the seat: the action for its runner i, with what makes it illegal for that
    runner (it is HOME, the other runner must leave a lettuce square, only the stuck runner may
    move off); the bonus the runner would draw on moving off may pay for the move. (A seat's one
    runner is racing and is the one to move: its action is the rule's alone.)"""
    if p.sq[i] == HOME:
        return f"{p.names[i]} is HOME"
    if p.only >= 0 and i != p.only:
        return f"{p.names[p.only]} was stuck and moves off START now; {p.names[i]} may not move"
    for mate in seat.runners:
        if mate != i and p.must[mate] is Must.LEAVE and p.sq[mate] != HOME:
            return f"{p.names[mate]} ate a lettuce and must leave its square first"
    bonus = p.bonus_of(i)
    if not bonus:
        return option.rule(p, i, option.action)
    p.car[i] += bonus
    try:
        return option.rule(p, i, option.action)
    finally:
        p.car[i] -= bonus


def default_for(p: Position, seat: Seat, i: int) -> Move | None:
    """The default move of the seat's runner i, counting the bonus it would draw on leaving."""
    bonus = p.bonus_on_leaving(seat, i)
    p.car[i] += bonus
    move = p.default_move(i)
    p.car[i] -= bonus
    return move


def hare_choice(p: Position, i: int) -> HareChoice:
    """Runner i's HARE choice, made now: its chain's first true alternative, else the rules'
    first word."""
    for alt in p.hare_chains[p.seat_of[i]]:
        if alt.condition is None or holds(p, i, alt.condition):
            return alt.choice
    return HareChoice(p.rules.choices[0])
