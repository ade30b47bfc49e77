"""The CPU cost of `claimwatch run` watching N feeds that mostly answer 304.

Usage: python bench/idle.py [--watchers 1000] [--minutes 3] [--every 60s] [--changing 0.01]
Serves N feeds on 127.0.0.1 (nginx when on PATH), starts the real service on them with a short
interval, waits until every watcher has polled once, then measures the service's CPU time over
the given minutes while a small share of the feeds gains an item each minute. Prints CPU % of one
core, CPU ms per poll and what that makes for N watchers every 15 minutes.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from feeds import feed_path, feed_xml, write_feeds
from feedserver import FeedServer, serving
from harness import die_with_parent, find_claimwatch, local_env, run_main, table

TICKS = os.sysconf("SC_CLK_TCK")
GOAL_PERCENT = 1.0  # of one core, for N watchers every 15 minutes


def seconds(text: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([smh])", text.strip())
    if not match:
        raise SystemExit(f"--every {text!r}: give a duration like 60s, 2m or 1h")
    return float(match[1]) * {"s": 1, "m": 60, "h": 3600}[match[2]]


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a running process, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICKS, int(fields[12]) / TICKS


def memory_mib(pid: int) -> tuple[float, float]:
    """Resident set now and at its peak."""
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def write_config(path: Path, urls: list[str], every: str, concurrency: int, per_host: int) -> None:
    lines = ["[http]", f"concurrency = {concurrency}", f"per_host = {per_host}"]
    for index, url in enumerate(urls):
        lines += [
            "[[watchers]]",
            f'name = "local-{index:05d}"',
            'kind = "feed"',
            f'url = "{url}"',
            f'every = "{every}"',
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def wait_for_first_polls(server: FeedServer, process, count: int, limit: float) -> None:
    deadline = time.monotonic() + limit
    while sum(server.statuses(0).values()) < count:
        if process.poll() is not None:
            raise SystemExit(f"the service exited with {process.returncode} before polling")
        if time.monotonic() > deadline:
            raise SystemExit(f"not every watcher polled within {limit:.0f} s")
        time.sleep(1)


def change_some(root: Path, count: int, share: float, base_url: str, minute: int, rng) -> int:
    """News on a few feeds: `share` of them gain an item (they answer 200 once, then 304)."""
    changed = rng.sample(range(count), max(1, round(count * share))) if share else []
    for index in changed:
        (root / feed_path(index).lstrip("/")).write_bytes(feed_xml(index, base_url, extra=minute))
    return len(changed)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--every", default="60s", help="each watcher's interval during the run")
    parser.add_argument(
        "--changing", type=float, default=0.01, help="share of feeds gaining an item each minute"
    )
    parser.add_argument("--concurrency", type=int, default=10, help="Claimwatch [http] concurrency")
    parser.add_argument("--per-host", type=int, default=10, help="Claimwatch [http] per_host")
    parser.add_argument("--server", choices=["auto", "nginx", "local"], default="auto")
    parser.add_argument("--claimwatch", metavar="PATH", help="the claimwatch script to measure")
    args = parser.parse_args()
    interval = seconds(args.every)

    claimwatch = find_claimwatch(args.claimwatch)
    rng = random.Random(15)
    with tempfile.TemporaryDirectory(prefix="claimwatch-idle-") as tmp:
        work = Path(tmp)
        (work / "www/feeds").mkdir(parents=True)
        with serving(work / "www", work / "server", args.server) as server:
            paths = write_feeds(work / "www", args.watchers, server.base_url)
            config = work / "claimwatch.toml"
            write_config(
                config, [server.url(p) for p in paths], args.every, args.concurrency, args.per_host
            )
            log = open(work / "run.log", "wb")  # noqa: SIM115 (held for the service's life)
            process = subprocess.Popen(
                [
                    str(claimwatch),
                    "--config",
                    str(config),
                    "--db",
                    f"sqlite:///{work / 'claimwatch.db'}",
                    "run",
                ],
                cwd=work,
                env=local_env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=die_with_parent,
            )
            print(
                f"{args.watchers} feed watchers every {args.every} on {server.name}; service pid "
                f"{process.pid}; waiting for every watcher's first poll ...",
                flush=True,
            )
            try:
                wait_for_first_polls(server, process, args.watchers, interval + 120)
                result = measure(args, server, process, work, interval, rng)
            finally:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(60)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                log.close()
    print_result(args, *result)


def measure(args, server: FeedServer, process, work: Path, interval: float, rng):
    offset = server.log_offset()
    user0, system0 = cpu_seconds(process.pid)
    started = time.monotonic()
    end = started + args.minutes * 60
    minute = 0
    rows = []
    while time.monotonic() < end:
        minute += 1
        changed = change_some(
            work / "www", args.watchers, args.changing, server.base_url, minute, rng
        )
        time.sleep(max(0.0, min(started + 60 * minute, end) - time.monotonic()))
        if process.poll() is not None:
            raise SystemExit(f"the service exited with {process.returncode}; see its log")
        user, system = cpu_seconds(process.pid)
        cpu, elapsed = user + system - user0 - system0, time.monotonic() - started
        answered = server.statuses(offset)
        polls = sum(answered.values())
        rows.append(
            [
                f"{elapsed / 60:.1f}",
                polls,
                answered["304"],
                answered["200"],
                changed,
                f"{cpu:.2f}",
                f"{100 * cpu / elapsed:.2f}",
                f"{1000 * cpu / max(polls, 1):.2f}",
                f"{memory_mib(process.pid)[0]:.0f}",
            ]
        )
        print(f"  {elapsed / 60:.1f} min: {polls} polls, {cpu:.2f} s CPU", flush=True)
    user, system = cpu_seconds(process.pid)
    rss, peak = memory_mib(process.pid)
    answered = server.statuses(offset)
    return rows, answered, user - user0, system - system0, time.monotonic() - started, rss, peak


def print_result(args, rows, answered: Counter, user, system, elapsed, rss, peak) -> None:
    print()
    print(
        table(
            ["min", "polls", "304", "200", "changed", "CPU s", "% core", "ms/poll", "RSS MiB"], rows
        )
    )
    cpu = user + system
    polls = sum(answered.values())
    per_poll = 1000 * cpu / max(polls, 1)
    rate = args.watchers / 900  # polls per second with N watchers every 15 minutes
    projected = per_poll * rate / 10  # ms of CPU per second → % of one core
    other = polls - answered["304"] - answered["200"]
    print(
        f"\nwindow               {elapsed / 60:.1f} min after every watcher's first poll\n"
        f"polls                {polls} ({answered['304']} × 304, {answered['200']} × 200, {other} other)\n"
        f"CPU                  {cpu:.2f} s (user {user:.2f}, system {system:.2f})\n"
        f"CPU % of one core    {100 * cpu / elapsed:.2f} %\n"
        f"CPU ms per poll      {per_poll:.2f}\n"
        f"RSS now / peak       {rss:.0f} / {peak:.0f} MiB\n"
        f"{args.watchers} watchers every 15 minutes: {projected:.3f} % of one core "
        f"(goal under {GOAL_PERCENT:g} %; all CPU counted against polls)"
    )


if __name__ == "__main__":
    run_main(main)
