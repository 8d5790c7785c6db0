"""The players' mail commands: what each one answers, for the sender alone, from the store.

Each function reads (the game, its players, its turns, the sender's own view of the position)
and returns lines of plain text for `Mailer.answer`; none writes. Nothing here names a game:
the position is told by the game's presenter from the reader's own view, so a command shows
no more than the last report did (which seats sent orders, never what they ordered).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any

from sqlmodel import Session

from pbem.errors import PbemError
from pbem.games import AnyGame
from pbem.games.base import Bot, Viewer
from pbem.games.chance import Chance
from pbem.games.sheet import Accepted, Echo, Rejected
from pbem.mailer import Answer, GmNote, reader_of, sheet_template, view_turn
from pbem.reports import when
from pbem.store import EventKind, GameRow, PlayerRow, Store, TurnRow
from pbem.tokens import reply_token
from pbem.turn_record import TurnRecord

#: what HELP lists, in the order players need them
COMMAND_HELP = (
    ("HELP", "this help"),
    ("STATUS", "the deadline, whose orders are in (never what they ordered), the position"),
    ("HISTORY", "every resolved turn in a line or a few"),
    ("RESEND [turn]", "your report of a turn again (default: the last)"),
    ("PREVIEW", "followed by your orders: what they would do now if nobody else moved; nothing is stored"),
    ("STANDING", "with your orders: they stay in force for later turns until you send another sheet"),
    ("VACATION <from> <to>", "dates as 2026-12-24: you are away; your standing orders (or the default moves) play"),
    ("SUGGEST", "the sheet pbem's strong computer player would send for you, to edit; nothing is sent for you"),
    ("SITTER <level> / OFF", "a computer sitter writes your sheet while you are away or miss a deadline"),
    ("PRESS", "followed by text: a message relayed to every player of the game"),
    ("SEND SECRET / NEW SECRET", "your secret mailed to you / a new one"),
    ("TIMEZONE <zone>", "deadlines in your zone too, e.g. TIMEZONE Europe/London"),
)


@dataclass(frozen=True)
class Vacation:
    start: date
    end: date

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def help_lines(engine: AnyGame, game: GameRow, player: PlayerRow, state: Any) -> list[str]:
    reader = reader_of(player)
    view = engine.view(state, reader.viewer)
    turn = view_turn(engine, view, game.turn)
    lines = [f"You play {player.name} in {game.name} ({engine.info.title}, {game.rules}); your secret is "
             f"{player.secret}.", "", "Write any of these lines in a mail (with GAME and SECRET lines, like orders):", ""]
    lines += [f"  {word:<26} {what}" for word, what in COMMAND_HELP]
    template = sheet_template(game.name, turn, reply_token(player.secret, game.name, turn),
                              engine.presenter.order_lines(view, reader))
    if template:
        lines += ["", "Your orders for this turn, ready to edit (the welcome mail has the whole order language):", "",
                  *template.splitlines()]
    return lines


def status_lines(engine: AnyGame, game: GameRow, player: PlayerRow, players: Sequence[PlayerRow], state: Any,
                 sent: set[int], standing: Collection[int] = ()) -> list[str]:
    """`sent`: the seats whose orders for the current turn are in; `standing`: those whose
    standing orders of an earlier turn play unless they send a sheet."""
    due = set(engine.to_move(state))
    lines = [f"{game.name}, turn {game.turn}" + (" — paused by the GM: the deadline is stopped" if game.paused else ""),
             f"Deadline: {when(game.deadline, player.timezone)}", "", "Orders for this turn:"]
    for p in players:
        if p.seat not in due:
            what = "no move this turn"
        elif p.bot:
            what = "a computer player"
        else:
            what = "in" if p.seat in sent else "standing orders" if p.seat in standing else "not yet"
        lines.append(f"  {p.name:<12} {what}")
    view = engine.view(state, Viewer(player.seat))
    lines += ["", "The position (as your last report showed it):", *[f"  {x}" for x in engine.presenter.position_lines(view)]]
    return lines


def history_lines(engine: AnyGame, players: Sequence[PlayerRow], turns: Sequence[TurnRow], seat: int | None) -> list[str]:
    """The turns as a reader may see them: a seat's own details shown to it, nobody else's."""
    viewer = Viewer(seat)
    if not turns:
        return ["No turn has been resolved yet."]
    lines = []
    for t in turns:
        lines.append(f"Turn {t.turn}" + (f" (corrected {t.correction}x)" if t.correction else "")
                     + f", resolved {t.resolved_at:%Y-%m-%d %H:%M} UTC:")
        for seen in TurnRecord.from_row(engine, t).seen_by(viewer):
            mine = seat is not None and getattr(seen, "seat", None) == seat
            lines.append("  " + engine.presenter.resolution_lines(seen, private=mine)[0])
    return lines


def preview_lines(engine: AnyGame, state: Any, orders: Any, echo: Sequence[Echo], seat: int) -> list[str]:
    """PREVIEW: the sender's own sheet (`orders`, read with the `echo` of its lines) told on the
    position, with the game's warnings; the game works from the sender's own seat only."""
    lines = [f"  line {e.line}: {e.canonical}" for e in echo if isinstance(e, Accepted)]
    lines += [f"  line {e.line}, column {e.column}: {e.reason}" for e in echo if isinstance(e, Rejected)]
    told = engine.preview(state, orders, seat)
    warnings = engine.lint(state, orders, seat)
    body = ["YOUR SHEET", *lines, "", "WHAT IT WOULD DO", *(told or ("This game gives no step-by-step preview.",))]
    if warnings:
        body += ["", "WARNINGS", *(f"  {w}" for w in warnings)]
    return [*body, "", "Nothing was stored: send the sheet without PREVIEW to make it your orders."]


def suggested_sheet(engine: AnyGame, advisor: Bot[Any], state: Any, seat: int, chance: Chance) -> str:
    """SUGGEST: the sheet a computer player would write for the seat, from that seat's own view."""
    return advisor.write(engine.view(state, Viewer(seat)), chance)


def suggestion(game: GameRow, player: PlayerRow, text: str) -> Answer:
    """SUGGEST's part of the answer: the computer player's sheet `text` as a template to edit,
    with the header lines of the player's current turn (a reply token, never the secret)."""
    lines = [line for line in text.splitlines() if line.strip()]
    template = sheet_template(game.name, game.turn, reply_token(player.secret, game.name, game.turn), lines)
    return Answer("SUGGEST", f"this is what pbem's strong computer player would send for your seat in turn "
                  f"{game.turn} of {game.name}, written from what your own report shows. It is only advice: nothing "
                  "has been sent for you. Edit it as you like and reply with it:", ("", *template.splitlines()))


#: the first line of a sheet a computer sitter wrote for a person, as the turn's record keeps it
SITTER_MARK = "# written by the computer sitter"


def missed_turns(engine: AnyGame, turns: Sequence[TurnRow], player: PlayerRow) -> list[int]:
    """The turns of the player's tenure that the seat had to move in and sent no sheet of her own
    for (a sheet her sitter wrote is not hers), not counting vacation: a turn without a move for
    the seat (the other seat's, or one it was done in) is no missed turn, whatever it sent."""
    missed = []
    for t in turns:
        if t.turn < player.since_turn:
            continue
        sheet = json.loads(t.sheets).get(player.name)
        if (sheet is None or sheet.startswith(SITTER_MARK)) and not _away(player, t.resolved_at) and \
                player.seat in engine.to_move(engine.load_state(json.loads(t.before))):
            missed.append(t.turn)
    return missed


def _away(player: PlayerRow, moment: datetime) -> bool:
    return any(start <= _aware(moment) <= end for start, end in map(vacation_span, vacations(player)))


def is_away(player: PlayerRow, moment: datetime) -> bool:
    return _away(player, moment)


def vacations(player: PlayerRow) -> list[Vacation]:
    """Every VACATION the player has taken in the game, in the order taken."""
    return [Vacation(date.fromisoformat(a), date.fromisoformat(b)) for a, b in json.loads(player.away or "[]")]


def new_days(player: PlayerRow, wanted: Vacation) -> int:
    """The days of `wanted` that no earlier VACATION of the player holds: what it costs."""
    taken = vacations(player)
    days = (wanted.start + timedelta(days=n) for n in range(wanted.days))
    return sum(1 for d in days if not any(v.start <= d <= v.end for v in taken))


def add_vacation(player: PlayerRow, wanted: Vacation) -> int:
    """Add `wanted` to the player's spans (the earlier ones stay) and charge its new days; returns them."""
    cost = new_days(player, wanted)
    player.away = json.dumps([[v.start.isoformat(), v.end.isoformat()] for v in [*vacations(player), wanted]])
    player.vacation_days += cost
    return cost


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def read_vacation(command: str, today: date) -> Vacation:
    """`VACATION 2026-12-01 2026-12-14`: the dates checked (from today on, in order)."""
    _word, first, last = command.split()
    try:
        start, end = date.fromisoformat(first), date.fromisoformat(last)
    except ValueError:
        raise PbemError(f"VACATION takes two dates written like 2026-12-24, not {first!r} and {last!r}") from None
    if end < start:
        raise PbemError(f"VACATION {first} {last}: the first date must come before the second")
    if start < today:
        raise PbemError(f"VACATION {first} {last}: {first} is in the past (today is {today.isoformat()})")
    return Vacation(start, end)


def read_resend(command: str, game: GameRow) -> int:
    """`RESEND` (the last resolved turn) or `RESEND 3`: the turn, checked to be one resolved."""
    words = command.split()
    if len(words) == 1:
        turn = game.turn - 1
    elif words[1].isdigit() and len(words[1]) <= 6:
        turn = int(words[1])
    else:
        raise PbemError(f"RESEND takes one turn number, like RESEND {max(game.turn - 1, 1)}; not {words[1]!r}")
    if game.turn <= 1:
        raise PbemError(f"{game.name} has resolved no turn yet")
    if not 1 <= turn < game.turn:
        raise PbemError(f"turn {turn} is not resolved: {game.name} has resolved turns 1 to {game.turn - 1}")
    return turn


def gm_notes(store: Store, session: Session, game: GameRow, turn: int) -> list[GmNote]:
    """The GM's edits and replacements made while `turn` was open, and the sheets computer
    sitters wrote for it, for its reports (sent again too: a report resent is the report that
    was sent)."""
    assert game.id is not None
    notes = []
    for e in store.events(session, game.id, (EventKind.EDIT, EventKind.REPLACE, EventKind.SITTER)):
        if e.turn != turn:
            continue
        if e.kind == EventKind.SITTER:
            notes.append(read_sitter_event(e.seat or 0, e.text))
            continue
        full, _, public = e.text.partition("\n")
        notes.append(GmNote(e.seat if e.kind == EventKind.EDIT else None, full, public or full))
    return notes


# computer sitters --------------------------------------------------------------------------------

#: why a sitter played: the player was away, or the deadline passed without her sheet
SITTER_WHY = {"vacation": ("you are on vacation", "on vacation"),
              "deadline": ("no sheet of yours was in by the deadline", "no sheet by the deadline")}


def read_sitter_level(command: str, engine: AnyGame) -> str:
    """`SITTER STRONG` or `SITTER OFF`: the level named ("" for off), one the game has."""
    word = command.split()[1].lower()
    if word == "off":
        return ""
    if engine.bot(word) is None:
        levels = ", ".join(engine.info.bot_levels) or "none"
        raise PbemError(f"{engine.info.title} has no computer player of level {word!r}; its levels: {levels}")
    return word


def sitter_event(name: str, level: str, why: str, sheet: str) -> str:
    """A SITTER event's text: a line for the history, then the level and why, then the sheet."""
    return f"{name}'s computer sitter ({level}) wrote the sheet: {SITTER_WHY[why][1]}\n{level} {why}\n{sheet}"


def read_sitter_event(seat: int, text: str) -> GmNote:
    """The report's note of a SITTER event (`sitter_event`)."""
    summary, what, *sheet = text.split("\n")
    level, why = what.split()
    return GmNote(seat, f"Your computer sitter ({level}) wrote your sheet, since {SITTER_WHY[why][0]}:", summary,
                  tuple(line for line in sheet if line.strip()) or ("(an empty sheet: the default moves)",))


def vacation_span(v: Vacation) -> tuple[datetime, datetime]:
    """From the start of the first day to the end of the last, UTC."""
    start = datetime(v.start.year, v.start.month, v.start.day, tzinfo=timezone.utc)
    end = datetime(v.end.year, v.end.month, v.end.day, tzinfo=timezone.utc) + timedelta(days=1, seconds=-1)
    return start, end


def sent_seats(store: Store, session: Session, game: GameRow, players: Sequence[PlayerRow]) -> set[int]:
    assert game.id is not None
    current = store.current_sheets(session, game.id, game.turn)
    return {p.seat for p in players if p.id in current}


def standing_seats(store: Store, session: Session, game: GameRow, players: Sequence[PlayerRow]) -> set[int]:
    return {p.seat for p in players if not p.bot and store.standing_sheet(session, p, game.turn) is not None}
