"""A turn's resolution in named stages: gather the sheets, standing orders, defaults, resolve, record, render, queue."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from pbem import bots, clock, commands
from pbem.clock import show_utc as _show
from pbem.clock import utc as _aware
from pbem.errors import PbemError
from pbem.faults import checkpoint
from pbem.games import AnyGame
from pbem.games.base import TurnOutcome
from pbem.games.chance import Chance, game_chance
from pbem.games.sheet import read_sheet
from pbem.intake import Deps, recover
from pbem.mailer import GmNote, Outgoing
from pbem.store import EventKind, EventRow, GameRow, PlayerRow, SheetRow, TurnRow
from pbem.turn_record import TurnRecord

#: attempts at a resolution whose sheets changed between reading them and writing the turn; the
#: last attempt takes the write lock before it reads anything, so it cannot be overtaken
ATTEMPTS = 3


@dataclass(frozen=True)
class TurnSummary:
    """What a resolution did (or, in a preview, would do), for whoever asked for it."""

    game: str
    turn: int
    resolved_at: datetime
    state: Any
    resolutions: tuple[Any, ...]
    mails: int
    preview: bool
    engine: AnyGame
    delivery_problem: str = ""  # the turn is resolved, but its mail is still queued (why)


@dataclass(frozen=True)
class Turn:
    """One resolution under way: its transaction, and the game as it was read in it."""

    m: Deps
    session: Session
    game: GameRow
    players: tuple[PlayerRow, ...]
    engine: AnyGame
    before: Any
    at: datetime
    preview: bool


@dataclass(frozen=True)
class Sheets:
    """The sheet texts a turn is resolved with, by player name, and the rows they were read from."""

    texts: dict[str, str | None]
    in_force: frozenset[int]  # ids of the sheets in force for the turn
    standing: dict[int, int | None]  # player id -> the standing sheet read for a player who sent none
    sitters: tuple[Sitting, ...] = ()  # the sheets computer sitters wrote, in seat order


@dataclass(frozen=True)
class Sitting:
    """A sheet a computer sitter wrote for a person's seat, and why it did."""

    player: PlayerRow
    why: str  # a key of commands.SITTER_WHY
    sheet: str


@dataclass(frozen=True)
class Resolved:
    """The turn resolved in memory: the game's outcome and the record to keep."""

    outcome: TurnOutcome[Any, Any]
    record: TurnRow
    over: bool


class _Overtaken(Exception):
    """A sheet came in (or the position changed) while the turn was drawn: start over."""


def resolve_turn(m: Deps, name: str, *, at: datetime, preview: bool = False, force: bool = False,
                 turn: int | None = None) -> TurnSummary:
    """Resolve the game's current turn once: position, resolutions, turn record and mail in one
    transaction, with the sheets in force when that transaction takes the write lock."""
    if not preview:
        recover(m)  # every mail stored raw is taken in before a turn is resolved
        with m.store.session() as session:
            game = m.store.game(session, name)
            check_resolvable(m, session, game, at, force=force, turn=turn)
            computers = any(p.bot for p in m.store.players(session, game.id or 0))
        # the computer players write their sheets now, from the position at the start of the
        # turn, each through intake in a transaction of its own (before the turn's one)
        if computers:
            bots.take_sheets(m, name)
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return _attempt(m, name, at=at, preview=preview, force=force, turn=turn, hold=attempt == ATTEMPTS)
        except _Overtaken:
            continue
    raise PbemError(f"the sheets of {name} changed during each of {ATTEMPTS} attempts to resolve it; nothing was changed")


def _attempt(m: Deps, name: str, *, at: datetime, preview: bool, force: bool, turn: int | None,
             hold: bool) -> TurnSummary:
    with m.store.session() as session:
        t = open_turn(m, session, name, at=at, preview=preview, force=force, turn=turn, hold=hold)
        sheets = gather(t)
        checkpoint("after-gather")
        resolved = resolve(t, sheets, defaults(t, sheets))
        if preview:
            session.rollback()
            return TurnSummary(name, t.game.turn, at, resolved.outcome.state, resolved.outcome.resolutions, 0, True,
                               t.engine)
        # Drawn before the first write: on SQLite a write takes the database's one write lock,
        # and drawing the board must not hold it.
        mails = render(t, resolved.record, sheets.sitters)
        take_turn(t, sheets, resolved)
        queue(t, resolved.record, mails, sheets.sitters)
        summary = TurnSummary(name, resolved.record.turn, at, resolved.outcome.state, resolved.outcome.resolutions,
                              len(mails), False, t.engine)
        checkpoint("before-resolve-commit")
    checkpoint("after-resolve-commit")
    return summary


def open_turn(m: Deps, session: Session, name: str, *, at: datetime, preview: bool, force: bool,
              turn: int | None, hold: bool) -> Turn:
    """The game and its players, read in the resolution's transaction. `hold`: the write lock is
    taken first, so nothing can come in between reading the sheets and writing the turn."""
    game = m.store.lock_game(session, name)
    if hold and not preview and game.id is not None and m.store.claim_turn(session, game.id, game.turn):
        game = m.store.lock_game(session, name)  # read again, under the lock
    check_resolvable(m, session, game, at, force=force or preview, turn=turn)
    assert game.id is not None
    engine = m.engine(game)
    return Turn(m, session, game, tuple(m.store.players(session, game.id)), engine,
                engine.load_state(json.loads(game.state)), at, preview)


def check_resolvable(m: Deps, session: Session, game: GameRow, at: datetime, *, force: bool,
                     turn: int | None) -> None:
    """Raise PbemError when the game's turn may not be resolved now: another turn asked for,
    the game over, or (without `force`) no orders in since the last turn, before the deadline."""
    name = game.name
    assert game.id is not None
    if turn is not None and turn != game.turn:
        if turn < game.turn:
            raise PbemError(f"turn {turn} of {name} is already resolved; nothing was changed "
                            f"(the current turn is {game.turn})")
        raise PbemError(f"turn {turn} of {name} is not open yet; the current turn is {game.turn}")
    if game.over:
        raise PbemError(f"{name} is over; the last turn was {game.turn - 1}")
    previous = m.store.turn(session, game.id, game.turn - 1) if game.turn > 1 else None
    if previous is not None and not force:
        due = game.deadline is not None and _aware(game.deadline) <= at
        if not due and m.store.sheets_since(session, game.id, game.turn, previous.resolved_at) == 0:
            raise PbemError(
                f"turn {game.turn - 1} of {name} is already resolved, and no orders for turn {game.turn} "
                f"have come in yet (deadline: {_show(game.deadline)}); nothing was changed. "
                f"To resolve turn {game.turn} now with default moves, add --force."
            )


# the stages --------------------------------------------------------------------------------------

def gather_sheets(t: Turn) -> dict[int, SheetRow]:
    """The sheets in force for the turn, by player id."""
    assert t.game.id is not None
    return t.m.store.current_sheets(t.session, t.game.id, t.game.turn)


def standing_orders(t: Turn, sent: dict[int, SheetRow]) -> dict[int, SheetRow | None]:
    """For each person who sent no sheet, the STANDING sheet of an earlier turn that plays for
    them (None: there is none)."""
    return {p.id or 0: t.m.store.standing_sheet(t.session, p, t.game.turn) for p in t.players
            if p.id not in sent and not p.bot}


def gather(t: Turn) -> Sheets:
    """Every seat's sheet text: the sheet in force, else standing orders; in a preview, what the
    computer players would write (nothing is stored)."""
    sent = gather_sheets(t)
    standing = standing_orders(t, sent)
    used = {**{pid: s for pid, s in standing.items() if s is not None}, **sent}
    texts = {p.name: used[p.id].text if p.id in used else None for p in t.players}
    if t.preview:
        for p in bots.due_seats(t.engine, t.before, t.players, set(sent)):
            texts[p.name] = bots.write_sheet(t.engine, t.before, p.seat, p.bot, t.game)
    sat = sitters(t, set(used))
    for s in sat:
        texts[s.player.name] = f"{commands.SITTER_MARK} ({s.player.sitter})\n{s.sheet}"
    return Sheets(texts, frozenset(s.id or 0 for s in sent.values()),
                  {pid: s.id if s is not None else None for pid, s in standing.items()}, sat)


def sitters(t: Turn, used: set[int]) -> tuple[Sitting, ...]:
    """The computer sitters that play this turn: each person who named one, is on move and has
    no sheet to play (sent or standing), while she is on vacation or once the deadline has
    passed, gets the sheet her sitter writes from her own view instead of the default move."""
    moving = set(t.engine.may_send(t.before))
    late = t.game.deadline is not None and _aware(t.game.deadline) <= t.at
    out = []
    for p in t.players:
        if p.bot or not p.sitter or p.id in used or p.seat not in moving:
            continue
        away = commands.is_away(p, t.at)
        if away or late:
            sheet = bots.write_sheet(t.engine, t.before, p.seat, p.sitter, t.game)
            out.append(Sitting(p, "vacation" if away else "deadline", sheet))
    return tuple(out)


def defaults(t: Turn, sheets: Sheets) -> dict[int, Any]:
    """Each seat's orders: its sheet read, else the game's default move (when it has one)."""
    orders = {}
    for p in t.players:
        text = sheets.texts[p.name]
        if text is not None:
            orders[p.seat] = t.engine.read(t.before, read_sheet(text), p.seat).orders
        else:
            default = t.engine.default_orders(t.before, p.seat)
            if default is not None:
                orders[p.seat] = default
    return orders


def resolve(t: Turn, sheets: Sheets, orders: dict[int, Any]) -> Resolved:
    """The game resolves the turn with its chance of the turn; the record keeps what it drew."""
    game = t.game
    chance = game_chance(game, game.turn)
    outcome = t.engine.resolve(t.before, orders, chance)
    return Resolved(outcome, record(t, sheets, outcome, chance), t.engine.is_over(outcome.state))


def record(t: Turn, sheets: Sheets, outcome: TurnOutcome[Any, Any], chance: Chance) -> TurnRow:
    """The turn's record: everything its reports are rendered from, again and again."""
    game = t.game
    assert game.id is not None
    schedule = clock.Schedule(game.schedule) if game.schedule else None
    deadline = None if t.engine.is_over(outcome.state) or schedule is None else schedule.next_after(t.at)
    return TurnRow(game_id=game.id, turn=game.turn, resolved_at=t.at, deadline=deadline, before=game.state,
                   after=dumps(t.engine.dump_state(outcome.state)),
                   resolutions=dumps([t.engine.resolution_to_json(r) for r in outcome.resolutions]),
                   sheets=dumps(sheets.texts), dice=dumps([d.to_json() for d in chance.drawn]),
                   correction=t.m.store.corrections(t.session, game.id, game.turn))


def render(t: Turn, turn: TurnRow, sat: Sequence[Sitting]) -> list[Outgoing]:
    """Every report of the turn, with the GM's notes of the turn and what the sitters wrote (as
    the turn's SITTER events will tell it when a report is sent again)."""
    notes = commands.gm_notes(t.m.store, t.session, t.game, turn.turn)
    notes += [commands.read_sitter_event(s.player.seat, _sitter_text(s)) for s in sat]
    return render_turn(t.m, t.game, t.players, turn, notes)


def _sitter_text(s: Sitting) -> str:
    return commands.sitter_event(s.player.name, s.player.sitter, s.why, s.sheet)


def take_turn(t: Turn, sheets: Sheets, resolved: Resolved) -> None:
    """The first write: the game moves past the turn if it still stands as it was read. Then,
    holding the write lock, the sheets are read again: if one came in (or went) since they were
    gathered, the resolution starts over, so a sheet acknowledged as in force is resolved.

    On PostgreSQL the game's row lock (`lock_game`) keeps out intake's `claim_turn` from the
    start, and each statement reads what committed before it (READ COMMITTED): the second read
    finds what the first found. On SQLite nothing is locked before this write."""
    game, turn, number = t.game, resolved.record, t.game.turn
    assert game.id is not None
    if not t.m.store.advance_turn(t.session, game, after=turn.after, over=resolved.over, deadline=turn.deadline):
        now = t.m.store.lock_game(t.session, game.name)  # why not: read afresh, under the lock the update took
        if now.turn != number or now.over:
            raise PbemError(f"turn {number} of {game.name} was resolved by another worker; nothing was changed")
        raise _Overtaken  # the GM changed the position meanwhile
    checkpoint("after-first-write")
    if t.m.store.sheets_in_force(t.session, game.id, game.turn) != sheets.in_force:
        raise _Overtaken
    for player_id, standing in sheets.standing.items():
        player = next(p for p in t.players if p.id == player_id)
        now_standing = t.m.store.standing_sheet(t.session, player, game.turn)
        if (now_standing.id if now_standing is not None else None) != standing:
            raise _Overtaken


def queue(t: Turn, turn: TurnRow, mails: Sequence[Outgoing], sat: Sequence[Sitting] = ()) -> None:
    """The turn's record kept, what the sitters wrote (a turn resolved again tells its own) and
    its reports queued, in the turn's transaction."""
    assert t.game.id is not None
    for e in t.m.store.events(t.session, t.game.id, (EventKind.SITTER,)):
        if e.turn == turn.turn:
            t.session.delete(e)
    for s in sat:
        t.session.add(EventRow(game_id=t.game.id, turn=turn.turn, kind=EventKind.SITTER, seat=s.player.seat,
                               text=_sitter_text(s), created_at=t.at))
    t.session.add(turn)
    try:
        t.session.flush()
    except IntegrityError:
        raise PbemError(f"turn {t.game.turn} of {t.game.name} was resolved by another worker; "
                        "nothing was changed") from None
    t.m.mailer.queue(t.session, t.game, turn.turn, *mails)


# what else reads a turn ----------------------------------------------------------------------------

def render_turn(m: Deps, game: GameRow, players: Sequence[PlayerRow], turn: TurnRow,
                notes: Sequence[GmNote] | None = None) -> list[Outgoing]:
    """Every mail of a stored turn: the same bytes each time."""
    told = TurnRecord.from_row(m.engine(game), turn)
    if notes is None:
        with m.store.session() as session:
            notes = commands.gm_notes(m.store, session, game, turn.turn)
    return m.mailer.reports(game, told.game, players, told.after, told.resolutions, turn=told.turn,
                            resolved=told.resolved_at, deadline=told.deadline,
                            correction=told.correction, notes=notes, sheets=told.sheets)


def all_in(m: Deps, session: Session, game: GameRow) -> bool:
    """Whether every seat that must move has a sheet in force (a computer player never holds a
    turn up: it writes its sheet when the turn is resolved)."""
    assert game.id is not None
    engine = m.engine(game)
    waiting = set(engine.to_move(engine.load_state(json.loads(game.state))))
    players = {p.id: p for p in m.store.players(session, game.id)}
    waiting -= {p.seat for p in players.values() if p.bot}
    sent = {players[pid].seat for pid in m.store.current_sheets(session, game.id, game.turn)}
    return waiting <= sent


def dumps(data: object) -> str:
    """JSON as the store keeps it: keys sorted, no spaces, so the same value is the same text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
