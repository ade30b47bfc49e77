"""index for the latest change of a claim and key

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_observations_claim_changed", "observations", ["claim_id", "key", "changed", "id"])


def downgrade() -> None:
    op.drop_index("ix_observations_claim_changed", table_name="observations")
