"""The Decktet as If Badger was a Bunny uses it: cards, decks, the rank ladder and card names."""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass
from functools import cache

from pbem.orders import ErrorKind, OrderError, meant, suggest

SUITS = ("MOONS", "SUNS", "WAVES", "LEAVES", "WYRMS", "KNOTS")
_SINGULAR = {"MOON": "MOONS", "SUN": "SUNS", "WAVE": "WAVES", "LEAF": "LEAVES", "WYRM": "WYRMS", "KNOT": "KNOTS"}
#: the longest card word read at all (the longest name is 20 characters)
MAX_WORD = 40


class Rank(enum.Enum):
    EXCUSE = "EXCUSE"
    ACE = "ACE"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    PAWN = "PAWN"
    COURT = "COURT"
    CROWN = "CROWN"

    def value_in(self, extended: bool) -> int:
        """The rung of the ladder: Excuse 0, Ace 1 ... 9, then Crown 10 (or Pawn 10, Court 11, Crown 12)."""
        if self is Rank.EXCUSE:
            return 0
        if self is Rank.ACE:
            return 1
        if self is Rank.CROWN:
            return 12 if extended else 10
        if self is Rank.PAWN:
            return 10
        if self is Rank.COURT:
            return 11
        return int(self.value)

    @property
    def word(self) -> str:
        return self.value.capitalize() if not self.value.isdigit() else self.value


@dataclass(frozen=True)
class Card:
    """One card: its token, name, rank and suits; `index` is its place in the deck tables."""

    token: str
    name: str
    rank: Rank
    suits: tuple[str, ...]
    index: int

    def __repr__(self) -> str:
        return self.token

    @property
    def label(self) -> str:
        """The card as a player reads it, its rank and every suit (5 Moons/Leaves): the token
        names one suit only, and the second decides what the card connects to."""
        suits = "/".join(s.capitalize() for s in self.suits)
        return f"{self.rank.word} {suits}" if suits else self.rank.word

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


_TABLE = (
    ("ACE", "MOONS", "Ace of Moons"), ("ACE", "SUNS", "Ace of Suns"), ("ACE", "WAVES", "Ace of Waves"),
    ("ACE", "LEAVES", "Ace of Leaves"), ("ACE", "WYRMS", "Ace of Wyrms"), ("ACE", "KNOTS", "Ace of Knots"),
    ("2", "MOONS KNOTS", "the Author"), ("2", "SUNS WYRMS", "the Desert"), ("2", "WAVES LEAVES", "the Origin"),
    ("3", "MOONS WAVES", "the Journey"), ("3", "SUNS KNOTS", "the Painter"), ("3", "LEAVES WYRMS", "the Savage"),
    ("4", "MOONS SUNS", "the Mountain"), ("4", "WAVES LEAVES", "the Sailor"), ("4", "WYRMS KNOTS", "the Battle"),
    ("5", "MOONS LEAVES", "the Forest"), ("5", "SUNS WAVES", "the Discovery"), ("5", "WYRMS KNOTS", "the Soldier"),
    ("6", "MOONS WAVES", "the Lunatic"), ("6", "SUNS WYRMS", "the Penitent"), ("6", "LEAVES KNOTS", "the Market"),
    ("7", "MOONS LEAVES", "the Chance Meeting"), ("7", "SUNS KNOTS", "the Castle"), ("7", "WAVES WYRMS", "the Cave"),
    ("8", "MOONS SUNS", "the Diplomat"), ("8", "WAVES LEAVES", "the Mill"), ("8", "WYRMS KNOTS", "the Betrayal"),
    ("9", "MOONS SUNS", "the Pact"), ("9", "WAVES WYRMS", "the Darkness"), ("9", "LEAVES KNOTS", "the Merchant"),
    ("CROWN", "MOONS", "the Huntress"), ("CROWN", "SUNS", "the Bard"), ("CROWN", "WAVES", "the Sea"),
    ("CROWN", "LEAVES", "the End"), ("CROWN", "WYRMS", "the Calamity"), ("CROWN", "KNOTS", "the Windfall"),
    ("PAWN", "MOONS SUNS LEAVES", "the Harvest"), ("PAWN", "MOONS WYRMS KNOTS", "the Watchman"),
    ("PAWN", "SUNS WAVES KNOTS", "the Light Keeper"), ("PAWN", "WAVES LEAVES WYRMS", "the Borderland"),
    ("COURT", "MOONS WAVES KNOTS", "the Consul"), ("COURT", "MOONS LEAVES WYRMS", "the Rite"),
    ("COURT", "SUNS WAVES WYRMS", "the Island"), ("COURT", "SUNS LEAVES KNOTS", "the Window"),
)


def _make() -> tuple[Card, ...]:
    cards = []
    for i, (rank, suits, name) in enumerate(_TABLE):
        s = tuple(suits.split())
        token = f"{rank}-{'-'.join(s[:2])}" if rank in ("PAWN", "COURT") else f"{rank}-{s[0]}"
        cards.append(Card(token, name, Rank(rank), s, i))
    cards.append(Card("EXCUSE", "the Excuse", Rank.EXCUSE, (), len(_TABLE)))
    return tuple(cards)


ALL = _make()
BY_TOKEN = {c.token: c for c in ALL}
EXCUSE = BY_TOKEN["EXCUSE"]


@dataclass(frozen=True)
class Deck:
    """The deck in use: the basic 36 cards, or 44 extended, with or without the Excuse."""

    extended: bool = False
    excuse: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        return _cards(self.extended, self.excuse)

    def value(self, card: Card) -> int:
        return card.rank.value_in(self.extended)

    def has(self, card: Card) -> bool:
        return card in self.cards

    @property
    def aside(self) -> int:
        return 3 if self.excuse else 2

    @property
    def share(self) -> int:
        return 20 if self.extended else 16

    @property
    def hand(self) -> int:
        return 10 if self.extended else 8

    def ranks(self) -> tuple[Rank, ...]:
        out: list[Rank] = [r for r in Rank if r not in (Rank.PAWN, Rank.COURT, Rank.EXCUSE)]
        if self.extended:
            out += [Rank.PAWN, Rank.COURT]
        if self.excuse:
            out.append(Rank.EXCUSE)
        return tuple(out)


@cache
def _cards(extended: bool, excuse: bool) -> tuple[Card, ...]:
    return tuple(c for c in ALL if (extended or c.rank not in (Rank.PAWN, Rank.COURT))
                 and (excuse or c.rank is not Rank.EXCUSE))


def card(token: str) -> Card:
    return BY_TOKEN[token]


class CardError(OrderError):
    """A card name that names no card, or more than one, or one not in the deck in use (the
    reader of the order line sets the column)."""

    def __init__(self, reason: str, *, ambiguous: bool = False, illegal: bool = False) -> None:
        kind = ErrorKind.AMBIGUOUS if ambiguous else ErrorKind.ILLEGAL if illegal else ErrorKind.INVALID
        super().__init__(1, reason, kind)

    @property
    def ambiguous(self) -> bool:
        return self.kind is ErrorKind.AMBIGUOUS


def _name_key(name: str) -> str:
    return name.upper().removeprefix("THE ").replace(" ", "-")


NAMES = {_name_key(c.name): c for c in ALL}
RANK_WORDS = {"A": Rank.ACE, "1": Rank.ACE, "ACE": Rank.ACE, "PAWN": Rank.PAWN, "COURT": Rank.COURT,
              "CROWN": Rank.CROWN, "EXCUSE": Rank.EXCUSE, **{str(n): Rank(str(n)) for n in range(2, 10)}}


def _suit(word: str) -> str | None:
    if word in SUITS:
        return word
    return _SINGULAR.get(word)


_RANK_WORDS = ("ACE", "PAWN", "COURT", "CROWN", "EXCUSE")


def _part_fixed(key: str) -> str | None:
    """The card name with each misspelt part (a rank word or a suit, singular or plural) spelt
    right, when that makes a card's name: 8-LEAFF is 8-LEAF, CRWON-SUNS is CROWN-SUNS."""
    parts = key.split("-")
    fixed = []
    for i, part in enumerate(parts):
        known = (RANK_WORDS if i == 0 else (*SUITS, *_SINGULAR))
        fixed.append(part if part in known else suggest(part, _RANK_WORDS if i == 0 else (*SUITS, *_SINGULAR)) or "")
    name = "-".join(fixed)
    return name if all(fixed) and name != key else None


def _suggest(word: str) -> str:
    fixed = _part_fixed(word)
    if fixed is not None:
        return meant(fixed)
    words = [*BY_TOKEN, *NAMES]
    close = difflib.get_close_matches(word, words, n=2, cutoff=0.6)
    return meant(" or ".join(close)) if close else ""


def parse_card(word: str, deck: Deck) -> Card:
    """The card `word` names in any accepted form; CardError says why it names none."""
    key = word.upper().replace("_", "-")
    if len(key) > MAX_WORD:
        raise CardError(f"{word[:MAX_WORD]!r}... is too long to be a card name")
    found: Card | None = NAMES.get(key) or (EXCUSE if key == "EXCUSE" else None)
    if found is None:
        parts = key.split("-")
        rank = RANK_WORDS.get(parts[0])
        suits = [_suit(p) for p in parts[1:]]
        if rank is None or not parts[1:] or None in suits:
            raise CardError(f"{word!r} is not a card{_suggest(key)}")
        pool = [c for c in ALL if c.rank is rank and all(s in c.suits for s in suits)]
        if len(set(suits)) != len(suits) or not pool:
            raise CardError(f"no card is a {rank.word} of {' and '.join(str(s).lower() for s in suits)}"
                            f"{_suggest(key)}")
        in_use = [c for c in pool if deck.has(c)]
        if len(pool) > 1 and len(in_use) != 1:
            names = " or ".join(c.token for c in pool)
            raise CardError(f"{word!r} names more than one card ({names}); add a suit", ambiguous=True)
        found = in_use[0] if in_use else pool[0]
    if not deck.has(found):
        what = "the Excuse is not in play (excuse=no)" if found is EXCUSE else \
            f"{found.token} ({found.name}) is not in the basic deck"
        raise CardError(what, illegal=True)
    return found


def parse_rank(word: str, deck: Deck) -> Rank:
    key = word.upper()
    rank = RANK_WORDS.get(key)
    if rank is None:
        hint = " (write CROWN, PAWN or COURT above 9)" if key.isdigit() else ""
        raise CardError(f"{word!r} is not a rank{hint}")
    if rank not in deck.ranks():
        raise CardError(f"the rank {rank.word} is not in the deck in use", illegal=True)
    return rank
