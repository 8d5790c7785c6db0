"""The club's tables: people across games, open games and their sign-ups, observers, the standby
pool, confirmations by mail, and tournaments (migrations 0012 and 0014).

A `PlayerRow` stays what it was, a seat of one game; a person holds seats through tenures. The
rows here only point at the store's rows, never the other way, so nothing a game keeps changes.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy import true as sa_true
from sqlmodel import Field, SQLModel

from pbem.store import utcnow


class PersonRow(SQLModel, table=True):
    """Someone who plays, watches or waits: one name across games."""

    __tablename__ = "person"
    id: int | None = Field(default=None, primary_key=True)
    name: str
    timezone: str = "UTC"
    created_at: datetime = Field(default_factory=utcnow)


class AddressRow(SQLModel, table=True):
    """One of a person's addresses (lower case); each address belongs to one person."""

    __tablename__ = "person_address"
    id: int | None = Field(default=None, primary_key=True)
    person_id: int = Field(foreign_key="person.id", index=True)
    address: str = Field(unique=True, index=True)
    created_at: datetime = Field(default_factory=utcnow)


class TenureRow(SQLModel, table=True):
    """A person held a seat from `from_turn` until `to_turn` (None: still holds it)."""

    __tablename__ = "tenure"
    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    person_id: int = Field(foreign_key="person.id", index=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    from_turn: int = 1
    to_turn: int | None = None
    # how the tenure ended: "" (it has not, or the game did), "resigned", "replaced"
    ended: str = Field(default="", sa_column_kwargs={"server_default": ""})


class ClubGameRow(SQLModel, table=True):
    """The club's settings of a running game: rated or not, when a quiet seat is offered to the
    standby pool, and who takes a resigned seat."""

    __tablename__ = "club_game"
    game_id: int = Field(foreign_key="game.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    rated: bool = Field(default=True, sa_column_kwargs={"server_default": sa_true()})
    missed_limit: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # 0: never by itself
    on_resign: str = Field(default="standby", sa_column_kwargs={"server_default": "standby"})  # or "computer:LEVEL"


class OpenGameRow(SQLModel, table=True):
    """A game opened for sign-up (`pbem open`): it becomes a game when it starts."""

    __tablename__ = "open_game"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str
    rules: str
    options: str = "[]"  # JSON list
    min_seats: int
    max_seats: int
    starts: datetime | None = None  # None: when full
    invite: str = ""  # the invitation word JOIN needs ("" for none)
    strangers: bool = Field(default=True, sa_column_kwargs={"server_default": sa_true()})
    min_reliability: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # percent of turns kept
    deadline: str = ""  # the deadline rule of the game
    seed: str  # the game's seed, drawn at opening: the seats are drawn from it
    status: str = "open"  # open, started, closed
    seats: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))  # JSON: the draw
    created_at: datetime = Field(default_factory=utcnow)


class SignupRow(SQLModel, table=True):
    __tablename__ = "signup"
    __table_args__ = (UniqueConstraint("open_game_id", "person_id"),)
    id: int | None = Field(default=None, primary_key=True)
    open_game_id: int = Field(foreign_key="open_game.id", index=True)
    person_id: int = Field(foreign_key="person.id")
    name: str
    address: str
    joined_at: datetime = Field(default_factory=utcnow)


class ObserverRow(SQLModel, table=True):
    """An address that gets the public report of each turn of a game (by name: it may be open still)."""

    __tablename__ = "observer"
    __table_args__ = (UniqueConstraint("game_name", "address"),)
    id: int | None = Field(default=None, primary_key=True)
    game_name: str = Field(index=True)
    address: str
    person_id: int = Field(foreign_key="person.id")
    created_at: datetime = Field(default_factory=utcnow)


class StandbyRow(SQLModel, table=True):
    """A person waiting to take over a seat in a game system."""

    __tablename__ = "standby"
    __table_args__ = (UniqueConstraint("person_id", "game_system"),)
    id: int | None = Field(default=None, primary_key=True)
    person_id: int = Field(foreign_key="person.id", index=True)
    game_system: str
    created_at: datetime = Field(default_factory=utcnow)


class OfferRow(SQLModel, table=True):
    """A seat offered to the standby pool; the first TAKEOVER gets it."""

    __tablename__ = "seat_offer"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: int
    turn: int
    taken: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    created_at: datetime = Field(default_factory=utcnow)


class PendingRow(SQLModel, table=True):
    """Something asked by mail that waits for its confirmation (CONFIRM <token>) from `address`."""

    __tablename__ = "club_pending"
    id: int | None = Field(default=None, primary_key=True)
    address: str = Field(index=True)
    token: str
    action: str  # JOIN, ALSO, RESIGN
    argument: str = ""
    name: str = ""  # the name a newcomer signs with
    done: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    created_at: datetime = Field(default_factory=utcnow)


class TournamentRow(SQLModel, table=True):
    """A tournament (`pbem tournament`): rounds of games of one system among its entrants."""

    __tablename__ = "tournament"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str
    rules: str
    options: str = "[]"  # JSON list
    format: str  # swiss, tables, round-robin
    rounds: int
    table_size: int = 2
    deadline: str = ""
    seed: str  # the pairings' chance (seat draws and byes) is keyed by it
    round: int = 0  # the round being played (0: none yet; -n: round n is over and the next one is being made)
    over: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    created_at: datetime = Field(default_factory=utcnow)


class EntrantRow(SQLModel, table=True):
    """A tournament's entrant: a person (with an address), or a computer player of a level."""

    __tablename__ = "tournament_entrant"
    __table_args__ = (UniqueConstraint("tournament_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    name: str
    person_id: int | None = Field(default=None, foreign_key="person.id")
    address: str = ""
    bot: str = ""
    seed_order: int = 0  # its place in the seeding (0 first)


class TableRow(SQLModel, table=True):
    """A game of a tournament's round: one table, its game named `<tournament>-r<round>-t<table>`."""

    __tablename__ = "tournament_table"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "table"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    round: int
    table: int
    game_id: int | None = Field(default=None, foreign_key="game.id")
    # the entrants' ids seat by seat (JSON list); a bye is a table of one, with no game
    entrants: str = Field(default="[]", sa_column=Column(Text, nullable=False, server_default="[]"))
