"""Resolve one turn of Hare & Tortoise: the rotating sequence of move slots, step by step."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pbem.errors import PbemError
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import HOME, START, Board, Kind
from pbem.games.hare_tortoise.orders.model import (
    Action,
    ActionKind,
    And,
    Chain,
    Compare,
    Condition,
    HareAlternative,
    HareChoice,
    IAm,
    NextKind,
    Not,
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

_CARROT, _HARE, _LETTUCE, _TORTOISE, _NUMBER = (
    int(Kind.CARROT), int(Kind.HARE), int(Kind.LETTUCE), int(Kind.TORTOISE), int(Kind.NUMBER)
)
_M_NONE, _M_EAT, _M_LEAVE = Must.NONE, Must.EAT, Must.LEAVE
_FALSE = "the condition is false"
# Records are built with tuple.__new__ directly: a NamedTuple's own __new__ costs a Python call,
# and the engine builds one or more records per slot.
_new = tuple.__new__

# Enum members are read once here: attribute access on an Enum class costs ~100 ns, and the
# engine's hot path reads them at every slot.
(_O_MISSED, _O_ATE, _O_FORWARD, _O_HOME, _O_BACK, _O_STAY_TAKE, _O_STAY_GIVE, _O_STUCK) = (
    Outcome.MISSED, Outcome.ATE, Outcome.FORWARD, Outcome.HOME, Outcome.BACK, Outcome.STAY_TAKE, Outcome.STAY_GIVE,
    Outcome.STUCK)
(_H_BACK_TO_HARE, _H_MISS_TURN, _H_BACK_TO_CARROT, _H_CHEW_CARROT, _H_RESTORE, _H_REFUND, _H_HALVE, _H_EXTRA_SLOT,
 _H_AHEAD_TO_CARROT, _H_CHEW_LETTUCE, _H_CARD) = (
    HareEffect.BACK_TO_HARE, HareEffect.MISS_TURN, HareEffect.BACK_TO_CARROT, HareEffect.CHEW_CARROT,
    HareEffect.RESTORE, HareEffect.REFUND, HareEffect.HALVE, HareEffect.EXTRA_SLOT, HareEffect.AHEAD_TO_CARROT,
    HareEffect.CHEW_LETTUCE, HareEffect.CARD)

# A legal move: (outcome, target square, carrots paid, carrots drawn). An illegal one: its reason.
Move = tuple[Outcome, int, int, int]
MoveOrReason = Move | str
ActFn = Callable[["_Turn", int], MoveOrReason]
HareFn = Callable[["_Turn", int], "HareChoice | None"]


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


_RULESET_TABLES: dict[type[Ruleset], tuple[_Tables, tuple[int, ...]]] = {}


def _ruleset_tables(rules: Ruleset) -> tuple[_Tables, tuple[int, ...]]:
    found = _RULESET_TABLES.get(type(rules))
    if found is None:
        allowance = tuple(rules.home_allowance(p) for p in range(1, rules.max_players + 1))
        found = _RULESET_TABLES[type(rules)] = (_tables(rules.board), allowance)
    return found


def _tables(board: Board) -> _Tables:
    t = _TABLES.get(board.name)
    if t is None:
        t = _TABLES[board.name] = _Tables(board)
    return t


#: each runner is its own player's (the one-runner game): runner i belongs to seat i
_IDENTITY = range(HOME)


class _Pair(list[int]):
    """Two-player: a per-runner view of a per-player value (the supply's carrots and lettuces, the
    missed-slot flag). Runners 2k and 2k + 1 read and write entry k, so every rule that gives,
    takes or counts carrots and lettuces reaches the supply through the runner concerned."""

    __slots__ = ()

    def __getitem__(self, i: int) -> int:  # type: ignore[override]
        return list.__getitem__(self, i >> 1)

    def __setitem__(self, i: int, value: int) -> None:  # type: ignore[override]
        list.__setitem__(self, i >> 1, value)


class _Turn:
    """The mutable working position of one turn; conditions and moves read it by seat index."""

    __slots__ = ("rules", "tab", "kinds", "sq", "car", "let", "place", "must", "skip", "occ",
                 "home_count", "n", "names", "allowance", "hare", "deck", "used", "inert", "restart", "choose",
                 "free_back", "per", "mate", "owner", "actor", "only")

    def __init__(self, rules: Ruleset, state: State) -> None:
        self.rules = rules
        self.deck, self.used = list(state.deck), list(state.used)
        self.inert = [i in state.inert for i in range(len(state.runners))]
        self.restart = rules.starting_carrots(len(state.runners))
        self.free_back = rules.free_backward
        # each seat's HARE choice, evaluated when the choice is made (set by resolve_turn)
        self.choose: list[HareFn | None] = []
        # the board's tables, the carrots allowed at HOME (by the number of runners already
        # home) and the hare table: built once per ruleset
        self.tab, self.allowance = _ruleset_tables(rules)
        self.hare = rules.hare
        self.kinds = self.tab.kinds
        rs = state.runners
        self.n = len(rs)
        names, sq, car, let, place, must, skip = zip(*rs, strict=True)
        self.names, self.sq, self.car, self.let = names, list(sq), list(car), list(let)
        self.place, self.skip, self.must = list(place), list(skip), list(must)
        # two-player: each runner's partner and owner; the supply and the missed-slot flag are the
        # player's (see _Pair). None and the identity in the one-runner game.
        self.per = state.per_seat
        self.mate: list[int] | None = None
        self.owner: Sequence[int] = _IDENTITY
        self.actor = -1  # two-player: the runner the last chain moved
        self.only = -1  # two-player: after being stuck, the one runner that may move off
        if self.per > 1:
            self.mate = [j ^ 1 for j in range(self.n)]
            self.owner = [j >> 1 for j in range(self.n)]
            self.car = _Pair(car[::2])
            self.let = _Pair(let[::2])
            self.skip = _Pair(skip[::2])
        occ = self.occ = [0] * (HOME + 1)
        for s in sq:
            occ[s] += 1
        self.home_count = occ[HOME]

    def pos(self, i: int) -> int:
        s = self.sq[i]
        if s == HOME:
            return self.place[i] or 1
        p = 1
        for x in self.sq:
            if x > s:
                p += 1
        return p

    def pos_at(self, s: int) -> int:
        """The race position of a runner on square `s` (not HOME): 1 + the runners ahead."""
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
            if self.mate is not None and self.sq[self.mate[i]] != HOME and c >= cost:
                return (_O_HOME, HOME, cost, 0)  # two-player: the first runner home needs no condition
            if self.mate is not None and self.sq[self.mate[i]] != HOME:
                return f"HOME is {target - s} squares away and costs {cost} carrots, more than the {c} held"
            if self.let[i]:
                return f"HOME needs every lettuce eaten first ({self.let[i]} left)"
            if c < cost:
                return f"HOME is {target - s} squares away and costs {cost} carrots, more than the {c} held"
            allowance = self.allowance[self.home_count]
            if c - cost > allowance:
                return (f"would reach HOME with {c - cost} carrots; place {self.home_count + 1} "
                        f"allows at most {allowance}")
            return (_O_HOME, HOME, cost, 0)
        if self.occ[target]:
            return f"square {target} is occupied"
        k = self.kinds[target]
        if k == _TORTOISE:
            return f"square {target} is a tortoise square (reached only by falling back)"
        if k == _LETTUCE and not self.let[i]:
            return f"square {target} is a lettuce square and no lettuce is left"
        if c < cost:
            return f"square {target} is {target - s} squares ahead and costs {cost} carrots, more than the {c} held"
        return (_O_FORWARD, target, cost, 0)

    def nearest_forward(self, i: int, candidates: Sequence[int] | None = None) -> Move | None:
        """The nearest legal forward move (among `candidates`); the same checks as `forward`, fast."""
        s = self.sq[i]
        c = self.car[i]
        lettuces = self.let[i]
        occ = self.occ
        kinds = self.kinds
        for target in (candidates if candidates is not None else range(s + 1, HOME + 1)):
            cost = COST[target - s]
            if cost > c:
                return None
            if target == HOME:
                if (lettuces or c - cost > self.allowance[self.home_count]) and not self.first_home(i):
                    return None
                return (_O_HOME, HOME, cost, 0)
            if occ[target]:
                continue
            k = kinds[target]
            if k == _TORTOISE or (k == _LETTUCE and not lettuces):
                continue
            return (_O_FORWARD, target, cost, 0)
        return None

    def first_home(self, i: int) -> bool:
        """Two-player: runner i would be its player's first runner HOME (which needs no condition)."""
        return self.mate is not None and self.sq[self.mate[i]] != HOME

    def bonus_of(self, i: int) -> int:
        """Two-player: the number-square bonus runner i draws when it moves off its square now."""
        s = self.sq[i]
        if self.kinds[s] != _NUMBER or self.inert[i]:
            return 0
        position = self.pos_at(s)
        return 10 * position if position in self.tab.numbers[s] else 0

    def back(self, i: int) -> MoveOrReason:
        s = self.sq[i]
        t = self.tab.tortoise_behind[s] if s != HOME else -1
        if t < 0:
            return "there is no tortoise square behind"
        if self.occ[t]:
            return f"the nearest tortoise square behind, {t}, is occupied"
        return (_O_BACK, t, 0, 10 * (s - t))

    def back_to(self, i: int, n: int) -> MoveOrReason:
        """A backward move to square n, in a ruleset that moves back freely (hase-igel-sam)."""
        s = self.sq[i]
        if n <= START:
            return "a backward move never ends on START"
        t = self.tab.tortoise_behind[s] if s != HOME else -1
        if t < 0:
            return "there is no tortoise square behind"
        if n < t:
            return f"square {n} is beyond the nearest tortoise square behind ({t})"
        if self.occ[n]:
            return f"square {n} is occupied"
        if self.kinds[n] == _LETTUCE and not self.let[i]:
            return f"square {n} is a lettuce square and no lettuce is left"
        return (_O_BACK, n, 0, 10 * (s - n))

    def farthest_back(self, i: int) -> MoveOrReason:
        """The default backward move: the farthest square behind that a backward move may end on."""
        if not self.free_back:
            return self.back(i)
        s = self.sq[i]
        t = self.tab.tortoise_behind[s]
        if t < 0:
            return "there is no tortoise square behind"
        for n in range(t, s):
            m = self.back_to(i, n)
            if m.__class__ is tuple:
                return m
        return "no square behind is free to move back to"

    def stay(self, i: int, give: bool) -> MoveOrReason:
        s = self.sq[i]
        if self.kinds[s] != _CARROT:
            where = "START" if s == START else f"square {s}"
            return f"{where} is not a carrot square"
        if self.must[i] is _M_LEAVE:
            return "a runner that ate a lettuce must leave the square"
        if self.inert[i]:
            return f"square {s} was reached by moving back and is inert: no carrots there until the runner moves"
        if give:
            if self.car[i] < 10:
                return f"paying 10 carrots needs 10; {self.car[i]} held"
            return (_O_STAY_GIVE, s, 10, 0)
        return (_O_STAY_TAKE, s, 0, 10)


# compiling orders ----------------------------------------------------------------------------

def condition_source(cond: Condition) -> str:
    """A condition as a Python expression over the turn's arrays (see `_compile_chain`)."""
    if isinstance(cond, SquareIs):
        return f"not occ[{cond.square}]" if cond.free else f"occ[{cond.square}] > 0"
    if isinstance(cond, PlayerIs):
        # The atom means what it says about any runner, the player's own included (ORDERS.md),
        # and IS NOT is its exact negation. ON and HOME read the square, which is right for the
        # own runner as it is (a runner with a slot is not HOME). No runner is ahead of or
        # behind itself: the seat test gives that answer without computing two positions.
        j = cond.seat
        if cond.test is RunnerTest.ON:
            return f"(sq[{j}] {'!=' if cond.negated else '=='} {cond.square})"
        if cond.test is RunnerTest.HOME:
            return f"(sq[{j}] {'!=' if cond.negated else '=='} {HOME})"
        ahead = cond.test is RunnerTest.AHEAD
        if cond.negated:
            return f"(i == {j} or P({j}) {'>=' if ahead else '<='} P(i))"
        return f"(i != {j} and P({j}) {'<' if ahead else '>'} P(i))"
    if isinstance(cond, IAm):
        target = "t.n" if cond.last else "1"
        return f"(P(i) {'!=' if cond.negated else '=='} {target})"
    if isinstance(cond, Compare):
        op = {"=": "=="}.get(cond.cmp.value, cond.cmp.value)
        left = {Quantity.CARROTS: "car[i]", Quantity.LETTUCES: "let[i]", Quantity.RANK: "P(i)",
                Quantity.MY_SQUARE: "sq[i]"}[cond.quantity]
        return f"({left} {op} {cond.value})"
    if isinstance(cond, Not):
        return f"(not {condition_source(cond.inner)})"
    joiner = " and " if isinstance(cond, And) else " or "
    return "(" + joiner.join(condition_source(p) for p in cond.parts) + ")"


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
            if t.free_back:
                return t.back_to(i, n)
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
        if action.distance is not None:
            back_by = action.distance

            def back_n(t: _Turn, i: int) -> MoveOrReason:
                if back_by <= 0:
                    return "BACK 0 goes nowhere"
                if t.sq[i] - back_by < 0:
                    return f"{back_by} squares back is past START"
                return t.back_to(i, t.sq[i] - back_by)

            return back_n
        return lambda t, i: t.back(i)
    if kind is ActionKind.STAY:
        give = action.give
        return lambda t, i: t.stay(i, give)
    return lambda t, i: "lettuces are eaten by rule at the slot after landing; EAT is never a move"


ChainFn = Callable[["_Turn", int], tuple[Move | None, list[Tried]]]
Compiled = tuple[str, ChainFn]


def _compile_chain(chain: Chain, tab: _Tables) -> ChainFn:
    """One Python function for the whole chain: conditions inline, each alternative recorded.

    Orders are evaluated at every slot of every turn, so they are compiled once per sheet into
    straight-line code rather than walked as a tree.
    """
    if chain.alternatives and chain.alternatives[0].runner is not None:
        return _compile_chain_two(chain, tab)
    namespace: dict[str, object] = {"_new": _new, "Tried": Tried, "_FALSE": _FALSE}
    lines = ["    tried = []"]
    for n, alt in enumerate(chain.alternatives, start=1):
        namespace[f"A{n}"] = _compile_action(alt.action, tab)
        namespace[f"T{n}"] = str(alt)
        pad = "    "
        if alt.condition is not None:
            lines.append(f"    if {condition_source(alt.condition)}:")
            pad = "        "
        lines += [
            f"{pad}m = {_action_source(alt.action, n, namespace)}",
            f"{pad}if m.__class__ is tuple:",
            f"{pad}    tried.append(_new(Tried, ({n}, T{n}, 'taken', '')))",
            f"{pad}    return m, tried",
            f"{pad}tried.append(_new(Tried, ({n}, T{n}, 'illegal', m)))",
        ]
        if alt.condition is not None:
            lines += ["    else:", f"        tried.append(_new(Tried, ({n}, T{n}, 'false', _FALSE)))"]
    lines.append("    return None, tried")
    body = "\n".join(lines)
    # read only the arrays this chain uses: the function runs at every slot of the seat
    local = [f"{name} = t.{attr}" for name, attr in (("sq", "sq"), ("car", "car"), ("let", "let"), ("occ", "occ"),
                                                      ("P", "pos")) if re.search(rf"\b{name}\b", body)]
    head = "def chain(t, i):\n" + (f"    {'; '.join(local)}\n" if local else "")
    exec(head + body, namespace)  # noqa: S102 - source built above from typed orders only
    return namespace["chain"]  # type: ignore[return-value]


def _compile_chain_two(chain: Chain, tab: _Tables) -> ChainFn:
    """Two-player: each alternative names its acting runner; the chain is called with the player's
    seat, and `t.actor` tells which runner the move it returns is for."""
    namespace: dict[str, object] = {"_new": _new, "Tried": Tried, "_FALSE": _FALSE, "_act": _two_act}
    lines = ["    tried = []"]
    for n, alt in enumerate(chain.alternatives, start=1):
        namespace[f"A{n}"] = _compile_action(alt.action, tab)
        namespace[f"T{n}"] = str(alt)
        lines.append(f"    i = {alt.runner}")
        pad = "    "
        if alt.condition is not None:
            lines.append(f"    if {condition_source(alt.condition)}:")
            pad = "        "
        lines += [
            f"{pad}m = _act(t, i, A{n})",
            f"{pad}if m.__class__ is tuple:",
            f"{pad}    t.actor = i",
            f"{pad}    tried.append(_new(Tried, ({n}, T{n}, 'taken', '')))",
            f"{pad}    return m, tried",
            f"{pad}tried.append(_new(Tried, ({n}, T{n}, 'illegal', m)))",
        ]
        if alt.condition is not None:
            lines += ["    else:", f"        tried.append(_new(Tried, ({n}, T{n}, 'false', _FALSE)))"]
    lines.append("    return None, tried")
    head = "def chain(t, p):\n    sq = t.sq; car = t.car; let = t.let; occ = t.occ; P = t.pos\n"
    exec(head + "\n".join(lines), namespace)  # noqa: S102 - source built above from typed orders only
    return namespace["chain"]  # type: ignore[return-value]


def _two_act(t: _Turn, i: int, act: ActFn) -> MoveOrReason:
    """Two-player: an alternative's action for its acting runner, with what makes it illegal for
    that runner (HOME, the other runner must leave a lettuce square, only the stuck runner may move
    off) and the number-square bonus it would draw on moving off, which may pay for the move."""
    if t.sq[i] == HOME:
        return f"{t.names[i]} is HOME"
    if t.only >= 0 and i != t.only:
        return f"{t.names[t.only]} was stuck and moves off START now; {t.names[i]} may not move"
    assert t.mate is not None
    mate = t.mate[i]
    if t.must[mate] is _M_LEAVE and t.sq[mate] != HOME:
        return f"{t.names[mate]} ate a lettuce and must leave its square first"
    bonus = t.bonus_of(i)
    if not bonus:
        return act(t, i)
    t.car[i] += bonus
    try:
        return act(t, i)
    finally:
        t.car[i] -= bonus


def _action_source(action: Action, n: int, namespace: dict[str, object]) -> str:
    """The commonest actions inline (one call fewer each); the rest through their closure."""
    kind = action.kind
    if kind is ActionKind.HOME:
        return f"t.forward(i, {HOME})"
    if kind is ActionKind.ADVANCE and action.distance:
        namespace[f"R{n}"] = f"{action.distance} squares ahead is past HOME"
        d = action.distance
        return f"t.forward(i, sq[i] + {d}) if sq[i] + {d} <= {HOME} else R{n}"
    if kind is ActionKind.BACK and action.distance is None:
        return "t.back(i)"
    if kind is ActionKind.STAY:
        return f"t.stay(i, {action.give})"
    return f"A{n}(t, i)"


def _compiled(chain: Chain, tab: _Tables) -> Compiled:
    cache = chain.compiled
    for board_tab, value in cache:
        if board_tab is tab:
            return value  # type: ignore[no-any-return]
    value = (str(chain), _compile_chain(chain, tab))
    cache.append((tab, value))
    return value


# the turn ----------------------------------------------------------------------------------

# A seat's orders for a turn, ready to play: the label and compiled chain of each MOVE line in
# order, the entry for any slot beyond them (the DEFAULT line, or none), and the HARE choice.
Line = tuple[str, "Compiled | None"]
Orders = tuple[tuple[Line, ...], Line, "HareFn | None"]
_NO_ORDERS: Orders = ((), ("no orders", None), None)


def _compile_hare(chain: tuple[HareAlternative, ...]) -> HareFn | None:
    """A HARE chain as a function of the turn and the seat that chooses; None: no HARE line."""
    if not chain:
        return None
    namespace: dict[str, object] = {f"W{n}": alt.choice for n, alt in enumerate(chain)}
    lines = ["def choose(t, i):", "    sq = t.sq; car = t.car; let = t.let; occ = t.occ; P = t.pos"]
    for n, alt in enumerate(chain):
        if alt.condition is None:
            lines.append(f"    return W{n}")
            break
        lines.append(f"    if {condition_source(alt.condition)}: return W{n}")
    else:
        lines.append("    return None")
    exec("\n".join(lines), namespace)  # noqa: S102 - source built from typed orders only
    return namespace["choose"]  # type: ignore[return-value]


def _orders(sheet: OrderSheet | None, tab: _Tables) -> Orders:
    """Compile a sheet once (cached on it): every slot of the seat consumes the next MOVE line."""
    if sheet is None:
        return _NO_ORDERS
    for board_tab, orders in sheet.compiled:
        if board_tab is tab:
            return orders  # type: ignore[no-any-return]
    lines = tuple(
        (f"MOVE {k}", _compiled(m.chain, tab)) if m.chain is not None else (f"MOVE {k} (rejected)", None)
        for k, m in enumerate(sheet.moves, start=1)
    )
    beyond: Line = ("DEFAULT", _compiled(sheet.default, tab)) if sheet.default is not None else ("no MOVE line", None)
    orders = (lines, beyond, _compile_hare(sheet.hare_chain))
    sheet.compiled.append((tab, orders))
    return orders


def turn_sequence(state: State, postal: bool = True) -> list[int]:
    """The seats in slot order for the state's turn: racing runners from the first mover, then it
    again (the postal rotation); without `postal`, each racing seat once from the first seat."""
    runners = state.runners
    if "two-player" in state.options:
        runners = _seat_squares(state)  # type: ignore[assignment]
    n = len(runners)
    if not postal:
        return [s for s in range(n) if runners[s][1] != HOME]
    first = state.first
    seats = [s for s in (*range(first, n), *range(first)) if runners[s][1] != HOME]  # [1]: the square
    if seats and seats[0] == first:
        seats.append(first)
    return seats


def _seat_squares(state: State) -> list[tuple[str, int]]:
    """Two-player: each seat as (name, square), the square HOME only when both runners are."""
    rs = state.runners
    return [(rs[j].name, HOME if rs[j].square == HOME and rs[j + 1].square == HOME else START)
            for j in range(0, len(rs), 2)]


def _next_first_mover(squares: Sequence[int], first: int) -> int:
    """RULES: the next seat after the previous first mover whose runner is not yet HOME."""
    n = len(squares)
    for k in range(1, n + 1):
        seat = (first + k) % n
        if squares[seat] != HOME:
            return seat
    return first


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
    t = _Turn(rules, state)
    per = t.per
    if len(sheets) * per != t.n:
        raise ValueError("one order sheet (or None) per seat is needed")
    orders = [_orders(s, t.tab) for s in sheets]
    # by runner: the runner concerned chooses (two-player: both of a seat's runners by its sheet)
    t.choose = [o[2] for o in orders] if per == 1 else [o[2] for o in orders for _ in range(per)]
    used = [0] * t.n
    postal = rules.postal_rotation
    queue = turn_sequence(state, postal)
    extra_slots: list[int] = []  # indices in `queue` of slots added by a hare "have another turn"
    slots: list[Slot] = []
    limit = len(queue) + 1000 if max_slots is None else max_slots
    teams = state.teams
    # the groups whose runners all HOME end the game: partnership's teams, two-player's players
    groups = teams if per == 1 else tuple((t.names[j][:-1], (j, j + 1)) for j in range(0, t.n, 2))
    one = per == 1
    play = _play_slot if one else _play_two_slot
    over = False
    k = 0
    sq = t.sq
    while k < len(queue) and len(slots) < limit:
        i = queue[k]
        k += 1
        if sq[i] == HOME if one else sq[2 * i] == HOME and sq[2 * i + 1] == HOME:
            continue
        lines, beyond, _ = orders[i]
        u = used[i]
        used[i] = u + 1
        try:
            slot, again = play(t, i, lines[u] if u < len(lines) else beyond, chance, len(slots) + 1,
                               bool(extra_slots) and k - 1 in extra_slots)
        except PbemError as err:
            err.slots = tuple(slots)  # type: ignore[attr-defined]  # what was resolved before it
            raise
        slots.append(slot)
        if again:
            queue.insert(k, i)
            extra_slots = [x + 1 if x >= k else x for x in extra_slots] + [k]
        if slot.place is not None:
            if groups:
                if any(all(sq[j] == HOME for j in seats) for _, seats in groups):
                    over = True  # the first team with every runner HOME wins; the rest get no place
                    break
            elif t.racing() <= 1:
                over = True
                for j in range(t.n):
                    if t.sq[j] != HOME:
                        t.place[j] = t.n
                break
    if per == 1:
        runners = tuple([_new(Runner, r) for r in zip(t.names, sq, t.car, t.let, t.place, t.must, t.skip, strict=True)])
        seat_sq: Sequence[int] = sq
    else:
        runners = tuple(Runner(t.names[j], sq[j], t.car[j], t.let[j], t.place[j], t.must[j], bool(t.skip[j]))
                        for j in range(t.n))
        seat_sq = [HOME if sq[j] == HOME and sq[j + 1] == HOME else START for j in range(0, t.n, 2)]
    if over:
        first = state.first
    elif postal:
        first = _next_first_mover(seat_sq, state.first)
    else:
        first = next((j for j in range(len(seat_sq)) if seat_sq[j] != HOME), 0)
    inert = tuple(j for j in range(t.n) if t.inert[j]) if t.free_back else state.inert
    return TurnResult(State(state.ruleset, runners, state.turn + 1, first, over, state.options, teams,
                            tuple(t.deck), tuple(t.used), inert), tuple(slots))


def _play_slot(t: _Turn, i: int, line: Line, chance: Chance, number: int, extra: bool) -> tuple[Slot, bool]:
    """One move slot, in the named stages of RULES: a missed slot, the number-square bonus,
    eating a lettuce, the order chain (else the default move, else stuck, and in Parlett's
    rulesets the move off START), then the move and what the landing square does."""
    order, compiled = line
    chain_text = compiled[0] if compiled is not None else None
    sq = t.sq
    s0, c0, l0 = sq[i], t.car[i], t.let[i]
    position = 1  # the race position (t.pos_at, inline: this runs at every slot)
    for x in sq:
        if x > s0:
            position += 1
    head = (number, i, t.names[i], order, chain_text)
    if t.skip[i]:
        return _stage_missed(t, i, head, s0, c0, l0, position, extra), False
    bonus = _stage_number_bonus(t, i, s0, position) if t.kinds[s0] == _NUMBER else 0
    if t.must[i] is _M_EAT:
        return _stage_eat(t, i, head, s0, c0, l0, position, bonus, extra), False
    move, tried, rule = _stage_orders(t, i, compiled)
    if move is None:
        stuck = _stage_stuck(t, i, head, tried, s0, c0, l0, position, bonus, extra)
        if not t.rules.moves_off_when_stuck:
            return stuck, False
        return _stage_move_off(t, i, head, compiled, s0, c0, l0, bonus, chance, extra)
    return _stage_move(t, i, head, move, tried, rule, s0, c0, l0, position, bonus, chance, extra)


def _default_move(t: _Turn, i: int) -> Move | None:
    """RULES' default move: the nearest legal square ahead, else stay and draw, else fall back."""
    move = t.nearest_forward(i)
    if move is None:
        m = t.stay(i, False)
        if m.__class__ is str:
            m = t.farthest_back(i)
        if m.__class__ is not str:
            move = m  # type: ignore[assignment]
    return move


def _two_orders(t: _Turn, p: int, racing: list[int], compiled: Compiled | None
                ) -> tuple[Move | None, int, list[Tried] | tuple[()], str | None]:
    """Two-player, step 3 and 4: the chain's first true and legal alternative (with its acting
    runner), else the default move for the runner that must leave a lettuce square, or else for
    the rearmost racing runner and then the other. (None, the runner that is stuck, ...) when no
    runner has a move."""
    tried: list[Tried] | tuple[()] = ()
    if compiled is not None:
        move, tried = compiled[1](t, p)
        if move is not None:
            return move, t.actor, tried, None
    leaver = next((j for j in racing if t.must[j] is _M_LEAVE), None)
    order = [leaver] if leaver is not None else sorted(racing, key=lambda j: (t.sq[j], j))
    for r in order:
        bonus = t.bonus_of(r)
        t.car[r] += bonus
        move = _default_move(t, r)
        t.car[r] -= bonus
        if move is not None:
            return move, r, tried, "default move"
    return None, order[0], tried, "default move"


def _play_two_slot(t: _Turn, p: int, line: Line, chance: Chance, number: int, extra: bool) -> tuple[Slot, bool]:
    """Two-player: one slot of player p, who moves one of two runners from one supply
    (RULESETS.md, "two-player": missed slot, eating with runner 1 first, the order chain, the
    default move for the rear runner, stuck; the number-square bonus is drawn on moving off)."""
    order, compiled = line
    chain_text = compiled[0] if compiled is not None else None
    sq = t.sq
    racing = [j for j in (2 * p, 2 * p + 1) if sq[j] != HOME]
    rear = min(racing, key=lambda j: (sq[j], j))
    if t.skip[rear]:
        head = (number, p, t.names[rear][:-1], order, chain_text)
        s0 = sq[rear]
        return _stage_missed(t, rear, head, s0, t.car[rear], t.let[rear], t.pos_at(s0), extra), False
    eater = next((j for j in racing if t.must[j] is _M_EAT), None)
    if eater is not None:
        s0 = sq[eater]
        head = (number, p, t.names[eater], order, chain_text)
        return _stage_eat(t, eater, head, s0, t.car[eater], t.let[eater], t.pos_at(s0), 0, extra), False
    move, r, tried, rule = _two_orders(t, p, racing, compiled)
    s0, c0, l0 = sq[r], t.car[r], t.let[r]
    position = t.pos_at(s0) if s0 != HOME else t.pos(r)
    head = (number, p, t.names[r], order, chain_text)
    if move is None:
        stuck = _stage_stuck(t, r, head, tried, s0, c0, l0, position, 0, extra)
        if not t.rules.moves_off_when_stuck:
            return stuck, False
        t.only = r
        try:
            move, _, tried, rule = _two_orders(t, p, [r], compiled)
        finally:
            t.only = -1
        assert move is not None  # from START with the starting carrots some square 1-10 is always legal
        why = (f"stuck on {'START' if s0 == START else f'square {s0}'}: back to START with {t.car[r]} carrots, "
               "moved off at once")
        if rule is not None:
            why += " by the default move"
        return _stage_move(t, r, head, move, tried, why, START, c0, l0, t.pos_at(START), 0, chance, extra)
    bonus = t.bonus_of(r)
    t.car[r] += bonus
    return _stage_move(t, r, head, move, tried, rule, s0, c0, l0, position, bonus, chance, extra)


SlotHead = tuple[int, int, str, str, "str | None"]


def _stage_missed(t: _Turn, i: int, head: SlotHead, s0: int, c0: int, l0: int, position: int, extra: bool) -> Slot:
    """A hare "miss a turn": the slot passes, its order line is used up."""
    t.skip[i] = False
    return _new(Slot, (*head, (), _O_MISSED, "missed turn (hare)", s0, s0, 0, 0, 0, position, c0, c0, l0, l0, None,
                       None, extra))


def _stage_number_bonus(t: _Turn, i: int, s0: int, position: int) -> int:
    """A number square whose number is the runner's position pays 10 x position first (not on
    a square made inert by a backward move)."""
    if t.kinds[s0] == _NUMBER and position in t.tab.numbers[s0] and not t.inert[i]:
        bonus = 10 * position
        t.car[i] += bonus
        return bonus
    return 0


def _stage_eat(t: _Turn, i: int, head: SlotHead, s0: int, c0: int, l0: int, position: int, bonus: int,
               extra: bool) -> Slot:
    """The slot after landing on a lettuce is spent eating: 10 x position, one lettuce fewer."""
    if t.let[i] > 0:
        t.let[i] -= 1
    drew = 10 * position
    t.car[i] += drew
    t.must[i] = _M_LEAVE
    return _new(Slot, (*head, (), _O_ATE, "eat a lettuce", s0, s0, 0, drew, bonus, position, c0, t.car[i], l0,
                       t.let[i], None, None, extra))


def _stage_orders(t: _Turn, i: int, compiled: Compiled | None) -> tuple[Move | None, list[Tried] | tuple[()], str | None]:
    """The order chain's first true and legal alternative, else RULES' default move: the nearest
    legal square ahead, else stay and draw, else fall back. None: no legal move at all."""
    move: Move | None = None
    tried: list[Tried] | tuple[()] = ()
    if compiled is not None:
        move, tried = compiled[1](t, i)
        if move is not None:
            return move, tried, None
    move = t.nearest_forward(i)
    if move is None:
        m = t.stay(i, False)
        if m.__class__ is str:
            m = t.farthest_back(i)
        if m.__class__ is not str:
            move = m  # type: ignore[assignment]
    return move, tried, "default move"


def _stage_stuck(t: _Turn, i: int, head: SlotHead, tried: list[Tried] | tuple[()], s0: int, c0: int, l0: int,
                 position: int, bonus: int, extra: bool) -> Slot:
    """No legal move: back to START with the game's starting carrots."""
    t.sq[i] = START
    t.occ[s0] -= 1
    t.occ[START] += 1
    t.car[i] = t.restart
    t.must[i] = _M_NONE
    t.skip[i] = False
    t.inert[i] = False
    return _new(Slot, (*head, tuple(tried), _O_STUCK, "stuck: no legal move", s0, START, 0, 0, bonus, position, c0,
                       t.car[i], l0, l0, None, None, extra))


def _stage_move_off(t: _Turn, i: int, head: SlotHead, compiled: Compiled | None, s0: int, c0: int, l0: int,
                    bonus: int, chance: Chance, extra: bool) -> tuple[Slot, bool]:
    """Parlett: a stuck runner, back on START, moves off at once by the same chain (its conditions
    read after the reset), else by the default move; the move may juggle the hare."""
    move, tried, rule = _stage_orders(t, i, compiled)
    assert move is not None  # from START with the starting carrots some square 1-10 is always legal
    why = f"stuck on {'START' if s0 == START else f'square {s0}'}: back to START with {t.car[i]} carrots, moved off at once"
    if rule is not None:
        why += " by the default move"
    slot, again = _stage_move(t, i, head, move, tried, why, START, c0, l0, t.pos_at(START), bonus, chance, extra)
    return slot, again


def _stage_move(t: _Turn, i: int, head: SlotHead, move: Move, tried: list[Tried] | tuple[()], rule: str | None,
                s0: int, c0: int, l0: int, position: int, bonus: int, chance: Chance,
                extra: bool) -> tuple[Slot, bool]:
    """Pay or draw, move, then what the square landed on does: HOME, a lettuce, a hare square."""
    outcome, target, paid, drew = move
    t.car[i] += drew - paid
    place: int | None = None
    hare: HareRoll | None = None
    again = False
    if target != s0:
        t.occ[s0] -= 1
        t.occ[target] += 1
        t.sq[i] = target
        t.must[i] = _M_NONE
        t.inert[i] = False
        if outcome is _O_HOME:
            t.home_count += 1
            place = t.place[i] = t.home_count
        else:
            k = t.kinds[target]
            if k == _LETTUCE:
                t.must[i] = _M_EAT
            elif k == _HARE and outcome is _O_FORWARD:
                hare, again = _hare(t, i, chance, paid)
                if t.sq[i] == HOME:
                    place = t.place[i]
            elif outcome is _O_BACK and t.free_back and k != _TORTOISE:
                t.inert[i] = True  # a hare, carrot or number square reached backwards
    return _new(Slot, (*head, tuple(tried), outcome, rule, s0, t.sq[i], paid, drew, bonus, position, c0, t.car[i], l0,
                       t.let[i], hare, place, extra)), again


def _choice(t: _Turn, i: int) -> HareChoice:
    """Seat i's HARE choice, made now: its chain's first true alternative, else the default word."""
    fn = t.choose[i] if t.choose else None
    word = fn(t, i) if fn is not None else None
    return word if word is not None else HareChoice(t.rules.choices[0])


def _free_move(t: _Turn, i: int, squares: Sequence[int], ahead: bool) -> str:
    """A free hare move to the nearest unoccupied square of a kind, passing everything between."""
    s = t.sq[i]
    occ = t.occ
    if ahead:
        to = next((x for x in squares if x > s and not occ[x]), -1)
    else:
        to = next((x for x in reversed(squares) if x < s and not occ[x]), -1)
    if to < 0:
        return "no vacant square of that kind: nothing happens"
    occ[s] -= 1
    occ[to] += 1
    t.sq[i] = to
    t.inert[i] = False
    return f"moved free to square {to}"


def _hare(t: _Turn, i: int, chance: Chance, paid: int) -> tuple[HareRoll, bool]:
    """The hare table: one die plus the runner's position, right after landing and paying."""
    if t.rules.deck is not None:
        return _card(t, i, chance, paid, t.rules.deck)
    s = t.sq[i]
    position = t.pos_at(s)
    die, total, effect = t.hare.draw(chance, position)
    again = False
    detail: str
    if effect is _H_BACK_TO_HARE or effect is _H_BACK_TO_CARROT or effect is _H_AHEAD_TO_CARROT:
        squares = t.tab.hares if effect is _H_BACK_TO_HARE else t.tab.carrots
        detail = _free_move(t, i, squares, effect is _H_AHEAD_TO_CARROT)
    elif effect is _H_MISS_TURN:
        t.skip[i] = True
        detail = "the next slot is missed"
    elif effect is _H_CHEW_CARROT:
        detail = _take_or_give(t, i, _choice(t, i) is HareChoice.GIVE)
    elif effect is _H_RESTORE:
        t.car[i] = t.rules.restore_carrots
        detail = f"carrots restored to {t.rules.restore_carrots}"
    elif effect is _H_REFUND:
        t.car[i] += paid
        detail = f"the {paid} carrots paid are given back"
    elif effect is _H_HALVE:
        lost = t.car[i] // 2
        t.car[i] -= lost
        detail = f"lost {lost} carrots"
    elif effect is _H_EXTRA_SLOT:
        again = True
        detail = "an extra slot follows at once"
    else:
        if t.let[i] > 0:
            t.must[i] = _M_EAT
            detail = "the square counts as a lettuce square: eat at the next slot"
        else:
            detail = "no lettuce left: nothing happens"
    return _new(HareRoll, (die, position, total, effect, detail, s, t.sq[i], None)), again


def _take_or_give(t: _Turn, i: int, give: bool) -> str:
    if give and t.car[i] >= 10:
        t.car[i] -= 10
        return "paid 10 carrots"
    t.car[i] += 10
    return "drew 10 carrots" if not give else "drew 10 carrots (fewer than 10 to give)"


def _card(t: _Turn, i: int, chance: Chance, paid: int, deck: HareDeck) -> tuple[HareRoll, bool]:
    """A hare card: drawn from the deck in the state, carried out at once."""
    s = t.sq[i]
    card = Card(deck.take(t.deck, t.used, chance))
    position = t.pos_at(s)
    again = False
    sq, car = t.sq, t.car
    detail: str
    if card is Card.GIVE_BEHIND:
        owner = t.owner
        behind = [j for j in range(t.n) if owner[j] != owner[i] and sq[j] < s]  # an opponent's runners
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
                if _choice(t, j) is HareChoice.REFUSE:
                    parts.append(f"{t.names[j]} refuses them")
                else:
                    car[j] += amount
                    parts.append(f"{t.names[j]} keeps them")
            detail = f"gives {amount} carrots to each runner behind: {', '.join(parts)}"
    elif card is Card.MISS_OR_AGAIN:
        behind_n = sum(1 for j in range(t.n) if j != i and sq[j] < s)
        front_n = sum(1 for j in range(t.n) if j != i and sq[j] > s)
        if behind_n > front_n:
            t.skip[i] = True
            detail = f"{behind_n} runners behind, {front_n} in front: the next slot is missed"
        else:
            again = True
            detail = f"{behind_n} runners behind, {front_n} in front: an extra slot follows at once"
    elif card is Card.RESTORE_65:
        car[i] = t.rules.restore_carrots
        detail = f"carrots restored to {t.rules.restore_carrots}"
    elif card is Card.PER_LETTUCE:
        if t.let[i]:
            car[i] += 10 * t.let[i]
            detail = f"drew {10 * t.let[i]} carrots, 10 for each lettuce held"
        else:
            t.skip[i] = True
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
        owner = t.owner
        payers: list[int] = []  # one runner for each other player with a runner racing and a carrot
        for j in range(t.n):
            if owner[j] != owner[i] and sq[j] != HOME and car[j] >= 1 and all(owner[x] != owner[j] for x in payers):
                payers.append(j)
        for j in payers:
            car[j] -= 1
            car[i] += 1
        deck.reshuffle(t.deck, chance)
        got = {0: "received no carrot (no other player could give one)",
               1: "received 1 carrot from 1 other player"}.get(
            len(payers), f"received 1 carrot from each of {len(payers)} players")
        detail = f"{got}; the hare cards are shuffled"
    elif card is Card.MISS:
        t.skip[i] = True
        detail = "the next slot is missed"
    elif card is Card.BACK_CARROT or card is Card.NEXT_CARROT:
        detail = _free_move(t, i, t.tab.carrots, card is Card.NEXT_CARROT)
    elif card is Card.AGAIN:
        again = True
        detail = "an extra slot follows at once"
    elif card is Card.TAKE_GIVE:
        word = _choice(t, i)
        detail = "takes nothing and gives nothing" if word is HareChoice.NONE else _take_or_give(
            t, i, word is HareChoice.GIVE)
    elif card is Card.LETTUCE:
        if t.let[i] > 0:
            t.must[i] = _M_EAT
            detail = "eat a lettuce at the next slot"
        else:
            t.skip[i] = True
            detail = "no lettuce left: the next slot is missed"
    elif card is Card.UP_ONE:
        detail = _up_one(t, i)
    else:
        detail = _down_one(t, i)
    return _new(HareRoll, (0, position, 0, _H_CARD, detail, s, t.sq[i], card.value)), again


def _up_one(t: _Turn, i: int) -> str:
    s = t.sq[i]
    ahead = [x for j, x in enumerate(t.sq) if j != i and s < x < HOME]
    if not ahead:
        return "no racing runner ahead: nothing happens"
    target = -1
    for n in range(min(ahead) + 1, HOME + 1):
        if n == HOME:
            cost = COST[HOME - s]
            if t.first_home(i) or (not t.let[i] and t.car[i] - cost <= t.allowance[t.home_count]):
                target = HOME
            break
        k = t.kinds[n]
        if t.occ[n] or k == _TORTOISE or (k == _LETTUCE and not t.let[i]):
            continue
        target = n
        break
    if target < 0:
        return "no square beyond the runner ahead to land on: nothing happens"
    cost = COST[target - s]
    if t.car[i] < cost:
        return f"{'HOME' if target == HOME else f'square {target}'} costs {cost} carrots, more than held: nothing happens"
    t.car[i] -= cost
    t.occ[s] -= 1
    t.occ[target] += 1
    t.sq[i] = target
    t.inert[i] = False
    if target == HOME:
        t.home_count += 1
        t.place[i] = t.home_count
        return f"paid {cost} carrots and went HOME"
    if t.kinds[target] == _LETTUCE:
        t.must[i] = _M_EAT
    return f"paid {cost} carrots and moved up to square {target}"


def _down_one(t: _Turn, i: int) -> str:
    s = t.sq[i]
    below = [x for j, x in enumerate(t.sq) if j != i and x < s]
    if not below:
        return "no runner behind: nothing happens"
    b = max(below)
    if b == START:
        return "the runner behind is on START: nothing happens"
    tortoise = t.tab.tortoise_behind[s]
    if tortoise < 0:
        return "no tortoise square behind: nothing happens"
    target = next((n for n in range(b - 1, tortoise - 1, -1)
                   if not t.occ[n] and (t.kinds[n] != _LETTUCE or t.let[i])), -1)
    if target < 0:
        return "no square below the runner behind to move back to: nothing happens"
    drew = 10 * (s - target)
    t.car[i] += drew
    t.occ[s] -= 1
    t.occ[target] += 1
    t.sq[i] = target
    k = t.kinds[target]
    t.inert[i] = k == _HARE or k == _CARROT or k == _NUMBER
    if k == _LETTUCE:
        t.must[i] = _M_EAT
    return f"moved back to square {target} and drew {drew} carrots"


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
    first = 0
    return State(rules.name, runners, 1, first, False, options, teams, deck)
