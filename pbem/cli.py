"""The `pbem` command line: a thin layer over the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pbem import __version__
from pbem.errors import PbemError

if TYPE_CHECKING:  # the library is imported lazily, so `pbem --help` starts fast
    from pbem.moderator import Moderator, PlayerSpec


class _Group(click.Group):
    """Turns PbemError into a clean message and exit code 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except PbemError as err:
            raise click.ClickException(str(err)) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
def main() -> None:
    """pbem — a play-by-email moderator for Hare & Tortoise.

    Example: pbem demo /tmp/pbem-demo
    """


@main.command("check-cases")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-v", "--verbose", is_flag=True, help="Also list the cases that pass.")
def check_cases_cmd(paths: tuple[Path, ...], verbose: bool) -> None:
    """Run rule cases (.case files, or folders searched for them) against the engine.

    Prints every failing case in full, then `N passed, M failed`; exits 1 if any failed.

    Example: pbem check-cases tests/cases my-bug.case
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


def _player_specs(players: tuple[str, ...], secrets: tuple[str, ...], zones: tuple[str, ...]) -> list[PlayerSpec]:
    from pbem.moderator import PlayerSpec

    def pairs(values: tuple[str, ...], option: str) -> dict[str, str]:
        out = {}
        for v in values:
            name, sep, value = v.partition("=")
            if not sep or not name.strip() or not value.strip():
                raise click.BadParameter(f"{v!r}: write it as NAME=VALUE", param_hint=option)
            out[name.strip().lower()] = value.strip()
        return out

    secret_of, zone_of = pairs(secrets, "--secret"), pairs(zones, "--timezone")
    specs = []
    for p in players:
        name, sep, email = p.partition("=")
        if not sep or not name.strip() or not email.strip():
            raise click.BadParameter(f"{p!r}: write each player as NAME=EMAIL", param_hint="--player")
        key = name.strip().lower()
        specs.append(PlayerSpec(name.strip(), email.strip(), secret_of.get(key), zone_of.get(key, "UTC")))
    return specs


@main.command("new-game")
@click.argument("name")
@click.option("--game", "game_name", default="hare-tortoise", show_default=True, help="Which game.")
@click.option("--rules", default=None, help="The ruleset (default: the game's own, variable-pig).")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME=EMAIL",
              help="A player, in seat order (2 to 6).")
@click.option("--seed", type=int, default=None, help="Seed of the game's dice (default: random).")
@click.option("--deadline", default=None,
              help="Turn deadlines: a span such as 7d or 72h (each turn), a schedule such as "
                   "'every Friday 18:00 Europe/London', or one moment such as '2026-11-27 18:00'.")
@click.option("--secret", "secrets", multiple=True, metavar="NAME=TOKEN", help="Set a player's secret (default: random).")
@click.option("--timezone", "zones", multiple=True, metavar="NAME=ZONE",
              help="A player's time zone for deadlines, e.g. Ann=Europe/London.")
@click.option("--early", is_flag=True, help="Resolve a turn as soon as every player's orders are in.")
@config_option
def new_game(name: str, game_name: str, rules: str | None, players: tuple[str, ...], seed: int | None,
             deadline: str | None, secrets: tuple[str, ...], zones: tuple[str, ...], early: bool,
             config_path: Path | None) -> None:
    """Start a game; each player gets a welcome mail with the rules and an order template.

    Example: pbem new-game race-7 --player Ann=ann@example.org --player Bob=bob@example.org --deadline 7d
    """
    m = _moderator(config_path)
    row = m.new_game(name, game=game_name, rules=rules, players=_player_specs(players, secrets, zones), seed=seed,
                     deadline=deadline, early=early)
    click.echo(f"Created {row.name}: {row.game} ({row.rules}), {len(players)} players, seed {row.seed}")
    click.echo(f"Welcome mails written to {m.config.outbox}/")


def _maildir_messages(path: Path) -> list[tuple[str, bytes, Path | None]]:
    out: list[tuple[str, bytes, Path | None]] = []
    for sub in ("new", "cur"):
        for f in sorted((path / sub).glob("*")):
            if f.is_file():
                out.append((str(f), f.read_bytes(), f if sub == "new" else None))
    return out


def _is_maildir(path: Path) -> bool:
    return all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, allow_dash=True))
@config_option
def ingest(paths: tuple[Path, ...], config_path: Path | None) -> None:
    """Take in order mails: .eml files, Maildir folders, folders of .eml files, or - for stdin.

    With no PATH, reads the configured inbox Maildir. Each mail is stored raw, checked and
    acknowledged (or refused with the reason); nothing is ever lost.

    Example: pbem ingest ~/Downloads/orders.eml
    """
    m = _moderator(config_path)
    items: list[tuple[str, bytes, Path | None]] = []
    for p in paths or (m.config.maildir,):
        if str(p) == "-":
            items.append(("stdin", sys.stdin.buffer.read(), None))
        elif p.is_dir():
            if _is_maildir(p):
                items.extend(_maildir_messages(p))
            else:
                items.extend((str(f), f.read_bytes(), None) for f in sorted(p.iterdir()) if f.is_file())
        elif p.is_file():
            items.append((str(p), p.read_bytes(), None))
        else:
            raise click.ClickException(f"no such file or folder: {p}")
    counts: dict[str, int] = {}
    try:
        _ingest_items(m, items, counts)
    finally:
        m.deliver()
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "no messages"
    click.echo(f"Ingested {len(items)} message{'s' if len(items) != 1 else ''}: {summary}")


def _ingest_items(m: Moderator, items: list[tuple[str, bytes, Path | None]], counts: dict[str, int]) -> None:
    for n, (source, raw, maildir_new) in enumerate(items, start=1):
        result = m.ingest(raw, source, deliver=False)
        counts[result.status] = counts.get(result.status, 0) + 1
        who = f" {result.player} in {result.game}" if result.player else (f" {result.game}" if result.game else "")
        click.echo(f"[{n}/{len(items)}] {Path(source).name}: {result.status}{who} — {result.reason}")
        if maildir_new is not None:
            # Maildir: a message taken in moves from new/ to cur/ with the Seen flag
            maildir_new.rename(maildir_new.parent.parent / "cur" / (maildir_new.name + ":2,S"))


@main.command()
@click.argument("name")
@config_option
def status(name: str, config_path: Path | None) -> None:
    """Whose orders are in for the current turn, and the deadline.

    Example: pbem status race-7
    """
    from pbem.reports import when

    info = _moderator(config_path).status(name)
    if info["over"]:
        click.echo(f"{name} is over.")
        return
    click.echo(f"{name}, turn {info['turn']}: deadline {when(info['deadline'])}")
    for p in info["players"]:
        got = f"orders in ({when(p['orders'])})" if p["orders"] else "no orders yet"
        click.echo(f"  {p['name']:<12} {p['email']:<28} {got}")
    waiting = sum(1 for p in info["players"] if not p["orders"])
    click.echo(f"{len(info['players']) - waiting} of {len(info['players'])} sheets in")


@main.command("resolve-turn")
@click.argument("name")
@click.option("--preview", is_flag=True, help="Show the result without keeping anything.")
@click.option("--force", is_flag=True, help="Resolve even though no orders came in since the last turn.")
@click.option("--turn", type=int, default=None, help="Only resolve if this is the current turn.")
@config_option
def resolve_turn(name: str, preview: bool, force: bool, turn: int | None, config_path: Path | None) -> None:
    """Resolve the current turn and send every player their report.

    A turn is resolved once: a second run says so and changes nothing.

    Example: pbem resolve-turn race-7 --preview
    """
    from pbem.games.hare_tortoise.narrate import position_lines, slot_lines

    m = _moderator(config_path)
    summary = m.resolve(name, preview=preview, force=force, turn=turn)
    head = "Preview of" if preview else "Resolved"
    click.echo(f"{head} {name} turn {summary.turn}:")
    for slot in summary.slots:
        for line in slot_lines(slot):
            click.echo(f"  {line}")
    click.echo("Position:")
    for line in position_lines(summary.state):
        click.echo(f"  {line}")
    if summary.state.over:
        click.echo("The game is over.")
    if preview:
        click.echo("Preview only: nothing was kept.")
    else:
        click.echo(f"{summary.mails} reports written to {m.config.outbox}/")


def _runner_json(r: Any) -> dict[str, Any]:
    square: int | str = "start" if r.square == 0 else "home" if r.square == 64 else r.square
    return {"name": r.name, "square": square, "carrots": r.carrots, "lettuces": r.lettuces, "place": r.place,
            "must": None if r.must.value == "none" else r.must.value, "skip": r.skip}


@main.command()
@click.argument("name")
@click.option("--turn", type=int, default=None, help="The position before turn N was resolved (default: now).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable, all carrots shown.")
@config_option
def show(name: str, turn: int | None, as_json: bool, config_path: Path | None) -> None:
    """The position of a game (the GM's view: all carrots shown).

    Example: pbem show race-7 --json
    """
    from pbem.games.hare_tortoise.board import HOME
    from pbem.games.hare_tortoise.narrate import position_lines

    game, _, state = _moderator(config_path).game_state(name, turn)
    over = state.over
    if as_json:
        data = {"game": game.name, "turn": state.turn, "over": over, "runners": [_runner_json(r) for r in state.runners]}
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{game.name}: {'over' if over else f'turn {state.turn} to play'}")
    for line in position_lines(state):
        click.echo(f"  {line}")
    track = ["."] * (HOME + 1)
    for r in state.runners:
        if 0 < r.square < HOME:
            track[r.square] = r.name[0].upper()
    click.echo("  START " + "".join(track[1:HOME]) + " HOME")


@main.command()
@click.argument("name")
@click.option("--turn", type=int, default=None, help="The board before turn N (with turn N-1's moves).")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), required=True,
              help="The file to write: .svg or .png.")
@config_option
def board(name: str, turn: int | None, output: Path, config_path: Path | None) -> None:
    """Draw the board picture of a game as SVG or PNG.

    Example: pbem board race-7 -o race-7.png
    """
    from pbem.games.hare_tortoise.present import board_picture

    m = _moderator(config_path)
    game, _, state = m.game_state(name, turn)
    slots: list[Any] = []
    if state.turn > 1:
        _, _, record = m.turn_record(name, state.turn - 1)
        engine = m.engine(game)
        slots = [engine.resolution_from_json(d) for d in json.loads(record.resolutions)]
    if output.suffix.lower() not in (".svg", ".png"):
        raise click.ClickException(f"{output}: write the board to a .svg or a .png file")
    svg, png = board_picture(state, slots, title=f"{game.name} — turn {state.turn} to play", subtitle="")
    output.write_bytes(svg.encode() if output.suffix.lower() == ".svg" else png)
    click.echo(f"Wrote {output}")


@main.command()
@click.argument("name")
@config_option
def history(name: str, config_path: Path | None) -> None:
    """Every resolved turn of a game: when, what moved, the dice.

    Example: pbem history race-7
    """
    from pbem.games.hare_tortoise.narrate import slot_lines

    m = _moderator(config_path)
    game, players, turns = m.history(name)
    engine = m.engine(game)
    click.echo(f"{game.name}: {game.game} ({game.rules}), seed {game.seed}, players "
               + ", ".join(f"{p.name} <{p.email}>" for p in players))
    if not turns:
        click.echo("No turn resolved yet.")
    for t in turns:
        click.echo(f"Turn {t.turn}, resolved {t.resolved_at:%Y-%m-%d %H:%M} UTC, dice {json.loads(t.dice)}")
        for d in json.loads(t.resolutions):
            click.echo("  " + slot_lines(engine.resolution_from_json(d), private=False)[0])


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
@click.argument("message_ids", nargs=-1, type=int, required=True)
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
def demo(directory: Path) -> None:
    """Run the sample campaign (sample_turns/) into DIRECTORY and say where to look.

    Example: pbem demo /tmp/pbem-demo
    """
    from pbem.demo import run_demo

    run_demo(directory, echo=click.echo)
