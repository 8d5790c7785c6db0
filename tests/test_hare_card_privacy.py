"""Hare cards in other players' reports give away no carrot holding: the card HALF and the card
TAKE-GIVE are told as their die results 8 and 5 are (RULES.md: carrots are hidden; only SHOW
shows them, on purpose)."""

from __future__ import annotations

import pytest

from pbem.games.base import Viewer
from pbem.games.chance import ScriptedChance
from pbem.games.hare_tortoise import dialect, engine
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import Runner, State
from pbem.games.hare_tortoise.view import redact, vary_hidden


def _draw(ruleset: str, card: str, carrots: int, hare: str = "") -> Slot:
    """Ann (21, `carrots`) moves to the hare square 25 and draws `card`; Bob sends nothing."""
    rules = find_ruleset(ruleset)
    assert rules.deck is not None
    rest = list(rules.deck.codes)
    rest.remove(card)
    state = State(ruleset, (Runner("Ann", 21, carrots, 3), Runner("Bob", 5, 30, 3)), deck=(card, *rest))
    sheet = parse_sheet(f"MOVE: TO 25\n{hare}", ["Ann", "Bob"], dialect(rules))
    result = engine.resolve_turn(rules, state, [sheet, None], ScriptedChance(), max_slots=1)
    slot = result.slots[0]
    assert slot.hare is not None and slot.hare.card == card
    return slot


@pytest.mark.parametrize(("ruleset", "card", "carrots", "hare", "private"), [
    ("parlett-2010", "HALF", 41, "", "15"),
    ("parlett-2010", "HALF", 13, "", "1"),
    ("hase-igel-sam", "TAKE-GIVE", 15, "HARE: GIVE", "fewer than 10"),
])
def test_a_card_tells_others_no_carrot_holding(ruleset: str, card: str, carrots: int, hare: str, private: str) -> None:
    slot = _draw(ruleset, card, carrots, hare)
    assert slot.hare is not None and private in slot.hare.detail  # the drawer's own report says it
    other = redact(slot, Viewer(1)).hare
    assert other is not None and private not in other.detail
    # the same public words whatever the drawer held (the check tests/test_hidden_everywhere.py makes of every output)
    state = State(ruleset, (Runner("Ann", 25, 0, 3), Runner("Bob", 5, 30, 3)))
    _, varied = vary_hidden(state, (slot,), 0, seed=3)
    assert redact(varied[0], Viewer(1)).hare == other


def test_show_still_shows_the_carrots() -> None:
    slot = _draw("parlett-2010", "SHOW", 40)
    other = redact(slot, Viewer(1)).hare
    assert other is not None and "shows 30 carrots" in other.detail
