"""Rulesets of Hare & Tortoise as data plus small hooks; `variable-pig` is the default."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from pbem.errors import UnknownGameError
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import GIBSONS_1987, RAVENSBURGER_1978, Board


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
    CARD = "a hare card"


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


class Card(enum.Enum):
    """The hare cards of the card rulesets, by their code in the contract."""

    GIVE_BEHIND = "GIVE-BEHIND"
    MISS_OR_AGAIN = "MISS-OR-AGAIN"
    RESTORE_65 = "RESTORE-65"
    PER_LETTUCE = "PER-LETTUCE"
    FREE_RIDE = "FREE-RIDE"
    HALF = "HALF"
    SHOW = "SHOW"
    SHUFFLE = "SHUFFLE"
    MISS = "MISS"
    BACK_CARROT = "BACK-CARROT"
    NEXT_CARROT = "NEXT-CARROT"
    AGAIN = "AGAIN"
    TAKE_GIVE = "TAKE-GIVE"
    LETTUCE = "LETTUCE"
    UP_ONE = "UP-ONE"
    DOWN_ONE = "DOWN-ONE"


#: what each hare card does, as pbem plays it: the welcome of a card ruleset lists the deck with these
CARD_WORDS: Mapping[Card, str] = MappingProxyType({
    Card.GIVE_BEHIND: "give 10 carrots (or 5, or 1, as far as you can) to each opponent's runner behind you; "
                      "each may keep or refuse them (HARE: KEEP / REFUSE)",
    Card.MISS_OR_AGAIN: "more runners behind you than in front: miss your next slot; else move again at once",
    Card.RESTORE_65: "your carrots are restored to the starting 65",
    Card.PER_LETTUCE: "draw 10 carrots for each lettuce you hold; with none, miss your next slot",
    Card.FREE_RIDE: "the carrots paid for this move are given back",
    Card.HALF: "lose half your carrots (rounded down)",
    Card.SHOW: "show your carrots to everyone",
    Card.SHUFFLE: "take 1 carrot from each other player who has one; the deck is shuffled",
    Card.MISS: "miss your next slot",
    Card.BACK_CARROT: "move back to the nearest free carrot square, free of charge",
    Card.NEXT_CARROT: "move ahead to the nearest free carrot square, free of charge",
    Card.AGAIN: "move again at once",
    Card.TAKE_GIVE: "draw 10 carrots or pay 10, as your HARE choice says (TAKE / GIVE / NONE)",
    Card.LETTUCE: "eat a lettuce at your next slot; with none left, miss your next slot",
    Card.UP_ONE: "move to the first square you may land on past the runner just ahead of you, paying as usual",
    Card.DOWN_ONE: "move back to the first free square behind the runner just behind you, no lower than the "
                   "nearest tortoise square",
})


class HareDeck(HareOutcome):
    """A hare deck kept in the game state, top first. `recycle`: a card drawn goes under the
    pile (and `reshuffler` shuffles the whole deck); otherwise it goes to a used pile, and an
    empty pile is reshuffled from all the cards at the next draw."""

    def __init__(self, cards: tuple[Card, ...], *, recycle: bool, reshuffler: Card | None = None) -> None:
        self.cards = cards
        self.codes = tuple(c.value for c in cards)
        self.recycle = recycle
        self.reshuffler = reshuffler

    def draw(self, chance: Chance, position: int) -> tuple[int, int, HareEffect]:
        raise NotImplementedError("a deck is drawn from the game state: see `take`")

    def take(self, pile: list[str], used: list[str], chance: Chance) -> str:
        """Draw the top card (reshuffling an empty pile first); the pile and used pile change in place."""
        if not pile:
            pile[:] = chance.shuffle(self.codes)
            used.clear()
        card = pile.pop(0)
        if self.recycle:
            if self.reshuffler is None or card != self.reshuffler.value:
                pile.append(card)
        else:
            used.append(card)
        return card

    def reshuffle(self, pile: list[str], chance: Chance) -> None:
        pile[:] = chance.shuffle(self.codes)


class Ruleset:
    """A ruleset: class-level data the engine reads, and hooks a variant may override.

    An instance carries the game's options too (`with_options`): the starting carrots, the turn
    order and the teams are read from it, never from the ruleset's name.
    """

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
    #: the hare deck, for the card rulesets (None: a die table)
    deck: ClassVar[HareDeck | None] = None
    #: the choice words of a HARE line, the default first
    choices: ClassVar[tuple[str, ...]] = ("TAKE", "GIVE")
    #: a stuck runner moves off START at once, in the same slot (Parlett)
    moves_off_when_stuck: ClassVar[bool] = False
    #: a runner may move back to any square down to the nearest tortoise square, and BACK <n>
    #: exists; hare, carrot and number squares so reached are inert
    free_backward: ClassVar[bool] = False
    #: carrots at the start with 5 or 6 seats, when that differs (hase-igel-sam's 98)
    big_game_carrots: ClassVar[int | None] = None
    #: each player's supply with two-player (two runners each): carrots and lettuces
    two_player_carrots: ClassVar[int] = 95
    two_player_lettuces: ClassVar[int] = 5
    #: the options this ruleset accepts
    options: ClassVar[tuple[str, ...]] = ("two-player", "partnership", "carrots-95", "face-to-face")
    summary: ClassVar[str] = ""
    #: what a hare square does, for the welcome's race in brief ("A hare square ...")
    hare_words: ClassVar[str] = "rolls a die plus your position on the hare table"
    #: the welcome's example of a HARE line, and what it does
    hare_example: ClassVar[tuple[str, str]] = ("HARE: GIVE", 'pay rather than draw on a "chew a carrot"')

    #: per game, set by the options (instance attributes)
    carrots_95: bool = False
    postal_rotation: bool = True
    #: runners each player moves (two-player: 2, sharing one supply)
    runners_per_seat: int = 1

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "hare" not in cls.__dict__ and "hare_table" in cls.__dict__:
            cls.hare = HareTable(cls.hare_table)

    def home_allowance(self, place: int) -> int:
        return self.home_allowance_per_place * place

    def starting_carrots(self, seats: int) -> int:
        """The carrots each runner starts with (and a stuck runner restarts with)."""
        if self.runners_per_seat > 1:
            return self.two_player_carrots
        if self.carrots_95:
            return 95
        if self.big_game_carrots is not None and seats >= 5:
            return self.big_game_carrots
        return self.start_carrots

    def starting_lettuces(self) -> int:
        """The lettuces each runner (with two-player: each player's supply) starts with."""
        return self.two_player_lettuces if self.runners_per_seat > 1 else self.start_lettuces

    def with_options(self, options: tuple[str, ...]) -> Ruleset:
        """This ruleset for a game with these options (checked by the game's set-up)."""
        if not options:
            return self
        rules = type(self)()
        rules.carrots_95 = "carrots-95" in options
        rules.postal_rotation = "face-to-face" not in options
        rules.runners_per_seat = 2 if "two-player" in options else 1
        return rules


class VariablePig(Ruleset):
    """The Variable Pig postal rules on the Gibsons Games (1987) board."""

    name = "variable-pig"
    title = "Variable Pig postal rules (Gibsons 1987 board)"
    aliases: ClassVar[tuple[str, ...]] = ("vp", "gibsons", "postal")
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


class ParlettClassic(VariablePig):
    """Parlett's generic rules with the old-style hare (one die), on the Ravensburger 1978/79 board."""

    name = "parlett-classic"
    title = "Parlett's rules, old-style hare (Ravensburger 1978/79 board)"
    aliases = ("classic",)
    summary = "the 1978/79 board, the die table of variable-pig, and a stuck runner moves off at once"
    board = RAVENSBURGER_1978
    moves_off_when_stuck = True


class Intellect1974(ParlettClassic):
    """The first edition: numbered cards 1-6 for the die, and at most 20 carrots at HOME."""

    name = "intellect-1974"
    title = "Intellect Games 1974 (Ravensburger 1978/79 board)"
    aliases = ("intellect",)
    summary = "as parlett-classic, but a numbered card 1-6 for the die and at most 20 carrots at HOME in any place"
    hare_words = "turns up a numbered card (1 to 6) plus your position on the hare table"

    def home_allowance(self, place: int) -> int:
        return 20


PARLETT_DECK = HareDeck(
    (Card.GIVE_BEHIND, Card.GIVE_BEHIND, Card.MISS_OR_AGAIN, Card.MISS_OR_AGAIN, Card.RESTORE_65, Card.RESTORE_65,
     Card.PER_LETTUCE, Card.PER_LETTUCE, Card.FREE_RIDE, Card.FREE_RIDE, Card.HALF, Card.HALF, Card.SHOW, Card.SHOW,
     Card.SHUFFLE),
    recycle=True, reshuffler=Card.SHUFFLE,
)

SAM_DECK = HareDeck(
    (Card.MISS, Card.BACK_CARROT, Card.NEXT_CARROT, Card.AGAIN, Card.FREE_RIDE, Card.FREE_RIDE, Card.TAKE_GIVE,
     Card.TAKE_GIVE, Card.LETTUCE, Card.UP_ONE, Card.DOWN_ONE, Card.DOWN_ONE),
    recycle=False,
)


class Parlett2010(VariablePig):
    """Parlett's rules of 2010: 15 hare cards, each back under the pile."""

    name = "parlett-2010"
    title = "Parlett's rules of 2010 (hare cards, Gibsons 1987 board)"
    aliases = ("parlett",)
    summary = "15 hare cards instead of the die, each back under the pile; a stuck runner moves off at once"
    hare = PARLETT_DECK
    deck = PARLETT_DECK
    choices = ("KEEP", "REFUSE")
    moves_off_when_stuck = True
    hare_words = "draws the top card of the hare deck (15 cards, each goes back under the pile)"
    hare_example = ("HARE: IF CARROTS > 40 THEN REFUSE ELSE KEEP", "refuse a gift of carrots when rich")


class HaseIgelSam(VariablePig):
    """Hare and Hedgehog (SAM Coupe, 1992): 12 hare cards, free backward moves, 68/98 carrots."""

    name = "hase-igel-sam"
    title = "Hare and Hedgehog, the SAM Coupe rules (Ravensburger 1978/79 board)"
    aliases = ("hase-igel", "sam")
    summary = ("68 carrots (98 with 5-6 seats), 12 hare cards reshuffled when used up, moves back to any "
               "square down to the nearest tortoise square at 10 per square")
    board = RAVENSBURGER_1978
    start_carrots = 68
    big_game_carrots = 98
    hare = SAM_DECK
    deck = SAM_DECK
    choices = ("TAKE", "GIVE", "NONE")
    free_backward = True
    hare_words = "draws the top card of the hare deck (12 cards, reshuffled when used up)"
    hare_example = ("HARE: IF CARROTS >= 10 THEN GIVE ELSE NONE", 'pay 10 on "give or take 10 carrots"')
    two_player_carrots = 98
    options = ("two-player", "partnership", "face-to-face")


RULESETS: Mapping[str, type[Ruleset]] = MappingProxyType({
    cls.name: cls for cls in (VariablePig, Parlett2010, ParlettClassic, Intellect1974, HaseIgelSam)
})
DEFAULT_RULESET = VariablePig.name


_FOUND: dict[tuple[str, tuple[str, ...]], Ruleset] = {}


def find_ruleset(name: str | None, options: tuple[str, ...] = ()) -> Ruleset:
    """The ruleset called `name` (or one of its aliases), with the game's options; the default for None."""
    found = _FOUND.get((name or "", options))
    if found is not None:
        return found
    key = (name or DEFAULT_RULESET).strip().lower()
    for cls in RULESETS.values():
        if key == cls.name or key in cls.aliases:
            rules = _FOUND[(name or "", options)] = cls().with_options(options)
            return rules
    known = ", ".join(sorted(RULESETS))
    raise UnknownGameError(f"no Hare & Tortoise ruleset called {name!r}; known rulesets: {known}")
