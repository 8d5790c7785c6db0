"""Every registered game, in every ruleset, plays to its end through `pbem run` on the embedded default.

Computer players hold every seat, so the game runs by itself: each round of the moderator loop
has them write their sheets through intake, resolves the turns that are due and sends the
reports. This is the path a GM's cron job takes for any game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config
from pbem.games import games
from pbem.moderator import Moderator
from pbem.runner import Runner

CASES = [(g.info.name, r.name, max(r.min_players, 2), g.info.bot_levels[0]) for g in games() for r in g.info.rulesets]
NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay"]


@pytest.mark.parametrize(("game", "ruleset", "seats", "level"), CASES)
def test_an_all_computer_game_runs_to_its_end_through_pbem_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, ruleset: str, seats: int, level: str) -> None:
    args = ["new-game", "robots", "--game", game, "--rules", ruleset, "--seed", "3", "--early"]
    for name in NAMES[:seats]:
        args += ["--player", f"{name}=bot:{level}"]
    _play_out(tmp_path, monkeypatch, args, rounds=600)


def _play_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_game: list[str], *, rounds: int) -> None:
    """Start the game `new_game` names ("robots", every seat a computer player) and run the
    moderator loop until it is over: every sheet accepted, every turn's GM report sent."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    assert CliRunner().invoke(main, ["init", "."]).exit_code == 0
    result = CliRunner().invoke(main, new_game)
    assert result.exit_code == 0, result.output
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    worker = Runner(m)
    for _ in range(rounds):
        if m.status("robots").over:
            break
        worker.round()
    status = m.status("robots")
    assert status.over, f"{' '.join(new_game)}: still running at turn {status.turn}"
    with m.store.session() as session:
        sheets = [r for r in m.store.messages(session) if r.source == "computer-player"]
        reports = [r for r in m.store.mails(session) if r.kind == "gm-report"]
    assert sheets and all(r.status == "accepted" for r in sheets)
    assert len(reports) == status.turn - 1 and {r.status for r in reports} == {"sent"}


@pytest.mark.parametrize(("game_name", "ruleset"), [(g.info.name, r.name) for g in games() for r in g.info.rulesets])
def test_every_computer_player_writes_sheets_its_game_takes_whole(game_name: str, ruleset: str) -> None:
    """No line a computer player writes is rejected (a rejected line would silently become a pass
    or a default move): checked over the positions of whole seeded games."""
    from pbem.games import find_game
    from pbem.games.base import SeatSpec, Setup, Viewer
    from pbem.games.chance import LegacyChance
    from pbem.games.sheet import Rejected, read_sheet

    game = find_game(game_name)
    levels = list(game.info.bot_levels)
    assert levels and all(game.bot(level) is not None for level in levels), game.info.bot_levels
    info = game.info.ruleset(ruleset)
    seats = max(info.min_players, 2)
    for seed in range(3):
        state = game.new_state(Setup(ruleset, tuple(SeatSpec(n) for n in NAMES[:seats])), LegacyChance(seed, 0))
        bots = [game.bot(levels[(seed + i) % len(levels)]) for i in range(seats)]
        for _ in range(300):
            if game.is_over(state):
                break
            orders = {}
            for seat in game.to_move(state):
                bot = bots[seat]
                assert bot is not None
                text = bot.write(game.view(state, Viewer(seat)), LegacyChance(f"{seed}/{seat}", game.turn(state)))
                parsed = game.parse(state, read_sheet(text), seat)
                rejected = [e for e in parsed.echo if isinstance(e, Rejected)]
                assert not rejected, (game_name, ruleset, text[:200], rejected[0].reason if rejected else "")
                orders[seat] = parsed.orders
            state = game.resolve(state, orders, LegacyChance(seed, game.turn(state))).state


#: Hare & Tortoise's options through `pbem run`, each in another ruleset (the random playthrough
#: covers every ruleset and combination of options at the engine)
OPTION_GAMES = [
    ("variable-pig", ("partnership", "face-to-face"), 4),
    ("parlett-classic", ("partnership", "carrots-95"), 6),
    ("parlett-2010", ("carrots-95", "face-to-face"), 5),
    ("intellect-1974", ("two-player", "face-to-face"), 2),
    ("hase-igel-sam", ("partnership",), 6),
]


@pytest.mark.parametrize(("ruleset", "options", "seats"), OPTION_GAMES,
                         ids=[f"{r}:{'+'.join(o)}" for r, o, _ in OPTION_GAMES])
def test_every_option_plays_to_its_end_through_pbem_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str,
                                                        options: tuple[str, ...], seats: int) -> None:
    args = ["new-game", "robots", "--rules", ruleset, "--seed", "5", "--early"]
    for option in options:
        args += ["--option", option]
    names = NAMES[:seats]
    for name in names:
        args += ["--player", f"{name}=bot:sam"]
    if "partnership" in options:
        teams = 3 if seats == 6 and ruleset == "parlett-classic" else 2  # 2+2+2, or 2+2 / 3+3
        for t in range(teams):
            args += ["--team", f"T{t}=" + ",".join(names[t::teams])]
    _play_out(tmp_path, monkeypatch, args, rounds=400)
