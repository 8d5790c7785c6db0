"""The further rulesets at set-up and in rule cases: `new-game --rules/--option/--team`, and the
case lines of RULESETS.md's addendum that make a case malformed."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from tests.test_gm_errors import refused, run
from tests.test_moderator import ok

PLAYERS = ["--player", "Ann=ann@example.org", "--player", "Bob=bob@example.org", "--player", "Cyd=cyd@example.org",
           "--player", "Dot=dot@example.org"]


def test_new_game_partnership_with_teams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ok(CliRunner().invoke(main, ["init", "."]))
    result = run("new-game", "duo", "--rules", "parlett-2010", "--option", "partnership", *PLAYERS,
                 "--team", "Red=Ann,Cyd", "--team", "Blue=Bob,Dot")
    assert result.exit_code == 0, result.output
    assert "parlett-2010, options partnership" in result.output


@pytest.mark.parametrize(("extra", "words"), [
    (["--option", "partnership", "--team", "Red=Ann,Bob", "--team", "Blue=Cyd,Dot"], ["sit next to each other"]),
    (["--option", "partnership"], ["has no team"]),
    (["--team", "Red=Ann,Cyd", "--team", "Blue=Bob,Dot"], ["only for the option partnership"]),
    (["--option", "partnership", "--team", "Red=Ann,Zed"], ["'Zed' is not one of the players"]),
    (["--option", "partnership", "--team", "Red"], ["TEAM=NAME,NAME"]),
    (["--option", "carrots-95"], ["carrots-95 needs 5 or 6 seats, not 4"]),
    (["--rules", "hase-igel-sam", "--option", "carrots-95"], ["does not fit the ruleset hase-igel-sam",
                                                              "partnership, face-to-face"]),
])
def test_new_game_refuses_what_the_contract_refuses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   extra: list[str], words: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    ok(CliRunner().invoke(main, ["init", "."]))
    refused(run("new-game", "g", *PLAYERS, *extra), *words)


TP = "OPTIONS two-player\nSEATS Ann Bob\nRUNNER Ann1 square=5\nRUNNER Ann2 square=start\nRUNNER Bob1 square=2\n" \
    "RUNNER Bob2 square=3\n"
BASE = "SEATS Ann Bob\nRUNNER Ann square=5\nRUNNER Bob square=2\n"


@pytest.mark.parametrize(("text", "message"), [
    (f"RULES parlett-2010\n{BASE}DICE 3\n", "uses hare cards, not dice"),
    (f"{BASE}DECK SHOW\n", "has no hare deck"),
    (f"RULES parlett-2010\n{BASE}DECK JOKER\n", "'JOKER' is not a card"),
    (f"RULES parlett-2010\n{BASE}DECK SHUFFLE SHUFFLE\n", "SHUFFLE is listed 2 times"),
    (f"RULES hase-igel-sam\n{BASE}DECK SHOW\n", "'SHOW' is not a card"),
    (f"RULES hase-igel-sam\n{BASE}RESHUFFLE MISS\n", "RESHUFFLE lists the whole deck"),
    ("SEATS Ann Bob\nRUNNER Ann square=5 inert=yes\nRUNNER Bob square=2\n", "inert= is a key of hase-igel-sam"),
    (f"{BASE}EXPECT Ann inert=no\n", "inert= is a key of hase-igel-sam"),
    (f"OPTIONS face-to-face\nFIRST Bob\n{BASE}", "with face-to-face the first mover"),
    (f"{BASE}TEAM Red Ann\n", "TEAM lines need OPTIONS partnership"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nRUNNER Ann square=5\nRUNNER Bob square=2\nRUNNER Cyd square=3\n"
     "RUNNER Dot square=4\n", "partnership needs a TEAM line"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nTEAM Red Ann Bob\nTEAM Blue Cyd Dot\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "sit next to each other"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nTEAM ann Ann Cyd\nTEAM Blue Bob Dot\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "also a seat name"),
    (f"OPTIONS carrots-95\n{BASE}", "carrots-95 needs 5 or 6 seats"),
    (f"{BASE}SUPPLY Ann carrots=5\n", "SUPPLY is for the two-player game only"),
    # the audit of RULESETS.md's addendum: every rule that makes a case malformed
    (f"RULES intellect-1974\n{BASE}DECK SHOW\n", "the ruleset intellect-1974 has no hare deck"),
    (f"RULES parlett-classic\n{BASE}RESHUFFLE SHOW\n", "the ruleset parlett-classic has no hare deck"),
    (f"{BASE}EXPECT-DECK-TOP SHOW\n", "the ruleset variable-pig has no hare deck"),
    (f"RULES intellect-1974\n{BASE}EXPECT-DECK\n", "the ruleset intellect-1974 has no hare deck"),
    (f"RULES hase-igel-sam\n{BASE}DICE 3\n", "hase-igel-sam uses hare cards, not dice"),
    (f"RULES hase-igel-sam\n{BASE}DICE\n", "hase-igel-sam uses hare cards, not dice"),
    ("RULES parlett-2010\nSEATS Ann Bob\nRUNNER Ann square=5 inert=no\nRUNNER Bob square=2\n",
     "inert= is a key of hase-igel-sam only, not of parlett-2010"),
    (f"RULES intellect-1974\n{BASE}EXPECT Ann inert=yes\n", "inert= is a key of hase-igel-sam only"),
    (f"RULES hase-igel-sam\n{BASE}EXPECT Ann inert=maybe\n", "inert= takes yes or no"),
    (f"{BASE}EXPECT Ann must=later\n", "must= takes eat or leave or none"),
    (f"{BASE}EXPECT Ann skip=perhaps\n", "skip= takes yes or no"),
    (f"{BASE}EXPECT-WINNER Zed\n", "EXPECT-WINNER 'Zed' is neither a seat nor a team"),
    (f"RULES parlett-2010\n{BASE}EXPECT-DECK JOKER\n", "'JOKER' is not a card of the parlett-2010 deck"),
    (f"RULES parlett-2010\n{BASE}EXPECT-DECK-TOP HALF HALF HALF\n", "HALF is listed 3 times; the deck has 2"),
    (f"RULES hase-igel-sam\n{BASE}DECK DOWN-ONE DOWN-ONE DOWN-ONE\n", "DOWN-ONE is listed 3 times; the deck has 2"),
    (f"RULES hase-igel-sam\n{BASE}DECK MISS\nDECK AGAIN\n", "DECK given twice"),
    (f"RULES hase-igel-sam\n{BASE}RESHUFFLE MISS BACK-CARROT NEXT-CARROT AGAIN FREE-RIDE FREE-RIDE TAKE-GIVE TAKE-GIVE "
     "LETTUCE UP-ONE DOWN-ONE\n", "RESHUFFLE lists the whole deck"),
    (f"RULES parlett-2010\n{BASE}RESHUFFLE GIVE-BEHIND GIVE-BEHIND MISS-OR-AGAIN MISS-OR-AGAIN RESTORE-65 RESTORE-65 "
     "PER-LETTUCE PER-LETTUCE FREE-RIDE FREE-RIDE HALF HALF SHOW SHOW SHUFFLE SHOW\n", "SHOW is listed 3 times"),
    (f"OPTIONS face-to-face face-to-face\n{BASE}", "option face-to-face is given twice"),
    (f"OPTIONS handicap\n{BASE}", "has no option 'handicap'"),
    ("RULES hase-igel-sam\nOPTIONS carrots-95\nSEATS Ann Bob Cyd Dot Eve\nRUNNER Ann square=5\nRUNNER Bob square=2\n"
     "RUNNER Cyd square=3\nRUNNER Dot square=4\nRUNNER Eve square=6\n", "has no option 'carrots-95'"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot Eve\nTEAM Red Ann Cyd\nTEAM Blue Bob Dot Eve\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\nRUNNER Eve square=6\n",
     "partnership needs 4 or 6 seats, not 5"),
    ("OPTIONS partnership carrots-95\nSEATS Ann Bob Cyd Dot\nTEAM Red Ann Cyd\nTEAM Blue Bob Dot\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "carrots-95 needs 5 or 6 seats, not 4"),
    (f"OPTIONS face-to-face\nFIRST Ann\n{BASE}", "with face-to-face the first mover"),
    ("SEATS Ann Bob Cyd\nFIRST Ann\nRUNNER Ann square=home place=1\nRUNNER Bob square=2\nRUNNER Cyd square=3\n",
     "FIRST Ann names a runner that is HOME"),
    ("SEATS Ann Bob Cyd\nRUNNER Ann square=home place=1\nRUNNER Bob square=2\nRUNNER Cyd square=3\n",
     "a runner is HOME, so FIRST is required"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nTEAM 1st Ann Cyd\nTEAM Blue Bob Dot\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "TEAM needs an id"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nTEAM Red Ann Cyd\nTEAM RED Bob Dot\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "two teams have the same name"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nTEAM Red Ann Cyd Ann\nTEAM Blue Bob\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "every seat exactly once"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot\nTEAM Red Ann Cyd\nTEAM Blue Bob Zed\nRUNNER Ann square=5\n"
     "RUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\n", "TEAM names 'Zed', who is not in SEATS"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot Eve Fay\nTEAM Red Ann Cyd\nTEAM Blue Bob Dot Eve Fay\n"
     "RUNNER Ann square=5\nRUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\nRUNNER Eve square=6\n"
     "RUNNER Fay square=9\n", "not teams of 2 + 4"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot Eve Fay\nTEAM X Ann Bob\nTEAM Y Cyd Dot\nTEAM Z Eve Fay\n"
     "RUNNER Ann square=5\nRUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\nRUNNER Eve square=6\n"
     "RUNNER Fay square=9\n", "sit next to each other"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot Eve Fay\nTEAM X Ann Cyd Eve\nTEAM Y Bob Dot Fay\nTEAM Z\n"
     "RUNNER Ann square=5\nRUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\nRUNNER Eve square=6\n"
     "RUNNER Fay square=9\n", "not teams of 0 + 3 + 3"),
    ("OPTIONS partnership\nSEATS Ann Bob Cyd Dot Eve Fay\nTEAM X Ann Dot\nTEAM Y Bob Cyd\nTEAM Z Eve Fay\n"
     "RUNNER Ann square=5\nRUNNER Bob square=2\nRUNNER Cyd square=3\nRUNNER Dot square=4\nRUNNER Eve square=6\n"
     "RUNNER Fay square=9\n", "sit next to each other"),
    # two-player (RULESETS.md, "Addendum": SUPPLY, RUNNER <seat>1/<seat>2, EXPECT on runners and seats)
    (f"{TP}SUPPLY Ann carrots=5\nSUPPLY Ann lettuces=2\n", "SUPPLY Ann given twice"),
    (f"{TP}SUPPLY Ann square=5\n", "SUPPLY: key 'square' is not allowed here"),
    (f"{TP}SUPPLY Ann1 carrots=5\n", "SUPPLY needs a seat name from SEATS"),
    (f"{TP}SUPPLY Ann skip=maybe\n", "skip= takes yes or no"),
    ("OPTIONS two-player\nSEATS Ann Bob\nRUNNER Ann1 square=5 carrots=40\nRUNNER Ann2 square=start\n"
     "RUNNER Bob1 square=2\nRUNNER Bob2 square=3\n", "RUNNER: key 'carrots' is not allowed here"),
    ("OPTIONS two-player\nSEATS Ann Bob\nRUNNER Ann1 square=5\nRUNNER Ann2 square=start lettuces=1\n"
     "RUNNER Bob1 square=2\nRUNNER Bob2 square=3\n", "RUNNER: key 'lettuces' is not allowed here"),
    ("OPTIONS two-player\nSEATS Ann Bob\nRUNNER Ann1 square=5\nRUNNER Ann2 square=start skip=yes\n"
     "RUNNER Bob1 square=2\nRUNNER Bob2 square=3\n", "RUNNER: key 'skip' is not allowed here"),
    ("OPTIONS two-player\nSEATS Ann Bob\nRUNNER Ann square=5\n", "two-player runners are named by a seat name"),
    ("OPTIONS two-player\nSEATS Ann Bob\nRUNNER Ann1 square=5\nRUNNER Ann2 square=start\nRUNNER Bob1 square=2\n",
     "has no RUNNER for Bob2"),
    ("OPTIONS two-player\nSEATS Ann Ann1\nRUNNER Ann1 square=5\n", "a seat name and a runner name"),
    ("OPTIONS two-player\nSEATS Ann Bob Cyd\n", "option two-player needs 2 seats, not 3"),
    ("OPTIONS two-player partnership\nSEATS Ann Bob\n", "options two-player and partnership cannot be combined"),
    ("OPTIONS two-player carrots-95\nSEATS Ann Bob\n", "options two-player and carrots-95 cannot be combined"),
    (f"{TP}EXPECT Ann1 carrots=5\n", "EXPECT on a runner: key 'carrots' is not allowed here"),
    (f"{TP}EXPECT Ann square=5\n", "EXPECT on a seat: key 'square' is not allowed here"),
    (f"{TP}EXPECT Cyd1 square=5\n", "EXPECT needs a seat name from SEATS or a runner's name"),
    (f"{TP}EXPECT Ann1 inert=no\n", "inert= is a key of hase-igel-sam"),
    ("OPTIONS two-player face-to-face\nFIRST Bob\n" + TP.split("\n", 1)[1], "with face-to-face the first mover"),
])
def test_malformed_ruleset_case_lines(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "c.case").write_text(f"CASE m\n{text}END\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check-cases", str(tmp_path)])
    assert result.exit_code == 1
    assert message in result.output, result.output


def test_a_case_fails_on_an_unlisted_card_and_unused_reshuffle(tmp_path: Path) -> None:
    text = ("CASE u\nRULES parlett-2010\nSEATS Ann Bob\nRUNNER Ann square=21 carrots=40\nRUNNER Bob square=2\n"
            "ORDERS Ann\n  MOVE: TO 25\nSLOTS 1\nEND\n"
            "CASE r\nRULES hase-igel-sam\nSEATS Ann Bob\nRUNNER Ann square=21 carrots=40\nRUNNER Bob square=2\n"
            "RESHUFFLE MISS BACK-CARROT NEXT-CARROT AGAIN FREE-RIDE FREE-RIDE TAKE-GIVE TAKE-GIVE LETTUCE UP-ONE "
            "DOWN-ONE DOWN-ONE\nORDERS Ann\n  MOVE: TO 22\nSLOTS 1\nEND\n")
    (tmp_path / "c.case").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check-cases", str(tmp_path)])
    assert "which the case does not list" in result.output
    assert "RESHUFFLE lines were left unused" in result.output
    assert result.output.strip().endswith("0 passed, 2 failed")
