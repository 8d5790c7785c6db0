"""A stored turn decodes to what its resolution produced, for every registered game; and the
decoding has one home (pbem.turn_record), outside the games' own code."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config
from pbem.games import games
from pbem.games.base import Viewer
from pbem.moderator import Moderator
from pbem.turn_record import TurnRecord, picture

ROOT = Path(__file__).resolve().parent.parent
TURNS = 2


@pytest.mark.parametrize("kind", [g.info.name for g in games()])
def test_a_stored_turn_decodes_to_what_its_resolution_produced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    assert CliRunner().invoke(main, ["init", "."]).exit_code == 0
    game = next(g for g in games() if g.info.name == kind)
    args = ["new-game", "robots", "--game", kind, "--seed", "3"]
    for name in ("Ann", "Bob"):
        args += ["--player", f"{name}=bot:{game.info.bot_levels[0]}"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    for _ in range(TURNS):
        summary = m.resolve("robots", force=True)
        record = TurnRecord.from_row(summary.engine, m.turn_record("robots", summary.turn)[2])
        engine = record.game
        assert record.turn == summary.turn and record.resolved_at.utcoffset() is not None
        assert record.resolutions == tuple(summary.resolutions)
        assert engine.dump_state(record.after) == engine.dump_state(summary.state)
        assert engine.turn(record.before) == summary.turn
        public = Viewer.public()
        assert record.seen_by(public) == engine.redact_all(summary.resolutions, public)
        drawn = picture(engine, record.after, record.resolutions, title="t", subtitle="s")
        assert drawn == engine.presenter.picture(engine.view(summary.state, public), record.seen_by(public),
                                                 title="t", subtitle="s")
        if engine.is_over(summary.state):
            break


def test_resolutions_are_decoded_in_one_place() -> None:
    found = subprocess.run(["grep", "-rn", "resolution_from_json", "pbem", "--include=*.py"], cwd=ROOT,
                           capture_output=True, text=True, check=False).stdout.splitlines()
    elsewhere = [line for line in found
                 if not line.startswith(("pbem/games/", "pbem/turn_record.py:"))]
    assert not elsewhere, "decode a turn's resolutions through pbem.turn_record.TurnRecord:\n" + "\n".join(elsewhere)
