"""The second sample campaign (parlett-2010 with partnership) end to end: every mail pbem writes
matches the golden copy in tests/golden/parlett-2010/.

To accept a deliberate change of the reports, run
    PBEM_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_parlett.py
and review the diff before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.moderator import Moderator
from tests.mailcheck import check_golden

ROOT = Path(__file__).parent.parent
CAMPAIGN = ROOT / "sample_turns" / "parlett-2010"
GOLDEN = Path(__file__).parent / "golden" / "parlett-2010"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Moderator]:
    directory = tmp_path_factory.mktemp("parlett") / "demo"
    return directory, run_demo(directory, echo=lambda _: None, campaign_dir=CAMPAIGN)


def test_parlett_campaign_mails_match_the_golden_copies(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    check_golden(directory / "outbox", GOLDEN)


def test_parlett_campaign_state(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    _, _, state = m.game_state("parlett-race")
    assert state.ruleset == "parlett-2010" and state.options == ("partnership",)
    assert [name for name, _ in state.teams] == ["Red", "Blue"]
    assert len(state.deck) == 15 and state.turn == 3
