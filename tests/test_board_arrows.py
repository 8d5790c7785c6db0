"""The board's arrows keep off the board: over random games of every ruleset, no arrow crosses a
label printed on a square or a token other than its own runner's, no arrow wanders into rows its
move does not span, no two slot numbers overlap, and a move that ends where it began still shows."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence

import pytest

from pbem.games import find_game
from pbem.games.base import SeatSpec, Setup, Viewer
from pbem.games.chance import LegacyChance
from pbem.games.hare_tortoise import layout
from pbem.games.hare_tortoise.arrows import BADGE_R, LANE
from pbem.games.hare_tortoise.marks import STROKE, Circle, Line, Mark, Polygon, TurnMarks, label_boxes, turn_marks
from pbem.games.hare_tortoise.picture import MoveMark, RunnerMark, SquareInfo
from pbem.games.hare_tortoise.present import board_marks
from pbem.games.hare_tortoise.rules import RULESETS
from tests.test_playthrough import Reader

GAME = find_game("hare-tortoise")
NAMES = ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay"]
GAMES = 3  # per ruleset and form (one runner a player, two-player)
MAX_TURNS = 60

Area = tuple[float, float, float, float]
Point = tuple[float, float]


def _segment_hits(a: Point, b: Point, box: Area) -> bool:
    """Whether the segment a-b meets the box (Liang-Barsky clipping)."""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _grown(box: Area, by: float) -> Area:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _disc_hits(centre: Point, r: float, box: Area) -> bool:
    nx, ny = min(max(centre[0], box[0]), box[2]), min(max(centre[1], box[1]), box[3])
    return math.dist(centre, (nx, ny)) < r


def _lines(mark: Mark) -> Iterator[tuple[Point, ...]]:
    """Every drawn line of an arrow, its coloured stroke and its head's outline."""
    for shape in mark.shapes():
        if isinstance(shape, Line) and shape.width == STROKE:
            yield shape.points
        elif isinstance(shape, Polygon):
            yield (*shape.points, shape.points[0])


def _rows(square: int) -> tuple[float, float]:
    """The gutters above and below the row a position stands in (START and HOME span theirs)."""
    if square in (layout.START, layout.HOME):
        _, y, _, h = layout.square_box(square)
        return y - layout.CELL / 2, y + h + layout.CELL / 2
    row, _ = layout.cell_of(square)
    return layout.TY + row * layout.CELL, layout.TY + (row + 1) * layout.CELL


def check_turn(squares: Sequence[SquareInfo], runners: Sequence[RunnerMark], moves: Sequence[MoveMark]) -> TurnMarks:
    marks = turn_marks(runners, moves, "title", "subtitle", [info.numbers for info in squares])
    spots = layout.token_spots(runners)
    labels = label_boxes([info.numbers for info in squares])
    margin = STROKE / 2
    for mark, move in zip(marks.moves, sorted(moves, key=lambda m: (m.slot, m.seat)), strict=True):
        ends = {move.from_square, move.to_square, *([move.via] if move.via is not None else [])}
        tokens = [layout.token_box(s.x, s.y, s.r) for s in spots if not (s.runner.seat == move.seat and s.runner.square in ends)]
        stops = [_rows(sq) for sq in ends]
        top, bottom = min(t for t, _ in stops) - LANE - margin, max(b for _, b in stops) + LANE + margin
        for points in _lines(mark):
            for a, b in zip(points, points[1:], strict=False):
                for box in labels:
                    assert not _segment_hits(a, b, _grown(box, margin)), (move, "crosses a label", box)
                for box in tokens:
                    assert not _segment_hits(a, b, _grown(box, margin)), (move, "crosses a token", box)
        for shape in mark.shapes():
            if isinstance(shape, Line):
                assert all(top <= y <= bottom for _, y in shape.points), (move, "runs through rows it does not span")
        length = sum(math.dist(a, b) for points in _lines(mark) for a, b in zip(points, points[1:], strict=False))
        assert length >= 40, (move, "leaves too small a mark")
    discs = [next(s for s in number.shapes() if isinstance(s, Circle)) for number in marks.numbers]
    assert len(discs) == len(moves)
    for i, one in enumerate(discs):
        assert one.r == BADGE_R
        for other in discs[i + 1:]:
            assert math.dist((one.cx, one.cy), (other.cx, other.cy)) >= 2 * BADGE_R, "two slot numbers overlap"
        for box in labels:
            assert not _disc_hits((one.cx, one.cy), one.r, box), "a slot number covers a label"
    return marks


Board = tuple[Sequence[SquareInfo], list[RunnerMark], list[MoveMark]]


def _play(ruleset: str, options: tuple[str, ...], seed: int) -> Iterator[Board]:
    """The board of each turn of a random game, as its report draws it."""
    rng = random.Random(f"arrows/{ruleset}/{options}/{seed}")
    count = 2 if options else rng.choice(range(2, 7))
    state = GAME.new_state(Setup(ruleset, tuple(SeatSpec(NAMES[i]) for i in range(count)), options), LegacyChance(seed, 0))
    reader, public = Reader(GAME), Viewer.public()
    for _ in range(MAX_TURNS):
        if GAME.is_over(state):
            return
        orders = {seat: reader.read(state, seat, GAME.random_sheet(state, seat, rng)).orders
                  for seat in GAME.to_move(state) if rng.random() < 0.9}
        outcome = GAME.resolve(state, orders, LegacyChance(seed, GAME.turn(state)))
        state = outcome.state
        yield board_marks(GAME.view(state, public), GAME.redact_all(outcome.resolutions, public))


FORMS = [(name, ()) for name in RULESETS] + [(name, ("two-player",)) for name, cls in RULESETS.items()
                                                 if "two-player" in cls.options]


@pytest.mark.parametrize(("ruleset", "options"), FORMS, ids=[f"{r}:{'+'.join(o) or 'plain'}" for r, o in FORMS])
def test_arrows_keep_off_labels_and_tokens_in_random_games(ruleset: str, options: tuple[str, ...]) -> None:
    stays = hares = 0
    for seed in range(GAMES):
        for squares, runners, moves in _play(ruleset, options, seed):
            check_turn(squares, runners, moves)
            stays += sum(m.from_square == m.to_square for m in moves)
            hares += sum(m.via is not None for m in moves)
    assert stays  # the games did try a move that ends where it began
    assert hares or ruleset == "parlett-2010"  # and one a hare sent on or back (that deck's cards move no one)


def test_the_cases_the_old_arrows_drew_badly() -> None:
    """Square 16's 1·5·6, a short move beside another, a hare's send-back to where it started, and
    six runners leaving START together."""
    squares, _, _ = next(_play("variable-pig", (), 0))
    runners = [RunnerMark(0, "Ann", 17), RunnerMark(1, "Bob", 16), RunnerMark(2, "Cyd", 15),
               RunnerMark(3, "Dot", 20), RunnerMark(4, "Eve", 33), RunnerMark(5, "Fay", 0)]
    moves = [MoveMark(0, 5, 17, 1), MoveMark(1, 15, 16, 2), MoveMark(2, 14, 15, 3), MoveMark(3, 19, 20, 4),
             MoveMark(4, 33, 33, 5, via=39), MoveMark(5, 0, 0, 6)]
    marks = check_turn(squares, runners, moves)
    send_back = marks.moves[4]
    assert dict(send_back.data)["via"] == "39"
    assert sum(isinstance(s, Line) and s.width == STROKE for s in send_back.shapes()) == 2  # there and back
    start = [RunnerMark(seat, NAMES[seat], 0) for seat in range(6)]
    check_turn(squares, [RunnerMark(seat, NAMES[seat], seat + 1) for seat in range(6)],
               [MoveMark(seat, 0, seat + 1, seat + 1) for seat in range(6)])
    check_turn(squares, start, [])
