"""Shared fixtures: real Postfix + Dovecot and PostgreSQL on loopback, started by scripts/ for integration tests.

Fixtures
  mailstack        (session)  a running mail stack: MailStack (SMTP in, IMAP out, users, helpers)
  clean_mailstack  (function) the same stack with every user's mailboxes emptied and Postfix running
  postgres_url     (session)  "postgresql+psycopg://pbem:pbem@127.0.0.1:PORT/pbem" of a throwaway cluster
  pg_database_url  (function) the URL of a new, empty database of its own, dropped after the test

Tests that use them are marked `mailstack` / `postgres` automatically (deselect with -m "not mailstack").
When the servers cannot be started here (not root, packages missing) the fixtures skip with the
command that installs them; under CI (CI=true) they fail instead, so CI never passes by skipping.

The games of `examples/` (each a distribution of its own) are registered for the session as if
installed — their package on the path, their `pbem.games` entry points in a dist-info folder — so
every generic test over `pbem.games.games()` covers them; `--no-example-games` leaves them out.
"""

from __future__ import annotations

import email
import os
import shutil
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from imapclient import IMAPClient

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
INSTALL_HINT = "sudo bash scripts/install_servers.sh"
SBIN_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])

MAIL_DOMAIN = "example.test"
MAIL_USERS = {"gm": "gmpw", "alice": "alicepw", "bob": "bobpw", "carol": "carolpw", "dave": "davepw"}

MAILSTACK_FIXTURES = frozenset({"mailstack", "clean_mailstack"})
POSTGRES_FIXTURES = frozenset({"postgres_url", "pg_database_url"})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--no-example-games", action="store_true",
                     help="Leave the games of examples/ out of the registry (they are in by default).")


def register_example_games(folder: Path) -> list[str]:
    """Each distribution under examples/ that has `pbem.games` entry points, made findable as if
    installed: its src/ folder on sys.path, and a dist-info folder in `folder` (put on sys.path
    too) holding its name, version and entry points. Returns the distributions' names."""
    names = []
    for project in sorted((ROOT / "examples").glob("*/pyproject.toml")):
        meta = tomllib.loads(project.read_text(encoding="utf-8"))["project"]
        points = meta.get("entry-points", {}).get("pbem.games", {})
        if not points:
            continue
        info = folder / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n",
                                       encoding="utf-8")
        (info / "entry_points.txt").write_text(
            "[pbem.games]\n" + "".join(f"{key} = {value}\n" for key, value in points.items()), encoding="utf-8")
        sys.path.append(str(project.parent / "src"))
        names.append(meta["name"])
    sys.path.append(str(folder))
    return names


_EXAMPLES: list[Path] = []  # the dist-info folders made for this session, removed at its end


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("--no-example-games"):
        _EXAMPLES.append(Path(tempfile.mkdtemp(prefix="pbem-examples-")))
        register_example_games(_EXAMPLES[-1])
    config.addinivalue_line(
        "markers", "mailstack: needs real Postfix (SMTP) + Dovecot (IMAP) servers; the mailstack fixture starts them")
    config.addinivalue_line(
        "markers", "postgres: needs a real PostgreSQL server; the postgres_url fixture starts it")


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _EXAMPLES:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & MAILSTACK_FIXTURES:
            item.add_marker(pytest.mark.mailstack)
        if names & POSTGRES_FIXTURES:
            item.add_marker(pytest.mark.postgres)


# ---------------------------------------------------------------------------------------------- helpers


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def unavailable(what: str, reason: str) -> NoReturn:
    """Skip outside CI; fail under CI, where a skipped integration test would hide a missing install step."""
    if in_ci():
        pytest.fail(f"{what} cannot be started: {reason}. CI must run these tests: .ci/run installs the servers "
                    f"with 'bash scripts/install_servers.sh' when it runs as root.", pytrace=False)
    pytest.skip(f"{what} cannot be started: {reason}. Install the servers with: {INSTALL_HINT} "
                f"(the tests must run as root)")


def require(tool: str) -> str:
    """The path of the command-line program `tool`; skips the test (fails it under CI) when it is missing."""
    path = shutil.which(tool)
    if path is None:
        unavailable(tool, "not installed")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def free_ports(count: int) -> list[int]:
    ports: set[int] = set()
    while len(ports) < count:
        ports.add(free_port())
    return sorted(ports)


def run_script(name: str, *args: str, env: dict[str, str] | None = None, timeout: float = 90) -> str:
    """Runs scripts/NAME ARGS; returns stdout, raises RuntimeError with stderr when it fails."""
    result = subprocess.run(["bash", str(SCRIPTS / name), *args], env={**os.environ, **(env or {})},
                            capture_output=True, text=True, timeout=timeout, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"scripts/{name} {' '.join(args)} exited {result.returncode}:\n"
                           f"{result.stderr.strip()}\n{result.stdout.strip()}")
    return result.stdout


def start_with_retries(name: str, directory: str, make_env: Callable[[], dict[str, str]],
                       attempts: int = 3) -> dict[str, str]:
    """Starts scripts/NAME on fresh free ports; another process may grab a port in between, so retry."""
    error: RuntimeError | None = None
    for _ in range(attempts):
        env = make_env()
        try:
            run_script(name, "start", directory, env=env)
            return env
        except RuntimeError as exc:
            error = exc
            if "already in use" not in str(exc):
                break
    assert error is not None
    pytest.fail(f"{name} did not start (the packages are installed, so this is a bug or a broken machine):\n{error}",
                pytrace=False)


def parse_message(raw: bytes) -> EmailMessage:
    """Parses a message as IMAP sends it, with line endings made "\n" as in a Maildir file."""
    message = email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=default_policy)
    assert isinstance(message, EmailMessage)
    return message


# ---------------------------------------------------------------------------------------------- mail


@dataclass
class MailStack:
    """A running Postfix (SMTP, AUTH optional) -> Dovecot (LMTP, maildir, IMAP) stack on loopback.

    Every user has the address NAME@domain; IMAP and SMTP AUTH take NAME or NAME@domain with the password.
    Mail to an unknown user of the domain is refused at RCPT (550 5.1.1); mail to any other domain is
    refused too (550, nothing leaves the machine). No TLS: use ssl = "none" in pbem's [imap]/[smtp].
    """

    dir: Path
    host: str
    imap_port: int
    smtp_port: int
    lmtp_port: int
    domain: str
    users: dict[str, str] = field(default_factory=dict)  # name -> password
    env: dict[str, str] = field(default_factory=dict, repr=False)

    # -- addresses and pbem configuration

    def address(self, user: str) -> str:
        return f"{user}@{self.domain}"

    def password(self, user: str) -> str:
        return self.users[user]

    def imap_config(self, user: str = "gm", folder: str = "INBOX") -> dict[str, Any]:
        """An [imap] table for pbem.toml that reads USER's mailbox."""
        return {"host": self.host, "port": self.imap_port, "user": self.address(user),
                "password": self.users[user], "folder": folder, "ssl": "none"}

    def smtp_config(self, user: str = "gm") -> dict[str, Any]:
        """An [smtp] table for pbem.toml that sends as USER (with SMTP AUTH)."""
        return {"host": self.host, "port": self.smtp_port, "user": self.address(user),
                "password": self.users[user], "from": self.address(user), "ssl": "none"}

    # -- sending and reading

    def send(self, message: EmailMessage | bytes, *, sender: str | None = None,
             recipients: Sequence[str] | None = None) -> None:
        """Sends through Postfix with the standard library (works inside a running event loop, too)."""
        with smtplib.SMTP(self.host, self.smtp_port, timeout=10) as client:
            if isinstance(message, EmailMessage):
                client.send_message(message, from_addr=sender, to_addrs=list(recipients) if recipients else None)
            else:
                if sender is None or not recipients:
                    raise ValueError("raw bytes need sender= and recipients=")
                client.sendmail(sender, list(recipients), message)

    @contextmanager
    def imap(self, user: str) -> Iterator[IMAPClient]:
        """A logged-in IMAPClient for USER, logged out afterwards."""
        from imapclient import IMAPClient

        client = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=10)
        try:
            client.login(user, self.users[user])
            yield client
        finally:
            with suppress(Exception):  # the connection may already be gone; nothing left to clean up
                client.logout()

    def messages(self, user: str, folder: str = "INBOX") -> list[EmailMessage]:
        """Every message in USER's FOLDER, oldest first, read without setting \\Seen."""
        with self.imap(user) as client:
            client.select_folder(folder, readonly=True)
            return self._fetch_all(client)

    def wait_for_messages(self, user: str, count: int = 1, *, folder: str = "INBOX",
                          timeout: float = 10.0) -> list[EmailMessage]:
        """Waits until USER's FOLDER holds at least COUNT messages (delivery is asynchronous) and returns them all."""
        deadline = time.monotonic() + timeout
        with self.imap(user) as client:
            client.select_folder(folder, readonly=True)
            while True:
                # search(), not STATUS: Dovecot answers STATUS on the selected mailbox from a stale view
                found = len(client.search(["ALL"]))
                if found >= count:
                    return self._fetch_all(client)
                if time.monotonic() > deadline:
                    raise AssertionError(f"{self.address(user)} {folder}: {found} messages after {timeout} s, "
                                         f"expected {count}.\n{self.log_tail()}")
                time.sleep(0.02)
                client.noop()

    @staticmethod
    def _fetch_all(client: IMAPClient) -> list[EmailMessage]:
        uids = sorted(client.search(["ALL"]))
        if not uids:
            return []
        data = client.fetch(uids, ["BODY.PEEK[]"])  # PEEK: reading must not mark the mail \Seen
        return [parse_message(data[uid][b"BODY[]"]) for uid in uids]

    def clear(self, user: str) -> None:
        """Empties every folder of USER."""
        with self.imap(user) as client:
            for _flags, _sep, name in client.list_folders():
                client.select_folder(name)
                uids = client.search(["ALL"])
                if uids:
                    client.delete_messages(uids)
                    client.expunge()
                client.unselect_folder()

    # -- users and faults

    def add_user(self, name: str, password: str) -> str:
        """Adds a mailbox while the stack runs; returns its address."""
        run_script("mailstack.sh", "add-user", str(self.dir), name, password, env=self.env)
        self.users[name] = password
        # Postfix reloads its map asynchronously (an smtpd started before the reload still has the old
        # one): wait until the address is accepted at RCPT time.
        deadline = time.monotonic() + 10
        while not self._accepts(self.address(name)):
            if time.monotonic() > deadline:
                raise AssertionError(f"Postfix still refuses {self.address(name)} 10 s after add_user\n"
                                     f"{self.log_tail()}")
            time.sleep(0.05)
        return self.address(name)

    def _accepts(self, address: str) -> bool:
        with smtplib.SMTP(self.host, self.smtp_port, timeout=10) as client:
            client.ehlo()
            client.mail(self.address(next(iter(self.users))))
            code, _ = client.rcpt(address)
            client.rset()
            return code == 250

    def stop_smtp(self) -> None:
        """Stops Postfix alone: the SMTP port refuses connections; IMAP and mail already delivered stay."""
        run_script("mailstack.sh", "stop-smtp", str(self.dir), env=self.env)

    def start_smtp(self) -> None:
        """Starts Postfix again (no-op when it runs); mail still in its queue is delivered."""
        run_script("mailstack.sh", "start-smtp", str(self.dir), env=self.env)

    def smtp_running(self) -> bool:
        try:
            socket.create_connection((self.host, self.smtp_port), timeout=1).close()
            return True
        except OSError:
            return False

    @contextmanager
    def smtp_down(self) -> Iterator[None]:
        """Postfix is stopped inside the block and started again afterwards, even when the test fails."""
        self.stop_smtp()
        try:
            yield
        finally:
            self.start_smtp()

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the Postfix and Dovecot logs, for assertion messages."""
        parts = []
        for path in (self.dir / "postfix.log", self.dir / "dovecot" / "dovecot.log"):
            text = path.read_text(errors="replace").splitlines() if path.exists() else []
            parts.append(f"--- {path}\n" + "\n".join(text[-lines:]))
        return "\n".join(parts)


@pytest.fixture(scope="session")
def mailstack() -> Iterator[MailStack]:
    """Real Postfix (SMTP) + Dovecot (IMAP, LMTP) on free loopback ports for the whole session."""
    what = "the mail servers (Postfix + Dovecot)"
    if os.geteuid() != 0:
        unavailable(what, "the tests do not run as root")
    missing = [exe for exe in ("dovecot", "doveadm") if not shutil.which(exe, path=SBIN_PATH)]
    if not os.path.exists("/usr/lib/postfix/sbin/master"):
        missing.append("postfix")
    if missing:
        unavailable(what, f"{', '.join(missing)} not installed")

    directory = tempfile.mkdtemp(prefix="ms", dir="/tmp")  # short and reachable: see scripts/mailstack.sh

    def make_env() -> dict[str, str]:
        imap, smtp, lmtp = free_ports(3)
        return {"IMAP_PORT": str(imap), "SMTP_PORT": str(smtp), "LMTP_PORT": str(lmtp), "MAIL_DOMAIN": MAIL_DOMAIN,
                "MAIL_USERS": " ".join(f"{u}:{p}" for u, p in MAIL_USERS.items()), "PATH": SBIN_PATH}

    try:
        env = start_with_retries("mailstack.sh", directory, make_env)
        stack = MailStack(dir=Path(directory), host="127.0.0.1", imap_port=int(env["IMAP_PORT"]),
                          smtp_port=int(env["SMTP_PORT"]), lmtp_port=int(env["LMTP_PORT"]), domain=MAIL_DOMAIN,
                          users=dict(MAIL_USERS), env=env)
        yield stack
    finally:
        try:
            run_script("mailstack.sh", "stop", directory, env={"PATH": SBIN_PATH})
        finally:
            shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def clean_mailstack(mailstack: MailStack) -> MailStack:
    """The session's mail stack with Postfix running and every user's mailboxes empty."""
    mailstack.start_smtp()
    for user in mailstack.users:
        mailstack.clear(user)
    return mailstack


# ---------------------------------------------------------------------------------------------- PostgreSQL


def postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parent.parent.name.split(".")])
    return found[-1].parent if found else None


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port; role and database pbem (password pbem)."""
    what = "PostgreSQL"
    if os.geteuid() != 0:
        unavailable(what, "the tests do not run as root")
    if postgres_bin() is None:
        unavailable(what, "no server binaries under /usr/lib/postgresql/*/bin (package postgresql)")

    directory = tempfile.mkdtemp(prefix="pg", dir="/tmp")
    env: dict[str, str] = {}
    try:
        env = start_with_retries("pgstack.sh", directory, lambda: {"PG_PORT": str(free_port())})
        yield f"postgresql+psycopg://pbem:pbem@127.0.0.1:{env['PG_PORT']}/pbem"
    finally:
        try:
            run_script("pgstack.sh", "stop", directory, env=env)
        finally:
            shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def pg_database_url(postgres_url: str) -> Iterator[str]:
    """A new, empty database owned by pbem for this test alone (dropped afterwards, open connections or not)."""
    import psycopg

    name = f"pbem_test_{uuid.uuid4().hex[:12]}"
    admin = postgres_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" OWNER pbem')
    try:
        yield postgres_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database for pbem's store: SQLite, and (marked postgres) PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.sqlite'}"
    value: str = request.getfixturevalue("pg_database_url")
    return value


# ---------------------------------------------------------------------------------------------- a game

GM_PLAYERS = ["Ann=ann@example.org", "Bob=bob@example.net", "Cyd=cyd@example.com"]
GM_SECRETS = ["Ann=AAA-111", "Bob=BBB-222", "Cyd=CCC-333"]


def _cli(*args: str) -> Any:
    from click.testing import CliRunner

    from pbem.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _ok(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def gm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A GM's folder (pbem init) with the game `race`: Ann, Bob and Cyd, seed 7, a 7-day deadline,
    the secrets AAA-111, BBB-222 and CCC-333, the clock at 2026-11-20 09:00 UTC."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    _ok(_cli("init", ".", "--address", "gm@pbem.example"))
    args = ["new-game", "race", "--seed", "7", "--deadline", "7d"]
    for p in GM_PLAYERS:
        args += ["--player", p]
    for s in GM_SECRETS:
        args += ["--secret", s]
    _ok(_cli(*args))
    yield tmp_path
