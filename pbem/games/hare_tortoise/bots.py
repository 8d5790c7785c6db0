"""Computer players of Hare & Tortoise: a baseline, and a strong one that searches.

Both read only a seat's view (another runner's carrots are None there) and write an order
sheet in the game's own language, from the position at the start of the turn.

The strong player values a runner by the slots it still needs to reach HOME on an empty track
(a table computed once per board and ruleset), then, by Monte-Carlo play of the turn (the dice of
the hare squares, the carrots it cannot see, the other runners' moves), finds the positions it is
likely to stand on at each of its slots and writes for each a ranked chain of moves, guarded by
`IF MY SQUARE = n`: the engine takes the first that is legal when the slot comes.
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
    """Two-player: the sheet every level writes (pbem/games/hare_tortoise/sam.py)."""
    from pbem.games.hare_tortoise.sam import two_player_sheet as sheet

    return sheet(view)

#: cost in carrots of a forward move of d squares
COST = tuple(d * (d + 1) // 2 for d in range(HOME + 1))
#: carrots the value table tells apart (more are valued as this many)
MAX_CARROTS = 200
#: the longest forward move the value table considers (it costs 136 carrots)
MAX_STEP = 16
#: the place assumed for the HOME allowance, and for the carrots a lettuce pays
ASSUMED_PLACE = 1
ASSUMED_POSITION = 4
#: the strong player's search budget at the default play setting: simulated turns
DEFAULT_PLAYOUTS = 300
#: the levels; `default` (a seat set up as NAME=bot) is the strong one
LEVELS = ("baseline", "strong", "default")
#: the first slot's candidate moves the strong player plays out
SEARCH_WIDTH = 6
#: turns a playout looks ahead (the current one included)
HORIZON = 3


@dataclass(frozen=True)
class Runner:
    """What the search tracks of a runner."""

    square: int
    carrots: int
    lettuces: int


# the value table ---------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def slots_to_home(ruleset: str) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """For (square, lettuces, carrots), the slots a lone runner needs to reach HOME (computed
    by value iteration over the board's moves: forward, back to a tortoise, stay on a carrot)."""
    rules = find_ruleset(ruleset)
    board = rules.board
    kinds = [board.kind(s) for s in range(HOME + 1)]
    behind = board.tortoise_behind
    allowance = rules.home_allowance(ASSUMED_PLACE)
    big = 999.0
    v = [[[big] * (MAX_CARROTS + 1) for _ in range(4)] for _ in range(HOME + 1)]
    for lettuces in range(4):
        v[HOME][lettuces] = [0.0] * (MAX_CARROTS + 1)
    hare_penalty = 0.0
    # a number square pays 10 x position when the position is one of its numbers: the table
    # counts what it pays on average over the positions of a full race
    players = rules.max_players
    bonus = [sum(10 * p for p in board.number_bonus[t] if p <= players) // players for t in range(HOME + 1)]
    for _sweep in range(14):
        changed = False
        for s in range(HOME - 1, -1, -1):
            for lettuces in range(4):
                row = v[s][lettuces]
                for c in range(MAX_CARROTS + 1):
                    best = row[c]
                    for d in range(1, MAX_STEP + 1):
                        t = s + d
                        cost = COST[d]
                        if t > HOME or cost > c:
                            break
                        left = c - cost
                        if t == HOME:
                            if lettuces == 0 and left <= allowance:
                                best = min(best, 1.0)
                            continue
                        k = kinds[t]
                        if k is Kind.TORTOISE:
                            continue
                        if k is Kind.LETTUCE:
                            if lettuces == 0:
                                continue
                            gain = min(MAX_CARROTS, left + 10 * ASSUMED_POSITION)
                            value = 2.0 + v[t][lettuces - 1][gain]
                        elif k is Kind.NUMBER:
                            value = 1.0 + v[t][lettuces][min(MAX_CARROTS, left + bonus[t])]
                        else:
                            value = 1.0 + v[t][lettuces][left] + (hare_penalty if k is Kind.HARE else 0.0)
                        if value < best:
                            best = value
                    tb = behind[s]
                    # gains past the table's edge are left out: the edge must not be a free store
                    if tb >= 0 and c + 10 * (s - tb) <= MAX_CARROTS:
                        value = 1.0 + v[tb][lettuces][c + 10 * (s - tb)]
                        if value < best:
                            best = value
                    if kinds[s] is Kind.CARROT:
                        if c + 10 <= MAX_CARROTS:
                            value = 1.0 + v[s][lettuces][c + 10]
                            if value < best:
                                best = value
                        if c >= 10:
                            value = 1.0 + v[s][lettuces][c - 10]
                            if value < best:
                                best = value
                    if best < row[c] - 1e-9:
                        row[c] = best
                        changed = True
        if not changed:
            break
    return tuple(tuple(tuple(r) for r in sq) for sq in v)


def value(ruleset: str, square: int, carrots: int, lettuces: int) -> float:
    """The slots a runner still needs, by the table (lower is better); carrots past the table's
    edge cost slots to be rid of."""
    excess = max(0, carrots - MAX_CARROTS) / 40
    return slots_to_home(ruleset)[square][min(lettuces, 3)][max(0, min(MAX_CARROTS, carrots))] + excess


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
    board = rules.board
    kind = board.kind(move.square)
    if move.square == HOME:
        return 0.0
    position = 1 + sum(1 for x in others if x > move.square)
    moved = not move.text.startswith(("STAY", "BACK"))
    if kind is Kind.LETTUCE and moved:
        return 1.0 + value(ruleset, move.square, move.carrots + 10 * position, move.lettuces - 1)
    if kind is Kind.NUMBER and position in board.number_bonus[move.square]:
        return value(ruleset, move.square, move.carrots + 10 * position, move.lettuces)
    base = value(ruleset, move.square, move.carrots, move.lettuces)
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
            v = min(value(ruleset, move.square, c + 10, move.lettuces), value(ruleset, move.square, c - 10, move.lettuces)
                    if c >= 10 else base)
        elif effect is HareEffect.RESTORE:
            v = value(ruleset, move.square, rules.restore_carrots, move.lettuces)
        elif effect is HareEffect.REFUND:
            v = value(ruleset, move.square, c + paid + 10, move.lettuces)  # the cost comes back (roughly)
        elif effect is HareEffect.HALVE:
            v = value(ruleset, move.square, c - c // 2, move.lettuces)
        elif effect is HareEffect.EXTRA_SLOT:
            v = base - 0.8
        elif effect is HareEffect.BACK_TO_HARE or effect is HareEffect.BACK_TO_CARROT:
            v = base + 0.8
        elif effect is HareEffect.AHEAD_TO_CARROT:
            v = base - 0.5
        elif effect is HareEffect.CHEW_LETTUCE and move.lettuces:
            v = 1.0 + value(ruleset, move.square, c + 10 * position, move.lettuces - 1)
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


def _line(prefix: str, alternatives: Sequence[tuple[str, str]]) -> list[str]:
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


def _hare_line(view: View, give: bool) -> str:
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
        return f"DEFAULT: {chain}\n{_hare_line(view, False)}"


class StrongBot(Bot[View]):
    """The searching player (see the module's docstring); `playouts` is its budget per sheet."""

    def __init__(self, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self.playouts = playouts

    def write(self, view: View, chance: Chance) -> str:
        if view.per_seat > 1:
            return two_player_sheet(view)  # the search knows one runner per seat
        rules = find_ruleset(view.ruleset)
        seat, me, must = _me(view)
        slots = view.sequence.count(seat) or 1
        rng = random.Random(chance.uniform(2**31))  # noqa: S311 - a search's samples, seeded by the chance source
        value(rules.name, 0, 0, 0)  # the table, once per process
        positions = self._likely_positions(view, rules, seat, me, must, slots, rng)
        lines = _line("MOVE 1", self._first_chain(view, rules, seat, me, must, rng))
        for k in range(1, slots):
            lines += _line(f"MOVE {k + 1}", self._chain(view, rules, seat, positions[k]))
        lines += _line("DEFAULT", self._chain(view, rules, seat, []))
        hare = _hare_line(view, (me.carrots or 0) > 80)
        if hare:
            give = "GIVE" in hare
            lines.append("# HARE: " + ("GIVE: with more than 80 carrots, a hare card's choice sheds some" if give else
                                       "TAKE: with 80 carrots or fewer, a hare card's choice takes more"))
        return "\n".join(lines) + "\n" + hare

    def _first_chain(self, view: View, rules: Ruleset, seat: int, me: Runner, must: Must,
                     rng: random.Random) -> list[tuple[str, str]]:
        """The first slot's chain: the best moves by the one-slot table, ordered again by
        Monte-Carlo play of this turn and the next two (the dice, the others' carrots and
        moves drawn), each candidate played out on the same draws; each with why it ranks there."""
        runner = view.runners[seat]
        if must is Must.EAT or runner.skip:
            return self._chain(view, rules, seat, [(me, must, 0)])  # the slot is not the runner's to choose
        others_all = [r.square for j, r in enumerate(view.runners) if j != seat]
        home_count = sum(1 for r in view.runners if r.home)
        options = ranked(rules, me, must, frozenset(), home_count, others_all)
        candidates = options[:SEARCH_WIDTH]
        why = {m.text: f"{score(rules, m, others_all):.1f} slots to HOME after it, by the value table"
               for m in options}
        if len(candidates) > 1 and self.playouts >= len(candidates):
            runs = self.playouts // len(candidates)
            seeds = [rng.getrandbits(32) for _ in range(runs)]
            totals = {}
            for m in candidates:
                totals[m.text] = sum(_playout(view, rules, seat, m, random.Random(sd)) for sd in seeds)  # noqa: S311
                why[m.text] = (f"{totals[m.text] / runs:.1f} slots to HOME left after {HORIZON} turns, over {runs} "
                               "plays of the dice and the others' moves")
            candidates = sorted(candidates, key=lambda m: (totals[m.text], candidates.index(m)))
        alts = [m.text for m in candidates]
        alts += [m.text for m in options[SEARCH_WIDTH:] if m.text not in alts][: 12 - len(alts)]
        return [*((a, why[a]) for a in alts), *_fallbacks(rules, me.square)]

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


def _playout(view: View, rules: Ruleset, seat: int, head: Move, rng: random.Random) -> float:
    """Play this turn and the next from the view, the seat's first slot trying `head` first and
    every runner (the seat too, later) taking the table's best move; the others' hidden carrots
    are drawn. Returns the seat's slots still needed at the end (lower is better; a runner HOME
    scores the turns it had to spare)."""
    board = rules.board
    n = len(view.runners)
    sq = [r.square for r in view.runners]
    car = [r.carrots if r.carrots is not None else (rules.start_carrots if r.square == START and view.turn == 1
                                                     else rng.randint(10, 90)) for r in view.runners]
    let = [r.lettuces for r in view.runners]
    must = [r.must for r in view.runners]
    skip = [r.skip for r in view.runners]
    table = _hare_effects(rules)
    first = view.first
    used_head = False
    for turn in range(HORIZON):
        if turn == 0:
            sequence = list(view.sequence)
        else:
            first = next((s for s in ((first + k) % n for k in range(1, n + 1)) if sq[s] != HOME), first)
            sequence = [s for s in (*range(first, n), *range(first)) if sq[s] != HOME]
            if sequence and sequence[0] == first:
                sequence.append(first)
        for i in sequence:
            if sq[i] == HOME:
                continue
            if skip[i]:
                skip[i] = False
                continue
            s = sq[i]
            others = [x for j, x in enumerate(sq) if j != i]
            position = 1 + sum(1 for x in others if x > s)
            if board.kind(s) is Kind.NUMBER and position in board.number_bonus[s]:
                car[i] += 10 * position
            if must[i] is Must.EAT:
                car[i] += 10 * position
                let[i] = max(0, let[i] - 1)
                must[i] = Must.LEAVE
                continue
            occupied = frozenset(x for x in others if x not in (START, HOME))
            home_count = sum(1 for x in sq if x == HOME)
            options = ranked(rules, Runner(s, car[i], let[i]), must[i], occupied, home_count, others)
            if not options:
                sq[i], car[i], must[i] = START, rules.restart_carrots, Must.NONE
                continue
            m = options[0]
            if i == seat and not used_head:
                used_head = True
                m = next((o for o in options if o.text == head.text), m)
            paid = car[i] - m.carrots
            sq[i], car[i], let[i], must[i] = m.square, m.carrots, m.lettuces, Must.NONE
            if m.square == HOME:
                if i == seat:
                    return -float(HORIZON - turn)
                continue
            if m.text.startswith(("STAY", "BACK")):
                continue
            kind = board.kind(m.square)
            if kind is Kind.LETTUCE:
                must[i] = Must.EAT
            elif kind is Kind.HARE and table is not None:
                _hare_roll(rules, table, i, sq, car, let, must, skip, paid, rng)
    return value(rules.name, sq[seat], car[seat], let[seat]) + (1.0 if skip[seat] else 0.0) + (
        1.0 if must[seat] is Must.EAT else 0.0)


def _hare_roll(rules: Ruleset, table: dict[int, HareEffect], i: int, sq: list[int], car: list[int], let: list[int],
               must: list[Must], skip: list[bool], paid: int, rng: random.Random) -> None:
    """A hare square's result in a playout, on the runners' lists."""
    s = sq[i]
    position = 1 + sum(1 for j, x in enumerate(sq) if j != i and x > s)
    effect = table.get(min(max(table), rng.randint(1, 6) + position))
    board = rules.board
    if effect is HareEffect.MISS_TURN:
        skip[i] = True
    elif effect is HareEffect.CHEW_CARROT:
        car[i] += 10
    elif effect is HareEffect.RESTORE:
        car[i] = rules.restore_carrots
    elif effect is HareEffect.REFUND:
        car[i] += paid
    elif effect is HareEffect.HALVE:
        car[i] -= car[i] // 2
    elif effect is HareEffect.CHEW_LETTUCE:
        if let[i]:
            must[i] = Must.EAT
    elif effect in (HareEffect.BACK_TO_HARE, HareEffect.BACK_TO_CARROT, HareEffect.AHEAD_TO_CARROT):
        kind = Kind.HARE if effect is HareEffect.BACK_TO_HARE else Kind.CARROT
        squares = [x for x in range(1, HOME) if board.kind(x) is kind and x not in sq]
        if effect is HareEffect.AHEAD_TO_CARROT:
            to = next((x for x in squares if x > s), -1)
        else:
            to = next((x for x in reversed(squares) if x < s), -1)
        if to >= 0:
            sq[i] = to


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


def bot(level: str, *, playouts: int = DEFAULT_PLAYOUTS) -> Bot[View] | None:
    """The computer player of that level, or None."""
    key = level.strip().lower()
    if key == "baseline":
        return BaselineBot()
    if key in ("strong", "default"):
        return StrongBot(playouts)
    return None
