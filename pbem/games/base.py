"""The game plug-in protocol: everything the moderator may know of a game, and nothing more.

A game is a package under `pbem/games/` that exports `GAME`, an instance of `Game`. The
moderator, intake, store, CLI, demo and case driver reach a game only through this protocol:
metadata as data, a pure engine (state, sheets and chance in; state and resolutions out), views
of a state for one reader, a presenter that turns views into the game's parts of each mail, and
a codec for the game's own rule-case keys.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pbem.errors import PbemError, UnknownGameError
from pbem.games.chance import Chance, Draw
from pbem.games.sheet import Accepted, Echo, Sheet

if TYPE_CHECKING:
    from pbem.games.codec import CaseCodec
    from pbem.games.present import Presenter

S = TypeVar("S")  # a game's state
Orders = TypeVar("Orders")  # a game's parsed orders (one sheet)
R = TypeVar("R")  # a game's resolution record (one event of a turn)


class Moves(enum.Enum):
    """How the seats move: all sheets for a turn at once, or one seat after another."""

    SIMULTANEOUS = "simultaneous"
    SEQUENTIAL = "sequential"


class Information(enum.Enum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class OptionInfo:
    """An option of a game (a variant switched on at set-up)."""

    name: str
    title: str
    summary: str = ""
    #: the options it cannot be combined with
    excludes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RulesetInfo:
    name: str
    title: str
    summary: str = ""
    aliases: tuple[str, ...] = ()
    min_players: int = 2
    max_players: int = 6
    #: the options this ruleset accepts
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data: the CLI, the welcome mail and the README read it."""

    name: str
    title: str
    summary: str
    rulesets: tuple[RulesetInfo, ...]
    options: tuple[OptionInfo, ...] = ()
    aliases: tuple[str, ...] = ()
    moves: Moves = Moves.SIMULTANEOUS
    information: Information = Information.IMPERFECT
    #: whether seats may form teams (a partnership game)
    teams: bool = False
    #: resolve a turn as soon as every seat that must move has sent orders (a climbing game's run),
    #: rather than at the deadline (the GM may still resolve by hand, and the deadline still counts)
    resolve_on_receipt: bool = False
    #: the levels of the game's computer players (`Game.bot(level)`), the first the default
    bot_levels: tuple[str, ...] = ()
    #: the game played when none is named (a new game without --game, a rule case without GAME);
    #: one registered game at most says so
    default: bool = False

    @property
    def default_ruleset(self) -> RulesetInfo:
        return self.rulesets[0]

    @property
    def min_players(self) -> int:
        return min(r.min_players for r in self.rulesets)

    @property
    def max_players(self) -> int:
        return max(r.max_players for r in self.rulesets)

    def ruleset(self, name: str | None) -> RulesetInfo:
        """The ruleset called `name` (or an alias, any case); the default for None."""
        if name is None:
            return self.default_ruleset
        key = name.strip().lower()
        for r in self.rulesets:
            if key == r.name or key in r.aliases:
                return r
        known = ", ".join(r.name for r in self.rulesets)
        raise UnknownGameError(f"{self.title} has no ruleset called {name!r}; known rulesets: {known}")

    def check_setup(self, ruleset: str | None, options: Sequence[str], players: int) -> tuple[RulesetInfo, tuple[str, ...]]:
        """The ruleset and the options, checked to fit together and the number of players."""
        rules = self.ruleset(ruleset)
        chosen: list[str] = []
        known = {o.name: o for o in self.options}
        for raw in options:
            name = raw.strip().lower()
            if name not in known:
                names = ", ".join(known) or "none"
                raise PbemError(f"{self.title} has no option {raw!r}; known options: {names}")
            if name not in rules.options:
                fits = ", ".join(rules.options) or "none"
                raise PbemError(f"option {name} does not fit the ruleset {rules.name}; options it takes: {fits}")
            if name in chosen:
                raise PbemError(f"option {name} is given twice")
            clash = next((o for o in chosen if o in known[name].excludes or name in known[o].excludes), None)
            if clash is not None:
                raise PbemError(f"options {clash} and {name} cannot be combined")
            chosen.append(name)
        if not rules.min_players <= players <= rules.max_players:
            raise PbemError(f"{self.title} ({rules.name}) takes {rules.min_players} to {rules.max_players} players, "
                            f"not {players}")
        return rules, tuple(chosen)


@dataclass(frozen=True)
class SeatSpec:
    """A seat at set-up: its name, its team (partnership games) and whether a computer holds it."""

    name: str
    team: str | None = None
    bot: str | None = None  # a computer player's level; None for a person


@dataclass(frozen=True)
class Setup:
    ruleset: str
    seats: tuple[SeatSpec, ...]
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Viewer:
    """Who reads: one seat (a player), or the GM (seat None), who sees everything."""

    seat: int | None

    @classmethod
    def gm(cls) -> Viewer:
        return cls(None)

    @classmethod
    def public(cls) -> Viewer:
        """Someone who holds no seat: sees only what is public (the board picture is drawn for them)."""
        return cls(-1)

    @property
    def is_gm(self) -> bool:
        return self.seat is None

    def may_see(self, owner: int | None) -> bool:
        """Whether a detail private to seat `owner` (None: public) may be shown to this reader."""
        return owner is None or self.seat is None or self.seat == owner


@dataclass(frozen=True)
class Place:
    seat: int
    name: str
    place: int | None  # finishing place, None while racing (or when the game gives none)
    detail: str  # public, e.g. "square 23"
    team: str | None = None


@dataclass(frozen=True)
class Result:
    """The outcome of a state: places (racing or final), and the winners once over."""

    over: bool
    places: tuple[Place, ...]
    winners: tuple[str, ...] = ()  # seat names, or team ids in a team game


@dataclass(frozen=True)
class TurnOutcome(Generic[S, R]):
    state: S
    resolutions: tuple[R, ...]


@dataclass(frozen=True)
class Parsed(Generic[Orders]):
    """One sheet as the game read it: the typed orders and the echo of every line."""

    orders: Orders
    #: the game's answer to each of the sheet's lines (the header lines are echoed by the reader)
    echo: tuple[Echo, ...]
    #: how many orders the sheet gives, and how many the seat may give; for the acknowledgement
    sent: int = 0
    expected: int = 0


class Game(ABC, Generic[S, Orders, R]):
    """A pure rules engine behind the moderator: states in, states and resolutions out, no I/Orders."""

    info: ClassVar[GameInfo]
    #: the version of the state's JSON; `upgrade` brings older stored states up to it
    schema_version: ClassVar[int] = 1

    # set-up ------------------------------------------------------------------------------
    @abstractmethod
    def new_state(self, setup: Setup, chance: Chance) -> S:
        """The position before turn 1; set-up draws come from `chance` (recorded as turn 0)."""

    def check_seat_name(self, name: str) -> None:
        """Raise PbemError when `name` cannot be a seat of this game."""

    # turns -------------------------------------------------------------------------------
    @abstractmethod
    def turn(self, state: S) -> int:
        """The next turn to resolve."""

    @abstractmethod
    def seats(self, state: S) -> tuple[str, ...]:
        """The seat names, in seat order."""

    @abstractmethod
    def to_move(self, state: S) -> tuple[int, ...]:
        """The seats that must send orders for the state's turn (empty when the game is over)."""

    def may_send(self, state: S) -> tuple[int, ...]:
        """The seats whose orders are taken for the state's turn: those that must move, and in a
        game where a waiting seat writes conditional answers ahead, those too."""
        return self.to_move(state)

    @abstractmethod
    def parse(self, state: S, sheet: Sheet, author: int) -> Parsed[Orders]:
        """Read the order lines of a sheet written by seat `author`."""

    def default_orders(self, state: S, seat: int) -> Orders | None:
        """The orders of a seat that sent none (None: the engine applies its own default)."""
        return None

    def seat_of(self, state: S, name: str) -> int | None:
        """The seat called `name` (any case), or None."""
        key = name.lower()
        return next((i for i, n in enumerate(self.seats(state)) if n.lower() == key), None)

    @abstractmethod
    def resolve(self, state: S, orders: Mapping[int, Orders], chance: Chance) -> TurnOutcome[S, R]:
        """Resolve the state's turn with each seat's orders (a missing seat sent none)."""

    @abstractmethod
    def result(self, state: S) -> Result: ...

    def is_over(self, state: S) -> bool:
        return self.result(state).over

    # the players' and the GM's tools -------------------------------------------------------
    def preview(self, state: S, orders: Orders, seat: int) -> tuple[str, ...]:
        """PREVIEW: what the seat's orders would do on this position if no other seat moved, as
        lines of text — step by step, which choice is taken and why each earlier one is not. It
        never draws from the game's chance and shows nothing hidden from the seat. The default,
        (), says the game gives no such account (the answer then holds the echo alone)."""
        return ()

    def lint(self, state: S, orders: Orders, seat: int) -> tuple[str, ...]:
        """Warnings for the acknowledgement: orders that can never take effect, too many or too
        few. Warnings never reject anything. Default: none."""
        return ()

    def edit(self, state: S, seat: int, key: str, value: str) -> S:
        """The GM's `pbem edit`: the state with one of the seat's values set (PbemError, saying
        which keys exist, for a key or value the game does not take)."""
        raise PbemError(f"{self.info.title} has no values the GM can edit")

    # hidden information ------------------------------------------------------------------
    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> Any:
        """What `viewer` may see of the state: a frozen value holding nothing hidden from them."""

    @abstractmethod
    def redact(self, resolution: R, viewer: Viewer) -> R:
        """The resolution as `viewer` may see it: every private detail of another seat removed."""

    @abstractmethod
    def vary_hidden(self, state: S, resolutions: Sequence[R], seat: int, seed: int) -> tuple[S, tuple[R, ...]]:
        """The same public facts with every value hidden to all but `seat` changed (the tests of
        hidden information render every other reader's mail from both and compare)."""

    # the public archive ------------------------------------------------------------------
    def archived_orders(self, state: S, sheet: Sheet, seat: int, viewer: Viewer) -> tuple[str, ...] | None:
        """The lines of the sheet seat `seat` sent for `state`'s turn that `viewer` may read once
        the turn is resolved (None: held back from this reader). By default every reader sees
        the accepted lines in their canonical form; the header lines and anything rejected are
        left out. A game whose orders hold a secret (a bet, a choice made face down) holds them
        back from `Viewer.public()` while the game runs."""
        return tuple(e.canonical for e in self.parse(state, sheet, seat).echo if isinstance(e, Accepted))

    def archived_draws(self, draws: Sequence[Draw], viewer: Viewer) -> tuple[Draw, ...]:
        """The chance drawn in a turn that `viewer` may see. By default dice and uniform draws are
        public and a shuffle (an order that decides what someone holds and what comes next) is the GM's alone."""
        return tuple(d for d in draws if viewer.is_gm or d.kind != "shuffle")

    # storage -----------------------------------------------------------------------------
    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S: ...

    def upgrade(self, data: dict[str, Any], version: int) -> dict[str, Any]:
        """A stored state of an older `schema_version`, brought up to the current one."""
        if version != self.schema_version:
            raise PbemError(f"{self.info.title}: no upgrade from state version {version} to {self.schema_version}")
        return data

    def load_state(self, data: Mapping[str, Any]) -> S:
        """A stored state of any version this game knows."""
        values = dict(data)
        version = int(values.pop("schema", 1))
        if version > self.schema_version:
            raise PbemError(f"{self.info.title}: the stored state is of version {version}, newer than this pbem "
                            f"({self.schema_version}); upgrade pbem")
        if version < self.schema_version:
            values = self.upgrade(values, version)
        return self.state_from_json(values)

    def dump_state(self, state: S) -> dict[str, Any]:
        return {"schema": self.schema_version, **self.state_to_json(state)}

    @abstractmethod
    def resolution_to_json(self, resolution: R) -> dict[str, Any]: ...

    @abstractmethod
    def resolution_from_json(self, data: Mapping[str, Any]) -> R: ...

    # the game's other parts --------------------------------------------------------------
    @property
    @abstractmethod
    def presenter(self) -> Presenter[S, R]:
        """Turns views and redacted resolutions into the game's parts of each mail."""

    @property
    @abstractmethod
    def cases(self) -> CaseCodec:
        """Reads and runs the game's rule cases."""

    def bot(self, level: str) -> Bot[S] | None:
        """A computer player of that level (None: the game has none; the seat gets default orders)."""
        return None


class Bot(ABC, Generic[S]):
    """A computer player: writes a sheet in the game's own language from its seat's view only."""

    @abstractmethod
    def write(self, view: Any, chance: Chance) -> str: ...
