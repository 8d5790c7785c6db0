"""Hare & Tortoise (David Parlett) behind the game protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import PbemError
from pbem.games.base import Game, Standing, TurnOutcome
from pbem.games.chance import ChanceSource
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import DEFAULT_RULESET, RULESETS, find_ruleset
from pbem.games.hare_tortoise.serialize import slot_from_json, slot_to_json
from pbem.games.hare_tortoise.state import Runner, State
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.orders.parser import KEYWORDS, parse_sheet

__all__ = ["HareTortoise", "Runner", "Slot", "State"]


class HareTortoise(Game[State, OrderSheet, Slot]):
    name = "hare-tortoise"
    title = "Hare & Tortoise"
    aliases = ("hare-and-tortoise", "hare_tortoise", "ht", "hare&tortoise")
    min_players = 2
    max_players = 6
    rulesets = tuple(RULESETS)
    default_ruleset = DEFAULT_RULESET

    def new_state(self, players: Sequence[str], *, ruleset: str | None = None, seed: int = 0) -> State:
        rules = find_ruleset(ruleset)
        seen: set[str] = set()
        for p in players:
            if not p[:1].isalpha() or not p.isalnum() or not p.isascii():
                raise PbemError(f"player name {p!r}: use letters and digits only, starting with a letter")
            if p.lower() in KEYWORDS:
                raise PbemError(f"player name {p!r} is a word of the order language; choose another")
            if p.lower() in seen:
                raise PbemError(f"two players are called {p!r}; names must differ (ignoring case)")
            seen.add(p.lower())
        return engine.new_state(rules, players)

    def parse_orders(self, state: State, text: str) -> OrderSheet:
        return parse_sheet(text, state.seats)

    def resolve_turn(
        self, state: State, orders: Mapping[str, OrderSheet], chance: ChanceSource
    ) -> TurnOutcome[State, Slot]:
        by_seat = {k.lower(): v for k, v in orders.items()}
        sheets = [by_seat.get(r.name.lower()) for r in state.runners]
        result = engine.resolve_turn(find_ruleset(state.ruleset), state, sheets, chance)
        return TurnOutcome(result.state, result.slots)

    def turn(self, state: State) -> int:
        return state.turn

    def is_over(self, state: State) -> bool:
        return state.over

    def standings(self, state: State) -> list[Standing]:
        rows = [
            Standing(r.name, r.place, state.position(i), r.square_label)
            for i, r in enumerate(state.runners)
        ]
        return sorted(rows, key=lambda s: (s.place or 99, s.position))

    def player_view(self, state: State, player: str | None) -> dict[str, Any]:
        data = state.to_json()
        if player is not None:
            for r in data["runners"]:
                if r["name"].lower() != player.lower():
                    r["carrots"] = None
        return data

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def resolution_to_json(self, resolution: Slot) -> dict[str, Any]:
        return slot_to_json(resolution)

    def resolution_from_json(self, data: Mapping[str, Any]) -> Slot:
        return slot_from_json(dict(data))
