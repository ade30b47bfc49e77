"""Watcher health: stored poll state joined with the configuration, in words a person acts on."""

from __future__ import annotations

from datetime import datetime

from monitor.config import Settings, parse_duration


def health_rows(settings: Settings, states, *, now: datetime) -> list[dict]:
    """One row per configured watcher, joined with its stored state; status says what a person needs."""
    by_name = {s.name: s for s in states}
    rows = []
    for config in settings.watchers:
        state = by_name.get(config.name)
        stale_after = parse_duration(config.stale_after or settings.stale_after)
        status = "new"
        if state is not None:
            last_new = state.last_new_item_at
            if state.consecutive_failures:
                status = "blocked" if state.last_error_kind == "blocked" else "failing"
            elif last_new is not None and now - last_new > stale_after:
                status = "stale"
            elif state.last_success_at:
                status = "ok"
        if not config.enabled:
            status = "disabled"
        rows.append(
            {
                "name": config.name,
                "kind": config.kind,
                "url": config.url,
                "status": status,
                "last_success_at": state.last_success_at if state else None,
                "last_error": state.last_error if state and state.consecutive_failures else None,
                "last_error_kind": state.last_error_kind
                if state and state.consecutive_failures
                else None,
                "last_error_at": state.last_error_at if state else None,
                "warning": state.warning if state else None,
                "consecutive_failures": state.consecutive_failures if state else 0,
                "next_run_at": state.next_due_at if state else None,
                "items_seen": state.items_seen if state else 0,
                "last_new_item_at": state.last_new_item_at if state else None,
                "polls": state.polls if state else 0,
            }
        )
    return rows
