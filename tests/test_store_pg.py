"""The store on PostgreSQL as on SQLite: mail claims for several senders, game locks, and the
whole moderator flow.

The postgres-parametrized tests use the `pg_database_url` fixture of tests/conftest.py (a new,
empty database per test); they are marked `postgres`.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from pbem.config import Config
from pbem.errors import PbemError
from pbem.moderator import Moderator, PlayerSpec
from pbem.store import GameRow, MailRow, Store

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    store = Store(url)
    store.create()
    yield store
    store.engine.dispose()


def queue(store: Store, count: int, **fields: Any) -> list[int]:
    with store.session() as session:
        rows = [MailRow(message_id=f"<m{i}.{time.monotonic_ns()}@x>", kind="ack", recipient=f"p{i}@x", subject="s",
                        created_at=NOW, **fields) for i in range(count)]
        store.queue_mails(session, [(row, b"mail %d" % i) for i, row in enumerate(rows)])
        session.flush()
        return [r.id for r in rows if r.id is not None]


def mail(store: Store, mail_id: int) -> MailRow:
    with store.session() as session:
        row = session.get(MailRow, mail_id)
        assert row is not None
        return row


# claims ------------------------------------------------------------------------------------------
def test_claims_take_queued_mail_oldest_first_and_each_once(store: Store) -> None:
    ids = queue(store, 5)
    first = store.claim_mails("w1", NOW, limit=3, lease_seconds=60)
    assert [m.id for m in first] == ids[:3]
    assert all((m.status, m.claimed_by, m.claimed_at, m.attempts) == ("sending", "w1", NOW, 1) for m in first)
    assert [m.id for m in store.claim_mails("w2", NOW, limit=10, lease_seconds=60)] == ids[3:]
    assert store.claim_mails("w3", NOW, limit=10, lease_seconds=60) == []
    assert store.claim_mails("w3", NOW, limit=0, lease_seconds=60) == []


def test_a_claim_is_taken_over_after_its_lease(store: Store) -> None:
    [mail_id] = queue(store, 1)
    store.claim_mails("dead", NOW, 10, lease_seconds=60)
    assert store.claim_mails("w2", NOW + timedelta(seconds=59), 10, lease_seconds=60) == []
    [again] = store.claim_mails("w2", NOW + timedelta(seconds=60), 10, lease_seconds=60)
    assert (again.id, again.claimed_by, again.attempts) == (mail_id, "w2", 2)
    assert not store.mark_sent(mail_id, "dead", NOW)  # the dead worker woke up: too late
    assert store.mark_written([(mail_id, "/out/1.eml")], "w2", NOW + timedelta(seconds=61)) == 1
    row = mail(store, mail_id)
    sent_at = NOW + timedelta(seconds=61)
    assert (row.status, row.sent_at, row.path, row.claimed_by) == ("sent", sent_at, "/out/1.eml", "w2")
    assert store.claim_mails("w3", NOW + timedelta(days=1), 10, lease_seconds=60) == []


def test_retry_waits_for_next_attempt_and_failed_is_final(store: Store) -> None:
    a, b = queue(store, 2)
    store.claim_mails("w", NOW, 10, 60)
    later = NOW + timedelta(minutes=5)
    assert not store.mark_retry(a, "other", "450 busy", later)
    assert store.mark_retry(a, "w", "450 busy", later)
    assert not store.mark_retry(a, "w", "again", later)  # no longer claimed
    assert store.mark_failed(b, "w", "550 no such user")
    row = mail(store, a)
    assert (row.status, row.error, row.claimed_by, row.claimed_at, row.next_attempt_at) == \
        ("queued", "450 busy", "", None, later)
    assert (mail(store, b).status, mail(store, b).error) == ("failed", "550 no such user")
    assert store.claim_mails("w", later - timedelta(seconds=1), 10, 60) == []
    [retried] = store.claim_mails("w", later, 10, 60)
    assert (retried.id, retried.attempts) == (a, 2)
    assert store.mark_sent(a, "w", later)
    assert mail(store, a).error == ""


def test_naive_moments_are_taken_as_utc(store: Store) -> None:
    queue(store, 1, next_attempt_at=NOW)
    naive = NOW.replace(tzinfo=None)
    assert store.claim_mails("w", naive - timedelta(seconds=1), 10, 60) == []
    [row] = store.claim_mails("w", naive, 10, 60)
    assert row.claimed_at == NOW


def test_two_threads_claim_every_mail_once(store: Store, url: str) -> None:
    ids = queue(store, 300)
    got: dict[str, list[int]] = {"a": [], "b": []}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def work(name: str) -> None:
        own = Store(url)  # its own engine and connections, as another worker would have
        try:
            start.wait()
            while batch := own.claim_mails(name, NOW, limit=7, lease_seconds=600):
                got[name] += [m.id for m in batch if m.id is not None]
                for m in batch[::2]:
                    assert m.id is not None and own.mark_sent(m.id, name, NOW)
        except BaseException as err:  # noqa: BLE001 - collected for the assertion
            errors.append(err)
        finally:
            own.engine.dispose()

    threads = [threading.Thread(target=work, args=(n,)) for n in got]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    claims = Counter(got["a"] + got["b"])
    assert sorted(claims) == ids and set(claims.values()) == {1}
    with store.session() as session:
        rows = store.mails(session)
    assert {r.claimed_by for r in rows} <= {"a", "b"}
    assert all(r.claimed_by in got and r.id in got[r.claimed_by] and r.attempts == 1 for r in rows)


WORKER = textwrap.dedent("""
    import json, sys, time
    from datetime import datetime, timezone
    from pathlib import Path
    from pbem.store import Store

    url, name, folder = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    store = Store(url)
    store.create()
    (folder / f"ready-{name}").touch()
    while not (folder / "go").exists():
        time.sleep(0.005)
    now = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
    got = []
    while batch := store.claim_mails(name, now, 5, 600):
        got += [m.id for m in batch]
        for m in batch:
            assert store.mark_sent(m.id, name, now), m.id
    print(json.dumps(got))
""")


def test_two_processes_claim_every_mail_once(store: Store, url: str, tmp_path: Path) -> None:
    ids = queue(store, 400)
    names = ("p1", "p2")
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, url, n, str(tmp_path)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in names]
    try:
        deadline = time.monotonic() + 60
        while not all((tmp_path / f"ready-{n}").exists() for n in names):
            assert time.monotonic() < deadline and all(p.poll() is None for p in procs), \
                [p.communicate() for p in procs if p.poll() is not None]
            time.sleep(0.01)
        (tmp_path / "go").touch()
        outs = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    assert all(p.returncode == 0 for p in procs), outs
    got = [json.loads(out) for out, _ in outs]
    claims = Counter(got[0] + got[1])
    assert sorted(claims) == ids and set(claims.values()) == {1}
    with store.session() as session:
        assert {(r.status, r.attempts) for r in store.mails(session)} == {("sent", 1)}


# game locks ----------------------------------------------------------------------------------------
def new_game(store: Store, name: str = "race") -> None:
    with store.session() as session:
        session.add(GameRow(name=name, game="hare-tortoise", rules="r", seed="1", state="{}", created_at=NOW))


def test_lock_game_reads_the_row_afresh(store: Store) -> None:
    new_game(store)
    with store.session() as session:
        stale = store.game(session, "race")
        with store.session() as other:
            row = store.game(other, "race")
            row.turn = 5
            other.add(row)
        locked = store.lock_game(session, "race")
        assert locked is stale and locked.turn == 5
    with store.session() as session, pytest.raises(PbemError, match="no game called 'nope'; games: race"):
        store.lock_game(session, "nope")


@pytest.mark.postgres
def test_lock_game_holds_a_row_lock_on_postgres(pg_database_url: str) -> None:
    store = Store(pg_database_url)
    store.create()
    try:
        new_game(store)
        new_game(store, "other")
        with store.session() as first:
            store.lock_game(first, "race")
            with store.session() as second:
                second.execute(text("SET LOCAL lock_timeout = '200ms'"))
                assert store.lock_game(second, "other").name == "other"  # another game: not blocked
                with pytest.raises(OperationalError, match="lock timeout"):
                    store.lock_game(second, "race")
                second.rollback()
        with store.session() as third:  # released at the end of the first transaction
            third.execute(text("SET LOCAL lock_timeout = '200ms'"))
            assert store.lock_game(third, "race").name == "race"
    finally:
        store.engine.dispose()


@pytest.mark.postgres
def test_a_second_resolver_waits_then_sees_the_new_turn(pg_database_url: str) -> None:
    store = Store(pg_database_url)
    store.create()
    new_game(store)
    seen: list[int] = []
    locked = threading.Event()

    def second() -> None:
        locked.wait(10)
        with store.session() as session:
            seen.append(store.lock_game(session, "race").turn)

    thread = threading.Thread(target=second)
    thread.start()
    try:
        with store.session() as session:
            game = store.lock_game(session, "race")
            locked.set()
            time.sleep(0.3)  # the second one is waiting on the row lock now
            assert seen == []
            game.turn += 1
            session.add(game)
        thread.join(10)
        assert seen == [2]
    finally:
        thread.join(10)
        store.engine.dispose()


# the whole moderator -------------------------------------------------------------------------------
def order_mail(sender: str, body: str, *, mid: str, subject: str = "orders") -> bytes:
    return (
        f"From: {sender.split('@')[0].title()} <{sender}>\nTo: gm@pbem.example\nSubject: {subject}\n"
        f"Message-ID: <{mid}>\nDate: Fri, 20 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n{body}"
    ).encode()


def campaign(url: str, root: Path) -> dict[str, Any]:
    """New game, orders (good, replaced, refused, duplicate), a resolved turn, the outbox: all that
    the moderator kept and sent, in a form that compares across databases."""
    root.mkdir()
    config = Config(path=root / "pbem.toml", address="gm@pbem.example", name="pbem", database_url=url,
                    maildir=root / "inbox", outbox=root / "outbox")
    # One fixed moment: the two stores read the clock a different number of times (PostgreSQL
    # claims each outgoing mail before writing it), and what they keep must still compare.
    m = Moderator(config, now=lambda: NOW)
    m.store.create()
    try:
        players = [PlayerSpec("Ann", "ann@example.org", "AAA-111"), PlayerSpec("Bob", "bob@example.net", "BBB-222"),
                   PlayerSpec("Cyd", "cyd@example.com", "CCC-333")]
        m.new_game("race", game="hare-tortoise", rules=None, players=players, seed=7, deadline="7d")
        results = [
            m.ingest(order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 2\n", mid="a1@x")),
            m.ingest(order_mail("ann@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5\nMOVE: TO 8\n", mid="a2@x")),
            m.ingest(order_mail("bob@example.net", "GAME race\nSECRET BBB-222\nMOVE: IF SQUARE 5 IS FREE THEN TO 5 "
                                "ELSE NEXT\n", mid="b1@x")),
            m.ingest(order_mail("eve@example.org", "GAME race\nSECRET AAA-111\nMOVE: TO 5", mid="e1@x")),
            m.ingest(order_mail("bob@example.net", "GAME race\nSECRET BBB-222\nMOVE: IF SQUARE 5 IS FREE THEN TO 5 "
                                "ELSE NEXT\n", mid="b1@x")),  # the same mail again
            m.ingest(order_mail("bob@example.net", "GAME race\nSECRET BBB-222\nMOVE: TO 4\n", mid="b1@x")),  # another
        ]
        summary = m.resolve("race")
        with pytest.raises(PbemError, match="already resolved"):
            m.resolve("race")
        m.deliver()
        game, players_rows, turns = m.history("race")
        with m.store.session() as session:
            rows = m.store.mails(session)
            bodies = m.store.mail_bodies([r.id or 0 for r in rows])
            mails = [(r.id, r.kind, r.recipient, r.status, r.attempts, bodies[r.id or 0]) for r in rows]
            messages = [(r.id, r.status, r.step, r.reason) for r in m.store.messages(session)]
        return {
            "results": [(r.status, r.reason, r.step, r.game, r.player) for r in results],
            "summary": (summary.turn, summary.mails, summary.resolved_at),
            "game": (game.turn, game.over, game.state, game.deadline),
            "players": [(p.seat, p.name, p.email, p.secret) for p in players_rows],
            "turns": [(t.turn, t.resolved_at, t.deadline, t.before, t.after, t.resolutions, t.sheets, t.dice)
                      for t in turns],
            "mails": mails,
            "messages": messages,
            "outbox": {p.name: p.read_bytes() for p in sorted((root / "outbox").glob("*.eml"))},
            "status": m.status("race"),
        }
    finally:
        m.store.engine.dispose()


@pytest.mark.postgres
def test_the_moderator_on_postgres_does_what_it_does_on_sqlite(pg_database_url: str, tmp_path: Path) -> None:
    on_sqlite = campaign(f"sqlite:///{tmp_path / 'pbem.sqlite'}", tmp_path / "sqlite")
    on_postgres = campaign(pg_database_url, tmp_path / "postgres")
    assert [r[0] for r in on_sqlite["results"]] == ["accepted", "accepted", "accepted", "refused", "duplicate", "accepted"]
    assert on_sqlite["summary"][0] == 1 and on_sqlite["game"][0] == 2
    assert len(on_sqlite["outbox"]) == len(on_sqlite["mails"]) > 0
    for key in on_sqlite:
        assert on_postgres[key] == on_sqlite[key], key
