"""Tournaments: rounds of games among people and computer players, made and started by pbem.

Three formats. `swiss` (two-player games): each round pairs entrants of equal score, top down,
and no pair meets twice (while any pairing without a rematch exists); the first seat (the one
that moves first) goes to whoever had it less often, else to whoever did not have it last
round, so it alternates. `round-robin`: everyone meets everyone once (the circle method; a bye
each round for an odd field), the first seat alternating. `tables` (3 to 6 seats a game): round
one seeds the tables snake-wise by the order given; later rounds by the standings, moving
entrants between tables so that no two sit together twice where it can be avoided; within a
table the first seat goes to whoever had it least.

Points: each game gives an entrant one point for every opponent at the table placed below
them and half a point for each tied with them (a two-player game: 1 a win, 1/2 a draw); a bye
gives 1. The standings rank by points, then Buchholz (the sum of the opponents' points), then
Sonneborn-Berger (for each opponent, that opponent's points times what was scored against
them), then the direct encounters among the entrants still tied, then the order given.
The next round is made and started when the last game of a round ends.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from sqlalchemy import update
from sqlalchemy.engine import CursorResult
from sqlmodel import Session, col, select

from pbem import clock
from pbem.club import people
from pbem.club.rows import EntrantRow, TableRow, TournamentRow
from pbem.errors import PbemError
from pbem.games import AnyGame, find_game
from pbem.games.chance import new_seed
from pbem.mail.kinds import MailKind
from pbem.store import GameRow

if TYPE_CHECKING:
    from pbem.moderator import Moderator

FORMATS = ("swiss", "round-robin", "tables")
#: the most entrants a tournament takes (pairing searches are small at this size)
MAX_ENTRANTS = 64


@dataclass(frozen=True)
class Entry:
    """An entrant as the GM gives it: a person's address, or a computer player's level."""

    name: str
    address: str = ""
    bot: str = ""


@dataclass(frozen=True)
class Plan:
    name: str
    game: str
    rules: str | None
    options: Sequence[str]
    format: str
    rounds: int | None
    entries: Sequence[Entry]
    table_size: int = 0
    deadline: str = ""
    seed: str | None = None  # None: a secret random one (given: every game comes out the same again)


def read_entry(text: str) -> Entry:
    """`Ann=ann@example.org` or `Cpu=bot:strong`."""
    name, sep, where = text.partition("=")
    if not sep or not name.strip() or not where.strip():
        raise PbemError(f"--entrant takes NAME=ADDRESS or NAME=bot:LEVEL, not {text!r}")
    if where.startswith("bot:"):
        return Entry(name.strip(), bot=where[4:].strip().lower())
    return Entry(name.strip(), address=where.strip().lower())


def create(m: Moderator, plan: Plan) -> TournamentRow:
    """Check the plan, keep the tournament and its entrants, and start round one."""
    from pbem.mail.sender import validate_address

    engine = find_game(plan.game)
    if plan.format not in FORMATS:
        raise PbemError(f"--format takes {', '.join(FORMATS)}; not {plan.format!r}")
    n = len(plan.entries)
    if not 2 <= n <= MAX_ENTRANTS:
        raise PbemError(f"a tournament takes 2 to {MAX_ENTRANTS} entrants, not {n}")
    if len({e.name.lower() for e in plan.entries}) != n:
        raise PbemError("two entrants have the same name; each needs their own")
    size = 2 if plan.format != "tables" else plan.table_size or min(4, engine.info.ruleset(plan.rules).max_players)
    ruleset, chosen = engine.info.check_setup(plan.rules, plan.options, size)
    if plan.format == "tables":
        table_sizes(n, size, ruleset.min_players, ruleset.max_players)  # checked now
    rounds = plan.rounds or (n - 1 + n % 2 if plan.format == "round-robin" else max(1, math.ceil(math.log2(n))))
    for e in plan.entries:
        if e.bot:
            from pbem import bots

            bots.check_level(engine, e.bot)
        else:
            validate_address(e.address)
    _check_games(engine, plan, rounds, n)
    with m.store.session() as session:
        if session.exec(select(TournamentRow).where(TournamentRow.name == plan.name)).first() is not None:
            raise PbemError(f"a tournament called {plan.name!r} exists already")
        row = TournamentRow(name=plan.name, game=engine.info.name, rules=ruleset.name, options=json.dumps(list(chosen)),
                            format=plan.format, rounds=rounds, table_size=size, deadline=plan.deadline,
                            seed=plan.seed or new_seed(), created_at=m.now())
        session.add(row)
        session.flush()
        for i, e in enumerate(plan.entries):
            person = people.ensure_person(session, e.address, e.name, m.now()) if e.address else None
            session.add(EntrantRow(tournament_id=row.id or 0, name=e.name, person_id=person.id if person else None,
                                   address=e.address, bot=e.bot, seed_order=i))
        session.expunge(row)
    start_round(m, row.name, 1)
    return row


def _check_games(engine: AnyGame, plan: Plan, rounds: int, n: int) -> None:
    """What making a round's games would refuse, refused before the tournament is kept: its
    games' names, the entrants' names as seats, each entrant's own address and the deadline rule."""
    from pbem.moderator import check_game_name

    try:
        check_game_name(f"{plan.name}-r{rounds}-t{n}")  # as game_name() calls them
    except PbemError:
        raise PbemError(f"tournament name {plan.name!r}: its games are called {plan.name}-r1-t1 and so "
                        "on; use letters, digits, '-', '_' and '.', starting with a letter or digit") from None
    for e in plan.entries:
        engine.check_seat_name(e.name)
    addresses = [e.address.lower() for e in plan.entries if not e.bot]
    if len(set(addresses)) != len(addresses):
        raise PbemError("two entrants have the same address; each person enters once")
    if plan.deadline:
        clock.Schedule(plan.deadline)


# results and standings ----------------------------------------------------------------------------

@dataclass
class Score:
    entrant: EntrantRow
    points: float = 0.0
    buchholz: float = 0.0
    berger: float = 0.0
    #: (opponent id, points scored against them) for every game
    against: list[tuple[int, float]] = field(default_factory=list)
    firsts: int = 0  # games in the first seat
    last_first: bool = False  # had the first seat in the latest round
    seat_sum: int = 0  # the seats held, added up (later seats first next time at a table)
    byes: int = 0
    games: int = 0  # finished games


def _entrants(session: Session, t: TournamentRow) -> list[EntrantRow]:
    return list(session.exec(select(EntrantRow).where(EntrantRow.tournament_id == t.id)
                             .order_by(col(EntrantRow.seed_order))))


def _tables(session: Session, t: TournamentRow) -> list[TableRow]:
    return list(session.exec(select(TableRow).where(TableRow.tournament_id == t.id)
                             .order_by(col(TableRow.round), col(TableRow.table))))


def _game_places(session: Session, table: TableRow) -> list[float] | None:
    """Each seat's place in the table's game, once it is over (None while it runs)."""
    game = session.get(GameRow, table.game_id) if table.game_id is not None else None
    if game is None or not game.over:
        return None
    engine = find_game(game.game)
    result = engine.result(engine.load_state(json.loads(game.state)))
    last = 1 + max((p.place for p in result.places if p.place is not None), default=0)
    by_seat = {p.seat: p.place if p.place is not None else last for p in result.places}
    return [float(by_seat.get(seat, last)) for seat in range(len(json.loads(table.entrants)))]


def scores(session: Session, t: TournamentRow) -> dict[int, Score]:
    """Every entrant's points and tie-breaks from the finished games (and byes) so far."""
    board = {e.id or 0: Score(e) for e in _entrants(session, t)}
    latest = max((tb.round for tb in _tables(session, t)), default=0)
    for table in _tables(session, t):
        seated: list[int] = json.loads(table.entrants)
        for seat, who in enumerate(seated):
            board[who].seat_sum += seat
            if seat == 0 and len(seated) > 1:
                board[who].firsts += 1
                board[who].last_first = board[who].last_first or table.round == latest
        if len(seated) == 1:
            board[seated[0]].points += 1
            board[seated[0]].byes += 1
            continue
        places = _game_places(session, table)
        if places is None:
            continue
        for i, who in enumerate(seated):
            board[who].games += 1
            for j, other in enumerate(seated):
                if i != j:
                    got = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                    board[who].points += got
                    board[who].against.append((other, got))
    for s in board.values():
        s.buchholz = sum(board[o].points for o, _ in s.against)
        s.berger = sum(board[o].points * got for o, got in s.against)
    return board


def standings(session: Session, t: TournamentRow) -> list[Score]:
    """The entrants ranked by points, Buchholz, Sonneborn-Berger, direct encounters, the order given."""
    board = scores(session, t)
    ranked = sorted(board.values(), key=lambda s: (-s.points, -s.buchholz, -s.berger, s.entrant.seed_order))
    out: list[Score] = []
    i = 0
    while i < len(ranked):  # the direct encounters decide among those tied on the three
        j = i
        while j < len(ranked) and _key(ranked[j]) == _key(ranked[i]):
            j += 1
        tied = ranked[i:j]
        ids = {s.entrant.id for s in tied}
        out += sorted(tied, key=lambda s: (-sum(g for o, g in s.against if o in ids), s.entrant.seed_order))
        i = j
    return out


def _key(s: Score) -> tuple[float, float, float]:
    return (s.points, s.buchholz, s.berger)


def _met(session: Session, t: TournamentRow) -> Counter[frozenset[int]]:
    """How often each pair of entrants sat at one table."""
    met: Counter[frozenset[int]] = Counter()
    for table in _tables(session, t):
        for a, b in combinations(json.loads(table.entrants), 2):
            met[frozenset((a, b))] += 1
    return met


# pairing ----------------------------------------------------------------------------------------------

def pair_swiss(order: Sequence[int], met: Counter[frozenset[int]]) -> list[tuple[int, int]] | None:
    """Pairs top down in `order` (the standings), none of whom met before; None if no such pairing exists."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for k, other in enumerate(rest):
        if met[frozenset((first, other))]:
            continue
        tail = pair_swiss([*rest[:k], *rest[k + 1:]], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def round_robin(ids: Sequence[int], round_no: int) -> list[tuple[int, ...]]:
    """The circle method's pairs of round `round_no` (1-based); an odd field has a bye (a table of one)."""
    field_ = [*ids, *([-1] if len(ids) % 2 else [])]
    n = len(field_)
    turn = (round_no - 1) % (n - 1)
    rotated = [field_[0], *(field_[1:][-turn:] + field_[1:][:-turn] if turn else field_[1:])]
    out: list[tuple[int, ...]] = []
    for i in range(n // 2):
        a, b = rotated[i], rotated[n - 1 - i]
        if -1 in (a, b):
            out.append((b if a == -1 else a,))
        else:
            out.append((a, b) if (round_no + i) % 2 else (b, a))
    return out


def table_sizes(n: int, size: int, low: int, high: int) -> list[int]:
    """`n` entrants at tables of about `size` (each between the ruleset's `low` and `high`)."""
    count = max(1, math.ceil(n / size))
    sizes = [n // count + (1 if i < n % count else 0) for i in range(count)]
    if min(sizes) < low or max(sizes) > high:
        raise PbemError(f"{n} entrants do not fit tables of {low} to {high} seats at about {size} a table")
    return sizes


def seat_tables(order: Sequence[int], sizes: Sequence[int], met: Counter[frozenset[int]]) -> list[list[int]]:
    """Tables snake-seeded by `order`, then entrants swapped between tables while a swap lowers the
    number of pairs who sat together before (so nobody meets twice where it can be avoided)."""
    tables: list[list[int]] = [[] for _ in sizes]
    snake = [i for lap in range(max(sizes)) for i in (range(len(sizes)) if lap % 2 == 0 else reversed(range(len(sizes))))]
    pos = 0
    for who in order:
        while len(tables[snake[pos]]) >= sizes[snake[pos]]:
            pos += 1
        tables[snake[pos]].append(who)
        pos += 1

    def clashes(table: list[int]) -> int:
        return sum(met[frozenset(p)] for p in combinations(table, 2))

    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    before = clashes(tables[a]) + clashes(tables[b])
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    if clashes(tables[a]) + clashes(tables[b]) < before:
                        improved = True
                    else:
                        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return tables


def seat_order(table: Sequence[int], board: dict[int, Score]) -> list[int]:
    """The first seat to whoever had it least (then not last round), the rest by later seats held."""
    return sorted(table, key=lambda who: (board[who].firsts, board[who].last_first, -board[who].seat_sum,
                                          board[who].entrant.seed_order))


def draw_round(session: Session, t: TournamentRow, round_no: int) -> list[list[int]]:
    """The tables of round `round_no`, each in seat order (a table of one is a bye)."""
    board = scores(session, t)
    order = [s.entrant.id or 0 for s in standings(session, t)] if round_no > 1 else \
        [e.id or 0 for e in _entrants(session, t)]
    met = _met(session, t)
    if t.format == "round-robin":
        return [list(seat_order(p, board)) if len(p) > 1 else list(p)
                for p in round_robin(sorted(board, key=lambda i: board[i].entrant.seed_order), round_no)]
    if t.format == "tables":
        engine = find_game(t.game)
        rules = engine.info.ruleset(t.rules)
        sizes = table_sizes(len(order), t.table_size, rules.min_players, rules.max_players)
        return [seat_order(table, board) for table in seat_tables(order, sizes, met)]
    bye: list[list[int]] = []
    if len(order) % 2:
        lowest = min(reversed(order), key=lambda who: board[who].byes)  # the lowest ranked of the fewest byes
        order = [who for who in order if who != lowest]
        bye = [[lowest]]
    pairs = pair_swiss(order, met) or [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    return [seat_order(p, board) for p in pairs] + bye


def game_name(t: TournamentRow, round_no: int, table: int) -> str:
    return f"{t.name}-r{round_no}-t{table}"


def start_round(m: Moderator, name: str, round_no: int) -> list[str]:
    """Draw round `round_no`, make its games (each player gets the welcome) and record the tables."""
    from pbem.moderator import PlayerSpec

    with m.store.session() as session:
        t = session.exec(select(TournamentRow).where(TournamentRow.name == name)).one()
        drawn = draw_round(session, t, round_no)
        entrants = {e.id: e for e in _entrants(session, t)}
        session.expunge_all()
    made = []
    for number, table in enumerate(drawn, start=1):
        game_id = None
        if len(table) > 1:
            title = game_name(t, round_no, number)
            seed = hashlib.sha256(f"{t.seed}/{title}".encode()).hexdigest()  # each game's own key, from the secret one
            players = [PlayerSpec(entrants[who].name, entrants[who].address, bot=entrants[who].bot or None)
                       for who in table]
            game = m.new_game(title, game=t.game, rules=t.rules, players=players, seed=seed,
                              deadline=t.deadline or None, options=json.loads(t.options))
            game_id = game.id
            made.append(title)
        with m.store.session() as session:
            session.add(TableRow(tournament_id=t.id or 0, round=round_no, table=number, game_id=game_id,
                                 entrants=json.dumps(table)))
    with m.store.session() as session:
        session.connection().execute(update(TournamentRow).where(col(TournamentRow.id) == t.id).values(round=round_no))
        people.sync(session, m.now())
    return made


def advance(m: Moderator, name: str) -> bool:
    """After a turn of game `name`: when it ended its tournament's round, the next round is made
    and started (or the tournament ends), and every person entrant hears the standings. Of two
    workers finishing the round's last games at once, the one whose claim holds goes on."""
    with m.store.session() as session:
        game = m.store.find_game(session, name)
        if game is None or not game.over:
            return False
        table = session.exec(select(TableRow).where(TableRow.game_id == game.id)).first()
        if table is None:
            return False
        t = session.get(TournamentRow, table.tournament_id)
        assert t is not None
        rows = [r for r in _tables(session, t) if r.round == t.round]
        if t.over or table.round != t.round or any(_game_places(session, r) is None for r in rows if r.game_id):
            return False
        last = t.round >= t.rounds
        claim = update(TournamentRow).where(col(TournamentRow.id) == t.id, col(TournamentRow.round) == t.round,
                                            col(TournamentRow.over) == False)  # noqa: E712
        claimed = session.connection().execute(claim.values(over=True) if last else claim.values(round=-t.round))
        assert isinstance(claimed, CursorResult)
        if claimed.rowcount != 1:
            return False
        t.over = last  # as the claim wrote it: the standings told say so
        tell_standings(m, session, t, t.round, last)
        done, name_, next_round = t.round, t.name, t.round + 1
    if not last:
        start_round(m, name_, next_round)
    m.deliver()
    return done > 0


def tell_standings(m: Moderator, session: Session, t: TournamentRow, round_no: int, last: bool) -> None:
    from pbem.club.mail import Desk, Member

    lines = standings_table(session, t)
    opening = (f"the tournament {t.name} is over: the final standings." if last
               else f"round {round_no} of {t.name} is over: round {round_no + 1} starts now, your welcome mail follows.")
    for e in _entrants(session, t):
        if e.address:
            m.mailer.queue(session, Desk(), None, m.mailer.answer(
                Desk(), Member(e.name, e.address), command=f"{t.name} standings", opening=opening, lines=lines,
                key=f"{t.name}-{round_no}", kind=MailKind.NOTICE))


def standings_table(session: Session, t: TournamentRow) -> list[str]:
    rows = standings(session, t)
    out = [f"{t.name}: {find_game(t.game).info.title} ({t.rules}), {t.format}, round {max(t.round, -t.round)} of "
           f"{t.rounds}" + (", over" if t.over else ""),
           f"  {'#':>3}  {'entrant':<20} {'points':>6} {'Buchholz':>8} {'S-B':>6} {'games':>5}"]
    out += [f"  {i:>3}  {s.entrant.name:<20} {s.points:>6g} {s.buchholz:>8g} {s.berger:>6g} {s.games:>5}"
            for i, s in enumerate(rows, start=1)]
    return [*out, "", "Ranked by points, then Buchholz, then Sonneborn-Berger, then the direct encounters."]


def standings_lines(session: Session, name: str | None) -> list[str]:
    """STANDINGS [TOURNAMENT] by mail: one tournament's, or every running one's (else the latest)."""
    query = select(TournamentRow).order_by(col(TournamentRow.id).desc())
    found = list(session.exec(query))
    if name:
        found = [t for t in found if t.name.lower() == name.lower()]
        if not found:
            raise PbemError(f"there is no tournament called {name!r}")
    else:
        found = [t for t in found if not t.over] or found[:1]
    if not found:
        return ["No tournament has been played here yet."]
    out: list[str] = []
    for t in found:
        out += [*standings_table(session, t), *rounds_lines(session, t), ""]
    return out


def rounds_lines(session: Session, t: TournamentRow) -> list[str]:
    """Every round's tables: who sat where, and the places once a game is over."""
    names = {e.id: e.name for e in _entrants(session, t)}
    out: list[str] = []
    by_round: dict[int, list[TableRow]] = defaultdict(list)
    for row in _tables(session, t):
        by_round[row.round].append(row)
    for round_no, rows in sorted(by_round.items()):
        out.append(f"Round {round_no}:")
        for row in rows:
            seated = [names[w] for w in json.loads(row.entrants)]
            if len(seated) == 1:
                out.append(f"  bye: {seated[0]}")
                continue
            places = _game_places(session, row)
            told = ", ".join(f"{n} {_place(p)}" for n, p in zip(seated, places, strict=True)) if places \
                else ", ".join(seated) + " (playing)"
            out.append(f"  {game_name(t, round_no, row.table)}: {told}")
    return out


def _place(place: float) -> str:
    n = int(place)
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"
