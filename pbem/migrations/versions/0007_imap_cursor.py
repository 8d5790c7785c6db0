"""How far each IMAP folder has been read, so that pbem need not trust the \\Seen flag.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23

One row per (account, folder): the folder's UIDVALIDITY and the highest UID taken in. A new
table of its own, touching no other: it applies after any revision that leaves the other
tables alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "imap_cursor",
        sa.Column("account", sa.String(), nullable=False),
        sa.Column("folder", sa.String(), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=False),
        sa.Column("last_uid", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),  # SQLModel's UTCDateTime
        sa.PrimaryKeyConstraint("account", "folder"),
    )


def downgrade() -> None:
    op.drop_table("imap_cursor")
