"""The documentation site (docs/, mkdocs.yml) builds strictly: a broken link or a page left out
of the navigation fails the build, and so this test."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    # not -q: a quiet build drops the warnings that strict mode counts, and passes with a broken link
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"),
                           "-d", str(site)], capture_output=True, text=True, timeout=120, check=False)


def test_the_docs_build_strictly(tmp_path: Path) -> None:
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    pages = {p.relative_to(ROOT / "docs").with_suffix("") for p in (ROOT / "docs").rglob("*.md")}
    for page in pages:
        built = tmp_path / "site" / ("index.html" if page.name == "index" else f"{page}/index.html")
        assert built.parent.joinpath("index.html").is_file(), page


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "docs", copy / "docs")
    shutil.copy(ROOT / "mkdocs.yml", copy / "mkdocs.yml")
    page = copy / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the missing page](rules/no-such-page.md).\n",
                    encoding="utf-8")
    done = build(copy, tmp_path / "site")
    assert done.returncode != 0
    assert "no-such-page.md" in done.stdout + done.stderr
