"""Open games: the GM opens a game for sign-up, people JOIN and LEAVE by mail, and the game
starts when full (or at its date with its minimum) with its seats drawn by the game's chance.

The seats are drawn from the game's own seed under the purpose "seats", a stream of its own
that no die of the game shares: nobody who signs up early or late gets a better seat by it,
and the draw is recorded with the open game (the order of sign-up, the order drawn).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from pbem import clock
from pbem.club import people
from pbem.club.rows import OpenGameRow, PersonRow, SignupRow
from pbem.errors import PbemError
from pbem.games import AnyGame, find_game
from pbem.games.chance import Generator, Seeding, game_chance, new_seed
from pbem.store import GameRow

if TYPE_CHECKING:
    from pbem.moderator import Moderator

#: the chance purpose the seats of an open game are drawn under
SEATS = "seats"
#: the longest invitation word
MAX_INVITE = 40
#: how many numbered seat names a sign-up tries
MAX_SEATS_TRIED = 100


@dataclass(frozen=True)
class Opening:
    """What the GM asks of `pbem open`."""

    name: str
    game: str
    rules: str | None
    options: Sequence[str]
    seats: str  # "3-6" or "4"
    start: str  # "when-full" or a moment
    invite: str = ""
    strangers: bool = True
    min_reliability: int = 0
    deadline: str = ""


def read_seats(text: str) -> tuple[int, int]:
    """`3-6` (a range) or `4` (exactly): the fewest and most seats."""
    low, _, high = text.strip().partition("-")
    if not low.isdigit() or not (high.isdigit() or not high) or len(text) > 9:
        raise PbemError(f"--seats takes a number or a range, like 4 or 3-6; not {text!r}")
    first, last = int(low), int(high or low)
    if first > last:
        raise PbemError(f"--seats {text}: the fewest seats come first, like 3-6")
    return first, last


def open_game(m: Moderator, want: Opening) -> OpenGameRow:
    """Open a game for sign-up: checked like `pbem new-game` would check it at either size."""
    from pbem.moderator import check_game_name

    check_game_name(want.name)
    engine = find_game(want.game)
    low, high = read_seats(want.seats)
    ruleset, chosen = engine.info.check_setup(want.rules, want.options, low)
    engine.info.check_setup(ruleset.name, chosen, high)
    if want.deadline:
        clock.Schedule(want.deadline)  # checked now, not when the game starts
    starts = None if want.start.strip().lower() in ("when-full", "full") else clock.parse_moment(want.start)
    if starts is not None and starts <= m.now():
        raise PbemError(f"--start {want.start}: that moment has passed (it is {clock.show_utc(m.now())} now); give a "
                        "later one, or --start when-full")
    if len(want.invite) > MAX_INVITE or not all(ch.isalnum() or ch in "-_" for ch in want.invite):
        raise PbemError(f"--invite takes one word of letters and digits (at most {MAX_INVITE}), not {want.invite!r}")
    if not 0 <= want.min_reliability <= 100:
        raise PbemError(f"--min-reliability is a percent of turns kept, 0 to 100; not {want.min_reliability}")
    with m.store.session() as session:
        if m.store.find_game(session, want.name) is not None or find_open(session, want.name) is not None:
            raise PbemError(f"a game called {want.name!r} exists already; choose another name")
        row = OpenGameRow(name=want.name, game=engine.info.name, rules=ruleset.name, options=json.dumps(list(chosen)),
                          min_seats=low, max_seats=high, starts=starts, invite=want.invite, strangers=want.strangers,
                          min_reliability=want.min_reliability, deadline=want.deadline, seed=new_seed(),
                          created_at=m.now())
        session.add(row)
        session.flush()
        session.expunge(row)
    return row


def set_signup(m: Moderator, name: str, *, strangers: bool | None = None, close: bool = False) -> OpenGameRow:
    """`pbem sign-up`: let strangers join an open game or not, or close its sign-up (its seats
    are given back; it will not start)."""
    with m.store.session() as session:
        row = find_open(session, name)
        if row is not None and row.status != "open":
            raise PbemError(f"{row.name} is {'running' if row.status == 'started' else 'closed'}: its sign-up is over")
        if row is None:
            raise PbemError(f"no game called {name!r} is open for sign-up (`pbem open` opens one)")
        if strangers is not None:
            row.strangers = strangers
        if close:
            row.status = "closed"
        session.add(row)
        session.flush()
        session.expunge(row)
    return row


def find_open(session: Session, name: str) -> OpenGameRow | None:
    return session.exec(select(OpenGameRow).where(func.lower(OpenGameRow.name) == name.lower())).first()


def open_games(session: Session) -> list[OpenGameRow]:
    return list(session.exec(select(OpenGameRow).where(OpenGameRow.status == "open").order_by(col(OpenGameRow.name))))


def signups(session: Session, row: OpenGameRow) -> list[SignupRow]:
    return list(session.exec(select(SignupRow).where(SignupRow.open_game_id == row.id).order_by(col(SignupRow.id))))


def seat_range(row: OpenGameRow) -> str:
    """How many play: "4", or "2 to 4"."""
    return str(row.max_seats) if row.min_seats == row.max_seats else f"{row.min_seats} to {row.max_seats}"


def how_it_starts(row: OpenGameRow) -> str:
    if row.starts is None:
        return f"starts when {row.max_seats} have joined"
    return f"starts {clock.show_utc(row.starts)} with at least {row.min_seats}, or when {row.max_seats} have joined"


def listing(session: Session) -> list[str]:
    """LIST: every open game, with its players and how reliably each keeps their turns."""
    rows = open_games(session)
    if not rows:
        return ["No game is open for sign-up now."]
    lines: list[str] = []
    for row in rows:
        engine = find_game(row.game)
        joined = signups(session, row)
        options = ", ".join(json.loads(row.options)) or "none"
        lines += [f"{row.name}: {engine.info.title}, rules {row.rules}, options: {options}",
                  f"  seats: {len(joined)} taken, {row.max_seats - len(joined)} left ({seat_range(row)} play)",
                  f"  deadlines: {row.deadline or 'set by the GM'}; {how_it_starts(row)}"]
        needs = [*(["an invitation word (JOIN NAME WORD)"] if row.invite else []),
                 *([] if row.strangers else ["a game played here before"]),
                 *([f"{row.min_reliability}% of turns kept"] if row.min_reliability else [])]
        if needs:
            lines.append(f"  joining needs {', '.join(needs)}")
        for signup in joined:
            person = session.get(PersonRow, signup.person_id)
            record = people.reliability(session, person) if person is not None else people.Reliability()
            lines.append(f"  - {signup.name}: {record.line()}")
        lines.append("")
    return [*lines, "JOIN NAME takes a seat (you confirm it from your address); OBSERVE NAME sends you each turn's "
            "public report."]


def check_join(session: Session, row: OpenGameRow, person: PersonRow | None, word: str, *, known: bool) -> None:
    """Why `person` may not join `row` (a PbemError), or nothing. `known`: the address plays or
    played here before."""
    if row.status != "open":
        raise PbemError(f"{row.name} is no longer open for sign-up")
    if row.invite and not hmac.compare_digest(word.strip().lower().encode(), row.invite.lower().encode()):
        raise PbemError(f"{row.name} needs its invitation word: write JOIN {row.name} WORD, with the word the GM "
                        "gave you")
    if not row.strangers and not known:
        raise PbemError(f"{row.name} is open to players of this club only; ask the GM")
    joined = signups(session, row)
    if person is not None and any(s.person_id == person.id for s in joined):
        raise PbemError(f"you have a seat in {row.name} already")
    if len(joined) >= row.max_seats:
        raise PbemError(f"{row.name} is full")
    if row.min_reliability and person is not None:
        record = people.reliability(session, person)
        if record.kept < row.min_reliability:
            raise PbemError(f"{row.name} asks for {row.min_reliability}% of turns kept; you have kept {record.kept}%")


def hold(session: Session, row: OpenGameRow) -> OpenGameRow:
    """The open game locked until the transaction ends, read afresh: of two JOINs for the last
    seat at once (two workers), the second waits here and then counts the first one's seat."""
    session.connection().execute(update(OpenGameRow).where(col(OpenGameRow.id) == row.id)
                                 .values(status=col(OpenGameRow.status)))
    fresh = session.exec(select(OpenGameRow).where(OpenGameRow.id == row.id)
                         .execution_options(populate_existing=True)).one()
    return fresh


def join(session: Session, row: OpenGameRow, person: PersonRow, address: str, at: datetime) -> SignupRow:
    """A seat held for the person under a name of their own within the game."""
    taken = {s.name.lower() for s in signups(session, row)}
    name = seat_name(find_game(row.game), person.name, taken)
    signup = SignupRow(open_game_id=row.id or 0, person_id=person.id or 0, name=name, address=address.lower(),
                       joined_at=at)
    session.add(signup)
    session.flush()
    return signup


def seat_name(engine: AnyGame, wanted: str, taken: set[str]) -> str:
    """The person's name as a seat of the game takes it: letters and digits only, starting with
    a letter ("Ann-Example" plays as AnnExample), numbered past a name taken or a word of the
    game's orders ("Next" plays as Next2)."""
    base = "".join(ch for ch in wanted if ch.isascii() and ch.isalnum())
    base = (base if base[:1].isalpha() else f"P{base}")[:people.MAX_NAME - 3]
    for n in range(1, MAX_SEATS_TRIED):
        name = base if n == 1 else f"{base}{n}"
        if name.lower() in taken:
            continue
        try:
            engine.check_seat_name(name)
        except PbemError:
            continue
        return name
    raise PbemError(f"no seat name of {wanted!r} suits {engine.info.title}; ask the GM")


def leave(session: Session, row: OpenGameRow, person: PersonRow) -> bool:
    mine = [s for s in signups(session, row) if s.person_id == person.id]
    for s in mine:
        session.delete(s)
    return bool(mine)


def ready(row: OpenGameRow, count: int, at: datetime) -> bool:
    """Whether the open game starts now: full, or at its date with its minimum."""
    if row.status != "open":
        return False
    return count >= row.max_seats or (row.starts is not None and clock.utc(row.starts) <= at and count >= row.min_seats)


def draw_seats(row: OpenGameRow, joined: Sequence[SignupRow]) -> list[SignupRow]:
    """The seats in the order drawn with the game's chance (the first seat moves first)."""
    chance = game_chance(Seeding(row.seed, Generator.KEYED), 0, SEATS)
    return chance.shuffle(list(joined))


def start(m: Moderator, name: str) -> GameRow | None:
    """Start the open game `name` if it is ready: seats drawn and recorded, the game made with
    the open game's seed (every player gets the welcome), the tenures begun. None when it is
    not ready, or another worker started it."""
    from pbem.moderator import PlayerSpec

    with m.store.session() as session:
        row = find_open(session, name)
        if row is None:
            return None
        joined = signups(session, row)
        if not ready(row, len(joined), m.now()):
            return None
        order = draw_seats(row, joined)
        session.expunge_all()
    players = [PlayerSpec(s.name, s.address) for s in order]
    try:
        game = m.new_game(row.name, game=row.game, rules=row.rules, players=players, seed=row.seed,
                          deadline=row.deadline or None, options=json.loads(row.options))
    except PbemError:
        with m.store.session() as session:
            if m.store.find_game(session, row.name) is None:
                raise
        return None  # started by another worker meanwhile
    with m.store.session() as session:
        fresh = session.get(OpenGameRow, row.id)
        assert fresh is not None
        fresh.status = "started"
        fresh.seats = json.dumps({"signed": [s.name for s in joined], "drawn": [s.name for s in order],
                                  "purpose": SEATS})
        session.add(fresh)
        people.sync(session, m.now())
    return game


def start_due(m: Moderator) -> list[str]:
    """Start every open game whose date has come with its minimum signed up."""
    with m.store.session() as session:
        names = [r.name for r in open_games(session) if r.starts is not None and clock.utc(r.starts) <= m.now()]
    return [name for name in names if start(m, name) is not None]


def seats_drawn(row: OpenGameRow) -> list[str]:
    """The names in the order drawn, once the game started."""
    return list(json.loads(row.seats)["drawn"]) if row.seats else []
