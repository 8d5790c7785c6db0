"""A mail's bytes in a table of their own.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24

`mail_body` holds each outgoing mail's bytes, apart from its delivery state in `mail`. SQLite
writes a row whole whenever one of its values changes size, so each step of a delivery (claimed,
sent) wrote a report's 60 kB picture and text again; now it writes a row of a few dozen bytes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_body",
        sa.Column("mail_id", sa.Integer(), sa.ForeignKey("mail.id"), primary_key=True, autoincrement=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
    )
    op.execute("INSERT INTO mail_body (mail_id, raw) SELECT id, raw FROM mail")
    with op.batch_alter_table("mail") as batch:
        batch.drop_column("raw")


def downgrade() -> None:
    with op.batch_alter_table("mail") as batch:
        batch.add_column(sa.Column("raw", sa.LargeBinary(), nullable=True))
    op.execute("UPDATE mail SET raw = (SELECT raw FROM mail_body WHERE mail_body.mail_id = mail.id)")
    with op.batch_alter_table("mail") as batch:
        batch.alter_column("raw", existing_type=sa.LargeBinary(), nullable=False)
    op.drop_table("mail_body")
