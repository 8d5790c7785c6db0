"""Crash points for the fault tests: `PBEM_CRASH_AT=<name>` kills the process right there.

A moderator that runs for months will be killed at the worst moment sooner or later; the tests
kill it at each of these points and check that a rerun completes with nothing lost or doubled.
"""

from __future__ import annotations

import os

POINTS = (
    "after-store-raw",  # the raw message is committed; the pipeline has not run
    "after-intake",  # the message is processed and committed; not yet flagged \\Seen on IMAP
    "before-resolve-commit",  # the turn is resolved in memory; nothing committed
    "after-resolve-commit",  # the turn and its mail are committed; nothing sent
    "after-claim",  # outgoing mail is claimed by this worker; nothing sent
)


def checkpoint(name: str) -> None:
    if os.environ.get("PBEM_CRASH_AT") == name:
        os._exit(86)
