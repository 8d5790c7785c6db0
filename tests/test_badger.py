"""If Badger was a Bunny: the sample tournament by mail against its golden copies, hidden
information in every report, the order language's rejections, storage, random races with
every deck option, and the computer players."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.demo import run_demo
from pbem.games import find_game
from pbem.games.badger_bunny.cards import Card
from pbem.games.badger_bunny.state import State
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.sheet import Accepted, Ignored, Rejected, Rejection, read_sheet
from pbem.moderator import Moderator
from tests.mailcheck import check_golden, parts_of, report_differences, summary

ROOT = Path(__file__).resolve().parent.parent
CAMPAIGN = ROOT / "sample_turns" / "badger"
GOLDEN = Path(__file__).parent / "golden" / "badger"
GAME = find_game("badger-bunny")
NAME = "badger-cup"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Moderator]:
    directory = tmp_path_factory.mktemp("badger") / "demo"
    return directory, run_demo(directory, echo=lambda _: None, campaign_dir=CAMPAIGN)


def test_tournament_mails_match_the_golden_copies(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    check_golden(directory / "outbox", GOLDEN)


def test_tournament_is_played_to_its_champion_on_receipt(campaign: tuple[Path, Moderator]) -> None:
    _, m = campaign
    game, _, state = m.game_state(NAME)
    assert game.over and state.over
    assert state.race.number >= 4
    assert state.champion is not None
    assert GAME.result(state).winners == (state.seats[state.champion],)


# hidden information ----------------------------------------------------------------------


def test_no_report_shows_the_other_hand(campaign: tuple[Path, Moderator]) -> None:
    assert list(report_differences(campaign[1], NAME)) == []


def test_the_check_catches_a_view_that_shows_both_hands(campaign: tuple[Path, Moderator],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.badger_bunny import view as views

    honest = views.view
    monkeypatch.setattr(views, "view", lambda state, viewer: honest(state, Viewer.gm()))
    found = list(report_differences(campaign[1], NAME))
    assert found and all("hidden values" in f for f in found)


def test_the_check_catches_unredacted_draws(campaign: tuple[Path, Moderator], monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.badger_bunny import view as views

    monkeypatch.setattr(views, "redact", lambda event, viewer: event)
    assert list(report_differences(campaign[1], NAME))


def _pictures(raw: bytes) -> list[bytes]:
    return [data for kind, data in parts_of(raw) if kind == "image/png"]


def test_each_players_picture_shows_her_own_hand_and_the_gms_none(campaign: tuple[Path, Moderator]) -> None:
    """Every report carries one picture: a player's is drawn from her own view, with her hand
    (in its words too); the GM's is the public picture, drawn once for the turn, with no hand."""
    import email
    import email.policy

    _, m = campaign
    game, players, turns = m.history(NAME)
    engine = m.engine(game)
    for record in turns[:3]:
        after = m.state(game, record.after)
        events = [engine.resolution_from_json(d) for d in json.loads(record.resolutions)]
        mails = {mail.to: mail.raw
                 for mail in m.mailer.reports(game, engine, players, after, events, turn=record.turn,
                                              resolved=record.resolved_at, deadline=record.deadline)}
        public = engine.presenter.picture(engine.view(after, Viewer.public()),
                                          [engine.redact(e, Viewer.public()) for e in events],
                                          title=f"{game.name} — after turn {record.turn}",
                                          subtitle=record.resolved_at.strftime("Resolved %d %b %Y %H:%M UTC"))
        gm = mails[m.config.address]
        assert _pictures(gm) == [public.png]
        own = set()
        for p in players:
            [png] = _pictures(mails[p.email])
            assert png != public.png
            own.add(png)
            html = email.message_from_bytes(mails[p.email], policy=email.policy.default).get_body(("html",))
            assert html is not None
            hand = ", ".join(c.label for c in sorted(after.race.hands[p.seat])) or "no cards"
            assert f"Your hand: {hand}." in str(html.get_content())  # type: ignore[attr-defined]
        assert len(own) == len(players)
        gm_html = email.message_from_bytes(gm, policy=email.policy.default).get_body(("html",))
        assert gm_html is not None and "Your hand" not in str(gm_html.get_content())  # type: ignore[attr-defined]


def test_the_reports_of_a_turn_draw_the_public_picture_once_and_one_picture_per_player(
        campaign: tuple[Path, Moderator], monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.games.badger_bunny.present import BadgerPresenter

    _, m = campaign
    game, players, turns = m.history(NAME)
    engine = m.engine(game)
    calls: list[str] = []
    public, own = BadgerPresenter.picture, BadgerPresenter.reader_picture
    monkeypatch.setattr(BadgerPresenter, "picture", lambda self, *a, **k: calls.append("public") or public(self, *a, **k))
    monkeypatch.setattr(BadgerPresenter, "reader_picture",
                        lambda self, *a, **k: calls.append("own") or own(self, *a, **k))
    record = turns[0]
    out = m.mailer.reports(game, engine, players, m.state(game, record.after),
                           [engine.resolution_from_json(d) for d in json.loads(record.resolutions)],
                           turn=record.turn, resolved=record.resolved_at, deadline=record.deadline)
    assert calls == ["public", "own", "own"]
    assert [len(_pictures(mail.raw)) for mail in out] == [1, 1, 1]


def test_the_public_picture_shows_no_hand_even_from_the_gms_view() -> None:
    state = GAME.new_state(Setup("basic", (SeatSpec("Ann"), SeatSpec("Bob"))), LegacyChance(3, 0))
    pictures = [GAME.presenter.picture(GAME.view(state, viewer), [], title="t", subtitle="s")
                for viewer in (Viewer.public(), Viewer.gm(), Viewer(0))]
    assert pictures[0] == pictures[1] == pictures[2]
    assert "hand" not in pictures[0].svg.lower()


def test_the_archive_shows_the_public_picture_only(campaign: tuple[Path, Moderator], tmp_path: Path) -> None:
    from pbem.archive import build_archive

    build_archive(campaign[1], tmp_path / "site", [NAME])
    boards = list((tmp_path / "site").rglob("board-*.svg"))
    assert boards
    assert not [b.name for b in boards if "Your hand" in b.read_text(encoding="utf-8")]


def test_the_check_catches_a_picture_that_shows_the_other_hand(campaign: tuple[Path, Moderator],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted leak in the picture alone: the reader's picture draws the other player's hand,
    while her report stays honest. The check names the picture (and the HTML, which holds the
    picture's words) as the parts that leak, never the text."""
    from dataclasses import replace

    from pbem.games.badger_bunny import present
    from pbem.games.badger_bunny import view as views

    honest_view, honest_report = views.view, present.BadgerPresenter.report

    def honest(view: views.View, reader: present.Reader) -> views.View:
        seats = tuple(s if s.seat in reader.seats or view.race_over else replace(s, hand=None) for s in view.seats)
        return replace(view, seats=(seats[0], seats[1]), aside=view.aside if view.race_over else None)

    def leaky_picture(self: present.BadgerPresenter, view: views.View, resolutions: object, reader: present.Reader,
                      *, title: str, subtitle: str) -> present.Picture:
        return present._picture(view, view.seats[1 - reader.seats[0]].hand, title=title, subtitle=subtitle)

    monkeypatch.setattr(views, "view", lambda state, viewer: honest_view(state, Viewer.gm()))
    monkeypatch.setattr(present.BadgerPresenter, "report",
                        lambda self, view, events, reader: honest_report(self, honest(view, reader), events, reader))
    monkeypatch.setattr(present.BadgerPresenter, "reader_picture", leaky_picture)
    found = list(report_differences(campaign[1], NAME))
    assert found and all(f.endswith("(text/html, image/png)") for f in found), found[:3]


def test_welcome_shows_the_hare_his_hand_only() -> None:
    state = GAME.new_state(Setup("basic", (SeatSpec("Ann"), SeatSpec("Bob"))), LegacyChance(3, 0))
    hare, tortoise = GAME.view(state, Viewer(0)), GAME.view(state, Viewer(1))
    assert hare.seats[0].hand is not None and len(hare.seats[0].hand) == 8
    assert tortoise.seats[0].hand is None and hare.seats[1].hand is None and tortoise.seats[1].hand == ()
    assert GAME.view(state, Viewer.public()).seats[1].hand is None


# the order language ----------------------------------------------------------------------


def _echo(text: str, ruleset: str = "basic", options: tuple[str, ...] = ()) -> list[object]:
    state = GAME.new_state(Setup(ruleset, (SeatSpec("Ann"), SeatSpec("Bob")), options), LegacyChance(1, 0))
    return list(GAME.parse(state, read_sheet(text), 0).echo)


def test_a_misspelt_card_is_rejected_with_its_column_and_a_suggestion() -> None:
    [echo] = _echo("PLAY 6-MOONS CHANCE-MEETNG")
    assert isinstance(echo, Rejected)
    assert echo.column == 14 and "did you mean CHANCE-MEETING" in echo.reason


def test_an_ambiguous_pawn_is_rejected_as_ambiguous() -> None:
    [echo] = _echo("PLAY PAWN-MOONS", "extended")
    assert isinstance(echo, Rejected) and echo.kind is Rejection.AMBIGUOUS and echo.column == 6


def test_a_card_outside_the_deck_is_illegal() -> None:
    [echo] = _echo("IF I LEAD THEN PLAY HARVEST")
    assert isinstance(echo, Rejected) and echo.kind is Rejection.ILLEGAL and "basic deck" in echo.reason


def test_every_accepted_form_reads_to_the_canonical_line() -> None:
    echoes = _echo("play: lunatic, 7-moon 8-WAVES-leaves\nDEFAULT: if i lead then play lowest else pass\n"
                   "IF NOT (HAND >= 3 OR OPPONENT DECK = 0) AND SERIES IS STRAIGHTS THEN PLAY A-SUN ELSE PASS\nHi!",
                   options=("excuse",))
    assert [e.canonical for e in echoes if isinstance(e, Accepted)] == [
        "PLAY 6-MOONS 7-MOONS 8-WAVES",
        "DEFAULT IF I LEAD THEN PLAY LOWEST ELSE PASS",
        "IF NOT (HAND >= 3 OR OPPONENT DECK = 0) AND SERIES IS STRAIGHT THEN PLAY ACE-SUNS ELSE PASS",
    ]
    assert isinstance(echoes[-1], Ignored)


@pytest.mark.parametrize(("line", "column", "words"), [
    ("PLAY BARD ELSE: PASS", 15, "colon"),
    ("IF LAST RANK < 10 THEN PASS", 16, "not a rank"),
    ("IF HAND > 3 PLAY LOWEST", 13, "THEN"),
    ("PLAY 6-MOONS LUNATIC", 14, "twice"),
    ("PLAY", 5, "at least one card"),
    ("IF (((I LEAD THEN PASS", 14, "')'"),
    ("PLAY 6-MOONS ; PASS", 14, "no meaning"),
])
def test_rejections_say_where_and_why(line: str, column: int, words: str) -> None:
    [echo] = _echo(line)
    assert isinstance(echo, Rejected), echo
    assert echo.column == column and words in echo.reason, echo


def test_a_long_hostile_line_is_read_in_linear_time() -> None:
    import time

    line = "IF " + "(" * 5000 + "I LEAD" + ")" * 5000 + " THEN PASS"
    started = time.perf_counter()
    [echo] = _echo(line)
    assert isinstance(echo, Rejected)
    line = "PLAY " + " ".join(["6-MOONS"] * 10_000)
    [echo] = _echo(line)
    assert isinstance(echo, Rejected)
    assert time.perf_counter() - started < 1.0


# storage and random races ----------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["basic", "extended"])
@pytest.mark.parametrize("options", [(), ("excuse",), ("tournament",), ("excuse", "tournament")])
def test_random_races_with_every_deck_option(ruleset: str, options: tuple[str, ...]) -> None:
    from pbem.games.badger_bunny import testing

    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_state(Setup(ruleset, (SeatSpec("Ann"), SeatSpec("Bob")), options), LegacyChance(seed, 0))
        deck = state.deck
        while not GAME.is_over(state):
            assert state.turn < GAME.max_random_turns
            orders = {s: GAME.parse(state, read_sheet(testing.random_sheet(state, s, rng)), s).orders
                      for s in GAME.may_send(state) if rng.random() < 0.9}
            outcome = GAME.resolve(state, orders, LegacyChance(seed, state.turn))
            state = outcome.state
            race = state.race
            held = [*race.aside, *race.hands[0], *race.hands[1], *race.decks[0], *race.decks[1],
                    *race.courses[0], *race.courses[1]]
            assert sorted(held) == sorted(deck.cards), "a card was lost or made twice"
            assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(state)))) == state
            for e in outcome.resolutions:
                assert GAME.resolution_from_json(json.loads(json.dumps(GAME.resolution_to_json(e)))) == e
        if "tournament" in options:
            assert state.champion is not None and state.race.number >= 4
        else:
            assert state.race.over


# computer players ------------------------------------------------------------------------


def _positions(ruleset: str, options: tuple[str, ...] = ("tournament",), seed: int = 1) -> list[State]:
    """Positions of a tournament the strong player (seat A) plays against the baseline, one per mail turn."""
    state = GAME.new_state(Setup(ruleset, (SeatSpec("Ann"), SeatSpec("Bob")), options), LegacyChance(seed, 0))
    players = [GAME.bot("strong"), GAME.bot("baseline")]
    out = []
    while not GAME.is_over(state) and len(out) < 400:
        out.append(state)
        seat = state.race.act
        player = players[seat]
        assert player is not None
        text = player.write(GAME.view(state, Viewer(seat)), LegacyChance(seed, state.turn))
        state = GAME.resolve(state, {seat: GAME.parse(state, read_sheet(text), seat).orders},
                             LegacyChance(seed, state.turn)).state
    return out


@pytest.mark.parametrize("ruleset", ["basic", "extended"])
def test_the_strong_player_writes_the_same_sheet_whatever_the_other_hand_and_the_decks_hold(ruleset: str) -> None:
    from pbem.games.badger_bunny.bots import Strong

    player = Strong(playouts=60)
    for k, state in enumerate(_positions(ruleset, ("tournament", "excuse"))[:40:4]):
        me = state.race.act
        written = player.write(GAME.view(state, Viewer(me)), LegacyChance(k, me))
        assert written.splitlines()[-1].startswith(("PLAY ", "PASS"))
        for seed in (1, 2):
            varied, _ = GAME.vary_hidden(state, (), 1 - me, seed)
            assert GAME.view(varied, Viewer(me)) == GAME.view(state, Viewer(me))
            assert player.write(GAME.view(varied, Viewer(me)), LegacyChance(k, me)) == written


def test_the_strong_player_goes_out_with_a_straight_when_it_can() -> None:
    from dataclasses import replace

    from pbem.games.badger_bunny.cards import card
    from pbem.games.badger_bunny.state import Race

    def cards(*tokens: str) -> tuple[Card, ...]:
        return tuple(card(t) for t in tokens)

    state = GAME.new_state(Setup("basic", (SeatSpec("Ann"), SeatSpec("Bob"))), LegacyChance(1, 0))
    race = Race(1, 0, (cards("8-WAVES", "6-MOONS", "7-MOONS"), cards("2-SUNS", "3-SUNS")), ((), ()),
                (cards("5-MOONS"), cards("4-WAVES")), cards(), 0)
    state = replace(state, race=race)
    text = GAME.bot("strong").write(GAME.view(state, Viewer(0)), LegacyChance(1, 1))  # type: ignore[union-attr]
    assert text.splitlines()[-1] == "PLAY 6-MOONS 7-MOONS 8-WAVES"
    after = GAME.resolve(state, {0: GAME.parse(state, read_sheet(text), 0).orders}, LegacyChance(1, 1)).state
    assert after.race.over and after.race.winner == 0 and after.race.scores == (2, 0)


def test_the_strong_player_waiting_for_the_other_writes_no_line() -> None:
    state = GAME.new_state(Setup("basic", (SeatSpec("Ann"), SeatSpec("Bob"))), LegacyChance(1, 0))
    text = GAME.bot("strong").write(GAME.view(state, Viewer(1)), LegacyChance(1, 1))  # type: ignore[union-attr]
    parsed = GAME.parse(state, read_sheet(text), 1)
    assert parsed.orders.turns == () and parsed.orders.default is None and parsed.echo == ()


def test_the_strong_player_plays_a_whole_tournament_to_its_champion() -> None:
    positions = _positions("basic")
    last = positions[-1]
    assert len(positions) < 400 and last.race.number >= 4


def test_no_report_shows_that_the_other_sheet_had_notes(campaign: tuple[Path, Moderator]) -> None:
    directory, _ = campaign
    for path in (directory / "outbox").glob("*-report-*.eml"):
        text = summary(path.read_bytes())
        reader = "Ann" if "ann@" in path.name else "Bob"
        other = "Bob" if reader == "Ann" else "Ann"
        assert f". {other}'s sheet" not in text, path.name  # an event line: "3. Ann's sheet"


def test_the_reminder_tells_the_waiting_and_the_acting_player_apart(campaign: tuple[Path, Moderator]) -> None:
    from datetime import datetime, timedelta

    _, m = campaign
    game, players, _ = m.history(NAME)
    engine = m.engine(game)
    state = m.state(game, m.turn_record(NAME, 1)[2].before)
    texts = {p.name: summary(m.mailer.reminder(game, engine, state, p, datetime(2026, 11, 9, 9, 0),
                                               timedelta(hours=24)).raw) for p in players}
    acting = state.seats[state.race.act]
    assert "The race waits for your" in texts[acting]
    assert all("send lines ahead" in t for n, t in texts.items() if n != acting)


@pytest.mark.parametrize("ruleset", ["basic", "extended"])
@pytest.mark.parametrize("options", [(), ("excuse",)])
def test_the_strong_players_simulator_plays_the_rules_of_the_engine(ruleset: str, options: tuple[str, ...]) -> None:
    """The playouts' fast race and the engine agree on every legal set, and, given the same sets
    (and passes) turn by turn from the same deal, stay in the same position to the race's end."""
    from dataclasses import replace

    from pbem.games.badger_bunny import engine, playout
    from pbem.games.badger_bunny.orders import parse_text

    for seed in range(6):
        state = GAME.new_state(Setup(ruleset, (SeatSpec("Ann"), SeatSpec("Bob")), options), LegacyChance(seed, 0))
        t = playout.table(state.deck.extended, state.deck.excuse)
        r = state.race
        sim = playout.Race([[t.index[c] for c in h] for h in r.hands], [[t.index[c] for c in d] for d in r.decks],
                           [t.index[c[-1]] for c in r.courses], r.hare, r.act, r.drawn, playout.NO_SERIES, -1,
                           playout.NONE)
        rng = random.Random(seed)
        while not state.race.over:
            playout.begin_turn(sim)
            p = sim.act
            drawn = replace(state.race.with_seat(p, hand=tuple(t.cards[c] for c in sim.hands[p]),
                                                 deck=tuple(t.cards[c] for c in sim.decks[p])), drawn=True)
            options = playout.sets(t, sim, p, full=True)
            assert engine.has_legal_set(drawn, state.deck, p) == bool(options)
            for s in options:
                legal = engine.check_set(drawn, state.deck, p, [t.cards[c] for c in s])
                assert isinstance(legal, engine.Set) and [t.index[c] for c in legal.cards] == list(s), legal
            chosen = rng.choice(options) if options and rng.random() < 0.85 else None
            text = "PASS" if chosen is None else "PLAY " + " ".join(t.cards[c].token for c in chosen)
            sheets = [None, None]
            sheets[p] = parse_text(text, state.deck)
            state, _ = engine.run(state, sheets, max_turns=1)
            playout.play(t, sim, p, chosen)
            r = state.race
            assert [sorted(t.index[c] for c in h) for h in r.hands] == [sorted(h) for h in sim.hands]
            assert [[t.index[c] for c in d] for d in r.decks] == sim.decks
            assert [t.index[c[-1]] for c in r.courses] == sim.tops
            assert (r.act, r.over, r.scores[0], r.scores[1]) == (sim.act, sim.over, *sim.scores)
        assert (state.race.winner if state.race.winner is not None else -1) == sim.winner
