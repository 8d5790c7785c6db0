"""How much CPU a command costs before it answers: `pbem games` in a fresh home (one `pbem init`,
no game), against `python3 -c pass` measured in the same run.

Each command runs in a process of its own, `--runs` times; the figure is the median of the
children's user + system CPU (resource.getrusage), so other load on the machine counts less than
it would in wall time. A command imports what it needs when it needs it: a fresh home's
`pbem games` reads the store with the standard library and loads none of SQLAlchemy, the
templates or the games.

Usage: python benchmarks/cli_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    """The CPU seconds (user + system) of one run of `args`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        subprocess.run([sys.executable, "-m", "pbem", "init", str(home)], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        figures = {}
        for name, args in (("python3 -c pass", [sys.executable, "-c", "pass"]),
                           ("pbem games (fresh home)", [sys.executable, "-m", "pbem", "games"]),
                           ("pbem --help", [sys.executable, "-m", "pbem", "--help"])):
            figures[name] = statistics.median(cpu(args, home, env) for _ in range(runs))
    base = figures["python3 -c pass"]
    for name, seconds in figures.items():
        print(f"{name:<26} {seconds:6.3f} s CPU  ({seconds / base:4.1f} x python3 -c pass)")


if __name__ == "__main__":
    main()
