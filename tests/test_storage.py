"""The storage suite: runs on SQLite and, where one answers, on PostgreSQL."""

from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from db import queries
from db.engine import upgrade
from db.ledger import parse_ledger
from db.models import Alert, ClaimEvent, Item, Observation, WatcherState
from db.store import load_ledgers

NOW = datetime(2026, 9, 1, tzinfo=UTC)


def ledger(value=10, title="A number"):
    return parse_ledger(
        {
            "name": "t",
            "stated_at": "2026-08-25",
            "claims": [
                {
                    "id": "t.n",
                    "title": title,
                    "kind": "number",
                    "value": value,
                    "unit": "W",
                    "sources": [{"publisher": "P", "quote": "q"}],
                },
                {
                    "id": "t.s",
                    "title": "S",
                    "kind": "status",
                    "value": "a",
                    "ladder": ["a", "b"],
                    "sources": [{"publisher": "P"}],
                },
            ],
        },
        "t.toml",
    )


def test_upgrade_is_idempotent(engine):
    upgrade(engine)
    upgrade(engine)
    with Session(engine) as session:
        assert session.exec(select(ClaimEvent)).all() == []


def test_loading_twice_changes_nothing(engine):
    first = load_ledgers(engine, [ledger()], now=NOW)
    second = load_ledgers(engine, [ledger()], now=NOW)
    assert (first.added, second.added, second.unchanged, second.edited) == (2, 0, 2, 0)
    with Session(engine) as session:
        assert len(session.exec(select(ClaimEvent)).all()) == 2


def test_edit_is_a_dated_event_and_keeps_the_old_baseline(engine):
    load_ledgers(engine, [ledger(10)], now=NOW)
    later = datetime(2026, 10, 1, tzinfo=UTC)
    report = load_ledgers(engine, [ledger(12)], now=later)
    assert report.edited == 1
    with Session(engine) as session:
        events = queries.timeline(session=session, claim_ids=["t.n"])
    assert [(e["kind"], e["value"]) for e in events] == [("baseline", 10), ("edit", 12)]
    assert events[1]["at"] == later
    assert events[1]["previous"] == 10
    assert events[0]["at"] == datetime(2026, 8, 25, tzinfo=UTC)


def _watcher_and_item(session):
    session.add(WatcherState(name="w", kind="feed", url="http://127.0.0.1/x"))
    session.flush()
    item = Item(watcher="w", dedupe_key="k", content_hash="h", seen_at=NOW)
    session.add(item)
    session.flush()
    return item


def test_duplicate_item_is_rejected(engine):
    with Session(engine) as session:
        _watcher_and_item(session)
        session.add(Item(watcher="w", dedupe_key="k", content_hash="h2", seen_at=NOW))
        with pytest.raises(IntegrityError):
            session.flush()


def test_duplicate_observation_and_alert_are_rejected(engine):
    load_ledgers(engine, [ledger()], now=NOW)
    with Session(engine) as session:
        item = _watcher_and_item(session)

        def obs():
            return Observation(
                claim_id="t.n", value="11", at=NOW, seen_at=NOW, source="w", item_id=item.id
            )

        session.add(obs())
        session.flush()
        session.add(obs())
        with pytest.raises(IntegrityError):
            session.flush()
        session.rollback()
    with Session(engine) as session:

        def alert():
            return Alert(
                event_key="obs:1",
                channel="slack",
                kind="change",
                created_at=NOW,
                next_attempt_at=NOW,
            )

        session.add(alert())
        session.flush()
        session.add(alert())
        with pytest.raises(IntegrityError):
            session.flush()


def test_current_value_follows_changes_not_restatements(engine):
    load_ledgers(engine, [ledger()], now=NOW)
    with Session(engine) as session:
        item = _watcher_and_item(session)
        claim = queries.get_claims(session=session, ids=["t.n"])[0]
        assert queries.current_value(session=session, claim=claim).value == 10
        session.add(
            Observation(
                claim_id="t.n",
                value="10.1",
                at=NOW,
                seen_at=NOW,
                source="w",
                item_id=item.id,
                changed=False,
            )
        )
        session.commit()
        assert queries.current_value(session=session, claim=claim).value == 10
        item2 = Item(watcher="w", dedupe_key="k2", content_hash="h", seen_at=NOW)
        session.add(item2)
        session.flush()
        session.add(
            Observation(
                claim_id="t.n",
                value="14",
                at=NOW,
                seen_at=NOW,
                source="w",
                item_id=item2.id,
                changed=True,
                delta_pct=40.0,
            )
        )
        session.commit()
        assert queries.current_value(session=session, claim=claim).value == 14


def test_keyed_values_start_at_their_first_observation(engine):
    load_ledgers(engine, [ledger()], now=NOW)
    with Session(engine) as session:
        item = _watcher_and_item(session)
        claim = queries.get_claims(session=session, ids=["t.n"])[0]
        assert queries.current_value(session=session, claim=claim, key="m:input").value is None
        session.add(
            Observation(
                claim_id="t.n",
                key="m:input",
                value="2.5",
                at=NOW,
                seen_at=NOW,
                source="w",
                item_id=item.id,
            )
        )
        session.commit()
        assert queries.current_value(session=session, claim=claim, key="m:input").value == 2.5
        assert queries.current_by_key(session=session, claim=claim)["m:input"].value == 2.5


def test_plain_sql_in_the_writer_binds_like_the_orm_and_raises_sqlalchemy_errors(engine):
    """The writer's plain statements store times as the ORM reads them back, and a driver's
    error arrives as SQLAlchemy's, which the batch retry and the typed failures look for."""
    from sqlalchemy.exc import DBAPIError

    from db.engine import writing
    from db.writer import Sql

    when = datetime(2026, 11, 2, 9, 30, 15, 123456, tzinfo=UTC)
    with Session(writing(engine)) as session:
        session.begin()
        sql = Sql(session)
        sql.many(
            "INSERT INTO watchers (name, kind, url, consecutive_failures, items_seen, polls, "
            "health, last_polled_at) VALUES (?, ?, ?, 0, 0, 0, 'new', ?)",
            [("w", "feed", "http://127.0.0.1/f", when)],
        )
        with pytest.raises(DBAPIError) as caught, session.begin_nested():
            session.connection()  # the SAVEPOINT, as the writer makes it
            sql.rows("INSERT INTO items (watcher) VALUES (?)", ["w"])
        assert isinstance(caught.value, IntegrityError) and "items" in str(caught.value)
        session.commit()
    with Session(engine) as session:
        stored = session.get(WatcherState, "w").last_polled_at
    assert stored.replace(tzinfo=UTC) == when
