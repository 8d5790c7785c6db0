"""A game is complete in its own package (templates and rule cases included), and a game shipped as
a distribution of its own (examples/) is named nowhere outside its folder: the registry alone finds it."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from pbem.games import games

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "pbem"
#: the test that installs the example distributions and names their folders
EXAMPLE_TEST = Path(__file__).resolve().parent / "test_example_game.py"


def game_packages() -> dict[str, Path]:
    """Each registered game's package and its folder, wherever it is installed."""
    return {game.package: Path(str(files(game.package))) for game in games()}


def outside(folder: Path) -> bool:
    """Whether a game's folder is of another distribution (not inside pbem/)."""
    return PBEM not in folder.parents


def test_every_game_brings_its_templates_and_cases() -> None:
    packages = game_packages()
    assert packages
    for module, folder in packages.items():
        assert folder.is_dir(), module
        assert module.startswith("pbem.games.") != outside(folder), module
        assert (folder / "templates").is_dir() and (folder / "cases").is_dir(), f"{module} brings its templates and cases"


def test_a_game_of_another_distribution_is_named_nowhere_else() -> None:
    """Not in pbem, its tests, templates, data or docs: the registry alone finds it."""
    names = {module: (module, module.replace("_", "-")) for module, folder in game_packages().items() if outside(folder)}
    places = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in ("pbem", "tests", "docs", "templates", "sample_turns", "benchmarks", "scripts", "ci", "orders_grammar"):
        places += [p for p in (ROOT / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    for path in places:
        if path == EXAMPLE_TEST or path.suffix in (".png", ".eml", ".pyc"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace").lower()
        for module, words in names.items():
            assert not any(w in text for w in words), f"{path.relative_to(ROOT)} names {module}"

