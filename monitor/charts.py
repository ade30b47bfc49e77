"""Inline SVG charts: a sparkline for the board, a timeline chart for a claim. Pure; no JavaScript."""

from __future__ import annotations

from datetime import datetime
from html import escape

from monitor.render import clip, value_text

COLOURS = ("#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2", "#db2777", "#4b5563")


def _numeric(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) for v in value)
    ):
        return (value[0] + value[1]) / 2
    return None


def sparkline(values: list[float], width: int = 120, height: int = 24) -> str:
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    points = " ".join(
        f"{i * step:.1f},{height - 2 - (v - low) / span * (height - 4):.1f}"
        for i, v in enumerate(values)
    )
    return (
        f'<svg class="sparkline" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="trend"><polyline fill="none" stroke="#2563eb" stroke-width="1.5" points="{points}"/></svg>'
    )


def timeline_chart(
    events: list[dict], baseline, unit: str, tz, width: int = 860, height: int = 320
) -> str:
    """Value over time against the baseline: a point per observation, changes marked, one series per key."""
    points = [e for e in events if e["kind"] == "observation" and _numeric(e["value"]) is not None]
    base = _numeric(baseline)
    if not points:
        return '<p class="empty">No numeric observations to chart yet.</p>'
    left, right, top, bottom = 70, 20, 20, 40
    times = [p["at"].timestamp() for p in points]
    values = [_numeric(p["value"]) for p in points] + ([base] if base is not None else [])
    t0, t1 = min(times), max(times)
    if t1 == t0:
        t0, t1 = t0 - 86400, t1 + 86400
    v0, v1 = min(values), max(values)
    pad = (v1 - v0) * 0.1 or abs(v1) * 0.1 or 1.0
    v0, v1 = v0 - pad, v1 + pad

    def x(t: float) -> float:
        return left + (t - t0) / (t1 - t0) * (width - left - right)

    def y(v: float) -> float:
        return top + (v1 - v) / (v1 - v0) * (height - top - bottom)

    parts = [
        f'<svg class="chart" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="timeline chart" xmlns="http://www.w3.org/2000/svg" style="font-family:Arial,sans-serif;font-size:11px">'
    ]
    parts.append(
        f'<rect x="{left}" y="{top}" width="{width - left - right}" height="{height - top - bottom}" fill="#f9fafb" stroke="#e5e7eb"/>'
    )
    for i in range(5):
        v = v0 + (v1 - v0) * i / 4
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e5e7eb"/>'
            f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end" fill="#6b7280">{escape(value_text(round(v, 4)))}</text>'
        )
    for t, anchor in ((t0, "start"), (t1, "end")):
        label = datetime.fromtimestamp(t, tz).strftime("%Y-%m-%d")
        parts.append(
            f'<text x="{x(t):.1f}" y="{height - 12}" text-anchor="{anchor}" fill="#6b7280">{label}</text>'
        )
    if base is not None:
        parts.append(
            f'<line class="baseline" x1="{left}" x2="{width - right}" y1="{y(base):.1f}" y2="{y(base):.1f}" '
            f'stroke="#111827" stroke-dasharray="6 4"><title>baseline {escape(value_text(baseline, unit))}</title></line>'
            f'<text x="{width - right - 4}" y="{y(base) - 6:.1f}" text-anchor="end" fill="#111827">baseline</text>'
        )
    series: dict[str, list[dict]] = {}
    for p in points:
        series.setdefault(p["key"], []).append(p)
    for index, (key, rows) in enumerate(sorted(series.items())):
        colour = COLOURS[index % len(COLOURS)]
        line = " ".join(f"{x(r['at'].timestamp()):.1f},{y(_numeric(r['value'])):.1f}" for r in rows)
        if len(rows) > 1:
            parts.append(
                f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{line}"/>'
            )
        for r in rows:
            hover = (
                f"{r['at'].astimezone(tz):%Y-%m-%d %H:%M}  {('[' + key + '] ') if key else ''}"
                f"{value_text(r['value'], r['unit'])}{' (changed)' if r['changed'] else ''}\n"
                f"{r['source']}: {clip(r['title'] or '', 120)}\n{clip(r['excerpt'] or '', 240)}"
            )
            radius, fill = (6, "#dc2626") if r["changed"] else (4, colour)
            parts.append(
                f'<circle class="point{" changed" if r["changed"] else ""}" cx="{x(r["at"].timestamp()):.1f}" '
                f'cy="{y(_numeric(r["value"])):.1f}" r="{radius}" fill="{fill}" stroke="#ffffff" '
                f'data-at="{escape(r["at"].isoformat())}" data-value="{_numeric(r["value"])}" data-key="{escape(key)}">'
                f"<title>{escape(hover)}</title></circle>"
            )
    parts.append("</svg>")
    legend = ""
    if len(series) > 1:
        legend = (
            '<p class="legend">'
            + " ".join(
                f'<span style="color:{COLOURS[i % len(COLOURS)]}">● {escape(key or "value")}</span>'
                for i, key in enumerate(sorted(series))
            )
            + "</p>"
        )
    return "".join(parts) + legend
