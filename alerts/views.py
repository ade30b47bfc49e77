"""What an alert says, gathered from the database into plain dicts that channels render."""

from __future__ import annotations

import json

from sqlmodel import Session, col, select

from db import queries
from db.models import Alert, Claim, Observation


def alert_view(session: Session, alert: Alert) -> dict:
    base = {
        "alert_id": alert.id,
        "event": alert.kind,
        "item_id": alert.item_id,
        "created_at": alert.created_at,
    }
    if alert.kind != "change" or alert.observation_id is None:
        body = json.loads(alert.body) if alert.body else {}
        return {**base, "subject": alert.subject, "claim_id": alert.claim_id, **body}
    obs = session.get(Observation, alert.observation_id)
    claim = session.get(Claim, obs.claim_id)
    spec = json.loads(claim.spec)
    return {
        **base,
        "claim_id": claim.id,
        "claim_title": claim.title,
        "claim_kind": claim.kind,
        "unit": obs.unit or claim.unit,
        "key": obs.key,
        "baseline": json.loads(claim.value) if not obs.key else _first_value(session, obs),
        "previous": json.loads(obs.previous_value) if obs.previous_value else None,
        "value": json.loads(obs.value),
        "delta_pct": obs.delta_pct,
        "signal": obs.signal,
        "source": obs.source,
        "url": obs.url,
        "title": obs.title,
        "excerpt": obs.excerpt,
        "at": obs.at,
        "seen_at": obs.seen_at,
        "verification": verification(session, claim, spec),
        "subject": f"{claim.title}: {obs.key + ' ' if obs.key else ''}changed",
    }


def _first_value(session: Session, obs: Observation):
    """A keyed value's baseline: the first value seen for its key; None when this is the first."""
    row = session.exec(
        select(Observation.id, Observation.value)
        .where(Observation.claim_id == obs.claim_id, Observation.key == obs.key)
        .order_by(col(Observation.id))
        .limit(1)
    ).first()
    return json.loads(row[1]) if row and row[0] != obs.id else None


def verification(session: Session, claim: Claim, spec: dict) -> str:
    """How the claim's current value is verified (see queries.current_verification)."""
    if claim.kind == "price-list":
        return str(spec.get("verification", ""))
    current = queries.current_value(session=session, claim=claim)
    return queries.current_verification(session=session, claim=claim, spec=spec, current=current)
