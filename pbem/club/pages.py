"""The club's pages of the archive: a ratings page per game system, the hall of fame, and each
tournament's rounds and standings. Only finished games count in any of them, so the archive
shows no hidden value of a game still running."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlmodel import col, select

from pbem.archive import ClubPage, Table
from pbem.club import people, ratings, tournament
from pbem.club.rows import TournamentRow
from pbem.games import find_game

if TYPE_CHECKING:
    from pbem.moderator import Moderator

#: the club's folder in the archive: no game's folder can be called so (a game's name starts
#: with a letter or digit)
FOLDER = "_club"
HEAD = ("#", "Player", "Rating", "mu", "sigma", "Games", "Wins")


def club_pages(m: Moderator) -> list[ClubPage]:
    with m.store.session() as session:
        people.sync(session, m.now())
        tables = ratings.ratings(session)
        pages = [ClubPage(f"{FOLDER}/ratings-{system}.html", f"Ratings: {find_game(system).info.title}",
                          "OpenSkill (Plackett-Luce) over every finished rated game; the rating is mu - 3 sigma. "
                          "Each computer level is a player of its own.",
                          (Table(system, HEAD, tuple(_row(i, r) for i, r in enumerate(rows, start=1))),))
                 for system, rows in tables.items()]
        if tables:
            pages.append(ClubPage(f"{FOLDER}/hall-of-fame.html", "Hall of fame",
                                  "The three best rated players of each game system.",
                                  tuple(Table(find_game(system).info.title, HEAD,
                                              tuple(_row(i, r) for i, r in enumerate(best, start=1)))
                                        for system, best in ratings.hall_of_fame(tables))))
        for t in session.exec(select(TournamentRow).order_by(col(TournamentRow.id))):
            pages.append(ClubPage(f"{FOLDER}/tournament-{t.name}.html", f"Tournament {t.name}",
                                  "Standings by points, then Buchholz, then Sonneborn-Berger, then the direct "
                                  "encounters; only finished games count.", (
                                      Table("Standings", ("#", "Entrant", "Points", "Buchholz", "S-B", "Games"),
                                            tuple((str(i), s.entrant.name, f"{s.points:g}", f"{s.buchholz:g}",
                                                   f"{s.berger:g}", str(s.games))
                                                  for i, s in enumerate(tournament.standings(session, t), start=1))),
                                      Table("Rounds", ("Round and table",),
                                            tuple((line.strip(),) for line in tournament.rounds_lines(session, t))))))
    return pages


def _row(place: int, r: ratings.Rated) -> tuple[str, ...]:
    return (str(place), r.name, f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}", str(r.games), str(r.wins))
