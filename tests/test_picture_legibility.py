"""Pictures read at mail size: the card race's pawns are big enough and their letters contrast with
their fills by WCAG's 4.5:1, for every animal, on every tile; so do the letters and numbers on the
Hare & Tortoise board's seat colours."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from pbem.games.card_race.cards import ANIMALS, TILES
from pbem.games.card_race.picture import COLORS, PAWN_FLOOR, race_svg
from pbem.games.hare_tortoise.marks import Circle, Mark, Text, turn_marks
from pbem.games.hare_tortoise.picture import SEAT_COLORS, MoveMark, RunnerMark
from pbem.render.svg import contrast, legible_ink

SVG = "{http://www.w3.org/2000/svg}"


def _race(pawns: tuple[int, ...]) -> ET.Element:
    return ET.fromstring(race_svg(streams=(3, 7), turbo=(0, 1, 2, 3, 4), pawns=pawns, podium=(),
                                  played=("H", "T"), title="Race", subtitle="turn 2"))


def test_contrast_is_wcag_relative_luminance() -> None:
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#123456", "#123456") == pytest.approx(1.0)


@pytest.mark.parametrize("color", COLORS)
def test_every_pawn_colour_takes_an_ink_of_at_least_4_5_to_1(color: str) -> None:
    assert contrast(legible_ink(color), color) >= 4.5


@pytest.mark.parametrize("tile", [0, 1, TILES // 2, TILES])
def test_every_pawn_is_big_enough_and_its_letter_legible(tile: int) -> None:
    root = _race((tile,) * len(ANIMALS))
    pawns = [g for g in root.iter(f"{SVG}g") if g.get("class") == "pawn"]
    assert [p.get("data-animal") for p in pawns] == list(ANIMALS)
    centres = []
    for pawn in pawns:
        disc = pawn.find(f"{SVG}circle")
        letter = next(el for el in pawn if el.get("class") == "pawn-letter")
        assert disc is not None and float(disc.get("r", "0")) >= PAWN_FLOOR
        assert contrast(letter.get("fill", ""), disc.get("fill", "")) >= 4.5
        centres.append((float(disc.get("cx", "0")), float(disc.get("cy", "0")), float(disc.get("r", "0"))))
    # five animals on one tile: no pawn covers another
    for i, (x0, y0, r0) in enumerate(centres):
        for x1, y1, r1 in centres[i + 1:]:
            assert (x0 - x1) ** 2 + (y0 - y1) ** 2 >= (r0 + r1) ** 2


def test_every_seat_colour_reads_on_the_board_at_4_5_to_1() -> None:
    """The initials on each Hare & Tortoise token and the number of each move's arrow, at mail size
    small text, contrast with the seat's colour by 4.5:1 at least."""
    runners = [RunnerMark(seat, f"Player {seat}", seat + 1) for seat in range(len(SEAT_COLORS))]
    moves = [MoveMark(seat, seat + 10, seat + 1, seat + 1) for seat in range(len(SEAT_COLORS))]
    marks = turn_marks(runners, moves, "title", "", [() for _ in range(65)])
    for mark in (*marks.runners, *marks.numbers, *(m for m in marks.players.parts if isinstance(m, Mark))):
        discs = [s for s in mark.shapes() if isinstance(s, Circle) and s.fill in SEAT_COLORS]
        texts = [s for s in mark.shapes() if isinstance(s, Text) and s.role in ("initials", "slot")]
        assert len(discs) == 1 and len(texts) == 1, mark
        assert contrast(texts[0].color, discs[0].fill) >= 4.5, (mark.kind, discs[0].fill)
