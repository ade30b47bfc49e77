"""Charts as data: round ticks with units, dates that show the span, step lines for values that
change at a moment, the baseline marked. Pure; the templates draw them as inline SVG."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from monitor.render import clip, delta_text, finite, number, value_text

# Okabe–Ito: distinct for most colour vision, and on white
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
CHANGE = "#c2410c"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def numeric(value) -> float | None:
    """A chartable number: a finite number, or the middle of a [low, high] range."""
    if isinstance(value, list) and len(value) == 2:
        low, high = finite(value[0]), finite(value[1])
        return None if low is None or high is None else (low + high) / 2
    return finite(value)


def nice_step(span: float, target: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 × 10ⁿ) that cuts `span` into about `target` parts."""
    raw = span / max(target, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw:
            return factor * power
    return 10 * power


def value_ticks(low: float, high: float, target: int = 5) -> tuple[float, float, list[float]]:
    """Round ticks covering [low, high]; returns the axis range and the ticks."""
    if high == low:
        pad = abs(high) * 0.1 or 1.0
        low, high = low - pad, high + pad
    step = nice_step(high - low, target)
    first = round(math.floor(low / step) * step, 12)
    last = round(math.ceil(high / step) * step, 12)
    count = round((last - first) / step)
    ticks = [round(first + i * step, 12) for i in range(count + 1)]
    return first, last, [0.0 if abs(t) < step / 1e6 else t for t in ticks]


def tick_label(value: float, step: float) -> str:
    """`85,000`, `1.25`, `40B`: as many decimals as the step needs, no more."""
    if abs(step) >= 1e9 and abs(value) >= 1e9:
        return _trim(f"{value / 1e9:,.{_decimals(step / 1e9)}f}") + "B"
    if abs(step) >= 1e6 and abs(value) >= 1e6:
        return _trim(f"{value / 1e6:,.{_decimals(step / 1e6)}f}") + "M"
    return f"{value:,.{_decimals(step)}f}"


def _decimals(step: float) -> int:
    if step >= 1:
        return 0 if step == int(step) else 1
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1])


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


# ---------------------------------------------------------------- time


_SPANS = (
    ("hour", timedelta(hours=1)),
    ("hour", timedelta(hours=3)),
    ("hour", timedelta(hours=6)),
    ("hour", timedelta(hours=12)),
    ("day", timedelta(days=1)),
    ("day", timedelta(days=2)),
    ("week", timedelta(days=7)),
    ("week", timedelta(days=14)),
    ("month", 1),
    ("month", 3),
    ("month", 6),
    ("year", 1),
    ("year", 5),
)


def time_ticks(start: datetime, end: datetime, tz, target: int = 6) -> list[tuple[datetime, str]]:
    """Ticks at round local times (hours, days, Mondays, month or year starts) with labels that
    give the year where it starts and where it changes."""
    for unit, size in _SPANS:
        ticks = list(_walk(start.astimezone(tz), end.astimezone(tz), unit, size))
        if len(ticks) <= target:
            break
    out, previous = [], None
    for index, tick in enumerate(ticks):
        out.append((tick, _time_label(tick, unit, previous, index == 0)))
        previous = tick
    return out


def _walk(start: datetime, end: datetime, unit: str, size):
    if unit == "year":
        tick = start.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        while tick <= end:
            if tick >= start:
                yield tick
            tick = tick.replace(year=tick.year + size)
        return
    if unit == "month":
        tick = start.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        tick = tick.replace(month=(tick.month - 1) // size * size + 1)
        while tick <= end:
            if tick >= start:
                yield tick
            months = tick.month - 1 + size
            tick = tick.replace(year=tick.year + months // 12, month=months % 12 + 1)
        return
    tick = start.replace(minute=0, second=0, microsecond=0)
    if unit == "hour":
        hours = int(size.total_seconds() // 3600)
        tick = tick.replace(hour=tick.hour - tick.hour % hours)
    else:
        tick = tick.replace(hour=0)
    if unit == "week":
        tick -= timedelta(days=tick.weekday())
    while tick <= end:
        if tick >= start:
            yield tick
        tick += size


def _time_label(tick: datetime, unit: str, previous: datetime | None, first: bool) -> str:
    new_year = first or (previous is not None and previous.year != tick.year)
    if unit == "year":
        return str(tick.year)
    if unit == "month":
        return f"{MONTHS[tick.month - 1]} {tick.year}" if new_year else MONTHS[tick.month - 1]
    day = f"{tick.day} {MONTHS[tick.month - 1]}"
    if unit == "hour":
        new_day = first or (previous is not None and previous.date() != tick.date())
        return f"{day} {tick:%H:%M}" if new_day else f"{tick:%H:%M}"
    return f"{day} {tick.year}" if new_year else day


# ---------------------------------------------------------------- the chart


@dataclass
class Series:
    """One value over time: its steps (the value from each moment on) and the observations seen."""

    name: str
    steps: list[tuple[datetime, float]]
    points: list[dict] = field(default_factory=list)


@dataclass
class Chart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    y_ticks: list[dict]
    x_ticks: list[dict]
    paths: list[dict]
    points: list[dict]
    baseline: dict | None
    caption: str
    legend: list[dict]


def timeline_chart(
    series: list[Series],
    *,
    baseline: float | None,
    unit: str,
    tz,
    width: int = 720,
    height: int = 280,
    ticks: int = 5,
) -> Chart | None:
    """A step chart of one or more series against the baseline; None when nothing is numeric.
    `ticks` is about how many value ticks (and one more date tick) fit."""
    target = ticks
    times = [t for s in series for t, _ in s.steps] + [p["at"] for s in series for p in s.points]
    values = [v for s in series for _, v in s.steps] + [p["y"] for s in series for p in s.points]
    if not times or not values:
        return None
    if baseline is not None:
        values.append(baseline)
    t0, t1 = min(times), max(times)
    if t1 - t0 < timedelta(days=1):
        t0, t1 = t0 - timedelta(hours=12), t1 + timedelta(hours=12)
    margin = (t1 - t0) * 0.04
    t0, t1 = t0 - margin, t1 + margin
    pad = (max(values) - min(values)) * 0.06  # no point sits on the frame
    low, high, ticks = value_ticks(min(values) - pad, max(values) + pad, target)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    left, right, top, bottom = 12, 12, 16, 30

    def x(t: datetime) -> float:
        return round(left + (t - t0) / (t1 - t0) * (width - left - right), 1)

    def y(v: float) -> float:
        return round(top + (high - v) / (high - low) * (height - top - bottom), 1)

    y_ticks = [
        {
            "y": y(t),
            "label": tick_label(t, step) + (f" {unit}" if unit and i == len(ticks) - 1 else ""),
        }
        for i, t in enumerate(ticks)
    ]
    x_ticks = [{"x": x(t), "label": label} for t, label in time_ticks(t0, t1, tz, target + 1)]
    paths, points, legend = [], [], []
    for index, s in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        if s.steps:
            d = f"M{x(s.steps[0][0])},{y(s.steps[0][1])}"
            for at, value in s.steps[1:]:
                d += f" H{x(at)} V{y(value)}"
            d += f" H{x(t1) - 2}"
            paths.append({"d": d, "colour": colour, "name": s.name})
        for p in s.points:
            points.append({**p, "cx": x(p["at"]), "cy": y(p["y"]), "colour": colour})
        if len(series) > 1:
            legend.append({"name": s.name or "value", "colour": colour})
    marked = None
    if baseline is not None:
        marked = {"y": y(baseline), "label": f"baseline {value_text(baseline, unit)}"}
    caption = f"{_day(t0 + margin, tz)} – {_day(t1 - margin, tz)}"
    return Chart(
        width,
        height,
        left,
        right,
        top,
        bottom,
        y_ticks,
        x_ticks,
        paths,
        points,
        marked,
        caption,
        legend,
    )


def _day(when: datetime, tz) -> str:
    local = when.astimezone(tz)
    return f"{local.day} {MONTHS[local.month - 1]} {local.year}"


def claim_series(
    events: list[dict], baseline, tz, *, since: datetime | None = None
) -> list[Series]:
    """Series for a claim's chart from its timeline: per key, the value stepping at each change,
    and a point per observation (changes marked). An un-keyed value starts at its baseline, from
    `since` (when the baseline was stated) where given."""
    by_key: dict[str, Series] = {}
    base = numeric(baseline)
    for e in events:
        if e["kind"] != "observation":
            continue
        value = numeric(e["value"])
        if value is None:
            continue
        s = by_key.setdefault(e["key"], Series(name=e["key"], steps=[]))
        if not s.steps:
            from_baseline = base is not None and not e["key"]
            when = since if from_baseline and since and since < e["at"] else e["at"]
            s.steps.append((when, base if from_baseline else value))
        if e["changed"]:
            s.steps.append((e["at"], value))
        s.points.append(
            {
                "at": e["at"],
                "y": value,
                "changed": e["changed"],
                "key": e["key"],
                "value": value,
                "label": _hover(e, tz),
            }
        )
    return [by_key[k] for k in sorted(by_key)]


def _hover(e: dict, tz) -> str:
    delta = delta_text(e["delta_pct"])
    what = "changed to" if e["changed"] else "restated"
    return (
        f"{e['at'].astimezone(tz):%Y-%m-%d %H:%M}  {('[' + e['key'] + '] ') if e['key'] else ''}"
        f"{what} {value_text(e['value'], e['unit'])}{f' ({delta})' if delta else ''}\n"
        f"{clip(e['source'] or '', 60)}: {clip(e['title'] or '', 120)}\n{clip(e['excerpt'] or '', 240)}"
    )


def sparkline(values: list[float], width: int = 96, height: int = 22) -> dict | None:
    """A step sparkline of a claim's values: baseline, then each change."""
    values = [v for v in (finite(v) for v in values) if v is not None]
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / len(values)

    def y(v: float) -> float:
        return round(height - 3 - (v - low) / span * (height - 6), 1)

    d = f"M0,{y(values[0])} H{round(step, 1)}"
    for i, v in enumerate(values[1:], start=1):
        d += f" V{y(v)} H{round((i + 1) * step, 1)}"
    return {
        "width": width,
        "height": height,
        "d": d,
        "label": " → ".join(number(v) for v in values),
    }


# ---------------------------------------------------------------- price lists

_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest|preview)$")
FIELDS = ("input", "cached_input", "output")


def price_rows(current: dict[str, object], changes: list[dict], tz) -> list[dict]:
    """One row per price model: current price per field and the history of each change. Models
    that differ only by a dated snapshot suffix and cost the same are one row (aliases)."""
    models: dict[str, dict[str, object]] = {}
    for key, value in current.items():
        model, _, fld = key.rpartition(":") if ":" in key else (key, "", "price")
        models.setdefault(model, {})[fld] = value
    history: dict[str, list[str]] = {}
    for c in changes:
        model, _, fld = c["key"].rpartition(":") if ":" in c["key"] else (c["key"], "", "price")
        delta = delta_text(c["delta_pct"])
        was = value_text(c["previous"]) if c.get("previous") is not None else "new"
        now = "removed" if c["value"] is None else value_text(c["value"])
        history.setdefault(model, []).append(
            f"{fld.replace('_', ' ')} {was} → {now}{f' ({delta})' if delta else ''}, "
            f"{_day(c['at'], tz)}, {c['source']}"
        )
    groups: dict[tuple, dict] = {}
    for model in sorted(models, key=lambda m: (_SNAPSHOT.sub("", m), len(m), m)):
        prices = models[model]
        key = (_SNAPSHOT.sub("", model), tuple(sorted((k, str(v)) for k, v in prices.items())))
        if key in groups:
            groups[key]["aliases"].append(model)
            groups[key]["history"] += history.get(model, [])
            continue
        groups[key] = {
            "model": model,
            "aliases": [],
            "prices": {f: prices.get(f) for f in _fields(models)},
            "history": list(history.get(model, [])),
        }
    return list(groups.values())


def _fields(models: dict[str, dict]) -> list[str]:
    seen = {f for prices in models.values() for f in prices}
    return [f for f in FIELDS if f in seen] + sorted(seen - set(FIELDS))


def price_fields(rows: list[dict]) -> list[str]:
    return list(rows[0]["prices"]) if rows else []
