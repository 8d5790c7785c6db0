"""The game plug-in protocol: everything the moderator may know of a game, and nothing more.

A game is a package under `pbem/games/` that exports `GAME`, an instance of `Game` (or a package
of another distribution, registered by an entry point in the group `pbem.games`). The
moderator, intake, store, CLI, demo and case driver reach a game only through this protocol:
metadata as data, a pure engine (state, sheets and chance in; state and resolutions out), views
of a state for one reader, a presenter that turns views into the game's parts of each mail, and
a codec for the game's own rule-case keys. The package also holds the game's `templates/` and
rule `cases/` folders, found through the registry.

A game writes only what is its own: a state and a resolution are values that keep the small
`GameState` and `Resolution` protocols, so the turn, the seats, the end and the JSON round trips
come from defaults here; a game of perfect information needs no redaction either.
"""

from __future__ import annotations

import enum
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeVar, get_args, get_origin

from pbem.errors import PbemError, UnknownGameError
from pbem.games.chance import Chance, Draw
from pbem.games.sheet import (
    CONNECTIVES,
    Accepted,
    Echo,
    Line,
    Reading,
    Sheet,
    join_wrapped,
    reading_of,
    readings_of,
)

if TYPE_CHECKING:
    from pbem.games.codec import CaseCodec
    from pbem.games.present import Presenter


class GameState(Protocol):
    """What the generic layer reads of any game's state (a frozen value, stored as JSON)."""

    @property
    def turn(self) -> int:
        """The next turn to resolve."""
        ...

    @property
    def seats(self) -> tuple[str, ...]:
        """The seat names, in seat order."""
        ...

    @property
    def over(self) -> bool: ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self: ...


class Resolution(Protocol):
    """What the generic layer reads of any resolution (one event of a turn, stored as JSON)."""

    @property
    def seat(self) -> int | None:
        """The seat whose private details the resolution holds (None: it holds none)."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self: ...


S = TypeVar("S", bound=GameState)  # a game's state
Orders = TypeVar("Orders")  # a game's parsed orders (one sheet)
R = TypeVar("R", bound=Resolution)  # a game's resolution record (one event of a turn)
V = TypeVar("V")  # what one reader sees of a state


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
    #: the page of pbem's documentation with the game's rules as pbem plays them (docs/rules/<page>.md;
    #: "" for a game that brings its own): the welcome names it, the archive publishes it
    rules_page: str = ""

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


class Game(ABC, Generic[S, Orders, R, V]):
    """A pure rules engine behind the moderator: states in, states and resolutions out, no I/O.

    A game names its four types as it subclasses, `Game[State, Orders, Resolution, View]`; the
    state's and the resolution's classes are read from there (they load stored JSON).
    """

    info: ClassVar[GameInfo]
    #: the version of the state's JSON; `upgrade` brings older stored states up to it
    schema_version: ClassVar[int] = 1
    #: a random game that has not ended after this many turns is a failure (the generic tests)
    max_random_turns: ClassVar[int] = 400
    #: the words that tie the halves of an order line a mail program wrapped (see `unwrap`):
    #: English by default; a game whose orders chain with other words names its own
    connectives: ClassVar[frozenset[str]] = CONNECTIVES
    #: the classes of the state and of a resolution: from the type arguments by default
    state_type: type[S]
    resolution_type: type[R]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is Game:
                state, _, resolution, _ = get_args(base)
                if isinstance(state, type) and "state_type" not in cls.__dict__:
                    cls.state_type = state
                if isinstance(resolution, type) and "resolution_type" not in cls.__dict__:
                    cls.resolution_type = resolution
        info = cls.__dict__.get("info")
        if info is not None and info.information is Information.IMPERFECT:
            # a game with secrets must say itself what each reader may see: no default can
            missing = [name for name in ("redact", "vary_hidden") if getattr(cls, name) is getattr(Game, name)]
            if missing:
                raise TypeError(f"{cls.__name__}: a game of imperfect information defines {' and '.join(missing)}")

    # set-up ------------------------------------------------------------------------------
    @abstractmethod
    def new_state(self, setup: Setup, chance: Chance) -> S:
        """The position before turn 1; set-up draws come from `chance` (recorded as turn 0)."""

    def check_seat_name(self, name: str) -> None:
        """Raise PbemError when `name` cannot be a seat of this game."""

    # turns -------------------------------------------------------------------------------
    def turn(self, state: S) -> int:
        """The next turn to resolve."""
        return state.turn

    def seats(self, state: S) -> tuple[str, ...]:
        """The seat names, in seat order."""
        return state.seats

    def to_move(self, state: S) -> tuple[int, ...]:
        """The seats that must send orders for the state's turn (empty when the game is over).
        By default every seat, every turn: a game of simultaneous moves where nobody drops out."""
        return () if state.over else tuple(range(len(state.seats)))

    def may_send(self, state: S) -> tuple[int, ...]:
        """The seats whose orders are taken for the state's turn: those that must move, and in a
        game where a waiting seat writes conditional answers ahead, those too."""
        return self.to_move(state)

    @abstractmethod
    def parse(self, state: S, sheet: Sheet, author: int) -> Parsed[Orders]:
        """Read the order lines of a sheet written by seat `author`."""

    def unwrap(self, state: S, sheet: Sheet, author: int, echo: Sequence[Echo] | None = None) -> Sheet:
        """The sheet with every order line that a mail program wrapped joined again, as this game
        reads its lines (`pbem.games.sheet.join_wrapped`); `echo` is the game's answer to the
        sheet as it stands, when already parsed. Every reading of a player's mail goes through
        here: the acknowledgement, the turn and the archive (by `read`, or `orders_seen`)."""
        def reading(text: str) -> Reading:
            return reading_of(self.parse(state, Sheet(lines=(Line(1, text, text),)), author).echo)

        if echo is None:
            echo = self.parse(state, sheet, author).echo
        return join_wrapped(sheet, reading, self.connectives, readings_of(echo))

    def read(self, state: S, sheet: Sheet, author: int) -> Parsed[Orders]:
        """`parse` of the sheet with its wrapped lines joined (`unwrap`): one reading of a sheet
        in which nothing is wrapped."""
        parsed = self.parse(state, sheet, author)
        joined = self.unwrap(state, sheet, author, parsed.echo)
        return parsed if joined is sheet else self.parse(state, joined, author)

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
        return state.over

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
    def view(self, state: S, viewer: Viewer) -> V:
        """What `viewer` may see of the state: a frozen value holding nothing hidden from them."""

    def redact(self, resolution: R, viewer: Viewer) -> R:
        """The resolution as `viewer` may see it: every private detail of another seat removed.
        A game of imperfect information must define it; in a game of perfect information
        everyone sees everything."""
        return resolution

    def private_to(self, resolution: R) -> int | None:
        """The seat a resolution is private to as a whole (a note on her own sheet: its lines
        that lapsed or were rejected), whose very existence is hers to know; None for one that
        is public, if only in part. Default: None."""
        return None

    def redact_all(self, resolutions: Sequence[R], viewer: Viewer) -> tuple[R, ...]:
        """A turn's resolutions as `viewer` may see them: each redacted, and those private to
        another seat as a whole left out, so that not even their number tells. Every output
        takes a turn's resolutions through here."""
        return tuple(self.redact(r, viewer) for r in resolutions if viewer.may_see(self.private_to(r)))

    def vary_hidden(self, state: S, resolutions: Sequence[R], seat: int, seed: int) -> tuple[S, tuple[R, ...]]:
        """The same public facts with every value hidden to all but `seat` changed (the tests of
        hidden information render every other reader's mail from both and compare). A game of
        imperfect information must define it; in a game of perfect information nothing is hidden."""
        return state, tuple(resolutions)

    # order text, as each reader may read it ---------------------------------------------
    @abstractmethod
    def public_orders(self, state: S, sheet: Sheet, seat: int, resolutions: Sequence[R]) -> tuple[str, ...] | None:
        """What of the sheet seat `seat` sent for `state`'s turn a reader other than its writer
        and the GM may read while the game runs, once the turn is resolved with `resolutions`
        (None: nothing, held back until the game is over). Every game says it, so none can
        forget: the answer must depend on nothing hidden from such a reader — no line the turn
        did not use, no condition on the writer's own hidden holding (which a line's alternative
        taken, or passed over as illegal, gives away)."""

    def orders_seen(self, state: S, sheet: Sheet, seat: int, resolutions: Sequence[R], viewer: Viewer,
                    *, over: bool = False) -> tuple[str, ...] | None:
        """The lines of seat `seat`'s sheet that `viewer` may read: the GM and the writer every
        accepted line (in canonical form, no header line, nothing rejected), and so may everyone
        once the game is over (every hidden value is revealed then); anyone else what
        `public_orders` allows."""
        sheet = self.unwrap(state, sheet, seat)
        if over or viewer.may_see(seat):
            return self.accepted_orders(state, sheet, seat)
        return self.public_orders(state, sheet, seat, resolutions)

    def accepted_orders(self, state: S, sheet: Sheet, seat: int) -> tuple[str, ...]:
        """The sheet's accepted lines in their canonical form."""
        return tuple(e.canonical for e in self.parse(state, sheet, seat).echo if isinstance(e, Accepted))

    def archived_draws(self, draws: Sequence[Draw], viewer: Viewer) -> tuple[Draw, ...]:
        """The chance drawn in a turn that `viewer` may see. By default dice and uniform draws are
        public and a shuffle (an order that decides what someone holds and what comes next) is the GM's alone."""
        return tuple(d for d in draws if viewer.is_gm or d.kind != "shuffle")

    # storage -----------------------------------------------------------------------------
    def state_to_json(self, state: S) -> dict[str, Any]:
        return state.to_json()

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        return self.state_type.from_json(dict(data))

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

    def resolution_to_json(self, resolution: R) -> dict[str, Any]:
        return resolution.to_json()

    def resolution_from_json(self, data: Mapping[str, Any]) -> R:
        return self.resolution_type.from_json(dict(data))

    # the game's other parts --------------------------------------------------------------
    @property
    @abstractmethod
    def presenter(self) -> Presenter[V, R]:
        """Turns views and redacted resolutions into the game's parts of each mail."""

    @property
    @abstractmethod
    def cases(self) -> CaseCodec:
        """Reads and runs the game's rule cases (the files in the package's `cases/` folder)."""

    def bot(self, level: str) -> Bot[V] | None:
        """A computer player of that level (None: the game has none; the seat gets default orders)."""
        return None

    @property
    def package(self) -> str:
        """The package that holds the game's `templates/` and rule `cases/` folders: by default
        the one its class is defined in."""
        module = type(self).__module__
        return module if hasattr(sys.modules[module], "__path__") else module.rpartition(".")[0]

    # what the generic tests ask of every game ---------------------------------------------
    @abstractmethod
    def random_sheet(self, state: S, seat: int, rng: random.Random) -> str:
        """A sheet seat `seat` might send for the state's turn, drawn from `rng`: now legal, now
        illegal or malformed, so that a game of such sheets explores the rules and still ends
        within `max_random_turns` (the random playthrough every game takes)."""

    def sheet_key(self, state: S, seat: int) -> Hashable | None:
        """All that reading a sheet of `seat` depends on besides its text, so the generic tests
        may reuse a reading; None (the default): reuse nothing."""
        return None

    def owner(self, resolution: R) -> int | None:
        """The seat whose private details a resolution holds (None: none), who sees it whole."""
        return resolution.seat


class Bot(ABC, Generic[V]):
    """A computer player: writes a sheet in the game's own language from its seat's view only."""

    @abstractmethod
    def write(self, view: V, chance: Chance) -> str: ...
