"""Retention: sheets found by when they were last changed, and when the purge last ran.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The daily purge looks for sheets untouched since a date: without the index, a scan.
    op.create_index("ix_matches_updated_at", "matches", ["updated_at"])
    op.create_table(
        "maintenance",
        sa.Column("task", sa.String(32), primary_key=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("maintenance")
    op.drop_index("ix_matches_updated_at", table_name="matches")
