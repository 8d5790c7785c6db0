"""The club's mail commands: a mail without GAME and SECRET lines that holds any of them is the
club's, answered in one mail to the sender.

Anyone may LIST the open games, JOIN or LEAVE one, OBSERVE or UNOBSERVE a game, go on STANDBY
and ask for HELP; a sender who plays no game here (a stranger) is answered only when the GM lets
pbem answer strangers, and within the strangers' hourly limit, like every mail from strangers.
Whatever changes something for the sender (JOIN, LEAVE, OBSERVE, STANDBY, RESIGN, I AM ALSO)
waits for a CONFIRM line with the token the answer carries, from the address itself: a forged
From gains nobody a seat, nor sends reports to anybody who did not ask for them.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session, col, select

from pbem.club import people, ratings, signup, standby, tournament
from pbem.club.rows import ObserverRow, OpenGameRow, PendingRow, PersonRow, StandbyRow
from pbem.errors import PbemError
from pbem.games import find_game, games
from pbem.games.sheet import MAX_LINES, MAX_TEXT, normalise
from pbem.intake import Deps, Intake, Stop
from pbem.mail.headers import read_message_id
from pbem.mail.sender import validate_address
from pbem.mailer import Answer
from pbem.moderator import MAX_GAME_NAME
from pbem.store import MessageStatus
from pbem.tokens import new_secret

#: the commands and how many words may follow each (fewest, most)
WORDS: dict[str, tuple[int, int]] = {
    "LIST": (0, 0), "JOIN": (1, 2), "LEAVE": (1, 1), "OBSERVE": (1, 1), "UNOBSERVE": (1, 1),
    "STANDBY": (1, 2), "TAKEOVER": (2, 2), "RESIGN": (1, 1), "RATINGS": (0, 1), "STANDINGS": (0, 1),
    "CONFIRM": (1, 1), "STATUS": (0, 0), "HELP": (0, 0), "I AM ALSO": (1, 1),
}
#: what a stranger may ask
STRANGERS = ("LIST", "JOIN", "LEAVE", "OBSERVE", "UNOBSERVE", "STANDBY", "HELP", "CONFIRM", "RATINGS",
             "STANDINGS")
#: what waits for a CONFIRM from the address
CONFIRMED = ("JOIN", "LEAVE", "OBSERVE", "STANDBY", "RESIGN", "I AM ALSO")
#: club commands one mail may hold
MAX_COMMANDS = 10
#: how long a confirmation token is good for
CONFIRM_DAYS = 7
#: the pseudo-address of the club's chores (games to start, seats to hand over), done after the mail
CHORES = ""

HELP = (
    ("LIST", "the games open for sign-up, their seats and players"),
    ("JOIN NAME [WORD]", "take a seat in an open game (WORD: the invitation word, where the GM set one)"),
    ("LEAVE NAME", "give your seat in an open game back before it starts"),
    ("OBSERVE NAME / UNOBSERVE NAME", "get / stop the public report of each turn of a game"),
    ("STANDBY SYSTEM / STANDBY OFF SYSTEM", "join / leave the pool that takes over quiet seats of a game system"),
    ("TAKEOVER GAME SEAT", "take a seat offered to the standby pool"),
    ("RESIGN GAME", "give up your seat in a game"),
    ("STATUS", "every game you play or watch, what is due and each deadline"),
    ("RATINGS [SYSTEM]", "the ratings of a game system (or of every system)"),
    ("STANDINGS [TOURNAMENT]", "a tournament's standings and rounds (default: the running ones)"),
    ("I AM ALSO ADDRESS", "another address of yours (confirmed from that address)"),
    ("TIMEZONE ZONE", "with another of these lines: your time zone (e.g. Europe/London) for STATUS's deadlines"),
    ("CONFIRM TOKEN", "confirm what a mail of yours asked (the token is in pbem's answer)"),
)


@dataclass(frozen=True)
class Command:
    word: str
    args: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join([self.word, *self.args])


def read_commands(text: str) -> list[Command]:
    """The club's command lines of a mail (quotes and the signature skipped), in order."""
    found: list[Command] = []
    for number, raw in enumerate(text[:MAX_TEXT].splitlines()):
        stripped = raw.strip()
        if number >= MAX_LINES or stripped.startswith("--") and not stripped[2:].strip():
            break
        if stripped.startswith(">"):
            continue
        words = normalise(raw).split()
        if not words:
            continue
        head = " ".join(words[:3]).upper()
        word, args = (head, words[3:]) if head == "I AM ALSO" else (words[0].upper(), words[1:])
        counts = WORDS.get(word)
        longest = 254 if word == "I AM ALSO" else MAX_GAME_NAME  # an address; else a name, a word or a token
        if counts is None or not counts[0] <= len(args) <= counts[1] or any(len(a) > longest for a in args):
            continue
        found.append(Command(word, tuple(args)))
        if len(found) >= MAX_COMMANDS:
            break
    return found


def is_clubs(m: Deps, session: Session, it: Intake, found: list[Command]) -> bool:
    """A mail with a GAME or SECRET line is a game's; HELP alone is a player's game help
    when the sender plays a game (as it always was)."""
    if it.sheet.game is not None or it.sheet.secret is not None or not found:
        return False
    if found and all(c.word == "HELP" for c in found):
        return not any(not g.over for g in m.store.games_of_address(session, it.sender))
    return True


@dataclass(frozen=True)
class Desk:
    """The club as the mailer's game: answers are named after it."""

    id: int | None = None
    name: str = "club"
    turn: int = 0
    deadline: None = None


@dataclass(frozen=True)
class Member:
    """The sender as the mailer's reader."""

    name: str
    email: str
    game_id: int = 0
    seat: int = -1
    secret: str = ""
    timezone: str = "UTC"
    bot: str = ""


@dataclass
class Club:
    """One club mail on its way: the sender, their person (if any) and the answers so far."""

    m: Deps
    session: Session
    it: Intake
    person: PersonRow | None
    answers: list[Answer]
    token: str = ""

    def answer(self, command: Command, opening: str, lines: list[str]) -> None:
        self.answers.append(Answer(command.text, opening, tuple(lines)))

    def pending(self, command: Command) -> None:
        """Hold `command` until the address confirms it; one token for the mail."""
        if not self.token:
            self.token = new_secret()
        self.session.add(PendingRow(address=self.it.sender, token=self.token, action=command.word,
                                    argument=" ".join(command.args), name=self.it.sender_name,
                                    created_at=self.m.now()))


def take(m: Deps, session: Session, it: Intake) -> None:
    """The pipeline's club step: the club's mail is answered here, and goes no further."""
    found = read_commands(it.text)
    if not is_clubs(m, session, it, found) or "@" not in it.sender:
        return
    people.sync(session, m.now())
    person = people.person_of(session, it.sender)
    if person is None and not m.store.games_of_address(session, it.sender):
        it.row.stranger = True
        if not m.policy.reply_to_strangers:
            raise Stop(MessageStatus.REFUSED, "a stranger's club mail: pbem answers no strangers here")
        if m.store.strangers_since(session, m.now() - timedelta(hours=1)) >= m.policy.strangers_per_hour:
            raise Stop(MessageStatus.REFUSED, "a stranger's club mail beyond the strangers' hourly limit")
    club = Club(m, session, it, person, [])
    if it.sheet.timezone is not None:
        _timezone(club, it.sheet.timezone)
    for command in dict.fromkeys(found):
        if it.row.stranger and command.word not in STRANGERS:
            club.answer(command, "not done:", [f"{command.word} is for players of this club; LIST shows the games "
                                               "open for sign-up."])
            continue
        try:
            HANDLERS[command.word](club, command)
        except PbemError as err:
            club.answer(command, "not done:", [f"{err}."])
    if club.token:
        club.answers.append(Answer("CONFIRM", "to go ahead, reply with this line (from this address):",
                                   (f"  CONFIRM {club.token}", "",
                                    f"It is good for {CONFIRM_DAYS} days; without it nothing changes.")))
    send(club)
    words = ", ".join(dict.fromkeys([*(["TIMEZONE"] if it.sheet.timezone else []), *(c.word for c in found)]))
    raise Stop(MessageStatus.ANSWERED, f"club: {words}")


def send(club: Club) -> None:
    """The one answer, to the sender, within the replies' hourly limit."""
    m, it = club.m, club.it
    if not club.answers or not m.mailer.may_reply(club.session, it.sender):
        return
    name = club.person.name if club.person is not None else people.clean_name(it.sender_name, it.sender)
    original = read_message_id(it.msg) if it.msg is not None else ""
    it.alerts.append(m.mailer.answers(Desk(), Member(name, it.sender), club.answers, key=it.row.id or 0,
                                      original=original or None))


# the commands ---------------------------------------------------------------------------------

def _help(club: Club, command: Command) -> None:
    club.answer(command, "these lines work in a mail to pbem without GAME and SECRET lines:",
                [f"  {word:<36} {what}" for word, what in HELP]
                + ["", "A game's own commands (orders, STATUS of one game, HISTORY, ...) go in a mail with its "
                   "GAME and SECRET lines."])


def _timezone(club: Club, zone: str) -> None:
    """A TIMEZONE line (checked by the sheet reader) sets the person's zone: STATUS tells deadlines in it."""
    command = Command("TIMEZONE", (zone,))
    if club.person is None:
        club.answer(command, "not done:", ["pbem keeps a time zone for the people who play here; join a game first."])
        return
    club.person.timezone = zone
    club.session.add(club.person)
    club.answer(command, "your time zone is set:", [f"STATUS tells your deadlines in {zone} as well as in UTC."])


def _list(club: Club, command: Command) -> None:
    club.answer(command, "the games open for sign-up:", signup.listing(club.session))


def _join(club: Club, command: Command) -> None:
    row = _open(club, command.args[0])
    word = command.args[1] if len(command.args) > 1 else ""
    signup.check_join(club.session, row, club.person, word, known=club.person is not None)
    club.pending(command)
    club.answer(command, f"a seat in {row.name} is yours once you confirm it.",
                [f"{row.name}: {find_game(row.game).info.title}, {signup.how_it_starts(row)}."])


def _leave(club: Club, command: Command) -> None:
    row = _open(club, command.args[0])
    if club.person is None or not any(s.person_id == club.person.id for s in signup.signups(club.session, row)):
        raise PbemError(f"you have no seat in {row.name}")
    club.pending(command)
    club.answer(command, f"your seat in {row.name} is given back once you confirm it.", [])


def _observe(club: Club, command: Command) -> None:
    name = _game_name(club, command.args[0])
    club.pending(Command(command.word, (name,)))
    club.answer(command, f"the public report of each turn of {name} comes to you once you confirm it.", [])


def _unobserve(club: Club, command: Command) -> None:
    rows = club.session.exec(select(ObserverRow).where(ObserverRow.address == club.it.sender)).all()
    mine = [r for r in rows if r.game_name.lower() == command.args[0].lower()]
    for r in mine:
        club.session.delete(r)
    club.answer(command, "done:" if mine else "nothing to stop:",
                [f"no more reports of {command.args[0]} come to you." if mine
                 else f"you do not observe {command.args[0]}."])


def _standby(club: Club, command: Command) -> None:
    off = command.args[0].upper() == "OFF"
    if off != (len(command.args) == 2):
        raise PbemError(f"write STANDBY SYSTEM or STANDBY OFF SYSTEM; the systems: {', '.join(_systems())}")
    system = find_game(command.args[-1]).info.name
    club.pending(Command(command.word, ("OFF", system) if off else (system,)))
    club.answer(command, f"you {'leave' if off else 'join'} the standby pool of {system} once you confirm it.", [])


def _takeover(club: Club, command: Command) -> None:
    assert club.person is not None
    offer = standby.claim_offer(club.session, club.person, command.args[0], command.args[1])
    chore(club, "HANDOVER", f"{offer.game_id} {offer.seat} {club.it.sender}")
    club.answer(command, "the seat is yours:", ["Its welcome mail, with your secret and the story so far, follows."])


def _resign(club: Club, command: Command) -> None:
    assert club.person is not None
    seat = standby.seat_in(club.session, club.person, command.args[0])
    if not find_game(seat.game.game).info.bot_levels and not standby.settings(club.session, seat.game).on_resign \
            .startswith("computer:"):
        raise PbemError(f"{seat.game.name} has no computer player to keep your seat while the pool is asked; "
                        "write to the GM")
    club.pending(Command(command.word, (seat.game.name,)))
    club.answer(command, f"your seat {seat.player.name} in {seat.game.name} is given up once you confirm it.",
                [standby.resign_note(club.session, seat)])


def _status(club: Club, command: Command) -> None:
    assert club.person is not None
    club.answer(command, "your games:", standby.my_games(club.session, club.person))


def _ratings(club: Club, command: Command) -> None:
    club.answer(command, "the ratings, from every finished rated game:",
                ratings.table_lines(club.session, command.args[0] if command.args else None))


def _standings(club: Club, command: Command) -> None:
    club.answer(command, "the standings:", tournament.standings_lines(club.session, command.args[0] if command.args else None))


def _also(club: Club, command: Command) -> None:
    assert club.person is not None
    address = validate_address(command.args[0]).lower()
    owner = people.person_of(club.session, address)
    if owner is not None:
        raise PbemError(f"{address} is {'yours already' if owner.id == club.person.id else 'somebody else’s'}")
    token = new_secret()
    club.session.add(PendingRow(address=address, token=token, action="ALSO", argument=str(club.person.id),
                                name=club.person.name, created_at=club.m.now()))
    if club.m.mailer.may_reply(club.session, address):
        club.it.alerts.append(club.m.mailer.answers(Desk(), Member(club.person.name, address), [Answer(
            "I AM ALSO", f"{club.person.name} <{club.it.sender}> says this address is theirs too.",
            ("If it is yours, reply from this address with the line", "", f"  CONFIRM {token}", "",
             "Otherwise do nothing: nothing changes."))], key=f"also-{club.it.row.id}", original=None))
    club.answer(command, f"a mail went to {address}:", ["Confirm from there with the CONFIRM line it holds."])


def _confirm(club: Club, command: Command) -> None:
    since = club.m.now() - timedelta(days=CONFIRM_DAYS)
    rows = club.session.exec(select(PendingRow).where(PendingRow.address == club.it.sender, PendingRow.done == False,  # noqa: E712
                                                      col(PendingRow.created_at) >= since)).all()
    given = command.args[0].strip().upper().encode()
    mine = [r for r in rows if hmac.compare_digest(given, r.token.upper().encode())]
    if not mine:
        raise PbemError(f"{command.args[0][:40]!r} confirms nothing pending from {club.it.sender} (a token is good "
                        f"for {CONFIRM_DAYS} days, and once)")
    for row in mine:
        row.done = True
        club.session.add(row)
        try:
            CONFIRMS[row.action](club, row)
        except PbemError as err:
            club.answer(Command(row.action, (row.argument,)), "not done:", [f"{err}."])


# what a CONFIRM does ----------------------------------------------------------------------------

def _person(club: Club, row: PendingRow) -> PersonRow:
    if club.person is None:
        club.person = people.ensure_person(club.session, club.it.sender, row.name, club.m.now())
    return club.person


def _do_join(club: Club, row: PendingRow) -> None:
    name, _, word = row.argument.partition(" ")
    game = signup.hold(club.session, _open(club, name))
    known = club.person is not None
    signup.check_join(club.session, game, club.person, word, known=known)
    seat = signup.join(club.session, game, _person(club, row), club.it.sender, club.m.now())
    joined = len(signup.signups(club.session, game))
    lines = [f"You play as {seat.name}; {joined} of {game.max_seats} seats are taken.",
             "The seats (and who moves first) are drawn when the game starts; your welcome mail then brings your "
             "secret."]
    if signup.ready(game, joined, club.m.now()):
        chore(club, "START", game.name)
        lines = [f"You play as {seat.name}. The game is full and starts now: your welcome mail follows."]
    club.answer(Command("JOIN", (game.name,)), f"you have a seat in {game.name}.", lines)


def _do_leave(club: Club, row: PendingRow) -> None:
    game = _open(club, row.argument)
    gone = signup.leave(club.session, game, _person(club, row))
    club.answer(Command("LEAVE", (game.name,)), "done:" if gone else "nothing to do:",
                [f"your seat in {game.name} is given back." if gone else f"you have no seat in {game.name}."])


def _do_observe(club: Club, row: PendingRow) -> None:
    person = _person(club, row)
    known = club.session.exec(select(ObserverRow).where(ObserverRow.game_name == row.argument,
                                                        ObserverRow.address == club.it.sender)).first()
    if known is None:
        club.session.add(ObserverRow(game_name=row.argument, address=club.it.sender, person_id=person.id or 0,
                                     created_at=club.m.now()))
    club.answer(Command("OBSERVE", (row.argument,)), "done:",
                [f"the public report of each turn of {row.argument} comes to you; UNOBSERVE {row.argument} stops it."])


def _do_standby(club: Club, row: PendingRow) -> None:
    person = _person(club, row)
    off, _, system = row.argument.rpartition(" ")
    mine = club.session.exec(select(StandbyRow).where(StandbyRow.person_id == person.id,
                                                      StandbyRow.game_system == system)).first()
    if off:
        if mine is not None:
            club.session.delete(mine)
        club.answer(Command("STANDBY", (row.argument,)), "done:", [f"you are out of the standby pool of {system}."])
        return
    if mine is None:
        club.session.add(StandbyRow(person_id=person.id or 0, game_system=system, created_at=club.m.now()))
    club.answer(Command("STANDBY", (system,)), "done:", [
        f"you are in the standby pool of {system}: when a seat is offered, a mail tells you; the first to answer "
        "TAKEOVER GAME SEAT gets it."])


def _do_resign(club: Club, row: PendingRow) -> None:
    assert club.person is not None
    seat = standby.seat_in(club.session, club.person, row.argument)
    chore(club, "RESIGN", f"{seat.game.id} {seat.player.seat}")
    club.answer(Command("RESIGN", (seat.game.name,)), "done:", [
        f"you have given up {seat.player.name} in {seat.game.name}. {standby.resign_note(club.session, seat)}"])


def _do_also(club: Club, row: PendingRow) -> None:
    person = club.session.get(PersonRow, int(row.argument))
    if person is None or people.person_of(club.session, club.it.sender) is not None:
        raise PbemError(f"{club.it.sender} belongs to somebody already")
    people.add_address(club.session, person, club.it.sender, club.m.now())
    club.person = person
    club.answer(Command("I AM ALSO", (club.it.sender,)), "done:",
                [f"{club.it.sender} is now an address of {person.name}."])


def chore(club: Club, action: str, argument: str) -> None:
    """Work the mail's transaction cannot do (a game made, a seat handed over): done right after."""
    club.session.add(PendingRow(address=CHORES, token="", action=action, argument=argument, created_at=club.m.now()))


def _open(club: Club, name: str) -> OpenGameRow:
    row = signup.find_open(club.session, name)
    if row is not None and row.status == "started":
        raise PbemError(f"{row.name} has started, its seats are all taken; LIST shows the games still open")
    if row is not None and row.status == "closed":
        raise PbemError(f"the GM closed the sign-up of {row.name}; LIST shows the games still open")
    if row is None:
        raise PbemError(f"no game called {name!r} is open for sign-up; LIST shows the open games")
    return row


def _game_name(club: Club, name: str) -> str:
    game = next((g for g in club.m.store.games(club.session) if g.name.lower() == name.lower()), None)
    if game is not None:
        return game.name
    row = signup.find_open(club.session, name)
    if row is None or row.status != "open":
        raise PbemError(f"no game called {name!r} is running or open for sign-up here; LIST shows the open games")
    return row.name


def _systems() -> list[str]:
    return [g.info.name for g in games()]


HANDLERS: dict[str, Callable[[Club, Command], None]] = {
    "HELP": _help, "LIST": _list, "JOIN": _join, "LEAVE": _leave, "OBSERVE": _observe, "UNOBSERVE": _unobserve,
    "STANDBY": _standby, "TAKEOVER": _takeover, "RESIGN": _resign, "STATUS": _status, "RATINGS": _ratings,
    "STANDINGS": _standings, "I AM ALSO": _also, "CONFIRM": _confirm,
}
CONFIRMS: dict[str, Callable[[Club, PendingRow], None]] = {
    "JOIN": _do_join, "LEAVE": _do_leave, "OBSERVE": _do_observe, "STANDBY": _do_standby, "RESIGN": _do_resign,
    "ALSO": _do_also,
}
