"""The club's pages of the archive: a ratings page per game system, the hall of fame, and each
tournament's rounds and standings. Only finished games count in any of them, so the archive
shows no hidden value of a game still running."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.archive import ClubPage, Table
from pbem.club import people, ratings
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
    return pages


def _row(place: int, r: ratings.Rated) -> tuple[str, ...]:
    return (str(place), r.name, f"{r.ordinal:.2f}", f"{r.mu:.2f}", f"{r.sigma:.2f}", str(r.games), str(r.wins))
