"""What a turn puts on the Hare & Tortoise board, as plain data: the heading, the players' panel, the
runners' tokens, the moves' arrows and their numbers, each a group of circles, lines, polygons and
texts with their coordinates and colours.

The one description both pictures are drawn from: `picture` writes it as SVG, `raster` paints it
with Pillow for the mail's PNG. Neither decides where or how anything is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pbem.games.hare_tortoise.arrows import BADGE_R, route_moves
from pbem.games.hare_tortoise.layout import (
    FINISHER_R,
    HOME,
    HOME_BOX,
    MARGIN,
    MUTED,
    PLAYERS_BOX,
    TOKEN_R,
    VW,
    Area,
    MoveMark,
    Point,
    RunnerMark,
    player_rows,
    square_labels,
    token_box,
    token_spots,
)
from pbem.render.svg import INK, SEAT_COLORS, fit_text, initials, legible_ink, ordinal, text_width

__all__ = ["Circle", "Line", "Mark", "Polygon", "Shape", "Text", "TurnMarks", "label_boxes", "reach", "turn_marks"]


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    opacity: float = 1.0


@dataclass(frozen=True)
class Line:
    """A polyline stroked with round caps and joins; `dash` (on, off) dashes it."""

    points: tuple[Point, ...]
    width: float
    color: str
    opacity: float = 1.0
    dash: tuple[float, float] | None = None


@dataclass(frozen=True)
class Polygon:
    """A filled polygon, its edge stroked when `edge` is a colour."""

    points: tuple[Point, ...]
    fill: str
    edge: str | None = None
    edge_width: float = 0.0


@dataclass(frozen=True)
class Text:
    """One line of text: `y` is the baseline; `role` says what it is (the SVG element's class)."""

    text: str
    x: float
    y: float
    size: float
    color: str = INK
    bold: bool = False
    anchor: str = "start"
    role: str = "label"

    def area(self) -> Area:
        """Room enough for the text (glyphs reach below the baseline and above the cap height)."""
        width = text_width(self.text, self.size) * 1.1 + self.size
        x0 = self.x - (width if self.anchor == "end" else width / 2 if self.anchor == "middle" else self.size * 0.3)
        return (x0, self.y - self.size * 1.2, x0 + width + self.size * 0.3, self.y + self.size * 0.45)


Shape = Circle | Line | Polygon | Text


@dataclass(frozen=True)
class Mark:
    """A group of shapes and marks: what it is (`kind`, with `data` about it and a `title` for a
    reader of the SVG), in drawing order."""

    kind: str
    parts: tuple[Shape | Mark, ...]
    data: tuple[tuple[str, str], ...] = ()
    title: str | None = None

    def shapes(self) -> Iterator[Shape]:
        for part in self.parts:
            if isinstance(part, Mark):
                yield from part.shapes()
            else:
                yield part

    def area(self) -> Area:
        """Where the mark can paint: every shape's reach, strokes and edges included."""
        boxes = [reach(shape) for shape in self.shapes()]
        return (min(b[0] for b in boxes) - 1, min(b[1] for b in boxes) - 1,
                max(b[2] for b in boxes) + 1, max(b[3] for b in boxes) + 1)


def reach(shape: Shape) -> Area:
    if isinstance(shape, Circle):
        return (shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r)
    if isinstance(shape, Text):
        return shape.area()
    pad = shape.width / 2 if isinstance(shape, Line) else shape.edge_width / 2
    xs, ys = [x for x, _ in shape.points], [y for _, y in shape.points]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


@dataclass(frozen=True)
class TurnMarks:
    """A turn's marks in drawing order: arrows under their numbers, every number on top."""

    heading: Mark
    players: Mark
    runners: tuple[Mark, ...]
    moves: tuple[Mark, ...]
    numbers: tuple[Mark, ...]

    def all(self) -> tuple[Mark, ...]:
        return (self.heading, self.players, *self.runners, *self.moves, *self.numbers)


def token(runner: RunnerMark, cx: float, cy: float, r: float, font: float) -> tuple[Shape, ...]:
    """A shadow, a white ring, the seat's colour and the runner's two characters."""
    color = SEAT_COLORS[runner.seat]
    ring = max(1.0, r / 16)
    text = runner.badge or initials(runner.name) or chr(ord("A") + runner.seat)
    return (
        Circle(cx + 1.5, cy + 2.5, r, "#000000", 0.22),
        Circle(cx, cy, r + ring, "#ffffff"),
        Circle(cx, cy, r - ring, color),
        Text(text, cx, cy + font * 0.36, font, legible_ink(color), bold=True, anchor="middle", role="initials"),
    )


def _runner(runner: RunnerMark, cx: float, cy: float, r: float, font: float) -> Mark:
    return Mark("runner", token(runner, cx, cy, r, font),
                (("seat", str(runner.seat)), ("square", str(runner.square)), ("color", SEAT_COLORS[runner.seat])),
                runner.name)


def _runners(runners: Sequence[RunnerMark]) -> tuple[Mark, ...]:
    hx, _, hw, _ = HOME_BOX
    marks = []
    for spot in token_spots(runners):
        runner = spot.runner
        if not spot.finished:
            marks.append(_runner(runner, spot.x, spot.y, TOKEN_R, 17))
            continue
        place = ordinal(runner.place) if runner.place is not None else "\u2013"
        marks.append(Mark("finisher", (
            _runner(runner, spot.x, spot.y, FINISHER_R, 13),
            Text(place, hx + 58, spot.y + 6, 16, bold=True),
            Text(fit_text(runner.name, hw - 106, 14), hx + 98, spot.y + 5, 14, role="name"),
        ), (("place", str(runner.place) if runner.place else ""), ("seat", str(runner.seat)))))
    return tuple(marks)


def _players(runners: Sequence[RunnerMark]) -> Mark:
    x, _, w, _ = PLAYERS_BOX
    rows: list[Shape | Mark] = [Text("Runners", x + 14, PLAYERS_BOX[1] + 26, 16, bold=True)]
    for runner, cy, status in player_rows(runners):
        rows.append(Mark("player", (
            *token(runner, x + 28, cy, 14, 11),
            Text(fit_text(runner.name, w - 114, 14), x + 50, cy + 5, 14, role="name"),
            Text(status, x + w - 12, cy + 5, 13, MUTED, anchor="end"),
        ), (("seat", str(runner.seat)),)))
    return Mark("players", tuple(rows))


def _heading(title: str, subtitle: str) -> Mark:
    parts: list[Shape | Mark] = []
    if title:
        parts.append(Text(fit_text(title, VW - 200, 28), MARGIN + 10, 44, 28, bold=True, role="title"))
    if subtitle:
        parts.append(Text(fit_text(subtitle, VW - 200, 15), MARGIN + 11, 67, 15, MUTED, role="subtitle"))
    return Mark("heading", tuple(parts))


#: an arrow's line, the white halo under it, and its head's length and half-width
STROKE, HALO = 4.5, 9.0
HEAD_LONG, HEAD_WIDE = 14.0, 8.0


def _head(points: Sequence[Point]) -> tuple[Point, Point, Point]:
    """The arrowhead at the end of a line: its tip, then its two back corners."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    bx, by = x1 - ux * HEAD_LONG, y1 - uy * HEAD_LONG
    return (x1, y1), (bx - uy * HEAD_WIDE, by + ux * HEAD_WIDE), (bx + uy * HEAD_WIDE, by - ux * HEAD_WIDE)


def label_boxes(squares: Sequence[Sequence[int]]) -> list[Area]:
    """The boxes of the labels printed on the track squares, given each position's numbers."""
    return [label.box() for square in range(1, HOME) for label in square_labels(square, squares[square])]


def turn_marks(runners: Sequence[RunnerMark], moves: Sequence[MoveMark], title: str, subtitle: str,
               squares: Sequence[Sequence[int]]) -> TurnMarks:
    """Everything a turn draws over the track. `squares` holds each position's numbers (empty but on
    number squares), so that an arrow's number off the gutters' crossings keeps clear of labels."""
    by_seat = sorted(runners, key=lambda r: r.seat)
    spots = token_spots(by_seat)
    home = {s.runner.seat: (s.x, s.y) for s in spots if s.finished}
    obstacles = [*label_boxes(squares), *(token_box(s.x, s.y, s.r) for s in spots)]
    moves_drawn, numbers = [], []
    for arrow in route_moves(moves, home, obstacles):
        move, color = arrow.move, SEAT_COLORS[arrow.move.seat]
        legs: list[Shape | Mark] = []
        for leg in arrow.legs:
            legs += [
                Line(leg.points, HALO, "#ffffff", 0.85),
                Line(leg.points, STROKE, color, dash=(9.0, 6.0) if leg.back else None),
                Polygon(_head(leg.points), color, "#ffffff", 1.5),
            ]
        data = (("seat", str(move.seat)), ("slot", str(move.slot)), ("from", str(move.from_square)),
                ("to", str(move.to_square)))
        moves_drawn.append(Mark("move", tuple(legs), data + ((("via", str(move.via)),) if move.via is not None else ())))
        bx, by = arrow.badge
        numbers.append(Mark("slot", (
            Circle(bx, by, BADGE_R, "#ffffff"),
            Circle(bx, by, BADGE_R - 2, color),
            Text(str(move.slot), bx, by + 4.5, 13, legible_ink(color), bold=True, anchor="middle", role="slot"),
        ), (("seat", str(move.seat)), ("slot", str(move.slot)))))
    return TurnMarks(_heading(title, subtitle), _players(by_seat), _runners(by_seat), tuple(moves_drawn), tuple(numbers))
