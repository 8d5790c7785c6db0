"""Every VACATION a player takes, not only the last.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28

`player.away` holds the player's vacation spans as JSON, `[["2026-12-01", "2026-12-05"], ...]`
(first and last day, inclusive); it replaces `away_from` and `away_to`, which held one span, so
that a second VACATION erased the first (and the turns it had excused became missed ones).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_player = sa.table("player", sa.column("id", sa.Integer()), sa.column("away", sa.Text()),
                   sa.column("away_from", sa.DateTime(timezone=True)), sa.column("away_to", sa.DateTime(timezone=True)))


def _day(value: datetime | str) -> str:
    return (value if isinstance(value, datetime) else datetime.fromisoformat(value)).date().isoformat()


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("away", sa.Text(), server_default="", nullable=False))
    conn = op.get_bind()
    rows = conn.execute(sa.select(_player.c.id, _player.c.away_from, _player.c.away_to)
                        .where(_player.c.away_from.is_not(None), _player.c.away_to.is_not(None))).all()
    for player, start, end in rows:
        spans = json.dumps([[_day(start), _day(end)]])
        conn.execute(_player.update().where(_player.c.id == player).values(away=spans))
    with op.batch_alter_table("player") as batch:
        batch.drop_column("away_from")
        batch.drop_column("away_to")


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("away_from", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("away_to", sa.DateTime(timezone=True), nullable=True))
    conn = op.get_bind()
    for player, away in conn.execute(sa.select(_player.c.id, _player.c.away).where(_player.c.away != "")).all():
        start, end = json.loads(away)[-1]  # one span was all the old schema held: the last
        first = datetime.fromisoformat(start)
        last = datetime.fromisoformat(end) + timedelta(days=1, seconds=-1)
        conn.execute(_player.update().where(_player.c.id == player).values(away_from=first, away_to=last))
    with op.batch_alter_table("player") as batch:
        batch.drop_column("away")
