"""What the benchmarks share: the cache of tool environments, finding Claimwatch, running a child
process and reading its resource usage, and printing tables."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "claimwatch-bench"
PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


def local_env(**extra: str) -> dict[str, str]:
    """The environment for a measured tool: no proxy can take its requests off 127.0.0.1."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in PROXY_VARIABLES}
    env.update({"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}, **extra)
    return env


def run_main(main) -> None:
    """Runs a benchmark's main; SIGTERM unwinds like Ctrl-C, so temp folders and servers are
    cleaned up on both, and an interruption ends with one line rather than a traceback."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        main()
    except KeyboardInterrupt:
        sys.exit("interrupted; servers stopped and temp folders removed")


def die_with_parent() -> None:
    """For preexec_fn: the child gets SIGTERM when the benchmark dies, even by SIGKILL."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def tool_venv(name: str, requirement: str) -> Path:
    """The bin folder of a virtual environment in the cache holding `requirement` (name==version),
    created on first use and reused after."""
    venv = CACHE / name
    package, version = requirement.split("==")
    installed = list(
        venv.glob(f"lib/python*/site-packages/{package.replace('-', '_')}-{version}.dist-info")
    )
    if installed:
        return venv / "bin"
    print(f"installing {requirement} into {venv} (once) ...", flush=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    result = subprocess.run(
        [
            str(venv / "bin/python"),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            requirement,
        ],
        capture_output=True,
        text=True,
    )
    if result.returncode:
        raise SystemExit(f"pip install {requirement} failed:\n{result.stderr[-2000:]}")
    return venv / "bin"


def find_claimwatch(explicit: str | None) -> Path:
    """The `claimwatch` script: --claimwatch, else this checkout's .venv, else PATH."""
    for candidate in (explicit, ROOT / ".venv/bin/claimwatch"):
        if candidate and Path(candidate).is_file():
            if not explicit:  # this checkout: compiled as an installed package would be
                packages = ("monitor", "watchers", "db", "alerts")
                python = ROOT / ".venv/bin/python"
                subprocess.run([python, "-m", "compileall", "-q", *packages], cwd=ROOT, check=False)
            return Path(candidate).absolute()
    from shutil import which

    found = which("claimwatch")
    if not found:
        raise SystemExit("claimwatch is not installed: run `make install` first")
    return Path(found)


@dataclass
class Measured:
    wall: float  # seconds
    cpu: float  # user + system seconds of the child
    rss_mib: float  # the child's peak resident set
    code: int


def run_measured(
    argv: list[str], *, cwd: Path, env: dict[str, str], out: Path, timeout: float = 600
) -> Measured:
    """Runs argv to the end, stdout and stderr to `out`; wall time, CPU and peak RSS of the child."""
    with open(out, "wb") as sink:
        started = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT)
        watchdog = threading.Timer(timeout, process.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except BaseException:
            process.kill()
            process.wait()
            raise
        finally:
            watchdog.cancel()
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
    return Measured(
        wall=wall,
        cpu=usage.ru_utime + usage.ru_stime,
        rss_mib=usage.ru_maxrss / 1024,
        code=process.returncode,
    )


def median(values: list[float]) -> float:
    return statistics.median(values)


def table(headers: list[str], rows: list[list[str]]) -> str:
    """Plain columns: the first left-aligned, the rest right-aligned."""
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(row):
        cells = [str(row[0]).ljust(widths[0])]
        cells += [str(c).rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)]
        return "  ".join(cells).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])
