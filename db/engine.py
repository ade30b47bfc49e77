"""Engines for SQLite (the embedded default) and PostgreSQL, and schema upgrades via Alembic."""

from __future__ import annotations

from pathlib import Path
from weakref import WeakKeyDictionary

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import create_engine

MIGRATIONS = Path(__file__).parent / "migrations"


def make_engine(url: str, *, immediate: bool = False) -> Engine:
    """An engine for `url`; SQLite gets WAL, foreign keys and a generous busy timeout.

    `immediate`: every SQLite transaction takes the write lock when it begins (BEGIN IMMEDIATE),
    so what a writer reads stays true until it commits, and savepoints work.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            if immediate:  # SQLAlchemy, not the sqlite3 module, begins the transactions
                dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        if immediate:
            event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
        return engine
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        url = str(parsed.set(drivername="postgresql+psycopg"))
    return create_engine(url, pool_pre_ping=True)


_WRITERS: WeakKeyDictionary = WeakKeyDictionary()


def writing(engine: Engine) -> Engine:
    """The engine the poll writer uses beside `engine`: the same database, immediate on SQLite."""
    if engine.dialect.name != "sqlite":
        return engine
    if engine not in _WRITERS:
        _WRITERS[engine] = make_engine(engine.url.render_as_string(False), immediate=True)
    return _WRITERS[engine]


def upgrade(engine: Engine) -> None:
    """Bring the database to the latest schema (idempotent)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
