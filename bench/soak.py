"""Soak: `claimwatch run` with 1,000 watchers on local servers, a tenth of them misbehaving.

Usage: python bench/soak.py [--minutes 10] [--watchers 1000] [--every 30s] [--report 60]
Every report interval it prints polls done, errors by type, alerts and the service's memory (RSS).
Memory should stay flat. Everything runs on 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.hostile import HostileServer  # noqa: E402  (the same misbehaviours as the test suite)

FEED = (ROOT / "tests/data/feed/retest_en.rss").read_bytes()
MISBEHAVIOURS = [
    "500",
    "503",
    "429",
    "reset",
    "silent",
    "trickle",
    "bot-wall",
    "wrong-type",
    "redirect-loop",
    "gzip-bomb",
]


class Healthy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 (http.server's name)
        etag = f'"{self.path}-{int(time.time() // 300)}"'  # a new version every 5 minutes
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = FEED.replace(b"chipnews-2026-09-01-recap", f"recap-{self.path}-{etag}".encode())
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def report(db: Path, pid: int, started: float) -> str:
    with sqlite3.connect(db, timeout=30) as conn:
        polls = conn.execute("SELECT COALESCE(SUM(polls), 0) FROM watchers").fetchone()[0]
        errors = dict(
            conn.execute(
                "SELECT last_error_kind, COUNT(*) FROM watchers WHERE consecutive_failures > 0 GROUP BY last_error_kind"
            ).fetchall()
        )
        alerts = conn.execute("SELECT COUNT(*) FROM alerts").fetchone()[0]
    minutes = (time.monotonic() - started) / 60
    return f"{minutes:5.1f} min  polls {polls:>7,}  alerts {alerts:>5,}  RSS {rss_mib(pid):6.1f} MiB  failing by type {errors}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--every", default="30s")
    parser.add_argument("--report", type=float, default=60, help="seconds between reports")
    args = parser.parse_args()

    healthy = ThreadingHTTPServer(("127.0.0.1", 0), Healthy)
    healthy.daemon_threads = True
    threading.Thread(target=healthy.serve_forever, daemon=True).start()
    with HostileServer(hang_seconds=10) as hostile, tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "soak.db"
        lines = [
            f'database_url = "sqlite:///{db}"',
            "failures_alert = 3",
            "[http]",
            "concurrency = 32",
            "per_host = 16",
            "read_timeout = 2",
            "total_timeout = 5",
            "max_bytes = 1048576",
            'backoff_max = "2m"',
        ]
        for i in range(args.watchers):
            if i % 10 == 0:
                url = hostile.url(MISBEHAVIOURS[(i // 10) % len(MISBEHAVIOURS)])
            else:
                url = f"http://127.0.0.1:{healthy.server_address[1]}/feed/{i}"
            lines += [
                "[[watchers]]",
                f'name = "w{i:04d}"',
                'kind = "feed"',
                f'url = "{url}"',
                f'every = "{args.every}"',
            ]
        config = Path(tmp) / "soak.toml"
        config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        log = open(Path(tmp) / "run.log", "wb")  # noqa: SIM115 (held for the process's life)
        process = subprocess.Popen(
            [sys.executable, "-m", "monitor", "--config", str(config), "run"],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=tmp,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        print(
            f"soak: {args.watchers} watchers ({args.watchers // 10} misbehaving), every {args.every}, "
            f"{args.minutes:g} minutes; service pid {process.pid}"
        )
        started = time.monotonic()
        try:
            while time.monotonic() - started < args.minutes * 60:
                time.sleep(
                    min(args.report, max(0.0, args.minutes * 60 - (time.monotonic() - started)))
                )
                if process.poll() is not None:
                    print("the service exited early; see its log:")
                    print((Path(tmp) / "run.log").read_text()[-2000:])
                    return
                if db.exists():
                    print(report(db, process.pid, started), flush=True)
        finally:
            process.send_signal(signal.SIGTERM)
            code = process.wait(120)
            log.close()
            print(f"stopped with exit code {code}")
    healthy.shutdown()


if __name__ == "__main__":
    main()
