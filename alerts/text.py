"""Words shared by every channel: how a change, a health event and a milestone read."""

from __future__ import annotations

from monitor.render import clip, delta_text, value_text


def what(view: dict) -> str:
    """`[gpt-5.5:output] ` for keyed values, else nothing."""
    return f"[{view['key']}] " if view.get("key") else ""


def change_line(view: dict) -> str:
    """baseline 85,448 tok/s/kW → previous 85,448 tok/s/kW → now 80,100 tok/s/kW (-6.3%)"""
    unit = view.get("unit", "")
    if view.get("baseline") is None and view.get("previous") is None:
        return f"new: {value_text(view.get('value'), unit, 120)}"
    parts = [f"baseline {value_text(view.get('baseline'), unit, 60)}"]
    if view.get("previous") is not None and view.get("previous") != view.get("baseline"):
        parts.append(f"previous {value_text(view['previous'], unit, 60)}")
    now = "removed" if view.get("value") is None else value_text(view.get("value"), unit, 120)
    delta = delta_text(view.get("delta_pct"))
    parts.append(f"now {now}" + (f" ({delta})" if delta else ""))
    return " → ".join(parts)


def headline(view: dict) -> str:
    if view["event"] == "change":
        return f"{view['claim_title']} {what(view)}changed"
    return view.get("subject") or view["event"]


def detail(view: dict) -> str:
    """One paragraph for non-change events."""
    if view["event"] == "health":
        state = view.get("state")
        if state == "failing":
            return f"Watcher {view.get('watcher')} failed {view.get('failures')} times in a row: {clip(view.get('error') or '', 300)}"
        return f"Watcher {view.get('watcher')} works again."
    if view["event"] == "milestone":
        return f"{view.get('claim_title', view.get('claim_id'))}: due {view.get('due')}, not confirmed; now overdue."
    return clip(str(view), 300)
