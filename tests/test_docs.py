"""Documentation is tested: every command, watcher kind, setting and signal is in the README."""

import re
from pathlib import Path

import pytest

import watchers
from monitor.cli import cli
from monitor.config import (
    AlertsConfig,
    ClusterConfig,
    EmailConfig,
    HttpConfig,
    Settings,
    SlackConfig,
    WatcherConfig,
)
from watchers.extract import rules

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_command_is_documented_with_an_example(command):
    assert re.search(rf"^\| `{command}` \|", README, re.M), f"README has no row for `{command}`"
    assert "Example:" in (cli.commands[command].help or ""), f"`{command}` help has no example"


@pytest.mark.parametrize("kind", sorted(watchers.KINDS))
def test_every_watcher_kind_is_documented(kind):
    assert f"| `{kind}` |" in README


@pytest.mark.parametrize(
    "name",
    sorted(
        {
            f
            for f in Settings.model_fields
            if f not in ("source", "watchers", "alerts", "http", "cluster")
        }
        | {f for f in HttpConfig.model_fields}
        | {f for f in ClusterConfig.model_fields}
        | {f for f in AlertsConfig.model_fields if f not in ("slack", "email")}
        | {f for f in SlackConfig.model_fields}
        | {f for f in EmailConfig.model_fields}
        | {f for f in WatcherConfig.model_fields}
    ),
)
def test_every_setting_is_documented(name):
    assert f"`{name}`" in README, f"setting `{name}` is not in the README"


def test_the_signal_files_are_named():
    assert "db/ledgers/<name>.signals.toml" in README and "watchers/cues.toml" in README
    assert sum(len(s.signals) for s in rules().subjects) >= 10
