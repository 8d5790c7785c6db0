"""Gary Kim's card race of the hare and the tortoise as a pbem game: engine, orders, views, cases."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property

from pbem.errors import PbemError
from pbem.games.base import (
    Bot,
    Game,
    GameInfo,
    Information,
    Moves,
    OptionInfo,
    Parsed,
    Place,
    Result,
    RulesetInfo,
    Setup,
    TurnOutcome,
    Viewer,
)
from pbem.games.card_race import engine
from pbem.games.card_race import view as views
from pbem.games.card_race.cards import CHAMPIONSHIP, SINGLE
from pbem.games.card_race.orders import KEYWORDS, Orders, played_line
from pbem.games.card_race.parse import parse_lines
from pbem.games.card_race.present import CardRacePresenter
from pbem.games.card_race.resolution import Event, Kind
from pbem.games.card_race.state import State
from pbem.games.chance import Chance
from pbem.games.codec import CaseCodec
from pbem.games.sheet import Sheet

__all__ = ["GAME", "CardRace"]


class CardRace(Game[State, Orders, Event, views.View]):
    info = GameInfo(
        name="card-race",
        title="The Hare & the Tortoise card race",
        summary="Gary Kim's betting race of hare, tortoise, wolf, fox and lamb: secret bets, hidden hands, "
                "one cycle of conditional card play per mail turn",
        rulesets=(
            RulesetInfo("standard", "Standard", "81 cards, naps, howls and streams", (), 2, 5, ("championship",)),
            RulesetInfo("apprentice", "Apprentice", "65 cards, turbo tokens, one crossing ends the race",
                        ("young",), 2, 5, ("championship",)),
        ),
        options=(OptionInfo("championship", "Championship", "three races, points added up"),),
        aliases=("card_race", "cardrace", "hare-tortoise-cards"),
        moves=Moves.SIMULTANEOUS,
        information=Information.IMPERFECT,
        resolve_on_receipt=True,  # RULES: resolved when every sheet is in, or at the deadline
        bot_levels=("strong", "baseline"),
        rules_page="card-race",
    )
    schema_version = 1
    max_random_turns = 200

    def check_seat_name(self, name: str) -> None:
        if not name[:1].isalpha() or not name.isalnum() or not name.isascii():
            raise PbemError(f"player name {name!r}: use letters and digits only, starting with a letter")
        if name.upper() in KEYWORDS:
            raise PbemError(f"player name {name!r} is a word of the order language; choose another")

    def new_state(self, setup: Setup, chance: Chance) -> State:
        rules = self.info.check_setup(setup.ruleset, setup.options, len(setup.seats))[0]
        seen: set[str] = set()
        for seat in setup.seats:
            self.check_seat_name(seat.name)
            if seat.name.lower() in seen:
                raise PbemError(f"two players are called {seat.name!r}; names must differ (ignoring case)")
            seen.add(seat.name.lower())
        mode = CHAMPIONSHIP if "championship" in setup.options else SINGLE
        return engine.new_game(rules.name, mode, [s.name for s in setup.seats], chance)

    def to_move(self, state: State) -> tuple[int, ...]:
        return () if state.over else state.racers

    def parse(self, state: State, sheet: Sheet, author: int) -> Parsed[Orders]:
        orders, echo = parse_lines(sheet.lines, ruleset=state.ruleset, betting=state.betting)
        return Parsed(orders, echo, len(orders.plays), 0)

    def resolve(self, state: State, orders: Mapping[int, Orders], chance: Chance) -> TurnOutcome[State, Event]:
        if state.over:
            raise PbemError("the game is over")
        after, events = engine.resolve_cycle(state, orders, chance)
        if after.race_over and not after.over:
            after, dealt = engine.next_race(after, chance)
            events = (*events, *dealt)
        return TurnOutcome(after, events)

    def result(self, state: State) -> Result:
        points = state.totals if state.mode == CHAMPIONSHIP else (state.last_scores or state.totals)
        ranked = sorted(range(len(state.seats)), key=lambda s: (s not in state.winners, -points[s], s))
        places = tuple(Place(s, state.seats[s], (1 if s in state.winners else None) if state.over else None,
                             f"{points[s]} points") for s in ranked)
        winners = tuple(state.seats[s] for s in state.winners) if state.over else ()
        return Result(state.over, places, winners)

    def view(self, state: State, viewer: Viewer) -> views.View:
        return views.view(state, viewer)

    def redact(self, resolution: Event, viewer: Viewer) -> Event:
        return views.redact(resolution, viewer)

    def private_to(self, resolution: Event) -> int | None:
        """A note on the writer's lines (lapsed, rejected or ignored) is hers alone."""
        return resolution.seat if resolution.kind is Kind.NOTE else None

    def vary_hidden(self, state: State, resolutions: Sequence[Event], seat: int,
                    seed: int) -> tuple[State, tuple[Event, ...]]:
        return views.vary_hidden(state, resolutions, seat, seed)

    def public_orders(self, state: State, sheet: Sheet, seat: int, resolutions: Sequence[Event]) -> tuple[str, ...]:
        """The sheet as the plays it made: `PLAY <n> <animal>` for each of the seat's card turns,
        in order. Never the bet, never a line that was not played, and never a played line as
        written: its conditions read the writer's hand, and which alternative was taken (an
        earlier one passed over as false or illegal) gives her hand away (RULES-CARD-RACE.md: a
        sheet and how it was evaluated are hidden; every card played is public)."""
        return tuple(played_line(e.played) for e in resolutions
                     if e.kind is Kind.CARD_TURN and e.seat == seat and e.played)

    def bot(self, level: str) -> Bot[views.View] | None:
        """`baseline` (the default play) or `strong` (plays for its own bets)."""
        from pbem.games.card_race.bots import Baseline, Strong

        return {"baseline": Baseline(), "strong": Strong()}.get(level.lower())

    @cached_property
    def presenter(self) -> CardRacePresenter:
        return CardRacePresenter()

    @cached_property
    def cases(self) -> CaseCodec:
        from pbem.games.card_race.cases import CardRaceCases

        return CardRaceCases()

    def random_sheet(self, state: State, seat: int, rng: random.Random) -> str:
        from pbem.games.card_race.testing import random_sheet

        return random_sheet(state, seat, rng)

    def sheet_key(self, state: State, seat: int) -> Hashable:
        return state.ruleset, state.betting


GAME = CardRace()

