"""Seats for every game: options of a game, set-up draws, teams and computer players.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24

`game.options` is the JSON list of the game's options; `game.setup_chance` the draws made at
set-up (turn 0). `player.team` names the seat's team ("" for none) and `player.bot` the level
of the computer player holding the seat ("" for a person).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("options", sa.String(), server_default="[]", nullable=False))
        batch.add_column(sa.Column("setup_chance", sa.String(), server_default="[]", nullable=False))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("team", sa.String(), server_default="", nullable=False))
        batch.add_column(sa.Column("bot", sa.String(), server_default="", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("bot")
        batch.drop_column("team")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("setup_chance")
        batch.drop_column("options")
