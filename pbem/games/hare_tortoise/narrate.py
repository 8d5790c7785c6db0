"""Plain-words accounts of resolved slots and positions, written from the records alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.resolution import Outcome, Slot
from pbem.games.hare_tortoise.state import Must, State

if TYPE_CHECKING:
    from pbem.games.hare_tortoise.view import View


def square_name(square: int) -> str:
    return "START" if square == START else "HOME" if square == HOME else f"square {square}"


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def slot_action(slot: Slot) -> str:
    """What the runner did at the slot, with no carrot figures (public)."""
    o = slot.outcome
    if o is Outcome.MISSED:
        return "misses this slot (hare: miss a turn)"
    if o is Outcome.ATE:
        return f"eats a lettuce on {square_name(slot.from_square)}"
    if o is Outcome.STUCK:
        return f"has no legal move on {square_name(slot.from_square)} and goes back to START"
    if o is Outcome.STAY_TAKE:
        return f"stays on {square_name(slot.from_square)} and draws 10 carrots"
    if o is Outcome.STAY_GIVE:
        return f"stays on {square_name(slot.from_square)} and pays 10 carrots"
    if o is Outcome.BACK:
        return f"falls back from {square_name(slot.from_square)} to tortoise {square_name(slot.to_square)}"
    if o is Outcome.HOME:
        return f"runs from {square_name(slot.from_square)} HOME, finishing in place {slot.place}"
    landed = slot.to_square if slot.hare is None else slot.hare.square
    return f"moves from {square_name(slot.from_square)} to {square_name(landed)}"


def hare_line(slot: Slot) -> str:
    """The hare roll and what it did, in full (the player's own view)."""
    h = slot.hare
    assert h is not None
    if h.card is not None:
        return f"hare card {h.card} (position {h.position}): {h.detail}"
    return f"hare: die {h.die} + position {h.position} = {h.total}: {h.effect.value}" + (f"; {h.detail}" if h.detail else "")


def order_lines(slot: Slot) -> list[str]:
    """Which order line the slot used, every alternative tried and why, and any rule that forced
    the move: private to the player (and the GM)."""
    out = [f"order: {slot.order}" + (f": {slot.chain}" if slot.chain else "")]
    for t in slot.tried:
        verdict = "taken" if t.outcome == "taken" else f"skipped: {t.reason}"
        out.append(f"  {t.number}. {t.text} — {verdict}")
    if slot.rule:
        out.append(f"rule: {slot.rule}")
    return out


def slot_lines(slot: Slot, *, private: bool = True) -> list[str]:
    """The slot told in full; `private=False` leaves out carrots and the order details."""
    head = f"{slot.number}. {slot.name}" + (" (extra slot)" if slot.extra else "")
    ends = ""
    if slot.hare is not None and slot.hare.to_square != slot.hare.square:
        ends = f", and the hare sends it to {square_name(slot.hare.to_square)}"
    lines = [f"{head} {slot_action(slot)}{ends}"]
    if slot.hare is not None:
        lines.append(f"   {hare_line(slot)}")
    if private and slot.carrots_before is not None and slot.carrots_after is not None:
        lines += [f"   {line}" for line in order_lines(slot)]
        if slot.bonus:
            lines.append(f"   number square bonus: +{slot.bonus} carrots (position {slot.position})")
        delta = slot.carrots_after - slot.carrots_before
        lines.append(
            f"   carrots {slot.carrots_before} -> {slot.carrots_after} ({_signed(delta)}), "
            f"lettuces {slot.lettuces_before} -> {slot.lettuces_after}"
        )
    return lines


def position_lines(state: State | View) -> list[str]:
    """Every runner (carrots as the state or view holds them: '?' where hidden)."""
    out = []
    for r in state.runners:
        extras = []
        if r.place is not None:
            extras.append(f"place {r.place}")
        if r.must is not Must.NONE:
            extras.append(f"must {r.must.value}")
        if r.skip:
            extras.append("misses next slot")
        tail = f" ({', '.join(extras)})" if extras else ""
        carrots = "?" if r.carrots is None else r.carrots
        out.append(f"{r.name:<10} {r.square_label:>5}  carrots {carrots:>3}  lettuces {r.lettuces}{tail}")
    return out
