"""Hidden information is enforced by code: no mail shows a reader anything private to another seat.

For every resolved turn of the sample campaign, every reader and every other seat, the test
changes that other seat's hidden values (carrots, orders, private hare details) through the
game's own `vary_hidden`, renders the reader's report from both, and requires the two mails to
be the same bytes: text, HTML, the picture, its alt text and the attachment names. A mail that
changed would be showing the reader something that depends on another seat's secrets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.games.base import Viewer
from pbem.moderator import Moderator
from tests.mailcheck import report_differences


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Moderator:
    return run_demo(tmp_path_factory.mktemp("hidden") / "demo", echo=lambda _: None)


differences = report_differences


def test_no_report_shows_another_seats_hidden_values(campaign: Moderator) -> None:
    assert list(differences(campaign, "sample-race")) == []


def test_the_check_catches_a_view_that_leaks(campaign: Moderator, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.hare_tortoise import view as views

    honest = views.view
    monkeypatch.setattr(views, "view", lambda state, viewer: honest(state, Viewer.gm()))
    found = list(differences(campaign, "sample-race"))
    assert found and all("hidden values" in f for f in found)


def test_the_check_catches_a_report_that_shows_unredacted_slots(campaign: Moderator,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.hare_tortoise import present
    from pbem.games.hare_tortoise import view as views

    monkeypatch.setattr(views, "redact", lambda slot, viewer: slot)
    honest = present._slot_view
    monkeypatch.setattr(present, "_slot_view", lambda slot, reader, kinds: honest(
        slot, present.Reader(Viewer.gm(), reader.name, reader.seats), kinds))
    assert list(differences(campaign, "sample-race"))


def test_welcome_mails_show_no_other_seats_hidden_values(tmp_path: Path) -> None:
    m = run_demo(tmp_path / "demo", echo=lambda _: None)
    game, players, _ = m.history("sample-race")
    engine = m.engine(game)
    state = m.state(game, m.turn_record("sample-race", 1)[2].before)
    for other in players:
        varied, _ = engine.vary_hidden(state, (), other.seat, 7)
        for reader in players:
            if reader != other:
                a = m.mailer.welcome(game, engine, state, reader, game.created_at).raw
                b = m.mailer.welcome(game, engine, varied, reader, game.created_at).raw
                assert a == b, (reader.name, other.name)


def test_a_game_with_one_public_picture_draws_it_once_per_turn(campaign: Moderator,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Hare & Tortoise keeps one public picture: the reports of a turn draw it once, and no
    reader's own picture is drawn (that is for games that set `private_pictures`)."""
    import json

    game, players, turns = campaign.history("sample-race")
    engine = campaign.engine(game)
    assert not engine.presenter.private_pictures
    calls: list[str] = []
    cls = type(engine.presenter)
    public, own = cls.picture, cls.reader_picture
    monkeypatch.setattr(cls, "picture", lambda self, *a, **k: calls.append("public") or public(self, *a, **k))
    monkeypatch.setattr(cls, "reader_picture", lambda self, *a, **k: calls.append("own") or own(self, *a, **k))
    record = turns[0]
    out = campaign.mailer.reports(game, engine, players, campaign.state(game, record.after),
                                  [engine.resolution_from_json(d) for d in json.loads(record.resolutions)],
                                  turn=record.turn, resolved=record.resolved_at, deadline=record.deadline)
    assert len(out) == len([p for p in players if p.email]) + 1
    assert calls == ["public"]
