"""The GM's toolbox and the players' mail commands.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24

`game.paused` stops deadlines, `game.press` lets PRESS be relayed, `game.result` holds the
result the GM declared; `player.since_turn` starts a replacement's tenure, `player.away_from`,
`away_to` and `vacation_days` hold a VACATION; `sheet.standing` keeps a sheet in force for later
turns; `turn.correction` counts resolutions after rollbacks; `undone_turn` keeps every undone
turn whole; `game_event` records what the GM and the players' commands did.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.add_column(sa.Column("press", sa.Boolean(), server_default=sa.true(), nullable=False))
        batch.add_column(sa.Column("result", sa.String(), server_default="", nullable=False))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("since_turn", sa.Integer(), server_default="1", nullable=False))
        batch.add_column(sa.Column("away_from", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("away_to", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("vacation_days", sa.Integer(), server_default="0", nullable=False))
    with op.batch_alter_table("sheet") as batch:
        batch.add_column(sa.Column("standing", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("turn") as batch:
        batch.add_column(sa.Column("correction", sa.Integer(), server_default="0", nullable=False))
    op.create_table(
        "undone_turn",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("correction", sa.Integer(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("resolutions", sa.Text(), nullable=False),
        sa.Column("sheets", sa.Text(), nullable=False),
        sa.Column("dice", sa.Text(), nullable=False),
    )
    op.create_index("ix_undone_turn_game_id", "undone_turn", ["game_id"], unique=False)
    op.create_table(
        "game_event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_game_event_game_id", "game_event", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_table("game_event")
    op.drop_table("undone_turn")
    with op.batch_alter_table("turn") as batch:
        batch.drop_column("correction")
    with op.batch_alter_table("sheet") as batch:
        batch.drop_column("standing")
    with op.batch_alter_table("player") as batch:
        for name in ("vacation_days", "away_to", "away_from", "since_turn"):
            batch.drop_column(name)
    with op.batch_alter_table("game") as batch:
        for name in ("result", "press", "paused"):
            batch.drop_column(name)
