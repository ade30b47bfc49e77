"""Opening the database and running the flow: poll → store → deliver."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from db.engine import make_engine, upgrade
from db.ledger import load_ledger
from db.store import LoadReport, load_ledgers
from monitor.config import Settings


def open_database(settings: Settings) -> tuple[Engine, LoadReport]:
    """An engine on an up-to-date schema with the configured ledgers loaded."""
    ledgers = [load_ledger(name) for name in settings.claims]  # parse all before writing any
    engine = make_engine(settings.database_url)
    upgrade(engine)
    return engine, load_ledgers(engine, ledgers)
