"""If Badger was a Bunny (Justus Pang) as a pbem game: a climbing race with the Decktet by mail."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property

from pbem.errors import PbemError
from pbem.games.badger_bunny import engine
from pbem.games.badger_bunny import view as views
from pbem.games.badger_bunny.cards import Deck
from pbem.games.badger_bunny.events import Event, Kind
from pbem.games.badger_bunny.orders import KEYWORDS, BadgerOrders, parse_lines
from pbem.games.badger_bunny.present import BadgerPresenter
from pbem.games.badger_bunny.state import State
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
from pbem.games.chance import Chance
from pbem.games.codec import CaseCodec
from pbem.games.sheet import Accepted, Echo, Ignored, Rejected, Sheet

__all__ = ["GAME", "BadgerBunny"]

OPTIONS = ("excuse", "tournament")


def deck_of(ruleset: str, options: Sequence[str]) -> Deck:
    return Deck(extended=ruleset == "extended", excuse="excuse" in options)


class BadgerBunny(Game[State, BadgerOrders, Event, views.View]):
    info = GameInfo(
        name="badger-bunny",
        title="If Badger was a Bunny",
        summary="Justus Pang's two-player climbing race with the Decktet, by conditional sheets that run on",
        rulesets=(
            RulesetInfo("basic", "the basic deck (36 cards)", "aces, numbers and crowns", ("deck=basic",), 2, 2,
                        OPTIONS),
            RulesetInfo("extended", "the extended deck (44 cards)", "with the pawns and the courts",
                        ("deck=extended",), 2, 2, OPTIONS),
        ),
        options=(
            OptionInfo("excuse", "the Excuse", "adds the Excuse; 3 cards are set aside"),
            OptionInfo("tournament", "a tournament", "four races, roles alternating; on a tie, the next winner"),
        ),
        aliases=("badger", "badger_bunny", "if-badger-was-a-bunny"),
        moves=Moves.SEQUENTIAL,
        information=Information.IMPERFECT,
        resolve_on_receipt=True,
        bot_levels=("strong", "baseline"),
        rules_page="badger-bunny",
    )
    schema_version = 1
    max_random_turns = 2000

    def check_seat_name(self, name: str) -> None:
        if not name[:1].isalpha() or not name.isalnum() or not name.isascii():
            raise PbemError(f"player name {name!r}: use letters and digits only, starting with a letter")
        if name.upper() in KEYWORDS:
            raise PbemError(f"player name {name!r} is a word of the order language; choose another")

    def new_state(self, setup: Setup, chance: Chance) -> State:
        if len(setup.seats) != 2:
            raise PbemError(f"If Badger was a Bunny takes 2 players, not {len(setup.seats)}")
        for seat in setup.seats:
            self.check_seat_name(seat.name)
        if setup.seats[0].name.lower() == setup.seats[1].name.lower():
            raise PbemError("the two players need different names (ignoring case)")
        deck = deck_of(setup.ruleset, setup.options)
        race = engine.deal(chance.shuffle(deck.cards), deck, 1, engine.hare_of(1))
        names = (setup.seats[0].name, setup.seats[1].name)
        return State(names, deck, "tournament" in setup.options, 1, race)

    def to_move(self, state: State) -> tuple[int, ...]:
        return () if state.over else (state.race.act,)

    def may_send(self, state: State) -> tuple[int, ...]:
        return () if state.over else (0, 1)

    def parse(self, state: State, sheet: Sheet, author: int) -> Parsed[BadgerOrders]:
        orders, readings = parse_lines(sheet.lines, state.deck)
        echo: list[Echo] = []
        for line, r in readings:
            if r.kind == "ignored":
                echo.append(Ignored(line.number, line.raw))
            elif r.error is not None:
                echo.append(Rejected(line.number, r.error.column, line.raw, r.error.reason, r.error.kind))
            else:
                echo.append(Accepted(line.number, line.raw, r.canonical))
        return Parsed(orders, tuple(echo), len(orders.turns), 0)

    def resolve(self, state: State, orders: Mapping[int, BadgerOrders], chance: Chance) -> TurnOutcome[State, Event]:
        after, events = engine.run(state, [orders.get(0), orders.get(1)])
        if after.race.over and not after.over:
            after, setup = engine.next_race(after, chance.shuffle(after.deck.cards), after.seats)
            events.append(setup)
        return TurnOutcome(replace(after, turn=state.turn + 1), tuple(events))

    def result(self, state: State) -> Result:
        race = state.race
        places = []
        for s in (0, 1):
            detail = f"{race.role(s)}, {len(race.hands[s])} in hand, {len(race.decks[s])} in deck"
            if state.tournament:
                detail += f", {state.totals[s]} points"
            place: int | None = None
            if state.over:
                if state.tournament:
                    place = 1 if state.champion == s else 2
                else:
                    place = 1 if race.winner in (s, None) else 2
            places.append(Place(s, state.seats[s], place, detail))
        winners: tuple[str, ...] = ()
        if state.over:
            win = state.champion if state.tournament else race.winner
            winners = (state.seats[win],) if win is not None else ()
        return Result(state.over, tuple(places), winners)

    def view(self, state: State, viewer: Viewer) -> views.View:
        return views.view(state, viewer)

    def redact(self, resolution: Event, viewer: Viewer) -> Event:
        return views.redact(resolution, viewer)

    def private_to(self, resolution: Event) -> int | None:
        """A sheet's notes (lines rejected, lines that lapsed) are its writer's alone."""
        return resolution.seat if resolution.kind is Kind.SHEET else None

    def vary_hidden(self, state: State, resolutions: Sequence[Event], seat: int,
                    seed: int) -> tuple[State, tuple[Event, ...]]:
        return views.vary_hidden(state, resolutions, seat, seed)

    def public_orders(self, state: State, sheet: Sheet, seat: int, resolutions: Sequence[Event]) -> tuple[str, ...]:
        """The sheet as the moves it made: `PLAY <cards>` or `PASS` for each of the seat's turns,
        in order. Never a line that was not used (it names cards still in her hand), and never a
        used line as written: an `I HOLD` condition, or an earlier alternative passed over as
        illegal, gives her hand away; and which passes used a line at all (a forced pass uses
        none) is hers alone (the rules: a sheet and how it was evaluated are hidden; every
        set played and every pass is public)."""
        return tuple("PASS" if e.kind is Kind.PASS else "PLAY " + " ".join(e.cards) for e in resolutions
                     if e.seat == seat and e.kind in (Kind.PLAY, Kind.PASS))

    @cached_property
    def presenter(self) -> BadgerPresenter:
        return BadgerPresenter()

    @cached_property
    def cases(self) -> CaseCodec:
        from pbem.games.badger_bunny.cases import BadgerCases

        return BadgerCases()

    def bot(self, level: str) -> Bot[views.View] | None:
        from pbem.games.badger_bunny.bots import find_bot

        return find_bot(level)

    def random_sheet(self, state: State, seat: int, rng: random.Random) -> str:
        from pbem.games.badger_bunny.testing import random_sheet

        return random_sheet(state, seat, rng)

    def sheet_key(self, state: State, seat: int) -> Hashable:
        return state.deck


GAME = BadgerBunny()
