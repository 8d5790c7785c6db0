"""The Decktet cards drawn as cards, both race courses and the open series, as a pure SVG function."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.games.badger_bunny.cards import SUITS, card
from pbem.render.svg import escape, label, num, rounded_rect_path

#: each suit's colour and one-letter mark (the Decktet's own colours, darkened to read on white)
SUIT_STYLE = {
    "MOONS": ("#4b5f8f", "Mo"), "SUNS": ("#c98a00", "Su"), "WAVES": ("#1f78b4", "Wa"),
    "LEAVES": ("#2e8b3d", "Le"), "WYRMS": ("#b03a2e", "Wy"), "KNOTS": ("#7a5230", "Kn"),
}
CARD_W, CARD_H, GAP = 46, 66, 6


def rank_mark(token: str) -> str:
    c = card(token)
    return {"ACE": "A", "PAWN": "P", "COURT": "Ct", "CROWN": "Cr", "EXCUSE": "Ex"}.get(c.rank.value, c.rank.value)


def card_svg(token: str, x: float, y: float) -> str:
    """One card: its rank in the corner, a stripe and a mark for each suit in the suit's colour."""
    c = card(token)
    out = [f'<path d="{rounded_rect_path(x, y, CARD_W, CARD_H, 5)}" fill="#fffdf6" stroke="#3b3226" '
           f'stroke-width="1.2"/>', label(rank_mark(token), x + 5, y + 16, 14, bold=True)]
    for i, suit in enumerate(sorted(c.suits, key=SUITS.index)):
        color, mark = SUIT_STYLE[suit]
        sy = y + 24 + i * 13
        out.append(f'<rect x="{num(x + 4)}" y="{num(sy)}" width="{CARD_W - 8}" height="11" rx="2" fill="{color}"/>')
        out.append(label(mark, x + CARD_W / 2, sy + 9, 9, anchor="middle", fill="#ffffff"))
    return "".join(out)


def race_svg(rows: Sequence[tuple[str, Sequence[str]]], *, title: str, subtitle: str, series: str,
             hand: tuple[str, Sequence[str]] | None = None) -> str:
    """The courses (a label and its cards, start card first) under a title, then the open series;
    long courses wrap. `hand` (a label and its cards) adds a reader's own hand below, on a band
    of its own, for her own picture only."""
    per_line = 12
    width = 130 + per_line * (CARD_W + GAP) + 10
    parts: list[str] = []
    y = 52.0

    def row(name: str, cards: Sequence[str]) -> None:
        nonlocal y
        parts.append(label(name, 10, y + CARD_H / 2 + 4, 13, bold=True))
        lines = max(1, (len(cards) + per_line - 1) // per_line)
        for i, token in enumerate(cards):
            parts.append(card_svg(token, 130 + (i % per_line) * (CARD_W + GAP), y + (i // per_line) * (CARD_H + GAP)))
        y += lines * (CARD_H + GAP) + 12

    for name, cards in rows:
        row(name, cards)
    parts.append(label(series, 10, y + 10, 12))
    y += 24
    if hand is not None:
        lines = max(1, (len(hand[1]) + per_line - 1) // per_line)
        parts.append(f'<rect x="4" y="{num(y)}" width="{num(width - 8)}" height="{num(lines * (CARD_H + GAP) + 14)}" '
                     f'rx="6" fill="#e6dcc3"/>')
        y += 8
        if hand[1]:
            row(hand[0], hand[1])
        else:
            parts.append(label(f"{hand[0]}: no cards", 10, y + CARD_H / 2 + 4, 13, bold=True))
            y += CARD_H + GAP + 12
    height = y
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(height)}" '
            f'viewBox="0 0 {num(width)} {num(height)}" role="img" aria-label="{escape(title)}">'
            f'<rect width="100%" height="100%" fill="#f4efe2"/>'
            f'{label(title, 10, 22, 16, bold=True)}{label(subtitle, 10, 40, 11)}')
    return head + "".join(parts) + "</svg>"
