"""The daily digest: what changed, what was merely restated, milestones, health, undelivered alerts."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, time, timedelta
from html import escape

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from alerts.email import build_message, change_rows_html, page, smtp_send
from alerts.text import change_line, merge_prices_per
from alerts.views import verification
from db import queries
from db.models import Alert, Claim, Digest, Observation
from monitor.config import Settings
from monitor.health import health_rows, state_text
from monitor.render import clip, local, plural

MILESTONE_HORIZON = 90  # days ahead that a milestone counts as "coming due"
STALE_DIGEST = timedelta(hours=1)


def period(settings: Settings, day: date) -> tuple[datetime, datetime]:
    """The 24 hours before `digest_at` on `day`, local time, as UTC."""
    hour, minute = (int(x) for x in settings.alerts.email.digest_at.split(":"))
    end = datetime.combine(day, time(hour, minute), settings.tz).astimezone(UTC)
    return end - timedelta(hours=24), end


def digest_data(
    session: Session, settings: Settings, day: date, *, now: datetime | None = None
) -> dict:
    start, end = period(settings, day)
    now = now or end
    claims = {c.id: c for c in session.exec(select(Claim))}
    rows = session.exec(
        select(Observation)
        .where(Observation.seen_at >= start, Observation.seen_at < end)
        .order_by(Observation.id)
    ).all()
    changes: dict[str, dict] = {}
    evidence: dict[str, dict] = {}
    levels: dict[str, str] = {}
    for obs in rows:
        claim = claims[obs.claim_id]
        if claim.id not in levels:
            levels[claim.id] = verification(session, claim, json.loads(claim.spec))
        view = {
            "claim_id": claim.id,
            "claim_title": claim.title,
            "key": obs.key,
            "unit": obs.unit or claim.unit,
            "baseline": json.loads(claim.value) if not obs.key else None,
            "value": json.loads(obs.value),
            "previous": json.loads(obs.previous_value) if obs.previous_value else None,
            "delta_pct": obs.delta_pct,
            "source": obs.source,
            "url": obs.url,
            "title": obs.title,
            "excerpt": obs.excerpt,
            "at": obs.at,
            "verification": levels[claim.id],
            "event": "change",
            "claim_kind": claim.kind,
        }
        if obs.changed:
            group = changes.setdefault(
                claim.id, {"claim_id": claim.id, "title": claim.title, "changes": []}
            )
            group["changes"].append(view)
        else:
            group = evidence.setdefault(
                claim.id, {"claim_id": claim.id, "title": claim.title, "count": 0, "sources": []}
            )
            group["count"] += 1
            if len(group["sources"]) < 3 and (obs.source, obs.url) not in [
                (s["source"], s["url"]) for s in group["sources"]
            ]:
                group["sources"].append({"source": obs.source, "url": obs.url, "title": obs.title})
    for group in changes.values():
        # the price fields a poll moved, a line per model
        group["changes"] = merge_prices_per(
            group["changes"], lambda v: (v["source"], v["url"], v["at"])
        )
    return {
        "day": day,
        "start": start,
        "end": end,
        "timezone": settings.timezone,
        "changes": list(changes.values()),
        "evidence": list(evidence.values()),
        "milestones": milestones(session, claims.values(), day),
        "health": [
            h
            for h in health_rows(settings, queries.watchers(session=session), now=now)
            if h["status"] in ("failing", "blocked", "stale")
        ],
        "undelivered": [
            {
                "channel": a.channel,
                "subject": a.subject or a.event_key,
                "claim_id": a.claim_id,
                "error": a.last_error,
                "created_at": a.created_at,
            }
            for a in session.exec(
                select(Alert)
                .where(Alert.status == "given_up", Alert.created_at >= start - timedelta(days=6))
                .order_by(col(Alert.id))
            )
        ],
    }


def milestones(session: Session, claims, day: date) -> list[dict]:
    """Milestones not met that fall due within the horizon or are overdue, soonest first. One
    that has been alerted overdue reads overdue whatever the clock says."""
    alerted = queries.milestones_alerted(session=session)
    out = []
    for claim in claims:
        spec = json.loads(claim.spec)
        if claim.kind != "milestone" or not spec.get("due"):
            continue
        state = queries.current_value(session=session, claim=claim).value
        if state == "met":
            continue
        due = date.fromisoformat(spec["due"])
        days = (due - day).days
        if days > MILESTONE_HORIZON and claim.id not in alerted:
            continue
        overdue = days < 0 or claim.id in alerted
        out.append(
            {
                "claim_id": claim.id,
                "title": claim.title,
                "due": spec["due"],
                "due_text": spec.get("due_text", ""),
                "state": state,
                "days_left": days,
                "overdue": overdue,
                "countdown": countdown(days, due, overdue=overdue),
            }
        )
    return sorted(out, key=lambda m: m["days_left"])


def countdown(days: int, due: date, *, overdue: bool = False) -> str:
    """`29 days left`, `due today`, `overdue since 2026-12-31`; never a count once overdue."""
    if overdue or days < 0:
        return f"overdue since {due}"
    if days == 0:
        return "due today"
    return f"{days} day{'s' if days != 1 else ''} left"


def watcher_words(row: dict) -> str:
    """`blocked ×3 since 2026-12-20: HTTP 403 …` or `ok, stale: nothing new since 2026-11-02`."""
    words = state_text(row)
    if row["status"] == "stale" and row["last_new_item_at"]:
        return f"{words}: nothing new since {row['last_new_item_at']:%Y-%m-%d}"
    if row["reason"]:
        return f"{words}: {clip(row['reason'], 160)}"
    return words


def render_text(data: dict, settings: Settings) -> str:
    tz = settings.tz
    lines = [
        f"Claimwatch digest for {data['day']} ({local(data['start'], tz, True)} – {local(data['end'], tz, True)} {data['timezone']})",
        "",
    ]
    if not data["changes"]:
        lines.append("No claim changed in these 24 hours.")
    for group in data["changes"]:
        lines.append(f"CHANGED  {group['title']} ({group['claim_id']})")
        for view in group["changes"]:
            key = f"[{view['key']}] " if view["key"] else ""
            lines.append(f"  {key}{change_line(view)}")
            lines.append(f"    {view['source']}: {clip(view['title'], 90)} {view['url']}".rstrip())
    if data["evidence"]:
        lines += ["", "Evidence that changed nothing:"]
        for group in data["evidence"]:
            lines.append(
                f"  {group['claim_id']}: {plural(group['count'], 'restatement')} ({', '.join(s['source'] for s in group['sources'])})"
            )
    if data["milestones"]:
        lines += ["", "Milestones:"]
        for m in data["milestones"]:
            lines.append(
                f"  {m['title']} ({m['claim_id']}): {m['countdown']} (due {m['due']}, now {m['state']})"
            )
    if data["health"]:
        lines += ["", "Watchers needing attention:"]
        for h in data["health"]:
            lines.append(f"  {h['name']}: {watcher_words(h)}")
    if data["undelivered"]:
        lines += ["", "Alerts that could not be delivered:"]
        for a in data["undelivered"]:
            lines.append(
                f"  {a['channel']}: {clip(a['subject'], 80)} ({clip(a['error'] or '', 100)})"
            )
    return "\n".join(lines) + "\n"


def render_html(data: dict, settings: Settings) -> str:
    tz = settings.tz
    title = f"Claimwatch digest for {data['day']}"
    parts = [
        f'<p style="color:#6b7280">{escape(local(data["start"], tz, True))} – {escape(local(data["end"], tz, True))} {escape(data["timezone"])}</p>'
    ]
    parts.append('<h2 style="font-size:16px">Changes</h2>')
    if data["changes"]:
        views = [v for g in data["changes"] for v in g["changes"]]
        parts.append(change_rows_html(views, tz))
    else:
        parts.append("<p>No claim changed in these 24 hours.</p>")
    sections = [
        (
            "Evidence that changed nothing",
            [
                f"<strong>{escape(g['claim_id'])}</strong>: {plural(g['count'], 'restatement')} — "
                + ", ".join(_link(s["url"], s["source"]) for s in g["sources"])
                for g in data["evidence"]
            ],
        ),
        (
            "Milestones",
            [
                f"<strong>{escape(m['title'])}</strong> <code>{escape(m['claim_id'])}</code>: "
                f'<span style="color:{"#b91c1c" if m["days_left"] < 0 else "#111827"}">{escape(m["countdown"])}</span> '
                f"(due {escape(m['due'])}, now {escape(str(m['state']))})"
                for m in data["milestones"]
            ],
        ),
        (
            "Watchers needing attention",
            [
                f"<strong>{escape(h['name'])}</strong>: {escape(watcher_words(h))}"
                for h in data["health"]
            ],
        ),
        (
            "Alerts that could not be delivered",
            [
                f"{escape(a['channel'])}: {escape(clip(a['subject'], 100))} ({escape(clip(a['error'] or '', 160))})"
                for a in data["undelivered"]
            ],
        ),
    ]
    for heading, items in sections:
        if items:
            parts.append(
                f'<h2 style="font-size:16px">{escape(heading)}</h2><ul style="padding-left:20px">'
                + "".join(f'<li style="margin:4px 0">{i}</li>' for i in items)
                + "</ul>"
            )
    return page(title, "".join(parts))


def _link(url: str, label: str) -> str:
    if url.startswith(("http://", "https://")):
        return f'<a href="{escape(url)}" style="color:#1d4ed8">{escape(label)}</a>'
    return escape(label)


def send_digest(
    engine: Engine,
    settings: Settings,
    day: date,
    *,
    now: datetime | None = None,
    force: bool = False,
) -> str:
    """Send the digest for `day` once; 'sent', or 'already sent' when a digest for it exists."""
    now = now or datetime.now(UTC)
    period_key = day.isoformat()
    if not _reserve(engine, period_key, now, force):
        return "already sent"
    with Session(engine) as session:
        data = digest_data(session, settings, day, now=now)
    config = settings.alerts.email
    subject = f"Claimwatch digest {day}: " + (
        plural(sum(len(g["changes"]) for g in data["changes"]), "change")
        if data["changes"]
        else "no changes"
    )
    try:
        smtp_send(
            config,
            build_message(
                config, subject, render_text(data, settings), render_html(data, settings)
            ),
        )
    except Exception:
        with Session(engine) as session:
            row = session.exec(select(Digest).where(Digest.period == period_key)).one()
            row.status = "failed"
            session.add(row)
            session.commit()
        raise
    with Session(engine) as session:
        row = session.exec(select(Digest).where(Digest.period == period_key)).one()
        row.status, row.sent_at, row.recipients = "sent", now, ", ".join(config.recipients)
        row.changes = sum(len(g["changes"]) for g in data["changes"])
        session.add(row)
        session.commit()
    return "sent"


def _reserve(engine: Engine, period_key: str, now: datetime, force: bool) -> bool:
    """Take the period's row; the unique key on period makes a second sender back off."""
    with Session(engine) as session:
        row = session.exec(select(Digest).where(Digest.period == period_key)).first()
        if row is None:
            session.add(Digest(period=period_key, status="sending", created_at=now))
            try:
                session.commit()
                return True
            except IntegrityError:
                return False
        created = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
        stale = row.status == "sending" and now - created > STALE_DIGEST
        if force or row.status == "failed" or stale:
            row.status, row.created_at = "sending", now
            session.add(row)
            session.commit()
            return True
        return False
