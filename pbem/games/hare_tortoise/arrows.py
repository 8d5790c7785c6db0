"""Where the arrows of a turn's moves run: in the gutters between the squares, never over them.

Every square of the track stands in its cell with a gutter around it, and nothing is printed in the
gutters: no token, no label. An arrow leaves its square through the middle of one side, runs along
the gutters (the shortest way, turning as little as it can, and keeping off gutters that earlier
arrows took) and enters its destination through the middle of a side. So an arrow never crosses a
square's labels or a token, and never loops through rows it has no business in. Its slot's number
sits on a crossing of two gutters, where four squares' rounded corners leave room for it, one number
to a crossing. A move that ends where it began (a stay, a hare that sends a runner back to where it
started) leaves through one side and comes back through another, so it too has an arrow and a number.

Where several arrows share a gutter they are drawn in lanes a few pixels apart, so each colour shows.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pbem.games.hare_tortoise.layout import (
    CELL,
    COLS,
    FINISHER_R,
    GUTTER_IN,
    HOME,
    HOME_BOX,
    ROWS,
    START,
    START_BOX,
    TX,
    TY,
    Area,
    MoveMark,
    Point,
    cell_of,
)

__all__ = ["BADGE_R", "LANE", "Arrow", "Leg", "Port", "route_moves"]

Node = tuple[int, int]  # a crossing of gutters: (column line 0..COLS, row line 0..ROWS)
Edge = tuple[Node, Node]  # a gutter between two neighbouring crossings, lower first

#: how far an arrow's head reaches into a square past its edge: enough to point at it, short of its
#: labels and of a token's shadow; an arrow leaves a square from its very edge
DEPTH = 2.0
#: how far into START (whose tokens stand near its edge) an arrow reaches
PANEL_DEPTH = 1.0
#: the radius of the disc with a move's slot number (its white ring included)
BADGE_R = 12.0
#: lanes of a shared gutter: the offset of each from the gutter's middle
LANE = 3.0
_LANES = (0.0, LANE, -LANE)
#: costs of a route beyond its length: a turn, a gutter an earlier arrow took, a number passed over
_TURN = 30.0
_SHARED = 70.0
_OVER_NUMBER = 90.0

_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))


def crossing(node: Node) -> Point:
    return TX + node[0] * CELL, TY + node[1] * CELL


def _edge(a: Node, b: Node) -> Edge:
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class Port:
    """A way into or out of a position: the middle of a gutter beside it (`point`, on the gutter
    `edge`) and where an arrow's end reaches inside it (`inner`)."""

    edge: Edge
    point: Point
    inner: Point


def _side_ports(square: int, leaving: bool) -> list[Port]:
    """The middles of a track square's four sides."""
    row, col = cell_of(square)
    x0, y0 = crossing((col, row))
    x1, y1 = crossing((col + 1, row + 1))
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    reach = GUTTER_IN + (0.0 if leaving else DEPTH)
    return [
        Port(((col, row), (col + 1, row)), (mx, y0), (mx, y0 + reach)),  # top
        Port(((col, row + 1), (col + 1, row + 1)), (mx, y1), (mx, y1 - reach)),  # bottom
        Port(((col, row), (col, row + 1)), (x0, my), (x0 + reach, my)),  # left
        Port(((col + 1, row), (col + 1, row + 1)), (x1, my), (x1 - reach, my)),  # right
    ]


def _start_ports(seat: int, leaving: bool) -> list[Port]:
    """START's side on the track: each seat leaves from its own height, so turn 1's arrows fan out;
    arrows back to START come in lower down, beside the tokens standing there."""
    sx, _, sw, _ = START_BOX
    x = sx + sw - PANEL_DEPTH
    if leaving:
        y = TY + CELL / 2 + (seat - 2.5) * 12
        return [Port(((0, 0), (0, 1)), (TX, y), (x, y))]
    y = TY + 1.5 * CELL
    return [Port(((0, 1), (0, 2)), (TX, y), (x, y))]


def _home_ports(spot: Point | None) -> list[Port]:
    """HOME's side on the track: to the finisher's token where it is listed, else its middle."""
    hx, hy, _, hh = HOME_BOX
    x, y = (spot[0] - FINISHER_R - 5, spot[1]) if spot else (hx + DEPTH, hy + hh / 2)
    row = min(max(int((y - TY) // CELL), 0), ROWS - 1)
    if (y - TY) % CELL == 0:  # on a crossing: just below it
        y += 1
    return [Port(((COLS, row), (COLS, row + 1)), (TX + COLS * CELL, y), (x, y))]


def ports(position: int, seat: int, leaving: bool, home_spot: Point | None = None) -> list[Port]:
    """The ways out of (`leaving`) or into a position."""
    if position == START:
        return _start_ports(seat, leaving)
    if position == HOME:
        return _home_ports(home_spot)
    return _side_ports(position, leaving)


@dataclass(frozen=True)
class Leg:
    """One arrow: its line from start to tip, in order, and whether it goes back (dashed)."""

    points: tuple[Point, ...]
    back: bool
    enter: Port


@dataclass(frozen=True)
class Arrow:
    """A move as drawn: one leg, or two for a hare that sent the runner on; and its number's disc."""

    move: MoveMark
    legs: tuple[Leg, ...]
    badge: Point


class _Router:
    """Routes a turn's arrows one after another, each knowing the gutters, lanes and crossings the
    earlier ones took."""

    def __init__(self, obstacles: Sequence[Area]) -> None:
        self.obstacles = obstacles
        self.shared: Counter[Edge] = Counter()
        self.lanes: Counter[tuple[Edge, float]] = Counter()
        self.passed: Counter[Node] = Counter()
        self.numbers: list[Point] = []
        self.numbered: set[Node] = set()

    def route(self, sources: Sequence[Port], targets: Sequence[Port]) -> tuple[list[Node], Port, Port]:
        """The cheapest way from one of `sources` to one of `targets` through the gutters, never
        beyond the gutters around the rows and columns the two ends stand in (a column to spare
        each side)."""
        ends = [node for port in (*sources, *targets) for node in port.edge]
        box = (max(min(c for c, _ in ends) - 1, 0), min(r for _, r in ends),
               min(max(c for c, _ in ends) + 1, COLS), max(r for _, r in ends))
        best: tuple[float, list[Node], Port, Port] | None = None
        for source in sources:
            # not back along the very gutter it left by (a stay at HOME has no other way)
            found = self._search(source, [t for t in targets if t.edge != source.edge] or list(targets), box,
                                 math.inf if best is None else best[0])
            if found is not None and (best is None or found[0] < best[0]):
                best = (found[0], found[1], source, found[2])
        assert best is not None  # every crossing reaches every other
        return best[1], best[2], best[3]

    def _search(self, source: Port, targets: Sequence[Port], box: tuple[int, int, int, int],
                bound: float) -> tuple[float, list[Node], Port] | None:
        """Dijkstra over (crossing, heading) within `box` (columns and rows of crossings), from the
        two ends of the source's gutter, given up once it cannot beat `bound`."""
        shared, numbered = self.shared, self.numbered
        finish: dict[Node, list[tuple[int, float, Port]]] = {}  # a crossing: (heading in, cost on, target)
        for target in targets:
            for node in target.edge:
                last = _heading(crossing(node), target.point)
                rest = math.dist(crossing(node), target.point) + _SHARED * shared.get(target.edge, 0)
                finish.setdefault(node, []).append((last, rest, target))
        dist: dict[tuple[Node, int], float] = {}
        back: dict[tuple[Node, int], tuple[Node, int] | None] = {}
        queue: list[tuple[float, Node, int]] = []
        for node in source.edge:
            heading = _heading(source.point, crossing(node))
            cost = (math.dist(source.point, crossing(node)) + _SHARED * shared.get(source.edge, 0)
                    + (_OVER_NUMBER if node in numbered else 0.0))
            if cost < dist.get((node, heading), math.inf):
                dist[node, heading] = cost
                back[node, heading] = None
                heapq.heappush(queue, (cost, node, heading))
        best: tuple[float, tuple[Node, int], Port] | None = None
        c0, r0, c1, r1 = box
        while queue:
            cost, node, heading = heapq.heappop(queue)
            if cost >= bound or (best is not None and cost >= best[0]):
                break  # every way on costs at least this much
            if cost > dist[node, heading]:
                continue
            for last, rest, target in finish.get(node, ()):
                total = cost + rest + (_TURN if heading != last else 0.0)
                if best is None or total < best[0]:
                    best = (total, (node, heading), target)
            for step, (dx, dy) in enumerate(_STEPS):
                nxt = (node[0] + dx, node[1] + dy)
                if not (c0 <= nxt[0] <= c1 and r0 <= nxt[1] <= r1):
                    continue
                new = (cost + CELL + _SHARED * shared.get(_edge(node, nxt), 0)
                       + (_OVER_NUMBER if nxt in numbered else 0.0) + (_TURN if step != heading else 0.0))
                if new < dist.get((nxt, step), math.inf):
                    dist[nxt, step] = new
                    back[nxt, step] = (node, heading)
                    heapq.heappush(queue, (new, nxt, step))
        if best is None or best[0] >= bound:
            return None
        path: list[Node] = []
        state: tuple[Node, int] | None = best[1]
        while state is not None:
            path.append(state[0])
            state = back[state]
        return best[0], path[::-1], best[2]

    def leg(self, sources: Sequence[Port], targets: Sequence[Port], back: bool) -> tuple[Leg, list[Node]]:
        nodes, source, target = self.route(sources, targets)
        edges = [source.edge, *(_edge(a, b) for a, b in zip(nodes, nodes[1:], strict=False)), target.edge]
        lane = min(_LANES, key=lambda d: (sum(self.lanes[e, d] for e in edges), abs(d), d))
        for e in edges:
            self.shared[e] += 1
            self.lanes[e, lane] += 1
        for node in nodes:
            self.passed[node] += 1
        points = _in_lane([source.inner, source.point, *(crossing(n) for n in nodes), target.point, target.inner], lane)
        return Leg(tuple(points), back, target), nodes

    def badge(self, nodes: Sequence[Node], legs: Sequence[Leg]) -> Point:
        """Where the slot's number goes: a free crossing on the arrow, near its middle, best one no
        other arrow passes; else the free point of a gutter beside the arrow clear of every label
        and token; else the middle crossing."""
        middle = (len(nodes) - 1) / 2
        free = [n for n in nodes if self._room(crossing(n))]
        if free:
            node = min(free, key=lambda n: (self.passed[n] > 1, abs(nodes.index(n) - middle)))
            self.numbered.add(node)
            return self._take(crossing(node))
        for leg in legs:
            for (x0, y0), (x1, y1) in zip(leg.points, leg.points[1:], strict=False):
                for t in (0.5, 0.25, 0.75):
                    point = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
                    if self._room(point) and not any(_disc_hits(point, BADGE_R, box) for box in self.obstacles):
                        return self._take(point)
        return self._take(crossing(nodes[len(nodes) // 2]))

    def _room(self, point: Point) -> bool:
        return all(math.dist(point, other) >= 2 * BADGE_R + 1 for other in self.numbers)

    def _take(self, point: Point) -> Point:
        self.numbers.append(point)
        return point


def _heading(a: Point, b: Point) -> int:
    dx, dy = b[0] - a[0], b[1] - a[1]
    if abs(dx) >= abs(dy):
        return 0 if dx > 0 else 2
    return 1 if dy > 0 else 3


def _in_lane(points: Sequence[Point], lane: float) -> list[Point]:
    """The line moved `lane` across each gutter it runs in: a point on a vertical stretch moves
    right, on a horizontal one down; the ends inside squares keep their depth."""
    clean = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if not lane:
        return clean
    out = []
    for i, (x, y) in enumerate(clean):
        near = [clean[j] for j in (i - 1, i + 1) if 0 <= j < len(clean)]
        dx = lane if any(abs(px - x) < 0.01 for px, _ in near) else 0.0
        dy = lane if any(abs(py - y) < 0.01 for _, py in near) else 0.0
        out.append((x + dx, y + dy))
    return out


def _disc_hits(centre: Point, r: float, box: Area) -> bool:
    x0, y0, x1, y1 = box
    nx, ny = min(max(centre[0], x0), x1), min(max(centre[1], y0), y1)
    return math.dist(centre, (nx, ny)) < r


def route_moves(moves: Iterable[MoveMark], home_spots: Mapping[int, Point], obstacles: Sequence[Area]) -> list[Arrow]:
    """The arrows of a turn's moves, in slot order: `home_spots` are the finishers' tokens by seat,
    `obstacles` the boxes of every label and token, which a number off the crossings keeps clear of."""
    router = _Router(obstacles)
    arrows = []
    for move in sorted(moves, key=lambda m: (m.slot, m.seat)):
        home = home_spots.get(move.seat)
        stops = [move.from_square, *([move.via] if move.via is not None else []), move.to_square]
        legs: list[Leg] = []
        nodes: list[Node] = []
        for a, b in zip(stops, stops[1:], strict=False):
            sources = ports(a, move.seat, True, home)
            if legs:  # on from the hare square: not out the way it came in
                sources = [p for p in sources if p.edge != legs[-1].enter.edge] or sources
            leg, passed = router.leg(sources, ports(b, move.seat, False, home), b < a)
            legs.append(leg)
            nodes += passed
        arrows.append(Arrow(move, tuple(legs), router.badge(nodes, legs)))
    return arrows
