"""Each game's case keys read as the case format writes them: what it allows is accepted and what
it forbids is malformed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cases import check_cases

DEAL = ("ACE-MOONS,ACE-SUNS,ACE-WAVES,ACE-LEAVES,ACE-WYRMS,ACE-KNOTS,2-MOONS,2-SUNS,2-WAVES,3-MOONS,3-SUNS,3-LEAVES,"
        "4-MOONS,4-WAVES,4-WYRMS,5-MOONS,5-SUNS,5-WYRMS,6-MOONS,6-SUNS,6-LEAVES,7-MOONS,7-SUNS,7-WAVES,8-MOONS,"
        "8-WAVES,8-WYRMS,9-MOONS,9-WAVES,9-LEAVES,CROWN-MOONS,CROWN-SUNS,CROWN-WAVES,CROWN-LEAVES,CROWN-WYRMS,"
        "CROWN-KNOTS")
BADGER = """CASE c
GAME badger-bunny
SEATS Ann Bob
{extra}
TURNS 0
END
"""
POSITION = ("PLAYER Ann hand=2-MOONS deck=- course=4-MOONS\n"
            "PLAYER Bob hand=8-WAVES deck=- course=4-WAVES")


def _run(tmp_path: Path, text: str) -> tuple[bool, str]:
    path = tmp_path / "c.case"
    path.write_text(text, encoding="utf-8")
    (result,) = list(check_cases([path]))
    return result.passed, result.report


@pytest.mark.parametrize("extra", [
    f"DEAL {DEAL}",  # with DEAL, no PLAYER line is needed
    f"DEAL {DEAL}\nPLAYER Bob total=3\nEXPECT Bob total=3\nEXPECT Ann total=0",
    f"{POSITION}\nMODE tournament\nEXPECT-CHAMPION none",
])
def test_badger_accepts_what_the_format_allows(tmp_path: Path, extra: str) -> None:
    passed, report = _run(tmp_path, BADGER.format(extra=extra))
    assert passed, report


@pytest.mark.parametrize(("extra", "problem"), [
    ("PLAYER Ann hand=2-MOONS deck=- course=4-MOONS", "no PLAYER line for Bob"),
    (f"DEAL {DEAL}\nPLAYER Ann hand=2-MOONS", "with DEAL, PLAYER gives only total="),
    (f"DEAL {DEAL}\nACT Ann", "ACT is not given with DEAL"),
    (f"{POSITION}\nEXPECT-CHAMPION none", "EXPECT-CHAMPION is for MODE tournament only"),
])
def test_badger_refuses_what_the_format_forbids(tmp_path: Path, extra: str, problem: str) -> None:
    passed, report = _run(tmp_path, BADGER.format(extra=extra))
    assert not passed and "MALFORMED" in report and problem in report, report
