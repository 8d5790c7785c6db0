"""Order lint: warnings about a sheet that parsed, never reasons to reject it.

An alternative that can never be taken (a part of its condition contradicts an earlier part:
`CARROTS > 20 AND CARROTS < 10`, `Bob IS ON 5 AND Bob IS NOT ON 5`; `STAY` off a carrot square;
a `TO` behind the runner that is not a tortoise square; a `TO` onto a tortoise square ahead, which
is reached only by falling back), more `MOVE` lines than the seat has slots, and slots left to
the default move.
"""

from __future__ import annotations

from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.board import Kind
from pbem.games.hare_tortoise.orders.model import (
    ActionKind,
    Chain,
    Compare,
    Condition,
    IAm,
    OrderSheet,
    PlayerIs,
    RunnerTest,
    condition_str,
)
from pbem.games.hare_tortoise.rules import Ruleset
from pbem.games.hare_tortoise.state import State
from pbem.orders import And, Cmp, Not


def _atoms(cond: Condition) -> list[Condition]:
    """The parts of a condition that must all hold (an AND's parts, flattened)."""
    if isinstance(cond, And):
        return [a for part in cond.parts for a in _atoms(part)]
    return [cond]


def _contradiction(cond: Condition) -> str | None:
    """Why the condition can never be true, judged from its AND-ed parts; None when it can."""
    bounds: dict[str, tuple[int, int]] = {}
    said: dict[object, tuple[bool, str]] = {}
    on: dict[int, tuple[int, str]] = {}
    for atom in _atoms(cond):
        negated = False
        inner: Condition = atom
        if isinstance(atom, Not):
            negated, inner = True, atom.inner
        if isinstance(inner, Compare) and not negated:
            lo, hi = bounds.get(inner.quantity.value, (-(10**9), 10**9))
            v = inner.value
            lo, hi = {Cmp.EQ: (max(lo, v), min(hi, v)), Cmp.LT: (lo, min(hi, v - 1)), Cmp.LE: (lo, min(hi, v)),
                      Cmp.GT: (max(lo, v + 1), hi), Cmp.GE: (max(lo, v), hi), Cmp.NE: (lo, hi)}[inner.cmp]
            if lo > hi:
                return f"`{inner}` contradicts an earlier part of the condition"
            bounds[inner.quantity.value] = (lo, hi)
            continue
        key: object
        if isinstance(inner, PlayerIs):
            negated ^= inner.negated
            key = (inner.seat, inner.test, inner.square)
            if inner.test is RunnerTest.ON and not negated:
                if inner.seat in on and on[inner.seat][0] != inner.square:
                    return f"`{inner}` contradicts `{on[inner.seat][1]}`"
                on[inner.seat] = (inner.square or 0, str(inner))
        elif isinstance(inner, IAm):
            negated ^= inner.negated
            key = ("I AM", inner.last)
        else:
            key = condition_str(inner)
        if key in said and said[key][0] != negated:
            return f"`{condition_str(atom)}` contradicts `{said[key][1]}`"
        said[key] = (negated, condition_str(atom))
    return None


def _chain_warnings(rules: Ruleset, state: State, seat: int, chain: Chain, label: str, first: bool) -> list[str]:
    out = []
    board = rules.board
    for n, alt in enumerate(chain.alternatives, start=1):
        where = f"{label}, alternative {n} `{alt}`"
        # the acting runner's square (two-player: the runner the alternative names)
        square = state.runners[seat if alt.runner is None else alt.runner].square
        if alt.condition is not None:
            why = _contradiction(alt.condition)
            if why is not None:
                out.append(f"{where} can never be taken: {why}")
        action = alt.action
        # only the first slot's square is known for sure: later slots start wherever the first ends
        if first and action.kind is ActionKind.STAY and board.kind(square) is not Kind.CARROT:
            out.append(f"{where}: STAY is allowed only on a carrot square, and you are on "
                       f"{'START' if square == 0 else f'square {square}'}")
        if first and action.kind is ActionKind.TO and action.square is not None:
            tortoise = board.kind(action.square) is Kind.TORTOISE
            if action.square < square and not tortoise:
                out.append(f"{where}: square {action.square} is behind you and not a tortoise square, "
                           "so it can never be reached")
            elif action.square > square and tortoise:
                out.append(f"{where}: square {action.square} is a tortoise square ahead of you, and a tortoise "
                           "square is reached only by falling back, so this alternative is always skipped")
    return out


def lint(rules: Ruleset, state: State, sheet: OrderSheet, seat: int) -> list[str]:
    """The warnings for a sheet of `seat` on the state's turn, each a sentence."""
    if state.over:
        return []
    slots = engine.turn_sequence(state, rules.postal_rotation).count(seat)
    out: list[str] = []
    for k, move in enumerate(sheet.moves, start=1):
        if move.chain is not None:
            out += _chain_warnings(rules, state, seat, move.chain, f"MOVE {k} (line {move.line})", k == 1)
    if sheet.default is not None:
        out += _chain_warnings(rules, state, seat, sheet.default, f"DEFAULT (line {sheet.default_line})",
                               not sheet.moves)
    if len(sheet.moves) > slots:
        out.append(f"{len(sheet.moves)} MOVE lines, but you have {slots} slot{'s' if slots != 1 else ''} this turn: "
                   f"MOVE {slots + 1} and later are never used")
    elif len(sheet.moves) < slots and sheet.default is None:
        missing = slots - len(sheet.moves)
        out.append(f"{missing} of your {slots} slots {'has' if missing == 1 else 'have'} no MOVE line and no DEFAULT: "
                   "the default move plays there")
    return out
