"""What one reader may see of a Hare & Tortoise game: the position and the turn's slots.

Carrots are hidden information (RULES: a player's report shows their own carrots, not the
others'). A view holds another runner's carrots as None, and a redacted slot holds none of
another player's carrot figures, order lines or alternatives tried; presenters and computer
players are given nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pbem.games.base import Viewer
from pbem.games.hare_tortoise.board import HOME, START
from pbem.games.hare_tortoise.engine import turn_sequence
from pbem.games.hare_tortoise.resolution import HareRoll, Slot
from pbem.games.hare_tortoise.rules import HareEffect, find_ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State


@dataclass(frozen=True)
class RunnerView:
    seat: int  # the seat that moves the runner (with two-player, each seat has two)
    name: str
    square: int
    carrots: int | None  # None: hidden from this reader
    lettuces: int
    place: int | None
    must: Must
    skip: bool

    @property
    def home(self) -> bool:
        return self.square == HOME

    @property
    def square_label(self) -> str:
        return "start" if self.square == START else "home" if self.square == HOME else str(self.square)


@dataclass(frozen=True)
class View:
    """A position as `viewer` may see it."""

    viewer: Viewer
    ruleset: str
    turn: int
    first: int
    over: bool
    runners: tuple[RunnerView, ...]
    #: the seats in slot order for the turn to play (empty when the game is over)
    sequence: tuple[int, ...]
    options: tuple[str, ...] = ()
    #: partnership: each team's name and seats (public)
    teams: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: the hare deck's draw pile size (public; its order is hidden), None without a deck
    deck_size: int | None = None
    #: seats whose runner stands on an inert square (public)
    inert: tuple[int, ...] = ()

    @property
    def per_seat(self) -> int:
        """Runners each seat moves: 2 with two-player, else 1."""
        return 2 if "two-player" in self.options else 1

    @property
    def seats(self) -> tuple[str, ...]:
        if self.per_seat > 1:
            return tuple(r.name[:-1] for r in self.runners[::2])
        return tuple(r.name for r in self.runners)

    def seat_runners(self, seat: int) -> tuple[RunnerView, ...]:
        """The runners a seat moves (two with two-player)."""
        per = self.per_seat
        return self.runners[seat * per:seat * per + per]

    def position(self, runner: int) -> int:
        """1 + the runners strictly ahead (HOME runners by their place); `runner` is an index
        into `runners` (the seat, but for two-player)."""
        me = self.runners[runner]
        if me.home:
            return me.place or 1
        return 1 + sum(1 for j, r in enumerate(self.runners) if j != runner and r.square > me.square)


def view(state: State, viewer: Viewer) -> View:
    per = state.per_seat
    runners = tuple(
        RunnerView(i // per, r.name, r.square, r.carrots if viewer.may_see(i // per) else None, r.lettuces, r.place,
                   r.must, r.skip)
        for i, r in enumerate(state.runners)
    )
    rules = find_ruleset(state.ruleset, state.options)
    sequence = () if state.over else tuple(turn_sequence(state, rules.postal_rotation))
    deck_size = len(state.deck) if rules.deck is not None else None
    return View(viewer, state.ruleset, state.turn, state.first, state.over, runners, sequence, state.options,
                state.teams, deck_size, state.inert)


def public_hare_detail(hare: HareRoll) -> str:
    """What a hare result or card did, in words that give away no carrot holding (the card HALF
    and the card TAKE-GIVE as their die results 8 and 5; SHOW shows the carrots on purpose)."""
    if hare.card == "HALF":
        return "loses half of the carrots"
    if hare.effect is HareEffect.HALVE:
        return ""  # the effect's own words ('lose half the carrots') say it all
    if hare.effect is HareEffect.RESTORE:
        return "carrots restored"
    if hare.effect is HareEffect.CHEW_CARROT or hare.card == "TAKE-GIVE":
        return hare.detail.partition(" (")[0]
    return hare.detail


def redact(slot: Slot, viewer: Viewer) -> Slot:
    """The slot as `viewer` may see it: another player's carrots, order line and the
    alternatives tried are left out."""
    if viewer.may_see(slot.seat):
        return slot
    hare = replace(slot.hare, detail=public_hare_detail(slot.hare)) if slot.hare is not None else None
    return replace(slot, order="", chain=None, tried=(), carrots_before=None, carrots_after=None, hare=hare)


def vary_hidden(state: State, slots: Sequence[Slot], seat: int, seed: int) -> tuple[State, tuple[Slot, ...]]:
    """The same public facts with `seat`'s carrots, orders and private hare details changed."""
    rng = random.Random(seed)
    shift = rng.randint(101, 997)
    runners = list(state.runners)
    for j in state.seat_runners(seat):  # with two-player, both runners carry the seat's supply
        runners[j] = Runner(*runners[j])._replace(carrots=runners[j].carrots + shift)
    varied = []
    for s in slots:
        if s.seat == seat:
            hare = s.hare
            if hare is not None and (hare.effect is HareEffect.HALVE or hare.card == "HALF"):
                hare = replace(hare, detail=f"lost {shift} carrots")
            elif (hare is not None and (hare.effect is HareEffect.CHEW_CARROT or hare.card == "TAKE-GIVE")
                  and "(" not in hare.detail):
                hare = replace(hare, detail=f"{hare.detail} (fewer than 10 to give)")
            s = replace(s, order=f"MOVE {shift}", chain=f"ADVANCE {shift}", tried=(),
                           carrots_before=(s.carrots_before or 0) + shift, carrots_after=(s.carrots_after or 0) + shift,
                           hare=hare)
        varied.append(s)
    return replace(state, runners=tuple(runners)), tuple(varied)
