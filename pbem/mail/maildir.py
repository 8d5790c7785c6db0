"""Order mails from files: a Maildir, a folder of .eml files or one file, read one at a time."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: the Maildir flag pbem sets on a message it has taken in (and mail programs on one they showed)
SEEN = "S"


@dataclass(frozen=True)
class MailFile:
    """One mail on disk, not yet read: its bytes are read when asked for, so a run holds one
    message in memory at a time. `maildir` is set when the file is in a Maildir's new/ or cur/,
    where a message taken in is marked seen (moved to cur/ with the S flag)."""

    path: Path
    maildir: Path | None = None

    @property
    def name(self) -> str:
        return self.path.name

    def read(self) -> bytes | None:
        """The message's bytes; None when it is gone (another pbem took it in and moved it)."""
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None

    def mark_seen(self) -> bool:
        """Maildir only: move the message to cur/ with the S flag. False when it is gone (another
        pbem moved it first); True, changing nothing, for a file outside a Maildir."""
        if self.maildir is None:
            return True
        try:
            os.rename(self.path, self.maildir / "cur" / seen_name(self.path.name))
        except FileNotFoundError:
            return False
        return True


def seen_name(name: str) -> str:
    """The Maildir file name with the S flag added: "1700.1.host" -> "1700.1.host:2,S",
    "1700.1.host:2,FR" -> "1700.1.host:2,FRS" (flags are kept in ASCII order)."""
    base, sep, flags = name.partition(":2,")
    if not sep:
        return f"{name}:2,{SEEN}"
    return f"{base}:2,{''.join(sorted(set(flags) | {SEEN}))}"


def is_seen(name: str) -> bool:
    """A cur/ file name that carries the S flag ("...:2,S", "...:2,RS")."""
    _base, sep, flags = name.partition(":2,")
    return bool(sep) and SEEN in flags


def is_maildir(path: Path) -> bool:
    return all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))


def _names(directory: Path) -> list[str]:
    """The file names in a directory, sorted; hidden ones (".dovecot...", ".nfs...") left out.
    Only names are listed: no file is opened."""
    try:
        return sorted(n for n in os.listdir(directory) if not n.startswith("."))
    except FileNotFoundError:
        return []


def maildir_messages(maildir: Path) -> Iterator[MailFile]:
    """The messages of a Maildir not taken in yet: every file of new/, and those of cur/
    without the S flag (a mail program moves new mail to cur/ when it lists it). A message
    taken in is in cur/ with the S flag and is skipped by its name alone, unread."""
    for name in _names(maildir / "new"):
        yield MailFile(maildir / "new" / name, maildir)
    for name in _names(maildir / "cur"):
        if not is_seen(name):
            yield MailFile(maildir / "cur" / name, maildir)


def folder_messages(folder: Path) -> Iterator[MailFile]:
    """Every file of a plain folder (of .eml files), in name order; it is not marked afterwards."""
    for name in _names(folder):
        path = folder / name
        if path.is_file():
            yield MailFile(path)


def mail_files(path: Path) -> Iterator[MailFile]:
    """The messages at `path`: a Maildir, a folder of mails, or one mail file."""
    if path.is_dir():
        yield from maildir_messages(path) if is_maildir(path) else folder_messages(path)
    else:
        yield MailFile(path)
