"""Formatting for people and for machines: tables that fit the terminal, values with units, words
for times and counts, JSON and CSV. Stored text came from the web: everything shown is made safe."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

# ANSI/VT sequences (CSI, OSC, DCS/APC/PM/SOS strings, two-byte escapes) and the C1 CSI/OSC forms
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b[\]PX^_].*?(?:\x07|\x1b\\|\x9c|$)"
    r"|\x1b[ -/]*[0-~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|[\x90\x9d\x9e\x9f].*?(?:\x07|\x1b\\|\x9c|$)",
    re.S,
)
# C0 and C1 controls but tab and newline, DEL, and the bidirectional overrides that reorder text
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# characters XML 1.0 forbids even when escaped
_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def plain(text) -> str:
    """Text with terminal escape sequences and control characters removed (tab and newline kept)."""
    text = str(text)
    if text.isprintable():
        return text
    return _CONTROLS.sub("", _ESCAPES.sub("", text))


def xml_safe(text: str) -> str:
    """Text without the characters that make an XML document not well-formed."""
    return _XML_INVALID.sub("", text)


def iso(dt: datetime | None) -> str | None:
    if dt is None:
        return None
    return dt.astimezone(UTC).isoformat().replace("+00:00", "Z")


def local(dt: datetime | None, tz: ZoneInfo, with_time: bool = False) -> str:
    if dt is None:
        return "-"
    dt = dt.astimezone(tz)
    return dt.strftime("%Y-%m-%d %H:%M") if with_time else dt.strftime("%Y-%m-%d")


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 entry`, `2 entries`, `0 watchers`."""
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def ago(when: datetime | None, now: datetime, tz: ZoneInfo = UTC) -> str:
    """`3 days ago` for the past; a time still ahead of the clock is given as its date."""
    if when is None:
        return "never"
    seconds = (now - when).total_seconds()
    if seconds < -60:
        return local(when, tz, with_time=True)
    if seconds < 60:
        return "just now"
    minutes, hours, days = int(seconds // 60), int(seconds // 3600), int(seconds // 86400)
    if minutes < 60:
        return f"{plural(minutes, 'minute')} ago"
    if hours < 48:
        return f"{plural(hours, 'hour')} ago"
    if days < 60:
        return f"{plural(days, 'day')} ago"
    return local(when, tz)


def finite(value) -> float | None:
    """A plain finite number, or None (booleans, NaN, infinities and text are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def number(value: float) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "not a number"
    if isinstance(value, float) and math.isinf(value):
        return "infinity" if value > 0 else "minus infinity"
    if abs(value) >= 1e15:
        return f"{float(value):.3g}"
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
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        text = f"{number(value[0])}–{number(value[1])}"
    elif isinstance(value, list):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, dict) and 0 < len(value) <= 3:
        text = ", ".join(f"{k}: {value_text(v, '', limit)}" for k, v in value.items())
    elif isinstance(value, dict):
        text = plural(len(value), "entry", "entries") if value else "(first observation)"
    else:
        text = str(value)
    if unit and value is not None and not isinstance(value, dict | str):
        text = f"{text} {unit}"
    return clip(text, limit)


def delta_text(delta_pct: float | None) -> str:
    if delta_pct is None or finite(delta_pct) is None:
        return ""
    return f"{delta_pct:+.1f}%"


def clip(text: str, limit: int) -> str:
    text = " ".join(plain(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def terminal_width(default: int = 100) -> int:
    """Columns to fit: $COLUMNS, else the terminal's width, else `default`."""
    return shutil.get_terminal_size((default, 24)).columns


def table(
    headers: list[str],
    rows: list[list[str]],
    *,
    width: int | None = None,
    wrap: tuple[str, ...] = (),
) -> str:
    """A table that fits `width` columns: the columns named in `wrap` shrink and wrap at words
    first, the others only when that is not enough. Cells are plain text, never markup."""
    cells = [[plain(cell).replace("\t", " ") for cell in row] for row in rows]
    simple = all(h.isascii() for h in headers) and all(c.isascii() for row in cells for c in row)
    if simple:
        measure = len  # one column a character: no need for rich to measure
    else:
        from rich.cells import cell_len as measure
    natural = [
        max([measure(h)] + [measure(row[i]) for row in cells]) for i, h in enumerate(headers)
    ]
    floors = [min(n, max(12, measure(h))) for n, h in zip(natural, headers, strict=True)]
    room = (width or terminal_width()) - GAP * (len(headers) - 1)
    widths = fit_widths(natural, [h in wrap for h in headers], room, floors)
    if simple and widths == natural:
        return _plain_table(headers, cells, widths)  # nothing wraps: the same lines, at once
    return _rich_table(headers, cells, widths, wrap)


GAP = 3  # between columns: a padding space, the rule's column, a padding space


def _plain_table(headers: list[str], cells: list[list[str]], widths: list[int]) -> str:
    """What rich draws for a table whose cells all fit, for ASCII cells: a long poll's table is
    thousands of rows, and rich takes a millisecond a row."""
    sep = " " * GAP

    def line(row: list[str]) -> str:
        return sep.join(cell.ljust(size) for cell, size in zip(row, widths, strict=True)).rstrip()

    out = [line(headers), "─" * (sum(widths) + GAP * (len(widths) - 1))]
    out += [line(row) for row in cells]
    return "\n".join(text for text in out if text.strip())


def _rich_table(headers: list[str], cells: list[list[str]], widths: list[int], wrap) -> str:
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    gap = GAP
    grid = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=False)
    for header, size in zip(headers, widths, strict=True):
        grid.add_column(header, width=size, overflow="fold", no_wrap=header not in wrap)
    for row in cells:
        grid.add_row(*(Text(cell) for cell in row))
    out = io.StringIO()
    console = Console(
        file=out,
        width=sum(widths) + gap * (len(headers) - 1),
        color_system=None,
        force_terminal=False,
        emoji=False,
        highlight=False,
    )
    console.print(grid)
    return "\n".join(line.rstrip() for line in out.getvalue().splitlines() if line.strip())


def fit_widths(natural: list[int], wraps: list[bool], room: int, floors: list[int]) -> list[int]:
    """Column widths within `room`: the widest wrapping column gives a column at a time, down to
    its floor; then the widest of the others."""
    widths = list(natural)
    for allowed in (wraps, [True] * len(widths)):
        while sum(widths) > room:
            candidates = [i for i, ok in enumerate(allowed) if ok and widths[i] > floors[i]]
            if not candidates:
                break
            widest = max(candidates, key=lambda i: widths[i])
            widths[widest] -= 1
    return widths


def _default(value):
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"cannot serialise {type(value).__name__}")


def _finite_only(value):
    """The same data with NaN and infinities as null: JSON (RFC 8259) has no token for them."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite_only(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_only(v) for v in value]
    return value


_C1 = re.compile(r"[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def to_json(data) -> str:
    """Valid JSON whatever is stored; C1 controls escaped so printing it cannot drive a terminal."""
    try:
        text = json.dumps(data, default=_default, ensure_ascii=False, indent=2, allow_nan=False)
    except ValueError:
        text = json.dumps(_finite_only(data), default=_default, ensure_ascii=False, indent=2)
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def csv_cell(value):
    """A CSV cell a spreadsheet will not run: text starting like a formula gets a leading quote."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, float) and not math.isfinite(value):
        return ""
    if isinstance(value, list | dict):
        value = json.dumps(_finite_only(value), ensure_ascii=False)
    if isinstance(value, str):
        value = _CONTROLS.sub("", _ESCAPES.sub("", value.replace("\r\n", "\n")))
        if value.startswith(_CSV_FORMULA):
            return "'" + value
    return value


def to_csv(rows: list[dict], fields: list[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items() if k in fields})
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


def event_word(event: dict) -> str:
    """What a timeline event is, in a word."""
    if event["kind"] == "baseline":
        return "baseline"
    if event["kind"] == "edit":
        return "ledger edit"
    return "change" if event["changed"] else "restated"


def timeline_table(
    events: list[dict], tz, show_all: bool = False, *, width: int | None = None
) -> str:
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
            label = f"[{e['key']}] " if e["key"] else ""
            rows.append(
                [
                    local(e["at"], tz),
                    event_word(e),
                    label + value_text(e["value"], e["unit"], 60),
                    delta_text(e["delta_pct"]),
                    clip(e["source"], 80),
                ]
            )
        title = next((e["title"] for e in claim_events if e["kind"] != "observation"), "")
        head = clip(claim_id + (f" — {title}" if title else ""), 200)
        body = table(
            ["date", "event", "value", "delta", "source"],
            rows,
            width=width,
            wrap=("value", "source"),
        )
        tail = (
            f"\n  (+{plural(folded, 'restatement')} that changed nothing; --all lists them)"
            if folded
            else ""
        )
        blocks.append(f"{head}\n{body}{tail}")
    return "\n\n".join(blocks)


def poll_table(reports, urls: dict[str, str], *, width: int | None = None) -> str:
    """One row per poll: its outcome in the shared vocabulary and, when it failed, the reason."""
    from monitor.health import reason, state_word

    rows = [
        [
            r.watcher,
            state_word(r.outcome, r.error),
            str(r.items),
            str(r.observations),
            str(r.changes),
            clip(reason(r.error, urls.get(r.watcher, "")), 300),
        ]
        for r in reports
    ]
    return table(
        ["watcher", "outcome", "items", "obs", "changes", "reason"],
        rows,
        width=width,
        wrap=("watcher", "reason"),
    )


def poll_line(reports) -> tuple[str, bool]:
    """`23 polled: 20 ok, 2 unreachable, 1 blocked; 4 new items, 1 change` and whether any failed."""
    from monitor.health import counts_line, failed, state_word

    words = [state_word(r.outcome, r.error) for r in reports]
    bad = [r for r in reports if failed(r.outcome)]
    line = (
        f"{len(reports)} polled: {counts_line(words)}; "
        f"{plural(sum(r.items for r in reports), 'new item')}, "
        f"{plural(sum(r.observations for r in reports), 'observation')}, "
        f"{plural(sum(r.changes for r in reports), 'change')}"
    )
    if bad and all(w == "unreachable" for w in words):
        line += "\nevery source was unreachable: is this machine offline?"
    elif bad:
        line += f"\nfailed: {', '.join(plain(r.watcher) for r in bad)} (see 'claimwatch watchers')"
    return line, bool(bad)


def startup_lines(
    *,
    watchers: int,
    database: str,
    channels: list[str],
    digest: str,
    next_poll: tuple[str, datetime] | None,
    now: datetime,
    tz,
) -> list[str]:
    """What `run` says when it starts: what it watches, where alerts go, when it polls next."""
    lines = [
        f"Claimwatch is running: {plural(watchers, 'watcher')}, database {database}.",
        f"Alerts go to: {', '.join(channels)}.",
        f"Daily digest: {digest}.",
    ]
    if next_poll:
        name, when = next_poll
        wait = max(0, int((when - now).total_seconds()))
        lines.append(f"Next poll: {plain(name)} at {local(when, tz, True)} (in {wait} s).")
    else:
        lines.append("Next poll: none (no watcher is enabled).")
    lines.append("A line a minute while polling; Ctrl-C stops.")
    return lines


def minute_line(now: datetime, tz, *, polls: int, failures: list[str], sent: int) -> str:
    """`20:31  12 polls: 10 ok, 2 unreachable; 1 alert sent`."""
    from monitor.health import counts_line

    words = ["ok"] * max(0, polls - len(failures)) + failures
    line = f"{now.astimezone(tz):%H:%M}  {plural(polls, 'poll')}: {counts_line(words) or 'none'}; "
    line += f"{plural(sent, 'alert')} sent"
    if failures and polls and all(w == "unreachable" for w in words):
        line += " (every source unreachable: is this machine offline?)"
    return line
