"""The board says how the cluster is doing: workers, queue, the active scheduler."""

from datetime import UTC, datetime, timedelta

from monitor.cluster import board_line, cluster_summary
from monitor.config import load_settings

NOW = datetime(2026, 12, 3, 12, tzinfo=UTC)


def test_the_cluster_line_names_workers_queue_and_scheduler():
    health = {
        "now": NOW,
        "workers": [
            {"id": 1, "last_heartbeat": NOW - timedelta(seconds=4), "running": 1},
            {"id": 2, "last_heartbeat": NOW - timedelta(seconds=9), "running": 0},
        ],
        "waiting": 3,
        "running": 1,
        "failed": 0,
        "oldest_waiting": {
            "id": 7,
            "task": "claimwatch.poll",
            "watcher": "hn",
            "since": NOW - timedelta(seconds=12),
        },
        "schedulers": [{"name": "claimwatch scheduler host-a:12", "active": True, "since": NOW}],
    }
    line = cluster_summary(health)
    assert line == (
        "2 workers alive, last heartbeat 4 s ago · 1 running, 3 waiting (oldest waiting 12 s), "
        "0 failed · scheduler claimwatch scheduler host-a:12 active"
    )
    health.update(workers=[], schedulers=[], oldest_waiting=None, waiting=0, running=0)
    assert (
        cluster_summary(health)
        == "0 workers alive · 0 running, 0 waiting, 0 failed · no active scheduler"
    )


def test_a_single_process_on_sqlite_has_no_cluster_line(tmp_path):
    settings = load_settings(
        None, environ={}, overrides={"database_url": f"sqlite:///{tmp_path / 'c.db'}"}
    )
    assert board_line(settings) is None
