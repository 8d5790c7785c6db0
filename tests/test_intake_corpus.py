"""Every whole message of the mail corpus goes through the real intake pipeline.

Each one is stored raw and comes out with a status and a reason (never an exception, never
lost); bounces, complaints and auto-replies are never read as orders and never answered.
"""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from pbem.config import load_config, write_config
from pbem.moderator import Moderator, PlayerSpec

CORPUS = Path(__file__).parent / "corpus"
NEVER_ORDERS = {"bounce", "auto-reply", "complaint (ARF)", "read-receipt (MDN)"}


def _messages() -> list[tuple[str, str]]:
    with open(CORPUS / "INDEX.csv", newline="", encoding="utf-8") as fh:
        return [(row["path"], row["class"]) for row in csv.DictReader(fh) if row["kind"] in ("message", "not_mail")]


Outcomes = dict[str, tuple[str, str, str]]  # corpus path -> (status, reason, step)


@pytest.fixture(scope="module")
def intake(tmp_path_factory: pytest.TempPathFactory) -> tuple[Moderator, Outcomes]:
    root = tmp_path_factory.mktemp("corpus")
    m = Moderator(load_config(write_config(root)))
    m.store.create()
    m.new_game("race", game="hare-tortoise", rules=None, seed=1, deadline=None,
               players=[PlayerSpec("Ann", "ann@example.org", "AAA-111"),
                        PlayerSpec("Bob", "bob@example.org", "BBB-222")])
    outcome: Outcomes = {}
    items = [((CORPUS / path).read_bytes(), path) for path, _ in _messages()]
    for (_raw, path), result in zip(items, m.ingest_many(items), strict=True):
        outcome[path] = (result.status, result.reason, result.step)
    return m, outcome


def test_every_message_is_kept_with_a_status_and_a_reason(intake: tuple[Moderator, Outcomes]) -> None:
    m, outcome = intake
    assert len(outcome) == len(_messages()) > 250
    statuses = Counter(s for s, _, _ in outcome.values())
    assert set(statuses) <= {"ignored", "refused", "duplicate"}, statuses
    assert "quarantined" not in statuses
    assert all(reason for status, reason, _ in outcome.values())
    with m.store.session() as session:
        stored = m.store.messages(session)
    # every message is kept raw (corpus files that repeat a Message-ID are duplicates by design)
    assert len(stored) + statuses["duplicate"] == len(outcome)
    assert all(r.raw for r in stored)


def test_bounces_and_auto_replies_are_ignored_without_reply(intake: tuple[Moderator, Outcomes]) -> None:
    m, outcome = intake
    for path, cls in _messages():
        if cls in NEVER_ORDERS:
            assert outcome[path][0] in ("ignored", "duplicate"), (path, outcome[path])
    with m.store.session() as session:
        refusals = [mail for mail in m.store.mails(session) if mail.kind == "refusal"]
        ignored = [r.id for r in m.store.messages(session) if r.status == "ignored"]
    replied_to = {mail.recipient for mail in refusals}
    assert not any("mailer-daemon" in a or "postmaster" in a for a in replied_to)
    # a refusal's Message-ID names the message it answers: none answers an ignored one
    answered = {mail.message_id.split(".")[1] for mail in refusals}
    assert not answered & {str(i) for i in ignored}
    assert len(ignored) > 60
