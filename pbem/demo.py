"""`pbem demo`: play the sample campaign of sample_turns/ into a fresh folder."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from pbem.config import load_config, write_config
from pbem.errors import PbemError
from pbem.games import default_game
from pbem.games.chance import Generator
from pbem.mail.text import parse_message
from pbem.moderator import Moderator, PlayerSpec
from pbem.resources import data_dir
from pbem.turn_record import TurnRecord, picture


class _Clock:
    """The demo's time: each mail arrives at its Date, each turn is resolved after its last mail."""

    def __init__(self, start: datetime) -> None:
        self.moment = start

    def __call__(self) -> datetime:
        return self.moment


def _date(raw: bytes) -> datetime | None:
    try:
        value = parse_message(raw).get("Date")
        moment = getattr(value, "datetime", None)
        return moment.replace(microsecond=0) if isinstance(moment, datetime) and moment.tzinfo else None
    except (TypeError, ValueError):
        return None


def campaigns() -> dict[str, Path]:
    """Each game's sample campaign, by the game's name: the first folder of sample_turns/ (the
    top one first) whose campaign.toml plays it."""
    root = data_dir("sample_turns")
    found: dict[str, Path] = {}
    for folder in [root, *sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("turn"))]:
        spec = folder / "campaign.toml"
        if spec.is_file():
            game = tomllib.loads(spec.read_text(encoding="utf-8")).get("game") or default_game().info.name
            found.setdefault(game, folder)
    return found


def campaign_of(game: str | None) -> Path:
    """The sample campaign of `game` (None: the default game's); PbemError names those there are."""
    found = campaigns()
    name = game or default_game().info.name
    if name not in found:
        raise PbemError(f"no sample campaign plays {name!r}; there are campaigns of {', '.join(sorted(found))}")
    return found[name]


def run_demo(directory: Path, *, echo: Callable[[str], None] = print, campaign_dir: Path | None = None) -> Moderator:
    campaign_dir = campaign_dir or campaign_of(None)
    spec = tomllib.loads((campaign_dir / "campaign.toml").read_text(encoding="utf-8"))
    if (directory / "pbem.toml").exists():
        raise PbemError(f"{directory} already holds a pbem setup; give the demo a new folder")
    turns = sorted((p for p in campaign_dir.iterdir() if p.is_dir() and p.name.startswith("turn")),
                   key=lambda p: int(p.name[4:]))
    mails = {t.name: sorted(t.glob("*.eml")) for t in turns}
    dates = [d for t in turns for f in mails[t.name] if (d := _date(f.read_bytes())) is not None]
    start = (min(dates) - timedelta(days=1)).replace(hour=9, minute=0, second=0) if dates else datetime(2026, 11, 1)
    clock = _Clock(start)
    config = load_config(write_config(directory, address=spec.get("moderator", "gm@pbem.example")))
    m = Moderator(config, now=clock)
    m.store.create()
    players = [PlayerSpec(p["name"], p.get("email", ""), p.get("secret"), p.get("timezone", "UTC"), p.get("team"),
                          p.get("bot")) for p in spec["players"]]
    m.new_game(spec["name"], game=spec.get("game") or default_game().info.name, rules=spec.get("rules"), players=players,
               seed=str(spec["seed"]), deadline=spec.get("deadline", "7d"), options=spec.get("options", ()),
               generator=Generator(spec.get("chance", Generator.KEYED)))
    echo(f"Game {spec['name']} created in {directory} with {len(players)} players: welcome mails in {config.outbox}/")
    for turn_dir in turns:
        for action in spec.get("actions", ()):
            if action.get("before") == turn_dir.name and "replace" in action:
                row = m.replace_player(spec["name"], action["replace"], email=action.get("email"),
                                       bot=action.get("bot"), secret=action.get("secret"))
                echo(f"Before turn {turn_dir.name[4:]}: {row.name} is handed to {row.email or 'a computer player'}")
        latest = clock.moment
        opened = m.game_state(spec["name"])[0].turn
        for path in mails[turn_dir.name]:
            raw = path.read_bytes()
            clock.moment = max(clock.moment, _date(raw) or clock.moment)
            latest = max(latest, clock.moment)
            result = m.ingest(raw, str(path))
            who = f" ({result.player})" if result.player else ""
            echo(f"  {turn_dir.name}/{path.name}: {result.status}{who} — {result.reason}")
        game, _, state = m.game_state(spec["name"])
        if game.turn > opened:  # a game that resolves on receipt: the folder's mails resolved it
            done = game.turn - 1
            engine = m.engine(game)
            resolutions = list(TurnRecord.from_row(engine, m.turn_record(spec["name"], done)[2]).resolutions)
            echo(f"Turn{'s' if done > opened else ''} {opened}{f' to {done}' if done > opened else ''} resolved on "
                 "receipt of the mails")
        else:
            clock.moment = latest + timedelta(hours=2)
            summary = m.resolve(spec["name"])
            echo(f"Turn {summary.turn} resolved: {summary.mails} reports written")
            game, _, state = m.game_state(spec["name"])
            engine, done, resolutions = summary.engine, summary.turn, list(summary.resolutions)
        drawn = picture(engine, state, resolutions, title=f"{spec['name']} — after turn {done}", subtitle="")
        (directory / f"board-turn-{done}.png").write_bytes(drawn.png)
        if engine.is_over(state):
            break
    echo("")
    echo("Where to look:")
    echo(f"  {config.outbox}/            every mail pbem sent (.eml: open with any mail program)")
    echo(f"  {directory}/board-turn-*.png  the board after each turn")
    echo(f"  pbem --help; e.g. PBEM_CONFIG={config.path} pbem show {spec['name']}")
    return m
