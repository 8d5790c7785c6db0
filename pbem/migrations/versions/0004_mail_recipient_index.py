"""Index outgoing mail by recipient: every reply checks how many went to that address lately.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_mail_recipient", "mail", ["recipient"])


def downgrade() -> None:
    op.drop_index("ix_mail_recipient", table_name="mail")
