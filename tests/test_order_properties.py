"""Whatever the order parser accepts, the engine resolves; whatever it rejects, it rejects in its own words.

Generated order lines and sheets — valid, malformed, huge, deeply nested, in any script — go
through `parse_order_line` and `parse_sheet`. The parser may only raise its own rejection, with
a column on the line, a reason and a kind; every chain it accepts compiles and resolves.
Each limit must hold on its own, so every line is also parsed with the line-length limit lifted.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise import engine
from pbem.games.hare_tortoise.orders.model import Chain, MoveOrder, OrderSheet, RejectionKind
from pbem.games.hare_tortoise.orders.parser import LIMITS, OrderLimits, OrderLineError, parse_order_line, parse_sheet
from pbem.games.hare_tortoise.rules import find_ruleset
from pbem.games.hare_tortoise.state import Must, State

PLAYERS = ("Ann", "Bob", "Cyd")
RULES = find_ruleset("variable-pig")
#: the line-length limit lifted: the other limits must stand without it
LONG_LINES = replace(LIMITS, line_length=10**6)
PROPERTY = settings(max_examples=300, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# -- order lines, built from the language's own parts -------------------------------------

numbers = st.one_of(st.integers(0, 70).map(str), st.integers(0, 70).map(str), st.integers(0, 10**9).map(str),
                    st.text("0123456789", min_size=1, max_size=12))
names = st.sampled_from(PLAYERS + ("ann", "BOB", "Zed", "Bobb", "i", "move"))
cmps = st.sampled_from(["=", "!=", "<", "<=", ">", ">=", "==", "<>", "≤", "≥", "≠", "=<"])
atoms = st.one_of(
    st.builds("SQUARE {} IS {}{}".format, numbers, st.sampled_from(["", "NOT "]), st.sampled_from(["FREE", "OCCUPIED"])),
    st.builds("{} IS {}ON {}".format, names, st.sampled_from(["", "NOT "]), numbers),
    st.builds("{} IS {}{}".format, names, st.sampled_from(["", "NOT "]), st.sampled_from(["AHEAD", "BEHIND", "HOME"])),
    st.builds("I AM {}{}".format, st.sampled_from(["", "NOT "]), st.sampled_from(["FIRST", "LAST"])),
    st.builds("{} {} {}".format, st.sampled_from(["RANK", "CARROTS", "LETTUCES", "MY SQUARE"]), cmps, numbers),
)
conditions = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.builds("NOT {}".format, inner),
        st.builds("({})".format, inner),
        st.builds("{} AND {}".format, inner, inner),
        st.builds("{} OR {}".format, inner, inner),
    ),
    max_leaves=12,
)
actions = st.one_of(
    st.builds("TO {}".format, numbers),
    st.sampled_from(["HOME", "TO HOME", "NEXT", "BACK", "STAY", "STAY GIVE", "STAY TAKE", "STAY +10", "STAY -10", "EAT",
                     "NEXT CARROT", "NEXT CARROTS", "NEXT LETTUCE", "NEXT HARE", "NEXT NUMBER"]),
    st.builds("ADVANCE {}".format, numbers),
    st.builds("NEXT NUMBER {}".format, numbers),
    st.builds("STAY {}{}".format, st.sampled_from(["", "+", "-"]), numbers),
)
alternatives = st.one_of(actions, st.builds("IF {} THEN {}".format, conditions, actions))
chains = (st.lists(alternatives, min_size=1, max_size=5)
          | st.lists(st.sampled_from(["NEXT", "BACK", "TO 5"]), min_size=1, max_size=20)).flatmap(
    lambda alts: st.sampled_from([" ELSE ", ", ELSE ", "; OTHERWISE ", " else "]).map(lambda sep: sep.join(alts)))
heads = st.sampled_from(["MOVE:", "MOVE", "move 1:", "MOVE 2", "DEFAULT:", "default", "Move:"])
grammatical = st.one_of(st.builds("{} {}".format, heads, chains), st.sampled_from(["HARE: TAKE", "HARE GIVE", "hare: give"]))

# -- and lines that are anything but ----------------------------------------------------

words = st.sampled_from(
    "MOVE DEFAULT HARE IF THEN ELSE OTHERWISE NOT AND OR SQUARE IS FREE OCCUPIED ON AHEAD BEHIND HOME I AM FIRST "
    "LAST RANK CARROTS LETTUCES MY TO ADVANCE NEXT BACK STAY EAT CARROT LETTUCE NUMBER TAKE GIVE Ann Bob Zed "
    "( ) : , ; = != < <= > >= + - 5 64 65 99999 # . ! ~ \t".split(" ")
)
soup = st.builds("{} {}".format, heads, st.lists(words, max_size=60).map(" ".join))
unicode_lines = st.builds("{} {}".format, heads, st.text(max_size=200))
mangled = st.builds(lambda line, i, junk: line[:i] + junk + line[i:], grammatical, st.integers(0, 400),
                    st.text(max_size=5))


def _deep(op: str, n: int) -> str:
    if op == "NOT":
        return "NOT " * n + "RANK = 1"
    if op == "()":
        return "(" * n + "RANK = 1" + ")" * n
    if op == "OR":
        return " OR ".join(["RANK = 1"] * n)
    if op == "AND(":
        return "NOT (RANK = 1 AND " * n + "CARROTS > 5" + ")" * n
    return "(RANK = 1 OR " * n + "I AM FIRST" + ")" * n


deep = st.builds(lambda op, n, then: f"MOVE: IF {_deep(op, n)} THEN {then}",
                 st.sampled_from(["NOT", "()", "OR", "AND(", "OR("]), st.integers(1, 1500), actions)
huge = st.one_of(
    st.builds(lambda n, tail: "MOVE" + " " * n + tail, st.integers(0, 100_000), st.sampled_from(["!", "NEXT", ""])),
    st.builds(lambda n: "MOVE: ADVANCE " + "9" * n, st.integers(1, 6000)),
    st.builds(lambda n: "MOVE: " + " ELSE ".join(["NEXT"] * n), st.integers(1, 3000)),
)
lines = st.one_of(grammatical, grammatical, grammatical, soup, unicode_lines, mangled, deep, huge)


def _resolve(chains: list[Chain], seed: int) -> None:
    """Resolve turns in which every seat plays these chains, from the start and from mid-race."""
    sheets = [OrderSheet(moves=tuple(MoveOrder(c, 1, str(c)) for c in chains), default=chains[-1]) for _ in PLAYERS]
    state = engine.new_state(RULES, PLAYERS)
    positions = [
        state,
        State(state.ruleset, (state.runners[0]._replace(square=22, carrots=40, must=Must.EAT),
                              state.runners[1]._replace(square=63, carrots=3, lettuces=0),
                              state.runners[2]._replace(square=64, carrots=0, lettuces=0, place=1)), turn=20, first=0),
    ]
    for position in positions:
        for turn in range(3):
            if position.over:
                break
            position = engine.resolve_turn(RULES, position, sheets, LegacyChance(seed, turn)).state


def _check(line: str, limits: OrderLimits, seed: int) -> None:
    try:
        parsed = parse_order_line(line, PLAYERS, limits)
    except OrderLineError as err:
        assert err.kind in RejectionKind
        assert 1 <= err.column <= len(line) + 1
        assert err.reason
        return
    if isinstance(parsed.value, Chain):
        assert len(parsed.value.alternatives) <= limits.alternatives
        _resolve([parsed.value], seed)


@PROPERTY
@given(line=lines, seed=st.integers(0, 2**32))
@example(line="MOVE: IF " + "NOT " * 250 + "RANK = 1 THEN NEXT", seed=0)
@example(line="MOVE: IF " + _deep("AND(", 1000) + " THEN NEXT", seed=0)
@example(line="MOVE: IF " + _deep("OR(", 1000) + " THEN NEXT", seed=0)
@example(line="MOVE: IF " + _deep("OR", 1000) + " THEN NEXT", seed=0)
@example(line="MOVE: ADVANCE " + "9" * 5000, seed=0)
@example(line="MOVE" + " " * 1_000_000 + "!", seed=0)
def test_parse_order_line_rejects_in_its_own_words_and_accepted_chains_resolve(line: str, seed: int) -> None:
    _check(line, LIMITS, seed)
    _check(line, LONG_LINES, seed)


@PROPERTY
@given(body=st.lists(st.one_of(lines, st.sampled_from(["Game: race-7", "TURN 3", "-- ", "> MOVE: TO 5", "Hi!"]),
                               st.text(max_size=40)), max_size=12).map("\n".join),
       seed=st.integers(0, 2**32))
def test_whatever_a_sheet_accepts_resolves(body: str, seed: int) -> None:
    sheet = parse_sheet(body, PLAYERS)
    chains = [m.chain for m in sheet.moves if m.chain is not None] + ([sheet.default] if sheet.default else [])
    if chains:
        _resolve(chains, seed)


def test_the_generators_reach_accepted_chains() -> None:
    """A property over only rejected lines would prove nothing about the engine."""
    accepted = 0
    for line in (
        "MOVE: IF NOT (Ann IS AHEAD OR Bob IS NOT ON 12) AND CARROTS >= 10 THEN ADVANCE 9999 ELSE NEXT NUMBER 6",
        "DEFAULT: IF " + " OR ".join(["RANK=1"] * 32) + " THEN TO 64 ELSE " + " ELSE ".join(["BACK"] * 10),
        "MOVE: IF " + "NOT " * 12 + "I AM LAST THEN STAY GIVE",
    ):
        parsed = parse_order_line(line, PLAYERS)
        assert isinstance(parsed.value, Chain)
        _resolve([parsed.value], 7)
        accepted += 1
    assert accepted == 3
