"""The sample campaign end to end: every mail pbem writes matches the golden copy.

To accept a deliberate change of the reports, run
    PBEM_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
and review the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import email
import email.policy
import os
from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.moderator import Moderator

GOLDEN = Path(__file__).parent / "golden" / "sample_campaign"
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


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Moderator]:
    directory = tmp_path_factory.mktemp("campaign") / "demo"
    m = run_demo(directory, echo=lambda _: None)
    return directory, m


def test_campaign_mails_match_the_golden_copies(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    mails = sorted((directory / "outbox").glob("*.eml"))
    got = {p.stem: summary(p.read_bytes()) for p in mails}
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for old in GOLDEN.glob("*.txt"):
            old.unlink()
        for stem, text in got.items():
            (GOLDEN / f"{stem}.txt").write_text(text, encoding="utf-8")
    want = {p.stem: p.read_text(encoding="utf-8") for p in sorted(GOLDEN.glob("*.txt"))}
    assert sorted(got) == sorted(want)
    for stem in want:
        assert got[stem] == want[stem], stem


def test_campaign_outcome(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    game, players, state = m.game_state("sample-race")
    assert game.turn == 5
    assert [(r.name, r.square, r.carrots, r.lettuces) for r in state.runners] == [
        ("Alice", 9, 43, 3), ("Bruno", 17, 13, 2), ("Chandra", 22, 61, 2), ("Dmitri", 10, 90, 2)
    ]
    with m.store.session() as session:
        statuses = [(r.source.rsplit("/", 2)[-2] + "/" + r.source.rsplit("/", 1)[-1], r.status)
                    for r in m.store.messages(session)]
    assert ("turn3/02-dmitri-outlook365-wrong-secret.eml", "refused") in statuses
    assert sum(1 for _, s in statuses if s == "accepted") == 16


def test_re_rendering_every_turn_gives_the_same_bytes(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    for turn in range(1, 5):
        game, players, record = m.turn_record("sample-race", turn)
        fresh = {mail.msg_id: mail.raw for mail in m.render_turn(game, players, record)}
        with m.store.session() as session:
            stored = {x.message_id: x.raw for x in m.store.mails_for_turn(session, game.id or 0, turn,
                                                                            ("report", "gm-report"))}
        assert fresh == stored


def test_the_resubmission_replaced_the_first_sheet(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    acks = [summary(p.read_bytes()) for p in sorted((directory / "outbox").glob("*-ack-alice*"))]
    assert sum("replaces the one you sent before" in a for a in acks) == 1
