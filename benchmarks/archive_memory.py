"""The archive's memory against a game's length: a run's peak must not grow with the turns.

For each length, a store with one hare-tortoise game of that many resolved turns (default moves,
no mail drawn) is made in a temporary folder; then `pbem archive` builds its site in a process of
its own, once from nothing and once more after a change that rewrites every turn page. Prints,
per length: the site's files and size, the Python heap's peak while building (tracemalloc), the
process's peak RSS and the time. The archive reads a few turns at a time and writes each file as
it is made, so the peaks stay flat while the site grows with the turns.

Usage: python benchmarks/archive_memory.py [--turns 100 300 1000] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

_CHILD = """
import json, resource, sys, time, tracemalloc
from pathlib import Path
from pbem.archive import Settings, build_archive
from pbem.config import load_config
from pbem.moderator import Moderator

root = Path(sys.argv[1])
m = Moderator(load_config(root / "pbem.toml"))
figures = []
for hold in (frozenset(), frozenset({"long"})):  # from nothing; then every turn page rewritten
    tracemalloc.start()
    start = time.perf_counter()
    report = build_archive(m, root / "site", settings=Settings(hold_orders=hold))
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    figures.append({"files": report.files, "bytes": report.bytes, "written": len(report.written),
                    "heap": peak, "seconds": seconds})
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"runs": figures, "rss": rss}))
"""


def make_store(root: Path, turns: int) -> None:
    """A GM's folder with the game `long`, resolved `turns` times on the default moves."""
    from pbem.config import load_config, write_config
    from pbem.moderator import Moderator, PlayerSpec

    write_config(root, address="gm@pbem.example")
    moment = [datetime(2026, 1, 1, tzinfo=timezone.utc)]
    m = Moderator(load_config(root / "pbem.toml"), now=lambda: moment[0])
    m.store.create()
    m.new_game("long", game="hare-tortoise", rules=None, seed=5, deadline="7d",
               players=[PlayerSpec("Ann", "ann@example.org", "AAA-111"), PlayerSpec("Bob", "bob@example.net", "BBB-222")])
    m.render_turn = lambda *_: []  # type: ignore[method-assign]  # the archive reads no mail
    for _ in range(turns):
        moment[0] += timedelta(hours=1)
        m.resolve("long", force=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--dir", type=Path, default=None, help="Keep the stores and sites here.")
    args = parser.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="pbem-archive-memory-"))
    print(f"{'turns':>6} {'files':>6} {'site MB':>8} {'heap MB':>8} {'again MB':>9} {'RSS MB':>7} {'s':>6} {'again s':>8}")
    for turns in args.turns:
        root = base / f"turns-{turns}"
        started = time.perf_counter()
        make_store(root, turns)
        made = time.perf_counter() - started
        out = subprocess.run([sys.executable, "-c", _CHILD, str(root)], check=True, capture_output=True, text=True)
        data = json.loads(out.stdout.strip().splitlines()[-1])
        first, again = data["runs"]
        print(f"{turns:>6} {first['files']:>6} {first['bytes'] / 1e6:>8.1f} {first['heap'] / 1e6:>8.1f} "
              f"{again['heap'] / 1e6:>9.1f} {data['rss'] / 1e6:>7.0f} {first['seconds']:>6.1f} {again['seconds']:>8.1f}"
              f"   (store made in {made:.0f} s)")


if __name__ == "__main__":
    main()
