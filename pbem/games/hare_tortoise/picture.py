"""The Hare & Tortoise board as a picture: the serpentine track, runners and this turn's moves.

The track never changes and is drawn here once per board; what a turn adds (`marks.turn_marks`) is
plain data, written here as SVG and painted by `raster` into the mail's PNG."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from pbem.errors import PbemError
from pbem.games.hare_tortoise.layout import (
    CELL,
    HOME,
    HOME_BOX,
    KINDS_BOX,
    MUTED,
    PLAYERS_BOX,
    ROWS,
    SQ,
    START,
    START_BOX,
    TY,
    VH,
    VW,
    MoveMark,
    Point,
    RunnerMark,
    anchor,
    square_box,
    square_labels,
    square_origin,
)
from pbem.games.hare_tortoise.marks import Circle, Mark, Polygon, Shape, Text, TurnMarks, turn_marks
from pbem.render.png import LayeredPicture, svg_to_png
from pbem.render.svg import (
    FONT_FAMILY,
    INK,
    SEAT_COLORS,
    Paint,
    ellipse_path,
    escape,
    initials,
    label,
    num,
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

KINDS = ("start", "carrot", "hare", "lettuce", "tortoise", "number", "home")


class BoardRenderError(PbemError, ValueError):
    """Data that cannot be drawn: a track that is not 65 squares, a runner off the board."""


@dataclass(frozen=True)
class SquareInfo:
    """What one position of the track is; `numbers` holds a number square's positions."""

    kind: str
    numbers: tuple[int, ...] = ()




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


def _numbers_label(info: SquareInfo) -> str:
    return "\u00b7".join(str(n) for n in info.numbers)


def _paint_square(paint: Paint, square: int, info: SquareInfo) -> None:
    x, y = square_origin(square)
    fill, border, ink = _KIND_STYLE[info.kind]
    paint.framed(_L_SQUARE, (x, y, SQ, SQ), 11, fill, border, 2.5)
    for text in square_labels(square, info.numbers):
        paint.text(_L_LABEL, text.text, text.x, text.y, text.size, color=ink, bold=True, anchor=text.anchor)
    if info.kind != "number":
        paint.icon(_L_ICON, _ICONS[info.kind], x + 15, y + 19, 44)


def _path_point(square: int) -> Point:
    """Where the earth path meets a position: beside the first and last squares on START and HOME."""
    if square == START:
        x, _, w, _ = START_BOX
        return x + w - 30, TY + CELL / 2
    if square == HOME:
        return HOME_BOX[0] + 30, TY + (ROWS - 1) * CELL + CELL / 2
    return anchor(square)


def _paint_path(paint: Paint) -> str:
    """The earth path the squares sit on, from START to HOME, with arrows in its gaps."""
    points = [_path_point(sq) for sq in range(START, HOME + 1)]
    for sq in range(1, HOME - 1):
        (x0, y0), (x1, y1) = points[sq], points[sq + 1]
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        ux, uy = (x1 - x0) / CELL, (y1 - y0) / CELL
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
    x, y, _, _ = KINDS_BOX
    paint.framed(_L_PANEL, KINDS_BOX, 16, *_PANEL, 2.5)
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
            paint.text(_L_LABEL, " ".join(numbers), x + 68, top + 39, 12, color=MUTED)
        else:
            paint.icon(_L_ICON, _ICONS[kind], x + 17, top + 3, 38)
            paint.text(_L_LABEL, _KIND_WORD[kind], x + 68, top + 28, 15)


def _paint_start_home(paint: Paint) -> None:
    sx, sy, sw, _ = START_BOX
    hx, hy, hw, _ = HOME_BOX
    fill, border, _ink = _KIND_STYLE["start"]
    paint.framed(_L_PANEL, START_BOX, 16, fill, border, 2.5)
    paint.text(_L_LABEL, "START", sx + sw / 2, sy + 32, 21, bold=True, anchor="middle", spacing=2)
    fill, border, _ink = _KIND_STYLE["home"]
    paint.framed(_L_PANEL, HOME_BOX, 16, fill, border, 2.5)
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
    paint.framed(_L_PANEL, PLAYERS_BOX, 16, *_PANEL, 2.5)
    paint.icon(_L_ICON, _ICONS["tortoise"], VW - 118, 20, 46)
    paint.icon(_L_ICON, _ICONS["hare"], VW - 66, 16, 48)
    # One group per position says what it is and where; the paint above is shared between
    # squares, and an outline with no fill or stroke costs resvg nothing.
    index = "".join(
        f'<g class="square" data-square="{sq}" data-kind="{info.kind}"'
        + (f' data-numbers="{_numbers_label(info)}"' if info.numbers else "")
        + f"><title>{sq} {info.kind} {_numbers_label(info)}".rstrip()
        + "</title>"
        + '<rect x="{}" y="{}" width="{}" height="{}" fill="none"/></g>'.format(*square_box(sq))
        for sq, info in enumerate(squares)
    )
    return (
        f'<rect width="{VW}" height="{VH}" fill="{_PAPER}"/>'
        f'{path}<g class="board">{paint.svg()}</g><g class="squares">{index}</g>'
    )


# --- what changes every turn: the marks as SVG ------------------------------------------------


def _attrs(mark: Mark) -> str:
    return "".join(f' data-{key}="{escape(value)}"' for key, value in mark.data)


def shape_svg(shape: Shape) -> str:
    """One shape of the turn's marks as an SVG element."""
    if isinstance(shape, Circle):
        opacity = f' fill-opacity="{num(shape.opacity)}"' if shape.opacity < 1 else ""
        return f'<circle cx="{num(shape.cx)}" cy="{num(shape.cy)}" r="{num(shape.r)}" fill="{shape.fill}"{opacity}/>'
    if isinstance(shape, Text):
        return label(shape.text, shape.x, shape.y, shape.size, bold=shape.bold, anchor=shape.anchor,
                     fill=shape.color, role=shape.role)
    d = "M" + "L".join(f"{num(x)} {num(y)}" for x, y in shape.points)
    if isinstance(shape, Polygon):
        edge = (f' stroke="{shape.edge}" stroke-width="{num(shape.edge_width)}" stroke-linejoin="round"'
                if shape.edge else "")
        return f'<path d="{d}Z" fill="{shape.fill}"{edge}/>'
    opacity = f' stroke-opacity="{num(shape.opacity)}"' if shape.opacity < 1 else ""
    dash = f' stroke-dasharray="{num(shape.dash[0])} {num(shape.dash[1])}"' if shape.dash else ""
    return (f'<path d="{d}" fill="none" stroke="{shape.color}" stroke-width="{num(shape.width)}" '
            f'stroke-linecap="round" stroke-linejoin="round"{opacity}{dash}/>')


def mark_svg(mark: Mark) -> str:
    """A mark as an SVG group of class `kind`, its data as data- attributes."""
    title = f"<title>{escape(mark.title)}</title>" if mark.title is not None else ""
    inner = "".join(mark_svg(part) if isinstance(part, Mark) else shape_svg(part) for part in mark.parts)
    return f'<g class="{mark.kind}"{_attrs(mark)}>{title}{inner}</g>'

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
    background.

    `squares` are the 65 positions, START (0) to HOME (64). Each runner is a token in its
    seat's colour (`SEAT_COLORS`) bearing the first two letters of its name; runners at HOME
    are listed there in order of `place`. Each move is an arrow in the mover's colour from
    square to square along the gutters between them (`arrows`), numbered by slot and dashed
    when it goes back. Text that comes from players is XML-escaped; the same arguments always
    give the same bytes.
    """
    static = track_svg(tuple(squares))  # cached; checks the track even when it is not drawn
    marks = _turn(squares, runners, moves, title, subtitle, size)
    return "".join(
        [
            (
                f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{size}" '
                f'height="{round(size * VH / VW)}" viewBox="0 0 {VW} {VH}" '
                f'font-family="{FONT_FAMILY}">'
            ),
            f"<title>{escape(title)}</title>" if title else "",
            static if include_track else "",
            mark_svg(marks.heading),
            mark_svg(marks.players),
            '<g class="runners">',
            *(mark_svg(m) for m in marks.runners),
            '</g><g class="moves">',
            *(mark_svg(m) for m in marks.moves),
            '</g><g class="slots">',
            *(mark_svg(m) for m in marks.numbers),
            "</g></svg>\n",
        ]
    )


def _turn(squares: Sequence[SquareInfo], runners: Sequence[RunnerMark], moves: Sequence[MoveMark], title: str,
          subtitle: str, size: int) -> TurnMarks:
    """The turn's marks, once the runners and moves are known to be drawable."""
    _check_marks(runners, moves)
    if size < 100:
        raise BoardRenderError(f"a board {size} pixels wide is too small to read; use >= 100")
    return _marks(tuple(runners), tuple(moves), title, subtitle, tuple(info.numbers for info in squares))


@functools.lru_cache(maxsize=8)
def _marks(runners: tuple[RunnerMark, ...], moves: tuple[MoveMark, ...], title: str, subtitle: str,
           numbers: tuple[tuple[int, ...], ...]) -> TurnMarks:
    """A turn's marks, made once for its SVG and its mail PNG (routing its arrows takes a few ms)."""
    return turn_marks(runners, moves, title, subtitle, numbers)

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

    The track never changes, so it is rasterised once; each turn its marks are painted over it
    with Pillow (`raster`), or, for a script DejaVu Sans lacks, each sent through resvg on a
    transparent tile no larger than the area it draws in (`LayeredPicture.png_parts`); the result
    is a palette PNG of `MAIL_COLORS` colours, about three times smaller.
    """
    track = tuple(squares)
    track_svg(track)  # checks the track
    marks = _turn(track, runners, moves, title, subtitle, size)
    from pbem.games.hare_tortoise import raster  # Pillow, only when pictures are drawn

    if raster.available([title, subtitle, *(r.name for r in runners)]):
        return raster.board_png_raster(track, marks, size)
    # a script DejaVu Sans lacks, or no DejaVu Sans: every mark through resvg
    return _LAYERS.png_parts(
        (track, size),
        [(mark_svg(mark), mark.area()) for mark in marks.all() if mark.parts],
        width=size,
        view=(VW, VH),
        head=f'font-family="{FONT_FAMILY}"',
        colors=MAIL_COLORS,
        sample=MAIL_SAMPLE,
    )
