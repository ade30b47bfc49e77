"""Configuration is checked whole before anything is written: one line naming the field, exit 2."""

import subprocess
import sys

import pytest

from monitor.cli import cli
from monitor.config import ConfigError, load_settings

WATCHER = '[[watchers]]\nname = "w"\nkind = "{kind}"\nurl = "http://127.0.0.1:9/p"\n'


@pytest.mark.parametrize(
    ("text", "field", "says"),
    [
        (
            WATCHER.format(kind="feed") + 'every = "99999999999w"\n',
            "watchers[0].every",
            "ten years",
        ),
        (WATCHER.format(kind="feed") + 'every = "0.0001s"\n', "watchers[0].every", "shortest"),
        (WATCHER.format(kind="feed") + "timeout = inf\n", "watchers[0].timeout", "finite"),
        ("[http]\nread_timeout = inf\n", "http.read_timeout", "finite"),
        ("[http]\ntotal_timeout = nan\n", "http.total_timeout", "finite"),
        ("[http]\nconnect_timeout = 1e300\n", "http.connect_timeout", "less than or equal"),
        ("[alerts.email]\ntimeout = inf\n", "alerts.email.timeout", "finite"),
        ('[alerts]\nretry_max = "99999999999w"\n', "alerts.retry_max", "ten years"),
        (
            WATCHER.format(kind="page") + 'selector = "div["\nclaim = "c"\n',
            "watchers[0].selector (watcher 'w')",
            "'div[' is not a valid CSS selector: Malformed attribute selector",
        ),
        (
            WATCHER.format(kind="prices")
            + 'format = "html"\n[watchers.selectors]\nrow = "tr:::x"\n',
            "watchers[0].selectors",
            "is not a valid CSS selector",
        ),
    ],
)
def test_bad_values_are_one_line_naming_the_field(tmp_path, text, field, says):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings(path, environ={})
    message = str(info.value)
    assert message.startswith(f"{path}: {field}")
    assert says in message and "\n" not in message


@pytest.mark.parametrize(
    ("watcher", "says"),
    [
        (WATCHER.format(kind="page") + 'claim = "c"\n', "a page watcher needs 'selector'"),
        (WATCHER.format(kind="page") + 'selector = "p:nth-child("\nclaim = "c"\n', "selector"),
        (WATCHER.format(kind="numbers"), "unknown kind 'numbers'"),
        (WATCHER.format(kind="feed") + 'every = "99999999999w"\n', "watchers[0].every"),
    ],
)
@pytest.mark.parametrize("command", ["poll", "init"])
def test_a_bad_watcher_exits_2_before_the_database_exists(runner, tmp_path, watcher, says, command):
    path = tmp_path / "c.toml"
    database = tmp_path / "never.db"
    path.write_text(f'database_url = "sqlite:///{database}"\n' + watcher, encoding="utf-8")
    result = runner.invoke(cli, ["--config", str(path), command])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and says in result.output
    error = [line for line in result.output.splitlines() if line.startswith("claimwatch: error")]
    assert len(error) == 1 and str(path) in error[0]
    assert not database.exists()


def test_run_with_a_bad_selector_exits_2_before_the_database_exists(tmp_path):
    """In a process of its own, with a deadline: a regression would start the service."""
    path, database = tmp_path / "c.toml", tmp_path / "never.db"
    path.write_text(
        f'database_url = "sqlite:///{database}"\n'
        + WATCHER.format(kind="page")
        + 'selector = "p:nth-child("\nclaim = "c"\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "monitor", "--config", str(path), "run"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "watchers[0].selector (watcher 'w')" in done.stderr and not database.exists()
