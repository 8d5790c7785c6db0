"""Hare & Tortoise's parts of every mail, its console lines and its picture, from views only.

Everything here reads a `View` (the position as one reader may see it) and slots already
redacted for that reader; the moderator wraps each part in the shared envelope (game, turn,
reader, deadline, the reply template).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.games.base import Parsed
from pbem.games.hare_tortoise.board import HOME, START, Kind
from pbem.games.hare_tortoise.narrate import (
    hare_line,
    order_lines,
    position_lines,
    slot_action,
    slot_lines,
    square_name,
)
from pbem.games.hare_tortoise.picture import MoveMark, RunnerMark, SquareInfo, board_png_layers, board_svg
from pbem.games.hare_tortoise.resolution import Outcome, Slot
from pbem.games.hare_tortoise.rules import CARD_WORDS, Ruleset, find_ruleset
from pbem.games.hare_tortoise.state import Must
from pbem.games.hare_tortoise.view import RunnerView, View
from pbem.games.present import Letter, Part, Picture, Presenter, Reader

_DIR = "hare-tortoise"


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
    #: the postal rotation: the first mover moves again at the end of the turn
    repeat: bool
    my_slots: int
    #: what this game's ruleset and options add to the report: the deck, inert squares, teams
    game_notes: tuple[str, ...] = ()
    #: two-player: the reader's two runners, where they stand (their supply is me_carrots, me_lettuces)
    me_runners: str = ""


@dataclass(frozen=True)
class WelcomeContext:
    players: tuple[str, ...]
    rules_title: str
    sequence: str
    first: str
    my_slots: int
    #: the race in brief, in this game's ruleset and options
    brief: tuple[str, ...]
    #: the postal rotation: the first mover moves again at the end of the turn
    repeat: bool
    #: the ruleset's example HARE line and what it does
    hare_example: tuple[str, str]
    #: BACK n exists (moving back to any square down to the nearest tortoise square)
    back_n: bool
    #: what a condition names: a player, or (two-player) a runner
    named: str
    #: what this game's ruleset and options are (none for variable-pig alone)
    rules_notes: tuple[str, ...] = ()
    #: two-player: order examples with the reader's runner names (else the template's own)
    order_examples: tuple[str, ...] = ()
    #: a card ruleset's hare deck, one line per kind of card ("2 x HALF: lose half your carrots")
    deck: tuple[str, ...] = ()


@dataclass(frozen=True)
class AckNotes:
    moves_expected: int
    moves_sent: int


@dataclass(frozen=True)
class ReminderNotes:
    slots: int


def _suffix(n: int) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")


def _carrots(n: int) -> str:
    return "1 carrot" if n == 1 else f"{n} carrots"


def _names(view: View, seats: Sequence[int]) -> list[str]:
    names = view.seats
    return [names[i] for i in seats]


def _my_slots(view: View, reader: Reader) -> int:
    return sum(1 for i in view.sequence if i in reader.seats)


def _slot_view(slot: Slot, reader: Reader, board_kinds: Sequence[Kind]) -> SlotView:
    """A slot as the reader's report tells it; `slot` is already redacted for the reader."""
    mine = reader.viewer.may_see(slot.seat)
    headline = f"{slot.name} {slot_action(slot)}"
    if slot.extra:
        headline += " (extra slot)"
    details: list[str] = []
    if slot.bonus:
        details.append(f"number square: {slot.name} is {slot.position}{_suffix(slot.position)} "
                       f"and draws {slot.bonus} carrots first")
    if slot.outcome is Outcome.ATE:
        details.append(f"draws {slot.drew} carrots (10 x position {slot.position}); must leave at the next slot")
    if slot.outcome in (Outcome.FORWARD, Outcome.HOME) and slot.paid:
        details.append(f"pays {_carrots(slot.paid)}")
    if slot.outcome is Outcome.BACK:
        details.append(f"draws {slot.drew} carrots (10 per square)")
    if slot.hare is not None:
        details.append(hare_line(slot))
    if slot.outcome is Outcome.FORWARD and slot.hare is None and board_kinds[slot.to_square] is Kind.LETTUCE:
        details.append("a lettuce square: eats at the next slot")
    if mine:
        details += order_lines(slot)
        details.append(
            f"carrots {slot.carrots_before} -> {slot.carrots_after}, lettuces {slot.lettuces_before} -> {slot.lettuces_after}"
        )
    elif slot.rule in ("default move", "stuck: no legal move"):
        details.append(f"rule: {slot.rule}")
    return SlotView(slot.number, slot.name, mine and not reader.viewer.is_gm, headline, tuple(details))


def _standings(view: View) -> tuple[StandingView, ...]:
    rows = []
    for index, r in enumerate(view.runners):
        pos = view.position(index)
        notes = []
        if r.must is Must.EAT:
            notes.append("eats a lettuce next slot")
        elif r.must is Must.LEAVE:
            notes.append("must leave the square")
        if r.skip:
            notes.append("misses the next slot")
        rank = f"{r.place}{_suffix(r.place)} (home)" if r.home and r.place else (
            f"{r.place}{_suffix(r.place)}" if r.place else f"{pos}{_suffix(pos)}")
        square = "HOME" if r.square == HOME else "START" if r.square == START else str(r.square)
        carrots = "" if r.carrots is None else str(r.carrots)
        rows.append((r.place or pos, index, StandingView(rank, r.name, square, r.lettuces, carrots, ", ".join(notes))))
    return tuple(v for _, _, v in sorted(rows))


def _me(view: View, reader: Reader) -> RunnerView:
    return view.runners[(reader.seats[0] if reader.seats else 0) * view.per_seat]


def _winner(view: View) -> str:
    if view.per_seat > 1:
        return next((name for k, name in enumerate(view.seats) if all(r.home for r in view.seat_runners(k))), "")
    if view.teams:
        done = [f"team {name} ({', '.join(view.seats[j] for j in seats)})" for name, seats in view.teams
                if all(view.runners[j].home for j in seats)]
        return done[0] if done else ""
    return next((r.name for r in view.runners if r.place == 1), "")


def brief(view: View) -> tuple[str, ...]:
    """The welcome's race in brief, read from this game's ruleset and options: one sentence each."""
    rules = find_ruleset(view.ruleset, view.options)
    carrots, lettuces = rules.starting_carrots(len(view.seats)), rules.starting_lettuces()
    two = rules.runners_per_seat > 1
    start = (f"Each player races two runners from START to HOME (square 64), with one supply of {carrots} carrots "
             f"and {lettuces} lettuces for both." if two else
             f"Each runner starts on START with {carrots} carrots and {lettuces} lettuces and races to HOME (square 64).")
    lines = [start,
             "Moving forward d squares costs d(d+1)/2 carrots: 1, 3, 6, 10, 15, 21 ..."]
    if rules.free_backward:
        lines.append("Moving back to any free square down to the nearest tortoise square behind you earns 10 "
                     "carrots per square (TO n or BACK n); a hare, carrot or number square so reached does "
                     "nothing until you move on.")
    else:
        lines.append("Falling back to the nearest free tortoise square behind you is free and earns 10 carrots "
                     "per square.")
    lines += ["Staying on a carrot square draws 10 carrots (or pays 10).",
              "Landing on a lettuce square: you eat a lettuce at your next slot (10 x your position in carrots).",
              "On a number square whose number is your position, you draw 10 x position.",
              f"A hare square {rules.hare_words}."]
    limit = ("at most 10 carrots per finishing place" if rules.home_allowance(2) == 2 * rules.home_allowance(1)
             else f"at most {rules.home_allowance(1)} carrots")
    if two:
        lines.append(f"Your first runner may go HOME with any carrots; the second only with no lettuces left and {limit}.")
    else:
        lines.append(f"You may only go HOME with no lettuces left and {limit}.")
    return tuple(lines)


def deck_lines(rules: Ruleset) -> tuple[str, ...]:
    """A card ruleset's hare deck, each kind of card once with how many there are and what it does."""
    if rules.deck is None:
        return ()
    counts = Counter(rules.deck.cards)
    return tuple(f"{n} x {card.value}: {CARD_WORDS[card]}" for card, n in counts.items())


def rules_notes(view: View) -> tuple[str, ...]:
    """The welcome's lines on what this game's ruleset and options change (none for variable-pig alone)."""
    rules = find_ruleset(view.ruleset, view.options)
    notes: list[str] = []
    if rules.summary:
        notes.append(f"Ruleset {rules.name}: {rules.summary}.")
    carrots = rules.starting_carrots(len(view.seats))
    if rules.runners_per_seat > 1:
        fixed = rules.home_allowance(1) == rules.home_allowance(2)  # intellect-1974's 20 in any place
        notes += two_player_notes(view, carrots, rules.starting_lettuces(), rules.home_allowance(2) if fixed else None)
    elif carrots != 65:
        notes.append(f"A runner with no legal move goes back to START with {carrots} carrots.")
    if rules.deck is not None:
        notes.append(f"Hare squares draw a card from a deck of {len(rules.deck.codes)}; HARE choices: "
                     f"{', '.join(rules.choices)} (default {rules.choices[0]}).")
    if not rules.postal_rotation:
        notes.append("Face to face: each turn is one slot per racing seat in seat order, with no repeat.")
    for name, seats in view.teams:
        notes.append(f"Team {name}: {', '.join(view.seats[j] for j in seats)}. The first team with every runner "
                     "HOME wins.")
    return tuple(notes)


def two_player_notes(view: View, carrots: int, lettuces: int, fixed_limit: int | None) -> list[str]:
    """The welcome's lines on the two-player game (`fixed_limit`: the carrots allowed at HOME in
    any place, where the ruleset has one)."""
    runners = " and ".join(f"{s}1, {s}2" for s in view.seats)
    limit = f"at most {fixed_limit} carrots" if fixed_limit else "at most 10 carrots per finishing place"
    return [
        f"Two-player: each of you moves two runners ({runners}) from one supply of {carrots} carrots and "
        f"{lettuces} lettuces. At each slot you move one of them, either one.",
        "Every action names its runner (MOVE: IF SQUARE 22 IS FREE THEN "
        f"{view.seats[0].upper()}2 TO 22 ELSE {view.seats[0].upper()}1 NEXT CARROT), and conditions name runners "
        f"({view.seats[-1].upper()}1 IS ON 21), not players. I AM, RANK, MY SQUARE, IS AHEAD and IS BEHIND are about "
        "the runner the alternative moves; CARROTS and LETTUCES about your supply. HARE lines name no runner.",
        "Positions belong to runners (four of them). A number square pays when your runner moves off it, at the "
        "position it holds then, before paying for the move.",
        "Without a legal alternative, the runner that must leave a lettuce square moves, else your rear runner, by "
        "the default move. The first of your runners may go HOME with any carrots and lettuces; the second needs "
        f"every lettuce eaten and {limit}. The first player with both runners HOME wins.",
    ]


def _two_player_examples(view: View, reader: Reader) -> tuple[str, ...]:
    """Two-player: the welcome's order examples, written with the reader's own runner names."""
    seat = reader.seats[0] if reader.seats else 0
    me, other = view.seats[seat].upper(), view.seats[1 - seat].upper()
    return (f"MOVE: IF SQUARE 22 IS FREE AND RANK >= 3 THEN {me}2 TO 22 ELSE {me}1 NEXT CARROT",
            f"MOVE: IF {other}1 IS AHEAD THEN {me}1 BACK ELSE {me}2 NEXT",
            f"DEFAULT: {me}1 NEXT LETTUCE ELSE {me}2 NEXT     (for any slot beyond your MOVE lines)",
            "{}  ({})".format(*find_ruleset(view.ruleset, view.options).hare_example))


def game_notes(view: View) -> tuple[str, ...]:
    """The report's lines on the hare deck, the inert squares, the teams and the two-player supplies."""
    notes: list[str] = []
    if view.per_seat > 1:
        parts = []
        for k, name in enumerate(view.seats):
            r = view.seat_runners(k)[0]
            held = "" if r.carrots is None else f"{_carrots(r.carrots)}, "
            parts.append(f"{name} {held}{r.lettuces} lettuce{'' if r.lettuces == 1 else 's'}")
        notes.append(f"Supplies (one for both runners of a player): {'; '.join(parts)}.")
    if view.deck_size is not None:
        notes.append(f"Hare deck: {view.deck_size} card{'' if view.deck_size == 1 else 's'} in the draw pile.")
    for j in view.inert:
        r = view.runners[j]
        notes.append(f"{r.name}'s square {r.square_label} is inert (reached by moving back): no carrots there "
                     "until the runner moves.")
    for name, seats in view.teams:
        home = sum(1 for j in seats if view.runners[j].home)
        notes.append(f"Team {name} ({', '.join(view.seats[j] for j in seats)}): {home} of {len(seats)} HOME.")
    return tuple(notes)



def board_marks(view: View, resolutions: Sequence[Slot]) -> tuple[tuple[SquareInfo, ...], list[RunnerMark], list[MoveMark]]:
    """What the board picture shows of a view and the slots that led to it: the track, the runners
    and an arrow a slot (none for a runner already HOME)."""
    two = view.per_seat > 1
    runners = [RunnerMark(r.seat, r.name, r.square, r.place, f"{r.name[0]}{r.name[-1]}" if two else None)
               for r in view.runners]
    moves = [_move_mark(s) for s in resolutions if not s.from_square == s.to_square == HOME]
    board = find_ruleset(view.ruleset).board
    return tuple(SquareInfo(sq.kind.word, tuple(sorted(sq.numbers))) for sq in board.squares), runners, moves


def _move_mark(slot: Slot) -> MoveMark:
    """A slot's arrow: by way of the hare square when a hare sent the runner on or back, and drawn
    even when it ends where it began (a stay, or a hare that sent it back to its square)."""
    hare = slot.hare
    via = hare.square if hare is not None and hare.to_square != hare.square else None
    return MoveMark(slot.seat, slot.from_square, slot.to_square, slot.number, via)

class HarePresenter(Presenter[View, Slot]):
    """Hare & Tortoise mail parts, console lines and the board picture."""

    def welcome(self, view: View, reader: Reader) -> Letter:
        sequence = _names(view, view.sequence)
        rules = find_ruleset(view.ruleset, view.options)
        ctx = WelcomeContext(
            players=view.seats,
            rules_title=find_ruleset(view.ruleset).title,
            sequence=", ".join(sequence),
            first=sequence[0] if sequence else "",
            my_slots=_my_slots(view, reader),
            brief=brief(view),
            repeat=rules.postal_rotation,
            hare_example=rules.hare_example,
            back_n=rules.free_backward,
            named="runner" if rules.runners_per_seat > 1 else "player",
            rules_notes=rules_notes(view),
            order_examples=_two_player_examples(view, reader) if view.per_seat > 1 else (),
            deck=deck_lines(rules),
        )
        return Letter(Part(f"{_DIR}/welcome.txt.j2", ctx), Part(f"{_DIR}/welcome.html.j2", ctx))

    def acknowledgement(self, view: View, reader: Reader, parsed: Parsed[Any]) -> Part:
        return Part(f"{_DIR}/ack.txt.j2", AckNotes(parsed.expected, parsed.sent))

    def report(self, view: View, resolutions: Sequence[Slot], reader: Reader) -> Letter:
        board_kinds = [sq.kind for sq in find_ruleset(view.ruleset).board.squares]
        sequence = _names(view, view.sequence)
        me = _me(view, reader)
        notes = []
        me_runners = ""
        if view.per_seat > 1:
            seat = reader.seats[0] if reader.seats else 0
            mine = view.seat_runners(seat)
            me_runners = "; ".join(
                f"{r.name} on {square_name(r.square)}" + (f", place {r.place}" if r.place else
                                                          f", position {view.position(seat * 2 + k)}")
                for k, r in enumerate(mine))
            for r in mine:
                if r.must is Must.EAT:
                    notes.append(f"{r.name} eats a lettuce at your next slot (your MOVE line for it is used up).")
                if r.must is Must.LEAVE:
                    notes.append(f"{r.name} ate a lettuce: it must leave the square at your next slot, and your "
                                 "other runner may not move before it does.")
        elif me.must is Must.EAT:
            notes.append("You eat a lettuce at your next slot (your MOVE line for it is used up).")
        if me.must is Must.LEAVE and view.per_seat == 1:
            notes.append("You ate a lettuce: you must leave the square at your next slot.")
        if me.skip:
            notes.append("You miss your next slot (hare result); it still uses a MOVE line.")
        ctx = ReportContext(
            slots=tuple(_slot_view(s, reader, board_kinds) for s in resolutions),
            standings=_standings(view),
            me_square=square_name(me.square),
            me_carrots=me.carrots or 0,
            me_lettuces=me.lettuces,
            me_position=view.position((reader.seats[0] if reader.seats else 0) * view.per_seat),
            me_notes=tuple(notes),
            over=view.over,
            winner=_winner(view),
            next_turn=view.turn,
            next_sequence=", ".join(sequence),
            next_first=sequence[0] if sequence else "",
            repeat=find_ruleset(view.ruleset, view.options).postal_rotation,
            my_slots=_my_slots(view, reader) if not reader.viewer.is_gm else 0,
            game_notes=game_notes(view),
            me_runners=me_runners,
        )
        return Letter(Part(f"{_DIR}/report.txt.j2", ctx), Part(f"{_DIR}/report.html.j2", ctx))

    def reminder(self, view: View, reader: Reader) -> Part:
        return Part(f"{_DIR}/reminder.txt.j2", ReminderNotes(_my_slots(view, reader)))

    def order_lines(self, view: View, reader: Reader) -> list[str]:
        if view.over or all(r.home for i in reader.seats for r in view.seat_runners(i)):
            return []
        choice = find_ruleset(view.ruleset, view.options).choices[0]
        if view.per_seat > 1:
            # two-player: every action names its runner; the reader's rear runner moves by default
            r1, r2 = (r.name for r in view.seat_runners(reader.seats[0]))
            chain = f"{r1} NEXT ELSE {r2} NEXT"
            return [f"MOVE: {chain}"] * max(_my_slots(view, reader), 1) + [f"DEFAULT: {chain}", f"HARE: {choice}"]
        return ["MOVE: NEXT"] * max(_my_slots(view, reader), 1) + ["DEFAULT: NEXT", f"HARE: {choice}"]

    def next_lines(self, view: View, reader: Reader, previous: Sequence[str]) -> list[str]:
        """A fresh sheet, with the DEFAULT and HARE lines of the last one kept."""
        kept = {line.partition(":")[0]: line for line in previous if line.partition(":")[0] in ("DEFAULT", "HARE")}
        return [kept.get(line.partition(":")[0], line) for line in self.order_lines(view, reader)]

    def picture(self, view: View, resolutions: Sequence[Slot], *, title: str, subtitle: str) -> Picture:
        squares, runners, moves = board_marks(view, resolutions)
        svg = board_svg(squares, runners, moves=moves, title=title, subtitle=subtitle)
        png = board_png_layers(squares, runners, moves=moves, title=title, subtitle=subtitle)
        where = ", ".join(f"{r.name} {square_name(r.square)}" for r in view.runners)
        return Picture(svg, png, f"The board: {where}")

    def position_lines(self, view: View) -> list[str]:
        track = ["."] * (HOME + 1)
        for r in view.runners:
            if 0 < r.square < HOME:
                # two-player: runner 1 in capitals, runner 2 in small letters
                track[r.square] = r.name[0].lower() if view.per_seat > 1 and r.name.endswith("2") else r.name[0].upper()
        return [*position_lines(view), "START " + "".join(track[1:HOME]) + " HOME"]

    def resolution_lines(self, resolution: Slot, *, private: bool) -> list[str]:
        return slot_lines(resolution, private=private)

    def summary(self, view: View) -> dict[str, Any]:
        return {
            "turn": view.turn,
            "over": view.over,
            "runners": [
                {"name": r.name, "square": "start" if r.square == START else "home" if r.square == HOME else r.square,
                 "carrots": r.carrots, "lettuces": r.lettuces, "place": r.place,
                 "must": None if r.must is Must.NONE else r.must.value, "skip": r.skip}
                for r in view.runners
            ],
        }

