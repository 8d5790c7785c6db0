"""Ratings: OpenSkill's Plackett-Luce over the finished rated games, recomputed from the games as
they stand, by mail (RATINGS), on the command line and in the archive."""

from __future__ import annotations

from pathlib import Path

from openskill.models import PlackettLuce

from pbem.club.ratings import Finished, Seat, rate
from pbem.games import find_game
from tests.test_club import Club, ok, run
from tests.test_club import club as club  # noqa: F401 - the fixture

SYSTEM = "card-race"


def play_out(club: Club, name: str, people: list[str], bot: str = "baseline") -> list[int]:
    """A game of the people and one computer player, resolved until it ends (nobody sends orders:
    the default moves play); each seat's place, seat by seat (unplaced seats tie last)."""
    args = ["new-game", name, "--game", SYSTEM, "--seed", name, "--deadline", "7d", "--player", f"Cpu=bot:{bot}"]
    for who in people:
        args += ["--player", f"{who}={who.lower()}@example.org"]
    ok(run(*args))
    for _ in range(60):
        if club.m.game_state(name)[0].over:
            break
        club.m.resolve(name, force=True)
    game, _, state = club.m.game_state(name)
    assert game.over
    places = find_game(SYSTEM).result(state).places
    last = 1 + max(p.place or 0 for p in places)
    return [next(p.place or last for p in places if p.seat == seat) for seat in range(len(people) + 1)]


def expected(results: list[tuple[list[str], list[int]]]) -> dict[str, float]:
    """The ratings (mu - 3 sigma) the same results give, fed to OpenSkill by hand."""
    model = PlackettLuce()
    table = {}
    for names, places in results:
        teams = [[table.get(n, model.rating())] for n in names]
        for n, [r] in zip(names, model.rate(teams, ranks=[float(p) for p in places]), strict=True):
            table[n] = r
    return {n: round(r.ordinal(), 2) for n, r in table.items()}


def shown(text: str) -> dict[str, float]:
    rows = [line.split() for line in text.splitlines() if line[:6].strip().isdigit()]
    return {" ".join(r[1:-5]): float(r[-5]) for r in rows}


def test_ratings_follow_the_finished_games_exactly(club: Club) -> None:
    first = play_out(club, "g1", ["Ann", "Bob"])
    second = play_out(club, "g2", ["Bob", "Cyd"])
    names1, names2 = ["computer (baseline)", "Ann", "Bob"], ["computer (baseline)", "Bob", "Cyd"]
    want = expected([(names1, first), (names2, second)])
    text = club.answer("ann@example.org", "RATINGS")
    assert shown(text) == want
    assert ok(run("ratings", SYSTEM)).output.count("\n") > 3

    ok(run("rollback", "g2"))  # g2 is no longer over: it counts no more, exactly
    assert shown(club.answer("ann@example.org", "RATINGS")) == expected([(names1, first)])


def test_the_archive_has_a_ratings_page_and_a_hall_of_fame(club: Club, tmp_path: Path) -> None:
    play_out(club, "g1", ["Ann", "Bob"], bot="strong")
    ok(run("new-game", "running", "--game", SYSTEM, "--player", "Dot=dot@example.org", "--player", "Eve=eve@example.org"))
    ok(run("archive", str(tmp_path / "site")))
    index = (tmp_path / "site" / "index.html").read_text()
    assert '<a href="_club/ratings-card-race.html">' in index and '<a href="_club/hall-of-fame.html">' in index
    page = (tmp_path / "site" / "_club" / f"ratings-{SYSTEM}.html").read_text()
    assert "<td>Ann</td>" in page and "<td>computer (strong)</td>" in page
    assert "Dot" not in page  # a running game counts for nothing
    assert "<td>Bob</td>" in (tmp_path / "site" / "_club" / "hall-of-fame.html").read_text()


def test_ties_share_a_result_and_a_team_is_rated_as_one() -> None:
    seats = (Seat("person:1", "Ann", 1, "red"), Seat("person:2", "Bob", 2, "red"),
             Seat("person:3", "Cyd", 2, "blue"), Seat("person:4", "Dot", 3, "blue"))
    [tables] = rate([Finished("s", "g", seats), Finished("s", "h", (Seat("person:5", "Eve", 1),
                                                                       Seat("computer:strong", "computer (strong)", 1)))]
                    ).values()
    model = PlackettLuce()
    red, blue = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1.0, 2.0])
    # a team ranks by its best seat: red (Ann first) before blue (Cyd second), each member as the team
    assert [round(tables[k].mu, 6) for k in ("person:1", "person:2", "person:3", "person:4")] == \
        [round(r.mu, 6) for r in (*red, *blue)]
    assert tables["person:1"].mu == tables["person:2"].mu > tables["person:3"].mu == tables["person:4"].mu
    assert tables["person:5"].mu == tables["computer:strong"].mu  # a tie between two players moves both alike
    assert tables["computer:strong"].name == "computer (strong)"
