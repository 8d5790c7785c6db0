"""If Badger was a Bunny's parts of every mail, its console lines and its picture, from views only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.games.badger_bunny.cards import card
from pbem.games.badger_bunny.events import Event, Kind, LineKind, Refusal, Tried, Used, Why
from pbem.games.badger_bunny.picture import SUIT_STYLE, race_svg, rank_mark
from pbem.games.badger_bunny.view import View
from pbem.games.base import Parsed
from pbem.games.present import Letter, Part, Picture, Presenter, Reader
from pbem.orders import Outcome
from pbem.render.png import svg_to_png

_DIR = "badger-bunny"


@dataclass(frozen=True)
class EventView:
    number: int
    text: str
    details: tuple[str, ...]


@dataclass(frozen=True)
class SeatLine:
    name: str
    role: str
    hand_count: int
    deck_count: int
    total: int
    course: str
    cards: str  # the hand's cards where the reader may see them, else ""


@dataclass(frozen=True)
class SuitMark:
    mark: str
    color: str


@dataclass(frozen=True)
class CardFace:
    """A card as the HTML report draws it: its token, rank mark and suit stripes."""

    token: str
    rank: str
    suits: tuple[SuitMark, ...]


def card_faces(tokens: Sequence[str]) -> tuple[CardFace, ...]:
    out = []
    for t in tokens:
        c = card(t)
        out.append(CardFace(t, rank_mark(t), tuple(SuitMark(SUIT_STYLE[s][1], SUIT_STYLE[s][0]) for s in c.suits)))
    return tuple(out)


@dataclass(frozen=True)
class ReportContext:
    events: tuple[EventView, ...]
    seats: tuple[SeatLine, ...]
    tournament: bool
    race_title: str
    series: str
    hand: str
    over: bool
    outcome: str
    next: str
    hand_cards: tuple[CardFace, ...]  # the reader's own hand, drawn in the HTML report
    courses: tuple[tuple[str, tuple[CardFace, ...]], ...]


@dataclass(frozen=True)
class WelcomeContext:
    players: tuple[str, ...]
    deck_title: str
    format: str
    role: str
    hand: str
    starts: str


@dataclass(frozen=True)
class AckNotes:
    lines: int
    default: bool
    waiting: bool


@dataclass(frozen=True)
class ReminderNotes:
    waiting: bool


def _me(view: View, reader: Reader) -> int | None:
    return reader.seats[0] if reader.seats else None


_REFUSALS = {
    Why.MISSING: "{cards} not in your hand",
    Why.EXCUSE_ALONE: "the Excuse can only be played as a single",
    Why.NO_SET: "the cards form no set (neither one rank nor consecutive ranks)",
    Why.TORTOISE_TWO: "the tortoise plays at most 2 cards per set",
    Why.EXCUSE_LEAD: "the Excuse may only be played as a lead",
    Why.WRONG_KIND: "the open series is of {w0}s, not a {w1}",
    Why.TOO_LOW: "the final rank {w0} is lower than {w1}",
    Why.NO_CONNECTION: "{c0} does not connect to {c1}",
    Why.LOWEST_NOT_SINGLE: "PLAY LOWEST plays a single, and the open series is of {w0}s",
    Why.NO_SINGLE: "no single is legal",
}


def refusal_words(r: Refusal) -> str:
    """Why the rules refused a set, in words."""
    cards, words = (*r.cards, "", ""), (*r.words, "", "")
    return _REFUSALS[r.why].format(cards=", ".join(r.cards), c0=cards[0], c1=cards[1], w0=words[0], w1=words[1])


def tried_words(tried: Sequence[Tried | str]) -> list[str]:
    """What a turn tried, one line per alternative and a last line when nothing was taken (a
    turn stored before these were records keeps its words)."""
    out: list[str] = []
    for t in tried:
        if isinstance(t, str):
            out.append(t)
        elif t.outcome is Outcome.CONDITION_FALSE:
            out.append(f"{t.action}: skipped, the condition is false")
        elif t.outcome is Outcome.NOT_ALLOWED and t.reason is not None:
            out.append(f"{t.action}: skipped, {refusal_words(t.reason)}")
        else:
            out.append(f"{t.action}: made")
    records = [t for t in tried if not isinstance(t, str)]
    if records and all(t.outcome is not Outcome.TAKEN for t in records):
        out.append("nothing true and legal: PASS")
    return out


def used_words(used: Used) -> str:
    """Which line a turn used, in words."""
    if used.kind is LineKind.TURN_LINE:
        return f"turn line {used.index} (line {used.line})"
    if used.kind is LineKind.REJECTED:
        return f"turn line {used.index} (line {used.line}, rejected: PASS)"
    return {LineKind.DEFAULT: "DEFAULT", LineKind.NO_LINE: "no line: PASS",
            LineKind.FORCED: "forced pass: no legal set (no line used)"}[used.kind]


def event_details(e: Event) -> tuple[str, ...]:
    """The private lines of an event (present only when the reader may see them)."""
    out: list[str] = []
    if e.kind is Kind.SETUP and e.drawn:
        out.append(f"hand: {' '.join(e.drawn)}")
    if e.kind is Kind.DRAW and e.drawn:
        out.append(f"drawn: {' '.join(e.drawn)}")
    if e.forced:
        out.append("a forced pass: no legal set")
    line = e.line if e.used is None else used_words(e.used)
    if line and not e.forced:
        out.append(f"used: {line}")
    out += [f"tried {t}" for t in tried_words(e.tried)]
    out += list(e.notes)
    if e.kind is Kind.END:
        out += list(e.cards)
    return tuple(out)


def _outcome(view: View) -> str:
    names = [s.name for s in view.seats]
    if view.winner is None:
        line = f"Race {view.race} is a draw."
    else:
        line = f"Race {view.race}: {names[view.winner]} wins and scores {view.seats[view.winner].score}."
    if view.tournament:
        line += f" Totals: {names[0]} {view.seats[0].total}, {names[1]} {view.seats[1].total}."
        if view.champion is not None:
            line += f" {names[view.champion]} is the champion badger."
    return line


def _next(view: View) -> str:
    name = view.seats[view.act].name
    drawn = " (her draw for this turn is made)" if view.drawn else ""
    return f"mail turn {view.turn}: {name}'s turn{drawn}; the run starts when {name}'s sheet arrives"


def _picture(view: View, hand: tuple[str, ...] | None, *, title: str, subtitle: str) -> Picture:
    """Both courses and the open series, and `hand` (the reader's own, in her own picture only)."""
    rows = [(f"{s.name} ({s.role})", s.course) for s in view.seats]
    series = f"Open series: {view.series}" if view.series else "No series open"
    mine = None if hand is None else (f"Your hand ({len(hand)})", hand)
    svg = race_svg(rows, title=title, subtitle=subtitle, series=series, hand=mine)
    alt = "; ".join(f"{s.name}'s course: {' '.join(s.course)}" for s in view.seats) + f". {series}."
    if hand is not None:
        alt += f" Your hand: {' '.join(hand) or 'no cards'}."
    return Picture(svg, svg_to_png(svg), alt)


class BadgerPresenter(Presenter[View, Event]):
    def welcome(self, view: View, reader: Reader) -> Letter:
        me = _me(view, reader)
        hand = view.seats[me].hand if me is not None else None
        ctx = WelcomeContext(
            players=tuple(s.name for s in view.seats),
            deck_title=("extended deck" if view.extended else "basic deck") + (", with the Excuse" if view.excuse else ""),
            format="A tournament of four races, roles alternating." if view.tournament else "A single race.",
            role=f"You are the {view.seats[me].role} in race {view.race}" if me is not None else "You are the GM",
            hand=" ".join(hand) if hand else "",
            starts=", ".join(f"{s.name} {s.course[0]}" for s in view.seats),
        )
        return Letter(Part(f"{_DIR}/welcome.txt.j2", ctx))

    def acknowledgement(self, view: View, reader: Reader, parsed: Parsed[Any]) -> Part:
        orders = parsed.orders
        return Part(f"{_DIR}/ack.txt.j2", AckNotes(len(orders.turns), orders.default is not None,
                                                   view.act in reader.seats and not view.over))

    def report(self, view: View, resolutions: Sequence[Event], reader: Reader) -> Letter:
        me = _me(view, reader)
        hand = view.seats[me].hand if me is not None else None
        # a sheet's notes are private: the reader of another's redacted sheet event sees no trace of it
        shown = [e for e in resolutions if e.kind is not Kind.SHEET or e.notes]
        events = tuple(EventView(i, e.text or f"{e.name}'s sheet", event_details(e))
                       for i, e in enumerate(shown, start=1))
        ctx = ReportContext(
            events=events,
            seats=tuple(SeatLine(s.name, s.role, s.hand_count, s.deck_count, s.total, " ".join(s.course),
                                 " ".join(s.hand) if s.hand else "") for s in view.seats),
            tournament=view.tournament,
            race_title=f"race {view.race}",
            series=view.series or "none (the player to act leads)",
            hand=" ".join(hand) if hand else ("(empty)" if hand is not None and not view.race_over else ""),
            over=view.race_over,
            outcome=_outcome(view) if view.race_over else "",
            next=_next(view),
            hand_cards=card_faces(hand or ()),
            courses=tuple((f"{s.name} ({s.role})", card_faces(s.course)) for s in view.seats),
        )
        return Letter(Part(f"{_DIR}/report.txt.j2", ctx), Part(f"{_DIR}/report.html.j2", ctx))

    def reminder(self, view: View, reader: Reader) -> Part:
        return Part(f"{_DIR}/reminder.txt.j2", ReminderNotes(view.act in reader.seats))

    def order_lines(self, view: View, reader: Reader) -> list[str]:
        if view.over:
            return []
        return ["DEFAULT: PLAY LOWEST ELSE PASS"]

    #: each player's picture shows her own hand too (the GM's copy and the archive show none)
    private_pictures = True

    def picture(self, view: View, resolutions: Sequence[Event], *, title: str, subtitle: str) -> Picture:
        return _picture(view, None, title=title, subtitle=subtitle)

    def reader_picture(self, view: View, resolutions: Sequence[Event], reader: Reader, *, title: str,
                       subtitle: str) -> Picture:
        me = _me(view, reader)
        hand = view.seats[me].hand if me is not None else None
        return _picture(view, hand, title=title, subtitle=subtitle)

    def position_lines(self, view: View) -> list[str]:
        out = [f"race {view.race}, mail turn {view.turn}"]
        for s in view.seats:
            hand = " ".join(s.hand) if s.hand is not None else "?"
            out.append(f"{s.name:<10} {s.role:<8} hand {s.hand_count} [{hand}] deck {s.deck_count} "
                       f"total {s.total} course {' '.join(s.course)}")
        out.append(f"series: {view.series or 'none'}; last: {view.last}; to act: {view.seats[view.act].name}"
                   + (" (drawn)" if view.drawn else ""))
        if view.race_over:
            out.append(_outcome(view))
        return out

    def resolution_lines(self, resolution: Event, *, private: bool) -> list[str]:
        lines = [resolution.text or f"{resolution.name}'s sheet"]
        if private:
            lines += [f"  {d}" for d in event_details(resolution)]
        return lines

    def summary(self, view: View) -> dict[str, Any]:
        return {
            "turn": view.turn, "race": view.race, "over": view.over, "race_over": view.race_over,
            "series": view.series or None, "act": view.seats[view.act].name, "champion":
                None if view.champion is None else view.seats[view.champion].name,
            "seats": [{"name": s.name, "role": s.role, "hand": list(s.hand) if s.hand is not None else None,
                       "hand_count": s.hand_count, "deck_count": s.deck_count, "course": list(s.course),
                       "total": s.total} for s in view.seats],
        }
