"""Hare & Tortoise (David Parlett) as a pbem game: the engine, its orders, views, presenter and cases."""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from functools import cached_property
from typing import Any

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
from pbem.games.chance import Chance
from pbem.games.codec import CaseCodec
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise import view as views
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.games.hare_tortoise.orders.parser import KEYWORDS, Dialect, TwoPlayer, parse_lines
from pbem.games.hare_tortoise.present import HarePresenter
from pbem.games.hare_tortoise.resolution import Slot
from pbem.games.hare_tortoise.rules import RULESETS, Ruleset, find_ruleset
from pbem.games.hare_tortoise.state import State
from pbem.games.sheet import Accepted, Echo, Ignored, Rejected, Rejection, Sheet

__all__ = ["GAME", "HareTortoise"]


def _ruleset_info(cls: Any) -> RulesetInfo:
    return RulesetInfo(cls.name, cls.title, cls.summary, tuple(cls.aliases), cls.min_players,
                       cls.max_players, tuple(cls.options))


OPTIONS = (
    OptionInfo("two-player", "Two-player game", "2 seats, two runners each (Ann1, Ann2) from one supply of 95 carrots "
               "(98 in hase-igel-sam) and 5 lettuces; the first player with both runners HOME wins",
               excludes=("partnership", "carrots-95")),
    OptionInfo("partnership", "Partnership", "4 or 6 seats in teams; partners never sit side by side; the first "
               "team with every runner HOME wins"),
    OptionInfo("carrots-95", "95 carrots", "each runner starts (and restarts when stuck) with 95 carrots; "
               "5 or 6 seats only"),
    OptionInfo("face-to-face", "Face to face", "each turn is one slot per racing seat in seat order, with no "
               "repeat of the first mover"),
)
#: seats each option allows
_OPTION_SEATS = {"two-player": (2,), "partnership": (4, 6), "carrots-95": (5, 6)}


def dialect(rules: Ruleset) -> Dialect:
    """The ruleset's additions to the order language."""
    return Dialect(rules.choices, rules.free_backward)


def two_player(state: State, author: int) -> TwoPlayer | None:
    """Two-player: the runner names an author's sheet is read with (None in the one-runner game)."""
    if state.per_seat == 1:
        return None
    return TwoPlayer(tuple(r.name for r in state.runners), state.seat_runners(author), state.seats)


def runner_names(seats: Sequence[str]) -> list[str]:
    """Two-player: each seat's runners, named by the seat name followed by 1 and 2."""
    return [f"{s}{k}" for s in seats for k in (1, 2)]


def check_runner_names(seats: Sequence[str]) -> None:
    """Two-player: no runner name may equal (ignoring case) another runner's or a seat's name."""
    names = [*seats, *runner_names(seats)]
    seen: dict[str, str] = {}
    for name in names:
        if name.lower() in seen:
            raise PbemError(f"two-player: the seat names {', '.join(seats)} give the names {seen[name.lower()]} and "
                            f"{name}, equal ignoring case (runners are named by the seat name followed by 1 and 2); "
                            "choose other seat names")
        seen[name.lower()] = name


def check_teams(seats: Sequence[str], teams: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Partnership teams: every seat once, teams of equal size (2+2, 2+2+2 or 3+3), names that
    differ from each other and from the seats, and no two partners side by side (round the table)."""
    names = [t.lower() for t, _ in teams]
    if len(set(names)) != len(names):
        raise PbemError("two teams have the same name (ignoring case)")
    clash = next((t for t, _ in teams if t.lower() in {s.lower() for s in seats}), None)
    if clash is not None:
        raise PbemError(f"the team name {clash!r} is also a seat name; choose another")
    members = [m.lower() for _, ms in teams for m in ms]
    if sorted(members) != sorted(s.lower() for s in seats):
        raise PbemError("the teams must name every seat exactly once")
    sizes = sorted(len(ms) for _, ms in teams)
    if sizes not in ([2, 2], [2, 2, 2], [3, 3]):
        raise PbemError("partnership takes two teams of two, three teams of two or two teams of three, "
                        f"not teams of {' + '.join(map(str, sizes))}")
    team_of = {m.lower(): t for t, ms in teams for m in ms}
    n = len(seats)
    for k in range(n):
        a, b = seats[k], seats[(k + 1) % n]
        if team_of[a.lower()] == team_of[b.lower()]:
            raise PbemError(f"partners {a} and {b} sit next to each other; seat the teams alternately "
                            "(for example X Y X Y), the last seat and the first included")


class HareTortoise(Game[State, OrderSheet, Slot, views.View]):
    info = GameInfo(
        name="hare-tortoise",
        title="Hare & Tortoise",
        summary="David Parlett's race of carrots and lettuces, by conditional orders for every move slot",
        rulesets=tuple(_ruleset_info(cls) for cls in RULESETS.values()),
        options=OPTIONS,
        teams=True,
        aliases=("hare-and-tortoise", "hare_tortoise", "ht", "hare&tortoise"),
        moves=Moves.SIMULTANEOUS,
        information=Information.IMPERFECT,
        bot_levels=("strong", "baseline", "sam"),
        default=True,  # the case format and the first campaigns began with this game: their cases name none
        rules_page="hare-and-tortoise",
    )
    schema_version = 1

    def check_seat_name(self, name: str) -> None:
        if not name[:1].isalpha() or not name.isalnum() or not name.isascii():
            raise PbemError(f"player name {name!r}: use letters and digits only, starting with a letter")
        if name.lower() in KEYWORDS:
            raise PbemError(f"player name {name!r} is a word of the order language; choose another")

    def new_state(self, setup: Setup, chance: Chance) -> State:
        names = [s.name for s in setup.seats]
        _, options = self.info.check_setup(setup.ruleset, setup.options, len(names))
        check_option_seats(options, len(names))
        rules = find_ruleset(setup.ruleset, options)
        seen: set[str] = set()
        for seat in setup.seats:
            self.check_seat_name(seat.name)
            if seat.name.lower() in seen:
                raise PbemError(f"two players are called {seat.name!r}; names must differ (ignoring case)")
            seen.add(seat.name.lower())
        if "two-player" in options:
            check_runner_names(names)
        teams: tuple[tuple[str, tuple[int, ...]], ...] = ()
        if "partnership" in options:
            order: list[str] = []
            for seat in setup.seats:
                if not seat.team:
                    raise PbemError(f"partnership: {seat.name} has no team; name the teams (--team TEAM=NAME,NAME)")
                if seat.team not in order:
                    order.append(seat.team)
            grouped = [(t, [s.name for s in setup.seats if s.team == t]) for t in order]
            check_teams(names, grouped)
            teams = tuple((t, tuple(i for i, s in enumerate(setup.seats) if s.team == t)) for t in order)
        elif any(seat.team for seat in setup.seats):
            raise PbemError("teams are only for the option partnership")
        return engine.new_state(rules, names, chance, options, teams)

    def rules_of(self, state: State) -> Ruleset:
        return find_ruleset(state.ruleset, state.options)

    def to_move(self, state: State) -> tuple[int, ...]:
        if state.over:
            return ()
        return tuple(sorted(set(engine.turn_sequence(state, self.rules_of(state).postal_rotation))))

    def parse(self, state: State, sheet: Sheet, author: int) -> Parsed[OrderSheet]:
        rules = self.rules_of(state)
        orders = parse_lines(sheet.lines, state.seats, dialect(rules), two_player(state, author))
        echo: list[Echo] = [Accepted(a.line, a.text, a.canonical) for a in orders.accepted]
        echo += [Rejected(r.line, r.column, r.text, r.reason, Rejection(getattr(r, "kind", "invalid")))
                 for r in orders.rejected]
        echo += [Ignored(i.line, i.text) for i in orders.ignored]
        expected = engine.turn_sequence(state, rules.postal_rotation).count(author) if not state.over else 0
        return Parsed(orders, tuple(echo), len(orders.moves), expected)

    def resolve(self, state: State, orders: Mapping[int, OrderSheet], chance: Chance) -> TurnOutcome[State, Slot]:
        sheets = [orders.get(i) for i in range(len(state.seats))]
        result = engine.resolve_turn(self.rules_of(state), state, sheets, chance)
        return TurnOutcome(result.state, result.slots)

    def preview(self, state: State, orders: OrderSheet, seat: int) -> tuple[str, ...]:
        from pbem.games.hare_tortoise.preview import preview

        return tuple(preview(self.rules_of(state), state, orders, seat))

    def lint(self, state: State, orders: OrderSheet, seat: int) -> tuple[str, ...]:
        from pbem.games.hare_tortoise.lint import lint

        return tuple(lint(self.rules_of(state), state, orders, seat))

    def edit(self, state: State, seat: int, key: str, value: str) -> State:
        from pbem.games.hare_tortoise.edit import edit

        return edit(state, seat, key, value)

    def result(self, state: State) -> Result:
        if state.per_seat > 1:
            return _two_player_result(state)
        places = sorted(
            (Place(i, r.name, r.place, r.square_label, state.team_of(i)) for i, r in enumerate(state.runners)),
            key=lambda p: (p.place or 99, state.position(p.seat)),
        )
        if not state.over:
            winners: tuple[str, ...] = ()
        elif state.teams:
            winners = tuple(name for name, seats in state.teams if all(state.runners[j].home for j in seats))[:1]
        else:
            winners = tuple(r.name for r in state.runners if r.place == 1)
        return Result(state.over, tuple(places), winners)

    def view(self, state: State, viewer: Viewer) -> views.View:
        return views.view(state, viewer)

    def redact(self, resolution: Slot, viewer: Viewer) -> Slot:
        return views.redact(resolution, viewer)

    def vary_hidden(self, state: State, resolutions: Sequence[Slot], seat: int, seed: int) -> tuple[State, tuple[Slot, ...]]:
        return views.vary_hidden(state, resolutions, seat, seed)

    def public_orders(self, state: State, sheet: Sheet, seat: int, resolutions: Sequence[Slot]) -> None:
        """Nothing while the game runs: every order text is held back until the game is over.
        Carrots (and, in the card rulesets, what the hare cards did to them) are hidden, and
        almost any line tells of them beside the move it made: a condition on `CARROTS`, and no
        less an alternative passed over because its move cost more carrots than the runner held
        (`MOVE: TO 40 ELSE NEXT CARROT`). The move each slot made is public in the narration."""
        return None

    def bot(self, level: str) -> Bot[views.View] | None:
        """Sam (level "sam", RULESETS.md's computer player), or a computer player of
        pbem/games/hare_tortoise/bots.py (baseline, strong)."""
        if level.strip().lower() == "sam":
            from pbem.games.hare_tortoise.sam import Sam

            return Sam()
        from pbem.games.hare_tortoise.bots import bot  # the computer players, loaded when used

        return bot(level)

    @cached_property
    def presenter(self) -> HarePresenter:
        return HarePresenter()

    @cached_property
    def cases(self) -> CaseCodec:
        from pbem.games.hare_tortoise.cases import HareCases  # the case driver's part, loaded when used

        return HareCases()

    def random_sheet(self, state: State, seat: int, rng: random.Random) -> str:
        from pbem.games.hare_tortoise.testing import random_sheet

        return random_sheet(state, seat, rng)

    def sheet_key(self, state: State, seat: int) -> Hashable:
        """All that reading a sheet depends on besides its text: the seat names, the ruleset, and
        how many slots the seat has this turn (and, two-player, whose runners are the author's)."""
        postal = self.rules_of(state).postal_rotation
        slots = engine.turn_sequence(state, postal).count(seat) if not state.over else 0
        return state.seats, state.ruleset, state.options, slots, seat if state.per_seat > 1 else None


def _two_player_result(state: State) -> Result:
    """Two-player: the first player with both runners HOME wins; the other gets no place."""
    done = [k for k in range(len(state.seats)) if state.seat_done(k)]
    places = []
    for k, name in enumerate(state.seats):
        where = ", ".join(f"{state.runners[j].name} {state.runners[j].square_label}" for j in state.seat_runners(k))
        places.append(Place(k, name, 1 if state.over and k in done else None, where, None))
    places.sort(key=lambda p: (p.place or 99, p.seat))
    winners = tuple(state.seats[k] for k in done)[:1] if state.over else ()
    return Result(state.over, tuple(places), winners)


def check_option_seats(options: Sequence[str], seats: int) -> None:
    """The options that need a number of seats (RULESETS.md, "Which options fit which ruleset")."""
    for option in options:
        allowed = _OPTION_SEATS.get(option)
        if allowed is not None and seats not in allowed:
            raise PbemError(f"option {option} needs {' or '.join(map(str, allowed))} seats, not {seats}")


GAME = HareTortoise()
