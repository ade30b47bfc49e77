"""The service: `claimwatch run` on a schedule, watcher health, clean stops and restarts."""

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, select

from db.models import Alert, WatcherState
from monitor.config import load_settings
from monitor.scheduler import Service, build_scheduler, first_runs
from monitor.service import open_database

from .conftest import fixture_bytes


def wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def start(config, hook_url, log_path, *flags):
    env = {**os.environ, "CLAIMWATCH_SLACK_WEBHOOK_URL": hook_url}
    log = open(log_path, "ab")  # noqa: SIM115 (the process owns it until it exits)
    return subprocess.Popen(
        [sys.executable, "-m", "monitor", "--config", config, "run", *flags],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_run_polls_alerts_survives_failures_and_stops_cleanly(
    server, silent_server, webhook, tmp_path, sqlite_url
):
    server.expect_request("/en.rss").respond_with_data(
        fixture_bytes("feed/retest_en.rss"), content_type="application/xml"
    )
    server.expect_request("/500").respond_with_data("boom", status=500)
    config = tmp_path / "c.toml"
    config.write_text(
        f'database_url = "{sqlite_url}"\nfailures_alert = 2\n[http]\nread_timeout = 1\ntotal_timeout = 2\nbackoff_max = "1s"\n'
        f'[[watchers]]\nname = "good"\nkind = "feed"\nurl = "{server.url_for("/en.rss")}"\nevery = "2s"\n'
        f'[[watchers]]\nname = "failing"\nkind = "feed"\nurl = "{server.url_for("/500")}"\nevery = "1s"\n'
        f'[[watchers]]\nname = "hung"\nkind = "feed"\nurl = "{silent_server}/feed"\nevery = "1s"\n',
        encoding="utf-8",
    )
    log = tmp_path / "run.log"
    process = start(str(config), webhook.url, log, "--verbose")
    settings = load_settings(config, environ={})
    engine, _ = open_database(settings)

    def state(name):
        with Session(engine) as session:
            return session.get(WatcherState, name)

    try:
        assert wait_for(
            lambda: any("jalapeno.verification" in json.dumps(b) for b in webhook.bodies)
        ), log.read_text()
        assert wait_for(lambda: (state("good").polls or 0) >= 2)
        assert wait_for(
            lambda: state("failing") is not None and state("failing").consecutive_failures >= 2
        )
        assert wait_for(
            lambda: state("hung") is not None and state("hung").last_error_kind == "timeout"
        )
        assert wait_for(
            lambda: any("watcher failing is failing" in json.dumps(b) for b in webhook.bodies)
        )
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(20)
    assert code == 0, log.read_text()
    text = log.read_text()
    assert "received SIGTERM" in text and "stopped cleanly" in text
    assert "poll good: ok" in text and "poll failing: fetch" in text
    assert webhook.url not in text  # the webhook URL is a secret, even in verbose logs
    changes_before = [
        b
        for b in webhook.bodies
        if "claims changed" in json.dumps(b) or "Claim changed" in json.dumps(b)
    ]
    health_before = [b for b in webhook.bodies if "watcher failing" in json.dumps(b)]

    restarted = start(str(config), webhook.url, log)
    try:
        assert wait_for(lambda: (state("good").polls or 0) >= 4)
        time.sleep(6)  # a deliverer pass runs 5 s after start
    finally:
        restarted.send_signal(signal.SIGTERM)
        assert restarted.wait(20) == 0
    changes_after = [
        b
        for b in webhook.bodies
        if "claims changed" in json.dumps(b) or "Claim changed" in json.dumps(b)
    ]
    health_after = [b for b in webhook.bodies if "watcher failing" in json.dumps(b)]
    assert len(changes_after) == len(changes_before) == 1
    assert len(health_after) == len(health_before) == 1
    with Session(engine) as session:
        assert {a.status for a in session.exec(select(Alert))} == {"sent"}


def test_first_runs_are_spread_and_a_restart_waits_its_turn(make_settings):
    watchers = [
        {"name": f"w{i}", "kind": "feed", "url": "http://127.0.0.1:9/", "every": "10m"}
        for i in range(4)
    ]
    settings = make_settings(watchers)
    now = datetime(2026, 10, 1, tzinfo=UTC)
    later = now + timedelta(minutes=7)
    starts = first_runs(
        settings, {"w3": WatcherState(name="w3", kind="feed", url="x", next_due_at=later)}, now
    )
    assert [starts[f"w{i}"] for i in range(3)] == [
        now,
        now + timedelta(seconds=15),
        now + timedelta(seconds=30),
    ]
    assert starts["w3"] == later


def test_scheduler_has_one_job_per_watcher_and_the_service_jobs(make_settings):
    settings = make_settings(
        [
            {"name": "a", "kind": "feed", "url": "http://127.0.0.1:9/", "every": "5m"},
            {"name": "b", "kind": "feed", "url": "http://127.0.0.1:9/", "cron": "0 * * * *"},
            {"name": "off", "kind": "feed", "url": "http://127.0.0.1:9/", "enabled": False},
        ]
    )
    engine, _ = open_database(settings)
    service = Service(settings, engine)
    scheduler = build_scheduler(settings, service)
    scheduler.start(paused=True)  # job defaults apply once the scheduler runs
    try:
        jobs = {job.id: job for job in scheduler.get_jobs()}
        assert set(jobs) == {"watch:a", "watch:b", "deliver", "digest", "milestones"}
        assert jobs["watch:a"].max_instances == 1 and jobs["watch:a"].coalesce is True
        assert jobs["watch:a"].misfire_grace_time == 300
    finally:
        scheduler.shutdown(wait=False)
        service.close()


def test_milestone_check_alerts_once_when_a_due_date_passes(make_settings):
    settings = make_settings([])
    engine, _ = open_database(settings)
    before = Service(settings, engine, clock=lambda: datetime(2026, 12, 30, 12, tzinfo=UTC))
    assert before.check_milestones() == 0
    after = Service(settings, engine, clock=lambda: datetime(2027, 1, 2, 12, tzinfo=UTC))
    assert after.check_milestones() == 2  # the initial deployment and the first Rubin gigawatt
    assert after.check_milestones() == 0
    with Session(engine) as session:
        subjects = sorted(
            a.subject for a in session.exec(select(Alert).where(Alert.kind == "milestone"))
        )
    assert subjects[0] == "First 1 GW of Nvidia Rubin systems: overdue since 2026-12-31"
    assert "Initial small-scale deployment" in subjects[1]
