"""The mail picture's turn layer drawn with Pillow (`raster.py`) is the picture the SVG describes:
compared with the same board sent whole through resvg, token by token and as a whole, and the
two-player badges are drawn on the tokens."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator, Sequence

import pytest
from PIL import Image, ImageChops, ImageStat

from pbem.games.hare_tortoise import layout, raster
from pbem.games.hare_tortoise import picture as P
from pbem.games.hare_tortoise.rules import find_ruleset

pytestmark = pytest.mark.skipif(not raster.available(["Ann"]), reason="DejaVu Sans is not installed")

SIZE = P.MAIL_WIDTH

POSITIONS = {
    "six runners, moves, a finisher": (
        "variable-pig",
        [P.RunnerMark(0, "Alice", 12), P.RunnerMark(1, "Bruno", 0), P.RunnerMark(2, "Chandra", 0),
         P.RunnerMark(3, "Dmitri", 64, 1), P.RunnerMark(4, "Elena", 33), P.RunnerMark(5, "Farid", 57)],
        [P.MoveMark(0, 5, 12, 1), P.MoveMark(3, 60, 64, 2), P.MoveMark(4, 40, 33, 3), P.MoveMark(5, 44, 57, 4)],
    ),
    "two-player badges on the 1978 board": (
        "parlett-classic",
        [P.RunnerMark(0, "Ann1", 12, None, "A1"), P.RunnerMark(0, "Ann2", 30, None, "A2"),
         P.RunnerMark(1, "Bob1", 0, None, "B1"), P.RunnerMark(1, "Bob2", 64, 1, "B2")],
        [P.MoveMark(0, 5, 12, 1), P.MoveMark(1, 40, 64, 2), P.MoveMark(0, 33, 30, 3)],
    ),
    "a stay, a hare's send-back and a move off START": (
        "variable-pig",
        [P.RunnerMark(0, "Alice", 17), P.RunnerMark(1, "Bruno", 16), P.RunnerMark(2, "Chandra", 2)],
        [P.MoveMark(0, 17, 17, 1), P.MoveMark(1, 16, 16, 2, via=25), P.MoveMark(2, 0, 2, 3)],
    ),
}


def _squares(ruleset: str) -> tuple[P.SquareInfo, ...]:
    board = find_ruleset(ruleset).board
    return tuple(P.SquareInfo(sq.kind.word, tuple(sorted(sq.numbers))) for sq in board.squares)


def _pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _mean(diff: Image.Image, box: tuple[int, int, int, int] | None = None) -> float:
    """The mean difference over the channels of `diff` (or of its area `box`), 0 to 255."""
    return sum(ImageStat.Stat(diff.crop(box) if box else diff).mean) / 3


def _strong(diff: Image.Image) -> float:
    """The share of pixels whose difference, as grey (a weighted mean of the channels), is over 21."""
    mask = diff.convert("L").point(lambda v: 255 if v > 21 else 0)
    return float(ImageStat.Stat(mask).mean[0] / 255)


def _draw(ruleset: str, runners: Sequence[P.RunnerMark], moves: Sequence[P.MoveMark]) -> bytes:
    return P.board_png_layers(_squares(ruleset), runners, moves=moves, title="duo — after turn 3",
                              subtitle="Resolved 24 Nov 2026 12:00 UTC", size=SIZE)


def _through_resvg(monkeypatch: pytest.MonkeyPatch, ruleset: str, runners: Sequence[P.RunnerMark],
                   moves: Sequence[P.MoveMark]) -> bytes:
    with monkeypatch.context() as patch:
        patch.setattr(raster, "available", lambda texts: False)
        return _draw(ruleset, runners, moves)


def _token_boxes(runners: Sequence[P.RunnerMark]) -> Iterator[tuple[str, tuple[int, int, int, int]]]:
    scale = SIZE / layout.VW
    for spot in layout.token_spots(runners):
        r = spot.r * scale
        cx, cy = spot.x * scale, spot.y * scale
        yield spot.runner.name, (int(cx - r), int(cy - r), int(cx + r) + 1, int(cy + r) + 1)


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_raster_picture_is_the_svg_picture(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    ruleset, runners, moves = POSITIONS[name]
    fast, whole = _pixels(_draw(ruleset, runners, moves)), _pixels(_through_resvg(monkeypatch, ruleset, runners, moves))
    assert fast.size == whole.size
    diff = ImageChops.difference(fast, whole)
    # the two anti-alias edges and pick palettes each their own way: a little everywhere, not more
    assert _mean(diff) < 2.0
    assert _strong(diff) < 0.02
    for runner, box in _token_boxes(runners):
        assert _mean(diff, box) < 15, runner  # a token missing or out of place differs by far more


def test_a_token_missing_from_the_raster_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above catches a token the raster leaves out."""
    ruleset, runners, moves = POSITIONS["six runners, moves, a finisher"]
    whole = _pixels(_through_resvg(monkeypatch, ruleset, runners, moves))
    paint = raster._paint
    monkeypatch.setattr(raster, "_paint",
                        lambda canvas, mark: None if mark.kind in ("runner", "finisher") else paint(canvas, mark))
    fast = _pixels(_draw(ruleset, runners, moves))
    worst = max(_mean(ImageChops.difference(fast, whole), box) for _, box in _token_boxes(runners))
    assert worst >= 15


def test_two_player_badges_are_drawn_on_the_tokens() -> None:
    ruleset, runners, moves = POSITIONS["two-player badges on the 1978 board"]
    drawn = _pixels(_draw(ruleset, runners, moves))
    for i, runner in enumerate(runners):
        swapped = [dataclasses.replace(r, badge="Z9") if j == i else r for j, r in enumerate(runners)]
        other = _pixels(_draw(ruleset, swapped, moves))
        box = dict(_token_boxes(runners))[runner.name]
        assert ImageChops.difference(drawn.crop(box), other.crop(box)).getbbox() is not None, runner.name


def test_the_same_turn_gives_the_same_bytes() -> None:
    for ruleset, runners, moves in POSITIONS.values():
        assert _draw(ruleset, runners, moves) == _draw(ruleset, runners, moves)


def test_cached_masks_give_the_pixels_drawn_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mask taken from the cache is the mask drawn anew: the same bytes cold, warm and uncached."""
    for ruleset, runners, moves in POSITIONS.values():
        monkeypatch.setattr(raster, "_MASKS", raster._MaskCache(raster.MASK_CACHE_PIXELS, raster.MASK_CACHE_LARGEST))
        cold = _draw(ruleset, runners, moves)
        assert raster._MASKS.masks, "the tokens' and labels' masks are kept"
        warm = _draw(ruleset, runners, moves)
        monkeypatch.setattr(raster, "_MASKS", raster._MaskCache(0, 0))
        uncached = _draw(ruleset, runners, moves)
        assert not raster._MASKS.masks
        assert cold == warm == uncached


def test_the_mask_cache_keeps_to_its_bounds() -> None:
    cache = raster._MaskCache(pixels=100, largest=50)
    for i in range(10):
        cache.put(i, Image.new("L", (6, 5)))
    assert cache.held <= 100 and list(cache.masks) == [7, 8, 9]  # the least recently used go first
    assert cache.get(7) is not None
    cache.put("big", Image.new("L", (10, 6)))  # larger than `largest`: not kept
    assert cache.get("big") is None and cache.get(0) is None
    cache.put(10, Image.new("L", (6, 5)))
    assert list(cache.masks) == [9, 7, 10]
