"""The club's flow on PostgreSQL with two workers taking mail in at the same moment: the last seat
of an open game goes to one of two confirmations, the game starts once, and of two standbys
answering one offer, one takes the seat over."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pbem.club.rows import SignupRow, TenureRow
from pbem.config import load_config
from pbem.moderator import Moderator
from tests.test_club import token
from tests.test_mail_commands import client_mail, ok, run, text_of

pytestmark = pytest.mark.postgres
NOW = "2026-11-20T09:00:00Z"
ROOT = Path(__file__).resolve().parent.parent


class Workers:
    """A GM's folder on a PostgreSQL store; `send` takes mails in, each by a `pbem ingest` process of
    its own, all started together."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0

    def send(self, *mails: tuple[str, str]) -> dict[str, list[str]]:
        before = set((self.root / "outbox").glob("*.eml"))
        paths = []
        for sender, body in mails:
            self.count += 1
            path = self.root / f"in-{self.count}.eml"
            path.write_bytes(client_mail(sender, body, mid=f"pg-{self.count}@x"))
            paths.append(path)
        env = dict(os.environ, PBEM_CONFIG=str(self.root / "pbem.toml"), PBEM_NOW=NOW,
                   PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        procs = [subprocess.Popen([sys.executable, "-m", "pbem", "ingest", str(p)], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for p in paths]
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 0, out + err
        got: dict[str, list[str]] = {}
        for path in sorted(set((self.root / "outbox").glob("*.eml")) - before):
            got.setdefault(path.name.split("-", 2)[2].removesuffix(".eml"), []).append(text_of(path))
        return got

    def confirm(self, sender: str, body: str) -> str:
        [text] = self.send((sender, body))[sender]
        return f"CONFIRM {token(text)}"


def test_the_club_with_two_workers_on_postgres(tmp_path: Path, pg_database_url: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", NOW)
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    ok(run("init", ".", "--address", "gm@pbem.example"))
    config = tmp_path / "pbem.toml"
    text = config.read_text().replace("[moderator]\n", "[moderator]\nreply_to_strangers = true\n", 1)
    config.write_text(text.replace('url = "sqlite:///pbem.sqlite"', f'url = "{pg_database_url}"'))
    ok(run("open", "oak", "--game", "hare-tortoise", "--seats", "2", "--deadline", "7d"))
    w = Workers(tmp_path)

    assert "oak: " in w.send(("ann@example.org", "LIST"))["ann@example.org"][0]
    confirms = [(who, w.confirm(who, "JOIN oak")) for who in ("ann@example.org", "bob@example.org", "cyd@example.org")]
    w.send(confirms[0])
    done = w.send(*confirms[1:])  # two workers, one seat left
    answers = [t for who in ("bob@example.org", "cyd@example.org") for t in done[who] if t.startswith(
        who.split("@")[0].title() + ", ")]
    assert sum("The game is full and starts now" in t for t in answers) == 1, answers
    late = ("oak is full", "oak is no longer open", "no game called 'oak' is open for sign-up")
    assert sum(any(why in t for why in late) for t in answers) == 1, answers

    m = Moderator(load_config(config))
    try:
        game, players, _ = m.game_state("oak")
        with m.store.session() as session:
            assert len(session.exec(SignupRow.__table__.select()).all()) == 2  # type: ignore[attr-defined]
            mails = m.store.mails(session)
        assert Counter(x.kind for x in mails)["welcome"] == 2
        seated = sorted(p.email for p in players)

        standby = [(who, w.confirm(who, "STANDBY hare-tortoise")) for who in ("dot@example.org", "eve@example.org")]
        w.send(*standby)
        resign = w.confirm(seated[0], "RESIGN oak")
        offers = w.send((seated[0], resign))
        seat = re.search(r"TAKEOVER oak (\S+)", offers["dot@example.org"][0])
        assert seat is not None
        taken = w.send(("dot@example.org", f"TAKEOVER oak {seat.group(1)}"), ("eve@example.org",
                                                                             f"TAKEOVER oak {seat.group(1)}"))
        winners = [who for who in ("dot@example.org", "eve@example.org") if any("the seat is yours" in t
                                                                                 for t in taken.get(who, []))]
        assert len(winners) == 1
        _, players, _ = m.game_state("oak")
        assert sorted(p.email for p in players) == sorted([seated[1], winners[0]])
        with m.store.session() as session:
            ended = [t.ended for t in session.exec(TenureRow.__table__.select()).all()]  # type: ignore[attr-defined]
        assert sorted(ended) == ["", "", "resigned"]
        assert "No rated game has finished yet." in w.send(("eve@example.org", "RATINGS"))["eve@example.org"][0]
    finally:
        m.store.engine.dispose()
