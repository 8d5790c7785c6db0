"""Hare & Tortoise (David Parlett) as a pbem game: the engine, its orders, views, presenter and cases."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from pbem.errors import PbemError
from pbem.games.base import (
    Bot,
    Game,
    GameInfo,
    Information,
    Moves,
    Parsed,
    Place,
    Result,
    RulesetInfo,
    Setup,
    TurnOutcome,
    Viewer,
)
from pbem.games.chance import Chance
from pbem.games.codec import CaseCodec
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise import view as views
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.orders.parser import KEYWORDS, parse_lines
from pbem.games.hare_tortoise.present import HarePresenter
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import RULESETS, find_ruleset
from pbem.games.hare_tortoise.serialize import slot_from_json, slot_to_json
from pbem.games.hare_tortoise.state import State
from pbem.games.sheet import Accepted, Echo, Ignored, Rejected, Rejection, Sheet

__all__ = ["GAME", "HareTortoise"]


def _ruleset_info(cls: Any) -> RulesetInfo:
    return RulesetInfo(cls.name, cls.title, getattr(cls, "summary", ""), tuple(cls.aliases), cls.min_players,
                       cls.max_players, ())


class HareTortoise(Game[State, OrderSheet, Slot]):
    info = GameInfo(
        name="hare-tortoise",
        title="Hare & Tortoise",
        summary="David Parlett's race of carrots and lettuces, by conditional orders for every move slot",
        rulesets=tuple(_ruleset_info(cls) for cls in RULESETS.values()),
        aliases=("hare-and-tortoise", "hare_tortoise", "ht", "hare&tortoise"),
        moves=Moves.SIMULTANEOUS,
        information=Information.IMPERFECT,
    )
    schema_version = 1

    def check_seat_name(self, name: str) -> None:
        if not name[:1].isalpha() or not name.isalnum() or not name.isascii():
            raise PbemError(f"player name {name!r}: use letters and digits only, starting with a letter")
        if name.lower() in KEYWORDS:
            raise PbemError(f"player name {name!r} is a word of the order language; choose another")

    def new_state(self, setup: Setup, chance: Chance) -> State:
        rules = find_ruleset(setup.ruleset)
        seen: set[str] = set()
        for seat in setup.seats:
            self.check_seat_name(seat.name)
            if seat.name.lower() in seen:
                raise PbemError(f"two players are called {seat.name!r}; names must differ (ignoring case)")
            seen.add(seat.name.lower())
        return engine.new_state(rules, [s.name for s in setup.seats])

    def turn(self, state: State) -> int:
        return state.turn

    def seats(self, state: State) -> tuple[str, ...]:
        return state.seats

    def to_move(self, state: State) -> tuple[int, ...]:
        if state.over:
            return ()
        return tuple(sorted(set(engine.turn_sequence(state))))

    def parse(self, state: State, sheet: Sheet, author: int) -> Parsed[OrderSheet]:
        orders = parse_lines(sheet.lines, state.seats)
        echo: list[Echo] = [Accepted(a.line, a.text, a.canonical) for a in orders.accepted]
        echo += [Rejected(r.line, r.column, r.text, r.reason, Rejection(getattr(r, "kind", "invalid")))
                 for r in orders.rejected]
        echo += [Ignored(i.line, i.text) for i in orders.ignored]
        expected = engine.turn_sequence(state).count(author) if not state.over else 0
        return Parsed(orders, tuple(echo), len(orders.moves), expected)

    def resolve(self, state: State, orders: Mapping[int, OrderSheet], chance: Chance) -> TurnOutcome[State, Slot]:
        sheets = [orders.get(i) for i in range(len(state.runners))]
        result = engine.resolve_turn(find_ruleset(state.ruleset), state, sheets, chance)
        return TurnOutcome(result.state, result.slots)

    def result(self, state: State) -> Result:
        places = sorted(
            (Place(i, r.name, r.place, r.square_label) for i, r in enumerate(state.runners)),
            key=lambda p: (p.place or 99, state.position(p.seat)),
        )
        winners = tuple(r.name for r in state.runners if r.place == 1) if state.over else ()
        return Result(state.over, tuple(places), winners)

    def is_over(self, state: State) -> bool:
        return state.over

    def view(self, state: State, viewer: Viewer) -> views.View:
        return views.view(state, viewer)

    def redact(self, resolution: Slot, viewer: Viewer) -> Slot:
        return views.redact(resolution, viewer)

    def vary_hidden(self, state: State, resolutions: Sequence[Slot], seat: int, seed: int) -> tuple[State, tuple[Slot, ...]]:
        return views.vary_hidden(state, resolutions, seat, seed)

    def state_to_json(self, state: State) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return State.from_json(dict(data))

    def resolution_to_json(self, resolution: Slot) -> dict[str, Any]:
        return slot_to_json(resolution)

    def resolution_from_json(self, data: Mapping[str, Any]) -> Slot:
        return slot_from_json(dict(data))

    def bot(self, level: str) -> Bot[State] | None:
        from pbem.games.hare_tortoise.bots import bot  # the computer players, loaded when used

        return bot(level)  # type: ignore[return-value]

    @cached_property
    def presenter(self) -> HarePresenter:
        return HarePresenter()

    @cached_property
    def cases(self) -> CaseCodec:
        from pbem.games.hare_tortoise.cases import HareCases  # the case driver's part, loaded when used

        return HareCases()


GAME = HareTortoise()
