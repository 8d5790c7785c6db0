"""Random order sheets of Hare & Tortoise, for the random playthrough that every game takes
(through `Game.random_sheet`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import State

#: turns of random sheets; random sheets alone can loop for ever (staying, falling back), so
#: after these every seat sends FINISHER and the game must then end
RANDOM_TURNS = 40
#: distinct random sheets per list of seats: reading a sheet costs far more than resolving it,
#: so sheets are drawn from a pool and their readings cached by the test
POOL = 200

# A sheet that brings a runner home from any position.
FINISHER = (
    "DEFAULT: HOME ELSE IF LETTUCES > 0 AND CARROTS > 20 THEN NEXT LETTUCE ELSE IF CARROTS < 15 THEN BACK "
    "ELSE IF LETTUCES = 0 AND MY SQUARE > 50 AND CARROTS > 10 THEN STAY GIVE ELSE IF CARROTS > 100 THEN "
    "ADVANCE 7 ELSE IF CARROTS > 60 THEN ADVANCE 5 ELSE ADVANCE 3 ELSE ADVANCE 2 ELSE ADVANCE 1 ELSE BACK"
)

# In a ruleset where moving back earns carrots at will, a runner can hoard more than HOME allows;
# this one first falls back to the early track and spends the hoard on one long move.
SHEDDER = (
    "DEFAULT: HOME ELSE IF LETTUCES > 0 AND CARROTS > 20 THEN NEXT LETTUCE ELSE IF CARROTS > 120 AND MY SQUARE > 24 "
    "THEN BACK ELSE IF CARROTS > 120 THEN ADVANCE 30 ELSE IF CARROTS > 120 THEN ADVANCE 25 ELSE IF CARROTS > 120 "
    "THEN ADVANCE 20 ELSE IF CARROTS < 15 THEN BACK ELSE IF LETTUCES = 0 AND MY SQUARE > 50 AND CARROTS > 10 THEN "
    "STAY GIVE ELSE IF CARROTS > 60 THEN ADVANCE 5 ELSE ADVANCE 3 ELSE ADVANCE 2 ELSE ADVANCE 1 ELSE BACK"
)

# Lines a player might really send that the sheet must reject or pass over.
MALFORMED = (
    "MOVE: IF CARROTS > 5 TO 5", "MOVE: TO 99", "MOVE 9: NEXT", "MOVE: NEXT NUMBER 8", "MOVE: STAY +30",
    "MOVE: IF Zed IS HOME THEN BACK", "MOVE: JUMP", "DEFAULT: ", "HARE: MAYBE", "MOVE: IF (CARROTS > 3 THEN BACK",
    "move: to 12.", "Move 1 : advance 2", "Hello from me!", "> MOVE: TO 5", "MOVE: IF ≥ THEN", "MOVE:\u00a0NEXT",
)


def two_player_finisher(seat: str) -> str:
    """Two-player: a sheet that brings both runners home: both eat the supply's lettuces on the
    way (the rear one first), a hoard is spent on long moves (after falling back), carrots are
    shed near the end, then HOME; otherwise the default move moves the rear runner on."""
    one, two = f"{seat}1", f"{seat}2"
    alts = [f"IF LETTUCES = 0 THEN {one} HOME", f"IF LETTUCES = 0 THEN {two} HOME",
            f"IF {two} IS NOT BEHIND AND LETTUCES > 0 THEN {one} NEXT LETTUCE",
            f"IF {one} IS NOT BEHIND AND LETTUCES > 0 THEN {two} NEXT LETTUCE"]
    alts += [f"IF CARROTS > 120 AND MY SQUARE > 24 THEN {me} BACK" for me in (one, two)]
    alts += [f"IF CARROTS > 120 THEN {me} ADVANCE 25" for me in (one, two)]
    alts += [f"IF MY SQUARE > 50 THEN {me} STAY GIVE" for me in (one, two)]
    return "DEFAULT: " + " ELSE ".join(alts)


def random_sheet(state: State, seat: int, rng: random.Random) -> str:
    """A sheet for `seat`: random MOVE, DEFAULT and HARE lines, some of them illegal or
    malformed; FINISHER once the game has run RANDOM_TURNS turns."""
    two = state.per_seat > 1
    if state.turn > RANDOM_TURNS:
        if two:
            return two_player_finisher(state.seats[seat])
        return SHEDDER if find_ruleset(state.ruleset).free_backward else FINISHER
    if two:
        return rng.choice(sheet_pool(tuple(r.name for r in state.runners), state.seats[seat]))
    return rng.choice(sheet_pool(state.seats))


@cache
def sheet_pool(seats: tuple[str, ...], author: str | None = None) -> tuple[str, ...]:
    """Random sheets for these names (with two-player: every runner's, for the seat `author`)."""
    rng = random.Random(len(seats))
    actors = () if author is None else tuple(r for r in seats if r[:-1] == author)
    return tuple(_sheet(rng, seats, actors) for _ in range(POOL))


def _sheet(rng: random.Random, seats: Sequence[str], actors: Sequence[str] = ()) -> str:
    lines = [f"MOVE: {_chain(rng, seats, actors)}" for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.7:
        lines.append(f"DEFAULT: {_chain(rng, seats, actors)}")
    if rng.random() < 0.3:
        lines.append(f"HARE: {rng.choice(['TAKE', 'GIVE', 'KEEP', 'REFUSE', 'NONE'])}")
    if rng.random() < 0.2:
        word = rng.choice(["TAKE", "GIVE", "KEEP", "REFUSE", "NONE"])
        lines.append(f"HARE: IF {_condition(rng, seats)} THEN {word} ELSE {rng.choice(['TAKE', 'KEEP', 'NONE'])}")
    if rng.random() < 0.4:
        lines.insert(rng.randint(0, len(lines)), rng.choice(MALFORMED))
    return "\n".join(lines)


def _atom(rng: random.Random, seats: Sequence[str]) -> str:
    cmp = rng.choice(["=", "!=", "<", "<=", ">", ">="])
    return rng.choice([
        f"SQUARE {rng.randint(0, 64)} IS {rng.choice(['FREE', 'OCCUPIED', 'NOT FREE'])}",
        f"{rng.choice(seats)} IS {rng.choice(['', 'NOT '])}ON {rng.randint(0, 64)}",
        f"{rng.choice(seats)} IS {rng.choice(['AHEAD', 'BEHIND', 'HOME', 'NOT HOME'])}",
        f"I AM {rng.choice(['FIRST', 'LAST', 'NOT LAST'])}",
        f"RANK {cmp} {rng.randint(1, 6)}",
        f"CARROTS {cmp} {rng.randint(0, 120)}",
        f"LETTUCES {cmp} {rng.randint(0, 3)}",
        f"MY SQUARE {cmp} {rng.randint(0, 63)}",
    ])


def _condition(rng: random.Random, seats: Sequence[str], depth: int = 0) -> str:
    roll = rng.random()
    if depth < 2 and roll < 0.2:
        return f"({_condition(rng, seats, depth + 1)} OR {_condition(rng, seats, depth + 1)})"
    if depth < 2 and roll < 0.4:
        return f"{_condition(rng, seats, depth + 1)} AND {_condition(rng, seats, depth + 1)}"
    if roll < 0.5:
        return f"NOT {_atom(rng, seats)}"
    return _atom(rng, seats)


def _action(rng: random.Random) -> str:
    return rng.choice([
        f"TO {rng.randint(0, 64)}", "HOME", "TO HOME", f"ADVANCE {rng.randint(0, 12)}", "NEXT",
        f"NEXT {rng.choice(['CARROT', 'LETTUCE', 'HARE', 'NUMBER'])}", f"NEXT NUMBER {rng.randint(1, 6)}",
        "BACK", f"BACK {rng.randint(0, 9)}", "STAY", "STAY GIVE", "STAY -10", "STAY +10", "EAT",
    ])


def _actor(rng: random.Random, seats: Sequence[str], actors: Sequence[str]) -> str:
    """Two-player: the acting runner before an action, now and then another player's or none
    (nothing, and no draw, in the one-runner game)."""
    if not actors:
        return ""
    name = rng.choice(actors) if rng.random() < 0.97 else rng.choice([*seats, ""])
    return f"{name} " if name else ""


def _chain(rng: random.Random, seats: Sequence[str], actors: Sequence[str] = ()) -> str:
    alts = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.6:
            condition = _condition(rng, seats)
            alts.append(f"IF {condition} THEN {_actor(rng, seats, actors)}{_action(rng)}")
        else:
            alts.append(f"{_actor(rng, seats, actors)}{_action(rng)}")
    return " ELSE ".join(alts)
