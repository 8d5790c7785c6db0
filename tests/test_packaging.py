"""What a partial install says, and what the distribution carries: licences, the optional PostgreSQL driver."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.games import games

ROOT = Path(__file__).resolve().parent.parent


def test_a_postgresql_url_without_psycopg_says_which_extra_to_install(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if psycopg were not installed
    config = tmp_path / "pbem.toml"
    config.write_text('[database]\nurl = "postgresql+psycopg://pbem:pbem@127.0.0.1:1/pbem"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["status", "race", "--config", str(config)])
    assert result.exit_code == 1, result.output
    assert "pip install 'pbem[postgres]'" in result.output and "Traceback" not in result.output


def test_psycopg_is_an_extra_and_the_licences_ship_in_the_wheel() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not any(dep.startswith("psycopg") for dep in project["dependencies"])
    assert project["optional-dependencies"]["postgres"] == ["psycopg[binary]>=3.1"]
    assert "pbem[postgres]" in project["optional-dependencies"]["test"]
    for name in project["license-files"]:
        assert (ROOT / name).is_file(), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    font = (ROOT / "pbem" / "render" / "FONT-LICENSE").read_text(encoding="utf-8")
    assert "DejaVu" in font and "Bitstream Vera Fonts Copyright" in font


def test_each_games_templates_and_cases_ship_inside_its_package() -> None:
    """The wheel ships the pbem package whole, so a game's own folders go with it; the top-level
    templates/ keeps only what every game shares."""
    wheel = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]["targets"]
    assert wheel["wheel"]["packages"] == ["pbem"]
    for game in games():
        if game.package.startswith("pbem."):
            folder = ROOT.joinpath(*game.package.split("."))
            assert (folder / "templates").is_dir() and any((folder / "cases").rglob("*.case")), game.info.name
        assert not (ROOT / "templates" / game.info.name).exists(), game.info.name
