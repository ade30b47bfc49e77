"""The cluster on PostgreSQL: one Procrastinate app whose jobs carry only a watcher's name.

`claimwatch worker` runs the jobs (monitor.worker), `claimwatch scheduler` queues them
(monitor.leader). Jobs, locks and heartbeats live in the database that holds the claims, so
scaling out adds no infrastructure. Watchers of one URL form a group named by its first watcher
(the lead): one poll job fetches the URL once and fans the response out to every watcher of it.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, col, select

from db.models import WatcherState
from monitor.config import ConfigError, Settings, WatcherConfig, parse_duration

log = logging.getLogger("claimwatch.cluster")
QUEUE = "claimwatch"
POLL, DELIVER = "claimwatch.poll", "claimwatch.deliver"
DIGEST, MILESTONES = "claimwatch.digest", "claimwatch.milestones"
# advisory lock keys (two int4s): the first says what is locked, the second which one
SETUP, LEADER, HOST_SLOT = 0x436C0001, 0x436C0002, 0x436C0003
STOP_GRACE = 30.0  # seconds running jobs get to finish on SIGTERM before they are released
# one delivery job waiting and one running at most; it goes before waiting polls
DELIVERY = {"queue": QUEUE, "queueing_lock": "deliver", "lock": "deliver", "priority": 10}
# the delivery job, queued in the transaction that stores the alerts (Procrastinate's own insert,
# with its unique "todo" queueing lock: a delivery already waiting will send these too)
_DEFER_DELIVERY = text(
    "INSERT INTO procrastinate_jobs (queue_name, task_name, priority, lock, queueing_lock, args)"
    " VALUES (:queue, :task, :priority, :lock, :queueing_lock, CAST(:args AS jsonb))"
    " ON CONFLICT (queueing_lock) WHERE status = 'todo' DO NOTHING"
)


def conninfo(settings: Settings) -> str:
    """The psycopg connection string of a PostgreSQL database_url; a one-line error otherwise."""
    url = make_url(settings.database_url)
    if url.get_backend_name() != "postgresql":
        raise ConfigError(
            f"{settings.source}: database_url: the cluster needs PostgreSQL "
            f"(postgresql://user@host/db), not {url.get_backend_name()}; "
            "on one machine use 'claimwatch run'"
        )
    if importlib.util.find_spec("procrastinate") is None:
        raise ConfigError("the cluster needs Procrastinate: pip install 'claimwatch[cluster]'")
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def process_name(role: str) -> str:
    """What PostgreSQL shows for a connection (pg_stat_activity.application_name)."""
    return f"claimwatch {role} {socket.gethostname()}:{os.getpid()}"[:63]


def lock_key(kind: int, name: str) -> tuple[int, int]:
    """An advisory lock key for `name` in the space of `kind`."""
    return kind - 2**31, zlib.crc32(name.encode()) - 2**31


def build_app(settings: Settings, *, role: str, pool_size: int = 4):
    """The Procrastinate app of this cluster with Claimwatch's four tasks registered on it."""
    import procrastinate

    from monitor import worker

    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(
            conninfo=conninfo(settings),
            min_size=1,
            max_size=pool_size,
            kwargs={"application_name": process_name(role)},
        )
    )
    # a job a shutdown or a crash interrupted runs again; the scheduler re-queues what is left
    retry = procrastinate.RetryStrategy(max_attempts=5, wait=2)
    for name, func in (
        (POLL, worker.poll_task),
        (DELIVER, worker.deliver_task),
        (DIGEST, worker.digest_task),
        (MILESTONES, worker.milestones_task),
    ):
        app.task(name=name, queue=QUEUE, pass_context=True, retry=retry)(func)
    return app


def defer_delivery(session: Session) -> None:
    """Queue a delivery in the session's transaction: the job commits with the alerts it sends,
    or not at all (a worker killed between the two loses neither)."""
    session.execute(_DEFER_DELIVERY, {**DELIVERY, "task": DELIVER, "args": '{"timestamp": 0}'})


def prepare(settings: Settings) -> Engine:
    """Bring the schema (Claimwatch's and Procrastinate's) up to date and load the ledgers, one
    process at a time however many start together."""
    import psycopg
    from procrastinate.schema import SchemaManager

    from monitor.service import open_database

    with psycopg.connect(conninfo(settings), autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s, %s)", lock_key(SETUP, "schema"))
        engine, _ = open_database(settings)
        if conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()[0] is None:
            conn.execute(SchemaManager.get_schema())
            log.info("created the job tables")
    return engine


# ---------------------------------------------------------------- which watchers poll together


def url_groups(settings: Settings, accepts: dict[str, str]) -> dict[str, list[str]]:
    """Enabled watchers by the request that serves them (URL, Accept, redirect rule, timeout),
    keyed by the first of each group in the configuration: the name a poll job carries."""
    groups: dict[tuple, list[str]] = {}
    for config in settings.watchers:
        if config.enabled:
            key = (config.url, accepts[config.name], config.allow_private_redirects, config.timeout)
            groups.setdefault(key, []).append(config.name)
    return {names[0]: names for names in groups.values()}


@dataclass(frozen=True)
class DueState:
    """What deciding whether a watcher is due needs from its stored state."""

    next_due_at: datetime | None
    last_polled_at: datetime | None
    failures: int


def due_at(config: WatcherConfig, state: DueState | None) -> datetime | None:
    """When this watcher is due next; None: now (never polled)."""
    if state is None or state.last_polled_at is None:
        return None
    due = _aware(state.next_due_at)
    if config.cron and not state.failures:  # a failing watcher waits for its backoff instead
        from apscheduler.triggers.cron import CronTrigger

        last = _aware(state.last_polled_at)
        due = CronTrigger.from_crontab(config.cron, timezone=UTC).get_next_fire_time(None, last)
    return due


def group_due(configs: list[WatcherConfig], states: dict[str, DueState], now: datetime) -> bool:
    """A group is polled when any of its watchers is due."""
    for config in configs:
        due = due_at(config, states.get(config.name))
        if due is None or due <= now:
            return True
    return False


def read_states(engine: Engine, names: list[str] | None = None) -> dict[str, DueState]:
    query = select(
        WatcherState.name,
        WatcherState.next_due_at,
        WatcherState.last_polled_at,
        WatcherState.consecutive_failures,
    )
    if names is not None:
        query = query.where(col(WatcherState.name).in_(names))
    with Session(engine) as session:
        return {name: DueState(*rest) for name, *rest in session.exec(query)}


def _aware(when: datetime | None) -> datetime | None:
    return when.replace(tzinfo=UTC) if when is not None and when.tzinfo is None else when


# ---------------------------------------------------------------- health


def cluster_health(settings: Settings) -> dict[str, Any]:
    """Workers (last heartbeat, jobs running), the queue (depth, oldest waiting job) and the
    schedulers (which one is active), read from PostgreSQL."""
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(conninfo(settings), autocommit=True, row_factory=dict_row) as conn:
        if conn.execute("SELECT to_regclass('procrastinate_jobs') AS t").fetchone()["t"] is None:
            raise ConfigError(
                "no cluster in this database yet: start 'claimwatch scheduler' or 'claimwatch worker'"
            )
        workers = conn.execute(
            """SELECT w.id, w.last_heartbeat, count(j.id) AS running
                 FROM procrastinate_workers w
                 LEFT JOIN procrastinate_jobs j ON j.worker_id = w.id AND j.status = 'doing'
                GROUP BY w.id ORDER BY w.id"""
        ).fetchall()
        queue = conn.execute(
            """SELECT count(*) FILTER (WHERE status = 'todo'
                        AND (scheduled_at IS NULL OR scheduled_at <= now())) AS waiting,
                      count(*) FILTER (WHERE status = 'doing') AS running,
                      count(*) FILTER (WHERE status = 'failed') AS failed
                 FROM procrastinate_jobs"""
        ).fetchone()
        oldest = conn.execute(
            """SELECT j.id, j.task_name AS task, j.args ->> 'watcher' AS watcher,
                      greatest(max(e.at), j.scheduled_at) AS since
                 FROM procrastinate_jobs j
                 JOIN procrastinate_events e ON e.job_id = j.id
                      AND e.type IN ('deferred', 'deferred_for_retry')
                WHERE j.status = 'todo' AND (j.scheduled_at IS NULL OR j.scheduled_at <= now())
                GROUP BY j.id ORDER BY since LIMIT 1"""
        ).fetchone()
        schedulers = conn.execute(
            """SELECT a.application_name AS name, a.backend_start AS since,
                      l.pid IS NOT NULL AS active
                 FROM pg_stat_activity a
                 LEFT JOIN pg_locks l ON l.pid = a.pid AND l.locktype = 'advisory'
                      AND l.granted AND l.classid::bigint = %s AND l.objid::bigint = %s
                WHERE a.datname = current_database()
                  AND a.application_name LIKE 'claimwatch scheduler%%'
                  AND a.pid <> pg_backend_pid()
                GROUP BY a.pid, a.application_name, a.backend_start, l.pid
                ORDER BY l.pid IS NULL, a.backend_start""",
            [c % 2**32 for c in lock_key(LEADER, "scheduler")],
        ).fetchall()
        now = conn.execute("SELECT now() AS now").fetchone()["now"]
    return {
        "now": now,
        "workers": workers,
        "waiting": queue["waiting"],
        "running": queue["running"],
        "failed": queue["failed"],
        "oldest_waiting": oldest,
        "schedulers": _one_per_process(schedulers),
    }


def _one_per_process(rows: list[dict]) -> list[dict]:
    """A scheduler holds a pool and a leader connection; list each process once."""
    out: dict[str, dict] = {}
    for row in rows:
        seen = out.get(row["name"])
        if seen is None or (row["active"] and not seen["active"]):
            out[row["name"]] = row
    return sorted(out.values(), key=lambda r: (not r["active"], r["since"]))


def health_lines(health: dict[str, Any]) -> list[str]:
    """The cluster's health in a table and a few lines, for a terminal."""
    from monitor import render

    now = health["now"]

    def age(when: datetime | None) -> str:
        return "-" if when is None else f"{max(0, (now - when).total_seconds()):.0f} s ago"

    rows = [[str(w["id"]), age(w["last_heartbeat"]), str(w["running"])] for w in health["workers"]]
    lines = [render.table(["worker", "last heartbeat", "jobs running"], rows)] if rows else []
    lines.append(f"{render.plural(len(rows), 'worker')} alive")
    oldest = health["oldest_waiting"]
    waited = ""
    if oldest:
        what = oldest["watcher"] or oldest["task"]
        waited = f" (oldest: {render.plain(what)}, waiting since {age(oldest['since'])})"
    lines.append(
        f"queue: {health['waiting']} waiting{waited}, {health['running']} running, "
        f"{health['failed']} failed"
    )
    for s in health["schedulers"] or [{"name": "none running", "active": False}]:
        state = "active" if s["active"] else "standby"
        lines.append(f"scheduler: {render.plain(s['name'])} ({state})")
    return lines


def cluster_summary(health: dict[str, Any]) -> str:
    """The cluster's health in one line for the board: workers, the queue, the active scheduler."""
    from monitor import render

    now = health["now"]
    beats = [w["last_heartbeat"] for w in health["workers"] if w["last_heartbeat"] is not None]
    latest = (
        f", last heartbeat {max(0, (now - max(beats)).total_seconds()):.0f} s ago" if beats else ""
    )
    oldest = health["oldest_waiting"]
    waited = (
        f" (oldest waiting {max(0, (now - oldest['since']).total_seconds()):.0f} s)"
        if oldest
        else ""
    )
    active = [s["name"] for s in health["schedulers"] if s["active"]]
    scheduler = f"scheduler {render.plain(active[0])} active" if active else "no active scheduler"
    return (
        f"{render.plural(len(health['workers']), 'worker')} alive{latest} · "
        f"{health['running']} running, {health['waiting']} waiting{waited}, "
        f"{health['failed']} failed · {scheduler}"
    )


def board_line(settings: Settings) -> str | None:
    """The board's cluster line; None where Claimwatch runs in one process (SQLite, no cluster)."""
    if not settings.database_url.startswith(("postgresql", "postgres")):
        return None
    import psycopg

    try:
        return cluster_summary(cluster_health(settings))
    except ConfigError:
        return None  # PostgreSQL without a cluster: the embedded service
    except psycopg.Error as exc:
        return f"cluster health unavailable: {render_error(exc)}"


def render_error(exc: Exception) -> str:
    first = str(exc).strip().splitlines()
    return first[0] if first else type(exc).__name__


def seconds(duration: str) -> float:
    return parse_duration(duration).total_seconds()
