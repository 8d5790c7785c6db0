"""Goofspiel as a pbem game from a distribution of its own: bids face down for the prize turned up."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property

from goofspiel import view as views
from goofspiel.orders import parse_lines
from goofspiel.present import GoofspielPresenter
from goofspiel.rules import CARDS, Bids, Event, State, new_state, resolve
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
from pbem.games.sheet import Sheet

__all__ = ["GAME", "Goofspiel"]

#: lines a player might send that the sheet must reject, for the random games of the generic tests
MALFORMED = ("BID 14", "BID SEVEN", "BID", "BID 3 IF PRIZE", "BID 3 IF PRIZE >> 4", "BID 5 IF CARROTS > 3",
             "BID 2 IF PRIZE = 20", "Hello all!", "PLAY 4", "BID 3 IF PRIZE = 4 AND MORE")


class Goofspiel(Game[State, Bids, Event, views.View]):
    info = GameInfo(
        name="goofspiel",
        title="Goofspiel",
        summary="every player bids one card face down for the prize turned up; the highest bid nobody matched takes it",
        rulesets=(RulesetInfo("standard", "Standard", "thirteen cards each, thirteen prizes", (), 2, 4),),
        aliases=("gops",),
        moves=Moves.SIMULTANEOUS,
        information=Information.IMPERFECT,
        resolve_on_receipt=True,  # every seat bids every turn: the turn is due once every bid is in
        bot_levels=("simple",),
    )
    max_random_turns = len(CARDS)

    def new_state(self, setup: Setup, chance: Chance) -> State:
        self.info.check_setup(setup.ruleset, setup.options, len(setup.seats))
        names = tuple(s.name for s in setup.seats)
        if len({n.lower() for n in names}) != len(names):
            raise PbemError("two players have the same name (ignoring case); names must differ")
        for name in names:
            self.check_seat_name(name)
        return new_state(names, chance.shuffle(list(CARDS)))

    def check_seat_name(self, name: str) -> None:
        if not name[:1].isalpha() or not name.isalnum() or not name.isascii():
            raise PbemError(f"player name {name!r}: use letters and digits only, starting with a letter")

    def parse(self, state: State, sheet: Sheet, author: int) -> Parsed[Bids]:
        bids, echo = parse_lines(sheet.lines, state.hands[author])
        return Parsed(bids, echo, len(bids.lines), 0)

    def resolve(self, state: State, orders: Mapping[int, Bids], chance: Chance) -> TurnOutcome[State, Event]:
        return TurnOutcome(*resolve(state, orders))

    def result(self, state: State) -> Result:
        scores = state.scores
        ranked = sorted(range(len(state.seats)), key=lambda s: (-scores[s], s))
        places = tuple(Place(s, state.seats[s], 1 + sum(x > scores[s] for x in scores) if state.over else None,
                             f"{scores[s]} points") for s in ranked)
        return Result(state.over, places, tuple(state.seats[s] for s in views.winners(state)))

    def view(self, state: State, viewer: Viewer) -> views.View:
        return views.view(state, viewer)

    def redact(self, resolution: Event, viewer: Viewer) -> Event:
        return views.redact(resolution, viewer)

    def vary_hidden(self, state: State, resolutions: Sequence[Event], seat: int,
                    seed: int) -> tuple[State, tuple[Event, ...]]:
        return views.vary_hidden(state, resolutions, seat, seed)

    def public_orders(self, state: State, sheet: Sheet, seat: int, resolutions: Sequence[Event]) -> None:
        """Nothing while the game runs: a sheet's conditions read the writer's own hand, and the
        bid each seat gave is public through the turn's resolutions."""
        return None

    @cached_property
    def presenter(self) -> GoofspielPresenter:
        return GoofspielPresenter()

    @cached_property
    def cases(self) -> CaseCodec:
        from goofspiel.cases import GoofspielCases

        return GoofspielCases()

    def bot(self, level: str) -> Bot[views.View] | None:
        from goofspiel.bots import Simple

        return Simple() if level.strip().lower() == "simple" else None

    def random_sheet(self, state: State, seat: int, rng: random.Random) -> str:
        """One to three bid lines, some conditional, some for spent cards, now and then a malformed one."""
        lines = []
        for _ in range(rng.randint(0, 3)):
            target = rng.choice(["HIGHEST", "LOWEST", "PRIZE", *map(str, state.hands[seat]), str(rng.randint(1, 13))])
            condition = f" IF PRIZE {rng.choice(['=', '!=', '<', '<=', '>', '>='])} {rng.randint(1, 13)}"
            lines.append(f"BID {target}{condition if rng.random() < 0.4 else ''}")
        if rng.random() < 0.3:
            lines.insert(rng.randint(0, len(lines)), rng.choice(MALFORMED))
        return "\n".join(lines)

    def sheet_key(self, state: State, seat: int) -> Hashable:
        return state.hands[seat]


GAME = Goofspiel()
