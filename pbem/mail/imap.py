"""Orders in over IMAP (imapclient): fetch by UID past a kept cursor, keep, then flag as seen."""

from __future__ import annotations

import logging
import ssl as ssl_module
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from pbem.errors import PbemError

log = logging.getLogger("pbem.imap")

#: messages fetched per FETCH command: one round trip for many messages
BATCH = 200


@dataclass(frozen=True)
class ImapSettings:
    host: str
    port: int
    user: str
    password: str
    folder: str = "INBOX"
    ssl: str = "tls"  # "none", "starttls" or "tls"
    timeout: float = 30.0

    @classmethod
    def from_config(cls, table: dict[str, Any]) -> ImapSettings:
        missing = [k for k in ("host", "user", "password") if not table.get(k)]
        if missing:
            raise PbemError(f"[imap] in pbem.toml needs {', '.join(missing)}")
        mode = str(table.get("ssl", "tls")).lower()
        if mode not in ("none", "starttls", "tls"):
            raise PbemError(f"[imap] ssl = {mode!r}: use \"none\", \"starttls\" or \"tls\"")
        port = int(table.get("port", 993 if mode == "tls" else 143))
        return cls(str(table["host"]), port, str(table["user"]), str(table["password"]),
                   str(table.get("folder", "INBOX")), mode)

    @property
    def account(self) -> str:
        return f"{self.user}@{self.host}"


@dataclass(frozen=True)
class Cursor:
    """How far a folder has been read: every message up to `last_uid` is taken in, as long as
    the folder's UIDVALIDITY is `uidvalidity` (when it changes, UIDs start over)."""

    uidvalidity: int
    last_uid: int


class CursorStore(Protocol):
    """Where an inbox keeps its cursor between rounds (the store, in `pbem run`)."""

    def load(self) -> Cursor | None: ...

    def save(self, cursor: Cursor) -> None: ...


class MemoryCursor:
    """A cursor kept for the life of the process only."""

    def __init__(self) -> None:
        self.cursor: Cursor | None = None

    def load(self) -> Cursor | None:
        return self.cursor

    def save(self, cursor: Cursor) -> None:
        self.cursor = cursor


class ImapInbox:
    """A mailbox pbem reads orders from.

    \\Seen is not trusted: a GM who opens the mailbox in a mail program marks orders read. The
    inbox fetches every message past its cursor (the highest UID taken in) and hands each to
    `keep` (which stores and commits it); only then is the cursor moved past it and the message
    flagged \\Seen, as a courtesy. A crash in between at worst fetches it again, and the
    Message-ID check makes that harmless. When the folder's UIDVALIDITY changes (the folder
    was recreated or restored), the whole folder is read again, with the same safety net."""

    def __init__(self, settings: ImapSettings, cursors: CursorStore | None = None) -> None:
        self.settings = settings
        self.cursors: CursorStore = cursors if cursors is not None else MemoryCursor()
        self._client: IMAPClient | None = None

    # connection --------------------------------------------------------------------------
    def connect(self) -> IMAPClient:
        if self._client is not None:
            return self._client
        s = self.settings
        # Only when TLS is used: loading the system's CA certificates takes ~30 ms.
        context = ssl_module.create_default_context() if s.ssl != "none" else None
        try:
            client = IMAPClient(s.host, port=s.port, ssl=s.ssl == "tls",
                                ssl_context=context if s.ssl == "tls" else None,
                                timeout=s.timeout)
            if s.ssl == "starttls":
                client.starttls(context)
            client.login(s.user, s.password)
            client.select_folder(s.folder)
        except (OSError, IMAPClientError) as err:
            raise PbemError(f"cannot read mail from {s.user}@{s.host}:{s.port} ({s.folder}): {err}") from err
        self._client = client
        return client

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.logout()
            except (OSError, IMAPClientError):
                pass

    # fetching ----------------------------------------------------------------------------
    def fetch_new(self, keep: Callable[[int, bytes], None], *, retries: int = 3) -> int:
        """Hand every message past the cursor to `keep`, then flag it seen; reconnect when the
        line drops."""
        done = [0]  # counted as messages are kept: a reconnect goes on from the cursor
        for attempt in range(retries):
            try:
                self._fetch_past_cursor(keep, done)
                return done[0]
            except (TimeoutError, OSError, IMAPClientError) as err:
                log.warning("IMAP connection lost (%s); reconnecting (attempt %d of %d)", err, attempt + 1, retries)
                self._drop()
                time.sleep(min(2**attempt * 0.2, 5))
        self._fetch_past_cursor(keep, done)
        return done[0]

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.shutdown()
            except (OSError, IMAPClientError):
                pass

    def _start(self, client: IMAPClient) -> Cursor:
        """Select the folder afresh (its UIDVALIDITY now) and say where to read from."""
        info = client.select_folder(self.settings.folder)
        validity = int(info[b"UIDVALIDITY"])
        cursor = self.cursors.load()
        if cursor is not None and cursor.uidvalidity == validity:
            return cursor
        if cursor is not None:
            log.warning("%s: UIDVALIDITY changed from %d to %d (the folder was recreated or restored); "
                        "reading all of it again — Message-IDs already taken in are skipped",
                        self.settings.folder, cursor.uidvalidity, validity)
        cursor = Cursor(validity, 0)
        self.cursors.save(cursor)
        return cursor

    def _fetch_past_cursor(self, keep: Callable[[int, bytes], None], done: list[int]) -> None:
        client = self.connect()
        cursor = self._start(client)
        # "UID n:*" always matches the last message, even when its UID is below n: filter
        uids = sorted(uid for uid in client.search(["UID", f"{cursor.last_uid + 1}:*"]) if uid > cursor.last_uid)
        for start in range(0, len(uids), BATCH):
            batch = uids[start : start + BATCH]
            fetched = client.fetch(batch, [b"BODY.PEEK[]"])
            kept = []
            for uid in batch:
                data = fetched.get(uid)
                if not data or b"BODY[]" not in data:
                    continue  # expunged since the search
                keep(uid, bytes(data[b"BODY[]"]))
                # only now, the message being stored: the cursor moves past it
                cursor = Cursor(cursor.uidvalidity, uid)
                self.cursors.save(cursor)
                kept.append(uid)
                done[0] += 1
            if kept:
                # a courtesy to the GM's mail program; pbem itself goes by the cursor.
                # .SILENT: no untagged FETCH (FLAGS) reply per message to read and parse
                client.add_flags(kept, [b"\\Seen"], silent=True)

    def wait(self, seconds: float) -> None:
        """Wait for new mail: IDLE where the server offers it, else sleep (polling)."""
        try:
            client = self.connect()
            if b"IDLE" in client.capabilities():
                client.idle()
                try:
                    client.idle_check(timeout=seconds)
                finally:
                    client.idle_done()
                return
        except (OSError, IMAPClientError) as err:
            log.warning("IMAP wait failed (%s); polling", err)
            self._drop()
        time.sleep(seconds)
