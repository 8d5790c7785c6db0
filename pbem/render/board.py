"""Draw the Hare & Tortoise board, its runners and this turn's moves as SVG, and SVG as PNG."""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.errors import PbemError

__all__ = [
    "BoardRenderError",
    "MoveMark",
    "RunnerMark",
    "SEAT_COLORS",
    "SquareInfo",
    "board_png",
    "board_svg",
]

START = 0
HOME = 64
KINDS = ("start", "carrot", "hare", "lettuce", "tortoise", "number", "home")

# Okabe & Ito's palette, chosen to stay apart under the common colour-vision deficiencies;
# the initials on each token tell runners apart even where two colours look alike.
SEAT_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")


class BoardRenderError(PbemError, ValueError):
    """Data that cannot be drawn: a track that is not 65 squares, a runner off the board."""


@dataclass(frozen=True)
class SquareInfo:
    """What one position of the track is; `numbers` holds a number square's positions."""

    kind: str
    numbers: tuple[int, ...] = ()


@dataclass(frozen=True)
class RunnerMark:
    """A runner where it stands now; `seat` counts from 0 (seat A); `place` once finished."""

    seat: int
    name: str
    square: int
    place: int | None = None


@dataclass(frozen=True)
class MoveMark:
    """A move made this turn, drawn as an arrow numbered by its slot."""

    seat: int
    from_square: int
    to_square: int
    slot: int


# --- geometry -------------------------------------------------------------------------------
# Everything is drawn in a fixed 1200 x 700 user space; `size` only sets the pixel width, so
# the static track does not depend on it.

_VW = 1200
_VH = 700
_M = 18  # outer margin
_HEAD = 78  # title band
_COLS = 9
_ROWS = 7
_CELL = 86
_SQ = 78  # square side; the rest of a cell is the gap
_SIDE = (_VW - 2 * _M - 2 * 12 - _COLS * _CELL) // 2  # width of the side panels
_TX = _M + _SIDE + 12  # track origin
_TY = _HEAD
_RX = _TX + _COLS * _CELL + 12  # right panels
_TOKEN_R = 24

_START_BOX = (_M, _TY + 4, _SIDE, 3 * _CELL - 8)
_KINDS_BOX = (_M, _TY + 3 * _CELL + 4, _SIDE, 4 * _CELL - 8)
_PLAYERS_BOX = (_RX, _TY + 4, _SIDE, 3 * _CELL - 8)
_HOME_BOX = (_RX, _TY + 3 * _CELL + 4, _SIDE, 4 * _CELL - 8)

_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
_INK = "#3b3226"
_PAPER = "#fbf6e9"

# fill, border, label ink for each kind of square
_KIND_STYLE: dict[str, tuple[str, str, str]] = {
    "start": ("#ffffff", "#8a7a5c", _INK),
    "carrot": ("#fcd3a1", "#d9822b", "#8a4a0c"),
    "hare": ("#e6dcf5", "#8e7cc3", "#4f3f80"),
    "lettuce": ("#d3eebd", "#5e9e3a", "#2f5e17"),
    "tortoise": ("#c6e3e1", "#3f8c8c", "#1f5252"),
    "number": ("#fff1b0", "#c9a227", "#5a4a00"),
    "home": ("#ffe7a0", "#d4a017", _INK),
}

_KIND_WORD = {
    "carrot": "Carrot",
    "hare": "Hare",
    "lettuce": "Lettuce",
    "tortoise": "Tortoise",
    "number": "Number",
}


def _f(value: float) -> str:
    """A coordinate as short, stable text: one decimal at most, no '-0'."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def _esc(text: str) -> str:
    """Text safe for XML content and attribute values; control characters are dropped."""
    text = _XML_ILLEGAL.sub("", text)
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def _text_width(text: str, font_size: float) -> float:
    """A rough advance width in DejaVu Sans, enough to decide where to cut a long name."""
    width = 0.0
    for ch in text:
        if ch in "iIjlt.,:;|!'\u00b7 ":
            width += 0.34
        elif ch in "mwMW@%":
            width += 0.92
        elif ch.isupper() or ch.isdigit():
            width += 0.68
        else:
            width += 0.6
    return width * font_size


def _fit(text: str, max_width: float, font_size: float) -> str:
    """`text`, cut with an ellipsis so that it fits in `max_width`."""
    text = " ".join(text.split())
    if _text_width(text, font_size) <= max_width:
        return text
    while text and _text_width(text + "\u2026", font_size) > max_width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def initials(name: str) -> str:
    """The two characters shown on a runner's token: the first two of its name."""
    return "".join(name.split())[:2]


def _seat_letter(seat: int) -> str:
    return chr(ord("A") + seat)


def _ink_on(color: str) -> str:
    """White where it reaches WCAG's 3:1 for large bold text on `color`, else near-black."""
    channels = [int(color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "#ffffff" if 1.05 / (lum + 0.05) >= 3.1 else "#1a1a1a"


def _square_origin(square: int) -> tuple[int, int]:
    """Top-left corner of track square 1..63: a serpentine of 9-square rows."""
    row, col = divmod(square - 1, _COLS)
    if row % 2:
        col = _COLS - 1 - col
    return _TX + col * _CELL + (_CELL - _SQ) // 2, _TY + row * _CELL + (_CELL - _SQ) // 2


def _anchor(square: int) -> tuple[float, float]:
    """Where arrows and the track ribbon meet a position."""
    if square == START:
        x, y, w, _ = _START_BOX
        return x + w - 30, _TY + _CELL / 2
    if square == HOME:
        x, _, _, _ = _HOME_BOX
        return x + 30, _TY + (_ROWS - 1) * _CELL + _CELL / 2
    ox, oy = _square_origin(square)
    return ox + _SQ / 2, oy + _SQ / 2


# --- the static track -----------------------------------------------------------------------

_ICONS = (
    # carrot, lying on the diagonal, leaves to the top right
    '<symbol id="i-carrot" viewBox="0 0 40 40">'
    '<path d="M29 12Q28 5 33 2M30 13Q35 8 39 9M31 15Q37 14 38 18" fill="none" '
    'stroke="#3e8e2e" stroke-width="2.6" stroke-linecap="round"/>'
    '<path d="M5 36C10 28 19 17 24 12Q28 9 31 12Q34 16 29 20C24 24 14 31 5 36Z" '
    'fill="#f08a24" stroke="#a8520c" stroke-width="1.4" stroke-linejoin="round"/>'
    '<path d="M17 21l3 3M12 27l3 2M22 16l2 3" stroke="#a8520c" stroke-width="1.3" '
    'stroke-linecap="round"/></symbol>'
    # hare's head, ears up
    '<symbol id="i-hare" viewBox="0 0 40 40">'
    '<ellipse cx="14" cy="11" rx="4.6" ry="10.5" transform="rotate(-14 14 11)" '
    'fill="#a88b6e" stroke="#5e4633" stroke-width="1.3"/>'
    '<ellipse cx="26" cy="11" rx="4.6" ry="10.5" transform="rotate(14 26 11)" '
    'fill="#a88b6e" stroke="#5e4633" stroke-width="1.3"/>'
    '<ellipse cx="14" cy="12" rx="2" ry="7" transform="rotate(-14 14 12)" fill="#f2b8c6"/>'
    '<ellipse cx="26" cy="12" rx="2" ry="7" transform="rotate(14 26 12)" fill="#f2b8c6"/>'
    '<ellipse cx="20" cy="27" rx="11.5" ry="10" fill="#a88b6e" stroke="#5e4633" '
    'stroke-width="1.3"/>'
    '<circle cx="15.5" cy="25" r="1.9" fill="#2a1d12"/>'
    '<circle cx="24.5" cy="25" r="1.9" fill="#2a1d12"/>'
    '<ellipse cx="20" cy="30" rx="2.2" ry="1.6" fill="#e07a93"/>'
    '<path d="M20 31.5v2.5M20 34q-3 1.5-5 0M20 34q3 1.5 5 0" fill="none" stroke="#5e4633" '
    'stroke-width="1" stroke-linecap="round"/></symbol>'
    # a head of lettuce
    '<symbol id="i-lettuce" viewBox="0 0 40 40">'
    '<circle cx="20" cy="21" r="15" fill="#5fae34" stroke="#2f6a17" stroke-width="1.4"/>'
    '<path d="M8 24Q20 8 32 24" fill="#8fd05e" stroke="#2f6a17" stroke-width="1.2"/>'
    '<path d="M12 29Q20 16 28 29" fill="#b5e38a" stroke="#2f6a17" stroke-width="1.2"/>'
    '<path d="M20 35V14M20 26l-5-5M20 26l5-5" fill="none" stroke="#e8f7d4" '
    'stroke-width="1.4" stroke-linecap="round"/></symbol>'
    # tortoise from the side, walking right
    '<symbol id="i-tortoise" viewBox="0 0 40 40">'
    '<circle cx="34" cy="22" r="4.6" fill="#9bc36b" stroke="#3f5e25" stroke-width="1.2"/>'
    '<circle cx="35.5" cy="21" r="0.9" fill="#1d2a12"/>'
    '<rect x="8" y="25" width="5" height="7" rx="2" fill="#9bc36b" stroke="#3f5e25" '
    'stroke-width="1.1"/>'
    '<rect x="22" y="25" width="5" height="7" rx="2" fill="#9bc36b" stroke="#3f5e25" '
    'stroke-width="1.1"/>'
    '<path d="M3 28Q4 11 18 10Q31 10 32 28Z" fill="#3f7f5a" stroke="#1f4732" '
    'stroke-width="1.4" stroke-linejoin="round"/>'
    '<path d="M11 27L13 18L23 18L25 27M13 18L17 11M23 18L20 10" fill="none" '
    'stroke="#a7d3b5" stroke-width="1.2"/></symbol>'
    # chequered flag for HOME
    '<symbol id="i-flag" viewBox="0 0 40 40">'
    '<path d="M8 37V4" stroke="#5b4a2e" stroke-width="2.4" stroke-linecap="round"/>'
    '<rect x="9" y="5" width="24" height="16" fill="#ffffff" stroke="#222" stroke-width="1"/>'
    '<path d="M9 5h6v4h-6zM21 5h6v4h-6zM15 9h6v4h-6zM27 9h6v4h-6zM9 13h6v4h-6zM21 13h6v4h-6z'
    'M15 17h6v4h-6zM27 17h6v4h-6z" fill="#222"/></symbol>'
)


def _square_svg(square: int, info: SquareInfo) -> str:
    x, y = _square_origin(square)
    fill, border, ink = _KIND_STYLE[info.kind]
    cx = x + _SQ / 2
    parts = [
        f'<g class="square" data-square="{square}" data-kind="{info.kind}">',
        f'<rect x="{x}" y="{y}" width="{_SQ}" height="{_SQ}" rx="11" fill="{fill}" '
        f'stroke="{border}" stroke-width="2.5"/>',
        f'<text x="{x + 7}" y="{y + 17}" font-size="14" font-weight="bold" '
        f'fill="{ink}" fill-opacity="0.8">{square}</text>',
    ]
    if info.kind == "number":
        label = "\u00b7".join(str(n) for n in info.numbers)
        font = 34 if len(label) == 1 else (27 if len(label) <= 3 else 21)
        parts.append(
            f'<text x="{_f(cx)}" y="{_f(y + 46 + font * 0.36)}" font-size="{font}" '
            f'font-weight="bold" text-anchor="middle" fill="{ink}">{_esc(label)}</text>'
        )
    elif info.kind in ("carrot", "hare", "lettuce", "tortoise"):
        parts.append(
            f'<use href="#i-{info.kind}" x="{x + 17}" y="{y + 19}" width="46" height="46"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _panel(box: tuple[int, int, int, int], fill: str, stroke: str) -> str:
    x, y, w, h = box
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="16" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="2.5"/>'
    )


def _ribbon() -> str:
    """The earth path the squares sit on, winding from START to HOME."""
    points = [_anchor(sq) for sq in range(START, HOME + 1)]
    d = "M" + " L".join(f"{_f(x)} {_f(y)}" for x, y in points)
    return (
        f'<path d="{d}" fill="none" stroke="#e6d6b4" stroke-width="44" '
        'stroke-linejoin="round" stroke-linecap="round"/>'
        f'<path d="{d}" fill="none" stroke="#d4bf94" stroke-width="2" '
        'stroke-dasharray="3 9" stroke-linecap="round"/>'
    )


def _kinds_legend(squares: tuple[SquareInfo, ...]) -> str:
    x, y, w, h = _KINDS_BOX
    numbers = sorted(
        {"\u00b7".join(str(n) for n in sq.numbers) for sq in squares if sq.kind == "number"},
        key=lambda s: (len(s), s),
    )
    parts = [
        _panel(_KINDS_BOX, "#ffffff", "#d8ccb0"),
        f'<text x="{x + 14}" y="{y + 28}" font-size="16" font-weight="bold" '
        f'fill="{_INK}">Squares</text>',
    ]
    for i, kind in enumerate(("carrot", "hare", "lettuce", "tortoise", "number")):
        fill, border, ink = _KIND_STYLE[kind]
        top = y + 44 + i * 56
        parts.append(
            f'<rect x="{x + 14}" y="{top}" width="44" height="44" rx="8" fill="{fill}" '
            f'stroke="{border}" stroke-width="2"/>'
        )
        if kind == "number":
            parts.append(
                f'<text x="{x + 36}" y="{top + 30}" font-size="20" font-weight="bold" '
                f'text-anchor="middle" fill="{ink}">#</text>'
            )
        else:
            parts.append(
                f'<use href="#i-{kind}" x="{x + 17}" y="{top + 3}" width="38" height="38"/>'
            )
        label_y = top + 28 if kind != "number" else top + 20
        parts.append(
            f'<text x="{x + 68}" y="{label_y}" font-size="15" fill="{_INK}">'
            f"{_KIND_WORD[kind]}</text>"
        )
        if kind == "number":
            parts.append(
                f'<text x="{x + 68}" y="{top + 39}" font-size="12" fill="#7a6c55">'
                f"{_esc(' '.join(numbers))}</text>"
            )
    del w, h
    return "".join(parts)


def _start_home() -> str:
    sx, sy, sw, _ = _START_BOX
    hx, hy, hw, _ = _HOME_BOX
    fill, border, _ink = _KIND_STYLE["start"]
    hfill, hborder, _hink = _KIND_STYLE["home"]
    return "".join(
        [
            '<g class="square" data-square="0" data-kind="start">',
            _panel(_START_BOX, fill, border),
            f'<text x="{_f(sx + sw / 2)}" y="{sy + 32}" font-size="21" font-weight="bold" '
            f'text-anchor="middle" fill="{_INK}" letter-spacing="2">START</text>',
            "</g>",
            '<g class="square" data-square="64" data-kind="home">',
            _panel(_HOME_BOX, hfill, hborder),
            f'<use href="#i-flag" x="{hx + 22}" y="{hy + 6}" width="36" height="36"/>',
            f'<text x="{_f(hx + hw / 2 + 16)}" y="{hy + 33}" font-size="21" '
            f'font-weight="bold" text-anchor="middle" fill="{_INK}" '
            f'letter-spacing="2">HOME</text>',
            "</g>",
        ]
    )


@functools.lru_cache(maxsize=8)
def _track_svg(squares: tuple[SquareInfo, ...]) -> str:
    """Everything that never changes during a game, built once per track."""
    parts = [
        f'<defs>{_ICONS}</defs>',
        f'<rect width="{_VW}" height="{_VH}" fill="{_PAPER}"/>',
        f'<rect x="6" y="6" width="{_VW - 12}" height="{_VH - 12}" rx="20" fill="none" '
        'stroke="#e2d5b5" stroke-width="3"/>',
        f'<use href="#i-tortoise" x="{_VW - 118}" y="20" width="46" height="46"/>',
        f'<use href="#i-hare" x="{_VW - 66}" y="16" width="48" height="48"/>',
        _ribbon(),
        _start_home(),
        '<g class="track">',
        *(_square_svg(sq, squares[sq]) for sq in range(1, HOME)),
        "</g>",
        _kinds_legend(squares),
        _panel(_PLAYERS_BOX, "#ffffff", "#d8ccb0"),
    ]
    return "".join(parts)


# --- what changes every turn ----------------------------------------------------------------


def _token(runner: RunnerMark, cx: float, cy: float, r: float, font: float) -> str:
    color = SEAT_COLORS[runner.seat]
    text = initials(runner.name) or _seat_letter(runner.seat)
    return (
        f'<circle cx="{_f(cx + 1.5)}" cy="{_f(cy + 2.5)}" r="{_f(r)}" fill="#000" '
        'fill-opacity="0.22"/>'
        f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(r)}" fill="{color}" stroke="#ffffff" '
        f'stroke-width="{_f(max(2.0, r / 8))}"/>'
        f'<text x="{_f(cx)}" y="{_f(cy + font * 0.36)}" font-size="{_f(font)}" '
        f'font-weight="bold" text-anchor="middle" fill="{_ink_on(color)}">{_esc(text)}</text>'
    )


def _runner_svg(runner: RunnerMark, cx: float, cy: float, r: float, font: float) -> str:
    return (
        f'<g class="runner" data-seat="{runner.seat}" data-square="{runner.square}" '
        f'data-color="{SEAT_COLORS[runner.seat]}"><title>{_esc(runner.name)}</title>'
        f"{_token(runner, cx, cy, r, font)}</g>"
    )


def _finish_order(runner: RunnerMark) -> tuple[int, int]:
    return (runner.place if runner.place is not None else 1_000, runner.seat)


def _runners_svg(runners: Sequence[RunnerMark]) -> str:
    parts: list[str] = []
    at_start = [r for r in runners if r.square == START]
    sx, sy, sw, _ = _START_BOX
    for i, runner in enumerate(at_start):
        row, col = divmod(i, 3)
        parts.append(
            _runner_svg(runner, sx + 33 + col * 58, sy + 82 + row * 64, _TOKEN_R, 17)
        )
    seen: dict[int, int] = {}
    for runner in runners:
        if START < runner.square < HOME:
            # Only one runner may stand on a square; if the data says otherwise, show both.
            nth = seen.get(runner.square, 0)
            seen[runner.square] = nth + 1
            cx, cy = _anchor(runner.square)
            parts.append(_runner_svg(runner, cx + 8 * nth, cy + 4 + 8 * nth, _TOKEN_R, 17))
    home = sorted((r for r in runners if r.square == HOME), key=_finish_order)
    hx, hy, hw, _ = _HOME_BOX
    for i, runner in enumerate(home):
        top = hy + 56 + i * 46
        place = _ordinal(runner.place) if runner.place is not None else "\u2013"
        name = _fit(runner.name, hw - 98, 14)
        parts.append(
            f'<g class="finisher" data-place="{runner.place if runner.place else ""}" '
            f'data-seat="{runner.seat}">'
            f'<text x="{hx + 12}" y="{top + 25}" font-size="16" font-weight="bold" '
            f'fill="{_INK}">{place}</text>'
            f"{_runner_svg(runner, hx + 66, top + 19, 18, 13)}"
            f'<text x="{hx + 90}" y="{top + 24}" font-size="14" fill="{_INK}">'
            f"{_esc(name)}</text></g>"
        )
    return "".join(parts)


def _players_svg(runners: Sequence[RunnerMark]) -> str:
    x, y, w, _ = _PLAYERS_BOX
    parts = [
        '<g class="players">',
        f'<text x="{x + 14}" y="{y + 26}" font-size="16" font-weight="bold" '
        f'fill="{_INK}">Runners</text>',
    ]
    step = 36 if len(runners) <= 6 else 216 / len(runners)
    for i, runner in enumerate(runners):
        cy = y + 56 + i * step
        if runner.place is not None:
            status = _ordinal(runner.place)
        elif runner.square == START:
            status = "start"
        elif runner.square == HOME:
            status = "home"
        else:
            status = f"sq {runner.square}"
        parts.append(
            f'<g class="player" data-seat="{runner.seat}">'
            f"{_token(runner, x + 28, cy, 14, 11)}"
            f'<text x="{x + 50}" y="{_f(cy + 5)}" font-size="14" fill="{_INK}">'
            f"{_esc(_fit(runner.name, w - 114, 14))}</text>"
            f'<text x="{x + w - 12}" y="{_f(cy + 5)}" font-size="13" text-anchor="end" '
            f'fill="#7a6c55">{status}</text></g>'
        )
    parts.append("</g>")
    return "".join(parts)


def _arrow_head(tip: tuple[float, float], ux: float, uy: float, color: str) -> str:
    bx, by = tip[0] - ux * 15, tip[1] - uy * 15
    nx, ny = -uy * 8, ux * 8
    return (
        f'<path d="M{_f(tip[0])} {_f(tip[1])}L{_f(bx + nx)} {_f(by + ny)}'
        f'L{_f(bx - nx)} {_f(by - ny)}Z" fill="{color}" stroke="#ffffff" '
        'stroke-width="1.5" stroke-linejoin="round"/>'
    )


def _badge(cx: float, cy: float, move: MoveMark, color: str) -> str:
    return (
        f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="11" fill="{color}" stroke="#ffffff" '
        'stroke-width="2"/>'
        f'<text x="{_f(cx)}" y="{_f(cy + 4.5)}" font-size="13" font-weight="bold" '
        f'text-anchor="middle" fill="{_ink_on(color)}">{move.slot}</text>'
    )


def _move_svg(move: MoveMark, occupied: set[int]) -> str:
    color = SEAT_COLORS[move.seat]
    head = (
        f'<g class="move" data-seat="{move.seat}" data-slot="{move.slot}" '
        f'data-from="{move.from_square}" data-to="{move.to_square}">'
    )
    backward = move.to_square < move.from_square
    dash = ' stroke-dasharray="9 6"' if backward else ""
    x0, y0 = _anchor(move.from_square)
    x1, y1 = _anchor(move.to_square)
    if move.from_square == move.to_square:
        # Staying put: a loop over the top of the square.
        d = (
            f"M{_f(x0 - 12)} {_f(y0 - 30)}C{_f(x0 - 34)} {_f(y0 - 78)} "
            f"{_f(x0 + 34)} {_f(y0 - 78)} {_f(x0 + 13)} {_f(y0 - 38)}"
        )
        tip = (x0 + 10, y0 - 28)
        ux, uy = -0.35, 0.94
        bx, by = x0, y0 - 64
    else:
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        nx, ny = -dy / length, dx / length
        bulge = min(max(length * 0.28, 30.0), 130.0) + 6 * (move.slot % 3)
        cx, cy = (x0 + x1) / 2 + nx * bulge * 2, (y0 + y1) / 2 + ny * bulge * 2
        trim_end = _TOKEN_R + 5 if move.to_square in occupied else 6
        ex, ey = x1 - cx, y1 - cy
        elen = math.hypot(ex, ey)
        ux, uy = ex / elen, ey / elen
        tip = (x1 - ux * trim_end, y1 - uy * trim_end)
        sx, sy = x0 - cx, y0 - cy
        slen = math.hypot(sx, sy)
        start = (x0 - sx / slen * 10, y0 - sy / slen * 10)
        end = (tip[0] - ux * 10, tip[1] - uy * 10)
        d = f"M{_f(start[0])} {_f(start[1])}Q{_f(cx)} {_f(cy)} {_f(end[0])} {_f(end[1])}"
        bx = 0.25 * start[0] + 0.5 * cx + 0.25 * end[0]
        by = 0.25 * start[1] + 0.5 * cy + 0.25 * end[1]
    return "".join(
        [
            head,
            f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="9" '
            'stroke-linecap="round" stroke-opacity="0.85"/>',
            f'<path d="{d}" fill="none" stroke="{color}" stroke-width="4.5" '
            f'stroke-linecap="round"{dash}/>',
            _arrow_head(tip, ux, uy, color),
            _badge(bx, by, move, color),
            "</g>",
        ]
    )


def _check(
    squares: tuple[SquareInfo, ...], runners: Sequence[RunnerMark], moves: Sequence[MoveMark]
) -> None:
    if len(squares) != HOME + 1:
        raise BoardRenderError(
            f"a track has {HOME + 1} positions (START, 1-63, HOME), not {len(squares)}"
        )
    for i, info in enumerate(squares):
        expected = "start" if i == START else "home" if i == HOME else None
        if info.kind not in KINDS or (expected and info.kind != expected):
            raise BoardRenderError(
                f"square {i} has kind {info.kind!r}; use one of {', '.join(KINDS[1:6])}"
                " for squares 1-63, 'start' for 0 and 'home' for 64"
            )
    seats: set[int] = set()
    for runner in runners:
        if not 0 <= runner.seat < len(SEAT_COLORS):
            raise BoardRenderError(
                f"runner {runner.name!r} has seat {runner.seat}; seats are 0 to 5 (A to F)"
            )
        if runner.seat in seats:
            raise BoardRenderError(f"two runners have seat {runner.seat}")
        seats.add(runner.seat)
        if not START <= runner.square <= HOME:
            raise BoardRenderError(
                f"runner {runner.name!r} is on square {runner.square}; squares are 0 to 64"
            )
    for move in moves:
        if not 0 <= move.seat < len(SEAT_COLORS):
            raise BoardRenderError(f"move in slot {move.slot} has seat {move.seat}; 0 to 5")
        for sq in (move.from_square, move.to_square):
            if not START <= sq <= HOME:
                raise BoardRenderError(
                    f"move in slot {move.slot} goes {move.from_square}->{move.to_square}; "
                    "squares are 0 to 64"
                )


def board_svg(
    squares: Sequence[SquareInfo],
    runners: Sequence[RunnerMark],
    *,
    moves: Sequence[MoveMark] = (),
    title: str = "",
    subtitle: str = "",
    size: int = 1200,
) -> str:
    """The board as an SVG document `size` pixels wide (7:12 high), byte-for-byte stable.

    `squares` are the 65 positions, START (0) to HOME (64); `runners` are drawn as tokens in
    their seat colour with the first two letters of their name, finishers listed at HOME in
    order of `place`; `moves` are drawn as arrows in the mover's colour numbered by slot
    (dashed when going backwards). Every player-given text is XML-escaped.
    """
    track = tuple(squares)
    _check(track, runners, moves)
    by_seat = sorted(runners, key=lambda r: r.seat)
    occupied = {r.square for r in by_seat if START < r.square < HOME}
    height = round(size * _VH / _VW)
    title_text = _esc(title)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" '
        f'height="{height}" viewBox="0 0 {_VW} {_VH}" font-family="{_FONT}">',
        f"<title>{title_text}</title>" if title else "",
        _track_svg(track),
        f'<text x="{_M + 10}" y="44" font-size="28" font-weight="bold" fill="{_INK}">'
        f"{_esc(_fit(title, _VW - 200, 28))}</text>"
        if title
        else "",
        f'<text x="{_M + 11}" y="67" font-size="15" fill="#7a6c55">'
        f"{_esc(_fit(subtitle, _VW - 200, 15))}</text>"
        if subtitle
        else "",
        _players_svg(by_seat),
        '<g class="runners">',
        _runners_svg(by_seat),
        "</g>",
        '<g class="moves">',
        *(_move_svg(m, occupied) for m in sorted(moves, key=lambda m: (m.slot, m.seat))),
        "</g>",
        "</svg>\n",
    ]
    return "".join(parts)


# --- PNG ------------------------------------------------------------------------------------

_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/Library/Fonts", "C:/Windows/Fonts")
_FONT_NAMES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


@functools.lru_cache(maxsize=1)
def _font_files() -> tuple[str, ...]:
    """DejaVu Sans and its bold, if installed: loading two files beats scanning every font."""
    found: dict[str, str] = {}
    for base in _FONT_DIRS:
        for dirpath, _dirs, files in sorted(os.walk(base)):
            for name in _FONT_NAMES:
                if name in files and name not in found:
                    found[name] = os.path.join(dirpath, name)
    if len(found) == len(_FONT_NAMES):
        return tuple(found[name] for name in _FONT_NAMES)
    return ()


@functools.lru_cache(maxsize=32)
def board_png(svg: str) -> bytes:
    """`svg` rasterised to PNG at its own width and height, with resvg.

    Cached on the SVG text: every player of a game gets the same picture of a turn.
    """
    import resvg_py  # imported here so that building SVG never needs the native library

    fonts = _font_files()
    if fonts:
        return resvg_py.svg_to_bytes(
            svg_string=svg, skip_system_fonts=True, font_files=list(fonts)
        )
    return resvg_py.svg_to_bytes(svg_string=svg)
