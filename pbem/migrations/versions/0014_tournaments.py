"""Tournaments: the tournament, its entrants and the tables of its rounds.

Revision ID: 0014
Revises: 0012
Create Date: 2026-11-29

New tables only, pointing at the club's people (0012) and at games; ratings keep no table of
their own (they are recomputed from the finished games).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _text(name: str, **kwargs: object) -> sa.Column[str]:
    return sa.Column(name, sa.String(), nullable=False, **kwargs)  # type: ignore[arg-type]


def _int(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), nullable=False)


def upgrade() -> None:
    op.create_table("tournament", sa.Column("id", sa.Integer(), primary_key=True), _text("name"), _text("game"),
                    _text("rules"), _text("options"), _text("format"), _int("rounds"), _int("table_size"),
                    _text("deadline"), _text("seed"), _int("round"),
                    sa.Column("over", sa.Boolean(), server_default=sa.false(), nullable=False),
                    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False))
    op.create_index("ix_tournament_name", "tournament", ["name"], unique=True)
    op.create_table("tournament_entrant", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
                    _text("name"), sa.Column("person_id", sa.Integer(), sa.ForeignKey("person.id"), nullable=True),
                    _text("address"), _text("bot"), _int("seed_order"), sa.UniqueConstraint("tournament_id", "name"))
    op.create_index("ix_tournament_entrant_tournament_id", "tournament_entrant", ["tournament_id"])
    op.create_table("tournament_table", sa.Column("id", sa.Integer(), primary_key=True),
                    sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournament.id"), nullable=False),
                    _int("round"), _int("table"),
                    sa.Column("game_id", sa.Integer(), sa.ForeignKey("game.id"), nullable=True),
                    sa.Column("entrants", sa.Text(), server_default="[]", nullable=False),
                    sa.UniqueConstraint("tournament_id", "round", "table"))
    op.create_index("ix_tournament_table_tournament_id", "tournament_table", ["tournament_id"])


def downgrade() -> None:
    for table in ("tournament_table", "tournament_entrant", "tournament"):
        op.drop_table(table)
