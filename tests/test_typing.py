"""The engine and the order language type-check under mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict() -> None:
    result = subprocess.run(
        # with the packages of the example distributions, each a game of its own
        [sys.executable, "-m", "mypy", "--strict", "pbem",
         *sorted(str(p.parent.relative_to(ROOT)) for p in ROOT.glob("examples/*/src/*/__init__.py"))],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
