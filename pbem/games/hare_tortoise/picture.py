"""The Hare & Tortoise board as a picture: the serpentine track, runners and this turn's moves."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.errors import PbemError
from pbem.render.png import LayeredPicture, svg_to_png
from pbem.render.svg import (
    FONT_FAMILY,
    INK,
    SEAT_COLORS,
    Paint,
    ellipse_path,
    escape,
    fit_text,
    initials,
    ink_on,
    label,
    num,
    ordinal,
)

__all__ = [
    "SEAT_COLORS",
    "BoardRenderError",
    "MoveMark",
    "RunnerMark",
    "SquareInfo",
    "board_png",
    "board_png_layers",
    "board_svg",
    "initials",
    "track_svg",
]

START = 0
HOME = 64
KINDS = ("start", "carrot", "hare", "lettuce", "tortoise", "number", "home")


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
    #: the two characters on the token, when not the name's first two (two-player: "A1", "A2")
    badge: str | None = None


@dataclass(frozen=True)
class MoveMark:
    """A move made this turn, drawn as an arrow numbered by its slot."""

    seat: int
    from_square: int
    to_square: int
    slot: int


# --- geometry -------------------------------------------------------------------------------
# Everything is drawn in a fixed 1200 x 700 user space; `size` only sets the pixel width, so
# the static board does not depend on it.

_VW = 1200
_VH = 700
_M = 18  # outer margin
_HEAD = 78  # title band
_COLS = 9
_ROWS = 7
_CELL = 86
_SQ = 74  # square side; the rest of a cell is the gap, where the path shows
_GAP = 12  # between the track and the side panels
_SIDE = (_VW - 2 * _M - 2 * _GAP - _COLS * _CELL) // 2  # width of the side panels
_TX = _M + _SIDE + _GAP  # track origin
_TY = _HEAD
_RX = _TX + _COLS * _CELL + _GAP  # right panels
_TOKEN_R = 24
_FINISHER_R = 18
_TRACK_MID = (_TX + _COLS * _CELL / 2, _TY + _ROWS * _CELL / 2)

_Box = tuple[int, int, int, int]
_START_BOX: _Box = (_M, _TY + 4, _SIDE, 3 * _CELL - 8)
_KINDS_BOX: _Box = (_M, _TY + 3 * _CELL + 4, _SIDE, 4 * _CELL - 8)
_PLAYERS_BOX: _Box = (_RX, _TY + 4, _SIDE, 3 * _CELL - 8)
_HOME_BOX: _Box = (_RX, _TY + 3 * _CELL + 4, _SIDE, 4 * _CELL - 8)

_MUTED = "#7a6c55"
_PAPER = "#fbf6e9"
_PANEL = ("#ffffff", "#d8ccb0")

# fill, border, label ink for each kind of square
_KIND_STYLE: dict[str, tuple[str, str, str]] = {
    "start": ("#ffffff", "#8a7a5c", INK),
    "carrot": ("#fcd3a1", "#d9822b", "#8a4a0c"),
    "hare": ("#e6dcf5", "#8e7cc3", "#4f3f80"),
    "lettuce": ("#d3eebd", "#5e9e3a", "#2f5e17"),
    "tortoise": ("#c6e3e1", "#3f8c8c", "#1f5252"),
    "number": ("#fff1b0", "#c9a227", "#5a4a00"),
    "home": ("#ffe7a0", "#d4a017", INK),
}

_KIND_WORD = {
    "carrot": "Carrot",
    "hare": "Hare",
    "lettuce": "Lettuce",
    "tortoise": "Tortoise",
    "number": "Number",
}

# Icons in an `ICON_BOX` square, as layers of (fill, path).
_ICONS: dict[str, tuple[tuple[str, str], ...]] = {
    "carrot": (
        (
            "#3e8e2e",
            (
                "M28.5 12.5C26 7 27 3 31 1C31.5 5 31 9 30.5 12.5Z"
                "M30 13C32 8 35 6 39 6.5C37.5 9.5 34.5 12 31 14Z"
                "M31 15C35 13 38 14 39.5 17C36 18 33 17.5 31 16Z"
            ),
        ),
        (
            "#a8520c",
            "M4 37C9 28 18 16 23.5 11.2Q28 7.6 31.6 11.6Q35 16 29.6 20.6C24 25 14 31.5 4 37Z",
        ),
        (
            "#f08a24",
            (
                "M6.5 34.5C11 27.5 19 17 24.3 12.5Q27.7 9.8 30.3 12.7Q32.8 16 28.5 19.5"
                "C23.5 23.5 15 29.5 6.5 34.5Z"
            ),
        ),
        (
            "#b8600f",
            (
                "M16.5 20.2L20.8 23.3L19.9 24.3L15.6 21.2Z"
                "M11.8 26.4L15.4 28.6L14.6 29.6L11 27.4Z"
                "M21.8 15.2L24.2 18.5L23.2 19.2L20.8 15.9Z"
            ),
        ),
        ("#f8b46a", "M10 31C15 24 20 17.5 24.6 13.6L25.6 14.6C21 18.5 16 25 11 32Z"),
    ),
    "hare": (
        (
            "#6e5440",
            (
                "M13.2 21C7 14.5 7.2 2.5 11.8 0.6C16.8 -0.8 18 11 18 20Z"
                "M26.8 21C33 14.5 32.8 2.5 28.2 0.6C23.2 -0.8 22 11 22 20Z"
            ),
        ),
        (
            "#a88b6e",
            (
                "M13.8 19.5C9 14 9 3.5 12.2 2C15.8 1.2 16.6 11 16.8 19Z"
                "M26.2 19.5C31 14 31 3.5 27.8 2C24.2 1.2 23.4 11 23.2 19Z"
            ),
        ),
        (
            "#f2b8c6",
            (
                "M14.2 16.5C11.8 12 11.6 6 12.8 4.6C14.2 5 14.9 11 15.4 16.5Z"
                "M25.8 16.5C28.2 12 28.4 6 27.2 4.6C25.8 5 25.1 11 24.6 16.5Z"
            ),
        ),
        ("#6e5440", ellipse_path(20, 27.5, 12.6, 11)),
        ("#a88b6e", ellipse_path(20, 27.5, 11.3, 9.7)),
        ("#eadccb", ellipse_path(20, 31.6, 5.6, 4)),
        ("#2a1d12", ellipse_path(15.2, 25.4, 1.9, 1.9) + ellipse_path(24.8, 25.4, 1.9, 1.9)),
        ("#e07a93", ellipse_path(20, 30, 2.3, 1.6)),
    ),
    "lettuce": (
        ("#2f6a17", ellipse_path(20, 21, 15.5, 15.5)),
        ("#5fae34", ellipse_path(20, 21, 14, 14)),
        ("#8fd05e", "M7.5 24Q20 6 32.5 24Q20 17 7.5 24Z"),
        ("#b5e38a", "M11 30Q20 14 29 30Q20 24.5 11 30Z"),
        ("#e8f7d4", "M19.3 13.5L20.7 13.5L20.7 34.5L19.3 34.5Z"),
    ),
    "tortoise": (
        (
            "#3f5e25",
            ellipse_path(34, 22, 5.3, 5.3) + "M7.5 24L13.5 24L13.5 33L7.5 33Z"
            "M21.5 24L27.5 24L27.5 33L21.5 33Z",
        ),
        (
            "#9bc36b",
            ellipse_path(34, 22, 4.1, 4.1) + "M8.7 25L12.3 25L12.3 31.8L8.7 31.8Z"
            "M22.7 25L26.3 25L26.3 31.8L22.7 31.8Z",
        ),
        ("#1d2a12", ellipse_path(35.6, 21, 1, 1)),
        ("#1f4732", "M2 29Q3 10 18 9Q32 9.5 33 29Z"),
        ("#3f7f5a", "M4 27Q5.2 11.5 18 10.8Q30.6 11.2 31 27Z"),
        (
            "#6aa583",
            (
                "M12.4 26L14 18.4L21.6 18.4L23.2 26Z M15 17L17.6 12.4L20.6 12.4L21.4 17Z"
                "M6 26L9 19L12.6 18.6L11.2 26Z M24.6 26L23.6 18.6L27.2 19.2L29.6 26Z"
            ),
        ),
    ),
    "flag": (
        ("#5b4a2e", "M6.8 3.5L9.2 3.5L9.2 38L6.8 38Z"),
        ("#222222", "M9 4.5L34 4.5L34 21.5L9 21.5Z"),
        ("#ffffff", "M10 5.5L33 5.5L33 20.5L10 20.5Z"),
        (
            "#222222",
            (
                "M10 5.5L15.75 5.5L15.75 9.25L10 9.25Z M21.5 5.5L27.25 5.5L27.25 9.25L21.5 9.25Z"
                "M15.75 9.25L21.5 9.25L21.5 13L15.75 13Z M27.25 9.25L33 9.25L33 13L27.25 13Z"
                "M10 13L15.75 13L15.75 16.75L10 16.75Z M21.5 13L27.25 13L27.25 16.75L21.5 16.75Z"
                "M15.75 16.75L21.5 16.75L21.5 20.5L15.75 20.5Z M27.25 16.75L33 16.75L33 20.5"
                "L27.25 20.5Z"
            ),
        ),
    ),
}



# paint layers of the static board
_L_PANEL, _L_SQUARE, _L_LABEL, _L_ICON = 0, 10, 20, 30


# --- the static board -----------------------------------------------------------------------


def _square_origin(square: int) -> tuple[int, int]:
    """Top-left corner of track square 1..63: a serpentine of 9-square rows."""
    row, col = divmod(square - 1, _COLS)
    if row % 2:
        col = _COLS - 1 - col
    return _TX + col * _CELL + (_CELL - _SQ) // 2, _TY + row * _CELL + (_CELL - _SQ) // 2


def _square_box(square: int) -> _Box:
    if square == START:
        return _START_BOX
    if square == HOME:
        return _HOME_BOX
    return (*_square_origin(square), _SQ, _SQ)


def _anchor(square: int) -> tuple[float, float]:
    """Where arrows and the path meet a position."""
    if square == START:
        x, _, w, _ = _START_BOX
        return x + w - 30, _TY + _CELL / 2
    if square == HOME:
        x, _, _, _ = _HOME_BOX
        return x + 30, _TY + (_ROWS - 1) * _CELL + _CELL / 2
    ox, oy = _square_origin(square)
    return ox + _SQ / 2, oy + _SQ / 2


def _numbers_label(info: SquareInfo) -> str:
    return "\u00b7".join(str(n) for n in info.numbers)


def _paint_square(paint: Paint, square: int, info: SquareInfo) -> None:
    x, y = _square_origin(square)
    fill, border, ink = _KIND_STYLE[info.kind]
    paint.framed(_L_SQUARE, (x, y, _SQ, _SQ), 11, fill, border, 2.5)
    paint.text(_L_LABEL, str(square), x + 7, y + 17, 14, color=ink, bold=True)
    if info.kind == "number":
        label = _numbers_label(info)
        size = 34 if len(label) == 1 else 27 if len(label) <= 3 else 21
        paint.text(
            _L_LABEL,
            label,
            x + _SQ / 2,
            y + 44 + size * 0.36,
            size,
            color=ink,
            bold=True,
            anchor="middle",
        )
    else:
        paint.icon(_L_ICON, _ICONS[info.kind], x + 15, y + 19, 44)


def _paint_path(paint: Paint) -> str:
    """The earth path the squares sit on, from START to HOME, with arrows in its gaps."""
    points = [_anchor(sq) for sq in range(START, HOME + 1)]
    for sq in range(1, HOME - 1):
        (x0, y0), (x1, y1) = points[sq], points[sq + 1]
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        ux, uy = (x1 - x0) / _CELL, (y1 - y0) / _CELL
        paint.fill(
            _L_PANEL,
            "#b89a63",
            f"M{num(mx + ux * 4)} {num(my + uy * 4)}L{num(mx - ux * 3 - uy * 5)} "
            f"{num(my - uy * 3 + ux * 5)}L{num(mx - ux * 3 + uy * 5)} {num(my - uy * 3 - ux * 5)}Z",
        )
    d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in points)
    return (
        f'<path d="{d}" fill="none" stroke="#e8d3a6" stroke-width="46" '
        'stroke-linejoin="round" stroke-linecap="round"/>'
    )


def _paint_legend(paint: Paint, squares: tuple[SquareInfo, ...]) -> None:
    x, y, _, _ = _KINDS_BOX
    paint.framed(_L_PANEL, _KINDS_BOX, 16, *_PANEL, 2.5)
    paint.text(_L_LABEL, "Squares", x + 14, y + 28, 16, bold=True)
    numbers = sorted(
        {_numbers_label(sq) for sq in squares if sq.kind == "number"},
        key=lambda s: (len(s), s),
    )
    for i, kind in enumerate(("carrot", "hare", "lettuce", "tortoise", "number")):
        fill, border, ink = _KIND_STYLE[kind]
        top = y + 44 + i * 56
        paint.framed(_L_SQUARE, (x + 14, top, 44, 44), 8, fill, border, 2)
        if kind == "number":
            paint.text(_L_LABEL, "#", x + 36, top + 30, 20, color=ink, bold=True, anchor="middle")
            paint.text(_L_LABEL, _KIND_WORD[kind], x + 68, top + 20, 15)
            paint.text(_L_LABEL, " ".join(numbers), x + 68, top + 39, 12, color=_MUTED)
        else:
            paint.icon(_L_ICON, _ICONS[kind], x + 17, top + 3, 38)
            paint.text(_L_LABEL, _KIND_WORD[kind], x + 68, top + 28, 15)


def _paint_start_home(paint: Paint) -> None:
    sx, sy, sw, _ = _START_BOX
    hx, hy, hw, _ = _HOME_BOX
    fill, border, _ink = _KIND_STYLE["start"]
    paint.framed(_L_PANEL, _START_BOX, 16, fill, border, 2.5)
    paint.text(_L_LABEL, "START", sx + sw / 2, sy + 32, 21, bold=True, anchor="middle", spacing=2)
    fill, border, _ink = _KIND_STYLE["home"]
    paint.framed(_L_PANEL, _HOME_BOX, 16, fill, border, 2.5)
    paint.icon(_L_ICON, _ICONS["flag"], hx + 22, hy + 6, 36)
    paint.text(
        _L_LABEL, "HOME", hx + hw / 2 + 16, hy + 33, 21, bold=True, anchor="middle", spacing=2
    )


def _check_squares(squares: tuple[SquareInfo, ...]) -> None:
    if len(squares) != HOME + 1:
        raise BoardRenderError(
            f"a track has {HOME + 1} positions (START, squares 1-63, HOME), not {len(squares)}"
        )
    for i, info in enumerate(squares):
        expected = "start" if i == START else "home" if i == HOME else None
        if expected is not None and info.kind != expected:
            raise BoardRenderError(f"position {i} must be {expected!r}, not {info.kind!r}")
        if expected is None and info.kind not in KINDS[1:6]:
            raise BoardRenderError(
                f"square {i} has kind {info.kind!r}; use one of {', '.join(KINDS[1:6])}"
            )
        if info.kind == "number" and not info.numbers:
            raise BoardRenderError(f"number square {i} needs its numbers, e.g. (2,) or (1, 5, 6)")


@functools.lru_cache(maxsize=8)
def track_svg(squares: tuple[SquareInfo, ...]) -> str:
    """The SVG fragment of all that never changes during a game, built once per track.

    That is the paper, the path, the squares, the legend and the empty panels; `board_svg`
    puts it under each turn's runners and moves. Raises `BoardRenderError` for a bad track.
    """
    _check_squares(squares)
    paint = Paint()
    path = _paint_path(paint)
    _paint_start_home(paint)
    for sq in range(START + 1, HOME):
        _paint_square(paint, sq, squares[sq])
    _paint_legend(paint, squares)
    paint.framed(_L_PANEL, _PLAYERS_BOX, 16, *_PANEL, 2.5)
    paint.icon(_L_ICON, _ICONS["tortoise"], _VW - 118, 20, 46)
    paint.icon(_L_ICON, _ICONS["hare"], _VW - 66, 16, 48)
    # One group per position says what it is and where; the paint above is shared between
    # squares, and an outline with no fill or stroke costs resvg nothing.
    index = "".join(
        f'<g class="square" data-square="{sq}" data-kind="{info.kind}"'
        + (f' data-numbers="{_numbers_label(info)}"' if info.numbers else "")
        + f"><title>{sq} {info.kind} {_numbers_label(info)}".rstrip()
        + "</title>"
        + '<rect x="{}" y="{}" width="{}" height="{}" fill="none"/></g>'.format(*_square_box(sq))
        for sq, info in enumerate(squares)
    )
    return (
        f'<rect width="{_VW}" height="{_VH}" fill="{_PAPER}"/>'
        f'{path}<g class="board">{paint.svg()}</g><g class="squares">{index}</g>'
    )


# --- what changes every turn ----------------------------------------------------------------


def _token(runner: RunnerMark, cx: float, cy: float, r: float, font: float) -> str:
    color = SEAT_COLORS[runner.seat]
    ring = max(1.0, r / 16)
    text = runner.badge or initials(runner.name) or chr(ord("A") + runner.seat)
    return (
        f'<circle cx="{num(cx + 1.5)}" cy="{num(cy + 2.5)}" r="{num(r)}" fill="#000000" '
        'fill-opacity="0.22"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r + ring)}" fill="#ffffff"/>'
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r - ring)}" fill="{color}"/>'
        + label(
            text,
            cx,
            cy + font * 0.36,
            font,
            bold=True,
            anchor="middle",
            fill=ink_on(color),
            role="initials",
        )
    )


def _runner_svg(runner: RunnerMark, cx: float, cy: float, r: float, font: float) -> str:
    return (
        f'<g class="runner" data-seat="{runner.seat}" data-square="{runner.square}" '
        f'data-color="{SEAT_COLORS[runner.seat]}"><title>{escape(runner.name)}</title>'
        f"{_token(runner, cx, cy, r, font)}</g>"
    )


def _finish_order(runner: RunnerMark) -> tuple[int, int]:
    return (runner.place if runner.place is not None else 1_000, runner.seat)


def _finisher_spot(index: int) -> tuple[float, float]:
    """Centre of the token of the `index`-th runner listed at HOME."""
    hx, hy, _, h = _HOME_BOX
    step = min(46.0, (h - 80) / max(index + 1, 6))
    return hx + 32, hy + 75 + index * step


def _start_spot(index: int) -> tuple[float, float]:
    """Centre of the token of the `index`-th runner (by seat) standing on START."""
    sx, sy, _, _ = _START_BOX
    row, col = divmod(index, 3)
    return sx + 33 + col * 58, sy + 82 + row * 64


def _token_box(cx: float, cy: float, r: float) -> _Area:
    """Where a token (`_token`) draws: its ring, and its shadow below and to the right."""
    return (cx - r - 3, cy - r - 3, cx + r + 5, cy + r + 6)


def _token_spots(runners: Sequence[RunnerMark], finishers: Sequence[RunnerMark]) -> list[tuple[RunnerMark, float, float, bool]]:
    """Where each runner's token stands, in drawing order: (runner, x, y, finished)."""
    spots: list[tuple[RunnerMark, float, float, bool]] = []
    for i, runner in enumerate(r for r in runners if r.square == START):
        spots.append((runner, *_start_spot(i), False))
    seen: dict[int, int] = {}
    for runner in runners:
        if START < runner.square < HOME:
            # Only one runner may stand on a square; if the data says otherwise, show both.
            nth = seen.get(runner.square, 0)
            seen[runner.square] = nth + 1
            cx, cy = _anchor(runner.square)
            spots.append((runner, cx + 8 * nth, cy + 4 + 8 * nth, False))
    for i, runner in enumerate(finishers):
        spots.append((runner, *_finisher_spot(i), True))
    return spots


def _finisher_area(ty: float) -> _Area:
    hx, _, hw, _ = _HOME_BOX
    return (hx, ty - _FINISHER_R - 4, hx + hw, ty + _FINISHER_R + 7)


def _runners_svg(runners: Sequence[RunnerMark], finishers: Sequence[RunnerMark]) -> list[_Piece]:
    parts: list[_Piece] = []
    hx, _, hw, _ = _HOME_BOX
    for runner, tx, ty, finished in _token_spots(runners, finishers):
        if not finished:
            parts.append((_runner_svg(runner, tx, ty, _TOKEN_R, 17), _token_box(tx, ty, _TOKEN_R)))
            continue
        place = ordinal(runner.place) if runner.place is not None else "\u2013"
        parts.append((
            f'<g class="finisher" data-place="{runner.place if runner.place else ""}" '
            f'data-seat="{runner.seat}">'
            f"{_runner_svg(runner, tx, ty, _FINISHER_R, 13)}"
            f"{label(place, hx + 58, ty + 6, 16, bold=True)}"
            f"{label(fit_text(runner.name, hw - 106, 14), hx + 98, ty + 5, 14, role='name')}</g>",
            _finisher_area(ty),
        ))
    return parts


def _player_rows(runners: Sequence[RunnerMark]) -> list[tuple[RunnerMark, float, str]]:
    """The players' panel, a row a runner: (runner, the row's middle, where it stands)."""
    _, y, _, h = _PLAYERS_BOX
    step = min(36.0, (h - 50) / max(len(runners), 1))
    rows = []
    for i, runner in enumerate(runners):
        if runner.place is not None:
            status = ordinal(runner.place)
        elif runner.square == START:
            status = "start"
        elif runner.square == HOME:
            status = "home"
        else:
            status = f"sq {runner.square}"
        rows.append((runner, y + 56 + i * step, status))
    return rows


def _players_svg(runners: Sequence[RunnerMark]) -> str:
    x, y, w, _ = _PLAYERS_BOX
    parts = ['<g class="players">', label("Runners", x + 14, y + 26, 16, bold=True)]
    for runner, cy, status in _player_rows(runners):
        parts.append(
            f'<g class="player" data-seat="{runner.seat}">'
            f"{_token(runner, x + 28, cy, 14, 11)}"
            f"{label(fit_text(runner.name, w - 114, 14), x + 50, cy + 5, 14, role='name')}"
            f"{label(status, x + w - 12, cy + 5, 13, anchor='end', fill=_MUTED)}</g>"
        )
    parts.append("</g>")
    return "".join(parts)


_Spots = dict[tuple[int, int], tuple[float, float, float]]
# A part of the per-turn layer, and the area (x0, y0, x1, y1) it draws within.
_Area = tuple[float, float, float, float]
_Piece = tuple[str, _Area]


def _around(points: Sequence[tuple[float, float]], margin: float) -> _Area:
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


@dataclass(frozen=True)
class _MoveShape:
    """A move's arrow: its curve (a quadratic or, for a loop, a cubic Bézier: start, control
    points, end), its head (tip, then the two back corners), its slot's disc, dashed when it
    goes back, and the area it draws within."""

    move: MoveMark
    curve: tuple[tuple[float, float], ...]
    head: tuple[tuple[float, float], tuple[float, float], tuple[float, float]]
    badge: tuple[float, float]
    dashed: bool
    area: _Area


def _move_shape(move: MoveMark, occupied: set[int], spots: _Spots) -> _MoveShape:
    """Where a move's arrow goes: its curve, its head, the disc with its slot, its area."""
    x0, y0 = _anchor(move.from_square)
    if move.from_square == START:
        # Each seat leaves START from its own point, so that turn 1's arrows fan out.
        sx, _, sw, _ = _START_BOX
        x0, y0 = sx + sw - 14, _TY + _CELL / 2 + (move.seat - 2.5) * 12
    x1, y1 = _anchor(move.to_square)
    trim: float = _TOKEN_R + 5 if move.to_square in occupied else 6
    spot = spots.get((move.seat, move.to_square))
    if spot is not None:
        # On START or HOME: point at the runner's own token there.
        x1, y1, radius = spot
        trim = radius + 5
        if move.from_square == move.to_square:
            x0, y0 = x1, y1
    if move.from_square == move.to_square:
        # Staying put: a loop over the square, or under it where the title band is above.
        up = 1 if move.from_square > _COLS else -1
        curve: tuple[tuple[float, float], ...] = (
            (x0 - 12, y0 - 30 * up), (x0 - 34, y0 - 78 * up), (x0 + 34, y0 - 78 * up), (x0 + 13, y0 - 38 * up)
        )
        tip = (x0 + 10, y0 - 28 * up)
        ux, uy = -0.35, 0.94 * up
        bx, by = x0, y0 - 64 * up
        # the curve stays within its control points
        hull = [(x0 - 12, y0 - 30 * up), (x0 - 34, y0 - 78 * up), (x0 + 34, y0 - 78 * up), (x0 + 13, y0 - 38 * up)]
    else:
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = (y0 - y1) / length, (x1 - x0) / length
        # Bend towards the middle of the track, so arrows near the edge stay on the picture.
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        if nx * (_TRACK_MID[0] - mx) + ny * (_TRACK_MID[1] - my) < 0:
            nx, ny = -nx, -ny
        bulge = min(max(length * 0.2, 26.0), 90.0) + 5 * (move.slot % 3)
        cx, cy = mx + nx * bulge * 2, my + ny * bulge * 2
        elen = math.hypot(x1 - cx, y1 - cy)
        ux, uy = (x1 - cx) / elen, (y1 - cy) / elen
        tip = (x1 - ux * trim, y1 - uy * trim)
        slen = math.hypot(x0 - cx, y0 - cy)
        start = (x0 - (x0 - cx) / slen * 10, y0 - (y0 - cy) / slen * 10)
        end = (tip[0] - ux * 10, tip[1] - uy * 10)
        curve = (start, (cx, cy), end)
        bx = 0.25 * start[0] + 0.5 * cx + 0.25 * end[0]
        by = 0.25 * start[1] + 0.5 * cy + 0.25 * end[1]
        hull = [start, (cx, cy), end]
    hx, hy = tip[0] - ux * 15, tip[1] - uy * 15
    wx, wy = -uy * 8, ux * 8
    # strokes up to 9 wide with round caps, the arrowhead's outline, the slot's disc of 12
    area = _around([*hull, tip, (hx + wx, hy + wy), (hx - wx, hy - wy), (bx - 12, by - 12), (bx + 12, by + 12)], 8)
    head = (tip, (hx + wx, hy + wy), (hx - wx, hy - wy))
    return _MoveShape(move, curve, head, (bx, by), move.to_square < move.from_square, area)


def _curve_d(curve: Sequence[tuple[float, float]]) -> str:
    (x0, y0), *rest = curve
    kind = "C" if len(rest) == 3 else "Q"
    return f"M{num(x0)} {num(y0)}{kind}" + " ".join(f"{num(x)} {num(y)}" for x, y in rest)


def _move_svg(move: MoveMark, occupied: set[int], spots: _Spots) -> _Piece:
    """An arrow in the mover's colour, dashed when going back, with its slot in a disc."""
    shape = _move_shape(move, occupied, spots)
    color = SEAT_COLORS[move.seat]
    d = _curve_d(shape.curve)
    dash = ' stroke-dasharray="9 6"' if shape.dashed else ""
    tip, left, right = shape.head
    bx, by = shape.badge
    return (
        f'<g class="move" data-seat="{move.seat}" data-slot="{move.slot}" '
        f'data-from="{move.from_square}" data-to="{move.to_square}">'
        f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="9" '
        'stroke-linecap="round" stroke-opacity="0.85"/>'
        f'<path d="{d}" fill="none" stroke="{color}" stroke-width="4.5" '
        f'stroke-linecap="round"{dash}/>'
        f'<path d="M{num(tip[0])} {num(tip[1])}L{num(left[0])} {num(left[1])}'
        f'L{num(right[0])} {num(right[1])}Z" fill="{color}" stroke="#ffffff" '
        'stroke-width="1.5" stroke-linejoin="round"/>'
        f'<circle cx="{num(bx)}" cy="{num(by)}" r="12" fill="#ffffff"/>'
        f'<circle cx="{num(bx)}" cy="{num(by)}" r="10" fill="{color}"/>'
        + label(str(move.slot), bx, by + 4.5, 13, bold=True, anchor="middle", fill=ink_on(color))
        + "</g>",
        shape.area,
    )


def _check_marks(runners: Sequence[RunnerMark], moves: Sequence[MoveMark]) -> None:
    seats: set[tuple[int, str | None]] = set()
    for runner in runners:
        if not 0 <= runner.seat < len(SEAT_COLORS):
            raise BoardRenderError(
                f"runner {runner.name!r} has seat {runner.seat}; seats are 0 to 5 (A to F)"
            )
        # two runners of one seat (two-player) are told apart by their badges
        if (runner.seat, runner.badge) in seats:
            raise BoardRenderError(f"two runners have seat {runner.seat}; give each its own")
        seats.add((runner.seat, runner.badge))
        if not START <= runner.square <= HOME:
            raise BoardRenderError(
                f"runner {runner.name!r} is on square {runner.square}; squares are 0 to 64"
            )
    for move in moves:
        if not 0 <= move.seat < len(SEAT_COLORS):
            raise BoardRenderError(
                f"the move in slot {move.slot} has seat {move.seat}; seats are 0 to 5 (A to F)"
            )
        if not (START <= move.from_square <= HOME and START <= move.to_square <= HOME):
            raise BoardRenderError(
                f"the move in slot {move.slot} goes from {move.from_square} to "
                f"{move.to_square}; squares are 0 to 64"
            )


def board_svg(
    squares: Sequence[SquareInfo],
    runners: Sequence[RunnerMark],
    *,
    moves: Sequence[MoveMark] = (),
    title: str = "",
    subtitle: str = "",
    size: int = 1000,
    include_track: bool = True,
) -> str:
    """The board as an SVG document `size` pixels wide and 7/12 of that high.

    With `include_track=False` only what changes from turn to turn is drawn, on a transparent
    background: `board_png_layers` lays that over a cached picture of the track.

    `squares` are the 65 positions, START (0) to HOME (64). Each runner is a token in its
    seat's colour (`SEAT_COLORS`) bearing the first two letters of its name; runners at HOME
    are listed there in order of `place`. Each move is an arrow in the mover's colour from
    square to square, numbered by slot and dashed when it goes back. Text that comes from
    players is XML-escaped; the same arguments always give the same bytes.
    """
    static = track_svg(tuple(squares))  # cached; checks the track even when it is not drawn
    heading, players, runner_parts, move_parts = _turn_layer(runners, moves, title, size, subtitle)
    return "".join(
        [
            (
                f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" '
                f'height="{round(size * _VH / _VW)}" viewBox="0 0 {_VW} {_VH}" '
                f'font-family="{FONT_FAMILY}">'
            ),
            f"<title>{escape(title)}</title>" if title else "",
            static if include_track else "",
            heading[0],
            players[0],
            '<g class="runners">',
            *(svg for svg, _ in runner_parts),
            '</g><g class="moves">',
            *(svg for svg, _ in move_parts),
            "</g></svg>\n",
        ]
    )


def _turn_layer(
    runners: Sequence[RunnerMark], moves: Sequence[MoveMark], title: str, size: int, subtitle: str = ""
) -> tuple[_Piece, _Piece, list[_Piece], list[_Piece]]:
    """What changes from turn to turn, in drawing order, each part with the area it draws in:
    the heading, the players' panel, the runners and the moves."""
    _check_marks(runners, moves)
    if size < 100:
        raise BoardRenderError(f"a board {size} pixels wide is too small to read; use >= 100")
    by_seat = sorted(runners, key=lambda r: r.seat)
    finishers = sorted((r for r in by_seat if r.square == HOME), key=_finish_order)
    occupied = {r.square for r in by_seat if START < r.square < HOME}
    spots: _Spots = {}
    for i, r in enumerate(r for r in by_seat if r.square == START):
        spots[r.seat, START] = (*_start_spot(i), _TOKEN_R)
    for i, r in enumerate(finishers):
        spots[r.seat, HOME] = (*_finisher_spot(i), _FINISHER_R)
    heading = ""
    if title:
        heading += label(fit_text(title, _VW - 200, 28), _M + 10, 44, 28, bold=True, role="title")
    if subtitle:
        heading += label(
            fit_text(subtitle, _VW - 200, 15), _M + 11, 67, 15, fill=_MUTED, role="subtitle"
        )
    x, y, w, h = _PLAYERS_BOX
    return (
        (heading, (0, 0, _VW, _HEAD)),
        (_players_svg(by_seat), (x - 2, y - 2, x + w + 2, y + h + 2)),
        _runners_svg(by_seat, finishers),
        [_move_svg(m, occupied, spots) for m in sorted(moves, key=lambda m: (m.slot, m.seat))],
    )


# --- PNG ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=32)
def board_png(svg: str) -> bytes:
    """`svg` rasterised to PNG at its own width and height, with resvg.

    Cached on the SVG text, as every player of a game gets the same picture of a turn.
    """
    return svg_to_png(svg)


def _track_layer(key: tuple[tuple[SquareInfo, ...], int]) -> str:
    squares, size = key
    return board_svg(squares, [], size=size)


# The track alone, rasterised once per board and size.
_LAYERS = LayeredPicture(_track_layer, keep=4)

#: the width of the picture in a mail, 0.64 of the drawing: every label still reads at it, and its
#: palette PNG keeps a report mail under 60 kB (at 1000 pixels the picture alone took 80 kB)
MAIL_WIDTH = 768
#: colours of the mail picture's palette: the flat fills, the six seat colours and the edges
#: between them; 128 made the PNG a fifth larger for no difference one can see. Chosen from every
#: other pixel each way (`MAIL_SAMPLE`, see `palette_png`), 56 keep the picture closer to its
#: drawing than 64 chosen from every pixel did, in a PNG of the same size, in half the time
MAIL_COLORS = 56
MAIL_SAMPLE = 2


def board_png_layers(
    squares: Sequence[SquareInfo],
    runners: Sequence[RunnerMark],
    *,
    moves: Sequence[MoveMark] = (),
    title: str = "",
    subtitle: str = "",
    size: int = MAIL_WIDTH,
) -> bytes:
    """The same picture as ``board_png(board_svg(..., size=size))``, made fast and small for a
    wave of reports.

    The track never changes, so it is rasterised once; each turn only its runners, moves and
    titles go through resvg, each part on a transparent tile no larger than the area it draws
    in, laid over the track (`LayeredPicture.png_parts`), and the result is a palette PNG of
    `MAIL_COLORS` colours, about three times smaller.
    """
    track = tuple(squares)
    track_svg(track)  # checks the track
    _check_marks(runners, moves)
    if size < 100:
        raise BoardRenderError(f"a board {size} pixels wide is too small to read; use >= 100")
    from pbem.games.hare_tortoise import raster  # Pillow, only when pictures are drawn

    if raster.available([title, subtitle, *(r.name for r in runners)]):
        return raster.board_png_raster(track, runners, moves, title, subtitle, size)
    # a script DejaVu Sans lacks, or no DejaVu Sans: every part through resvg
    heading, players, runner_parts, move_parts = _turn_layer(runners, moves, title, size, subtitle)
    return _LAYERS.png_parts(
        (track, size),
        [heading, players, *runner_parts, *move_parts],
        width=size,
        view=(_VW, _VH),
        head=f'font-family="{FONT_FAMILY}"',
        colors=MAIL_COLORS,
        sample=MAIL_SAMPLE,
    )
