"""The cluster on PostgreSQL: grouping, due polls, queueing once, per-host slots across processes,
backoff shared through the database, and a graceful stop. The chaos test is test_cluster_chaos."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest

from monitor import cluster
from monitor.cluster import DueState, group_due, url_groups
from monitor.config import load_settings

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
PAGE = "<html><title>t</title><main>{}</main></html>"
# today, before the digest is due at 08:00 UTC: rounds that queue no digest, whenever tests run
NIGHT = datetime.now(UTC).replace(hour=3, minute=0)


def page_watcher(name, url, **extra):
    return {
        "name": name,
        "kind": "page",
        "url": url,
        "selector": "main",
        "claim": "openai.rate-limits",
        "every": "1h",
        **extra,
    }


def settings_for(watchers, url="sqlite:///unused.db", **overrides):
    data = {"database_url": url, "watchers": watchers, **overrides}
    return load_settings(None, environ={}, overrides=data)


# ---------------------------------------------------------------- pure: groups and due polls


def test_watchers_of_one_url_form_one_group_named_by_the_first():
    settings = settings_for(
        [
            page_watcher("a", "http://127.0.0.1:9/x"),
            page_watcher("b", "http://127.0.0.1:9/y"),
            page_watcher("c", "http://127.0.0.1:9/x"),
            page_watcher("d", "http://127.0.0.1:9/x", enabled=False),
            page_watcher("e", "http://127.0.0.1:9/x", timeout=5.0),  # another request
        ]
    )
    accepts = dict.fromkeys("abcde", "text/html")
    assert url_groups(settings, accepts) == {"a": ["a", "c"], "b": ["b"], "e": ["e"]}


@pytest.mark.parametrize(
    "state, cron, due",
    [
        (None, None, True),  # never polled
        (DueState(None, None, 0), None, True),
        (DueState(NOW + timedelta(minutes=5), NOW - timedelta(minutes=55), 0), None, False),
        (DueState(NOW - timedelta(seconds=1), NOW - timedelta(hours=1), 0), None, True),
        # a failing watcher waits out its backoff or Retry-After, whoever polled it
        (DueState(NOW + timedelta(hours=2), NOW - timedelta(minutes=1), 3), None, False),
        # cron: due at the first fire time after the last poll
        (DueState(NOW + timedelta(hours=1), NOW - timedelta(hours=1), 0), "30 * * * *", True),
        (DueState(NOW + timedelta(hours=1), NOW - timedelta(minutes=10), 0), "30 * * * *", False),
        (DueState(NOW + timedelta(hours=2), NOW - timedelta(hours=1), 2), "30 * * * *", False),
    ],
)
def test_when_a_group_is_due(state, cron, due):
    extra = {"cron": cron, "every": None} if cron else {}
    config = settings_for([page_watcher("a", "http://127.0.0.1:9/x", **extra)]).watchers[0]
    states = {"a": state} if state else {}
    assert group_due([config], states, NOW) is due


def test_a_group_is_due_when_any_watcher_is():
    settings = settings_for(
        [page_watcher("a", "http://127.0.0.1:9/x"), page_watcher("b", "http://127.0.0.1:9/x")]
    )
    later = DueState(NOW + timedelta(minutes=30), NOW - timedelta(minutes=30), 0)
    assert not group_due(settings.watchers, {"a": later, "b": later}, NOW)
    assert group_due(settings.watchers, {"a": later}, NOW)  # b was never polled


def test_the_cluster_commands_need_postgresql(runner, tmp_path):
    from monitor.cli import cli

    result = runner.invoke(cli, ["--db", f"sqlite:///{tmp_path / 'x.db'}", "worker"])
    assert result.exit_code == 2
    assert "the cluster needs PostgreSQL" in result.output
    assert "claimwatch run" in result.output and "Traceback" not in result.output


def test_cluster_settings_are_checked():
    from monitor.config import ConfigError

    with pytest.raises(ConfigError, match="cluster: stalled_after must be longer than heartbeat"):
        settings_for([], cluster={"heartbeat": "30s", "stalled_after": "10s"})


# ---------------------------------------------------------------- on PostgreSQL


@pytest.fixture
def cluster_db(request):
    """A fresh PostgreSQL database, when one answers and Procrastinate is installed."""
    import importlib.util

    if importlib.util.find_spec("procrastinate") is None:
        pytest.skip("procrastinate is not installed (pip install 'claimwatch[cluster]')")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def pg_settings(cluster_db, server):
    """Four page watchers: a, b and c share one URL, d has its own; and the database ready."""
    for path in ("/shared", "/own"):
        server.expect_request(path).respond_with_data(PAGE.format(path), content_type="text/html")
    shared, own = server.url_for("/shared"), server.url_for("/own")
    settings = settings_for(
        [
            page_watcher("a", shared),
            page_watcher("b", shared),
            page_watcher("c", shared),
            page_watcher("d", own),
        ],
        cluster_db,
        cluster={"tick": "1s", "heartbeat": "1s", "stalled_after": "5s"},
    )
    engine = cluster.prepare(settings)
    yield settings, engine
    engine.dispose()


def scheduler_round(settings, engine, now=None):
    from monitor.leader import Scheduler

    async def go():
        app = cluster.build_app(settings, role="scheduler", pool_size=2)
        async with app.open_async():
            return await Scheduler.build(settings, engine, app).tick(now or NIGHT)

    return asyncio.run(go())


def jobs(settings):
    import psycopg

    with psycopg.connect(cluster.conninfo(settings)) as conn:
        return conn.execute(
            "SELECT task_name, args ->> 'watcher', status FROM procrastinate_jobs ORDER BY id"
        ).fetchall()


def states(engine):
    from sqlmodel import Session, select

    from db.models import WatcherState

    with Session(engine) as session:
        return {s.name: s for s in session.exec(select(WatcherState))}


def hits(server, path):
    return sum(1 for request, _ in server.log if request.path == path)


def test_the_scheduler_queues_one_poll_per_group_once(pg_settings):
    settings, engine = pg_settings
    assert scheduler_round(settings, engine) == 2
    assert scheduler_round(settings, engine) == 0  # still waiting: not queued again
    polls = sorted(w for task, w, _ in jobs(settings) if task == cluster.POLL)
    assert polls == ["a", "d"]
    periodic = sorted(task for task, _, _ in jobs(settings) if task != cluster.POLL)
    assert periodic == [cluster.DELIVER, cluster.MILESTONES]  # once per period
    # the digest: once a day at digest_at, however many rounds (and schedulers) ask
    for minutes in (0, 20, 40):
        scheduler_round(settings, engine, NIGHT.replace(hour=8, minute=minutes))
    daily = [task for task, _, _ in jobs(settings) if task == cluster.DIGEST]
    assert daily == [cluster.DIGEST]


def test_a_worker_fetches_a_shared_url_once_for_all_its_watchers(pg_settings, server):
    from monitor.worker import run_worker

    settings, engine = pg_settings
    scheduler_round(settings, engine)
    run_worker(settings, engine, drain=True)
    assert (hits(server, "/shared"), hits(server, "/own")) == (1, 1)
    polled = states(engine)
    assert {name: s.polls for name, s in polled.items()} == {"a": 1, "b": 1, "c": 1, "d": 1}
    assert {status for _, _, status in jobs(settings)} == {"succeeded"}
    # a second job for the same group in the same interval (a retry, a second scheduler) is a
    # no-op: it neither fetches nor stores
    app = cluster.build_app(settings, role="test")
    with app.open():
        app.configure_task(cluster.POLL, queue=cluster.QUEUE).defer(watcher="a")
    run_worker(settings, engine, drain=True)
    assert hits(server, "/shared") == 1
    assert states(engine)["b"].polls == 1
    # nothing due within the hour of the poll, whatever the time of day the tests run at
    assert scheduler_round(settings, engine, datetime.now(UTC) + timedelta(minutes=30)) == 0


def test_retry_after_recorded_by_one_worker_holds_for_the_cluster(cluster_db, server):
    from monitor.worker import run_worker

    server.expect_request("/busy").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "3600"}
    )
    busy = page_watcher("busy", server.url_for("/busy"), every="1m")
    settings = settings_for([busy], cluster_db)
    engine = cluster.prepare(settings)
    assert scheduler_round(settings, engine) == 1
    run_worker(settings, engine, drain=True)
    state = states(engine)["busy"]
    assert state.consecutive_failures == 1
    assert state.next_due_at >= datetime.now(UTC) + timedelta(minutes=59)
    # any scheduler, at any time before the hour is out, leaves it alone
    assert scheduler_round(settings, engine, datetime.now(UTC) + timedelta(minutes=30)) == 0
    assert scheduler_round(settings, engine, datetime.now(UTC) + timedelta(minutes=61)) == 1
    engine.dispose()


def test_host_slots_are_shared_by_processes(cluster_db):
    from monitor.worker import ClusterHostSlots

    settings = settings_for([], cluster_db)

    async def go():
        dsn = cluster.conninfo(settings)
        one, other = ClusterHostSlots(dsn, per_host=2), ClusterHostSlots(dsn, per_host=2)
        try:
            first = await one.try_acquire("example.org:443")
            second = await one.try_acquire("example.org:443")
            assert None not in (first, second) and first != second
            assert await one.try_acquire("example.org:443") is None
            assert await other.try_acquire("example.org:443") is None  # another process: full
            assert await other.try_acquire("example.com:443") is not None  # another host
            await one.release(first)
            assert await other.try_acquire("example.org:443") == first
            await one.close()  # a process that dies frees its slots
            assert await other.try_acquire("example.org:443") == second
        finally:
            await one.close()
            await other.close()

    asyncio.run(go())


def test_workers_shows_workers_and_the_queue(pg_settings, runner):
    from monitor.cli import cli

    settings, engine = pg_settings
    scheduler_round(settings, engine)
    result = runner.invoke(cli, ["--db", settings.database_url, "workers", "--format", "json"])
    assert result.exit_code == 0, result.output
    health = json.loads(result.output)
    assert health["waiting"] == 4 and health["running"] == 0 and health["workers"] == []
    assert health["oldest_waiting"]["task"] in (cluster.POLL, cluster.DELIVER, cluster.MILESTONES)
    table = runner.invoke(cli, ["--db", settings.database_url, "workers"])
    assert "queue: 4 waiting" in table.output and "0 workers alive" in table.output


def test_sigterm_lets_the_running_poll_finish(cluster_db, server, tmp_path):
    from werkzeug import Response

    started = []

    def slow(_request):
        started.append(time.monotonic())
        time.sleep(2)
        return Response(PAGE.format("slow"), content_type="text/html")

    server.expect_request("/slow").respond_with_handler(slow)
    settings = settings_for([page_watcher("slow", server.url_for("/slow"))], cluster_db)
    engine = cluster.prepare(settings)
    scheduler_round(settings, engine)
    config = tmp_path / "c.toml"
    config.write_text(f'database_url = "{cluster_db}"\n' + _watchers_toml(settings), "utf-8")
    worker = subprocess.Popen(
        [sys.executable, "-m", "monitor", "--config", str(config), "worker"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while not started and time.monotonic() < deadline:  # wait for the fetch to begin
            time.sleep(0.05)
        assert started, "the worker never fetched"
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(30) == 0, worker.stdout.read().decode()
    finally:
        worker.kill()
    assert states(engine)["slow"].polls == 1
    assert [status for task, _, status in jobs(settings) if task == cluster.POLL] == ["succeeded"]
    engine.dispose()


def _watchers_toml(settings) -> str:
    lines = []
    for w in settings.watchers:
        lines += ["[[watchers]]"] + [
            f"{key} = {json.dumps(value)}"
            for key, value in w.model_dump(exclude_none=True).items()
            if key in ("name", "kind", "url", "selector", "claim", "every")
        ]
    return "\n".join(lines) + "\n"


def test_the_board_shows_the_cluster(pg_settings):
    from monitor.cluster import board_line

    settings, engine = pg_settings
    scheduler_round(settings, engine)
    line = board_line(settings)
    assert line is not None and "0 workers alive" in line and "4 waiting" in line


def _failing_poller(settings, engine, on_alerts):
    from monitor.service import Poller

    return Poller(settings, engine, on_alerts=on_alerts)


def test_alerts_and_their_delivery_job_commit_together(cluster_db, server):
    """The delivery job is queued in the transaction that stores the alerts: both or neither."""
    from sqlmodel import Session, select

    from db.models import Alert

    server.expect_request("/down").respond_with_data("no", status=500)
    settings = settings_for(
        [page_watcher("x", server.url_for("/down"))], cluster_db, failures_alert=1
    )
    engine = cluster.prepare(settings)

    def then_fail(session):
        cluster.defer_delivery(session)
        raise RuntimeError("the transaction dies after queueing the job")

    poller = _failing_poller(settings, engine, then_fail)
    with pytest.raises(RuntimeError):
        poller.poll_many(["x"])
    poller.close()
    with Session(engine) as session:
        assert session.exec(select(Alert)).all() == []
    assert [task for task, _, _ in jobs(settings)] == []  # rolled back with the alerts

    poller = _failing_poller(settings, engine, cluster.defer_delivery)
    poller.poll_many(["x"])
    poller.close()
    with Session(engine) as session:
        assert [a.kind for a in session.exec(select(Alert))] == ["health"]
    assert jobs(settings) == [(cluster.DELIVER, None, "todo")]
    # another transaction with alerts while that job waits adds none: the waiting one sends all
    with Session(engine) as session, session.begin():
        cluster.defer_delivery(session)
    assert jobs(settings) == [(cluster.DELIVER, None, "todo")]
    engine.dispose()
