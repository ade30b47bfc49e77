"""The one writer: everything that changes the database goes through here, one transaction a call."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, time

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from db.ledger import ClaimSpec, Ledger
from db.models import Alert, Claim, ClaimEvent, Item, Observation, WatcherState


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass
class LoadReport:
    added: int = 0
    edited: int = 0
    unchanged: int = 0


def load_ledgers(
    engine: Engine, ledgers: list[Ledger], *, now: datetime | None = None
) -> LoadReport:
    """Seed or update claims. Idempotent; an edited baseline becomes a dated `edit` event."""
    now = now or datetime.now(UTC)
    for attempt in range(3):
        try:
            with Session(engine) as session:
                report = _load(session, ledgers, now)
                session.commit()
                return report
        except IntegrityError:
            if attempt == 2:  # another process kept winning the race; its rows are there
                raise
    raise AssertionError("unreachable")


def _load(session: Session, ledgers: list[Ledger], now: datetime) -> LoadReport:
    report = LoadReport()
    existing = {c.id: c for c in session.exec(select(Claim))}
    for ledger in ledgers:
        for spec in ledger.claims:
            claim = existing.get(spec.id)
            if claim is None:
                session.add(_claim_row(spec, ledger, now))
                session.flush()  # claim_events references it
                session.add(_baseline_event(spec, now))
                report.added += 1
            elif claim.spec_hash != spec.spec_hash:
                _edit(session, claim, spec, ledger, now)
                report.edited += 1
            else:
                report.unchanged += 1
    return report


def _claim_row(spec: ClaimSpec, ledger: Ledger, now: datetime) -> Claim:
    return Claim(
        id=spec.id,
        subject=spec.subject,
        ledger=ledger.name,
        title=spec.title,
        kind=spec.kind,
        unit=spec.unit,
        value=dumps(spec.value),
        spec=dumps(spec.spec),
        spec_hash=spec.spec_hash,
        loaded_at=now,
    )


def _baseline_event(spec: ClaimSpec, now: datetime) -> ClaimEvent:
    stated = spec.spec.get("stated_at")
    at = datetime.combine(datetime.fromisoformat(stated).date(), time(), UTC) if stated else now
    first = spec.spec["sources"][0]
    return ClaimEvent(
        claim_id=spec.id,
        seq=1,
        kind="baseline",
        at=at,
        value=dumps(spec.value),
        unit=spec.unit,
        spec_hash=spec.spec_hash,
        source=source_label(first),
        url=first.get("url", ""),
        excerpt=first.get("quote", ""),
    )


def _edit(session: Session, claim: Claim, spec: ClaimSpec, ledger: Ledger, now: datetime) -> None:
    seq = session.exec(
        select(func.max(ClaimEvent.seq)).where(ClaimEvent.claim_id == claim.id)
    ).one()
    session.add(
        ClaimEvent(
            claim_id=claim.id,
            seq=(seq or 0) + 1,
            kind="edit",
            at=now,
            value=dumps(spec.value),
            unit=spec.unit,
            previous_value=claim.value,
            spec_hash=spec.spec_hash,
            source=f"ledger {ledger.name}",
            url="",
            excerpt=_edit_summary(json.loads(claim.spec), spec.spec),
        )
    )
    fresh = _claim_row(spec, ledger, now)
    for field in (
        "subject",
        "ledger",
        "title",
        "kind",
        "unit",
        "value",
        "spec",
        "spec_hash",
        "loaded_at",
    ):
        setattr(claim, field, getattr(fresh, field))
    session.add(claim)


def _edit_summary(old: dict, new: dict) -> str:
    fields = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return "ledger edit: " + ", ".join(fields)


def source_label(source: dict) -> str:
    via = source.get("via")
    publisher = source.get("publisher", "")
    seed = source.get("seed_file", "")
    label = f"{via} via {publisher}" if via else publisher
    return f"{label} [{seed}]" if seed else label


# ---------------------------------------------------------------- polls


@dataclass
class ObservationDraft:
    claim_id: str
    key: str
    value: object
    unit: str
    signal: str
    excerpt: str
    changed: bool
    delta_pct: float | None
    previous: object


@dataclass
class ItemDraft:
    dedupe_key: str
    content_hash: str
    title: str
    url: str
    published_at: datetime | None
    relevant: bool
    observations: list[ObservationDraft]


@dataclass
class PollOutcome:
    """What one poll learned; `error_kind` None means the poll succeeded (or was not modified)."""

    watcher: str
    kind: str
    url: str
    started_at: datetime
    items: list[ItemDraft]
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    error_kind: str | None = None
    error: str | None = None
    warning: str | None = None
    next_due_at: datetime | None = None


@dataclass
class PollReport:
    watcher: str
    outcome: str  # ok | not-modified | failed kinds | raced
    items: int = 0
    observations: int = 0
    changes: int = 0
    error: str | None = None


def record_poll(
    engine: Engine, outcome: PollOutcome, *, channels: list[str], failures_alert: int
) -> PollReport:
    """Store a poll in one transaction: items, observations, outbox rows and the watcher's state.

    The unique keys on items make a poll that another process already stored a no-op ("raced").
    """
    now = outcome.started_at
    try:
        with Session(engine) as session:
            state = session.get(WatcherState, outcome.watcher, with_for_update=True)
            if state is None:
                state = WatcherState(name=outcome.watcher, kind=outcome.kind, url=outcome.url)
                session.add(state)
            state.kind, state.url = outcome.kind, outcome.url
            state.last_polled_at = now
            state.polls += 1
            state.next_due_at = outcome.next_due_at
            report = PollReport(watcher=outcome.watcher, outcome="ok")
            if outcome.error_kind:
                report.outcome, report.error = outcome.error_kind, outcome.error
                state.last_error, state.last_error_kind, state.last_error_at = (
                    outcome.error,
                    outcome.error_kind,
                    now,
                )
                state.consecutive_failures += 1
                if state.consecutive_failures >= failures_alert and state.health not in (
                    "failing",
                    "blocked",
                ):
                    state.health = "blocked" if outcome.error_kind == "blocked" else "failing"
                    _health_alert(session, state, channels, now, "failing")
            else:
                if state.health in ("failing", "blocked"):
                    _health_alert(session, state, channels, now, "recovered")
                state.health = "ok"
                state.consecutive_failures = 0
                state.last_success_at = now
                state.warning = outcome.warning
                if outcome.not_modified:
                    report.outcome = "not-modified"
                if outcome.etag is not None or outcome.last_modified is not None:
                    state.etag, state.last_modified = outcome.etag, outcome.last_modified
            session.flush()
            for draft in outcome.items:
                item = Item(
                    watcher=outcome.watcher,
                    dedupe_key=draft.dedupe_key,
                    content_hash=draft.content_hash,
                    title=draft.title[:2000],
                    url=draft.url[:2000],
                    published_at=draft.published_at,
                    seen_at=now,
                    relevant=draft.relevant,
                )
                session.add(item)
                session.flush()
                report.items += 1
                for obs in draft.observations:
                    if obs.changed and _already_current(session, obs):
                        obs.changed, obs.delta_pct = False, None  # another poll got there first
                    row = Observation(
                        claim_id=obs.claim_id,
                        key=obs.key,
                        value=dumps(obs.value),
                        value_num=obs.value
                        if isinstance(obs.value, int | float) and not isinstance(obs.value, bool)
                        else None,
                        unit=obs.unit,
                        at=draft.published_at or now,
                        seen_at=now,
                        source=outcome.watcher,
                        url=draft.url[:2000],
                        title=draft.title[:2000],
                        excerpt=obs.excerpt[:2000],
                        signal=obs.signal,
                        changed=obs.changed,
                        delta_pct=obs.delta_pct,
                        previous_value=None if obs.previous is None else dumps(obs.previous),
                        item_id=item.id,
                    )
                    session.add(row)
                    session.flush()
                    report.observations += 1
                    if obs.changed:
                        report.changes += 1
                        for channel in channels:
                            session.add(
                                Alert(
                                    event_key=f"obs:{row.id}",
                                    channel=channel,
                                    kind="change",
                                    observation_id=row.id,
                                    item_id=item.id,
                                    claim_id=obs.claim_id,
                                    created_at=now,
                                    next_attempt_at=now,
                                )
                            )
            if report.items:
                state.items_seen += report.items
                state.last_new_item_at = now
            session.add(state)
            session.commit()
            return report
    except IntegrityError:
        return PollReport(watcher=outcome.watcher, outcome="raced")


def _already_current(session, obs: ObservationDraft) -> bool:
    """Inside the write transaction: is this value already the claim's latest change?"""
    latest = session.exec(
        select(Observation.value)
        .where(
            Observation.claim_id == obs.claim_id,
            Observation.key == obs.key,
            Observation.changed,
        )
        .order_by(Observation.id.desc())
        .limit(1)
    ).first()
    return latest is not None and latest == dumps(obs.value)


def _health_alert(session, state, channels: list[str], now: datetime, what: str) -> None:
    body = dumps(
        {
            "watcher": state.name,
            "state": what,
            "error": state.last_error,
            "kind": state.last_error_kind,
            "failures": state.consecutive_failures,
        }
    )
    for channel in channels:
        session.add(
            Alert(
                event_key=f"health:{state.name}:{what}:{now.isoformat()}",
                channel=channel,
                kind="health",
                subject=f"watcher {state.name} {'is failing' if what == 'failing' else 'recovered'}",
                body=body,
                created_at=now,
                next_attempt_at=now,
            )
        )


def record_milestone_alerts(
    engine: Engine, overdue: list[dict], *, channels: list[str], now: datetime
) -> int:
    """One alert per milestone whose due date passed unconfirmed; the unique key makes it once ever."""
    added = 0
    for milestone in overdue:
        for channel in channels:
            with Session(engine) as session:
                session.add(
                    Alert(
                        event_key=f"milestone:{milestone['claim_id']}:overdue:{milestone['due']}",
                        channel=channel,
                        kind="milestone",
                        claim_id=milestone["claim_id"],
                        subject=f"{milestone['title']}: overdue since {milestone['due']}",
                        body=dumps(
                            {
                                "claim_id": milestone["claim_id"],
                                "claim_title": milestone["title"],
                                "due": milestone["due"],
                                "state": milestone["state"],
                            }
                        ),
                        created_at=now,
                        next_attempt_at=now,
                    )
                )
                try:
                    session.commit()
                    added += 1
                except IntegrityError:
                    session.rollback()  # raised before: once is enough
    return added
