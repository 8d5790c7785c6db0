"""The animals, the racing cards and the track of the card race, as plain values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

#: the animals in their fixed order (the racing phase's order and every tie-break's)
ANIMALS = ("hare", "tortoise", "wolf", "fox", "lamb")
HARE, TORTOISE, WOLF, FOX, LAMB = range(5)
#: each animal's letter in data; a howl card is `X`, a wolf card
LETTERS = "HTWFL"
HOWL = "X"
CARD_LETTERS = frozenset("HTWXFL")
TILES = 11  # a pawn past tile 11 has crossed the finish line
FINISHED = TILES + 1
POINTS = {1: 5, 2: 3, 3: 2}
STANDARD, APPRENTICE = "standard", "apprentice"
SINGLE, CHAMPIONSHIP = "single", "championship"
ROUNDS = 3

#: the deck of each ruleset, by card letter
DECKS = {
    STANDARD: {"H": 18, "T": 17, "W": 13, "X": 3, "F": 15, "L": 15},
    APPRENTICE: {"H": 13, "T": 13, "W": 13, "F": 13, "L": 13},
}
DEAL = {STANDARD: 7, APPRENTICE: 5}
HAND = {STANDARD: 6, APPRENTICE: 5}
TURBO_TILES = (2, 4, 6, 8, 10)

#: words of the order language for each animal (plurals and SHEEP too)
ANIMAL_WORDS = {
    "HARE": HARE, "HARES": HARE, "TORTOISE": TORTOISE, "TORTOISES": TORTOISE, "WOLF": WOLF, "WOLVES": WOLF,
    "FOX": FOX, "FOXES": FOX, "LAMB": LAMB, "LAMBS": LAMB, "SHEEP": LAMB,
}


def animal_of(card: str) -> int:
    """The animal a card counts for: a howl card is a wolf card."""
    return WOLF if card == HOWL else LETTERS.index(card)


def full_deck(ruleset: str) -> tuple[str, ...]:
    """Every racing card of the ruleset, in letter order (the chance source shuffles it)."""
    return tuple(letter for letter, n in DECKS[ruleset].items() for _ in range(n))


def counts(cards: Iterable[str]) -> list[int]:
    """How many cards of each animal (howl cards as wolves)."""
    out = [0] * 5
    for c in cards:
        out[animal_of(c)] += 1
    return out


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in the order H T W X F L (a hand is a multiset; this is how it is stored and shown)."""
    return tuple(sorted(cards, key="HTWXFL".index))


def remove(cards: Iterable[str], taken: Iterable[str]) -> tuple[str, ...]:
    """`cards` without `taken` (which it must hold)."""
    left = Counter(cards)
    left.subtract(Counter(taken))
    if any(v < 0 for v in left.values()):
        raise ValueError("cards taken that were not held")
    return sort_cards(left.elements())


def spell(cards: Iterable[str]) -> str:
    """Cards as letters, '-' for none."""
    text = "".join(cards)
    return text or "-"


def describe(cards: Iterable[str]) -> str:
    """Cards in words, e.g. '2 fox, 1 howl wolf'."""
    found = Counter(cards)
    parts = []
    for letter in "HTWXFL":
        n = found.get(letter, 0)
        if n:
            name = "howl wolf" if letter == HOWL else ANIMALS[LETTERS.index(letter)]
            parts.append(f"{n} {name}")
    return ", ".join(parts) or "nothing"


def ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"
