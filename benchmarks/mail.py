"""Mail throughput: pbem's SMTP sender against Postfix's smtp-source, pbem's IMAP fetch against bare imapclient.

SMTP: a Postfix `smtp-sink` on a loopback port swallows N real turn reports (~170 kB each: text +
HTML + the board PNG twice, built by pbem's own Moderator and composer) sent
  - by pbem.mail.smtp.send() with 1 and with 8 connections, and
  - by Postfix's `smtp-source -d -F report.eml` (the same bytes) with 1 and 8 sessions,
and the same again for N acknowledgements (~2 kB), where per-message overhead dominates.
IMAP: Dovecot (scripts/mailstack.sh) with N order mails (~0.6 kB; written straight into the
Maildir) in the GM's inbox; pbem's ImapInbox.fetch_new() (connect, SEARCH UNSEEN, and per batch
FETCH BODY.PEEK[], hand each to `keep`, STORE +FLAGS \\Seen) against a bare imapclient loop (connect,
SEARCH UNSEEN, FETCH BODY.PEEK[] per batch, nothing else); the messages are flagged unseen again
before every run. Each figure is the best of --repeat runs (IMAP runs are short: 2 x as many).

Targets: pbem >= 0.3 of smtp-source with 1 and with 8 connections; pbem fetch >= 0.5 of bare.

Needs root (the servers drop to the postfix/dovecot/mail users) and the packages postfix,
dovecot-imapd, dovecot-lmtpd (scripts/install_servers.sh).

Usage: python benchmarks/mail.py [--count N] [--repeat R] [--skip-smtp] [--skip-imap]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.mail.compose import compose, message_id
from pbem.mail.imap import BATCH, ImapInbox, ImapSettings
from pbem.mail.smtp import Outgoing, SmtpSettings, send

ROOT = Path(__file__).resolve().parent.parent
SBIN_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])
SENDER = "gm@pbem.example"
Row = tuple[str, str, float, float, float]  # (section, case, pbem, reference, aiosmtplib sendmail() msgs/s or 0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tool(name: str) -> str:
    found = shutil.which(name, path=SBIN_PATH)
    if not found:
        raise SystemExit(f"{name} not found: install the postfix/dovecot packages (scripts/install_servers.sh)")
    return found


# ---------------------------------------------------------------------------------------------- mails


def real_reports() -> list[bytes]:
    """A real turn's reports (6 players + GM) from a one-game Moderator in a throwaway folder."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from turn_wave import NAMES, order_mail  # the wave benchmark's order mails

    from pbem.config import load_config, write_config
    from pbem.moderator import Moderator, PlayerSpec

    work = Path(tempfile.mkdtemp(prefix="pbem-mailbench-"))
    try:
        clock = [datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)]
        m = Moderator(load_config(write_config(work)), now=lambda: clock[0])
        m.store.create()
        rng = random.Random(1)
        players = [PlayerSpec(n, f"{n.lower()}@example.org", f"S-{i}") for i, n in enumerate(NAMES)]
        m.new_game("bench", game="hare-tortoise", rules=None, players=players, seed=1, deadline="7d")
        orders = [order_mail("bench", p.name, p.email, p.secret or "", i, rng) for i, p in enumerate(players)]
        list(m.ingest_many((raw, f"bench/{n}") for n, raw in enumerate(orders)))
        clock[0] += timedelta(hours=2)
        m.resolve("bench")
        game, seats, turns = m.history("bench")
        return [raw for _kind, _to, _id, raw in m.render_turn(game, seats, turns[-1])]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def acknowledgement(n: int) -> bytes:
    text = (f"Your orders for game bench, turn 3, arrived on Fri 20 Nov 2026 10:{n % 60:02d} UTC and were read as:\n\n"
            "  MOVE 1: IF SQUARE 7 IS FREE THEN TO 7 ELSE NEXT CARROT ELSE NEXT\n"
            "  MOVE 2: NEXT HARE ELSE NEXT\n  DEFAULT: NEXT\n\n"
            "You can send new orders until the deadline (Fri 27 Nov 2026 09:00 UTC); the last ones count.\n"
            + "-- \npbem, the play-by-email moderator of game bench. Reply to this address to talk to the GM.\n" * 8)
    return compose(sender=SENDER, sender_name="pbem", to=f"p{n}@example.org", to_name=f"Player {n}",
                   subject="bench: orders for turn 3 received", text=text,
                   date=datetime(2026, 11, 20, 10, 0, tzinfo=timezone.utc),
                   msg_id=message_id("bench", "ack", 3, n, domain="pbem.example"),
                   in_reply_to=f"<order-{n}@example.org>")


def order(n: int) -> bytes:
    return (f"From: Player {n} <p{n % 97}@example.org>\nTo: gm@pbem.example\nSubject: bench turn 3\n"
            f"Message-ID: <bench-{n}@example.org>\nDate: Fri, 20 Nov 2026 10:00:00 +0000\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n"
            f"GAME bench\nTURN 3\nSECRET S{n:04d}\n"
            "MOVE: IF SQUARE 7 IS FREE THEN TO 7 ELSE NEXT CARROT ELSE NEXT\n"
            "MOVE: IF CARROTS > 40 THEN ADVANCE 4 ELSE IF LETTUCES > 0 THEN NEXT LETTUCE ELSE STAY\n"
            "DEFAULT: NEXT\n\nCheers,\nPlayer\n\n> On Fri, 13 Nov 2026 the moderator wrote:\n"
            + "> the board after turn 2: see the picture in the report\n" * 4).encode()


# ---------------------------------------------------------------------------------------------- SMTP


class Sink:
    """Postfix's smtp-sink on a free loopback port, counting what it swallows (-c)."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.log = directory / "smtp-sink.out"
        self.out = self.log.open("wb")
        # -u postfix: drop root; -4: IPv4; backlog 1000. It announces PIPELINING (no SIZE).
        self.proc = subprocess.Popen([tool("smtp-sink"), "-c", "-4", "-u", "postfix", f"127.0.0.1:{self.port}", "1000"],
                                     stdout=self.out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"smtp-sink did not start: {self.log.read_text(errors='replace')}") from None
                time.sleep(0.02)

    def messages(self) -> int:
        """Messages received so far: the last 'msg' counter smtp-sink -c printed."""
        self.out.flush()
        counts = re.findall(rb"mesg=(\d+)", self.log.read_bytes()) or re.findall(rb"(\d+)\s*$", self.log.read_bytes())
        return int(counts[-1]) if counts else 0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


def time_pbem_send(port: int, mails: Sequence[bytes], count: int, connections: int) -> float:
    settings = SmtpSettings("127.0.0.1", port, SENDER, ssl="none")
    outgoing = [Outgoing(n, f"p{n % 97}@example.org", mails[n % len(mails)]) for n in range(count)]
    start = time.perf_counter()
    results = send(settings, outgoing, connections=connections)
    elapsed = time.perf_counter() - start
    bad = [r for r in results if r.outcome != "sent"]
    if len(results) != count or bad:
        raise SystemExit(f"pbem send: {len(results)} results, {len(bad)} not sent: {bad[:3]}")
    return count / elapsed


def time_sendmail(port: int, mails: Sequence[bytes], count: int, connections: int) -> float:
    """How pbem sent before (and how most Python code sends): aiosmtplib's SMTP.sendmail() per mail,
    over `connections` connections in one event loop."""
    import asyncio

    import aiosmtplib

    queue = [(f"p{n % 97}@example.org", mails[n % len(mails)]) for n in range(count)]

    async def connection() -> None:
        client = aiosmtplib.SMTP(hostname="127.0.0.1", port=port, use_tls=False, start_tls=False)
        await client.connect()
        while queue:
            to, raw = queue.pop()
            await client.sendmail(SENDER, [to], raw)
        await client.quit()

    async def run() -> None:
        await asyncio.gather(*(connection() for _ in range(connections)))

    start = time.perf_counter()
    asyncio.run(run())
    return count / (time.perf_counter() - start)


def time_smtp_source(port: int, eml: Path, count: int, sessions: int) -> float:
    cmd = [tool("smtp-source"), "-4", "-d", "-s", str(sessions), "-m", str(count), "-F", str(eml),
           "-f", SENDER, "-t", "p1@example.org", "-M", "bench.pbem.example", f"127.0.0.1:{port}"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return count / (time.perf_counter() - start)


def smtp_bench(directory: Path, count: int, repeat: int, baseline: bool) -> list[Row]:
    t = time.perf_counter()
    reports = real_reports()
    acks = [acknowledgement(n) for n in range(50)]
    smallest, largest = min(map(len, reports)) // 1024, max(map(len, reports)) // 1024
    print(f"mails: {len(reports)} real turn reports of {smallest}-{largest} kB "
          f"(built in {time.perf_counter() - t:.1f} s), acknowledgements of ~{len(acks[0]) // 1024} kB", flush=True)
    rows: list[Row] = []
    sink = Sink(directory)
    try:
        print(f"smtp-sink on 127.0.0.1:{sink.port}", flush=True)
        for kind, mails in (("report", reports), ("ack", acks)):
            eml = directory / f"{kind}.eml"
            eml.write_bytes(mails[0])
            for conns in (1, 8):
                before = sink.messages()
                ours = ref = 0.0
                for _ in range(repeat):  # interleaved, so a noisy neighbour hits both alike
                    ours = max(ours, time_pbem_send(sink.port, mails, count, conns))
                    ref = max(ref, time_smtp_source(sink.port, eml, count, conns))
                old = time_sendmail(sink.port, mails, count, conns) if baseline else 0.0  # one run: it is slow
                time.sleep(0.2)
                expected = (2 * repeat + baseline) * count
                got = sink.messages() - before
                check = "" if got == expected else f"  (sink counted {got}, expected {expected})"
                case = f"{kind} ~{len(mails[0]) // 1024} kB, {conns} conn"
                print(f"  {case:<26} pbem {ours:6.0f} msgs/s  smtp-source {ref:6.0f} msgs/s  ratio {ours / ref:.2f}"
                      + (f"  (aiosmtplib sendmail() {old:.0f} msgs/s)" if baseline else "") + check, flush=True)
                rows.append(("SMTP send", case, ours, ref, old))
    finally:
        sink.stop()
    return rows


# ---------------------------------------------------------------------------------------------- IMAP


def run_mailstack(*args: str, env: dict[str, str]) -> None:
    result = subprocess.run(["bash", str(ROOT / "scripts" / "mailstack.sh"), *args], env={**os.environ, **env},
                            capture_output=True, text=True, timeout=90, check=False)
    if result.returncode != 0:
        raise SystemExit(f"mailstack.sh {' '.join(args)} failed:\n{result.stderr}{result.stdout}")


def fill_maildir(home: Path, raws: Sequence[bytes]) -> None:
    """Deliver straight into the Maildir (as LMTP would, only faster); Dovecot indexes it on SELECT."""
    maildir = home / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    stamp = int(time.time())
    for n, raw in enumerate(raws):
        (maildir / "new" / f"{stamp}.M{n}P{os.getpid()}.bench,S={len(raw)}").write_bytes(raw)
    for path in [home, *home.rglob("*")]:
        shutil.chown(path, "mail", "mail")


def bare_fetch(settings: ImapSettings, keep: Callable[[int, bytes], None]) -> int:
    """The least a client can do to read the new mail with imapclient: one connection, SEARCH UNSEEN
    and one FETCH BODY.PEEK[] per batch. pbem does that and flags each batch \\Seen on top."""
    from imapclient import IMAPClient

    client = IMAPClient(settings.host, port=settings.port, ssl=False, timeout=settings.timeout)
    client.login(settings.user, settings.password)
    client.select_folder(settings.folder)
    uids = sorted(client.search(["UNSEEN"]))
    for start in range(0, len(uids), BATCH):
        batch = uids[start : start + BATCH]
        for uid, data in client.fetch(batch, [b"BODY.PEEK[]"]).items():
            keep(uid, data[b"BODY[]"])
    client.logout()
    return len(uids)


def mark_unseen(settings: ImapSettings) -> None:
    from imapclient import IMAPClient

    with IMAPClient(settings.host, port=settings.port, ssl=False) as client:
        client.login(settings.user, settings.password)
        client.select_folder(settings.folder)
        client.remove_flags(client.search(["ALL"]), [b"\\Seen"])
        client.logout()


def time_fetch(settings: ImapSettings, count: int,
               fetch: Callable[[ImapSettings, Callable[[int, bytes], None]], int]) -> float:
    mark_unseen(settings)
    got: list[bytes] = []
    start = time.perf_counter()
    n = fetch(settings, lambda uid, raw: got.append(raw))
    elapsed = time.perf_counter() - start
    if n != count or len(got) != count:
        raise SystemExit(f"fetched {n} ({len(got)} kept), expected {count}")
    return count / elapsed


def pbem_fetch(settings: ImapSettings, keep: Callable[[int, bytes], None]) -> int:
    inbox = ImapInbox(settings)
    try:
        return inbox.fetch_new(keep)
    finally:
        inbox.close()


def imap_bench(directory: Path, count: int, repeat: int) -> list[Row]:
    stack = directory / "stack"
    imap, smtp, lmtp = free_port(), free_port(), free_port()
    env = {"IMAP_PORT": str(imap), "SMTP_PORT": str(smtp), "LMTP_PORT": str(lmtp), "MAIL_USERS": "gm:gmpw",
           "PATH": SBIN_PATH}
    t = time.perf_counter()
    run_mailstack("start", str(stack), env=env)
    rows: list[Row] = []
    try:
        raws = [order(n) for n in range(count)]
        fill_maildir(stack / "mail" / "gm", raws)
        settings = ImapSettings("127.0.0.1", imap, "gm", "gmpw", ssl="none")
        mark_unseen(settings)  # the first SELECT indexes the Maildir: not part of any timing
        print(f"Dovecot on 127.0.0.1:{imap}: {count} order mails of ~{len(raws[0])} bytes in the inbox "
              f"(stack up and indexed in {time.perf_counter() - t:.1f} s)", flush=True)
        ours = ref = 0.0
        for _ in range(2 * repeat):
            ours = max(ours, time_fetch(settings, count, pbem_fetch))
            ref = max(ref, time_fetch(settings, count, bare_fetch))
        case = f"order ~{len(raws[0]) // 100 / 10:.1f} kB, batch {BATCH}"
        print(f"  {case:<26} pbem {ours:7.0f} msgs/s  bare imapclient {ref:7.0f} msgs/s  ratio {ours / ref:.2f}",
              flush=True)
        rows.append(("IMAP fetch", case, ours, ref, 0.0))
    finally:
        run_mailstack("stop", str(stack), env=env)
    return rows


# ---------------------------------------------------------------------------------------------- main


TARGETS = {"SMTP send": 0.3, "IMAP fetch": 0.5}
REFERENCE = {"SMTP send": "smtp-source", "IMAP fetch": "bare imapclient"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="messages per run (default 2000)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per figure; the best counts (default 2)")
    parser.add_argument("--skip-smtp", action="store_true")
    parser.add_argument("--skip-imap", action="store_true")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the aiosmtplib sendmail() runs (how pbem sent before; ~30 s)")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("benchmarks/mail.py starts Postfix tools and Dovecot: run it as root")
    directory = Path(tempfile.mkdtemp(prefix="mb", dir="/tmp"))  # short, and reachable for postfix/dovecot
    directory.chmod(0o755)
    start = time.perf_counter()
    rows: list[Row] = []
    try:
        if not args.skip_smtp:
            rows += smtp_bench(directory, args.count, args.repeat, not args.no_baseline)
        if not args.skip_imap:
            rows += imap_bench(directory, args.count, args.repeat)
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    print(f"\nSummary ({args.count} messages per run, best of {args.repeat}; {os.cpu_count()} CPUs; "
          f"{time.perf_counter() - start:.0f} s in all)")
    print(f"{'':10} {'case':<26} {'pbem msgs/s':>11} {'us/msg':>7} {'reference':>15} {'msgs/s':>7} {'us/msg':>7} "
          f"{'ratio':>5} {'target':>8}  {'sendmail() msgs/s, ratio':>24}")
    failed = 0
    for section, case, ours, ref, old in rows:
        ratio = ours / ref
        target = TARGETS[section] if section == "IMAP fetch" or case.startswith("report") else None
        verdict = "" if target is None else f">={target:.1f} " + ("ok" if ratio >= target else "MISS")
        failed += target is not None and ratio < target
        before = f"{old:7.0f} {old / ref:5.2f}" if old else ""
        print(f"{section:10} {case:<26} {ours:11.0f} {1e6 / ours:7.0f} {REFERENCE[section]:>15} {ref:7.0f} "
              f"{1e6 / ref:7.0f} {ratio:5.2f} {verdict:>8}  {before:>24}")
    print("targets: pbem >= 0.3 x smtp-source for reports on 1 and 8 connections, pbem >= 0.5 x bare imapclient; "
          "acks are for information.\nsendmail(): aiosmtplib's SMTP.sendmail() per mail, as pbem sent before "
          "(its DATA runs two regexes over each message: ~2.5 ms for a report).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
