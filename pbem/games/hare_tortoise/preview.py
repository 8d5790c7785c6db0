"""PREVIEW: what a sheet would do on the current position if the other runners stood still.

Slot by slot, the seat's own slots are played on a copy of the position with the engine's own
stages, and each alternative of the chain is told: taken, or why it was skipped. No die is ever
thrown: at a hare square the preview names the results the die could give and stops, since
every later slot depends on it. Nothing of another seat is shown beyond what the board shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.hare_tortoise.engine import rehearse, turn_sequence
from pbem.games.hare_tortoise.narrate import slot_action, square_name
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.resolution import Outcome, Slot, Tried
from pbem.games.hare_tortoise.rules import HareTable, Ruleset
from pbem.games.hare_tortoise.state import State


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
    count = turn_sequence(state, rules.postal_rotation).count(seat)
    if not count:
        return [f"{state.seats[seat]} has no move slot in turn {state.turn}."]
    two = state.per_seat > 1  # two runners: each slot names the one it moves
    mine = [state.runners[j] for j in state.seat_runners(seat)]
    slots = f"Turn {state.turn}, {count} slot{'s' if count != 1 else ''}"
    if two:
        where = " and ".join(f"{r.name} on {square_name(r.square)}" for r in mine)
        out = [f"{slots}; you start with {where}, and {mine[0].carrots} carrots and {mine[0].lettuces} lettuces. "
               "The other runners are taken to stand still; no die is thrown."]
    else:
        out = [f"{slots}; you start on {square_name(mine[0].square)} with {mine[0].carrots} carrots and "
               f"{mine[0].lettuces} lettuces. The other runners are taken to stand still; no die is thrown."]
    played = rehearse(rules, state, sheet, seat, count)
    for slot in played.slots:
        out += _slot_lines(slot, two)
    stop = played.stop
    if stop is not None:
        runner = f"{stop.name} " if two else ""
        out.append(f"Slot {stop.number} ({stop.label}): {runner}moves from {square_name(stop.from_square)} to hare "
                   f"{square_name(stop.to_square)}.")
        out += _tried_lines(stop.tried)
        if two:
            out.append("The preview stops here: every later slot depends on the hare square.")
        else:
            out.append(f"     on the hare square {_possible(rules, stop.position)}.")
            out.append("The preview stops here: every later slot depends on the die.")
        return out
    if two:
        places = " and ".join(f"{r.name} on {square_name(square)}" for r, square in zip(mine, played.squares,
                                                                                        strict=True))
        out.append(f"You would end with {places}, and {played.carrots} carrots and {played.lettuces} lettuces.")
    else:
        out.append(f"You would end on {square_name(played.squares[0])} with {played.carrots} carrots and "
                   f"{played.lettuces} lettuces.")
    return out


def _slot_lines(slot: Slot, two: bool) -> list[str]:
    runner = f"{slot.name} " if two and slot.outcome is not Outcome.MISSED else ""  # two runners: which one
    head = f"Slot {slot.number} ({slot.order}): {runner}{slot_action(slot)}"
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
