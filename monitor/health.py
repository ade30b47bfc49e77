"""Watcher health: stored poll state joined with the configuration, in words a person acts on.

One vocabulary for what a poll ended in, used by the terminal, the dashboard and the digest:
ok, not modified, unreachable, HTTP error, timed out, blocked, layout changed, parse error."""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

from monitor.config import Settings, parse_duration

STATES = (
    "ok",
    "not modified",
    "unreachable",
    "HTTP error",
    "timed out",
    "blocked",
    "layout changed",
    "parse error",
)
_WORDS = {
    "ok": "ok",
    "raced": "ok",
    "not-modified": "not modified",
    "not_modified": "not modified",
    "unreachable": "unreachable",
    "http": "HTTP error",
    "http-error": "HTTP error",
    "timeout": "timed out",
    "timed-out": "timed out",
    "blocked": "blocked",
    "layout": "layout changed",
    "parse": "parse error",
}
_HTTP_STATUS = re.compile(r"\bHTTP [1-5]\d\d\b")


def state_word(kind: str | None, error: str | None = None) -> str:
    """The word for a poll's outcome; a fetch failure is `HTTP error` when a server answered."""
    if kind in (None, ""):
        return "ok"
    if kind == "fetch":
        return "HTTP error" if _HTTP_STATUS.search(error or "") else "unreachable"
    return _WORDS.get(kind, "internal error" if kind == "internal" else kind.replace("-", " "))


def failed(kind: str | None) -> bool:
    return state_word(kind) not in ("ok", "not modified")


def counts_line(words: list[str]) -> str:
    """`20 ok, 2 unreachable, 1 blocked`: the vocabulary's order, zero counts left out."""
    counts = Counter(words)
    order = [w for w in STATES if w in counts] + sorted(w for w in counts if w not in STATES)
    return ", ".join(f"{counts[w]} {w}" for w in order)


def reason(error: str | None, url: str) -> str:
    """The part of an error a person needs: the watcher's own URL is already known."""
    text = (error or "").strip()
    for prefix in (f"{url}: ", f"{url.rstrip('/')}: "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


def health_rows(settings: Settings, states, *, now: datetime) -> list[dict]:
    """One row per configured watcher, joined with its stored state; status says what a person needs.

    `status` is new, ok, failing, blocked, stale or disabled; `state` is the last poll's outcome in
    the shared vocabulary (or `not polled yet`, `disabled`)."""
    by_name = {s.name: s for s in states}
    rows = []
    for config in settings.watchers:
        state = by_name.get(config.name)
        stale_after = parse_duration(config.stale_after or settings.stale_after)
        status, word = "new", "not polled yet"
        failing = bool(state and state.consecutive_failures)
        if state is not None:
            last_new = state.last_new_item_at
            if failing:
                status = "blocked" if state.last_error_kind == "blocked" else "failing"
                word = state_word(state.last_error_kind, state.last_error)
            elif last_new is not None and now - last_new > stale_after:
                status, word = "stale", "ok"
            elif state.last_success_at:
                status, word = "ok", "ok"
        if not config.enabled:
            status, word = "disabled", "disabled"
        rows.append(
            {
                "name": config.name,
                "kind": config.kind,
                "url": config.url,
                "status": status,
                "state": word,
                "last_success_at": state.last_success_at if state else None,
                "last_error": state.last_error if failing else None,
                "last_error_kind": state.last_error_kind if failing else None,
                "reason": reason(state.last_error, config.url) if failing else None,
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


def state_text(row: dict) -> str:
    """A row's state with what qualifies it: `unreachable ×3`, `ok, nothing new (stale)`."""
    if row["status"] in ("failing", "blocked") and row["consecutive_failures"] > 1:
        return f"{row['state']} ×{row['consecutive_failures']}"
    if row["status"] == "stale":
        return "ok, stale"
    return row["state"]


def summary(rows: list[dict]) -> str:
    """Health in words: `23 watchers: 20 ok, 2 failing (a: unreachable, b: blocked), 1 stale`."""
    if not rows:
        return "no watchers configured"
    groups = Counter(r["status"] for r in rows)
    trouble = [r for r in rows if r["status"] in ("failing", "blocked")]
    parts = []
    if groups["ok"]:
        parts.append(f"{groups['ok']} ok")
    if trouble:
        names = ", ".join(f"{r['name']}: {r['state']}" for r in trouble[:5])
        more = f", {len(trouble) - 5} more" if len(trouble) > 5 else ""
        parts.append(f"{len(trouble)} failing ({names}{more})")
    if groups["stale"]:
        parts.append(f"{groups['stale']} stale (nothing new for a while)")
    if groups["new"]:
        parts.append(f"{groups['new']} not polled yet")
    if groups["disabled"]:
        parts.append(f"{groups['disabled']} disabled")
    noun = "watcher" if len(rows) == 1 else "watchers"
    return f"{len(rows)} {noun}: " + ", ".join(parts)
