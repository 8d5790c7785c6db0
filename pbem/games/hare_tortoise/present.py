"""Hare & Tortoise reports: turn reports, welcome mails and acknowledgements, from stored records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pbem.games.hare_tortoise.board import HOME, START, Kind
from pbem.games.hare_tortoise.engine import turn_sequence
from pbem.games.hare_tortoise.narrate import hare_line, order_lines, slot_action, square_name
from pbem.games.hare_tortoise.picture import (
    MoveMark,
    RunnerMark,
    SquareInfo,
    board_png_layers,
    board_svg,
)
from pbem.games.hare_tortoise.resolution import Outcome, Slot
from pbem.games.hare_tortoise.rules import HareEffect, find_ruleset
from pbem.games.hare_tortoise.state import Must, State
from pbem.games.hare_tortoise.orders.model import OrderSheet
from pbem.reports import render, when


@dataclass(frozen=True)
class Seat:
    """A player as the reports need them."""

    seat: int
    name: str
    email: str
    secret: str
    timezone: str


@dataclass(frozen=True)
class SlotView:
    number: int
    name: str
    mine: bool
    headline: str
    details: tuple[str, ...]


@dataclass(frozen=True)
class StandingView:
    rank: str
    name: str
    square: str
    lettuces: int
    carrots: str  # "" when hidden from the reader
    note: str


@dataclass(frozen=True)
class ReportContext:
    game: str
    turn: int
    resolved_at: str
    reader: str  # a player's name, or "GM"
    gm: bool
    slots: tuple[SlotView, ...]
    standings: tuple[StandingView, ...]
    me_square: str
    me_carrots: int
    me_lettuces: int
    me_position: int
    me_notes: tuple[str, ...]
    over: bool
    winner: str
    next_turn: int
    next_sequence: str
    next_first: str
    my_slots: int
    deadline: str
    template: str
    moderator: str
    board_cid: str


@dataclass(frozen=True)
class WelcomeContext:
    game: str
    reader: str
    players: tuple[str, ...]
    rules_title: str
    sequence: str
    first: str
    my_slots: int
    deadline: str
    template: str
    moderator: str


@dataclass(frozen=True)
class LineView:
    line: int
    text: str
    canonical: str


@dataclass(frozen=True)
class RejectedView:
    line: int
    column: int
    text: str
    reason: str
    context: str


@dataclass(frozen=True)
class AckContext:
    game: str
    reader: str
    turn: int
    accepted: tuple[LineView, ...]
    rejected: tuple[RejectedView, ...]
    ignored: tuple[LineView, ...]
    replaced: bool
    received: str
    deadline: str
    moves_expected: int
    moves_sent: int
    moderator: str


@dataclass(frozen=True)
class ReminderContext:
    reader: str
    game: str
    turn: int
    deadline: str
    moderator: str
    template: str


@dataclass(frozen=True)
class RefusalContext:
    reader: str
    subject: str
    reason: str
    fix: str
    moderator: str


def squares_info(state: State) -> tuple[SquareInfo, ...]:
    board = find_ruleset(state.ruleset).board
    return tuple(SquareInfo(sq.kind.word, tuple(sorted(sq.numbers))) for sq in board.squares)


def board_picture(state: State, slots: Sequence[Slot], *, title: str, subtitle: str) -> tuple[str, bytes]:
    """The picture of a turn (the same for every reader): SVG text and PNG bytes."""
    runners = [RunnerMark(i, r.name, r.square, r.place) for i, r in enumerate(state.runners)]
    moves = [
        MoveMark(s.seat, s.from_square, s.to_square, s.number)
        for s in slots
        if s.to_square != s.from_square
    ]
    squares = squares_info(state)
    svg = board_svg(squares, runners, moves=moves, title=title, subtitle=subtitle)
    return svg, board_png_layers(squares, runners, moves=moves, title=title, subtitle=subtitle)


def _sequence(state: State) -> list[str]:
    return [state.runners[i].name for i in turn_sequence(state)]


def order_template(game: str, turn: int, secret: str, slots: int) -> str:
    lines = [f"GAME {game}", f"TURN {turn}", f"SECRET {secret}"]
    lines += ["MOVE: NEXT"] * max(slots, 1)
    lines += ["DEFAULT: NEXT", "HARE: TAKE"]
    return "\n".join(lines)


def _public_hare(slot: Slot) -> str:
    h = slot.hare
    assert h is not None
    detail = h.detail
    if h.effect is HareEffect.HALVE:
        detail = "loses half of the carrots"
    elif h.effect is HareEffect.RESTORE:
        detail = "carrots restored"
    return f"hare: die {h.die} + position {h.position} = {h.total}: {h.effect.value}; {detail}"


def _slot_view(slot: Slot, reader: str | None, board_kinds: Sequence[Kind]) -> SlotView:
    mine = reader is None or slot.name == reader
    headline = f"{slot.name} {slot_action(slot)}"
    if slot.extra:
        headline += " (extra slot)"
    details: list[str] = []
    if slot.bonus:
        details.append(f"number square: {slot.name} is {slot.position}{_suffix(slot.position)} and draws {slot.bonus} carrots first")
    if slot.outcome is Outcome.ATE:
        details.append(f"draws {slot.drew} carrots (10 x position {slot.position}); must leave at the next slot")
    if slot.outcome in (Outcome.FORWARD, Outcome.HOME) and slot.paid:
        details.append(f"pays {_carrots(slot.paid)}")
    if slot.outcome is Outcome.BACK:
        details.append(f"draws {slot.drew} carrots (10 per square)")
    if slot.hare is not None:
        details.append(hare_line(slot) if mine else _public_hare(slot))
    if slot.outcome is Outcome.FORWARD and slot.hare is None and board_kinds[slot.to_square] is Kind.LETTUCE:
        details.append("a lettuce square: eats at the next slot")
    if mine:
        details += order_lines(slot)
        details.append(
            f"carrots {slot.carrots_before} -> {slot.carrots_after}, lettuces {slot.lettuces_before} -> {slot.lettuces_after}"
        )
    elif slot.rule in ("default move", "stuck: no legal move"):
        details.append(f"rule: {slot.rule}")
    return SlotView(slot.number, slot.name, mine and reader is not None, headline, tuple(details))


def _carrots(n: int) -> str:
    return "1 carrot" if n == 1 else f"{n} carrots"


def _suffix(n: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")


def _standings(state: State, reader: str | None) -> tuple[StandingView, ...]:
    rows = []
    for i, r in enumerate(state.runners):
        pos = state.position(i)
        notes = []
        if r.must is Must.EAT:
            notes.append("eats a lettuce next slot")
        elif r.must is Must.LEAVE:
            notes.append("must leave the square")
        if r.skip:
            notes.append("misses the next slot")
        rank = f"{r.place}{_suffix(r.place)} (home)" if r.home and r.place else (
            f"{r.place}{_suffix(r.place)}" if r.place else f"{pos}{_suffix(pos)}")
        visible = reader is None or r.name == reader
        square = "HOME" if r.square == HOME else "START" if r.square == START else str(r.square)
        rows.append((r.place or pos, i, StandingView(rank, r.name, square, r.lettuces,
                                                      str(r.carrots) if visible else "", ", ".join(notes))))
    return tuple(v for _, _, v in sorted(rows))


def report_context(
    game: str, seats: Sequence[Seat], reader: Seat | None, after: State, slots: Sequence[Slot],
    *, resolved_at: datetime, deadline: datetime | None, moderator: str,
) -> ReportContext:
    """One reader's report of a resolved turn; `reader=None` is the GM's full report."""
    board_kinds = [sq.kind for sq in find_ruleset(after.ruleset).board.squares]
    name = reader.name if reader else None
    views = tuple(_slot_view(s, name, board_kinds) for s in slots)
    sequence = _sequence(after) if not after.over else []
    me_seat = reader.seat if reader else 0
    me = after.runners[me_seat]
    notes = []
    if me.must is Must.EAT:
        notes.append("You eat a lettuce at your next slot (your MOVE line for it is used up).")
    if me.must is Must.LEAVE:
        notes.append("You ate a lettuce: you must leave the square at your next slot.")
    if me.skip:
        notes.append("You miss your next slot (hare result); it still uses a MOVE line.")
    winner = next((r.name for r in after.runners if r.place == 1), "")
    my_slots = sequence.count(me.name) if reader else 0
    tz = reader.timezone if reader else "UTC"
    return ReportContext(
        game=game,
        turn=after.turn - 1,
        resolved_at=when(resolved_at),
        reader=reader.name if reader else "GM",
        gm=reader is None,
        slots=views,
        standings=_standings(after, name),
        me_square=square_name(me.square),
        me_carrots=me.carrots,
        me_lettuces=me.lettuces,
        me_position=after.position(me_seat),
        me_notes=tuple(notes),
        over=after.over,
        winner=winner,
        next_turn=after.turn,
        next_sequence=", ".join(sequence),
        next_first=sequence[0] if sequence else "",
        my_slots=my_slots,
        deadline=when(deadline, tz),
        template=order_template(game, after.turn, reader.secret, my_slots) if reader and not me.home else "",
        moderator=moderator,
        board_cid=f"board-{game}-{after.turn - 1}",
    )


def welcome_context(game: str, state: State, reader: Seat, *, deadline: datetime | None, moderator: str) -> WelcomeContext:
    sequence = _sequence(state)
    return WelcomeContext(
        game=game,
        reader=reader.name,
        players=state.seats,
        rules_title=find_ruleset(state.ruleset).title,
        sequence=", ".join(sequence),
        first=sequence[0],
        my_slots=sequence.count(reader.name),
        deadline=when(deadline, reader.timezone),
        template=order_template(game, state.turn, reader.secret, sequence.count(reader.name)),
        moderator=moderator,
    )


def ack_context(
    game: str, reader: Seat, state: State, sheet: OrderSheet, *, replaced: bool, received: datetime,
    deadline: datetime | None, moderator: str,
) -> AckContext:
    sequence = _sequence(state)
    return AckContext(
        game=game,
        reader=reader.name,
        turn=state.turn,
        accepted=tuple(LineView(a.line, a.text, a.canonical) for a in sheet.accepted),
        rejected=tuple(RejectedView(r.line, r.column, r.text, r.reason, r.context) for r in sheet.rejected),
        ignored=tuple(LineView(i.line, i.text, i.canonical) for i in sheet.ignored),
        replaced=replaced,
        received=when(received, reader.timezone),
        deadline=when(deadline, reader.timezone),
        moves_expected=sequence.count(reader.name),
        moves_sent=len(sheet.moves),
        moderator=moderator,
    )


def render_report(ctx: ReportContext) -> tuple[str, str]:
    return render("hare-tortoise/report.txt.j2", ctx), render("hare-tortoise/report.html.j2", ctx)
