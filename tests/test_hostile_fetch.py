"""Sources that trickle, and answers that used to crash a poll, all end as typed outcomes.

The trickling server sends one byte a second for at most LIMIT bytes and notes the byte at which
the client hung up: a fetch that ends as `timeout` before the server is done proves the deadline
cut it, whatever the server does (the assertions are on outcomes, never on elapsed time)."""

import socket
import threading
import time
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from db.models import Alert, Observation, WatcherState
from monitor.scheduler import Service, build_scheduler
from monitor.service import Poller, open_database

from .conftest import fixture_bytes

LIMIT = 60  # bytes: a minute of trickling at most, whatever happens
FEED = fixture_bytes("feed/retest_en.rss")
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: %d\r\n\r\n"
HTTP = {"connect_timeout": 2, "read_timeout": 30, "total_timeout": 2}


class TrickleServer:
    """`/headers`: the status line and headers a byte a second; `/body`: headers at once, then
    the body a byte a second; `/retry-after`: a 503 with an absurd Retry-After."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.hung_up: list[int] = []  # per connection: the byte at which the client went away
        self.open = 0
        self.thread = threading.Thread(target=self._accept, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)
        self.listener.close()

    def _accept(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket):
        self.open += 1
        try:
            request = conn.recv(65536).split(b" ")
            path = request[1].decode() if len(request) > 1 else "/"
            if path == "/retry-after":
                conn.sendall(
                    b"HTTP/1.1 503 Busy\r\nRetry-After: 99999999999999\r\n"
                    b"Content-Length: 4\r\nConnection: close\r\n\r\nbusy"
                )
                return
            if path == "/headers":
                head, trickled = b"", HEAD % len(FEED) + FEED
            else:
                head, trickled = HEAD % len(FEED), FEED
            conn.sendall(head)
            for index, byte in enumerate(trickled[:LIMIT]):
                if self.stop.wait(1):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    self.hung_up.append(index)
                    return
        finally:
            self.open -= 1
            conn.close()


@pytest.fixture
def trickle():
    with TrickleServer() as server:
        yield server


@pytest.mark.parametrize("path", ["headers", "body"])
def test_a_trickling_source_ends_as_timeout(trickle, make_settings, path):
    settings = make_settings([{"name": "w", "kind": "feed", "url": trickle.url(path)}], http=HTTP)
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    report = poller.poll("w")
    poller.close()
    assert report.outcome == "timeout", report.error
    assert "no complete answer within 2 s" in report.error and trickle.url(path) in report.error
    for _ in range(100):  # the server notices the hang-up at its next byte
        if trickle.hung_up:
            break
        time.sleep(0.1)
    assert trickle.hung_up and trickle.hung_up[0] < LIMIT - 1  # cut off, not served to the end
    with Session(engine) as session:
        state = session.get(WatcherState, "w")
        assert (state.last_error_kind, state.consecutive_failures) == ("timeout", 1)


def test_an_absurd_retry_after_is_a_typed_outcome(trickle, make_settings):
    settings = make_settings(
        [{"name": "w", "kind": "feed", "url": trickle.url("retry-after"), "every": "5m"}],
        http=HTTP,
    )
    engine, _ = open_database(settings)
    poller = Poller(settings, engine)
    report = poller.poll("w")
    poller.close()
    assert report.outcome == "fetch" and "HTTP 503, retry after 604800 s" in report.error
    with Session(engine) as session:
        state = session.get(WatcherState, "w")
        assert state.last_error_kind == "fetch"
        assert state.next_due_at - state.last_polled_at <= timedelta(days=7, minutes=1)


def test_delivery_does_not_wait_behind_trickling_polls(trickle, server, webhook, make_settings):
    """Under the scheduler, three trickling sources hold the poll loop for the whole test while
    a healthy one's alerts reach Slack; stopping then ends the service."""
    server.expect_request("/en.rss").respond_with_data(FEED, content_type="application/xml")
    watchers = [
        {"name": f"slow{i}", "kind": "feed", "url": trickle.url("body"), "every": "1s"}
        for i in range(3)
    ]
    watchers.append({"name": "good", "kind": "feed", "url": server.url_for("/en.rss")})
    settings = make_settings(
        watchers,
        http={**HTTP, "total_timeout": 120, "per_host": 4},
        alerts={"slack": {"webhook_url": webhook.url}},
    )
    engine, _ = open_database(settings)
    service = Service(settings, engine)
    scheduler = build_scheduler(settings, service)
    service.polls.start()
    scheduler.start()
    try:
        delivered = False
        for _ in range(300):  # bounded: the deliverer's first run is 5 s after the start
            if webhook.bodies:
                delivered = True
                break
            time.sleep(0.1)
        still_trickling = trickle.open
    finally:
        scheduler.shutdown(wait=True)
        service.polls.stop(grace=0.5)
        service.close()
    assert delivered and still_trickling >= 3
    assert not service.polls.thread.is_alive()  # the stop did not wait for the trickling polls
    with Session(engine) as session:
        assert "sent" in {a.status for a in session.exec(select(Alert))}
        assert session.exec(select(Observation)).first() is not None
        assert session.get(WatcherState, "slow0") is None  # a cancelled poll stores nothing
