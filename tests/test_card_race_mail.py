"""The card race by mail: the sample championship's mails match their golden copies, and no mail
shows a reader another player's hand, bets or order evaluation.

To accept a deliberate change of the reports, run
    PBEM_UPDATE_GOLDEN=1 python -m pytest tests/test_card_race_mail.py
and review the diff of tests/golden/card-race/ before committing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.games.base import Viewer
from pbem.moderator import Moderator
from tests.mailcheck import check_golden, report_differences, stored_reports

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGN = ROOT / "sample_turns" / "card-race"
GOLDEN = Path(__file__).parent / "golden" / "card-race"
NAME = "derby"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Moderator]:
    directory = tmp_path_factory.mktemp("derby") / "demo"
    return directory, run_demo(directory, echo=lambda _: None, campaign_dir=CAMPAIGN)


def test_campaign_mails_match_the_golden_copies(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    check_golden(directory / "outbox", GOLDEN)


def test_campaign_outcome(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    game, _, state = m.game_state(NAME)
    assert game.turn == 5 and state.round == 1 and state.first == 1
    assert state.pawns == (6, 5, 1, 8, 7)
    with m.store.session() as session:
        statuses = [(r.source.rsplit("/", 1)[-1], r.status) for r in m.store.messages(session)]
    assert ("02-chandra-gmail-wrong-secret.eml", "refused") in statuses


def test_re_rendering_every_turn_gives_the_same_bytes(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    for turn in range(1, 5):
        game, players, record = m.turn_record(NAME, turn)
        fresh = {mail.msg_id: mail.raw for mail in m.render_turn(game, players, record)}
        stored = stored_reports(m, game.id or 0, turn)
        assert fresh == stored


# --- hidden information ------------------------------------------------------------------------


def test_no_report_shows_another_players_hand_or_bets(campaign: tuple[Path, Moderator]) -> None:
    assert list(report_differences(campaign[1], NAME)) == []


def test_the_check_catches_a_view_that_leaks(campaign: tuple[Path, Moderator], monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.card_race import view as views

    honest = views.view
    monkeypatch.setattr(views, "view", lambda state, viewer: honest(state, Viewer.gm()))
    found = list(report_differences(campaign[1], NAME))
    assert found and all("hidden values" in f for f in found)


def test_the_check_catches_unredacted_events(campaign: tuple[Path, Moderator], monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.card_race import present
    from pbem.games.card_race import view as views
    from pbem.games.present import Reader

    honest = present.CardRacePresenter.report

    def leaky(self: present.CardRacePresenter, view: views.View, resolutions: list[object], reader: Reader) -> object:
        return honest(self, view, resolutions, Reader(Viewer.gm(), reader.name, reader.seats))  # type: ignore[arg-type]

    monkeypatch.setattr(views, "redact", lambda event, viewer: event)
    monkeypatch.setattr(present.CardRacePresenter, "report", leaky)
    assert list(report_differences(campaign[1], NAME))


def test_welcome_mails_show_no_other_players_cards(tmp_path: Path) -> None:
    m = run_demo(tmp_path / "demo", echo=lambda _: None, campaign_dir=CAMPAIGN)
    game, players, _ = m.history(NAME)
    engine = m.engine(game)
    state = m.state(game, m.turn_record(NAME, 1)[2].before)
    for other in players:
        varied, _ = engine.vary_hidden(state, (), other.seat, 7)
        for reader in players:
            a = m.mailer.welcome(game, engine, state, reader, game.created_at).raw
            b = m.mailer.welcome(game, engine, varied, reader, game.created_at).raw
            assert (a == b) == (reader != other), (reader.name, other.name)
