"""Mail claims, so that several senders can share one outbox.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21

A sender claims a mail (status 'sending', claimed_by, claimed_at) before sending it; a claim
older than the lease may be taken over. next_attempt_at holds a mail back after a failure.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Adding columns needs no table copy on SQLite either: batch mode emits plain ALTER TABLE ADD.
    with op.batch_alter_table("mail") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(), server_default="", nullable=False))
        batch.add_column(sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # Dropping columns recreates the table on SQLite (batch mode copies it).
    with op.batch_alter_table("mail") as batch:
        batch.drop_column("next_attempt_at")
        batch.drop_column("claimed_at")
        batch.drop_column("claimed_by")
