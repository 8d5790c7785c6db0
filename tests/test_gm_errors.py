"""The GM gets a clear message and a non-zero exit, never a traceback."""

from __future__ import annotations

import errno
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.config import load_config
from pbem.moderator import Moderator
from pbem.runner import GIVE_UP_AFTER, retry_delay
from tests.test_moderator import ok, order_mail


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))  # exceptions caught: a traceback would show as one


def refused(result: Result, *words: str) -> str:
    assert result.exit_code != 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    for w in words:
        assert w in result.output, (w, result.output)
    return result.output


@pytest.mark.parametrize(("extra", "words"), [
    (["--secret", "Zed=ABC-123"], ["'zed' is not one of the players"]),
    (["--timezone", "Zed=Europe/Paris"], ["'zed' is not one of the players"]),
    (["--secret", "Ann=has space"], ["no spaces"]),
    (["--timezone", "Ann=America"], ["unknown time zone 'America'"]),
    (["--deadline", "99999999d"], ["is too long"]),
    (["--deadline", "every Friday 25:00"], ["25:00"]),
    (["--player", "Bob=<bob@example.net>"], ["not an email address"]),
])
def test_new_game_mistakes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str], words: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    ok(CliRunner().invoke(main, ["init", "."]))
    refused(run("new-game", "g", "--player", "Ann=ann@example.org", "--player", "Cyd=cyd@example.org", *extra), *words)


def test_a_game_name_its_template_cannot_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ok(CliRunner().invoke(main, ["init", "."]))
    refused(run("new-game", "rénne", "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org"),
            "use letters, digits")


def test_a_locked_database_is_said_so(gm: Path) -> None:
    holder = sqlite3.connect(gm / "pbem.sqlite", timeout=0.1)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        config = (gm / "pbem.toml").read_text()
        (gm / "pbem.toml").write_text(config.replace('pbem.sqlite"', 'pbem.sqlite?timeout=0.2"'))
        refused(run("resolve-turn", "race", "--force"), "the database cannot be used now", "run it again")
    finally:
        holder.rollback()
        holder.close()


def test_a_corrupt_database_is_said_so(gm: Path) -> None:
    (gm / "pbem.sqlite").write_bytes(b"this is not a database" * 100)
    for wal in gm.glob("pbem.sqlite-*"):
        wal.unlink()
    refused(run("status", "race"), "damaged or is not pbem's")


def test_a_full_outbox_keeps_the_turn_and_its_mail(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.mail import outbox

    def full(*_: object) -> Path:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("pbem.moderator.write_emls", full)
    refused(run("resolve-turn", "race", "--force"), "turn 1 of race is resolved and kept", "stay queued", "pbem send")
    monkeypatch.setattr("pbem.moderator.write_emls", outbox.write_emls)
    out = ok(CliRunner().invoke(main, ["send"])).output
    assert "Sent 4 mails" in out
    assert "turn 2 to play" in ok(CliRunner().invoke(main, ["show", "race"])).output


def test_board_into_a_missing_folder(gm: Path) -> None:
    refused(run("board", "race", "-o", str(gm / "no" / "such" / "b.png")), "does not exist")


@pytest.mark.parametrize("interval", ["0", "-5", "nan", "inf"])
def test_run_intervals(gm: Path, interval: str) -> None:
    refused(run("run", "--interval", interval))


def test_retries_back_off_with_jitter_and_give_up_in_days() -> None:
    delays = [retry_delay(0) for _ in range(200)]
    assert 48 <= min(delays) < max(delays) <= 72 and len(set(delays)) > 20
    assert 2880 <= retry_delay(10) <= 4320
    assert timedelta(days=2) <= GIVE_UP_AFTER <= timedelta(days=7)


def test_send_and_run_exit_non_zero_when_mail_failed_for_good(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import runner
    from pbem.runner import RoundReport

    def failing(self: runner.Runner, report: RoundReport) -> None:
        report.failed += 1

    monkeypatch.setattr(runner.Runner, "send", failing)
    refused(run("send"), "failed for good")
    refused(run("run", "--once"), "failed for good", "pbem outbox --failed")


def test_mail_that_fails_for_days_is_given_up(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem import runner
    from pbem.mail.smtp import SendResult

    m = Moderator(load_config(gm / "pbem.toml"))
    m.ingest(order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="old@x"), "o", deliver=False)
    later = datetime.now(timezone.utc) + GIVE_UP_AFTER + timedelta(hours=1)
    m._clock = lambda: later  # noqa: SLF001 - the moderator's clock, days later
    r = runner.Runner(m)
    r.smtp = object()  # type: ignore[assignment]
    monkeypatch.setattr(runner, "send", lambda _s, mails, connections: [SendResult(x.id, "retry", "451 try later")
                                                                         for x in mails])
    report = runner.RoundReport()
    r.send(report)
    assert report.failed >= 1 and report.retry == 0
    with m.store.session() as session:
        failed = m.store.mails(session, "failed")
    assert failed and all("gave up after 4 days" in f.error for f in failed)
