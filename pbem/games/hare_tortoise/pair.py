"""The strong player's sheet for a seat of two runners (the `two-player` option).

A seat moves either of its runners at each slot, from one supply of carrots and lettuces, and
wins when both are HOME; the first of the two goes HOME with any carrots and lettuces, the
second with no lettuce left and at most the HOME allowance. The player values the pair by the
value table of `bots.py`: the slots the runner that goes HOME first needs (the table's `free`
form, eating on the way the lettuces given to it), plus the slots the other needs with the rest
of the supply, at the best division of the carrots and the lettuces between them. Each move of
either runner is scored by that value after it, and the slot's chain lists them best first,
naming the runner that acts; the engine takes the first that is legal when the slot comes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.games.hare_tortoise.board import HOME, START, Kind
from pbem.games.hare_tortoise.bots import COST, MAX_CARROTS, Move, Runner, commented_line, hare_line, moves, slots_to_home, value
from pbem.games.hare_tortoise.rules import Ruleset, find_ruleset
from pbem.games.hare_tortoise.sam import MAX_CHAIN
from pbem.games.hare_tortoise.state import Must
from pbem.games.hare_tortoise.view import RunnerView, View

#: the step in which the value tries divisions of the supply's carrots between the runners
SPLIT_STEP = 5
#: the alternatives a slot's chain lists before its fallbacks
WIDTH = 12


@dataclass(frozen=True)
class Pair:
    """A seat's two runners' squares (HOME for one at home), what each must do at its next slot,
    and the seat's supply."""

    squares: tuple[int, int]
    must: tuple[Must, Must]
    carrots: int
    lettuces: int


def pair_value(ruleset: str, pair: Pair, runners: int) -> float:
    """The slots the seat still needs to bring both runners HOME (lower is better), in a race of
    `runners`."""
    a, b = pair.squares
    if a == HOME and b == HOME:
        return 0.0
    if HOME in (a, b):
        other = b if a == HOME else a
        return value(ruleset, other, pair.carrots, pair.lettuces, runners) + 2.5 * max(0, pair.lettuces - 3)
    first, second = slots_to_home(ruleset, runners, free=True), slots_to_home(ruleset, runners)
    carrots = min(pair.carrots, MAX_CARROTS)
    best = float("inf")
    for front, back in ((a, b), (b, a)):
        for eats in range(max(0, pair.lettuces - 3), min(pair.lettuces, 3) + 1):
            ahead, behind = first[front][eats], second[back][pair.lettuces - eats]
            for k in range(0, carrots + 1, SPLIT_STEP):
                total = ahead[k] + behind[carrots - k]
                if total < best:
                    best = total
    return best + max(0, pair.carrots - MAX_CARROTS) / 40


def _after(rules: Ruleset, view: View, k: int, move: Move, pair: Pair, mine: tuple[int, int]) -> Pair:
    """The pair after its runner `k` (0 or 1) makes `move`; a lettuce square is counted as eaten
    at once, at the runner's race position now, and the runner must leave it next."""
    squares, must = list(pair.squares), list(pair.must)
    squares[k], must[k] = move.square, Must.NONE
    carrots, lettuces = move.carrots, move.lettuces
    moved = not move.text.startswith(("STAY", "BACK"))
    if move.square != HOME and moved and rules.board.kind(move.square) is Kind.LETTUCE:
        position = 1 + sum(1 for j, r in enumerate(view.runners) if j not in mine and r.square > move.square)
        carrots, lettuces, must[k] = carrots + 10 * position, lettuces - 1, Must.LEAVE
    return Pair((squares[0], squares[1]), (must[0], must[1]), carrots, lettuces)


def _options(rules: Ruleset, view: View, pair: Pair, mine: tuple[int, int]) -> list[tuple[float, str, Pair]]:
    """Every move either runner may make from where the pair stands, scored by the pair's value
    after it (a lettuce's meal costs its slot), best first."""
    names = [view.runners[i].name for i in mine]
    leaving = [k for k in (0, 1) if pair.must[k] is Must.LEAVE]
    home_count = sum(1 for r in view.runners if r.home) + sum(1 for k in (0, 1) if pair.squares[k] == HOME
                                                                 and not view.runners[mine[k]].home)
    out: list[tuple[float, str, Pair]] = []
    for k in (0, 1):
        square, other = pair.squares[k], pair.squares[1 - k]
        if square == HOME or (leaving and k not in leaving):
            continue
        held = frozenset() if other in (START, HOME) else frozenset({other})
        found = moves(rules, Runner(square, pair.carrots, pair.lettuces), pair.must[k], held, home_count)
        cost = COST[HOME - square]
        if other != HOME and cost <= pair.carrots and not any(m.square == HOME for m in found):
            # the first of the pair goes HOME with any carrots and lettuces
            found.append(Move("TO HOME", HOME, pair.carrots - cost, pair.lettuces))
        for m in found:
            after = _after(rules, view, k, m, pair, mine)
            meal = 1.0 if after.lettuces < m.lettuces else 0.0
            out.append((pair_value(rules.name, after, len(view.runners)) + meal, f"{names[k]} {m.text}", after))
    return sorted(out, key=lambda o: (round(o[0], 6), o[1]))


def _fallbacks(runners: Sequence[RunnerView]) -> list[tuple[str, str]]:
    """The chain's last alternatives: the rear runner on, then the other."""
    racing = sorted((r for r in runners if not r.home), key=lambda r: (r.square, r.name))
    out = []
    for r in racing:
        out += [(f"{r.name} NEXT CARROT", f"if every move above is blocked: {r.name} to the next free carrot square"),
                (f"{r.name} NEXT", f"failing that, {r.name} to the next free square")]
    return out


def _chain(scored: list[tuple[float, str, Pair]], runners: Sequence[RunnerView], where: str) -> list[tuple[str, str]]:
    alternatives = [(text, f"{where}{v:.1f} slots to bring both runners HOME after it, by the value table")
                    for v, text, _ in scored[:WIDTH]]
    alternatives += [f for f in _fallbacks(runners) if f[0] not in {a for a, _ in alternatives}]
    while len(" ELSE ".join(a for a, _ in alternatives)) > MAX_CHAIN and len(alternatives) > 2:
        alternatives.pop(WIDTH // 2)
    return alternatives


def pair_sheet(view: View) -> str:
    """The sheet of a seat of two runners: a ranked chain for each of its slots this turn (the
    second from where the first's best move leaves the pair), a DEFAULT line and a HARE line."""
    seat = view.viewer.seat
    assert seat is not None and seat >= 0, "a computer player plays a seat"
    rules = find_ruleset(view.ruleset, view.options)
    mine = (2 * seat, 2 * seat + 1)
    runners = [view.runners[i] for i in mine]
    pair = Pair((HOME if runners[0].home else runners[0].square, HOME if runners[1].home else runners[1].square),
                (runners[0].must, runners[1].must), runners[0].carrots or 0, runners[0].lettuces)
    lines: list[str] = []
    slots = view.sequence.count(seat) or 1
    for k in range(slots):
        scored = _options(rules, view, pair, mine)
        where = "" if k == 0 else "after the first slot's first choice: "
        lines += commented_line(f"MOVE {k + 1}", _chain(scored, runners, where))
        if not scored:
            break
        pair = scored[0][2]
    lines += commented_line("DEFAULT", _fallbacks(runners))
    return "\n".join(lines) + "\n" + hare_line(view, pair.carrots > 80)
