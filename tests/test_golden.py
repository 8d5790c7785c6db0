"""The sample campaign end to end: every mail pbem writes matches the golden copy.

To accept a deliberate change of the reports, run
    PBEM_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
and review the diff of tests/golden/ before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.moderator import Moderator
from tests.mailcheck import check_golden, stored_reports

GOLDEN = Path(__file__).parent / "golden" / "sample_campaign"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Moderator]:
    directory = tmp_path_factory.mktemp("campaign") / "demo"
    m = run_demo(directory, echo=lambda _: None)
    return directory, m


def test_campaign_mails_match_the_golden_copies(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    check_golden(directory / "outbox", GOLDEN)


def test_campaign_outcome(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    game, players, state = m.game_state("sample-race")
    assert game.turn == 7
    assert [(r.name, r.square, r.carrots, r.lettuces) for r in state.runners] == [
        ("Alice", 21, 54, 3), ("Bruno", 26, 34, 2), ("Chandra", 27, 50, 2), ("Dmitri", 13, 86, 2)
    ]
    dmitri = next(p for p in players if p.name == "Dmitri")
    assert dmitri.email == "elena@example.org" and dmitri.since_turn == 5
    with m.store.session() as session:
        statuses = [(r.source.rsplit("/", 2)[-2] + "/" + r.source.rsplit("/", 1)[-1], r.status)
                    for r in m.store.messages(session)]
    assert ("turn3/02-dmitri-outlook365-wrong-secret.eml", "refused") in statuses
    assert sum(1 for _, s in statuses if s == "accepted") == 21
    assert ("turn5/02-elena-preview.eml", "answered") in statuses  # PREVIEW stores nothing
    assert ("turn6/02-chandra-status.eml", "answered") in statuses


def test_campaign_standing_orders_and_the_replacement(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    game, players, record = m.turn_record("sample-race", 6)
    sheets = json.loads(record.sheets)
    assert sheets["Alice"] is not None and "Standing" in sheets["Alice"]  # her turn-5 STANDING sheet played
    assert sheets["Chandra"] is None and sheets["Dmitri"] is None
    _, _, record = m.turn_record("sample-race", 4)
    assert "R8V-2MK" in (json.loads(record.sheets)["Dmitri"] or "")  # the earlier player's history is kept


def test_re_rendering_every_turn_gives_the_same_bytes(campaign: tuple[Path, Moderator]) -> None:
    """The same bytes for every reader who still holds their seat (Dmitri's seat changed hands
    before turn 5: his earlier reports went to the earlier player, and a re-rendering now would
    address the newcomer)."""
    _, m = campaign
    for turn in range(1, 7):
        game, players, record = m.turn_record("sample-race", turn)
        fresh = {mail.msg_id: mail.raw for mail in m.render_turn(game, players, record)}
        stored = stored_reports(m, game.id or 0, turn)
        if turn < 5:
            fresh = {k: v for k, v in fresh.items() if b"elena@example.org" not in v}
            stored = {k: v for k, v in stored.items() if b"dmitri@corp.example" not in v}
        assert fresh == stored
