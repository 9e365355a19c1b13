"""A sheet's optional title.

Sheets made before it have none (NULL), which is what a sheet created without one has too:
nothing to backfill. ``created_at`` and ``updated_at`` were there from the first revision.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite cannot drop a column in place on downgrade; adding is the same.
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("title", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("title")
