"""The picture toolkit: game-neutral, and its pieces do what their names say."""

from __future__ import annotations

import ast
import io
import struct
from pathlib import Path

from PIL import Image

from pbem.render.png import LayeredPicture, svg_to_png
from pbem.render.svg import Paint, escape, fit_text, label, num, ordinal, text_width

RENDER = Path(__file__).resolve().parent.parent / "pbem" / "render"


def imported_modules(path: Path, package: str = "pbem.render") -> set[str]:
    """Every module an import statement in `path` (of `package`) names, made absolute."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            # `from pbem import games` names the module pbem.games too
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def package_of(path: Path) -> str:
    return ".".join(("pbem", "render", *path.relative_to(RENDER).parent.parts))


def test_the_toolkit_imports_no_game() -> None:
    sources = sorted(RENDER.glob("**/*.py"))
    assert len(sources) >= 4  # __init__, svg, png, the glyph table
    offenders = {
        f"{path.relative_to(RENDER)}: {module}"
        for path in sources
        for module in imported_modules(path, package_of(path))
        if module == "pbem.games" or module.startswith("pbem.games.")
    }
    assert not offenders, "pbem.render must know no game; move these into the game:\n" + "\n".join(
        sorted(offenders)
    )


def test_the_import_scan_sees_every_form_of_import(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "import pbem.games.a\nfrom pbem.games.b import x\nfrom pbem import games\n"
        "from ..games import c\nfrom . import svg\n",
        encoding="utf-8",
    )
    found = imported_modules(source)
    assert {"pbem.games.a", "pbem.games.b", "pbem.games", "pbem.games.c"} <= found
    assert "pbem.render.svg" in found


def test_numbers_are_short_and_stable() -> None:
    assert [num(v) for v in (3.0, 2.54, -0.04, -1.26, 100)] == ["3", "2.5", "0", "-1.3", "100"]


def test_escape_makes_any_text_safe_in_xml() -> None:
    assert escape('<a & "b" \'c\'>\x00\x1f') == "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;"


def test_ordinals() -> None:
    got = [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)]
    assert got == [
        *("1st", "2nd", "3rd", "4th", "11th", "12th", "13th"),
        *("21st", "22nd", "101st", "111th"),
    ]


def test_a_label_is_an_outline_unless_a_glyph_is_missing() -> None:
    outlined = label("Zo\u00eb & co", 10, 20, 14, role="name")
    assert outlined.startswith('<path class="name" aria-label="Zo\u00eb &amp; co" d="M')
    text = label("\u674e\u5c0f\u9f99", 10, 20, 14, bold=True, anchor="end")
    assert text == (
        '<text class="label" x="10" y="20" font-size="14" font-weight="bold" text-anchor="end" '
        'fill="#3b3226">\u674e\u5c0f\u9f99</text>'
    )


def test_fit_text_cuts_with_an_ellipsis() -> None:
    assert fit_text("  Ann   Lee ", 200, 14) == "Ann Lee"
    cut = fit_text("Chandrasekhar Subrahmanyan", 100, 14)
    assert cut.endswith("\u2026") and text_width(cut, 14) <= 100


def test_paint_gathers_fills_by_layer_then_colour() -> None:
    paint = Paint()
    paint.fill(5, "#000000", "M0 0L1 1Z")
    paint.fill(1, "#ffffff", "M2 2L3 3Z")
    paint.fill(5, "#000000", "M4 4L5 5Z")
    assert paint.svg() == (
        '<path d="M2 2L3 3Z" fill="#ffffff"/><path d="M0 0L1 1ZM4 4L5 5Z" fill="#000000"/>'
    )


def svg(body: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">{body}</svg>'


def test_svg_to_png_keeps_the_size() -> None:
    png = svg_to_png(svg('<rect width="40" height="20" fill="#ff0000"/>'))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png[16:24]) == (40, 20)


def test_a_layered_picture_draws_its_lasting_layer_once_per_key() -> None:
    drawn: list[str] = []

    def background(color: str) -> str:
        drawn.append(color)
        return svg(f'<rect width="40" height="20" fill="{color}"/>')

    layers = LayeredPicture(background, keep=2)
    overlay = svg('<rect x="20" width="20" height="20" fill="#0000ff"/>')
    first = layers.png("#ff0000", overlay)
    assert layers.png("#ff0000", overlay) == first
    layers.png("#00ff00", overlay)
    assert drawn == ["#ff0000", "#00ff00"]
    picture = Image.open(io.BytesIO(first)).convert("RGB")
    assert picture.size == (40, 20)
    assert picture.getpixel((5, 10)) == (255, 0, 0)
    assert picture.getpixel((35, 10)) == (0, 0, 255)
    layers.cache_clear()
    layers.png("#ff0000", overlay)
    assert drawn == ["#ff0000", "#00ff00", "#ff0000"]
