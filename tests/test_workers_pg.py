"""Several `pbem run` workers on one PostgreSQL store and one mailbox, at the same time.

They never take in a message twice, never resolve a turn twice and never send a mail twice.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
from pathlib import Path

from conftest import MailStack  # type: ignore[attr-defined]
from pbem.config import load_config
from pbem.moderator import Moderator
from test_mail_e2e import PLAYERS, new_game, orders, pbem, setup_gm, swaks

WORKERS = 4


def run_workers(config: Path, now: str, count: int = WORKERS) -> list[subprocess.CompletedProcess[str]]:
    env = dict(os.environ, PBEM_CONFIG=str(config), PBEM_NOW=now)
    env.pop("PBEM_CRASH_AT", None)
    procs = [
        subprocess.Popen([sys.executable, "-m", "pbem", "run", "--once", "--worker", f"w{i}"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for i in range(count)
    ]
    done = []
    for p in procs:
        out, err = p.communicate(timeout=180)
        done.append(subprocess.CompletedProcess(p.args, p.returncode, out, err))
    return done


def test_concurrent_workers_on_postgres(clean_mailstack: MailStack, pg_database_url: str, tmp_path: Path) -> None:
    stack = clean_mailstack
    config = setup_gm(tmp_path / "gm", stack, database_url=pg_database_url)
    new_game(config, stack)  # deadline 2026-11-20 12:00
    for r in run_workers(config, "2026-11-20T10:00:00Z"):
        assert r.returncode == 0, r.stderr
    for p in PLAYERS:
        stack.wait_for_messages(p, 1)
        swaks(stack, p, orders(p, "NEXT", "IF SQUARE 3 IS FREE THEN TO 3 ELSE NEXT"))
    stack.wait_for_messages("gm", 3)
    # every worker sees the same three orders and the same due turn
    results = run_workers(config, "2026-11-20T12:30:00Z")
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    # one more round each, to pick up what a busy moment left over (and to prove it's harmless)
    for r in run_workers(config, "2026-11-20T12:31:00Z"):
        assert r.returncode == 0, r.stderr

    m = Moderator(load_config(config))
    try:
        with m.store.session() as session:
            messages = m.store.messages(session)
            mails = m.store.mails(session)
            game = m.store.game(session, "race")
            turns = m.store.turns(session, game.id or 0)
        player_messages = [r for r in messages if r.sender != stack.address("gm")]
        assert sorted(r.status for r in player_messages) == ["accepted"] * 3
        assert len({r.message_id for r in messages}) == len(messages)
        assert [t.turn for t in turns] == [1] and game.turn == 2
        assert collections.Counter(m.kind for m in mails) == {"welcome": 3, "ack": 3, "report": 3, "gm-report": 1}
        assert {m.status for m in mails} == {"sent"}
    finally:
        m.store.engine.dispose()
    for p in PLAYERS:
        got = stack.wait_for_messages(p, 3)
        ids = [str(x["Message-ID"]) for x in got]
        assert len(ids) == len(set(ids)) == 3, ids
    gm_reports = [x for x in stack.messages("gm") if "report" in str(x["Subject"])]
    assert len(gm_reports) == 1
    status = pbem(config, "show", "race", "--json").stdout
    assert '"turn": 2' in status
