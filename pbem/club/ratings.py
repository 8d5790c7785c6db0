"""Ratings per person and game system, recomputed from the finished rated games each time.

OpenSkill's Plackett–Luce model rates multi-player results with places, ties and teams: each
finished game is one ranking of its seats by their places (equal places tie; seats of one team
are rated as the team, ranked by its best place; seats a game gives no place tie behind every
placed seat). Each seat counts for whoever held it at the
end (a person), and each computer level is a player of its own ("computer (strong)"). Nothing is
stored: a rollback (the game is no longer over) or a corrected result changes the ratings
exactly, because they are computed again from the games as they stand, oldest first.

A game counts when its own rules ended it (the GM's `pbem end` without play is no result) and
the GM did not set it unrated (`pbem club-game NAME --unrated`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce
from sqlmodel import Session, col, select

from pbem.club import people
from pbem.club.rows import ClubGameRow
from pbem.games import find_game
from pbem.store import GameRow, PlayerRow, TurnRow

if TYPE_CHECKING:
    from pbem.moderator import Moderator


@dataclass(frozen=True)
class Seat:
    """A seat of a finished game as the ratings see it: who (a key and a name) and its place."""

    key: str  # "person:<id>" or "computer:<level>"
    name: str
    place: int
    team: str = ""


@dataclass(frozen=True)
class Finished:
    """A finished rated game: its system, name and seats, in the order the ratings take games."""

    system: str
    name: str
    seats: tuple[Seat, ...]


@dataclass
class Rated:
    """One player's rating in one system."""

    key: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    history: list[str] = field(default_factory=list)

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown and ranked by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def finished_games(session: Session, system: str | None = None) -> list[Finished]:
    """Every finished rated game (of `system`), oldest result first (its last turn's resolution)."""
    query = select(GameRow).where(GameRow.over == True)  # noqa: E712
    games = [g for g in session.exec(query) if system is None or find_game(g.game).info.name == system]
    unrated = {r.game_id for r in session.exec(select(ClubGameRow).where(ClubGameRow.rated == False))}  # noqa: E712
    games = [g for g in games if g.id not in unrated]
    holders = people.holders(session, [g.id or 0 for g in games])
    out: list[tuple[Any, int, Finished]] = []
    for game in games:
        engine = find_game(game.game)
        result = engine.result(engine.load_state(json.loads(game.state)))
        if not result.over:
            continue
        unplaced = 1 + max((p.place for p in result.places if p.place is not None), default=0)
        players = {p.seat: p for p in session.exec(select(PlayerRow).where(PlayerRow.game_id == game.id))}
        seats = []
        for place in result.places:
            player = players[place.seat]
            person = holders.get((game.id or 0, place.seat))
            if player.bot:
                seats.append(Seat(f"computer:{player.bot}", f"computer ({player.bot})", place.place or unplaced,
                                  place.team or ""))
            elif person is not None:
                seats.append(Seat(f"person:{person.id}", person.name, place.place or unplaced, place.team or ""))
        if len({s.key for s in seats}) != len(seats) or len(seats) < 2:
            continue  # one player in two seats (or one rated seat) ranks nobody against anybody
        last = session.exec(select(TurnRow.resolved_at).where(TurnRow.game_id == game.id)
                            .order_by(col(TurnRow.turn).desc())).first()
        out.append((last, game.id or 0, Finished(engine.info.name, game.name, tuple(seats))))
    out.sort(key=lambda x: (x[0] is None, x[0] or 0, x[1]))
    return [f for _, _, f in out]


def rate(games: Iterable[Finished]) -> dict[str, dict[str, Rated]]:
    """The ratings by system and player key, from `games` in order."""
    model = PlackettLuce()
    tables: dict[str, dict[str, Rated]] = {}
    for game in games:
        table = tables.setdefault(game.system, {})
        teams: dict[str, list[Seat]] = {}
        for seat in game.seats:
            teams.setdefault(seat.team or seat.key, []).append(seat)
        groups = list(teams.values())
        ranks = [min(s.place for s in group) for group in groups]
        before = [[_rated(table, s) for s in group] for group in groups]
        after = model.rate([[model.rating(mu=r.mu, sigma=r.sigma) for r in group] for group in before],
                           ranks=[float(r) for r in ranks])
        best = min(ranks)
        for group, old, new, rank in zip(groups, before, after, ranks, strict=True):
            for seat, rated, fresh in zip(group, old, new, strict=True):
                rated.mu, rated.sigma, rated.name = fresh.mu, fresh.sigma, seat.name
                rated.games += 1
                rated.wins += rank == best
                rated.history.append(game.name)
    return tables


def _rated(table: dict[str, Rated], seat: Seat) -> Rated:
    if seat.key not in table:
        start = PlackettLuce().rating()
        table[seat.key] = Rated(seat.key, seat.name, start.mu, start.sigma)
    return table[seat.key]


def ranked(table: dict[str, Rated]) -> list[Rated]:
    return sorted(table.values(), key=lambda r: (-r.ordinal, r.name))


def ratings(session: Session, system: str | None = None) -> dict[str, list[Rated]]:
    """The ranked ratings of every system (or of one), recomputed from the finished games."""
    return {name: ranked(table) for name, table in sorted(rate(finished_games(session, system)).items())}


def lines(tables: dict[str, list[Rated]]) -> list[str]:
    """The ratings as text: rank, name, rating (mu - 3 sigma), mu and sigma, games and wins."""
    if not tables:
        return ["No rated game has finished yet."]
    out: list[str] = []
    for system, rows in tables.items():
        out += [f"{find_game(system).info.title} ({system}):",
                f"  {'#':>3}  {'player':<24} {'rating':>7} {'mu':>6} {'sigma':>6} {'games':>5} {'wins':>4}"]
        out += [f"  {i:>3}  {r.name:<24} {r.ordinal:>7.2f} {r.mu:>6.2f} {r.sigma:>6.2f} {r.games:>5} {r.wins:>4}"
                for i, r in enumerate(rows, start=1)]
        out.append("")
    return [*out, "A rating is mu - 3 sigma (OpenSkill, Plackett-Luce): it rises with results and with certainty."]


def table_lines(session: Session, system: str | None) -> list[str]:
    """RATINGS [SYSTEM] by mail."""
    return lines(ratings(session, find_game(system).info.name if system else None))


def hall_of_fame(tables: dict[str, list[Rated]], top: int = 3) -> list[tuple[str, Sequence[Rated]]]:
    """The best `top` of each system, for the archive's hall of fame."""
    return [(system, rows[:top]) for system, rows in tables.items()]


def show(m: Moderator, system: str | None) -> list[str]:
    """`pbem ratings [SYSTEM]`."""
    with m.store.session() as session:
        people.sync(session, m.now())
        return table_lines(session, system)
