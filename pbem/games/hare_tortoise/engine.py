"""Resolve one turn of Hare & Tortoise: the rotating sequence of move slots, step by step.

A turn is played on a `Position`, the turn's working figures by runner. At each of its slots a
seat moves its runner, or, with the two-player option, either of its two runners, which share
one supply (`Seat.shared`); both kinds of seat take the one slot path of `play_slot`, in the
named stages of RULES.md ("A move slot, step by step"), each stage reading the slot's
`SlotContext`. Orders are read from their parsed tree at every slot: a chain's first true and
legal alternative is the move, and every alternative tried is recorded.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from pbem.errors import PbemError
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import HOME, START, Board, Kind
from pbem.games.hare_tortoise.orders.model import (
    Action,
    ActionKind,
    Alternative,
    And,
    Chain,
    Cmp,
    Compare,
    Condition,
    HareAlternative,
    HareChoice,
    IAm,
    NextKind,
    Not,
    Or,
    OrderSheet,
    PlayerIs,
    Quantity,
    RunnerTest,
    SquareIs,
)
from pbem.games.hare_tortoise.resolution import HareRoll, Outcome, Slot, Tried
from pbem.games.hare_tortoise.rules import Card, HareDeck, HareEffect, Ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State

#: cost in carrots of a forward move of d squares: d(d + 1) / 2
COST = tuple(d * (d + 1) // 2 for d in range(HOME + 1))

_FALSE = "the condition is false"
_V = TypeVar("_V")
# The enum members the slot path compares and returns at every slot, read once: a member lookup
# on an enum class costs several times a module global's.
_FORWARD, _RUN_HOME, _FALL_BACK, _STAY_TAKE, _STAY_GIVE = (
    Outcome.FORWARD, Outcome.HOME, Outcome.BACK, Outcome.STAY_TAKE, Outcome.STAY_GIVE)
_MUST_EAT, _MUST_LEAVE, _MUST_NONE = Must.EAT, Must.LEAVE, Must.NONE
# The board's kinds as plain ints (`Board.kinds` holds ints): reading an enum member costs a
# lookup, and the legal-move checks read kinds at every square they look at.
_CARROT, _HARE, _LETTUCE, _TORTOISE, _NUMBER = (int(k) for k in (Kind.CARROT, Kind.HARE, Kind.LETTUCE,
                                                                   Kind.TORTOISE, Kind.NUMBER))


#: a legal move: (outcome, the square it ends on, carrots paid, carrots drawn)
Move = tuple[Outcome, int, int, int]

#: a legal move, or why the move is not allowed now
MoveOrReason = Move | str


@dataclass(frozen=True)
class TurnResult:
    state: State
    slots: tuple[Slot, ...]


class BoardTables:
    """Per-board look-ups, built once per board."""

    def __init__(self, board: Board) -> None:
        self.kinds = board.kinds
        self.numbers = board.number_bonus
        self.tortoise_behind = board.tortoise_behind
        #: for `NEXT <kind>` (and `NEXT NUMBER <d>`): the squares of that kind ahead of each square
        self.ahead: dict[tuple[NextKind, int | None], tuple[tuple[int, ...], ...]] = {
            (kind, None): board.ahead_of_kind(Kind[kind.name]) for kind in NextKind
        }
        for d in range(1, 7):
            self.ahead[(NextKind.NUMBER, d)] = board.ahead_of_kind(Kind.NUMBER, d)
        self.hares = board.squares_of(Kind.HARE)
        self.carrots = board.squares_of(Kind.CARROT)


_TABLES: dict[type[Ruleset], tuple[BoardTables, tuple[int, ...]]] = {}


def _tables(rules: Ruleset) -> tuple[BoardTables, tuple[int, ...]]:
    """The ruleset's board tables and the carrots allowed at HOME by the runners already there."""
    found = _TABLES.get(type(rules))
    if found is None:
        allowance = tuple(rules.home_allowance(p) for p in range(1, rules.max_players + 1))
        found = _TABLES[type(rules)] = (BoardTables(rules.board), allowance)
    return found


# seats and their orders -----------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    """A seat and the runners it moves: one, or (two-player) two that share the seat's supply."""

    index: int
    name: str
    runners: tuple[int, ...]
    #: two runners share one supply of carrots and lettuces and one missed-slot flag, and a
    #: number square's bonus is drawn by the runner moving off it (RULESETS.md, two-player)
    shared: bool


_SEATS: dict[tuple[tuple[str, ...], int], tuple[Seat, ...]] = {}


def seats_of(state: State, names: tuple[str, ...]) -> tuple[Seat, ...]:
    """The state's seats, its runners being called `names` (made once for each list of names)."""
    per = state.per_seat
    seats = _SEATS.get((names, per))
    if seats is None:
        if len(_SEATS) > 1024:
            _SEATS.clear()
        seats = _SEATS[(names, per)] = tuple(Seat(k, name, state.seat_runners(k), per > 1)
                                             for k, name in enumerate(state.seats))
    return seats


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


# the working position ---------------------------------------------------------------------------

class _Shared(list[_V]):
    """A per-runner view of a per-seat value (two-player: the supply's carrots and lettuces, the
    missed-slot flag). Runners 2k and 2k + 1 read and write entry k, so every rule that gives,
    takes or counts carrots and lettuces reaches the supply through the runner concerned."""

    __slots__ = ()

    def __getitem__(self, i: int) -> _V:  # type: ignore[override]
        return list.__getitem__(self, i >> 1)

    def __setitem__(self, i: int, value: _V) -> None:  # type: ignore[override]
        list.__setitem__(self, i >> 1, value)


class Position:
    """The working figures of one turn, by runner: where each stands, what it holds, what it
    must do; and the rules' tables. Conditions and moves read it by runner index."""

    def __init__(self, rules: Ruleset, state: State, orders: Sequence[SeatOrders]) -> None:
        self.rules = rules
        self.tables, self.allowance = _tables(rules)
        self.kinds = self.tables.kinds
        self.free_back = rules.free_backward
        self.restart = rules.starting_carrots(len(state.runners))
        self.deck, self.used = list(state.deck), list(state.used)
        per = state.per_seat
        self.n = n = len(state.runners)
        #: the seat that moves each runner
        self.seat_of = [j // per for j in range(n)]
        names, sq, car, let, place, must, skip = zip(*state.runners, strict=True)
        self.seats = seats_of(state, names)
        self.names: tuple[str, ...] = names
        self.sq: list[int] = list(sq)
        self.place: list[int | None] = list(place)
        self.must: list[Must] = list(must)
        self.car: list[int] = list(car)
        self.let: list[int] = list(let)
        self.skip: list[bool] = list(skip)
        if per > 1:  # one supply and one flag per seat, read through each runner
            self.car, self.let, self.skip = _Shared(car[::2]), _Shared(let[::2]), _Shared(skip[::2])
        self.inert = [j in state.inert for j in range(n)] if state.inert else [False] * n
        self.occ = [0] * (HOME + 1)
        for s in sq:
            self.occ[s] += 1
        self.home_count = self.occ[HOME]
        #: each seat's orders (its HARE chain is read when one of its runners makes a choice)
        self.orders = orders
        #: after being stuck, the one runner that may move off START (-1: any)
        self.only = -1

    # positions in the race --------------------------------------------------------------------
    def position(self, i: int) -> int:
        """Runner i's race position (HOME runners by their place)."""
        s = self.sq[i]
        if s == HOME:
            return self.place[i] or 1
        return self.position_at(s)

    def position_at(self, s: int) -> int:
        """The race position of a runner on square `s` (not HOME): 1 + the runners ahead."""
        p = 1
        for x in self.sq:
            if x > s:
                p += 1
        return p

    def racing(self) -> int:
        return self.n - self.home_count

    def seat_done(self, seat: Seat) -> bool:
        """Every runner of the seat is HOME."""
        for j in seat.runners:
            if self.sq[j] != HOME:
                return False
        return True

    def first_who_must(self, runners: Sequence[int], must: Must) -> int | None:
        """The first of these runners that must eat (or leave) now; runner 1 comes first."""
        for j in runners:
            if self.must[j] is must:
                return j
        return None

    def bonus_of(self, i: int) -> int:
        """The number-square bonus runner i draws on its square now: 10 x its position, when the
        square bears that number (not on a square made inert by a backward move)."""
        s = self.sq[i]
        if self.kinds[s] != _NUMBER or self.inert[i]:
            return 0
        position = self.position_at(s)
        return 10 * position if position in self.tables.numbers[s] else 0

    def first_home(self, i: int) -> bool:
        """Two-player: runner i would be its seat's first runner HOME (which needs no condition)."""
        seat = self.seats[self.seat_of[i]]
        return seat.shared and any(j != i and self.sq[j] != HOME for j in seat.runners)

    # legal moves ------------------------------------------------------------------------------
    def forward(self, i: int, target: int) -> MoveOrReason:
        s = self.sq[i]
        cost = COST[target - s]
        c = self.car[i]
        if target == HOME:
            if self.first_home(i):
                if c >= cost:
                    return (_RUN_HOME, HOME, cost, 0)
                return f"HOME is {target - s} squares away and costs {cost} carrots, more than the {c} held"
            if self.let[i]:
                return f"HOME needs every lettuce eaten first ({self.let[i]} left)"
            if c < cost:
                return f"HOME is {target - s} squares away and costs {cost} carrots, more than the {c} held"
            allowance = self.allowance[self.home_count]
            if c - cost > allowance:
                return (f"would reach HOME with {c - cost} carrots; place {self.home_count + 1} "
                        f"allows at most {allowance}")
            return (_RUN_HOME, HOME, cost, 0)
        if self.occ[target]:
            return f"square {target} is occupied"
        k = self.kinds[target]
        if k == _TORTOISE:
            return f"square {target} is a tortoise square (reached only by falling back)"
        if k == _LETTUCE and not self.let[i]:
            return f"square {target} is a lettuce square and no lettuce is left"
        if c < cost:
            return f"square {target} is {target - s} squares ahead and costs {cost} carrots, more than the {c} held"
        return (_FORWARD, target, cost, 0)

    def nearest_forward(self, i: int, candidates: Sequence[int] | None = None) -> Move | None:
        """The nearest legal forward move (among `candidates`): the checks of `forward`, without
        the reasons."""
        s = self.sq[i]
        c = self.car[i]
        lettuces = self.let[i]
        for target in (candidates if candidates is not None else range(s + 1, HOME + 1)):
            cost = COST[target - s]
            if cost > c:
                return None
            if target == HOME:
                if (lettuces or c - cost > self.allowance[self.home_count]) and not self.first_home(i):
                    return None
                return (_RUN_HOME, HOME, cost, 0)
            if self.occ[target]:
                continue
            k = self.kinds[target]
            if k == _TORTOISE or (k == _LETTUCE and not lettuces):
                continue
            return (_FORWARD, target, cost, 0)
        return None

    def back(self, i: int) -> MoveOrReason:
        """Back to the nearest tortoise square behind, drawing 10 a square."""
        s = self.sq[i]
        t = self.tables.tortoise_behind[s] if s != HOME else -1
        if t < 0:
            return "there is no tortoise square behind"
        if self.occ[t]:
            return f"the nearest tortoise square behind, {t}, is occupied"
        return (_FALL_BACK, t, 0, 10 * (s - t))

    def back_to(self, i: int, n: int) -> MoveOrReason:
        """A backward move to square n, in a ruleset that moves back freely (hase-igel-sam)."""
        s = self.sq[i]
        if n <= START:
            return "a backward move never ends on START"
        t = self.tables.tortoise_behind[s] if s != HOME else -1
        if t < 0:
            return "there is no tortoise square behind"
        if n < t:
            return f"square {n} is beyond the nearest tortoise square behind ({t})"
        if self.occ[n]:
            return f"square {n} is occupied"
        if self.kinds[n] == _LETTUCE and not self.let[i]:
            return f"square {n} is a lettuce square and no lettuce is left"
        return (_FALL_BACK, n, 0, 10 * (s - n))

    def farthest_back(self, i: int) -> MoveOrReason:
        """The default backward move: the farthest square behind that a backward move may end on."""
        if not self.free_back:
            return self.back(i)
        s = self.sq[i]
        t = self.tables.tortoise_behind[s]
        if t < 0:
            return "there is no tortoise square behind"
        for n in range(t, s):
            m = self.back_to(i, n)
            if not isinstance(m, str):
                return m
        return "no square behind is free to move back to"

    def stay(self, i: int, give: bool) -> MoveOrReason:
        s = self.sq[i]
        if self.kinds[s] != _CARROT:
            where = "START" if s == START else f"square {s}"
            return f"{where} is not a carrot square"
        if self.must[i] is _MUST_LEAVE:
            return "a runner that ate a lettuce must leave the square"
        if self.inert[i]:
            return f"square {s} was reached by moving back and is inert: no carrots there until the runner moves"
        if give:
            if self.car[i] < 10:
                return f"paying 10 carrots needs 10; {self.car[i]} held"
            return (_STAY_GIVE, s, 10, 0)
        return (_STAY_TAKE, s, 0, 10)

    def default_move(self, i: int) -> Move | None:
        """RULES' default move: the nearest legal square ahead, else stay and draw, else fall back."""
        move = self.nearest_forward(i)
        if move is not None:
            return move
        m = self.stay(i, False)
        if isinstance(m, str):
            m = self.farthest_back(i)
        return None if isinstance(m, str) else m

    # what a seat may do with one of its runners ----------------------------------------------
    def bonus_on_leaving(self, seat: Seat, i: int) -> int:
        """The bonus runner i would draw on moving off its square now. Only with a shared supply:
        a seat of one runner draws it at the start of the slot (`_stage_number_bonus`)."""
        return self.bonus_of(i) if seat.shared else 0

    def allowed(self, seat: Seat, i: int, option: Option) -> MoveOrReason:
        """The seat's action for its runner i, with what makes it illegal for that runner (it is
        HOME, another runner of the seat must leave a lettuce square, only the stuck runner may
        move off); the bonus the runner would draw on moving off may pay for the move."""
        if not seat.shared:  # the seat's one runner: it is racing, and it is the one to move
            return option.rule(self, i, option.action)
        if self.sq[i] == HOME:
            return f"{self.names[i]} is HOME"
        if self.only >= 0 and i != self.only:
            return f"{self.names[self.only]} was stuck and moves off START now; {self.names[i]} may not move"
        for mate in seat.runners:
            if mate != i and self.must[mate] is _MUST_LEAVE and self.sq[mate] != HOME:
                return f"{self.names[mate]} ate a lettuce and must leave its square first"
        bonus = self.bonus_of(i)
        if not bonus:
            return option.rule(self, i, option.action)
        self.car[i] += bonus
        try:
            return option.rule(self, i, option.action)
        finally:
            self.car[i] -= bonus

    def default_for(self, seat: Seat, i: int) -> Move | None:
        """The default move of the seat's runner i, counting the bonus it would draw on leaving."""
        bonus = self.bonus_on_leaving(seat, i)
        self.car[i] += bonus
        move = self.default_move(i)
        self.car[i] -= bonus
        return move

    def choice(self, i: int) -> HareChoice:
        """Runner i's HARE choice, made now: its chain's first true alternative, else the rules'
        first word."""
        for alt in self.orders[self.seat_of[i]].hare:
            if alt.condition is None or holds(self, i, alt.condition):
                return alt.choice
        return HareChoice(self.rules.choices[0])

    # saving and putting back (a rehearsal stops before a draw) ----------------------------------
    def snapshot(self) -> tuple[list[Any], ...]:
        values: tuple[list[Any], ...] = (self.sq, self.car, self.let, self.place, self.must, self.skip, self.occ,
                                         self.inert)
        return (*(type(v)(v) for v in values), [self.home_count])

    def restore(self, saved: tuple[list[Any], ...]) -> None:
        (self.sq, self.car, self.let, self.place, self.must, self.skip, self.occ, self.inert, home) = saved
        self.home_count = home[0]


# conditions, read from their tree -------------------------------------------------------------

_COMPARE: dict[Cmp, Callable[[int, int], bool]] = {
    Cmp.EQ: operator.eq, Cmp.NE: operator.ne, Cmp.LT: operator.lt, Cmp.LE: operator.le, Cmp.GT: operator.gt,
    Cmp.GE: operator.ge,
}


def holds(p: Position, i: int, cond: Condition) -> bool:
    """Whether the condition is true now for runner i (`I`, `MY SQUARE`, `CARROTS` are its)."""
    if isinstance(cond, Compare):
        return _COMPARE[cond.cmp](_quantity(p, i, cond.quantity), cond.value)
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


def _quantity(p: Position, i: int, q: Quantity) -> int:
    if q is Quantity.CARROTS:
        return p.car[i]
    if q is Quantity.LETTUCES:
        return p.let[i]
    if q is Quantity.RANK:
        return p.position(i)
    return p.sq[i]


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


def first_alternative(p: Position, seat: Seat, line: OrderLine, tried: list[Tried]) -> tuple[Move | None, int]:
    """The chain's first true and legal alternative, as (its move, its acting runner): the one the
    alternative names (two-player), else the seat's runner. Every alternative looked at is added
    to `tried`. (None, -1) when there is none."""
    own = seat.runners[0]
    for option in line.options:
        i = own if option.runner is None else option.runner
        if option.condition is not None and not holds(p, i, option.condition):
            tried.append(option.if_false)
            continue
        m = p.allowed(seat, i, option)
        if isinstance(m, str):
            tried.append(Tried(number=option.number, text=option.text, outcome="illegal", reason=m))
            continue
        tried.append(option.if_taken)
        return m, i
    return None, -1


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
    eater = p.first_who_must(racing, _MUST_EAT)
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
    p.must[i] = _MUST_LEAVE
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
    leaver = p.first_who_must(racing, _MUST_LEAVE)
    order = [leaver] if leaver is not None else sorted(racing, key=p.sq.__getitem__)  # rear first
    for runner in order:
        move = p.default_for(seat, runner)
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
    p.must[i] = _MUST_NONE
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
        p.must[i] = _MUST_NONE
        p.inert[i] = False
        if outcome is _RUN_HOME:
            p.home_count += 1
            place = p.place[i] = p.home_count
        else:
            k = p.kinds[target]
            if k == _LETTUCE:
                p.must[i] = _MUST_EAT
            elif k == _HARE and outcome is _FORWARD:
                hare, again = _hare(p, i, ctx.chance, paid)
                if p.sq[i] == HOME:
                    place = p.place[i]
            elif outcome is _FALL_BACK and p.free_back and k != _TORTOISE:
                p.inert[i] = True  # a hare, carrot or number square reached backwards
    return ctx.record(outcome, rule, paid=paid, drew=drew, hare=hare, place=place), again


# hare squares ----------------------------------------------------------------------------------

def _free_move(p: Position, i: int, squares: Sequence[int], ahead: bool) -> str:
    """A free hare move to the nearest unoccupied square of a kind, passing everything between."""
    s = p.sq[i]
    if ahead:
        to = next((x for x in squares if x > s and not p.occ[x]), -1)
    else:
        to = next((x for x in reversed(squares) if x < s and not p.occ[x]), -1)
    if to < 0:
        return "no vacant square of that kind: nothing happens"
    p.occ[s] -= 1
    p.occ[to] += 1
    p.sq[i] = to
    p.inert[i] = False
    return f"moved free to square {to}"


def _hare(p: Position, i: int, chance: Chance, paid: int) -> tuple[HareRoll, bool]:
    """The hare table: one die plus the runner's position, right after landing and paying."""
    if p.rules.deck is not None:
        return _card(p, i, chance, paid, p.rules.deck)
    s = p.sq[i]
    position = p.position_at(s)
    die, total, effect = p.rules.hare.draw(chance, position)
    again = False
    detail: str
    if effect in (HareEffect.BACK_TO_HARE, HareEffect.BACK_TO_CARROT, HareEffect.AHEAD_TO_CARROT):
        squares = p.tables.hares if effect is HareEffect.BACK_TO_HARE else p.tables.carrots
        detail = _free_move(p, i, squares, effect is HareEffect.AHEAD_TO_CARROT)
    elif effect is HareEffect.MISS_TURN:
        p.skip[i] = True
        detail = "the next slot is missed"
    elif effect is HareEffect.CHEW_CARROT:
        detail = _take_or_give(p, i, p.choice(i) is HareChoice.GIVE)
    elif effect is HareEffect.RESTORE:
        p.car[i] = p.rules.restore_carrots
        detail = f"carrots restored to {p.rules.restore_carrots}"
    elif effect is HareEffect.REFUND:
        p.car[i] += paid
        detail = f"the {paid} carrots paid are given back"
    elif effect is HareEffect.HALVE:
        lost = p.car[i] // 2
        p.car[i] -= lost
        detail = f"lost {lost} carrots"
    elif effect is HareEffect.EXTRA_SLOT:
        again = True
        detail = "an extra slot follows at once"
    elif p.let[i] > 0:
        p.must[i] = _MUST_EAT
        detail = "the square counts as a lettuce square: eat at the next slot"
    else:
        detail = "no lettuce left: nothing happens"
    roll = HareRoll(die=die, position=position, total=total, effect=effect, detail=detail, square=s,
                    to_square=p.sq[i])
    return roll, again


def _take_or_give(p: Position, i: int, give: bool) -> str:
    if give and p.car[i] >= 10:
        p.car[i] -= 10
        return "paid 10 carrots"
    p.car[i] += 10
    return "drew 10 carrots" if not give else "drew 10 carrots (fewer than 10 to give)"


def _card(p: Position, i: int, chance: Chance, paid: int, deck: HareDeck) -> tuple[HareRoll, bool]:
    """A hare card: drawn from the deck in the state, carried out at once."""
    s = p.sq[i]
    card = Card(deck.take(p.deck, p.used, chance))
    position = p.position_at(s)
    again = False
    sq, car, seat_of = p.sq, p.car, p.seat_of
    detail: str
    if card is Card.GIVE_BEHIND:
        behind = [j for j in range(p.n) if seat_of[j] != seat_of[i] and sq[j] < s]  # an opponent's runners
        k = len(behind)
        amount = next((a for a in (10, 5, 1) if car[i] >= a * k), 0) if k else 0
        if not k:
            detail = "no runner behind: nothing happens"
        elif not amount:
            detail = f"fewer carrots than the {k} runners behind: nothing is given"
        else:
            car[i] -= amount * k
            parts = []
            for j in behind:
                if p.choice(j) is HareChoice.REFUSE:
                    parts.append(f"{p.names[j]} refuses them")
                else:
                    car[j] += amount
                    parts.append(f"{p.names[j]} keeps them")
            detail = f"gives {amount} carrots to each runner behind: {', '.join(parts)}"
    elif card is Card.MISS_OR_AGAIN:
        behind_n = sum(1 for j in range(p.n) if j != i and sq[j] < s)
        front_n = sum(1 for j in range(p.n) if j != i and sq[j] > s)
        if behind_n > front_n:
            p.skip[i] = True
            detail = f"{behind_n} runners behind, {front_n} in front: the next slot is missed"
        else:
            again = True
            detail = f"{behind_n} runners behind, {front_n} in front: an extra slot follows at once"
    elif card is Card.RESTORE_65:
        car[i] = p.rules.restore_carrots
        detail = f"carrots restored to {p.rules.restore_carrots}"
    elif card is Card.PER_LETTUCE:
        if p.let[i]:
            car[i] += 10 * p.let[i]
            detail = f"drew {10 * p.let[i]} carrots, 10 for each lettuce held"
        else:
            p.skip[i] = True
            detail = "no lettuce left: the next slot is missed"
    elif card is Card.FREE_RIDE:
        car[i] += paid
        detail = f"the {paid} carrots paid are given back"
    elif card is Card.HALF:
        lost = car[i] // 2
        car[i] -= lost
        detail = f"lost {lost} carrots"
    elif card is Card.SHOW:
        detail = f"shows {car[i]} carrots to everyone"
    elif card is Card.SHUFFLE:
        payers: list[int] = []  # one runner for each other seat with a runner racing and a carrot
        for j in range(p.n):
            if (seat_of[j] != seat_of[i] and sq[j] != HOME and car[j] >= 1
                    and all(seat_of[x] != seat_of[j] for x in payers)):
                payers.append(j)
        for j in payers:
            car[j] -= 1
            car[i] += 1
        deck.reshuffle(p.deck, chance)
        detail = f"received 1 carrot from each of {len(payers)} players; the hare cards are shuffled"
    elif card is Card.MISS:
        p.skip[i] = True
        detail = "the next slot is missed"
    elif card is Card.BACK_CARROT or card is Card.NEXT_CARROT:
        detail = _free_move(p, i, p.tables.carrots, card is Card.NEXT_CARROT)
    elif card is Card.AGAIN:
        again = True
        detail = "an extra slot follows at once"
    elif card is Card.TAKE_GIVE:
        word = p.choice(i)
        detail = "takes nothing and gives nothing" if word is HareChoice.NONE else _take_or_give(
            p, i, word is HareChoice.GIVE)
    elif card is Card.LETTUCE:
        if p.let[i] > 0:
            p.must[i] = _MUST_EAT
            detail = "eat a lettuce at the next slot"
        else:
            p.skip[i] = True
            detail = "no lettuce left: the next slot is missed"
    elif card is Card.UP_ONE:
        detail = _up_one(p, i)
    else:
        detail = _down_one(p, i)
    roll = HareRoll(die=0, position=position, total=0, effect=HareEffect.CARD, detail=detail, square=s,
                    to_square=p.sq[i], card=card.value)
    return roll, again


def _up_one(p: Position, i: int) -> str:
    s = p.sq[i]
    ahead = [x for j, x in enumerate(p.sq) if j != i and s < x < HOME]
    if not ahead:
        return "no racing runner ahead: nothing happens"
    target = -1
    for n in range(min(ahead) + 1, HOME + 1):
        if n == HOME:
            cost = COST[HOME - s]
            if p.first_home(i) or (not p.let[i] and p.car[i] - cost <= p.allowance[p.home_count]):
                target = HOME
            break
        k = p.kinds[n]
        if p.occ[n] or k == _TORTOISE or (k == _LETTUCE and not p.let[i]):
            continue
        target = n
        break
    if target < 0:
        return "no square beyond the runner ahead to land on: nothing happens"
    cost = COST[target - s]
    if p.car[i] < cost:
        return f"{'HOME' if target == HOME else f'square {target}'} costs {cost} carrots, more than held: nothing happens"
    p.car[i] -= cost
    p.occ[s] -= 1
    p.occ[target] += 1
    p.sq[i] = target
    p.inert[i] = False
    if target == HOME:
        p.home_count += 1
        p.place[i] = p.home_count
        return f"paid {cost} carrots and went HOME"
    if p.kinds[target] == _LETTUCE:
        p.must[i] = _MUST_EAT
    return f"paid {cost} carrots and moved up to square {target}"


def _down_one(p: Position, i: int) -> str:
    s = p.sq[i]
    below = [x for j, x in enumerate(p.sq) if j != i and x < s]
    if not below:
        return "no runner behind: nothing happens"
    b = max(below)
    if b == START:
        return "the runner behind is on START: nothing happens"
    tortoise = p.tables.tortoise_behind[s]
    if tortoise < 0:
        return "no tortoise square behind: nothing happens"
    target = next((n for n in range(b - 1, tortoise - 1, -1)
                   if not p.occ[n] and (p.kinds[n] != _LETTUCE or p.let[i])), -1)
    if target < 0:
        return "no square below the runner behind to move back to: nothing happens"
    drew = 10 * (s - target)
    p.car[i] += drew
    p.occ[s] -= 1
    p.occ[target] += 1
    p.sq[i] = target
    k = p.kinds[target]
    p.inert[i] = k in (_HARE, _CARROT, _NUMBER)
    if k == _LETTUCE:
        p.must[i] = _MUST_EAT
    return f"moved back to square {target} and drew {drew} carrots"


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
    p = Position(rules, state, orders)
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
    # name, square, carrots, lettuces, place, must, skip (the supply's, with two runners to a seat)
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
    p = Position(rules, state, [orders if k == seat_index else _NO_ORDERS for k in range(len(state.seats))])
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
