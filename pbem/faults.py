"""Crash and pause points for the fault tests: `PBEM_CRASH_AT` kills the process there, `PBEM_PAUSE_AT` holds it.

A moderator that runs for months will be killed at the worst moment sooner or later; the tests
kill it at each of these points and check that a rerun completes with nothing lost or doubled.
Races are placed the same way: `PBEM_PAUSE_AT=<name>` with `PBEM_PAUSE_DIR=<folder>` makes the
process write `<folder>/<name>.reached` at the point and wait there until `<folder>/<name>.go`
exists, so a test can run another process at exactly that moment.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

POINTS = (
    "after-store-raw",  # the raw message is committed; the pipeline has not run
    "before-store-sheet",  # the sheet is read and its acknowledgement written; nothing stored
    "after-intake",  # the message is processed and committed; not yet flagged \\Seen on IMAP
    "after-gather",  # the turn's sheets are read; nothing written, no lock held on SQLite
    "after-first-write",  # the resolution holds the write lock; the sheets not yet read again
    "before-resolve-commit",  # the turn is resolved in memory; nothing committed
    "after-resolve-commit",  # the turn and its mail are committed; nothing sent
    "after-claim",  # outgoing mail is claimed by this worker; nothing sent
)

#: how long a paused process waits for its go-ahead before it goes on regardless (a test that
#: died must not leave a moderator hanging)
PAUSE_LIMIT = 120.0


def checkpoint(name: str) -> None:
    if os.environ.get("PBEM_CRASH_AT") == name:
        os._exit(86)
    if os.environ.get("PBEM_PAUSE_AT") == name:
        _pause(Path(os.environ.get("PBEM_PAUSE_DIR", ".")), name)


def _pause(folder: Path, name: str) -> None:
    go = folder / f"{name}.go"
    if go.exists():
        return  # released already: a point passed again (a resolution that starts over) does not wait
    (folder / f"{name}.reached").touch()
    give_up = time.monotonic() + PAUSE_LIMIT
    while not go.exists() and time.monotonic() < give_up:
        time.sleep(0.005)
