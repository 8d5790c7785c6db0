"""Building blocks for SVG pictures: escaping, numbers, shapes, labels as outlines, colours."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from pbem.render import _glyphs

__all__ = [
    "FONT_FAMILY",
    "ICON_BOX",
    "INK",
    "SEAT_COLORS",
    "Paint",
    "contrast",
    "ellipse_path",
    "escape",
    "fit_text",
    "ink_on",
    "initials",
    "label",
    "legible_ink",
    "luminance",
    "num",
    "ordinal",
    "place_path",
    "rounded_rect_path",
    "text_path",
    "text_width",
]

# Labels are drawn as DejaVu Sans outlines (`_glyphs`); `<text>` falls back to the same font.
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#3b3226"  # the ink a label gets unless told otherwise

# Okabe & Ito's palette, chosen to stay apart under the common colour-vision deficiencies;
# the initials on each token tell players apart even where two colours look alike.
SEAT_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")

ICON_BOX = 40  # icons are drawn in a 40 x 40 box, then placed and scaled by `Paint.icon`


def num(value: float) -> str:
    """A coordinate as short, stable text: one decimal at most, no '-0'."""
    text = f"{value:.1f}"
    text = text.removesuffix(".0")
    return "0" if text == "-0" else text


_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff\ud800-\udfff]")


def escape(text: str) -> str:
    """Text safe for XML content and attribute values; characters XML forbids are dropped."""
    text = _XML_ILLEGAL.sub("", text)
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def initials(name: str) -> str:
    """The two characters shown on a player's token: the first two of its name."""
    return "".join(name.split())[:2]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def luminance(color: str) -> float:
    """WCAG's relative luminance of a `#rrggbb` colour, 0 (black) to 1 (white)."""
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two `#rrggbb` colours, 1 to 21."""
    dark, light = sorted((luminance(one), luminance(other)))
    return (light + 0.05) / (dark + 0.05)


#: the two inks `legible_ink` chooses from
LIGHT_INK, DARK_INK = "#ffffff", "#111111"


def legible_ink(fill: str) -> str:
    """White or near-black, whichever contrasts more with `fill`: small letters on a coloured
    disc need WCAG's 4.5:1, which a fill of middling lightness reaches with only one of them."""
    return max((LIGHT_INK, DARK_INK), key=lambda ink: contrast(ink, fill))


def ink_on(color: str) -> str:
    """White where it reaches WCAG's 3:1 for large bold text on `color`, else near-black."""
    return "#ffffff" if 1.05 / (luminance(color) + 0.05) >= 3.1 else "#1a1a1a"


# --- shapes as path data ----------------------------------------------------------------------

_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)")
_KAPPA = 0.5523  # cubic Bezier control distance for a quarter circle


def ellipse_path(cx: float, cy: float, rx: float, ry: float) -> str:
    """Path data for an ellipse as four cubic Beziers (coordinates unrounded)."""
    kx, ky = rx * _KAPPA, ry * _KAPPA
    return (
        f"M{cx + rx} {cy}C{cx + rx} {cy + ky} {cx + kx} {cy + ry} {cx} {cy + ry}"
        f"C{cx - kx} {cy + ry} {cx - rx} {cy + ky} {cx - rx} {cy}"
        f"C{cx - rx} {cy - ky} {cx - kx} {cy - ry} {cx} {cy - ry}"
        f"C{cx + kx} {cy - ry} {cx + rx} {cy - ky} {cx + rx} {cy}Z"
    )


def rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> str:
    """Path data for a rectangle with corners rounded to radius `r`."""
    return (
        f"M{num(x + r)} {num(y)}H{num(x + w - r)}A{num(r)} {num(r)} 0 0 1 {num(x + w)} {num(y + r)}"
        f"V{num(y + h - r)}A{num(r)} {num(r)} 0 0 1 {num(x + w - r)} {num(y + h)}"
        f"H{num(x + r)}A{num(r)} {num(r)} 0 0 1 {num(x)} {num(y + h - r)}"
        f"V{num(y + r)}A{num(r)} {num(r)} 0 0 1 {num(x + r)} {num(y)}Z"
    )


def place_path(d: str, x: float, y: float, scale: float) -> str:
    """Absolute path data made only of M, L, Q, C and Z, scaled and moved to (x, y)."""
    out: list[str] = []
    for chunk in re.findall(r"[MLQCZ][^MLQCZ]*", d):
        values = [float(v) for v in _NUMBER.findall(chunk[1:])]
        out.append(chunk[0])
        out.append(
            " ".join(num((x if i % 2 == 0 else y) + v * scale) for i, v in enumerate(values))
        )
    return "".join(out)


# --- text as glyph outlines -------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _glyph(bold: bool, ch: str) -> tuple[int, tuple[tuple[str, tuple[int, ...]], ...]]:
    """A glyph's advance and outline as (command, coordinates) pairs, in font units, y up."""
    width, outline = (_glyphs.BOLD if bold else _glyphs.REGULAR)[ch]
    ops = tuple(
        (chunk[0], tuple(int(v) for v in chunk[1:].split()))
        for chunk in re.findall(r"[MLQCZ][^MLQCZ]*", outline)
    )
    return width, ops


def _can_outline(text: str, bold: bool) -> bool:
    table = _glyphs.BOLD if bold else _glyphs.REGULAR
    return all(ch in table for ch in text)


def _tenths(n: int) -> str:
    whole, tenth = divmod(abs(n), 10)
    return ("-" if n < 0 else "") + (f"{whole}.{tenth}" if tenth else f"{whole}")


@functools.lru_cache(maxsize=2048)
def _glyph_shape(bold: bool, ch: str, size: float) -> tuple[int, int, str]:
    """A glyph at `size`, y down: its first point and the rest as relative path data.

    Points are rounded to tenths before differences are taken, so the relative steps add up
    exactly; placing a glyph then only needs its first point formatted.
    """
    units = _glyphs.UNITS_PER_EM_BOLD if bold else _glyphs.UNITS_PER_EM_REGULAR
    scale = size * 10 / units
    ops = _glyph(bold, ch)[1]
    if not ops:
        return 0, 0, ""
    coords0 = ops[0][1]
    first = (round(coords0[0] * scale), round(-coords0[1] * scale))
    current = start = first
    parts: list[str] = []
    for command, coords in ops:
        if command == "Z":
            parts.append("z")
            current = start
            continue
        points = [
            (round(coords[i] * scale), round(-coords[i + 1] * scale))
            for i in range(0, len(coords), 2)
        ]
        if command == "M":
            start = points[0]
            if points[0] == first and not parts:
                continue
        parts.append(command.lower())
        parts.append(
            " ".join(f"{_tenths(px - current[0])} {_tenths(py - current[1])}" for px, py in points)
        )
        current = points[-1]
    return first[0], first[1], "".join(parts)


def text_path(
    text: str,
    x: float,
    y: float,
    size: float,
    *,
    bold: bool = False,
    anchor: str = "start",
    spacing: float = 0,
) -> str:
    """Path data for `text` in DejaVu Sans with its baseline at `y`.

    Every character must be in the glyph table; `label` falls back to `<text>` otherwise.
    `anchor` is SVG's text-anchor: start, middle or end; `spacing` is added between letters.
    """
    units = _glyphs.UNITS_PER_EM_BOLD if bold else _glyphs.UNITS_PER_EM_REGULAR
    scale = size / units
    advance = sum(_glyph(bold, ch)[0] for ch in text) * scale + spacing * (len(text) - 1)
    pen = x - (advance / 2 if anchor == "middle" else advance if anchor == "end" else 0)
    parts: list[str] = []
    for ch in text:
        fx, fy, rest = _glyph_shape(bold, ch, size)
        if rest:
            parts.append(f"M{num(pen + fx / 10)} {num(y + fy / 10)}{rest}")
        pen += _glyph(bold, ch)[0] * scale + spacing
    return "".join(parts)


@functools.lru_cache(maxsize=4096)
def label(
    text: str,
    x: float,
    y: float,
    size: float,
    *,
    bold: bool = False,
    anchor: str = "start",
    fill: str = INK,
    role: str = "label",
) -> str:
    """A one-line label: a path of glyph outlines, or `<text>` if a character is missing.

    resvg spends about 0.3 ms on each `<text>` and loads fonts for the first, so labels are
    outlines wherever the glyph table allows; `aria-label` keeps what they say readable.
    `role` becomes the element's class.
    """
    text = _XML_ILLEGAL.sub("", text)
    if _can_outline(text, bold):
        d = text_path(text, x, y, size, bold=bold, anchor=anchor)
        return f'<path class="{role}" aria-label="{escape(text)}" d="{d}" fill="{fill}"/>'
    weight = ' font-weight="bold"' if bold else ""
    align = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (
        f'<text class="{role}" x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{weight}{align} '
        f'fill="{fill}">{escape(text)}</text>'
    )


def text_width(text: str, font_size: float, *, bold: bool = False) -> float:
    """The advance of `text` in DejaVu Sans (Bold), estimated for characters outside the table."""
    table, units = (_glyphs.BOLD, _glyphs.UNITS_PER_EM_BOLD) if bold else (_glyphs.REGULAR, _glyphs.UNITS_PER_EM_REGULAR)
    width = 0.0
    for ch in text:
        if ch in table:
            width += _glyph(bold, ch)[0] / units
        else:
            width += 0.62 if ord(ch) < 0x2E80 else 1.0  # CJK and the like are full width
    return width * font_size


def fit_text(text: str, max_width: float, font_size: float) -> str:
    """`text` on one line, cut with an ellipsis so that it fits in `max_width`."""
    text = " ".join(text.split())
    if text_width(text, font_size) <= max_width:
        return text
    room = max_width - text_width("\u2026", font_size)
    width = 0.0
    for i, ch in enumerate(text):
        width += text_width(ch, font_size)
        if width > room:
            return text[:i].rstrip() + "\u2026"
    return text


# --- paint -------------------------------------------------------------------------------------
# resvg pays a fixed price for every element it paints and more again for every stroke, so a
# picture's unchanging part is best painted as a few dozen filled paths, one per layer and
# colour (`Paint`), while what changes every time stays as ordinary, inspectable elements.


class Paint:
    """Filled shapes gathered by (layer, colour), each gathering painted as one path.

    Painting order is kept as long as shapes in one layer do not overlap one another: lower
    layers are painted first, and within a layer the order of colours is the order they were
    first used in.
    """

    def __init__(self) -> None:
        self._paths: dict[tuple[int, str], list[str]] = {}

    def fill(self, layer: int, color: str, d: str) -> None:
        self._paths.setdefault((layer, color), []).append(d)

    def framed(
        self,
        layer: int,
        box: tuple[float, float, float, float],
        radius: float,
        fill: str,
        border: str,
        width: float,
    ) -> None:
        """A rounded rectangle with a border, in `layer` and `layer + 1`.

        Two fills, as a stroke would cost more.
        """
        x, y, w, h = box
        self.fill(layer, border, rounded_rect_path(x, y, w, h, radius))
        self.fill(
            layer + 1,
            fill,
            rounded_rect_path(x + width, y + width, w - 2 * width, h - 2 * width, radius - width),
        )

    def icon(
        self, layer: int, shapes: Sequence[tuple[str, str]], x: float, y: float, side: float
    ) -> None:
        """An icon given as (fill, path) pairs in an `ICON_BOX` square, one layer per pair."""
        for i, (color, d) in enumerate(shapes):
            self.fill(layer + i, color, place_path(d, x, y, side / ICON_BOX))

    def text(
        self,
        layer: int,
        text: str,
        x: float,
        y: float,
        size: float,
        *,
        color: str = INK,
        bold: bool = False,
        anchor: str = "start",
        spacing: float = 0,
    ) -> None:
        """`text` as outlines (see `text_path`, whose glyph table must cover it)."""
        d = text_path(text, x, y, size, bold=bold, anchor=anchor, spacing=spacing)
        self.fill(layer, color, d)

    def svg(self) -> str:
        ordered = sorted(self._paths.items(), key=lambda item: item[0][0])
        return "".join(f'<path d="{"".join(ds)}" fill="{color}"/>' for (_, color), ds in ordered)
