"""The tables as pbem 0.1 created them with SQLModel.metadata.create_all.

Revision ID: 0001
Revises:
Create Date: 2026-11-20

Exactly what create_all made: same tables, columns, types, nullability, indexes and (unnamed)
unique and foreign-key constraints, so a database made by create_all is stamped at 0001 and
looks the same as one migrated here. Types are written out (not imported from the models),
so later model changes can't change what this revision does.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _moment() -> sa.DateTime:
    return sa.DateTime(timezone=True)  # SQLModel's UTCDateTime: TIMESTAMP WITH TIME ZONE / DATETIME


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("rules", sa.String(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("deadline", _moment(), nullable=True),
        sa.Column("interval_seconds", sa.Integer(), nullable=True),
        sa.Column("created_at", _moment(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_game_name", "game", ["name"], unique=True)

    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("email", sa.String(), nullable=False),
        sa.Column("secret", sa.String(), nullable=False),
        sa.Column("timezone", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
    )
    op.create_index("ix_player_email", "player", ["email"], unique=False)
    op.create_index("ix_player_game_id", "player", ["game_id"], unique=False)

    op.create_table(
        "message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=False),
        sa.Column("received_at", _moment(), nullable=False),
        sa.Column("source", sa.String(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("sender", sa.String(), nullable=False),
        sa.Column("subject", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("step", sa.String(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("traceback", sa.String(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
    )
    op.create_index("ix_message_message_id", "message", ["message_id"], unique=True)
    op.create_index("ix_message_status", "message", ["status"], unique=False)

    op.create_table(
        "sheet",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("received_at", _moment(), nullable=False),
        sa.Column("current", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"]),
        sa.ForeignKeyConstraint(["message_id"], ["message.id"]),
    )
    op.create_index("ix_sheet_game_id", "sheet", ["game_id"], unique=False)

    op.create_table(
        "turn",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("resolved_at", _moment(), nullable=False),
        sa.Column("deadline", _moment(), nullable=True),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.Column("resolutions", sa.Text(), nullable=False),
        sa.Column("sheets", sa.Text(), nullable=False),
        sa.Column("dice", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "turn"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
    )
    op.create_index("ix_turn_game_id", "turn", ["game_id"], unique=False)

    op.create_table(
        "mail",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("recipient", sa.String(), nullable=False),
        sa.Column("subject", sa.String(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", _moment(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(), nullable=False),
        sa.Column("sent_at", _moment(), nullable=True),
        sa.Column("path", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
    )
    op.create_index("ix_mail_message_id", "mail", ["message_id"], unique=True)
    op.create_index("ix_mail_status", "mail", ["status"], unique=False)


def downgrade() -> None:
    for table, indexes in (
        ("mail", ("ix_mail_status", "ix_mail_message_id")),
        ("turn", ("ix_turn_game_id",)),
        ("sheet", ("ix_sheet_game_id",)),
        ("message", ("ix_message_status", "ix_message_message_id")),
        ("player", ("ix_player_game_id", "ix_player_email")),
        ("game", ("ix_game_name",)),
    ):
        for index in indexes:
            op.drop_index(index, table_name=table)
        op.drop_table(table)
