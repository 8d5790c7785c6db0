"""The rule cases: every case of every registered game passes, and `pbem check-cases` behaves as the format says."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import pbem.cases
from pbem.cases import Case, case_files, game_case_files, read_cases, run_case
from pbem.cli import main
from pbem.errors import CaseFormatError
from pbem.games import find_game, games
from pbem.games.base import GameInfo, RulesetInfo
from pbem.games.codec import CaseCodec, CaseRun, CaseText
from pbem.games.hare_tortoise.cases import HareCases

#: every registered game's cases, from the `cases/` folder of its package
FILES = game_case_files()


def _all_cases() -> list[Case]:
    out: list[Case] = []
    for path in FILES:
        for item in read_cases(path):
            if isinstance(item, CaseFormatError):
                raise item
            out.append(item)
    return out


ALL = _all_cases()


def test_the_project_keeps_many_cases() -> None:
    assert len(ALL) >= 80
    ids = [(c.path, c.id) for c in ALL]
    assert len(ids) == len(set(ids))
    # cases without a GAME line are Hare & Tortoise's, read by its codec; the others name their game
    assert all(c.text.game == "hare-tortoise" and isinstance(c.codec, HareCases) for c in ALL if not c.text.game_line)
    assert all(c.codec is find_game(c.text.game).cases for c in ALL)


@pytest.mark.parametrize("case", ALL, ids=[f"{Path(c.path).stem}:{c.id}" for c in ALL])
def test_case(case: Case) -> None:
    result = run_case(case)
    assert result.passed, result.report


GOOD = """\
CASE good
SEATS Ann Bob
RUNNER Ann square=5 carrots=40
RUNNER Bob square=2 carrots=40
ORDERS Ann
  MOVE: TO 10
  MOVE: NEXT
ORDERS Bob
  MOVE: TO 4
EXPECT Ann square=10 carrots=35 lettuces=2 must=leave
EXPECT Bob square=4 carrots=37
END
"""

WRONG = """\
CASE wrong-carrots
TITLE deliberately wrong
SEATS Ann Bob
RUNNER Ann square=5 carrots=40
RUNNER Bob square=2 carrots=40
ORDERS Ann
  MOVE: TO 10
ORDERS Bob
  MOVE: STAY
EXPECT Ann square=10 carrots=99
END

CASE unused-dice
SEATS Ann Bob
RUNNER Ann square=5
RUNNER Bob square=2
DICE 3
ORDERS Ann
  DEFAULT: STAY
ORDERS Bob
  MOVE: STAY
EXPECT-OVER no
END

CASE missing-dice
SEATS Ann Bob
RUNNER Ann square=2 carrots=20
RUNNER Bob square=13
ORDERS Ann
  MOVE: TO 6
ORDERS Bob
  MOVE: STAY
END
"""

MALFORMED = """\
CASE broken
SEATS Ann Bob
RUNNER Ann square=99
RUNNER Bob square=2
END

CASE home-needs-first
SEATS Ann Bob Cyd
RUNNER Ann square=home place=1
RUNNER Bob square=2
RUNNER Cyd square=3
END

CASE bogus-key
SEATS Ann Bob
RUNNER Ann square=1 hat=yes
RUNNER Bob square=2
END

CASE after-malformed
SEATS Ann Bob
RUNNER Ann square=5 carrots=40
RUNNER Bob square=2 carrots=40
ORDERS Ann
  DEFAULT: STAY
ORDERS Bob
  MOVE: STAY
EXPECT Ann square=5 carrots=60
EXPECT Bob square=2 carrots=50
END
"""


def _run(tmp_path: Path, **files: str) -> tuple[int, str]:
    for name, text in files.items():
        (tmp_path / f"{name}.case").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check-cases", str(tmp_path)])
    return result.exit_code, result.output


def test_check_cases_passes(tmp_path: Path) -> None:
    code, out = _run(tmp_path, good=GOOD)
    assert (code, out) == (0, "1 passed, 0 failed\n")


def test_check_cases_reports_failures_in_full(tmp_path: Path) -> None:
    code, out = _run(tmp_path, good=GOOD, wrong=WRONG)
    assert code == 1
    assert out.splitlines()[-1] == "1 passed, 3 failed"
    assert "FAIL wrong-carrots" in out and "Ann carrots=35, expected carrots=99" in out
    assert "FAIL unused-dice" in out and "1 of the 1 dice were left unused" in out
    assert "FAIL missing-dice" in out and "needs more than the 0 dice given" in out
    # the position before and after, the orders and every resolution are printed
    failing = out[out.index("FAIL wrong-carrots") : out.index("FAIL unused-dice")]
    for piece in ("before (turn 1, first mover Ann):", "orders Ann:", "MOVE: TO 10", "after:",
                  "resolutions:", "1. Ann moves from square 5 to square 10"):
        assert piece in failing


def test_malformed_cases_count_as_failures_with_their_line(tmp_path: Path) -> None:
    code, out = _run(tmp_path, bad=MALFORMED)
    assert code == 1
    lines = out.splitlines()
    assert lines[-1] == "1 passed, 3 failed"
    assert any("bad.case:3: square must be 1 to 63, start or home, not '99'" in line for line in lines)
    assert any("FIRST is required" in line for line in lines)
    assert any("bad.case:16: unknown key 'hat'" in line for line in lines)


def test_check_cases_needs_existing_paths(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["check-cases", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert "no such file or folder" in result.output


def test_check_cases_without_paths_runs_every_registered_games_own_cases() -> None:
    result = CliRunner().invoke(main, ["check-cases"])
    assert (result.exit_code, result.output) == (0, f"{len(ALL)} passed, 0 failed\n")
    assert {c.text.game for c in ALL} == {g.info.name for g in games()}, "every game brings cases of its own"


def test_forgiving_case_files(tmp_path: Path) -> None:
    """A byte-order mark, CRLF lines, a tab before an order line and square=0 for START all read."""
    text = ("\ufeffCASE forgiving\r\nSEATS Ann Bob\r\nRUNNER Ann square=0\r\nRUNNER Bob square=13\r\n"
            "ORDERS Ann\r\n\tMOVE: TO 5\r\n  MOVE: STAY\r\nORDERS Bob\r\n  DEFAULT: STAY\r\n"
            "EXPECT Ann square=5 carrots=60\r\nEXPECT Bob square=13 carrots=75\r\nEND\r\n")
    (tmp_path / "f.case").write_bytes(text.encode("utf-8"))
    result = CliRunner().invoke(main, ["check-cases", str(tmp_path)])
    assert (result.exit_code, result.output) == (0, "1 passed, 0 failed\n")


def test_a_failing_case_shows_the_slots_resolved_before_the_dice_ran_out(tmp_path: Path) -> None:
    text = ("CASE out-of-dice\nSEATS Ann Bob\nRUNNER Ann square=start\nRUNNER Bob square=2\n"
            "ORDERS Ann\n  MOVE: TO 5\nORDERS Bob\n  MOVE: TO 3\nEND\n")
    (tmp_path / "d.case").write_text(text)
    result = CliRunner().invoke(main, ["check-cases", str(tmp_path)])
    assert result.exit_code == 1
    assert "needs more than the 0 dice given" in result.output
    assert "1. Ann moves from START to square 5" in result.output


# --- the driver knows no game: GAME, keys of other games, a second game ----------------------

TWO_SEATS = ("SEATS Ann Bob\nRUNNER Ann square=5\nRUNNER Bob square=2\nORDERS Ann\n  DEFAULT: STAY\nORDERS Bob\n"
             "  MOVE: STAY\n")


def _check(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    code, out = _run(tmp_path, c=text)
    return code, out.splitlines()


def test_a_case_may_name_its_game(tmp_path: Path) -> None:
    text = f"CASE named\nGAME hare-tortoise\n{TWO_SEATS}END\n\nCASE by-alias\nGAME HT\n{TWO_SEATS}END\n"
    assert _check(tmp_path, text) == (0, ["2 passed, 0 failed"])


def test_an_unknown_game_is_malformed_and_names_the_known_games(tmp_path: Path) -> None:
    text = f"CASE chess\nGAME chess\n{TWO_SEATS}END\n\nCASE fine\n{TWO_SEATS}END\n"
    code, lines = _check(tmp_path, text)
    assert code == 1 and lines[-1] == "1 passed, 1 failed"
    known = ", ".join(g.info.name for g in games())
    assert any(line.endswith(f"c.case:2: no game called 'chess'; known games: {known}") for line in lines)


def test_a_key_of_another_game_is_an_unknown_keyword(tmp_path: Path) -> None:
    # TRACK and PAWNS belong to card-race's cases, not to Hare & Tortoise's
    code, lines = _check(tmp_path, f"CASE other\n{TWO_SEATS}TRACK streams=3,8\nEND\n")
    assert code == 1 and lines[-1] == "0 passed, 1 failed"
    assert any("c.case:9: unknown keyword 'TRACK'" in line for line in lines)


@pytest.mark.parametrize("before", ["TITLE late game line", "SEATS Ann Bob", "RUNNER Ann square=5"])
def test_game_must_be_the_first_key_of_a_case(tmp_path: Path, before: str) -> None:
    text = f"CASE late\n# a comment may come first\n{before}\nGAME hare-tortoise\n{TWO_SEATS}END\n"
    code, lines = _check(tmp_path, text)
    assert code == 1
    assert any("c.case:4: GAME must be the first line of a case, right after CASE" in line for line in lines)


def test_two_player_runners_are_named_by_seat_and_number(tmp_path: Path) -> None:
    code, lines = _check(tmp_path, f"CASE opt\nOPTIONS two-player\n{TWO_SEATS}END\n")
    assert code == 1
    assert any("two-player runners are named by a seat name followed by 1 or 2" in line for line in lines)


@pytest.mark.parametrize(("line", "message"), [
    ("TITLE again", "TITLE given twice"),
    ("SEATS Cyd Dot", "SEATS given twice"),
    ("OPTIONS a b a", "option a is given twice"),
    ("TURN 0", "TURN starts at 1"),
    ("EXPECT-OVER maybe", "EXPECT-OVER takes yes or no"),
    ("GAME hare-tortoise extra", "GAME must be the first line"),
])
def test_common_keys_are_checked_by_the_driver(tmp_path: Path, line: str, message: str) -> None:
    code, lines = _check(tmp_path, f"CASE common\nTITLE t\n{TWO_SEATS}{line}\nEND\n")
    assert code == 1
    assert any(f"c.case:10: {message}" in out for out in lines), lines


class _TallyCases(CaseCodec):
    """A game whose position is a number: ADD lines raise it, EXPECT-TALLY checks it."""

    keys = frozenset({"ADD", "EXPECT-TALLY"})

    def __init__(self) -> None:
        self.seen: list[tuple[int, str, str]] = []

    def prepare(self, case: CaseText) -> tuple[int, int | None]:
        self.seen += case.keys
        tally, expect = 0, None
        for line, keyword, rest in case.keys:
            if not rest.strip().isdigit():
                raise CaseFormatError(case.path, line, f"{keyword} takes a number")
            if keyword == "ADD":
                tally += int(rest)
            else:
                expect = int(rest)
        return tally, expect

    def run(self, case: CaseText, prepared: object) -> CaseRun:
        assert isinstance(prepared, tuple)
        tally, expect = prepared
        problems = () if expect in (None, tally) else (f"tally {tally}, expected {expect}",)
        return CaseRun(problems, before=("tally 0",), after=(f"tally {tally}",), resolutions=("added",),
                       chance="deck: 1 2 3\ndeck: 4", heading=f"turn {case.turn}", over=tally >= 10)


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> _TallyCases:
    """A second registered game, 'tally', beside Hare & Tortoise."""
    codec = _TallyCases()
    game = SimpleNamespace(info=GameInfo("tally", "Tally", "a test game", (RulesetInfo("plain", "Plain"),)),
                           cases=codec)

    def find(name: str) -> Any:
        return game if name.strip().lower() == "tally" else find_game(name)

    monkeypatch.setattr(pbem.cases, "find_game", find)
    return codec


TALLY = """\
CASE tally-passes
GAME tally
RULES plain
SEATS Ann Bob
ADD 4
ADD 7
EXPECT-TALLY 11
EXPECT-OVER yes
END

CASE tally-fails
GAME tally
TITLE the expectation is wrong
TURN 3
SEATS Ann Bob
ORDERS Bob
  COUNT ON
ADD 2
EXPECT-TALLY 3
EXPECT-OVER yes
END

CASE tally-takes-no-runner
GAME tally
SEATS Ann Bob
RUNNER Ann square=5
END

CASE tally-malformed
GAME tally
ADD lots
END

CASE hare-takes-no-add
SEATS Ann Bob
ADD 4
END
"""


def test_the_driver_hands_each_game_its_own_keys(tmp_path: Path, tally: _TallyCases) -> None:
    code, out = _run(tmp_path, t=TALLY, h=f"CASE hare\n{TWO_SEATS}END\n")
    lines = out.splitlines()
    assert code == 1 and lines[-1] == "2 passed, 4 failed"
    # the tally codec got exactly its own key lines, with their line numbers
    assert tally.seen == [(5, "ADD", "4"), (6, "ADD", "7"), (7, "EXPECT-TALLY", "11"),
                          (18, "ADD", "2"), (19, "EXPECT-TALLY", "3"), (31, "ADD", "lots")]
    assert any(line.endswith("t.case:26: unknown keyword 'RUNNER'") for line in lines)
    assert any(line.endswith("t.case:31: ADD takes a number") for line in lines)
    assert any(line.endswith("t.case:36: unknown keyword 'ADD'") for line in lines)
    # a failing case of the second game, printed by the driver in full
    failing = out[out.index("FAIL tally-fails"):]
    assert failing.splitlines()[:14] == [
        f"FAIL tally-fails ({tmp_path / 't.case'}:11): the expectation is wrong",
        "  ! tally 2, expected 3",
        "  ! game over is no, expected yes",
        "  before (turn 3):",
        "    tally 0",
        "  orders Bob:",
        "    COUNT ON",
        "  deck: 1 2 3",
        "  deck: 4",
        "  after:",
        "    tally 2",
        "  resolutions:",
        "    added",
        "",
    ]


def test_the_second_game_rulesets_are_its_own(tmp_path: Path, tally: _TallyCases) -> None:
    code, lines = _check(tmp_path, "CASE r\nGAME tally\nRULES variable-pig\nEND\n")
    assert code == 1
    assert any("c.case:3: Tally has no ruleset called 'variable-pig'; known rulesets: plain" in line for line in lines)


_SETTING = ("SEATS", "RULES", "OPTIONS", "TURN", "FIRST", "TITLE")


def _setting_last(text: str) -> str:
    """Each case with its setting lines (SEATS, RULES, OPTIONS, TURN, FIRST, TITLE) moved to just
    before its END: the format fixes no order of lines after CASE (and GAME)."""
    out: list[str] = []
    held: list[str] = []
    for line in text.splitlines():
        keyword = line.split(" ", 1)[0]
        if keyword in _SETTING:
            held.append(line)
            continue
        if keyword == "END":
            out += held
            held = []
        out.append(line)
    return "\n".join(out) + "\n"


def test_cases_read_the_same_whatever_the_order_of_their_lines(tmp_path: Path) -> None:
    moved = 0
    for k, path in enumerate(FILES):
        text = path.read_text(encoding="utf-8")
        copy = tmp_path / f"{k}-{path.name}"
        copy.write_text(_setting_last(text), encoding="utf-8")
        for item in read_cases(copy):
            assert not isinstance(item, CaseFormatError), f"{path}: {item}"
            result = run_case(item)
            assert result.passed, result.report
            moved += 1
    assert moved == len(ALL)


def test_tests_cases_holds_every_in_tree_games_cases() -> None:
    """`pbem check-cases tests/cases` runs the cases of every game of this tree, through its links."""
    root = Path(__file__).resolve().parent / "cases"
    linked = {p.resolve() for p in case_files([root])}
    own = {p.resolve() for g in ("hare_tortoise", "card_race", "badger_bunny")
           for p in case_files([root.parent.parent / "pbem" / "games" / g / "cases"])}
    assert own and linked == own
