"""`pbem run --interval` takes a positive, finite number of seconds; anything else is a usage error."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.mark.parametrize(("value", "message"), [("0", "not in the range x>0"), ("-5", "not in the range x>0"),
                                                ("nan", "nan is not a number of seconds"),
                                                ("inf", "inf is not a number of seconds")])
def test_a_bad_interval_is_a_usage_error(value: str, message: str) -> None:
    result = CliRunner().invoke(main, ["run", "--interval", value, "--config", "/nonexistent/pbem.toml"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--interval'" in result.output and message in result.output
