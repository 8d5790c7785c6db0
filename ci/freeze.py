"""Print the pins for ci/constraints.txt: the installed versions of pbem's dependencies (the test and
postgres extras included) and of everything they depend on, found through their metadata.

    python ci/freeze.py > ci/constraints.txt

Run it in an environment where `pip install -e '.[test]'` has been done and the test suite passes.
"""

from __future__ import annotations

import sys
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ("test", "postgres")


def main() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    own = canonicalize_name(project["name"])
    todo = [Requirement(r) for r in project["dependencies"]]
    for extra in EXTRAS:
        todo += [Requirement(r) for r in project["optional-dependencies"][extra]]
    pins: dict[str, str] = {}
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name == own or (name, frozenset(req.extras)) in seen:
            continue
        seen.add((name, frozenset(req.extras)))
        try:
            dist = distribution(req.name)
        except PackageNotFoundError:
            sys.exit(f"{req.name} is not installed: run pip install -e '.[test]' first")
        pins[name] = dist.version
        for text in dist.requires or ():
            sub = Requirement(text)
            wanted = [{"extra": e} for e in req.extras] or [{"extra": ""}]
            if sub.marker is None or any(sub.marker.evaluate(env) for env in wanted):
                todo.append(sub)
    print(f"# pbem's dependencies as CI installs them (pip install -c ci/constraints.txt -e '.[test]').\n"
          f"# Made by `python ci/freeze.py > ci/constraints.txt` on Python {sys.version.split()[0]}.")
    for name in sorted(pins):
        print(f"{name}=={pins[name]}")


if __name__ == "__main__":
    main()
