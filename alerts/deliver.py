"""The deliverer: sends due outbox rows and records each outcome.

Each row is claimed (pending → sending) in its own committed update before anything is sent, so two
deliverers never send the same row. A process killed after sending but before marking leaves the
row in `sending`; after STALE_SENDING it is sent again: the one case where a message can repeat.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

import alerts.console  # noqa: F401  (registers the channels)
import alerts.email  # noqa: F401
import alerts.slack  # noqa: F401
from alerts import enabled_channels
from alerts.base import Alerter, DeliveryError
from alerts.views import alert_view
from db.models import Alert
from monitor.config import Settings, parse_duration
from watchers.fetch import MAX_RETRY_AFTER

log = logging.getLogger("claimwatch.alerts")
STALE_SENDING = timedelta(minutes=10)


@dataclass
class DeliveryReport:
    sent: int = 0
    retrying: int = 0
    given_up: int = 0
    messages: int = 0
    errors: list[str] = field(default_factory=list)


def deliver(
    engine: Engine,
    settings: Settings,
    *,
    now: datetime | None = None,
    ignore_schedule: bool = False,
    alerters: dict[str, Alerter] | None = None,
) -> DeliveryReport:
    """Send what is due (everything pending with `ignore_schedule`) on the configured channels."""
    now = now or datetime.now(UTC)
    channels = enabled_channels(settings)
    alerters = alerters or {c: Alerter.registry[c](settings) for c in channels}
    report = DeliveryReport()
    _reclaim_stale(engine, now)
    with Session(engine) as session:
        query = select(Alert).where(Alert.status == "pending", col(Alert.channel).in_(channels))
        if not ignore_schedule:
            query = query.where(Alert.next_attempt_at <= now)
        due = list(session.exec(query.order_by(Alert.id)))
    groups: dict[tuple, list[int]] = {}
    for alert in due:
        alerter = alerters[alert.channel]
        key = (
            (alert.channel, "item", alert.item_id)
            if alerter.group_by_item and alert.kind == "change" and alert.item_id
            else (alert.channel, "alert", alert.id)
        )
        groups.setdefault(key, []).append(alert.id)
    try:
        for (channel, *_), ids in groups.items():
            claimed = _claim(engine, ids, now)
            if claimed:
                _send(engine, settings, alerters[channel], claimed, now, report)
    finally:
        for alerter in alerters.values():
            alerter.close()
    return report


def _reclaim_stale(engine: Engine, now: datetime) -> None:
    with Session(engine) as session:
        session.exec(
            update(Alert)
            .where(Alert.status == "sending", Alert.next_attempt_at < now - STALE_SENDING)
            .values(status="pending")
        )
        session.commit()


def _claim(engine: Engine, ids: list[int], now: datetime) -> list[int]:
    claimed = []
    with Session(engine) as session:
        for alert_id in ids:
            result = session.exec(
                update(Alert)
                .where(Alert.id == alert_id, Alert.status == "pending")
                .values(status="sending", attempts=Alert.attempts + 1, next_attempt_at=now)
            )
            if result.rowcount == 1:
                claimed.append(alert_id)
        session.commit()
    return claimed


def _send(
    engine: Engine,
    settings: Settings,
    alerter: Alerter,
    ids: list[int],
    now: datetime,
    report: DeliveryReport,
) -> None:
    """Send one message of claimed rows and record every row's outcome: sent, to retry, or given
    up. A row that cannot be rendered is given up with its reason; the others still go."""
    with Session(engine) as session:
        rows, views = [], []
        for alert_id in ids:
            row = session.get(Alert, alert_id)
            try:
                views.append(alert_view(session, row))
                rows.append(row)
            except Exception as exc:  # a stored value no channel can show: never left `sending`
                _unrenderable(row, exc, report)
                session.add(row)
        if rows:
            _attempt(alerter, rows, views, settings, now, report)
        for row in rows:
            session.add(row)
        session.commit()


def _attempt(
    alerter: Alerter,
    rows: list[Alert],
    views: list[dict],
    settings: Settings,
    now: datetime,
    report: DeliveryReport,
) -> None:
    try:
        alerter.send(views)
    except DeliveryError as exc:
        report.errors.append(f"{alerter.channel}: {exc}")
        log.warning("delivery on %s failed: %s", alerter.channel, exc)
        for row in rows:
            _failed(row, exc, settings, now, report)
    except Exception as exc:  # the channel could not render this message
        if len(rows) > 1:  # alone, the rows it can render still go
            for row, view in zip(rows, views, strict=True):
                _attempt(alerter, [row], [view], settings, now, report)
            return
        log.error("alert %s on %s cannot be rendered: %r", rows[0].id, alerter.channel, exc)
        _unrenderable(rows[0], exc, report)
    else:
        report.messages += 1
        for row in rows:
            row.status, row.sent_at, row.last_error = "sent", now, None
            report.sent += 1


def _unrenderable(row: Alert, exc: Exception, report: DeliveryReport) -> None:
    row.status = "given_up"
    row.last_error = f"cannot be rendered: {type(exc).__name__}: {exc}"[:500]
    report.given_up += 1
    report.errors.append(f"{row.channel}: alert {row.id} {row.last_error}")


def _failed(
    row: Alert, exc: DeliveryError, settings: Settings, now: datetime, report: DeliveryReport
) -> None:
    row.last_error = str(exc)[:500]
    created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
    if exc.permanent or now - created >= parse_duration(settings.alerts.give_up_after):
        row.status = "given_up"
        report.given_up += 1
        return
    base, cap = (
        parse_duration(settings.alerts.retry_base),
        parse_duration(settings.alerts.retry_max),
    )
    wait = min(base * (2 ** max(row.attempts - 1, 0)), cap)
    if exc.retry_after:  # clamped: an absurd Retry-After waits a week at most
        wait = max(wait, timedelta(seconds=min(exc.retry_after, MAX_RETRY_AFTER)))
    row.status, row.next_attempt_at = "pending", now + wait
    report.retrying += 1
