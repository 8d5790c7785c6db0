"""pbem.toml: where the store, the inbox and the outbox are, and who the moderator is."""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pbem.clock import require_span
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
# VACATION days a player may take in one game, and PRESS messages a player may send a day.
vacation_days = 14
press_per_day = 5
# SUGGEST (a computer player's search) and PREVIEW answers a player may have in one game a day.
suggest_per_day = 5
preview_per_day = 20
# A replacement player gets at least this long before the current deadline (`pbem replace`).
takeover = "3d"

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

# The public archive: uncomment for `pbem run` to refresh a static website of every game
# (HTML, JSON, Atom) in this folder after each resolution; `pbem archive DIR` writes one by hand.
# [archive]
# dir = "site"
# hold_orders = ["race-7"]   # games whose orders stay hidden until they end ("*": every game)
# url = "https://example.org/games/"   # where the site is published (absolute links in the feeds)

# Real mail: uncomment to fetch orders over IMAP and send mail over SMTP.
# Instead of password, a table may name where the password is kept: exactly one of
# password = "...", password_env = "PBEM_IMAP_PASSWORD" (an environment variable) or
# password_file = "/etc/pbem/imap-password" (its first line; relative to this file).
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
    reply_to_strangers: bool = False
    strangers_per_hour: int = 20
    authserv_id: str | None = None
    max_mail_bytes: int = 5 * 1024 * 1024
    archive_dir: Path | None = None  # `pbem run` refreshes the public archive here
    archive_hold_orders: tuple[str, ...] = ()
    archive_url: str = ""
    vacation_days: int = 14
    press_per_day: int = 5
    suggest_per_day: int = 5
    preview_per_day: int = 20
    takeover: str = "3d"

    @property
    def base(self) -> Path:
        return self.path.parent


# ---------------------------------------------------------------------------------------------- schema


@dataclass(frozen=True)
class Key:
    """One key of a table: the TOML type it takes, an example, and a check of its value."""

    kind: Literal["string", "integer", "boolean", "spans", "strings"]  # spans: a list of spans such as "48h"
    example: str
    check: Callable[[Any], str | None] | None = None  # what is wrong with the value, or None


def _positive(value: int) -> str | None:
    return None if value > 0 else "must be a positive whole number"


def _non_negative(value: int) -> str | None:
    return None if value >= 0 else "must be a whole number, 0 or more"


def _span(value: str) -> str | None:
    from pbem.clock import require_span

    try:
        require_span(value, "takeover")
    except PbemError as err:
        return str(err)
    return None


def _port(value: int) -> str | None:
    return None if 0 < value < 65536 else "must be a port number from 1 to 65535"


def _ssl(value: str) -> str | None:
    return None if value.lower() in ("none", "starttls", "tls") else 'must be "none", "starttls" or "tls"'


_PASSWORD_KEYS = ("password", "password_env", "password_file")
_MAIL_KEYS = {
    "host": Key("string", 'host = "mail.example.org"'),
    "port": Key("integer", "port = 993", _port),
    "user": Key("string", 'user = "gm@example.org"'),
    "password": Key("string", 'password = "app-password"'),
    "password_env": Key("string", 'password_env = "PBEM_MAIL_PASSWORD"'),
    "password_file": Key("string", 'password_file = "/etc/pbem/password"'),
    "ssl": Key("string", 'ssl = "tls"', _ssl),
}

SCHEMA: dict[str, dict[str, Key]] = {
    "moderator": {
        "address": Key("string", 'address = "gm@example.org"'),
        "name": Key("string", 'name = "pbem"'),
        "max_replies_per_hour": Key("integer", "max_replies_per_hour = 20", _positive),
        "reply_to_strangers": Key("boolean", "reply_to_strangers = false"),
        "strangers_per_hour": Key("integer", "strangers_per_hour = 20", _positive),
        "authserv_id": Key("string", 'authserv_id = "mx.example.org"'),
        "max_mail_kb": Key("integer", "max_mail_kb = 5120", _positive),
        "vacation_days": Key("integer", "vacation_days = 14", _non_negative),
        "press_per_day": Key("integer", "press_per_day = 5", _non_negative),
        "suggest_per_day": Key("integer", "suggest_per_day = 5", _non_negative),
        "preview_per_day": Key("integer", "preview_per_day = 20", _non_negative),
        "takeover": Key("string", 'takeover = "3d"', _span),
    },
    "database": {"url": Key("string", 'url = "sqlite:///pbem.sqlite"')},
    "inbox": {"maildir": Key("string", 'maildir = "inbox"')},
    "outbox": {"folder": Key("string", 'folder = "outbox"')},
    "reminders": {"before": Key("spans", 'before = ["48h", "6h"]')},
    "imap": {**_MAIL_KEYS, "folder": Key("string", 'folder = "INBOX"')},
    "smtp": {**_MAIL_KEYS, "port": Key("integer", "port = 587", _port),
             "from": Key("string", 'from = "gm@example.org"')},
    "archive": {"dir": Key("string", 'dir = "site"'),
                "hold_orders": Key("strings", 'hold_orders = ["race-7"]'),
                "url": Key("string", 'url = "https://example.org/games/"')},
}
"""Every table and key pbem.toml may have; anything else is a mistake pbem names."""

_KIND_NAMES = {"string": "a string (in quotes)", "integer": "a whole number (no quotes)", "boolean": "true or false",
               "spans": 'a list of spans in quotes, e.g. ["48h", "6h"]',
               "strings": 'a list of strings in quotes, e.g. ["race-7"]'}


def _found(value: Any, *, secret: bool = False) -> str:
    """What a TOML value is, for an error message: "the string '587'", "a table" ("a whole number"
    for a secret, whose value an error message must not show)."""
    if secret:
        kinds = {bool: "a boolean", int: "a whole number", float: "a number", list: "a list", dict: "a table"}
        return kinds.get(type(value), f"a {type(value).__name__}")
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, int):
        return f"the whole number {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"the list {value!r}"
    return f"the {type(value).__name__} {value}"


def _tables() -> str:
    return ", ".join(f"[{t}]" for t in SCHEMA)


def _nearest(word: str, known: list[str]) -> str | None:
    found = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return found[0] if found else None


def _unknown_key(table: str, key: str) -> str:
    known = list(SCHEMA[table])
    near = _nearest(key, known)
    if near is not None:
        return f"unknown key {key!r} in [{table}] — did you mean {near!r}?"
    elsewhere = [t for t, keys in SCHEMA.items() if key in keys]
    if elsewhere:
        return f"unknown key {key!r} in [{table}] — it belongs in [{elsewhere[0]}]"
    return f"unknown key {key!r} in [{table}]; the keys of [{table}] are {', '.join(known)}"


def _check_value(table: str, key: str, value: Any) -> str | None:
    spec = SCHEMA[table][key]
    if spec.kind == "string":
        ok = isinstance(value, str)
    elif spec.kind == "integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif spec.kind == "boolean":
        ok = isinstance(value, bool)
    else:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    if not ok:
        return (f"[{table}] {key} must be {_KIND_NAMES[spec.kind]}, not {_found(value, secret=key == 'password')}; "
                f"write it like {spec.example}")
    if spec.kind == "spans":
        for text in value:
            try:
                require_span(text, f"[{table}] {key}:")
            except PbemError as err:
                return str(err)
        return None
    problem = spec.check(value) if spec.check is not None else None
    if problem is not None:
        return f"[{table}] {key} {problem}, not {value!r}; write it like {spec.example}"
    return None


def validate(data: dict[str, Any]) -> list[str]:
    """Every problem with a parsed pbem.toml against SCHEMA, as messages that say how to fix it."""
    problems: list[str] = []
    tables = list(SCHEMA)
    for name, table in data.items():
        if name not in SCHEMA:
            if not isinstance(table, dict):
                owners = [t for t, keys in SCHEMA.items() if name in keys]
                hint = f"put it under [{owners[0]}]" if owners else f"the tables are {_tables()}"
                problems.append(f"unknown key {name!r} outside any table — {hint}")
                continue
            near = _nearest(name, tables)
            hint = f"did you mean [{near}]?" if near else f"the tables are {_tables()}"
            problems.append(f"unknown table [{name}] — {hint}")
            continue
        if not isinstance(table, dict):
            problems.append(f"{name} must be a table ([{name}] on a line of its own, its keys below it), "
                            f"not {_found(table)}")
            continue
        unknown = [key for key in table if key not in SCHEMA[name]]
        problems.extend(_unknown_key(name, key) for key in unknown)
        for key, value in table.items():
            if key in unknown:
                continue
            problem = _check_value(name, key, value)
            if problem is not None:
                problems.append(problem)
        if name in ("imap", "smtp"):
            given = [k for k in _PASSWORD_KEYS if k in table]
            if len(given) > 1:
                problems.append(f"[{name}] has {' and '.join(given)}: give exactly one of password, password_env "
                                "(the name of an environment variable) or password_file (a file that holds it)")
            elif not given and not unknown and (name == "imap" or table.get("user")):
                problems.append(f"[{name}] needs a password: add password = \"...\", "
                                f"password_env = \"PBEM_{name.upper()}_PASSWORD\" or password_file = \"/path\"")
    return problems


def _password(table_name: str, table: dict[str, Any], base: Path) -> dict[str, Any]:
    """The table with password_env or password_file replaced by the password itself."""
    table = dict(table)
    env_name = table.pop("password_env", None)
    file_name = table.pop("password_file", None)
    if env_name is not None:
        value = os.environ.get(env_name)
        if value is None:
            raise PbemError(f"[{table_name}] password_env names the environment variable {env_name}, which is not set: "
                            f"export {env_name}=... before running pbem (or use password_file)")
        if not value:
            raise PbemError(f"the environment variable {env_name} ([{table_name}] password_env) is empty: "
                            "set it to the password")
        table["password"] = value
    elif file_name is not None:
        path = base / Path(file_name).expanduser()
        try:
            value = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            raise PbemError(f"cannot read [{table_name}] password_file {path}: {reason}; "
                            "make it a readable UTF-8 file holding the password on its first line") from None
        value = value.splitlines()[0] if value.strip() else ""
        if not value:
            raise PbemError(f"[{table_name}] password_file {path} is empty: write the password on its first line")
        table["password"] = value
    return table


# ---------------------------------------------------------------------------------------------- loading


def _sqlite_url(url: str, base: Path) -> str:
    """Make a relative SQLite path relative to the config file."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and url != "sqlite://":
        return prefix + str((base / url[len(prefix):]).resolve())
    return url


#: the Python package that brings a database driver, for the error that names it
_DRIVER_PACKAGES = {"postgresql+psycopg": "pip install 'pbem[postgres]'"}
_URL_EXAMPLES = 'url = "sqlite:///pbem.sqlite" or url = "postgresql+psycopg://user:password@host/dbname"'


def _database_url(url: str) -> str:
    """`url` when SQLAlchemy can open it with a driver that is installed; else a PbemError that says
    how to fix it (the URL is never repeated: it may hold a password)."""
    if url.startswith("sqlite:///") and "?" not in url:
        return url  # a plain SQLite file: the standard library's driver, nothing to check (and no SQLAlchemy to load)
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise PbemError(f"[database] url is not a database URL; write it like {_URL_EXAMPLES}") from None
    try:
        dialect = parsed.get_dialect()
    except NoSuchModuleError:
        raise PbemError(f"[database] url names the database {parsed.drivername!r}, which pbem cannot use; "
                        f"write it like {_URL_EXAMPLES}") from None
    try:
        dialect.import_dbapi()
    except ImportError as err:
        install = _DRIVER_PACKAGES.get(parsed.drivername, f"install the Python package that provides {err.name!r}")
        raise PbemError(f"[database] url needs the driver {parsed.drivername!r}, which is not installed "
                        f"({err}): {install}, or write it like {_URL_EXAMPLES}") from None
    return url


def load_config(path: Path | None = None) -> Config:
    """Read the config from `path`, $PBEM_CONFIG or ./pbem.toml, checked against SCHEMA."""
    if path is None:
        env = os.environ.get("PBEM_CONFIG")
        path = Path(env) if env else Path.cwd() / CONFIG_NAME
    if not path.is_file():
        raise PbemError(
            f"no pbem configuration at {path}: run `pbem init DIR` first, then run pbem in DIR, "
            "or name the file with --config FILE or $PBEM_CONFIG"
        )
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise PbemError(f"cannot read {path}: {err.strerror or err}; make it readable, or name another "
                        "file with --config FILE") from None
    if raw.startswith(b"SQLite format 3\x00"):
        raise PbemError(f"{path} is pbem's SQLite database, not its configuration: name pbem.toml instead, "
                        f"e.g. --config {path.with_name(CONFIG_NAME)}")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise PbemError(f"{path} is not a text file, so not a pbem configuration: name the pbem.toml that "
                        "`pbem init` wrote, with --config FILE") from None
    except tomllib.TOMLDecodeError as err:
        raise PbemError(f"{path} is not valid TOML: {err}") from None
    problems = validate(data)
    if problems:
        raise PbemError(f"{path}: " + "\n".join(problems) if len(problems) == 1
                        else f"{path} has {len(problems)} mistakes:\n" + "\n".join(f"  {p}" for p in problems))
    base = path.resolve().parent
    mod = data.get("moderator", {})
    archive = data.get("archive", {})
    try:
        imap = _password("imap", data["imap"], base) if "imap" in data else {}
        smtp = _password("smtp", data["smtp"], base) if "smtp" in data else {}
    except PbemError as err:
        raise PbemError(f"{path}: {err}") from None
    return Config(
        path=path.resolve(),
        address=mod.get("address", "gm@pbem.invalid"),
        name=mod.get("name", "pbem"),
        database_url=_database_url(_sqlite_url(data.get("database", {}).get("url", "sqlite:///pbem.sqlite"), base)),
        maildir=base / data.get("inbox", {}).get("maildir", "inbox"),
        outbox=base / data.get("outbox", {}).get("folder", "outbox"),
        imap=imap,
        smtp=smtp,
        reminders=tuple(data.get("reminders", {}).get("before", ("48h", "6h"))),
        max_replies_per_hour=mod.get("max_replies_per_hour", 20),
        reply_to_strangers=mod.get("reply_to_strangers", False),
        strangers_per_hour=mod.get("strangers_per_hour", 20),
        authserv_id=mod.get("authserv_id") or None,
        max_mail_bytes=mod.get("max_mail_kb", 5120) * 1024,
        archive_dir=base / Path(archive["dir"]).expanduser() if "dir" in archive else None,
        archive_hold_orders=tuple(archive.get("hold_orders", ())),
        archive_url=archive.get("url", ""),
        vacation_days=mod.get("vacation_days", 14),
        press_per_day=mod.get("press_per_day", 5),
        suggest_per_day=mod.get("suggest_per_day", 5),
        preview_per_day=mod.get("preview_per_day", 20),
        takeover=mod.get("takeover", "3d"),
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
