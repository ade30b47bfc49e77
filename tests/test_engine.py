"""Opening databases: the start-up schema check and the database URLs that cannot be opened."""

import subprocess
import sys

import pytest

from db.engine import MIGRATIONS, DatabaseUrlError, check_url, head_revision, make_engine, upgrade


def test_head_read_from_the_files_is_alembics_head():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert head_revision() == ScriptDirectory.from_config(config).get_current_head()


def test_a_database_at_head_is_checked_without_alembic(sqlite_url):
    engine = make_engine(sqlite_url)
    upgrade(engine)  # from nothing: Alembic runs
    engine.dispose()
    code = (
        "import sys\nfrom db.engine import make_engine, upgrade\n"
        f"upgrade(make_engine({sqlite_url!r}))\n"
        "print('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_an_old_schema_is_upgraded(sqlite_url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    engine = make_engine(sqlite_url)
    upgrade(engine)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "-1")
        older = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert older != head_revision()
    upgrade(engine)
    with engine.connect() as connection:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    assert version == head_revision()
    engine.dispose()


@pytest.mark.parametrize(
    "url", ["mysql://u@h/db", "postgres://u@h/db", "::::", "postgresql+psycopg2://u@h/db"]
)
def test_urls_that_cannot_be_opened_raise_one_clear_error(url):
    with pytest.raises(DatabaseUrlError) as caught:
        check_url(url)
    assert "\n" not in str(caught.value) and url in str(caught.value)


def test_passwords_stay_out_of_url_errors():
    with pytest.raises(DatabaseUrlError) as caught:
        check_url("mysql://user:hunter2@h/db")
    assert "hunter2" not in str(caught.value) and "user:***@h" in str(caught.value)


def test_a_schema_newer_than_the_code_is_one_clear_error(sqlite_url):
    from sqlalchemy import text

    engine = make_engine(sqlite_url)
    upgrade(engine)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'zz-from-the-future'"))
    with pytest.raises(DatabaseUrlError, match=r"schema \(zz-from-the-future\) is newer"):
        upgrade(engine)
    engine.dispose()


def test_a_schema_upgrade_cut_short_leaves_no_half_made_schema(sqlite_url, monkeypatch):
    """A process killed while creating the schema must not leave tables without a version: the
    next start would try to create them again and stop at 'table already exists'."""
    import sqlite3

    from alembic.operations import Operations

    made = []
    create_table = Operations.create_table

    def create_then_fail(self, name, *columns, **kw):
        made.append(name)
        table = create_table(self, name, *columns, **kw)
        if len(made) == 3:
            raise KeyboardInterrupt("killed")  # what a signal looks like from inside
        return table

    monkeypatch.setattr(Operations, "create_table", create_then_fail)
    engine = make_engine(sqlite_url)
    with pytest.raises(KeyboardInterrupt):
        upgrade(engine)
    engine.dispose()
    path = sqlite_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert len(made) == 3 and tables == []
    monkeypatch.undo()
    engine = make_engine(sqlite_url)
    upgrade(engine)  # the next start creates the whole schema
    engine.dispose()
