"""The embedded transport: every outgoing mail becomes an .eml file in the outbox folder."""

from __future__ import annotations

import os
import re
from pathlib import Path


def eml_name(mail_id: int, kind: str, recipient: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9@._-]+", "_", recipient)
    return f"{mail_id:06d}-{kind}-{safe}.eml"


def write_eml(folder: Path, name: str, raw: bytes) -> Path:
    """Write atomically (temporary file, then rename): a reader never sees half a mail."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    tmp = folder / f".{name}.tmp"
    with open(tmp, "wb") as fh:
        fh.write(raw)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path
