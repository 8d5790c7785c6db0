"""The floor of a turn wave: what any moderator in Python must do, and nothing more.

Per order mail: parse it with the stdlib, store it raw with one durable SQLite commit, store its
sheet and queue a short acknowledgement with a second one. Per game: draw one board picture with
Pillow straight in palette mode (63 squares, 6 runners), compose 7 report mails (text, HTML and
the PNG) and store them with one commit. SQLite in WAL mode with `synchronous=FULL`; the work is
split over the same number of processes as the wave's.

It imports nothing of the moderator it is the floor of: `turn_wave.py` runs it beside the wave,
on the same mails, and prints the ratio of the two.

Usage: python benchmarks/wave_floor.py [--games N] [--workers N]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import fcntl
import io
import multiprocessing
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path

from PIL import Image, ImageDraw

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS inbound (id INTEGER PRIMARY KEY, message_id TEXT UNIQUE, raw BLOB)",
    "CREATE TABLE IF NOT EXISTS sheet (id INTEGER PRIMARY KEY, game TEXT, player TEXT, lines TEXT)",
    "CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY, game TEXT, rcpt TEXT, raw BLOB)",
)
COLORS = ((251, 246, 233), (40, 34, 24), (252, 211, 161), (230, 220, 245), (211, 238, 189),
          (198, 227, 225), (255, 241, 176), (216, 70, 60), (60, 110, 200), (70, 160, 80),
          (230, 160, 40), (140, 80, 170), (40, 150, 160))


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, timeout=10.0, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


@contextmanager
def writing(db: sqlite3.Connection, lock: int) -> Iterator[None]:
    """One write transaction. The processes take turns on a file lock first: SQLite's own busy
    handler sleeps in steps of up to 100 ms, which would make the floor wait, not work."""
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        db.execute("BEGIN IMMEDIATE")
        yield
        db.execute("COMMIT")
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)


def create(path: Path) -> None:
    db = connect(path)
    for statement in SCHEMA:
        db.execute(statement)
    db.close()


def _lock(path: Path) -> int:
    return os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o644)


def ingest(path: Path, mails: list[bytes]) -> int:
    """Each mail parsed, stored raw (a commit), its sheet stored and acknowledged (a commit)."""
    db, lock = connect(path), _lock(path)
    for raw in mails:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        with writing(db, lock):
            db.execute("INSERT INTO inbound (message_id, raw) VALUES (?, ?)", (msg["Message-ID"], raw))
        body = msg.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        lines = [line.strip() for line in text.splitlines() if ":" in line or line.isupper()]
        ack = EmailMessage()
        ack["From"], ack["To"], ack["Subject"] = "gm@pbem.example", msg["From"], "Re: " + msg["Subject"]
        ack.set_content("Your orders are in:\n" + "\n".join(lines) + "\n")
        raw_ack = ack.as_bytes()
        with writing(db, lock):
            db.execute("INSERT INTO sheet (game, player, lines) VALUES (?, ?, ?)",
                       (msg["Subject"].split()[0], msg["From"], "\n".join(lines)))
            db.execute("INSERT INTO outbox (game, rcpt, raw) VALUES (?, ?, ?)", ("", msg["From"], raw_ack))
    db.close()
    os.close(lock)
    return len(mails)


def picture(game: int) -> bytes:
    """A 1000 x 583 board in palette mode: 63 squares on a serpentine, 6 runners, 6 arrows."""
    rng = random.Random(game)
    img = Image.new("P", (1000, 583), 0)
    img.putpalette([c for rgb in COLORS for c in rgb])
    draw = ImageDraw.Draw(img)
    draw.text((20, 20), f"Game {game} - Turn 1", fill=1)
    centres = []
    for n in range(63):
        row, col = divmod(n, 9)
        col = col if row % 2 == 0 else 8 - col
        x, y = 140 + col * 80, 70 + row * 70
        draw.rounded_rectangle((x, y, x + 64, y + 56), 8, fill=2 + n % 5, outline=1, width=2)
        draw.text((x + 4, y + 4), str(n + 1), fill=1)
        centres.append((x + 32, y + 28))
    for seat in range(6):
        a, b = sorted(rng.sample(range(63), 2))
        draw.line([centres[a], centres[b]], fill=7 + seat, width=4)
        x, y = centres[b]
        draw.ellipse((x - 16, y - 16, x + 16, y + 16), fill=7 + seat, outline=1, width=2)
        draw.text((x - 6, y - 6), "AB"[seat % 2], fill=0)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def report(game: int, rcpt: str, png: bytes) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "gm@pbem.example", rcpt, f"wave-{game:04d} turn 1"
    text = "\n".join(f"Seat {s}: moved from {s} to {s + 5}." for s in range(6))
    msg.set_content(text + "\n")
    msg.add_alternative(f"<html><body><pre>{text}</pre><img src=\"cid:board\"></body></html>",
                        subtype="html")
    msg.get_payload()[1].add_related(png, "image", "png", cid="<board>")
    return msg.as_bytes()


def resolve(path: Path, games: list[int]) -> int:
    """Per game one picture, 7 reports, one commit."""
    db, lock = connect(path), _lock(path)
    count = 0
    for game in games:
        png = picture(game)
        rows = [(str(game), f"p{k}@example.org", report(game, f"p{k}@example.org", png)) for k in range(7)]
        with writing(db, lock):
            db.executemany("INSERT INTO outbox (game, rcpt, raw) VALUES (?, ?, ?)", rows)
        count += len(rows)
    db.close()
    os.close(lock)
    return count


def run(mails: list[bytes], games: int, workers: int, folder: Path) -> float:
    """Seconds for the floor's wave over `mails` and `games`, with `workers` processes."""
    path = folder / "floor.sqlite"
    path.unlink(missing_ok=True)
    create(path)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        start = time.perf_counter()
        taken = sum(pool.starmap(ingest, [(path, mails[k::workers]) for k in range(workers)]))
        ids = list(range(games))
        sent = sum(pool.starmap(resolve, [(path, ids[k::workers]) for k in range(workers)]))
        seconds = time.perf_counter() - start
    if taken != len(mails) or sent != 7 * games:
        raise SystemExit(f"floor: {taken} mails in, {sent} reports out; expected {len(mails)}, {7 * games}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    mails = [
        (f"From: P{n} <p{n}@example.org>\nTo: gm@pbem.example\nSubject: wave-{n // 6:04d} turn 1\n"
         f"Message-ID: <floor-{n}@example.org>\nContent-Type: text/plain; charset=utf-8\n\n"
         f"GAME wave-{n // 6:04d}\nTURN 1\nMOVE: NEXT\nDEFAULT: NEXT\n").encode()
        for n in range(6 * args.games)
    ]
    with tempfile.TemporaryDirectory(prefix="pbem-floor-") as folder:
        print(f"floor: {run(mails, args.games, args.workers, Path(folder)):.1f} s")


if __name__ == "__main__":
    main()
