"""PREVIEW: what a sheet would do on the current position if the other runners stood still.

Slot by slot, the seat's own slots are played on a copy of the position with the engine's own
stages, and each alternative of the chain is told: taken, or why it was skipped. No die is ever
thrown: at a hare square the preview names the results the die could give and stops, since
every later slot depends on it. Nothing of another seat is shown beyond what the board shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.board import HOME
from pbem.games.hare_tortoise.narrate import slot_action, square_name
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.resolution import Outcome, Slot, Tried
from pbem.games.hare_tortoise.rules import HareTable, Ruleset
from pbem.games.hare_tortoise.state import State


class _DieNeeded(Exception):
    """The preview reached a throw of the die: it stops there."""


class _NoDice:
    """A chance source that refuses to draw: the preview never uses the game's dice."""

    turn = 0
    drawn: list[Any] = []  # noqa: RUF012 - never appended to: every draw raises first

    def die(self, sides: int) -> NoReturn:
        raise _DieNeeded

    def uniform(self, n: int) -> NoReturn:
        raise _DieNeeded

    def shuffle(self, items: Sequence[Any]) -> NoReturn:
        raise _DieNeeded


_ARRAYS = ("sq", "car", "let", "place", "must", "skip", "occ")


def _saved(t: engine._Turn) -> tuple[dict[str, Any], int]:
    """The working position's arrays (copied, each of its own type) and HOME count, to put back
    when a slot stops at a hare square."""
    return {name: type(v)(v) for name in _ARRAYS for v in (getattr(t, name),)}, t.home_count


def _restore(t: engine._Turn, saved: tuple[dict[str, Any], int]) -> None:
    arrays, t.home_count = saved
    for name, values in arrays.items():
        setattr(t, name, values)


def _tried_lines(tried: Sequence[Tried]) -> list[str]:
    out = []
    for t in tried:
        if t.outcome == "taken":
            out.append(f"     alternative {t.number} `{t.text}`: taken")
        else:
            out.append(f"     alternative {t.number} `{t.text}`: skipped, {t.reason}")
    return out


def _possible(rules: Ruleset, position: int) -> str:
    hare = rules.hare
    if isinstance(hare, HareTable):
        effects = []
        for die in range(1, hare.sides + 1):
            effect = hare.table.get(die + position)
            label = effect.name.lower().replace("_", " ") if effect is not None else "nothing"
            effects.append(f"{die}: {label}")
        return "the die decides (" + "; ".join(effects) + ")"
    return "chance decides what the hare square does"


def preview(rules: Ruleset, state: State, sheet: OrderSheet, seat: int) -> list[str]:
    """The account of the seat's slots, as lines of plain text."""
    if state.over:
        return ["The game is over: there is nothing to preview."]
    slots = [s for s in engine.turn_sequence(state, rules.postal_rotation) if s == seat]
    if not slots:
        return [f"{state.seats[seat]} has no move slot in turn {state.turn}."]
    if state.per_seat > 1:
        return _preview_two(rules, state, sheet, seat, len(slots))
    t = engine._Turn(rules, state)  # noqa: SLF001 - the engine's own working position, copied
    lines, beyond, choose = engine._orders(sheet, t.tab)  # noqa: SLF001
    t.choose = [None] * t.n
    t.choose[seat] = choose
    # the hare deck's order is hidden: the preview sees an empty pile, so a draw stops it like a die
    t.deck, t.used = [], []
    me = state.runners[seat]
    out = [f"Turn {state.turn}, {len(slots)} slot{'s' if len(slots) != 1 else ''}; you start on "
           f"{square_name(me.square)} with {me.carrots} carrots and {me.lettuces} lettuces. The other runners "
           "are taken to stand still; no die is thrown."]
    for used in range(len(slots)):
        if t.sq[seat] == HOME:
            break
        line = lines[used] if used < len(lines) else beyond
        saved = _saved(t)
        try:
            slot, _again = engine._play_slot(t, seat, line, _NoDice(), used + 1, False)  # noqa: SLF001
        except _DieNeeded:
            _restore(t, saved)
            s0 = t.sq[seat]
            engine._stage_number_bonus(t, seat, s0, t.pos_at(s0))  # noqa: SLF001
            move, tried, _rule = engine._stage_orders(t, seat, line[1])  # noqa: SLF001
            target = move[1] if move is not None else s0
            out.append(f"Slot {used + 1} ({line[0]}): moves from {square_name(s0)} to hare {square_name(target)}.")
            out += _tried_lines(tried)
            t.sq[seat] = target
            out.append(f"     on the hare square {_possible(rules, t.pos_at(target))}.")
            out.append("The preview stops here: every later slot depends on the die.")
            return out
        out += _slot_lines(slot, line[0])
    out.append(f"You would end on {square_name(t.sq[seat])} with {t.car[seat]} carrots and {t.let[seat]} lettuces.")
    return out


def _preview_two(rules: Ruleset, state: State, sheet: OrderSheet, seat: int, count: int) -> list[str]:
    """Two-player: the seat's slots, each moving one of its two runners from the one supply."""
    t = engine._Turn(rules, state)  # noqa: SLF001 - the engine's own working position, copied
    lines, beyond, choose = engine._orders(sheet, t.tab)  # noqa: SLF001
    t.choose = [None] * t.n
    mine = state.seat_runners(seat)
    for j in mine:
        t.choose[j] = choose
    t.deck, t.used = [], []
    where = " and ".join(f"{state.runners[j].name} on {square_name(state.runners[j].square)}" for j in mine)
    me = state.runners[mine[0]]
    out = [f"Turn {state.turn}, {count} slot{'s' if count != 1 else ''}; you start with {where}, and "
           f"{me.carrots} carrots and {me.lettuces} lettuces. The other runners are taken to stand still; no die "
           "is thrown."]
    for used in range(count):
        if all(t.sq[j] == HOME for j in mine):
            break
        line = lines[used] if used < len(lines) else beyond
        saved = _saved(t)
        try:
            slot, _again = engine._play_two_slot(t, seat, line, _NoDice(), used + 1, False)  # noqa: SLF001
        except _DieNeeded:
            _restore(t, saved)
            racing = [j for j in mine if t.sq[j] != HOME]
            move, runner, tried, _rule = engine._two_orders(t, seat, racing, line[1])  # noqa: SLF001
            s0 = t.sq[runner]
            target = move[1] if move is not None else s0
            out.append(f"Slot {used + 1} ({line[0]}): {t.names[runner]} moves from {square_name(s0)} to hare "
                       f"{square_name(target)}.")
            out += _tried_lines(tried)
            out.append("The preview stops here: every later slot depends on the hare square.")
            return out
        out += _slot_lines(slot, line[0], two=True)
    places = " and ".join(f"{t.names[j]} on {square_name(t.sq[j])}" for j in mine)
    out.append(f"You would end with {places}, and {t.car[mine[0]]} carrots and {t.let[mine[0]]} lettuces.")
    return out


def _slot_lines(slot: Slot, label: str, two: bool = False) -> list[str]:
    head = f"Slot {slot.number} ({label}): {slot_action(slot)}"
    if two and slot.outcome is not Outcome.MISSED:  # two-player: which runner
        head = f"Slot {slot.number} ({label}): {slot.name} {slot_action(slot)}"
    figures = []
    if slot.paid:
        figures.append(f"pays {slot.paid}")
    if slot.drew:
        figures.append(f"draws {slot.drew}")
    if slot.bonus:
        figures.append(f"number-square bonus {slot.bonus}")
    if figures:
        head += f" ({', '.join(figures)} carrots)"
    out = [head + "."]
    out += _tried_lines(slot.tried)
    if slot.rule:
        out.append(f"     by rule: {slot.rule}")
    return out
