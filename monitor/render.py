"""Formatting for people and for machines: aligned tables, values with units, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo


def iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    return dt.astimezone(UTC).isoformat().replace("+00:00", "Z")


def local(dt: datetime | None, tz: ZoneInfo, with_time: bool = False) -> str:
    if dt is None:
        return "-"
    dt = dt.astimezone(tz)
    return dt.strftime("%Y-%m-%d %H:%M") if with_time else dt.strftime("%Y-%m-%d")


def number(value: float) -> str:
    if abs(value) >= 1e9 and value == int(value):
        return f"{value / 1e9:,.1f}B".replace(".0B", "B")
    if value == int(value):
        return f"{int(value):,}"
    return f"{value:,.4f}".rstrip("0").rstrip(".")


def value_text(value, unit: str = "", limit: int = 80) -> str:
    """A claim value as a person reads it: `85,448 tok/s/kW`, `1.5–1.9 ×`, `in fab`."""
    if value is None:
        text = "(none)"
    elif isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, int | float):
        text = number(value)
    elif (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) for v in value)
    ):
        text = f"{number(value[0])}–{number(value[1])}"
    elif isinstance(value, list):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, dict):
        text = f"{len(value)} entries" if value else "(first observation)"
    else:
        text = str(value)
    if unit and value is not None and not isinstance(value, dict | str):
        text = f"{text} {unit}"
    return clip(text, limit)


def delta_text(delta_pct: float | None) -> str:
    return "" if delta_pct is None else f"{delta_pct:+.1f}%"


def clip(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table(headers: list[str], rows: list[list[str]]) -> str:
    cells = [headers, *rows]
    widths = [max(width(str(row[i])) for row in cells) for i in range(len(headers))]
    lines = []
    for index, row in enumerate(cells):
        padded = [str(cell) + " " * (widths[i] - width(str(cell))) for i, cell in enumerate(row)]
        lines.append("  ".join(padded).rstrip())
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _default(value):
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__}")


def to_json(data) -> str:
    return json.dumps(data, default=_default, ensure_ascii=False, indent=2)


def to_csv(rows: list[dict], fields: list[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(
            {
                k: (
                    iso(v)
                    if isinstance(v, datetime)
                    else json.dumps(v, ensure_ascii=False)
                    if isinstance(v, list | dict)
                    else v
                )
                for k, v in row.items()
            }
        )
    return out.getvalue()


# The JSON shapes of `claims` and `timeline`, shared by the CLI and the web API.
CLAIM_FIELDS = (
    "id",
    "title",
    "kind",
    "baseline",
    "current",
    "comparator",
    "verification",
    "due",
    "changed_at",
)
TIMELINE_FIELDS = (
    "claim",
    "at",
    "seen_at",
    "kind",
    "key",
    "value",
    "unit",
    "source",
    "url",
    "title",
    "excerpt",
    "signal",
    "changed",
    "delta_pct",
)
TIMELINE_JSON_FIELDS = (*TIMELINE_FIELDS, "previous", "comparator", "conditions")


def claims_payload(rows: list[dict]) -> list[dict]:
    return [{k: row[k] for k in CLAIM_FIELDS} for row in rows]


def timeline_payload(events: list[dict]) -> list[dict]:
    return [{k: event[k] for k in TIMELINE_JSON_FIELDS} for event in events]


def timeline_table(events: list[dict], tz, show_all: bool = False) -> str:
    if not events:
        return "no events"
    blocks = []
    by_claim: dict[str, list[dict]] = {}
    for event in events:
        by_claim.setdefault(event["claim"], []).append(event)
    for claim_id, claim_events in by_claim.items():
        rows, folded = [], 0
        for e in claim_events:
            if e["kind"] == "observation" and not e["changed"] and not show_all:
                folded += 1
                continue
            what = {"baseline": "baseline", "edit": "ledger edit"}.get(
                e["kind"], "change" if e["changed"] else "seen"
            )
            label = f"[{e['key']}] " if e["key"] else ""
            rows.append(
                [
                    local(e["at"], tz),
                    what,
                    label + value_text(e["value"], e["unit"], 40),
                    delta_text(e["delta_pct"]),
                    clip(e["source"], 40),
                ]
            )
        title = next((e["title"] for e in claim_events if e["kind"] != "observation"), "")
        head = f"{claim_id}" + (f" — {title}" if title else "")
        body = table(["date", "event", "value", "delta", "source"], rows)
        tail = (
            f"\n  (+{folded} restatement{'s' if folded != 1 else ''} that changed nothing; --all lists them)"
            if folded
            else ""
        )
        blocks.append(f"{head}\n{body}{tail}")
    return "\n\n".join(blocks)


def poll_summary(reports) -> str:
    rows = [
        [
            r.watcher,
            r.outcome,
            str(r.items),
            str(r.observations),
            str(r.changes),
            clip(r.error or "", 70),
        ]
        for r in reports
    ]
    failed = [r for r in reports if r.outcome not in ("ok", "not-modified", "raced")]
    counts = (
        f"{len(reports) - len(failed)} ok ({sum(r.outcome == 'not-modified' for r in reports)} not modified), "
        f"{len(failed)} failed; {sum(r.items for r in reports)} new items, "
        f"{sum(r.observations for r in reports)} observations, {sum(r.changes for r in reports)} changes"
    )
    hint = (
        "\nfailed: " + ", ".join(r.watcher for r in failed) + " (see 'claimwatch watchers')"
        if failed
        else ""
    )
    return (
        table(["watcher", "outcome", "items", "obs", "changes", "error"], rows)
        + f"\n\n{counts}{hint}"
    )
