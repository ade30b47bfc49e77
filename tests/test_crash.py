"""Crash safety and concurrency: SIGKILL at random points, and two pollers at once."""

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from sqlmodel import Session, select

from db.models import Alert, Item, Observation
from monitor.config import load_settings
from monitor.service import open_database

from .conftest import fixture_bytes

SOURCES = [
    ("en", "feed", "/en.rss", "feed/retest_en.rss", "application/xml", {}),
    ("zh", "feed", "/zh.atom", "feed/retest_zh.atom", "application/atom+xml", {}),
    (
        "prices",
        "prices",
        "/p.json",
        "prices/litellm_v1.json",
        "application/json",
        {"format": "litellm"},
    ),
    (
        "bench",
        "benchmark",
        "/ix",
        "benchmark/inferencex_v2.json",
        "application/json",
        {"format": "inferencex"},
    ),
    ("hn", "feed", "/hn", "feed/hn.json", "application/json", {"format": "hn-algolia"}),
]


def serve_all(server, delay: float = 0.0):
    from werkzeug import Response

    for _name, _kind, path, fixture, content_type, _extra in SOURCES:
        body = fixture_bytes(fixture)

        def respond(_request, body=body, content_type=content_type):
            time.sleep(random.uniform(0, delay))  # widen the windows a kill can land in
            return Response(body, content_type=content_type)

        server.expect_request(path).respond_with_handler(respond)


def write_config(tmp_path, server, url):
    lines = [f'database_url = "{url}"', "[http]", "per_host = 8"]
    for name, kind, path, _fixture, _type, extra in SOURCES:
        lines += [
            "[[watchers]]",
            f'name = "{name}"',
            f'kind = "{kind}"',
            f'url = "{server.url_for(path)}"',
        ]
        lines += [f"{k} = {json.dumps(v)}" for k, v in extra.items()]
    config = tmp_path / "c.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(config)


def poll_process(config):
    return subprocess.Popen(
        [sys.executable, "-m", "monitor", "--config", config, "poll"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def snapshot(url):
    """What the database holds, as comparable facts (ids and times differ between runs)."""
    engine, _ = open_database(load_settings(None, environ={}, overrides={"database_url": url}))
    with Session(engine) as session:
        items = sorted((i.watcher, i.dedupe_key.split(":")[0]) for i in session.exec(select(Item)))
        rows = list(session.exec(select(Observation)))
        # which of two sources reporting the same change stored it first depends on timing;
        # what must not is every observation, and each change once
        observations = sorted((o.source, o.claim_id, o.key, o.value) for o in rows)
        observations += sorted(("change", o.claim_id, o.key, o.value) for o in rows if o.changed)
        alerts = sorted((a.channel, a.kind, a.claim_id or "") for a in session.exec(select(Alert)))
    engine.dispose()
    return items, observations, alerts


def reference(tmp_path, server):
    folder = tmp_path / "reference"
    folder.mkdir()
    url = f"sqlite:///{folder / 'reference.db'}"
    assert poll_process(write_config(folder, server, url)).wait(60) == 0
    return snapshot(url)


def test_sigkill_at_random_points_loses_and_duplicates_nothing(server, tmp_path):
    serve_all(server, delay=0.3)
    expected = reference(tmp_path, server)
    url = f"sqlite:///{tmp_path / 'crash.db'}"
    config = write_config(tmp_path, server, url)
    rng = random.Random(20261202)
    for _ in range(12):
        process = poll_process(config)
        time.sleep(rng.uniform(0.3, 2.5))  # start-up, fetching, judging, storing or delivering
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        with sqlite3.connect(tmp_path / "crash.db") as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert poll_process(config).wait(60) == 0
    assert snapshot(url) == expected
    engine, _ = open_database(load_settings(None, environ={}, overrides={"database_url": url}))
    with Session(engine) as session:
        statuses = {a.status for a in session.exec(select(Alert))}
    assert statuses <= {
        "sent",
        "sending",
    }  # console alerts: sent, or one killed mid-send awaiting its retry


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_two_pollers_at_once_store_exactly_one_pollers_worth(backend, server, tmp_path, request):
    serve_all(server, delay=0.2)
    expected = reference(tmp_path, server)
    url = (
        f"sqlite:///{tmp_path / 'twice.db'}"
        if backend == "sqlite"
        else request.getfixturevalue("pg_url")
    )
    open_database(load_settings(None, environ={}, overrides={"database_url": url}))[0].dispose()
    config = write_config(tmp_path, server, url)
    first, second = poll_process(config), poll_process(config)
    assert first.wait(60) == 0, first.stderr.read().decode()
    assert second.wait(60) == 0, second.stderr.read().decode()
    assert snapshot(url) == expected
