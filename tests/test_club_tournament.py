"""Tournaments: Swiss pairings without rematches and with the first seat alternated, seeded tables,
a round robin; played to the end by people (by mail) and computer players."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pbem.club import tournament
from pbem.club.rows import TableRow, TournamentRow
from pbem.games.base import Viewer
from pbem.games.chance import LegacyChance
from tests.test_club import Club, ok, run
from tests.test_club import club as club  # noqa: F401 - the fixture
from tests.test_mail_commands import client_mail, text_of

TWO = "badger-bunny"  # a two-player game that resolves on receipt
MANY = "card-race"  # 2 to 5 seats

PEOPLE = ["Ann", "Bob", "Cyd", "Dot"]
COMPUTERS = ["Cpu1=bot:strong", "Cpu2=bot:baseline", "Cpu3=bot:strong", "Cpu4=bot:baseline"]


def play(club: Club, name: str) -> int:
    """Play the tournament's games to the end as `pbem run` would: each person on move mails the
    sheet their game's computer player would write (through the whole mail pipeline), and due
    turns are resolved; returns the mails the people sent."""
    sent = 0
    done: set[str] = set()
    for _ in range(2000):
        with club.m.store.session() as session:
            t = session.exec(tournament.select(TournamentRow).where(TournamentRow.name == name)).one()
            if t.over:
                return sent
            tables = session.exec(tournament.select(TableRow).where(TableRow.tournament_id == t.id)).all()
            games = [club.m.store.find_game(session, tournament.game_name(t, r.round, r.table)) for r in tables
                     if r.game_id is not None]
            running = [g.name for g in games if g is not None and not g.over]
        mailed = sum(mail_sheets(club, game_name, done) for game_name in running)
        due = club.m.due_games()
        if not due and not mailed:  # nobody can send more: the deadlines come
            due = [(g, club.m.game_state(g)[0].turn) for g in running]
        for game_name, turn in due:
            if not club.m.game_state(game_name)[0].over:
                club.m.resolve(game_name, force=True, turn=turn)
        sent += mailed
    raise AssertionError("the tournament did not end")


def mail_sheets(club: Club, name: str, done: set[str]) -> int:
    """The first person on move without a sheet in force mails one (once a turn: `done`)."""
    game, players, state = club.m.game_state(name)
    if game.over:
        return 0
    engine = club.m.engine(game)
    with club.m.store.session() as session:
        sheets = club.m.store.current_sheets(session, game.id or 0, game.turn)
    sent = 0
    for p in players:
        mid = f"{name}-{game.turn}-{p.seat}@x"
        if p.bot or p.seat not in engine.to_move(state) or p.id in sheets or mid in done:
            continue
        done.add(mid)
        advisor = engine.bot(engine.info.bot_levels[-1])
        assert advisor is not None
        sheet = advisor.write(engine.view(state, Viewer(p.seat)), LegacyChance(f"{name}/{game.turn}", p.seat))
        club.count += 1
        result = club.m.ingest(client_mail(p.email, f"GAME {name}\nSECRET {p.secret}\n{sheet}", mid=mid))
        assert result.status in ("accepted", "answered"), result  # answered: a sheet with no order (a pass)
        sent += 1
        break  # one mail at a time: it may resolve the turn
    return sent


def test_eight_people_and_computers_play_a_swiss_tournament_to_the_end(club: Club,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["tournament", "spring", "--game", TWO, "--format", "swiss", "--rounds", "3", "--deadline", "3d",
            "--seed", "spring"]
    for i, who in enumerate(PEOPLE):
        args += ["--entrant", f"{who}={who.lower()}@example.org", "--entrant", COMPUTERS[i]]
    out = ok(run(*args)).output
    assert out == f"spring: swiss, 3 rounds of {TWO}; round 1 has started\n"
    sent = play(club, "spring")
    assert sent > 0

    with club.m.store.session() as session:
        t = session.exec(tournament.select(TournamentRow)).one()
        tables = session.exec(tournament.select(TableRow).order_by(TableRow.round, TableRow.table)).all()
        ranked = tournament.standings(session, t)
        lines = tournament.standings_table(session, t)
    # three rounds of four games; nobody met anybody twice; each had the first seat once or twice
    assert [r.round for r in tables] == [1] * 4 + [2] * 4 + [3] * 4
    pairs = Counter(frozenset(tournament.json.loads(r.entrants)) for r in tables)
    assert max(pairs.values()) == 1
    firsts = Counter(tournament.json.loads(r.entrants)[0] for r in tables)
    assert sorted(firsts.values()) in ([1, 1, 1, 1, 2, 2, 2, 2], [1] * 4 + [2] * 4)
    assert sum(s.points for s in ranked) == 12  # one point a game
    keys = [(-s.points, -s.buchholz, -s.berger) for s in ranked]
    assert keys == sorted(keys)
    # the same seed, the same sheets: the same tournament every time
    assert lines[2:10] == [
        "    1  Cpu1                      3      3.5    3.5     3",
        "    2  Cpu3                      2        5      3     3",
        "    3  Dot                       2        5      2     3",
        "    4  Cyd                       2      2.5    0.5     3",
        "    5  Cpu2                    1.5      1.5   0.25     3",
        "    6  Bob                       1      6.5    1.5     3",
        "    7  Ann                     0.5      6.5   0.75     3",
        "    8  Cpu4                      0      5.5      0     3",
    ]

    # after each round every person entrant heard the standings
    told = [text_of(p) for p in sorted((club.root / "outbox").glob("*-notice-ann@example.org.eml"))]
    told = [t for t in told if "spring: " in t]
    assert [t.split("\n")[0] for t in told] == [
        "Ann, round 1 of spring is over: round 2 starts now, your welcome mail follows.",
        "Ann, round 2 of spring is over: round 3 starts now, your welcome mail follows.",
        "Ann, the tournament spring is over: the final standings."]
    assert "\n".join(lines) in told[-1]
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T12:00:00Z")  # later: the acknowledgements' hourly limit is past
    standings = club.answer("ann@example.org", "STANDINGS spring")
    assert "\n".join(lines) in standings and "Round 3:" in standings
    stranger = club.answer("zed@example.org", "STANDINGS")
    assert "spring: " in stranger
    ok(run("archive", str(club.root / "site")))
    page = (club.root / "site" / "_club" / "tournament-spring.html").read_text()
    assert f"<td>1</td><td>{ranked[0].entrant.name}</td><td>{ranked[0].points:g}</td>" in page
    assert "<td>spring-r3-t4: " in page


def test_swiss_pairing_avoids_rematches_and_alternates_the_first_seat() -> None:
    met: Counter[frozenset[int]] = Counter({frozenset((1, 2)): 1, frozenset((3, 4)): 1})
    assert tournament.pair_swiss([1, 2, 3, 4], met) == [(1, 3), (2, 4)]
    assert tournament.pair_swiss([1, 2], Counter({frozenset((1, 2)): 1})) is None


def test_a_round_robin_meets_everyone_once() -> None:
    ids = [1, 2, 3, 4, 5]
    games = [t for r in range(1, 6) for t in tournament.round_robin(ids, r)]
    pairs = Counter(frozenset(t) for t in games if len(t) == 2)
    assert set(pairs) == {frozenset(p) for p in combinations(ids, 2)} and set(pairs.values()) == {1}
    assert sorted(t[0] for t in games if len(t) == 1) == ids  # one bye each


def test_tables_keep_people_apart_where_they_can() -> None:
    met = Counter({frozenset((1, 2)): 1, frozenset((3, 4)): 1, frozenset((5, 6)): 1})
    tables = tournament.seat_tables([1, 2, 3, 4, 5, 6], [3, 3], met)
    assert sorted(len(t) for t in tables) == [3, 3]
    assert all(met[frozenset(p)] == 0 for t in tables for p in combinations(t, 2))


def test_a_tables_tournament_of_people_and_computers(club: Club) -> None:
    args = ["tournament", "cup", "--game", MANY, "--format", "tables", "--rounds", "2", "--table-size", "3"]
    for i, who in enumerate(PEOPLE[:3]):
        args += ["--entrant", f"{who}={who.lower()}@example.org", "--entrant", COMPUTERS[i]]
    ok(run(*args))
    play(club, "cup")
    with club.m.store.session() as session:
        tables = session.exec(tournament.select(TableRow).order_by(TableRow.round, TableRow.table)).all()
    seated = [tournament.json.loads(r.entrants) for r in tables]
    assert [len(s) for s in seated] == [3, 3, 3, 3]
    together = Counter(frozenset(p) for s in seated for p in combinations(s, 2))
    # six at two tables of three, twice: each new table holds two of one earlier table (pigeonholes),
    # so two pairs meet again at the least; the seating finds that least
    assert sum(n - 1 for n in together.values()) == 2
    assert len({s[0] for s in seated}) == 4  # four tables, four different first seats


def test_a_round_robin_with_a_bye_each_round(club: Club) -> None:
    ok(run("tournament", "trio", "--game", TWO, "--format", "round-robin", "--seed", "trio",
           "--entrant", "Ann=ann@example.org", "--entrant", COMPUTERS[0], "--entrant", COMPUTERS[1]))
    play(club, "trio")
    with club.m.store.session() as session:
        t = session.exec(tournament.select(TournamentRow)).one()
        tables = session.exec(tournament.select(TableRow).order_by(TableRow.round, TableRow.table)).all()
        ranked = tournament.standings(session, t)
    assert t.rounds == 3 and t.over
    seated = [tournament.json.loads(r.entrants) for r in tables]
    assert Counter(frozenset(s) for s in seated if len(s) == 2) == Counter(
        {frozenset(p): 1 for p in combinations([s.entrant.id for s in ranked], 2)})
    assert sorted(s[0] for s in seated if len(s) == 1) == sorted(s.entrant.id for s in ranked)  # a bye each
    assert sum(s.points for s in ranked) == 3 + 3  # three games, three byes
