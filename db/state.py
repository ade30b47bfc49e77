"""Loading the state judging compares with: one Book per batch of polls, a few queries in all."""

from __future__ import annotations

import json

from sqlmodel import Session, col, func, select

from db.models import Claim, Item, Observation, SourceKey
from watchers.state import Book, ClaimState, KeyState
from watchers.state import SourceKey as SourceKeyState


def load_book(session: Session) -> Book:
    claims = {
        c.id: ClaimState(id=c.id, spec=json.loads(c.spec))
        for c in session.exec(select(Claim.id, Claim.spec))
    }
    first_ids = (
        select(func.min(Observation.id))
        .where(Observation.key != "")
        .group_by(Observation.claim_id, Observation.key)
    )
    for claim_id, key, value in session.exec(
        select(Observation.claim_id, Observation.key, Observation.value).where(
            col(Observation.id).in_(first_ids)
        )
    ):
        if claim_id in claims:
            claims[claim_id].keys[key] = KeyState(value=json.loads(value), history=[])
    changes = session.exec(
        select(
            Observation.claim_id,
            Observation.key,
            Observation.change_seq,
            Observation.value,
            Observation.verification,
            Observation.at,
        )
        .where(col(Observation.change_seq).is_not(None))
        .order_by(Observation.claim_id, Observation.key, Observation.change_seq)
    )
    for claim_id, key, seq, value, verification, at in changes:
        claim = claims.get(claim_id)
        if claim is None:
            continue
        state = claim.key(key) or claim.keys.setdefault(key, KeyState(value=None, history=[None]))
        if not state.history:
            state.history.append(state.value)
        state.apply_change(json.loads(value), seq, verification or "", at)
    for claim in claims.values():
        for state in claim.keys.values():
            if not state.history:
                state.history.append(state.value)
    _upgrade_verification(session, claims)
    return Book(
        claims=claims,
        sources=_sources(session),
        latest_items=_latest_items(session),
        version=book_version(session),
    )


def _upgrade_verification(session: Session, claims: dict[str, ClaimState]) -> None:
    """A measured confirmation of the current value can verify it better than its change did."""
    rows = session.exec(
        select(Observation.claim_id, Observation.key, Observation.verification, Observation.id)
        .where(Observation.role == "confirms", Observation.verification != "")
        .order_by(Observation.id)
    )
    for claim_id, key, verification, _ in rows:
        claim = claims.get(claim_id)
        state = claim.keys.get(key) if claim else None
        if state is not None:
            state.verification = better_verification(claim.spec, state.verification, verification)


def better_verification(spec: dict, current: str, other: str) -> str:
    levels = spec.get("verification_levels") or []
    if other in levels and (current not in levels or levels.index(other) > levels.index(current)):
        return other
    return current or other


def _sources(session: Session) -> dict:
    out: dict = {}
    for row in session.exec(select(SourceKey)):
        out.setdefault(row.source, {})[(row.claim_id, row.key)] = SourceKeyState(
            value=None if row.value is None else json.loads(row.value),
            group=row.grp,
            missing_since=row.missing_since,
            missing_polls=row.missing_polls,
            seq=row.seq,
        )
    return out


def _latest_items(session: Session) -> dict[str, tuple[int, str]]:
    latest = select(func.max(Item.id)).group_by(Item.watcher)
    return {
        watcher: (item_id, content_hash)
        for watcher, item_id, content_hash in session.exec(
            select(Item.watcher, Item.id, Item.content_hash).where(col(Item.id).in_(latest))
        )
    }


def book_version(session: Session) -> tuple[int, int]:
    """Grows whenever any process stores an observation or an item (one cheap query)."""
    obs, item = (
        session.connection()
        .exec_driver_sql("SELECT (SELECT MAX(id) FROM observations), (SELECT MAX(id) FROM items)")
        .one()
    )
    return (obs or 0, item or 0)
