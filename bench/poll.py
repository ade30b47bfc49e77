"""Poll throughput: N feed watchers against a local HTTP server, full responses then 304s.

Usage: python bench/poll.py [--watchers 500] [--concurrency 16]
Prints polls per second, CPU milliseconds per poll (this process only; the server runs apart) and
peak memory. Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import tempfile
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FEED = (Path(__file__).parent.parent / "tests/data/feed/retest_en.rss").read_bytes()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        etag = f'"{self.path}"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(FEED)))
        self.end_headers()
        self.wfile.write(FEED)

    def log_message(self, *args):
        pass


def serve(port_queue):
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_queue.put(server.server_address[1])
    server.serve_forever()


def measure(poller, names, label):
    cpu, wall = time.process_time(), time.perf_counter()
    reports = poller.poll_many(names)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    outcomes = {}
    for r in reports:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
    print(
        f"{label:<16} {len(names) / wall:8.1f} polls/s   {cpu * 1000 / len(names):7.2f} CPU ms/poll   {outcomes}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()

    from monitor.config import load_settings
    from monitor.service import Poller, open_database

    queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(queue,), daemon=True)
    server.start()
    port = queue.get(timeout=10)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            watchers = [
                {"name": f"w{i}", "kind": "feed", "url": f"http://127.0.0.1:{port}/feed/{i}"}
                for i in range(args.watchers)
            ]
            settings = load_settings(
                None,
                environ={},
                overrides={
                    "database_url": f"sqlite:///{tmp}/bench.db",
                    "watchers": watchers,
                    "http": {"concurrency": args.concurrency, "per_host": args.concurrency},
                },
            )
            engine, _ = open_database(settings)
            poller = Poller(settings, engine)
            names = [w["name"] for w in watchers]
            print(f"{args.watchers} watchers, concurrency {args.concurrency}, SQLite")
            measure(poller, names, "full responses")
            measure(poller, names, "304 responses")
            poller.close()
    finally:
        server.terminate()
    print(f"peak memory      {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
