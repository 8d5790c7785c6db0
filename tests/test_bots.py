"""Computer players: what they may see, whole games by mail, and a seat that changes hands."""

from __future__ import annotations

import email
import email.policy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main
from pbem.config import load_config
from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise import GAME
from pbem.games.hare_tortoise.bots import LEVELS
from pbem.games.hare_tortoise.state import State
from pbem.games.sheet import read_sheet
from pbem.moderator import Moderator
from pbem.runner import Runner

NAMES = ("Ann", "Bob", "Cyd", "Dot")


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def positions(ruleset: str, turns: int = 12, options: tuple[str, ...] = (), levels: tuple[str, ...] = ("baseline",),
              every: list[tuple[State, int, str]] | None = None) -> list[State]:
    """Positions of a game that players of `levels` (by turns round the seats) play, turn by
    turn; `every` collects each sheet written, with its position and seat."""
    seats = NAMES[:2] if "two-player" in options else (*NAMES, "Eve", "Fay") if "carrots-95" in options else NAMES
    teams = ("Reds", "Blues") if "partnership" in options else (None,)  # partners never sit side by side
    state = GAME.new_state(Setup(ruleset, tuple(SeatSpec(n, teams[k % len(teams)]) for k, n in enumerate(seats)),
                                 options), LegacyChance(5, 0))
    players = [GAME.bot(levels[k % len(levels)]) for k in range(len(seats))]
    out: list[State] = []
    while not state.over and len(out) < turns:
        out.append(state)
        orders = {}
        for seat in GAME.to_move(state):
            player = players[seat]
            assert player is not None
            text = player.write(GAME.view(state, Viewer(seat)), LegacyChance(1, state.turn))
            if every is not None:
                every.append((state, seat, text))
            orders[seat] = GAME.parse(state, read_sheet(text), seat).orders
        state = GAME.resolve(state, orders, LegacyChance(5, state.turn)).state
    return out


@pytest.mark.parametrize("level", ["baseline", "strong"])
@pytest.mark.parametrize(("ruleset", "option"), [*((r.name, "") for r in GAME.info.rulesets),
                                                 ("variable-pig", "two-player")])
def test_a_sheet_never_changes_when_only_another_seats_hidden_values_change(ruleset: str, option: str,
                                                                             level: str) -> None:
    player = GAME.bot(level)
    assert player is not None
    for k, state in enumerate(positions(ruleset, options=(option,) if option else ())[::3]):
        for me in GAME.to_move(state):
            written = player.write(GAME.view(state, Viewer(me)), LegacyChance(k, me))
            for other in range(len(state.runners) // state.per_seat):
                if other == me:
                    continue
                varied, _ = GAME.vary_hidden(state, (), other, seed=100 * k + other)
                runner = other * state.per_seat
                assert varied.runners[runner].carrots != state.runners[runner].carrots
                again = player.write(GAME.view(varied, Viewer(me)), LegacyChance(k, me))
                assert again == written, f"{level} in seat {me} read seat {other}'s carrots"


@pytest.mark.parametrize(("ruleset", "option"), [(r.name, o) for r in GAME.info.rulesets for o in ("", *r.options)])
def test_every_level_writes_sheets_the_game_reads_without_a_rejected_line(ruleset: str, option: str) -> None:
    """Whole races of every level against the others, in every ruleset and option: every line of
    every sheet is taken."""
    written: list[tuple[State, int, str]] = []
    positions(ruleset, 40, (option,) if option else (), tuple(LEVELS), written)
    assert len(written) > 40
    for state, seat, text in written:
        parsed = GAME.parse(state, read_sheet(text), seat)
        assert [e for e in parsed.echo if type(e).__name__ != "Accepted"] == [], text


def test_an_unknown_level_is_no_computer_player() -> None:
    assert GAME.bot("grandmaster") is None


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    run("init", ".", "--address", "gm@pbem.example")
    return tmp_path


def plain(raw: bytes) -> str:
    body = email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",))
    assert body is not None
    return str(body.get_content())  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", [r.name for r in GAME.info.rulesets])
def test_an_all_computer_game_runs_to_the_end_by_mail(folder: Path, ruleset: str) -> None:
    run("new-game", "robots", "--rules", ruleset, "--seed", "11", "--early", "--player", "Sam=bot:strong",
        "--player", "Max=bot:baseline", "--player", "Ida=bot")
    m = Moderator(load_config(folder / "pbem.toml"))
    worker = Runner(m)
    for _ in range(400):
        if m.status("robots").over:
            break
        worker.round()
    status = m.status("robots")
    assert status.over, f"still racing at turn {status.turn}"
    game, players, turns = m.history("robots")
    with m.store.session() as session:
        sheets = [r for r in m.store.messages(session) if r.source == "computer-player"]
        mails = m.store.mails(session)
    assert sheets and all(r.status == "accepted" for r in sheets)
    # every turn's record holds each moving computer player's sheet, and the GM's reports show them
    assert all(any(text for text in json.loads(t.sheets).values()) for t in turns)
    gm_reports = [r for r in mails if r.kind == "gm-report"]
    assert len(gm_reports) == len(turns) and {r.status for r in gm_reports} == {"sent"}
    last = plain(m.store.mail_bodies([gm_reports[-1].id or 0])[gm_reports[-1].id or 0])
    assert "Computer players: Sam (strong), Max (baseline), Ida (default)." in last
    assert "wins" in last


def test_a_seat_handed_to_a_computer_mid_game_keeps_the_game_going(folder: Path) -> None:
    run("new-game", "race", "--seed", "7", "--deadline", "7d", "--player", "Ann=ann@example.org",
        "--player", "Bob=bob@example.net", "--secret", "Ann=AAA-111", "--secret", "Bob=BBB-222")
    m = Moderator(load_config(folder / "pbem.toml"))
    raw = (b"From: Ann <ann@example.org>\nTo: gm@pbem.example\nSubject: orders\nMessage-ID: <a1@x>\n"
           b"Content-Type: text/plain\n\nGAME race\nSECRET AAA-111\nMOVE: TO 2\nMOVE: NEXT\n")
    assert m.ingest(raw, "a").status == "accepted"
    m.resolve("race", force=True)
    out = run("replace", "race", "Bob", "--bot", "strong").output
    assert "Bob of race is now played by a computer player (strong)" in out
    status = m.status("race")
    assert [(p.name, p.email, p.bot) for p in status.players] == [
        ("Ann", "ann@example.org", None), ("Bob", "", "strong")]
    # Bob's address no longer opens the seat, and nothing that was sent is lost
    raw_bob = (b"From: Bob <bob@example.net>\nTo: gm@pbem.example\nSubject: orders\nMessage-ID: <b1@x>\n"
               b"Content-Type: text/plain\n\nGAME race\nSECRET BBB-222\nMOVE: NEXT\n")
    assert m.ingest(raw_bob, "b").status == "refused"
    summary = m.resolve("race", force=True)
    bob_slots = [s for s in summary.resolutions if s.name == "Bob"]
    assert bob_slots and all(s.order.startswith("MOVE") for s in bob_slots)
    game, players, turns = m.history("race")
    assert [t.turn for t in turns] == [1, 2] and json.loads(turns[1].sheets)["Bob"]
    # and back to a person, who is welcomed with a new secret
    out = run("replace", "race", "Bob", "--email", "bob@example.org").output
    assert "bob@example.org" in out
    with m.store.session() as session:
        welcome = [r for r in m.store.mails(session) if r.kind == "welcome" and r.recipient == "bob@example.org"]
    assert len(welcome) == 1
    assert m.status("race").players[1].bot is None


def test_suggest_by_mail_answers_with_the_strong_players_sheet(folder: Path) -> None:
    run("new-game", "race", "--seed", "7", "--deadline", "7d", "--player", "Ann=ann@example.org",
        "--player", "Bob=bob@example.net", "--secret", "Ann=AAA-111", "--secret", "Bob=BBB-222")
    m = Moderator(load_config(folder / "pbem.toml"))
    raw = (b"From: Ann <ann@example.org>\nTo: gm@pbem.example\nSubject: help\nMessage-ID: <s1@x>\n"
           b"Content-Type: text/plain\n\nGAME race\nSECRET AAA-111\nSUGGEST\n")
    result = m.ingest(raw, "s")
    assert (result.status, result.step) == ("answered", "only-orders")
    with m.store.session() as session:
        answer = [r for r in m.store.mails(session) if r.kind == "answer"]
        game = m.store.game(session, "race")
        assert m.store.current_sheets(session, game.id or 0, 1) == {}  # advice only: nothing stored
    assert len(answer) == 1 and answer[0].recipient == "ann@example.org"
    text = plain(m.store.mail_bodies([answer[0].id or 0])[answer[0].id or 0])
    template = text.split("reply with it:\n\n\n")[1].split("\n\nYOUR ORDERS")[0]
    assert template.startswith("GAME race\nTURN 1\nSECRET ") and "MOVE 1:" in template
    # the template, sent back as it is, is taken as Ann's orders
    reply = (b"From: Ann <ann@example.org>\nTo: gm@pbem.example\nSubject: orders\nMessage-ID: <s2@x>\n"
             b"Content-Type: text/plain\n\n" + template.encode())
    assert m.ingest(reply, "s2").status == "accepted"


def test_a_seat_cannot_go_to_an_unknown_level(folder: Path) -> None:
    run("new-game", "race", "--seed", "7", "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.net")
    result = CliRunner().invoke(main, ["replace", "race", "Bob", "--bot", "grandmaster"])
    assert result.exit_code != 0 and "no computer player of level 'grandmaster'" in result.output
    assert "its levels: strong, baseline, sam" in result.output
    assert find_game("hare-tortoise").bot("strong") is not None
