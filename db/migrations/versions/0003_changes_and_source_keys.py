"""unique change sequence per claim key, observation roles, source keys

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("observations") as batch:
        batch.add_column(sa.Column("change_seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("role", sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False, server_default=""))
        batch.add_column(sa.Column("verification", sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False, server_default=""))
        batch.add_column(sa.Column("mismatch", sa.Text(), nullable=False, server_default=""))
    # number the changes already stored, oldest first, per claim and key
    op.execute(
        "UPDATE observations SET change_seq = (SELECT count(*) FROM observations AS o2"
        " WHERE o2.claim_id = observations.claim_id AND o2.key = observations.key"
        " AND o2.changed AND o2.id <= observations.id) WHERE changed"
    )
    op.execute("UPDATE observations SET role = CASE WHEN changed THEN 'change' ELSE 'restates' END")
    with op.batch_alter_table("observations") as batch:
        batch.create_unique_constraint("uq_observations_change", ["claim_id", "key", "change_seq"])
    op.create_table(
        "source_keys",
        sa.Column("source", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("claim_id", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("grp", sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("missing_since", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("missing_polls", sa.Integer(), nullable=False),
        sa.Column("updated_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("source", "claim_id", "key"),
    )
    # what each snapshot source said last, from the observations already stored
    op.execute(
        "INSERT INTO source_keys (source, claim_id, key, grp, value, missing_polls, updated_at)"
        " SELECT o.source, o.claim_id, o.key, '', o.value, 0, o.seen_at FROM observations AS o"
        " WHERE o.id IN (SELECT max(id) FROM observations GROUP BY source, claim_id, key)"
        " AND o.source IN (SELECT name FROM watchers WHERE kind IN ('prices', 'benchmark', 'page'))"
    )


def downgrade() -> None:
    op.drop_table("source_keys")
    with op.batch_alter_table("observations") as batch:
        batch.drop_constraint("uq_observations_change", type_="unique")
        batch.drop_column("mismatch")
        batch.drop_column("verification")
        batch.drop_column("role")
        batch.drop_column("change_seq")
