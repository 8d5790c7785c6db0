"""Rulesets of Hare & Tortoise as data plus small hooks; `variable-pig` is the default."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from pbem.errors import UnknownGameError
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import GIBSONS_1987, Board


class HareEffect(enum.Enum):
    """What a hare square does to the runner, by the hare table's total."""

    BACK_TO_HARE = "move back to the nearest vacant hare square"
    MISS_TURN = "miss a turn"
    BACK_TO_CARROT = "move back to the nearest vacant carrot square"
    CHEW_CARROT = "chew a carrot: draw or pay 10"
    RESTORE = "restore the carrots to the starting holding"
    REFUND = "free turn: the carrots paid are given back"
    HALVE = "lose half the carrots"
    EXTRA_SLOT = "have another turn"
    AHEAD_TO_CARROT = "move forward to the nearest vacant carrot square"
    CHEW_LETTUCE = "chew a lettuce"


class HareOutcome:
    """How a ruleset decides what a hare square does: a die on a table, or (in other rulesets) a
    card from a deck kept in the state."""

    def draw(self, chance: Chance, position: int) -> tuple[int, int, HareEffect]:
        """(the die or card drawn, the table's index, the effect)."""
        raise NotImplementedError


class HareTable(HareOutcome):
    """One die plus the runner's race position, looked up in a table."""

    def __init__(self, table: Mapping[int, HareEffect], sides: int = 6) -> None:
        self.table = dict(table)
        self.sides = sides

    def draw(self, chance: Chance, position: int) -> tuple[int, int, HareEffect]:
        die = chance.die(self.sides)
        total = die + position
        return die, total, self.table[total]


class Ruleset:
    """A ruleset: class-level data the engine reads, and hooks a variant may override."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    board: ClassVar[Board]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    start_carrots: ClassVar[int] = 65
    start_lettuces: ClassVar[int] = 3
    #: carrots of a runner sent back to START because it had no legal move
    restart_carrots: ClassVar[int] = 65
    #: carrots a hare "restore" result sets the holding to
    restore_carrots: ClassVar[int] = 65
    #: carrots allowed at HOME after paying, per finishing place
    home_allowance_per_place: ClassVar[int] = 10
    hare_table: ClassVar[Mapping[int, HareEffect]]
    #: the hare squares' strategy (a table by default; a deck in the card rulesets)
    hare: ClassVar[HareOutcome]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "hare" not in cls.__dict__ and "hare_table" in cls.__dict__:
            cls.hare = HareTable(cls.hare_table)

    def home_allowance(self, place: int) -> int:
        return self.home_allowance_per_place * place


class VariablePig(Ruleset):
    """The Variable Pig postal rules on the Gibsons Games (1987) board."""

    name = "variable-pig"
    title = "Variable Pig postal rules (Gibsons 1987 board)"
    aliases = ("vp", "gibsons", "postal")
    board = GIBSONS_1987
    hare_table = MappingProxyType(
        {
            2: HareEffect.BACK_TO_HARE,
            3: HareEffect.MISS_TURN,
            4: HareEffect.BACK_TO_CARROT,
            5: HareEffect.CHEW_CARROT,
            6: HareEffect.RESTORE,
            7: HareEffect.REFUND,
            8: HareEffect.HALVE,
            9: HareEffect.EXTRA_SLOT,
            10: HareEffect.AHEAD_TO_CARROT,
            11: HareEffect.CHEW_LETTUCE,
            12: HareEffect.RESTORE,
        }
    )


RULESETS: Mapping[str, type[Ruleset]] = MappingProxyType({VariablePig.name: VariablePig})
DEFAULT_RULESET = VariablePig.name


def find_ruleset(name: str | None) -> Ruleset:
    """The ruleset called `name` (or one of its aliases); the default for None."""
    key = (name or DEFAULT_RULESET).strip().lower()
    for cls in RULESETS.values():
        if key == cls.name or key in cls.aliases:
            return cls()
    known = ", ".join(sorted(RULESETS))
    raise UnknownGameError(f"no Hare & Tortoise ruleset called {name!r}; known rulesets: {known}")
