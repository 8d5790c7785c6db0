"""The GM's club commands: `pbem open`, `pbem club-game`, `pbem ratings`, `pbem tournament` and
`pbem standings` (added to the `pbem` group by `register`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from pbem.moderator import Moderator


def register(main: click.Group, config_option: Callable[[Any], Any], make: Callable[[Path | None], Moderator]) -> None:
    """Add the club's commands to `main`; `config_option` and `make` (a moderator for a config)
    are the CLI's own."""

    @main.command("open")
    @click.argument("name")
    @click.option("--game", "game_name", required=True, help="The game system.")
    @click.option("--rules", default=None, help="The ruleset (default: the game's first).")
    @click.option("--option", "options", multiple=True, metavar="OPTION", help="An option of the game; repeat for more.")
    @click.option("--seats", required=True, metavar="N or MIN-MAX", help="How many play, e.g. 4 or 3-6.")
    @click.option("--start", default="when-full", show_default=True, metavar="when-full|DATE",
                  help="Start when every seat is taken, or at DATE (UTC) with at least the minimum.")
    @click.option("--invite", default="", metavar="WORD", help="The word JOIN needs (default: none).")
    @click.option("--members-only", is_flag=True, help="Only people who play or played here may join.")
    @click.option("--min-reliability", default=0, type=click.IntRange(0, 100), metavar="PERCENT",
                  help="The share of turns a joiner must have kept.")
    @click.option("--deadline", default="", help="The game's deadline rule, as for new-game (e.g. 7d).")
    @config_option
    def open_cmd(name: str, game_name: str, rules: str | None, options: tuple[str, ...], seats: str, start: str,
                 invite: str, members_only: bool, min_reliability: int, deadline: str, config_path: Path | None) -> None:
        """Open a game for sign-up by mail (LIST, JOIN, LEAVE) instead of naming its players.

        The game starts when full, or at --start DATE with at least its minimum; the seats (and
        so who moves first) are drawn with the game's own chance, and every player gets the
        welcome mail.

        Example: pbem open club-1 --game GAME --seats 3-6 --start when-full --invite oak
        """
        from pbem.club.signup import Opening, how_it_starts, open_game, seat_range

        row = open_game(make(config_path), Opening(name, game_name, rules, options, seats, start, invite,
                                                   not members_only, min_reliability, deadline))
        click.echo(f"{row.name} is open for sign-up: {row.game} ({row.rules}), {seat_range(row)} seats; "
                   f"it {how_it_starts(row)}" + (f"; invitation word {row.invite}" if row.invite else ""))

    @main.command("sign-up")
    @click.argument("name")
    @click.option("--strangers/--members-only", default=None,
                  help="Let people the club does not know join, or not.")
    @click.option("--close", is_flag=True, help="Close the sign-up: the game will not start.")
    @config_option
    def sign_up(name: str, strangers: bool | None, close: bool, config_path: Path | None) -> None:
        """Change an open game's sign-up: open or closed to strangers, or closed altogether.

        Example: pbem sign-up oak --members-only
        """
        from pbem.club.signup import set_signup

        row = set_signup(make(config_path), name, strangers=strangers, close=close)
        click.echo(f"{row.name}: " + ("sign-up closed" if row.status == "closed" else
                                      "open to strangers" if row.strangers else "open to the club's people only"))

    @main.command("club-game")
    @click.argument("name")
    @click.option("--rated/--unrated", default=None, help="Whether the game counts for the ratings (default: rated).")
    @click.option("--missed-limit", default=None, type=click.IntRange(0, 100), metavar="N",
                  help="Offer a seat to the standby pool once it missed N turns in a row (0: never).")
    @click.option("--on-resign", default=None, metavar="standby|computer:LEVEL",
                  help="Who takes a resigned seat: the standby pool, or a computer player of LEVEL.")
    @config_option
    def club_game(name: str, rated: bool | None, missed_limit: int | None, on_resign: str | None,
                  config_path: Path | None) -> None:
        """The club's settings of a running game: rated, quiet seats, resignations.

        Example: pbem club-game club-1 --missed-limit 2 --on-resign standby
        """
        from pbem.club.standby import set_game

        row = set_game(make(config_path), name, rated=rated, missed_limit=missed_limit, on_resign=on_resign)
        click.echo(f"{name}: {'rated' if row.rated else 'unrated'}, missed limit {row.missed_limit or 'none'}, "
                   f"a resigned seat goes to {row.on_resign}")

    @main.command("ratings")
    @click.argument("system", required=False)
    @config_option
    def ratings_cmd(system: str | None, config_path: Path | None) -> None:
        """The ratings of every game system (or of one), from every finished rated game.

        OpenSkill's Plackett-Luce model over places, ties and teams; each computer level is a
        player of its own. Recomputed each time: a rollback or a corrected result changes them.

        Example: pbem ratings
        """
        from pbem.club.ratings import show

        for line in show(make(config_path), system):
            click.echo(line)

    @main.command("tournament")
    @click.argument("name")
    @click.option("--game", "game_name", required=True, help="The game system.")
    @click.option("--rules", default=None, help="The ruleset (default: the game's first).")
    @click.option("--option", "options", multiple=True, metavar="OPTION", help="An option of the game; repeat for more.")
    @click.option("--format", "form", type=click.Choice(["swiss", "round-robin", "tables"]), required=True,
                  help="swiss or round-robin (two-player games), tables (3 to 6 seats a game).")
    @click.option("--rounds", type=click.IntRange(1, 50), default=None,
                  help="How many rounds (default: all for a round robin, else log2 of the field).")
    @click.option("--table-size", type=click.IntRange(2, 6), default=None, help="Seats a table (tables: default 4).")
    @click.option("--entrant", "entrants", multiple=True, required=True, metavar="NAME=ADDRESS|NAME=bot:LEVEL",
                  help="An entrant, in seeding order; repeat for each.")
    @click.option("--deadline", default="", help="Each game's deadline rule, as for new-game (e.g. 3d).")
    @click.option("--seed", default=None, metavar="TEXT",
                  help="The key of every game's chance (default: a secret random one); for tournaments that must "
                       "come out the same again, e.g. tests.")
    @config_option
    def tournament_cmd(name: str, game_name: str, rules: str | None, options: tuple[str, ...], form: str,
                       rounds: int | None, table_size: int | None, entrants: tuple[str, ...], deadline: str,
                       seed: str | None, config_path: Path | None) -> None:
        """Run a tournament: round one's games start now, each next round when the last game of a round ends.

        Standings by points, then Buchholz, then Sonneborn-Berger, then the direct encounters;
        STANDINGS by mail, `pbem standings` and the archive show them.

        Example: pbem tournament spring --game GAME --format swiss --entrant Ann=ann@example.org --entrant Cpu=bot:strong
        """
        from pbem.club.tournament import Plan, create, read_entry

        m = make(config_path)
        row = create(m, Plan(name, game_name, rules, options, form, rounds, [read_entry(e) for e in entrants],
                             table_size or 0, deadline, seed))
        click.echo(f"{row.name}: {row.format}, {row.rounds} rounds of {row.game}; round 1 has started")

    @main.command("standings")
    @click.argument("name", required=False)
    @config_option
    def standings_cmd(name: str | None, config_path: Path | None) -> None:
        """A tournament's standings and rounds (default: the running ones).

        Example: pbem standings spring
        """
        from pbem.club.tournament import standings_lines

        m = make(config_path)
        with m.store.session() as session:
            for line in standings_lines(session, name):
                click.echo(line)
