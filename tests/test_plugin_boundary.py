"""A game is a plug-in: no module outside a game's own package imports it, and a game shipped as a
distribution of its own (examples/) is named nowhere outside its folder."""

from __future__ import annotations

import ast
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


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def offenders(packages: dict[str, Path]) -> list[str]:
    found = []
    for path in sorted(PBEM.rglob("*.py")):
        for module, folder in packages.items():
            if folder in path.parents:
                continue
            hits = [n for n in imported(path) if n == module or n.startswith(module + ".")]
            if hits:
                found.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(hits))}")
    return found


def test_every_game_is_a_package_of_its_own() -> None:
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
    for top in ("pbem", "tests", "templates", "sample_turns", "benchmarks", "scripts", "ci", "orders_grammar"):
        places += [p for p in (ROOT / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    for path in places:
        if path == EXAMPLE_TEST or path.suffix in (".png", ".eml", ".pyc"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace").lower()
        for module, words in names.items():
            assert not any(w in text for w in words), f"{path.relative_to(ROOT)} names {module}"


def test_no_module_outside_a_game_imports_it() -> None:
    assert offenders(game_packages()) == []


def test_the_check_finds_an_import_of_a_game(tmp_path: Path) -> None:
    planted = PBEM / "_planted_import_check.py"
    planted.write_text("from pbem.games.hare_tortoise.engine import turn_sequence\n", encoding="utf-8")
    try:
        assert [f for f in offenders(game_packages()) if "_planted" in f] == [
            "pbem/_planted_import_check.py imports pbem.games.hare_tortoise.engine, "
            "pbem.games.hare_tortoise.engine.turn_sequence"]
    finally:
        planted.unlink()


def test_the_shared_templates_know_no_game() -> None:
    shared = [*(ROOT / "templates").glob("*.j2"), *(ROOT / "templates" / "mail").glob("*.j2")]
    assert shared
    for path in shared:
        text = path.read_text(encoding="utf-8")
        assert "carrot" not in text.lower() and "MOVE" not in text and "hare" not in text.lower(), path.name
