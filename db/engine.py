"""Engines for SQLite (the embedded default) and PostgreSQL, and schema upgrades via Alembic."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from weakref import WeakKeyDictionary

from sqlalchemy import event, text
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlmodel import create_engine

MIGRATIONS = Path(__file__).parent / "migrations"
EXAMPLES = "sqlite:///claimwatch.db or postgresql://user@host/db"
_REVISION = re.compile(
    r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(?:['\"]([^'\"]+)['\"]|None)", re.M
)


class DatabaseUrlError(ValueError):
    """A database URL that cannot be opened here; the message says what to install or fix."""


def check_url(url: str) -> URL:
    """The parsed URL, or DatabaseUrlError naming the fix: a typo, an unsupported database, a
    missing driver."""
    shown = _hide_password(url)
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUrlError(f"database URL {shown!r} is not a URL like {EXAMPLES}") from None
    backend = parsed.get_backend_name()
    if parsed.drivername == "postgres":
        raise DatabaseUrlError(
            f"database URL {shown!r}: write postgresql:// (not postgres://)"
        ) from None
    if backend == "sqlite":
        return parsed
    if backend != "postgresql":
        raise DatabaseUrlError(
            f"database URL {shown!r}: Claimwatch stores its data in SQLite or PostgreSQL, "
            f"not {backend!r} (e.g. {EXAMPLES})"
        )
    driver = parsed.get_driver_name() if "+" in parsed.drivername else "psycopg"
    module = {"psycopg": "psycopg", "psycopg2": "psycopg2", "asyncpg": "asyncpg"}.get(driver)
    if module != "psycopg":
        raise DatabaseUrlError(
            f"database URL {shown!r}: use postgresql:// or postgresql+psycopg:// "
            f"(the driver {driver!r} is not supported)"
        )
    if importlib.util.find_spec("psycopg") is None:
        raise DatabaseUrlError(
            f"database URL {shown!r} needs the PostgreSQL driver: pip install 'claimwatch[postgres]'"
        )
    return parsed


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names; None for other databases and in-memory SQLite."""
    parsed = check_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser()


def make_engine(url: str, *, immediate: bool = False) -> Engine:
    """An engine for `url`; SQLite gets WAL, foreign keys and a generous busy timeout.

    `immediate`: every SQLite transaction takes the write lock when it begins (BEGIN IMMEDIATE),
    so what a writer reads stays true until it commits, and savepoints work.
    """
    parsed = check_url(url)
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
    if parsed.drivername == "postgresql":
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return create_engine(url, pool_pre_ping=True)


_WRITERS: WeakKeyDictionary = WeakKeyDictionary()


def writing(engine: Engine) -> Engine:
    """The engine the poll writer uses beside `engine`: the same database, immediate on SQLite."""
    if engine.dialect.name != "sqlite":
        return engine
    if engine not in _WRITERS:
        _WRITERS[engine] = make_engine(engine.url.render_as_string(False), immediate=True)
    return _WRITERS[engine]


def _revisions(folder: Path) -> tuple[set[str], set[str]] | None:
    """Every migration's revision and the revisions they build on, read from the files."""
    revisions, parents = set(), set()
    for path in folder.glob("*.py"):
        found = dict(_REVISION.findall(path.read_text(encoding="utf-8")))
        if not found.get("revision"):
            return None
        revisions.add(found["revision"])
        if found.get("down_revision"):
            parents.add(found["down_revision"])
    return revisions, parents


def head_revision(folder: Path = MIGRATIONS / "versions") -> str | None:
    """The newest migration, read from the files; None when it cannot be told without Alembic."""
    known = _revisions(folder)
    heads = known[0] - known[1] if known else set()
    return heads.pop() if len(heads) == 1 else None


def current_revision(engine: Engine) -> str | None:
    """The schema version stored in the database; None for a database without one."""
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except DBAPIError as exc:
        if exc.connection_invalidated or "alembic_version" not in str(exc.orig):
            raise
        return None
    return rows[0][0] if len(rows) == 1 else None


def upgrade(engine: Engine) -> None:
    """Bring the database to the latest schema (idempotent). At head this is one query."""
    head = head_revision()
    current = current_revision(engine)
    if head is not None and current == head:
        return
    known = _revisions(MIGRATIONS / "versions")
    if current is not None and known and current not in known[0]:
        raise DatabaseUrlError(
            f"the database's schema ({current}) is newer than this Claimwatch knows ({head}); "
            "upgrade Claimwatch to open it"
        )
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # on SQLite the driver would run each CREATE outside any transaction: a process killed half
    # way would leave tables without a version; the writer's engine begins a real transaction
    with writing(engine).begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _hide_password(url: str) -> str:
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)
