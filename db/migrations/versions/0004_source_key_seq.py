"""where each source's last word stands in its claim key's history

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("source_keys") as batch:
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("source_keys") as batch:
        batch.drop_column("seq")
