"""Timeline and digest over a large history: 1,000,000 observations on 50 claims in SQLite.

Usage: python bench/timeline.py [--observations 1000000] [--claims 50] [--runs 50]
Prints p50/p99 of a one-claim timeline query (whole history and last 30 days) and the time to
render the digest of a busy day.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from datetime import UTC, date, datetime, timedelta


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--observations", type=int, default=1_000_000)
    parser.add_argument("--claims", type=int, default=50)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument(
        "--keep", metavar="DIR", help="build the database in DIR and leave it there"
    )
    args = parser.parse_args()

    from sqlmodel import Session

    from alerts.digest import digest_data, render_html, render_text
    from db import queries
    from monitor.config import load_settings
    from monitor.service import open_database

    with tempfile.TemporaryDirectory() as tmp:
        tmp = args.keep or tmp
        path = f"{tmp}/bench.db"
        settings = load_settings(None, environ={}, overrides={"database_url": f"sqlite:///{path}"})
        engine, _ = open_database(settings)
        with Session(engine) as session:
            claims = [c for c in queries.get_claims(session=session) if c.kind == "number"][
                : args.claims
            ]
            claims += [c for c in queries.get_claims(session=session) if c not in claims][
                : args.claims - len(claims)
            ]
        day = date(2026, 12, 2)
        busy_start = datetime(2026, 12, 1, 8, tzinfo=UTC)
        history_start = busy_start - timedelta(days=365)
        per_item = len(claims)
        items = args.observations // per_item
        busy_items = max(1, items // 50)  # 2 % of all items land on the busy day
        started = time.perf_counter()
        conn = sqlite3.connect(path)
        conn.execute(
            "INSERT INTO watchers (name, kind, url, consecutive_failures, items_seen, polls, health) VALUES ('bench', 'feed', 'http://127.0.0.1/', 0, 0, 0, 'ok')"
        )
        rng = random.Random(7)
        obs_rows = []
        for i in range(items):
            if i >= items - busy_items:
                seen = busy_start + timedelta(
                    seconds=(i - (items - busy_items)) * 86400 / busy_items
                )
            else:
                seen = history_start + timedelta(seconds=i * 365 * 86400 / items)
            stamp = seen.strftime("%Y-%m-%d %H:%M:%S.000000")
            conn.execute(
                "INSERT INTO items (id, watcher, dedupe_key, content_hash, title, url, seen_at, relevant) VALUES (?, 'bench', ?, 'h', ?, 'http://127.0.0.1/a', ?, 1)",
                (i + 1, f"k{i}", f"Item {i}", stamp),
            )
            for claim in claims:
                value = rng.uniform(1, 100000)
                changed = rng.random() < 0.05
                obs_rows.append(
                    (
                        claim.id,
                        json.dumps(value),
                        value,
                        claim.unit,
                        stamp,
                        stamp,
                        "bench",
                        "http://127.0.0.1/a",
                        f"Item {i}",
                        "excerpt",
                        "figures",
                        changed,
                        -1.5 if changed else None,
                        i + 1,
                    )
                )
            if len(obs_rows) >= 50_000:
                conn.executemany(
                    "INSERT INTO observations (claim_id, value, value_num, unit, at, seen_at, source, url, title, excerpt, signal, changed, delta_pct, item_id, key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,'')",
                    obs_rows,
                )
                obs_rows.clear()
        if obs_rows:
            conn.executemany(
                "INSERT INTO observations (claim_id, value, value_num, unit, at, seen_at, source, url, title, excerpt, signal, changed, delta_pct, item_id, key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,'')",
                obs_rows,
            )
        conn.commit()
        conn.execute("ANALYZE")
        conn.close()
        total = items * per_item
        print(
            f"{total:,} observations over {len(claims)} claims loaded in {time.perf_counter() - started:.1f} s"
        )

        target = claims[0].id
        for label, since in (
            ("whole history", None),
            ("last 30 days", busy_start - timedelta(days=30)),
        ):
            timings = []
            for _ in range(args.runs):
                t = time.perf_counter()
                with Session(engine) as session:
                    events = queries.timeline(session=session, claim_ids=[target], since=since)
                timings.append((time.perf_counter() - t) * 1000)
            print(
                f"timeline, one claim, {label:<13} {len(events):>7,} events   p50 {statistics.median(timings):8.1f} ms   p99 {percentile(timings, 99):8.1f} ms"
            )
        t = time.perf_counter()
        with Session(engine) as session:
            data = digest_data(session, settings, day)
        gathered = time.perf_counter() - t
        text, html = render_text(data, settings), render_html(data, settings)
        changes = sum(len(g["changes"]) for g in data["changes"])
        print(
            f"digest of a busy day ({busy_items * per_item:,} observations, {changes:,} changes): "
            f"{gathered * 1000:.0f} ms to gather, {(time.perf_counter() - t - gathered) * 1000:.0f} ms to render "
            f"({len(text) // 1024} KiB text, {len(html) // 1024} KiB HTML)"
        )


if __name__ == "__main__":
    main()
