"""The card race drawn: the 11 tiles with their streams, the pawns, the podium, the turbo tokens and
the cards on the table by animal. A pure function of public facts, the same for every reader."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.card_race.cards import ANIMALS, TILES, TURBO_TILES, counts, ordinal
from pbem.render.svg import escape, label, legible_ink, num

COLORS = ("#C77C2E", "#3F7F4A", "#5B5F73", "#D9541E", "#E8E2D0")  # hare, tortoise, wolf, fox, lamb
INITIAL = ("H", "T", "W", "F", "L")
WIDTH, HEIGHT = 760, 460
TILE = 54
#: each animal runs in its own lane across the tiles, so pawns never cover one another
LANE = 30
#: a pawn's radius and the size of its letter: 26 pixels across with a 14-pixel bold letter,
#: legible in a mail at the picture's own width (the smallest a pawn may be: `PAWN_FLOOR`)
PAWN_R, PAWN_FONT = 13, 14
PAWN_FLOOR = 12
TRACK_Y = 84  # the tiles' top; the turbo tokens sit in the strip above
TRACK_H = 5 * LANE + 14  # the lanes, and room under them for a stream's ripple


def _tile_x(pos: int) -> float:
    return 20 + pos * (TILE + 4)


def pawn_centre(animal: int, pos: int) -> tuple[float, float]:
    """Where an animal's pawn stands on tile `pos` (0 is the start): in the middle of its lane."""
    return _tile_x(pos) + TILE / 2, TRACK_Y + 3 + LANE / 2 + animal * LANE


def _pawn(animal: int, pos: int) -> str:
    cx, cy = pawn_centre(animal, pos)
    return (f'<g class="pawn" data-animal="{ANIMALS[animal]}" data-tile="{pos}">'
            f'<title>{escape(ANIMALS[animal])} on {pos}</title>'
            f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{PAWN_R}" fill="{COLORS[animal]}" stroke="#3b3226" '
            'stroke-width="1.5"/>'
            + label(INITIAL[animal], cx, cy + PAWN_FONT * 0.36, PAWN_FONT, anchor="middle", bold=True,
                    fill=legible_ink(COLORS[animal]), role="pawn-letter")
            + "</g>")


def _turbo(animal: int, cx: float, cy: float) -> str:
    """A turbo token in the colour of the animal it speeds, above its tile."""
    return (f'<circle cx="{num(cx)}" cy="{num(cy)}" r="11" fill="{COLORS[animal]}" stroke="#3b3226"/>'
            + label("+2", cx, cy + 4, 11, anchor="middle", bold=True, fill=legible_ink(COLORS[animal]),
                    role="turbo"))


def race_svg(*, streams: Sequence[int], turbo: Sequence[int], pawns: Sequence[int],
             podium: Sequence[tuple[int, int]], played: Sequence[str], title: str, subtitle: str) -> str:
    """The picture as SVG text (deterministic: the same facts give the same bytes)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#F6F0DC"/>',
           label(title, 20, 28, 18, bold=True), label(subtitle, 20, 48, 12, fill="#6b5e4a")]
    y, bottom = TRACK_Y, TRACK_Y + TRACK_H
    # start line, tiles, finish line
    out.append(f'<rect x="{num(_tile_x(0))}" y="{y}" width="{TILE}" height="{TRACK_H}" fill="#FFFFFF" '
               'stroke="#3b3226"/>')
    out.append(label("start", _tile_x(0) + TILE / 2, bottom + 14, 11, anchor="middle"))
    for pos in range(1, TILES + 1):
        x = _tile_x(pos)
        stream = pos in streams
        fill = "#9CC9E8" if stream else ("#CFE3A8" if pos % 2 else "#BFD998")
        out.append(f'<rect x="{num(x)}" y="{y}" width="{TILE}" height="{TRACK_H}" rx="6" fill="{fill}" '
                   'stroke="#3b3226"/>')
        if stream:
            out.append(f'<path d="M{num(x + 4)} {bottom - 5} q7 -6 14 0 t14 0 t14 0 t10 0" fill="none" '
                       'stroke="#2F6FA3" stroke-width="2"/>')
        out.append(label(str(pos), x + TILE / 2, bottom + 14, 11, anchor="middle"))
        if turbo and pos in TURBO_TILES:
            out.append(_turbo(turbo[TURBO_TILES.index(pos)], x + TILE / 2, y - 13))
    fx = _tile_x(TILES + 1)
    out.append(f'<rect x="{num(fx)}" y="{y}" width="10" height="{TRACK_H}" fill="#3b3226"/>')
    out.append(label("finish", fx + 5, bottom + 14, 11, anchor="middle"))
    # pawns, each in its animal's lane
    placed = {a for a, _ in podium}
    for animal in range(5):
        if animal in placed or pawns[animal] > TILES:
            continue
        out.append(_pawn(animal, pawns[animal]))
    # podium
    py = bottom + 50
    out.append(label("Podium", 20, py, 14, bold=True))
    for i, (animal, place) in enumerate(podium):
        x = 20 + i * 110
        h = {1: 50, 2: 38, 3: 28}.get(place, 20)
        out.append(f'<rect x="{x}" y="{py + 70 - h}" width="100" height="{h}" fill="#E6CF8B" stroke="#3b3226"/>')
        out.append(label(f"{ordinal(place)} {ANIMALS[animal]}", x + 50, py + 62, 12, anchor="middle", bold=True))
    if not podium:
        out.append(label("nobody has crossed yet", 20, py + 22, 12, fill="#6b5e4a"))
    # the cards played this mail turn, by animal
    tx = 380
    out.append(label("Cards played this turn", tx, py, 14, bold=True))
    n = counts(played)
    howls = sum(1 for c in played if c == "X")
    for animal in range(5):
        cy = py + 12 + animal * 26
        out.append(label(ANIMALS[animal], tx, cy + 16, 12))
        for k in range(n[animal]):
            is_howl = animal == 2 and k < howls
            out.append(f'<rect x="{tx + 80 + k * 22}" y="{cy}" width="18" height="24" rx="3" '
                       f'fill="{COLORS[animal]}" stroke="{"#B00020" if is_howl else "#3b3226"}" '
                       f'stroke-width="{2 if is_howl else 1}"/>')
    out.append("</svg>")
    return "\n".join(out)
