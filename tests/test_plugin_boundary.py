"""A game is a plug-in: no module outside a game's own package imports it."""

from __future__ import annotations

import ast
from pathlib import Path

from pbem.games import games

ROOT = Path(__file__).resolve().parent.parent
PBEM = ROOT / "pbem"


def game_packages() -> dict[str, Path]:
    """Each registered game's module name and folder."""
    out = {}
    for game in games():
        module = type(game).__module__.rsplit(".", 1)[0] if type(game).__module__.count(".") > 2 else type(game).__module__
        out[module] = PBEM.joinpath(*module.split(".")[1:])
    return out


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
        assert module.startswith("pbem.games.") and folder.is_dir(), module


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
