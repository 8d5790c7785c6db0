"""A computer sitter by mail: named with SITTER, it writes an absent player's sheet from her view.

Over every registered game with a computer player: a player names a sitter (a setting: the
sheet in force stays), goes on VACATION, and her sitter's sheet plays that turn; then a deadline
passes without her sheet and her sitter plays again. Her report says so and shows the sheet,
which is the sheet the computer player writes from her own view; nobody else's report tells it.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import bots
from pbem.cli import main
from pbem.config import load_config
from pbem.games import games
from pbem.moderator import Moderator
from tests.test_mail_commands import Folder, client_mail, folder, new_game, ok, outbox, run, text_of

__all__ = ["folder"]  # the fixture

KINDS = [g.info.name for g in games() if "strong" in g.info.bot_levels]


def reports(mails: list[Path], address: str) -> str:
    found = [p for p in mails if "-report-" in p.name and p.name.endswith(f"-{address}.eml")]
    assert len(found) == 1, [p.name for p in mails]
    return text_of(found[0])


def sitter_sheet(m: Moderator, name: str, seat: int) -> list[str]:
    """The sheet the strong computer player writes for `seat` now, as the report shows it."""
    game, _players, state = m.game_state(name)
    text = bots.write_sheet(m.engine(game), state, seat, "strong", game)
    return [f"    {line}" for line in text.splitlines() if line.strip()]


def at(moment: datetime, root: Path) -> Moderator:
    return Moderator(load_config(root / "pbem.toml"), now=lambda: moment)


@pytest.mark.parametrize("kind", KINDS)
def test_a_sitter_plays_a_vacation_and_a_missed_deadline(folder: Folder, kind: str) -> None:
    emails = new_game("race", kind)
    game, players, state = folder.m.game_state("race")
    engine = folder.m.engine(game)
    seat = engine.may_send(state)[0]
    ann = next(p for p in players if p.seat == seat)
    head = f"GAME race\nSECRET {ann.secret}\n"
    out, mails = folder.send(client_mail(ann.email, head + "SITTER strong", mid="s1@x"))
    assert "no orders, so the sheet in force is unchanged" in out
    answer = text_of(next(p for p in mails if "-answer-" in p.name))
    assert "your computer sitter (strong) is named:" in answer
    assert "You have sent no orders for turn 1 yet: send them before the deadline." in answer
    _, mails = folder.send(client_mail(ann.email, head + "VACATION 2026-11-20 2026-11-21", mid="s2@x"))

    # turn 1, resolved on 20 November: she is away, so her sitter plays
    expected = sitter_sheet(folder.m, "race", seat)
    before = {p.name for p in outbox(folder.root)}
    folder.m.resolve("race", force=True)
    mails = [p for p in outbox(folder.root) if p.name not in before]
    mine = reports(mails, ann.email)
    assert "YOUR SITTER PLAYED\n  Your computer sitter (strong) wrote your sheet, since you are on vacation:\n" in mine
    assert "\n".join(expected) in mine
    for other in emails:
        if other != ann.email:
            assert "SITTER" not in reports(mails, other).upper().replace("SITTER <LEVEL>", "")
    gm = reports(mails, "gm@pbem.example")
    assert f"COMPUTER SITTERS\n  {ann.name}'s computer sitter (strong) wrote the sheet: on vacation\n" in gm
    game, _, _ = folder.m.game_state("race")
    _, _, turns = folder.m.history("race")
    assert json.loads(turns[0].sheets)[ann.name].startswith("# written by the computer sitter (strong)\n")

    # the next turn's deadline passes without her sheet: her sitter plays again
    assert game.deadline is not None
    late = at(datetime(2026, 11, 28, 12, tzinfo=timezone.utc), folder.root)
    game, _, state = late.game_state("race")
    if game.over or seat not in engine.may_send(state):
        pytest.skip("the game gives her no move in turn 2")
    expected = sitter_sheet(late, "race", seat)
    before = {p.name for p in outbox(folder.root)}
    late.resolve("race")
    mails = [p for p in outbox(folder.root) if p.name not in before]
    mine = reports(mails, ann.email)
    assert ("YOUR SITTER PLAYED\n  Your computer sitter (strong) wrote your sheet, since no sheet of yours was in "
            "by the deadline:\n") in mine
    assert "\n".join(expected) in mine
    had_to_move = seat in engine.to_move(state)  # Badger: she may write ahead for a turn the other leads
    history = ok(run("history", "race")).output
    # the vacation excuses turn 1; turn 2's sheet was not hers, a missed turn where she had to move
    assert (f"{ann.name}: 1 missed turn (2)\n" if had_to_move else f"{ann.name}: 0 missed turns\n") in history
    assert f"  GM (2026-11-28 12:00): {ann.name}'s computer sitter (strong) wrote the sheet: no sheet by the deadline" \
        in history


def test_sitter_off_and_the_gms_command(folder: Folder) -> None:
    emails = new_game("race", "card-race")
    _, mails = folder.send(client_mail(emails[0], "GAME race\nSECRET AAA-111\nSITTER grandmaster", mid="g1@x"))
    answer = text_of(next(p for p in mails if "-answer-" in p.name))
    assert "has no computer player of level 'grandmaster'; its levels: strong, baseline." in answer
    result = ok(run("sitter", "race", "Bob", "strong"))
    assert result.output == "Bob of race: computer sitter strong; Bob is told by mail\n"
    notice = text_of(next(p for p in outbox(folder.root) if "-notice-" in p.name and emails[1] in p.name))
    assert "The GM named a computer sitter (strong) for your seat" in notice
    _, mails = folder.send(client_mail(emails[1], "GAME race\nSECRET BBB-222\nSITTER off", mid="g2@x"))
    assert "you have no computer sitter now:" in text_of(next(p for p in mails if "-answer-" in p.name))
    _, players, _ = folder.m.game_state("race")
    assert [p.sitter for p in players] == ["", "", "", ""][:len(players)]
    refused = CliRunner().invoke(main, ["sitter", "race", "Zed", "strong"])
    assert refused.exit_code != 0 and "race has no seat 'Zed'" in refused.output
    notices = len(list(outbox(folder.root)))
    again = CliRunner().invoke(main, ["sitter", "race", "Bob", "off"])
    assert again.exit_code != 0 and "Bob of race already has no computer sitter; nothing was changed" in again.output
    assert len(list(outbox(folder.root))) == notices  # no mail about nothing
