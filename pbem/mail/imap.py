"""Orders in over IMAP (imapclient): fetch by UID, keep, and only then flag as seen."""

from __future__ import annotations

import logging
import ssl as ssl_module
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


class ImapInbox:
    """A mailbox pbem reads orders from. Every message is handed to `keep` (which stores and
    commits it) before it is flagged \\Seen on the server, so a crash in between at worst
    fetches it again — and the Message-ID check makes that harmless."""

    def __init__(self, settings: ImapSettings) -> None:
        self.settings = settings
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
        """Hand every unseen message to `keep`, then flag it seen; reconnect when the line drops."""
        done = 0
        for attempt in range(retries):
            try:
                return done + self._fetch_unseen(keep)
            except (TimeoutError, OSError, IMAPClientError) as err:
                log.warning("IMAP connection lost (%s); reconnecting (attempt %d of %d)", err, attempt + 1, retries)
                self._drop()
                time.sleep(min(2**attempt * 0.2, 5))
        return done + self._fetch_unseen(keep)

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                client.shutdown()
            except (OSError, IMAPClientError):
                pass

    def _fetch_unseen(self, keep: Callable[[int, bytes], None]) -> int:
        client = self.connect()
        uids = sorted(client.search(["UNSEEN"]))
        count = 0
        for start in range(0, len(uids), BATCH):
            batch = uids[start : start + BATCH]
            fetched = client.fetch(batch, [b"BODY.PEEK[]"])
            kept = []
            for uid in batch:
                data = fetched.get(uid)
                if not data or b"BODY[]" not in data:
                    continue
                keep(uid, bytes(data[b"BODY[]"]))
                kept.append(uid)
            if kept:
                # .SILENT: no untagged FETCH (FLAGS) reply per message to read and parse
                client.add_flags(kept, [b"\\Seen"], silent=True)
            count += len(kept)
        return count

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
