"""The card race's parts of every mail, its console lines and its picture, from views only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.games.base import Parsed
from pbem.games.card_race.cards import (
    ANIMALS,
    APPRENTICE,
    CHAMPIONSHIP,
    HOWL,
    TURBO_TILES,
    animal_of,
    describe,
    ordinal,
    sort_cards,
)
from pbem.games.card_race.engine import MAX_ANIMAL, MAX_TABLE
from pbem.games.card_race.picture import COLORS, race_svg
from pbem.games.card_race.resolution import Event, Kind, LineUsed, NotAllowed, Refusal, Source, Tried
from pbem.games.card_race.view import View
from pbem.games.present import Letter, Part, Picture, Presenter, Reader
from pbem.orders import Outcome
from pbem.render.png import svg_to_png
from pbem.render.svg import ink_on

_DIR = "card-race"

MOVEMENT = (
    "cards:     0   1   2   3   4",
    "hare       0   2   2   2   2 (0 if it naps in front)",
    "tortoise   1   1   1   1   2",
    "wolf       0   1   1   2   3 (a howl card: only the wolf moves)",
    "fox        0   1   2   3   4",
    "lamb       0   2   3   4   5 (stops on entering a stream)",
)
APPRENTICE_MOVEMENT = ("each animal with cards on the table moves one step per card;",
                       "one that ends on its own turbo token moves 2 more")


@dataclass(frozen=True)
class CardView:
    """One card as the HTML part draws it."""

    letter: str
    name: str
    color: str
    ink: str


def card_views(cards: Sequence[str]) -> tuple[CardView, ...]:
    out = []
    for c in sort_cards(cards):
        animal = animal_of(c)
        name = "howl wolf" if c == HOWL else ANIMALS[animal]
        out.append(CardView("X" if c == HOWL else c, name, COLORS[animal], ink_on(COLORS[animal])))
    return tuple(out)


@dataclass(frozen=True)
class EventView:
    headline: str
    details: tuple[str, ...]
    mine: tuple[str, ...]


@dataclass(frozen=True)
class SeatLine:
    name: str
    cards: int
    bets: int
    total: int
    hand: str  # "" when hidden from the reader (the GM sees every hand)
    bet_cards: str


@dataclass(frozen=True)
class ReportContext:
    events: tuple[EventView, ...]
    race_title: str
    track: str
    pawns: tuple[str, ...]
    podium: str
    discard: str
    deck: int
    seats: tuple[SeatLine, ...]
    championship: bool
    my_hand: str
    my_bets: str
    my_hand_cards: tuple[CardView, ...]
    my_bet_cards: tuple[CardView, ...]
    over: bool
    result: str
    next_turn: int
    first: str
    betting: bool
    apprentice: bool
    movement: tuple[str, ...]


@dataclass(frozen=True)
class WelcomeContext:
    players: tuple[str, ...]
    rules_title: str
    mode: str
    track: str
    first: str
    my_hand: str
    my_bets: str
    my_hand_cards: tuple[CardView, ...]
    my_bet_cards: tuple[CardView, ...]
    apprentice: bool
    movement: tuple[str, ...]


@dataclass(frozen=True)
class AckNotes:
    plays: int
    apprentice: bool


@dataclass(frozen=True)
class ReminderNotes:
    betting: bool


def refusal_words(why: NotAllowed) -> str:
    """Why a play was not allowed, in words."""
    if why.refusal is Refusal.SHORT:
        return f"only {why.count} {why.what} card{'' if why.count == 1 else 's'} in hand, {why.need} needed"
    if why.refusal is Refusal.TABLE_FULL:
        return f"the table would hold {why.count} cards (at most {MAX_TABLE})"
    return f"the table would hold {why.count} {why.what} cards (at most {MAX_ANIMAL})"


def tried_words(tried: Tried) -> str:
    """One alternative tried, in words: played, or skipped and why."""
    if tried.outcome is Outcome.CONDITION_FALSE:
        return f"{tried.order}: skipped, {tried.condition} is false"
    if tried.outcome is Outcome.NOT_ALLOWED and tried.why is not None:
        return f"{tried.order}: skipped, {refusal_words(tried.why)}"
    return f"{tried.order}: played"


def source_words(source: Source) -> str:
    """Which line a card turn used, in words."""
    used = source.used
    words = ("no sheet: the default play" if used is LineUsed.NO_SHEET else
             f"play line on line {source.line} was rejected: the default play" if used is LineUsed.REJECTED else
             f"play line {source.index} (line {source.line})" if used is LineUsed.PLAY_LINE else
             f"the DEFAULT line (line {source.line})" if used is LineUsed.DEFAULT else
             "no play line left and no DEFAULT line: the default play")
    return words + ("; no alternative was true and legal: the default play" if source.fell_back else "")


def private_lines(event: Event) -> tuple[str, ...]:
    """The owner's lines of an event: the line a card turn used, what it tried, then the rest."""
    used = () if event.source is None else (source_words(event.source),)
    return used + tuple(tried_words(t) for t in event.tried) + event.private


def event_lines(event: Event, *, private: bool) -> list[str]:
    """An event told in console lines (its private lines only when `private`)."""
    out = [f"{event.number}. {event.text}" if event.number else event.text] if event.text else []
    out += [f"   {d}" for d in event.details]
    if private:
        out += [f"   (private) {p}" for p in private_lines(event)]
    return out


def track_text(view: View) -> str:
    text = f"streams on tiles {view.streams[0]} and {view.streams[1]}" if len(view.streams) == 2 else ""
    if view.ruleset == APPRENTICE:
        text += " (no effect in the apprentice race); turbo tokens: " + ", ".join(
            f"{ANIMALS[a]} on tile {t}" for t, a in zip(TURBO_TILES, view.turbo, strict=True))
    return text


def _pawns(view: View) -> tuple[str, ...]:
    placed = dict(view.podium)
    return tuple(f"{ANIMALS[a]:<9} " + (f"{ordinal(placed[a])} place" if a in placed else
                                       "start line" if view.pawns[a] == 0 else
                                       "past the finish" if view.pawns[a] > 11 else f"tile {view.pawns[a]}")
                 for a in range(5))


def _podium(view: View) -> str:
    return ", ".join(f"{ordinal(p)} {ANIMALS[a]}" for a, p in view.podium) or "empty"


def _my_cards(view: View, reader: Reader) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The reader's own hand and bets (None for the GM, or a player out of the race)."""
    if not reader.seats or reader.viewer.is_gm:
        return None
    me = view.players[reader.seats[0]]
    if me.hand is None or not me.racing:
        return None
    return me.hand, (*(me.starts or ()), *((me.bet,) if me.bet else ()))


def _mine(view: View, reader: Reader) -> tuple[str, str, tuple[CardView, ...], tuple[CardView, ...]]:
    cards = _my_cards(view, reader)
    if cards is None:
        return "", "", (), ()
    hand, bets = cards
    return describe(hand), describe(bets), card_views(hand), card_views(bets)


def _race_title(view: View) -> str:
    if view.round == 0:
        return "the tie-break race"
    if view.mode == CHAMPIONSHIP:
        return f"round {view.round} of 3"
    return "the race"


def _result(view: View) -> str:
    if view.over and view.winners:
        return f"{view.seats[view.winners[0]]} wins the game."
    return ""


class CardRacePresenter(Presenter[View, Event]):
    def welcome(self, view: View, reader: Reader) -> Letter:
        hand, bets, hand_cards, bet_cards = _mine(view, reader)
        ctx = WelcomeContext(view.seats, view.ruleset, view.mode, track_text(view), view.seats[view.first], hand,
                             bets, hand_cards, bet_cards, view.ruleset == APPRENTICE,
                             APPRENTICE_MOVEMENT if view.ruleset == APPRENTICE else MOVEMENT)
        return Letter(Part(f"{_DIR}/welcome.txt.j2", ctx), Part(f"{_DIR}/welcome.html.j2", ctx))

    def acknowledgement(self, view: View, reader: Reader, parsed: Parsed[Any]) -> Part:
        return Part(f"{_DIR}/ack.txt.j2", AckNotes(parsed.sent, view.ruleset == APPRENTICE))

    def report(self, view: View, resolutions: Sequence[Event], reader: Reader) -> Letter:
        hand, bets, hand_cards, bet_cards = _mine(view, reader)
        events = tuple(EventView(f"{e.number}. {e.text}" if e.number else e.text, e.details,
                                 private_lines(e) if reader.viewer.may_see(e.seat) and e.seat is not None else ())
                       for e in resolutions if e.text or (private_lines(e) and reader.viewer.may_see(e.seat)))
        ctx = ReportContext(
            events=events, race_title=_race_title(view), track=track_text(view), pawns=_pawns(view),
            podium=_podium(view),
            discard=", ".join(f"{n} {ANIMALS[a]}" for a, n in enumerate(view.discard) if n) or "empty",
            deck=view.deck_size,
            seats=tuple(SeatLine(p.name, p.hand_size, p.bet_count, p.total,
                                 "" if p.hand is None else describe(p.hand),
                                 "" if p.starts is None else describe((*p.starts, *((p.bet,) if p.bet else ()))))
                        for p in view.players if p.racing),
            championship=view.mode == CHAMPIONSHIP, my_hand=hand, my_bets=bets, my_hand_cards=hand_cards,
            my_bet_cards=bet_cards, over=view.over,
            result=_result(view), next_turn=view.turn, first=view.seats[view.first], betting=view.betting,
            apprentice=view.ruleset == APPRENTICE,
            movement=APPRENTICE_MOVEMENT if view.ruleset == APPRENTICE else MOVEMENT,
        )
        return Letter(Part(f"{_DIR}/report.txt.j2", ctx), Part(f"{_DIR}/report.html.j2", ctx))

    def reminder(self, view: View, reader: Reader) -> Part:
        return Part(f"{_DIR}/reminder.txt.j2", ReminderNotes(view.betting))

    def order_lines(self, view: View, reader: Reader) -> list[str]:
        if view.over or not any(view.players[s].racing for s in reader.seats):
            return []
        lines = ["BET: TORTOISE"] if view.betting else []
        lines += ["PLAY: 1 TORTOISE", "DEFAULT: PLAY 1 TORTOISE"]
        if view.ruleset == APPRENTICE:
            lines.append("RACE: HARE TORTOISE WOLF FOX LAMB")
        return lines

    def picture(self, view: View, resolutions: Sequence[Event], *, title: str, subtitle: str) -> Picture:
        played = tuple(c for e in resolutions if e.kind is Kind.CARD_TURN for c in e.played)
        svg = race_svg(streams=view.streams, turbo=view.turbo, pawns=view.pawns, podium=view.podium,
                       played=played, title=title, subtitle=subtitle)
        alt = "; ".join(_pawns(view))
        return Picture(svg, svg_to_png(svg), f"The track: {alt}")

    def position_lines(self, view: View) -> list[str]:
        out = [f"{_race_title(view)}, mail turn {view.turn}; {track_text(view)}", *_pawns(view)]
        for p in view.players:
            if p.racing:
                hand = "" if p.hand is None else f" ({''.join(p.hand)})"
                out.append(f"{p.name:<10} {p.hand_size} cards{hand}, {p.bet_count} bets, total {p.total}")
        out.append(f"deck {view.deck_size}, token {view.seats[view.first]}")
        return out

    def resolution_lines(self, resolution: Event, *, private: bool) -> list[str]:
        return event_lines(resolution, private=private) or ["(private note)"]

    def summary(self, view: View) -> dict[str, Any]:
        return {
            "turn": view.turn, "over": view.over, "round": view.round, "first": view.seats[view.first],
            "pawns": {ANIMALS[a]: view.pawns[a] for a in range(5)},
            "podium": [[ANIMALS[a], p] for a, p in view.podium],
            "players": [{"name": p.name, "cards": p.hand_size, "bets": p.bet_count, "total": p.total,
                         "hand": None if p.hand is None else "".join(p.hand)} for p in view.players],
        }
