"""The cluster under fire, on the local PostgreSQL: an active scheduler and a standby, three
workers, 200 page watchers on four local "hosts" (20 of them sharing 5 URLs) and a webhook
receiver standing in for Slack. While pages change, a random worker is SIGKILLed ten times and
the active scheduler once. Then every change was observed once and alerted once, no job was
lost, each URL was fetched once per poll of its group (plus once for each job a kill cut short),
and no host ever saw more than `per_host` requests at once.

It runs for about three minutes (CLAIMWATCH_CHAOS_SECONDS of kills, 150 by default, then the
drain): polls every 6 s instead of every few minutes give each killed worker many jobs to cut short.
"""

from __future__ import annotations

import json
import os
import random
import re
import select as io_select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import psycopg
from sqlmodel import Session, select

from db.models import Alert, Observation, WatcherState
from monitor import cluster
from monitor.config import load_settings

from .test_cluster import cluster_db  # noqa: F401 (the fixture)

WATCHERS, SHARED, SHARED_URLS, HOSTS = 200, 20, 5, 4
INTERVAL = 6.0  # seconds between polls of a watcher
CHANGE_EVERY = 3 * INTERVAL  # a changing page moves on every third interval
# seconds of kills: ten workers, and the active scheduler half-way
CHAOS = float(os.environ.get("CLAIMWATCH_CHAOS_SECONDS", "150"))
WORKER_KILLS, PER_HOST = 10, 2
TOKEN = re.compile(r"u(\d+) v(\d+)")


def _peer_closed(connection: socket.socket) -> bool:
    """Has the client closed its end (an end of file waits to be read)? A live client sends
    nothing while it waits for its answer."""
    readable, _, _ = io_select.select([connection], [], [], 0)
    if not readable:
        return False
    try:
        return connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


class Sources:
    """Four local servers (four hosts by host:port); page u<i> says `u<i> v<version>`, where the
    version of a changing page grows every CHANGE_EVERY seconds until `freeze()`."""

    def __init__(self, changing: set[int]):
        self.changing = changing
        self.start = time.monotonic()
        self.frozen_at: float | None = None
        self.lock = threading.Lock()
        self.requests: dict[int, list[tuple[float, float]]] = defaultdict(list)  # answered
        self.served: dict[int, list[int]] = defaultdict(list)  # page -> versions, in order
        self.servers = [self._serve() for _ in range(HOSTS)]

    def version(self, page: int) -> int:
        if page not in self.changing:
            return 0
        now = self.frozen_at or time.monotonic()
        return int((now - self.start) // CHANGE_EVERY)

    def most(self) -> dict[int, int]:
        """The most requests each host answered at once (their spans overlapping)."""
        out = {}
        for port, spans in self.requests.items():
            edges = sorted([(a, 1) for a, _ in spans] + [(b, -1) for _, b in spans])
            now = top = 0
            for _, step in edges:
                now += step
                top = max(top, now)
            out[port] = top
        return out

    def freeze(self) -> None:
        self.frozen_at = time.monotonic()

    def url(self, page: int) -> str:
        server = self.servers[page % HOSTS]
        return f"http://127.0.0.1:{server.server_port}/u{page}"

    def _serve(self) -> ThreadingHTTPServer:
        sources = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                port = self.server.server_port
                page = int(self.path.strip("/u"))
                began = time.monotonic()
                with sources.lock:
                    version = sources.version(page)
                    sources.served[page].append(version)
                time.sleep(random.uniform(0.02, 0.06))  # a host that takes its time
                # a request a killed worker left behind: its peer has closed the connection (a
                # write to it may still succeed, the reset comes later); its slot was rightly
                # given to a live worker the moment it died, so it is not counted
                left_behind = _peer_closed(self.connection)
                body = f"<html><title>u{page}</title><main>u{page} v{version}</main></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body.encode())
                self.wfile.flush()
                if not left_behind:
                    with sources.lock:
                        sources.requests[port].append((began, time.monotonic()))

            def log_message(self, *_):
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()


class Receiver:
    """The webhook: records, per page, the version each message announced."""

    def __init__(self):
        self.announced: Counter = Counter()  # (page, version) -> messages
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                newest: dict[int, int] = {}
                for page, version in TOKEN.findall(json.dumps(json.loads(body))):
                    newest[int(page)] = max(newest.get(int(page), 0), int(version))
                with receiver.lock:
                    receiver.announced.update(newest.items())
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *_):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"


def watcher_pages() -> dict[str, tuple[int, str]]:
    """Watcher name -> (page, claim key). w180..w199 share pages 180..184, four each."""
    out = {}
    for i in range(WATCHERS - SHARED):
        out[f"w{i:03d}"] = (i, f"w{i:03d}")
    for j in range(SHARED):
        page = WATCHERS - SHARED + j % SHARED_URLS
        out[f"w{WATCHERS - SHARED + j:03d}"] = (page, f"shared-{page}")
    return out


def write_config(path, url, sources, receiver) -> None:
    lines = [
        f'database_url = "{url}"',
        "[http]",
        f"per_host = {PER_HOST}",
        "connect_timeout = 5",
        "total_timeout = 10",
        "[cluster]",
        'tick = "1s"',
        'heartbeat = "1s"',
        'stalled_after = "4s"',
        "[alerts.slack]",
        f'webhook_url = "{receiver.url}"',
    ]
    for name, (page, key) in watcher_pages().items():
        lines += [
            "[[watchers]]",
            f'name = "{name}"',
            'kind = "page"',
            f'url = "{sources.url(page)}"',
            'selector = "main"',
            'claim = "openai.rate-limits"',
            f'key = "{key}"',
            f'every = "{INTERVAL:g}s"',
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class Cluster:
    def __init__(self, config, folder):
        self.config, self.folder = config, folder
        self.workers: list[subprocess.Popen] = []
        self.schedulers: list[subprocess.Popen] = []
        self.count = 0

    def start(self, role: str) -> subprocess.Popen:
        self.count += 1
        log = (self.folder / f"{role}-{self.count}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "monitor", "--config", str(self.config), role],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        (self.workers if role == "worker" else self.schedulers).append(process)
        return process

    def live(self, processes) -> list[subprocess.Popen]:
        return [p for p in processes if p.poll() is None]

    def stop(self) -> list[int]:
        everyone = self.live(self.workers) + self.live(self.schedulers)
        for process in everyone:
            process.send_signal(signal.SIGTERM)
        return [process.wait(60) for process in everyone]

    def kill_all(self) -> None:
        for process in self.workers + self.schedulers:
            if process.poll() is None:
                process.kill()
                process.wait(10)


def active_scheduler(settings) -> int | None:
    for row in cluster.cluster_health(settings)["schedulers"]:
        if row["active"]:
            return int(row["name"].rsplit(":", 1)[1])
    return None


STALLED = """SELECT count(*) FROM procrastinate_jobs j
    LEFT JOIN procrastinate_workers w ON w.id = j.worker_id
    WHERE j.status = 'doing' AND (w.id IS NULL OR w.last_heartbeat < now() - interval '3 s')"""


def wait_for(condition, seconds: float, what: str, engine=None, settings=None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    state = ""
    if engine is not None:
        with Session(engine) as session:
            state = Counter(a.status for a in session.exec(select(Alert)))
        with psycopg.connect(cluster.conninfo(settings)) as conn:
            jobs = conn.execute(
                "SELECT task_name, status, args, worker_id FROM procrastinate_jobs"
                " WHERE status IN ('todo', 'doing')"
            ).fetchall()
        state = f": alerts {dict(state)}, unfinished jobs {jobs}"
    raise AssertionError(f"gave up waiting for {what} after {seconds:g} s{state}")


def test_kills_lose_nothing_repeat_nothing_and_keep_the_limits(cluster_db, tmp_path):  # noqa: F811
    rng = random.Random(14)
    changing = {i for i in range(WATCHERS - SHARED) if i % 5 == 0}
    changing |= set(range(WATCHERS - SHARED, WATCHERS - SHARED + SHARED_URLS))
    sources, receiver = Sources(changing), Receiver()
    config = tmp_path / "cluster.toml"
    write_config(config, cluster_db, sources, receiver)
    settings = load_settings(config, environ={})
    cluster.prepare(settings).dispose()
    run = Cluster(config, tmp_path)
    try:
        first = run.start("scheduler")
        wait_for(lambda: active_scheduler(settings) == first.pid, 30, "the first scheduler")
        run.start("scheduler")
        for _ in range(3):
            run.start("worker")
        # the chaos: a random worker killed ten times (and replaced), the active scheduler once
        started = time.monotonic()
        kills = sorted(rng.uniform(2, CHAOS - 2) for _ in range(WORKER_KILLS))
        scheduler_kill, takeover = CHAOS / 2, None
        for at in kills + [scheduler_kill]:
            time.sleep(max(0.0, started + at - time.monotonic()))
            if at == scheduler_kill:
                victim = next(p for p in run.schedulers if p.pid == active_scheduler(settings))
                victim.send_signal(signal.SIGKILL)
                victim.wait(10)
                killed = time.monotonic()
                # (the killed one's connection may hold its lock a moment longer: what is waited
                # for is a leader that is not the victim)
                standby = wait_for(
                    lambda gone=victim.pid: (
                        active_scheduler(settings) not in (None, gone)
                        and active_scheduler(settings)
                    ),
                    60,
                    "a standby to lead",
                )
                takeover = time.monotonic() - killed
                assert standby != victim.pid
                run.start("scheduler")  # a new standby
                continue
            victim = rng.choice(run.live(run.workers))
            victim.send_signal(signal.SIGKILL)
            victim.wait(10)
            run.start("worker")
        time.sleep(max(0.0, started + CHAOS - time.monotonic()))
        sources.freeze()
        frozen = datetime.now(UTC)
        # settle: every watcher polls the final pages; then, schedulers stopped, the queue
        # empties and every alert is sent
        engine = cluster.prepare(settings)

        def polled_since_freeze() -> bool:
            with Session(engine) as session:
                polled = session.exec(select(WatcherState.last_polled_at)).all()
            return sum(1 for p in polled if p and p.replace(tzinfo=UTC) > frozen) == WATCHERS

        def no_job_of_a_dead_worker() -> bool:
            with psycopg.connect(cluster.conninfo(settings)) as conn:
                return not conn.execute(STALLED).fetchone()[0]

        def drained() -> bool:
            with Session(engine) as session:
                pending = session.exec(select(Alert).where(Alert.status == "pending")).all()
            health = cluster.cluster_health(settings)
            return not pending and health["running"] == health["waiting"] == 0

        wait_for(polled_since_freeze, 60, "every watcher to poll the final pages")
        wait_for(no_job_of_a_dead_worker, 30, "the jobs of killed workers to be queued again")
        for process in run.live(run.schedulers):
            process.send_signal(signal.SIGTERM)
            assert process.wait(30) == 0
        wait_for(drained, 60, "the queue to drain and every alert to be sent", engine, settings)
        codes = run.stop()  # SIGTERM: each finishes or releases its jobs and exits cleanly
        assert codes == [0] * len(codes)
        ended = time.monotonic()
    finally:
        run.kill_all()
        sources.close()
        receiver.server.shutdown()
    print(f"\nstandby took over {takeover:.1f} s after the active scheduler was killed")
    assert takeover is not None and takeover < 30

    pages = watcher_pages()
    with Session(engine) as session:
        observations = session.exec(select(Observation)).all()
        states = {s.name: s for s in session.exec(select(WatcherState))}
        alerts = session.exec(select(Alert)).all()
    engine.dispose()
    with psycopg.connect(cluster.conninfo(settings)) as conn:
        jobs = conn.execute(
            "SELECT task_name, args ->> 'watcher', status, attempts FROM procrastinate_jobs"
        ).fetchall()

    # every change observed once: per claim key, each version the page showed is its baseline
    # or exactly one change, whichever watcher (of a shared page) saw it first. A version every
    # fetch of which a kill cut short (the page moved on before the job ran again) was seen by
    # no poll that finished: at most one such version per kill, never the last one
    by_key = defaultdict(list)
    cut_short = 0
    for o in observations:
        if o.role in ("baseline", "change"):
            by_key[o.key].append((o.role, int(TOKEN.search(json.loads(o.value)).group(2))))
    changes = []
    for page in range(WATCHERS - SHARED + SHARED_URLS):
        key = next(k for p, k in pages.values() if p == page)
        seen = by_key[key]
        versions = [v for _, v in seen]
        assert [r for r, _ in seen].count("baseline") == 1, (key, seen)
        assert len(versions) == len(set(versions)), f"{key}: a change stored twice: {seen}"
        assert set(versions) <= set(sources.served[page]), (key, seen, sources.served[page])
        assert sources.served[page][-1] in versions, (key, seen, sources.served[page])
        cut_short += len(set(sources.served[page]) - set(versions))
        changes += [(page, v) for r, v in seen if r == "change"]
    assert cut_short <= WORKER_KILLS + 1, f"{cut_short} versions no finished poll stored"
    assert len(changes) >= len(changing) * 2  # the pages really changed, several times each

    # every change alerted once: the receiver's count. A worker killed between claiming an
    # alert and marking it sent leaves it `sending`, to be sent again after ten minutes (the one
    # case that can repeat a message, see README); such rows are named, never silently counted
    sending = [a for a in alerts if a.status == "sending"]
    assert {a.status for a in alerts} <= {"sent", "sending"} and len(sending) <= WORKER_KILLS
    claimed = {_page_version(a, observations) for a in sending}
    announced = {k: n for k, n in receiver.announced.items() if k not in claimed}
    assert announced == dict.fromkeys(set(changes) - claimed, 1)
    assert all(receiver.announced.get(k, 0) <= 1 for k in claimed)

    # no job lost: every poll job ran to its end; a killed one was queued again and finished
    statuses = Counter(status for _, _, status, _ in jobs)
    assert set(statuses) <= {"succeeded", "aborted"}, statuses
    assert statuses["aborted"] <= WORKER_KILLS, statuses

    # each URL fetched once per poll of its group, plus once per job a kill cut short; all
    # watchers of a shared page polled by the same fetches
    retried = Counter(lead for task, lead, _, attempts in jobs if task == cluster.POLL and attempts)
    for page in range(WATCHERS - SHARED + SHARED_URLS):
        names = sorted(n for n, (p, _) in pages.items() if p == page)
        polls = {states[n].polls for n in names}
        assert len(polls) == 1, (page, {n: states[n].polls for n in names})
        polls = polls.pop()
        fetched = len(sources.served[page])
        errors = [(states[n].last_error, states[n].last_error_at) for n in names]
        assert polls <= fetched <= polls + retried[names[0]], (page, polls, fetched, errors)
        assert polls <= (ended - sources.start) / INTERVAL + 1  # once per interval at most

    # no host ever saw more than per_host requests at once, and the limit was really reached
    assert max(sources.most().values()) == PER_HOST, sources.most()


def _page_version(alert, observations) -> tuple[int, int]:
    value = next(o.value for o in observations if o.id == alert.observation_id)
    page, version = TOKEN.search(json.loads(value)).groups()
    return int(page), int(version)
