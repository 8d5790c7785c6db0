"""Goofspiel's parts of every mail, its console lines and its picture, from views only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from goofspiel.rules import Event, Kind
from goofspiel.view import View
from pbem.games.present import Letter, Part, Picture, Presenter, Reader
from pbem.render.png import svg_to_png
from pbem.render.svg import label, num

_DIR = "goofspiel"


@dataclass(frozen=True)
class SeatLine:
    name: str
    score: int
    hand: str
    bid: str  # the card bid this turn ("" in the welcome)


@dataclass(frozen=True)
class WelcomeContext:
    players: tuple[str, ...]
    prize: int | None
    hand: str  # "" for the GM


@dataclass(frozen=True)
class ReportContext:
    prize: int
    taken: str  # who took the prize, or that nobody did
    seats: tuple[SeatLine, ...]
    #: the reader's own sheet: where her bid came from, and the lines passed over
    mine: str
    passed: tuple[str, ...]
    next_prize: int | None
    prizes_left: str
    discarded: str
    over: bool
    result: str
    #: the GM's alone ("" and () for everyone else): the face-down prizes top first, every sheet's line
    deck: str = ""
    sheets: tuple[str, ...] = ()


def cards(values: Sequence[int]) -> str:
    return " ".join(map(str, values)) or "none"


def _result(view: View) -> str:
    if not view.over:
        return ""
    if len(view.winners) == 1:
        return f"{view.winners[0]} wins the game."
    return f"{' and '.join(view.winners)} share the win."


def _taken(view: View, prize: Event) -> str:
    if prize.winner is None:
        return f"Every bid was matched: the {prize.card} is discarded."
    return f"{view.seats[prize.winner].name} takes the {prize.card}."


def _mine(own: Event | None) -> str:
    """Where the reader's own bid came from ("" for a reader who made none, or may not see it)."""
    if own is None or not own.line:
        return ""
    if own.line.startswith("("):
        return f"You bid your lowest card {own.line}."
    return f"Your bid came from the line {own.line}."


class GoofspielPresenter(Presenter[View, Event]):
    def welcome(self, view: View, reader: Reader) -> Letter:
        hand = "" if view.reader is None else cards(view.seats[view.reader].hand)
        return Letter(Part(f"{_DIR}/welcome.txt.j2",
                           WelcomeContext(tuple(s.name for s in view.seats), view.prize, hand)))

    def report(self, view: View, resolutions: Sequence[Event], reader: Reader) -> Letter:
        bids = {e.seat: e for e in resolutions if e.kind is Kind.BID}
        prize = next(e for e in resolutions if e.kind is Kind.PRIZE)
        own = bids.get(view.reader)
        ctx = ReportContext(
            prize=prize.card, taken=_taken(view, prize),
            seats=tuple(SeatLine(s.name, s.score, cards(s.hand), str(bids[k].card) if k in bids else "")
                        for k, s in enumerate(view.seats)),
            mine=_mine(own), passed=own.passed if own is not None else (),
            next_prize=view.prize, prizes_left=cards(view.prizes_left), discarded=cards(view.discarded),
            over=view.over, result=_result(view),
            deck=cards(view.deck) if reader.viewer.is_gm and view.deck else "",
            sheets=tuple(f"{view.seats[k].name}: {e.line}" for k, e in sorted(bids.items())
                         if k is not None and reader.viewer.is_gm and e.line))
        return Letter(Part(f"{_DIR}/report.txt.j2", ctx))

    def order_lines(self, view: View, reader: Reader) -> list[str]:
        if view.over or view.prize is None or view.reader is None:
            return []
        hand = view.seats[view.reader].hand
        return [f"BID {view.prize if view.prize in hand else min(hand)}"]

    def picture(self, view: View, resolutions: Sequence[Event], *, title: str, subtitle: str) -> Picture:
        bids = {e.seat: e.card for e in resolutions if e.kind is Kind.BID}
        prize = next((e for e in resolutions if e.kind is Kind.PRIZE), None)
        height = 110 + 34 * len(view.seats)
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="420" height="{height}" '
                 f'viewBox="0 0 420 {height}">', f'<rect width="420" height="{height}" fill="#f7f3e8"/>',
                 label(title, 16, 28, 18, bold=True), label(subtitle, 16, 50, 13)]
        if prize is not None:
            parts.append(label(f"Prize {prize.card}: " + ("discarded" if prize.winner is None else
                                                          f"to {view.seats[prize.winner].name}"), 16, 80, 14))
        parts.append(label(f"Next prize: {view.prize}" if view.prize is not None else "Game over", 404, 80, 14,
                           anchor="end"))
        for k, s in enumerate(view.seats):
            y = 112 + 34 * k
            parts.append(label(s.name, 16, y, 14, bold=True))
            parts.append(label(f"{s.score} points", 150, y, 14))
            if k in bids:
                parts.append(f'<rect x="270" y="{num(y - 20)}" width="30" height="28" rx="4" fill="#fff" stroke="#333"/>')
                parts.append(label(str(bids[k]), 285, y, 14, anchor="middle"))
        parts.append("</svg>")
        svg = "".join(parts)
        alt = "; ".join(f"{s.name} {s.score} points" + (f", bid {bids[k]}" if k in bids else "")
                        for k, s in enumerate(view.seats))
        return Picture(svg, svg_to_png(svg), f"The scores: {alt}")

    def position_lines(self, view: View) -> list[str]:
        out = [f"turn {view.turn}; prize {view.prize if view.prize is not None else 'none (the game is over)'}; "
               f"face down {cards(view.prizes_left)}"]
        out += [f"{s.name:<10} {s.score:>3} points, holds {cards(s.hand)}" for s in view.seats]
        return out

    def resolution_lines(self, resolution: Event, *, private: bool) -> list[str]:
        if resolution.kind is Kind.PRIZE:
            return [f"the prize {resolution.card} goes to {resolution.name or 'nobody: every bid was matched'}"]
        out = [f"{resolution.name} bids {resolution.card}"]
        if private and resolution.line:
            out += [f"   (private) {resolution.line}", *(f"   (private) passed over: {p}" for p in resolution.passed)]
        return out
