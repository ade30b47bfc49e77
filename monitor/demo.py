"""`claimwatch demo`: a month of the story, offline, through the real pipeline on a virtual clock."""

from __future__ import annotations

import hashlib
import io
import threading
import tomllib
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from email.utils import format_datetime
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TextIO

from sqlmodel import Session

from alerts.console import ConsoleAlerter
from alerts.deliver import deliver
from alerts.digest import digest_data, render_html
from db import queries
from monitor.config import Settings, load_settings
from monitor.health import state_word
from monitor.render import plain, plural
from monitor.scheduler import Service

DATA = Path(__file__).parent / "demo_data"


@dataclass
class Story:
    start: date
    days: int
    poll_at: time
    watchers: list[dict]
    items: list[dict]
    snapshots: list[dict]
    outages: list[dict]

    @classmethod
    def load(cls, path: Path = DATA / "story.toml") -> Story:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(
            start=date.fromisoformat(raw["start"]),
            days=raw["days"],
            poll_at=time.fromisoformat(raw["poll_at"]),
            watchers=raw["watchers"],
            items=raw["items"],
            snapshots=raw["snapshots"],
            outages=raw.get("outages", []),
        )

    def when(self, day: int) -> datetime:
        return datetime.combine(self.start + timedelta(days=day), self.poll_at, UTC)

    def feed(self, name: str, fmt: str, day: int) -> bytes:
        items = [i for i in self.items if i["feed"] == name and i["day"] <= day]
        items.sort(key=lambda i: i["day"], reverse=True)
        entries = []
        for item in items:
            published = (
                datetime.fromisoformat(item["published"])
                if "published" in item
                else self.when(item["day"]) - timedelta(hours=2)
            )
            digest = hashlib.sha1(item["title"].encode()).hexdigest()[:10]
            guid, link = (
                f"{name}-{item['day']}-{digest}",
                f"http://demo.invalid/{name}/{item['day']}/{digest}",
            )
            if fmt == "atom":
                entries.append(
                    f"<entry><title>{escape(item['title'])}</title><id>urn:demo:{guid}</id>"
                    f'<link rel="alternate" href="{link}"/><updated>{published.isoformat().replace("+00:00", "Z")}</updated>'
                    f"<summary>{escape(item.get('text', ''))}</summary></entry>"
                )
            else:
                entries.append(
                    f'<item><title>{escape(item["title"])}</title><link>{link}</link><guid isPermaLink="false">{guid}</guid>'
                    f"<pubDate>{format_datetime(published, usegmt=True)}</pubDate><description>{escape(item.get('text', ''))}</description></item>"
                )
        if fmt == "atom":
            return (
                f'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>{name}</title>'
                f"<id>urn:demo:{name}</id><updated>{self.when(day).isoformat()}</updated>{''.join(entries)}</feed>"
            ).encode()
        return (
            f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>{name}</title>'
            f"<link>http://demo.invalid/{name}</link><description>demo</description>{''.join(entries)}</channel></rss>"
        ).encode()

    def snapshot(self, watcher: str, day: int) -> tuple[int, bytes, str]:
        for outage in self.outages:
            if outage["watcher"] == watcher and day in outage["days"]:
                return outage.get("status", 503), (DATA / outage["file"]).read_bytes(), "text/html"
        current = [s for s in self.snapshots if s["watcher"] == watcher and s["day"] <= day]
        if not current:
            return 404, b"not yet", "text/plain"
        name = max(current, key=lambda s: s["day"])["file"]
        kind = "application/json" if name.endswith(".json") else "text/html"
        return 200, (DATA / name).read_bytes(), kind


class DemoServer:
    """Serves the story's state for `day` on 127.0.0.1."""

    def __init__(self, story: Story):
        self.story = story
        self.day = 0
        demo = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                name = self.path.strip("/").split("/")[-1]
                watcher = next((w for w in demo.story.watchers if w["name"] == name), None)
                if watcher is None:
                    status, body, kind = 404, b"unknown", "text/plain"
                elif watcher["kind"] == "feed":
                    fmt = watcher["format"]
                    status, body, kind = (
                        200,
                        demo.story.feed(name, fmt, demo.day),
                        f"application/{fmt}+xml",
                    )
                else:
                    status, body, kind = demo.story.snapshot(name, demo.day)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> DemoServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{name}"


def demo_settings(story: Story, server: DemoServer, database_url: str) -> Settings:
    watchers = [
        {
            "name": w["name"],
            "kind": w["kind"],
            "url": server.url(w["name"]),
            "every": "1d",
            **({"format": w["format"]} if w["kind"] != "feed" else {}),
        }
        for w in story.watchers
    ]
    return load_settings(
        None,
        environ={},
        overrides={
            "database_url": database_url,
            "watchers": watchers,
            "failures_alert": 3,
            "alerts": {"email": {"digest_at": "23:00"}},
            "http": {"connect_timeout": 5, "read_timeout": 10, "total_timeout": 20},
        },
    )


def run_demo(database_url: str, out_dir: Path, stream: TextIO, *, bar: bool = False) -> dict:
    """Replay the story; returns what happened, for the summary and for tests."""
    from monitor.service import open_database

    story = Story.load()
    out_dir.mkdir(parents=True, exist_ok=True)
    clock = {"now": story.when(0)}
    totals = {"changes": 0, "alerts": 0, "digests": [], "changed_claims": set()}
    with DemoServer(story) as server:
        settings = demo_settings(story, server, database_url)
        engine, _ = open_database(settings)
        service = Service(settings, engine, clock=lambda: clock["now"])
        console = ConsoleAlerter(settings)
        alerts_out = io.StringIO()
        console.stream = alerts_out
        try:
            for day in range(story.days):
                server.day = day
                clock["now"] = story.when(day)
                reports = service.poller.poll_many([w["name"] for w in story.watchers])
                service.check_milestones()
                report = deliver(engine, settings, now=clock["now"], alerters={"console": console})
                changes = sum(r.changes for r in reports)
                failed = [
                    f"{r.watcher} {state_word(r.outcome, r.error)}"
                    for r in reports
                    if r.outcome not in ("ok", "not-modified", "raced")
                ]
                totals["changes"] += changes
                totals["alerts"] += report.sent
                progress = _bar(day + 1, story.days) if bar else f"[{day + 1:>2}/{story.days}]"
                stream.write(
                    f"{progress} {story.start + timedelta(days=day)}  "
                    f"{plural(sum(r.items for r in reports), 'new item'):>12}  "
                    f"{plural(sum(r.observations for r in reports), 'observation'):>15}  "
                    f"{plural(changes, 'change'):>10}"
                    + (f"  failing: {', '.join(failed)}" if failed else "")
                    + "\n"
                )
                for line in alerts_out.getvalue().splitlines():
                    stream.write(f"      {plain(line)}\n")
                alerts_out.seek(0)
                alerts_out.truncate()
                stream.flush()
                the_day = story.start + timedelta(days=day)
                with Session(engine) as session:
                    data = digest_data(session, settings, the_day, now=clock["now"])
                    totals["changed_claims"].update(g["claim_id"] for g in data["changes"])
                path = out_dir / f"digest-{the_day}.html"
                path.write_text(render_html(data, settings), encoding="utf-8")
                totals["digests"].append(path)
        finally:
            service.close()
        with Session(engine) as session:
            totals["timeline"] = queries.timeline(
                session=session, claim_ids=sorted(totals["changed_claims"])
            )
        engine.dispose()
    return totals


def _bar(done: int, total: int, width: int = 20) -> str:
    filled = round(width * done / total)
    return f"[{'#' * filled}{'-' * (width - filled)}] {done:>2}/{total}"


def has_data(database_url: str) -> bool:
    """Whether the database already holds polled data (a ledger alone does not count)."""
    from sqlalchemy import inspect
    from sqlmodel import Session

    from db.engine import make_engine, sqlite_file

    path = sqlite_file(database_url)
    if path is not None and not path.exists():
        return False
    engine = make_engine(database_url)
    try:
        if not inspect(engine).has_table("watchers"):
            return False
        with Session(engine) as session:
            return queries.has_polled_data(session=session)
    finally:
        engine.dispose()
