"""The embedded transport: every outgoing mail becomes an .eml file in the outbox folder."""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path


def eml_name(mail_id: int, kind: str, recipient: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9@._-]+", "_", recipient)
    return f"{mail_id:06d}-{kind}-{safe}.eml"


def write_emls(folder: Path, mails: Sequence[tuple[str, bytes]]) -> list[Path]:
    """Write many mails, given as (name, bytes), each atomically, all durable on return.

    The files are written under temporary names, made durable together, renamed, and the
    renames made durable: on Linux two flushes of the file system for the whole batch
    (`syncfs`), instead of one flush per mail. An OSError leaves no temporary file behind;
    the mails renamed before it may stay, and are written again the same when retried.
    """
    folder.mkdir(parents=True, exist_ok=True)
    tmps: list[Path] = []
    try:
        for name, raw in mails:
            tmp = folder / f".{name}.tmp"
            tmps.append(tmp)
            with open(tmp, "wb") as fh:
                fh.write(raw)
        _make_durable(folder, tmps)
        paths = []
        for tmp, (name, _) in zip(tmps, mails, strict=True):
            os.replace(tmp, folder / name)
            paths.append(folder / name)
        _make_durable(folder, [])
    except OSError:
        for tmp in tmps:
            tmp.unlink(missing_ok=True)
        raise
    return paths


def _syncfs() -> object:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return getattr(ctypes.CDLL(None, use_errno=True), "syncfs", None)
    except OSError:
        return None


_SYNCFS = _syncfs()


def _make_durable(folder: Path, files: Sequence[Path]) -> None:
    """`files` in `folder` and the folder's entries on disk: with one `syncfs` of the file system
    where there is one, else with an fsync of each file and of the folder."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        if callable(_SYNCFS):
            if _SYNCFS(fd) != 0:
                err = ctypes.get_errno()
                raise OSError(err, os.strerror(err), str(folder))
            return
        for path in files:
            with open(path, "rb") as fh:
                os.fsync(fh.fileno())
        os.fsync(fd)
    finally:
        os.close(fd)
