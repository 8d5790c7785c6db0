"""The club: people across games, their addresses and tenures, open games and their sign-ups,
observers, the standby pool, seats offered to it, and confirmations by mail.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29

New tables only: no column of a game or a player changes. Every distinct address of today's
players becomes one person (named as the address's first seat, in its time zone), and every
seat held by an address becomes a tenure of that person from the turn its holder took it over.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _id() -> sa.Column[int]:
    return sa.Column("id", sa.Integer(), primary_key=True)


def _at(name: str = "created_at") -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def _text(name: str, **kwargs: object) -> sa.Column[str]:
    return sa.Column(name, sa.String(), nullable=False, **kwargs)  # type: ignore[arg-type]


def _int(name: str, **kwargs: object) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), nullable=False, **kwargs)  # type: ignore[arg-type]


def _ref(name: str, table: str, *, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), sa.ForeignKey(f"{table}.id"), nullable=nullable)


def upgrade() -> None:
    op.create_table("person", _id(), _text("name"), _text("timezone"), _at())
    op.create_table("person_address", _id(), _ref("person_id", "person"), _text("address"), _at())
    op.create_index("ix_person_address_person_id", "person_address", ["person_id"])
    op.create_index("ix_person_address_address", "person_address", ["address"], unique=True)
    op.create_table("tenure", _id(), _ref("player_id", "player"), _ref("person_id", "person"), _ref("game_id", "game"),
                    _int("from_turn"), sa.Column("to_turn", sa.Integer(), nullable=True),
                    _text("ended", server_default=""))
    for column in ("player_id", "person_id", "game_id"):
        op.create_index(f"ix_tenure_{column}", "tenure", [column])
    op.create_table("club_game", sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), primary_key=True,
                                           autoincrement=False),
                    sa.Column("rated", sa.Boolean(), server_default=sa.true(), nullable=False),
                    _int("missed_limit", server_default="0"), _text("on_resign", server_default="standby"))
    op.create_table("open_game", _id(), _text("name"), _text("game"), _text("rules"), _text("options"),
                    _int("min_seats"), _int("max_seats"), sa.Column("starts", sa.DateTime(timezone=True), nullable=True),
                    _text("invite"), sa.Column("strangers", sa.Boolean(), server_default=sa.true(), nullable=False),
                    _int("min_reliability", server_default="0"), _text("deadline"), _text("seed"), _text("status"),
                    sa.Column("seats", sa.Text(), server_default="", nullable=False), _at())
    op.create_index("ix_open_game_name", "open_game", ["name"], unique=True)
    op.create_table("signup", _id(), _ref("open_game_id", "open_game"), _ref("person_id", "person"), _text("name"),
                    _text("address"), _at("joined_at"), sa.UniqueConstraint("open_game_id", "person_id"))
    op.create_index("ix_signup_open_game_id", "signup", ["open_game_id"])
    op.create_table("observer", _id(), _text("game_name"), _text("address"), _ref("person_id", "person"), _at(),
                    sa.UniqueConstraint("game_name", "address"))
    op.create_index("ix_observer_game_name", "observer", ["game_name"])
    op.create_table("standby", _id(), _ref("person_id", "person"), _text("game_system"), _at(),
                    sa.UniqueConstraint("person_id", "game_system"))
    op.create_index("ix_standby_person_id", "standby", ["person_id"])
    op.create_table("seat_offer", _id(), _ref("game_id", "game"), _int("seat"), _int("turn"),
                    sa.Column("taken", sa.Boolean(), server_default=sa.false(), nullable=False), _at())
    op.create_index("ix_seat_offer_game_id", "seat_offer", ["game_id"])
    op.create_table("club_pending", _id(), _text("address"), _text("token"), _text("action"), _text("argument"),
                    _text("name"), sa.Column("done", sa.Boolean(), server_default=sa.false(), nullable=False), _at())
    op.create_index("ix_club_pending_address", "club_pending", ["address"])
    _people_of_todays_players()


_player = sa.table("player", sa.column("id", sa.Integer()), sa.column("game_id", sa.Integer()),
                   sa.column("name", sa.String()), sa.column("email", sa.String()),
                   sa.column("timezone", sa.String()), sa.column("since_turn", sa.Integer()))
_person = sa.table("person", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                   sa.column("timezone", sa.String()), sa.column("created_at", sa.DateTime(timezone=True)))
_address = sa.table("person_address", sa.column("person_id", sa.Integer()), sa.column("address", sa.String()),
                    sa.column("created_at", sa.DateTime(timezone=True)))
_tenure = sa.table("tenure", sa.column("player_id", sa.Integer()), sa.column("person_id", sa.Integer()),
                   sa.column("game_id", sa.Integer()), sa.column("from_turn", sa.Integer()),
                   sa.column("ended", sa.String()))


def _people_of_todays_players() -> None:
    """One person per distinct address (lower case) of the players, oldest seat first; each of
    the address's seats a tenure of that person. Computer players have no address: no person."""
    conn = op.get_bind()
    now = sa.func.current_timestamp()
    people: dict[str, int] = {}
    rows = conn.execute(sa.select(_player.c.id, _player.c.game_id, _player.c.name, _player.c.email,
                                  _player.c.timezone, _player.c.since_turn)
                        .where(_player.c.email != "").order_by(_player.c.id)).all()
    for player, game, name, email, zone, since in rows:
        address = email.strip().lower()
        if address not in people:
            people[address] = conn.execute(_person.insert().values(name=name, timezone=zone or "UTC", created_at=now)
                                           .returning(_person.c.id)).scalar_one()
            conn.execute(_address.insert().values(person_id=people[address], address=address, created_at=now))
        conn.execute(_tenure.insert().values(player_id=player, person_id=people[address], game_id=game,
                                             from_turn=since or 1, ended=""))


def downgrade() -> None:
    for table in ("club_pending", "seat_offer", "standby", "observer", "signup", "open_game", "club_game",
                  "tenure", "person_address", "person"):
        op.drop_table(table)
