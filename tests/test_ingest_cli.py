"""`pbem ingest` of folders and pipes: one mail in memory at a time, a Maildir's taken-in mail
left unread, two runs at once, and exit 75 when the database is busy."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_moderator import ok, order_mail, run

from pbem.errors import PbemError
from pbem.mail.maildir import MailFile
from pbem.moderator import Moderator
from pbem.store import SQLITE_BUSY_TIMEOUT, sqlite_busy_timeout


def orders(n: int) -> bytes:
    return order_mail("ann@example.org", f"GAME race\nSECRET AAA-111\nMOVE: TO {n % 10 + 1}", mid=f"o{n}@x")


def test_each_mail_is_read_just_before_it_is_taken_in(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(3):
        (gm / "inbox" / "new" / f"17000000{n}.{n}.host").write_bytes(orders(n))
    events: list[str] = []
    read, ingest = MailFile.read, Moderator.ingest

    def reading(self: MailFile) -> bytes | None:
        events.append("read")
        return read(self)

    def taking(self: Moderator, raw: bytes, source: str = "", *, deliver: bool = True) -> object:
        events.append("ingest")
        return ingest(self, raw, source, deliver=deliver)

    monkeypatch.setattr(MailFile, "read", reading)
    monkeypatch.setattr(Moderator, "ingest", taking)
    out = ok(run("ingest")).output
    assert events == ["read", "ingest"] * 3
    assert "Ingested 3 messages: 3 accepted" in out


def test_a_maildirs_taken_in_mail_is_not_read_again(gm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (gm / "inbox" / "new" / "1700000000.1.host").write_bytes(orders(1))
    # a mail program listed this one (moved it to cur/) but nobody took it in
    (gm / "inbox" / "cur" / "1700000001.2.host:2,").write_bytes(orders(2))
    assert "Ingested 2 messages: 2 accepted" in ok(run("ingest")).output
    assert sorted(p.name for p in (gm / "inbox" / "cur").iterdir()) == [
        "1700000000.1.host:2,S", "1700000001.2.host:2,S"]

    def no_reading(self: MailFile) -> bytes | None:
        raise AssertionError(f"{self.path} was read again")

    monkeypatch.setattr(MailFile, "read", no_reading)
    assert "Ingested 0 messages: no messages" in ok(run("ingest")).output


@pytest.fixture
def many(gm: Path) -> Iterator[Path]:
    for n in range(40):
        (gm / "inbox" / "new" / f"{1700000000 + n}.{n}.host").write_bytes(orders(n))
    yield gm


def test_two_runs_on_one_maildir_at_once(many: Path) -> None:
    env = dict(os.environ, PBEM_CONFIG=str(many / "pbem.toml"), PBEM_NOW="2026-11-20T09:00:00Z",
               PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent.parent),
                                                        os.environ.get("PYTHONPATH")])))
    runs = [subprocess.Popen([sys.executable, "-m", "pbem", "ingest"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [r.communicate(timeout=120) for r in runs]
    for r, (out, err) in zip(runs, outputs, strict=True):
        assert r.returncode == 0, out + err
        assert "Traceback" not in err
    assert list((many / "inbox" / "new").iterdir()) == []
    assert len([p for p in (many / "inbox" / "cur").iterdir() if p.name.endswith(":2,S")]) == 40
    assert "1 of 3 sheets in" in ok(run("status", "race")).output
    stored = ok(run("quarantine", "list")).output
    assert "0 quarantined messages" in stored
    # every mail was taken in once: by one run or the other, the rest are duplicates or skipped
    accepted = sum(out.count(": accepted") for out, _ in outputs)
    assert accepted == 40


def use_database(root: Path, url: str) -> None:
    config = root / "pbem.toml"
    text = config.read_text(encoding="utf-8")
    assert 'url = "sqlite:///pbem.sqlite"' in text
    config.write_text(text.replace('url = "sqlite:///pbem.sqlite"', f'url = "{url}"'), encoding="utf-8")


def test_a_locked_database_exits_75_so_the_mail_server_retries(gm: Path) -> None:
    use_database(gm, "sqlite:///pbem.sqlite?timeout=0.2")  # give up on the lock after 0.2 s
    mail = orders(7)
    holder = sqlite3.connect(gm / "pbem.sqlite", isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")  # another process is writing, and takes its time
        result = run("ingest", "-", input=mail)
        assert result.exit_code == 75, result.output
        assert "database is locked" in result.stderr and "try again later" in result.stderr.lower()
        assert "Traceback" not in result.output
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # the mail server delivers it again: now it is taken in
    assert "accepted Ann in race" in ok(run("ingest", "-", input=mail)).output


def test_an_unreachable_database_exits_75(gm: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once the socket is closed
    use_database(gm, f"postgresql+psycopg://pbem:pbem@127.0.0.1:{port}/pbem?connect_timeout=2")
    result = run("ingest", "-", input=orders(8))
    assert result.exit_code == 75, result.output
    assert "busy or out of reach" in result.stderr


def test_the_sqlite_busy_timeout_comes_from_the_url() -> None:
    assert sqlite_busy_timeout("sqlite:////srv/pbem.sqlite") == SQLITE_BUSY_TIMEOUT
    assert sqlite_busy_timeout("sqlite:////srv/pbem.sqlite?timeout=2.5") == 2.5
    with pytest.raises(PbemError, match="timeout='soon' is not a number of seconds"):
        sqlite_busy_timeout("sqlite:////srv/pbem.sqlite?timeout=soon")
