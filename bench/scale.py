"""Polls per second of a Claimwatch cluster with 1, 2 and 4 workers, against loopback.

For each worker count: a fresh database on the local PostgreSQL (127.0.0.1:5432, user postgres),
N page watchers on four local servers (four hosts), one scheduler round that queues a poll for
each, then that many `claimwatch worker --drain` processes started together. Polls per second
are counted from the first job started to the last job finished (Procrastinate's events), so
process start-up is left out. Nothing leaves 127.0.0.1.

    python bench/scale.py [--watchers 400] [--workers 1,2,4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import uuid
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from harness import ROOT, die_with_parent, local_env, run_main

sys.path.insert(0, str(ROOT))
ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
HOSTS = 4


class Page(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = f"<html><title>p</title><main>page {self.path} price 10</main></html>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_):
        pass


def serve() -> list[ThreadingHTTPServer]:
    servers = []
    for _ in range(HOSTS):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    return servers


def write_config(path: Path, url: str, servers, watchers: int) -> None:
    lines = [f'database_url = "{url}"', "[http]", "per_host = 8", "[cluster]", 'tick = "1s"']
    for i in range(watchers):
        port = servers[i % HOSTS].server_port
        lines += [
            "[[watchers]]",
            f'name = "p{i:05d}"',
            'kind = "page"',
            f'url = "http://127.0.0.1:{port}/p{i}"',
            'selector = "main"',
            'claim = "openai.rate-limits"',
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def one_round(workers: int, watchers: int, servers, folder: Path) -> float:
    import psycopg

    from monitor import cluster
    from monitor.config import load_settings
    from monitor.leader import Scheduler

    name = f"claimwatch_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql://postgres@127.0.0.1:5432/{name}"
    try:
        config = folder / f"scale-{workers}.toml"
        write_config(config, url, servers, watchers)
        settings = load_settings(config, environ={})
        engine = cluster.prepare(settings)

        async def queue() -> int:
            app = cluster.build_app(settings, role="bench", pool_size=2)
            async with app.open_async():
                return await Scheduler.build(settings, engine, app).tick(datetime.now(UTC))

        assert asyncio.run(queue()) == watchers
        processes = [
            subprocess.Popen(
                [sys.executable, "-m", "monitor", "--config", str(config), "worker", "--drain"],
                cwd=ROOT,
                env=local_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                preexec_fn=die_with_parent,
            )
            for _ in range(workers)
        ]
        for process in processes:
            process.wait(600)
        with psycopg.connect(url) as conn:
            first, last, done = conn.execute(
                """SELECT min(e.at) FILTER (WHERE e.type = 'started'),
                          max(e.at) FILTER (WHERE e.type = 'succeeded'),
                          count(*) FILTER (WHERE e.type = 'succeeded')
                     FROM procrastinate_events e JOIN procrastinate_jobs j ON j.id = e.job_id
                    WHERE j.task_name = %s""",
                [cluster.POLL],
            ).fetchone()
        engine.dispose()
        if done != watchers:
            raise SystemExit(f"{workers} workers finished {done} of {watchers} polls")
        return watchers / (last - first).total_seconds()
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=400)
    parser.add_argument("--workers", default="1,2,4")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    servers = serve()
    rates = {}
    with tempfile.TemporaryDirectory() as tmp:
        for workers in counts:
            rates[workers] = one_round(workers, args.watchers, servers, Path(tmp))
            print(f"{workers} worker(s): {rates[workers]:7.1f} polls/s", flush=True)
    base = rates[counts[0]]
    print(f"\n{args.watchers} page watchers on {HOSTS} local hosts, fresh database each round")
    print("workers  polls/s  ratio")
    for workers, rate in rates.items():
        print(f"{workers:>7}  {rate:7.1f}  {rate / base:5.2f}")
    print(
        f"\nThis host has {os.cpu_count()} cores, shared by the workers, PostgreSQL and the page "
        "servers: past two workers the ratio measures contention, not the cluster's reach."
    )


if __name__ == "__main__":
    run_main(main)
