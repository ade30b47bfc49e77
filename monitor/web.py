"""`claimwatch serve`: a read-only dashboard. Server-rendered Jinja2 templates (autoescaped), inline
SVG charts, one stylesheet, no JavaScript. Handlers are plain functions: Starlette runs them in its
threadpool, so a slow query never holds the event loop."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from alerts.digest import milestones
from alerts.text import change_line, detail, headline, merge_prices_per
from alerts.views import alert_view, verification
from db import queries
from db.models import Claim
from monitor import charts, render
from monitor.config import Settings
from monitor.health import health_rows, summary

HERE = Path(__file__).parent
RECENT_CHANGES = 12
EVIDENCE_PAGE = 50
CHART_SAMPLE = 300
KEYS_SHOWN = 200


def templates(settings: Settings) -> Jinja2Templates:
    """Autoescaping templates; every value shown passes through `finalize`, which drops the
    characters no HTML or XML document may hold."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html", "atom", "xml"], default=True),
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["clip"] = lambda text, limit=80: render.clip(text or "", limit)
    env.filters["value"] = lambda value, unit="": render.value_text(value, unit, 120)
    return Jinja2Templates(env=env)


def _finalize(value):
    if value is None:
        return ""
    if isinstance(value, Markup):  # already escaped: a macro's output
        return Markup(render.xml_safe(str(value)))
    return render.xml_safe(value) if isinstance(value, str) else value


def create_app(
    settings: Settings, engine: Engine, *, clock: Callable[[], datetime] = lambda: datetime.now(UTC)
) -> Starlette:
    pages = templates(settings)
    tz = settings.tz

    def board(request: Request) -> Response:
        subject = request.query_params.get("subject") or None
        kind = request.query_params.get("kind") or None
        now = clock()
        with Session(engine) as s:
            every = queries.get_claims(session=s)
            claims = {c.id: c for c in every}
            rows = queries.claim_summaries(session=s, subject=subject, kind=kind)
            shown = {r["id"] for r in rows}
            changes = [
                c
                for c in queries.recent_changes(session=s, limit=RECENT_CHANGES * 4)
                if c["claim"] in shown
            ][:RECENT_CHANGES]
            levels = {
                cid: verification(s, claims[cid], json.loads(claims[cid].spec))
                for cid in {c["claim"] for c in changes}
            }
            levels.update(
                (r["id"], verification(s, claims[r["id"]], json.loads(claims[r["id"]].spec)))
                for r in rows
            )
            steps = queries.change_steps(
                session=s, claim_ids=[r["id"] for r in rows if r["kind"] in ("number", "range")]
            )
            due = milestones(s, [c for c in every if c.id in shown], now.astimezone(tz).date())
            health = health_rows(settings, queries.watchers(session=s), now=now)
        context = {
            "title": "Claims",
            "lead": _lead(rows, every, health),
            "subjects": sorted({c.subject for c in every}),
            "kinds": sorted({c.kind for c in every}),
            "subject": subject,
            "kind": kind,
            "changes": [_change_row(c, levels.get(c["claim"], ""), now) for c in changes],
            "milestones": due,
            "health_summary": summary(health),
            "cluster": _cluster_line(settings),
            "trouble": [
                {**h, "last_success": render.ago(h["last_success_at"], now, tz)}
                for h in health
                if h["status"] in ("failing", "blocked")
            ],
            "groups": _groups(
                [
                    {**_claim_row(r, claims, steps, now), "verification": levels[r["id"]]}
                    for r in rows
                ]
            ),
            "shown": render.plural(len(rows), "claim"),
        }
        return pages.TemplateResponse(request, "board.html", context)

    def _change_row(c: dict, level: str, now: datetime) -> dict:
        return {
            **c,
            "when": render.ago(c["seen_at"], now, tz),
            "exact": render.local(c["at"], tz, True),
            "from_to": _from_to(c),
            "delta": render.delta_text(c["delta_pct"]),
            "source_label": c["source"] + (f": {c['title']}" if c["title"] else ""),
            "verification": level,
        }

    def _claim_row(r: dict, claims: dict, steps: dict, now: datetime) -> dict:
        base = r["baseline"]["value"]
        trend = [base] + [v for _, v in steps.get(r["id"], [])]
        return {
            "id": r["id"],
            "title": r["title"],
            "theme": _theme(claims[r["id"]]),
            "subject": r["subject"],
            "baseline": render.value_text(base, r["baseline"]["unit"], 90),
            "current": render.value_text(r["current"]["value"], r["current"]["unit"], 90),
            "same": r["current"]["value"] == base,
            "changed": r["changed_at"] is not None,
            "trend": charts.sparkline(trend) if len(trend) > 1 else None,
            "verification": r["verification"] or "",
            "changed_when": render.ago(r["changed_at"], now, tz) if r["changed_at"] else "—",
            "changed_exact": render.local(r["changed_at"], tz, True) if r["changed_at"] else "",
        }

    def claim_page(request: Request) -> Response:
        claim_id = request.path_params["claim_id"]
        page = _page_number(request)
        with Session(engine) as s:
            claim = s.get(Claim, claim_id)
            if claim is None:
                raise HTTPException(404, f"no claim {claim_id!r}")
            spec = json.loads(claim.spec)
            summary_row = queries.claim_summaries(session=s, ids=[claim_id])[0]
            history = queries.claim_history(session=s, claim_id=claim_id, sample=CHART_SAMPLE)
            pages_total = max(1, math.ceil(history["restated"] / EVIDENCE_PAGE))
            page = min(page, pages_total)
            evidence = queries.restatements(
                session=s, claim_id=claim_id, offset=(page - 1) * EVIDENCE_PAGE, limit=EVIDENCE_PAGE
            )
            level = verification(s, claim, spec)
        context = _claim_context(claim, spec, summary_row, history, evidence, level)
        context.update(page=page, pages=pages_total)
        return pages.TemplateResponse(request, "claim.html", context)

    def _claim_context(claim, spec, row, history, evidence, level) -> dict:
        events = history["events"]
        keyed = any(e["key"] for e in events if e["kind"] == "observation")
        baseline_value = row["baseline"]["value"]
        chart = small = None
        if claim.kind != "price-list" and not (keyed and claim.kind not in ("number", "range")):
            series = charts.claim_series(
                events, None if keyed else baseline_value, tz, since=row["baseline"]["at"]
            )
            base = None if keyed else charts.numeric(baseline_value)
            if len(series) <= len(charts.COLOURS):  # more lines than colours: the table says it
                chart = charts.timeline_chart(series, baseline=base, unit=claim.unit, tz=tz)
                small = charts.timeline_chart(
                    series, baseline=base, unit=claim.unit, tz=tz, width=380, height=240, ticks=3
                )
        current = row["current"]
        changes = [e for e in events if e["kind"] == "observation" and e["changed"]]
        prices = (
            charts.price_rows(current["value"], changes, tz)
            if claim.kind == "price-list" and isinstance(current["value"], dict)
            else []
        )
        delta = None
        if not keyed and changes and changes[-1].get("delta_pct") is not None:
            delta = _against_baseline(baseline_value, current["value"])
        return {
            "title": claim.title,
            "claim": claim,
            "group": _theme(claim),
            "verification": level,
            "baseline": _price_words(None)
            if prices
            else render.value_text(baseline_value, claim.unit, 160),
            "baseline_at": render.local(row["baseline"]["at"], tz) if row["baseline"]["at"] else "",
            "current": _price_words(prices)
            if prices
            else render.value_text(current["value"], claim.unit, 160),
            "current_since": render.local(current["at"], tz) if row["changed_at"] else "",
            "changed": row["changed_at"] is not None,
            "delta": delta,
            "comparator": _comparator(spec.get("comparator"), claim.unit),
            "due": " ".join(p for p in (spec.get("due"), _paren(spec.get("due_text"))) if p),
            "note": spec.get("note", ""),
            "conditions": [(k, _plain(v)) for k, v in (spec.get("conditions") or {}).items()],
            "chart": chart,
            "chart_small": small,
            "sampled": history["sampled"],
            "restated": history["restated"],
            "sampled_text": render.plural(history["sampled"], "restatement")
            + f" of {history['restated']:,}",
            "prices": prices,
            "price_fields": charts.price_fields(prices),
            "keyed": _keyed_rows(current["value"], changes) if keyed and not prices else [],
            "story": [_story_row(e) for e in events if e["kind"] != "observation" or e["changed"]],
            "evidence": [_story_row(e) for e in evidence],
            "restated_text": render.plural(history["restated"], "restatement"),
            "variants": [_variant(v, spec, claim.unit) for v in spec.get("variants", [])],
            "sources": [_source(s_) for s_ in spec.get("sources", [])],
        }

    def _story_row(e: dict) -> dict:
        return {
            **e,
            "date": render.local(e["at"], tz),
            "word": render.event_word(e),
            "value": render.value_text(e["value"], e["unit"], 160),
            "delta": render.delta_text(e["delta_pct"]),
        }

    def _keyed_rows(current, changes: list[dict]) -> list[dict]:
        if not isinstance(current, dict):
            return []
        since = {c["key"]: c["at"] for c in changes}
        return [
            {
                "key": key,
                "value": render.value_text(value, "", 160),
                "since": render.local(since[key], tz) if key in since else "first seen",
            }
            for key, value in sorted(current.items())[:KEYS_SHOWN]
        ]

    def api_claims(request: Request) -> Response:
        with Session(engine) as s:
            rows = queries.claim_summaries(
                session=s,
                subject=request.query_params.get("subject") or None,
                kind=request.query_params.get("kind") or None,
            )
        return Response(render.to_json(render.claims_payload(rows)), media_type="application/json")

    def api_timeline(request: Request) -> Response:
        claim_id = request.path_params["claim_id"]
        with Session(engine) as s:
            if s.get(Claim, claim_id) is None:
                raise HTTPException(404, f"no claim {claim_id!r}")
            events = queries.timeline(session=s, claim_ids=[claim_id])
        return Response(
            render.to_json(render.timeline_payload(events)), media_type="application/json"
        )

    def alerts_atom(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        with Session(engine) as s:
            rows = queries.alert_feed(session=s, limit=100)
            views = [{**alert_view(s, a), "_row": a} for a in rows]
        # one entry per model whose prices one poll moved, as Slack and the e-mail show them
        merged = merge_prices_per(views, lambda v: (v["_row"].item_id, v["_row"].channel))
        entries = [_atom_entry(view, view["_row"], base) for view in merged]
        updated = rows[0].created_at if rows else clock()
        text = pages.get_template("alerts.atom").render(
            base=base, updated=render.iso(updated), entries=entries
        )
        return Response(text, media_type="application/atom+xml; charset=utf-8")

    def not_found(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            detail_text = exc.detail if exc.detail != "Not Found" else request.url.path
            return PlainTextResponse(f"Not found: {detail_text}\n", status_code=404)
        return PlainTextResponse(f"{exc.status_code} {exc.detail}\n", status_code=exc.status_code)

    def database_error(request: Request, exc: Exception) -> Response:
        return PlainTextResponse(
            "The database is not available right now; try again shortly.\n", status_code=503
        )

    return Starlette(
        routes=[
            Route("/", board),
            Route("/claims/{claim_id}", claim_page),
            Route("/api/claims", api_claims),
            Route("/api/claims/{claim_id}/timeline", api_timeline),
            Route("/alerts.atom", alerts_atom),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ],
        exception_handlers={HTTPException: not_found, SQLAlchemyError: database_error},
    )


def _price_words(rows: list[dict] | None) -> str:
    """A price list in words: `4 models, 10 prices`; the baseline is the first list seen."""
    if rows is None:
        return "the first list seen"
    prices = sum(v is not None for r in rows for v in r["prices"].values())
    return f"{render.plural(len(rows), 'model')}, {render.plural(prices, 'price')}"


def _page_number(request: Request) -> int:
    try:
        return max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        return 1


def _theme(claim: Claim) -> str:
    """A claim's theme: the ledger's `theme` where it gives one, else its id's second part."""
    spec = json.loads(claim.spec)
    if isinstance(spec.get("theme"), str) and spec["theme"].strip():
        return spec["theme"].strip()
    parts = claim.id.split(".")
    return f"{parts[0]} · {parts[1]}" if len(parts) > 1 else parts[0]


def _groups(rows: list[dict]) -> list[dict]:
    """Rows grouped by theme. Where themes come from ids, a theme of one claim joins its
    subject's other claims, and subjects of one claim share a last group: the board is not a list
    of one-row tables. The largest subjects come first."""
    by_theme: dict[str, list[dict]] = {}
    for row in rows:
        by_theme.setdefault(row["theme"], []).append(row)
    groups: dict[str, list[dict]] = {}
    for theme, members in by_theme.items():
        lone = len(members) == 1 and " · " in theme
        title = f"{members[0]['subject']} · other claims" if lone else theme
        groups.setdefault(title, []).extend(members)
    rest = [t for t, m in groups.items() if len(m) == 1 and t.endswith(" · other claims")]
    if len(rest) > 1:
        groups["other claims"] = [m for t in rest for m in groups.pop(t)]
    size = {}
    for row in rows:
        size[row["subject"]] = size.get(row["subject"], 0) + 1
    order = sorted(
        groups,
        key=lambda t: (
            t == "other claims",
            -size.get(groups[t][0]["subject"], 0),
            t.endswith("other claims"),
        ),
    )
    return [
        {
            "title": _title(t, groups[t]),
            "rows": groups[t],
            "count": render.plural(len(groups[t]), "claim"),
        }
        for t in order
    ]


def _title(theme: str, members: list[dict]) -> str:
    """A heading: the claims' shared title prefix where they have one (`Peak throughput per kW`),
    else the theme."""
    titles = [m["title"] for m in members]
    if len(titles) > 1:
        prefix = titles[0]
        for title in titles[1:]:
            while not title.startswith(prefix):
                prefix = prefix[:-1]
        prefix = prefix.rstrip(" ,:;–-(")
        if len(prefix) >= 8 and all(t[len(prefix) : len(prefix) + 1] in ",:;( –-" for t in titles):
            return prefix
    return theme.replace("-", " ")


def _cluster_line(settings: Settings) -> str | None:
    from monitor.cluster import board_line

    return board_line(settings)


def _lead(rows: list[dict], claims: list, health: list[dict]) -> str:
    changed = sum(r["changed_at"] is not None for r in rows)
    shown = render.plural(len(rows), "claim")
    if len(rows) != len(claims):
        shown += f" of {len(claims)}"
    return f"{shown}, {changed} changed since their baseline · {summary(health)}"


def _from_to(c: dict) -> str:
    before = c.get("previous")
    now = "removed" if c["value"] is None else render.value_text(c["value"], c["unit"], 60)
    if before is None:
        return f"new: {now}"
    return f"{render.value_text(before, c['unit'], 60)} → {now}"


def _against_baseline(base, current) -> str | None:
    b, c = charts.numeric(base), charts.numeric(current)
    if b in (None, 0) or c is None:
        return None
    return render.delta_text((c - b) / abs(b) * 100)


def _comparator(comparator, unit: str) -> str:
    if not isinstance(comparator, dict):
        return ""
    value = render.value_text(comparator.get("value"), unit, 60)
    return f"{comparator.get('name', '')} {value}".strip()


def _paren(text: str | None) -> str:
    return f"({text})" if text else ""


def _plain(value) -> str:
    return render.value_text(value, "", 200) if not isinstance(value, str) else value


def _source(source: dict) -> dict:
    """A source by its publisher (and the outlet it cites), never by the ledger's file names."""
    publisher, via = source.get("publisher", ""), source.get("via", "")
    by = f"{via} (via {publisher})" if via and publisher else (via or publisher or "source")
    return {
        "by": by,
        "url": source.get("url", ""),
        "date": source.get("date", ""),
        "quote": source.get("quote", ""),
        "language": source.get("language", ""),
    }


def _variant(variant: dict, spec: dict, unit: str) -> dict:
    """Another reading, attributed to the publisher of its source."""
    by = variant.get("publisher", "")
    if not by and variant.get("seed"):
        match = next((s for s in spec.get("sources", []) if s.get("seed") == variant["seed"]), None)
        by = _source(match)["by"] if match else ""
    return {
        "value": render.value_text(variant.get("value"), variant.get("unit", unit), 200),
        "note": variant.get("note", ""),
        "by": by,
    }


def _atom_entry(view: dict, row, base: str) -> dict:
    title = headline(view)
    text = change_line(view) if view["event"] == "change" else detail(view)
    if view["event"] == "change" and view.get("excerpt"):
        text += f"\n\n“{view['excerpt']}”"
    url = str(view.get("url") or "")
    link = (
        url
        if url.startswith(("http://", "https://"))
        else (f"{base}/claims/{view['claim_id']}" if view.get("claim_id") else f"{base}/")
    )
    return {
        "id": row.event_key,
        "title": render.plain(title),
        "updated": render.iso(row.created_at),
        "link": link,
        "summary": render.plain(text),
    }
