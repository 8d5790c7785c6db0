"""The `pbem` command line: a thin layer over the library."""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem import __version__
from pbem.club import cli as club_cli
from pbem.errors import PbemError
from pbem.words import plural

if TYPE_CHECKING:  # the library is imported lazily, so `pbem --help` starts fast
    from pbem.mail.maildir import MailFile
    from pbem.moderator import Moderator, PlayerSpec


class _Group(click.Group):
    """Turns PbemError into a clean message and exit code 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except PbemError as err:
            raise click.ClickException(str(err)) from None
        except OSError as err:
            if err.errno in (errno.ENOSPC, errno.EDQUOT):
                raise click.ClickException(
                    f"the disk is full ({err.filename or err}): free some space and run the command again; "
                    "what was committed stays committed, and queued mail is sent by the next `pbem send`.") from None
            raise
        except Exception as err:
            problem = _database_problem(err)
            if problem is None:
                raise
            raise click.ClickException(problem) from None


def _database_problem(err: Exception) -> str | None:
    """What a database error means for the GM, None for any other error. SQLAlchemy's errors are
    looked up only where SQLAlchemy is loaded (whatever raised one loaded it): a command that never
    touches the store does not pay for importing it."""
    exc = sys.modules.get("sqlalchemy.exc")
    if exc is None:
        return None
    if isinstance(err, exc.OperationalError):
        return (f"the database cannot be used now ({_first_line(err)}): another pbem may hold it locked, or "
                "its server is down. Nothing was changed by this command; run it again in a moment.")
    if isinstance(err, exc.IntegrityError):  # a clash of unique keys: two commands at once, not damage
        return (f"this was done by another command at the same moment ({_first_line(err)}): nothing was changed "
                "by this one; run it again if it is still needed.")
    if isinstance(err, exc.DatabaseError):
        return (f"the database is damaged or is not pbem's ({_first_line(err)}): restore it from a backup, "
                "or point [database] url in pbem.toml at the right one.")
    return None


def _first_line(err: Exception) -> str:
    return str(getattr(err, "orig", err)).strip().splitlines()[0][:200] if str(err).strip() else type(err).__name__


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
def main() -> None:
    """pbem — a play-by-email moderator for turn-based games.

    Example: pbem demo /tmp/pbem-demo
    """


@main.command("check-cases")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("-v", "--verbose", is_flag=True, help="Also list the cases that pass.")
def check_cases_cmd(paths: tuple[Path, ...], verbose: bool) -> None:
    """Run rule cases (.case files, or folders searched for them) against the engine; without
    PATHS, every registered game's own cases (the `cases/` folder of its package).

    Prints every failing case in full, then `N passed, M failed`; exits 1 if any failed.

    Example: pbem check-cases my-bug.case
    """
    from pbem.cases import check_cases

    passed = failed = 0
    for result in check_cases(paths):
        if result.passed:
            passed += 1
            if verbose:
                click.echo(f"ok   {result.case_id} ({result.where})")
        else:
            failed += 1
            click.echo(result.report)
            click.echo()
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


# --- the moderator -------------------------------------------------------------------------

config_option = click.option(
    "--config", "config_path", type=click.Path(path_type=Path, dir_okay=False),
    help="The pbem.toml to use (default: $PBEM_CONFIG, then ./pbem.toml).",
)


class _StoredInt(click.ParamType):  # type: ignore[type-arg]
    """A whole number the store can keep (a signed 64-bit column in SQLite and PostgreSQL alike):
    one beyond it is a one-line error, not an overflow deep in the database driver."""

    name = "integer"
    LARGEST = 2**63 - 1

    def __init__(self, hint: str = "") -> None:
        self.hint = hint

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = value if isinstance(value, int) else None
        if number is None:
            text = str(value).strip()
            if not (text.isascii() and text.lstrip("+-").isdigit()) or len(text) > 40:
                self.fail(f"{str(value)[:40]!r} is not a whole number{self.hint}", param, ctx)
            number = int(text)
        if not 0 <= number <= self.LARGEST:
            self.fail(f"{str(number)[:40]} is out of range: give a whole number from 0 to {self.LARGEST} "
                      f"({len(str(self.LARGEST))} digits at most){self.hint}", param, ctx)
        return number


WHOLE = _StoredInt()


def _moderator(config_path: Path | None) -> Moderator:
    from pbem.config import load_config
    from pbem.moderator import Moderator

    moderator = Moderator(load_config(config_path))
    moderator.store.create()
    return moderator


@main.command()
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False), default=".")
@click.option("--address", default="gm@pbem.example", show_default=True, help="The moderator's mail address.")
def init(directory: Path, address: str) -> None:
    """Set up pbem in DIRECTORY: pbem.toml, the SQLite database, inbox/ (a Maildir) and outbox/.

    Example: pbem init ~/games --address gm@example.org
    """
    from pbem.config import load_config, write_config
    from pbem.store import Store

    path = write_config(directory, address=address)
    config = load_config(path)
    Store(config.database_url).create()
    click.echo(f"Wrote {path}")
    click.echo(f"Database {config.database_url}")
    click.echo(f"Inbox (Maildir) {config.maildir}/   Outbox {config.outbox}/")
    click.echo(f"Next: cd {directory} && pbem new-game NAME --player Ann=ann@example.org --player Bob=bob@example.org")


def _player_specs(players: tuple[str, ...], secrets: tuple[str, ...], zones: tuple[str, ...],
                  teams: tuple[str, ...] = ()) -> list[PlayerSpec]:
    from pbem.clock import find_zone
    from pbem.moderator import PlayerSpec
    from pbem.tokens import check_secret

    def pairs(values: tuple[str, ...], option: str) -> dict[str, str]:
        out = {}
        for v in values:
            name, sep, value = v.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise click.BadParameter(f"{v!r}: write it as NAME=VALUE", param_hint=option)
            out[name.strip().lower()] = value.strip()
        return out

    secret_of, zone_of = pairs(secrets, "--secret"), pairs(zones, "--timezone")
    names = {p.partition("=")[0].strip().lower() for p in players}
    team_of: dict[str, str] = {}
    for t in teams:
        team, sep, members = t.partition("=")
        seats = [m.strip() for m in members.split(",") if m.strip()]
        if not sep or not team.strip() or not seats:
            raise click.BadParameter(f"{t!r}: write a team as TEAM=NAME,NAME", param_hint="--team")
        for member in seats:
            if member.lower() not in names:
                raise click.BadParameter(f"{member!r} is not one of the players given with --player", param_hint="--team")
            if member.lower() in team_of:
                raise click.BadParameter(f"{member} is in two teams", param_hint="--team")
            team_of[member.lower()] = team.strip()
    for option, given in (("--secret", secret_of), ("--timezone", zone_of)):
        for key in given:
            if key not in names:
                raise click.BadParameter(f"{key!r} is not one of the players given with --player", param_hint=option)
    for key, value in secret_of.items():
        problem = check_secret(value)
        if problem is not None:
            raise click.BadParameter(f"{key}: {problem}", param_hint="--secret")
    for key, value in zone_of.items():
        try:
            find_zone(value)
        except PbemError as err:
            raise click.BadParameter(f"{key}: {err}", param_hint="--timezone") from None
    specs = []
    for p in players:
        name, sep, email = p.partition("=")
        if not sep or not name.strip() or not email.strip():
            raise click.BadParameter(f"{p!r}: write each player as NAME=EMAIL", param_hint="--player")
        key = name.strip().lower()
        where = email.strip()
        if where.lower() == "bot" or where.lower().startswith("bot:"):
            level = where.partition(":")[2].strip() or "default"
            specs.append(PlayerSpec(name.strip(), "", secret_of.get(key), zone_of.get(key, "UTC"), bot=level,
                                    team=team_of.get(key)))
            continue
        specs.append(PlayerSpec(name.strip(), where, secret_of.get(key), zone_of.get(key, "UTC"), team=team_of.get(key)))
    return specs


@main.command("new-game")
@click.argument("name")
@click.option("--game", "game_name", default=None,
              help="Which game (default: the registry's default game; a wrong name lists every game).")
@click.option("--rules", default=None, help="The ruleset (default: the game's first).")
@click.option("--option", "options", multiple=True, metavar="OPTION", help="An option of the game; repeat for more.")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME=EMAIL",
              help="A player, in seat order; NAME=bot (or NAME=bot:LEVEL) seats a computer player, which "
                   "writes its own sheet each turn when the turn is resolved.")
@click.option("--seed", default=None, metavar="TEXT",
              help="The key of the game's chance, for test games that must come out the same again: whoever "
                   "knows or guesses it knows every draw (default: 256 secret random bits).")
@click.option("--deadline", default=None,
              help="Turn deadlines: a span such as 7d or 72h (each turn), a schedule such as "
                   "'every Friday 18:00 Europe/London', or one moment such as '2026-11-27 18:00'.")
@click.option("--secret", "secrets", multiple=True, metavar="NAME=TOKEN", help="Set a player's secret (default: random).")
@click.option("--timezone", "zones", multiple=True, metavar="NAME=ZONE",
              help="A player's time zone for deadlines, e.g. Ann=Europe/London.")
@click.option("--early", is_flag=True, help="Resolve a turn as soon as every player's orders are in.")
@click.option("--team", "teams", multiple=True, metavar="TEAM=NAME,NAME",
              help="A team of a partnership game and its players, e.g. Red=Ann,Cyd; repeat for each team.")
@config_option
def new_game(name: str, game_name: str | None, rules: str | None, options: tuple[str, ...], players: tuple[str, ...],
             seed: str | None, deadline: str | None, secrets: tuple[str, ...], zones: tuple[str, ...], early: bool,
             teams: tuple[str, ...], config_path: Path | None) -> None:
    """Start a game; each player gets a welcome mail with the rules and an order template.

    Example: pbem new-game race-7 --player Ann=ann@example.org --player Bob=bob@example.org --deadline 7d
    """
    from pbem.games import default_game

    m = _moderator(config_path)
    row = m.new_game(name, game=game_name or default_game().info.name, rules=rules,
                     players=_player_specs(players, secrets, zones, teams), seed=seed, deadline=deadline, early=early,
                     options=options)
    chosen = json.loads(row.options)
    with_options = f", options {', '.join(chosen)}" if chosen else ""
    # a random seed is the key to every future draw: it stays in the store, not on a terminal or in a log
    chance = f"seed {row.seed}" if seed is not None else "secret random seed"
    click.echo(f"Created {row.name}: {row.game} ({row.rules}{with_options}), {len(players)} players, {chance}")
    click.echo(f"Welcome mails written to {m.config.outbox}/")


#: sysexits.h EX_TEMPFAIL: a mail transfer agent delivering into `pbem ingest -` keeps the
#: message and tries again later, instead of bouncing the orders
EX_TEMPFAIL = 75


def _mail_files(paths: tuple[Path, ...], default: Path) -> list[MailFile | None]:
    """What to read, named but not read yet (None: standard input)."""
    from pbem.mail.maildir import mail_files

    items: list[MailFile | None] = []
    for p in paths or (default,):
        if str(p) == "-":
            items.append(None)
        elif p.exists():
            items.extend(mail_files(p))
        else:
            raise click.ClickException(f"no such file or folder: {p}")
    return items


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, allow_dash=True))
@config_option
def ingest(paths: tuple[Path, ...], config_path: Path | None) -> None:
    """Take in order mails: .eml files, Maildir folders, folders of .eml files, or - for stdin.

    With no PATH, reads the configured inbox Maildir. Each mail is stored raw, checked and
    acknowledged (or refused with the reason); nothing is ever lost. Mails are read one at a
    time; a Maildir message taken in moves to cur/ with the S flag and is not read again.

    When the database is busy or out of reach, exits 75 (EX_TEMPFAIL), so that a mail server
    delivering through a pipe (.forward, procmail) keeps the mail and tries again later.

    Example: pbem ingest ~/Downloads/orders.eml
    """
    from sqlalchemy.exc import OperationalError

    try:
        m = _moderator(config_path)
        items = _mail_files(paths, m.config.maildir)
        counts: dict[str, int] = {}
        try:
            taken = _ingest_items(m, items, counts)
        finally:
            m.deliver()
    except OperationalError as err:
        reason = str(err.orig) if err.orig is not None else str(err)
        click.echo(f"Error: the database is busy or out of reach ({reason}); nothing more was taken in. "
                   f"Try again later: exit status {EX_TEMPFAIL} (EX_TEMPFAIL) tells a mail server "
                   "delivering into `pbem ingest -` to keep the mail and retry.", err=True)
        sys.exit(EX_TEMPFAIL)
    resolved = counts.pop("resolved", 0)
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no messages"
    turns = f"; {plural(resolved, 'turn')} resolved" if resolved else ""
    click.echo(f"Ingested {plural(taken, 'message')}: {summary}{turns}")


def _ingest_items(m: Moderator, items: list[MailFile | None], counts: dict[str, int]) -> int:
    """Read, take in and (in a Maildir) mark each mail in turn; returns how many were taken in."""
    taken = 0
    for n, item in enumerate(items, start=1):
        raw = sys.stdin.buffer.read() if item is None else item.read()
        name = "stdin" if item is None else item.name
        if raw is None:
            # another `pbem ingest` of the same Maildir took it in and moved it meanwhile
            click.echo(f"[{n}/{len(items)}] {name}: skipped — gone (taken in by another run)")
            continue
        result = m.ingest(raw, "stdin" if item is None else str(item.path), deliver=False)
        del raw  # one message in memory at a time
        taken += 1
        counts[result.status] = counts.get(result.status, 0) + 1
        who = f" {result.player} in {result.game}" if result.player else (f" {result.game}" if result.game else "")
        click.echo(f"[{n}/{len(items)}] {name}: {result.status}{who} — {result.reason}")
        if result.resolved is not None:
            counts["resolved"] = counts.get("resolved", 0) + 1
            click.echo(f"[{n}/{len(items)}] {name}: {result.game} turn {result.resolved} resolved with it: "
                       f"{plural(result.reports, 'report')} written")
        if item is not None and not item.mark_seen():
            click.echo(f"[{n}/{len(items)}] {name}: already moved by another run")
    return taken


@main.command()
@click.argument("name")
@config_option
def status(name: str, config_path: Path | None) -> None:
    """Whose orders are in for the current turn, and the deadline.

    Example: pbem status race-7
    """
    from pbem.reports import when

    info = _moderator(config_path).status(name)
    if info.over:
        click.echo(f"{name} is over.")
        return
    click.echo(f"{name}, turn {info.turn}: deadline {when(info.deadline)}"
               + (" (paused: `pbem resume` starts it again)" if info.paused else ""))
    for p in info.players:
        got = f"orders in ({when(p.orders)})" if p.orders else (
            "standing orders" if p.standing else "has no move this turn" if not p.to_move
            else "writes its sheet when the turn is resolved" if p.bot else "no orders yet")
        if p.away:
            got += ", on vacation"
        who = p.email or f"computer player ({p.bot})"
        click.echo(f"  {p.name:<12} {who:<28} {got}")
    # the sheets the turn waits for, as `pbem games` counts them: a computer player's never holds it up
    due = [p for p in info.players if p.to_move and not p.bot]
    sent = sum(1 for p in due if p.orders or p.standing)
    click.echo(f"{sent} of {len(due)} sheets in" + ("; every sheet is in" if sent == len(due) else ""))
    for p in info.players:
        if p.bouncing:
            click.echo(f"  mail to {p.name} <{p.email}> bounces: {p.bouncing}")
    if info.pending:
        click.echo(_pending_warning(info.pending))
    if info.strangers:
        click.echo(f"{info.strangers} mails from addresses that play no game here in the last 7 days "
                   "(kept, not answered)")


def _pending_warning(count: int) -> str:
    mails = "1 mail" if count == 1 else f"{count} mails"
    return (f"Warning: {mails} stored but not yet taken in (a run was interrupted, or another worker is "
            "taking them in); they may hold orders for this turn. `pbem run --once` or `pbem resolve-turn` "
            "finishes them first.")


@main.command("resolve-turn")
@click.argument("name")
@click.option("--preview", is_flag=True, help="Show the result without keeping anything.")
@click.option("--force", is_flag=True, help="Resolve even though no orders came in since the last turn.")
@click.option("--turn", type=WHOLE, default=None, help="Only resolve if this is the current turn.")
@config_option
def resolve_turn(name: str, preview: bool, force: bool, turn: int | None, config_path: Path | None) -> None:
    """Resolve the current turn and send every player their report.

    A turn is resolved once: a second run says so and changes nothing.

    Example: pbem resolve-turn race-7 --preview
    """
    from pbem.games.base import Viewer

    m = _moderator(config_path)
    if preview:  # a preview keeps nothing: mail still to be taken in is only counted
        with m.store.session() as session:
            pending = m.store.pending_messages(session)
        if pending:
            click.echo(_pending_warning(pending), err=True)
    else:  # every mail stored raw is taken in before the turn is resolved
        for result in m.finish_pending():
            click.echo(f"Took in mail {result.message}, stored before but not taken in: {result.status}"
                       + (f" {result.player} in {result.game}" if result.player else "") + f" — {result.reason}")
    summary = m.resolve(name, preview=preview, force=force, turn=turn)
    presenter = summary.engine.presenter
    head = "Preview of" if preview else "Resolved"
    click.echo(f"{head} {name} turn {summary.turn}:")
    for resolution in summary.resolutions:
        for line in presenter.resolution_lines(resolution, private=True):
            click.echo(f"  {line}")
    click.echo("Position:")
    for line in presenter.position_lines(summary.engine.view(summary.state, Viewer.gm())):
        click.echo(f"  {line}")
    if summary.engine.is_over(summary.state):
        click.echo("The game is over.")
    if preview:
        click.echo("Preview only: nothing was kept.")
    elif summary.delivery_problem:
        raise click.ClickException(f"turn {summary.turn} of {name} is resolved and kept, but {summary.delivery_problem}")
    else:
        click.echo(f"{summary.mails} reports written to {m.config.outbox}/")


@main.command()
@click.argument("name")
@click.option("--turn", type=WHOLE, default=None, help="The position before turn N was resolved (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable, every hidden value shown.")
@config_option
def show(name: str, turn: int | None, as_json: bool, config_path: Path | None) -> None:
    """The position of a game (the GM's view: every hidden value shown).

    Example: pbem show race-7 --json
    """
    from pbem.games.base import Viewer

    m = _moderator(config_path)
    game, _, state = m.game_state(name, turn)
    engine = m.engine(game)
    view = engine.view(state, Viewer.gm())
    if as_json:
        data = {"game": game.name, **engine.presenter.summary(view)}
        click.echo(json.dumps(data, indent=2))
        return
    over = engine.is_over(state)
    click.echo(f"{game.name}: {'over' if over else f'turn {engine.turn(state)} to play'}")
    for line in engine.presenter.position_lines(view):
        click.echo(f"  {line}")


@main.command()
@click.argument("name")
@click.option("--turn", type=WHOLE, default=None, help="The board before turn N (with turn N-1's moves).")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The file to write: .svg or .png.")
@config_option
def board(name: str, turn: int | None, output: Path, config_path: Path | None) -> None:
    """Draw the board picture of a game as SVG or PNG.

    Example: pbem board race-7 -o race-7.png
    """
    from pbem.turn_record import TurnRecord, picture

    m = _moderator(config_path)
    game, _, state = m.game_state(name, turn)
    engine = m.engine(game)
    resolutions: tuple[Any, ...] = ()
    now = engine.turn(state)
    if now > 1:
        resolutions = TurnRecord.from_row(engine, m.turn_record(name, now - 1)[2]).resolutions
    if output.suffix.lower() not in (".svg", ".png"):
        raise click.ClickException(f"{output}: write the board to a .svg or a .png file")
    if not output.parent.is_dir():
        raise click.ClickException(f"{output}: the folder {output.parent} does not exist; create it first")
    drawn = picture(engine, state, resolutions, title=f"{game.name} — turn {now} to play", subtitle="")
    output.write_bytes(drawn.svg.encode() if output.suffix.lower() == ".svg" else drawn.png)
    click.echo(f"Wrote {output}")


@main.command()
@click.argument("name")
@config_option
def history(name: str, config_path: Path | None) -> None:
    """Every resolved turn of a game: when, what moved, the dice.

    Example: pbem history race-7
    """
    from pbem.games.base import Viewer
    from pbem.turn_record import TurnRecord

    m = _moderator(config_path)
    game, players, turns = m.history(name)
    engine = m.engine(game)
    public = Viewer.public()
    click.echo(f"{game.name}: {game.game} ({game.rules}), players "  # no seed: it is the key to every draw to come
               + ", ".join(f"{p.name} <{p.email}>" if p.email else f"{p.name} (computer player, {p.bot})"
                           for p in players))
    if not turns:
        click.echo("No turn resolved yet.")
    events = m.events(name)
    for t in turns:
        for e in events:
            if e.turn == t.turn and e.kind != "press":
                click.echo(f"  GM ({e.created_at:%Y-%m-%d %H:%M}): {e.text.splitlines()[0]}")
        click.echo(f"Turn {t.turn}" + (f" (correction {t.correction})" if t.correction else "")
                   + f", resolved {t.resolved_at:%Y-%m-%d %H:%M} UTC, chance: {_chance(t.dice)}")
        for resolution in TurnRecord.from_row(engine, t).seen_by(public):
            click.echo("  " + engine.presenter.resolution_lines(resolution, private=False)[0])
    for e in events:
        if e.turn >= game.turn and e.kind != "press":
            click.echo(f"  GM ({e.created_at:%Y-%m-%d %H:%M}): {e.text.splitlines()[0]}")
    from pbem.commands import missed_turns

    for p in players:
        missed = missed_turns(engine, turns, p)
        since = f" since turn {p.since_turn}" if p.since_turn > 1 else ""
        click.echo(f"{p.name}: {plural(len(missed), 'missed turn')}{since}"
                   + (f" ({', '.join(map(str, missed))})" if missed else ""))


@main.command()
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
@click.argument("games", nargs=-1)
@click.option("--hold-orders", "hold", multiple=True, metavar="GAME",
              help="Keep this game's orders hidden until it ends (besides [archive] hold_orders); '*' for every game.")
@config_option
def archive(directory: Path, games: tuple[str, ...], hold: tuple[str, ...], config_path: Path | None) -> None:
    """Write the public archive: a static website of every game (or the GAMES named), with a JSON
    export and Atom feeds, into DIRECTORY. Only files that changed are rewritten.

    While a game runs its pages show only public facts; once it is over, everything.

    Example: pbem archive ~/public_html/games race-7
    """
    from pbem.archive import Settings, build_archive

    m = _moderator(config_path)
    settings = Settings(frozenset(m.config.archive_hold_orders) | frozenset(hold), m.config.archive_url, m.config.name)
    report = build_archive(m, directory, games, settings)
    click.echo(f"pbem archive: {report}")
    click.echo(f"Open {directory / 'index.html'}")


def _chance(stored: str) -> str:
    """The draws of a turn: [kind, value] pairs (dice stored as bare numbers before 0005)."""
    draws = json.loads(stored)
    if not draws:
        return "none drawn"
    return ", ".join(f"die {d}" if isinstance(d, int) else f"{d[0]} {d[1]}" for d in draws)


@main.command()
@click.argument("name")
@click.argument("seat")
@click.argument("sheet", type=click.File("r", encoding="utf-8"))
@config_option
def sheet(name: str, seat: str, sheet: Any, config_path: Path | None) -> None:
    """Enter a seat's orders for the current turn from a file (or - for stdin), as if mailed.

    The sheet replaces the one in force, is acknowledged to the player line by line, and counts
    when the turn is resolved — after `pbem rollback`, to put a wrong sheet right.

    Example: pbem sheet race-7 Ann ann-orders.txt
    """
    result = _moderator(config_path).enter_sheet(name, seat, sheet.read(200_001))
    click.echo(f"{seat} in {name}: {result.status} — {result.reason}")
    if result.status != "accepted":
        sys.exit(1)


@main.command()
@click.argument("name")
@click.argument("player")
@click.option("--set", "value", default=None, metavar="SECRET", help="The new secret (default: a random one).")
@config_option
def secret(name: str, player: str, value: str | None, config_path: Path | None) -> None:
    """Give a player a new secret, mailed to them (the old one stops working at once).

    Reports carry a reply token valid for one turn; the secret itself is only in the welcome
    mail, in this mail, and in the answer to a player's SEND SECRET line.

    Example: pbem secret race-7 Ann
    """
    row = _moderator(config_path).change_secret(name, player, value)
    click.echo(f"{row.name} of {name} has a new secret, mailed to {row.email}")


# --- the GM's toolbox --------------------------------------------------------------------------


@main.command()
@config_option
def games(config_path: Path | None) -> None:
    """Every game: what is played, its ruleset, turn and deadline, and whose orders are missing.

    Example: pbem games
    """
    from pbem.config import load_config
    from pbem.store_peek import holds_no_game

    # a store that holds no game says so before the store's machinery is loaded: a fresh home answers at once
    rows = [] if holds_no_game(load_config(config_path).database_url) else _moderator(config_path).games()
    if not rows:
        click.echo("No games yet: pbem new-game NAME --player Ann=ann@example.org --player Bob=bob@example.net")
        return
    from pbem.reports import when

    names = max((len(g.name) for g in rows), default=0)
    plays = max((len(f"{g.kind} ({g.ruleset})") for g in rows), default=0)
    for g in rows:
        if g.over:
            state = f"over{': ' + g.result if g.result else ''}"
        else:
            state = f"turn {g.turn}, " + ("paused" if g.paused else f"deadline {when(g.deadline)}")
            state += f"; missing: {', '.join(g.missing)}" if g.missing else "; every sheet is in"
        click.echo(f"{g.name:<{names}}  {f'{g.kind} ({g.ruleset})':<{plays}}  {state}")


@main.command()
@click.argument("name")
@click.argument("seat")
@click.option("--email", default=None, help="The new player's address: a new secret and a welcome mail go there.")
@click.option("--bot", default=None, metavar="LEVEL", help="A computer player takes the seat instead.")
@click.option("--secret", default=None, help="The newcomer's secret (default: a random one).")
@click.option("--standby", is_flag=True, help="Offer the seat to the game system's standby pool instead.")
@config_option
def replace(name: str, seat: str, email: str | None, bot: str | None, secret: str | None, standby: bool,
            config_path: Path | None) -> None:
    """Hand a seat to a new player (or a computer player), from the current turn on.

    The newcomer gets a new secret and a welcome mail with the story so far; the current deadline
    is extended to at least [moderator] takeover (3d) from now; the turns the earlier player
    missed stay theirs. A --bot seat is played by the game's computer player of that level,
    which writes the seat's sheet from the seat's own view whenever a turn is resolved.

    Example: pbem replace race-7 Cyd --email dora@example.org
    """
    if standby:
        if email or bot or secret:
            raise PbemError("--standby offers the seat to the standby pool: leave out --email, --bot and --secret")
        from pbem.club.standby import offer_seat

        told = offer_seat(_moderator(config_path), name, seat)
        click.echo(f"{seat} of {name} is offered to the standby pool: the first TAKEOVER by mail gets it; "
                   + (f"{told} in the pool were told" if told else "nobody is in the pool yet (STANDBY by mail "
                      "puts people there), so nobody was told"))
        return
    row = _moderator(config_path).replace_player(name, seat, email=email, bot=bot, secret=secret)
    click.echo(f"{row.name} of {name} is now played by {row.email or 'a computer player (' + row.bot + ')'} "
               f"from turn {row.since_turn}")


@main.command()
@click.argument("name")
@click.argument("seat")
@click.argument("level")
@config_option
def sitter(name: str, seat: str, level: str, config_path: Path | None) -> None:
    """Name the computer sitter of a person's seat (LEVEL: a computer player's level, or off).

    While the player is on VACATION, and in any turn whose deadline passes without her sheet,
    the sitter writes her sheet from her own view instead of the default moves; her report says
    so and shows its sheet. Players name their own with a mail line SITTER strong / SITTER off.

    Example: pbem sitter race-7 Ann strong
    """
    row = _moderator(config_path).set_sitter(name, seat, level)
    click.echo(f"{row.name} of {name}: computer sitter {row.sitter or 'none'}; {row.name} is told by mail")


@main.command()
@click.argument("name")
@config_option
def pause(name: str, config_path: Path | None) -> None:
    """Stop a game's deadlines (no turn is due, no reminder is sent); players are told.

    Example: pbem pause race-7
    """
    _moderator(config_path).pause(name)
    click.echo(f"{name} is paused; `pbem resume {name}` starts its deadline again")


@main.command()
@click.argument("name")
@config_option
def resume(name: str, config_path: Path | None) -> None:
    """Start a paused game's deadlines again, moved on by the time it was paused; players are told.

    Example: pbem resume race-7
    """
    from pbem.reports import when

    game = _moderator(config_path).resume(name)
    click.echo(f"{name} goes on: deadline {when(game.deadline)}")


@main.command()
@click.argument("name")
@click.argument("when", metavar="WHEN")
@config_option
def deadline(name: str, when: str, config_path: Path | None) -> None:
    """Move the current turn's deadline to WHEN (a moment, or a span from now); players are told.

    Example: pbem deadline race-7 "2026-12-01 18:00 Europe/London"
    """
    from pbem.reports import when as show

    game = _moderator(config_path).move_deadline(name, when)
    click.echo(f"{name} turn {game.turn}: deadline {show(game.deadline)}")


@main.command()
@click.argument("name")
@config_option
def rollback(name: str, config_path: Path | None) -> None:
    """Undo the last resolved turn: its position and sheets come back; its record is kept.

    Replace a sheet (the player mails a new one) and `pbem resolve-turn` again: the new reports
    say in the subject and the body that they are a correction.

    Example: pbem rollback race-7
    """
    turn = _moderator(config_path).rollback(name)
    click.echo(f"Turn {turn} of {name} is undone: its sheets are in force again; `pbem resolve-turn {name}` "
               "resolves it again")


@main.command()
@click.argument("name")
@click.argument("seat")
@click.argument("changes", nargs=-1, required=True, metavar="KEY=VALUE...")
@click.option("--reason", required=True, help="Why: shown in the history and the next report.")
@config_option
def edit(name: str, seat: str, changes: tuple[str, ...], reason: str, config_path: Path | None) -> None:
    """Set values of a seat: the KEYs its game takes (a key it does not take is refused with the
    list of those it does; the GM's guide gives each game's). Every edit is recorded and told in the
    next report.

    Example: pbem edit race-7 Ann KEY=VALUE --reason "turn 3 was resolved with a wrong sheet"
    """
    m = _moderator(config_path)
    state = m.edit(name, seat, changes, reason)
    game, _, _ = m.game_state(name)
    from pbem.games.base import Viewer

    engine = m.engine(game)
    for line in engine.presenter.position_lines(engine.view(state, Viewer.gm())):
        click.echo(line)


@main.command()
@click.argument("name")
@click.option("--result", default=None, help="The result to declare (default: abandoned).")
@config_option
def end(name: str, result: str | None, config_path: Path | None) -> None:
    """End a game with the result the GM declares, or abandon it; players are told.

    Example: pbem end race-7 --result "Ann wins: Bob and Cyd resigned"
    """
    game = _moderator(config_path).end(name, result)
    click.echo(f"{name} is over: {game.result}")


@main.command()
@click.argument("name")
@click.argument("switch", type=click.Choice(["on", "off"]))
@config_option
def press(name: str, switch: str, config_path: Path | None) -> None:
    """Switch the players' PRESS messages on or off in a game; players are told.

    Example: pbem press race-7 off
    """
    _moderator(config_path).set_press(name, switch == "on")
    click.echo(f"Press is {switch} in {name}")


@main.command()
@click.argument("name")
@click.argument("seat")
@click.option("--turn", type=WHOLE, default=None, help="The turn's report (default: the last resolved).")
@config_option
def resend(name: str, seat: str, turn: int | None, config_path: Path | None) -> None:
    """Send a player's turn report again.

    Example: pbem resend race-7 Ann --turn 2
    """
    address = _moderator(config_path).resend(name, seat, turn)
    click.echo(f"The report went again to {address}")


@main.command()
@config_option
def send(config_path: Path | None) -> None:
    """Deliver the queued mail through the configured transport (the outbox folder by default).

    Example: pbem send
    """
    from pbem.runner import RoundReport, Runner

    m = _moderator(config_path)
    report = RoundReport()
    Runner(m).send(report)
    where = f"{m.config.smtp.get('host')}:{m.config.smtp.get('port', '')} over SMTP" if m.config.smtp else f"{m.config.outbox}/"
    click.echo(f"Sent {report.sent} mail{'s' if report.sent != 1 else ''} to {where}"
               + (f"; {report.retry} will be retried" if report.retry else "")
               + (f"; {report.failed} failed for good (see pbem outbox --failed)" if report.failed else ""))
    if report.failed:
        sys.exit(1)


@main.command()
@click.option("--failed", is_flag=True, help="Only the mails that failed for good.")
@config_option
def outbox(failed: bool, config_path: Path | None) -> None:
    """List outgoing mail and its state: queued, sending, sent or failed (with the reason).

    Example: pbem outbox --failed
    """
    m = _moderator(config_path)
    with m.store.session() as session:
        rows = m.store.mails(session, "failed" if failed else None)
    for r in rows:
        extra = f"  {r.error}" if r.error else ""
        click.echo(f"{r.id:>6}  {r.status:<8} {r.kind:<10} {r.recipient:<30} {r.subject[:50]}{extra}")
    click.echo(f"{len(rows)} mail{'s' if len(rows) != 1 else ''}")


def _finite(_ctx: click.Context, _param: click.Parameter, value: float) -> float:
    if value != value or value == float("inf"):  # nan and inf pass click.FloatRange
        raise click.BadParameter(f"{value} is not a number of seconds; give one such as 60")
    return value


@main.command()
@click.option("--once", is_flag=True, help="Do one round and exit (for cron).")
@click.option("--interval", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              callback=_finite, help="Seconds between rounds.")
@click.option("--worker", default=None, help="This worker's name (default: host:pid).")
@click.option("-v", "--verbose", is_flag=True, help="Log every message and mail.")
@config_option
def run(once: bool, interval: float, worker: str | None, verbose: bool, config_path: Path | None) -> None:
    """The moderator loop: fetch and ingest orders, resolve due turns, send reminders and mail.

    Mail comes from [imap] (else the inbox Maildir) and goes out by [smtp] (else the outbox
    folder). Several workers may share one PostgreSQL database.

    Example: pbem run --once
    """
    import logging

    from pbem.runner import Runner

    logging.basicConfig(level=logging.INFO if verbose or not once else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    runner = Runner(_moderator(config_path), worker=worker)
    if once:
        report = runner.round()
        click.echo(f"pbem run: {report}")
        if report.failed:
            click.echo(f"{report.failed} mail{' has' if report.failed == 1 else 's have'} failed for good: "
                       "see pbem outbox --failed", err=True)
            sys.exit(1)
        return
    runner.forever(interval)


@main.group()
def quarantine() -> None:
    """Messages that crashed a step of the intake pipeline.

    Example: pbem quarantine list
    """


@quarantine.command("list")
@config_option
def quarantine_list(config_path: Path | None) -> None:
    """List quarantined messages with the step that failed.

    Example: pbem quarantine list
    """
    rows = _moderator(config_path).quarantined()
    for r in rows:
        click.echo(f"{r.id:>5}  {r.received_at:%Y-%m-%d %H:%M}  {r.sender or '?':<28} step {r.step}: {r.reason}")
    click.echo(f"{len(rows)} quarantined message{'s' if len(rows) != 1 else ''}")


@quarantine.command("retry")
@click.argument("message_ids", nargs=-1, type=WHOLE, required=True)
@config_option
def quarantine_retry(message_ids: tuple[int, ...], config_path: Path | None) -> None:
    """Run quarantined messages through the pipeline again.

    Example: pbem quarantine retry 12
    """
    m = _moderator(config_path)
    for mid in message_ids:
        result = m.retry(mid)
        click.echo(f"{mid}: {result.status} — {result.reason}")


@main.command()
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False), default="pbem-demo")
@click.option("--game", "game_name", default=None, help="Whose sample campaign (default: the default game's).")
def demo(directory: Path, game_name: str | None) -> None:
    """Run a game's sample campaign (sample_turns/) into DIRECTORY and say where to look; --game
    names the game (a name without a campaign lists the games that have one).

    Example: pbem demo /tmp/pbem-demo
    """
    from pbem.demo import campaign_of, run_demo

    run_demo(directory, echo=click.echo, campaign_dir=campaign_of(game_name))


club_cli.register(main, config_option, _moderator)  # pbem open, club-game, ratings, tournament, standings
