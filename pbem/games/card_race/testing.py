"""Random order sheets of the card race, for the random playthrough that every game takes."""

from __future__ import annotations

import random

from pbem.games.card_race.state import State

WORDS = ("HARE", "TORTOISE", "WOLF", "FOX", "LAMB", "FOXES", "SHEEP")
MALFORMED = ("PLAY 5 FOX", "PLAY 2 FOZ", "IF HAND >= 2 THEN PLAY 1 FOX", "PLAY: 2 FOX: ELSE", "BET: UNICORN",
             "RACE HARE HARE", "PLAY 2 LAMB WITH HOWL", "IF (TABLE > 3 THEN PLAY 1 HARE", "Hello all!", "DEFAULT:")


def _atom(rng: random.Random) -> str:
    cmp = rng.choice(["=", "!=", "<", "<=", ">", ">="])
    return rng.choice([f"HAND {rng.choice(WORDS)} {cmp} {rng.randint(0, 4)}",
                       f"TABLE {rng.choice(WORDS)} {cmp} {rng.randint(0, 4)}", f"TABLE {cmp} {rng.randint(0, 8)}",
                       f"HAND HOWL {cmp} 1", f"TABLE HOWL >= {rng.randint(0, 1)}"])


def _condition(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth < 2 and roll < 0.2:
        return f"({_condition(rng, depth + 1)} OR {_condition(rng, depth + 1)})"
    if depth < 2 and roll < 0.35:
        return f"{_condition(rng, depth + 1)} AND {_condition(rng, depth + 1)}"
    if roll < 0.45:
        return f"NOT {_atom(rng)}"
    return _atom(rng)


def _play(rng: random.Random) -> str:
    n = rng.randint(1, 4)
    animal = rng.choice(WORDS)
    if animal == "WOLF" and rng.random() < 0.3:
        return f"PLAY {n} WOLF WITH {rng.randint(1, n)} HOWL"
    return f"PLAY {n} {animal}"


def _chain(rng: random.Random) -> str:
    alts = []
    for _ in range(rng.randint(1, 3)):
        alts.append(f"IF {_condition(rng)} THEN {_play(rng)}" if rng.random() < 0.5 else _play(rng))
    return " ELSE ".join(alts)


def random_sheet(state: State, seat: int, rng: random.Random) -> str:
    lines = []
    if rng.random() < 0.6:
        lines.append(f"BET: {rng.choice([*WORDS, 'HOWL'])}")
    lines += [_chain(rng) for _ in range(rng.randint(0, 3))]
    if rng.random() < 0.7:
        lines.append(f"DEFAULT: {_chain(rng)}")
    if rng.random() < 0.5:
        lines.append("RACE " + ", ".join(rng.sample(WORDS[:5], rng.randint(1, 5))))
    if rng.random() < 0.3:
        lines.insert(rng.randint(0, len(lines)), rng.choice(MALFORMED))
    return "\n".join(lines)

