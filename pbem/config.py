"""pbem.toml: where the store, the inbox and the outbox are, and who the moderator is."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.errors import PbemError

CONFIG_NAME = "pbem.toml"

TEMPLATE = """\
# pbem configuration — written by `pbem init`; edit freely.
# Relative paths are relative to this file. Commands find it by --config FILE,
# then $PBEM_CONFIG, then ./pbem.toml.

[moderator]
# The address players send their orders to; every mail pbem sends comes from it.
address = "{address}"
# The display name on pbem's mail.
name = "{name}"
# At most this many automatic replies (acknowledgements, refusals) to one address an hour,
# so that no mail loop can start with another robot.
max_replies_per_hour = 20

[database]
# SQLite by default. For PostgreSQL: "postgresql+psycopg://user:password@host/dbname".
url = "sqlite:///pbem.sqlite"

[inbox]
# A Maildir (cur/ new/ tmp/) that `pbem ingest` reads when given no paths.
maildir = "inbox"

[outbox]
# Every outgoing mail is written here at once as an .eml file (unless [smtp] is set).
folder = "outbox"

[reminders]
# `pbem run` reminds players without orders this long before each deadline.
before = ["48h", "6h"]

# Real mail: uncomment to fetch orders over IMAP and send mail over SMTP.
# [imap]
# host = "imap.example.org"
# port = 993
# user = "gm@example.org"
# password = "..."
# folder = "INBOX"
# ssl = "tls"            # "none", "starttls" or "tls"
#
# [smtp]
# host = "smtp.example.org"
# port = 587
# user = "gm@example.org"
# password = "..."
# from = "gm@example.org"
# ssl = "starttls"
"""


@dataclass(frozen=True)
class Config:
    path: Path
    address: str
    name: str
    database_url: str
    maildir: Path
    outbox: Path
    imap: dict[str, Any] = field(default_factory=dict)
    smtp: dict[str, Any] = field(default_factory=dict)
    reminders: tuple[str, ...] = ("48h", "6h")
    max_replies_per_hour: int = 20

    @property
    def base(self) -> Path:
        return self.path.parent


def _sqlite_url(url: str, base: Path) -> str:
    """Make a relative SQLite path relative to the config file."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != "sqlite://":
        return prefix + str((base / url[len(prefix):]).resolve())
    return url


def load_config(path: Path | None = None) -> Config:
    """Read the config from `path`, $PBEM_CONFIG or ./pbem.toml."""
    if path is None:
        env = os.environ.get("PBEM_CONFIG")
        path = Path(env) if env else Path.cwd() / CONFIG_NAME
    if not path.is_file():
        raise PbemError(
            f"no pbem configuration at {path}: run `pbem init DIR` first, then run pbem in DIR, "
            "or name the file with --config FILE or $PBEM_CONFIG"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise PbemError(f"{path} is not valid TOML: {err}") from None
    base = path.resolve().parent
    mod = data.get("moderator", {})
    return Config(
        path=path.resolve(),
        address=str(mod.get("address", "gm@pbem.invalid")),
        name=str(mod.get("name", "pbem")),
        database_url=_sqlite_url(str(data.get("database", {}).get("url", "sqlite:///pbem.sqlite")), base),
        maildir=base / str(data.get("inbox", {}).get("maildir", "inbox")),
        outbox=base / str(data.get("outbox", {}).get("folder", "outbox")),
        imap=dict(data.get("imap", {})),
        smtp=dict(data.get("smtp", {})),
        reminders=tuple(str(x) for x in data.get("reminders", {}).get("before", ("48h", "6h"))),
        max_replies_per_hour=int(mod.get("max_replies_per_hour", 20)),
    )


def write_config(directory: Path, *, address: str = "gm@pbem.example", name: str = "pbem") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / CONFIG_NAME
    if path.exists():
        raise PbemError(f"{path} already exists; pbem init leaves an existing setup alone")
    path.write_text(TEMPLATE.format(address=address, name=name), encoding="utf-8")
    for sub in ("cur", "new", "tmp"):
        (directory / "inbox" / sub).mkdir(parents=True, exist_ok=True)
    (directory / "outbox").mkdir(exist_ok=True)
    return path
