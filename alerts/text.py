"""Words shared by every channel: how a change, a health event and a milestone read."""

from __future__ import annotations

import re

from monitor.render import clip, delta_text, value_text

PRICE_FIELDS = {"input": "input", "cached_input": "cached", "output": "output"}


def what(view: dict) -> str:
    """`[gpt-5.5:output] ` for keyed values, else nothing."""
    return f"[{view['key']}] " if view.get("key") else ""


def change_line(view: dict) -> str:
    """baseline 85,448 tok/s/kW → previous 85,448 tok/s/kW → now 80,100 tok/s/kW (-6.3%)"""
    if view.get("line"):
        return view["line"]
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


def change_header(views: list[dict]) -> str:
    """`Claim changed: …`, `OpenAI API prices: 3 models changed`, `4 claims changed`."""
    first = views[0]
    if len(views) == 1:
        return f"Claim changed: {first['claim_title']}" + (
            f" ({first['key']})" if first.get("line") else ""
        )
    if all(v.get("line") and v["claim_id"] == first["claim_id"] for v in views):
        return f"{first['claim_title']}: {len(views)} models changed"
    return f"{len(views)} claims changed"


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


# ---------------------------------------------------------------- price lists


def merge_prices(views: list[dict]) -> list[dict]:
    """The changes of one message, with the price fields of one model joined into one view whose
    `line` reads `o3 (also o3-2025-04-16): input 10 → 2, cached 2.5 → 0.5, output 40 → 8 USD/1M`.
    Other views pass as they are, in their order; a model takes the place of its first field."""
    out: list[dict] = []
    models: dict[tuple[str, str], list[dict]] = {}
    for view in views:
        model = _price_model(view)
        if model is None:
            out.append(view)
            continue
        fields = models.setdefault((view["claim_id"], model), [])
        if not fields:
            out.append({"price_model": (view["claim_id"], model)})
        fields.append(view)
    return [_price_view(models[v["price_model"]]) if "price_model" in v else v for v in out]


def merge_prices_per(views: list[dict], key) -> list[dict]:
    """`merge_prices` within each group of views that share `key(view)` (a poll, a message),
    the groups in the order they first appear."""
    groups: dict = {}
    for view in views:
        groups.setdefault(key(view), []).append(view)
    return [merged for group in groups.values() for merged in merge_prices(group)]


def _price_model(view: dict) -> str | None:
    """The model of a price field's view (`o3` of `o3:input`); None for any other view."""
    if view.get("event") != "change" or view.get("claim_kind") != "price-list":
        return None
    model, _, field = str(view.get("key") or "").rpartition(":")
    return model if model and field in PRICE_FIELDS else None


def _price_view(fields: list[dict]) -> dict:
    first = fields[0]
    model = _price_model(first)
    order = list(PRICE_FIELDS)
    fields = sorted(fields, key=lambda v: order.index(v["key"].rpartition(":")[2]))
    moves = ", ".join(
        f"{PRICE_FIELDS[v['key'].rpartition(':')[2]]} {_price_move(v)}" for v in fields
    )
    unit = str(first.get("unit") or "").replace(" tokens", "")
    line = f"{_price_label(model, first.get('excerpt') or '')}: {moves}" + (
        f" {unit}" if unit else ""
    )
    return {**first, "key": model, "line": line, "excerpt": "", "fields": len(fields)}


def _price_label(model: str, excerpt: str) -> str:
    """`o3 (also o3-2025-04-16)`: the aliases as the price list's excerpt names them."""
    also = re.match(re.escape(model) + r"( \(also [^()]{1,300}\))", excerpt)
    return model + (also[1] if also else "")


def _price_move(view: dict) -> str:
    before, now = view.get("previous"), view.get("value")
    if before is None:
        return f"new {_price(now)}"
    return f"{_price(before)} → {'removed' if now is None else _price(now)}"


def _price(value) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.10g}"
    return value_text(value, "", 40)
