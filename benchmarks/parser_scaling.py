"""Order parser scaling: hostile lines of 10k to 1M characters, parsed in time linear in their length.

Each workload is timed at every size (best of three runs under half a second); the ratio is the time at the largest size
over the time at the smallest, so a linear parser shows about 100 and a quadratic one 10,000.
`sheet` rows go through `parse_sheet` with the default limits (a long line is rejected at once);
`line` rows go through `parse_order_line` with the line-length limit lifted, so the grammar and
the other limits face the whole line.

Usage: python benchmarks/parser_scaling.py [--sizes 10000,30000,100000,300000,1000000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import replace

from pbem.games.hare_tortoise.orders.parser import LIMITS, OrderLineError, parse_order_line, parse_sheet

PLAYERS = ("Ann", "Bob", "Cyd")
LONG_LINES = replace(LIMITS, line_length=10**9)


def _sheet(body: str) -> None:
    parse_sheet(body, PLAYERS)


def _line(body: str) -> None:
    try:
        parse_order_line(body, PLAYERS, LONG_LINES)
    except OrderLineError:
        pass


WORKLOADS: dict[str, tuple[Callable[[str], None], Callable[[int], str]]] = {
    "sheet  move + spaces + !": (_sheet, lambda n: "move" + " " * n + "!"),
    "sheet  game + spaces + x!": (_sheet, lambda n: "game" + " " * n + "x!"),
    "sheet  turn : spaces 7!": (_sheet, lambda n: "turn" + " " * (n // 2) + ":" + " " * (n // 2) + "7!"),
    "sheet  -- + spaces": (_sheet, lambda n: "--" + " " * n),
    "line   move + spaces + !": (_line, lambda n: "move" + " " * n + "!"),
    "line   NOT x n/4": (_line, lambda n: "move: if " + "not " * (n // 4) + "rank = 1 then next"),
    "line   ( x n/2 )": (_line, lambda n: "move: if " + "(" * (n // 2) + "rank = 1" + ")" * (n // 2) + " then next"),
    "line   OR x n/10": (_line, lambda n: "move: if " + " or ".join(["rank = 1"] * (n // 12)) + " then next"),
    "line   n digits": (_line, lambda n: "move: advance " + "9" * n),
    "line   ELSE x n/10": (_line, lambda n: "move: " + " else ".join(["next"] * (n // 10))),
}


def _time(parse: Callable[[str], None], body: str) -> float:
    """Best of three, or the one run when it takes over half a second."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        parse(body)
        best = min(best, time.perf_counter() - start)
        if best > 0.5:
            break
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,30000,100000,300000,1000000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'workload':28}" + "".join(f"{n:>11,}" for n in sizes) + "      ratio")
    worst = 0.0
    for name, (parse, build) in WORKLOADS.items():
        times = [_time(parse, build(n)) for n in sizes]
        ratio = times[-1] / times[0] if times[0] else float("inf")
        worst = max(worst, times[-1])
        print(f"{name:28}" + "".join(f"{t * 1000:>9.2f}ms" for t in times) + f"  {ratio:9.1f}")
    print(f"size ratio {sizes[-1] / sizes[0]:.0f}; slowest at {sizes[-1]:,} characters: {worst * 1000:.1f} ms")


if __name__ == "__main__":
    main()
