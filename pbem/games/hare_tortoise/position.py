"""The working position of one Hare & Tortoise turn: every runner's figures, and its legal moves.

A `Position` holds the figures by runner index; the seats say which runners each player moves:
one, or, with the two-player option, two that share one supply (`Seat.shared`). Its methods
answer the rules' questions about one runner: where it stands in the race, which moves are legal
now (a move, or why not, in the player's words), and the default move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pbem.games.hare_tortoise.board import HOME, START, Board, Kind
from pbem.games.hare_tortoise.orders.model import HareAlternative, NextKind
from pbem.games.hare_tortoise.resolution import Outcome
from pbem.games.hare_tortoise.rules import Ruleset
from pbem.games.hare_tortoise.state import Must, State

#: cost in carrots of a forward move of d squares: d(d + 1) / 2
COST = tuple(d * (d + 1) // 2 for d in range(HOME + 1))

_V = TypeVar("_V")

# The enum members the slot path compares and returns at every slot, read once: a member lookup
# on an enum class costs several times a module global's.
_FORWARD, _RUN_HOME, _FALL_BACK, _STAY_TAKE, _STAY_GIVE = (
    Outcome.FORWARD, Outcome.HOME, Outcome.BACK, Outcome.STAY_TAKE, Outcome.STAY_GIVE)
_MUST_LEAVE = Must.LEAVE
# The board's kinds as plain ints (`Board.kinds` holds ints): reading an enum member costs a
# lookup, and the legal-move checks read kinds at every square they look at.
_CARROT, _HARE, _LETTUCE, _TORTOISE, _NUMBER = (int(k) for k in (Kind.CARROT, Kind.HARE, Kind.LETTUCE,
                                                                   Kind.TORTOISE, Kind.NUMBER))


#: a legal move: (outcome, the square it ends on, carrots paid, carrots drawn)
Move = tuple[Outcome, int, int, int]

#: a legal move, or why the move is not allowed now
MoveOrReason = Move | str


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

    def __init__(self, rules: Ruleset, state: State, hare_chains: Sequence[tuple[HareAlternative, ...]]) -> None:
        self.rules = rules
        self.tables, self.allowance = _tables(rules)
        self.kinds = self.tables.kinds
        self.free_back = rules.free_backward
        self.restart = rules.starting_carrots(len(state.runners))
        self.deck, self.used = list(state.deck), list(state.used)
        per = state.per_seat
        #: two runners to a seat, sharing its supply
        self.shared = per > 1
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
        #: each seat's HARE chain, read when one of its runners makes a choice
        self.hare_chains = hare_chains
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
        """Runner i's forward move to `target` (HOME too), paying d(d + 1) / 2 for d squares."""
        s = self.sq[i]
        cost = COST[target - s]
        c = self.car[i]
        if target == HOME:
            if self.shared and self.first_home(i):
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
                if (lettuces or c - cost > self.allowance[self.home_count]) and not (self.shared and self.first_home(i)):
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
        """Staying on a carrot square: drawing 10 carrots, or (`give`) paying 10."""
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
        a seat of one runner draws it at the start of the slot."""
        return self.bonus_of(i) if seat.shared else 0

    # saving and putting back (a rehearsal stops before a draw) ----------------------------------
    def snapshot(self) -> tuple[list[Any], ...]:
        values: tuple[list[Any], ...] = (self.sq, self.car, self.let, self.place, self.must, self.skip, self.occ,
                                         self.inert)
        return (*(type(v)(v) for v in values), [self.home_count])

    def restore(self, saved: tuple[list[Any], ...]) -> None:
        (self.sq, self.car, self.let, self.place, self.must, self.skip, self.occ, self.inert, home) = saved
        self.home_count = home[0]
