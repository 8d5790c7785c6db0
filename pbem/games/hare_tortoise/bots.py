"""Computer players of Hare & Tortoise: a baseline, and a strong one that plans by a value table.

Both read only a seat's view (another runner's carrots are None there) and write an order
sheet in the game's own language, from the position at the start of the turn.

The strong player values a runner by the slots it still needs to reach HOME on a crowded track
(a table computed once per board and ruleset, in which each square the runner might move to is
taken by another runner with a fixed chance), scores each move it has by that table with what
its square pays at the runner's actual race position, and writes the moves best first: the
engine takes the first that is legal when the slot comes. For a first mover's second slot it
finds, by playing the turn out (the hare dice, the others' moves drawn), the squares it is
likely to stand on, and writes for each a ranked chain guarded by `IF MY SQUARE = n`.

A Monte-Carlo ranking of the first slot's moves over three turns, with every runner moving by
the table, lost to the table's own order (55% against 67% of the benchmark's first 120 games):
the track's crowding the table prices in is what those playouts got wrong.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from pbem.games.base import Bot
from pbem.games.chance import Chance
from pbem.games.hare_tortoise.board import HOME, START, Kind
from pbem.games.hare_tortoise.rules import HareEffect, HareTable, Ruleset, find_ruleset
from pbem.games.hare_tortoise.state import Must
from pbem.games.hare_tortoise.view import View


def two_player_sheet(view: View) -> str:
    """Two-player: the baseline writes Sam's sheet (pbem/games/hare_tortoise/sam.py)."""
    from pbem.games.hare_tortoise.sam import two_player_sheet as sheet

    return sheet(view)

#: cost in carrots of a forward move of d squares
COST = tuple(d * (d + 1) // 2 for d in range(HOME + 1))
#: carrots the value table tells apart (more are valued as this many)
MAX_CARROTS = 200
#: the longest forward move the value table considers (it costs 136 carrots)
MAX_STEP = 16
#: the place assumed for the HOME allowance
ASSUMED_PLACE = 1
#: the levels; `default` (a seat set up as NAME=bot) is the strong one
LEVELS = ("baseline", "strong", "default")
#: the chance the value table gives each square ahead of being held by another runner when its
#: runner would move there. Not a measured frequency but the table's caution: at 0 it plans the
#: lone runner's fastest race, which threads exact carrot counts through squares a full track
#: seldom leaves free (a strong seat then won 38% of six-player games against five baselines);
#: at 0.6 it prefers squares with many good ways on and keeps a stay in hand (63%). 0.4 and 0.7
#: measured 55% and 51% (300 games each).
BLOCKED = 0.6
#: value-iteration sweeps over the table: values a race can reach settle in about eight (the
#: hopeless corners, far too many carrots at the end, never do, and need not)
SWEEPS = 10


@dataclass(frozen=True)
class Runner:
    """What the search tracks of a runner."""

    square: int
    carrots: int
    lettuces: int


# the value table ---------------------------------------------------------------------------------

#: a value beyond any race: the table's "cannot get HOME from here"
HOPELESS = 60.0

#: one way forward from a square, for the table: (its cost, the carrots its square pays, the
#: slots it takes, the table's values there by carrots; None for HOME)
Step = tuple[int, int, float, "list[float] | None"]


def assumed_position(runners: int) -> int:
    """The race position at which the table's runner eats its lettuces, in a race of `runners`:
    the middle of the field, rounded down (measured over 300 races or more: in six-player races
    3 and 4 play alike, 5 worse; in four-player races 2 won 77-81% against three baselines, 4
    won 74%; with two runners a seat, 2 wins 84% against Sam's two-runner sheet)."""
    return max(1, runners // 2)


@lru_cache(maxsize=16)
def slots_to_home(ruleset: str, runners: int = 6, *, free: bool = False) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """For (square, lettuces, carrots), the slots a runner still needs to reach HOME in first place
    in a race of `runners` (`free`: as the first of a pair of runners, who goes HOME with any
    lettuces, the lettuces being those it may eat on the way; its carrots are still held to the
    allowance, since those it would take HOME stay in the pair's supply for the other runner).

    Value iteration over the board's moves (forward, back to a tortoise, stay on a carrot square),
    with the track taken as crowded: each square the runner might move to is held by another
    runner with chance `BLOCKED`, so a state is worth the expected best of the moves left free
    (HOME and a stay are never blocked). Squares are swept from HOME back to START so that forward
    moves read values of this sweep; moves back and stays settle over the sweeps.
    """
    rules = find_ruleset(ruleset)
    board = rules.board
    kinds = [board.kind(s) for s in range(HOME + 1)]
    v = [[[HOPELESS] * (MAX_CARROTS + 1) for _ in range(4)] for _ in range(HOME + 1)]
    for lettuces in range(4):
        v[HOME][lettuces] = [0.0] * (MAX_CARROTS + 1)
    # a number square pays 10 x position when the position is one of its numbers: the table
    # counts what it pays on average over the race's positions
    bonus = [sum(10 * p for p in board.number_bonus[t] if p <= runners) // runners for t in range(HOME + 1)]
    meal = 10 * assumed_position(runners)
    allowance = rules.home_allowance(ASSUMED_PLACE)
    for _sweep in range(SWEEPS):
        for s in range(HOME - 1, -1, -1):
            tb = board.tortoise_behind[s]
            for lettuces in range(4):
                steps = _steps(kinds, bonus, meal, v, s, lettuces)
                back = v[tb][lettuces] if tb >= 0 else None
                row = v[s][lettuces]
                for c in range(MAX_CARROTS, -1, -1):
                    ahead: list[float] = []
                    floor = HOPELESS
                    for cost, pay, slots, there in steps:
                        if cost > c:
                            break
                        if there is not None:
                            ahead.append(slots + there[min(MAX_CARROTS, c - cost + pay)])
                        elif (free or lettuces == 0) and c - cost <= allowance:
                            floor = 1.0  # HOME
                    if back is not None and c + 10 * (s - tb) <= MAX_CARROTS:
                        ahead.append(1.0 + back[c + 10 * (s - tb)])
                    if kinds[s] is Kind.CARROT:
                        if c + 10 <= MAX_CARROTS:
                            floor = min(floor, 1.0 + row[c + 10])
                        if c >= 10:
                            floor = min(floor, 1.0 + row[c - 10])
                    row[c] = _expected_best(ahead, floor)
    return tuple(tuple(tuple(r) for r in sq) for sq in v)


def _steps(kinds: Sequence[Kind], bonus: Sequence[int], meal: int, v: list[list[list[float]]], s: int,
           lettuces: int) -> list[Step]:
    """The forward moves from square `s` with `lettuces` left, nearest (cheapest) first."""
    out: list[Step] = []
    for t in range(s + 1, min(HOME, s + MAX_STEP) + 1):
        kind = kinds[t]
        if t == HOME:
            out.append((COST[t - s], 0, 1.0, None))
        elif kind is Kind.LETTUCE:
            if lettuces:  # arrive, then eat at the next slot
                out.append((COST[t - s], meal, 2.0, v[t][lettuces - 1]))
        elif kind is not Kind.TORTOISE:
            out.append((COST[t - s], bonus[t] if kind is Kind.NUMBER else 0, 1.0, v[t][lettuces]))
    return out


def _expected_best(ahead: list[float], floor: float) -> float:
    """The expected value of the best move left when each of `ahead` is blocked with chance
    `BLOCKED` and `floor` (a stay, HOME, else the hopeless value) never is. With nothing left
    and no stay, the runner loses the slot and takes the worst move ahead at the next."""
    ahead.sort()
    expect, free = 0.0, 1.0
    for x in ahead:
        if x >= floor:
            break
        expect += free * (1 - BLOCKED) * x
        free *= BLOCKED
    if floor >= HOPELESS and ahead:
        floor = ahead[-1] + 1.0
    return min(HOPELESS, expect + free * floor)


def value(ruleset: str, square: int, carrots: int, lettuces: int, runners: int = 6) -> float:
    """The slots a runner still needs, by the table (lower is better); carrots past the table's
    edge cost slots to be rid of."""
    excess = max(0, carrots - MAX_CARROTS) / 40
    return slots_to_home(ruleset, runners)[square][min(lettuces, 3)][max(0, min(MAX_CARROTS, carrots))] + excess


# the moves of one slot ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """A move as the order language writes it, and where it leaves the runner (before a hare)."""

    text: str
    square: int
    carrots: int
    lettuces: int


def moves(rules: Ruleset, me: Runner, must: Must, occupied: frozenset[int], home_count: int) -> list[Move]:
    """Every move the runner may make at a slot, with `occupied` squares taken."""
    board = rules.board
    out: list[Move] = []
    s, c = me.square, me.carrots
    for t in range(s + 1, HOME + 1):
        cost = COST[t - s]
        if cost > c:
            break
        if t == HOME:
            if me.lettuces == 0 and c - cost <= rules.home_allowance(home_count + 1):
                out.append(Move("TO HOME", HOME, c - cost, 0))
            continue
        k = board.kind(t)
        if t in occupied or k is Kind.TORTOISE or (k is Kind.LETTUCE and me.lettuces == 0):
            continue
        out.append(Move(f"TO {t}", t, c - cost, me.lettuces))
    tb = board.tortoise_behind[s] if s != HOME else -1
    if tb >= 0 and tb not in occupied:
        out.append(Move("BACK", tb, c + 10 * (s - tb), me.lettuces))
    if board.kind(s) is Kind.CARROT and must is not Must.LEAVE:
        out.append(Move("STAY", s, c + 10, me.lettuces))
        if c >= 10:
            out.append(Move("STAY GIVE", s, c - 10, me.lettuces))
    return out


def _hare_effects(rules: Ruleset) -> dict[int, HareEffect] | None:
    hare = rules.hare
    return dict(hare.table) if isinstance(hare, HareTable) else None


def score(rules: Ruleset, move: Move, others: Sequence[int]) -> float:
    """The slots still needed after the move (lower is better), with what the square pays at the
    runner's race position there (`others`: the other runners' squares): a lettuce's meal, a
    number square's bonus, a hare square's dice averaged over its table."""
    ruleset = rules.name
    runners = len(others) + 1
    board = rules.board
    kind = board.kind(move.square)
    if move.square == HOME:
        return 0.0
    position = 1 + sum(1 for x in others if x > move.square)
    moved = not move.text.startswith(("STAY", "BACK"))
    if kind is Kind.LETTUCE and moved:
        return 1.0 + value(ruleset, move.square, move.carrots + 10 * position, move.lettuces - 1, runners)
    if kind is Kind.NUMBER and position in board.number_bonus[move.square]:
        return value(ruleset, move.square, move.carrots + 10 * position, move.lettuces, runners)
    base = value(ruleset, move.square, move.carrots, move.lettuces, runners)
    if kind is not Kind.HARE or not moved:
        return base
    table = _hare_effects(rules)
    if table is None:
        return base + 0.5
    total = 0.0
    paid = 0
    for die in range(1, 7):
        effect = table.get(min(max(table), die + position))
        c = move.carrots
        v = base
        if effect is HareEffect.MISS_TURN:
            v = base + 1
        elif effect is HareEffect.CHEW_CARROT:
            v = min(value(ruleset, move.square, c + 10, move.lettuces, runners),
                    value(ruleset, move.square, c - 10, move.lettuces, runners) if c >= 10 else base)
        elif effect is HareEffect.RESTORE:
            v = value(ruleset, move.square, rules.restore_carrots, move.lettuces, runners)
        elif effect is HareEffect.REFUND:
            v = value(ruleset, move.square, c + paid + 10, move.lettuces, runners)  # the cost comes back (roughly)
        elif effect is HareEffect.HALVE:
            v = value(ruleset, move.square, c - c // 2, move.lettuces, runners)
        elif effect is HareEffect.EXTRA_SLOT:
            v = base - 0.8
        elif effect is HareEffect.BACK_TO_HARE or effect is HareEffect.BACK_TO_CARROT:
            v = base + 0.8
        elif effect is HareEffect.AHEAD_TO_CARROT:
            v = base - 0.5
        elif effect is HareEffect.CHEW_LETTUCE and move.lettuces:
            v = 1.0 + value(ruleset, move.square, c + 10 * position, move.lettuces - 1, runners)
        total += v
    return total / 6


def ranked(rules: Ruleset, me: Runner, must: Must, occupied: frozenset[int], home_count: int,
           others: Sequence[int]) -> list[Move]:
    """The moves best first (ties by the order language's text, so the order is stable)."""
    options = moves(rules, me, must, occupied, home_count)
    return sorted(options, key=lambda m: (round(score(rules, m, others), 6), -m.carrots, m.text))


# the players --------------------------------------------------------------------------------------

#: the alternatives that end every chain, for a slot where every square above is taken
FALLBACKS = (
    ("NEXT CARROT", "if every move above is blocked when the slot comes: the next free carrot square"),
    ("NEXT", "failing that, the next free square"),
    ("BACK", "failing that, back to the tortoise behind, for carrots"),
)


def _fallbacks(rules: Ruleset, square: int | None) -> tuple[tuple[str, str], ...]:
    """The fallbacks a runner on `square` (None: wherever it stands) may take: BACK only with a
    tortoise square behind it."""
    if square is None or rules.board.tortoise_behind[square] >= 0:
        return FALLBACKS
    return FALLBACKS[:2]


def commented_line(prefix: str, alternatives: Sequence[tuple[str, str]]) -> list[str]:
    """An order line and, above it, one comment per alternative saying why it ranks there (an
    alternative already in the chain is left out)."""
    kept: dict[str, str] = {}
    for text, why in alternatives:
        kept.setdefault(text, why)
    comments = [f"#  {k}. {text}: {why}" for k, (text, why) in enumerate(kept.items(), start=1)]
    return [*comments, f"{prefix}: " + " ELSE ".join(kept)]


def _me(view: View) -> tuple[int, Runner, Must]:
    seat = view.viewer.seat
    assert seat is not None and seat >= 0, "a computer player plays a seat"
    r = view.runners[seat]
    return seat, Runner(r.square, r.carrots or 0, r.lettuces), r.must


def hare_line(view: View, give: bool) -> str:
    """The HARE line in the ruleset's own words: TAKE or GIVE where those are its choices; elsewhere
    (KEEP/REFUSE rulesets) none, so the ruleset's default choice applies."""
    choices = find_ruleset(view.ruleset, view.options).choices
    if "TAKE" not in choices or "GIVE" not in choices:
        return ""
    return f"HARE: {'GIVE' if give else 'TAKE'}\n"


class BaselineBot(Bot[View]):
    """A simple player: one chain for every slot — HOME when it may, a lettuce while it has
    some and can pay for it, back to a tortoise when short, else a long or a short advance."""

    def write(self, view: View, chance: Chance) -> str:
        if view.per_seat > 1:
            return two_player_sheet(view)
        chain = ("HOME ELSE IF LETTUCES > 0 AND CARROTS > 30 THEN NEXT LETTUCE ELSE IF CARROTS < 20 THEN BACK "
                 "ELSE IF CARROTS > 80 THEN ADVANCE 6 ELSE ADVANCE 3 ELSE NEXT")
        return f"DEFAULT: {chain}\n{hare_line(view, False)}"


class StrongBot(Bot[View]):
    """The table's player (see the module's docstring)."""

    def write(self, view: View, chance: Chance) -> str:
        if view.per_seat > 1:
            from pbem.games.hare_tortoise.pair import pair_sheet  # a seat of two runners, valued by this table

            return pair_sheet(view)
        rules = find_ruleset(view.ruleset)
        seat, me, must = _me(view)
        slots = view.sequence.count(seat) or 1
        rng = random.Random(chance.uniform(2**31))  # noqa: S311 - the likely squares' samples, seeded by the chance source
        positions = self._likely_positions(view, rules, seat, me, must, slots, rng)
        lines = commented_line("MOVE 1", self._first_chain(view, rules, seat, me, must))
        for k in range(1, slots):
            lines += commented_line(f"MOVE {k + 1}", self._chain(view, rules, seat, positions[k]))
        lines += commented_line("DEFAULT", self._chain(view, rules, seat, []))
        hare = hare_line(view, (me.carrots or 0) > 80)
        if hare:
            give = "GIVE" in hare
            lines.append("# HARE: " + ("GIVE: with more than 80 carrots, a hare card's choice sheds some" if give else
                                       "TAKE: with 80 carrots or fewer, a hare card's choice takes more"))
        return "\n".join(lines) + "\n" + hare

    def _first_chain(self, view: View, rules: Ruleset, seat: int, me: Runner, must: Must) -> list[tuple[str, str]]:
        """The first slot's chain: every move the runner has now, best first by the table with
        what its square pays at the runner's race position, each with why it ranks there; the
        engine takes the first still free when the slot comes."""
        runner = view.runners[seat]
        if must is Must.EAT or runner.skip:
            return self._chain(view, rules, seat, [(me, must, 0)])  # the slot is not the runner's to choose
        others_all = [r.square for j, r in enumerate(view.runners) if j != seat]
        home_count = sum(1 for r in view.runners if r.home)
        options = ranked(rules, me, must, frozenset(), home_count, others_all)[:12]
        return [*((m.text, f"{score(rules, m, others_all):.1f} slots to HOME after it, by the value table")
                  for m in options), *_fallbacks(rules, me.square)]

    def _chain(self, view: View, rules: Ruleset, seat: int,
               where: list[tuple[Runner, Must, int]]) -> list[tuple[str, str]]:
        """Ranked moves for each likely position (most likely first), then general fallbacks."""
        alts: list[tuple[str, str]] = []
        others = frozenset(r.square for j, r in enumerate(view.runners) if j != seat and r.square not in (START, HOME))
        home_count = sum(1 for r in view.runners if r.home)
        guarded = len(where) > 1
        others_all = [r.square for j, r in enumerate(view.runners) if j != seat]
        for me, must, _position in where[:3]:
            if must is Must.EAT:
                continue  # the slot is spent eating: its line is not read
            options = ranked(rules, me, must, frozenset(), home_count, others_all)
            # the best few, and enough more to get past squares the others may hold
            picked: list[Move] = []
            for m in options:
                if len(picked) >= 5:
                    break
                if m.square in others and len(picked) >= 2:
                    continue
                picked.append(m)
            where_text = f"if you stand on {me.square} then (a likely square for this slot)" if guarded else \
                "where you will likely stand:"
            for m in picked:
                alts.append((f"IF MY SQUARE = {me.square} THEN {m.text}" if guarded else m.text,
                             f"{where_text} {score(rules, m, others_all):.1f} slots to HOME after it, by the value "
                             "table"))
        square = where[0][0].square if len(where) == 1 else None
        return [*alts[:13], *_fallbacks(rules, square)]

    def _likely_positions(self, view: View, rules: Ruleset, seat: int, me: Runner, must: Must, slots: int,
                          rng: random.Random) -> list[list[tuple[Runner, Must, int]]]:
        """For each of the seat's slots, where it is likely to stand, most likely first, found by
        playing the turn out: the others' carrots drawn from what a runner at their square
        plausibly holds, their moves and the hare dice drawn at random."""
        counts: list[dict[tuple[Runner, Must, int], int]] = [{} for _ in range(slots)]
        sequence = list(view.sequence)
        table = _hare_effects(rules)
        runs = 40
        for _ in range(runs):
            squares = [r.square for r in view.runners]
            mine, my_must = me, must
            k = 0
            for i in sequence:
                if squares[i] == HOME:
                    continue
                if i != seat:
                    squares[i] = _guess_move(rules, squares, i, rng)
                    continue
                if k >= slots:
                    break
                position = 1 + sum(1 for j, x in enumerate(squares) if j != seat and x > mine.square)
                key = (mine, my_must, position)
                counts[k][key] = counts[k].get(key, 0) + 1
                k += 1
                if my_must is Must.EAT:
                    mine = Runner(mine.square, mine.carrots + 10 * position, max(0, mine.lettuces - 1))
                    my_must = Must.LEAVE
                    continue
                occupied = frozenset(x for j, x in enumerate(squares) if j != seat and x not in (START, HOME))
                home_count = sum(1 for x in squares if x == HOME)
                others = [x for j, x in enumerate(squares) if j != seat]
                options = ranked(rules, mine, my_must, occupied, home_count, others)
                if not options:
                    break
                m = options[0]
                mine = Runner(m.square, m.carrots, m.lettuces)
                my_must = Must.NONE
                kind = rules.board.kind(m.square)
                if kind is Kind.LETTUCE and not m.text.startswith(("STAY", "BACK")):
                    my_must = Must.EAT
                elif kind is Kind.HARE and table is not None and not m.text.startswith(("STAY", "BACK")):
                    mine = _hare(rules, table, mine, squares, seat, rng)
                squares[seat] = mine.square
                if mine.square == HOME:
                    break
        out = []
        for c in counts:
            by_square: dict[int, tuple[int, tuple[Runner, Must, int]]] = {}
            for key, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0][0].square, kv[0][0].carrots)):
                seen, best = by_square.get(key[0].square, (0, key))
                by_square[key[0].square] = (seen + n, best)
            out.append([best for _, best in sorted(by_square.values(), key=lambda v: (-v[0], v[1][0].square))])
        return out


def _guess_move(rules: Ruleset, squares: Sequence[int], i: int, rng: random.Random) -> int:
    """Another runner's move, drawn: most often a few squares forward, now and then back or staying."""
    s = squares[i]
    roll = rng.random()
    board = rules.board
    if roll < 0.15:
        tb = board.tortoise_behind[s]
        if tb >= 0 and tb not in squares:
            return tb
        return s
    if roll < 0.25:
        return s
    for _ in range(6):
        t = min(HOME, s + rng.randint(1, 9))
        if t == HOME or (t not in squares and board.kind(t) is not Kind.TORTOISE):
            return t
    return s


def _hare(rules: Ruleset, table: dict[int, HareEffect], me: Runner, squares: Sequence[int], seat: int,
          rng: random.Random) -> Runner:
    position = 1 + sum(1 for j, x in enumerate(squares) if j != seat and x > me.square)
    effect = table.get(min(max(table), rng.randint(1, 6) + position))
    if effect is HareEffect.RESTORE:
        return Runner(me.square, rules.restore_carrots, me.lettuces)
    if effect is HareEffect.HALVE:
        return Runner(me.square, me.carrots - me.carrots // 2, me.lettuces)
    if effect is HareEffect.CHEW_CARROT:
        return Runner(me.square, me.carrots + 10, me.lettuces)
    return me


def bot(level: str) -> Bot[View] | None:
    """The computer player of that level, or None."""
    key = level.strip().lower()
    if key == "baseline":
        return BaselineBot()
    if key in ("strong", "default"):
        return StrongBot()
    return None
