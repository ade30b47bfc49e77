"""The one writer: everything that changes the database goes through here, one transaction a call."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, time

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from db.ledger import ClaimSpec, Ledger
from db.models import Alert, Claim, ClaimEvent


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
    """Who said it, as a reader knows them: `OpenAI blog via <publisher>`."""
    via = source.get("via")
    publisher = source.get("publisher", "")
    return f"{via} via {publisher}" if via else publisher


# ---------------------------------------------------------------- polls: see db/writer.py


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
