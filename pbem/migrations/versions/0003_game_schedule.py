"""Per-game deadline schedules, and resolving early once every order is in.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22

`schedule` is the game's deadline rule as the GM wrote it ("7d", "every Friday 18:00
Europe/London", or one moment); `early` resolves a turn as soon as every racing player's
orders are in.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("schedule", sa.String(), server_default="", nullable=False))
        batch.add_column(sa.Column("early", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.drop_column("early")
        batch.drop_column("schedule")
