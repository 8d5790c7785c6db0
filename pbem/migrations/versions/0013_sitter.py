"""A computer sitter for a person's seat.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29

`player.sitter` holds the level of the computer player a person named to play her seat while
she is on vacation and when a deadline passes without her sheet ("" for none, the default).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("sitter", sa.String(), server_default="", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("sitter")
