"""The language a kept first answer was written in.

A retry with the same Idempotency-Key answers the first answer exactly, its words included;
now its ``Content-Language`` says that answer's language too, not the retry's. Keys kept before
this revision have none (NULL) and say the retry's, as they did; they expire within a day.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite cannot drop a column in place on downgrade; adding is the same.
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_column("language")
