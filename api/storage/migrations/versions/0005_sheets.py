"""One word for one thing: the match sheets' table is ``sheets``, and a saved answer names the
sheet it made by ``sheet_id``.

The API's addresses still say ``/v1/matches``; inside, the stored thing is a sheet.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.rename_table("matches", "sheets")
    # An index keeps its name through a table's rename; it is named after its table.
    op.drop_index("ix_matches_updated_at", table_name="sheets")
    op.create_index("ix_sheets_updated_at", "sheets", ["updated_at"])
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.alter_column("match_id", new_column_name="sheet_id")


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.alter_column("sheet_id", new_column_name="match_id")
    op.drop_index("ix_sheets_updated_at", table_name="sheets")
    op.create_index("ix_matches_updated_at", "sheets", ["updated_at"])
    op.rename_table("sheets", "matches")
