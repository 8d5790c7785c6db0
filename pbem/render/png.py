"""SVG to PNG: rasterising with resvg, and pictures made of a cached layer and an overlay."""

from __future__ import annotations

import functools
import io
import math
import os
import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["LayeredPicture", "palette_png", "svg_to_png"]

_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/Library/Fonts", "C:/Windows/Fonts")
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
# Latin, Greek and Cyrillic, punctuation and arrows: what DejaVu Sans surely covers.
_BEYOND_DEJAVU = re.compile("[^\u0000-\u052f\u1e00-\u1fff\u2000-\u21ff]")


@functools.lru_cache(maxsize=1)
def _font_files() -> tuple[str, ...]:
    """DejaVu Sans and its bold, if installed: loading two files beats scanning every font."""
    found: dict[str, str] = {}
    for base in _FONT_DIRS:
        for dirpath, dirnames, files in os.walk(base):
            dirnames.sort()
            for name in _FONT_FILES:
                if name in files and name not in found:
                    found[name] = os.path.join(dirpath, name)
    return tuple(found[n] for n in _FONT_FILES) if len(found) == len(_FONT_FILES) else ()


def svg_to_png(svg: str) -> bytes:
    """`svg` rasterised to PNG at its own width and height, with resvg.

    Fonts are loaded only as far as the text needs them: none where every label is an outline
    (`pbem.render.svg.label`), DejaVu Sans where it covers the text, else every installed font.
    """
    import resvg_py  # here, so that building SVG never needs the native library

    fonts = _font_files()
    if "<text" not in svg:
        return bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True))
    if fonts and not _BEYOND_DEJAVU.search(svg):
        return bytes(
            resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=list(fonts))
        )
    # Text in a script DejaVu Sans lacks: let resvg look through every installed font.
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))


def _layer_png(svg: str) -> bytes:
    """`svg` rasterised for a layer: with DejaVu Sans alone whenever it is installed."""
    import resvg_py

    fonts = _font_files()
    if fonts:
        return bytes(
            resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=list(fonts))
        )
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))


def _rgba(svg: str) -> Image:
    from PIL import Image

    return Image.open(io.BytesIO(_layer_png(svg))).convert("RGBA")


def palette_png(picture: Image, *, colors: int = 128, sample: int = 1) -> bytes:
    """`picture` written as a palette PNG of at most `colors` colours.

    A small palette loses nothing visible on a flat-coloured picture and makes the PNG about
    three times smaller than a true-colour one.

    With `sample` > 1 the palette is chosen from every `sample`-th pixel each way (their own
    colours: nearest neighbour, nothing blended) and every pixel then takes its nearest palette
    colour. At 2 that takes half the time of choosing from every pixel, and comes closer to the
    picture: the octree's own mapping leaves more edge pixels far off their colour.
    """
    from PIL import Image

    rgb = picture.convert("RGB")
    if sample > 1:
        sampled = rgb.resize((max(1, rgb.width // sample), max(1, rgb.height // sample)), Image.Resampling.NEAREST)
        chosen = sampled.quantize(colors=colors, method=Image.Quantize.FASTOCTREE)
        palette = rgb.quantize(palette=chosen, dither=Image.Dither.NONE)
    else:
        palette = rgb.quantize(colors=colors, method=Image.Quantize.FASTOCTREE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=6)
    return out.getvalue()


K = TypeVar("K", bound=Hashable)


class LayeredPicture(Generic[K]):
    """Pictures made of a layer that seldom changes and an overlay that changes every time.

    `static_svg(key)` draws the lasting layer; it is rasterised once per key, and the last
    `keep` of them are kept. Each picture then only sends its overlay, on a transparent
    background, through resvg, and Pillow lays it over the cached layer. Most of resvg's time
    per picture went on compressing the whole PNG: the result is written once, by Pillow, as a
    palette image (`palette_png`).
    """

    def __init__(self, static_svg: Callable[[K], str], *, keep: int = 4) -> None:
        self._static_svg = static_svg
        self._static = functools.lru_cache(maxsize=keep)(self._draw_static)

    def _draw_static(self, key: K) -> Image:
        return _rgba(self._static_svg(key))

    def png(self, key: K, overlay_svg: str, *, colors: int = 128) -> bytes:
        """The layer for `key` with `overlay_svg` laid over it, as a palette PNG."""
        from PIL import Image

        picture = Image.alpha_composite(self._static(key), _rgba(overlay_svg))
        return palette_png(picture, colors=colors)

    def png_parts(
        self,
        key: K,
        parts: Sequence[tuple[str, tuple[float, float, float, float]]],
        *,
        width: int,
        view: tuple[float, float],
        head: str = "",
        colors: int = 128,
        sample: int = 1,
    ) -> bytes:
        """The layer for `key` with each of `parts` laid over it in turn, as a palette PNG.

        A part is an SVG fragment in the user space of a `view` (width, height) drawn `width`
        pixels wide, and the area (x0, y0, x1, y1) it draws within. Each goes through resvg on
        a tile of whole pixels covering only its area, so that the same pixels come out as
        from the whole overlay at once: resvg's time goes mostly on writing the PNG of its
        canvas, and a turn's parts cover a small part of the picture. `head` holds attributes
        for each tile's root element (a font family).
        """
        scale = width / view[0]
        height = round(view[1] * scale)
        picture = self._static(key).copy()
        for svg, (x0, y0, x1, y1) in parts:
            left, top = max(0, math.floor(x0 * scale)), max(0, math.floor(y0 * scale))
            right, bottom = min(width, math.ceil(x1 * scale)), min(height, math.ceil(y1 * scale))
            if not svg or right <= left or bottom <= top:
                continue
            w, h = right - left, bottom - top
            tile = (
                f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" '
                f'viewBox="{left / scale!r} {top / scale!r} {w / scale!r} {h / scale!r}" {head}>{svg}</svg>'
            )
            picture.alpha_composite(_rgba(tile), dest=(left, top))
        return palette_png(picture, colors=colors, sample=sample)

    def cache_clear(self) -> None:
        """Forget every rasterised layer."""
        self._static.cache_clear()
