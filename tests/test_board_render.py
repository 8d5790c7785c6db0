"""The board picture: what the SVG says, square by square and runner by runner, and its PNG."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import pytest

from pbem.games.hare_tortoise.board import GIBSONS_1987
from pbem.games.hare_tortoise.picture import (
    SEAT_COLORS,
    BoardRenderError,
    MoveMark,
    RunnerMark,
    SquareInfo,
    board_png,
    board_svg,
)

SVG = "{http://www.w3.org/2000/svg}"

# The Gibsons 1987 track, as the reports hand it to the renderer.
BOARD = tuple(SquareInfo(sq.kind.word, tuple(sorted(sq.numbers))) for sq in GIBSONS_1987.squares)
RUNNERS = (
    RunnerMark(0, "Alice", 64, place=1),
    RunnerMark(1, '<Bob & "Al">', 42),
    RunnerMark(2, "Chandrasekhar Subrahmanyan", 30),
    RunnerMark(3, "Dora", 0),
    RunnerMark(4, "Eve", 12),
    RunnerMark(5, "Fred", 57),
)
MOVES = (
    MoveMark(1, 35, 42, 1),
    MoveMark(2, 33, 30, 2),
    MoveMark(4, 0, 12, 3),
    MoveMark(5, 51, 57, 4),
    MoveMark(0, 59, 64, 5),
    MoveMark(1, 42, 42, 6),
)


def render(
    runners: Sequence[RunnerMark] = RUNNERS, moves: Sequence[MoveMark] = MOVES
) -> ET.Element:
    return ET.fromstring(board_svg(BOARD, runners, moves=moves, title="Game 17 \u00b7 Turn 12"))


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def box(group: ET.Element) -> tuple[float, float, float, float]:
    rect = group.find(f"{SVG}rect")
    assert rect is not None
    x, y, w, h = (float(rect.get(k, "")) for k in ("x", "y", "width", "height"))
    return x, y, w, h


def said(root: ET.Element, role: str) -> list[str]:
    """What the labels of a kind say: outlined labels carry their text in `aria-label`."""
    return [
        el.text or "" if el.tag == f"{SVG}text" else el.get("aria-label", "")
        for el in root.iter()
        if el.get("class") == role
    ]


def centre(token: ET.Element) -> tuple[float, float]:
    # The last circle of a token is the disc in the seat colour (shadow and ring come first).
    disc = token.findall(f".//{SVG}circle")[-1]
    return float(disc.get("cx", "")), float(disc.get("cy", ""))


def inside(point: tuple[float, float], area: tuple[float, float, float, float]) -> bool:
    x, y, w, h = area
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def test_the_helper_board_is_the_one_in_rules_md() -> None:
    def of(kind: str) -> list[int]:
        return [i for i, sq in enumerate(BOARD) if sq.kind == kind]

    assert len(BOARD) == 65
    assert of("lettuce") == [10, 22, 42, 57]
    assert of("tortoise") == [11, 15, 19, 24, 30, 37, 43, 50, 56]
    assert of("hare") == [1, 3, 6, 14, 25, 31, 34, 39, 46, 51, 58, 62]
    assert [i for i, sq in enumerate(BOARD) if sq.numbers == (1, 5, 6)] == [7, 16, 32, 48, 60]


def test_every_position_has_one_group_with_its_kind() -> None:
    squares = groups(render(), "square")
    assert [int(g.get("data-square", "")) for g in squares] == list(range(65))
    assert [g.get("data-kind") for g in squares] == [sq.kind for sq in BOARD]
    numbers = {int(g.get("data-square", "")): g.get("data-numbers") for g in squares}
    assert numbers[4] == "3" and numbers[8] == "2" and numbers[9] == "4"
    assert numbers[7] == "1\u00b75\u00b76" and numbers[10] is None


def test_the_track_winds_as_a_serpentine_and_start_and_home_are_bigger() -> None:
    where = {int(g.get("data-square", "")): box(g) for g in groups(render(), "square")}
    assert where[1][1] == where[9][1] and where[1][0] < where[9][0]  # first row left to right
    assert where[10][1] > where[9][1] and where[10][0] == where[9][0]  # turns down
    assert where[18][0] < where[10][0]  # second row right to left
    assert all(where[sq][2] == where[1][2] for sq in range(1, 64))
    for big in (0, 64):
        assert where[big][2] > 2 * where[1][2] and where[big][3] > 2 * where[1][3]


def test_each_runner_is_a_token_in_its_seat_colour_on_its_square() -> None:
    root = render()
    where = {int(g.get("data-square", "")): box(g) for g in groups(root, "square")}
    tokens = groups(groups(root, "runners")[0], "runner")
    assert [int(t.get("data-seat", "")) for t in tokens] == [3, 1, 2, 4, 5, 0]
    for token in tokens:
        seat, square = int(token.get("data-seat", "")), int(token.get("data-square", ""))
        runner = next(r for r in RUNNERS if r.seat == seat)
        assert square == runner.square
        disc = token.findall(f".//{SVG}circle")[-1]
        assert disc.get("fill") == SEAT_COLORS[seat]
        assert said(token, "initials") == [runner.name[:2]]
        assert inside(centre(token), where[square])


def test_six_seat_colours_are_distinct() -> None:
    assert len(set(SEAT_COLORS)) == 6


def test_all_runners_on_start_fit_in_the_start_area() -> None:
    runners = [RunnerMark(seat, f"Player {seat}", 0) for seat in range(6)]
    root = render(runners=runners, moves=())
    start = box(groups(root, "square")[0])
    tokens = groups(root, "runner")
    assert len(tokens) == 6  # the players' legend draws bare tokens, not runner groups
    assert all(inside(centre(t), start) for t in tokens)
    assert len({centre(t) for t in tokens}) == 6


def test_names_are_escaped() -> None:
    svg = board_svg(BOARD, RUNNERS, title='Game <1> & "x"', subtitle="a < b")
    assert "<Bob" not in svg and '& "Al"' not in svg
    assert "&lt;Bob &amp; &quot;Al&quot;&gt;" in svg
    root = ET.fromstring(svg)
    bob = next(t for t in groups(root, "runner") if t.get("data-seat") == "1")
    title = bob.find(f"{SVG}title")
    assert title is not None and title.text == '<Bob & "Al">'
    assert said(bob, "initials") == ["<B"]
    assert said(root, "name")[1] == "<Bob &\u2026"  # cut to fit the legend
    assert said(root, "title") == ['Game <1> & "x"']
    assert said(root, "subtitle") == ["a < b"]


def test_characters_xml_forbids_are_dropped() -> None:
    runners = [RunnerMark(0, "Ze\x00ro\x1b", 5), RunnerMark(1, "\u674e\u96f7", 6)]
    root = ET.fromstring(board_svg(BOARD, runners))
    assert said(root, "name") == ["Zero", "\u674e\u96f7"]
    # a script the outline table lacks stays real text, for resvg to find a font for
    assert {t.text for t in root.iter(f"{SVG}text")} == {"\u674e\u96f7"}


def test_long_names_are_cut_with_an_ellipsis() -> None:
    root = render()
    chandra = said(root, "name")[2]
    assert chandra.startswith("Chand") and chandra.endswith("\u2026") and len(chandra) < 15


def test_one_arrow_per_move_in_the_movers_colour_numbered_by_slot() -> None:
    arrows = groups(render(), "move")
    assert [int(a.get("data-slot", "")) for a in arrows] == [1, 2, 3, 4, 5, 6]
    for arrow, move in zip(arrows, MOVES, strict=True):
        assert int(arrow.get("data-seat", "")) == move.seat
        assert int(arrow.get("data-from", "")) == move.from_square
        assert int(arrow.get("data-to", "")) == move.to_square
        line = arrow.findall(f"{SVG}path")[1]
        assert line.get("stroke") == SEAT_COLORS[move.seat]
    # going back (to a tortoise) is dashed, going forward is not
    assert arrows[1].findall(f"{SVG}path")[1].get("stroke-dasharray")
    assert not arrows[0].findall(f"{SVG}path")[1].get("stroke-dasharray")


def test_no_moves_no_arrows() -> None:
    assert groups(render(moves=()), "move") == []


def test_home_lists_finishers_in_order_of_place() -> None:
    runners = [
        RunnerMark(0, "Ann", 64, place=3),
        RunnerMark(1, "Ben", 64, place=1),
        RunnerMark(2, "Cat", 40),
        RunnerMark(3, "Dan", 64, place=2),
    ]
    root = render(runners=runners, moves=())
    finishers = groups(root, "finisher")
    assert [f.get("data-place") for f in finishers] == ["1", "2", "3"]
    assert [f.get("data-seat") for f in finishers] == ["1", "3", "0"]
    home = box(groups(root, "square")[64])
    tops = [centre(groups(f, "runner")[0]) for f in finishers]
    assert all(inside(point, home) for point in tops)
    assert tops == sorted(tops, key=lambda p: p[1])
    assert [said(f, "name") for f in finishers] == [["Ben"], ["Dan"], ["Ann"]]


def test_legend_lists_every_player() -> None:
    players = groups(render(), "player")
    assert [p.get("data-seat") for p in players] == ["0", "1", "2", "3", "4", "5"]


def test_same_input_gives_the_same_bytes() -> None:
    first = board_svg(BOARD, RUNNERS, moves=MOVES, title="T", subtitle="S")
    again = board_svg(list(BOARD), list(reversed(RUNNERS)), moves=MOVES, title="T", subtitle="S")
    assert first == again


def test_size_sets_the_pixel_size_only() -> None:
    small = ET.fromstring(board_svg(BOARD, RUNNERS, size=600))
    big = ET.fromstring(board_svg(BOARD, RUNNERS, size=1200))
    assert (small.get("width"), small.get("height")) == ("600", "350")
    assert (big.get("width"), big.get("height")) == ("1200", "700")
    assert small.get("viewBox") == big.get("viewBox")


def test_png_is_a_png_of_the_svg_size() -> None:
    png = board_png(board_svg(BOARD, RUNNERS, moves=MOVES, title="T", size=600))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == (600, 350)


@pytest.mark.parametrize(
    ("squares", "runners", "moves", "message"),
    [
        (BOARD[:64], RUNNERS, (), "65 positions"),
        ((SquareInfo("carrot"), *BOARD[1:]), RUNNERS, (), "must be 'start'"),
        ((*BOARD[:5], SquareInfo("lava"), *BOARD[6:]), RUNNERS, (), "'lava'"),
        ((*BOARD[:4], SquareInfo("number"), *BOARD[5:]), RUNNERS, (), "needs its numbers"),
        (BOARD, [RunnerMark(6, "Gus", 3)], (), "seats are 0 to 5"),
        (BOARD, [RunnerMark(0, "Al", 3), RunnerMark(0, "Bo", 4)], (), "two runners"),
        (BOARD, [RunnerMark(0, "Al", 65)], (), "squares are 0 to 64"),
        (BOARD, RUNNERS, [MoveMark(0, 3, 70, 1)], "squares are 0 to 64"),
    ],
)
def test_what_cannot_be_drawn_is_refused(
    squares: tuple[SquareInfo, ...],
    runners: list[RunnerMark],
    moves: list[MoveMark],
    message: str,
) -> None:
    with pytest.raises(BoardRenderError, match=message):
        board_svg(squares, runners, moves=moves)
