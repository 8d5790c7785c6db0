"""Sam, the computer player of Hare and Hedgehog (RULESETS.md, "Sam, the computer player").

Sam writes an ordinary order sheet in the order language from its own view only: its own carrots,
the public position and the turn's order of play. It never sees the deck order, other players'
carrots or sheets. It needs no chance: the same view gives the same sheet.
"""

from __future__ import annotations

from pbem.games.base import Bot
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.view import View

#: Sam's chain, tried left to right at every slot: home when it may, lettuces while it can
#: afford them, carrots when short, shed a hoard near the end, and otherwise a move sized to
#: what it holds. The conditions read the position at the slot, so the runners that move before
#: Sam in the turn are allowed for.
_CHAIN = (
    "HOME",
    "IF LETTUCES > 0 AND CARROTS > 30 THEN NEXT LETTUCE",
    "IF CARROTS < 12 THEN BACK",
    "IF CARROTS < 12 THEN STAY",
    "IF LETTUCES = 0 AND MY SQUARE > 54 AND CARROTS > 20 THEN STAY GIVE",
    "IF CARROTS > 120 AND MY SQUARE > 24 THEN BACK",
    "IF CARROTS > 120 THEN ADVANCE 30",
    "IF CARROTS > 120 THEN ADVANCE 20",
    "IF CARROTS > 90 THEN ADVANCE 8",
    "IF CARROTS > 50 THEN ADVANCE 5",
    "ADVANCE 3",
    "ADVANCE 2",
    "ADVANCE 1",
    "NEXT",
    "BACK",
)
CHAIN = " ELSE ".join(_CHAIN)

#: Sam's HARE line by the ruleset's choice words
_HARE = {
    ("TAKE", "GIVE"): "IF CARROTS >= 40 THEN GIVE ELSE TAKE",
    ("TAKE", "GIVE", "NONE"): "IF CARROTS >= 40 THEN GIVE ELSE TAKE",
    ("KEEP", "REFUSE"): "IF CARROTS > 80 THEN REFUSE ELSE KEEP",
}


#: the longest chain Sam writes on one line ("MOVE 99: " and the chain within the 500 of an order line)
MAX_CHAIN = 480


def two_player_chain(seat: str) -> str:
    """Two-player (two runners from one supply): the chain every computer player writes. Either
    runner goes HOME once the supply's lettuces are eaten (the first needs nothing more, the
    second the limit); each runner takes the next lettuce square while the supply can pay;
    past the last lettuce squares with a lettuce left, a runner falls back to find one; near
    the end a runner on a carrot square sheds carrots; otherwise the default move moves the
    rear runner on (RULESETS.md, "two-player", step 4)."""
    one, two = f"{seat}1", f"{seat}2"
    alternatives = [
        f"IF LETTUCES = 0 THEN {one} HOME",
        f"IF LETTUCES = 0 THEN {two} HOME",
        f"IF LETTUCES > 0 AND CARROTS > 25 THEN {one} NEXT LETTUCE",
        f"IF LETTUCES > 0 AND CARROTS > 25 THEN {two} NEXT LETTUCE",
        f"IF LETTUCES > 0 AND MY SQUARE > 57 THEN {one} BACK",
        f"IF LETTUCES > 0 AND MY SQUARE > 57 THEN {two} BACK",
        f"IF MY SQUARE > 44 AND CARROTS > 35 THEN {one} STAY GIVE",
        f"IF MY SQUARE > 44 AND CARROTS > 35 THEN {two} STAY GIVE",
    ]
    # a long seat name: the last alternatives go (the default move takes their place)
    while len(" ELSE ".join(alternatives)) > MAX_CHAIN and len(alternatives) > 2:
        alternatives.pop()
    return " ELSE ".join(alternatives)


def two_player_sheet(view: View) -> str:
    """The sheet of a computer player in a two-player game (every level writes this one)."""
    seat = view.viewer.seat
    assert seat is not None and seat >= 0, "a computer player plays a seat"
    chain = two_player_chain(view.seats[seat])
    slots = view.sequence.count(seat)
    lines = [f"MOVE {k}: {chain}" for k in range(1, slots + 1)]
    lines.append(f"DEFAULT: {chain}")
    hare = _HARE.get(find_ruleset(view.ruleset, view.options).choices)
    if hare is not None:
        lines.append(f"HARE: {hare}")
    return "\n".join(lines) + "\n"


class Sam(Bot[View]):
    """Sam: one MOVE line per slot it has this turn, a DEFAULT line, and a HARE line."""

    def write(self, view: View, chance: Chance) -> str:  # noqa: ARG002 - Sam needs no chance
        if view.per_seat > 1:
            return two_player_sheet(view)
        seat = view.viewer.seat
        slots = view.sequence.count(seat) if seat is not None else 0
        lines = [f"MOVE {k}: {CHAIN}" for k in range(1, slots + 1)]
        lines.append(f"DEFAULT: {CHAIN}")
        choices = find_ruleset(view.ruleset, view.options).choices
        hare = _HARE.get(choices)
        if hare is not None:
            lines.append(f"HARE: {hare}")
        return "\n".join(lines) + "\n"
