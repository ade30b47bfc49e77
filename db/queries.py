"""Read-only queries, keyword-only, one place."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlmodel import Session, col, func, select

from db.models import Alert, Claim, ClaimEvent, Item, Observation, WatcherState


@dataclass(frozen=True)
class Current:
    value: Any
    at: datetime | None
    observation: Observation | None  # None: the ledger baseline is still current


def get_claims(
    *, session: Session, ids: list[str] | None = None, subject: str | None = None
) -> list[Claim]:
    query = select(Claim).order_by(Claim.id)
    if ids:
        query = query.where(col(Claim.id).in_(ids))
    if subject:
        query = query.where(Claim.subject == subject)
    return list(session.exec(query))


def baseline_event(*, session: Session, claim_id: str) -> ClaimEvent | None:
    return session.exec(
        select(ClaimEvent)
        .where(ClaimEvent.claim_id == claim_id)
        .order_by(col(ClaimEvent.seq).desc())
    ).first()


def current_by_key(*, session: Session, claim: Claim) -> dict[str, Current]:
    """Per key: the latest change, else the first value seen (a baseline taken from the source)."""
    ids_changed = dict(
        session.exec(
            select(Observation.key, func.max(Observation.id))
            .where(Observation.claim_id == claim.id, Observation.changed)
            .group_by(Observation.key)
        ).all()
    )
    ids_first = dict(
        session.exec(
            select(Observation.key, func.min(Observation.id))
            .where(Observation.claim_id == claim.id)
            .group_by(Observation.key)
        ).all()
    )
    # an un-keyed claim keeps its ledger baseline until a change; a keyed one starts at its first value
    wanted = {k: ids_changed.get(k, first if k else None) for k, first in ids_first.items()}
    wanted = {k: v for k, v in wanted.items() if v is not None}
    rows = {
        o.id: o
        for o in session.exec(select(Observation).where(col(Observation.id).in_(wanted.values())))
    }
    out = {}
    for key, oid in wanted.items():
        obs = rows[oid]
        out[key] = Current(value=json.loads(obs.value), at=obs.at, observation=obs)
    return out


def current_value(*, session: Session, claim: Claim, key: str = "") -> Current:
    """The latest change; for a keyed value (a price, a page) the first one seen is its baseline."""
    obs = session.exec(
        select(Observation)
        .where(Observation.claim_id == claim.id, Observation.key == key, Observation.changed)
        .order_by(col(Observation.id).desc())
        .limit(1)
    ).first()
    if obs is None and key:
        obs = session.exec(
            select(Observation)
            .where(Observation.claim_id == claim.id, Observation.key == key)
            .order_by(col(Observation.id))
            .limit(1)
        ).first()
        if obs is None:
            return Current(value=None, at=None, observation=None)
    if obs is None:
        event = baseline_event(session=session, claim_id=claim.id)
        return Current(
            value=json.loads(claim.value), at=event.at if event else None, observation=None
        )
    return Current(value=json.loads(obs.value), at=obs.at, observation=obs)


def current_verification(*, session: Session, claim: Claim, spec: dict, current: Current) -> str:
    """How the current value is verified: the level its change carried (an independent re-test's
    own), raised by any measured confirmation since; the ledger's level while the baseline holds."""
    from db.state import better_verification

    obs = current.observation
    level = (obs.verification if obs is not None else "") or str(spec.get("verification", ""))
    confirmations = session.exec(
        select(Observation.verification).where(
            Observation.claim_id == claim.id,
            Observation.key == (obs.key if obs is not None else ""),
            Observation.role == "confirms",
            Observation.verification != "",
            col(Observation.id) > (obs.id if obs is not None else 0),
        )
    )
    for other in confirmations:
        level = better_verification(spec, level, other)
    return level


def last_change(*, session: Session, claim_id: str) -> Observation | None:
    return session.exec(
        select(Observation)
        .where(Observation.claim_id == claim_id, Observation.changed)
        .order_by(col(Observation.id).desc())
        .limit(1)
    ).first()


def timeline(
    *,
    session: Session,
    claim_ids: list[str] | None = None,
    subject: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    observations: bool = True,
) -> list[dict]:
    """Baseline, edits and observations of the chosen claims as events, oldest first."""
    claims = {c.id: c for c in get_claims(session=session, ids=claim_ids, subject=subject)}
    if not claims:
        return []
    events: list[dict] = []
    query = select(ClaimEvent).where(col(ClaimEvent.claim_id).in_(claims))
    for ev in session.exec(query):
        if (since and ev.at < since) or (until and ev.at >= until):
            continue
        spec = json.loads(claims[ev.claim_id].spec)
        events.append(
            {
                "claim": ev.claim_id,
                "at": ev.at,
                "seen_at": ev.at,
                "kind": ev.kind,
                "key": "",
                "value": json.loads(ev.value),
                "unit": ev.unit,
                "source": ev.source,
                "url": ev.url,
                "title": claims[ev.claim_id].title,
                "excerpt": ev.excerpt,
                "signal": "",
                "changed": ev.kind == "edit",
                "delta_pct": None,
                "previous": json.loads(ev.previous_value) if ev.previous_value else None,
                "comparator": spec.get("comparator"),
                "conditions": spec.get("conditions", {}),
                "_order": (0, ev.seq),
            }
        )
    if not observations:
        return events  # the caller adds its own choice of observations and sorts
    columns = [getattr(Observation, f) for f in OBSERVATION_FIELDS]
    query = select(*columns).where(col(Observation.claim_id).in_(claims))
    if since:
        query = query.where(Observation.at >= since)
    if until:
        query = query.where(Observation.at < until)
    for row in session.exec(query):  # plain rows: building ORM objects dominates on long histories
        events.append(_row_event(row))
    events.sort(key=lambda e: (e["at"], e["_order"]))
    for event in events:
        del event["_order"]
    return events


OBSERVATION_FIELDS = (
    "id",
    "claim_id",
    "at",
    "seen_at",
    "key",
    "value",
    "value_num",
    "unit",
    "source",
    "url",
    "title",
    "excerpt",
    "signal",
    "changed",
    "delta_pct",
    "previous_value",
)


def _row_event(row) -> dict:
    return {
        "claim": row.claim_id,
        "at": _utc(row.at),
        "seen_at": _utc(row.seen_at),
        "kind": "observation",
        "key": row.key,
        "value": _value(row),
        "unit": row.unit,
        "source": row.source,
        "url": row.url,
        "title": row.title,
        "excerpt": row.excerpt,
        "signal": row.signal,
        "changed": bool(row.changed),
        "delta_pct": row.delta_pct,
        "previous": json.loads(row.previous_value) if row.previous_value else None,
        "comparator": None,
        "conditions": None,
        "_order": (1, row.id),
    }


def _value(row):
    """The stored value; numbers come from value_num, skipping a JSON parse per row."""
    if row.value_num is None:
        return json.loads(row.value)
    if row.value_num.is_integer() and "." not in row.value and "e" not in row.value:
        return int(row.value_num)
    return row.value_num


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def watchers(*, session: Session) -> list[WatcherState]:
    return list(session.exec(select(WatcherState).order_by(WatcherState.name)))


def seen_keys(*, session: Session, watcher: str, keys: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        found.update(
            session.exec(
                select(Item.dedupe_key).where(
                    Item.watcher == watcher, col(Item.dedupe_key).in_(chunk)
                )
            )
        )
    return found


def latest_item(*, session: Session, watcher: str) -> Item | None:
    return session.exec(
        select(Item).where(Item.watcher == watcher).order_by(col(Item.id).desc()).limit(1)
    ).first()


def claim_summaries(
    *,
    session: Session,
    ids: list[str] | None = None,
    subject: str | None = None,
    kind: str | None = None,
) -> list[dict]:
    """Each claim with its baseline and current value: the `claims --format json` shape."""
    out = []
    for claim in get_claims(session=session, ids=ids, subject=subject):
        if kind and claim.kind != kind:
            continue
        spec = json.loads(claim.spec)
        base = baseline_event(session=session, claim_id=claim.id)
        if claim.kind == "price-list" or _is_keyed(session=session, claim_id=claim.id):
            per_key = current_by_key(session=session, claim=claim)
            value = {k: c.value for k, c in sorted(per_key.items())} or json.loads(claim.value)
            at = max((c.at for c in per_key.values() if c.at), default=base.at if base else None)
            level = str(spec.get("verification", ""))
        else:
            current = current_value(session=session, claim=claim)
            value, at = current.value, current.at
            level = current_verification(session=session, claim=claim, spec=spec, current=current)
        change = last_change(session=session, claim_id=claim.id)
        out.append(
            {
                "id": claim.id,
                "title": claim.title,
                "kind": claim.kind,
                "subject": claim.subject,
                "baseline": {
                    "value": json.loads(claim.value),
                    "unit": claim.unit,
                    "at": base.at if base else None,
                },
                "current": {"value": value, "unit": claim.unit, "at": at},
                "comparator": spec.get("comparator"),
                "conditions": spec.get("conditions", {}),
                "verification": level,
                "due": spec.get("due"),
                "due_text": spec.get("due_text"),
                "ladder": spec.get("ladder"),
                "variants": spec.get("variants", []),
                "sources": spec.get("sources", []),
                "changed_at": change.at if change else None,
            }
        )
    return out


def _is_keyed(*, session: Session, claim_id: str) -> bool:
    return (
        session.exec(
            select(Observation.id)
            .where(Observation.claim_id == claim_id, Observation.key != "")
            .limit(1)
        ).first()
        is not None
    )


# ---------------------------------------------------------------- pages, terminal and service


def subjects(*, session: Session) -> list[str]:
    return list(session.exec(select(Claim.subject).distinct().order_by(Claim.subject)))


def recent_changes(*, session: Session, limit: int = 12) -> list[dict]:
    """The latest changes of any claim, newest first, as timeline events with the claim's title."""
    columns = [getattr(Observation, f) for f in OBSERVATION_FIELDS]
    rows = session.exec(
        select(*columns, Claim.title.label("claim_title"))
        .join(Claim, Claim.id == Observation.claim_id)
        .where(Observation.changed)
        .order_by(col(Observation.seen_at).desc(), col(Observation.id).desc())
        .limit(limit)
    ).all()
    out = []
    for row in rows:
        event = _row_event(row)
        del event["_order"]
        event["claim_title"] = row.claim_title
        out.append(event)
    return out


def change_steps(*, session: Session, claim_ids: list[str]) -> dict[str, list[tuple]]:
    """Per claim: (at, value) of each change of its un-keyed numeric value, oldest first."""
    if not claim_ids:
        return {}
    rows = session.exec(
        select(Observation.claim_id, Observation.at, Observation.value_num)
        .where(
            col(Observation.claim_id).in_(claim_ids),
            Observation.key == "",
            Observation.changed,
            col(Observation.value_num).is_not(None),
        )
        .order_by(col(Observation.id))
    ).all()
    out: dict[str, list[tuple]] = {}
    for claim_id, at, value in rows:
        out.setdefault(claim_id, []).append((_utc(at), value))
    return out


def claim_history(*, session: Session, claim_id: str, sample: int = 300) -> dict:
    """A claim's story for its page: baseline, edits and every change in full; of the observations
    that changed nothing, the count and at most `sample` of them spread over the history."""
    restated_ids = list(
        session.exec(
            select(Observation.id)
            .where(Observation.claim_id == claim_id, col(Observation.changed).is_(False))
            .order_by(col(Observation.id))
        )
    )
    step = max(1, -(-len(restated_ids) // sample)) if sample else len(restated_ids) + 1
    chosen = restated_ids[::step][:sample]
    if restated_ids and restated_ids[-1] not in chosen and sample:
        chosen[-1:] = [restated_ids[-1]]
    columns = [getattr(Observation, f) for f in OBSERVATION_FIELDS]
    events = timeline(session=session, claim_ids=[claim_id], observations=False)
    changed = session.exec(
        select(*columns).where(Observation.claim_id == claim_id, Observation.changed)
    ).all()
    sampled = []
    for start in range(0, len(chosen), 500):
        sampled += session.exec(
            select(*columns).where(col(Observation.id).in_(chosen[start : start + 500]))
        ).all()
    for row in [*changed, *sampled]:
        events.append(_row_event(row))
    events.sort(key=lambda e: (e["at"], e["_order"]))
    for event in events:
        event.pop("_order", None)
    return {"events": events, "restated": len(restated_ids), "sampled": len(chosen)}


def restatements(
    *, session: Session, claim_id: str, offset: int = 0, limit: int = 50
) -> list[dict]:
    """Observations of a claim that changed nothing, newest first, one page of them."""
    columns = [getattr(Observation, f) for f in OBSERVATION_FIELDS]
    rows = session.exec(
        select(*columns)
        .where(Observation.claim_id == claim_id, col(Observation.changed).is_(False))
        .order_by(col(Observation.seen_at).desc(), col(Observation.id).desc())
        .offset(offset)
        .limit(limit)
    ).all()
    out = []
    for row in rows:
        event = _row_event(row)
        del event["_order"]
        out.append(event)
    return out


def alert_feed(*, session: Session, limit: int = 100) -> list[Alert]:
    """The newest alerts, one per event (an event alerted on two channels is one entry)."""
    first_ids = select(func.min(Alert.id)).group_by(Alert.event_key)
    return list(
        session.exec(
            select(Alert)
            .where(col(Alert.id).in_(first_ids))
            .order_by(col(Alert.id).desc())
            .limit(limit)
        )
    )


def milestones_alerted(*, session: Session) -> set[str]:
    """Claims whose milestone has been alerted overdue."""
    return set(
        session.exec(
            select(Alert.claim_id).where(
                Alert.kind == "milestone", col(Alert.claim_id).is_not(None)
            )
        )
    )


def has_polled_data(*, session: Session) -> bool:
    """Whether any watcher has stored anything here (the ledger alone does not count)."""
    return session.exec(select(WatcherState.name).limit(1)).first() is not None


def activity(*, session: Session, since: datetime) -> dict:
    """What the service has done: every watcher's state (polls and failures so far) and the
    alerts sent since `since`."""
    sent = session.exec(
        select(func.count(func.distinct(Alert.event_key))).where(
            Alert.status == "sent", Alert.sent_at >= since
        )
    ).one()
    return {"states": watchers(session=session), "alerts_sent": int(sent)}


def outbox_waiting(*, session: Session) -> bool:
    """Is any alert waiting to be sent (or being sent)? When none is, delivery has nothing to do."""
    query = select(Alert.id).where(col(Alert.status).in_(("pending", "sending"))).limit(1)
    return session.exec(query).first() is not None
