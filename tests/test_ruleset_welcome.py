"""The welcome mail and the report speak of the game's own ruleset and options: the hare square,
the HARE example, the HOME limit, BACK n, the order template's HARE choice and the turn order."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise.present import brief
from pbem.games.hare_tortoise.rules import RULESETS
from pbem.games.hare_tortoise.view import View
from tests.mailcheck import summary
from tests.test_gm_errors import run
from tests.test_moderator import ok, outbox

PLAYERS = ["--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org"]


def welcome_of(root: Path, *args: str) -> str:
    ok(CliRunner().invoke(main, ["init", "."]))
    ok(run("new-game", "race", *args, *PLAYERS))
    mails = [summary(p.read_bytes()) for p in outbox(root)]
    return next(m for m in mails if "Subject: Welcome" in m and "To: Ann" in m)


@pytest.mark.parametrize(("rules", "hare", "home", "example", "template"), [
    ("variable-pig", "A hare square rolls a die plus your position on the hare table.",
     "at most 10 carrots per finishing place.", "HARE: GIVE", "HARE: TAKE"),
    ("parlett-classic", "A hare square rolls a die plus your position on the hare table.",
     "at most 10 carrots per finishing place.", "HARE: GIVE", "HARE: TAKE"),
    ("intellect-1974", "A hare square turns up a numbered card (1 to 6) plus your position on the hare table.",
     "at most 20 carrots.", "HARE: GIVE", "HARE: TAKE"),
    ("parlett-2010", "A hare square draws the top card of the hare deck (15 cards, each goes back under the\n"
     "    pile).", "at most 10 carrots per finishing place.", "HARE: IF CARROTS > 40 THEN REFUSE ELSE KEEP",
     "HARE: KEEP"),
    ("hase-igel-sam", "A hare square draws the top card of the hare deck (12 cards, reshuffled when used up).",
     "at most 10 carrots per finishing place.", "HARE: IF CARROTS >= 10 THEN GIVE ELSE NONE", "HARE: TAKE"),
])
def test_the_welcome_tells_the_rulesets_own_race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str,
                                                 hare: str, home: str, example: str, template: str) -> None:
    monkeypatch.chdir(tmp_path)
    text = welcome_of(tmp_path, "--rules", rules)
    brief_part = text[text.index("THE RACE IN BRIEF"):text.index("TURNS")]
    assert f"  {hare}\n" in brief_part
    assert f"You may only go HOME with no lettuces left and {home}\n" in brief_part
    assert any(line.startswith(f"    {example}  ") and line.endswith(")") for line in text.splitlines())
    assert text.rstrip().endswith(template)
    assert ("BACK n," in text) is (rules == "hase-igel-sam")
    assert ("Moving back to any free square down to the nearest tortoise square" in brief_part) is (
        rules == "hase-igel-sam")
    assert "rolls a die" not in brief_part or rules in ("variable-pig", "parlett-classic")
    starting = 68 if rules == "hase-igel-sam" else 65
    assert f"with {starting} carrots and 3 lettuces" in brief_part
    # what the race in brief says is not said again under THIS GAME'S RULES
    restart = "A runner with no legal move goes back to START with 68 carrots."
    assert (restart in text) is (rules == "hase-igel-sam")
    assert (" ".join(text.split()).count("so reached does nothing until you move on") == 1) is (rules == "hase-igel-sam")


def test_every_ruleset_says_what_its_hare_square_does() -> None:
    """Each ruleset's hare words differ from the die's unless it rolls a die on a table."""
    for name, cls in RULESETS.items():
        rolls = cls.deck is None and name != "intellect-1974"
        assert ("rolls a die" in cls.hare_words) is rolls, name
    for rules in ("variable-pig", "hase-igel-sam"):
        lines = brief(_view(rules))
        assert len(lines) == 8 and lines[0].startswith("Each runner starts on START")


def test_face_to_face_has_no_first_mover_repeat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = welcome_of(tmp_path, "--option", "face-to-face")
    assert "Each turn every runner still racing has one move slot, in seat order from the first seat.\n" \
           "  This turn: Ann, Bob.\n  You have 1 slot this turn." in text
    assert "moves again at the end" not in text
    ok(run("resolve-turn", "race"))
    reports = [summary(p.read_bytes()) for p in outbox(tmp_path)]
    report = next(m for m in reports if "Subject: race: turn 1 report" in m and "To: Ann" in m)
    assert "  Order of play: Ann, Bob\n" in report
    assert "first and last" not in report


def test_the_postal_rotation_names_the_first_mover_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = welcome_of(tmp_path)
    assert "and the first mover moves again at the end. This turn: Ann, Bob, Ann." in text
    ok(run("resolve-turn", "race"))
    reports = [summary(p.read_bytes()) for p in outbox(tmp_path)]
    report = next(m for m in reports if "Subject: race: turn 1 report" in m and "To: Ann" in m)
    assert "  Order of play: Bob, Ann, Bob (Bob moves first and last)\n" in report


def _view(rules: str) -> View:
    game = find_game("hare-tortoise")
    state = game.new_state(Setup(rules, (SeatSpec("Ann"), SeatSpec("Bob"))), LegacyChance(1))
    return game.view(state, Viewer.public())


def test_the_two_player_welcome_speaks_of_two_runners_and_one_supply(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = welcome_of(tmp_path, "--rules", "hase-igel-sam", "--option", "two-player")
    brief_part = " ".join(text[text.index("THE RACE IN BRIEF"):text.index("TURNS")].split())
    assert ("Each player races two runners from START to HOME (square 64), with one supply of 98 carrots and 5 "
            "lettuces for both.") in brief_part
    assert ("Your first runner may go HOME with any carrots; the second only with no lettuces left and at most 10 "
            "carrots per finishing place.") in brief_part
    assert "    HARE: IF CARROTS >= 10 THEN GIVE ELSE NONE  (pay 10 on \"give or take 10 carrots\")\n" in text
    assert "Conditions: SQUARE n IS FREE|OCCUPIED, <runner> IS ON n|AHEAD|BEHIND|HOME," in text
    assert "BACK, BACK n," in text
