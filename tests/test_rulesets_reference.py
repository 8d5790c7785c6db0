"""The engine against a second, independent model of the contract (tests/ht_reference.py), on
random positions and order sheets in every ruleset with the options partnership, carrots-95 and
face-to-face: both must end every turn in the same position, deck, slot count and next first mover.

This is what an independent implementation generating random cases would do to our
`check-cases`; the audit of RULESETS.md ran it on some 90,000 positions with no difference.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.games.hare_tortoise import dialect, engine
from pbem.games.hare_tortoise.board import HOME
from pbem.games.hare_tortoise.orders.parser import parse_sheet
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import Must, Runner, State
from tests.ht_reference import Reference

RULESETS = ("parlett-2010", "parlett-classic", "intellect-1974", "hase-igel-sam", "variable-pig")
NAMES = ("Ann", "Bob", "Cyd", "Dot", "Eve", "Fay")
TEAMS = {4: [((0, 2), (1, 3))], 6: [((0, 2, 4), (1, 3, 5)), ((0, 3), (1, 4), (2, 5)), ((0, 3), (1, 5), (2, 4))]}
ACTIONS = ("NEXT", "NEXT CARROT", "NEXT HARE", "NEXT LETTUCE", "NEXT NUMBER", "NEXT NUMBER {d}", "BACK", "STAY",
           "STAY GIVE", "HOME", "TO {to}", "TO {to}", "TO {to}", "ADVANCE {n}", "EAT")


class _Chance:
    """Dice and shuffles from a seeded source; the engine and the model each get one, same seed."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.turn = 1
        self.drawn: list[Any] = []

    def die(self, sides: int) -> int:
        return self.random.randint(1, sides)

    def uniform(self, n: int) -> int:
        return self.random.randrange(n)

    def shuffle(self, items: Any) -> list[Any]:
        order = list(items)
        self.random.shuffle(order)
        return order


def _condition(r: random.Random, names: tuple[str, ...]) -> str:
    who = r.choice(names)
    return r.choice([
        f"CARROTS > {r.randint(0, 80)}", f"CARROTS <= {r.randint(0, 30)}", f"SQUARE {r.randint(0, 64)} IS FREE",
        f"SQUARE {r.randint(0, 64)} IS OCCUPIED", "I AM FIRST", "I AM NOT LAST", f"RANK <= {r.randint(1, 4)}",
        f"{who} IS AHEAD", f"{who} IS NOT BEHIND", f"{who} IS HOME", f"{who} IS ON {r.randint(0, 64)}",
        f"MY SQUARE >= {r.randint(0, 63)}", f"LETTUCES = {r.randint(0, 3)}",
        f"NOT ({who} IS BEHIND OR CARROTS < {r.randint(0, 50)})",
    ])


def _chain(r: random.Random, names: tuple[str, ...], back_n: bool, square: int) -> str:
    alternatives = []
    for _ in range(r.randint(1, 3)):
        action = r.choice(ACTIONS + (("BACK {n}", "BACK {n}") if back_n else ()))
        action = action.format(d=r.randint(1, 6), n=r.randint(1, 8), to=max(0, min(HOME, square + r.randint(-8, 12))))
        alternatives.append(f"IF {_condition(r, names)} THEN {action}" if r.random() < 0.5 else action)
    return " ELSE ".join(alternatives)


def _hare_line(r: random.Random, words: tuple[str, ...], names: tuple[str, ...]) -> str:
    if r.random() < 0.5:
        return f"HARE: {r.choice(words)}"
    return (f"HARE: IF {_condition(r, names)} THEN {r.choice(words)} ELSE IF {_condition(r, names)} THEN "
            f"{r.choice(words)}")


def _position(seed: int) -> tuple[State, list[Any]] | None:
    """A random position before a turn, and the seats' order sheets (None: no orders)."""
    r = random.Random(seed)
    ruleset = r.choice(RULESETS)
    n = r.randint(2, 6)
    options = [o for o, p in (("face-to-face", 0.3), ("carrots-95", 0.4)) if r.random() < p
               and (o != "carrots-95" or (n >= 5 and ruleset != "hase-igel-sam"))]
    teams: tuple[tuple[int, ...], ...] = ()
    if n in TEAMS and r.random() < 0.3:
        options.append("partnership")
        teams = r.choice(TEAMS[n])
    rules = find_ruleset(ruleset, tuple(options))
    names = NAMES[:n]
    endgame = seed % 3 == 0
    low = 50 if endgame else r.choice([1, 40])
    squares = r.sample(range(low, HOME), n)
    runners: list[Runner] = []
    for i, name in enumerate(names):
        chance = r.random()
        if chance < 0.3 and chance >= 0.12 and sum(x.square == HOME for x in runners) < n - 2:
            runners.append(Runner(name, HOME, r.randint(0, 30), 0, sum(x.square == HOME for x in runners) + 1))
            continue
        square = 0 if chance < 0.12 else squares[i]
        kind = int(rules.board.kinds[square])
        must = r.choice([Must.EAT, Must.LEAVE, Must.NONE, Must.NONE]) if kind in (2, 3) else Must.NONE
        carrots = r.randint(0, 45) if endgame else r.choice([r.randint(0, 15), r.randint(0, 120)])
        lettuces = 0 if endgame and r.random() < 0.8 else r.randint(0, 3)
        runners.append(Runner(name, square, carrots, lettuces, None, must, r.random() < 0.1))
    if teams and any(all(runners[j].square == HOME for j in t) for t in teams):
        return None
    deck: tuple[str, ...] = ()
    used: tuple[str, ...] = ()
    if rules.deck is not None:
        codes = list(rules.deck.codes)
        r.shuffle(codes)
        cut = len(codes) if rules.deck.recycle else r.randint(0, len(codes))
        deck, used = tuple(codes[:cut]), tuple(codes[cut:])
    inert = tuple(i for i, x in enumerate(runners) if rules.free_backward and x.square not in (0, HOME)
                  and int(rules.board.kinds[x.square]) not in (3, 4) and r.random() < 0.3)
    racing = [i for i, x in enumerate(runners) if x.square != HOME]
    first = r.choice(racing) if rules.postal_rotation else racing[0]
    state = State(ruleset, tuple(runners), r.randint(1, 9), first, False, tuple(options),
                  tuple((f"T{k}", t) for k, t in enumerate(teams)), deck, used, inert)
    sheets: list[Any] = []
    for i in range(n):
        if r.random() < 0.15:
            sheets.append(None)
            continue
        lines = [f"MOVE: {_chain(r, names, rules.free_backward, runners[i].square)}" for _ in range(r.randint(0, 3))]
        if r.random() < 0.5:
            lines.append(f"DEFAULT: {_chain(r, names, rules.free_backward, runners[i].square)}")
        if r.random() < 0.6:
            lines.append(_hare_line(r, rules.choices, names))
        sheets.append(parse_sheet("\n".join(lines), list(names), dialect(rules)))
    return state, sheets


def differences(seed: int) -> list[str]:
    made = _position(seed)
    if made is None:
        return []
    state, sheets = made
    rules = find_ruleset(state.ruleset, state.options)
    try:
        result = engine.resolve_turn(rules, state, sheets, _Chance(seed))
    except PbemError:
        return []
    model = Reference(state.ruleset, state.options, state.runners, state.first, state.deck, state.used, state.inert,
                      [seats for _, seats in state.teams], _Chance(seed))
    played = model.turn(sheets)
    after = result.state
    found = []
    for i, x in enumerate(after.runners):
        got = (x.square, x.carrots, x.lettuces, x.place, x.must.value, x.skip, i in after.inert and rules.free_backward)
        want = (model.sq[i], model.car[i], model.let[i], model.place[i], model.must[i], model.skip[i], i in model.inert)
        if got != want:
            found.append(f"seed {seed}: {x.name} engine {got}, model {want}")
    if list(after.deck) != model.deck:
        found.append(f"seed {seed}: deck engine {after.deck}, model {model.deck}")
    if after.over != model.over or len(result.slots) != played:
        found.append(f"seed {seed}: over/slots engine {after.over}/{len(result.slots)}, model {model.over}/{played}")
    if not model.over and after.first != model.next_first():
        found.append(f"seed {seed}: next first mover engine {after.first}, model {model.next_first()}")
    return found


@pytest.mark.parametrize("block", range(8))
def test_the_engine_agrees_with_the_reference_model(block: int) -> None:
    found = [d for seed in range(block * 100, (block + 1) * 100) for d in differences(seed)]
    assert found == []


def test_the_comparison_catches_a_changed_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model is not a copy of the engine: change one rule in it and the comparison objects."""
    from tests import ht_reference

    monkeypatch.setitem(ht_reference.RULESETS["intellect-1974"], "home", lambda place: 10 * place)
    monkeypatch.setitem(ht_reference.RULESETS["hase-igel-sam"], "start", 65)
    assert any(differences(seed) for seed in range(300))
