"""A turn wave: 1,000 running 6-player games, on SQLite and (with --postgres) on PostgreSQL.

Stages: ingest 6,000 order mails (one per player), resolve 1,000 turns, and render the 6,000
player reports with their board pictures (plus the GM's). Prints each stage's throughput (wall
and CPU), the counts (every mail accepted once, every turn resolved once, every report written
once: anything doubled or lost stops the benchmark), the average report mail's size and the
peak memory (RSS).

Each stage runs in --workers processes (default 2, one per core), as several `pbem run`
workers would share one store; SQLite in WAL mode takes their transactions one at a time.
With --postgres the same wave runs again on a throwaway PostgreSQL cluster (scripts/pgstack.sh,
with durability switched back on) with 2 and with 4 workers, each compared with a floor measured
again right beside it (the floor itself is the SQLite one, with 2 processes).

In the same run, `wave_floor.py` measures the floor: what any moderator in Python must do with
the same mails and games. The last line reads `wave: <W> s, floor: <F> s, ratio <R>, peak <M>
MB` for the SQLite wave; targets: ratio at most 2.0, peak memory at most 300 MB, the average
report mail at most 60 kB.

Usage: python benchmarks/turn_wave.py [--games N] [--workers N] [--dir DIR] [--postgres]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import re
import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TypeVar

import wave_floor
from sqlmodel import select

from pbem.config import load_config, write_config
from pbem.moderator import Moderator, PlayerSpec
from pbem.store import GameRow, MessageRow, MessageStatus

T = TypeVar("T")
NAMES = ("Ann", "Bob", "Cyd", "Dot", "Eve", "Fay")
CHAINS = (
    "IF SQUARE {a} IS FREE THEN TO {a} ELSE NEXT CARROT ELSE NEXT",
    "IF CARROTS > 40 THEN ADVANCE 4 ELSE IF LETTUCES > 0 THEN NEXT LETTUCE ELSE STAY",
    "NEXT HARE ELSE NEXT",
    "IF RANK <= 2 THEN BACK ELSE NEXT NUMBER ELSE NEXT",
)


def order_mail(game: str, player: str, email: str, secret: str, n: int, rng: random.Random) -> bytes:
    lines = [f"GAME {game}", "TURN 1", f"SECRET {secret}"]
    for _ in range(2):
        lines.append("MOVE: " + rng.choice(CHAINS).format(a=rng.randint(2, 12)))
    lines.append("DEFAULT: NEXT")
    body = "\n".join(lines) + "\n\nCheers,\n" + player + "\n"
    return (
        f"From: {player} <{email}>\nTo: gm@pbem.example\nSubject: {game} turn 1\n"
        f"Message-ID: <wave-{n}@example.org>\nDate: Fri, 20 Nov 2026 10:00:00 +0000\n"
        f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n{body}"
    ).encode()


def peak_mb() -> float:
    """The largest resident size of this process and of any worker it ran."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, workers) / 1024


CLOCK = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
KIND = re.compile(r"\d+-(ack|report|gm-report|welcome)-")


def _moderator(config: Path, at: datetime) -> Moderator:
    return Moderator(load_config(config), now=lambda: at)


def _ingest_slice(config: Path, mails: list[bytes], first: int) -> tuple[dict[str, int], float]:
    cpu = time.process_time()
    m = _moderator(config, CLOCK)
    statuses: dict[str, int] = {}
    for result in m.ingest_many((raw, f"wave/{first + n}") for n, raw in enumerate(mails)):
        statuses[result.status] = statuses.get(result.status, 0) + 1
    m.store.engine.dispose()
    return statuses, time.process_time() - cpu


def _resolve_slice(config: Path, games: list[str]) -> tuple[int, float]:
    cpu = time.process_time()
    m = _moderator(config, CLOCK + timedelta(hours=2))
    reports = sum(m.resolve(name, deliver=False).mails for name in games)
    m.deliver()  # as `pbem run` does: the round's mail is sent at its end
    m.store.engine.dispose()
    return reports, time.process_time() - cpu


def _split(items: list[T], parts: int) -> list[list[T]]:
    return [items[k::parts] for k in range(parts)]


@dataclass
class Wave:
    seconds: float
    mails: list[bytes]


def wave(work: Path, games: int, workers: int, url: str | None = None) -> Wave:
    """Set up `games` games in `work` (on `url`, else SQLite), run the wave, check the counts."""
    if work.exists():
        shutil.rmtree(work)
    path = write_config(work)
    if url is not None:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace('url = "sqlite:///pbem.sqlite"', f'url = "{url}"'), encoding="utf-8")
    m = Moderator(load_config(path), now=lambda: CLOCK)
    m.store.create()
    rng = random.Random(1)
    t0 = time.perf_counter()
    mails: list[bytes] = []
    for g in range(games):
        name = f"wave-{g:04d}"
        players = [PlayerSpec(n, f"{n.lower()}{g}@example.org", f"S{g:04d}-{i}") for i, n in enumerate(NAMES)]
        m.new_game(name, game="hare-tortoise", rules=None, players=players, seed=g, deadline="7d")
        mails += [order_mail(name, p.name, p.email, p.secret or "", g * 6 + i, rng) for i, p in enumerate(players)]
    m.deliver()  # the welcome mails: not part of the wave
    welcomes = len(list(m.config.outbox.glob("*.eml")))
    print(f"setup: {games} games in {work} in {time.perf_counter() - t0:.1f} s (not part of the wave)", flush=True)

    config = m.config.path
    m.store.engine.dispose()  # the workers open their own connections
    pool = multiprocessing.get_context("fork").Pool(workers)
    start = t = time.perf_counter()
    statuses: dict[str, int] = {}
    cpu = 0.0
    for part, seconds in pool.starmap(_ingest_slice, [(config, s, k) for k, s in enumerate(_split(mails, workers))]):
        cpu += seconds
        for key, value in part.items():
            statuses[str(key)] = statuses.get(str(key), 0) + value
    ingest_s = time.perf_counter() - t
    print(f"ingest:  {len(mails)} mails in {ingest_s:.1f} s = {len(mails) / ingest_s:,.0f} mails/s, "
          f"{cpu * 1000 / len(mails):.1f} ms CPU per mail {statuses}", flush=True)

    t = time.perf_counter()
    names = [f"wave-{g:04d}" for g in range(games)]
    done = pool.starmap(_resolve_slice, [(config, s) for s in _split(names, workers)])
    resolve_s = time.perf_counter() - t
    pool.close()
    pool.join()
    total = time.perf_counter() - start
    reports = sum(n for n, _ in done)
    cpu = sum(c for _, c in done)
    print(f"resolve+render: {games} turns, {reports} reports with pictures in {resolve_s:.1f} s = "
          f"{games / resolve_s:,.1f} turns/s, {cpu * 1000 / games:.0f} ms CPU per turn", flush=True)

    kinds: dict[str, list[int]] = {}
    for eml in m.config.outbox.glob("*.eml"):
        match = KIND.match(eml.name)
        kinds.setdefault(match.group(1) if match else "other", []).append(eml.stat().st_size)
    m = Moderator(load_config(config), now=lambda: CLOCK)
    with m.store.session() as session:
        turns = sorted({g.turn for g in session.exec(select(GameRow)).all()})
        accepted = len(session.exec(select(MessageRow).where(MessageRow.status == MessageStatus.ACCEPTED)).all())
    m.store.engine.dispose()
    counts = {k: len(v) for k, v in kinds.items()}
    expected = {"welcome": welcomes, "ack": 6 * games, "report": 6 * games, "gm-report": games}
    if accepted != 6 * games or turns != [2] or counts != expected or reports != 7 * games:
        raise SystemExit(f"counts wrong: {accepted} sheets accepted, turns now {turns}, mails {counts}, "
                         f"{reports} reports; expected {6 * games}, [2], {expected}, {7 * games}")
    sizes = kinds["report"] + kinds["gm-report"]
    print(f"counts:  {accepted} sheets, {games} turns, {counts} mails: nothing doubled or lost; "
          f"average report mail {sum(sizes) / len(sizes) / 1000:.1f} kB (target 60 kB)", flush=True)
    return Wave(total, mails)


@contextmanager
def postgres(folder: Path) -> Iterator[str]:
    """A throwaway PostgreSQL cluster (scripts/pgstack.sh) with durability on, as in production."""
    import psycopg

    script = Path(__file__).resolve().parent.parent / "scripts" / "pgstack.sh"
    env = {**os.environ, "PG_PORT": os.environ.get("PG_PORT", "31543")}
    subprocess.run(["bash", str(script), "start", str(folder)], check=True, env=env, stdout=subprocess.DEVNULL)
    try:
        url = f"postgresql://pbem:pbem@127.0.0.1:{env['PG_PORT']}/pbem"
        with psycopg.connect(url, autocommit=True, user="postgres", host=str(folder / "run")) as conn:
            # pgstack.sh turns durability off for tests; the wave is measured with it on
            for setting in ("fsync", "synchronous_commit", "full_page_writes"):
                conn.execute(f"ALTER SYSTEM SET {setting} = on")
            conn.execute("SELECT pg_reload_conf()")
        yield url.replace("postgresql://", "postgresql+psycopg://")
    finally:
        subprocess.run(["bash", str(script), "stop", str(folder)], check=False, env=env)


def fresh_database(url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" OWNER pbem')
    return url.rsplit("/", 1)[0] + "/" + name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="Processes per stage (default 2).")
    parser.add_argument("--dir", type=Path, default=None, help="Work folder (default: a temporary one).")
    parser.add_argument("--postgres", action="store_true",
                        help="Also run the wave on PostgreSQL with 2 and 4 workers (needs root and the server).")
    args = parser.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="pbem-wave-", dir="/tmp"))
    work.mkdir(parents=True, exist_ok=True)
    work.chmod(0o755)  # the PostgreSQL server runs as its own user and must reach its folder
    results: list[str] = []
    print(f"SQLite, {args.workers} workers:", flush=True)
    sqlite = wave(work / "sqlite", args.games, args.workers)
    floor = wave_floor.run(sqlite.mails, args.games, args.workers, work)
    print(f"floor:   {floor:.1f} s ({args.workers} processes, same mails and games)", flush=True)
    results.append(f"SQLite {args.workers} workers: {sqlite.seconds:.1f} s, floor {floor:.1f} s, "
                   f"ratio {sqlite.seconds / floor:.2f}")
    if args.postgres:
        with postgres(work / "pg") as url:
            for workers in (2, 4):
                print(f"PostgreSQL, {workers} workers:", flush=True)
                pg = wave(work / f"pg{workers}", args.games, workers, fresh_database(url, f"wave{workers}"))
                # the machine may be shared: each ratio is to a floor measured right beside its wave
                beside = wave_floor.run(pg.mails, args.games, 2, work)
                print(f"floor:   {beside:.1f} s (measured again beside this wave)", flush=True)
                results.append(f"PostgreSQL {workers} workers: {pg.seconds:.1f} s, floor {beside:.1f} s, "
                               f"ratio {pg.seconds / beside:.2f}")
    for line in results:
        print(line)
    if args.dir is None:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wave: {sqlite.seconds:.1f} s, floor: {floor:.1f} s, ratio {sqlite.seconds / floor:.2f}, "
          f"peak {peak_mb():.0f} MB")


if __name__ == "__main__":
    main()
