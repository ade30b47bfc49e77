"""Shared fixtures: databases (SQLite always, PostgreSQL where one answers), settings, CLI runner."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest
from click.testing import CliRunner

from db.engine import make_engine, upgrade
from monitor.config import load_settings

DATA = Path(__file__).parent / "data"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"

# the needle store of a test run (and of the processes it starts) lives and dies with the run
os.environ["CLAIMWATCH_CACHE_DIR"] = tempfile.mkdtemp(prefix="claimwatch-test-cache-")
atexit.register(shutil.rmtree, os.environ["CLAIMWATCH_CACHE_DIR"], True)


def postgres_available() -> str | None:
    """None when a PostgreSQL answers on 127.0.0.1:5432, else the reason to skip."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        with psycopg.connect(PG_ADMIN.replace("postgresql://", "postgresql://"), connect_timeout=3):
            return None
    except Exception as exc:  # any failure to connect means: no server here
        return f"no PostgreSQL on 127.0.0.1:5432 ({type(exc).__name__})"


PG_SKIP = postgres_available()


@pytest.fixture
def pg_url():
    if PG_SKIP:
        pytest.skip(PG_SKIP)
    import psycopg

    name = f"claimwatch_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'claimwatch.db'}"
    return request.getfixturevalue("pg_url")


@pytest.fixture
def engine(db_url):
    engine = make_engine(db_url)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'claimwatch.db'}"


@pytest.fixture
def settings(sqlite_url):
    return load_settings(None, environ={}, overrides={"database_url": sqlite_url})


@pytest.fixture
def runner(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for name in (
        "CLAIMWATCH_CONFIG",
        "CLAIMWATCH_DATABASE_URL",
        "CLAIMWATCH_SLACK_WEBHOOK_URL",
        "CLAIMWATCH_SMTP_PASSWORD",
    ):
        monkeypatch.delenv(name, raising=False)
    return CliRunner()


@pytest.fixture
def server():
    """A threaded HTTP server on 127.0.0.1 serving whatever a test sets up."""
    from pytest_httpserver import HTTPServer

    httpserver = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    httpserver.start()
    yield httpserver
    httpserver.clear()
    if httpserver.is_running():
        httpserver.stop()


@pytest.fixture
def silent_server():
    """Accepts connections and never answers: a hung source."""
    import socket
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held, stop = [], threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(2)
    for conn in held:
        conn.close()
    listener.close()


def fixture_bytes(name: str) -> bytes:
    return (DATA / name).read_bytes()


@pytest.fixture
def make_settings(sqlite_url):
    """Settings whose watchers are the given dicts; fast timeouts for tests."""

    def build(watchers: list[dict], **overrides):
        data = {
            "database_url": sqlite_url,
            "watchers": watchers,
            "http": {"connect_timeout": 2, "read_timeout": 1, "total_timeout": 3},
            **overrides,
        }
        return load_settings(None, environ={}, overrides=data)

    return build


class SmtpSink:
    """Collects what a real SMTP server (aiosmtpd) receives."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.messages.append(envelope)
        return "250 Message accepted for delivery"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def smtp():
    from aiosmtpd.controller import Controller

    sink = SmtpSink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    sink.port = controller.port
    yield sink
    controller.stop()


@pytest.fixture
def webhook(server):
    """A local endpoint standing in for Slack's incoming webhook; records every JSON body."""
    from werkzeug import Response

    hook = type("Hook", (), {})()
    hook.bodies, hook.status = [], [200]

    def handle(request):
        import json as _json

        status = hook.status.pop(0) if len(hook.status) > 1 else hook.status[0]
        if status == 200:
            hook.bodies.append(_json.loads(request.get_data()))
            return Response("ok", status=200)
        return Response(
            "unavailable", status=status, headers={"Retry-After": "1"} if status == 429 else {}
        )

    server.expect_request("/hook", method="POST").respond_with_handler(handle)
    hook.url = server.url_for("/hook")
    return hook
