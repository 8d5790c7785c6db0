"""pbem's parts and the imports that must never exist between them, as docs/architecture.toml writes them."""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.games import games

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.toml"


@dataclass(frozen=True)
class Never:
    """Modules of the parts `sources` import nothing of the parts `parts` nor the modules `modules`."""

    why: str
    sources: tuple[str, ...]
    parts: tuple[str, ...]
    modules: tuple[str, ...]


@dataclass(frozen=True)
class Architecture:
    parts: dict[str, tuple[str, ...]]
    rules: tuple[Never, ...]
    plugins: str  # the package whose every subpackage is a plug-in
    words: tuple[str, ...]  # game vocabulary that generic code does not use, in any case
    keywords: tuple[str, ...]  # games' order keywords, in capitals
    templates: tuple[str, ...]  # the generic templates, as globs from the repository's root


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    path: str  # its file, from the root
    line: int
    name: str  # what it imports, absolute


def load(path: Path = ARCHITECTURE) -> Architecture:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    parts = {name: tuple(members) for name, members in data["parts"].items()}
    rules = tuple(Never(r["why"], tuple(r["from"]), tuple(r.get("parts", ())), tuple(r.get("modules", ())))
                  for r in data["never"])
    for rule in rules:
        unknown = [p for p in (*rule.sources, *rule.parts) if p not in parts]
        assert not unknown, f"{path.name}: a rule names parts that are not in [parts]: {unknown}"
    return Architecture(parts, rules, data["plugins"]["package"], tuple(data["generic"]["words"]),
                        tuple(data["generic"]["keywords"]), tuple(data["generic"]["templates"]))


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path) -> Iterator[Import]:
    """Every import of a module, wherever it stands (in a function, under TYPE_CHECKING), made
    absolute; `from a import b` imports `a` and `a.b`, as b may be a module."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    where = str(path.relative_to(root))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=where)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, where, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            yield Import(module, where, node.lineno, origin)
            for alias in node.names:
                yield Import(module, where, node.lineno, f"{origin}.{alias.name}")


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def member(name: str, entry: str) -> bool:
    """Is module `name` one of a part's entries ("pbem.x" alone, "pbem.x.*" the package and below)?"""
    return within(name, entry[:-2]) if entry.endswith(".*") else name == entry


def part_of(name: str, arch: Architecture) -> str | None:
    """The part of module `name` (the most specific entry wins), or None."""
    best: tuple[int, str] | None = None
    for part, entries in arch.parts.items():
        for entry in entries:
            if member(name, entry) and (best is None or len(entry) > best[0]):
                best = (len(entry), part)
    return best[1] if best else None


def modules(root: Path) -> list[Path]:
    return sorted((root / "pbem").rglob("*.py"))


def unplaced(root: Path, arch: Architecture) -> list[str]:
    return [module_name(p, root) for p in modules(root) if part_of(module_name(p, root), arch) is None]


def plugin_packages(root: Path, arch: Architecture) -> list[str]:
    folder = root.joinpath(*arch.plugins.split("."))
    return sorted(f"{arch.plugins}.{d.name}" for d in folder.iterdir() if (d / "__init__.py").is_file())


def violations(root: Path, arch: Architecture) -> list[str]:
    """Every import the architecture forbids, as `path:line: module imports name (why)`."""
    found = []
    plugins = plugin_packages(root, arch)
    for path in modules(root):
        for imp in imports(path, root):
            source = part_of(imp.module, arch)
            target = part_of(imp.name, arch)
            for rule in arch.rules:
                if source not in rule.sources:
                    continue
                if (target is not None and target in rule.parts and target != source) or any(
                        within(imp.name, m) for m in rule.modules):
                    found.append(f"{imp.path}:{imp.line}: {imp.module} imports {imp.name} ({rule.why})")
            for plugin in plugins:
                if within(imp.name, plugin) and not within(imp.module, plugin):
                    found.append(f"{imp.path}:{imp.line}: {imp.module} imports {imp.name} "
                                 f"(a game is a plug-in: only its own package imports it)")
    return sorted(set(found))


def game_names() -> list[str]:
    """What names each registered game: its name, aliases and title."""
    return sorted({n for g in games() for n in (g.info.name, *g.info.aliases, g.info.title)})


def generic_files(root: Path, arch: Architecture) -> list[Path]:
    plugins = [root.joinpath(*p.split(".")) for p in plugin_packages(root, arch)]
    code = [p for p in modules(root) if not any(folder in p.parents for folder in plugins)]
    return code + sorted(p for pattern in arch.templates for p in root.glob(pattern) if p.is_file())


def vocabulary(root: Path, arch: Architecture, names: list[str]) -> list[str]:
    """Every game word or game name in generic code, as `path:line: word`."""
    def pattern(words: set[str], flags: int) -> re.Pattern[str]:
        alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        return re.compile(r"(?<![\w-])(" + alternatives + r")(?![\w-])", flags)

    patterns = (pattern({*arch.words, *names}, re.IGNORECASE), pattern(set(arch.keywords), 0))
    found = []
    for path in generic_files(root, arch):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            hits = sorted((m.start(), m.group(1)) for p in patterns for m in p.finditer(line))
            found += [f"{path.relative_to(root)}:{n}: {word}" for _, word in hits]
    return found


# --- the repository -------------------------------------------------------------------------


def test_every_module_has_a_part() -> None:
    assert unplaced(ROOT, load()) == []


def test_no_forbidden_import() -> None:
    assert violations(ROOT, load()) == []


def test_every_game_is_a_package_of_its_own() -> None:
    arch = load()
    plugins = plugin_packages(ROOT, arch)
    registered = [g for g in games() if type(g).__module__.startswith(arch.plugins + ".")]
    assert registered
    for game in registered:
        assert any(within(type(game).__module__, p) for p in plugins), type(game).__module__


def test_generic_code_names_no_game() -> None:
    assert vocabulary(ROOT, load(), game_names()) == []


# --- the checks can fail ----------------------------------------------------------------------


def plant(root: Path, files: dict[str, str]) -> Path:
    """A small tree: pbem/ with the files given (and every package's __init__.py)."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in [root / "pbem", *(root / "pbem").rglob("*")]:
        if folder.is_dir() and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text('"""A package."""\n', encoding="utf-8")
    return root


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("pbem/games/dice/rules.py", "import sqlite3\n", "pbem.games.dice.rules imports sqlite3 (A game's rules do no I/O"),
    ("pbem/games/dice/rules.py", "def f():\n    from pbem.store import Store\n",
     "pbem/games/dice/rules.py:2: pbem.games.dice.rules imports pbem.store (A game's rules do no I/O"),
    ("pbem/games/dice/rules.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import jinja2\n",
     "pbem.games.dice.rules imports jinja2 (A game's rules do no I/O"),
    ("pbem/games/dice/rules.py", "from ..coins import state\n",
     "pbem.games.dice.rules imports pbem.games.coins.state (a game is a plug-in"),
    ("pbem/games/dice/rules.py", "from pbem.games import coins\n",
     "pbem.games.dice.rules imports pbem.games.coins (a game is a plug-in"),
    ("pbem/mail/imap.py", "from pbem.store import Store\n", "pbem.mail.imap imports pbem.store (Mail transport"),
    ("pbem/mail/imap.py", "import sqlmodel\n", "pbem.mail.imap imports sqlmodel (Mail transport"),
    ("pbem/mailer.py", "from pbem.store import GameRow\n", "pbem.mailer imports pbem.store (The envelope"),
    ("pbem/mailer.py", "from pbem import store\n", "pbem.mailer imports pbem.store (The envelope"),
    ("pbem/moderator.py", "from pbem.cli import main\n", "pbem.moderator imports pbem.cli (The CLI"),
    ("pbem/runner.py", "from . import cli\n", "pbem.runner imports pbem.cli (The CLI"),
    ("pbem/intake.py", "import pbem.games.coins.rules\n", "pbem.intake imports pbem.games.coins.rules (a game is a plug-in"),
])
def test_a_planted_import_is_reported(tmp_path: Path, name: str, text: str, expected: str) -> None:
    root = plant(tmp_path, {"pbem/games/coins/state.py": '"""Coins."""\n', "pbem/games/base.py": '"""Kit."""\n',
                            "pbem/store/__init__.py": '"""Rows."""\n', "pbem/cli.py": '"""CLI."""\n', name: text})
    found = violations(root, load())
    assert any(expected in f for f in found), found


def test_allowed_imports_are_not_reported(tmp_path: Path) -> None:
    root = plant(tmp_path, {
        "pbem/games/coins/state.py": "from pbem.games.base import Game\nfrom . import rules\nfrom .rules import flip\n",
        "pbem/games/coins/rules.py": "from pbem.render.svg import Drawing\nimport random\n",
        "pbem/games/base.py": "from pbem.errors import PbemError\n",
        "pbem/moderator.py": "from pbem.store import Store\nfrom pbem.games import find_game\nfrom pbem.mailer import Mailer\n",
        "pbem/mail/smtp.py": "import aiosmtplib\nfrom pbem.mail.headers import parse\n",
        "pbem/__main__.py": "from pbem.cli import main\n",
    })
    assert violations(root, load()) == []


def test_a_module_without_a_part_is_reported(tmp_path: Path) -> None:
    root = plant(tmp_path, {"pbem/gadgets.py": '"""Somewhere new."""\n', "pbem/mail/new.py": '"""Mail."""\n'})
    assert unplaced(root, load()) == ["pbem.gadgets"]


def test_a_game_word_in_generic_code_is_reported(tmp_path: Path) -> None:
    root = plant(tmp_path, {
        "pbem/moderator.py": 'GAME = "coin-toss"  # a default\nfor slot in x: pass\nshared = 1\ndiscard = 2\n',
        "pbem/games/coins/state.py": "carrots = 1  # inside a game: its own words\n",
        "pbem/games/base.py": '"""The kit: no carrots here."""\n',
        "templates/mail/report.txt.j2": "{{ e.hare }}\nMOVE {{ e.move }}\n",
        "templates/coin-toss/report.txt.j2": "Coin Toss: {{ cards }}\n",
    })
    assert vocabulary(root, load(), ["coin-toss", "Coin Toss"]) == [
        "pbem/games/base.py:1: carrots", "pbem/moderator.py:1: coin-toss", "pbem/moderator.py:2: slot",
        "templates/mail/report.txt.j2:1: hare", "templates/mail/report.txt.j2:2: MOVE"]
