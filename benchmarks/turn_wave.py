"""A turn wave on the embedded default: 1,000 running 6-player games on SQLite.

Stages: ingest 6,000 order mails (one per player), resolve 1,000 turns, and render the 6,000
player reports with their board pictures (plus the GM's). Prints each stage's throughput, the
total time and the peak memory (RSS). Target on a 2-core machine: the whole wave in at most
120 s, peak memory at most 300 MB.

Each stage runs in --workers processes (default 2, one per core), as several `pbem run`
workers would share one store; SQLite in WAL mode takes their transactions one at a time.

Usage: python benchmarks/turn_wave.py [--games N] [--workers N] [--dir DIR]
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import shutil
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TypeVar

from pbem.config import load_config, write_config
from pbem.moderator import Moderator, PlayerSpec

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


def _moderator(config: Path, at: datetime) -> Moderator:
    return Moderator(load_config(config), now=lambda: at)


def _ingest_slice(config: Path, mails: list[bytes], first: int) -> dict[str, int]:
    m = _moderator(config, CLOCK)
    statuses: dict[str, int] = {}
    for result in m.ingest_many((raw, f"wave/{first + n}") for n, raw in enumerate(mails)):
        statuses[result.status] = statuses.get(result.status, 0) + 1
    m.store.engine.dispose()
    return statuses


def _resolve_slice(config: Path, games: list[str]) -> int:
    m = _moderator(config, CLOCK + timedelta(hours=2))
    reports = sum(m.resolve(name).mails for name in games)
    m.store.engine.dispose()
    return reports


def _split(items: list[T], parts: int) -> list[list[T]]:
    return [items[k::parts] for k in range(parts)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2, help="Processes per stage (default 2).")
    parser.add_argument("--dir", type=Path, default=None, help="Work folder (default: a temporary one).")
    args = parser.parse_args()
    work = args.dir or Path(tempfile.mkdtemp(prefix="pbem-wave-"))
    if (work / "pbem.toml").exists():
        shutil.rmtree(work)
    m = Moderator(load_config(write_config(work)), now=lambda: CLOCK)
    m.store.create()
    rng = random.Random(1)
    print(f"setting up {args.games} games in {work} ...", flush=True)
    t0 = time.perf_counter()
    mails: list[bytes] = []
    for g in range(args.games):
        name = f"wave-{g:04d}"
        players = [PlayerSpec(n, f"{n.lower()}{g}@example.org", f"S{g:04d}-{i}") for i, n in enumerate(NAMES)]
        m.new_game(name, game="hare-tortoise", rules=None, players=players, seed=g, deadline="7d")
        mails += [order_mail(name, p.name, p.email, p.secret or "", g * 6 + i, rng) for i, p in enumerate(players)]
    print(f"setup: {time.perf_counter() - t0:.1f} s (not part of the wave)", flush=True)

    config = m.config.path
    m.store.engine.dispose()  # the workers open their own connections
    pool = multiprocessing.get_context("fork").Pool(args.workers)
    start = time.perf_counter()
    t = time.perf_counter()
    statuses: dict[str, int] = {}
    slices = _split(mails, args.workers)
    for part in pool.starmap(_ingest_slice, [(config, s, k) for k, s in enumerate(slices)]):
        for key, value in part.items():
            statuses[key] = statuses.get(key, 0) + value
    ingest_s = time.perf_counter() - t
    print(f"ingest:  {len(mails)} mails in {ingest_s:.1f} s = {len(mails) / ingest_s:,.0f} mails/s {statuses}",
          flush=True)

    t = time.perf_counter()
    names = [f"wave-{g:04d}" for g in range(args.games)]
    reports = sum(pool.starmap(_resolve_slice, [(config, s) for s in _split(names, args.workers)]))
    resolve_s = time.perf_counter() - t
    pool.close()
    pool.join()
    print(f"resolve+render: {args.games} turns, {reports} reports with pictures in {resolve_s:.1f} s = "
          f"{args.games / resolve_s:,.1f} turns/s, {reports / resolve_s:,.0f} reports/s", flush=True)
    total = time.perf_counter() - start
    print(f"total:   {total:.1f} s for the wave (target 120 s); peak memory {peak_mb():.0f} MB (target 300 MB)")
    if args.dir is None:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
