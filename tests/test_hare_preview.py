"""PREVIEW of a Hare & Tortoise sheet: the seat's slots played alone, stopping at a hare square."""

from __future__ import annotations

from pbem.games.hare_tortoise import GAME
from pbem.games.hare_tortoise.state import Runner, State
from pbem.games.sheet import read_sheet


def test_the_stop_at_a_hare_square_tells_the_slot_as_it_is_played() -> None:
    """Ann stands on carrot square 33, reached by moving back (inert): STAY is not allowed, so the
    default move takes her to hare square 34, where a card would be drawn. The slot the preview
    tells at that stop is the slot the turn plays, from the position as it was before the slot
    (inert square included), not one left half-played by the draw that stopped it."""
    state = State("hase-igel-sam", (Runner("Ann", 33, 64, 3), Runner("Bob", 40, 50, 3)), turn=5, inert=(0,))
    orders = GAME.parse(state, read_sheet("MOVE: STAY"), 0).orders
    assert GAME.preview(state, orders, 0) == (
        "Turn 5, 2 slots; you start on square 33 with 64 carrots and 3 lettuces. The other runners are taken to "
        "stand still; no die is thrown.",
        "Slot 1 (MOVE 1): moves from square 33 to hare square 34.",
        "     alternative 1 `STAY`: skipped, square 33 was reached by moving back and is inert: no carrots there "
        "until the runner moves",
        "     on the hare square chance decides what the hare square does.",
        "The preview stops here: every later slot depends on the die.",
    )
