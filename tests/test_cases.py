"""The rule cases: every case in tests/cases passes, and `pbem check-cases` behaves as the format says."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cases import Case, read_cases, run_case
from pbem.cli import main
from pbem.errors import CaseFormatError

CASES = Path(__file__).parent / "cases"


def _all_cases() -> list[Case]:
    out: list[Case] = []
    for path in sorted(CASES.rglob("*.case")):
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
