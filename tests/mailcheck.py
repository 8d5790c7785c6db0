"""Checks the mail tests of every game share: golden copies of a campaign's mails, and whether a
reader's report depends on another seat's hidden values."""

from __future__ import annotations

import email
import email.policy
import json
import os
from collections.abc import Iterator
from pathlib import Path

from pbem.moderator import Moderator
from pbem.store import TurnRow

HEADERS = ("From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "Auto-Submitted")


def summary(raw: bytes) -> str:
    """The headers that matter and the text part of a mail, as a reviewer reads them."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    lines = [f"{h}: {msg[h]}" for h in HEADERS if msg[h] is not None]
    parts = [p.get_content_type() for p in msg.walk()]
    lines.append(f"Parts: {', '.join(parts)}")
    body = msg.get_body(("plain",))
    assert body is not None
    return "\n".join(lines) + "\n\n" + str(body.get_content())  # type: ignore[attr-defined]


def stored_reports(m: Moderator, game_id: int, turn: int) -> dict[str, bytes]:
    """The reports of a turn as the store queued them, by Message-ID (the players' and the GM's)."""
    with m.store.session() as session:
        rows = [r for r in m.store.mails(session) if r.game_id == game_id and r.turn == turn
                and r.kind in ("report", "gm-report")]
    bodies = m.store.mail_bodies([r.id or 0 for r in rows])
    return {r.message_id: bodies[r.id or 0] for r in rows}


def check_golden(outbox: Path, golden: Path) -> None:
    """Every mail of the outbox matches its golden copy; PBEM_UPDATE_GOLDEN=1 rewrites the copies
    (review the diff before committing it)."""
    got = {p.stem: summary(p.read_bytes()) for p in sorted(outbox.glob("*.eml"))}
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        golden.mkdir(parents=True, exist_ok=True)
        for old in golden.glob("*.txt"):
            old.unlink()
        for stem, text in got.items():
            (golden / f"{stem}.txt").write_text(text, encoding="utf-8")
    want = {p.stem: p.read_text(encoding="utf-8") for p in sorted(golden.glob("*.txt"))}
    assert sorted(got) == sorted(want)
    for stem in want:
        assert got[stem] == want[stem], stem


def report_differences(m: Moderator, name: str) -> Iterator[str]:
    """Every (turn, reader, other seat) whose report depends on the other seat's hidden values:
    each turn's reports are rendered as stored and with one seat's hidden values changed by the
    game's `vary_hidden`; every other reader's mail must be the same bytes: text, HTML and the
    picture, which in a game with `private_pictures` is drawn from each reader's own view."""
    game, players, turns = m.history(name)
    engine = m.engine(game)
    for record in turns:
        after = m.state(game, record.after)
        resolutions = [engine.resolution_from_json(d) for d in json.loads(record.resolutions)]

        def mails(state: object, events: object, record: TurnRow = record) -> dict[str, bytes]:
            out = m.mailer.reports(game, engine, players, state, events, turn=record.turn,
                                   resolved=record.resolved_at, deadline=record.deadline)
            return {mail.to: mail.raw for mail in out}

        plain = mails(after, resolutions)
        for other in players:
            if not other.email:
                continue
            for seed in (1, 2):
                varied_state, varied_events = engine.vary_hidden(after, resolutions, other.seat, seed)
                varied = mails(varied_state, varied_events)
                assert varied[other.email] != plain[other.email], "vary_hidden changed nothing the owner sees"
                for reader in players:
                    if reader.email and reader.seat != other.seat and varied[reader.email] != plain[reader.email]:
                        where = ", ".join(differing_parts(plain[reader.email], varied[reader.email])) or "headers"
                        yield f"turn {record.turn}: {reader.name}'s report shows {other.name}'s hidden values ({where})"


def parts_of(raw: bytes) -> list[tuple[str, bytes]]:
    """The leaf parts of a mail, each as (content type, decoded bytes)."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    out = []
    for part in msg.walk():
        if not part.is_multipart():
            payload = part.get_payload(decode=True)
            out.append((part.get_content_type(), payload if isinstance(payload, bytes) else b""))
    return out


def differing_parts(a: bytes, b: bytes) -> list[str]:
    """The content types of the parts in which two mails differ (the picture is `image/png`)."""
    pa, pb = parts_of(a), parts_of(b)
    if [t for t, _ in pa] != [t for t, _ in pb]:
        return ["the parts themselves"]
    return [t for (t, x), (_, y) in zip(pa, pb, strict=True) if x != y]
