"""Serving benchmark feeds on 127.0.0.1: nginx when it is on PATH, else a small asyncio server.

Both answer conditional GETs with 304 (If-None-Match, or If-Modified-Since at or after the file's
time, as nginx's `if_modified_since before`) and write one access-log line per request,
"STATUS PATH", so a benchmark can count what each run was really answered.

Run as a script it is the fallback server: python bench/feedserver.py ROOT LOG (prints its port).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path

from harness import die_with_parent

FEED_PATH = re.compile(r"^/feeds/\d+\.rss$")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_listening(port: int, process: subprocess.Popen, what: str, log: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if process.poll() is not None:
            detail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            raise RuntimeError(f"{what} exited with code {process.returncode}: {detail}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on 127.0.0.1:{port} within 15 s")


class FeedServer:
    """A running server: its name, base URL and access log."""

    def __init__(self, name: str, port: int, process: subprocess.Popen, access_log: Path):
        self.name = name
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"
        self.process = process
        self.access_log = access_log

    def url(self, path: str) -> str:
        return self.base_url + path

    def log_offset(self) -> int:
        return self.access_log.stat().st_size if self.access_log.exists() else 0

    def statuses(self, since: int, expect: int = 0, wait: float = 2.0) -> Counter[str]:
        """Status codes logged after `since`, waiting up to `wait` seconds for `expect` lines
        (a server logs a request just after the client has its answer)."""
        deadline = time.monotonic() + wait
        while True:
            with open(self.access_log, "rb") as log:
                log.seek(since)
                lines = log.read().decode(errors="replace").splitlines()
            if len(lines) >= expect or time.monotonic() > deadline:
                return Counter(line.split(" ", 1)[0] for line in lines if line)
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def _nginx_version(nginx: str) -> tuple[str, str]:
    out = subprocess.run([nginx, "-V"], capture_output=True, text=True).stderr
    version = re.search(r"nginx/(\S+)", out)
    return (version.group(1) if version else "?"), out


def _nginx_conf(root: Path, work: Path, port: int, build: str) -> str:
    temp_paths = []
    for module in ("client-body", "proxy", "fastcgi", "uwsgi", "scgi"):
        built = module == "client-body" or f"--without-http_{module}_module" not in build
        if built:
            directive = module.replace("-", "_") + "_temp_path"
            temp_paths.append(f"  {directive} {work / ('temp-' + module)};")
    return "\n".join(
        [
            "daemon off;",
            "worker_processes 1;",
            f"pid {work / 'nginx.pid'};",
            f"error_log {work / 'error.log'} warn;",
            "events { worker_connections 4096; }",
            "http {",
            "  types { application/rss+xml rss; }",
            "  default_type application/octet-stream;",
            "  log_format bench '$status $uri';",
            f"  access_log {work / 'access.log'} bench;",
            *temp_paths,
            "  sendfile on;",
            "  tcp_nodelay on;",
            "  keepalive_timeout 65;",
            "  keepalive_requests 100000;",
            "  etag on;",
            "  if_modified_since before;",
            "  server {",
            f"    listen 127.0.0.1:{port};",
            f"    root {root};",
            "    location / { }",
            "  }",
            "}",
            "",
        ]
    )


def start_nginx(nginx: str, root: Path, work: Path) -> FeedServer:
    version, build = _nginx_version(nginx)
    work.mkdir(parents=True, exist_ok=True)
    for attempt in range(5):
        port = free_port()
        conf = work / "nginx.conf"
        conf.write_text(_nginx_conf(root, work, port, build), encoding="utf-8")
        process = subprocess.Popen(
            [nginx, "-p", str(work), "-c", str(conf), "-e", str(work / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        try:
            _wait_listening(port, process, "nginx", work / "error.log")
        except RuntimeError:
            if process.poll() is None:
                process.kill()
            process.wait()
            if attempt == 4:
                raise
            continue
        return FeedServer(f"nginx {version}", port, process, work / "access.log")
    raise AssertionError("unreachable")


def start_local(root: Path, work: Path) -> FeedServer:
    work.mkdir(parents=True, exist_ok=True)
    log = work / "access.log"
    process = subprocess.Popen(
        [sys.executable, __file__, str(root), str(log)],
        stdout=subprocess.PIPE,
        stderr=open(work / "error.log", "wb"),  # noqa: SIM115 (the child holds it)
        preexec_fn=die_with_parent,
    )
    port = int(process.stdout.readline() or 0)
    if not port:
        raise RuntimeError(
            f"the local feed server did not start: {(work / 'error.log').read_text()}"
        )
    _wait_listening(port, process, "the local feed server", work / "error.log")
    return FeedServer("local asyncio server (nginx not on PATH)", port, process, log)


@contextlib.contextmanager
def serving(root: Path, work: Path, kind: str = "auto") -> Iterator[FeedServer]:
    """Serve `root` on 127.0.0.1 for the length of the block; `kind` is auto, nginx or local."""
    nginx = shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None
    )
    if kind == "nginx" and not nginx:
        raise SystemExit("nginx is not installed (Debian: apt-get install nginx-light)")
    use_nginx = nginx and kind != "local"
    _readable(root)
    server = start_nginx(nginx, root, work) if use_nginx else start_local(root, work)
    try:
        yield server
    finally:
        server.stop()


def _readable(root: Path) -> None:
    """nginx's workers may run as another user (nobody, under root): let them read the feeds,
    opening up only the benchmark's own folders below the system's temp folder."""
    top = Path(os.path.realpath(tempfile.gettempdir()))
    folder = Path(os.path.realpath(root))
    for inner in (folder / "feeds", folder, *folder.parents):
        if inner == top or top not in inner.parents:
            break
        inner.chmod(0o755)


# ---------------------------------------------------------------- the fallback server


class _Feeds(asyncio.Protocol):
    cache: dict[str, tuple[int, bytes]] = {}

    def __init__(self, root: Path, log):
        self.root, self.log, self.buffer = root, log, b""

    def connection_made(self, transport):
        self.transport = transport

    def data_received(self, data: bytes):
        self.buffer += data
        while b"\r\n\r\n" in self.buffer:
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            if not self._answer(head.decode("latin-1")):
                self.transport.close()
                return

    def _answer(self, head: str) -> bool:
        lines = head.split("\r\n")
        parts = lines[0].split(" ")
        headers = {}
        for line in lines[1:]:
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        path = parts[1].split("?", 1)[0] if len(parts) == 3 else ""
        keep = headers.get("connection", "").lower() != "close" and parts[-1] == "HTTP/1.1"
        if parts[0] != "GET" or not FEED_PATH.match(path):
            return self._send(404, path, {}, b"not found\n", keep)
        try:
            stat = (self.root / path[1:]).stat()
        except OSError:
            return self._send(404, path, {}, b"not found\n", keep)
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        validators = {
            "ETag": etag,
            "Last-Modified": formatdate(int(stat.st_mtime), usegmt=True),
        }
        if _not_modified(headers, etag, int(stat.st_mtime)):
            return self._send(304, path, validators, b"", keep)
        cached = self.cache.get(path)
        if cached is None or cached[0] != stat.st_mtime_ns:
            cached = self.cache[path] = (stat.st_mtime_ns, (self.root / path[1:]).read_bytes())
        validators["Content-Type"] = "application/rss+xml"
        return self._send(200, path, validators, cached[1], keep)

    def _send(self, status: int, path: str, headers: dict, body: bytes, keep: bool) -> bool:
        reason = {200: "OK", 304: "Not Modified", 404: "Not Found"}[status]
        lines = [f"HTTP/1.1 {status} {reason}", "Server: bench-feeds"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if status != 304:
            lines.append(f"Content-Length: {len(body)}")
        lines.append("Connection: keep-alive" if keep else "Connection: close")
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        self.log.write(f"{status} {path}\n")
        return keep


def _not_modified(headers: dict[str, str], etag: str, mtime: int) -> bool:
    if "if-none-match" in headers:
        return etag in [tag.strip() for tag in headers["if-none-match"].split(",")]
    since = headers.get("if-modified-since")
    if not since:
        return False
    try:
        return parsedate_to_datetime(since).timestamp() >= mtime
    except (TypeError, ValueError):
        return False


async def _serve(root: Path, log_path: Path) -> None:
    with open(log_path, "a", buffering=1, encoding="utf-8") as log:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: _Feeds(root, log), "127.0.0.1", 0, backlog=1024)
        print(server.sockets[0].getsockname()[1], flush=True)
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        server.close()


if __name__ == "__main__":
    asyncio.run(_serve(Path(sys.argv[1]), Path(sys.argv[2])))
