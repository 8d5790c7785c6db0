"""The protocol every game engine implements, so the moderator around it is shared."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from pbem.games.chance import ChanceSource

S = TypeVar("S")  # a game's state
O = TypeVar("O")  # a game's parsed order sheet
R = TypeVar("R")  # a game's resolution record


@dataclass(frozen=True)
class Standing:
    name: str
    place: int | None  # finishing place, or None while racing
    position: int  # race position now
    detail: str  # public, e.g. "square 23"


@dataclass(frozen=True)
class TurnOutcome(Generic[S, R]):
    state: S
    resolutions: tuple[R, ...]


class Game(ABC, Generic[S, O, R]):
    """A pure rules engine: states in, states and resolutions out, no I/O."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rulesets: ClassVar[tuple[str, ...]]
    default_ruleset: ClassVar[str]

    @abstractmethod
    def new_state(self, players: Sequence[str], *, ruleset: str | None = None, seed: int = 0) -> S:
        """The position before turn 1; chance at set-up (if any) comes from `seed`."""

    @abstractmethod
    def parse_orders(self, state: S, text: str) -> O:
        """One player's order sheet from the text of their mail."""

    @abstractmethod
    def resolve_turn(self, state: S, orders: Mapping[str, O], chance: ChanceSource) -> TurnOutcome[S, R]:
        """Resolve the state's turn with each player's orders (missing players sent none)."""

    @abstractmethod
    def turn(self, state: S) -> int:
        """The next turn to resolve."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def standings(self, state: S) -> list[Standing]: ...

    @abstractmethod
    def player_view(self, state: S, player: str | None) -> dict[str, Any]:
        """What `player` may see of the state (None: the GM, who sees everything)."""

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S: ...

    @abstractmethod
    def resolution_to_json(self, resolution: R) -> dict[str, Any]: ...

    @abstractmethod
    def resolution_from_json(self, data: Mapping[str, Any]) -> R: ...
