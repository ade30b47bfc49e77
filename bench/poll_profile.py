"""Where one `claimwatch poll` spends its time: py-spy samples of each scenario of bench/versus.py.

Usage: python bench/poll_profile.py [--watchers 500] [--rate 250] [--keep DIR]
Serves the same N feeds as bench/versus.py, then records `claimwatch --config <toml> poll` under
py-spy (installed once into ~/.cache/claimwatch-bench, never into the project) for every feed new
and for every feed answering 304. Prints, per scenario, the share of busy samples by area
(imports, opening the database, fetch, parse, extraction, database, output...), the functions
with the most samples of their own and the project's functions with the most samples in all;
then what importing monitor.cli costs, by package (python -X importtime).
--keep DIR saves the raw stacks (flamegraph.pl or speedscope read them). Nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

from feeds import write_feeds
from feedserver import serving
from harness import find_claimwatch, local_env, run_main, table, tool_venv
from versus import Claimwatch

PY_SPY = "py-spy==0.4.3"
FRAME = re.compile(r"^(?P<function>.*) \((?P<file>[^()]*?)(?::(?P<line>\d+))?\)$")
# one function may hold several of these: the line tells them apart
ANONYMOUS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>", "<lambda>")
# Areas by file, matched from the innermost frame outwards: the first match names the sample.
AREAS = [
    (
        "fetch",
        (
            "aiohttp/",
            "yarl/",
            "multidict/",
            "asyncio/selector_events.py",
            "httpx/",
            "httpcore/",
            "h11/",
            "h2/",
            "anyio/",
            "ssl.py",
            "socket.py",
            "selectors.py",
            "watchers/fetch.py",
            "watchers/guard.py",
            "watchers/botwall.py",
            "http/client.py",
        ),
    ),
    (
        "parse",
        (
            "feedparser/",
            "bs4/",
            "html/parser.py",
            "html5lib/",
            "lxml/",
            "xml/",
            "sgmllib",
            "watchers/feed.py",
            "watchers/rss.py",
            "watchers/page.py",
            "watchers/prices.py",
        ),
    ),
    (
        "extraction and judging",
        (
            "watchers/extract.py",
            "watchers/context.py",
            "watchers/text.py",
            "watchers/quantities.py",
            "watchers/vocabulary.py",
            "watchers/judge.py",
            "watchers/benchmark.py",
        ),
    ),
    ("database", ("sqlalchemy/", "sqlmodel/", "sqlite3/", "alembic/", "psycopg", "db/")),
    ("alerts", ("alerts/",)),
    ("output", ("click/", "monitor/render.py")),
    ("logging", ("logging/",)),
    ("configuration", ("monitor/config.py", "tomllib/")),
    ("pipeline (monitor/service.py's own code)", ("monitor/service.py", "monitor/scheduler.py")),
    ("threads and waiting", ("concurrent/futures/", "threading.py", "queue.py")),
]
PROJECT = ("monitor/", "watchers/", "db/", "alerts/")


def frames(stack: str) -> list[tuple[str, str]]:
    out = []
    for frame in stack.split(";"):
        match = FRAME.match(frame)
        if not match:
            out.append((frame, ""))
        elif match["function"].endswith(ANONYMOUS) and match["line"]:
            out.append((f"{match['function']} line {match['line']}", match["file"]))
        else:
            out.append((match["function"], match["file"]))
    return out


def area(stack: list[tuple[str, str]]) -> str:
    """What a sample was doing. Module loading wins over everything; then opening the database
    (schema check, ledger load) at start-up; then the innermost frame with a known home."""
    if any(function == "_find_and_load" for function, _ in stack):
        return "imports"
    if any(function == "open_database" for function, _ in stack):
        return "start-up: open_database (schema check, ledger load)"
    for function, file in reversed(stack):
        if file == "watchers/feed.py" and "extract" in function:
            return "extraction and judging"
        for name, homes in AREAS:
            if any(home in file for home in homes):
                return name
    return "other"


def read_samples(path: Path) -> list[tuple[list[tuple[str, str]], int]]:
    samples = []
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            samples.append((frames(stack), int(count)))
    return samples


def report(samples, title: str, wall: float, top: int) -> None:
    total = sum(n for _, n in samples)
    if not total:
        print(f"\n{title}: no samples")
        return
    areas, own, inclusive = Counter(), Counter(), Counter()
    for stack, n in samples:
        areas[area(stack)] += n
        function, file = stack[-1]
        own[f"{function} ({file})", area(stack)] += n
        for name in {f"{f} ({p})" for f, p in stack if p.startswith(PROJECT)}:
            inclusive[name] += n
    print(f"\n== {title}: {wall:.2f} s wall, {total} busy samples across threads ==\n")
    print(
        table(
            ["area", "samples", "share"],
            [[name, n, f"{100 * n / total:.1f} %"] for name, n in areas.most_common()],
        )
    )
    print()
    print(
        table(
            ["own samples: function (file)", "area", "share"],
            [
                [name, where, f"{100 * n / total:.1f} %"]
                for (name, where), n in own.most_common(top)
            ],
        )
    )
    print()
    print(
        table(
            ["project function, with what it calls", "share"],
            [[name, f"{100 * n / total:.1f} %"] for name, n in inclusive.most_common(top)],
        )
    )


def import_costs(claimwatch: Path, work: Path, top: int) -> None:
    """Import time of monitor.cli by top-level package: each module's own time, summed."""
    python = claimwatch.read_text(errors="replace").splitlines()[0].removeprefix("#!").strip()
    result = subprocess.run(
        [python, "-X", "importtime", "-c", "import monitor.cli"],
        capture_output=True,
        text=True,
        check=True,
        cwd=work,
    )
    packages: Counter[str] = Counter()
    for line in result.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            packages[parts[2].strip().split(".")[0]] += int(parts[0])
    total = sum(packages.values())
    print(
        f"\n== import monitor.cli: {total / 1000:.0f} ms of module code (one run, -X importtime) ==\n"
    )
    print(
        table(
            ["package", "ms", "share"],
            [
                [name, f"{us / 1000:.0f}", f"{100 * us / total:.1f} %"]
                for name, us in packages.most_common(top)
            ],
        )
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--top", type=int, default=15, help="rows in each list")
    parser.add_argument("--keep", metavar="DIR", help="save the raw py-spy stacks here")
    parser.add_argument("--server", choices=["auto", "nginx", "local"], default="auto")
    parser.add_argument("--claimwatch", metavar="PATH", help="the claimwatch script to profile")
    args = parser.parse_args()

    claimwatch_bin = find_claimwatch(args.claimwatch)
    py_spy = tool_venv("py-spy-venv", PY_SPY) / "py-spy"
    keep = Path(args.keep) if args.keep else None
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="claimwatch-profile-") as tmp:
        work = Path(tmp)
        (work / "www/feeds").mkdir(parents=True)
        with serving(work / "www", work / "server", args.server) as server:
            urls = [
                server.url(p) for p in write_feeds(work / "www", args.watchers, server.base_url)
            ]
            cw = Claimwatch(claimwatch_bin, work / "claimwatch", urls, 10, 10)
            cw.initialise()
            print(
                f"{args.watchers} feeds from {server.name}; py-spy at {args.rate} Hz, all threads"
            )
            state = cw.fresh("profiled")
            for scenario, title in (("new", "every feed new"), ("304", "every feed answers 304")):
                raw = (keep or work) / f"poll-{scenario}.txt"
                argv = [
                    str(py_spy),
                    "record",
                    "--nonblocking",
                    "--rate",
                    str(args.rate),
                    "--format",
                    "raw",
                    "--output",
                    str(raw),
                    "--",
                ]
                argv += cw.argv(state / "claimwatch.db", "poll")
                offset = server.log_offset()
                started = time.perf_counter()
                result = subprocess.run(
                    argv, cwd=state, env=local_env(), capture_output=True, text=True
                )
                wall = time.perf_counter() - started
                if result.returncode:
                    raise SystemExit(f"py-spy or claimwatch failed:\n{result.stderr[-2000:]}")
                print(
                    f"{title}: the server answered {dict(server.statuses(offset, args.watchers))}"
                )
                report(read_samples(raw), f"claimwatch poll, {title}", wall, args.top)
            import_costs(claimwatch_bin, work, args.top)
    if keep:
        print(f"\nraw stacks in {keep}/poll-new.txt and poll-304.txt")


if __name__ == "__main__":
    run_main(main)
