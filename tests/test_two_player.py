"""The option two-player of Hare & Tortoise (RULESETS.md, "Options" -> "two-player"): set-up and
its refusals, the order language's runner names and their rejections in plain words, the
preview, lint and edits, the reports, the computer players, and whole games through `pbem run`
by mail on the embedded default with every report checked for hidden values."""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.config import load_config
from pbem.errors import PbemError
from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise.orders.parser import TwoPlayer, parse_sheet
from pbem.games.hare_tortoise.rules import RULESETS
from pbem.games.hare_tortoise.sam import two_player_chain
from pbem.games.hare_tortoise.state import Runner, State
from pbem.games.sheet import Rejected, read_sheet
from pbem.moderator import Moderator
from pbem.runner import Runner as Worker
from tests.mailcheck import report_differences

GAME = find_game("hare-tortoise")
TWO = TwoPlayer(("Ann1", "Ann2", "Bob1", "Bob2"), (0, 1), ("Ann", "Bob"))


def _new(ruleset: str = "variable-pig", *options: str, seats: tuple[str, ...] = ("Ann", "Bob")) -> State:
    return GAME.new_state(Setup(ruleset, tuple(SeatSpec(s) for s in seats), ("two-player", *options)),
                          LegacyChance(1, 0))


# set-up --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("ruleset", "carrots"), [(name, 98 if name == "hase-igel-sam" else 95) for name in RULESETS])
def test_each_player_has_two_runners_and_one_supply(ruleset: str, carrots: int) -> None:
    state = _new(ruleset)
    assert [r.name for r in state.runners] == ["Ann1", "Ann2", "Bob1", "Bob2"]
    assert {(r.carrots, r.lettuces) for r in state.runners} == {(carrots, 5)}
    assert state.seats == ("Ann", "Bob") and GAME.seats(state) == ("Ann", "Bob")
    assert GAME.to_move(state) == (0, 1)


def test_two_player_with_face_to_face() -> None:
    state = _new("hase-igel-sam", "face-to-face")
    assert state.options == ("two-player", "face-to-face")
    assert GAME.view(state, Viewer(0)).sequence == (0, 1)


@pytest.mark.parametrize(("seats", "options", "message"), [
    (("Ann", "Bob", "Cyd"), (), "option two-player needs 2 seats, not 3"),
    (("Ann", "Bob"), ("partnership",), "options two-player and partnership cannot be combined"),
    (("Ann", "Bob"), ("carrots-95",), "options two-player and carrots-95 cannot be combined"),
    (("Ann", "Ann1"), (), "give the names Ann1 and Ann1, equal ignoring case"),
    (("Bob", "bob2"), (), "give the names bob2 and Bob2, equal ignoring case"),
])
def test_refused_set_ups(seats: tuple[str, ...], options: tuple[str, ...], message: str) -> None:
    with pytest.raises(PbemError, match=re.escape(message)):
        _new("variable-pig", *options, seats=seats)


# orders --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "canonical"), [
    ("MOVE: ANN1 TO 23", "MOVE 1: Ann1 TO 23"),
    ("move: ann2 next carrot", "MOVE 1: Ann2 NEXT CARROT"),
    ("MOVE: IF SQUARE 22 IS FREE AND RANK >= 3 THEN ANN2 TO 22 ELSE ANN1 NEXT CARROT",
     "MOVE 1: IF SQUARE 22 IS FREE AND RANK >= 3 THEN Ann2 TO 22 ELSE Ann1 NEXT CARROT"),
    ("MOVE: IF BOB1 IS AHEAD THEN ANN1 BACK ELSE ANN2 NEXT", "MOVE 1: IF Bob1 IS AHEAD THEN Ann1 BACK ELSE Ann2 NEXT"),
    ("DEFAULT: ANN1 STAY GIVE ELSE ANN2 HOME", "DEFAULT: Ann1 STAY GIVE ELSE Ann2 HOME"),
    ("HARE: IF CARROTS > 20 THEN GIVE ELSE TAKE", "HARE: IF CARROTS > 20 THEN GIVE ELSE TAKE"),
])
def test_runner_names_before_actions_and_in_conditions(line: str, canonical: str) -> None:
    sheet = parse_sheet(line, ("Ann", "Bob"), two=TWO)
    assert [a.canonical for a in sheet.accepted] == [canonical] and not sheet.rejected


@pytest.mark.parametrize(("line", "column", "reason"), [
    ("MOVE: TO 23", 7, "name the runner that makes the move TO 23: Ann1 TO 23 or Ann2 TO 23"),
    ("MOVE: IF SQUARE 22 IS FREE THEN TO 22", 33, "name the runner that makes the move TO 22: Ann1 TO 22 or Ann2 TO 22"),
    ("MOVE: BOB1 TO 5", 7, "Bob1 is another player's runner; you move only Ann1 and Ann2"),
    ("MOVE: ANN TO 5", 7, "Ann is a player, not a runner: name the runner that moves (Ann1 TO 5 or Ann2 TO 5)"),
    ("MOVE: AN1 TO 5", 7, "no runner called An1 — did you mean Ann1?"),
    ("MOVE: IF BOB IS ON 5 THEN ANN1 NEXT", 10,
     "Bob is a player: in a two-player game conditions name a runner (Bob1 or Bob2)"),
    ("MOVE: IF BOBB1 IS HOME THEN ANN1 HOME", 10, "no runner called Bobb1 — did you mean Bob1?"),
    ("HARE: ANN1 TAKE", 7, "ANN1 names a runner; a HARE choice names none (the runner concerned chooses)"),
])
def test_rejections_in_plain_words(line: str, column: int, reason: str) -> None:
    sheet = parse_sheet(line, ("Ann", "Bob"), two=TWO)
    assert not sheet.accepted
    assert [(r.column, r.reason) for r in sheet.rejected] == [(column, reason)]
    if line.startswith("MOVE"):
        assert sheet.moves[0].chain is None  # a rejected MOVE line still takes its slot


def test_a_runner_name_in_the_one_runner_game_is_an_unknown_word() -> None:
    sheet = parse_sheet("MOVE: ANN1 TO 23", ("Ann", "Bob"))
    assert [r.reason for r in sheet.rejected] == ["unknown word 'ANN1' — did you mean Ann?"]


def test_the_game_reads_each_authors_own_runners() -> None:
    state = _new()
    ann = GAME.parse(state, read_sheet("MOVE: ANN1 TO 5\nMOVE: BOB1 TO 5"), 0)
    bob = GAME.parse(state, read_sheet("MOVE: BOB1 TO 5\nMOVE: ANN1 TO 5"), 1)
    assert [e.line for e in ann.echo if isinstance(e, Rejected)] == [2]
    assert [e.line for e in bob.echo if isinstance(e, Rejected)] == [2]
    assert ann.expected == 2 and bob.expected == 1


# preview, lint, edit ---------------------------------------------------------------------------------

def test_preview_names_the_runner_of_each_slot() -> None:
    state = _new()
    orders = GAME.parse(state, read_sheet("MOVE: ANN1 TO 5\nMOVE: IF SQUARE 7 IS FREE THEN ANN2 TO 7"), 0).orders
    assert GAME.preview(state, orders, 0) == (
        "Turn 1, 2 slots; you start with Ann1 on START and Ann2 on START, and 95 carrots and 5 lettuces. The other "
        "runners are taken to stand still; no die is thrown.",
        "Slot 1 (MOVE 1): Ann1 moves from START to square 5 (pays 15 carrots).",
        "     alternative 1 `Ann1 TO 5`: taken",
        "Slot 2 (MOVE 2): Ann2 moves from START to square 7 (pays 28 carrots).",
        "     alternative 1 `IF SQUARE 7 IS FREE THEN Ann2 TO 7`: taken",
        "You would end with Ann1 on square 5 and Ann2 on square 7, and 52 carrots and 5 lettuces.",
    )


def test_lint_reads_the_acting_runners_square() -> None:
    state = GAME.edit(_new(), 0, "square2", "13")
    orders = GAME.parse(state, read_sheet("MOVE: ANN1 STAY ELSE ANN2 STAY\nMOVE: ANN2 NEXT"), 0).orders
    assert GAME.lint(state, orders, 0) == (
        "MOVE 1 (line 1), alternative 1 `Ann1 STAY`: STAY is allowed only on a carrot square, and you are on START",
    )


def test_edits_set_a_runner_or_the_supply() -> None:
    state = GAME.edit(GAME.edit(_new(), 1, "square2", "12"), 1, "carrots", "40")
    assert state.runners[2:] == (Runner("Bob1", 0, 40, 5), Runner("Bob2", 12, 40, 5))
    with pytest.raises(PbemError, match="in a two-player game the values are square1, square2, must1, must2"):
        GAME.edit(state, 0, "square", "3")


# reports ------------------------------------------------------------------------------------------------

def _play_one_turn() -> tuple[State, tuple[object, ...]]:
    state = _new()
    orders = {0: GAME.parse(state, read_sheet("MOVE: ANN1 TO 5\nMOVE: ANN2 TO 10"), 0).orders,
              1: GAME.parse(state, read_sheet("MOVE: BOB2 TO 2"), 1).orders}
    outcome = GAME.resolve(state, orders, LegacyChance(1, 1))
    return outcome.state, tuple(outcome.resolutions)


def test_the_position_lists_both_runners_with_the_supply() -> None:
    state, slots = _play_one_turn()
    assert [f"{r.name} {r.square_label} {r.carrots} {r.lettuces} {r.must.value}" for r in state.runners] == [
        "Ann1 5 25 5 none", "Ann2 10 25 5 eat", "Bob1 start 92 5 none", "Bob2 2 92 5 none"]
    assert [(s.seat, s.name, s.from_square, s.to_square) for s in slots] == [  # type: ignore[attr-defined]
        (0, "Ann1", 0, 5), (1, "Bob2", 0, 2), (0, "Ann2", 0, 10)]


def test_hidden_supply_in_views() -> None:
    state, _ = _play_one_turn()
    view = GAME.view(state, Viewer(1))
    assert [r.carrots for r in view.runners] == [None, None, 92, 92]
    assert [r.seat for r in view.runners] == [0, 0, 1, 1]
    assert view.seats == ("Ann", "Bob")


def test_a_win_when_both_runners_of_a_player_are_home() -> None:
    state = State("variable-pig", (Runner("Ann1", 64, 20, 0, 1), Runner("Ann2", 63, 21, 0),
                                   Runner("Bob1", 40, 50, 2), Runner("Bob2", 30, 50, 2)), 3, 0, False, ("two-player",))
    orders = {0: GAME.parse(state, read_sheet("MOVE: ANN2 HOME"), 0).orders}
    after = GAME.resolve(state, orders, LegacyChance(1, 3)).state
    result = GAME.result(after)
    assert after.over and result.winners == ("Ann",)
    assert [(p.name, p.place, p.detail) for p in result.places] == [
        ("Ann", 1, "Ann1 home, Ann2 home"), ("Bob", None, "Bob1 40, Bob2 30")]
    assert [r.place for r in after.runners] == [1, 2, None, None]


# computer players -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", list(RULESETS))
@pytest.mark.parametrize("options", [(), ("face-to-face",)])
def test_computer_players_write_whole_sheets_and_finish_within_200_turns(ruleset: str, options: tuple[str, ...]) -> None:
    for seed in range(3):
        state = GAME.new_state(Setup(ruleset, (SeatSpec("Sam"), SeatSpec("Max")), ("two-player", *options)),
                               LegacyChance(seed, 0))
        bots = [GAME.bot(level) for level in ("sam", "baseline", "strong")]
        turns = 0
        while not GAME.is_over(state):
            assert turns < 200, f"{ruleset} {options} seed {seed} still running"
            orders = {}
            for seat in GAME.to_move(state):
                bot = bots[(seed + seat) % 3]
                assert bot is not None
                text = bot.write(GAME.view(state, Viewer(seat)), LegacyChance(f"{seed}/{seat}", state.turn))
                parsed = GAME.parse(state, read_sheet(text), seat)
                assert not [e for e in parsed.echo if isinstance(e, Rejected)], text
                orders[seat] = parsed.orders
            state = GAME.resolve(state, orders, LegacyChance(seed, state.turn)).state
            turns += 1
        assert len(GAME.result(state).winners) == 1


def test_the_computer_players_chain_fits_an_order_line() -> None:
    assert len(two_player_chain("Ann")) <= 480 and len(two_player_chain("A" * 40)) <= 480
    assert two_player_chain("Ann").startswith("IF LETTUCES = 0 THEN Ann1 HOME ELSE IF LETTUCES = 0 THEN Ann2 HOME")


# by mail, through `pbem run` on the embedded default ---------------------------------------------------------

def _last_mail_to(root: Path, address: str) -> str:
    path = sorted(p for p in (root / "outbox").glob("*.eml") if p.name.endswith(f"-{address}.eml")
                  and ("-welcome-" in p.name or "-report-" in p.name))[-1]
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


@pytest.mark.parametrize(("ruleset", "options"), [("variable-pig", ()), ("hase-igel-sam", ("face-to-face",))])
def test_a_two_player_game_plays_to_its_end_by_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     ruleset: str, options: tuple[str, ...]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    run = CliRunner()
    assert run.invoke(main, ["init", "."]).exit_code == 0
    args = ["new-game", "duo", "--rules", ruleset, "--option", "two-player", "--seed", "4", "--early",
            "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.net"]
    for option in options:
        args += ["--option", option]
    result = run.invoke(main, args)
    assert result.exit_code == 0, result.output
    welcome = _last_mail_to(tmp_path, "ann@example.org")
    assert "Two-player: each of you moves two runners (Ann1, Ann2 and Bob1, Bob2) from one supply of " in " ".join(
        welcome.split())  # the notes are wrapped
    assert "MOVE: Ann1 NEXT ELSE Ann2 NEXT" in welcome
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    worker = Worker(m)
    players = (("Ann", "ann@example.org"), ("Bob", "bob@example.net"))
    for n in range(200):
        if m.status("duo").over:
            break
        for k, (name, address) in enumerate(players):
            text = _last_mail_to(tmp_path, address)
            head = [line.strip() for line in text.splitlines() if line.strip().startswith(("GAME ", "TURN ", "SECRET "))]
            body = "\n".join(head[-3:] + [f"DEFAULT: {two_player_chain(name)}"])
            raw = (f"From: {name} <{address}>\nTo: gm@pbem.example\nSubject: orders\nMessage-ID: <t{n}s{k}@x>\n"
                   f"Date: Fri, 20 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n{body}\n")
            (tmp_path / "inbox" / "new" / f"17000{n:04d}{k}.M1.host").write_bytes(raw.encode())
        worker.round()
    status = m.status("duo")
    assert status.over, status
    report = _last_mail_to(tmp_path, "ann@example.org")
    assert re.search(r"The race is over\. (Ann|Bob) wins!", report)
    assert "Supplies (one for both runners of a player): " in report
    with m.store.session() as session:
        orders = [r for r in m.store.messages(session) if r.source != "computer-player"]
    assert orders and {r.status for r in orders} == {"accepted"}
    assert list(report_differences(m, "duo")) == []
    # the welcome mails show no other seat's supply either
    game, seats, _ = m.history("duo")
    engine = m.engine(game)
    state = m.state(game, m.turn_record("duo", 1)[2].before)
    for other in seats:
        varied, _ = engine.vary_hidden(state, (), other.seat, 7)
        assert [r.carrots for r in varied.runners] != [r.carrots for r in state.runners]
        for reader in seats:
            if reader != other:
                plain = m.mailer.welcome(game, engine, state, reader, game.created_at).raw
                assert m.mailer.welcome(game, engine, varied, reader, game.created_at).raw == plain


def test_the_report_shows_both_runners_and_the_supply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    run = CliRunner()
    assert run.invoke(main, ["init", "."]).exit_code == 0
    result = run.invoke(main, ["new-game", "duo", "--rules", "parlett-2010", "--option", "two-player", "--seed", "3",
                               "--player", "Ann=ann@example.org", "--player", "Bob=bob@example.net"])
    assert result.exit_code == 0, result.output
    (tmp_path / "ann.txt").write_text("MOVE: ANN1 TO 5\nMOVE: IF SQUARE 7 IS FREE THEN ANN2 TO 7 ELSE ANN2 NEXT\n")
    (tmp_path / "bob.txt").write_text("MOVE: BOB1 TO 10\n")
    for seat, sheet in (("Ann", "ann.txt"), ("Bob", "bob.txt")):
        assert run.invoke(main, ["sheet", "duo", seat, sheet]).exit_code == 0
    assert run.invoke(main, ["resolve-turn", "duo"]).exit_code == 0
    ann = _last_mail_to(tmp_path, "ann@example.org")
    bob = _last_mail_to(tmp_path, "bob@example.net")
    assert ann.split("WHAT HAPPENED\n")[1].split("Reply to")[0] == (
        "1. Ann1 moves from START to square 5\n"
        "     pays 15 carrots\n"
        "     order: MOVE 1: Ann1 TO 5\n"
        "       1. Ann1 TO 5 — taken\n"
        "     carrots 95 -> 80, lettuces 5 -> 5\n"
        "2. Bob1 moves from START to square 10\n"
        "     pays 55 carrots\n"
        "     a lettuce square: eats at the next slot\n"
        "3. Ann2 moves from START to square 7\n"
        "     pays 28 carrots\n"
        "     order: MOVE 2: IF SQUARE 7 IS FREE THEN Ann2 TO 7 ELSE Ann2 NEXT\n"
        "       1. IF SQUARE 7 IS FREE THEN Ann2 TO 7 — taken\n"
        "     carrots 80 -> 52, lettuces 5 -> 5\n"
        "\n"
        "STANDINGS\n"
        "  1st         Bob1       square 10    lettuces 5  (eats a lettuce next slot)\n"
        "  2nd         Ann2       square 7     lettuces 5  carrots 52\n"
        "  3rd         Ann1       square 5     lettuces 5  carrots 52\n"
        "  4th         Bob2       square START lettuces 5\n"
        "  Supplies (one for both runners of a player): Ann 52 carrots, 5 lettuces; Bob 5 lettuces.\n"
        "  Hare deck: 15 cards in the draw pile.\n"
        "\n"
        "YOU\n"
        "  Ann1 on square 5, position 3; Ann2 on square 7, position 2\n"
        "  Your supply (both runners): 52 carrots, 5 lettuces\n"
        "\n"
        "NEXT TURN: 2\n"
        "  Order of play: Bob, Ann, Bob (Bob moves first and last)\n"
        "  You have 1 slot: send one MOVE line.\n"
        "  Deadline: no deadline set\n"
        "\n"
    )
    assert "Supplies (one for both runners of a player): Ann 5 lettuces; Bob 40 carrots, 5 lettuces." in bob
    assert "  Bob1 on square 10, position 1; Bob2 on START, position 4\n" in bob
    assert "Bob1 eats a lettuce at your next slot (your MOVE line for it is used up)." in bob
    assert "MOVE: Bob1 NEXT ELSE Bob2 NEXT\nMOVE: Bob1 NEXT ELSE Bob2 NEXT\nDEFAULT: Bob1 NEXT ELSE Bob2 NEXT\n" \
        "HARE: KEEP" in bob
    assert "carrots 95 -> 80" not in bob and "52" not in bob.split("STANDINGS")[1]


@pytest.mark.parametrize(("ruleset", "options"), [("parlett-2010", ("face-to-face",)), ("intellect-1974", ())])
def test_an_all_computer_two_player_game_runs_to_its_end_through_pbem_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, options: tuple[str, ...]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PBEM_NOW", "2026-11-20T09:00:00Z")
    monkeypatch.delenv("PBEM_CONFIG", raising=False)
    assert CliRunner().invoke(main, ["init", "."]).exit_code == 0
    args = ["new-game", "robots", "--rules", ruleset, "--option", "two-player", "--seed", "3", "--early",
            "--player", "Sam=bot:sam", "--player", "Max=bot:strong"]
    for option in options:
        args += ["--option", option]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    m = Moderator(load_config(tmp_path / "pbem.toml"))
    worker = Worker(m)
    for _ in range(200):
        if m.status("robots").over:
            break
        worker.round()
    assert m.status("robots").over
    with m.store.session() as session:
        sheets = [r for r in m.store.messages(session) if r.source == "computer-player"]
    assert sheets and all(r.status == "accepted" for r in sheets)
