"""Alembic environment: runs on the connection handed in by db.engine.upgrade."""

from alembic import context
from sqlmodel import SQLModel

import db.models  # noqa: F401  (registers the tables)

connection = context.config.attributes.get("connection")
context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
