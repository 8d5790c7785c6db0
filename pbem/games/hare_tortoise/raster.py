"""The turn's layer of the board drawn straight into pixels with Pillow, for a wave of reports.

`picture.board_svg` writes the turn's marks (`marks.turn_marks`: the heading, the players'
panel, the runners' tokens, the moves' arrows and their numbers) as SVG; this paints the very
same marks, shape by shape, over the track rasterised once by resvg, without sending each turn
through an SVG rasteriser and a PNG encoder and decoder per part (most of resvg's time per part
went on encoding its PNG).

Each shape is drawn as a coverage mask over its own area, `SUPERSAMPLE` times larger in each
direction, and reduced: every edge is smoothed over 16 samples a pixel, as resvg's
anti-aliasing does; the mask then blends its colour in. Text is DejaVu Sans through FreeType,
the font the outlines of `label` come from, smoothed by FreeType at the picture's own size.
Pure arithmetic on the inputs: the same turn gives the same pixels.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from pbem.games.hare_tortoise import picture as P
from pbem.games.hare_tortoise.layout import VW, Area
from pbem.games.hare_tortoise.marks import Circle, Mark, Polygon, Shape, Text, TurnMarks, reach
from pbem.render.png import _BEYOND_DEJAVU, _font_files, palette_png

__all__ = ["SUPERSAMPLE", "available", "board_png_raster"]

#: samples per pixel in each direction
SUPERSAMPLE = 4


def available(texts: Sequence[str]) -> bool:
    """Whether DejaVu Sans is installed and covers every text of the picture."""
    return bool(_font_files()) and not any(_BEYOND_DEJAVU.search(t) for t in texts)


@functools.lru_cache(maxsize=64)
def _font(size: float, bold: bool) -> ImageFont.FreeTypeFont:
    regular, heavy = _font_files()
    return ImageFont.truetype(heavy if bold else regular, size=size)


def _rgba(color: str, alpha: int = 255) -> tuple[int, int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16), alpha


#: the most mask pixels `_MASKS` keeps (one byte each): a few MB
MASK_CACHE_PIXELS = 2_000_000
#: the largest mask kept: a token, a label, a slot's disc; not a move's curve, seldom drawn twice
MASK_CACHE_LARGEST = 8192


class _MaskCache:
    """Coverage masks drawn before, most recently used last, up to `pixels` pixels in all and
    `largest` each.

    A mask is keyed on everything its pixels depend on: its size, its ink and every shape as
    drawn, in the mask's own coordinates (exact floats). Tokens, their initials, the players'
    panel and the slots' discs come back game after game at the same places: drawn once.
    """

    def __init__(self, pixels: int, largest: int) -> None:
        self.pixels = pixels
        self.largest = largest
        self.held = 0
        self.masks: OrderedDict[Hashable, Image.Image] = OrderedDict()

    def get(self, key: Hashable) -> Image.Image | None:
        mask = self.masks.get(key)
        if mask is not None:
            self.masks.move_to_end(key)
        return mask

    def put(self, key: Hashable, mask: Image.Image) -> None:
        size = mask.width * mask.height
        if size > self.largest or key in self.masks:
            return
        self.masks[key] = mask
        self.held += size
        while self.held > self.pixels:
            _, old = self.masks.popitem(last=False)
            self.held -= old.width * old.height

    def clear(self) -> None:
        self.masks.clear()
        self.held = 0


_MASKS = _MaskCache(MASK_CACHE_PIXELS, MASK_CACHE_LARGEST)

# a shape as drawn: its kind and its arguments in mask pixels
_Drawn = tuple[Any, ...]


def _draw_mask(size: tuple[int, int], ss: int, ink: int, drawn: Sequence[_Drawn]) -> Image.Image:
    """The coverage mask of `drawn` (in mask pixels, `ss` per picture pixel), reduced."""
    mask = Image.new("L", (size[0] * ss, size[1] * ss), 0)
    draw = ImageDraw.Draw(mask)
    for kind, *args in drawn:
        if kind == "ellipse":
            draw.ellipse(args, fill=ink)
        elif kind == "line":
            points, width = args
            draw.line(points, fill=ink, width=width)
        elif kind == "polygon":
            draw.polygon(args[0], fill=ink)
        else:
            text, x, y, size_px, bold, where = args
            draw.text((x, y), text, fill=ink, font=_font(size_px, bold), anchor=where)
    return mask.reduce(ss) if ss > 1 else mask


class _Canvas:
    """The picture, painted layer by layer: each layer is one colour through a coverage mask
    drawn `SUPERSAMPLE` times larger over the layer's own area, reduced, and blended in."""

    def __init__(self, picture: Image.Image, scale: float, masks: _MaskCache | None = None) -> None:
        self.picture = picture
        self.scale = scale
        self.k = scale * SUPERSAMPLE  # user units to mask pixels
        self.masks = masks

    def _reach(self, shapes: Sequence[tuple[str, tuple[Any, ...]]]) -> tuple[float, float, float, float] | None:
        """Where `shapes` can paint (user units), text aside: None if any is text."""
        xs: list[float] = []
        ys: list[float] = []
        for kind, args in shapes:
            if kind == "circle":
                cx, cy, r = args
                xs += (cx - r, cx + r)
                ys += (cy - r, cy + r)
            elif kind in ("stroke", "outline"):
                points, w = args
                xs += (min(x for x, _ in points) - w / 2, max(x for x, _ in points) + w / 2)
                ys += (min(y for _, y in points) - w / 2, max(y for _, y in points) + w / 2)
            elif kind == "polygon":
                (points,) = args
                xs += (min(x for x, _ in points), max(x for x, _ in points))
                ys += (min(y for _, y in points), max(y for _, y in points))
            else:
                return None
        return min(xs), min(ys), max(xs), max(ys)

    def layer(self, color: str, area: Area, shapes: Sequence[tuple[str, tuple[Any, ...]]],
              opacity: float = 1.0) -> None:
        """Paint `color` where `shapes` cover `area` (user units): ("circle", (cx, cy, r)),
        ("stroke", (points, width)), ("polygon", (points,)), ("outline", (points, width)),
        ("text", (text, x, y, size, bold, anchor)).

        The mask covers no more than the shapes can reach within `area` (a curve's area holds
        its control points, far off the curve), and one drawn before is taken from the cache."""
        x0, y0, x1, y1 = area
        width, height = self.picture.size
        s = self.scale
        left, top = max(0, math.floor(x0 * s)), max(0, math.floor(y0 * s))
        right, bottom = min(width, math.ceil(x1 * s)), min(height, math.ceil(y1 * s))
        reach = self._reach(shapes)
        if reach is not None:
            # a pixel's margin: the strokes' ends and widths are rounded to whole mask pixels
            rx0, ry0, rx1, ry1 = reach
            left, top = max(left, math.floor(rx0 * s) - 1), max(top, math.floor(ry0 * s) - 1)
            right, bottom = min(right, math.ceil(rx1 * s) + 1), min(bottom, math.ceil(ry1 * s) + 1)
        if right <= left or bottom <= top:
            return
        # text is smoothed by FreeType itself: drawn at the picture's own size
        ss = 1 if reach is None and all(kind == "text" for kind, _ in shapes) else SUPERSAMPLE
        ink = round(255 * opacity)
        k, ox, oy = s * ss, left * ss, top * ss

        def xy(x: float, y: float) -> tuple[float, float]:
            return (x * k - ox, y * k - oy)

        drawn: list[_Drawn] = []
        for kind, args in shapes:
            if kind == "circle":
                cx, cy, r = args
                x, y = xy(cx, cy)
                rr = r * k
                drawn.append(("ellipse", x - rr, y - rr, x + rr, y + rr))
            elif kind in ("stroke", "outline"):
                points, w = args
                pts = [xy(px, py) for px, py in points]
                if kind == "outline":
                    pts.append(pts[0])
                ww = w * k
                drawn.append(("line", tuple(pts), max(1, round(ww))))
                half = ww / 2  # round caps and joins
                drawn += [("ellipse", x - half, y - half, x + half, y + half) for x, y in pts]
            elif kind == "polygon":
                (points,) = args
                drawn.append(("polygon", tuple(xy(px, py) for px, py in points)))
            elif kind == "text":
                text, tx, ty, size, bold, anchor = args
                where = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
                drawn.append(("text", text, *xy(tx, ty), size * k, bold, where))
        box = (left, top, right, bottom)
        key = (ss, right - left, bottom - top, ink, tuple(drawn))
        mask = self.masks.get(key) if self.masks is not None else None
        if mask is None:
            mask = _draw_mask((right - left, bottom - top), ss, ink, drawn)
            if self.masks is not None:
                self.masks.put(key, mask)
        # a solid tile through the mask: the same pixels as pasting the colour, twice as fast
        # (the picture is the canvas's own copy: no Image.paste checks needed per layer)
        self.picture.im.paste(Image.new("RGB", mask.size, _rgba(color)[:3]).im, box, mask.im)


def _dashes(points: Sequence[tuple[float, float]], on: float, off: float) -> list[list[tuple[float, float]]]:
    """The polyline cut into dashes `on` long with gaps `off` long (SVG's stroke-dasharray)."""
    dashes: list[list[tuple[float, float]]] = []
    current: list[tuple[float, float]] = [points[0]]
    drawing, left = True, on
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            point = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if drawing:
                current.append(point)
                dashes.append(current)
            else:
                current = [point]
            drawing, left = not drawing, on if not drawing else off
        left -= seg - pos
        if drawing:
            current.append((x1, y1))
    if drawing and len(current) > 1:
        dashes.append(current)
    return dashes


def _layer_of(shape: Shape) -> tuple[str, float, list[tuple[str, tuple[Any, ...]]]]:
    """A shape as the canvas paints it: its colour, its opacity and what covers it."""
    if isinstance(shape, Circle):
        return shape.fill, shape.opacity, [("circle", (shape.cx, shape.cy, shape.r))]
    if isinstance(shape, Text):
        return shape.color, 1.0, [("text", (shape.text, shape.x, shape.y, shape.size, shape.bold, shape.anchor))]
    if isinstance(shape, Polygon):
        return shape.fill, 1.0, [("polygon", (shape.points,))]
    pieces = _dashes(shape.points, *shape.dash) if shape.dash else [list(shape.points)]
    return shape.color, shape.opacity, [("stroke", (piece, shape.width)) for piece in pieces]


def _paint(canvas: _Canvas, mark: Mark) -> None:
    """A mark painted shape by shape, as the SVG draws it; a polygon's edge over its fill."""
    for shape in mark.shapes():
        color, opacity, covers = _layer_of(shape)
        area = shape.area() if isinstance(shape, Text) else reach(shape)
        canvas.layer(color, _grown(area), covers, opacity)
        if isinstance(shape, Polygon) and shape.edge:
            canvas.layer(shape.edge, _grown(reach(shape)), [("outline", (shape.points, shape.edge_width))])


def _grown(area: Area) -> Area:
    x0, y0, x1, y1 = area
    return (x0 - 2, y0 - 2, x1 + 2, y1 + 2)


@functools.lru_cache(maxsize=4)
def _track_rgb(track: tuple[P.SquareInfo, ...], size: int) -> Image.Image:
    """The track rasterised by resvg (once per board and size), without its alpha: it is opaque."""
    return P._LAYERS._static((track, size)).convert("RGB")


def _draw_turn(track: tuple[P.SquareInfo, ...], marks: TurnMarks, size: int, masks: _MaskCache | None) -> Image.Image:
    """The turn's marks painted over the track."""
    picture = _track_rgb(track, size).copy()
    canvas = _Canvas(picture, size / VW, masks)
    for mark in marks.all():
        _paint(canvas, mark)
    return picture


def board_png_raster(track: tuple[P.SquareInfo, ...], marks: TurnMarks, size: int) -> bytes:
    """`picture.board_png_layers`'s picture, the turn's marks painted with Pillow (see the module)."""
    picture = _draw_turn(track, marks, size, _MASKS)
    return palette_png(picture, colors=P.MAIL_COLORS, sample=P.MAIL_SAMPLE)
