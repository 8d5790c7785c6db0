"""Nothing acknowledged is lost: real processes race a turn's resolution, and crash at every checkpoint.

A sheet acknowledged as in force is the sheet the turn is resolved with, or its player is told it
missed the turn; every mail stored raw is taken in before a turn is resolved. The races are placed
with the fault points' pauses (`PBEM_PAUSE_AT`), the crashes with `PBEM_CRASH_AT` (pbem.faults).
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import select
from test_moderator import order_mail

from pbem.cli import main
from pbem.faults import POINTS
from pbem.store import MailKind, MessageStatus, SheetRow, Store

ROOT = Path(__file__).resolve().parent.parent
NOW = "2026-11-20T09:00:00Z"
LATE = "2026-11-28T09:00:00Z"  # past the 7-day deadline: `pbem run --once` resolves turn 1
RESOLVERS = {"resolve-turn": ("resolve-turn", "race", "--force", "--turn", "1"), "run": ("run", "--once")}
#: where a resolution is held while a mail is taken in: before its write lock (on SQLite), holding
#: it before and after it reads the sheets again, and after it committed
RESOLUTION_POINTS = ("after-gather", "after-first-write", "before-resolve-commit", "after-resolve-commit")
#: where a mail's intake is held while the turn is resolved: stored raw, or read and acknowledged
INTAKE_POINTS = ("after-store-raw", "before-store-sheet")
CRASHED = 86  # pbem.faults' exit status

FIRST = ("ann@example.org", "GAME race\nTURN 1\nSECRET AAA-111\nMOVE: TO 2\n", "ann-1@x")
BOBS = ("bob@example.net", "GAME race\nTURN 1\nSECRET BBB-222\nMOVE: TO 3\n", "bob-1@x")
LATER = ("ann@example.org", "GAME race\nTURN 1\nSECRET AAA-111\nMOVE: TO 5\n", "ann-2@x")  # replaces FIRST


@dataclass(frozen=True)
class Place:
    """A GM's folder with the game `race` (Ann, Bob, Cyd) over the database `url`."""

    root: Path
    url: str

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_CRASH", "PBEM_PAUSE"))}
        env.update(PBEM_CONFIG=str(self.root / "pbem.toml"), PBEM_NOW=LATE,
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        env.update(extra)
        return env

    def start(self, *args: str, **env: str) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-m", "pbem", *args], env=self.env(**env), cwd=self.root,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def pbem(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        p = self.start(*args, **env)
        out, err = p.communicate(timeout=180)
        return subprocess.CompletedProcess(p.args, p.returncode, out, err)

    def mail(self, sender: str, body: str, mid: str) -> Path:
        path = self.root / f"{mid}.eml"
        path.write_bytes(order_mail(sender, body, mid=mid))
        return path


def _cli(*args: str, env: dict[str, str]) -> None:
    result = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.fixture
def place(url: str, tmp_path: Path) -> Iterator[Place]:
    """Ann's and Bob's first sheets are in; Cyd has sent none."""
    _cli("init", str(tmp_path), "--address", "gm@pbem.example", env={"PBEM_NOW": NOW})
    config = tmp_path / "pbem.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('url = "sqlite:///pbem.sqlite"', f'url = "{url}"'), encoding="utf-8")
    env = {"PBEM_NOW": NOW, "PBEM_CONFIG": str(config)}
    _cli("new-game", "race", "--seed", "7", "--deadline", "7d", "--player", "Ann=ann@example.org",
         "--player", "Bob=bob@example.net", "--player", "Cyd=cyd@example.com", "--secret", "Ann=AAA-111",
         "--secret", "Bob=BBB-222", "--secret", "Cyd=CCC-333", env=env)
    it = Place(tmp_path, url)
    for sender, body, mid in (FIRST, BOBS):
        _cli("ingest", str(it.mail(sender, body, mid)), env=env)
    yield it


def _finish(p: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    out, err = p.communicate(timeout=180)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def _wait_for(path: Path, process: subprocess.Popen[str], *, may_end: bool = False) -> None:
    """Until `process` reaches the pause point `path` (or, if it `may_end` before, ends)."""
    give_up = time.monotonic() + 120
    while not path.exists():
        if may_end and process.poll() is not None:
            return
        assert process.poll() is None, f"{process.args!r} ended before {path.name}: {_finish(process)}"
        assert time.monotonic() < give_up, f"{path.name} was never reached"
        time.sleep(0.01)


def _ok(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def _text(raw: bytes) -> tuple[str, str]:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    part = msg.get_body(("plain",))
    assert part is not None
    return str(msg["In-Reply-To"] or "").strip().strip("<>"), str(part.get_content())


@dataclass(frozen=True)
class Outcome:
    """What the store says happened, once every promise it must keep is checked."""

    resolved: dict[int, dict[str, str | None]]  # turn -> the sheets it was resolved with, by player
    replies: dict[str, str]  # each mail sent (by Message-ID) -> the kind of its one reply


def check_promises(url: str, sent: Sequence[str]) -> Outcome:
    """Every mail sent is taken in and answered once; every turn is reported once to each reader;
    and for each player and resolved turn, the latest sheet acknowledged as in force is the one
    the turn was resolved with (a sheet that missed the turn is refused as such, not acknowledged)."""
    store = Store(url)
    try:
        with store.session() as session:
            messages = {m.message_id.strip("<>"): m for m in store.messages(session)}
            sheets = {s.message_id: s for s in session.exec(select(SheetRow))}
            mails = store.mails(session)
            game = store.game(session, "race")
            names = {p.id: p.name for p in store.players(session, game.id or 0)}
            turns = {t.turn: json.loads(t.sheets) for t in store.turns(session, game.id or 0)}
        bodies = store.mail_bodies([m.id or 0 for m in mails])
    finally:
        store.engine.dispose()
    assert [m.id for m in messages.values() if m.status == MessageStatus.NEW] == [], "a mail was never taken in"
    answers: dict[str, list[tuple[str, str]]] = {}
    for mail in mails:
        if mail.kind in (MailKind.ACK, MailKind.REFUSAL):
            to, text = _text(bodies[mail.id or 0])
            answers.setdefault(to, []).append((mail.kind, text))
    reports = [(m.turn, m.recipient) for m in mails if m.kind in (MailKind.REPORT, MailKind.GM_REPORT)]
    assert len(reports) == len(set(reports)), "a report was queued twice"
    in_force: dict[tuple[str, int], tuple[int, str]] = {}
    for mid in sent:
        assert len(answers.get(mid, [])) == 1, f"{mid} was answered {answers.get(mid, [])!r}, not once"
        kind, text = answers[mid][0]
        row = messages[mid]
        if kind == MailKind.REFUSAL:
            assert "was resolved while these orders were on their way" in text or "already resolved" in text, text
            continue
        assert row.status == MessageStatus.ACCEPTED and row.id in sheets
        if "is now in force" in text or "only this one counts" in text:  # not kept aside for a later sheet
            sheet = sheets[row.id]
            key = (names[sheet.player_id], sheet.turn)
            if key not in in_force or in_force[key][0] < (row.id or 0):
                in_force[key] = (row.id or 0, sheet.text)
    for (player, turn), (_, text) in in_force.items():
        if turn in turns:
            assert turns[turn][player] == text, f"{player}'s sheet acknowledged in force is not turn {turn}'s"
    return Outcome(turns, {mid: answers[mid][0][0] for mid in sent})


SENT = [FIRST[2], BOBS[2], LATER[2]]


def holds_lock(url: str, point: str) -> bool:
    """Whether a resolution held at `point` keeps intake from storing a sheet: on PostgreSQL from
    `lock_game` on, on SQLite from its first write on; after its commit, neither."""
    return point in ("after-first-write", "before-resolve-commit") or (url.startswith("postgres") and
                                                                        point == "after-gather")


@pytest.mark.parametrize("point", RESOLUTION_POINTS)
@pytest.mark.parametrize("resolver", RESOLVERS)
def test_a_sheet_taken_in_while_the_turn_is_resolved_is_resolved_or_told_it_missed(
        place: Place, resolver: str, point: str) -> None:
    later = place.mail(*LATER)
    pause = place.root / "pause"
    pause.mkdir()
    resolving = place.start(*RESOLVERS[resolver], PBEM_PAUSE_AT=point, PBEM_PAUSE_DIR=str(pause))
    _wait_for(pause / f"{point}.reached", resolving)
    ingested = None
    if holds_lock(place.url, point):
        # it waits for the resolution's lock (on SQLite to store the mail at all, on PostgreSQL to
        # store the sheet): nothing it does can commit before the resolution does
        ingesting = place.start("ingest", str(later))
        time.sleep(1.0)
    else:  # nothing held: the mail is read, acknowledged and stored (or refused) while the resolution waits
        ingesting = place.start("ingest", str(later), PBEM_PAUSE_AT="before-store-sheet", PBEM_PAUSE_DIR=str(pause))
        # (after the resolution's commit, it is refused before that point: its turn is resolved)
        _wait_for(pause / "before-store-sheet.reached", ingesting, may_end=True)
        (pause / "before-store-sheet.go").touch()
        ingested = _finish(ingesting)
    (pause / f"{point}.go").touch()
    _ok(_finish(resolving))
    _ok(ingested or _finish(ingesting))
    outcome = check_promises(place.url, SENT)
    assert 1 in outcome.resolved
    # acknowledged (and then resolved with it), or refused as having missed the turn
    assert outcome.resolved[1]["Ann"] == LATER[1].strip() or outcome.replies[LATER[2]] == MailKind.REFUSAL


@pytest.mark.parametrize("point", INTAKE_POINTS)
@pytest.mark.parametrize("resolver", RESOLVERS)
def test_a_mail_stored_before_the_turn_is_resolved_is_resolved(place: Place, resolver: str, point: str) -> None:
    later = place.mail(*LATER)
    pause = place.root / "pause"
    pause.mkdir()
    ingesting = place.start("ingest", str(later), PBEM_PAUSE_AT=point, PBEM_PAUSE_DIR=str(pause))
    _wait_for(pause / f"{point}.reached", ingesting)
    resolving = place.start(*RESOLVERS[resolver])
    try:  # the resolution takes the mail in itself, and then resolves with it
        resolving.wait(timeout=60)
    finally:
        (pause / f"{point}.go").touch()
    _ok(_finish(resolving))
    _ok(_finish(ingesting))
    outcome = check_promises(place.url, SENT)
    assert outcome.resolved[1]["Ann"] == LATER[1].strip() and outcome.replies[LATER[2]] == MailKind.ACK


def _crash_cases() -> Iterator[tuple[str, str, str]]:
    """Every point, recovered by resolving the turn; the points of intake also by the mail server
    offering the same mail again; and `pbem run` recovering from a crash of intake and of itself."""
    for point in POINTS:
        yield point, "resolve-turn", "resolve"
    for point in ("after-store-raw", "before-store-sheet", "after-intake", "after-claim"):
        yield point, "resolve-turn", "ingest again"
    for point in ("after-store-raw", "after-first-write"):
        yield point, "run", "resolve"


@pytest.mark.parametrize(("point", "resolver", "recovery"), list(_crash_cases()))
def test_a_crash_at_any_point_loses_nothing_acknowledged(place: Place, point: str, resolver: str,
                                                         recovery: str) -> None:
    later = place.mail(*LATER)
    story = [("ingest", str(later)), RESOLVERS[resolver]]
    crashed = None
    for n, args in enumerate(story):
        result = place.pbem(*args, PBEM_CRASH_AT=point)
        if result.returncode == CRASHED:
            crashed = n
            break
        _ok(result)
    if crashed is None:
        pytest.skip(f"nothing in this story passes {point}")
    if crashed == 0 and recovery == "ingest again":
        _ok(place.pbem("ingest", str(later)))  # the mail server offers the same mail again
    for args in story[max(crashed, 1):]:  # the resolution (again): it finishes what the crash left
        result = place.pbem(*args)
        if result.returncode != 0 and "already resolved" in result.stderr:
            continue  # it had committed before the crash
        _ok(result)
    _ok(place.pbem("send", PBEM_NOW="2026-11-28T09:30:00Z"))  # after the lease of mail claimed by the dead
    outcome = check_promises(place.url, SENT)
    # the mail was stored raw before the turn was resolved: it is resolved, and acknowledged once
    assert outcome.resolved[1]["Ann"] == LATER[1].strip() and outcome.replies[LATER[2]] == MailKind.ACK
