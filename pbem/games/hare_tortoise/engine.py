"""Resolve one turn of Hare & Tortoise: the rotating sequence of move slots, step by step."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Union

from pbem.errors import PbemError
from pbem.games.chance import ChanceSource
from pbem.games.hare_tortoise.board import HOME, START, Board, Kind
from pbem.games.hare_tortoise.resolution import HareRoll, Outcome, Slot, Tried
from pbem.games.hare_tortoise.rules import HareEffect, Ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State
from pbem.orders.model import (
    Action,
    ActionKind,
    And,
    Chain,
    Cmp,
    Compare,
    Condition,
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

#: cost in carrots of a forward move of d squares: d(d + 1) / 2
COST = tuple(d * (d + 1) // 2 for d in range(HOME + 1))

_CARROT, _HARE, _LETTUCE, _TORTOISE, _NUMBER = (
    int(Kind.CARROT), int(Kind.HARE), int(Kind.LETTUCE), int(Kind.TORTOISE), int(Kind.NUMBER)
)
_NONE, _EAT, _LEAVE = 0, 1, 2
_MUST = (Must.NONE, Must.EAT, Must.LEAVE)

# A legal move: (outcome, target square, carrots paid, carrots drawn). An illegal one: its reason.
Move = tuple[Outcome, int, int, int]
MoveOrReason = Union[Move, str]
CondFn = Callable[["_Turn", int], bool]
ActFn = Callable[["_Turn", int], MoveOrReason]


@dataclass(frozen=True)
class TurnResult:
    state: State
    slots: tuple[Slot, ...]


class _Tables:
    """Per-board look-ups, built once per board."""

    def __init__(self, board: Board) -> None:
        self.kinds = board.kinds
        self.numbers = board.number_bonus
        self.tortoise_behind = board.tortoise_behind
        self.ahead: dict[tuple[NextKind, int | None], tuple[tuple[int, ...], ...]] = {}
        for kind, k in ((NextKind.CARROT, Kind.CARROT), (NextKind.LETTUCE, Kind.LETTUCE),
                        (NextKind.HARE, Kind.HARE), (NextKind.NUMBER, Kind.NUMBER)):
            self.ahead[(kind, None)] = board.ahead_of_kind(k)
        for d in range(1, 7):
            self.ahead[(NextKind.NUMBER, d)] = board.ahead_of_kind(Kind.NUMBER, d)
        self.hares = board.squares_of(Kind.HARE)
        self.carrots = board.squares_of(Kind.CARROT)


_TABLES: dict[str, _Tables] = {}


def _tables(board: Board) -> _Tables:
    t = _TABLES.get(board.name)
    if t is None:
        t = _TABLES[board.name] = _Tables(board)
    return t


class _Turn:
    """The mutable working position of one turn; conditions and moves read it by seat index."""

    __slots__ = ("rules", "tab", "kinds", "sq", "car", "let", "place", "must", "skip", "occ",
                 "home_count", "n", "names")

    def __init__(self, rules: Ruleset, state: State) -> None:
        self.rules = rules
        self.tab = _tables(rules.board)
        self.kinds = self.tab.kinds
        rs = state.runners
        self.n = len(rs)
        self.names = [r.name for r in rs]
        self.sq = [r.square for r in rs]
        self.car = [r.carrots for r in rs]
        self.let = [r.lettuces for r in rs]
        self.place = [r.place for r in rs]
        self.must = [_MUST.index(r.must) for r in rs]
        self.skip = [r.skip for r in rs]
        self.occ = [0] * (HOME + 1)
        for s in self.sq:
            self.occ[s] += 1
        self.home_count = self.occ[HOME]

    def pos(self, i: int) -> int:
        s = self.sq[i]
        if s == HOME:
            return self.place[i] or 1
        p = 1
        for x in self.sq:
            if x > s:
                p += 1
        return p

    def racing(self) -> int:
        return self.n - self.home_count

    # legal moves -----------------------------------------------------------
    def forward(self, i: int, target: int) -> MoveOrReason:
        s = self.sq[i]
        cost = COST[target - s]
        c = self.car[i]
        if target == HOME:
            if self.let[i]:
                return f"HOME needs every lettuce eaten first ({self.let[i]} left)"
            if c < cost:
                return f"HOME is {target - s} squares away and costs {cost} carrots, more than the {c} held"
            allowance = self.rules.home_allowance(self.home_count + 1)
            if c - cost > allowance:
                return (f"would reach HOME with {c - cost} carrots; place {self.home_count + 1} "
                        f"allows at most {allowance}")
            return (Outcome.HOME, HOME, cost, 0)
        if self.occ[target]:
            return f"square {target} is occupied"
        k = self.kinds[target]
        if k == _TORTOISE:
            return f"square {target} is a tortoise square (reached only by falling back)"
        if k == _LETTUCE and not self.let[i]:
            return f"square {target} is a lettuce square and no lettuce is left"
        if c < cost:
            return f"square {target} is {target - s} squares ahead and costs {cost} carrots, more than the {c} held"
        return (Outcome.FORWARD, target, cost, 0)

    def nearest_forward(self, i: int, candidates: Sequence[int] | None = None) -> Move | None:
        s = self.sq[i]
        c = self.car[i]
        for target in (candidates if candidates is not None else range(s + 1, HOME + 1)):
            if COST[target - s] > c:
                return None
            m = self.forward(i, target)
            if not isinstance(m, str):
                return m
        return None

    def back(self, i: int) -> MoveOrReason:
        s = self.sq[i]
        t = self.tab.tortoise_behind[s] if s != HOME else -1
        if t < 0:
            return "there is no tortoise square behind"
        if self.occ[t]:
            return f"the nearest tortoise square behind, {t}, is occupied"
        return (Outcome.BACK, t, 0, 10 * (s - t))

    def stay(self, i: int, give: bool) -> MoveOrReason:
        s = self.sq[i]
        if self.kinds[s] != _CARROT:
            where = "START" if s == START else f"square {s}"
            return f"{where} is not a carrot square"
        if self.must[i] == _LEAVE:
            return "a runner that ate a lettuce must leave the square"
        if give:
            if self.car[i] < 10:
                return f"paying 10 carrots needs 10; {self.car[i]} held"
            return (Outcome.STAY_GIVE, s, 10, 0)
        return (Outcome.STAY_TAKE, s, 0, 10)


# compiling orders ----------------------------------------------------------------------------

_CMP: dict[Cmp, Callable[[int, int], bool]] = {
    Cmp.EQ: operator.eq, Cmp.NE: operator.ne, Cmp.LT: operator.lt,
    Cmp.LE: operator.le, Cmp.GT: operator.gt, Cmp.GE: operator.ge,
}


def _compile_condition(cond: Condition) -> CondFn:
    if isinstance(cond, SquareIs):
        n, free = cond.square, cond.free
        if free:
            return lambda t, i: not t.occ[n]
        return lambda t, i: t.occ[n] > 0
    if isinstance(cond, PlayerIs):
        j, neg = cond.seat, cond.negated
        # A condition about the player's own runner is false, in its IS NOT form too.
        if cond.test is RunnerTest.ON:
            on = cond.square
            return lambda t, i: j != i and (t.sq[j] == on) is not neg
        if cond.test is RunnerTest.HOME:
            return lambda t, i: j != i and (t.sq[j] == HOME) is not neg
        if cond.test is RunnerTest.AHEAD:
            return lambda t, i: j != i and (t.pos(j) < t.pos(i)) is not neg
        return lambda t, i: j != i and (t.pos(j) > t.pos(i)) is not neg
    if isinstance(cond, IAm):
        neg = cond.negated
        if cond.last:
            return lambda t, i: (t.pos(i) == t.n) is not neg
        return lambda t, i: (t.pos(i) == 1) is not neg
    if isinstance(cond, Compare):
        op, v = _CMP[cond.cmp], cond.value
        q = cond.quantity
        if q is Quantity.CARROTS:
            return lambda t, i: op(t.car[i], v)
        if q is Quantity.LETTUCES:
            return lambda t, i: op(t.let[i], v)
        if q is Quantity.RANK:
            return lambda t, i: op(t.pos(i), v)
        return lambda t, i: op(t.sq[i], v)
    if isinstance(cond, Not):
        inner = _compile_condition(cond.inner)
        return lambda t, i: not inner(t, i)
    parts = tuple(_compile_condition(p) for p in cond.parts)
    if isinstance(cond, And):
        if len(parts) == 2:
            a, b = parts
            return lambda t, i: a(t, i) and b(t, i)
        return lambda t, i: all(p(t, i) for p in parts)
    if len(parts) == 2:
        a, b = parts
        return lambda t, i: a(t, i) or b(t, i)
    return lambda t, i: any(p(t, i) for p in parts)


def _compile_action(action: Action, tab: _Tables) -> ActFn:
    kind = action.kind
    if kind is ActionKind.TO:
        n: int = action.square or 0

        def to(t: _Turn, i: int) -> MoveOrReason:
            s = t.sq[i]
            if n > s:
                return t.forward(i, n)
            if n == s:
                return f"the runner is already on square {n}"
            m = t.back(i)
            if isinstance(m, str) or m[1] == n:
                return m
            return f"square {n} is behind and is not the nearest tortoise square behind ({m[1]})"

        return to
    if kind is ActionKind.HOME:
        return lambda t, i: t.forward(i, HOME)
    if kind is ActionKind.ADVANCE:
        d = action.distance
        assert d is not None

        def advance(t: _Turn, i: int) -> MoveOrReason:
            if d <= 0:
                return "ADVANCE 0 goes nowhere"
            target = t.sq[i] + d
            if target > HOME:
                return f"{d} squares ahead is past HOME"
            return t.forward(i, target)

        return advance
    if kind is ActionKind.NEXT:
        if action.next_kind is None:
            return lambda t, i: t.nearest_forward(i) or "no square ahead is legal to land on"
        table = tab.ahead[(action.next_kind, action.number)]
        what = str(action)[5:].lower()
        missing = f"no {what} square ahead is legal to land on"
        return lambda t, i: t.nearest_forward(i, table[t.sq[i]]) or missing
    if kind is ActionKind.BACK:
        return lambda t, i: t.back(i)
    if kind is ActionKind.STAY:
        give = action.give
        return lambda t, i: t.stay(i, give)
    return lambda t, i: "lettuces are eaten by rule at the slot after landing; EAT is never a move"


Compiled = tuple[str, tuple[tuple[CondFn | None, ActFn, str], ...]]


def _compiled(chain: Chain, tab: _Tables) -> Compiled:
    cache = chain.compiled
    for board_tab, value in cache:
        if board_tab is tab:
            return value  # type: ignore[no-any-return]
    alts = tuple(
        (None if a.condition is None else _compile_condition(a.condition), _compile_action(a.action, tab), str(a))
        for a in chain.alternatives
    )
    value = (str(chain), alts)
    cache.append((tab, value))
    return value


# the turn ----------------------------------------------------------------------------------

class _Plan:
    """A seat's orders for the turn, and which MOVE line comes next."""

    __slots__ = ("moves", "default", "hare_give", "used", "sent")

    def __init__(self, sheet: OrderSheet | None, tab: _Tables) -> None:
        self.sent = sheet is not None
        sheet = sheet or OrderSheet()
        self.moves = [None if m.chain is None else _compiled(m.chain, tab) for m in sheet.moves]
        self.default = None if sheet.default is None else _compiled(sheet.default, tab)
        self.hare_give = sheet.hare is HareChoice.GIVE
        self.used = 0

    def next_line(self) -> tuple[str, Compiled | None]:
        k = self.used
        self.used += 1
        if k < len(self.moves):
            line = self.moves[k]
            return (f"MOVE {k + 1}", line) if line is not None else (f"MOVE {k + 1} (rejected)", None)
        if self.default is not None:
            return "DEFAULT", self.default
        return ("no MOVE line" if self.sent else "no orders"), None


def turn_sequence(state: State) -> list[int]:
    """The seats in slot order for the state's turn: racing runners from the first mover, then it again."""
    n = len(state.runners)
    order = [(state.first + k) % n for k in range(n)]
    seats = [s for s in order if not state.runners[s].home]
    if seats and seats[0] == state.first:
        seats.append(state.first)
    return seats


def next_first_mover(state: State, first: int) -> int:
    n = len(state.runners)
    for k in range(1, n + 1):
        seat = (first + k) % n
        if not state.runners[seat].home:
            return seat
    return first


def resolve_turn(
    rules: Ruleset,
    state: State,
    sheets: Sequence[OrderSheet | None],
    chance: ChanceSource,
    *,
    max_slots: int | None = None,
) -> TurnResult:
    """Play the state's turn: every slot in the rotating sequence, each with its resolution."""
    if state.over:
        raise PbemError("the game is over: there is no turn left to resolve")
    if len(sheets) != len(state.runners):
        raise ValueError("one order sheet (or None) per seat is needed")
    t = _Turn(rules, state)
    plans = [_Plan(s, t.tab) for s in sheets]
    queue = [(seat, False) for seat in turn_sequence(state)]
    slots: list[Slot] = []
    over = False
    k = 0
    while k < len(queue) and not over:
        if max_slots is not None and len(slots) >= max_slots:
            break
        i, extra = queue[k]
        k += 1
        if t.sq[i] == HOME:
            continue
        slot, again = _play_slot(t, i, plans[i], chance, len(slots) + 1, extra)
        slots.append(slot)
        if again:
            queue.insert(k, (i, True))
        if slot.outcome is Outcome.HOME and t.racing() <= 1:
            over = True
            for j in range(t.n):
                if t.sq[j] != HOME:
                    t.place[j] = t.n
    runners = tuple(
        Runner(r.name, t.sq[j], t.car[j], t.let[j], t.place[j], _MUST[t.must[j]], t.skip[j])
        for j, r in enumerate(state.runners)
    )
    after = State(state.ruleset, runners, state.turn + 1, state.first, over)
    if not over:
        after = State(after.ruleset, runners, after.turn, next_first_mover(after, state.first), False)
    return TurnResult(after, tuple(slots))


def _default_move(t: _Turn, i: int) -> Move | None:
    """RULES "Default move": nearest legal square ahead, else stay and draw, else back, else none."""
    m = t.nearest_forward(i)
    if m is not None:
        return m
    s = t.stay(i, False)
    if not isinstance(s, str):
        return s
    b = t.back(i)
    if not isinstance(b, str):
        return b
    return None


def _play_slot(t: _Turn, i: int, plan: _Plan, chance: ChanceSource, number: int, extra: bool) -> tuple[Slot, bool]:
    order, compiled = plan.next_line()
    chain_text = compiled[0] if compiled is not None else None
    s0, c0, l0 = t.sq[i], t.car[i], t.let[i]
    name = t.names[i]
    tried: list[Tried] = []
    position = t.pos(i)
    if t.skip[i]:
        t.skip[i] = False
        return Slot(number, i, name, order, chain_text, (), Outcome.MISSED, "missed turn (hare)", s0, s0,
                    0, 0, 0, position, c0, c0, l0, l0, None, None, extra), False
    bonus = 0
    if t.kinds[s0] == _NUMBER and position in t.tab.numbers[s0]:
        bonus = 10 * position
        t.car[i] += bonus
    if t.must[i] == _EAT:
        if t.let[i] > 0:
            t.let[i] -= 1
        drew = 10 * position
        t.car[i] += drew
        t.must[i] = _LEAVE
        return Slot(number, i, name, order, chain_text, (), Outcome.ATE, "eat a lettuce", s0, s0, 0, drew, bonus,
                    position, c0, t.car[i], l0, t.let[i], None, None, extra), False
    move: Move | None = None
    rule: str | None = None
    if compiled is not None:
        for index, (cond, act, text) in enumerate(compiled[1], start=1):
            if cond is not None and not cond(t, i):
                tried.append(Tried(index, text, "false", "the condition is false"))
                continue
            m = act(t, i)
            if isinstance(m, str):
                tried.append(Tried(index, text, "illegal", m))
                continue
            tried.append(Tried(index, text, "taken", ""))
            move = m
            break
    if move is None:
        rule = "default move"
        move = _default_move(t, i)
    if move is None:
        t.sq[i] = START
        t.occ[s0] -= 1
        t.occ[START] += 1
        t.car[i] = t.rules.restart_carrots
        t.must[i] = _NONE
        t.skip[i] = False
        return Slot(number, i, name, order, chain_text, tuple(tried), Outcome.STUCK, "stuck: no legal move", s0,
                    START, 0, 0, bonus, position, c0, t.car[i], l0, l0, None, None, extra), False
    outcome, target, paid, drew = move
    t.car[i] += drew - paid
    place: int | None = None
    hare: HareRoll | None = None
    again = False
    if target != s0:
        t.occ[s0] -= 1
        t.occ[target] += 1
        t.sq[i] = target
        t.must[i] = _NONE
        if outcome is Outcome.HOME:
            t.home_count += 1
            place = t.place[i] = t.home_count
        else:
            k = t.kinds[target]
            if k == _LETTUCE:
                t.must[i] = _EAT
            elif k == _HARE and outcome is Outcome.FORWARD:
                hare, again = _hare(t, i, chance, paid, plan.hare_give)
    return Slot(number, i, name, order, chain_text, tuple(tried), outcome, rule, s0, t.sq[i], paid, drew, bonus,
                position, c0, t.car[i], l0, t.let[i], hare, place, extra), again


def _hare(t: _Turn, i: int, chance: ChanceSource, paid: int, give: bool) -> tuple[HareRoll, bool]:
    """The hare table: one die plus the runner's position, right after landing and paying."""
    position = t.pos(i)
    die, total = t.rules.hare_roll(chance, position)
    effect = t.rules.hare_table[total]
    s = t.sq[i]
    again = False
    detail: str
    if effect is HareEffect.BACK_TO_HARE or effect is HareEffect.BACK_TO_CARROT or effect is HareEffect.AHEAD_TO_CARROT:
        squares = t.tab.hares if effect is HareEffect.BACK_TO_HARE else t.tab.carrots
        if effect is HareEffect.AHEAD_TO_CARROT:
            free = [x for x in squares if x > s and not t.occ[x]]
        else:
            free = [x for x in reversed(squares) if x < s and not t.occ[x]]
        if free:
            to = free[0]
            t.occ[s] -= 1
            t.occ[to] += 1
            t.sq[i] = to
            detail = f"moved free to square {to}"
        else:
            detail = "no vacant square of that kind: nothing happens"
    elif effect is HareEffect.MISS_TURN:
        t.skip[i] = True
        detail = "the next slot is missed"
    elif effect is HareEffect.CHEW_CARROT:
        if give and t.car[i] >= 10:
            t.car[i] -= 10
            detail = "paid 10 carrots"
        else:
            t.car[i] += 10
            detail = "drew 10 carrots" if not give else "drew 10 carrots (fewer than 10 to give)"
    elif effect is HareEffect.RESTORE:
        t.car[i] = t.rules.restore_carrots
        detail = f"carrots restored to {t.rules.restore_carrots}"
    elif effect is HareEffect.REFUND:
        t.car[i] += paid
        detail = f"the {paid} carrots paid are given back"
    elif effect is HareEffect.HALVE:
        lost = t.car[i] // 2
        t.car[i] -= lost
        detail = f"lost {lost} carrots"
    elif effect is HareEffect.EXTRA_SLOT:
        again = True
        detail = "an extra slot follows at once"
    else:
        if t.let[i] > 0:
            t.must[i] = _EAT
            detail = "the square counts as a lettuce square: eat at the next slot"
        else:
            detail = "no lettuce left: nothing happens"
    return HareRoll(die, position, total, effect, detail, s, t.sq[i]), again


def new_state(rules: Ruleset, players: Sequence[str]) -> State:
    if not rules.min_players <= len(players) <= rules.max_players:
        raise PbemError(
            f"Hare & Tortoise takes {rules.min_players} to {rules.max_players} players, not {len(players)}"
        )
    runners = tuple(Runner(p, START, rules.start_carrots, rules.start_lettuces) for p in players)
    return State(rules.name, runners)
