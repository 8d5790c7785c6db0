"""Where everything on the Hare & Tortoise board picture goes: the track's serpentine of squares,
the panels, the runners' tokens, and the gutters between the squares in which arrows run.

Pure geometry in the picture's fixed 1200 x 700 user space, shared by the static track
(`picture`), the turn's marks (`marks`) and their routing (`arrows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pbem.render.svg import ordinal, text_width

START = 0
HOME = 64

VW = 1200
VH = 700
MARGIN = 18  # outer margin
HEAD = 78  # title band
COLS = 9
ROWS = 7
CELL = 86
SQ = 74  # square side; the rest of a cell is the gutter, where the path and the arrows show
GUTTER_IN = (CELL - SQ) / 2  # from a gutter's middle to the squares beside it
GAP = 12  # between the track and the side panels
SIDE = (VW - 2 * MARGIN - 2 * GAP - COLS * CELL) // 2  # width of the side panels
TX = MARGIN + SIDE + GAP  # track origin
TY = HEAD
RX = TX + COLS * CELL + GAP  # right panels
TOKEN_R = 24
FINISHER_R = 18

Box = tuple[int, int, int, int]  # x, y, width, height
#: an area as (x0, y0, x1, y1)
Area = tuple[float, float, float, float]
Point = tuple[float, float]

START_BOX: Box = (MARGIN, TY + 4, SIDE, 3 * CELL - 8)
KINDS_BOX: Box = (MARGIN, TY + 3 * CELL + 4, SIDE, 4 * CELL - 8)
PLAYERS_BOX: Box = (RX, TY + 4, SIDE, 3 * CELL - 8)
HOME_BOX: Box = (RX, TY + 3 * CELL + 4, SIDE, 4 * CELL - 8)

MUTED = "#7a6c55"


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
    """A move made this turn, drawn as an arrow numbered by its slot. `via` is the hare square a
    move landed on before its hare sent it on or back: the arrow goes there, then on (dashed back)."""

    seat: int
    from_square: int
    to_square: int
    slot: int
    via: int | None = None


def square_origin(square: int) -> tuple[int, int]:
    """Top-left corner of track square 1..63: a serpentine of 9-square rows."""
    row, col = cell_of(square)
    return TX + col * CELL + (CELL - SQ) // 2, TY + row * CELL + (CELL - SQ) // 2


def cell_of(square: int) -> tuple[int, int]:
    """The (row, column) of track square 1..63."""
    row, col = divmod(square - 1, COLS)
    return row, COLS - 1 - col if row % 2 else col


def square_box(square: int) -> Box:
    if square == START:
        return START_BOX
    if square == HOME:
        return HOME_BOX
    return (*square_origin(square), SQ, SQ)


def anchor(square: int) -> Point:
    """The middle of a track square, where its runner's token stands."""
    ox, oy = square_origin(square)
    return ox + SQ / 2, oy + SQ / 2


def finish_order(runner: RunnerMark) -> tuple[int, int]:
    return (runner.place if runner.place is not None else 1_000, runner.seat)


def finisher_spot(index: int) -> Point:
    """Centre of the token of the `index`-th runner listed at HOME."""
    hx, hy, _, h = HOME_BOX
    step = min(46.0, (h - 80) / max(index + 1, 6))
    return hx + 32, hy + 75 + index * step


def start_spot(index: int) -> Point:
    """Centre of the token of the `index`-th runner (by seat) standing on START."""
    sx, sy, _, _ = START_BOX
    row, col = divmod(index, 3)
    return sx + 33 + col * 58, sy + 82 + row * 64


def token_box(cx: float, cy: float, r: float) -> Area:
    """Where a token draws: its white ring (r / 16 wide), and its shadow 1.5 right and 2.5 down."""
    return (cx - r - 2, cy - r - 2, cx + r + 3, cy + r + 4)


@dataclass(frozen=True)
class TokenSpot:
    """Where a runner's token stands: its centre, its radius, and whether it is listed at HOME."""

    runner: RunnerMark
    x: float
    y: float
    r: float
    finished: bool


def token_spots(runners: Sequence[RunnerMark]) -> list[TokenSpot]:
    """Where each runner's token stands, in drawing order: START, the track, then HOME by place."""
    by_seat = sorted(runners, key=lambda r: r.seat)
    spots = [TokenSpot(r, *start_spot(i), TOKEN_R, False)
             for i, r in enumerate(r for r in by_seat if r.square == START)]
    seen: dict[int, int] = {}
    for runner in by_seat:
        if START < runner.square < HOME:
            # Only one runner may stand on a square; if the data says otherwise, show both.
            nth = seen.get(runner.square, 0)
            seen[runner.square] = nth + 1
            cx, cy = anchor(runner.square)
            spots.append(TokenSpot(runner, cx + 8 * nth, cy + 4 + 8 * nth, TOKEN_R, False))
    finishers = sorted((r for r in by_seat if r.square == HOME), key=finish_order)
    spots += [TokenSpot(r, *finisher_spot(i), FINISHER_R, True) for i, r in enumerate(finishers)]
    return spots


def player_rows(runners: Sequence[RunnerMark]) -> list[tuple[RunnerMark, float, str]]:
    """The players' panel, a row a runner: (runner, the row's middle, where it stands)."""
    _, y, _, h = PLAYERS_BOX
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


@dataclass(frozen=True)
class SquareLabel:
    """A label printed on a track square: its text, baseline point, size and anchor."""

    text: str
    x: float
    y: float
    size: float
    anchor: str  # "start" or "middle"

    def box(self) -> Area:
        """The area the label's glyphs cover (digits and dots: no descenders), with a pixel to spare."""
        width = text_width(self.text, self.size, bold=True)
        x0 = self.x - width / 2 if self.anchor == "middle" else self.x
        return (x0 - 1, self.y - CAP_HEIGHT * self.size - 1, x0 + width + 1, self.y + 1)


#: the height of a digit above the baseline, in font sizes
CAP_HEIGHT = 0.73


def square_labels(square: int, numbers: Sequence[int]) -> list[SquareLabel]:
    """What a track square says: its number in the corner, and on a number square its numbers."""
    x, y = square_origin(square)
    labels = [SquareLabel(str(square), x + 7, y + 17, 14, "start")]
    if numbers:
        text = "\u00b7".join(str(n) for n in numbers)
        size = 34 if len(text) == 1 else 27 if len(text) <= 3 else 21
        labels.append(SquareLabel(text, x + SQ / 2, y + 44 + size * 0.36, size, "middle"))
    return labels
