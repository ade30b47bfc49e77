"""`claimwatch serve`: a read-only dashboard. Server-rendered pages, inline SVG charts, no JavaScript."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from html import escape
from xml.sax.saxutils import escape as xml_escape

from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, func, select
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from alerts.digest import milestones
from alerts.text import change_line, detail, headline
from alerts.views import alert_view
from db import queries
from db.models import Alert, Claim, Observation
from monitor import render
from monitor.charts import sparkline, timeline_chart
from monitor.config import Settings
from monitor.health import health_rows

CSS = """
body{margin:0;font-family:Arial,Helvetica,sans-serif;color:#111827;background:#f9fafb}
header{background:#111827;color:#fff;padding:10px 20px}header a{color:#fff;text-decoration:none;font-weight:bold}
main{max-width:1200px;margin:0 auto;padding:16px 20px}
table{border-collapse:collapse;width:100%;background:#fff;font-size:14px}
th,td{padding:6px 8px;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top}
th{background:#f3f4f6}code{font-size:12px;color:#4b5563}a{color:#1d4ed8}
.muted{color:#6b7280;font-size:12px}.changed{color:#b91c1c;font-weight:bold}.overdue{color:#b91c1c}
.status-ok{color:#047857}.status-failing,.status-blocked{color:#b91c1c}.status-stale{color:#b45309}
form.filters{margin:0 0 12px}section{margin:18px 0}
"""


def page(title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<title>{escape(title)} · Claimwatch</title><style>{CSS}</style></head><body>"
        f'<header><a href="/">Claimwatch</a> <span class="muted" style="color:#9ca3af">· '
        f'<a href="/alerts.atom" style="font-weight:normal;font-size:12px">alerts feed</a></span></header>'
        f"<main>{body}</main></body></html>"
    )
    return HTMLResponse(html, status_code=status)


def ago(when: datetime | None, now: datetime) -> str:
    if when is None:
        return "never"
    days = (now - when).days
    if days >= 2:
        return f"{days} days ago"
    hours = int((now - when).total_seconds() // 3600)
    return f"{hours} h ago" if hours >= 1 else "just now"


def create_app(settings: Settings, engine: Engine, *, clock=lambda: datetime.now(UTC)) -> Starlette:
    def session() -> Session:
        return Session(engine)

    async def board(request: Request) -> Response:
        subject = request.query_params.get("subject") or None
        kind = request.query_params.get("kind") or None
        now = clock()
        with session() as s:
            rows = queries.claim_summaries(session=s, subject=subject, kind=kind)
            all_claims = queries.get_claims(session=s)
            trends = _trends(s, [r for r in rows if r["kind"] in ("number", "range")])
            due = milestones(s, all_claims, now.astimezone(settings.tz).date())
            health = health_rows(settings, queries.watchers(session=s), now=now)
        subjects = sorted({c.subject for c in all_claims})
        kinds = sorted({c.kind for c in all_claims})
        body = [
            f"<h1>Claims <span class='muted'>{len(rows)} shown</span></h1>",
            _filters(subjects, kinds, subject, kind),
        ]
        body.append(
            '<table class="claims"><tr><th>Claim</th><th>Kind</th><th>Baseline</th><th>Current</th>'
            "<th>Trend</th><th>Verification</th><th>Last change</th></tr>"
        )
        for r in rows:
            changed = r["changed_at"] is not None
            body.append(
                f'<tr class="claim-row" data-id="{escape(r["id"])}"><td><a href="/claims/{escape(r["id"])}">{escape(r["title"])}</a>'
                f"<br><code>{escape(r['id'])}</code></td><td>{escape(r['kind'])}</td>"
                f"<td>{escape(render.value_text(r['baseline']['value'], r['baseline']['unit'], 60))}</td>"
                f'<td class="{"changed" if changed else ""}">{escape(render.value_text(r["current"]["value"], r["current"]["unit"], 60))}</td>'
                f"<td>{sparkline(trends.get(r['id'], []))}</td><td>{escape(r['verification'] or '')}</td>"
                f"<td>{escape(ago(r['changed_at'], now)) if changed else '—'}</td></tr>"
            )
        body.append("</table>")
        body.append(_milestones_html(due))
        body.append(_health_html(health, settings))
        return page("Claims", "".join(body))

    async def claim_page(request: Request) -> Response:
        claim_id = request.path_params["claim_id"]
        with session() as s:
            claim = s.get(Claim, claim_id)
            if claim is None:
                raise HTTPException(404, f"no claim {claim_id!r}")
            summary = queries.claim_summaries(session=s, ids=[claim_id])[0]
            events = queries.timeline(session=s, claim_ids=[claim_id])
        tz = settings.tz
        spec = json.loads(claim.spec)
        baseline = None if claim.kind == "price-list" else json.loads(claim.value)
        body = [
            f"<h1>{escape(claim.title)}</h1><p><code>{escape(claim.id)}</code> · {escape(claim.kind)} · "
            f"verification: {escape(str(spec.get('verification', '')))}</p>",
            f"<p>Baseline <strong>{escape(render.value_text(summary['baseline']['value'], claim.unit, 120))}</strong>"
            f" · current <strong>{escape(render.value_text(summary['current']['value'], claim.unit, 120))}</strong></p>",
        ]
        if spec.get("comparator"):
            body.append(
                f"<p class='muted'>comparator: {escape(str(spec['comparator'].get('name')))} "
                f"{escape(render.value_text(spec['comparator'].get('value'), claim.unit))}</p>"
            )
        body.append(f"<section>{timeline_chart(events, baseline, claim.unit, tz)}</section>")
        body.append(
            "<section><h2>Events</h2><table class='events'><tr><th>Date</th><th>Event</th><th>Value</th>"
            "<th>Delta</th><th>Source</th><th>Excerpt</th></tr>"
        )
        for e in events:
            what = {"baseline": "baseline", "edit": "ledger edit"}.get(
                e["kind"], "change" if e["changed"] else "seen"
            )
            label = f"[{e['key']}] " if e["key"] else ""
            body.append(
                f'<tr class="event {"changed" if e["changed"] else ""}"><td>{escape(render.local(e["at"], tz, True))}</td>'
                f"<td>{what}</td><td>{escape(label + render.value_text(e['value'], e['unit'], 80))}</td>"
                f"<td>{escape(render.delta_text(e['delta_pct']))}</td><td>{_link(e['url'], e['source'] or e['title'])}</td>"
                f"<td>{escape(render.clip(e['excerpt'] or '', 300))}</td></tr>"
            )
        body.append("</table></section>")
        if spec.get("variants"):
            body.append(
                "<section><h2>Other readings</h2><ul>"
                + "".join(
                    f"<li>{escape(render.value_text(v.get('value'), v.get('unit', claim.unit), 160))} "
                    f"<span class='muted'>{escape(v.get('note', ''))} (source {escape(str(v.get('seed', '')))})</span></li>"
                    for v in spec["variants"]
                )
                + "</ul></section>"
            )
        body.append(
            "<section><h2>Sources</h2><ul>"
            + "".join(
                f"<li>{escape(render.clip(s_.get('via', '') + ' ' + s_.get('publisher', ''), 160))}: "
                f"<q>{escape(s_.get('quote', ''))}</q></li>"
                for s_ in spec.get("sources", [])
            )
            + "</ul></section>"
        )
        return page(claim.title, "".join(body))

    async def api_claims(request: Request) -> Response:
        with session() as s:
            rows = queries.claim_summaries(
                session=s,
                subject=request.query_params.get("subject") or None,
                kind=request.query_params.get("kind") or None,
            )
        return Response(render.to_json(render.claims_payload(rows)), media_type="application/json")

    async def api_timeline(request: Request) -> Response:
        claim_id = request.path_params["claim_id"]
        with session() as s:
            if s.get(Claim, claim_id) is None:
                raise HTTPException(404, f"no claim {claim_id!r}")
            events = queries.timeline(session=s, claim_ids=[claim_id])
        return Response(
            render.to_json(render.timeline_payload(events)), media_type="application/json"
        )

    async def alerts_atom(request: Request) -> Response:
        base = str(request.base_url).rstrip("/")
        with session() as s:
            first_ids = select(func.min(Alert.id)).group_by(Alert.event_key)
            rows = s.exec(
                select(Alert)
                .where(col(Alert.id).in_(first_ids))
                .order_by(col(Alert.id).desc())
                .limit(100)
            ).all()
            views = [alert_view(s, a) for a in rows]
        return Response(_atom(views, rows, base), media_type="application/atom+xml")

    async def not_found(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            return PlainTextResponse(
                f"Not found: {exc.detail if exc.detail != 'Not Found' else request.url.path}\n",
                status_code=404,
            )
        return PlainTextResponse(f"{exc.status_code} {exc.detail}\n", status_code=exc.status_code)

    async def database_error(request: Request, exc: Exception) -> Response:
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
        ],
        exception_handlers={HTTPException: not_found, SQLAlchemyError: database_error},
    )


def _trends(s: Session, rows: list[dict]) -> dict[str, list[float]]:
    """Per claim row: its numeric baseline, then the last 30 numeric observations, oldest first."""
    out = {}
    for row in rows:
        values = s.exec(
            select(Observation.value_num)
            .where(
                Observation.claim_id == row["id"],
                Observation.key == "",
                col(Observation.value_num).is_not(None),
            )
            .order_by(col(Observation.id).desc())
            .limit(30)
        ).all()
        base = row["baseline"]["value"]
        start = [base if isinstance(base, int | float) else None]
        out[row["id"]] = [v for v in start + list(reversed(values)) if v is not None]
    return out


def _filters(subjects, kinds, subject, kind) -> str:
    def options(values, chosen):
        return '<option value="">all</option>' + "".join(
            f'<option value="{escape(v)}"{" selected" if v == chosen else ""}>{escape(v)}</option>'
            for v in values
        )

    return (
        f'<form class="filters" method="get" action="/">subject <select name="subject">{options(subjects, subject)}</select> '
        f'kind <select name="kind">{options(kinds, kind)}</select> <button type="submit">Filter</button>'
        f"{' <a href=/>clear</a>' if subject or kind else ''}</form>"
    )


def _milestones_html(due: list[dict]) -> str:
    if not due:
        return ""
    rows = "".join(
        f'<tr><td><a href="/claims/{escape(m["claim_id"])}">{escape(m["title"])}</a></td><td>{escape(m["due"])}</td>'
        f'<td class="{"overdue" if m["days_left"] < 0 else ""}">{escape(m["countdown"])}</td><td>{escape(str(m["state"]))}</td></tr>'
        for m in due
    )
    return f"<section><h2>Milestones</h2><table><tr><th>Milestone</th><th>Due</th><th>Countdown</th><th>State</th></tr>{rows}</table></section>"


def _health_html(health: list[dict], settings: Settings) -> str:
    counts: dict[str, int] = {}
    for h in health:
        counts[h["status"]] = counts.get(h["status"], 0) + 1
    summary = ", ".join(
        f'<span class="status-{escape(k)}">{v} {escape(k)}</span>'
        for k, v in sorted(counts.items())
    )
    trouble = [h for h in health if h["status"] in ("failing", "blocked", "stale")]
    rows = "".join(
        f'<tr><td>{escape(h["name"])}</td><td class="status-{escape(h["status"])}">{escape(h["status"])}</td>'
        f"<td>{escape(render.local(h['last_success_at'], settings.tz, True))}</td><td>{escape(render.clip(h['last_error'] or '', 160))}</td></tr>"
        for h in trouble
    )
    table = (
        f"<table><tr><th>Watcher</th><th>Status</th><th>Last success</th><th>Last error</th></tr>{rows}</table>"
        if trouble
        else ""
    )
    return f"<section><h2>Watchers</h2><p>{summary or 'none configured'}</p>{table}</section>"


def _link(url: str, label: str) -> str:
    if url and url.startswith(("http://", "https://")):
        return (
            f'<a href="{escape(url)}" rel="noopener nofollow">{escape(render.clip(label, 80))}</a>'
        )
    return escape(render.clip(label, 80))


def _atom(views: list[dict], rows: list[Alert], base: str) -> str:
    updated = rows[0].created_at if rows else datetime.now(UTC)
    entries = []
    for view, row in zip(views, rows, strict=True):
        title = headline(view)
        text = change_line(view) if view["event"] == "change" else detail(view)
        if view["event"] == "change" and view.get("excerpt"):
            text += f"\n\n“{view['excerpt']}”"
        link = (
            view.get("url")
            if str(view.get("url", "")).startswith(("http://", "https://"))
            else (f"{base}/claims/{view['claim_id']}" if view.get("claim_id") else base)
        )
        entries.append(
            f"<entry><id>urn:claimwatch:alert:{xml_escape(row.event_key)}</id><title>{xml_escape(title)}</title>"
            f'<updated>{render.iso(row.created_at)}</updated><link href="{xml_escape(link)}"/>'
            f'<summary type="text">{xml_escape(text)}</summary></entry>'
        )
    return (
        f'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Claimwatch alerts</title>'
        f'<id>urn:claimwatch:alerts</id><link rel="self" href="{xml_escape(base)}/alerts.atom"/>'
        f"<updated>{render.iso(updated)}</updated>{''.join(entries)}</feed>"
    )
