"""Board picture benchmark: ms to build a turn's SVG and to rasterise it to PNG.

Each game is a seeded mid-race position: six runners, a finisher or two, seven moves. Every
player of a game gets the same picture, so a batch of reports needs one PNG per game, not
one per report; the projection at the end counts it that way.

Usage: python benchmarks/board_render.py [--games N] [--size PX] [--processes P] [--cairosvg]
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from pbem.games.hare_tortoise.board import GIBSONS_1987
from pbem.games.hare_tortoise.picture import (
    MAIL_COLORS,
    MAIL_WIDTH,
    MoveMark,
    RunnerMark,
    SquareInfo,
    board_png,
    board_png_layers,
    board_svg,
    track_svg,
)

SQUARES = tuple(SquareInfo(sq.kind.word, tuple(sorted(sq.numbers))) for sq in GIBSONS_1987.squares)
NAMES = ("Annabel", "Bob", "Cyd Charisse", "Dot", "Eve", "Fay")


def position(seed: int) -> tuple[list[RunnerMark], list[MoveMark]]:
    rng = random.Random(seed)
    finished = rng.randint(0, 2)
    squares = rng.sample(range(1, 64), 6 - finished)
    runners = [RunnerMark(seat, NAMES[seat], 64, place=seat + 1) for seat in range(finished)]
    runners += [RunnerMark(finished + i, NAMES[finished + i], sq) for i, sq in enumerate(squares)]
    moves = [
        MoveMark(r.seat, max(0, r.square - rng.randint(1, 9)), r.square, slot)
        for slot, r in enumerate(runners, start=1)
    ]
    moves.append(MoveMark(runners[-1].seat, runners[-1].square, runners[-1].square, 7))
    return runners, moves


def svg_for(seed: int, size: int) -> str:
    runners, moves = position(seed)
    return board_svg(
        SQUARES,
        runners,
        moves=moves,
        title=f"Game {seed} \u00b7 Turn 12",
        subtitle="Variable Pig rules \u00b7 orders due Friday 18:00 UTC",
        size=size,
    )


def png_for(svg: str) -> int:
    return len(board_png(svg))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=0, help="also time a process pool")
    parser.add_argument("--cairosvg", action="store_true", help="also time cairosvg")
    args = parser.parse_args()
    games = range(args.games)

    board_png(svg_for(-1, args.size))  # warm up: fonts, glyph and track caches
    # CPU time as well as wall time: on a shared machine the wall clock also counts neighbours.
    start, cpu = time.perf_counter(), time.process_time()
    svgs = [svg_for(seed, args.size) for seed in games]
    svg_ms = (time.perf_counter() - start) * 1000 / args.games
    svg_cpu = (time.process_time() - cpu) * 1000 / args.games

    start, cpu = time.perf_counter(), time.process_time()
    sizes = [png_for(svg) for svg in svgs]
    png_ms = (time.perf_counter() - start) * 1000 / args.games
    png_cpu = (time.process_time() - cpu) * 1000 / args.games

    height = round(args.size * 7 / 12)
    print(f"track fragment: {track_svg.cache_info().currsize} cached")
    print(
        f"svg build: {svg_ms:.2f} ms per board ({svg_cpu:.2f} ms CPU), "
        f"{len(svgs[0]) // 1024} KB of SVG"
    )
    print(
        f"png (resvg {render_version()}, {args.size}x{height}): {png_ms:.1f} ms per board "
        f"({png_cpu:.1f} ms CPU), {sum(sizes) // len(sizes) // 1024} KB"
    )
    print(
        f"6,000 reports for 1,000 games = 1,000 PNGs + 1,000 SVGs: "
        f"{(png_ms + svg_ms):.0f} s on one core ({(png_cpu + svg_cpu):.0f} s CPU)"
    )
    mail_picture(args.games)
    if args.processes:
        board_png.cache_clear()
        start = time.perf_counter()
        with ProcessPoolExecutor(args.processes) as pool:
            list(pool.map(png_for, svgs, chunksize=4))
        pool_ms = (time.perf_counter() - start) * 1000 / args.games
        print(
            f"png with {args.processes} processes: {pool_ms:.1f} ms per board "
            f"(1,000 games: {pool_ms:.0f} s)"
        )
    if args.cairosvg:
        import cairosvg  # type: ignore[import-untyped,import-not-found,unused-ignore]

        cairosvg.svg2png(bytestring=svgs[0].encode())
        start = time.perf_counter()
        for svg in svgs:
            cairosvg.svg2png(bytestring=svg.encode())
        print(
            f"png (cairosvg): {(time.perf_counter() - start) * 1000 / args.games:.1f} ms per board"
        )


def mail_picture(games: int) -> None:
    """The picture as a report mail carries it: the cached track, the turn's layer as tiles."""
    boards = [position(seed) for seed in range(games)]
    runners, moves = position(-1)
    board_png_layers(SQUARES, runners, moves=moves)  # warm up: the track layer
    start, cpu = time.perf_counter(), time.process_time()
    sizes = [
        len(board_png_layers(SQUARES, runners, moves=moves, title=f"Game {n} \u00b7 Turn 12",
                             subtitle="Variable Pig rules \u00b7 orders due Friday 18:00 UTC"))
        for n, (runners, moves) in enumerate(boards)
    ]
    print(
        f"mail picture ({MAIL_WIDTH} px, {MAIL_COLORS} colours, layered): "
        f"{(time.perf_counter() - start) * 1000 / games:.1f} ms per board "
        f"({(time.process_time() - cpu) * 1000 / games:.1f} ms CPU), {sum(sizes) // len(sizes) // 1024} KB"
    )


def render_version() -> str:
    import resvg_py

    return str(resvg_py.__resvg_version__)


if __name__ == "__main__":
    main()
