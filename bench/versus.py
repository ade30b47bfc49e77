"""Claimwatch against urlwatch, side by side: the same N RSS feeds, the same machine, one run.

Usage: python bench/versus.py [--watchers 500] [--rounds 3] [--server auto|nginx|local]
Serves N feeds from nginx on 127.0.0.1 (a small local server when nginx is not on PATH), installs
urlwatch 2.29 into ~/.cache/claimwatch-bench once, and runs each tool as a whole process:
`claimwatch --config <toml> poll` (concurrency 10, per_host 10, SQLite) and urlwatch with its
default 10 workers. Two scenarios: every feed new (a fresh database or cache each round) and every
feed answering 304 (after one warm-up run). Prints wall time, CPU, CPU ms per poll, polls per
second and peak RSS (medians over the rounds), the ratios, and Claimwatch's start-up costs.
Nothing leaves 127.0.0.1; temp folders and servers go away at the end, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from feeds import write_feeds
from feedserver import FeedServer, serving
from harness import (
    Measured,
    find_claimwatch,
    local_env,
    median,
    run_main,
    run_measured,
    table,
    tool_venv,
)

URLWATCH = "urlwatch==2.29"
SUMMARY = re.compile(r"^([\d,]+) polled: (.*?); ([\d,]+) new items?, ([\d,]+) observations?", re.M)
COUNT = re.compile(r"([\d,]+) ([a-z][a-z -]*)")
GOALS = {"new": 2.0, "304": 5.0}
SCENARIOS = {"new": "every feed new (parse, extract, store)", "304": "every feed answers 304"}


class Claimwatch:
    name = "claimwatch"

    def __init__(self, binary: Path, work: Path, urls: list[str], concurrency: int, per_host: int):
        self.binary, self.work, self.count = binary, work, len(urls)
        work.mkdir()
        lines = ["[http]", f"concurrency = {concurrency}", f"per_host = {per_host}"]
        for index, url in enumerate(urls):
            lines += [
                "[[watchers]]",
                f'name = "feed-{index:05d}"',
                'kind = "feed"',
                f'url = "{url}"',
            ]
        self.config = work / "claimwatch.toml"
        self.config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.template = work / "template.db"

    def argv(self, db: Path, *command: str) -> list[str]:
        return [str(self.binary), "--config", str(self.config), "--db", f"sqlite:///{db}", *command]

    def initialise(self) -> Measured:
        """The fresh database every 'new' round starts from: schema and ledger, no feed seen."""
        measured = run_measured(
            self.argv(self.template, "init"),
            cwd=self.work,
            env=local_env(),
            out=self.work / "init.log",
        )
        _check_exit(self.name, "init", measured, self.work / "init.log")
        return measured

    def fresh(self, label: str) -> Path:
        state = self.work / label
        state.mkdir()
        shutil.copyfile(self.template, state / "claimwatch.db")
        return state

    def run(self, state: Path, label: str) -> tuple[Measured, str]:
        out = state / f"{_slug(label)}.log"
        measured = run_measured(
            self.argv(state / "claimwatch.db", "poll"), cwd=state, env=local_env(), out=out
        )
        _check_exit(self.name, label, measured, out)
        found = SUMMARY.search(out.read_text(errors="replace"))
        if not found:  # the server's log still tells what was answered
            return measured, "(no summary line)"
        polled, states, items, observations = found.groups()
        counts = {word.strip(): _number(n) for n, word in COUNT.findall(states)}
        good = counts.get("ok", 0) + counts.get("not modified", 0)
        if _number(polled) != self.count or good != self.count:
            raise SystemExit(f"claimwatch {label}: {polled} polled, {states} (of {self.count})")
        return measured, (
            f"{_number(items)} items, {_number(observations)} observations, "
            f"{counts.get('not modified', 0)} not modified"
        )


class Urlwatch:
    name = "urlwatch"

    def __init__(self, binary: Path, work: Path, urls: list[str]):
        self.binary, self.work = binary, work
        work.mkdir()
        self.urls = work / "urls.yaml"
        self.urls.write_text("---\n".join(f"url: {url}\n" for url in urls), encoding="utf-8")
        self.config = work / "urlwatch.yaml"
        self.config.write_text("report:\n  stdout:\n    enabled: false\n", encoding="utf-8")

    def fresh(self, label: str) -> Path:
        state = self.work / label
        state.mkdir()
        return state

    def run(self, state: Path, label: str) -> tuple[Measured, str]:
        out = state / f"{_slug(label)}.log"
        argv = [
            str(self.binary),
            "--urls",
            str(self.urls),
            "--config",
            str(self.config),
            "--hooks",
            str(state / "no-hooks.py"),
            "--cache",
            str(state / "cache.db"),
        ]
        measured = run_measured(argv, cwd=state, env=local_env(HOME=str(state)), out=out)
        _check_exit(self.name, label, measured, out)
        with sqlite3.connect(state / "cache.db") as db:
            jobs = db.execute("SELECT COUNT(DISTINCT guid) FROM CacheEntry").fetchone()[0]
        return measured, f"{jobs} jobs cached"


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", label)


def _check_exit(tool: str, label: str, measured: Measured, out: Path) -> None:
    if measured.code:
        tail = out.read_text(errors="replace")[-1500:]
        raise SystemExit(f"{tool} {label} exited with {measured.code}:\n{tail}")


def measure_run(tool, server: FeedServer, state: Path, label: str, expect: str, count: int):
    offset = server.log_offset()
    measured, note = tool.run(state, label)
    answered = server.statuses(offset, expect=count)
    if answered != Counter({expect: count}):
        raise SystemExit(
            f"{tool.name} {label}: the server answered {dict(answered)}, expected {count} × {expect}"
        )
    print(
        f"  {label:<14} {tool.name:<10} {measured.wall:6.2f} s  {measured.cpu:6.2f} s CPU  "
        f"{measured.rss_mib:5.0f} MiB  {count}×{expect}  {note}",
        flush=True,
    )
    return measured, answered[expect]


def start_up(claimwatch: Path, work: Path) -> tuple[float, float]:
    """Median wall time of `claimwatch --help` (10 runs) and of importing monitor.cli (5 runs)."""
    helps = [
        run_measured(
            [str(claimwatch), "--help"], cwd=work, env=local_env(), out=work / "help.log"
        ).wall
        for _ in range(10)
    ]
    python = claimwatch.read_text(errors="replace").splitlines()[0].removeprefix("#!").strip()
    probe = (
        "import time; t = time.perf_counter(); import monitor.cli; print(time.perf_counter() - t)"
    )
    imports = [
        float(
            subprocess.run(
                [python, "-c", probe], capture_output=True, text=True, check=True, cwd=work
            ).stdout
        )
        for _ in range(5)
    ]
    return median(helps), median(imports)


def summarise(results, answered, count: int, rounds: int, help_s: float, import_s: float):
    rows = []
    med = {}
    for scenario in SCENARIOS:
        for tool in ("claimwatch", "urlwatch"):
            runs = results[scenario][tool]
            wall, cpu = median([r.wall for r in runs]), median([r.cpu for r in runs])
            rss = median([r.rss_mib for r in runs])
            med[scenario, tool] = (wall, cpu, rss)
            rows.append(
                [
                    SCENARIOS[scenario] if tool == "claimwatch" else "",
                    tool,
                    f"{wall:.2f}",
                    f"{cpu:.2f}",
                    f"{cpu * 1000 / count:.2f}",
                    f"{count / wall:.0f}",
                    f"{rss:.0f}",
                ]
            )
    print(f"\nmedians of {rounds} rounds, {count} feeds:\n")
    print(
        table(
            ["scenario", "tool", "wall s", "CPU s", "CPU ms/poll", "polls/s", "peak RSS MiB"], rows
        )
    )

    print(
        "\n| | Claimwatch | urlwatch | polls/s ratio | CPU per poll, urlwatch ÷ Claimwatch |"
        "\n|---|---|---|---|---|"
    )
    verdicts = []
    for scenario, label in SCENARIOS.items():
        (cw_wall, cw_cpu, _), (uw_wall, uw_cpu, _) = (
            med[scenario, "claimwatch"],
            med[scenario, "urlwatch"],
        )
        ratio = uw_wall / cw_wall  # polls/s over polls/s, the same N on both sides
        cpu_ratio = uw_cpu / cw_cpu  # steadier than wall time on a machine others share
        print(
            f"| {label} | {cw_wall:.2f} s, {cw_cpu * 1000 / count:.2f} ms CPU/poll "
            f"| {uw_wall:.2f} s, {uw_cpu * 1000 / count:.2f} ms "
            f"| {ratio:.2f}× urlwatch's | {cpu_ratio:.2f}× |"
        )
        verdicts.append(f"{label}: {ratio:.2f}× (goal {GOALS[scenario]:g}×)")
    cw_rss = max(med[s, "claimwatch"][2] for s in SCENARIOS)
    uw_rss = max(med[s, "urlwatch"][2] for s in SCENARIOS)
    print(f"| peak RSS | {cw_rss:.0f} MiB | {uw_rss:.0f} MiB | {cw_rss / uw_rss:.2f}× | |")

    print(f"\n304s counted in the server's access log over {rounds} rounds:")
    for tool in ("claimwatch", "urlwatch"):
        print(f"  {tool:<10} {answered[tool]} of {rounds * count}")
    print(f"\nclaimwatch --help      {help_s:.3f} s (median of 10; goal 0.15 s)")
    print(f"import monitor.cli     {import_s:.3f} s (median of 5)")
    print(f"load average now       {os.getloadavg()[0]:.2f} (other work on the machine slows both)")
    print(
        "\nagainst the goals: "
        + "; ".join(verdicts)
        + f"; peak RSS {cw_rss:.0f} vs {uw_rss:.0f} MiB"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=10, help="Claimwatch [http] concurrency")
    parser.add_argument("--per-host", type=int, default=10, help="Claimwatch [http] per_host")
    parser.add_argument("--server", choices=["auto", "nginx", "local"], default="auto")
    parser.add_argument("--claimwatch", metavar="PATH", help="the claimwatch script to measure")
    args = parser.parse_args()

    claimwatch_bin = find_claimwatch(args.claimwatch)
    urlwatch_bin = tool_venv("urlwatch-venv", URLWATCH) / "urlwatch"
    count = args.watchers
    with tempfile.TemporaryDirectory(prefix="claimwatch-versus-") as tmp:
        work = Path(tmp)
        (work / "www/feeds").mkdir(parents=True)
        with serving(work / "www", work / "server", args.server) as server:
            paths = write_feeds(work / "www", count, server.base_url)
            urls = [server.url(p) for p in paths]
            cw = Claimwatch(
                claimwatch_bin, work / "claimwatch", urls, args.concurrency, args.per_host
            )
            uw = Urlwatch(urlwatch_bin, work / "urlwatch", urls)
            load = os.getloadavg()[0]
            print(
                f"{count} RSS feeds from {server.name} on {server.base_url}; {os.cpu_count()} cores, "
                f"load {load:.2f}\nclaimwatch {claimwatch_bin} (concurrency {args.concurrency}, "
                f"per_host {args.per_host}, SQLite); urlwatch 2.29 (10 workers)"
            )
            init = cw.initialise()
            print(f"  claimwatch init on an empty database: {init.wall:.2f} s (untimed below)")
            results = {s: {"claimwatch": [], "urlwatch": []} for s in SCENARIOS}
            answered = Counter()
            for r in range(args.rounds):
                for tool in (cw, uw) if r % 2 == 0 else (uw, cw):
                    state = tool.fresh(f"new-{r}")
                    measured, _ = measure_run(
                        tool, server, state, f"new {r + 1}/{args.rounds}", "200", count
                    )
                    results["new"][tool.name].append(measured)
            states = {}
            for tool in (cw, uw):
                states[tool.name] = tool.fresh("warm")
                measure_run(tool, server, states[tool.name], "304 warm-up", "200", count)
            for r in range(args.rounds):
                for tool in (cw, uw) if r % 2 == 0 else (uw, cw):
                    measured, not_modified = measure_run(
                        tool, server, states[tool.name], f"304 {r + 1}/{args.rounds}", "304", count
                    )
                    results["304"][tool.name].append(measured)
                    answered[tool.name] += not_modified
            help_s, import_s = start_up(claimwatch_bin, work)
    summarise(results, answered, count, args.rounds, help_s, import_s)


if __name__ == "__main__":
    run_main(main)
