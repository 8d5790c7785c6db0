"""A game's seed as text, and the chance generator it keys.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28

`game.seed` becomes text, to hold a new game's 256-bit seed (64 hex digits); an older game's
number is kept as its decimal digits, which is the very text its generator was seeded with.
`game.generator` names the chance source: every game already stored gets "legacy" (the Mersenne
Twister it was played with), so its turns replay exactly; new games get "hmac-sha256".
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pbem.errors import PbemError

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        batch.alter_column("seed", existing_type=sa.Integer(), type_=sa.String(), existing_nullable=False,
                           postgresql_using="seed::text")
        batch.add_column(sa.Column("generator", sa.String(), server_default="legacy", nullable=False))


def downgrade() -> None:
    # A number column can't hold a keyed game's seed: rather than lose those games' chance (or
    # replay them with another generator), refuse while there are any.
    bind = op.get_bind()
    keyed = bind.execute(sa.text("SELECT name FROM game WHERE generator != 'legacy' ORDER BY id")).scalars().all()
    if keyed:
        names = ", ".join(keyed[:3]) + (", ..." if len(keyed) > 3 else "")
        raise PbemError(f"can't downgrade below 0010: {len(keyed)} games ({names}) draw from the keyed "
                        "chance generator, which the older schema can't record; remove them first")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("generator")
        batch.alter_column("seed", existing_type=sa.String(), type_=sa.Integer(), existing_nullable=False,
                           postgresql_using="seed::integer")
