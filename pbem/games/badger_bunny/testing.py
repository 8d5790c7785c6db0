"""Random order sheets of If Badger was a Bunny, for the random playthrough that every game takes."""

from __future__ import annotations

import random

from pbem.games.badger_bunny.state import State

#: mail turns of random sheets; after them both seats play their lowest single, which ends a race
RANDOM_TURNS = 60

MALFORMED = (
    "PLAY PAWN-MOONS", "PLAY LUNATIK", "PLAY", "PLAY 6-MOONS 6-MOONS", "IF I LEAD PLAY LOWEST",
    "PASS: PASS", "PLAY: BARD: SEA", "IF LAST RANK > 10 THEN PASS", "DEFAULT PLAY EXCUSE", "Hello Bob!",
    "IF (HAND > 3 THEN PASS", "PLAY 7-MOON, 8-LEAF", "IF SERIES IS SINGLES AND NOT OPPONENT PASSED THEN PLAY LOWEST",
)
FINISHER = "DEFAULT: PLAY LOWEST ELSE IF I LEAD THEN PLAY EXCUSE ELSE PASS"


def random_sheet(state: State, seat: int, rng: random.Random) -> str:
    if state.turn > RANDOM_TURNS:
        return FINISHER
    race = state.race
    hand = [c.token for c in race.hands[seat]]
    deck_cards = [c.token for c in state.deck.cards]
    lines = []
    for _ in range(rng.randint(0, 4)):
        lines.append(_chain(rng, hand, deck_cards, state))
    if rng.random() < 0.6:
        lines.append("DEFAULT: " + _chain(rng, hand, deck_cards, state))
    if rng.random() < 0.3:
        lines.insert(rng.randint(0, len(lines)), rng.choice(MALFORMED))
    return "\n".join(lines)


def _play(rng: random.Random, hand: list[str], deck: list[str]) -> str:
    roll = rng.random()
    if roll < 0.25:
        return "PLAY LOWEST"
    if roll < 0.3:
        return "PASS"
    pool = hand if hand and rng.random() < 0.8 else deck
    k = min(len(pool), rng.choice([1, 1, 2, 2, 3, 4]))
    return "PLAY " + " ".join(rng.sample(pool, k)) if k else "PASS"


def _cond(rng: random.Random, deck: list[str], state: State) -> str:
    cmp = rng.choice(["=", "!=", "<", "<=", ">", ">="])
    ranks = [r.value for r in state.deck.ranks()]
    return rng.choice([
        "I LEAD", "OPPONENT PASSED", f"SERIES IS {rng.choice(['', 'NOT '])}{rng.choice(['SINGLE', 'MULTIPLE', 'STRAIGHT'])}",
        f"LAST RANK {cmp} {rng.choice(ranks)}", f"HAND {cmp} {rng.randint(0, 12)}", f"OPPONENT DECK {cmp} {rng.randint(0, 9)}",
        f"I HOLD {rng.choice(deck)}", "NOT I LEAD",
    ])


def _chain(rng: random.Random, hand: list[str], deck: list[str], state: State) -> str:
    alts = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            alts.append(f"IF {_cond(rng, deck, state)} THEN {_play(rng, hand, deck)}")
        else:
            alts.append(_play(rng, hand, deck))
    return " ELSE ".join(alts)


