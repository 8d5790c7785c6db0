"""Hostile mail: message digests, mail from strangers, addresses that bounce.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24

`message.digest` is a digest of the body, so a known Message-ID with another body is taken
for another mail; `message.stranger` marks mail from an address that plays no game here;
`player.bouncing` says why mail to the player's address came back ("" while it does not).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("message") as batch:
        batch.add_column(sa.Column("digest", sa.String(), server_default="", nullable=False))
        batch.add_column(sa.Column("stranger", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("bouncing", sa.String(), server_default="", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("bouncing")
    with op.batch_alter_table("message") as batch:
        batch.drop_column("stranger")
        batch.drop_column("digest")
